//! Known reports: the corpus's real issue threads (`tests/explain_corpus/*.toml`, each with the
//! fix the thread confirmed), kept as `data/reports.tsv` so that `explain` can say "this is the
//! report at URL, and this fixed it" when a pasted text is one of them.
//!
//! Two texts are the same report when they share enough *distinctive* runs of three words: runs
//! that occur in at most [`MAX_SHARED_BY`] corpus reports (a traceback's boilerplate, "CUDA kernel
//! errors might be asynchronously reported at some other API call", is in dozens and says nothing
//! of which report this is). A text matches a report when at least [`MIN_SHARED`] such runs are in
//! both and they are at least [`MIN_SIMILARITY`] of the smaller of the two sets, so an excerpt of a
//! report (the traceback without the prose, the prose without the log) still matches it; at
//! [`SAME_REPORT`] the text is that report and its category comes first. A common error line
//! alone matches nothing (its runs are in many reports): the signature table ranks it; a rare
//! message that only one or two reports hold matches them, which is the corpus's answer for it.
//! A text is also a report when its first line is that report's first line (its title, most
//! often) word for word and no other report's, with a distinctive run in it past any leading
//! exception class ([`MIN_TITLE_WORDS`] words or more): titles are often too short for
//! [`MIN_SHARED`] runs, and a text that begins with a thread's title and goes on with another
//! part of its log is that thread, though the rest shares little with the excerpt the table holds.
//!
//! `tests/explain_corpus.rs` rebuilds the table from the corpus and fails when it is stale
//! (`CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus` rewrites it, with the word model).
//! Pure functions of the text and the table.

use super::Category;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// A run of words is distinctive when at most this many corpus reports hold it.
pub const MAX_SHARED_BY: usize = 2;
/// The fewest distinctive runs two texts must share to be the same report: five runs are seven
/// words in a row, a short title's worth. On the 2337 corpus reports, a report's first line of
/// eight words or more names its thread 930 times in 1356 with five (829 with six, 1010 with
/// four), never wrongly; each report left out of the table matches another thread at 0.8 39 times
/// with five, all of the same category (34 with six; with four, 45 of which 4 of another category).
pub const MIN_SHARED: usize = 5;
/// The least share of the smaller text's distinctive runs that the other must hold to be listed
/// as a report like this one.
pub const MIN_SIMILARITY: f64 = 0.5;
/// The least share for the text to *be* that report, whose category then comes first. Two
/// threads that quote the same log share up to ~0.6 of it; a report and an excerpt of it, ~1.
/// (On the 1929 corpus reports, each left out of the table: 83 match another thread at 0.5, 16 of
/// them of another category; 31 at 0.8, none of another category; 39 of 2337 at 0.8, likewise.)
pub const SAME_REPORT: f64 = 0.8;
/// The most matches listed.
const MAX_LISTED: usize = 3;
/// The fewest words a text must have to be matched as a report's title: a thread's title alone is
/// often shorter than the seven words that five runs need ("Memory is not released").
pub const MIN_TITLE_WORDS: usize = 4;

/// One report of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownReport {
    /// The public thread.
    pub url: String,
    /// The root-cause category of the fix the thread confirmed.
    pub category: Category,
    /// What fixed it, in a sentence or two.
    pub fix: String,
    /// The report's text as lower-cased words joined by single spaces.
    words: String,
    /// How many of those words are its first line (most often the thread's title).
    title: usize,
}

impl KnownReport {
    /// This report as a text's match.
    fn matched(&self, similarity: f64, by_title: bool) -> KnownMatch {
        KnownMatch {
            url: self.url.clone(),
            category: self.category,
            fix: self.fix.clone(),
            similarity,
            by_title,
        }
    }
}

/// A known report that a text matches.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct KnownMatch {
    /// The public thread.
    pub url: String,
    /// The root-cause category of the fix the thread confirmed.
    pub category: Category,
    /// What fixed it.
    pub fix: String,
    /// The share of the smaller text's distinctive word runs that both hold, 0 to 1; for a text
    /// that begins with the report's title, at least [`SAME_REPORT`] (1 for the title alone).
    pub similarity: f64,
    /// The text's first line is the report's title, word for word (a title no other report has).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_title: bool,
}

/// The table, with every (run, report) pair sorted by run: the reports holding a run, and so how
/// many, are one binary search away (sorting ~180 000 pairs once is faster than filling a hash map).
#[derive(Debug, Clone)]
pub struct KnownReports {
    reports: Vec<KnownReport>,
    /// Each report's runs, sorted, distinct.
    runs: Vec<Vec<u64>>,
    /// Every (run, report) pair, sorted.
    pairs: Vec<(u64, u32)>,
    /// The reports by their title's words (those of [`MIN_TITLE_WORDS`] or more).
    titles: HashMap<String, Vec<u32>>,
}

impl PartialEq for KnownReports {
    fn eq(&self, other: &Self) -> bool {
        self.reports == other.reports
    }
}

/// Why a report table could not be read.
#[derive(Debug, thiserror::Error)]
#[error("report table line {line}: {what}")]
pub struct ReportTableError {
    line: usize,
    what: String,
}

/// The words of `text`, every one, in order, lower-cased (the word model's runs, unfiltered).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    super::words::runs_of_word_characters(text).map(|w| w.to_ascii_lowercase())
}

/// The distinct runs of three consecutive words of a text already cut into words, hashed
/// (64-bit FNV-1a: stable across builds and platforms, unlike std's hasher), sorted.
fn runs(words: &[&str]) -> Vec<u64> {
    let mut out: Vec<u64> = words
        .windows(3)
        .map(|w| {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for (i, word) in w.iter().enumerate() {
                if i > 0 {
                    h = (h ^ u64::from(b' ')).wrapping_mul(0x0100_0000_01b3);
                }
                for b in word.bytes() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
            h
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A Python or Java exception's class name as a title begins with it, lower-cased
/// (`runtimeerror`, `oserror`, `valueerror`, `illegalstateexception`, `userwarning`).
fn is_exception_class(word: &str) -> bool {
    ["error", "exception", "warning"].iter().any(|end| word.len() > end.len() && word.ends_with(end))
}

/// True when `text` has enough words to match a report, by its runs or as its title (the
/// embedded table is read only then).
pub fn could_match(text: &str) -> bool {
    words(text).nth(MIN_TITLE_WORDS - 1).is_some()
}

/// The words of a text's first line that has any, lower-cased.
fn first_line_words(text: &str) -> Vec<String> {
    text.lines().find(|l| words(l).next().is_some()).map(|l| words(l).collect()).unwrap_or_default()
}

fn runs_of_text(text: &str) -> Vec<u64> {
    let ws: Vec<String> = words(text).collect();
    let refs: Vec<&str> = ws.iter().map(String::as_str).collect();
    runs(&refs)
}

impl KnownReports {
    fn new(reports: Vec<KnownReport>) -> KnownReports {
        let runs: Vec<Vec<u64>> = reports
            .iter()
            .map(|r| runs(&r.words.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>()))
            .collect();
        let mut pairs: Vec<(u64, u32)> =
            runs.iter().enumerate().flat_map(|(i, rs)| rs.iter().map(move |&h| (h, i as u32))).collect();
        pairs.sort_unstable();
        let mut titles: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, r) in reports.iter().enumerate().filter(|(_, r)| r.title >= MIN_TITLE_WORDS) {
            let title: Vec<&str> = r.words.split(' ').take(r.title).collect();
            titles.entry(title.join(" ")).or_default().push(i as u32);
        }
        KnownReports { reports, runs, pairs, titles }
    }

    /// The reports holding run `h`.
    fn holders(&self, h: u64) -> &[(u64, u32)] {
        let from = self.pairs.partition_point(|p| p.0 < h);
        let to = from + self.pairs[from..].partition_point(|p| p.0 == h);
        &self.pairs[from..to]
    }

    /// Builds the table from labelled reports: (url, category, fix, text).
    pub fn train<'a>(reports: impl IntoIterator<Item = (&'a str, Category, &'a str, &'a str)>) -> Self {
        let mut list: Vec<KnownReport> = reports
            .into_iter()
            .map(|(url, category, fix, text)| KnownReport {
                url: url.trim_end_matches('/').to_string(),
                category,
                fix: fix.split_whitespace().collect::<Vec<_>>().join(" "),
                words: words(text).collect::<Vec<_>>().join(" "),
                title: first_line_words(text).len(),
            })
            .collect();
        list.sort_by(|a, b| a.url.cmp(&b.url));
        KnownReports::new(list)
    }

    /// The table as `data/reports.tsv` holds it.
    pub fn to_table(&self) -> String {
        let mut s = String::from(
            "# cudoctor's known reports: built from tests/explain_corpus by\n\
             # CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus; do not edit by hand.\n\
             # Columns: the thread, the category of its confirmed fix, the fix, how many of the report's\n\
             # words are its first line (the title), the report's words.\n",
        );
        for r in &self.reports {
            let _ = writeln!(s, "{}\t{}\t{}\t{}\t{}", r.url, r.category.name(), r.fix, r.title, r.words);
        }
        s
    }

    /// Reads `data/reports.tsv`.
    pub fn from_table(table: &str) -> Result<Self, ReportTableError> {
        let mut reports = Vec::new();
        for (i, line) in table.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let err = |what: &str| ReportTableError { line: i + 1, what: what.to_string() };
            let mut cols = line.split('\t');
            let (Some(url), Some(cat), Some(fix), Some(title), Some(words), None) =
                (cols.next(), cols.next(), cols.next(), cols.next(), cols.next(), cols.next())
            else {
                return Err(err("expected 5 tab-separated columns"));
            };
            let category = Category::from_name(cat).ok_or_else(|| err("unknown category"))?;
            let title = title.parse().map_err(|_| err("the title's word count is not a number"))?;
            reports.push(KnownReport {
                url: url.to_string(),
                category,
                fix: fix.to_string(),
                words: words.to_string(),
                title,
            });
        }
        Ok(KnownReports::new(reports))
    }

    /// How many reports the table holds.
    pub fn len(&self) -> usize {
        self.reports.len()
    }

    /// True when the table holds no report.
    pub fn is_empty(&self) -> bool {
        self.reports.is_empty()
    }

    /// The reports `text` is (an excerpt of), best first, at most three. `leave_out` names a
    /// report's url to act as if the table did not hold it (the corpus test asks, for each
    /// report, what the others say).
    pub fn matches(&self, text: &str, leave_out: Option<&str>) -> Vec<KnownMatch> {
        let left = leave_out.and_then(|u| self.reports.iter().position(|r| r.url == u.trim_end_matches('/')));
        let left_runs: &[u64] = left.map_or(&[], |i| &self.runs[i]);
        let shared_by =
            |h: &u64| -> usize { self.holders(*h).len() - usize::from(left_runs.binary_search(h).is_ok()) };
        let title = self.title_match(text, left, &shared_by);
        if let Some(t) = title.as_ref().filter(|_| text.trim().lines().nth(1).is_none()) {
            return vec![t.clone()];
        }
        let mut found = self.run_matches(text, left, &shared_by);
        // A text that begins with a report's title, word for word, is that report told again
        // with another excerpt of its thread (another part of the log, the prose without the
        // log): its title is the same report even where the rest shares little.
        if let Some(t) = title {
            let similarity = match found.iter().position(|m| m.url == t.url) {
                Some(i) => found.remove(i).similarity.max(SAME_REPORT),
                None => SAME_REPORT,
            };
            found.insert(0, KnownMatch { similarity, ..t });
            found.truncate(MAX_LISTED);
        }
        found
    }

    /// The reports that share enough distinctive runs with `text`, best first.
    fn run_matches(
        &self,
        text: &str,
        left: Option<usize>,
        shared_by: &dyn Fn(&u64) -> usize,
    ) -> Vec<KnownMatch> {
        let query = runs_of_text(text);
        if query.len() < MIN_SHARED {
            return Vec::new();
        }
        let distinctive: Vec<u64> = query.into_iter().filter(|h| shared_by(h) <= MAX_SHARED_BY).collect();
        if distinctive.len() < MIN_SHARED {
            return Vec::new();
        }
        let mut hits: HashMap<u32, usize> = HashMap::new();
        for &h in &distinctive {
            for &(_, r) in self.holders(h) {
                if Some(r as usize) != left {
                    *hits.entry(r).or_default() += 1;
                }
            }
        }
        let mut found: Vec<(f64, usize, usize)> = hits
            .into_iter()
            .filter(|&(_, shared)| shared >= MIN_SHARED)
            .filter_map(|(r, shared)| {
                let theirs = self.runs[r as usize].iter().filter(|h| shared_by(h) <= MAX_SHARED_BY).count();
                let similarity = shared as f64 / distinctive.len().min(theirs).max(1) as f64;
                (similarity >= MIN_SIMILARITY).then_some((similarity.min(1.0), shared, r as usize))
            })
            .collect();
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        found
            .into_iter()
            .take(MAX_LISTED)
            .map(|(similarity, _, r)| self.reports[r].matched(similarity, false))
            .collect()
    }

    /// The report whose title the first line of `text` is, word for word, when that line has at
    /// least [`MIN_TITLE_WORDS`] words, exactly one report (other than `left`) has that title, and
    /// the title holds a distinctive run (one that at most [`MAX_SHARED_BY`] reports hold): "CUDA
    /// error: out of memory" is many threads' title; "Unable to init GPU: unknown error" is one
    /// thread's (ollama/ollama#2934); "Memory is not released" is one thread's title, but each of
    /// its runs is in three reports, so it names none.
    fn title_match(
        &self,
        text: &str,
        left: Option<usize>,
        shared_by: &dyn Fn(&u64) -> usize,
    ) -> Option<KnownMatch> {
        let query = first_line_words(text);
        if query.len() < MIN_TITLE_WORDS {
            return None;
        }
        let mut holders =
            self.titles.get(&query.join(" "))?.iter().map(|&r| r as usize).filter(|&r| Some(r) != left);
        let (Some(r), None) = (holders.next(), holders.next()) else { return None };
        // A leading exception class ("OSError: libcuda.so.1: cannot open shared object file") is
        // no part of what makes a title one thread's: the run that joins it to a common message
        // is rare only because that class and that message seldom meet, and the line is still
        // the common message (382 reports hold "cannot open shared").
        let refs: Vec<&str> = query.iter().map(String::as_str).collect();
        let message = match refs.split_first() {
            Some((first, rest)) if is_exception_class(first) => rest,
            _ => &refs[..],
        };
        runs(message)
            .iter()
            .any(|h| shared_by(h) <= MAX_SHARED_BY)
            .then(|| self.reports[r].matched(1.0, true))
    }
}

/// The embedded table, read once (on the first text long enough to match).
pub fn reports() -> &'static KnownReports {
    static TABLE: OnceLock<KnownReports> = OnceLock::new();
    TABLE.get_or_init(|| {
        KnownReports::from_table(include_str!("../../data/reports.tsv"))
            .expect("data/reports.tsv is embedded and checked by tests")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACEBACK: &str = "RuntimeError: CUDA error: an illegal memory access was encountered\n\
        CUDA kernel errors might be asynchronously reported at some other API call, so the \
        stacktrace below might be incorrect.";

    fn toy() -> KnownReports {
        let a = format!(
            "{TRACEBACK}\nWhen I train detector v2 on my 4090 with the bundled ext_ops build the loss \
             explodes at step 300 and then the run crashes in roi_align_forward"
        );
        let b = format!("{TRACEBACK}\nmy own kernel writes past the end of buffer gather_rows in reduce.cu");
        let c = format!("{TRACEBACK}\nflaky GPU in slot 3 crashes nightly runs");
        let d = format!("{TRACEBACK}\nthe second card throws this at random after an hour of mining");
        KnownReports::train([
            (
                "https://github.com/o/detector/issues/1",
                Category::Other,
                "Upgrade the ext_ops build.",
                a.as_str(),
            ),
            ("https://github.com/o/kernels/issues/2", Category::UserCodeBug, "Fix the bounds.", b.as_str()),
            ("https://github.com/o/farm/issues/3", Category::HardwareFault, "Replace the GPU.", c.as_str()),
            ("https://github.com/o/miner/issues/4", Category::HardwareFault, "Lower the clocks.", d.as_str()),
        ])
    }

    #[test]
    fn an_excerpt_of_a_known_report_matches_it() {
        let t = toy();
        let excerpt = "the loss explodes at step 300 and then the run crashes in roi_align_forward \
                       (detector v2, 4090, bundled ext_ops build)";
        let m = t.matches(excerpt, None);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].url, "https://github.com/o/detector/issues/1");
        assert_eq!(m[0].category, Category::Other);
        assert_eq!(m[0].fix, "Upgrade the ext_ops build.");
        assert!(!m[0].by_title);
    }

    #[test]
    fn boilerplate_many_reports_share_matches_none_of_them() {
        // The traceback is in all four reports: it tells them apart no more than one error line.
        assert!(toy().matches(TRACEBACK, None).is_empty());
        assert!(toy()
            .matches(&format!("{TRACEBACK}\n{TRACEBACK}\nsomething else entirely"), None)
            .is_empty());
    }

    #[test]
    fn a_report_left_out_is_not_found_but_the_others_still_are() {
        let t = toy();
        let text = "When I train detector v2 on my 4090 with the bundled ext_ops build the loss explodes";
        assert_eq!(t.matches(text, None).len(), 1);
        assert!(t.matches(text, Some("https://github.com/o/detector/issues/1")).is_empty());
    }

    #[test]
    fn a_short_title_names_its_thread_only_when_it_is_that_thread_s_alone_and_distinctive() {
        let reports = [
            (
                "https://github.com/o/a/issues/1",
                Category::Oom,
                "Kill the leftover workers.",
                "Memory is not released\nwhen the program ends, GPU0 is freed, the other GPUs are not",
            ),
            (
                "https://github.com/o/b/issues/2",
                Category::Oom,
                "Smaller batch.",
                "CUDA out of memory\nduring validation",
            ),
            (
                "https://github.com/o/c/issues/3",
                Category::Other,
                "Upgrade.",
                "CUDA out of memory\nwith the new release",
            ),
            (
                "https://github.com/o/d/issues/4",
                Category::Oom,
                "Smaller model.",
                "CUDA out of memory again\nwith a big model",
            ),
            (
                "https://github.com/o/e/issues/5",
                Category::Oom,
                "Smaller images.",
                "out of memory again today\nwith big images",
            ),
            (
                "https://github.com/o/f/issues/6",
                Category::Oom,
                "Free the GPU.",
                "GPU out of memory again\nanother process",
            ),
        ];
        let t = KnownReports::train(reports);
        // The title word for word (case and punctuation aside) is that thread.
        let m = t.matches("memory is NOT released.", None);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!((m[0].url.as_str(), m[0].similarity), ("https://github.com/o/a/issues/1", 1.0));
        // Nor with itself left out.
        assert!(t.matches("Memory is not released", Some("https://github.com/o/a/issues/1")).is_empty());
        // As the first line of a longer text, another excerpt of that thread, it is that thread
        // too, as surely as a text that holds the report.
        let m = t.matches("Memory is not released\nnvidia-smi shows 10 GB used on GPU1 after the run", None);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!((m[0].url.as_str(), m[0].similarity), ("https://github.com/o/a/issues/1", SAME_REPORT));
        assert!(m[0].by_title);
        // Not when it is a later line: a title heads its report.
        assert!(t.matches("after training\nMemory is not released", None).is_empty());
        // A title two threads share names neither; one whose runs are each in three or more
        // reports names none.
        assert!(t.matches("CUDA out of memory", None).is_empty());
        assert!(t.matches("CUDA out of memory again", None).is_empty());
    }

    #[test]
    fn a_common_message_behind_an_exception_class_names_no_thread_by_its_title() {
        // One thread's title is the bare loader message behind "OSError:"; three more hold the
        // message in their text. Only the seam "oserror libcuda so" is rare: pasting that line
        // is the common message, not that thread (gluon-cv#1644's fix was an MXNet upgrade).
        let line = "OSError: libcuda.so.1: cannot open shared object file";
        let body = |s: &str| format!("{s}\nlibcuda.so.1: cannot open shared object file: No such file");
        let reports = [
            (
                "https://github.com/o/a/issues/1",
                Category::Other,
                "Upgrade MXNet.",
                format!("{line}\nin the image"),
            ),
            ("https://github.com/o/b/issues/2", Category::ContainerRuntime, "--gpus all.", body("docker")),
            ("https://github.com/o/c/issues/3", Category::LibraryNotFound, "ldconfig.", body("ldconfig")),
            ("https://github.com/o/d/issues/4", Category::DriverNotLoaded, "Install.", body("driver")),
        ];
        let t = KnownReports::train(reports.iter().map(|(u, c, f, x)| (*u, *c, *f, x.as_str())));
        assert!(t.matches(line, None).is_empty(), "{:?}", t.matches(line, None));
        // A title whose own words are rare still names its thread, class or not.
        let reports = [
            (
                "https://github.com/o/e/issues/5",
                Category::Oom,
                "Smaller batch.",
                "RuntimeError: Unable to init GPU: unknown error\nlog",
            ),
            ("https://github.com/o/f/issues/6", Category::Oom, "Free it.", "CUDA error: unknown error\nlog"),
        ];
        let t = KnownReports::train(reports);
        let m = t.matches("RuntimeError: Unable to init GPU: unknown error", None);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].url, "https://github.com/o/e/issues/5");
    }

    #[test]
    fn the_table_reads_back_as_written() {
        let t = toy();
        let again = KnownReports::from_table(&t.to_table()).unwrap();
        assert_eq!(again, t);
        assert_eq!(again.len(), 4);
        assert!(KnownReports::from_table("https://x\tno_such_category\tfix\twords\n").is_err());
        assert!(KnownReports::from_table("https://x\toom\tfix\n").is_err());
        assert!(KnownReports::from_table("https://x\toom\tfix\tfour\twords\n").is_err());
    }
}
