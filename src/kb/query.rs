//! Questions asked of the compatibility tables: what a CUDA version needs and works with, what a
//! driver runs, what a PyTorch release ships, what a cuDNN release supports. Pure functions of
//! [`Kb`]; each answer carries the sources of the rows it used, and a question about a version the
//! tables do not know is an error that says so rather than a guess.

use super::tables::{
    Channel, CompatPackage, CompatTarget, Confidence, CudaRelease, CudaSpec, CudnnBuild, CudnnLayout,
    CudnnRelease, Disagreement, DriverBranch, FrameworkBuild, Kb, MinorCompat, Source, TorchBuild,
    TorchRelease,
};
use crate::version::{CudaVersion, DriverVersion, Version};
use serde::Serialize;
use std::cmp::Ordering;

/// A question the knowledge base cannot answer, worded for the person who asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The version is newer than every row of the table.
    #[error(
        "{what} {asked} is unknown to this knowledge base (data of {checked}; the newest {what} it \
         knows is {newest}). cudoctor does not guess: check the vendor's release notes."
    )]
    Newer {
        /// The kind of thing (`CUDA`, `PyTorch`, `cuDNN`).
        what: &'static str,
        /// The version asked about.
        asked: String,
        /// The newest version the table knows.
        newest: String,
        /// When the data was checked.
        checked: String,
    },
    /// The thing asked about is not one the tables know at all (a framework name).
    #[error("{what} `{asked}` is not in this knowledge base (data of {checked}). Known: {known}")]
    UnknownName {
        /// The kind of thing.
        what: &'static str,
        /// The name asked about.
        asked: String,
        /// The names the table knows.
        known: String,
        /// When the data was checked.
        checked: String,
    },
    /// The version is within the table's range but is not a release it knows.
    #[error("{what} {asked} is not a release in this knowledge base (data of {checked}). Known: {known}")]
    NotFound {
        /// The kind of thing.
        what: &'static str,
        /// The version asked about.
        asked: String,
        /// The versions the table knows, for the reader to pick from.
        known: String,
        /// When the data was checked.
        checked: String,
    },
}

/// A row of a table together with the source it cites.
#[derive(Debug, Clone, Serialize)]
pub struct Cited<'a, T: Serialize> {
    /// The row as stored.
    #[serde(flatten)]
    pub row: &'a T,
    /// Its source, resolved.
    pub cited: &'a Source,
}

fn cited<'a, T: Serialize>(
    row: &'a T,
    sources: &'a std::collections::BTreeMap<String, Source>,
    id: &str,
) -> Cited<'a, T> {
    // Every id was checked by `Kb::load`; the fallback keeps this total.
    static MISSING: Source = Source { url: String::new(), document: String::new() };
    Cited { row, cited: sources.get(id).unwrap_or(&MISSING) }
}

/// The toolkit row whose driver a build of `cuda` (exactly `full`, if known) needs: the matching
/// update where the exact toolkit is known, else the GA release.
pub fn toolkit_row<'a>(kb: &'a Kb, cuda: CudaVersion, full: Option<&Version>) -> Option<&'a CudaRelease> {
    let of_minor = || kb.cuda.release.iter().filter(move |r| r.version == cuda);
    if let Some(full) = full {
        // Table 3 names updates, not patch numbers: a 12.6.3 build is Update 3 of 12.6. A patch
        // number past the last recorded update (pip's cuda-toolkit 13.0.3) takes the last one.
        let update = full.part(2);
        if let Some(r) =
            of_minor().filter(|r| u64::from(r.update) <= update && r.linux.is_some()).max_by_key(|r| r.update)
        {
            return Some(r);
        }
    }
    of_minor().find(|r| r.update == 0)
}

/// The minor-version-compatibility row of a CUDA major.
pub fn minor_compat(kb: &Kb, major: u32) -> Option<&MinorCompat> {
    kb.cuda.minor_compat.iter().find(|m| m.major == major)
}

fn newest_cuda(kb: &Kb) -> CudaVersion {
    kb.cuda.release.iter().map(|r| r.version).max().unwrap_or(CudaVersion::new(0, 0))
}

/// A cuDNN package that supports a CUDA version.
#[derive(Debug, Clone, Serialize)]
pub struct CudnnForCuda<'a> {
    /// The cuDNN release whose matrix lists it.
    pub cudnn: &'a Version,
    /// The patch releases the matrix covers.
    pub covers: &'a [Version],
    /// The package.
    pub build: &'a CudnnBuild,
    /// How sure the matrix row is (a matrix read only in part is unverified).
    pub confidence: Confidence,
    /// The matrix.
    pub cited: &'a Source,
}

/// A PyTorch build for a CUDA version.
#[derive(Debug, Clone, Serialize)]
pub struct TorchForCuda<'a> {
    /// The release.
    pub torch: &'a Version,
    /// The build.
    pub build: &'a TorchBuild,
    /// How sure the release row is.
    pub confidence: Confidence,
    /// The release matrix.
    pub cited: &'a Source,
}

/// A framework build for a CUDA version.
#[derive(Debug, Clone, Serialize)]
pub struct FrameworkForCuda<'a> {
    /// The build.
    pub build: &'a FrameworkBuild,
    /// Its source.
    pub cited: &'a Source,
}

/// The forward-compatibility (cuda-compat) package of one CUDA release and the driver branches
/// the compatibility guide's table lets it run on (data-center GPUs only).
#[derive(Debug, Clone, Serialize)]
pub struct CompatForCuda<'a> {
    /// The package name (`cuda-compat-12-8`).
    pub package: String,
    /// The table's row, where the release has one.
    pub row: Option<&'a CompatPackage>,
    /// The compatibility guide.
    pub cited: &'a Source,
}

/// The forward-compatibility packages one driver branch can use (data-center GPUs only).
#[derive(Debug, Clone, Serialize)]
pub struct CompatForDriver<'a> {
    /// The branch's column of the guide's table; absent when the branch is not a supported target
    /// (end of life, or not listed).
    pub target: Option<&'a CompatTarget>,
    /// The packages the table marks compatible with the branch, newest first.
    pub packages: Vec<String>,
    /// The compatibility guide.
    pub cited: &'a Source,
}

/// The cuda-compat package of a CUDA release, as the compatibility guide's table lists it.
pub fn compat_for_cuda(kb: &Kb, v: CudaVersion) -> Option<CompatForCuda<'_>> {
    let fc = &kb.cuda.forward_compat;
    let cited = kb.cuda.sources.get(&fc.source)?;
    if v < fc.introduced_in {
        return None;
    }
    let row = fc.matrix.iter().find(|p| p.cuda == v);
    Some(CompatForCuda { package: format!("cuda-compat-{}-{}", v.major, v.minor), row, cited })
}

/// The cuda-compat packages a driver branch can use, per the compatibility guide's table.
pub fn compat_for_driver(kb: &Kb, branch: u64) -> Option<CompatForDriver<'_>> {
    let fc = &kb.cuda.forward_compat;
    let cited = kb.cuda.sources.get(&fc.source)?;
    let target = fc.target.iter().find(|t| t.branch == branch);
    let mut rows: Vec<&CompatPackage> = fc.matrix.iter().filter(|p| p.runs_on.contains(&branch)).collect();
    rows.sort_by_key(|p| std::cmp::Reverse(p.cuda));
    Some(CompatForDriver { target, packages: rows.iter().map(|p| p.name()).collect(), cited })
}

/// What the knowledge base knows about one CUDA version.
#[derive(Debug, Clone, Serialize)]
pub struct CudaAnswer<'a> {
    /// The version asked about (major.minor).
    pub cuda: CudaVersion,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// Its GA and update releases with the driver each needs.
    pub releases: Vec<Cited<'a, CudaRelease>>,
    /// The minimum driver for its major family under minor version compatibility.
    pub minor_compat: Option<Cited<'a, MinorCompat>>,
    /// Its forward-compatibility package (CUDA 10.0 and later).
    pub forward_compat: Option<CompatForCuda<'a>>,
    /// cuDNN packages that list this toolkit.
    pub cudnn: Vec<CudnnForCuda<'a>>,
    /// The cuDNN wheels published for this CUDA major.
    pub cudnn_wheels: Option<Cited<'a, super::tables::CudnnWheels>>,
    /// PyTorch builds made with this toolkit.
    pub pytorch: Vec<TorchForCuda<'a>>,
    /// Other frameworks' builds for this toolkit (or its whole major).
    pub frameworks: Vec<FrameworkForCuda<'a>>,
}

/// Answers `kb cuda <version>`.
pub fn cuda(kb: &Kb, v: CudaVersion) -> Result<CudaAnswer<'_>, QueryError> {
    let checked = &kb.meta.checked;
    let releases: Vec<_> = kb
        .cuda
        .release
        .iter()
        .filter(|r| r.version == v)
        .map(|r| cited(r, &kb.cuda.sources, &r.source))
        .collect();
    if releases.is_empty() {
        let newest = newest_cuda(kb);
        if v > newest {
            return Err(QueryError::Newer {
                what: "CUDA",
                asked: v.to_string(),
                newest: newest.to_string(),
                checked: checked.clone(),
            });
        }
        let mut known: Vec<String> = kb
            .cuda
            .release
            .iter()
            .filter(|r| r.version.major == v.major)
            .map(|r| r.version.to_string())
            .collect();
        known.dedup();
        let known =
            if known.is_empty() { format!("no CUDA {}.x release", v.major) } else { known.join(", ") };
        return Err(QueryError::NotFound {
            what: "CUDA",
            asked: v.to_string(),
            known,
            checked: checked.clone(),
        });
    }
    let minor_compat = minor_compat_cited(kb, v.major);
    let mut cudnn = Vec::new();
    for r in &kb.cudnn.release {
        for b in &r.build {
            if b.cuda.contains(&v) {
                let cited = kb.cudnn.sources.get(&r.source).map(|s| s as &Source);
                if let Some(cited) = cited {
                    cudnn.push(CudnnForCuda {
                        cudnn: &r.version,
                        covers: &r.covers,
                        build: b,
                        confidence: r.confidence,
                        cited,
                    });
                }
            }
        }
    }
    let mut pytorch = Vec::new();
    for r in &kb.pytorch.release {
        for b in r.build.iter().filter(|b| b.cuda() == v) {
            // The row shows the build's cuDNN and NCCL: cite where those were read.
            let id = b.pins_source.as_ref().or(b.source.as_ref()).unwrap_or(&r.source);
            if let Some(cited) = kb.pytorch.sources.get(id) {
                pytorch.push(TorchForCuda { torch: &r.version, build: b, confidence: r.confidence, cited });
            }
        }
    }
    let frameworks = kb
        .frameworks
        .build
        .iter()
        .filter(|b| b.cuda.iter().any(|c| c.matches(v)))
        .filter_map(|b| {
            kb.frameworks.sources.get(&b.source).map(|cited| FrameworkForCuda { build: b, cited })
        })
        .collect();
    let cudnn_wheels = kb
        .cudnn
        .wheels
        .iter()
        .find(|w| w.cuda_major == v.major)
        .map(|w| cited(w, &kb.cudnn.sources, &w.source));
    Ok(CudaAnswer {
        cuda: v,
        data_checked: checked,
        releases,
        minor_compat,
        forward_compat: compat_for_cuda(kb, v),
        cudnn,
        cudnn_wheels,
        pytorch,
        frameworks,
    })
}

/// How a driver runs the toolkits of one CUDA major family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FamilySupport {
    /// Every known release of the family, each with its own toolkit driver or older.
    AllNative,
    /// Some releases natively, the rest of the family through minor version compatibility.
    MinorCompat,
    /// Only the releases up to `newest_native`; newer ones of the family need a newer driver.
    UpToNewestNative,
    /// None.
    None,
}

/// A CUDA major family as seen from one driver.
#[derive(Debug, Clone, Serialize)]
pub struct Family<'a> {
    /// The major.
    pub major: u32,
    /// How the driver runs it.
    pub support: FamilySupport,
    /// The newest release of the family whose toolkit driver this driver meets.
    pub newest_native: Option<CudaVersion>,
    /// The newest release of the family in the knowledge base.
    pub newest_known: CudaVersion,
    /// The family's minor-version-compatibility row.
    pub minor_compat: Option<Cited<'a, MinorCompat>>,
}

/// Whether a PyTorch build runs on a driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Runs {
    /// The driver meets the build's own toolkit driver: every feature.
    Fully,
    /// Through CUDA minor version compatibility: runs, but PTX newer than the driver cannot be
    /// JIT-compiled and a few APIs fail.
    MinorCompat,
    /// The driver is too old.
    No,
    /// The knowledge base lacks the toolkit driver of this build.
    Unknown,
}

/// A PyTorch build judged against a driver.
#[derive(Debug, Clone, Serialize)]
pub struct TorchOnDriver<'a> {
    /// The release.
    pub torch: &'a Version,
    /// The build tag.
    pub tag: &'a str,
    /// Its toolkit.
    pub cuda: CudaVersion,
    /// The Linux driver of its toolkit.
    pub toolkit_driver: Option<&'a DriverVersion>,
    /// The Linux minimum under minor version compatibility.
    pub minor_compat_driver: Option<&'a DriverVersion>,
    /// The verdict.
    pub runs: Runs,
    /// How sure the release row is.
    pub confidence: Confidence,
}

/// What the knowledge base says about one (Linux) driver version.
#[derive(Debug, Clone, Serialize)]
pub struct DriverAnswer<'a> {
    /// The driver asked about.
    pub driver: DriverVersion,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// The newest toolkit release whose driver this one meets (what `nvidia-smi` reports).
    pub newest_native: Option<Cited<'a, CudaRelease>>,
    /// The branch row.
    pub branch: Option<Cited<'a, DriverBranch>>,
    /// True when the driver's branch is newer than every branch the tables know: it supports at
    /// least what the newest known does, but the exact newest CUDA is unknown here.
    pub newer_than_known: bool,
    /// Each CUDA major family.
    pub families: Vec<Family<'a>>,
    /// The forward-compatibility packages its branch can use on data-center GPUs.
    pub forward_compat: Option<CompatForDriver<'a>>,
    /// Every PyTorch CUDA build, judged.
    pub pytorch: Vec<TorchOnDriver<'a>>,
}

/// Answers `kb driver <version>` (Linux driver numbers).
pub fn driver<'a>(kb: &'a Kb, d: &DriverVersion) -> DriverAnswer<'a> {
    let newest_native = kb
        .cuda
        .release
        .iter()
        .filter(|r| r.linux.as_ref().is_some_and(|l| l <= d))
        .max_by(|a, b| a.version.cmp(&b.version).then(a.update.cmp(&b.update)))
        .map(|r| cited(r, &kb.cuda.sources, &r.source));
    let branch = kb
        .drivers
        .branch
        .iter()
        .find(|b| b.branch == d.branch())
        .map(|b| cited(b, &kb.drivers.sources, &b.source));
    let newest_branch = kb.drivers.branch.iter().map(|b| b.branch).max().unwrap_or(0);
    let mut majors: Vec<u32> = kb.cuda.release.iter().map(|r| r.version.major).collect();
    majors.dedup();
    let families = majors
        .into_iter()
        .map(|major| {
            let of_family = || kb.cuda.release.iter().filter(move |r| r.version.major == major);
            let newest_known = of_family().map(|r| r.version).max().unwrap_or(CudaVersion::new(major, 0));
            let newest_native =
                of_family().filter(|r| r.linux.as_ref().is_some_and(|l| l <= d)).map(|r| r.version).max();
            let mc = minor_compat(kb, major);
            let support = if newest_native == Some(newest_known)
                && of_family().filter(|r| r.version == newest_known).all(|r| r.linux.is_some())
            {
                FamilySupport::AllNative
            } else if mc.is_some_and(|m| &m.linux <= d) {
                FamilySupport::MinorCompat
            } else if newest_native.is_some() {
                FamilySupport::UpToNewestNative
            } else {
                FamilySupport::None
            };
            Family {
                major,
                support,
                newest_native,
                newest_known,
                minor_compat: mc.map(|m| cited(m, &kb.cuda.sources, &m.source)),
            }
        })
        .collect();
    let mut pytorch = Vec::new();
    for r in &kb.pytorch.release {
        for b in &r.build {
            let cuda = b.cuda();
            let toolkit_driver = toolkit_row(kb, cuda, b.cuda_full.as_ref()).and_then(|t| t.linux.as_ref());
            let minor_compat_driver = minor_compat(kb, cuda.major).map(|m| &m.linux);
            let runs = match (toolkit_driver, minor_compat_driver) {
                (Some(t), _) if t <= d => Runs::Fully,
                (_, Some(m)) if m <= d => Runs::MinorCompat,
                (Some(_), _) => Runs::No,
                (None, Some(_)) => Runs::No,
                (None, None) => Runs::Unknown,
            };
            pytorch.push(TorchOnDriver {
                torch: &r.version,
                tag: &b.tag,
                cuda,
                toolkit_driver,
                minor_compat_driver,
                runs,
                confidence: r.confidence,
            });
        }
    }
    DriverAnswer {
        driver: d.clone(),
        data_checked: &kb.meta.checked,
        newest_native,
        branch,
        newer_than_known: d.branch() > newest_branch,
        families,
        forward_compat: compat_for_driver(kb, d.branch()),
        pytorch,
    }
}

/// One PyTorch build with everything needed to install and run it.
#[derive(Debug, Clone, Serialize)]
pub struct TorchBuildAnswer<'a> {
    /// The build.
    #[serde(flatten)]
    pub build: &'a TorchBuild,
    /// Its toolkit.
    pub cuda: CudaVersion,
    /// The toolkit row whose driver it needs for every feature.
    pub toolkit: Option<Cited<'a, CudaRelease>>,
    /// The minimum driver under minor version compatibility.
    pub minor_compat: Option<Cited<'a, MinorCompat>>,
    /// The source of the arch list.
    pub arch_cited: Option<&'a Source>,
    /// The wheel index.
    pub index_url: String,
    /// The pip command.
    pub install: String,
    /// The pip command without an index, where PyPI's plain `torch` is this build.
    pub pypi_install: Option<String>,
}

/// The toolkit row whose driver a PyTorch build needs (its exact CUDA update where recorded), cited.
fn build_toolkit<'a>(kb: &'a Kb, b: &TorchBuild) -> Option<Cited<'a, CudaRelease>> {
    toolkit_row(kb, b.cuda(), b.cuda_full.as_ref()).map(|t| cited(t, &kb.cuda.sources, &t.source))
}

/// The minor-version-compatibility row of a CUDA major, cited.
fn minor_compat_cited(kb: &Kb, major: u32) -> Option<Cited<'_, MinorCompat>> {
    minor_compat(kb, major).map(|m| cited(m, &kb.cuda.sources, &m.source))
}

/// What the knowledge base knows about one PyTorch release.
#[derive(Debug, Clone, Serialize)]
pub struct TorchAnswer<'a> {
    /// The version asked about.
    pub asked: Version,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// The release row (minor version).
    pub release: Cited<'a, TorchRelease>,
    /// Its CUDA builds.
    pub builds: Vec<TorchBuildAnswer<'a>>,
}

fn same_minor(a: &Version, b: &Version) -> bool {
    a.major() == b.major() && a.minor() == b.minor()
}

/// Answers `kb torch <version>`.
pub fn torch<'a>(kb: &'a Kb, asked: &Version) -> Result<TorchAnswer<'a>, QueryError> {
    let checked = &kb.meta.checked;
    let Some(release) = kb.pytorch.release.iter().find(|r| same_minor(&r.version, asked)) else {
        let newest = kb.pytorch.release.iter().map(|r| &r.version).max();
        if let Some(newest) = newest {
            if asked.truncated(2) > newest.truncated(2) {
                return Err(QueryError::Newer {
                    what: "PyTorch",
                    asked: asked.to_string(),
                    newest: newest.to_string(),
                    checked: checked.clone(),
                });
            }
        }
        let known = kb.pytorch.release.iter().map(|r| r.version.to_string()).collect::<Vec<_>>().join(", ");
        return Err(QueryError::NotFound {
            what: "PyTorch",
            asked: asked.to_string(),
            known,
            checked: checked.clone(),
        });
    };
    let pin = if asked.parts().len() >= 3 {
        format!("torch=={}", asked.truncated(3))
    } else {
        format!("torch=={}.*", asked.truncated(2))
    };
    let builds = release
        .build
        .iter()
        .map(|b| {
            let cuda = b.cuda();
            TorchBuildAnswer {
                build: b,
                cuda,
                toolkit: build_toolkit(kb, b),
                minor_compat: minor_compat_cited(kb, cuda.major),
                arch_cited: b.arch_source.as_ref().and_then(|s| kb.pytorch.sources.get(s)),
                index_url: b.index_url(),
                install: format!("pip install '{pin}' --index-url {}", b.index_url()),
                pypi_install: b.pypi_default.then(|| format!("pip install '{pin}'")),
            }
        })
        .collect();
    Ok(TorchAnswer {
        asked: asked.clone(),
        data_checked: checked,
        release: cited(release, &kb.pytorch.sources, &release.source),
        builds,
    })
}

/// One release's build of a CUDA variant (`kb torch cu118`).
#[derive(Debug, Clone, Serialize)]
pub struct TorchTagRelease<'a> {
    /// The release (minor version).
    pub release: &'a Version,
    /// Whether the release row is unverified.
    pub confidence: Confidence,
    /// The build.
    pub build: &'a TorchBuild,
    /// The toolkit driver its exact CUDA needs (an update may need a newer driver than the GA).
    pub toolkit: Option<Cited<'a, CudaRelease>>,
}

/// Every release's build of one CUDA variant of PyTorch.
#[derive(Debug, Clone, Serialize)]
pub struct TorchTagAnswer<'a> {
    /// The tag asked about (`cu118`).
    pub tag: String,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// The CUDA version of the tag.
    pub cuda: CudaVersion,
    /// The wheel index.
    pub index_url: String,
    /// The minimum driver under minor version compatibility.
    pub minor_compat: Option<Cited<'a, MinorCompat>>,
    /// The releases that have this build, oldest first.
    pub releases: Vec<TorchTagRelease<'a>>,
}

/// Answers `kb torch cu118`: which releases have this CUDA variant and which driver it needs.
pub fn torch_tag<'a>(kb: &'a Kb, tag: &str) -> Result<TorchTagAnswer<'a>, QueryError> {
    let checked = &kb.meta.checked;
    let mut releases: Vec<TorchTagRelease<'a>> = kb
        .pytorch
        .release
        .iter()
        .flat_map(|r| r.build.iter().filter(|b| b.tag == tag).map(move |b| (r, b)))
        .map(|(r, b)| TorchTagRelease {
            release: &r.version,
            confidence: r.confidence,
            build: b,
            toolkit: build_toolkit(kb, b),
        })
        .collect();
    releases.sort_by(|a, b| a.release.cmp(b.release));
    let Some(first) = releases.first() else {
        let mut tags: Vec<&str> =
            kb.pytorch.release.iter().flat_map(|r| r.build.iter().map(|b| b.tag.as_str())).collect();
        tags.sort_by_key(|t| (t.len(), *t));
        tags.dedup();
        return Err(QueryError::NotFound {
            what: "PyTorch CUDA build",
            asked: tag.to_string(),
            known: tags.join(", "),
            checked: checked.clone(),
        });
    };
    let cuda = first.build.cuda();
    Ok(TorchTagAnswer {
        tag: tag.to_string(),
        data_checked: checked,
        cuda,
        index_url: first.build.index_url(),
        minor_compat: minor_compat_cited(kb, cuda.major),
        releases,
    })
}

/// How a cuDNN version was matched to a recorded support matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CudnnMatch {
    /// The matrix documents this very release.
    Exact,
    /// The matrix is of another patch release of the same minor.
    SameMinor,
    /// No matrix of this minor is recorded; this is the nearest older one of the same major.
    NearestOlder,
}

/// A PyTorch build that pins a cuDNN version.
#[derive(Debug, Clone, Serialize)]
pub struct TorchPin<'a> {
    /// The release.
    pub torch: &'a Version,
    /// The build tag.
    pub tag: &'a str,
    /// The exact pin.
    pub cudnn: &'a Version,
    /// Other sources' values.
    pub disagreement: &'a [Disagreement],
}

/// A PyPI wheel of a cuDNN release.
#[derive(Debug, Clone, Serialize)]
pub struct WheelOf<'a> {
    /// The CUDA major it is built for.
    pub cuda_major: u32,
    /// The package.
    pub package: &'a str,
    /// The exact versions of that package that match the question.
    pub versions: Vec<&'a Version>,
    /// The release list it comes from.
    pub cited: &'a Source,
}

/// What the knowledge base knows about one cuDNN version.
#[derive(Debug, Clone, Serialize)]
pub struct CudnnAnswer<'a> {
    /// The version asked about.
    pub asked: Version,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// Whether the version is listed among the releases known to exist.
    pub known_release: bool,
    /// The PyPI wheels of this release, one per CUDA major it is built for.
    pub wheels: Vec<WheelOf<'a>>,
    /// How the matrix below was chosen.
    pub matched: CudnnMatch,
    /// The recorded support matrix used.
    pub release: Cited<'a, CudnnRelease>,
    /// The library layout of its major.
    pub layout: Option<Cited<'a, CudnnLayout>>,
    /// PyTorch builds that pin a cuDNN of this minor.
    pub pytorch: Vec<TorchPin<'a>>,
    /// TensorFlow (and other) builds made with this cuDNN minor.
    pub frameworks: Vec<FrameworkForCuda<'a>>,
}

/// The matrix of the same minor release that answers for `asked`: for a patch release, the newest
/// matrix at or below it (a later patch may add toolkits the asked one lacks), else the oldest
/// above it; for a bare `major.minor`, the newest of that minor.
fn same_minor_matrix<'a>(t: &'a super::tables::CudnnTable, asked: &Version) -> Option<&'a CudnnRelease> {
    let mut rows: Vec<&CudnnRelease> = t.release.iter().filter(|r| same_minor(&r.version, asked)).collect();
    rows.sort_by(|a, b| a.version.cmp(&b.version));
    if asked.parts().len() < 3 {
        return rows.last().copied();
    }
    rows.iter().rev().find(|r| r.version.cmp(asked) != Ordering::Greater).or(rows.first()).copied()
}

/// Answers `kb cudnn <version>`.
pub fn cudnn<'a>(kb: &'a Kb, asked: &Version) -> Result<CudnnAnswer<'a>, QueryError> {
    let checked = &kb.meta.checked;
    let t = &kb.cudnn;
    let known_release = t.known_releases().any(|k| k.matches_prefix(asked));
    let newest = t.known_releases().max().cloned().unwrap_or_else(|| Version::from_parts(&[0]));
    let cmp_len = asked.parts().len().min(3);
    if asked.truncated(cmp_len) > newest.truncated(cmp_len) {
        return Err(QueryError::Newer {
            what: "cuDNN",
            asked: asked.to_string(),
            newest: newest.to_string(),
            checked: checked.clone(),
        });
    }
    let exact =
        t.release.iter().find(|r| r.covers.iter().any(|c| c.matches_prefix(&asked.truncated(cmp_len))));
    let (release, matched) = if let Some(r) = exact.filter(|_| asked.parts().len() >= 3) {
        (r, CudnnMatch::Exact)
    } else if let Some(r) = same_minor_matrix(t, asked) {
        (r, if asked.parts().len() >= 3 { CudnnMatch::SameMinor } else { CudnnMatch::Exact })
    } else if let Some(r) = t
        .release
        .iter()
        .rev()
        .find(|r| r.version.major() == asked.major() && r.version.cmp(asked) == Ordering::Less)
    {
        (r, CudnnMatch::NearestOlder)
    } else {
        let known = t.release.iter().map(|r| r.version.to_string()).collect::<Vec<_>>().join(", ");
        return Err(QueryError::NotFound {
            what: "cuDNN",
            asked: asked.to_string(),
            known: format!("support matrices of {known}"),
            checked: checked.clone(),
        });
    };
    let layout = t.layout.iter().find(|l| l.major == asked.major()).map(|l| cited(l, &t.sources, &l.source));
    let mut pytorch = Vec::new();
    for r in &kb.pytorch.release {
        for b in &r.build {
            if let Some(c) = &b.cudnn {
                if same_minor(c, asked) {
                    pytorch.push(TorchPin {
                        torch: &r.version,
                        tag: &b.tag,
                        cudnn: c,
                        disagreement: &b.disagreement,
                    });
                }
            }
        }
    }
    let frameworks = kb
        .frameworks
        .build
        .iter()
        .filter(|b| {
            b.cudnn
                .as_deref()
                .and_then(|c| c.split_whitespace().next())
                .and_then(|c| c.trim_end_matches(".x").parse::<Version>().ok())
                .is_some_and(|c| {
                    c.major() == asked.major() && (c.parts().len() < 2 || c.minor() == asked.minor())
                })
        })
        .filter_map(|b| {
            kb.frameworks.sources.get(&b.source).map(|cited| FrameworkForCuda { build: b, cited })
        })
        .collect();
    let wheels = t
        .wheels
        .iter()
        .filter_map(|w| {
            let versions: Vec<&Version> = w.versions.iter().filter(|v| v.matches_prefix(asked)).collect();
            let cited = t.sources.get(&w.source)?;
            (!versions.is_empty()).then_some(WheelOf {
                cuda_major: w.cuda_major,
                package: &w.package,
                versions,
                cited,
            })
        })
        .collect();
    Ok(CudnnAnswer {
        asked: asked.clone(),
        data_checked: checked,
        known_release,
        wheels,
        matched,
        release: cited(release, &t.sources, &release.source),
        layout,
        pytorch,
        frameworks,
    })
}

/// True when a build's channel is experimental.
pub fn is_experimental(b: &TorchBuild) -> bool {
    b.channel == Channel::Experimental
}

/// The framework names `kb framework` accepts, each with the `framework` value of its rows.
const FRAMEWORK_NAMES: &[(&str, &str)] = &[
    ("tensorflow", "tensorflow"),
    ("tf", "tensorflow"),
    ("tensorflow-gpu", "tensorflow"),
    ("jax", "jax"),
    ("jaxlib", "jax"),
    ("cupy", "cupy"),
    ("onnxruntime", "onnxruntime"),
    ("onnxruntime-gpu", "onnxruntime"),
    ("ort", "onnxruntime"),
    ("paddlepaddle", "paddlepaddle"),
    ("paddlepaddle-gpu", "paddlepaddle"),
    ("paddle", "paddlepaddle"),
];

/// The `framework` value of the rows a user's name for a framework means (`tf` → `tensorflow`).
pub fn framework_name(asked: &str) -> Option<&'static str> {
    let a = asked.trim().to_ascii_lowercase().replace('_', "-");
    FRAMEWORK_NAMES.iter().find(|(n, _)| *n == a).map(|(_, f)| *f)
}

/// What a framework build needs of the driver for one of its CUDA requirements.
#[derive(Debug, Clone, Serialize)]
pub struct CudaNeed<'a> {
    /// The CUDA requirement of the build.
    pub cuda: CudaSpec,
    /// The toolkit's own minimum Linux driver (Table 3, GA release), for an exact toolkit.
    pub toolkit_driver: Option<Cited<'a, CudaRelease>>,
    /// The minimum Linux driver of its major family under minor version compatibility.
    pub minor_compat: Option<Cited<'a, MinorCompat>>,
}

/// One build of a framework with its sources and driver needs.
#[derive(Debug, Clone, Serialize)]
pub struct FrameworkBuildAnswer<'a> {
    /// The row.
    pub build: &'a FrameworkBuild,
    /// Its source.
    pub cited: &'a Source,
    /// The source of its `requires`, where it has one.
    pub requires_cited: Option<&'a Source>,
    /// The driver each CUDA requirement needs.
    pub needs: Vec<CudaNeed<'a>>,
}

/// What the knowledge base knows about a framework (or one of its releases).
#[derive(Debug, Clone, Serialize)]
pub struct FrameworkAnswer<'a> {
    /// The framework (`tensorflow`, `jax`, `cupy`, `onnxruntime`, `paddlepaddle`).
    pub framework: &'static str,
    /// The release asked about, if any.
    pub asked: Option<Version>,
    /// When the data was checked.
    pub data_checked: &'a str,
    /// The builds, in table order (newest first within a framework).
    pub builds: Vec<FrameworkBuildAnswer<'a>>,
}

/// Answers `kb framework <name> [version]`: the GPU builds of TensorFlow, JAX, CuPy, ONNX Runtime
/// or PaddlePaddle, optionally of one release, with the driver their CUDA needs.
pub fn framework<'a>(
    kb: &'a Kb,
    name: &str,
    asked: Option<&Version>,
) -> Result<FrameworkAnswer<'a>, QueryError> {
    let checked = &kb.meta.checked;
    let Some(fw) = framework_name(name) else {
        return Err(QueryError::UnknownName {
            what: "framework",
            asked: name.to_string(),
            known: "tensorflow (tf), jax, cupy, onnxruntime (ort), paddlepaddle (paddle); PyTorch: kb torch"
                .into(),
            checked: checked.clone(),
        });
    };
    let rows: Vec<&FrameworkBuild> = kb.frameworks.build.iter().filter(|b| b.framework == fw).collect();
    let chosen: Vec<&FrameworkBuild> = match asked {
        None => rows.clone(),
        Some(v) => rows.iter().copied().filter(|b| b.covers(v)).collect(),
    };
    if let (Some(v), true) = (asked, chosen.is_empty()) {
        let spans: Vec<(Version, Option<Version>)> = rows.iter().filter_map(|b| b.release_span()).collect();
        let newest = spans.iter().filter_map(|(_, hi)| hi.clone()).max();
        let open_ended = spans.iter().any(|(_, hi)| hi.is_none());
        if let (Some(newest), false) = (&newest, open_ended) {
            if v.truncated(v.parts().len()) > newest.truncated(v.parts().len()) {
                return Err(QueryError::Newer {
                    what: "framework release",
                    asked: format!("{fw} {v}"),
                    newest: format!("{fw} {newest}"),
                    checked: checked.clone(),
                });
            }
        }
        let mut known: Vec<String> = rows
            .iter()
            .map(|b| {
                b.versions
                    .clone()
                    .unwrap_or_else(|| b.version.as_ref().map(ToString::to_string).unwrap_or_default())
            })
            .collect();
        known.dedup();
        return Err(QueryError::NotFound {
            what: "framework release",
            asked: format!("{fw} {v}"),
            known: known.join("; "),
            checked: checked.clone(),
        });
    }
    let builds = chosen
        .into_iter()
        .filter_map(|b| {
            let src = kb.frameworks.sources.get(&b.source)?;
            let requires_cited = b.requires_source.as_ref().and_then(|r| kb.frameworks.sources.get(r));
            let needs = b
                .cuda
                .iter()
                .map(|c| CudaNeed {
                    cuda: *c,
                    toolkit_driver: c.toolkit().and_then(|v| {
                        kb.cuda
                            .release
                            .iter()
                            .find(|r| r.version == v)
                            .map(|r| cited(r, &kb.cuda.sources, &r.source))
                    }),
                    minor_compat: minor_compat_cited(kb, c.major()),
                })
                .collect();
            Some(FrameworkBuildAnswer { build: b, cited: src, requires_cited, needs })
        })
        .collect();
    Ok(FrameworkAnswer { framework: fw, asked: asked.cloned(), data_checked: checked, builds })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kb() -> &'static Kb {
        crate::kb::kb().expect("the embedded knowledge base loads")
    }

    fn d(s: &str) -> DriverVersion {
        s.parse().unwrap()
    }

    #[test]
    fn a_535_driver_runs_cuda_12_2_natively_and_all_12x_with_minor_version_compatibility() {
        let a = driver(kb(), &d("535.104.05"));
        assert_eq!(a.newest_native.as_ref().unwrap().row.label, "CUDA 12.2 Update 2");
        let f12 = a.families.iter().find(|f| f.major == 12).unwrap();
        assert_eq!(f12.support, FamilySupport::MinorCompat);
        assert_eq!(f12.newest_native, Some(CudaVersion::new(12, 2)));
        let f13 = a.families.iter().find(|f| f.major == 13).unwrap();
        assert_eq!(f13.support, FamilySupport::None);
        let cu121_24 = a.pytorch.iter().find(|p| p.tag == "cu121" && p.torch.to_string() == "2.4").unwrap();
        assert_eq!(cu121_24.runs, Runs::Fully);
        let cu128 = a.pytorch.iter().find(|p| p.tag == "cu128" && p.torch.to_string() == "2.7").unwrap();
        assert_eq!(cu128.runs, Runs::MinorCompat);
        let cu130 = a.pytorch.iter().find(|p| p.tag == "cu130" && p.torch.to_string() == "2.11").unwrap();
        assert_eq!(cu130.runs, Runs::No);
    }

    #[test]
    fn a_driver_below_the_12x_minimum_runs_no_cuda_12_build() {
        let a = driver(kb(), &d("520.61.05"));
        assert!(a.pytorch.iter().filter(|p| p.cuda.major == 12).all(|p| p.runs == Runs::No));
        assert!(a.pytorch.iter().filter(|p| p.tag == "cu118").all(|p| p.runs == Runs::Fully));
    }

    #[test]
    fn a_driver_newer_than_every_known_branch_says_so() {
        let a = driver(kb(), &d("999.10"));
        assert!(a.newer_than_known);
        assert!(!driver(kb(), &d("580.95.05")).newer_than_known);
    }

    #[test]
    fn unknown_and_newer_versions_are_errors_not_guesses() {
        assert!(matches!(cuda(kb(), CudaVersion::new(14, 0)), Err(QueryError::Newer { .. })));
        assert!(matches!(cuda(kb(), CudaVersion::new(12, 7)), Err(QueryError::NotFound { .. })));
        assert!(matches!(torch(kb(), &"9.1".parse().unwrap()), Err(QueryError::Newer { .. })));
        assert!(matches!(cudnn(kb(), &"10.0".parse().unwrap()), Err(QueryError::Newer { .. })));
        let e = cuda(kb(), CudaVersion::new(14, 0)).unwrap_err().to_string();
        assert!(e.contains("unknown to this knowledge base (data of 2026-11"), "{e}");
    }

    #[test]
    fn torch_builds_resolve_their_toolkit_update_when_the_exact_toolkit_is_known() {
        let a = torch(kb(), &"2.11.0".parse().unwrap()).unwrap();
        let cu130 = a.builds.iter().find(|b| b.build.tag == "cu130").unwrap();
        assert_eq!(cu130.toolkit.as_ref().unwrap().row.label, "CUDA 13.0 Update 2");
        assert_eq!(
            cu130.install,
            "pip install 'torch==2.11.0' --index-url https://download.pytorch.org/whl/cu130"
        );
    }

    #[test]
    fn cudnn_patch_releases_without_their_own_matrix_say_which_matrix_answers() {
        let a = cudnn(kb(), &"8.9.7".parse().unwrap()).unwrap();
        assert_eq!(a.matched, CudnnMatch::SameMinor);
        assert_eq!(a.release.row.version.to_string(), "8.9.6");
        let a = cudnn(kb(), &"9.19.0".parse().unwrap()).unwrap();
        assert_eq!(a.matched, CudnnMatch::NearestOlder);
        assert!(a.known_release);
        assert_eq!(a.release.row.version.to_string(), "9.17.0");
    }

    #[test]
    fn a_patch_release_is_answered_by_the_nearest_older_matrix_of_its_minor_not_a_newer_one() {
        // 7.6.2 predates 7.6.3 and 7.6.5 (which adds CUDA 10.2): the 7.6.0 matrix answers.
        let a = cudnn(kb(), &"7.6.2".parse().unwrap()).unwrap();
        assert_eq!((a.matched, a.release.row.version.to_string()), (CudnnMatch::SameMinor, "7.6.0".into()));
        let a = cudnn(kb(), &"7.6.4".parse().unwrap()).unwrap();
        assert_eq!((a.matched, a.release.row.version.to_string()), (CudnnMatch::Exact, "7.6.3".into()));
        let a = cudnn(kb(), &"8.2.4".parse().unwrap()).unwrap();
        assert_eq!((a.matched, a.release.row.version.to_string()), (CudnnMatch::SameMinor, "8.2.2".into()));
        // A bare minor takes its newest matrix.
        let a = cudnn(kb(), &"9.5".parse().unwrap()).unwrap();
        assert_eq!(a.release.row.version.to_string(), "9.5.1");
        // No 8.6 matrix: the nearest older one of cuDNN 8 answers, and says so.
        let a = cudnn(kb(), &"8.6.0".parse().unwrap()).unwrap();
        assert_eq!(
            (a.matched, a.release.row.version.to_string()),
            (CudnnMatch::NearestOlder, "8.5.0".into())
        );
    }
}
