//! The word model: which root-cause category the words of a report point at, learned from the
//! real-error corpus (`tests/explain_corpus/*.toml`, each a public issue thread with the category
//! of the fix it confirmed).
//!
//! It is a multinomial naive Bayes over the distinct words of a text, the distinct pairs of
//! words that follow each other in it, the words of its first line once more, as title words, and
//! the pairs of characters of its Chinese, Japanese or Korean text ([`features`]), kept as counts in `data/words.tsv`: for each category, how many corpus reports
//! it labels and how many occurrences they hold, and for each feature seen in at least two
//! reports, in how many reports of each category it occurs. `tests/explain_corpus.rs` trains it
//! again from the corpus and fails when the table is stale (`CUDOCTOR_UPDATE_WORDS=1 cargo test
//! --test explain_corpus` rewrites it). The pairs were measured against words alone on the corpus,
//! leave-one-out, and on the 191 held-out reports: 3046 → 3055 of 4524 and 98 → 102 of 191; the
//! title words then 3055 → 3065, and 102 of 191 still.
//!
//! `explain` uses it only where no signature matches: it replaces guessing from a fixed keyword
//! list with the corpus's own evidence of which words go with which fix. Measured on reports the
//! corpus did not hold, it answers more of them right than the keyword vote did (see the README).
//! Pure functions of the text and the counts.

use super::Category;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// Additive smoothing of the word counts.
const ALPHA: f64 = 0.2;
/// A word must occur in this many corpus reports to be kept (one report's idiosyncrasies are not
/// evidence).
const MIN_REPORTS: u32 = 2;
/// The longest word kept (longer runs are hashes, paths glued together, base64).
const MAX_WORD: usize = 32;

/// The runs of a text that count as words, in order, as written: maximal runs of ASCII letters,
/// digits and `_` (what the word model and the known reports both read).
pub fn runs_of_word_characters(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// A run of word characters as a word: one that starts with a letter and is 2 to 32 bytes long,
/// lower-cased; `None` for any other run (a number, a hash, a letter alone).
fn word(run: &str) -> Option<String> {
    ((2..=MAX_WORD).contains(&run.len()) && run.as_bytes()[0].is_ascii_alphabetic())
        .then(|| run.to_ascii_lowercase())
}

/// The distinct words of `text`: [`runs_of_word_characters`] that start with a letter, 2 to 32
/// bytes long, lower-cased (`CUDNN_STATUS_INTERNAL_ERROR`, `cu118`, `sm_86`).
pub fn words(text: &str) -> BTreeSet<String> {
    runs_of_word_characters(text).filter_map(word).collect()
}

/// What the model counts in a text: its distinct [`words`], the distinct pairs of words that
/// follow each other in it ("no kernel", "out of", "not compiled"), written with a space between,
/// and the words of its first line again, marked `t:` (a pasted report's title says what the
/// thread is about: `t:install` is not `install` in a traceback's path). A pair says more than
/// its two words apart: "not compiled" and "compiled … not" are different reports. And the
/// `cjk_pairs` of the text, which has no spaces where it is Chinese, Japanese or Korean.
pub fn features(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let title = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    for w in words(title) {
        out.insert(format!("{TITLE}{w}"));
    }
    let mut previous: Option<String> = None;
    for run in runs_of_word_characters(text) {
        let Some(w) = word(run) else {
            previous = None;
            continue;
        };
        if let Some(p) = previous.take() {
            out.insert(format!("{p} {w}"));
        }
        out.insert(w.clone());
        previous = Some(w);
    }
    out.extend(cjk_pairs(text));
    out
}

/// Whether a character is Chinese, Japanese or Korean script (CJK ideographs, kana, Hangul): text
/// written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3040}'..='\u{30ff}' | '\u{ac00}'..='\u{d7af}')
}

/// The pairs of CJK characters that follow each other in `text` ("显存", "存不", "不足"): Chinese
/// and Japanese reports have no spaces to cut words at, and most of their words are two
/// characters, so each pair is a feature (it is what a word is to the rest of the model).
fn cjk_pairs(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(2).filter(|w| w.iter().all(|&c| is_cjk(c))).map(|w| w.iter().collect()).collect()
}

/// The mark of a first-line word among the [`features`].
const TITLE: &str = "t:";

/// Whether a table row's name is one [`features`] can produce: a word or two words with a space
/// between, marked [`TITLE`] or not, each a whole run of word characters as [`word`] keeps it.
fn is_feature(name: &str) -> bool {
    if name.chars().count() == 2 && name.chars().all(is_cjk) {
        return true;
    }
    let body = name.strip_prefix(TITLE).unwrap_or(name);
    let parts: Vec<&str> = body.split(' ').collect();
    parts.len() <= 2
        && parts.iter().all(|p| runs_of_word_characters(p).eq([*p]) && word(p).as_deref() == Some(*p))
}

/// Counts per category, indexed like [`Category::ALL`].
type PerCategory = [u32; 17];

fn index(c: Category) -> usize {
    Category::ALL.iter().position(|&k| k == c).expect("every category is in ALL")
}

/// The trained counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordModel {
    /// Reports per category.
    reports: PerCategory,
    /// Word occurrences (distinct words per report, kept words only) per category.
    occurrences: PerCategory,
    /// Per kept word, the reports of each category that contain it.
    counts: BTreeMap<String, PerCategory>,
}

/// One category as the words rank it.
#[derive(Debug, Clone, PartialEq)]
pub struct WordVote {
    /// The category.
    pub category: Category,
    /// Its share, tempered so that the ranking rules can still move it (the raw posterior of a
    /// naive Bayes is close to 0 or 1 and overconfident).
    pub share: f64,
    /// The text's words that speak most for it, strongest first (at most four).
    pub words: Vec<String>,
}

/// Why a word table could not be read.
#[derive(Debug, thiserror::Error)]
#[error("word table line {line}: {what}")]
pub struct WordTableError {
    line: usize,
    what: String,
}

impl WordModel {
    /// Trains on labelled reports.
    pub fn train<'a>(reports: impl IntoIterator<Item = (&'a str, Category)>) -> WordModel {
        let docs: Vec<(BTreeSet<String>, usize)> =
            reports.into_iter().map(|(text, c)| (features(text), index(c))).collect();
        let mut in_reports: BTreeMap<&str, u32> = BTreeMap::new();
        for (ws, _) in &docs {
            for w in ws {
                *in_reports.entry(w).or_default() += 1;
            }
        }
        let mut model = WordModel { reports: [0; 17], occurrences: [0; 17], counts: BTreeMap::new() };
        for (ws, c) in &docs {
            model.reports[*c] += 1;
            for w in ws.iter().filter(|w| in_reports[w.as_str()] >= MIN_REPORTS) {
                model.occurrences[*c] += 1;
                model.counts.entry(w.clone()).or_insert([0; 17])[*c] += 1;
            }
        }
        model
    }

    /// The model without one of the reports it was trained on, exactly as if trained without it
    /// (for leave-one-out measurement: a report must not vote for itself). A word left in fewer
    /// than `MIN_REPORTS` reports leaves the vocabulary.
    pub fn without(&self, text: &str, category: Category) -> WordModel {
        let mut m = self.clone();
        let c = index(category);
        m.reports[c] = m.reports[c].saturating_sub(1);
        for w in features(text) {
            let Some(n) = m.counts.get_mut(&w) else { continue };
            if n[c] > 0 {
                n[c] -= 1;
                m.occurrences[c] -= 1;
            }
            if n.iter().sum::<u32>() < MIN_REPORTS {
                for (k, left) in n.iter().enumerate() {
                    m.occurrences[k] -= left;
                }
                m.counts.remove(&w);
            }
        }
        m
    }

    /// How many reports the model was trained on.
    pub fn reports(&self) -> u32 {
        self.reports.iter().sum()
    }

    /// How many of the text's words (and pairs of CJK characters) the model knows.
    pub fn known_words(&self, text: &str) -> usize {
        let cjk = cjk_pairs(text);
        words(text).iter().chain(&cjk).filter(|w| self.counts.contains_key(*w)).count()
    }

    /// ln P(word | category), smoothed.
    fn log_likelihood(&self, word: &PerCategory, c: usize) -> f64 {
        let vocabulary = self.counts.len() as f64;
        ((f64::from(word[c]) + ALPHA) / (f64::from(self.occurrences[c]) + ALPHA * vocabulary)).ln()
    }

    /// The categories the words of `text` point at, strongest first; empty when the model knows
    /// none of its words. Shares sum to 1 over the categories listed (those of at least 2%, at most six).
    pub fn rank(&self, text: &str) -> Vec<WordVote> {
        let known: Vec<(&str, &PerCategory)> = features(text)
            .into_iter()
            .filter_map(|w| self.counts.get_key_value(&w))
            .map(|(w, n)| (w.as_str(), n))
            .collect();
        let total = f64::from(self.reports());
        if known.is_empty() || total == 0.0 {
            return Vec::new();
        }
        // ln P(c) + Σ ln P(w | c), per category that has reports.
        let scores: Vec<(usize, f64)> = (0..17)
            .filter(|&c| self.reports[c] > 0)
            .map(|c| {
                let prior = (f64::from(self.reports[c]) / total).ln();
                (c, prior + known.iter().map(|(_, n)| self.log_likelihood(n, c)).sum::<f64>())
            })
            .collect();
        // Tempered: the per-word mean of the log-likelihoods, scaled. Naive Bayes counts every
        // word as independent evidence, so its raw posterior is near-certain on any long text.
        let scale = TEMPER / known.len() as f64;
        let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let mut shares: Vec<(usize, f64)> =
            scores.iter().map(|&(c, s)| (c, ((s - best) * scale).exp())).collect();
        let sum: f64 = shares.iter().map(|s| s.1).sum();
        shares.iter_mut().for_each(|s| s.1 /= sum);
        shares.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        shares.retain(|s| s.1 >= 0.02);
        shares.truncate(6);
        let kept: f64 = shares.iter().map(|s| s.1).sum();
        shares
            .into_iter()
            .map(|(c, share)| WordVote {
                category: Category::ALL[c],
                share: share / kept,
                words: self.strongest_words(&known, c),
            })
            .collect()
    }

    /// The known words that raise category `c` most over the others, strongest first.
    fn strongest_words(&self, known: &[(&str, &PerCategory)], c: usize) -> Vec<String> {
        let mut lift: Vec<(f64, &str)> = known
            .iter()
            .map(|(w, n)| {
                let others = (0..17)
                    .filter(|&k| k != c && self.reports[k] > 0)
                    .map(|k| self.log_likelihood(n, k))
                    .fold(f64::NEG_INFINITY, f64::max);
                (self.log_likelihood(n, c) - others, *w)
            })
            .filter(|(l, w)| *l > MIN_LIFT && !w.contains([' ', ':']) && !PROSE.contains(w))
            .collect();
        lift.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        lift.into_iter().take(4).map(|(_, w)| w.to_string()).collect()
    }

    /// The table as written to `data/words.tsv`.
    pub fn to_table(&self) -> String {
        let mut out = String::from(
            "# cudoctor's word model: trained from tests/explain_corpus by\n\
             # CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus; do not edit by hand.\n\
             # Columns: the 17 categories in vocabulary order; rows: reports per category, word\n\
             # occurrences per category, then each word with the reports of each category holding it.\n",
        );
        let row = |out: &mut String, name: &str, n: &PerCategory| {
            out.push_str(name);
            for v in n {
                let _ = write!(out, "\t{v}");
            }
            out.push('\n');
        };
        out.push('#');
        for c in Category::ALL {
            let _ = write!(out, "\t{c}");
        }
        out.push('\n');
        row(&mut out, "@reports", &self.reports);
        row(&mut out, "@occurrences", &self.occurrences);
        for (w, n) in &self.counts {
            row(&mut out, w, n);
        }
        out
    }

    /// Reads a table written by [`WordModel::to_table`].
    pub fn from_table(text: &str) -> Result<WordModel, WordTableError> {
        let mut model = WordModel { reports: [0; 17], occurrences: [0; 17], counts: BTreeMap::new() };
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.is_empty()) {
            let err = |what: &str| WordTableError { line: i + 1, what: what.into() };
            let mut cells = line.split('\t');
            let name = cells.next().unwrap_or_default();
            let mut n: PerCategory = [0; 17];
            for slot in &mut n {
                *slot = cells
                    .next()
                    .ok_or_else(|| err("fewer than 17 counts"))?
                    .parse()
                    .map_err(|_| err("not a count"))?;
            }
            if cells.next().is_some() {
                return Err(err("more than 17 counts"));
            }
            match name {
                "@reports" => model.reports = n,
                "@occurrences" => model.occurrences = n,
                w if is_feature(w) => {
                    model.counts.insert(w.to_string(), n);
                }
                _ => return Err(err("not a word")),
            }
        }
        Ok(model)
    }
}

/// How sharply the tempered shares separate: the per-word mean log-likelihood difference is
/// multiplied by this before the softmax (chosen on the corpus, leave-one-out, and 80 reports
/// outside it: 2 to 8 rank alike; sharper shares leave the ranking rules too little to move).
const TEMPER: f64 = 4.0;

/// A word is shown as speaking for a category when it is this much likelier (ln) under it than
/// under any other.
const MIN_LIFT: f64 = 0.3;

/// Words of prose that the model weighs like any other but that are no reason to show a user.
const PROSE: &[&str] = &[
    "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "below", "but", "by", "can", "could", "did", "do", "does", "for", "from", "get", "got",
    "had", "has", "have", "here", "how", "if", "in", "into", "is", "issue", "it", "its", "just", "me", "my",
    "no", "not", "now", "of", "on", "one", "or", "our", "out", "please", "same", "see", "so", "some",
    "still", "that", "the", "then", "there", "this", "to", "tried", "try", "up", "use", "used", "using",
    "was", "we", "what", "when", "which", "while", "will", "with", "would", "you", "your",
];

/// The embedded model, read once.
pub fn model() -> &'static WordModel {
    static MODEL: OnceLock<WordModel> = OnceLock::new();
    MODEL.get_or_init(|| {
        WordModel::from_table(include_str!("../../data/words.tsv"))
            .expect("data/words.tsv is embedded and checked by tests")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> WordModel {
        WordModel::train([
            ("CUDA out of memory. Tried to allocate 2 GiB", Category::Oom),
            ("RuntimeError: CUDA out of memory while training", Category::Oom),
            ("docker: could not select device driver with capabilities gpu", Category::ContainerRuntime),
            (
                "docker run without the nvidia runtime: could not select device driver",
                Category::ContainerRuntime,
            ),
            ("libcudnn.so.8: cannot open shared object file", Category::LibraryNotFound),
        ])
    }

    #[test]
    fn pairs_of_words_are_counted_as_written_in_order() {
        let f = features("Torch not compiled with CUDA enabled; x86 64");
        assert!(f.contains("not compiled") && f.contains("compiled with") && f.contains("torch"));
        assert!(!f.contains("compiled not"));
        // A run that is no word (a number) breaks the pair: "x86 64" is not one.
        assert!(!f.iter().any(|w| w.ends_with(" 64") || w.starts_with("64")));
        assert!(f.contains("enabled x86"));
        // The first line's words count again as the title's; a later line's do not.
        let t = features("\nundefined symbol in flash_attn\nafter pip install");
        assert!(t.contains("t:undefined") && t.contains("t:flash_attn") && !t.contains("t:install"));
    }

    #[test]
    fn chinese_and_japanese_text_counts_by_pairs_of_characters() {
        // No spaces to cut at: each pair of CJK characters in a row is a feature, ASCII words
        // around them stay words.
        let f = features("训练时显存不足 CUDA out of memory、GPUが使えない");
        for pair in ["显存", "存不", "不足", "使え"] {
            assert!(f.contains(pair), "{pair}: {f:?}");
        }
        assert!(f.contains("cuda") && f.contains("out of"));
        assert!(!f.iter().any(|w| w.contains("足C") || w.contains("、")), "{f:?}");
        assert!(is_feature("显存") && !is_feature("显存不"));
        let m = WordModel::train([
            ("训练时显存不足", Category::Oom),
            ("推理时显存不足", Category::Oom),
            ("找不到 libcudnn.so.8", Category::CudnnMissing),
        ]);
        assert_eq!(m.known_words("显存不足怎么办"), 3);
        assert_eq!(m.rank("显存不足怎么办")[0].category, Category::Oom);
    }

    #[test]
    fn words_are_lower_cased_runs_that_start_with_a_letter() {
        let w = words("CUDNN_STATUS_INTERNAL_ERROR on sm_86 with cu118; 3090 x 2GB a");
        let got: Vec<&str> = w.iter().map(String::as_str).collect();
        assert_eq!(got, ["cu118", "cudnn_status_internal_error", "on", "sm_86", "with"]);
    }

    #[test]
    fn a_report_ranks_the_category_whose_reports_share_its_words() {
        let m = toy();
        let r = m.rank("the docker container says: could not select device driver");
        assert_eq!(r[0].category, Category::ContainerRuntime);
        assert!(r[0].words.contains(&"docker".to_string()), "{:?}", r[0].words);
        assert!((r.iter().map(|v| v.share).sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(m.rank("CUDA out of memory")[0].category, Category::Oom);
        assert!(m.rank("nothing the corpus has").is_empty());
    }

    #[test]
    fn a_word_of_one_report_only_is_not_kept() {
        let m = toy();
        assert_eq!(m.known_words("libcudnn shared object"), 0);
        assert_eq!(m.known_words("docker memory"), 2);
    }

    #[test]
    fn leaving_a_report_out_removes_its_counts() {
        let m = toy();
        let text = "docker run without the nvidia runtime: could not select device driver";
        let loo = m.without(text, Category::ContainerRuntime);
        assert_eq!(loo.reports(), m.reports() - 1);
        // "docker" was in two reports: with one left it is no longer a word the model keeps, as
        // training without that report would have it.
        assert!(!loo.counts.contains_key("docker"));
        let rest: Vec<(&str, Category)> = vec![
            ("CUDA out of memory. Tried to allocate 2 GiB", Category::Oom),
            ("RuntimeError: CUDA out of memory while training", Category::Oom),
            ("docker: could not select device driver with capabilities gpu", Category::ContainerRuntime),
            ("libcudnn.so.8: cannot open shared object file", Category::LibraryNotFound),
        ];
        assert_eq!(loo, WordModel::train(rest));
    }

    #[test]
    fn the_table_reads_back_what_it_wrote_and_rejects_damage() {
        let m = toy();
        assert_eq!(WordModel::from_table(&m.to_table()).unwrap(), m);
        assert!(WordModel::from_table("docker\t1\t2\n").is_err());
        assert!(
            WordModel::from_table("Not A Word\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n").is_err()
        );
        // A pair and a title word are rows; three words, or a word with a dash, are not.
        let zeros = "\t0".repeat(17);
        for (name, ok) in
            [("no kernel", true), ("t:cudnn", true), ("no kernel image", false), ("t:x-y", false)]
        {
            assert_eq!(WordModel::from_table(&format!("{name}{zeros}\n")).is_ok(), ok, "{name}");
        }
    }

    #[test]
    fn the_embedded_table_parses_and_is_trained_on_hundreds_of_reports() {
        assert!(model().reports() >= 900, "{}", model().reports());
    }
}
