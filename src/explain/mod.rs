//! `cudoctor explain`: from an error message or a whole log to the likely cause on this machine.
//!
//! The knowledge is data: `data/signatures.toml` holds every known error signature (literal
//! strings for a fast prefilter, a regex for extraction, what the message means, and candidate
//! causes with a root-cause [`Category`], a prior weight, the fix and a public source). This
//! module owns the table ([`signatures`], [`match_text`]), the one-pass log scanner
//! ([`mod@scan`]), the evidence read from the log ([`evidence`]), the ranking rules that weigh causes
//! by the facts of a [`Report`] ([`rank`]), and rendering ([`render`]).
//!
//! The same table serves `cudoctor kb error …`: call [`match_text`] with the user's text (or
//! [`find_signature`] with an id or status name) and print the returned [`Signature`]s.

pub mod command;
pub mod evidence;
pub mod fallback;
pub mod known;
pub mod provenance;
pub mod rank;
pub mod render;
pub mod scan;
pub mod words;

use crate::kb::codes::CodeTable;
use crate::report::Report;
use crate::version::{ComputeCapability, CudaVersion, Version};
use aho_corasick::{AhoCorasick, MatchKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::OnceLock;

pub use evidence::LogEvidence;
pub use rank::RankedCause;
pub use scan::{scan, Occurrence, ScanOptions, ScanResult, Unmatched};

/// The root-cause vocabulary every cause is tagged with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Not enough GPU (or host) memory.
    Oom,
    /// The NVIDIA driver is older than the CUDA the software needs.
    DriverTooOld,
    /// Two CUDA runtimes/library sets of different versions meet (framework vs toolkit, 11 vs 12).
    CudaRuntimeMismatch,
    /// The cuDNN loaded differs from the one expected.
    CudnnVersionMismatch,
    /// cuDNN is not installed.
    CudnnMissing,
    /// The build has no support for this GPU architecture.
    ArchUnsupported,
    /// A shared library is not found by the loader.
    LibraryNotFound,
    /// The NVIDIA kernel driver is not loaded/installed.
    DriverNotLoaded,
    /// Kernel module and user-space driver libraries of different versions.
    DriverLibraryMismatch,
    /// The framework was built without CUDA.
    CpuOnlyBuild,
    /// An environment variable (CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, CUDA_HOME…) is wrong.
    EnvVarMisconfig,
    /// Permissions on device nodes or a broken cache.
    PermissionOrCache,
    /// The GPU or interconnect hardware fails.
    HardwareFault,
    /// A bug in the user's program.
    UserCodeBug,
    /// Determinism settings or non-deterministic behaviour.
    Nondeterminism,
    /// The container runtime does not give the container the GPU properly.
    ContainerRuntime,
    /// Anything else.
    Other,
}

impl Category {
    /// Every category, in vocabulary order.
    pub const ALL: [Category; 17] = [
        Category::Oom,
        Category::DriverTooOld,
        Category::CudaRuntimeMismatch,
        Category::CudnnVersionMismatch,
        Category::CudnnMissing,
        Category::ArchUnsupported,
        Category::LibraryNotFound,
        Category::DriverNotLoaded,
        Category::DriverLibraryMismatch,
        Category::CpuOnlyBuild,
        Category::EnvVarMisconfig,
        Category::PermissionOrCache,
        Category::HardwareFault,
        Category::UserCodeBug,
        Category::Nondeterminism,
        Category::ContainerRuntime,
        Category::Other,
    ];

    /// The category's name as written in data and JSON (`cudnn_version_mismatch`).
    pub fn name(&self) -> &'static str {
        match self {
            Category::Oom => "oom",
            Category::DriverTooOld => "driver_too_old",
            Category::CudaRuntimeMismatch => "cuda_runtime_mismatch",
            Category::CudnnVersionMismatch => "cudnn_version_mismatch",
            Category::CudnnMissing => "cudnn_missing",
            Category::ArchUnsupported => "arch_unsupported",
            Category::LibraryNotFound => "library_not_found",
            Category::DriverNotLoaded => "driver_not_loaded",
            Category::DriverLibraryMismatch => "driver_library_mismatch",
            Category::CpuOnlyBuild => "cpu_only_build",
            Category::EnvVarMisconfig => "env_var_misconfig",
            Category::PermissionOrCache => "permission_or_cache",
            Category::HardwareFault => "hardware_fault",
            Category::UserCodeBug => "user_code_bug",
            Category::Nondeterminism => "nondeterminism",
            Category::ContainerRuntime => "container_runtime",
            Category::Other => "other",
        }
    }

    /// Parses a category name.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A candidate cause of a signature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cause {
    /// Root-cause category.
    pub category: Category,
    /// Prior weight (relative to the signature's other causes).
    pub weight: f64,
    /// Why this cause produces the message.
    pub why: String,
    /// What to do.
    pub fix: String,
    /// The environment variable an `env_var_misconfig` cause is about (`CUDA_VISIBLE_DEVICES`):
    /// what the machine or the log says of that variable argues for or against this cause only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// What the cause is, where a ranking rule needs more than its category to tell it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CauseKind>,
}

/// The variable that hides or shows GPUs to CUDA, as a cause's [`Cause::variable`] names it.
pub const CUDA_VISIBLE_DEVICES: &str = "CUDA_VISIBLE_DEVICES";

/// Causes a ranking rule looks for by what they are (their category is `other` for the first
/// three, `oom` or `container_runtime` for `HostMemory`, `driver_not_loaded` for the last, and a
/// category covers more than one such cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseKind {
    /// The machine (or what the program can reach) has no usable NVIDIA GPU.
    NoGpu,
    /// A bug in the framework or a vendor library, fixed by another release.
    LibraryBug,
    /// The GPU is in an exclusive or prohibited compute mode, held by another process.
    ExclusiveComputeMode,
    /// The host's memory ran out (RAM, the paging file, /dev/shm), not a GPU's: what the GPUs
    /// hold says nothing of it. On a `container_runtime` cause, the container's /dev/shm (Docker's
    /// 64 MB): the container's share of host memory, not its GPU plumbing.
    HostMemory,
    /// NVIDIA's open kernel modules do not drive a part of this GPU (NVENC on a GeForce card
    /// before they supported its encoder): a module is loaded, and its flavour decides.
    OpenKernelModules,
}

/// A known error message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signature {
    /// Stable id (`cudnn-internal-error`).
    pub id: String,
    /// One line for people.
    pub title: String,
    /// Exact strings; a line is a candidate when it holds one.
    pub literals: Vec<String>,
    /// Regex that must also match; its named groups become evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// Wins over lower priorities on the same line.
    #[serde(default)]
    pub priority: i32,
    /// Numeric values of this status, `family:number`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub codes: Vec<String>,
    /// Families in which a captured `code` is looked up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirect: Vec<String>,
    /// What the message says.
    pub meaning: String,
    /// Public source of the signature and its causes.
    pub source: String,
    /// A warning that often accompanies the real error rather than being it (TensorFlow's
    /// "Could not load dynamic library"): listed after the errors.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warning: bool,
    /// A message that introduces details printed on the next lines (JAX's "Unable to initialize
    /// backend 'cuda'"): a known error within the next few lines is listed before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wrapper: bool,
    /// A message printed only while a container is being started (the NVIDIA container hook,
    /// the engine's device injection), or one met inside containers nearly always (CUDA's
    /// forward-compatibility error, whose compat libcuda ships in the CUDA images): that the log
    /// shows a container says nothing about which of its causes it is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub container_message: bool,
    /// A message the loaded NVIDIA kernel module prints (an `NVRM:` line): that the module is
    /// loaded is no fact against a driver that does not drive the GPU.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kernel_module_message: bool,
    /// A compiler's message about the code it builds: printed with or without a GPU on the machine
    /// (a build box has none), so a machine without one is no reason to set its facts aside.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub build_message: bool,
    /// Candidate causes.
    pub causes: Vec<Cause>,
}

impl Signature {
    /// The cause of the highest prior weight: what the message most often means.
    pub fn likeliest_cause(&self) -> Option<&Cause> {
        self.causes.iter().max_by(|a, b| a.weight.total_cmp(&b.weight))
    }
}

/// A GPU product-name pattern and its compute capability.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GpuFamily {
    /// Text found in product names (`RTX 30`).
    pub pattern: String,
    /// Its compute capability.
    pub cc: ComputeCapability,
}

/// The first CUDA and cuDNN releases that support a compute capability.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ArchSupport {
    /// Compute capability.
    pub cc: ComputeCapability,
    /// First CUDA release with support.
    pub min_cuda: CudaVersion,
    /// First cuDNN release with support.
    pub min_cudnn: Version,
}

#[derive(Deserialize, Default)]
struct Prefilter {
    /// One list of anchors per SIMD searcher.
    #[serde(default)]
    groups: Vec<Vec<String>>,
}

#[derive(Deserialize)]
struct RawTable {
    signature: Vec<Signature>,
    #[serde(default)]
    prefilter: Prefilter,
    #[serde(default)]
    gpu: Vec<GpuFamily>,
    #[serde(default)]
    arch: Vec<ArchSupport>,
}

/// Why the signature table could not be built.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The TOML did not parse.
    #[error("signature table: {0}")]
    Toml(#[from] toml::de::Error),
    /// A regex did not compile.
    #[error("signature {id}: bad regex: {source}")]
    Regex {
        /// The signature.
        id: String,
        /// The regex error.
        #[source]
        source: regex::Error,
    },
    /// The literal automaton could not be built.
    #[error("signature table: {0}")]
    Automaton(#[from] aho_corasick::BuildError),
    /// A field is invalid.
    #[error("signature {id}: {message}")]
    Invalid {
        /// The signature.
        id: String,
        /// What is wrong.
        message: String,
    },
}

/// The candidate-line search: Teddy over the anchors when possible, else an automaton.
pub enum FastSearch {
    /// SIMD packed searchers (Teddy), one per anchor group of at most [`ANCHOR_GROUP`]. Teddy
    /// sorts its patterns into 8 buckets and slows down sharply as the buckets fill (more false
    /// candidates to verify), so two groups of ~29 beat one of 58 (measured: scripts/bench-explain.sh).
    Packed(Vec<aho_corasick::packed::Searcher>),
    /// Automaton fallback (no SIMD on this CPU).
    Automaton(AhoCorasick),
}

/// Most anchors per SIMD searcher.
pub const ANCHOR_GROUP: usize = 32;

impl FastSearch {
    fn new(groups: &[Vec<String>]) -> Result<FastSearch, aho_corasick::BuildError> {
        let packed: Option<Vec<_>> =
            groups.iter().map(|g| aho_corasick::packed::Searcher::new(g.iter())).collect();
        match packed {
            Some(p) if !p.is_empty() => Ok(FastSearch::Packed(p)),
            _ => Ok(FastSearch::Automaton(
                AhoCorasick::builder().match_kind(MatchKind::LeftmostFirst).build(groups.iter().flatten())?,
            )),
        }
    }

    /// Start of the first anchor at or after `from`.
    pub fn find_from(&self, hay: &[u8], from: usize) -> Option<usize> {
        match self {
            FastSearch::Packed(ps) => {
                ps.iter().filter_map(|p| p.find(&hay[from..]).map(|m| from + m.start())).min()
            }
            FastSearch::Automaton(a) => {
                a.find(aho_corasick::Input::new(hay).range(from..)).map(|m| m.start())
            }
        }
    }

    /// The starts of every line of `buf` holding an anchor, in order. Each searcher runs once over
    /// the buffer, skipping to the next line after a hit.
    pub fn candidate_lines(&self, buf: &[u8]) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut collect = |find: &dyn Fn(usize) -> Option<usize>| {
            let mut pos = 0;
            while pos < buf.len() {
                let Some(hit) = find(pos) else { break };
                let start = memchr::memrchr(b'\n', &buf[..hit]).map_or(0, |i| i + 1);
                starts.push(start);
                pos = memchr::memchr(b'\n', &buf[hit..]).map_or(buf.len(), |i| hit + i + 1);
            }
        };
        match self {
            FastSearch::Packed(ps) => {
                for p in ps {
                    collect(&|from| p.find(&buf[from..]).map(|m| from + m.start()));
                }
                if ps.len() > 1 {
                    starts.sort_unstable();
                    starts.dedup();
                }
            }
            FastSearch::Automaton(a) => {
                collect(&|from| a.find(aho_corasick::Input::new(buf).range(from..)).map(|m| m.start()))
            }
        }
        starts
    }

    /// True when this uses the SIMD searcher.
    pub fn is_packed(&self) -> bool {
        matches!(self, FastSearch::Packed(_))
    }
}

/// The signature table, compiled for matching.
pub struct SignatureTable {
    /// The signatures, in file order.
    pub signatures: Vec<Signature>,
    /// GPU name patterns.
    pub gpus: Vec<GpuFamily>,
    /// Architecture support.
    pub arch: Vec<ArchSupport>,
    /// Finds candidate lines fast (anchors every literal contains).
    pub fast: FastSearch,
    /// How many anchors the fast search uses.
    pub anchor_count: usize,
    /// The anchors of each SIMD searcher, with those added for literals the table left without one.
    pub anchor_groups: Vec<Vec<String>>,
    /// Overlapping automaton over the same literals: all signatures a candidate line may match.
    all: AhoCorasick,
    /// The distinct literals, in the order of `literal_owners`.
    literals: Vec<String>,
    /// Literal index → signatures using it.
    literal_owners: Vec<Vec<usize>>,
    regexes: LazyRegexes,
    codes: HashMap<(String, u64), usize>,
    /// The same literals and regexes ignoring ASCII case, built on first use.
    folded: OnceLock<Option<Matcher>>,
}

/// Literals and regexes compiled one way (as written, or ignoring case).
struct Matcher {
    all: AhoCorasick,
    regexes: LazyRegexes,
}

/// The signatures' regexes, each compiled the first time a line holding one of its literals
/// needs it: a log touches a few signatures, and compiling all of them (twice, for the second
/// look ignoring case) was most of a short `explain`'s time (~190 of ~250 ms, measured with
/// `perf` on a one-line input). `SignatureTable::compile_all` compiles them all, for tests.
struct LazyRegexes {
    ignore_case: bool,
    /// Per signature; stays empty for a signature without a regex.
    cells: Vec<OnceLock<Result<regex::bytes::Regex, regex::Error>>>,
}

impl LazyRegexes {
    fn new(signatures: usize, ignore_case: bool) -> LazyRegexes {
        LazyRegexes { ignore_case, cells: (0..signatures).map(|_| OnceLock::new()).collect() }
    }

    /// Signature `i`'s compiled `pattern`.
    fn get(&self, i: usize, pattern: &str) -> Result<&regex::bytes::Regex, &regex::Error> {
        self.cells[i].get_or_init(|| signature_regex(pattern, self.ignore_case)).as_ref()
    }
}

/// One signature matched on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMatch {
    /// Index of the signature explaining the line (after a code redirect).
    pub signature: usize,
    /// Index of the signature whose pattern matched (differs after a redirect).
    pub matched: usize,
    /// What separates distinct errors of one signature (a library name); empty if nothing.
    pub key: String,
    /// The numeric status captured, if any.
    pub code: Option<u64>,
    /// The other named groups of the regex.
    pub groups: Vec<(String, String)>,
}

impl SignatureTable {
    /// Builds the table from TOML text.
    pub fn from_toml(text: &str) -> Result<SignatureTable, TableError> {
        let raw: RawTable = toml::from_str(text)?;
        let mut literals: Vec<String> = Vec::new();
        let mut literal_index: HashMap<String, usize> = HashMap::new();
        let mut literal_owners: Vec<Vec<usize>> = Vec::new();
        let mut codes = HashMap::new();
        let mut ids = BTreeSet::new();
        for (i, sig) in raw.signature.iter().enumerate() {
            let invalid = |message: &str| TableError::Invalid { id: sig.id.clone(), message: message.into() };
            if !ids.insert(sig.id.clone()) {
                return Err(invalid("duplicate id"));
            }
            if sig.literals.is_empty() || sig.literals.iter().any(|l| l.len() < 3) {
                return Err(invalid("needs literals of 3 bytes or more"));
            }
            if sig.causes.is_empty() || sig.causes.iter().any(|c| !(c.weight > 0.0 && c.weight <= 1.0)) {
                return Err(invalid("needs causes with weights in (0, 1]"));
            }
            for lit in &sig.literals {
                let idx = *literal_index.entry(lit.clone()).or_insert_with(|| {
                    literals.push(lit.clone());
                    literal_owners.push(Vec::new());
                    literals.len() - 1
                });
                literal_owners[idx].push(i);
            }
            for code in &sig.codes {
                let (family, n) = code.split_once(':').ok_or_else(|| invalid("code without family"))?;
                let n: u64 = n.parse().map_err(|_| invalid("code is not a number"))?;
                codes.entry((family.to_string(), n)).or_insert(i);
            }
        }
        // The fast pass only needs candidate lines: it looks for a few anchors that every literal
        // contains, with the SIMD (Teddy) searcher when there are at most 64 of them; candidate
        // lines are then checked against the full literals.
        let mut groups: Vec<Vec<String>> = raw.prefilter.groups.clone();
        for g in &mut groups {
            g.retain(|a| !a.is_empty());
        }
        groups.retain(|g| !g.is_empty());
        for lit in &literals {
            if groups.iter().flatten().any(|a| lit.contains(a.as_str())) {
                continue;
            }
            // A literal without an anchor becomes its own, in the smallest group with room.
            match groups.iter_mut().filter(|g| g.len() < ANCHOR_GROUP).min_by_key(|g| g.len()) {
                Some(g) => g.push(lit.clone()),
                None => groups.push(vec![lit.clone()]),
            }
        }
        let fast = FastSearch::new(&groups)?;
        // A DFA: candidate lines are few but each is scanned in full, overlapping (measured: the
        // default NFA was a sixth of the time on C headers, text dense in anchor words).
        let all = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(&literals)?;
        let regexes = LazyRegexes::new(raw.signature.len(), false);
        Ok(SignatureTable {
            signatures: raw.signature,
            gpus: raw.gpu,
            arch: raw.arch,
            anchor_count: groups.iter().map(Vec::len).sum(),
            anchor_groups: groups,
            fast,
            all,
            literals,
            literal_owners,
            regexes,
            codes,
            folded: OnceLock::new(),
        })
    }

    /// The signature with this id.
    pub fn by_id(&self, id: &str) -> Option<&Signature> {
        self.signatures.iter().find(|s| s.id == id)
    }

    /// The signature owning a numeric status in a family (`cudnn`, 4).
    pub fn by_code(&self, family: &str, code: u64) -> Option<usize> {
        self.codes.get(&(family.to_string(), code)).copied()
    }

    /// True when the line holds an anchor (the fast prefilter).
    pub fn is_candidate(&self, line: &[u8]) -> bool {
        self.fast.find_from(line, 0).is_some()
    }

    /// The best signature for one line, if any.
    pub fn match_line(&self, line: &[u8]) -> Option<LineMatch> {
        self.match_line_in(line, &self.all, &self.regexes)
    }

    /// The best signature for one line, ignoring ASCII case in literals and regexes. Users retype
    /// messages in titles and prose ("no cuda gpus are available", "Cuda Out Of Memory"); this is
    /// only tried on text in which nothing matched as written, so a log's exact lines keep the
    /// meaning their case gives them.
    pub fn match_line_ignoring_case(&self, line: &[u8]) -> Option<LineMatch> {
        let m = self.folded()?;
        self.match_line_in(line, &m.all, &m.regexes)
    }

    /// The case-insensitive matcher, built on first use.
    fn folded(&self) -> Option<&Matcher> {
        self.folded.get_or_init(|| self.build_folded()).as_ref()
    }

    /// The case-insensitive matcher (its regexes compile on first use); `None` if the literal
    /// automaton cannot be built.
    fn build_folded(&self) -> Option<Matcher> {
        let all = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .ascii_case_insensitive(true)
            .build(&self.literals)
            .ok()?;
        Some(Matcher { all, regexes: LazyRegexes::new(self.signatures.len(), true) })
    }

    /// Compiles every regex both ways (as written and ignoring case), which matching does only
    /// as lines need them: the first that does not compile is the error.
    pub fn compile_all(&self) -> Result<(), TableError> {
        let folded = self.folded();
        for (i, sig) in self.signatures.iter().enumerate() {
            let Some(pattern) = &sig.regex else { continue };
            let compiled = [Some(&self.regexes), folded.map(|m| &m.regexes)];
            for regexes in compiled.into_iter().flatten() {
                regexes
                    .get(i, pattern)
                    .map_err(|e| TableError::Regex { id: sig.id.clone(), source: e.clone() })?;
            }
        }
        Ok(())
    }

    fn match_line_in(&self, line: &[u8], all: &AhoCorasick, regexes: &LazyRegexes) -> Option<LineMatch> {
        let mut candidates: Vec<usize> = Vec::new();
        for m in all.find_overlapping_iter(line) {
            for &sig in &self.literal_owners[m.pattern().as_usize()] {
                if !candidates.contains(&sig) {
                    candidates.push(sig);
                }
            }
        }
        if candidates.is_empty() {
            return None;
        }
        // Highest priority first; file order breaks ties.
        candidates.sort_by_key(|&i| (std::cmp::Reverse(self.signatures[i].priority), i));
        let mut best = candidates.iter().find_map(|&i| self.try_signature(i, line, regexes))?;
        if best.code.is_none() {
            // A status named in words may also be given as a number on the same line (Caffe's
            // "(4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR"): keep the number when it agrees.
            let numbered = candidates
                .iter()
                .filter(|&&i| i != best.signature && !self.signatures[i].redirect.is_empty())
                .filter_map(|&i| self.try_signature(i, line, regexes))
                .find(|m| m.signature == best.signature && m.code.is_some());
            if let Some(m) = numbered {
                best.code = m.code;
                best.matched = m.matched;
            }
        }
        Some(best)
    }

    fn try_signature(&self, i: usize, line: &[u8], regexes: &LazyRegexes) -> Option<LineMatch> {
        let mut m =
            LineMatch { signature: i, matched: i, key: String::new(), code: None, groups: Vec::new() };
        if let Some(pattern) = &self.signatures[i].regex {
            // A regex that does not compile matches nothing (`compile_all` is the embedded
            // table's test).
            let re = regexes.get(i, pattern).ok()?;
            let caps = re.captures(line)?;
            for name in re.capture_names().flatten() {
                let Some(value) = caps.name(name) else { continue };
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                if name.starts_with("key") {
                    m.key = value;
                } else if name.starts_with("code") {
                    m.code = value.parse().ok();
                } else {
                    m.groups.push((name.to_string(), value));
                }
            }
        }
        if let Some(code) = m.code {
            if let Some(target) = self.signatures[i].redirect.iter().find_map(|f| self.by_code(f, code)) {
                m.signature = target;
            }
        }
        Some(m)
    }

    /// The compute capability of a GPU product name (`NVIDIA GeForce RTX 3090` → 8.6).
    pub fn gpu_capability(&self, name: &str) -> Option<&GpuFamily> {
        self.gpus.iter().find(|g| contains_at_word_start(name, &g.pattern))
    }

    /// The first CUDA/cuDNN releases supporting a compute capability.
    pub fn arch_support(&self, cc: ComputeCapability) -> Option<&ArchSupport> {
        self.arch.iter().find(|a| a.cc == cc)
    }
}

/// A signature's regex, compiled as written or ignoring ASCII case (case folding multiplies the
/// character classes, so that form gets twice the size limit).
fn signature_regex(pattern: &str, ignore_case: bool) -> Result<regex::bytes::Regex, regex::Error> {
    let limit = if ignore_case { 1 << 23 } else { 1 << 22 };
    regex::bytes::RegexBuilder::new(&ascii_word_boundaries(pattern))
        .size_limit(limit)
        .case_insensitive(ignore_case)
        .build()
}

/// `pattern` with each `\b` made an ASCII word boundary (`(?-u:\b)`). Chinese and Japanese reports
/// write names and versions against their own words ("我用的rtx3090显卡", "docker中运行"), and a
/// Unicode `\b` sees no boundary there, a CJK character being a word character. An escaped
/// backslash before a `b` (`\\b`) is left alone.
pub(crate) fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push_str("(?-u:\\b)"),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// True when `needle` occurs in `hay` not preceded by a letter or digit.
pub(crate) fn contains_at_word_start(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle)
        .any(|(i, _)| !hay[..i].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric()))
}

/// The embedded signature table, parsed once.
pub fn table() -> &'static SignatureTable {
    static TABLE: OnceLock<SignatureTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        SignatureTable::from_toml(include_str!("../../data/signatures.toml"))
            .expect("data/signatures.toml is embedded and checked by tests")
    })
}

/// Every known signature, in table order.
pub fn signatures() -> &'static [Signature] {
    &table().signatures
}

/// A signature found in a text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextMatch {
    /// The signature explaining it.
    pub signature: &'static Signature,
    /// 1-based line of the first occurrence.
    pub line: u64,
    /// The text of that line.
    pub text: String,
    /// The numeric status captured (a cuDNN/CUDA code), if any.
    pub code: Option<u64>,
    /// What separates distinct errors of one signature (a library name), if anything.
    pub key: String,
}

/// Every distinct known error in `text`, first occurrence first. This is what `kb error` uses.
pub fn match_text(text: &str) -> Vec<TextMatch> {
    let result = scan::scan_bytes(text.as_bytes(), table());
    result
        .occurrences
        .into_iter()
        .map(|o| TextMatch {
            signature: &table().signatures[o.signature],
            line: o.first_line,
            text: o.line,
            code: o.code,
            key: o.key,
        })
        .collect()
}

/// A signature by id, or by a status name it matches (`CUDNN_STATUS_INTERNAL_ERROR`).
pub fn find_signature(query: &str) -> Option<&'static Signature> {
    let t = table();
    t.by_id(query).or_else(|| t.match_line(query.as_bytes()).map(|m| &t.signatures[m.signature]))
}

/// One explained error: where it was, what it means, and its ranked causes.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// Signature id.
    pub signature: String,
    /// Signature title.
    pub title: String,
    /// True for a warning-level signature (listed after the errors).
    pub warning: bool,
    /// 1-based line of the first occurrence.
    pub first_line: u64,
    /// How many lines matched.
    pub count: u64,
    /// The first matching line (cut to a few hundred characters).
    pub line: String,
    /// The numeric status, named (`cuDNN status 4 = CUDNN_STATUS_INTERNAL_ERROR (cuDNN 7/8 numbering)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What the message means.
    pub meaning: String,
    /// Evidence read from the log around the error.
    pub evidence: LogEvidence,
    /// Causes, most likely first.
    pub causes: Vec<RankedCause>,
    /// Why the machine's facts were left out of this ranking: the log cannot come from it
    /// (a Windows log on Linux, another GPU named, an error that needs a GPU on a machine without).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts_not_used: Option<String>,
    /// Public source.
    pub source: String,
    /// Known reports the whole input is (an excerpt of), best first: on the first error only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known_reports: Vec<known::KnownMatch>,
}

/// The result of `cudoctor explain`.
#[derive(Debug, Clone, Serialize)]
pub struct ExplainReport {
    /// Version of this JSON shape.
    pub schema_version: u32,
    /// What was read (`stdin`, a path, `argument`).
    pub input: String,
    /// Lines read.
    pub lines: u64,
    /// Bytes read (after decompression).
    pub bytes: u64,
    /// Whether the ranking used a machine's facts, and which (`this machine`, a report path).
    pub facts: String,
    /// The errors, first occurrence first.
    pub errors: Vec<Explanation>,
}

/// What `explain` learned from the corpus of real reports: the word model and the known reports.
#[derive(Debug, Clone, Copy)]
pub struct Learned<'a> {
    /// The word model, for texts no signature knows; `None` for the embedded one, read only when
    /// such a text comes (its table is 1.4 MB: a log of known errors never parses it).
    pub words: Option<&'a words::WordModel>,
    /// The known reports; `None` for the embedded table, read only for a text long enough to match.
    pub known: Option<&'a known::KnownReports>,
    /// A known report (its url) to act as if unknown: the corpus test ranks each report with what
    /// the others taught.
    pub leave_out: Option<&'a str>,
}

impl Learned<'static> {
    /// The embedded word model and known reports.
    pub fn embedded() -> Self {
        Learned { words: None, known: None, leave_out: None }
    }
}

/// Explains every occurrence of a scan, ranking causes with `report` when given. When no known
/// error occurs at all, the words of the input's end point at causes instead
/// ([`fallback::explain_unrecognised`], with the embedded [`words::model`]). A short input that
/// is one of the known reports ([`known`]) has that report's category first.
pub fn explain(result: &ScanResult, report: Option<&Report>) -> Vec<Explanation> {
    explain_with(result, report, &Learned::embedded())
}

/// [`explain`] with another word model or known reports (a test leaves each corpus report out of
/// what ranks it).
pub fn explain_with(result: &ScanResult, report: Option<&Report>, learned: &Learned<'_>) -> Vec<Explanation> {
    let mut out = explain_errors(result, report, learned.words);
    if let Some(text) = &result.whole {
        let matches = match learned.known {
            Some(k) => k.matches(text, learned.leave_out),
            None if known::could_match(text) => known::reports().matches(text, learned.leave_out),
            None => Vec::new(),
        };
        if let Some(best) = matches.first().filter(|m| m.similarity >= known::SAME_REPORT) {
            if out.is_empty() {
                out.push(known_report_only(text, result.lines));
            }
            promote_known(&mut out[0].causes, best);
        }
        if let Some(first) = out.first_mut() {
            first.known_reports = matches;
        }
    }
    out
}

/// The causes of the first error with the known report's category first: it says which fix
/// this very text needed.
fn promote_known(causes: &mut Vec<RankedCause>, known: &known::KnownMatch) {
    let fact = if known.by_title {
        format!(
            "the text begins with the title of the known report {}, word for word, a title no other report has (its fix is listed below)",
            known.url
        )
    } else {
        format!(
            "the text matches the known report {} ({:.0}% of the wording few other reports share; its fix is listed below)",
            known.url,
            known.similarity * 100.0
        )
    };
    let top = causes.first().map_or(1.0, |c| c.score);
    let mut cause = match causes.iter().position(|c| c.category == known.category) {
        Some(i) => causes.remove(i),
        None => RankedCause {
            category: known.category,
            score: 0.0,
            why: "The same report was solved by this fix.".to_string(),
            fix: known.fix.clone(),
            facts: Vec::new(),
            against: Vec::new(),
        },
    };
    cause.facts.insert(0, fact);
    cause.score = cause.score.max(top * 2.0).max(0.5);
    causes.insert(0, cause);
    let total: f64 = causes.iter().map(|c| c.score).sum();
    for c in causes.iter_mut() {
        c.score /= total;
    }
}

/// The explanation of a text that holds no known error message but is a known report.
fn known_report_only(text: &str, lines: u64) -> Explanation {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    Explanation {
        signature: fallback::UNRECOGNISED.to_string(),
        title: "No known error message; the text is a known report".to_string(),
        warning: false,
        first_line: 1,
        count: 1,
        line: line.chars().take(300).collect(),
        code: None,
        meaning: format!(
            "cudoctor knows no signature for this text ({lines} lines), but it is (an excerpt of) a real \
             report whose fix is known: the report's category comes first."
        ),
        evidence: LogEvidence::default(),
        causes: Vec::new(),
        facts_not_used: None,
        source: "cudoctor's known reports (data/reports.tsv, built from tests/explain_corpus)".to_string(),
        known_reports: Vec::new(),
    }
}

fn explain_errors(
    result: &ScanResult,
    report: Option<&Report>,
    model: Option<&words::WordModel>,
) -> Vec<Explanation> {
    let t = table();
    if let (true, Some(u)) = (result.occurrences.is_empty(), &result.unmatched) {
        let model = model.unwrap_or_else(|| words::model());
        return fallback::explain_unrecognised(&u.text, u.first_line, report, t, model).into_iter().collect();
    }
    let seen: BTreeSet<&str> =
        result.occurrences.iter().map(|o| t.signatures[o.signature].id.as_str()).collect();
    // What the input's last lines say of the set-up, read once for every error.
    let mut setup = evidence::extract(&result.trailer, "", &[], None, t);
    // A pasted report names its container and its GPU anywhere: in its title, in the command it
    // ran. Read once, whole.
    let pasted = result.whole.as_deref().map(|w| evidence::extract(w, "", &[], None, t));
    setup.names_container |= pasted.as_ref().is_some_and(|p| p.names_container);
    let mut out: Vec<Explanation> = result
        .occurrences
        .iter()
        .map(|o| {
            let sig = &t.signatures[o.signature];
            let mut ev = evidence::extract(&o.evidence_text(), &o.key, &o.groups, o.code, t);
            evidence::add_setup_from_trailer(&mut ev, &setup);
            if let Some(pasted) = &pasted {
                evidence::add_gpu_from_report(&mut ev, pasted);
            }
            let (causes, facts_not_used) = rank_where_the_log_is_from(sig, &ev, report, &seen, t);
            Explanation {
                signature: sig.id.clone(),
                title: sig.title.clone(),
                warning: sig.warning,
                first_line: o.first_line,
                count: o.count,
                line: o.line.clone(),
                code: o
                    .code
                    .map(|c| name_code(&t.signatures[o.matched], sig, c))
                    .or_else(|| ev.xid.map(name_xid)),
                meaning: sig.meaning.clone(),
                evidence: ev,
                causes,
                facts_not_used,
                source: sig.source.clone(),
                known_reports: Vec::new(),
            }
        })
        .collect();
    // A wrapper message is ordered just after a detailed error printed right below it.
    let lines: Vec<(u64, bool)> =
        out.iter().map(|e| (e.first_line, t.by_id(&e.signature).is_some_and(|s| s.wrapper))).collect();
    let sort_line = |e: &Explanation| -> (u64, bool) {
        let wrapper = t.by_id(&e.signature).is_some_and(|s| s.wrapper);
        if wrapper {
            let detail = lines.iter().find(|(l, w)| !w && *l > e.first_line && *l <= e.first_line + 3);
            if let Some((l, _)) = detail {
                return (*l, true);
            }
        }
        (e.first_line, false)
    };
    // A message inside the source code a traceback shows around the line that ran is code, not
    // what happened: it is listed after the errors that did.
    let shown: BTreeSet<u64> =
        result.occurrences.iter().filter(|o| is_shown_source(o)).map(|o| o.first_line).collect();
    out.sort_by_key(|e| (e.warning, shown.contains(&e.first_line), sort_line(e)));
    out
}

/// True for a match on a line of source code that an IPython (or rich) traceback prints around
/// the line that ran: such tracebacks number every line they show and mark the one that ran with
/// an arrow (`--> 293`, `❱ 293 │`), so a numbered line without the arrow in a text that has one is
/// the code's neighbourhood, e.g. torch's `raise RuntimeError("Cannot re-initialize CUDA in forked
/// subprocess…")` shown two lines above the `raise` that ran
/// (<https://github.com/angelolab/Nimbus-Inference/issues/12>).
fn is_shown_source(o: &scan::Occurrence) -> bool {
    static P: OnceLock<(regex::Regex, regex::Regex)> = OnceLock::new();
    let (numbered, arrow) = P.get_or_init(|| {
        (
            regex::Regex::new(r"^\s*(?:│\s*)?\d{1,5} ").expect("constant pattern"),
            regex::Regex::new(r"(?m)^\s*(?:-{1,3}>|❱) ?\d{1,5} ").expect("constant pattern"),
        )
    });
    numbered.is_match(&o.line) && (arrow.is_match(&o.context) || arrow.is_match(&o.before))
}

/// Ranks a signature's causes with the machine's facts, unless the log cannot come from that
/// machine: then on the text alone, with the reason returned beside the causes.
fn rank_where_the_log_is_from(
    sig: &Signature,
    ev: &LogEvidence,
    report: Option<&Report>,
    seen: &BTreeSet<&str>,
    t: &SignatureTable,
) -> (Vec<RankedCause>, Option<String>) {
    let facts_not_used = report.and_then(|r| provenance::facts_elsewhere(sig, ev, r));
    let usable = if facts_not_used.is_some() { None } else { report };
    (rank::rank(sig, ev, usable, seen, t), facts_not_used)
}

/// The knowledge-base code table of a signature code family (`cudnn` → cuDNN 7/8 numbering).
pub fn code_table(family: &str) -> Option<CodeTable> {
    Some(match family {
        "cudnn" => CodeTable::Cudnn8,
        "cudnn9" => CodeTable::Cudnn9,
        "cudart" => CodeTable::CudaRuntime,
        "cuda_driver" => CodeTable::CudaDriver,
        "cublas" => CodeTable::Cublas,
        "nccl" => CodeTable::Nccl,
        "nvml" => CodeTable::Nvml,
        "xid" => CodeTable::Xid,
        _ => return None,
    })
}

/// Names a numeric status captured by `matched` (whose `redirect` lists the families it may
/// belong to) and explained by `resolved`, from the knowledge base's code tables.
fn name_code(matched: &Signature, resolved: &Signature, code: u64) -> String {
    let codes = crate::kb::codes::tables();
    // The family in which the resolved signature owns the code, else the first family where the
    // knowledge base knows the number.
    let owned = matched.redirect.iter().find(|f| resolved.codes.iter().any(|c| c == &format!("{f}:{code}")));
    let family = owned.or_else(|| {
        matched.redirect.iter().find(|f| code_table(f).is_some_and(|t| codes.get(t, code as i64).is_some()))
    });
    match family.and_then(|f| code_table(f)) {
        Some(table) => match codes.get(table, code as i64) {
            Some(entry) => format!("{} {code} = {}: {}", table.title(), entry.name, entry.description),
            None => format!("{} {code}", table.title()),
        },
        None => format!("status {code} (not in cudoctor's code tables)"),
    }
}

/// The signatures that own a code of a knowledge-base table (cuDNN 7/8 status 4 →
/// `cudnn-internal-error`): what `kb error 4` can show beside the code's description. Xid numbers
/// are matched through the Xid signatures' patterns.
pub fn signatures_for_code(table: CodeTable, number: i64) -> Vec<&'static Signature> {
    if table == CodeTable::Xid {
        let line = format!("NVRM: Xid (PCI:0000:00:00): {number}, ");
        return find_signature(&line).into_iter().collect();
    }
    signatures()
        .iter()
        .filter(|s| {
            s.codes.iter().any(|c| {
                c.split_once(':')
                    .is_some_and(|(f, n)| code_table(f) == Some(table) && n == number.to_string())
            })
        })
        .collect()
}

/// Names an Xid number from the knowledge base.
fn name_xid(xid: u32) -> String {
    match crate::kb::codes::tables().get(CodeTable::Xid, i64::from(xid)) {
        Some(entry) => format!("Xid {xid} = {}: {}", entry.name, entry.description),
        None => format!("Xid {xid} (not in cudoctor's Xid table)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries_are_ascii_so_cjk_text_around_a_name_still_bounds_it() {
        assert_eq!(ascii_word_boundaries(r"\bdocker\b"), r"(?-u:\b)docker(?-u:\b)");
        // An escaped backslash before "b" stays a backslash and a "b".
        assert_eq!(ascii_word_boundaries(r"C:\\bin\d"), r"C:\\bin\d");
        let re = regex::Regex::new(&ascii_word_boundaries(r"(?i)\brtx ?(\d{4})\b")).unwrap();
        assert_eq!(&re.captures("我用的rtx3090显卡").unwrap()[1], "3090");
        assert!(re.captures("partx3090x").is_none());
    }

    #[test]
    fn a_known_report_puts_the_category_of_its_fix_first() {
        // An illegal address ranks a bug in the code first; this very report was a failing GPU.
        let text = "RuntimeError: CUDA error: an illegal memory access was encountered\n\
                    It happens in my script for the segmentation model at batch size sixteen, after \
                    the third epoch, when the validation loop starts and the loader yields the first \
                    batch of the new dataset";
        // Three other threads quote the same error line, so the line alone is no report's.
        let line = "RuntimeError: CUDA error: an illegal memory access was encountered";
        let others = [
            (
                "https://github.com/o/r/issues/2",
                Category::UserCodeBug,
                "my custom kernel indexes past the end",
            ),
            ("https://github.com/o/r/issues/3", Category::Other, "after the upgrade of the library"),
            ("https://github.com/o/r/issues/4", Category::HardwareFault, "only on the second card"),
        ];
        let texts: Vec<String> = others.iter().map(|(_, _, t)| format!("{line}\n{t}")).collect();
        let known = known::KnownReports::train(
            std::iter::once((
                "https://github.com/o/r/issues/1",
                Category::HardwareFault,
                "The GPU was replaced.",
                text,
            ))
            .chain(others.iter().zip(&texts).map(|((u, c, _), t)| (*u, *c, "Fixed.", t.as_str()))),
        );
        let result = scan::scan_bytes(text.as_bytes(), table());
        let learned = Learned { words: Some(words::model()), known: Some(&known), leave_out: None };
        let e = explain_with(&result, None, &learned).remove(0);
        assert_eq!(e.signature, "cuda-illegal-address");
        assert_eq!(e.causes[0].category, Category::HardwareFault);
        assert!(e.causes[0].facts[0].contains("https://github.com/o/r/issues/1"), "{:?}", e.causes[0]);
        assert_eq!(e.known_reports.len(), 1);
        assert!((e.causes.iter().map(|c| c.score).sum::<f64>() - 1.0).abs() < 1e-9);
        // Without the report, the message's own ranking.
        let unknown = Learned { leave_out: Some("https://github.com/o/r/issues/1"), ..learned };
        let e = explain_with(&result, None, &unknown).remove(0);
        assert_ne!(e.causes[0].category, Category::HardwareFault);
        assert!(e.known_reports.is_empty());
        // The error line alone is every one of them and none.
        let alone = scan::scan_bytes(line.as_bytes(), table());
        assert!(explain_with(&alone, None, &learned)[0].known_reports.is_empty());
    }

    #[test]
    fn the_embedded_table_parses_and_uses_only_the_vocabulary() {
        let t = table();
        assert!(t.signatures.len() >= 60);
        t.compile_all().expect("every regex compiles, as written and ignoring case");
        for sig in &t.signatures {
            assert!(sig.source.starts_with("https://"), "{} has no public source", sig.id);
            let mut categories: Vec<Category> = sig.causes.iter().map(|c| c.category).collect();
            categories.sort_by_key(|c| c.name());
            categories.dedup();
            assert_eq!(categories.len(), sig.causes.len(), "{} lists a category twice", sig.id);
            let total: f64 = sig.causes.iter().map(|c| c.weight).sum();
            assert!((0.5..=1.5).contains(&total), "{} weights sum to {total}", sig.id);
        }
        assert!(!t.gpus.is_empty() && !t.arch.is_empty());
    }

    #[test]
    fn every_literal_holds_a_listed_anchor_and_the_simd_search_is_used() {
        let t = table();
        let raw: RawTable = toml::from_str(include_str!("../../data/signatures.toml")).unwrap();
        let listed: Vec<&String> = raw.prefilter.groups.iter().flatten().collect();
        // Every literal is covered by an anchor the table lists (none had to be added), every
        // anchor covers a literal, and every anchor is at least 4 bytes: Teddy's fingerprint is
        // the first min-length bytes, and 3-byte anchors double the false candidates it checks.
        for sig in &t.signatures {
            for lit in &sig.literals {
                assert!(listed.iter().any(|a| lit.contains(a.as_str())), "{}: {lit:?} has no anchor", sig.id);
                assert!(t.is_candidate(lit.as_bytes()), "{}: {lit:?} is not a candidate", sig.id);
            }
        }
        for a in &listed {
            assert!(a.len() >= 4, "anchor {a:?} is shorter than 4 bytes");
            let used = t.signatures.iter().flat_map(|s| &s.literals).any(|l| l.contains(a.as_str()));
            assert!(used, "anchor {a:?} is in no literal");
        }
        assert_eq!(t.anchor_groups, raw.prefilter.groups, "no anchor had to be added");
        // Two full groups and a small third one for rare anchors; each group is one more pass of
        // a SIMD searcher over every byte (scripts/bench-explain.sh measures what it costs).
        assert!(t.anchor_groups.len() <= 3, "keep the anchors to three SIMD searchers");
        assert!(t.anchor_groups.iter().all(|g| g.len() <= ANCHOR_GROUP));
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            assert!(t.fast.is_packed());
        }
    }

    #[test]
    fn every_numeric_code_agrees_with_the_knowledge_base_tables() {
        let codes = crate::kb::codes::tables();
        for sig in signatures() {
            for code in &sig.codes {
                let (family, n) = code.split_once(':').unwrap();
                let table =
                    code_table(family).unwrap_or_else(|| panic!("{}: unknown family {family}", sig.id));
                let entry = codes
                    .get(table, n.parse().unwrap())
                    .unwrap_or_else(|| panic!("{}: {code} is not in the {} table", sig.id, table.title()));
                let named = sig
                    .literals
                    .iter()
                    .any(|l| entry.name.starts_with(l.as_str()) || l.contains(&entry.name));
                let aliased =
                    entry.aliases.iter().any(|a| sig.literals.iter().any(|l| a.starts_with(l.as_str())));
                assert!(named || aliased, "{}: {code} is {} in the knowledge base", sig.id, entry.name);
            }
        }
    }

    #[test]
    fn llama_cpp_numbered_cuda_errors_are_explained_by_their_code() {
        // ggml's CUDA_CHECK: "CUDA error <n> at <file>:<line>: <message>"; 217 has no literal of
        // its message in this form, so only the number names it.
        let r = scan::scan_bytes(
            b"CUDA error 217 at ggml-cuda.cu:6292: peer access is not supported between these two devices",
            table(),
        );
        let e = explain(&r, None);
        assert_eq!(e[0].signature, "cuda-peer-access-unsupported");
        assert_eq!(e[0].causes[0].category, Category::Other);
        let r = scan::scan_bytes(b"CUDA error 400 at ggml-cuda.cu:5207: invalid resource handle", table());
        assert_eq!(explain(&r, None)[0].signature, "cuda-invalid-resource-handle");
        // deviceQuery's first line alone, as a thread's title gives it.
        let r = scan::scan_bytes(b"cudaGetDeviceCount returned 35", table());
        let e = explain(&r, None);
        assert_eq!(
            (e[0].signature.as_str(), e[0].causes[0].category),
            ("cuda-insufficient-driver", Category::DriverTooOld)
        );
        // The gpuErrchk macro's line names the status by its text, the file after it.
        let r = scan::scan_bytes(b"GPUassert: unknown error /home/u/gpuRIR/src/gpuRIR_cuda.cu 1002", table());
        assert_eq!(explain(&r, None)[0].signature, "cuda-unknown-error");
    }

    #[test]
    fn numbers_are_named_from_the_knowledge_base() {
        let r = scan::scan_bytes(b"Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)", table());
        let e = explain(&r, None);
        assert!(e[0].code.as_deref().unwrap().contains("4 = CUDNN_STATUS_INTERNAL_ERROR"), "{:?}", e[0].code);
        let r = scan::scan_bytes(
            b"NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
            table(),
        );
        let e = explain(&r, None);
        assert_eq!(e[0].signature, "xid-fallen-off-bus");
        assert!(e[0].code.as_deref().unwrap().starts_with("Xid 79 = "), "{:?}", e[0].code);
    }

    #[test]
    fn bfloat16_refused_on_a_pre_ampere_gpu_is_the_architecture() {
        let text = "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.";
        let e = explain(&scan::scan_bytes(text.as_bytes(), table()), None);
        assert_eq!(e[0].signature, "bf16-compute-capability");
        assert_eq!(e[0].causes[0].category, Category::ArchUnsupported);
    }

    #[test]
    fn a_message_in_the_code_an_ipython_traceback_shows_comes_after_the_exception_raised() {
        let shown = "File torch/cuda/__init__.py:293, in _lazy_init()\n    288     raise RuntimeError(\n    289         \"Cannot re-initialize CUDA in forked subprocess. To use CUDA with \"\n    290     )\n--> 293     raise AssertionError(\"Torch not compiled with CUDA enabled\")\n\nAssertionError: Torch not compiled with CUDA enabled\n";
        let e = explain(&scan::scan_bytes(shown.as_bytes(), table()), None);
        assert_eq!(e[0].signature, "torch-not-compiled-with-cuda");
        assert!(e.iter().any(|x| x.signature == "cuda-forked-subprocess"), "still listed");
        // Without a traceback's arrow a numbered line is an ordinary log line, first as it came.
        let plain = shown.replace("--> 293", "");
        let e = explain(&scan::scan_bytes(plain.as_bytes(), table()), None);
        assert_eq!(e[0].signature, "cuda-forked-subprocess");
    }

    #[test]
    fn onnx_runtime_s_own_requirement_is_held_against_the_cudnn_the_user_names() {
        let msg = "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 8.* and CUDA 12.*. Please install all dependencies";
        let e =
            explain(&scan::scan_bytes(format!("JetPack 6.1: cuDNN 9.3\n{msg}").as_bytes(), table()), None);
        assert_eq!(e[0].signature, "ort-cuda-provider");
        assert_eq!(e[0].causes[0].category, Category::CudnnVersionMismatch);
        let e =
            explain(&scan::scan_bytes(format!("cuDNN 8.9 is installed\n{msg}").as_bytes(), table()), None);
        assert_ne!(e[0].causes[0].category, Category::CudnnVersionMismatch);
    }

    #[test]
    fn peer_access_unsupported_is_read_however_the_framework_wraps_it() {
        for text in [
            "RuntimeError: CUDART error: peer access is not supported between these two devices",
            "[TensorRT-LLM][ERROR] CUDA runtime error in error: peer access is not supported between these two devices",
            "peer access is not supported between two devices",
        ] {
            let e = explain(&scan::scan_bytes(text.as_bytes(), table()), None);
            assert_eq!(e[0].signature, "cuda-peer-access-unsupported", "{text}");
            assert_eq!(e[0].causes[0].category, Category::Other, "{text}");
        }
    }

    #[test]
    fn the_cuda_10_number_of_unknown_error_is_the_unknown_error() {
        for text in [
            "RuntimeError: cuda runtime error (30) : unknown error at /pytorch/aten/src/THC/THCGeneral.cpp:51",
            "F0101 cudnn_conv_layer.cpp:53] Check failed: error == cudaSuccess (30 vs. 0)  unknown error",
        ] {
            let e = explain(&scan::scan_bytes(text.as_bytes(), table()), None);
            assert_eq!(e[0].signature, "cuda-unknown-error", "{text}");
        }
    }

    #[test]
    fn old_pytorch_thcudacheck_lines_are_read_by_their_number() {
        let text =
            "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=405 error=2 : out of memory";
        let e = explain(&scan::scan_bytes(text.as_bytes(), table()), None);
        assert_eq!(e[0].signature, "cuda-out-of-memory-runtime");
        assert_eq!(e[0].causes[0].category, Category::Oom);
    }

    #[test]
    fn kb_codes_lead_to_their_signatures() {
        let ids = |t, n| signatures_for_code(t, n).iter().map(|s| s.id.as_str()).collect::<Vec<_>>();
        assert_eq!(ids(CodeTable::Cudnn8, 4), ["cudnn-internal-error"]);
        assert_eq!(ids(CodeTable::Cudnn9, 4000), ["cudnn-internal-error"]);
        assert_eq!(ids(CodeTable::CudaRuntime, 209), ["cuda-no-kernel-image"]);
        assert_eq!(ids(CodeTable::Xid, 79), ["xid-fallen-off-bus"]);
        assert!(ids(CodeTable::Cudnn8, 12345).is_empty());
    }

    #[test]
    fn category_names_round_trip() {
        for c in Category::ALL {
            assert_eq!(Category::from_name(c.name()), Some(c));
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.name()));
        }
    }

    #[test]
    fn a_caffe_check_with_only_a_number_is_named_through_the_cudnn_codes() {
        let line = b"F0521 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)";
        let m = table().match_line(line).unwrap();
        assert_eq!(table().signatures[m.signature].id, "cudnn-bad-param");
        assert_eq!(m.code, Some(3));
        let m = table().match_line(b"Check failed: status == CUDNN_STATUS_SUCCESS (4000 vs. 0)").unwrap();
        assert_eq!(table().signatures[m.signature].id, "cudnn-internal-error");
    }

    #[test]
    fn peer_mapping_exhaustion_is_named_in_both_cuda_numberings() {
        let id = |line: &[u8]| {
            let m = table().match_line(line).unwrap();
            table().signatures[m.signature].id.clone()
        };
        // Before CUDA 10.1 the error was number 60; PyTorch 1.x printed it by number.
        assert_eq!(
            id(b"RuntimeError: cuda runtime error (60) : peer mapping resources exhausted at /opt/conda/THCGeneral.cpp:164"),
            "cuda-too-many-peers"
        );
        assert_eq!(id(b"RuntimeError: CUDA error: peer mapping resources exhausted"), "cuda-too-many-peers");
        // Another number in the old form stays with the generic by-number signature.
        assert_ne!(
            id(b"RuntimeError: cuda runtime error (59) : device-side assert triggered"),
            "cuda-too-many-peers"
        );
    }

    #[test]
    fn nccl_network_warnings_are_told_apart_by_the_call_that_failed() {
        let id = |line: &[u8]| {
            let m = table().match_line(line).unwrap();
            (table().signatures[m.signature].id.clone(), m.key)
        };
        // Without an errno (NCCL before 2.12) creating a queue pair fails on the locked-memory limit.
        assert_eq!(
            id(b"ta1-1:2712:2824 [0] misc/ibvwrap.cu:280 NCCL WARN Call to ibv_create_qp failed").0,
            "nccl-ib-memlock"
        );
        assert_eq!(
            id(b"misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with error Network is unreachable"),
            ("nccl-ib-connect".to_string(), "Network is unreachable".to_string())
        );
        assert_eq!(
            id(b"ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.2.3.4<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)"),
            ("nccl-ib-connect".to_string(), "12".to_string())
        );
        assert_eq!(
            id(b"include/socket.h:390 NCCL WARN Connect to 10.38.10.112<21724> failed : Connection refused"),
            ("nccl-socket-connect".to_string(), "Connection refused".to_string())
        );
        assert_eq!(
            id(b"misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort").0,
            "nccl-socket-connect"
        );
        // A failed call with its errno stays the memory-registration signature.
        assert_eq!(
            id(b"misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory").0,
            "nccl-ib-memlock"
        );
    }

    #[test]
    fn the_most_specific_signature_wins_on_a_line() {
        let m = table()
            .match_line(
                b"ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory",
            )
            .unwrap();
        assert_eq!(table().signatures[m.signature].id, "loader-libcudnn-missing");
        assert_eq!(m.key, "libcudnn.so.8");
        let m = table()
            .match_line(
                b"OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
            )
            .unwrap();
        assert_eq!(table().signatures[m.signature].id, "loader-cuda-lib-missing");
        assert_eq!(m.key, "libcudart.so.11.0");
    }

    #[test]
    fn extension_build_messages_say_what_torch_found() {
        let id = |line: &[u8]| table().match_line(line).map(|m| table().signatures[m.signature].id.clone());
        // Printed only when CUDA_HOME exists but torch.cuda.is_available() is False.
        assert_eq!(
            id(b"No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'").as_deref(),
            Some("torch-extension-no-cuda-runtime")
        );
        assert_eq!(
            id(b"OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.")
                .as_deref(),
            Some("cuda-home-not-set")
        );
        // PyTorch's own libraries missing: an extension built for another torch, not a CUDA library.
        assert_eq!(
            id(b"ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory")
                .as_deref(),
            Some("loader-torch-lib-missing")
        );
        // An extension built without its CUDA kernels.
        assert_eq!(
            id(b"RuntimeError: Not compiled with GPU support (ROIAlign_forward at detectron2/layers/csrc/ROIAlign/ROIAlign.h:73)")
                .as_deref(),
            Some("extension-not-compiled-with-gpu")
        );
        // DeepSpeed's op builder check.
        assert_eq!(
            id(b"DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.").as_deref(),
            Some("torch-cuda-mismatch-extension")
        );
        assert_eq!(id(b"Installed CUDA version: 12.4"), None);
        // NVIDIA Apex's own toolkit check.
        assert_eq!(
            id(b"RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.3.").as_deref(),
            Some("torch-cuda-mismatch-extension")
        );
    }

    #[test]
    fn launcher_and_device_count_messages_from_downstream_projects_are_named() {
        let id = |line: &[u8]| table().match_line(line).map(|m| table().signatures[m.signature].id.clone());
        // The web UI's start-up check, as raised and as echoed in the failing command.
        assert_eq!(
            id(b"RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check").as_deref(),
            Some("sd-webui-torch-cuda-test")
        );
        assert_eq!(
            id(b"Command: \"venv/bin/python3\" -c \"import torch; assert torch.cuda.is_available(), 'Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDINE_ARGS variable to disable this check'\"").as_deref(),
            Some("sd-webui-torch-cuda-test")
        );
        // Passing the flag is not the error.
        assert_eq!(id(b"Launching Web UI with arguments: --skip-torch-cuda-test --upcast-sampling"), None);
        // The device-count assert, also when wrapped in the lazy-init error.
        assert_eq!(
            id(b"torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch. device=1, num_gpus=").as_deref(),
            Some("torch-device-num-gpus-assert")
        );
        let sig = find_signature("torch-device-num-gpus-assert").unwrap();
        assert_eq!(sig.causes[0].category, Category::EnvVarMisconfig);
        // Windows' commit limit while torch loads its CUDA DLLs, in English and in Chinese.
        assert_eq!(
            id(br#"OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "C:\env\lib\site-packages\torch\lib\cudnn_adv_infer64_8.dll" or one of its dependencies."#).as_deref(),
            Some("windows-paging-file-too-small")
        );
        assert_eq!(
            id("OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading \"F:\\torch\\lib\\caffe2_detectron_ops_gpu.dll\" or one of its dependencies.".as_bytes()).as_deref(),
            Some("windows-paging-file-too-small")
        );
        // torch's search of the nvidia-* pip packages, naming the library.
        let m = table()
            .match_line(b"ValueError: libcublas.so.*[0-9] not found in the system path ['/code', '/usr/local/lib/python3.10']")
            .unwrap();
        assert_eq!(table().signatures[m.signature].id, "torch-pip-cuda-lib-not-found");
        assert_eq!(m.key, "libcublas");
        // xFormers' per-operator reason names the same mismatch as its load warning.
        assert_eq!(
            id(b"    xFormers wasn't build with CUDA support").as_deref(),
            Some("xformers-extension-mismatch")
        );
        // torch.compile without Triton, as raised by the inductor and as wrapped by dynamo.
        assert_eq!(
            id(b"torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old.").as_deref(),
            Some("torch-compile-triton-missing")
        );
        // A CUDA tensor type against a CPU one, whatever the dtype; two CUDA types are not a device mismatch.
        assert_eq!(
            id(b"RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor").as_deref(),
            Some("torch-tensor-device-mismatch")
        );
        assert_ne!(
            id(b"RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the same").as_deref(),
            Some("torch-tensor-device-mismatch")
        );
    }

    #[test]
    fn gpu_names_map_to_capabilities_at_word_starts() {
        let t = table();
        assert_eq!(t.gpu_capability("NVIDIA GeForce RTX 3090").unwrap().cc, ComputeCapability::new(8, 6));
        assert_eq!(t.gpu_capability("NVIDIA A100-SXM4-80GB").unwrap().cc, ComputeCapability::new(8, 0));
        assert_eq!(t.gpu_capability("NVIDIA GeForce RTX 5090 D").unwrap().cc, ComputeCapability::new(12, 0));
        assert_eq!(t.gpu_capability("NVIDIA GB200").unwrap().cc, ComputeCapability::new(10, 0));
        assert!(t.gpu_capability("SSL4 thing").is_none());
    }

    #[test]
    fn find_signature_accepts_ids_and_status_names() {
        assert_eq!(find_signature("CUDNN_STATUS_INTERNAL_ERROR").unwrap().id, "cudnn-internal-error");
        assert_eq!(find_signature("torch-cuda-oom").unwrap().id, "torch-cuda-oom");
        assert!(find_signature("nothing known here").is_none());
    }

    #[test]
    fn a_standalone_ptxas_and_the_drivers_jit_are_told_apart() {
        let id = |text: &str| match_text(text).first().map(|m| m.signature.id.clone());
        let ptxas = "output: ptxas /tmp/tempfile-x-36855, line 5; fatal   : Unsupported .version 8.4; current version is '8.3'";
        assert_eq!(id(ptxas).as_deref(), Some("ptxas-ptx-isa-too-new"));
        let jit = "ptxas application ptx input, line 9; fatal   : Unsupported .version 6.3; current version is '6.1'";
        assert_eq!(id(jit).as_deref(), Some("numba-ptx-link"));
        let cc = "W asm_compiler.cc:231] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 8.9";
        assert_eq!(id(cc).as_deref(), Some("xla-ptxas-too-old-for-gpu"));
    }

    #[test]
    fn a_runtime_api_cuda_13_removed_is_recognised_in_each_compiler_s_words() {
        let m = |text: &str| match_text(text).into_iter().next().map(|m| (m.signature.id.clone(), m.key));
        let want = |key: &str| Some(("cuda-api-removed".to_string(), key.to_string()));
        // nvcc, gcc and MSVC name the removed cudaDeviceProp field each their own way.
        let nvcc = "gpu_stream.cu(121): error: class \"cudaDeviceProp\" has no member \"memoryClockRate\"";
        assert_eq!(m(nvcc), want("memoryClockRate"));
        let gcc =
            "cuda_info.cpp:427:43: error: 'const struct cudaDeviceProp' has no member named 'clockRate'";
        assert_eq!(m(gcc), want("clockRate"));
        let msvc = "error C2039: 'clockRate': is not a member of 'cudaDeviceProp'";
        assert_eq!(m(msvc), want("clockRate"));
        // cudaMemAdvise and cudaMemPrefetchAsync take a location now.
        let advise = "error: could not convert 'device' from 'int' to 'cudaMemLocation'";
        assert_eq!(m(advise).map(|(id, _)| id).as_deref(), Some("cuda-api-removed"));
        let sig = find_signature("cuda-api-removed").unwrap();
        assert_eq!(sig.causes[0].category, Category::Other);
        assert!(sig.causes[0].fix.contains("cudaDeviceGetAttribute"));
    }

    #[test]
    fn the_hook_refusing_gpus_in_cdi_mode_is_the_container_runtime_and_flaky_is_not_nondeterminism() {
        let log = "docker: Error response from daemon: failed to create task: error running prestart hook #0: \
                   exit status 1, stdout: , stderr: Auto-detected mode as 'cdi'\n\
                   invoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not\n\
                   supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead.\n\
                   so vLLM launches fail non-deterministically across hosts\n";
        let found = match_text(log);
        assert_eq!(found.len(), 1, "{:?}", found.iter().map(|m| &m.signature.id).collect::<Vec<_>>());
        assert_eq!(found[0].signature.id, "container-hook-cdi-mode");
        assert_eq!(found[0].signature.causes[0].category, Category::ContainerRuntime);
        assert!(found[0].signature.causes[0].fix.contains("--runtime=nvidia"));
        // Results that differ between runs are still that complaint.
        let differ = "the loss is non-deterministic between two runs with the same seed";
        assert_eq!(match_text(differ)[0].signature.id, "gpu-results-differ-between-runs");
    }

    #[test]
    fn jax_version_skew_and_cusolver_statuses_are_recognised() {
        let id = |text: &str| match_text(text).first().map(|m| m.signature.id.clone());
        for skew in [
            "ValueError: jaxlib is version 0.1.69, but this version of jax requires version 0.1.74.",
            "RuntimeError: jaxlib version 0.4.31 is newer than and incompatible with jax version 0.4.20. Please update your jax and/or jaxlib packages.",
            "RuntimeWarning: JAX plugin jax_cuda12_plugin version 0.9.2 is installed, but it is not compatible with the installed jaxlib version 0.9.0.1",
            "Unable to initialize backend 'cuda': module 'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'",
        ] {
            assert_eq!(id(skew).as_deref(), Some("jax-version-skew"), "{skew}");
        }
        // print_environment_info's "jaxlib version" line is not an error.
        assert_eq!(id("jaxlib version: 0.4.23"), None);
        // A program written for another jax is the program's business, not the install's.
        assert_eq!(id("AttributeError: module 'jax.numpy' has no attribute 'DeviceArray'"), None);
        let solver = "jaxlib._jax.XlaRuntimeError: INTERNAL: jaxlib/gpu/solver_handle_pool.cc:37: operation gpusolverDnCreate(&handle) failed: cuSolver internal error";
        assert_eq!(id(solver).as_deref(), Some("jax-cusolver-status"));
    }
}
