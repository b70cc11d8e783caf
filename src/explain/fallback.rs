//! What `explain` says when no signature matches anywhere in the text.
//!
//! A text with no known message still names things (memory, a driver, a library, a container).
//! Two readings of its words become the priors of an "unrecognised" explanation, which is then
//! ranked by the same rules, evidence and machine facts as a known message: the word model
//! trained on the corpus ([`super::words`]) and the keyword vote, whose table in
//! `data/fallback.toml` maps words to root-cause categories with weights. Pure functions of the text.

use super::{evidence, words, Category, Cause, Explanation, Signature, SignatureTable, CUDA_VISIBLE_DEVICES};
use crate::report::Report;
use regex::{Regex, RegexBuilder};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The id an unrecognised text's explanation carries instead of a signature id.
pub const UNRECOGNISED: &str = "unrecognised";

/// A line that reads as an error report: a keyword on such a line counts double.
/// Also a glog line of level F or E (`F1201 00:08:03.185417 461 parse_flags_from_env.cc:234] …`),
/// Python's StopIteration (DataParallel's "Caught StopIteration in replica 0 on device 0", whose
/// name holds no error word) and a status named OUT_OF_… (OpenCL's `CL_OUT_OF_HOST_MEMORY`).
const ERROR_LINE: &str = r"(?i)error|fail|exception|fatal|cannot|can't|could not|couldn't|unable|abort|not found|traceback|panic|^\s*(?-i:[FE])\d{4} \d\d:\d\d:\d\d|(?-i:StopIteration|OUT_OF_[A-Z])";

/// Words of trouble in a person's report (the title, "doesn't work", "why", "instead of"), beyond
/// [`ERROR_LINE`]'s, which [`troubled`] reads on every line first. Of the 2971 corpus and held-out
/// reports, 19 pass neither this nor [`ERROR_LINE`] where [`troubled`]
/// reads them, all but one of them a known message, which does not need the guess. (The Chinese
/// words: error, failure, exception, problem, cannot, unable, not found, appears, not
/// supported, why, how.)
const TROUBLE: &str = r"(?i)can'?t|problem|issue|\bbugs?\b|doesn'?t|does not|do not|don'?t|not work|isn'?t|is not|won'?t|wrong|slow|hang|stuck|freez|crash|killed|fault|core dumped|\bnan\b|help|\bwhy\b|\bhow\b|unsupported|not supported|invalid|denied|refused|mismatch|incompatib|missing|no such|instead|warning|\?|\bno\b|\bnot\b|\bnever\b|broke|break|lost|disappear|reboot|restart|timeout|timed out|exceed|out of|too (?:old|new|large|small|many|much)|require|need|differ|disagree|insufficient|only|undefined|interrupt|stops?\b|assert|\boom\b|leak|grow|blank|without|\.dll\b|\.so\b|: 0\b|however|\bxid\b|off the bus|increas|keeps|shuts? down|powers? off|deadlock|corrupt|wasn'?t|weren'?t|exit code|return code|not available|报错|错误|失败|异常|问题|不能|无法|找不到|出现|不支持|为什么|怎么";

/// Lines of a clean run's output that would read as trouble without being any: NCCL's INFO lines,
/// the tables of nvidia-smi and torch.cuda.memory_summary() ("Volatile Uncorr. ECC", "CUDA OOMs:
/// 0"), nvidia-smi -q's zero or "No" fields ("Remapping Failure Occurred : No"), torch.compile's
/// recompilation notes ("guard failure"), collect_env's "Could not collect", "Is debug build",
/// CPU vulnerability lines and the warning `python -m torch.utils.collect_env` prints first. Each
/// was seen on the H200 to pull a guess out of a run without an error.
const BENIGN: &str = r"NCCL INFO|^\s*[|+]|(?i:ecc errors|uncorr\. ecc|\booms: 0|retries: 0|\berrors?\s*:\s*0\b|\[__recompiles\]|\[__guards\]|guard failure|could not collect|^vulnerability |^\s+[\w .()/-]+:\s*(?:no|n/a|none|0|disabled|false)\s*$|found in sys\.modules after import)";

/// Whether a pasted text is a few lines only whose first [`reads_as_words`] (a report's title, a
/// sentence): one that names the GPU stack is a question about it even without a word of trouble
/// ("Compute Capability 3.0 GTX 770", "GPU becomes unavailable after computer wakes up"). A clean
/// run's output (nvidia-smi's table, collect_env) is longer, and a program's output line is not
/// words.
fn short(text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    text.len() <= SHORT_BYTES
        && text.lines().filter(|l| !l.trim().is_empty()).count() <= SHORT_LINES
        && reads_as_words(first)
}

/// Whether a line is words a person wrote rather than a program's output: three words or more, and
/// letters and spaces make at least two thirds of it (or it is Chinese, Japanese or Korean
/// text). `tensor(-5.0644, device='cuda:0')` is not; "GPU becomes unavailable after computer wakes
/// up" is.
fn reads_as_words(line: &str) -> bool {
    let line = line.trim();
    if line.chars().any(words::is_cjk) {
        return true;
    }
    let words = line.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 2).count();
    let plain = line.chars().filter(|c| c.is_ascii_alphabetic() || *c == ' ').count();
    words >= 3 && plain * 3 >= line.chars().count() * 2
}

/// The most bytes of a [`short`] text.
const SHORT_BYTES: usize = 1500;
/// The most non-empty lines of a [`short`] text.
const SHORT_LINES: usize = 6;

/// Written by a person: a first-person word, Chinese text, a Markdown heading.
const PROSE: &str = r"(?im)\b(?:i|i'm|i've|my|we|our|me)\b|[\x{4e00}-\x{9fff}]|^#{2,4} ";

/// Whether the text holds trouble worth a guess: an error word on a line that is not a clean
/// run's (anywhere, as in a log), or a word of trouble in its first six lines (a report's title)
/// or anywhere in a text a person wrote. A training run's progress, nvidia-smi's table or
/// collect_env's output alone hold none.
fn troubled(text: &str, table: &FallbackTable) -> bool {
    let lines: Vec<&str> =
        text.lines().filter(|l| !l.trim().is_empty() && !table.benign.is_match(l)).collect();
    lines.iter().any(|l| table.error_line.is_match(l))
        || lines.iter().take(6).any(|l| table.trouble.is_match(l))
        || (table.prose.is_match(text) && lines.iter().any(|l| table.trouble.is_match(l)))
}

/// Words that put a text in the GPU stack: a pasted report that names none of them and has no error
/// word is not one `explain` should guess about. A GPU's family name, an architecture, a compute
/// capability or a precision count too: reports about a card ("3090 no longer supports FP8?", "my
/// 1660 Super (7.5 capability) … half-precision", "Deadlock in distribution with multiple 4090")
/// often name nothing else; so do the CUDA compiler and the CUDA libraries of LLM stacks (nvcc,
/// DeepSpeed, vLLM, xformers, Triton).
const STACK: &str = r"(?i)cuda|cudnn|cublas|nccl|nvidia|gpu|graphics card|allocation on device|显存|显卡|driver|torch|tensorflow|\bjax|paddle|mxnet|caffe|onnx|tensorrt|docker|container|kernel|memory|\b(?:gtx|rtx|geforce|quadro|tesla|titan|jetson|nvcc|deepspeed|vllm|xformers|triton)\b|\b(?:[1-5]0[5-9]0|1[0-6][5-8]0)(?: ?ti)?\b|\bsm_?\d{2,3}\b|capability|\b(?:fp8|fp16|bf16|vram)\b|half.precision";

/// A pasted report with no error signature is ranked by its words only when the word model knows
/// at least this many of them. One: a title such as "Cublas Error: 13" or "Assertion failed
/// 580.95.05" is all some reports hold, and no answer is always a wrong one (it was three until
/// the eighth session; one took the 4524 corpus reports from 3033 to 3035 right).
const MIN_KNOWN_WORDS: usize = 1;

/// The vote's share of an unrecognised text's priors where both it and the word model speak
/// (0.3 to 0.6 rank alike on 80 reports outside the corpus; below 0.45 the corpus, measured
/// leave-one-out, loses a few; with the SVM word model in ten folds, 0.3 and 0.6 gave 4940 and
/// 4910 of 7350 against 4948).
const VOTE_SHARE: f64 = 0.45;

#[derive(Deserialize)]
struct RawCause {
    category: Category,
    why: String,
    fix: String,
}

#[derive(Deserialize)]
struct RawKeyword {
    pattern: String,
    category: Category,
    weight: f64,
    #[serde(default)]
    fix: Option<String>,
}

#[derive(Deserialize)]
struct RawFallback {
    libraries: Vec<String>,
    cause: Vec<RawCause>,
    keyword: Vec<RawKeyword>,
}

/// One keyword rule, compiled.
struct Keyword {
    re: Regex,
    category: Category,
    weight: f64,
    /// What to do when this keyword is its category's strongest word, where the category's own
    /// fix would be too general ("a package manager finds no build" is `other`, but not a
    /// library's bug to upgrade past).
    fix: Option<String>,
}

/// The compiled keyword table.
pub struct FallbackTable {
    causes: Vec<RawCause>,
    keywords: Vec<Keyword>,
    error_line: Regex,
    stack: Regex,
    trouble: Regex,
    benign: Regex,
    prose: Regex,
    /// The libraries a text may name (see `libraries` in data/fallback.toml), as one
    /// case-insensitive pattern whose group 1 is the name, and the list's own spellings.
    libraries: Regex,
    library_names: Vec<String>,
}

/// Why the keyword table could not be built.
#[derive(Debug, thiserror::Error)]
pub enum FallbackError {
    /// The TOML did not parse.
    #[error("keyword table: {0}")]
    Toml(#[from] toml::de::Error),
    /// A pattern did not compile.
    #[error("keyword table: bad pattern {pattern:?}: {source}")]
    Regex {
        /// The pattern.
        pattern: String,
        /// The regex error.
        #[source]
        source: regex::Error,
    },
    /// A keyword's category has no cause text, or a weight is out of range.
    #[error("keyword table: {0}")]
    Invalid(String),
}

impl FallbackTable {
    /// The libraries of the list that `text` names, at most three: those on lines that read as
    /// errors first, each by first appearance, spelled as the list spells them.
    fn named_libraries(&self, text: &str) -> Vec<&str> {
        let mut found: Vec<(bool, usize, &str)> = Vec::new();
        for line in text.lines() {
            let on_error_line = self.error_line.is_match(line);
            for c in self.libraries.captures_iter(line) {
                let m = c.get(1).expect("group 1 always takes part");
                let Some(name) = self.library_names.iter().find(|n| n.eq_ignore_ascii_case(m.as_str()))
                else {
                    continue;
                };
                match found.iter_mut().find(|f| f.2 == name.as_str()) {
                    Some(f) => f.0 |= on_error_line,
                    None => found.push((on_error_line, found.len(), name)),
                }
            }
        }
        found.sort_by_key(|&(on_error_line, order, _)| (!on_error_line, order));
        found.into_iter().take(3).map(|f| f.2).collect()
    }

    /// Builds the table from TOML text.
    pub fn from_toml(text: &str) -> Result<FallbackTable, FallbackError> {
        let raw: RawFallback = toml::from_str(text)?;
        let mut keywords = Vec::new();
        for k in raw.keyword {
            if !raw.cause.iter().any(|c| c.category == k.category) {
                return Err(FallbackError::Invalid(format!("{} has no [[cause]]", k.category)));
            }
            if !(k.weight > 0.0 && k.weight <= 2.0) {
                return Err(FallbackError::Invalid(format!("{:?}: weight outside (0, 2]", k.pattern)));
            }
            // Unicode word boundaries, unlike the signatures and the log's evidence: the
            // keywords' weights were fitted with them, and ASCII ones cost the corpus one text
            // (SadTalker #557, in Chinese) and the fallback alone two (measured 2026-12-02).
            let re = RegexBuilder::new(&k.pattern)
                .case_insensitive(true)
                .size_limit(1 << 22)
                .build()
                .map_err(|source| FallbackError::Regex { pattern: k.pattern.clone(), source })?;
            keywords.push(Keyword { re, category: k.category, weight: k.weight, fix: k.fix });
        }
        let error_line = Regex::new(ERROR_LINE).expect("constant pattern");
        let stack = Regex::new(STACK).expect("constant pattern");
        let trouble = Regex::new(TROUBLE).expect("constant pattern");
        let benign = Regex::new(BENIGN).expect("constant pattern");
        let prose = Regex::new(PROSE).expect("constant pattern");
        // A name stands alone: not inside a longer name ("whisper" in "faster-whisper", "cupy" in
        // "cupy-cuda12x") or a word.
        let alternatives: Vec<String> = raw.libraries.iter().map(|l| regex::escape(l)).collect();
        let pattern = format!(r"(?i)(?:^|[^A-Za-z0-9_.-])({})(?:$|[^A-Za-z0-9_-])", alternatives.join("|"));
        let libraries = Regex::new(&pattern)
            .map_err(|source| FallbackError::Regex { pattern: "libraries".into(), source })?;
        Ok(FallbackTable {
            causes: raw.cause,
            keywords,
            error_line,
            stack,
            trouble,
            benign,
            prose,
            libraries,
            library_names: raw.libraries,
        })
    }
}

/// The embedded keyword table, parsed once.
pub fn fallback_table() -> &'static FallbackTable {
    static TABLE: OnceLock<FallbackTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        FallbackTable::from_toml(include_str!("../../data/fallback.toml"))
            .expect("data/fallback.toml is embedded and checked by tests")
    })
}

/// A category's share of the vote.
#[derive(Debug, Clone, PartialEq)]
pub struct Vote {
    /// The category.
    pub category: Category,
    /// Sum of its keywords' weights (doubled on error lines).
    pub score: f64,
    /// The words that voted for it, as written.
    pub words: Vec<String>,
    /// Byte offset of the line holding its strongest word.
    pub line_start: usize,
    /// The fix of its strongest word's keyword, when that keyword has its own.
    pub fix: Option<String>,
}

/// The categories the words of `text` point at, strongest first (empty when no keyword occurs).
pub fn vote(text: &str, table: &FallbackTable) -> Vec<Vote> {
    let mut votes: Vec<Vote> = Vec::new();
    // Per vote, the score of its strongest single word (whose line is the one shown).
    let mut strongest: Vec<f64> = Vec::new();
    for k in &table.keywords {
        // The keyword's best occurrence: the first on an error line, else the first.
        let mut best: Option<(usize, &str, bool)> = None;
        for m in k.re.find_iter(text) {
            let start = line_start(text, m.start());
            let end = text[m.end()..].find('\n').map_or(text.len(), |i| m.end() + i);
            let on_error_line = table.error_line.is_match(&text[start..end]);
            if best.is_none() {
                best = Some((start, m.as_str(), on_error_line));
            }
            if on_error_line {
                best = Some((start, m.as_str(), true));
                break;
            }
        }
        let Some((line_start, word, on_error_line)) = best else { continue };
        let score = if on_error_line { 2.0 * k.weight } else { k.weight };
        let word = word.trim().to_string();
        match votes.iter().position(|v| v.category == k.category) {
            Some(i) => {
                let v = &mut votes[i];
                if score > strongest[i] {
                    strongest[i] = score;
                    v.line_start = line_start;
                    v.fix = k.fix.clone();
                }
                v.score += score;
                if !v.words.contains(&word) {
                    v.words.push(word);
                }
            }
            None => {
                votes.push(Vote {
                    category: k.category,
                    score,
                    words: vec![word],
                    line_start,
                    fix: k.fix.clone(),
                });
                strongest.push(score);
            }
        }
    }
    // Stable: ties keep the table's order.
    votes.sort_by(|a, b| b.score.total_cmp(&a.score));
    votes
}

/// The explanation of a text in which no signature matched. Its causes come from the text's
/// words: the word model trained on the corpus ([`words::WordModel`]) blended with the keyword
/// vote, then ranked by the same rules as a known message. It answers when the vote found words,
/// or when the text is a whole pasted report (it starts at line 1) that reads as an error or names
/// the GPU stack and of which the model knows a word. `None` otherwise (a log's end without an
/// error).
pub fn explain_unrecognised(
    text: &str,
    first_line: u64,
    report: Option<&Report>,
    table: &SignatureTable,
    model: &words::WordModel,
) -> Option<Explanation> {
    let keywords = fallback_table();
    let sentence = first_line == 1 && short(text);
    let asked = sentence && keywords.stack.is_match(text);
    if !(asked || troubled(text, keywords)) {
        return None;
    }
    let votes = vote(text, keywords);
    let pasted = first_line == 1
        && (sentence || keywords.error_line.is_match(text) || keywords.stack.is_match(text))
        && model.known_words(text) >= MIN_KNOWN_WORDS;
    if votes.is_empty() && !pasted {
        return None;
    }
    let by_words = model.rank(text);
    // What the text says of its set-up, read once: the ranking weighs it, and the installed package
    // its traceback runs through is the one a library's own bug most likely is. A cuDNN library
    // named by file is what the text is about (its major is then held against the other cuDNN
    // versions the text names).
    let key = evidence::first_cudnn_file(text).unwrap_or_default();
    let ev = evidence::extract(text, key, &[], None, table);
    let vote_total: f64 = votes.iter().map(|v| v.score).sum();
    // Each category's share: the model's and the vote's, blended (either alone when the other is silent).
    let mut shares: Vec<(Category, f64)> = Vec::new();
    let (wm, wv) = match (by_words.is_empty(), votes.is_empty()) {
        (false, false) => (1.0 - VOTE_SHARE, VOTE_SHARE),
        (false, true) => (1.0, 0.0),
        (true, _) => (0.0, 1.0),
    };
    for v in &by_words {
        shares.push((v.category, wm * v.share));
    }
    for v in &votes {
        let s = wv * v.score / vote_total;
        match shares.iter_mut().find(|(c, _)| *c == v.category) {
            Some(e) => e.1 += s,
            None => shares.push((v.category, s)),
        }
    }
    shares.retain(|s| s.1 > 0.0);
    shares.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top = *shares.first()?;
    let causes: Vec<Cause> = shares
        .iter()
        .filter_map(|&(category, share)| {
            let c = keywords.causes.iter().find(|c| c.category == category)?;
            let mut said: Vec<String> =
                votes.iter().find(|v| v.category == category).map(|v| v.words.clone()).unwrap_or_default();
            for w in by_words.iter().filter(|v| v.category == category).flat_map(|v| &v.words) {
                if !said.iter().any(|s| s.eq_ignore_ascii_case(w)) {
                    said.push(w.clone());
                }
            }
            let why =
                if said.is_empty() { c.why.clone() } else { format!("{} (words: {})", c.why, quoted(&said)) };
            // The environment cause is about the variables the text names; the one the
            // ranking reads is CUDA_VISIBLE_DEVICES.
            let variable = (category == Category::EnvVarMisconfig && text.contains(CUDA_VISIBLE_DEVICES))
                .then(|| CUDA_VISIBLE_DEVICES.to_string());
            let fix = votes
                .iter()
                .find(|v| v.category == category)
                .and_then(|v| v.fix.clone())
                .unwrap_or_else(|| match (category, ev.library_frame.as_deref()) {
                    (Category::Other, Some(package)) => library_fix(package),
                    (Category::Other, None) => named_libraries_fix(&c.fix, &keywords.named_libraries(text)),
                    _ => c.fix.clone(),
                });
            Some(Cause { category, weight: share, why, fix, variable, kind: None })
        })
        .collect();
    // The line shown: the vote's strongest word's for the top category, else the first line with
    // one of the model's words for it, else the first line that reads as an error.
    let line_start = votes
        .iter()
        .find(|v| v.category == top.0)
        .map(|v| v.line_start)
        .or_else(|| {
            let w = by_words.iter().find(|v| v.category == top.0)?.words.first()?;
            let at = text.to_ascii_lowercase().find(w.as_str())?;
            Some(line_start(text, at))
        })
        .or_else(|| votes.first().map(|v| v.line_start))
        .or_else(|| keywords.error_line.find(text).map(|m| line_start(text, m.start())))
        .unwrap_or(0);
    let sig = Signature {
        id: UNRECOGNISED.into(),
        title: "No known error message; the causes are read from the text's words".into(),
        literals: Vec::new(),
        regex: None,
        priority: 0,
        codes: Vec::new(),
        redirect: Vec::new(),
        meaning: format!(
            "cudoctor knows no signature for this text. The causes below come from the words it \
             uses, weighed by which fixes {} real reports with the same words needed (and the \
             keyword table's memory, driver, library, container words): a weaker guess than a \
             known message. `cudoctor kb error TEXT` searches the signature table; the first error \
             line is the one to search for.",
            model.reports()
        ),
        source: "cudoctor's word model (data/words.tsv, trained on tests/explain_corpus) and keyword table (data/fallback.toml)".into(),
        warning: false,
        wrapper: false,
        container_message: false,
        build_message: false,
        kernel_module_message: false,
        causes,
    };
    let line_text = text[line_start..].lines().next().unwrap_or("").to_string();
    let line_no = first_line + text[..line_start].matches('\n').count() as u64;
    let (ranked, facts_not_used) =
        super::rank_where_the_log_is_from(&sig, &ev, report, &BTreeSet::new(), table);
    Some(Explanation {
        signature: sig.id,
        title: sig.title,
        warning: false,
        first_line: line_no,
        count: 1,
        line: line_text,
        code: None,
        meaning: sig.meaning,
        evidence: ev,
        causes: ranked,
        facts_not_used,
        source: sig.source,
        known_reports: Vec::new(),
    })
}

/// The fix for a library's own bug when the traceback names the installed package the failing
/// call went through: that package, by name, rather than "the library the error comes from"
/// (of the corpus's unrecognised texts answered `other` whose fix named no term of the thread's,
/// 16 had such a frame, and in 15 the thread's fix named that package: "pip install -U
/// bitsandbytes").
fn library_fix(package: &str) -> String {
    format!(
        "The failing call goes through the installed package {package} (its frames are in the traceback): \
         upgrade it (pip install -U {package}, or the distribution that provides it) or go back to its \
         release that last worked, or apply the fix from its issue tracker (search it for the first error \
         line), then rebuild what was compiled against it; `cudoctor check` lists what this machine has."
    )
}

/// The general fix for a library's own bug, followed by the libraries the text names ("…
/// Libraries the text names: triton, xformers."): of the corpus's unrecognised texts answered
/// `other` whose fix named no term of the thread's, about half name a library of the list, and a
/// quarter name the one whose upgrade, downgrade or patch fixed the thread (74 of 298, measured
/// 2026-12-02).
fn named_libraries_fix(general: &str, named: &[&str]) -> String {
    if named.is_empty() {
        return general.to_string();
    }
    format!("{general} Libraries the text names: {}.", named.join(", "))
}

/// Byte offset of the start of the line that holds byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

fn quoted(words: &[String]) -> String {
    words.iter().take(4).map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::table;

    /// The fallback's answer for a text starting at line 1, with the embedded tables.
    fn guess(text: &str) -> Option<Explanation> {
        explain_unrecognised(text, 1, None, table(), crate::explain::words::model())
    }

    #[test]
    fn the_embedded_keyword_table_parses_and_covers_its_categories() {
        let t = fallback_table();
        assert!(t.keywords.len() >= 20);
        for k in &t.keywords {
            assert!(t.causes.iter().any(|c| c.category == k.category));
        }
        // Every category of the vocabulary has a cause text (the vote may name any of them).
        for c in Category::ALL {
            assert!(t.causes.iter().any(|r| r.category == c), "{c} has no [[cause]]");
        }
    }

    #[test]
    fn words_on_error_lines_weigh_more_than_words_in_prose() {
        let t = fallback_table();
        let text = "I run it in docker with an RTX 3090.\nRuntimeError: the kernel ran out of memory while training\n";
        let v = vote(text, t);
        assert_eq!(v[0].category, Category::Oom);
        assert_eq!(v[0].line_start, text.find("RuntimeError").unwrap());
        assert!(v.iter().any(|x| x.category == Category::ContainerRuntime && x.score < v[0].score));
        assert!(vote("all good, training finished\n", t).is_empty());
        // The line shown is that of the category's strongest word, not of whichever word came
        // after the others had added up: a variable (0.6) and "two nodes" (0.5) in prose sum to
        // 1.1, and the hang on an error line (1.0) is still the one shown.
        let text = "CUDA_VISIBLE_DEVICES=0,1\nwe run on two nodes\nError: DDP training hangs at step 0\n";
        let v = vote(text, t);
        assert_eq!(v[0].category, Category::EnvVarMisconfig);
        assert_eq!(v[0].line_start, text.find("Error:").unwrap());
    }

    #[test]
    fn the_words_of_the_last_rounds_vote_for_their_categories() {
        let t = fallback_table();
        for (text, category) in [
            ("Problems getting TensorFlow to behave deterministically", Category::Nondeterminism),
            (
                "optimizer.compute_gradients() produces inconsistent gradients with the same input",
                Category::Nondeterminism,
            ),
            // TF32 on Ampere and newer GPUs: float32 results off against the CPU or an older GPU.
            ("The matrix multiplication operator can't get correct results on 3090", Category::Nondeterminism),
            ("torch.backends.cuda.matmul.allow_tf32 = False fixes it", Category::Nondeterminism),
            ("Large numerical error when applying nn.Linear in RTX A6000", Category::Nondeterminism),
            ("torch.matmul() gives rounded results for 30xx cards (rounded to fp16)", Category::Nondeterminism),
            ("It works with 1.12 but this is a regression since upgrading", Category::Other),
            (
                "CUDA not available - defaulting to CPU. Note: This module is much faster with a GPU.",
                Category::CpuOnlyBuild,
            ),
            ("llama_model_load: BLAS = 0 after the update, it does not use the GPU", Category::CpuOnlyBuild),
            (
                "src/convolutional_layer.c: fatal error: cudnn.h: No such file or directory",
                Category::CudnnMissing,
            ),
            (
                "PyTorch built with CuDNN-8.8.1 crashes if CuDNN-8.9.2 is installed",
                Category::CudnnVersionMismatch,
            ),
            // Rounds DL-DS: a framework with CPU kernels only, and runs that differ told in words.
            (
                "No OpKernel was registered to support Op 'CudnnRNN' with these attrs. Registered devices: [CPU], Registered kernels: <no registered kernels>",
                Category::CpuOnlyBuild,
            ),
            ("[Fatal] CUDA Tree Learner was not enabled in this build.", Category::CpuOnlyBuild),
            ("Chapter 14, Results of creative new sequence are quite different.", Category::Nondeterminism),
            ("the answer is not stable where the Concurrency >=3", Category::Nondeterminism),
            ("vllm online mode gives variance logprobs even if temperature is 0", Category::Nondeterminism),
            ("Reproducing results in tensorflow", Category::Nondeterminism),
            ("the same prompt gives other logprobs at temperature 0.0 in vllm", Category::Nondeterminism),
            // Rounds EQ-FB: a package manager finding no build, conda's driver constraint, a
            // library's minimum compute capability, and a requirement every CUDA GPU meets.
            (
                "ERROR: No matching distribution found for torch==2.1.2+cu118",
                Category::Other,
            ),
            (
                "package cudatoolkit-11.0.3-h15472ef_6 has constraint __cuda >=11.0 conflicting with __cuda-10.2-0",
                Category::DriverTooOld,
            ),
            (
                "The quantization method fp8 is not supported for the current GPU. Minimum capability: 90. Current capability: 86.",
                Category::ArchUnsupported,
            ),
            ("[E] [TRT] 1: Unsupported SM: 0x809", Category::ArchUnsupported),
            (
                "[error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).",
                Category::DriverTooOld,
            ),
            ("Torch is not able to use GPU unless superuser, openSuse tumbleweed", Category::PermissionOrCache),
            ("the nvidia devices belong to the video group with mode 0660", Category::PermissionOrCache),
            ("DIGITS GPU ID appears to disagree with nvidia-smi", Category::EnvVarMisconfig),
            // Rounds DT-EA: libraries saying the GPU lacks a kernel's needs, builds without CUDA.
            (
                "ValueError: Requested float16 compute type, but the target device or backend do not support efficient float16 computation.",
                Category::ArchUnsupported,
            ),
            ("ValueError: implementation='triton' is unsupported on this GPU generation.", Category::ArchUnsupported),
            ("RuntimeError: Expected is_sm8x || is_sm75 to be true, but got false.", Category::ArchUnsupported),
            ("[SOLVED] CUDA error : ggml-cuda.cu was compiled for: 520", Category::ArchUnsupported),
            (
                "dgl._ffi.base.DGLError: Check failed: allow_missing: Device API gpu is not enabled. Please install the cuda version of dgl.",
                Category::CpuOnlyBuild,
            ),
            ("luajit: module 'cutorch' not found:No LuaRocks module found for cutorch", Category::CpuOnlyBuild),
            // Rounds EB-EC: ops compiled without CUDA because CUDA_HOME was unset at install.
            ("NameError: name '_C' is not defined (ms_deform_attn.py, line 53)", Category::EnvVarMisconfig),
            ("No matching cuda flavor for win found: cu112mkl/sm_86.", Category::CudaRuntimeMismatch),
            (
                "CMake Error: Could NOT find CUDA: Found unsuitable version \"9.0\", but required is exact version \"8.0\"",
                Category::CudaRuntimeMismatch,
            ),
            // Rounds ED-EO: out of memory as a status name, TensorRT's headers and CMake's
            // NOTFOUND, an MPI without CUDA support, BasicSR's ops built without CUDA.
            (
                "initCnmem: cnmemInit call failed! Reason=CNMEM_STATUS_OUT_OF_MEMORY. numdev=1",
                Category::Oom,
            ),
            ("LowLevelFatalError [File:Unknown] [Line: 279] Out of Device Memory, Requested=24000.00Kb", Category::Oom),
            ("yololayer.h:4:10: fatal error: NvInfer.h: No such file or directory", Category::LibraryNotFound),
            ("-- Found CUDA_CUDNN_LIBRARY=CUDA_CUDNN_LIBRARY-NOTFOUND", Category::CudnnMissing),
            ("TENSORRT_LIBRARY_INFER-NOTFOUND, please check your TensorRT install", Category::LibraryNotFound),
            (
                "The user requested CUDA support with the --mca mpi_cuda_support 1 flag but the library was not compiled with any support.",
                Category::CpuOnlyBuild,
            ),
            ("NameError: name 'fused_act_ext' is not defined", Category::EnvVarMisconfig),
            // Round EP: runs compared with each other, a cache called stale or wiped.
            (
                "Despite using tf.set_random_seed(0) I get different numbers for each different run",
                Category::Nondeterminism,
            ),
            (
                "Stale Triton kernel cache produces garbled outputs: wiping ~/.triton/cache restores correctness",
                Category::PermissionOrCache,
            ),
        ] {
            assert_eq!(vote(text, t).first().map(|v| v.category), Some(category), "{text}");
        }
        // A sampling temperature above zero is no sign of a nondeterministic kernel.
        assert!(vote("vllm serve failed, temperature 0.7", t)
            .iter()
            .all(|v| v.category != Category::Nondeterminism));
        // A cuDNN library's file name is not a release number.
        let release = t.keywords.iter().find(|k| k.re.as_str().contains("cudnn[ -]?v?")).unwrap();
        for named in ["cudnn 7.6.5", "CuDNN-8.8.1", "cudnn6", "CuDNN v5"] {
            assert!(release.re.is_match(named), "{named}");
        }
        for file in ["cudnn64_8.dll", "libcudnn.so.8", "cudnn_ops_infer64_8.dll"] {
            assert!(!release.re.is_match(file), "{file}");
        }
    }

    #[test]
    fn apis_the_toolkit_removed_and_headless_rendering_have_their_own_fix() {
        // NVTX v2 (gone in CUDA 12.9) and CUDA 13's cuCtxCreate: the project predates the toolkit.
        for text in [
            "fatal error: nvToolsExt.h: No such file or directory\n",
            "memory.c:253:40: warning: passing argument 2 of 'cuCtxCreate_v4' makes pointer from integer\n",
            "error: namespace \"thrust\" has no member class \"unary_function\"\n",
        ] {
            let e = guess(text).unwrap();
            assert_eq!(e.causes[0].category, Category::Other, "{text}");
            assert!(e.causes[0].fix.contains("nvtx3/nvToolsExt.h"), "{text}: {}", e.causes[0].fix);
        }
        // The driver's own interfaces: NVENC's API and OptiX's ABI, or its OptiX library missing.
        let nvenc = "[h264_nvenc @ 0x7ff3e9b83c00] Driver does not support the required nvenc API version. Required: 9.1 Found: 9.0\n";
        let optix = "Optix call (optixInit()) failed with code 7801 (line 150)\n";
        for text in [nvenc, optix] {
            let e = guess(text).unwrap();
            assert_eq!(e.causes[0].category, Category::DriverTooOld, "{text}");
        }
        let lib = "Optix call (optixInit()) failed with code 7804 (line 157)\n";
        // (A thread in the corpus was fixed by a newer driver, which brought the library: both
        // causes are listed.)
        let e = guess(lib).unwrap();
        let missing = e.causes.iter().find(|c| c.category == Category::LibraryNotFound).unwrap();
        assert!(missing.fix.contains("libnvoptix"), "{}", missing.fix);
        assert!(e.causes.iter().take(2).any(|c| c.category == Category::DriverTooOld));
        // The EGL constants are matched as written, the words in any case. The environment's
        // fix is among the first two causes; a library's own bug may come first: 5 of the
        // corpus's 9 threads with "eglInitialize" were fixed by another release.
        for egl in ["RuntimeError: eglInitialize() failed\n", "RuntimeError: Cannot initialize EGL\n"] {
            let e = guess(egl).unwrap();
            let env = e.causes.iter().take(2).find(|c| c.category == Category::EnvVarMisconfig);
            assert!(env.is_some_and(|c| c.fix.contains("PYOPENGL_PLATFORM=egl")), "{egl}: {:?}", e.causes);
        }
    }

    #[test]
    fn a_library_s_own_bug_names_the_libraries_the_text_names() {
        let text = "Something broke after the update\n\
                    pip list: faster-whisper 1.0.3, numpy 1.26.4\n\
                    RuntimeError: Triton Error: operation failed in kernel fused_attention (flash-attn 2.5.8)\n";
        let e = guess(text).unwrap();
        let other = e.causes.iter().find(|c| c.category == Category::Other).unwrap();
        // The error line's first, then the others by first appearance; "whisper" inside
        // "faster-whisper" is not a name of its own.
        assert!(
            other.fix.ends_with("Libraries the text names: triton, flash-attn, faster-whisper."),
            "{}",
            other.fix
        );
        // A text that names none keeps the general fix.
        let none = guess(
            "Something broke after the update\nRuntimeError: operation failed in kernel fused_attention\n",
        )
        .unwrap();
        let other = none.causes.iter().find(|c| c.category == Category::Other).unwrap();
        assert!(!other.fix.contains("Libraries the text names"), "{}", other.fix);
    }

    #[test]
    fn error_lines_without_an_error_word_still_get_a_guess() {
        // Python's StopIteration and OpenCL's OUT_OF_ statuses name no error word; each is the
        // whole of some reports (transformer-xl#123, hashcat#1671).
        for text in [
            "StopIteration: Caught StopIteration in replica 0 on device 0.\n",
            "clCreateContext(): CL_OUT_OF_HOST_MEMORY on Windows 7\n",
        ] {
            let e = guess(text);
            assert!(e.is_some_and(|e| !e.causes.is_empty()), "{text}");
        }
    }

    #[test]
    fn a_binary_for_another_cpu_is_the_image_s_platform() {
        // An amd64 CUDA image started on a Jetson: the kernel's ENOEXEC, not the GPU stack.
        let text = "standard_init_linux.go:211: exec user process caused \"exec format error\"\n";
        let e = guess(text).unwrap();
        assert_eq!(e.causes[0].category, Category::ContainerRuntime);
        assert!(e.causes[0].fix.contains("linux/arm64"), "{}", e.causes[0].fix);
    }

    #[test]
    fn launcher_and_build_messages_get_the_fix_their_threads_confirmed() {
        // torchrun's --local-rank that the script's parser refuses: the script's, not the stack's.
        let e = guess("train.py: error: unrecognized arguments: --local-rank=0\n").unwrap();
        assert_eq!(e.causes[0].category, Category::Other);
        assert!(e.causes[0].fix.contains("LOCAL_RANK"), "{}", e.causes[0].fix);
        // DeepSpeed's CPU Adam whose op did not build: the toolkit against torch's CUDA.
        let e = guess("AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n").unwrap();
        assert_eq!(e.causes[0].category, Category::CudaRuntimeMismatch);
        assert!(e.causes[0].fix.contains("ds_report"), "{}", e.causes[0].fix);
        // TensorFlow's convolution without an algorithm: memory growth.
        let e =
            guess("tensorflow.python.framework.errors_impl.NotFoundError:  No algorithm worked!\n").unwrap();
        assert_eq!(e.causes[0].category, Category::Oom);
        assert!(e.causes[0].fix.contains("TF_FORCE_GPU_ALLOW_GROWTH"), "{}", e.causes[0].fix);
        let e = guess("ValueError: --tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7\n")
            .unwrap();
        assert_eq!(e.causes[0].category, Category::ArchUnsupported);
        // A Visual Studio project tied to a CUDA release that is not installed.
        let vs = "error MSB4019: The imported project \"C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\BuildCustomizations\\CUDA 12.4.props\" was not found.\n";
        let e = guess(vs).unwrap();
        assert_eq!(e.causes[0].category, Category::CudaRuntimeMismatch);
        assert!(e.causes[0].fix.contains("Build Customizations"), "{}", e.causes[0].fix);
        // An extension written for a PyTorch before 1.0 or 1.5.
        let e = guess("ImportError: torch.utils.ffi is deprecated. Please use cpp extensions instead.\n")
            .unwrap();
        assert_eq!(e.causes[0].category, Category::Other);
    }

    #[test]
    fn a_library_s_own_bug_names_the_package_its_traceback_runs_through() {
        let frames = "Traceback (most recent call last):\n  File \"/home/u/venv/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py\", line 120, in evaluate_cuda_setup\n    cuda_version_string = get_cuda_version(cuda, cudart_path)\nNameError: name 'cuda_setup' is not defined\n";
        let e = guess(frames).unwrap();
        assert_eq!(e.causes[0].category, Category::Other);
        assert!(e.causes[0].fix.contains("pip install -U bitsandbytes"), "{}", e.causes[0].fix);
        // PyTorch's own frames name no package: the fix stays the general one.
        let torch_only = frames.replace("bitsandbytes/cuda_setup", "torch/cuda");
        let e = guess(&torch_only).unwrap();
        let other = e.causes.iter().find(|c| c.category == Category::Other).unwrap();
        assert!(!other.fix.contains("pip install -U"), "{}", other.fix);
    }

    #[test]
    fn video_libraries_are_the_container_s_capability_only_in_a_container() {
        let nvenc = "RuntimeError: LoadNvEncApi : NVENC library file is not found. Please ensure NV driver is installed\n";
        let boxed = format!("docker run --gpus all -it vpf:latest\n{nvenc}");
        let e = guess(&boxed).unwrap();
        assert_eq!(e.causes[0].category, Category::ContainerRuntime);
        assert!(e.causes[0].fix.contains("video"), "{}", e.causes[0].fix);
        // The same library missing on a desktop does not get the container's video capability
        // as its fix (the word model may still rank a container first: the corpus's one thread
        // with this line was in Docker; a machine's facts then say whether it is in one).
        let e = guess(nvenc).unwrap();
        assert!(e.causes.iter().all(|c| !c.fix.contains("NVIDIA_DRIVER_CAPABILITIES")), "{:?}", e.causes);
    }

    #[test]
    fn a_process_the_kernel_killed_is_out_of_host_memory() {
        let text = "train.sh: line 18:    36 Killed                  python3 train.py --batch 64\nTraining process finished. Exit code: 137\n";
        let e = guess(text).unwrap();
        assert_eq!(e.causes[0].category, Category::Oom, "{:?}", e.causes);
        assert!(e.causes[0].fix.contains("host memory"), "{}", e.causes[0].fix);
        // "killed" in prose is not the shell's report of a SIGKILL.
        let e = guess("the process was killed by the watchdog after a NCCL timeout\n").unwrap();
        assert!(!e.causes[0].fix.contains("host memory"), "{:?}", e.causes[0]);
    }

    #[test]
    fn an_unrecognised_text_gets_ranked_causes_and_the_line_that_voted() {
        let text = "step 10 ok\nstep 11 ok\nFatal: failed to open /dev/nvidiactl: Permission denied\n";
        let e = explain_unrecognised(text, 40, None, table(), crate::explain::words::model()).unwrap();
        assert_eq!(e.signature, UNRECOGNISED);
        assert_eq!(e.causes[0].category, Category::PermissionOrCache);
        assert_eq!(e.first_line, 42);
        assert!(e.line.contains("Permission denied"));
        assert!(e.causes[0].why.contains("\"Permission denied\""));
        assert!(guess("hello world").is_none());
        // A pasted report that no keyword speaks for is ranked by the word model; the same words
        // at the end of a long log (not from line 1) are not a report. (The twentieth session's
        // retrain put "assertion failed in my training loop with torch 1.10.2 and CUDA 11.3" at
        // other 44%, user_code_bug 43%: a text the model weighs plainly is the test's.)
        let report = "assertion failed in my dataloader with torch 1.10.2: label index 10 for 10 classes\n";
        let e = guess(report).unwrap();
        assert_eq!(e.causes[0].category, Category::UserCodeBug);
        assert!(e.causes[0].why.contains("\"assertion\""), "{}", e.causes[0].why);
        assert!(explain_unrecognised(report, 5000, None, table(), crate::explain::words::model()).is_none());
        // A keyword with a fix of its own gives it where it is its category's strongest word.
        let pip = "ERROR: No matching distribution found for torch==2.1.2+cu118\n";
        let e = guess(pip).unwrap();
        assert_eq!(e.causes[0].category, Category::Other);
        assert!(e.causes[0].fix.contains("published for this Python"), "{}", e.causes[0].fix);
        let order = "GPU ID appears to disagree with nvidia-smi\n";
        let e = guess(order).unwrap();
        assert_eq!(e.causes[0].category, Category::EnvVarMisconfig);
        assert!(e.causes[0].fix.contains("CUDA_DEVICE_ORDER=PCI_BUS_ID"), "{}", e.causes[0].fix);
        // A report about a card names the stack by the card, its architecture or a precision.
        let card = "The computing power of 3090 is 8.6. Does it mean that 3090 no longer supports FP8?\n";
        assert!(guess(card).is_some());
        let title = "[BUG] Deadlock in distribution with multiple 4090\n";
        assert!(guess(title).is_some());
        // A title of a few words that names the stack is a question about it, without a word of
        // trouble; a program's output line of the same length is not.
        let question = "GPU becomes unavailable after computer wakes up\n";
        assert!(guess(question).is_some());
        assert!(reads_as_words(question) && !reads_as_words("tensor(-5.0644, device='cuda:0')"));
        assert!(reads_as_words("请问报错说需要opegl4.4以上怎么解决"));
        assert!(!short(&"GPU becomes unavailable after computer wakes up\n".repeat(8)));
        // Nor is a pasted text that neither reads as an error nor names the GPU stack.
        let chat = "we tried the frobnicator with the new settings and it exited early\n";
        assert!(guess(chat).is_none());
    }
}
