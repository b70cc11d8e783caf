//! The word model: which root-cause category the words of a report point at, learned from the
//! real-error corpus (`tests/explain_corpus/*.toml`, each a public issue thread with the category
//! of the fix it confirmed).
//!
//! It is a linear support vector machine per category (one against the rest) over the
//! features of a text ([`features`]): its distinct words, the distinct pairs of words that follow
//! each other in it, the words of its first line once more, as title words, and the pairs of
//! characters of its Chinese, Japanese or Korean text. A report is the unit vector of its
//! features' inverse document frequencies. `data/words.tsv` keeps, for each feature seen in at
//! least two reports, in how many it occurs and its weight for each category (in thousandths),
//! and each category's constant term. `tests/explain_corpus.rs` trains it again from the corpus
//! and fails when the table is stale (`CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus`
//! rewrites it); training takes a few seconds.
//!
//! It replaced a multinomial naive Bayes over the same features (session 15). Measured in ten
//! folds of the corpus (each report ranked by a model that never saw it), the model alone put the
//! right category first for 4631 of 7350 reports where the naive Bayes did for 4256 (4398 as a
//! complement naive Bayes, 4506 as a logistic regression); the whole explanation, keyword vote and
//! ranking rules included, went from 4887 (the naive Bayes, leave-one-out) to 4948, and the 191
//! held-out reports from 107 to 109 (`scripts/word-model-experiments.py` compares the
//! classifiers outside the tests).
//!
//! `explain` uses it only where no signature matches: it replaces guessing from a fixed keyword
//! list with the corpus's own evidence of which words go with which fix. Measured on reports the
//! corpus did not hold, it answers more of them right than the keyword vote did (see the README).
//! Pure functions of the text and the weights; training is deterministic (a fixed shuffle).

use super::Category;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

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

/// Counts or weights per category, indexed like [`Category::ALL`].
type PerCategory<T> = [T; 17];

fn index(c: Category) -> usize {
    Category::ALL.iter().position(|&k| k == c).expect("every category is in ALL")
}

/// A feature the model keeps: in how many training reports it occurs (its inverse document
/// frequency is read from that) and its weight for each category, in thousandths.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Feature {
    reports: u32,
    weights: PerCategory<i32>,
}

/// The trained model: a linear classifier per category over the text's features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordModel {
    /// Training reports per category.
    reports: PerCategory<u32>,
    /// Each category's constant term, in thousandths.
    bias: PerCategory<i32>,
    /// The kept features.
    features: BTreeMap<String, Feature>,
}

/// One category as the words rank it.
#[derive(Debug, Clone, PartialEq)]
pub struct WordVote {
    /// The category.
    pub category: Category,
    /// Its share, tempered so that the ranking rules can still move it.
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

/// The regularisation constant of the support vector machine (larger fits the corpus closer).
/// Chosen on the corpus in ten folds: 0.25, 0.5 and 1 gave 4561, 4631 and 4607 of 7350 for the
/// model alone; 0.5 is also the best on the reports no signature knows.
const C: f64 = 0.5;
/// The training stops when no report's gradient is further than this from the others' (the
/// dual problem's optimality gap).
const TOLERANCE: f64 = 0.05;
/// At most this many passes over the reports per category.
const MAX_PASSES: usize = 500;

/// The weight of feature occurrences: the smoothed inverse document frequency
/// ln((1 + n) / (1 + df)) + 1, so that a word every report holds counts least.
fn idf(reports: u32, total: u32) -> f64 {
    ((1.0 + f64::from(total)) / (1.0 + f64::from(reports))).ln() + 1.0
}

/// A weight as stored, in thousandths.
fn thousandths(w: f64) -> i32 {
    (w * 1000.0).round() as i32
}

/// One report as the training reads it: its features' indices and their values (inverse
/// document frequency, the whole vector of unit length), sorted by index.
type Sparse = Vec<(usize, f64)>;

/// The weights (features, then the constant term last) of the one-against-the-rest linear
/// support vector machine for one category: L2-regularised, squared hinge loss, solved in its
/// dual by coordinate descent (Hsieh et al., ICML 2008, "A dual coordinate descent method for
/// large-scale linear SVM"), with the constant term as one more feature of value 1. The order
/// of the reports in each pass is shuffled by a fixed generator, so training is reproducible.
fn train_one(docs: &[(Sparse, usize)], category: usize, dims: usize) -> Vec<f64> {
    let mut w = vec![0.0; dims + 1];
    let mut alpha = vec![0.0; docs.len()];
    // D of the squared hinge loss, and each report's diagonal entry (unit vector, constant 1).
    let d = 1.0 / (2.0 * C);
    let q = 1.0 + 1.0 + d;
    let mut order: Vec<usize> = (0..docs.len()).collect();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ category as u64;
    for _ in 0..MAX_PASSES {
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let (mut high, mut low) = (f64::NEG_INFINITY, f64::INFINITY);
        for &i in &order {
            let (x, c) = &docs[i];
            let y = if *c == category { 1.0 } else { -1.0 };
            let margin = x.iter().map(|&(f, v)| w[f] * v).sum::<f64>() + w[dims];
            let g = y * margin - 1.0 + d * alpha[i];
            let projected = if alpha[i] == 0.0 { g.min(0.0) } else { g };
            high = high.max(projected);
            low = low.min(projected);
            if projected.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = (old - g / q).max(0.0);
                let step = (alpha[i] - old) * y;
                for &(f, v) in x {
                    w[f] += step * v;
                }
                w[dims] += step;
            }
        }
        if high - low <= TOLERANCE {
            break;
        }
    }
    w
}

/// Models for measuring the word model on the reports it learns from: `k` models, the `i`-th
/// trained on every report whose fold (`folds`, one per report, each below `k`) is not `i`, so a
/// report of fold `f` is ranked by model `f`, which never saw it (k-fold cross-validation: a
/// classifier cannot cheaply forget one report, so leave-one-out would mean a training per report).
pub fn cross_validation(reports: &[(&str, Category)], folds: &[usize], k: usize) -> Vec<WordModel> {
    assert_eq!(reports.len(), folds.len(), "one fold per report");
    (0..k)
        .map(|fold| WordModel::train(reports.iter().zip(folds).filter(|(_, &f)| f != fold).map(|(&r, _)| r)))
        .collect()
}

impl WordModel {
    /// Trains on labelled reports: the features kept are those of at least `MIN_REPORTS`
    /// reports, each report a unit vector of their inverse document frequencies, and one linear
    /// classifier per category is fitted against the rest (`train_one`, the categories in
    /// parallel).
    pub fn train<'a>(reports: impl IntoIterator<Item = (&'a str, Category)>) -> WordModel {
        let labelled: Vec<(BTreeSet<String>, usize)> =
            reports.into_iter().map(|(text, c)| (features(text), index(c))).collect();
        let mut df: BTreeMap<&str, u32> = BTreeMap::new();
        for (fs, _) in &labelled {
            for f in fs {
                *df.entry(f).or_default() += 1;
            }
        }
        df.retain(|_, n| *n >= MIN_REPORTS);
        let total = labelled.len() as u32;
        let position: BTreeMap<&str, usize> = df.keys().enumerate().map(|(i, f)| (*f, i)).collect();
        let weight: Vec<f64> = df.values().map(|&n| idf(n, total)).collect();
        let mut counts: PerCategory<u32> = [0; 17];
        let docs: Vec<(Sparse, usize)> = labelled
            .iter()
            .map(|(fs, c)| {
                counts[*c] += 1;
                let mut x: Sparse =
                    fs.iter().filter_map(|f| position.get(f.as_str())).map(|&i| (i, weight[i])).collect();
                let norm = x.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
                x.iter_mut().for_each(|(_, v)| *v /= norm.max(f64::MIN_POSITIVE));
                (x, *c)
            })
            .collect();
        let dims = df.len();
        let trained: Vec<usize> = (0..17).filter(|&c| counts[c] > 0).collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(trained.len().max(1));
        let mut weights: Vec<Option<Vec<f64>>> = vec![None; 17];
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (docs, trained) = (&docs, &trained);
                    s.spawn(move || {
                        trained
                            .iter()
                            .skip(t)
                            .step_by(threads)
                            .map(|&c| (c, train_one(docs, c, dims)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                for (c, w) in h.join().expect("training does not panic") {
                    weights[c] = Some(w);
                }
            }
        });
        let at = |c: usize, f: usize| weights[c].as_ref().map_or(0, |w| thousandths(w[f]));
        WordModel {
            reports: counts,
            bias: std::array::from_fn(|c| at(c, dims)),
            features: df
                .iter()
                .enumerate()
                .map(|(i, (f, &n))| {
                    (f.to_string(), Feature { reports: n, weights: std::array::from_fn(|c| at(c, i)) })
                })
                .collect(),
        }
    }

    /// How many reports the model was trained on.
    pub fn reports(&self) -> u32 {
        self.reports.iter().sum()
    }

    /// How many of the text's words (and pairs of CJK characters) the model knows.
    pub fn known_words(&self, text: &str) -> usize {
        let cjk = cjk_pairs(text);
        words(text).iter().chain(&cjk).filter(|w| self.features.contains_key(*w)).count()
    }

    /// The categories the words of `text` point at, strongest first; empty when the model knows
    /// none of its words. Shares sum to 1 over the categories listed (those of at least 2%, at
    /// most six).
    pub fn rank(&self, text: &str) -> Vec<WordVote> {
        let total = self.reports();
        let known: Vec<(&str, &Feature, f64)> = features(text)
            .into_iter()
            .filter_map(|w| self.features.get_key_value(&w))
            .map(|(w, f)| (w.as_str(), f, idf(f.reports, total)))
            .collect();
        if known.is_empty() || total == 0 {
            return Vec::new();
        }
        let norm = known.iter().map(|k| k.2 * k.2).sum::<f64>().sqrt();
        let scores: Vec<(usize, f64)> = (0..17)
            .filter(|&c| self.reports[c] > 0)
            .map(|c| {
                let dot: f64 = known.iter().map(|(_, f, v)| f64::from(f.weights[c]) * v).sum();
                (c, (f64::from(self.bias[c]) + dot / norm) / 1000.0)
            })
            .collect();
        // The margins as shares: a softmax, sharp enough to keep the classifier's order and
        // soft enough that the ranking rules can still move a close second.
        let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let mut shares: Vec<(usize, f64)> =
            scores.iter().map(|&(c, s)| (c, ((s - best) * TEMPER).exp())).collect();
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

    /// The known words that raise category `c` most over the strongest other category,
    /// strongest first.
    fn strongest_words(&self, known: &[(&str, &Feature, f64)], c: usize) -> Vec<String> {
        let mut lift: Vec<(i64, &str)> = known
            .iter()
            .map(|(w, f, _)| {
                let others = (0..17).filter(|&k| k != c && self.reports[k] > 0).map(|k| f.weights[k]).max();
                (i64::from(f.weights[c]) - i64::from(others.unwrap_or(0)), *w)
            })
            .filter(|(l, w)| {
                *l > MIN_LIFT && !w.contains([' ', ':']) && !PROSE.contains(w) && !PATHS.contains(w)
            })
            .collect();
        lift.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        lift.into_iter().take(4).map(|(_, w)| w.to_string()).collect()
    }

    /// The table as written to `data/words.tsv`.
    pub fn to_table(&self) -> String {
        let mut out = String::from(
            "# cudoctor's word model: trained from tests/explain_corpus by\n\
             # CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus; do not edit by hand.\n\
             # Rows: reports per category; each category's constant term (thousandths); then each\n\
             # feature, the reports holding it, and its weight for each category (thousandths).\n",
        );
        out.push_str("#\t");
        for c in Category::ALL {
            let _ = write!(out, "\t{c}");
        }
        out.push('\n');
        out.push_str("@reports\t");
        for v in self.reports {
            let _ = write!(out, "\t{v}");
        }
        out.push_str("\n@bias\t");
        for v in self.bias {
            let _ = write!(out, "\t{v}");
        }
        out.push('\n');
        for (name, f) in &self.features {
            let _ = write!(out, "{name}\t{}", f.reports);
            for v in f.weights {
                let _ = write!(out, "\t{v}");
            }
            out.push('\n');
        }
        out
    }

    /// Reads a table written by [`WordModel::to_table`].
    pub fn from_table(text: &str) -> Result<WordModel, WordTableError> {
        let mut model = WordModel { reports: [0; 17], bias: [0; 17], features: BTreeMap::new() };
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.is_empty()) {
            let err = |what: &str| WordTableError { line: i + 1, what: what.into() };
            let mut cells = line.split('\t');
            let name = cells.next().unwrap_or_default();
            let first = cells.next().ok_or_else(|| err("fewer than 18 cells"))?;
            let mut n: PerCategory<i32> = [0; 17];
            for slot in &mut n {
                *slot = cells
                    .next()
                    .ok_or_else(|| err("fewer than 18 cells"))?
                    .parse()
                    .map_err(|_| err("not a number"))?;
            }
            if cells.next().is_some() {
                return Err(err("more than 18 cells"));
            }
            let count = |v: i32| u32::try_from(v).map_err(|_| err("a negative count"));
            match name {
                "@reports" if first.is_empty() => {
                    for (slot, v) in model.reports.iter_mut().zip(n) {
                        *slot = count(v)?;
                    }
                }
                "@bias" if first.is_empty() => model.bias = n,
                w if is_feature(w) => {
                    let reports = first.parse().map_err(|_| err("not a count"))?;
                    model.features.insert(w.to_string(), Feature { reports, weights: n });
                }
                _ => return Err(err("not a word")),
            }
        }
        Ok(model)
    }
}

/// How sharply the shares separate: the classifiers' margins are multiplied by this before the
/// softmax (chosen on the corpus in ten folds, the whole explanation measured: 2, 5, 10 and 20
/// gave 4911, 4943, 4935 and 4931 of 7350).
const TEMPER: f64 = 5.0;

/// A word is shown as speaking for a category when its weight for it is this much (thousandths)
/// over its weight for any other.
const MIN_LIFT: i64 = 50;

/// Words of prose that the model weighs like any other but that are no reason to show a user.
const PROSE: &[&str] = &[
    "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "below", "but", "by", "can", "could", "did", "do", "does", "for", "from", "get", "got",
    "had", "has", "have", "here", "how", "if", "in", "into", "is", "issue", "it", "its", "just", "me", "my",
    "no", "not", "now", "of", "on", "one", "or", "our", "out", "please", "same", "see", "so", "some",
    "still", "that", "the", "then", "there", "this", "to", "tried", "try", "up", "use", "used", "using",
    "was", "we", "what", "when", "which", "while", "will", "with", "would", "you", "your",
];

/// Parts of the paths in a traceback ("/home/u/venv/lib/python3.10/site-packages/…"): weighed
/// like any other word, no reason to show a user (the package after them is).
const PATHS: &[&str] = &[
    "anaconda3",
    "appdata",
    "bin",
    "conda",
    "dist",
    "env",
    "envs",
    "file",
    "home",
    "lib",
    "lib64",
    "line",
    "local",
    "miniconda3",
    "module",
    "opt",
    "packages",
    "programs",
    "python",
    "python3",
    "root",
    "site",
    "tmp",
    "user",
    "users",
    "usr",
    "venv",
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
    fn the_words_shown_are_not_the_parts_of_a_traceback_s_paths() {
        let text =
            "File \"/home/u/venv/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py\", line 120";
        let shown: Vec<String> = model().rank(text).into_iter().flat_map(|v| v.words).collect();
        assert!(shown.iter().all(|w| !PATHS.contains(&w.as_str())), "{shown:?}");
        assert!(shown.iter().any(|w| w == "bitsandbytes"), "{shown:?}");
    }

    #[test]
    fn a_word_of_one_report_only_is_not_kept() {
        let m = toy();
        assert_eq!(m.known_words("libcudnn shared object"), 0);
        assert_eq!(m.known_words("docker memory"), 2);
    }

    #[test]
    fn each_fold_model_is_trained_without_the_reports_it_ranks() {
        let reports = [
            ("CUDA out of memory. Tried to allocate 2 GiB", Category::Oom),
            ("docker: could not select device driver with capabilities gpu", Category::ContainerRuntime),
            ("RuntimeError: CUDA out of memory while training", Category::Oom),
            (
                "docker run without the nvidia runtime: could not select device driver",
                Category::ContainerRuntime,
            ),
            ("libcudnn.so.8: cannot open shared object file", Category::LibraryNotFound),
        ];
        let folds = cross_validation(&reports, &[0, 1, 0, 1, 0], 2);
        assert_eq!(folds.len(), 2);
        // Fold 0 ranks reports 0, 2, 4 and was trained on 1 and 3 only: exactly that model.
        assert_eq!(folds[0], WordModel::train([reports[1], reports[3]]));
        assert_eq!(folds[1], WordModel::train([reports[0], reports[2], reports[4]]));
        assert_eq!(folds[1].reports(), 3);
        // Training is reproducible: the same reports give the same table.
        assert_eq!(WordModel::train(reports).to_table(), WordModel::train(reports).to_table());
    }

    #[test]
    fn the_table_reads_back_what_it_wrote_and_rejects_damage() {
        let m = toy();
        assert_eq!(WordModel::from_table(&m.to_table()).unwrap(), m);
        assert!(WordModel::from_table("docker\t1\t2\n").is_err());
        let zeros = "\t0".repeat(17);
        assert!(WordModel::from_table(&format!("Not A Word\t2{zeros}\n")).is_err());
        assert!(WordModel::from_table(&format!("docker\t2{zeros}\t0\n")).is_err());
        assert!(WordModel::from_table(&format!("docker\t-2{zeros}\n")).is_err());
        assert!(WordModel::from_table(&format!("@reports\t{}\n", "\t-1".repeat(17))).is_err());
        // A pair and a title word are rows; three words, or a word with a dash, are not.
        let zeros = format!("\t2{zeros}");
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
