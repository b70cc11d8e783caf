//! Error-code tables: the numbers and names that CUDA, cuDNN, cuBLAS, NCCL, NVML and the kernel
//! driver (Xid) report, each with its official description and source.
//!
//! The data is `data/codes/*.toml`, one file per table, embedded at build time and parsed once.
//! A bare number is ambiguous (`4` is a cuDNN 8 internal error, but also
//! `cudaErrorCudartUnloading`), so [`CodeTables::lookup`] answers every table where it exists,
//! most likely first. [`CodeTables::scan`] finds the codes an error text names or quotes.
//!
//! Each file says at its top where its numbers, descriptions and messages were read: the
//! enumerators and their doc comments from the headers of a released package (cuda.h,
//! driver_types.h, cudnn_graph.h, cublas_api.h, nvml.h, nccl.h), the messages from the library's
//! own error-string function, the Xid rows from NVIDIA's Xid catalog. To update a table, re-read
//! the newer header and keep its version in `[source]`; `tests/kb_sources.rs` compares the tables
//! with the excerpts kept in `tests/kb_sources/`, so refresh those excerpts with it.

use aho_corasick::{AhoCorasick, MatchKind};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

pub use super::tables::Source;

/// One table of codes. The order is the order a bare number is answered in: the most likely
/// meaning of a small number in a deep-learning error message comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeTable {
    /// `cudnnStatus_t` of cuDNN 7.x and 8.x (`cudnn.h` / `cudnn_ops_infer.h`): 0…14.
    Cudnn8,
    /// `cudnnStatus_t` of cuDNN 9.x (`cudnn_graph.h`): categories of 1000 with sub-codes.
    Cudnn9,
    /// The CUDA runtime's `cudaError_t` (`driver_types.h`).
    CudaRuntime,
    /// The CUDA driver API's `CUresult` (`cuda.h`).
    CudaDriver,
    /// cuBLAS `cublasStatus_t` (`cublas_api.h`).
    Cublas,
    /// NCCL `ncclResult_t` (`nccl.h`).
    Nccl,
    /// NVML `nvmlReturn_t` (`nvml.h`).
    Nvml,
    /// Xid error numbers that the NVIDIA kernel driver logs (`NVRM: Xid (PCI:…): 79, …`).
    Xid,
}

impl CodeTable {
    /// Every table, in lookup order.
    pub const ALL: [CodeTable; 8] = [
        CodeTable::Cudnn8,
        CodeTable::Cudnn9,
        CodeTable::CudaRuntime,
        CodeTable::CudaDriver,
        CodeTable::Cublas,
        CodeTable::Nccl,
        CodeTable::Nvml,
        CodeTable::Xid,
    ];

    /// The short id used in the data files (`cudnn9`, `cuda_runtime`).
    pub fn id(&self) -> &'static str {
        match self {
            CodeTable::Cudnn8 => "cudnn8",
            CodeTable::Cudnn9 => "cudnn9",
            CodeTable::CudaRuntime => "cuda_runtime",
            CodeTable::CudaDriver => "cuda_driver",
            CodeTable::Cublas => "cublas",
            CodeTable::Nccl => "nccl",
            CodeTable::Nvml => "nvml",
            CodeTable::Xid => "xid",
        }
    }

    /// A title for people: which library and which numbering.
    pub fn title(&self) -> &'static str {
        match self {
            CodeTable::Cudnn8 => "cuDNN 7/8 cudnnStatus_t",
            CodeTable::Cudnn9 => "cuDNN 9 cudnnStatus_t",
            CodeTable::CudaRuntime => "CUDA runtime cudaError_t",
            CodeTable::CudaDriver => "CUDA driver CUresult",
            CodeTable::Cublas => "cuBLAS cublasStatus_t",
            CodeTable::Nccl => "NCCL ncclResult_t",
            CodeTable::Nvml => "NVML nvmlReturn_t",
            CodeTable::Xid => "NVIDIA driver Xid error",
        }
    }
}

impl fmt::Display for CodeTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// One code of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeEntry {
    /// The enumerator name (`CUDNN_STATUS_INTERNAL_ERROR`), or for Xid a short title.
    pub name: String,
    /// The numeric value.
    pub number: i64,
    /// The official description, copied from the source.
    pub description: String,
    /// The text the library's own error-string function returns for the code, which is what
    /// frameworks print (`cudaGetErrorString`: "no kernel image is available for execution on the
    /// device"), where the source gives it.
    pub message: Option<String>,
    /// What the source says to do first, where it says (the Xid catalog's "Resolution Bucket
    /// (Immediate Action)": `RESTART_APP`, `RESET_GPU`, `RESTART_BM` = reboot the machine, `IGNORE`,
    /// `WORKFLOW_XID_48` = follow the catalog's workflow for that Xid, …).
    pub action: Option<String>,
    /// Other names with the same value (deprecated enumerators that alias this one).
    pub aliases: Vec<String>,
    /// True when the source marks this code deprecated.
    pub deprecated: bool,
    /// Where the row comes from.
    pub source: Source,
}

/// How a query or a text matched a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedBy {
    /// Its number.
    Number,
    /// Its enumerator name.
    Name,
    /// A deprecated name that aliases it.
    Alias,
    /// Its error-string message.
    Message,
}

/// One answer of [`CodeTables::lookup`] or [`CodeTables::scan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CodeMatch<'a> {
    /// The table the code belongs to.
    pub table: CodeTable,
    /// The code.
    pub entry: &'a CodeEntry,
    /// What matched.
    pub matched_by: MatchedBy,
}

/// Why a code table did not load.
#[derive(Debug, thiserror::Error)]
pub enum CodeDataError {
    /// The TOML did not parse or had the wrong shape.
    #[error("invalid code table TOML")]
    Toml(#[from] toml::de::Error),
    /// The file declares a different table than expected.
    #[error("expected table `{expected}`, found `{found}`")]
    WrongTable {
        /// The table the file was loaded as.
        expected: &'static str,
        /// The table the file declares.
        found: String,
    },
    /// Two rows of one table have the same number.
    #[error("{table}: number {number} is listed twice")]
    DuplicateNumber {
        /// The table.
        table: &'static str,
        /// The number.
        number: i64,
    },
    /// The messages could not be indexed for [`CodeTables::scan`].
    #[error("cannot index the code messages")]
    Index(#[from] aho_corasick::BuildError),
    /// Two rows of one table have the same name (or alias).
    #[error("{table}: name `{name}` is listed twice")]
    DuplicateName {
        /// The table.
        table: &'static str,
        /// The name.
        name: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    table: String,
    source: Source,
    code: Vec<RawCode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCode {
    name: String,
    number: i64,
    description: String,
    message: Option<String>,
    action: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    deprecated: bool,
    source: Option<Source>,
}

/// Parses one table file and checks that numbers and names are unique within it.
pub fn parse_table(table: CodeTable, text: &str) -> Result<Vec<CodeEntry>, CodeDataError> {
    let raw: RawTable = toml::from_str(text)?;
    if raw.table != table.id() {
        return Err(CodeDataError::WrongTable { expected: table.id(), found: raw.table });
    }
    let mut numbers = HashSet::new();
    let mut names = HashSet::new();
    let mut entries = Vec::with_capacity(raw.code.len());
    for code in raw.code {
        if !numbers.insert(code.number) {
            return Err(CodeDataError::DuplicateNumber { table: table.id(), number: code.number });
        }
        for name in std::iter::once(&code.name).chain(&code.aliases) {
            if !names.insert(name.to_ascii_lowercase()) {
                return Err(CodeDataError::DuplicateName { table: table.id(), name: name.clone() });
            }
        }
        entries.push(CodeEntry {
            name: code.name,
            number: code.number,
            description: code.description,
            message: code.message,
            action: code.action,
            aliases: code.aliases,
            deprecated: code.deprecated,
            source: code.source.unwrap_or_else(|| raw.source.clone()),
        });
    }
    Ok(entries)
}

/// The embedded table files, in [`CodeTable::ALL`] order.
const TABLE_FILES: [(CodeTable, &str); 8] = [
    (CodeTable::Cudnn8, include_str!("../../data/codes/cudnn8.toml")),
    (CodeTable::Cudnn9, include_str!("../../data/codes/cudnn9.toml")),
    (CodeTable::CudaRuntime, include_str!("../../data/codes/cuda_runtime.toml")),
    (CodeTable::CudaDriver, include_str!("../../data/codes/cuda_driver.toml")),
    (CodeTable::Cublas, include_str!("../../data/codes/cublas.toml")),
    (CodeTable::Nccl, include_str!("../../data/codes/nccl.toml")),
    (CodeTable::Nvml, include_str!("../../data/codes/nvml.toml")),
    (CodeTable::Xid, include_str!("../../data/codes/xid.toml")),
];

/// Every code table.
#[derive(Debug, Clone)]
pub struct CodeTables {
    tables: Vec<(CodeTable, Vec<CodeEntry>)>,
    /// Lower-cased names and aliases → (table index, entry index, alias?).
    names: HashMap<String, Vec<(usize, usize, bool)>>,
    /// Messages long enough to be told apart from ordinary prose, and where they are.
    messages: AhoCorasick,
    message_entries: Vec<(usize, usize)>,
}

/// Messages shorter than this (`timeout`, `no error`) say too little to be searched for in text.
const MIN_MESSAGE_LEN: usize = 12;

impl CodeTables {
    /// Parses the embedded tables.
    pub fn parse_embedded() -> Result<CodeTables, CodeDataError> {
        let mut tables = Vec::with_capacity(TABLE_FILES.len());
        for (table, text) in TABLE_FILES {
            tables.push((table, parse_table(table, text)?));
        }
        CodeTables::new(tables)
    }

    /// Indexes parsed tables (in lookup order) by name and message.
    pub fn new(tables: Vec<(CodeTable, Vec<CodeEntry>)>) -> Result<CodeTables, CodeDataError> {
        let mut names: HashMap<String, Vec<(usize, usize, bool)>> = HashMap::new();
        let mut patterns = Vec::new();
        let mut message_entries = Vec::new();
        for (t, (_, entries)) in tables.iter().enumerate() {
            for (e, entry) in entries.iter().enumerate() {
                names.entry(entry.name.to_ascii_lowercase()).or_default().push((t, e, false));
                for alias in &entry.aliases {
                    names.entry(alias.to_ascii_lowercase()).or_default().push((t, e, true));
                }
                if let Some(message) = &entry.message {
                    // The runtime and the driver share most messages ("out of memory"): the first
                    // table in lookup order (the runtime, which frameworks report) keeps it.
                    let seen = patterns.iter().any(|p: &String| p.eq_ignore_ascii_case(message));
                    if message.len() >= MIN_MESSAGE_LEN && entry.number != 0 && !seen {
                        patterns.push(message.clone());
                        message_entries.push((t, e));
                    }
                }
            }
        }
        let messages = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(&patterns)?;
        Ok(CodeTables { tables, names, messages, message_entries })
    }

    /// The codes of one table, in source order.
    pub fn entries(&self, table: CodeTable) -> &[CodeEntry] {
        self.tables.iter().find(|(t, _)| *t == table).map_or(&[], |(_, e)| e.as_slice())
    }

    /// The code `number` of `table`.
    pub fn get(&self, table: CodeTable, number: i64) -> Option<&CodeEntry> {
        self.entries(table).iter().find(|e| e.number == number)
    }

    /// The cuDNN 9 category of a cuDNN 9 status: the code whose number is `number` rounded down
    /// to a multiple of 1000 (cudnn_graph.h's `CUDNN_STATUS_CATEGORY`). 4001
    /// (`…_INTERNAL_ERROR_COMPILATION_FAILED`) belongs to `CUDNN_STATUS_INTERNAL_ERROR`, and a
    /// sub-code newer than this table (3099) to `CUDNN_STATUS_NOT_SUPPORTED`. `None` below 2000
    /// (the 1xxx statuses have no category code) and for unknown categories.
    pub fn cudnn9_category(&self, number: i64) -> Option<&CodeEntry> {
        if number < 1000 {
            return None;
        }
        self.get(CodeTable::Cudnn9, number / 1000 * 1000)
    }

    /// Codes matching `query`, most likely first.
    ///
    /// - A number (`4`, `4000`, `700`) matches in every table where it exists, in
    ///   [`CodeTable`] order (cuDNN 7/8 first, Xid last).
    /// - A number after a library's name matches in that library's tables only: `Xid 79` (also
    ///   `xid79`, `XID: 79`), `cudnn 4` (cuDNN 7/8 and 9), `cudnn9 4000`, `cuda 700` (runtime
    ///   and driver), `cudart 700`, `CUresult 2`, `cublas 13`, `nccl 2`, `nvml 9`.
    /// - A name (`CUDNN_STATUS_INTERNAL_ERROR`, `cudaErrorNoKernelImageForDevice`) matches the
    ///   enumerator or one of its deprecated aliases, without regard to case, in every table
    ///   that has it (cuDNN 8 and 9 share most names).
    pub fn lookup(&self, query: &str) -> Vec<CodeMatch<'_>> {
        let query = query.trim();
        if let Some((tables, number)) = parse_qualified_digit(query).or_else(|| parse_qualified(query)) {
            return self.matches_number(number, |t| tables.contains(&t));
        }
        if let Some(number) = parse_number(query) {
            return self.matches_number(number, |_| true);
        }
        let key = query.to_ascii_lowercase();
        let mut found: Vec<CodeMatch<'_>> = self.names.get(&key).map_or_else(Vec::new, |hits| {
            hits.iter().map(|&(t, e, alias)| self.code_match(t, e, alias)).collect()
        });
        found.sort_by_key(|m| (m.table, m.matched_by));
        found
    }

    /// Every code that `text` (an error message or a log) names or quotes, in the order they first
    /// appear: enumerator names and aliases as whole words (`CUDNN_STATUS_EXECUTION_FAILED`,
    /// `cudaErrorIllegalAddress`), and error-string messages ("an illegal memory access was
    /// encountered"), without regard to case. Numbers are not scanned: a bare number in a log
    /// means nothing without its library (ask [`CodeTables::lookup`] for that). A name that
    /// exists in several tables (cuDNN 8 and 9) yields one match per table; a message that the
    /// runtime and the driver share is reported as the runtime's; a message of a code the text
    /// also names is not reported again.
    pub fn scan(&self, text: &str) -> Vec<CodeMatch<'_>> {
        let mut hits: Vec<(usize, CodeMatch<'_>)> = Vec::new();
        let mut word_start = None;
        for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            let is_word = c.is_ascii_alphanumeric() || c == '_';
            match (is_word, word_start) {
                (true, None) => word_start = Some(i),
                (false, Some(start)) => {
                    word_start = None;
                    let word = &text[start..i];
                    if word.len() < 4 || word.len() > 80 || !could_be_a_name(word) {
                        continue;
                    }
                    if let Some(found) = self.names.get(&word.to_ascii_lowercase()) {
                        for &(t, e, alias) in found {
                            hits.push((start, self.code_match(t, e, alias)));
                        }
                    }
                }
                _ => {}
            }
        }
        // A message that is the message of a code the text also names
        // (`CUDA_ERROR_OUT_OF_MEMORY: out of memory`) adds nothing.
        let named_messages: HashSet<String> = hits
            .iter()
            .filter_map(|(_, m)| m.entry.message.as_ref())
            .map(|m| m.to_ascii_lowercase())
            .collect();
        for m in self.messages.find_iter(text) {
            let (t, e) = self.message_entries[m.pattern().as_usize()];
            let mut found = self.code_match(t, e, false);
            if named_messages.contains(&text[m.span()].to_ascii_lowercase()) {
                continue;
            }
            found.matched_by = MatchedBy::Message;
            hits.push((m.start(), found));
        }
        hits.sort_by_key(|(at, m)| (*at, m.table));
        let mut seen = HashSet::new();
        hits.into_iter().filter(|(_, m)| seen.insert((m.table, m.entry.number))).map(|(_, m)| m).collect()
    }

    fn code_match(&self, table: usize, entry: usize, alias: bool) -> CodeMatch<'_> {
        let (kind, entries) = &self.tables[table];
        let matched_by = if alias { MatchedBy::Alias } else { MatchedBy::Name };
        CodeMatch { table: *kind, entry: &entries[entry], matched_by }
    }

    fn matches_number(&self, number: i64, keep: impl Fn(CodeTable) -> bool) -> Vec<CodeMatch<'_>> {
        self.tables
            .iter()
            .filter(|(table, _)| keep(*table))
            .filter_map(|(table, entries)| {
                entries.iter().find(|e| e.number == number).map(|entry| CodeMatch {
                    table: *table,
                    entry,
                    matched_by: MatchedBy::Number,
                })
            })
            .collect()
    }
}

/// Every enumerator name has an underscore or starts with `cuda`/`nccl` (a test checks it): the
/// cheap test that spares [`CodeTables::scan`] a lookup for most words of a log.
fn could_be_a_name(word: &str) -> bool {
    let starts = |prefix: &str| word.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix));
    word.contains('_') || starts("cuda") || starts("nccl")
}

/// A plain decimal number, optionally negative (at most 12 digits).
fn parse_number(query: &str) -> Option<i64> {
    let digits = query.strip_prefix('-').unwrap_or(query);
    if digits.is_empty() || digits.len() > 12 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    query.parse().ok()
}

/// A number qualified by its library: `Xid 79` (also `xid79`, `XID: 79`, `Xid #79`), `cudnn 4`,
/// `cuda 700`, `CUresult 2`, `cublas 13`, `nccl 2`, `nvml 9`. Returns the tables the qualifier
/// names and the number. (Qualifiers that end in a digit are [`parse_qualified_digit`]'s.)
fn parse_qualified(query: &str) -> Option<(&'static [CodeTable], i64)> {
    const QUALIFIERS: &[(&str, &[CodeTable])] = &[
        ("xid", &[CodeTable::Xid]),
        ("cudnn", &[CodeTable::Cudnn8, CodeTable::Cudnn9]),
        ("curesult", &[CodeTable::CudaDriver]),
        ("cudart", &[CodeTable::CudaRuntime]),
        ("cuda", &[CodeTable::CudaRuntime, CodeTable::CudaDriver]),
        ("cublas", &[CodeTable::Cublas]),
        ("nccl", &[CodeTable::Nccl]),
        ("nvml", &[CodeTable::Nvml]),
    ];
    let split = query.find(|c: char| c.is_ascii_digit() || c == '-')?;
    let (word, rest) = query.split_at(split);
    let word = word.trim_end_matches([' ', ':', '#', '\t']);
    let tables = QUALIFIERS.iter().find(|(q, _)| q.eq_ignore_ascii_case(word)).map(|(_, t)| *t)?;
    Some((tables, parse_number(rest)?))
}

/// Like [`parse_qualified`], for qualifiers that end in a digit (`cudnn9 4000`, `cudnn8: 4`).
fn parse_qualified_digit(query: &str) -> Option<(&'static [CodeTable], i64)> {
    let (word, rest) = query.split_once([' ', ':', '#', '\t'])?;
    let rest = rest.trim_start_matches([' ', ':', '#', '\t']);
    let tables: &'static [CodeTable] = match word.to_ascii_lowercase().as_str() {
        "cudnn9" => &[CodeTable::Cudnn9],
        "cudnn8" | "cudnn7" => &[CodeTable::Cudnn8],
        _ => return None,
    };
    Some((tables, parse_number(rest)?))
}

/// The code tables, parsed from the embedded `data/codes/*.toml` on first use.
pub fn tables() -> &'static CodeTables {
    static TABLES: OnceLock<CodeTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        // The embedded files are checked by the tests below; a failure here is a build defect.
        CodeTables::parse_embedded().unwrap_or_else(|e| panic!("embedded data/codes: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(query: &str) -> (CodeTable, &'static str, i64) {
        let found = tables().lookup(query);
        let m = found.first().unwrap_or_else(|| panic!("{query} found"));
        (m.table, m.entry.name.as_str(), m.entry.number)
    }

    #[test]
    fn embedded_tables_parse_with_unique_numbers_and_names() {
        let tables = CodeTables::parse_embedded().expect("data/codes is valid");
        for table in CodeTable::ALL {
            assert!(!tables.entries(table).is_empty(), "{table:?} is empty");
        }
    }

    #[test]
    fn bare_4_is_a_cudnn_8_internal_error_first_and_cuda_codes_after() {
        let found = tables().lookup("4");
        assert_eq!(first("4"), (CodeTable::Cudnn8, "CUDNN_STATUS_INTERNAL_ERROR", 4));
        let names: Vec<&str> = found.iter().map(|m| m.entry.name.as_str()).collect();
        assert!(names.contains(&"cudaErrorCudartUnloading"), "{names:?}");
        assert!(names.contains(&"CUDA_ERROR_DEINITIALIZED"), "{names:?}");
        let order: Vec<CodeTable> = found.iter().map(|m| m.table).collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(order, sorted, "answers follow the table order");
    }

    #[test]
    fn cudnn_9_sub_codes_belong_to_their_category() {
        let category = |n: i64| tables().cudnn9_category(n).map(|e| e.name.as_str());
        assert_eq!(category(4001), Some("CUDNN_STATUS_INTERNAL_ERROR"));
        assert_eq!(category(3099), Some("CUDNN_STATUS_NOT_SUPPORTED"), "a sub-code newer than the table");
        assert_eq!(category(5003), Some("CUDNN_STATUS_EXECUTION_FAILED"));
        assert_eq!(category(4), None);
        assert_eq!(category(9000), None);
    }

    #[test]
    fn cudnn_9_numbers_are_their_own_table() {
        assert_eq!(first("4000"), (CodeTable::Cudnn9, "CUDNN_STATUS_INTERNAL_ERROR", 4000));
        assert_eq!(
            first("4001"),
            (CodeTable::Cudnn9, "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED", 4001)
        );
        assert_eq!(first("3000").1, "CUDNN_STATUS_NOT_SUPPORTED");
        // A deprecated cuDNN 9 name is an alias of the code it now equals.
        let alloc = tables().lookup("CUDNN_STATUS_ALLOC_FAILED");
        assert!(alloc.iter().any(|m| m.table == CodeTable::Cudnn9 && m.entry.number == 4003), "{alloc:?}");
        assert!(alloc.iter().any(|m| m.table == CodeTable::Cudnn8 && m.entry.number == 2), "{alloc:?}");
    }

    #[test]
    fn names_find_their_number_in_every_library() {
        assert_eq!(
            first("cudaErrorNoKernelImageForDevice"),
            (CodeTable::CudaRuntime, "cudaErrorNoKernelImageForDevice", 209)
        );
        assert_eq!(first("cudaerrornokernelimagefordevice").2, 209);
        assert_eq!(first("CUDA_ERROR_OUT_OF_MEMORY"), (CodeTable::CudaDriver, "CUDA_ERROR_OUT_OF_MEMORY", 2));
        assert_eq!(
            first("CUBLAS_STATUS_NOT_INITIALIZED"),
            (CodeTable::Cublas, "CUBLAS_STATUS_NOT_INITIALIZED", 1)
        );
        assert_eq!(first("ncclUnhandledCudaError"), (CodeTable::Nccl, "ncclUnhandledCudaError", 1));
        assert_eq!(
            first("NVML_ERROR_DRIVER_NOT_LOADED"),
            (CodeTable::Nvml, "NVML_ERROR_DRIVER_NOT_LOADED", 9)
        );
        let internal = tables().lookup("CUDNN_STATUS_INTERNAL_ERROR");
        let numbers: Vec<(CodeTable, i64)> = internal.iter().map(|m| (m.table, m.entry.number)).collect();
        assert_eq!(numbers, vec![(CodeTable::Cudnn8, 4), (CodeTable::Cudnn9, 4000)]);
    }

    #[test]
    fn xid_queries_only_answer_xids() {
        let found = tables().lookup("Xid 79");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].table, CodeTable::Xid);
        assert_eq!(found[0].entry.number, 79);
        assert!(found[0].entry.description.to_lowercase().contains("fallen off the bus"));
        assert_eq!(found[0].entry.action.as_deref(), Some("RESTART_BM"), "Xid 79 needs a reboot");
        assert_eq!(tables().get(CodeTable::Xid, 13).and_then(|e| e.action.as_deref()), Some("RESTART_APP"));
        for q in ["xid79", "XID: 79", "Xid #79"] {
            assert_eq!(tables().lookup(q).first().map(|m| m.entry.number), Some(79), "{q}");
        }
        assert!(tables().lookup("700").iter().any(|m| m.entry.name == "cudaErrorIllegalAddress"));
    }

    fn scanned(text: &str) -> Vec<(CodeTable, i64, MatchedBy)> {
        tables().scan(text).iter().map(|m| (m.table, m.entry.number, m.matched_by)).collect()
    }

    #[test]
    fn scan_finds_the_messages_frameworks_print() {
        let torch = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n\
                     CUDA kernel errors might be asynchronously reported at some other API call";
        assert_eq!(scanned(torch), vec![(CodeTable::CudaRuntime, 209, MatchedBy::Message)]);
        let illegal = "torch.AcceleratorError: CUDA error: an illegal memory access was encountered";
        assert_eq!(scanned(illegal), vec![(CodeTable::CudaRuntime, 700, MatchedBy::Message)]);
        let cublas =
            "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`";
        assert_eq!(scanned(cublas), vec![(CodeTable::Cublas, 1, MatchedBy::Name)]);
    }

    #[test]
    fn scan_reports_a_shared_name_once_per_table_and_a_code_once() {
        let cudnn = "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED";
        assert_eq!(
            scanned(cudnn),
            vec![(CodeTable::Cudnn8, 8, MatchedBy::Name), (CodeTable::Cudnn9, 5000, MatchedBy::Name)]
        );
        let nccl = "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, \
                    unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n\
                    ncclUnhandledCudaError: Call to CUDA function failed.";
        assert_eq!(scanned(nccl), vec![(CodeTable::Nccl, 1, MatchedBy::Name)], "the name says more");
    }

    #[test]
    fn scan_ignores_parts_of_words_and_short_generic_messages() {
        assert!(scanned("xcudaErrorIllegalAddressx").is_empty());
        assert!(scanned("request timeout after 30 s, no error reported").is_empty());
        assert!(scanned("").is_empty());
        assert_eq!(scanned("CUDA_ERROR_OUT_OF_MEMORY"), vec![(CodeTable::CudaDriver, 2, MatchedBy::Name)]);
    }

    #[test]
    fn nvidia_smi_failures_are_nvml_codes() {
        let smi = "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 580.95";
        assert_eq!(scanned(smi), vec![(CodeTable::Nvml, 18, MatchedBy::Message)]);
        let lost =
            "Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  Reboot the system";
        assert!(scanned(lost).is_empty(), "`GPU is lost` is too short a message to search for");
    }

    #[test]
    fn a_message_shared_by_runtime_and_driver_is_the_runtime_one_unless_the_driver_code_is_named() {
        assert_eq!(
            scanned("RuntimeError: CUDA error: out of memory"),
            vec![(CodeTable::CudaRuntime, 2, MatchedBy::Message)]
        );
        let jax = "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA_ERROR_OUT_OF_MEMORY: out of memory";
        assert_eq!(scanned(jax), vec![(CodeTable::CudaDriver, 2, MatchedBy::Name)]);
        let driver = tables().get(CodeTable::CudaDriver, 209).unwrap();
        assert_eq!(
            driver.message.as_deref(),
            Some("no kernel image is available for execution on the device")
        );
    }

    #[test]
    fn a_library_name_before_a_number_narrows_the_answer() {
        let numbers = |q: &str| -> Vec<(CodeTable, &'static str)> {
            tables().lookup(q).iter().map(|m| (m.table, m.entry.name.as_str())).collect()
        };
        assert_eq!(
            numbers("cudnn 4"),
            vec![(CodeTable::Cudnn8, "CUDNN_STATUS_INTERNAL_ERROR")],
            "cuDNN 9 has no code 4"
        );
        assert_eq!(numbers("cuDNN9 4000"), vec![(CodeTable::Cudnn9, "CUDNN_STATUS_INTERNAL_ERROR")]);
        assert_eq!(numbers("cudnn8: 8"), vec![(CodeTable::Cudnn8, "CUDNN_STATUS_EXECUTION_FAILED")]);
        assert_eq!(
            numbers("CUDA 700"),
            vec![
                (CodeTable::CudaRuntime, "cudaErrorIllegalAddress"),
                (CodeTable::CudaDriver, "CUDA_ERROR_ILLEGAL_ADDRESS")
            ]
        );
        assert_eq!(numbers("CUresult 2"), vec![(CodeTable::CudaDriver, "CUDA_ERROR_OUT_OF_MEMORY")]);
        assert_eq!(numbers("nccl 2"), vec![(CodeTable::Nccl, "ncclSystemError")]);
        assert_eq!(numbers("nvml: 9"), vec![(CodeTable::Nvml, "NVML_ERROR_DRIVER_NOT_LOADED")]);
        assert_eq!(numbers("cublas 13"), vec![(CodeTable::Cublas, "CUBLAS_STATUS_EXECUTION_FAILED")]);
        assert!(numbers("foo 4").is_empty());
    }

    #[test]
    fn every_name_passes_the_scan_prefilter() {
        for table in CodeTable::ALL {
            for entry in tables().entries(table) {
                for name in std::iter::once(&entry.name).chain(&entry.aliases) {
                    assert!(could_be_a_name(name), "{table:?} {name} would never be scanned");
                }
            }
        }
    }

    #[test]
    fn junk_queries_find_nothing() {
        for q in ["", "   ", "no such code", "99999999999999999999", "Xid", "xid abc", "-"] {
            assert!(tables().lookup(q).is_empty(), "{q:?}");
        }
    }

    #[test]
    fn duplicate_numbers_and_wrong_tables_are_rejected() {
        let text = r#"
            table = "nccl"
            [source]
            url = "https://example.invalid"
            document = "1"
            [[code]]
            name = "A"
            number = 1
            description = "a"
            [[code]]
            name = "B"
            number = 1
            description = "b"
        "#;
        assert!(matches!(
            parse_table(CodeTable::Nccl, text),
            Err(CodeDataError::DuplicateNumber { number: 1, .. })
        ));
        assert!(matches!(parse_table(CodeTable::Nvml, text), Err(CodeDataError::WrongTable { .. })));
        let dup_name = text.replace("name = \"B\"", "name = \"a\"").replace(
            "number = 1\n            description = \"b\"",
            "number = 2\n            description = \"b\"",
        );
        assert!(matches!(parse_table(CodeTable::Nccl, &dup_name), Err(CodeDataError::DuplicateName { .. })));
    }
}
