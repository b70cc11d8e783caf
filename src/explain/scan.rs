//! One pass over a log of any size: an Aho-Corasick prefilter over the signature literals runs on
//! whole chunks; only lines holding a literal are split out and tried against the regexes. Memory
//! stays flat: the input is read in fixed-size chunks, and only the distinct errors are kept
//! (each with its first line, a little context after it, and a count).

use super::{LineMatch, SignatureTable};
use std::collections::HashMap;
use std::io::{self, Read};

/// Bytes read per chunk. A line longer than this is cut in pieces.
const CHUNK: usize = 1 << 20;
/// At most this many distinct errors are kept; later new ones are dropped (counts go on).
const MAX_DISTINCT: usize = 1000;
/// Lines after a first occurrence kept as context for evidence (an issue template's environment
/// section, "CUDA version: 11.2", often comes a few lines below the error it explains; users paste
/// their versions just below it: "ctranslate2==4.5.0 / torch==2.5.1").
const CONTEXT_LINES: usize = 10;
/// Lines before a first occurrence kept for evidence ("I installed CUDA 9.1" above a traceback:
/// a Python traceback of five frames puts about a dozen lines between what the user said and the
/// error line).
const CONTEXT_BEFORE: usize = 12;
/// Bytes kept of a matched line, and of each context line.
const LINE_KEEP: usize = 600;
/// Bytes kept of the end of the input, for the keyword vote when no signature matches anywhere
/// (a pasted report is all of it; a long log's last error is near its end).
const RECENT_KEEP: usize = 64 << 10;
/// The longest input kept whole ([`ScanResult::whole`]).
pub const WHOLE_KEEP: usize = 64 << 10;

/// How to report progress.
#[derive(Default)]
pub struct ScanOptions<'a> {
    /// Called now and then with the bytes read so far.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

/// One distinct error of a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// Index of the explaining signature.
    pub signature: usize,
    /// Index of the signature whose pattern matched.
    pub matched: usize,
    /// What separates it from other errors of the signature.
    pub key: String,
    /// Numeric status captured.
    pub code: Option<u64>,
    /// Other named groups captured on the first line.
    pub groups: Vec<(String, String)>,
    /// 1-based line number of the first occurrence.
    pub first_line: u64,
    /// Number of lines that matched.
    pub count: u64,
    /// The first matching line.
    pub line: String,
    /// The first matching line and a few lines after it.
    pub context: String,
    /// The few lines before the first matching line, oldest first (empty at the start of input).
    pub before: String,
}

impl Occurrence {
    /// The text its evidence is read from: its own lines first, then the lines before it (what
    /// the error's own lines say wins).
    pub fn evidence_text(&self) -> String {
        if self.before.is_empty() {
            self.context.clone()
        } else {
            format!("{}\n{}", self.context, self.before)
        }
    }
}

/// Everything found in one input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScanResult {
    /// Distinct errors, first occurrence first.
    pub occurrences: Vec<Occurrence>,
    /// Lines read.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// The end of the input, when no signature matched anywhere in it.
    pub unmatched: Option<Unmatched>,
    /// The input's last lines (at most `CONTEXT_BEFORE`, cleaned), newline-separated: where a
    /// pasted report ends with the user's set-up ("I use tensorflow-gpu 1.2.0 and cudnn 5.0"),
    /// which is about every error above it.
    pub trailer: String,
    /// The whole input, when it is no longer than [`WHOLE_KEEP`] (a pasted report rather than a
    /// log): what is compared with the known reports.
    pub whole: Option<String>,
}

/// The last part of an input in which no known error was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unmatched {
    /// The last lines of the input (at most `RECENT_KEEP` bytes, whole lines, cleaned).
    pub text: String,
    /// 1-based line number of its first line.
    pub first_line: u64,
}

struct Scanner<'t> {
    table: &'t SignatureTable,
    result: ScanResult,
    index: HashMap<(usize, String), usize>,
    /// Occurrences still collecting context lines: (occurrence, lines still wanted).
    pending: Vec<(usize, usize)>,
    /// Newlines seen before the start of the current chunk.
    lines_before: u64,
    /// The last [`CONTEXT_BEFORE`] lines of the previous chunk, oldest first.
    tail: Vec<String>,
    /// The last [`RECENT_KEEP`] bytes read (or a little more).
    recent: Vec<u8>,
    /// Every line is tried against the literals ignoring case (the second look at an input's end).
    ignoring_case: bool,
    /// The input so far, while it is no longer than [`WHOLE_KEEP`].
    whole: Option<Vec<u8>>,
}

impl<'t> Scanner<'t> {
    fn new(table: &'t SignatureTable) -> Self {
        Scanner {
            table,
            result: ScanResult::default(),
            index: HashMap::new(),
            pending: Vec::new(),
            lines_before: 0,
            tail: Vec::new(),
            recent: Vec::new(),
            ignoring_case: false,
            whole: Some(Vec::new()),
        }
    }

    /// Ends the scan: counts lines and, when nothing matched, looks at the end of the input again
    /// ignoring case; if still nothing, keeps that end for the keyword vote.
    fn finish(mut self) -> ScanResult {
        self.result.lines = self.lines_before;
        self.result.whole = self.whole.take().map(|b| String::from_utf8_lossy(&b).into_owned());
        self.result.trailer = self.tail.join("\n");
        if self.result.occurrences.is_empty() && !self.recent.is_empty() && !self.ignoring_case {
            let from = self.recent.len().saturating_sub(RECENT_KEEP);
            let mut bytes: &[u8] = &self.recent[from..];
            if self.result.bytes > bytes.len() as u64 {
                // Cut to whole lines: the first kept line may have begun before the kept bytes.
                let first_newline = memchr::memchr(b'\n', bytes).map_or(bytes.len(), |i| i + 1);
                bytes = &bytes[first_newline..];
            }
            let text: Vec<String> = bytes
                .split(|&b| b == b'\n')
                .map(|l| clean_line(l.strip_suffix(b"\r").unwrap_or(l)))
                .collect();
            let trailing_newline = bytes.last() == Some(&b'\n');
            let kept_lines = text.len() as u64 - u64::from(trailing_newline);
            let first_line = (self.result.lines + 1).saturating_sub(kept_lines).max(1);
            let mut again = Scanner::new(self.table);
            again.ignoring_case = true;
            // The input is already kept whole (or too long to be) above.
            again.whole = None;
            again.lines_before = first_line - 1;
            again.chunk(bytes);
            if !again.result.occurrences.is_empty() {
                self.result.occurrences = again.result.occurrences;
                return self.result;
            }
            let mut text = text.join("\n");
            if trailing_newline {
                text.pop();
            }
            self.result.unmatched = Some(Unmatched { text, first_line });
        }
        self.result
    }

    /// Processes a chunk made of whole lines (the last one may lack its newline).
    fn chunk(&mut self, buf: &[u8]) {
        // Context for errors found at the end of the previous chunk (these lines are still
        // searched below: a context line may hold an error of its own).
        let mut ctx = 0;
        while !self.pending.is_empty() && ctx < buf.len() {
            let (line, next) = line_at(buf, ctx);
            self.feed_context(line);
            ctx = next;
        }
        let mut counted_to = 0;
        let mut newlines = self.lines_before;
        let candidates =
            if self.ignoring_case { every_line(buf) } else { self.table.fast.candidate_lines(buf) };
        for start in candidates {
            let (line, next) = line_at(buf, start);
            newlines += count_newlines(&buf[counted_to..start]);
            counted_to = start;
            let found = if self.ignoring_case {
                self.table.match_line_ignoring_case(line)
            } else {
                self.table.match_line(line)
            };
            if let Some(lm) = found {
                let n = self.record(lm, line, newlines + 1);
                if n {
                    let before = lines_before(buf, start, &self.tail).join("\n");
                    if let Some(o) = self.result.occurrences.last_mut() {
                        o.before = before;
                    }
                }
                // Gather context from the lines that follow, in this chunk.
                let mut p = next;
                let mut wanted = if n { CONTEXT_LINES } else { 0 };
                while wanted > 0 && p < buf.len() {
                    let (l, nx) = line_at(buf, p);
                    self.feed_context(l);
                    p = nx;
                    wanted -= 1;
                }
            }
        }
        self.lines_before = newlines + count_newlines(&buf[counted_to..]);
        self.tail = lines_before(buf, buf.len(), &self.tail);
        if buf.last().is_some_and(|&b| b != b'\n') {
            // The final line of the input had no newline: it still counts as a line.
            self.lines_before += 1;
        }
        self.result.bytes += buf.len() as u64;
        if let Some(w) = self.whole.as_mut() {
            if w.len() + buf.len() <= WHOLE_KEEP {
                w.extend_from_slice(buf);
            } else {
                self.whole = None;
            }
        }
        if self.result.occurrences.is_empty() {
            // A copy of at most RECENT_KEEP bytes per chunk of CHUNK, and none once an error is found.
            if buf.len() >= RECENT_KEEP {
                self.recent.clear();
                self.recent.extend_from_slice(&buf[buf.len() - RECENT_KEEP..]);
            } else {
                self.recent.extend_from_slice(buf);
                if self.recent.len() > 2 * RECENT_KEEP {
                    self.recent.drain(..self.recent.len() - RECENT_KEEP);
                }
            }
        }
    }

    /// Counts the match; returns true when it starts a new occurrence (which then wants context).
    fn record(&mut self, m: LineMatch, line: &[u8], line_no: u64) -> bool {
        let key = (m.signature, m.key.clone());
        if let Some(&i) = self.index.get(&key) {
            self.result.occurrences[i].count += 1;
            return false;
        }
        if self.index.len() >= MAX_DISTINCT {
            return false;
        }
        let text = clean_line(line);
        let occ = Occurrence {
            signature: m.signature,
            matched: m.matched,
            key: m.key,
            code: m.code,
            groups: m.groups,
            first_line: line_no,
            count: 1,
            context: text.clone(),
            line: text,
            before: String::new(),
        };
        self.result.occurrences.push(occ);
        let i = self.result.occurrences.len() - 1;
        self.index.insert(key, i);
        self.pending.push((i, CONTEXT_LINES));
        true
    }

    fn feed_context(&mut self, line: &[u8]) {
        let text = clean_line(line);
        for (occ, wanted) in &mut self.pending {
            let ctx = &mut self.result.occurrences[*occ].context;
            ctx.push('\n');
            ctx.push_str(&text);
            *wanted -= 1;
        }
        self.pending.retain(|(_, w)| *w > 0);
    }
}

/// Up to [`CONTEXT_BEFORE`] lines ending before `start` of `buf`, oldest first, taken from the
/// previous chunk's tail where `buf` has fewer.
fn lines_before(buf: &[u8], start: usize, tail: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut end = start;
    while lines.len() < CONTEXT_BEFORE && end > 0 {
        // `end` is just past a newline (or the end of the buffer): the line ends before it.
        let stop = if buf[end - 1] == b'\n' { end - 1 } else { end };
        let begin = memchr::memrchr(b'\n', &buf[..stop]).map_or(0, |i| i + 1);
        let line = &buf[begin..stop];
        lines.push(clean_line(line.strip_suffix(b"\r").unwrap_or(line)));
        end = begin;
    }
    if end == 0 {
        let more = CONTEXT_BEFORE - lines.len();
        lines.extend(tail.iter().rev().take(more).cloned());
    }
    lines.reverse();
    lines
}

/// The start of every line of `buf`.
fn every_line(buf: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', buf).map(|i| i + 1).filter(|&i| i < buf.len()))
        .collect()
}

/// The line starting at `start` (without its newline or carriage return) and where the next begins.
fn line_at(buf: &[u8], start: usize) -> (&[u8], usize) {
    let end = memchr::memchr(b'\n', &buf[start..]).map_or(buf.len(), |i| start + i);
    let line = &buf[start..end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    (line, (end + 1).min(buf.len()).max(end))
}

fn count_newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// A line as text: invalid UTF-8 replaced, control characters dropped, cut to [`LINE_KEEP`] bytes.
fn clean_line(line: &[u8]) -> String {
    let cut = &line[..line.len().min(LINE_KEEP)];
    let mut s: String =
        String::from_utf8_lossy(cut).chars().filter(|c| !c.is_control() || *c == '\t').collect();
    if line.len() > LINE_KEEP {
        s.push('…');
    }
    s
}

/// Scans a byte slice held in memory.
pub fn scan_bytes(bytes: &[u8], table: &SignatureTable) -> ScanResult {
    let mut s = Scanner::new(table);
    for piece in split_whole_lines(bytes, CHUNK) {
        s.chunk(piece);
    }
    s.finish()
}

fn split_whole_lines(bytes: &[u8], max: usize) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let take = if rest.len() <= max {
            rest.len()
        } else {
            memchr::memrchr(b'\n', &rest[..max]).map_or(max, |i| i + 1)
        };
        let (a, b) = rest.split_at(take);
        rest = b;
        Some(a)
    })
}

/// Scans a reader in fixed-size chunks: memory does not grow with the input.
pub fn scan(
    mut reader: impl Read,
    table: &SignatureTable,
    mut opts: ScanOptions<'_>,
) -> io::Result<ScanResult> {
    let mut s = Scanner::new(table);
    let mut buf = vec![0u8; CHUNK];
    let mut filled = 0;
    let mut last_progress = 0u64;
    loop {
        let n = match reader.read(&mut buf[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        filled += n;
        let eof = n == 0;
        if !eof && filled < buf.len() {
            continue;
        }
        // Process whole lines; keep a partial last line for the next read.
        let cut = if eof { filled } else { memchr::memrchr(b'\n', &buf[..filled]).map_or(filled, |i| i + 1) };
        s.chunk(&buf[..cut]);
        buf.copy_within(cut..filled, 0);
        filled -= cut;
        if let Some(p) = opts.progress.as_mut() {
            if s.result.bytes - last_progress >= 64 << 20 || eof {
                last_progress = s.result.bytes;
                p(s.result.bytes);
            }
        }
        if eof {
            break;
        }
    }
    Ok(s.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::table;

    fn ids(r: &ScanResult) -> Vec<&str> {
        r.occurrences.iter().map(|o| table().signatures[o.signature].id.as_str()).collect()
    }

    #[test]
    fn distinct_errors_are_kept_once_with_first_line_and_count() {
        let log = "epoch 1 loss 0.3\r\nRuntimeError: CUDA error: device-side assert triggered\r\nok\r\n\
                   RuntimeError: CUDA error: device-side assert triggered\r\n\
                   ImportError: libcudnn.so.8: cannot open shared object file\n\
                   ImportError: libcudnn_ops_infer.so.8: cannot open shared object file\n";
        let r = scan_bytes(log.as_bytes(), table());
        assert_eq!(ids(&r), ["cuda-device-assert", "loader-libcudnn-missing", "loader-libcudnn-missing"]);
        assert_eq!(r.occurrences[0].first_line, 2);
        assert_eq!(r.occurrences[0].count, 2);
        assert!(!r.occurrences[0].line.ends_with('\r'));
        assert_eq!(r.occurrences[1].first_line, 5);
        assert_eq!(r.lines, 6);
    }

    #[test]
    fn the_lines_before_a_first_error_are_kept_across_chunks() {
        let log = "setup\r\nI installed CUDA 9.1 and cuDNN 7\r\nTraceback (most recent call last):\r\n\
                   ImportError: libcudart.so.9.0: cannot open shared object file: No such file\n";
        let r = scan_bytes(log.as_bytes(), table());
        assert_eq!(r.occurrences.len(), 1);
        assert_eq!(
            r.occurrences[0].before,
            "setup\nI installed CUDA 9.1 and cuDNN 7\nTraceback (most recent call last):"
        );
        // At the start of a chunk the previous chunk's last lines stand in.
        let tail: Vec<String> = (0..CONTEXT_BEFORE).map(|i| format!("t{i}")).collect();
        let last = &tail[CONTEXT_BEFORE - 1];
        assert_eq!(lines_before(b"ERR\n", 0, &tail), tail);
        let got = lines_before(b"x\nERR\n", 2, &tail);
        assert_eq!(
            (got.len(), &got[CONTEXT_BEFORE - 2], got.last().unwrap().as_str()),
            (CONTEXT_BEFORE, last, "x")
        );
        let many: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let got = lines_before(many.as_bytes(), many.len(), &tail);
        assert_eq!(got.len(), CONTEXT_BEFORE);
        assert_eq!(got.last().unwrap(), "l19");
        assert!(lines_before(b"ERR\n", 0, &[]).is_empty());
    }

    #[test]
    fn chunk_boundaries_do_not_lose_lines_or_line_numbers() {
        let mut log = Vec::new();
        for i in 0..20_000 {
            log.extend_from_slice(
                format!("step {i} loss 0.123 lr 1e-4 throughput 1234 samples/s\n").as_bytes(),
            );
            if i % 5000 == 4999 {
                log.extend_from_slice(b"RuntimeError: No CUDA GPUs are available\n");
            }
        }
        let expected_first = 5001;
        // Tiny reads through the streaming path.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(out.len()).min(4097);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let r = scan(Trickle(&log), table(), ScanOptions::default()).unwrap();
        assert_eq!(ids(&r), ["torch-no-cuda-gpus"]);
        assert_eq!(r.occurrences[0].first_line, expected_first);
        assert_eq!(r.occurrences[0].count, 4);
        assert_eq!(r.lines, 20_004);
        assert_eq!(r.bytes, log.len() as u64);
        let chunked: Vec<&[u8]> = split_whole_lines(&log, 1000).collect();
        assert!(chunked.iter().all(|c| c.ends_with(b"\n")));
    }

    #[test]
    fn invalid_utf8_and_context_lines_are_tolerated() {
        let mut log = b"\xff\xfe garbage \x80\n".to_vec();
        log.extend_from_slice(b"NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n");
        log.extend_from_slice(b"The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n");
        let r = scan_bytes(&log, table());
        assert_eq!(ids(&r), ["torch-arch-not-compatible"]);
        assert!(r.occurrences[0].context.contains("supports CUDA capabilities sm_50"));
        assert_eq!(r.occurrences[0].key, "sm_120");
    }

    #[test]
    fn an_error_in_the_context_lines_after_a_chunk_boundary_is_still_found() {
        let mut log = b"RuntimeError: No CUDA GPUs are available\n".to_vec();
        let cut = log.len();
        log.extend_from_slice(b"ImportError: libcudnn.so.8: cannot open shared object file\n");
        let mut s = Scanner::new(table());
        s.chunk(&log[..cut]);
        s.chunk(&log[cut..]);
        let r = s.result;
        assert_eq!(ids(&r), ["torch-no-cuda-gpus", "loader-libcudnn-missing"]);
        assert!(r.occurrences[0].context.contains("libcudnn.so.8"));
        assert_eq!(r.occurrences[1].first_line, 2);
    }

    #[test]
    fn without_a_known_error_the_end_of_the_input_is_kept_with_its_line_number() {
        let r = scan_bytes(b"a\r\nb\nFatal: permission denied\n", table());
        let u = r.unmatched.expect("nothing matched");
        assert_eq!((u.text.as_str(), u.first_line), ("a\nb\nFatal: permission denied", 1));
        // A long input keeps whole lines of its end, numbered as in the input, across chunks.
        let mut log = Vec::new();
        for i in 0..100_000 {
            log.extend_from_slice(format!("step {i} loss 0.5\n").as_bytes());
        }
        let r = scan(&log[..], table(), ScanOptions::default()).unwrap();
        let u = r.unmatched.unwrap();
        assert!(u.text.len() <= RECENT_KEEP && u.text.len() > RECENT_KEEP / 2);
        assert!(u.text.ends_with("step 99999 loss 0.5"));
        let first = u.text.lines().next().unwrap();
        assert_eq!(first, format!("step {} loss 0.5", u.first_line - 1));
        // Once an error is found nothing is kept.
        assert!(scan_bytes(b"RuntimeError: No CUDA GPUs are available\n", table()).unmatched.is_none());
    }

    #[test]
    fn a_retyped_message_is_found_ignoring_case_only_when_nothing_matched_as_written() {
        // A title retyped by a user: no line matches as written.
        let text = "Hi, training fails on my laptop\nsteps: run train.py\nruntimeerror: no cuda gpus are available\n";
        let r = scan_bytes(text.as_bytes(), table());
        assert_eq!(ids(&r), ["torch-no-cuda-gpus"]);
        assert_eq!(r.occurrences[0].first_line, 3);
        assert!(r.unmatched.is_none());
        // With an exact error elsewhere in the text, the retyped line is not looked at.
        let text = format!("{text}RuntimeError: CUDA error: out of memory\n");
        let r = scan_bytes(text.as_bytes(), table());
        assert_eq!(r.occurrences.len(), 1);
        assert_eq!(r.occurrences[0].first_line, 4);
    }

    #[test]
    fn nothing_is_found_in_noise() {
        let log = "Epoch 3/10: 100%|██████| 500/500 [01:02<00:00, 8.01it/s, loss=0.231]\n\
                   I tensorflow/core: Successfully opened dynamic library libcudart.so.11.0\n\
                   NCCL INFO Using network IB\n";
        assert!(scan_bytes(log.as_bytes(), table()).occurrences.is_empty());
    }
}
