//! The typed compatibility tables of the knowledge base and their loading.
//!
//! Each table is one TOML file under `data/`, embedded with `include_str!` and parsed once into
//! the types below (versions parsed into [`crate::version`] types at the boundary). A table
//! names its sources once in `[sources.<id>]` and every row cites one by id; [`Kb::load`] checks
//! that every id resolves, so a row without a source cannot be shipped.

use crate::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

const KB_TOML: &str = include_str!("../../data/kb.toml");
const CUDA_TOML: &str = include_str!("../../data/cuda.toml");
const DRIVERS_TOML: &str = include_str!("../../data/drivers.toml");
const CUDNN_TOML: &str = include_str!("../../data/cudnn.toml");
const PYTORCH_TOML: &str = include_str!("../../data/pytorch.toml");
const FRAMEWORKS_TOML: &str = include_str!("../../data/frameworks.toml");

/// Why the embedded knowledge base could not be loaded (a bug in `data/`, caught by the tests).
#[derive(Debug, thiserror::Error)]
pub enum KbError {
    /// A data file is not valid TOML or does not match its schema.
    #[error("data/{file}: {source}")]
    Parse {
        /// The file under `data/`.
        file: &'static str,
        /// The parser's error.
        #[source]
        source: toml::de::Error,
    },
    /// A data file parsed but breaks a rule of the knowledge base (unknown source id, …).
    #[error("data/{file}: {message}")]
    Invalid {
        /// The file under `data/`.
        file: &'static str,
        /// What is wrong, naming the row.
        message: String,
    },
}

/// Where a row was read: a public page and the part of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The public URL.
    pub url: String,
    /// The document and the table or section of it (with its version or date).
    pub document: String,
}

/// How sure the knowledge base is of a row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Read from its source.
    #[default]
    Confirmed,
    /// Not confirmed against its source; the row's note says why.
    Unverified,
}

impl Confidence {
    /// True for [`Confidence::Unverified`].
    pub fn is_unverified(&self) -> bool {
        *self == Confidence::Unverified
    }
}

/// Another source's value for a field of a row, kept beside the one cudoctor uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disagreement {
    /// The field of the row the other source disagrees on.
    pub field: String,
    /// The other source's value.
    pub value: String,
    /// The other source (an id of the table's `sources`).
    pub source: String,
    /// What differs and which value cudoctor uses.
    pub note: String,
}

/// `data/kb.toml`: when the data was last checked.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KbMeta {
    /// Year and month the tables were last checked against their sources (`2026-11`).
    pub checked: String,
}

/// `data/cuda.toml`: CUDA toolkit releases and the drivers they need.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudaTable {
    /// The sources rows cite, by id.
    pub sources: BTreeMap<String, Source>,
    /// One row per GA release and update, oldest first.
    pub release: Vec<CudaRelease>,
    /// Minimum driver of each major family under minor version compatibility.
    pub minor_compat: Vec<MinorCompat>,
    /// The forward-compatibility (cuda-compat) rules.
    pub forward_compat: ForwardCompat,
}

/// A CUDA toolkit release (GA or update) and the driver it ships with (Table 3).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudaRelease {
    /// Major and minor.
    pub version: CudaVersion,
    /// 0 for the GA release, n for Update n.
    pub update: u32,
    /// The release as the table names it (`CUDA 12.4 Update 1`).
    pub label: String,
    /// Minimum Linux x86_64 driver; absent when not recorded.
    pub linux: Option<DriverVersion>,
    /// Minimum Windows x86_64 driver; absent when not recorded or not applicable.
    pub windows: Option<DriverVersion>,
    /// What Table 3 says instead of a Windows driver (`N/A`), where it says that.
    pub windows_note: Option<String>,
    /// Source id.
    pub source: String,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader of the row must know.
    pub note: Option<String>,
    /// Other sources' values.
    #[serde(default)]
    pub disagreement: Vec<Disagreement>,
}

/// The minimum driver for CUDA minor version compatibility within one major family (Table 2).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinorCompat {
    /// The CUDA major family (11, 12, 13).
    pub major: u32,
    /// Minimum Linux driver.
    pub linux: DriverVersion,
    /// Minimum Windows driver.
    pub windows: Option<DriverVersion>,
    /// Source id of the Windows value, where it is not the row's source.
    pub windows_source: Option<String>,
    /// The branch from which newer drivers run this family by plain backward compatibility.
    pub below_branch: Option<u64>,
    /// Source id.
    pub source: String,
    /// Anything a reader of the row must know.
    pub note: Option<String>,
    /// Other sources' values.
    #[serde(default)]
    pub disagreement: Vec<Disagreement>,
}

/// The CUDA forward-compatibility package and its rules.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForwardCompat {
    /// Source id.
    pub source: String,
    /// The first CUDA release with forward compatibility.
    pub introduced_in: CudaVersion,
    /// The package and what it installs.
    pub package: String,
    /// The systems it applies to.
    pub applies_to: Vec<String>,
    /// The rules of its use.
    pub rules: Vec<String>,
    /// The driver errors that tell a forward-compatibility setup failed, as the guide states them.
    #[serde(default)]
    pub errors: Vec<CompatError>,
    /// The driver branches the guide's package table has a column for (the supported targets).
    #[serde(default)]
    pub target: Vec<CompatTarget>,
    /// One row per `cuda-compat-<major>-<minor>` package of the guide's table.
    #[serde(default)]
    pub matrix: Vec<CompatPackage>,
}

/// A driver error that reports a forward-compatibility problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatError {
    /// The `CUresult` name (`CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE`).
    pub name: String,
    /// Its number.
    pub code: i64,
    /// What the guide says it means.
    pub meaning: String,
}

/// A column of the forward-compatibility table: a driver branch and the CUDA it was paired with.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatTarget {
    /// The driver branch (`535` for "535+").
    pub branch: u64,
    /// The CUDA release the table pairs with the branch.
    pub cuda: CudaVersion,
}

/// A row of the forward-compatibility table: one compat package and the branches it runs on.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatPackage {
    /// The CUDA release the package carries (`cuda-compat-12-8` is 12.8).
    pub cuda: CudaVersion,
    /// The target branches the table marks compatible (C).
    pub runs_on: Vec<u64>,
}

impl CompatPackage {
    /// The package name (`cuda-compat-12-8`).
    pub fn name(&self) -> String {
        format!("cuda-compat-{}-{}", self.cuda.major, self.cuda.minor)
    }
}

/// `data/drivers.toml`: driver branches.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverTable {
    /// The sources rows cite, by id.
    pub sources: BTreeMap<String, Source>,
    /// One row per branch, oldest first.
    pub branch: Vec<DriverBranch>,
}

/// Data-center lifecycle designation of a driver branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Designation {
    /// Long Term Support Branch.
    Lts,
    /// Production Branch.
    Production,
    /// New Feature Branch (short-lived; not a forward-compatibility target).
    NewFeature,
    /// Evaluation/Developer Branch (the 2021 support matrix's R455).
    Evaluation,
}

impl Designation {
    /// The name NVIDIA's support matrix gives it.
    pub fn label(&self) -> &'static str {
        match self {
            Designation::Lts => "long-term support branch",
            Designation::Production => "production branch",
            Designation::NewFeature => "new feature branch",
            Designation::Evaluation => "evaluation/developer branch",
        }
    }
}

/// A driver branch and the newest CUDA it supports natively.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverBranch {
    /// The branch (580).
    pub branch: u64,
    /// The newest CUDA the branch supports without minor version compatibility; absent when no
    /// source read here pairs the branch with a toolkit.
    pub newest_cuda: Option<CudaVersion>,
    /// Data-center designation where NVIDIA names one.
    pub designation: Option<Designation>,
    /// End of support as NVIDIA states it.
    pub end_of_life: Option<String>,
    /// Source id of `newest_cuda`.
    pub source: String,
    /// Source id of `designation` and `end_of_life`, where they come from another page.
    pub lifecycle_source: Option<String>,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader of the row must know.
    pub note: Option<String>,
    /// Other sources' values.
    #[serde(default)]
    pub disagreement: Vec<Disagreement>,
}

/// `data/cudnn.toml`: cuDNN releases, builds and layouts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnTable {
    /// The sources rows cite, by id.
    pub sources: BTreeMap<String, Source>,
    /// Per CUDA major, the cuDNN releases published as PyPI wheels for it.
    pub wheels: Vec<CudnnWheels>,
    /// Library layout per major.
    pub layout: Vec<CudnnLayout>,
    /// Releases whose support matrix is recorded, oldest first.
    pub release: Vec<CudnnRelease>,
}

/// The cuDNN releases published as PyPI wheels for one CUDA major.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnWheels {
    /// The CUDA major (11, 12, 13).
    pub cuda_major: u32,
    /// The package (`nvidia-cudnn-cu12`).
    pub package: String,
    /// Source id.
    pub source: String,
    /// The versions, oldest first.
    pub versions: Vec<Version>,
    /// Releases of the package left out of `versions` and why (Windows-only, yanked, dev).
    pub note: Option<String>,
}

impl CudnnTable {
    /// Every cuDNN release known to exist: the wheels of every CUDA major and the releases whose
    /// matrix is recorded.
    pub fn known_releases(&self) -> impl Iterator<Item = &Version> {
        self.wheels
            .iter()
            .flat_map(|w| w.versions.iter())
            .chain(self.release.iter().flat_map(|r| r.covers.iter()))
    }
}

/// How a cuDNN major lays out its libraries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CudnnLayoutKind {
    /// One library.
    Single,
    /// An API library that loads sub-libraries.
    Split,
}

/// The libraries of one cuDNN major.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnLayout {
    /// cuDNN major (7, 8, 9).
    pub major: u64,
    /// Single or split.
    pub layout: CudnnLayoutKind,
    /// The sonames of its libraries.
    pub sonames: Vec<String>,
    /// Source id.
    pub source: String,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader must know.
    pub note: Option<String>,
}

/// A cuDNN release whose support matrix was read.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnRelease {
    /// The release the matrix is of.
    pub version: Version,
    /// The patch releases the same matrix documents.
    pub covers: Vec<Version>,
    /// Source id.
    pub source: String,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader must know.
    pub note: Option<String>,
    /// One entry per package or matrix row.
    pub build: Vec<CudnnBuild>,
}

/// One cuDNN package (or matrix row): the toolkits it supports, driver and GPUs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnBuild {
    /// The package as the matrix names it.
    pub package: Option<String>,
    /// The CUDA toolkits it supports.
    pub cuda: Vec<CudaVersion>,
    /// Minimum Linux driver.
    pub linux: Option<DriverVersion>,
    /// Minimum Linux driver branch, where the matrix gives a branch only (`r440`).
    pub linux_branch: Option<u64>,
    /// Minimum Windows driver.
    pub windows: Option<DriverVersion>,
    /// Why there is no Windows value.
    pub windows_note: Option<String>,
    /// The compute capabilities listed.
    #[serde(default)]
    pub compute_capabilities: Vec<ComputeCapability>,
    /// The lowest compute capability, for matrices that say "SM 3.5 and later".
    pub min_compute_capability: Option<ComputeCapability>,
    /// With `min_compute_capability`: the newest capability of the hardware the matrix names
    /// ("and later" never covers GPUs newer than the release).
    pub max_compute_capability: Option<ComputeCapability>,
    /// Anything a reader must know.
    pub note: Option<String>,
}

impl CudnnBuild {
    /// The CUDA major of the build (all its toolkits share one).
    pub fn cuda_major(&self) -> Option<u32> {
        self.cuda.first().map(|c| c.major)
    }

    /// Whether the build lists this compute capability (or, for older matrices, is at or above
    /// the lowest one).
    pub fn supports_capability(&self, cc: ComputeCapability) -> bool {
        if !self.compute_capabilities.is_empty() {
            return self.compute_capabilities.contains(&cc);
        }
        self.min_compute_capability.is_some_and(|min| cc >= min)
            && self.max_compute_capability.is_some_and(|max| cc <= max)
    }
}

/// `data/pytorch.toml`: PyTorch releases and their CUDA builds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchTable {
    /// The sources rows cite, by id.
    pub sources: BTreeMap<String, Source>,
    /// One row per minor release, oldest first.
    pub release: Vec<TorchRelease>,
}

/// A PyTorch minor release.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchRelease {
    /// Major and minor (`2.4`).
    pub version: Version,
    /// The Python versions, as the release matrix writes them (or as read from the PyPI wheels).
    pub python: Option<String>,
    /// Source id of `python`, where it is not the row's source.
    pub python_source: Option<String>,
    /// The ROCm versions of its ROCm builds (wheel index `https://download.pytorch.org/whl/rocm<v>`).
    #[serde(default)]
    pub rocm: Vec<String>,
    /// Source id of `rocm`, where it is not the row's source.
    pub rocm_source: Option<String>,
    /// Source id.
    pub source: String,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader must know.
    pub note: Option<String>,
    /// Its CUDA builds.
    pub build: Vec<TorchBuild>,
}

/// Whether the release matrix calls a build stable or experimental.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Stable CUDA.
    Stable,
    /// Experimental CUDA.
    Experimental,
}

/// One CUDA build of a PyTorch release.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchBuild {
    /// The build tag and wheel index name (`cu124`).
    pub tag: String,
    /// Stable or experimental.
    pub channel: Channel,
    /// True when this build is the one PyPI serves as plain `torch` (Linux x86_64).
    #[serde(default)]
    pub pypi_default: bool,
    /// Source id of the build itself, where it is not the release row's source (a build the
    /// release's own source does not list).
    pub source: Option<String>,
    /// Anything a reader of the build must know.
    pub note: Option<String>,
    /// The exact toolkit it was built with, where known (`13.0.2`).
    pub cuda_full: Option<Version>,
    /// The cuDNN it pins.
    pub cudnn: Option<Version>,
    /// The NCCL it pins.
    pub nccl: Option<Version>,
    /// Source id of the cuDNN and NCCL pins, where it is not the release row's source.
    pub pins_source: Option<String>,
    /// TORCH_CUDA_ARCH_LIST of the release wheel, where recorded.
    #[serde(default)]
    pub arch_list: Vec<ArchTarget>,
    /// Source id of the arch list.
    pub arch_source: Option<String>,
    /// Anything a reader of the arch list must know.
    pub arch_note: Option<String>,
    /// Other sources' values.
    #[serde(default)]
    pub disagreement: Vec<Disagreement>,
}

impl TorchBuild {
    /// The CUDA version of the build, from its tag (validated at load).
    pub fn cuda(&self) -> CudaVersion {
        CudaVersion::from_tag(&self.tag).unwrap_or(CudaVersion::new(0, 0))
    }

    /// The wheel index of the build.
    pub fn index_url(&self) -> String {
        format!("https://download.pytorch.org/whl/{}", self.tag)
    }
}

/// An entry of TORCH_CUDA_ARCH_LIST: a capability, with PTX embedded or not (`12.0+PTX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ArchTarget {
    /// The capability.
    pub capability: ComputeCapability,
    /// Whether PTX for it is embedded too.
    pub ptx: bool,
}

impl TryFrom<String> for ArchTarget {
    type Error = crate::version::VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let (cc, ptx) = match s.strip_suffix("+PTX") {
            Some(cc) => (cc, true),
            None => (s.as_str(), false),
        };
        Ok(ArchTarget { capability: cc.parse()?, ptx })
    }
}

impl From<ArchTarget> for String {
    fn from(a: ArchTarget) -> String {
        a.to_string()
    }
}

impl fmt::Display for ArchTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.capability, if self.ptx { "+PTX" } else { "" })
    }
}

/// `data/frameworks.toml`: other frameworks' GPU builds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameworkTable {
    /// The sources rows cite, by id.
    pub sources: BTreeMap<String, Source>,
    /// The builds.
    pub build: Vec<FrameworkBuild>,
}

/// A CUDA requirement: one toolkit version, or a whole major family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum CudaSpec {
    /// Any toolkit of this major (through minor version compatibility).
    Major(u32),
    /// This toolkit version.
    Exact(CudaVersion),
}

impl CudaSpec {
    /// Whether a toolkit version satisfies the requirement.
    pub fn matches(&self, v: CudaVersion) -> bool {
        match self {
            CudaSpec::Major(m) => v.major == *m,
            CudaSpec::Exact(e) => *e == v,
        }
    }

    /// The major family.
    pub fn major(&self) -> u32 {
        match self {
            CudaSpec::Major(m) => *m,
            CudaSpec::Exact(e) => e.major,
        }
    }
}

impl TryFrom<String> for CudaSpec {
    type Error = crate::version::VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if !s.contains('.') {
            if let Ok(m) = s.parse::<u32>() {
                if (1..100).contains(&m) {
                    return Ok(CudaSpec::Major(m));
                }
            }
        }
        Ok(CudaSpec::Exact(s.parse()?))
    }
}

impl From<CudaSpec> for String {
    fn from(c: CudaSpec) -> String {
        c.to_string()
    }
}

impl fmt::Display for CudaSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaSpec::Major(m) => write!(f, "{m}.x"),
            CudaSpec::Exact(v) => v.fmt(f),
        }
    }
}

/// A GPU build of TensorFlow, JAX, CuPy or ONNX Runtime.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameworkBuild {
    /// `tensorflow`, `jax`, `cupy`, `onnxruntime`.
    pub framework: String,
    /// The release, where the row is of one.
    pub version: Option<Version>,
    /// The releases the row covers, in words.
    pub versions: Option<String>,
    /// What to install.
    pub package: String,
    /// The CUDA it was built for.
    pub cuda: Vec<CudaSpec>,
    /// The cuDNN it was built for, as the source writes it.
    pub cudnn: Option<String>,
    /// The Python versions, as the source writes them.
    pub python: Option<String>,
    /// Source id.
    pub source: String,
    /// How sure the row is.
    #[serde(default)]
    pub confidence: Confidence,
    /// Anything a reader must know.
    pub note: Option<String>,
}

/// Every compatibility table, parsed.
#[derive(Debug, Clone, Serialize)]
pub struct Kb {
    /// When the data was checked.
    pub meta: KbMeta,
    /// CUDA toolkits and drivers.
    pub cuda: CudaTable,
    /// Driver branches.
    pub drivers: DriverTable,
    /// cuDNN.
    pub cudnn: CudnnTable,
    /// PyTorch.
    pub pytorch: TorchTable,
    /// TensorFlow, JAX, CuPy, ONNX Runtime.
    pub frameworks: FrameworkTable,
}

fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, KbError> {
    toml::from_str(text).map_err(|source| KbError::Parse { file, source })
}

fn check_source(
    file: &'static str,
    sources: &BTreeMap<String, Source>,
    id: &str,
    row: impl FnOnce() -> String,
) -> Result<(), KbError> {
    if sources.contains_key(id) {
        Ok(())
    } else {
        Err(KbError::Invalid { file, message: format!("{}: unknown source `{id}`", row()) })
    }
}

impl Kb {
    /// Parses and checks the embedded tables.
    pub fn load() -> Result<Kb, KbError> {
        let kb = Kb {
            meta: parse("kb.toml", KB_TOML)?,
            cuda: parse("cuda.toml", CUDA_TOML)?,
            drivers: parse("drivers.toml", DRIVERS_TOML)?,
            cudnn: parse("cudnn.toml", CUDNN_TOML)?,
            pytorch: parse("pytorch.toml", PYTORCH_TOML)?,
            frameworks: parse("frameworks.toml", FRAMEWORKS_TOML)?,
        };
        kb.validate()?;
        Ok(kb)
    }

    fn validate(&self) -> Result<(), KbError> {
        let s = &self.cuda.sources;
        for r in &self.cuda.release {
            check_source("cuda.toml", s, &r.source, || r.label.clone())?;
            for d in &r.disagreement {
                check_source("cuda.toml", s, &d.source, || r.label.clone())?;
            }
        }
        for m in &self.cuda.minor_compat {
            check_source("cuda.toml", s, &m.source, || format!("minor_compat {}", m.major))?;
            if let Some(w) = &m.windows_source {
                check_source("cuda.toml", s, w, || format!("minor_compat {} windows", m.major))?;
            }
            for d in &m.disagreement {
                check_source("cuda.toml", s, &d.source, || format!("minor_compat {}", m.major))?;
            }
        }
        check_source("cuda.toml", s, &self.cuda.forward_compat.source, || "forward_compat".into())?;
        for b in &self.drivers.branch {
            let s = &self.drivers.sources;
            let row = || format!("branch {}", b.branch);
            check_source("drivers.toml", s, &b.source, row)?;
            if let Some(l) = &b.lifecycle_source {
                check_source("drivers.toml", s, l, row)?;
            }
            for d in &b.disagreement {
                check_source("drivers.toml", s, &d.source, row)?;
            }
        }
        let fc = &self.cuda.forward_compat;
        for p in &fc.matrix {
            if let Some(t) = p.runs_on.iter().find(|t| !fc.target.iter().any(|c| c.branch == **t)) {
                return Err(KbError::Invalid {
                    file: "cuda.toml",
                    message: format!("forward_compat {}: branch {t} is not a target column", p.name()),
                });
            }
        }
        let s = &self.cudnn.sources;
        for w in &self.cudnn.wheels {
            check_source("cudnn.toml", s, &w.source, || w.package.clone())?;
        }
        for l in &self.cudnn.layout {
            check_source("cudnn.toml", s, &l.source, || format!("layout {}", l.major))?;
        }
        for r in &self.cudnn.release {
            check_source("cudnn.toml", s, &r.source, || format!("release {}", r.version))?;
            for b in &r.build {
                let majors: Vec<u32> = b.cuda.iter().map(|c| c.major).collect();
                if b.cuda.is_empty() || majors.iter().any(|m| *m != majors[0]) {
                    return Err(KbError::Invalid {
                        file: "cudnn.toml",
                        message: format!(
                            "release {}: a build must list toolkits of one CUDA major",
                            r.version
                        ),
                    });
                }
            }
        }
        let s = &self.pytorch.sources;
        for r in &self.pytorch.release {
            check_source("pytorch.toml", s, &r.source, || format!("release {}", r.version))?;
            for id in r.python_source.iter().chain(&r.rocm_source) {
                check_source("pytorch.toml", s, id, || format!("release {}", r.version))?;
            }
            for b in &r.build {
                for id in b.source.iter().chain(&b.pins_source) {
                    check_source("pytorch.toml", s, id, || format!("release {} {}", r.version, b.tag))?;
                }
                if CudaVersion::from_tag(&b.tag).is_none() {
                    return Err(KbError::Invalid {
                        file: "pytorch.toml",
                        message: format!(
                            "release {}: build tag `{}` is not of the form cuXY",
                            r.version, b.tag
                        ),
                    });
                }
                if let Some(a) = &b.arch_source {
                    check_source("pytorch.toml", s, a, || format!("release {} {}", r.version, b.tag))?;
                }
                for d in &b.disagreement {
                    check_source("pytorch.toml", s, &d.source, || {
                        format!("release {} {}", r.version, b.tag)
                    })?;
                }
            }
        }
        for b in &self.frameworks.build {
            check_source("frameworks.toml", &self.frameworks.sources, &b.source, || {
                format!("{} {}", b.framework, b.package)
            })?;
        }
        Ok(())
    }

    /// The sources of every table, by table name, for a reader who wants to follow an id.
    pub fn source(&self, table: Table, id: &str) -> Option<&Source> {
        let sources = match table {
            Table::Cuda => &self.cuda.sources,
            Table::Drivers => &self.drivers.sources,
            Table::Cudnn => &self.cudnn.sources,
            Table::Pytorch => &self.pytorch.sources,
            Table::Frameworks => &self.frameworks.sources,
        };
        sources.get(id)
    }
}

/// The tables of the knowledge base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// `data/cuda.toml`.
    Cuda,
    /// `data/drivers.toml`.
    Drivers,
    /// `data/cudnn.toml`.
    Cudnn,
    /// `data/pytorch.toml`.
    Pytorch,
    /// `data/frameworks.toml`.
    Frameworks,
}

/// The knowledge base, parsed on first use and shared after.
pub fn kb() -> Result<&'static Kb, &'static KbError> {
    static KB: OnceLock<Result<Kb, KbError>> = OnceLock::new();
    KB.get_or_init(Kb::load).as_ref()
}
