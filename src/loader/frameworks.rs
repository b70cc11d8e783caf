//! What frameworks and vendor libraries load beyond `DT_NEEDED`, and the CUDA libraries a
//! framework install really gets on this machine.
//!
//! - Libraries that `dlopen` others by name: cuDNN 8 and 9 load their sub-libraries
//!   (`libcudnn_graph.so.9`, …) from `libcudnn.so.N`; the CUDA runtime loads `libcuda.so.1`.
//!   The search uses the caller's own RPATH/RUNPATH (see [`super::Loader::dlopen`]).
//! - PyTorch's `torch/__init__.py` loads `torch/lib/libtorch_global_deps.so` by full path first;
//!   when that fails because a CUDA library is not found, `_preload_cuda_deps` loads each one
//!   from `site-packages/nvidia/<pkg>/lib` (and `nvidia/cuXX/lib`) by full path and retries.
//! - Where a library file cannot be read (an empty placeholder in a fixture tree), what is
//!   known of it is assumed and said so: cuDNN libraries carry `DT_RUNPATH=$ORIGIN`, PyTorch
//!   wheel libraries a `DT_RPATH` listing the `nvidia/*/lib` directories of site-packages, or,
//!   for old (1.x) wheels that bundle their CUDA libraries in `torch/lib`, `DT_RUNPATH=$ORIGIN`.

use super::{Loader, Outcome, Request, Resolution, Step, Target};
use crate::binary::elf::{self, BinaryFacts};
use crate::binary::fatbin::{Fatbin, Target as GpuTarget};
use crate::system::System;
use crate::version::Version;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Dynamic facts assumed for a library whose file could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Assumed {
    /// Assumed `DT_RPATH`.
    pub rpath: Option<String>,
    /// Assumed `DT_RUNPATH`.
    pub runpath: Option<String>,
    /// Assumed `DT_NEEDED`.
    pub needed: Vec<String>,
}

/// CUDA library families PyTorch's `libtorch_cuda.so` links (readelf -d on the H200 machine of
/// tests/fixtures/h200-cuda13-torch211/FACTS.md).
const TORCH_CUDA_NEEDS: &[&str] =
    &["cudart", "cublas", "cublasLt", "cudnn", "nccl", "cusparse", "cufft", "curand", "cufile", "cusparseLt"];

/// What is assumed for a library at `path` (requested as `name`) whose file could not be read,
/// and why. `sys` is used to list the wheel directories a PyTorch RPATH would name.
pub fn assumed_dynamic(sys: &System, name: &str, path: &Path) -> (Option<Assumed>, String) {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| name.to_string());
    if file.starts_with("libcudnn") {
        return (
            Some(Assumed { runpath: Some("$ORIGIN".into()), ..Assumed::default() }),
            "not readable as ELF; cuDNN libraries carry DT_RUNPATH=$ORIGIN, assumed".into(),
        );
    }
    let in_torch_lib = path.parent().is_some_and(|p| p.ends_with("torch/lib"));
    if in_torch_lib && file.starts_with("lib") && file.contains(".so") {
        let site = path.parent().and_then(Path::parent).and_then(Path::parent);
        let lib_dirs = site.map(|s| wheel_lib_dirs(sys, s)).unwrap_or_default();
        let bundled = path.parent().map(|d| bundled_cuda_libraries(sys, d)).unwrap_or_default();
        if lib_dirs.is_empty() && !bundled.is_empty() {
            let needed = if file == "libtorch_cuda.so" { bundled } else { Vec::new() };
            return (
                Some(Assumed { rpath: None, runpath: Some("$ORIGIN".into()), needed }),
                "not readable as ELF; torch wheels that bundle their CUDA libraries in torch/lib \
                 (1.x) carry DT_RUNPATH=$ORIGIN, assumed (needed: the CUDA runtime, cuBLAS, cuDNN \
                 and NCCL found there)"
                    .into(),
            );
        }
        let mut rpath: Vec<String> =
            lib_dirs.iter().map(|(pkg, _)| format!("$ORIGIN/../../nvidia/{pkg}/lib")).collect();
        rpath.push("$ORIGIN".into());
        let needed = if file == "libtorch_cuda.so" {
            TORCH_CUDA_NEEDS.iter().filter_map(|fam| wheel_soname(sys, &lib_dirs, fam)).collect()
        } else {
            Vec::new()
        };
        return (
            Some(Assumed { rpath: Some(rpath.join(":")), runpath: None, needed }),
            "not readable as ELF; PyTorch wheel libraries carry a DT_RPATH of the site-packages \
             nvidia/*/lib directories, assumed (needed libraries assumed from those directories)"
                .into(),
        );
    }
    (None, "not readable as ELF; its needs and search paths are unknown".into())
}

/// The CUDA runtime, cuBLAS, cuDNN and NCCL files an old torch wheel bundles in `torch/lib`
/// (`libcudart-80664282.so.10.2`, `libcublas.so.10`), one per family (its shortest name):
/// what its `libtorch_cuda.so` links when the file cannot be read (readelf -d on torch
/// 1.12.1+cu102, tests/fixtures/pip-torch112-cu102/FACTS.md).
fn bundled_cuda_libraries(sys: &System, torch_lib: &Path) -> Vec<String> {
    use crate::report::LibraryKind;
    let Ok(entries) = sys.read_dir(torch_lib) else { return Vec::new() };
    let mut names: Vec<String> = entries.into_iter().map(|e| e.name).collect();
    names.sort_by_key(|n| (n.len(), n.clone()));
    let mut out: Vec<(LibraryKind, String)> = Vec::new();
    for name in names {
        let Some(kind) = crate::probe::libraries::classify(&name) else { continue };
        let wanted = matches!(kind, LibraryKind::Cudart | LibraryKind::Cublas | LibraryKind::Nccl)
            || (kind == LibraryKind::Cudnn && !name.contains('_'));
        if wanted && !out.iter().any(|(k, _)| *k == kind) {
            out.push((kind, name));
        }
    }
    // In the order libtorch_cuda.so's DT_NEEDED has them: the runtime first.
    out.sort_by_key(|(kind, _)| *kind);
    out.into_iter().map(|(_, name)| name).collect()
}

/// The `nvidia/<pkg>/lib` directories of a site-packages directory: (package, machine path).
pub fn wheel_lib_dirs(sys: &System, site_packages: &Path) -> Vec<(String, PathBuf)> {
    let nvidia = site_packages.join("nvidia");
    let Ok(entries) = sys.read_dir(&nvidia) else { return Vec::new() };
    entries
        .into_iter()
        .map(|e| (e.name.clone(), e.path.join("lib")))
        .filter(|(_, lib)| sys.is_dir(lib))
        .collect()
}

/// The versioned name (`libcublas.so.13`) of a library family in the wheel directories.
fn wheel_soname(sys: &System, dirs: &[(String, PathBuf)], family: &str) -> Option<String> {
    let prefix = format!("lib{family}.so.");
    dirs.iter().find_map(|(_, d)| {
        let entries = sys.read_dir(d).ok()?;
        entries
            .into_iter()
            .map(|e| e.name)
            .filter(|n| {
                n.strip_prefix(&prefix)
                    .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            })
            .min_by_key(String::len)
    })
}

/// The libraries an object `dlopen`s by name at run time, known from the vendors' behaviour.
pub fn dlopened_by(file_name: &str) -> Vec<String> {
    if let Some(major) = file_name.strip_prefix("libcudnn.so.").and_then(|v| v.split('.').next()) {
        let subs: &[&str] = match major {
            "9" => &[
                "graph",
                "engines_precompiled",
                "engines_runtime_compiled",
                "heuristic",
                "ops",
                "cnn",
                "adv",
            ],
            "8" => &["ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"],
            _ => &[],
        };
        return subs.iter().map(|s| format!("libcudnn_{s}.so.{major}")).collect();
    }
    if file_name.starts_with("libcudart.so.") {
        return vec!["libcuda.so.1".into()];
    }
    Vec::new()
}

/// Loads an object's `DT_NEEDED` tree, then what the loaded libraries `dlopen` (repeated until
/// nothing new), and returns every resolution in order.
pub fn load_with_dlopens(loader: &mut Loader<'_>, root: usize) -> Vec<Resolution> {
    let mut out = loader.load_needed_tree(root);
    let mut done = std::collections::BTreeSet::new();
    loop {
        let pending: Vec<(usize, String)> = loader
            .objects
            .iter()
            .enumerate()
            .filter(|(i, _)| !done.contains(i))
            .flat_map(|(i, o)| {
                let file = Path::new(&o.real_path).file_name().map(|f| f.to_string_lossy().into_owned());
                let by_name = o.names.iter().flat_map(|n| dlopened_by(n)).collect::<Vec<_>>();
                let by_file = file.map(|f| dlopened_by(&f)).unwrap_or_default();
                let mut all = by_name;
                all.extend(by_file);
                all.dedup();
                all.into_iter().map(move |n| (i, n))
            })
            .collect();
        let objects_before = loader.objects.len();
        for i in 0..objects_before {
            done.insert(i);
        }
        if pending.is_empty() {
            break;
        }
        for (caller, name) in pending {
            if out.iter().any(|r| r.name == name && r.request == Request::Dlopen) {
                continue;
            }
            out.extend(loader.dlopen(&name, caller));
        }
        if loader.objects.len() == objects_before {
            break;
        }
    }
    out
}

/// Warnings for cuDNN sub-libraries loaded from another directory than the `libcudnn.so.N`
/// that dlopened them: two cuDNN installs mixed in one process, which cuDNN and PyTorch
/// refuse ("cuDNN version incompatibility"). `root` is the real path of the object the
/// resolutions start from, when it may itself be the `libcudnn.so.N`.
pub fn cudnn_mixes(resolutions: &[Resolution], root: Option<&str>) -> Vec<String> {
    let dir_of = |p: &str| Path::new(p).parent().map(Path::to_path_buf).unwrap_or_default();
    let is_main =
        |p: &str| Path::new(p).file_name().is_some_and(|f| f.to_string_lossy().starts_with("libcudnn.so."));
    let main = resolutions
        .iter()
        .find_map(|p| match &p.outcome {
            Outcome::Found { real_path, .. } if p.name.starts_with("libcudnn.so.") => Some(real_path.clone()),
            _ => None,
        })
        .or_else(|| root.filter(|r| is_main(r)).map(str::to_string));
    let Some(main) = main else { return Vec::new() };
    // (directory, sub-libraries loaded from it) for every directory other than libcudnn's.
    let mut elsewhere: Vec<(PathBuf, Vec<&str>)> = Vec::new();
    for r in resolutions.iter().filter(|r| r.request == Request::Dlopen && r.name.starts_with("libcudnn_")) {
        let Outcome::Found { real_path, .. } = &r.outcome else { continue };
        let dir = dir_of(real_path);
        if dir == dir_of(&main) {
            continue;
        }
        match elsewhere.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, names)) => names.push(&r.name),
            None => elsewhere.push((dir, vec![&r.name])),
        }
    }
    elsewhere
        .into_iter()
        .map(|(dir, names)| {
            format!(
                "{} loaded from {} but {} from {}: two cuDNN installs mixed in one process \
                 (PyTorch stops with \"cuDNN version incompatibility\")",
                names.join(", "),
                dir.display(),
                Path::new(&main).file_name().unwrap_or_default().to_string_lossy(),
                dir_of(&main).display()
            )
        })
        .collect()
}

/// The main CUDA binary of a framework install (`…/site-packages/torch` →
/// `torch/lib/libtorch_cuda.so`), and what the framework loads by full path before it.
pub fn main_cuda_binary(sys: &System, location: &Path) -> Option<(PathBuf, Vec<PathBuf>)> {
    let name = location.file_name()?.to_string_lossy().into_owned();
    let site = location.parent()?;
    let first = |candidates: &[PathBuf]| candidates.iter().find(|p| sys.is_file(p)).cloned();
    let glob_in = |dir: &Path, pred: &dyn Fn(&str) -> bool| -> Option<PathBuf> {
        sys.read_dir(dir).ok()?.into_iter().find(|e| pred(&e.name)).map(|e| e.path)
    };
    match name.as_str() {
        "torch" => {
            let lib = location.join("lib");
            let main = first(&[
                lib.join("libtorch_cuda.so"),
                lib.join("libtorch_cuda_cu.so"),
                lib.join("libtorch_cuda_cpp.so"),
            ])?;
            let global = lib.join("libtorch_global_deps.so");
            let pre = if sys.is_file(&global) { vec![global] } else { Vec::new() };
            Some((main, pre))
        }
        "jaxlib" | "jax" | "jax_plugins" => {
            let plugins = site.join("jax_plugins");
            let dir = glob_in(&plugins, &|n| n.starts_with("xla_cuda"))?;
            Some((first(&[dir.join("xla_cuda_plugin.so")])?, Vec::new()))
        }
        n if n.starts_with("jax_cuda") && n.ends_with("_plugin") => {
            let plugins = site.join("jax_plugins");
            let dir = glob_in(&plugins, &|n| n.starts_with("xla_cuda"))?;
            Some((first(&[dir.join("xla_cuda_plugin.so")])?, Vec::new()))
        }
        n if n.starts_with("xla_cuda") => Some((first(&[location.join("xla_cuda_plugin.so")])?, Vec::new())),
        "cupy" => {
            let api = site.join("cupy_backends/cuda/api");
            let main = glob_in(&api, &|n| n.starts_with("runtime.") && n.ends_with(".so")).or_else(|| {
                glob_in(&location.join("_core"), &|n| n.starts_with("core.") && n.ends_with(".so"))
            })?;
            Some((main, Vec::new()))
        }
        "tensorflow" => {
            let main = first(&[
                location.join("python/_pywrap_tensorflow_internal.so"),
                location.join("libtensorflow_framework.so.2"),
            ])?;
            Some((main, Vec::new()))
        }
        "onnxruntime" => {
            Some((first(&[location.join("capi/libonnxruntime_providers_cuda.so")])?, Vec::new()))
        }
        "paddle" => Some((
            first(&[location.join("base/libpaddle.so"), location.join("fluid/libpaddle.so")])?,
            Vec::new(),
        )),
        _ => None,
    }
}

/// One CUDA library a framework gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedLibrary {
    /// The name asked for (`libcudnn.so.9`).
    pub name: String,
    /// Needed or dlopened.
    pub request: Request,
    /// The object that asked for it.
    pub requested_by: String,
    /// The machine path the loader opens; `None` when not found.
    pub path: Option<String>,
    /// The file behind it.
    pub real_path: Option<String>,
    /// The step that found it.
    pub step: Option<Step>,
    /// Its version (from the file name, else from the wheel METADATA that owns it).
    pub version: Option<Version>,
    /// Where the version was read.
    pub version_source: Option<String>,
    /// The load error, when the file found is refused.
    pub error: Option<String>,
    /// Every directory or file searched (for "not found").
    pub searched: Vec<String>,
}

/// The GPU code of a binary, summarised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArchSummary {
    /// Cubin count per target (`sm_90` → 444), in target order.
    pub cubins: Vec<(String, usize)>,
    /// PTX targets (`compute_90`).
    pub ptx: Vec<String>,
    /// Entries in all (cubins and PTX).
    pub entries: usize,
    /// Entries with compressed payloads.
    pub compressed: usize,
    /// Problems met while reading.
    pub problems: Vec<String>,
}

impl ArchSummary {
    /// Summarises a parsed fat binary.
    pub fn of(fb: &Fatbin) -> ArchSummary {
        let counts = fb.counts();
        ArchSummary {
            cubins: counts
                .iter()
                .filter(|(t, _)| t.kind == crate::binary::fatbin::EntryKind::Cubin)
                .map(|(t, n)| (t.to_string(), *n))
                .collect(),
            ptx: counts
                .keys()
                .filter(|t| t.kind == crate::binary::fatbin::EntryKind::Ptx)
                .map(GpuTarget::to_string)
                .collect(),
            entries: fb.entries.len(),
            compressed: fb.compressed(),
            problems: fb.problems.clone(),
        }
    }
}

/// The CUDA libraries a framework install gets on this machine, and its GPU code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CudaLinkage {
    /// The framework's main CUDA binary (machine path).
    pub binary: String,
    /// Why its ELF facts could not be read, when they could not.
    pub binary_error: Option<String>,
    /// CUDA libraries (cudart, cuBLAS, cuDNN and its sub-libraries, NCCL, …) as resolved.
    pub libraries: Vec<ResolvedLibrary>,
    /// The CUDA runtime it links (`libcudart.so.13`).
    pub cuda_runtime: Option<String>,
    /// Its fat binary, when it has one.
    pub archs: Option<ArchSummary>,
    /// cuDNN sub-libraries loaded from another directory than the libcudnn that dlopens
    /// them, one line per directory ([`cudnn_mixes`]).
    pub cudnn_mixes: Vec<String>,
    /// Assumptions made (unreadable files) and other remarks.
    pub notes: Vec<String>,
}

/// True for the names of CUDA libraries (and the driver's libcuda) worth reporting.
pub fn is_cuda_library(name: &str) -> bool {
    const FAMILIES: &[&str] = &[
        "libcudart",
        "libcublas",
        "libcublasLt",
        "libcudnn",
        "libnccl",
        "libnvrtc",
        "libcufft",
        "libcurand",
        "libcusparse",
        "libcusolver",
        "libnvJitLink",
        "libcupti",
        "libcufile",
        "libcusparseLt",
        "libcuda.",
        "libnvshmem",
        "libnvToolsExt",
        "libnvinfer",
    ];
    FAMILIES.iter().any(|f| name.starts_with(f))
}

/// Finds a framework's main CUDA binary under `location` (`…/site-packages/torch`), models
/// how the loader resolves its CUDA libraries under `sys`'s environment (including what it and
/// cuDNN `dlopen`, and PyTorch's preloading), and reads its fat binary. `None` when the
/// location holds no known CUDA binary.
pub fn framework_cuda(sys: &System, location: &Path) -> Option<CudaLinkage> {
    let (binary, preloads) = main_cuda_binary(sys, location)?;
    let host =
        sys.resolve(&binary).map(|r| sys.host_path(&r.path)).unwrap_or_else(|_| sys.host_path(&binary));
    let facts: Result<BinaryFacts, _> = elf::read_file(&host);
    let target = facts.as_ref().map(|f| Target::of(&f.elf)).unwrap_or(Target::X86_64);
    let mut loader = Loader::new(sys, target);
    let mut notes = Vec::new();
    let mut resolutions = loader.load_ld_preload();
    for p in &preloads {
        match loader.load_path(p, None) {
            Ok(i) => resolutions.extend(load_with_dlopens(&mut loader, i)),
            Err(e) => notes.push(format!("{}: {e}", p.display())),
        }
    }
    let root = match loader.load_path(&binary, None) {
        Ok(i) => i,
        Err(e) => {
            notes.push(format!("{}: {e}", binary.display()));
            return Some(CudaLinkage {
                binary: binary.display().to_string(),
                binary_error: Some(e),
                libraries: Vec::new(),
                cuda_runtime: None,
                archs: None,
                cudnn_mixes: Vec::new(),
                notes,
            });
        }
    };
    resolutions.extend(load_with_dlopens(&mut loader, root));
    if let super::Facts::Assumed(why) = &loader.objects[root].facts {
        notes.push(format!("{}: {why}", binary.display()));
    }
    if location.file_name().is_some_and(|n| n == "torch") {
        apply_torch_preload(sys, location, &mut resolutions);
    }
    let mixes = cudnn_mixes(&resolutions, None);
    let mut libraries: Vec<ResolvedLibrary> = Vec::new();
    for r in &resolutions {
        if !is_cuda_library(&r.name) || libraries.iter().any(|l| l.name == r.name) {
            continue;
        }
        if let Outcome::Found { step: Step::AlreadyLoaded, .. } = r.outcome {
            continue;
        }
        libraries.push(resolved_library(sys, r));
    }
    let cuda_runtime = loader
        .objects
        .iter()
        .flat_map(|o| o.names.iter())
        .chain(loader.objects[root].needed.iter())
        .map(|n| crate::probe::libraries::without_auditwheel_hash(n))
        .find(|n| n.starts_with("libcudart.so."));
    let binary_error = facts.as_ref().err().map(ToString::to_string);
    let archs = facts.ok().and_then(|f| f.fatbin).map(|fb| ArchSummary::of(&fb));
    Some(CudaLinkage {
        binary: binary.display().to_string(),
        binary_error,
        libraries,
        cuda_runtime,
        archs,
        cudnn_mixes: mixes,
        notes,
    })
}

/// PyTorch's fallback: a CUDA library that the loader cannot find is loaded from the nvidia
/// wheels of site-packages by full path (`_preload_cuda_deps`).
fn apply_torch_preload(sys: &System, torch: &Path, resolutions: &mut [Resolution]) {
    let Some(site) = torch.parent() else { return };
    let dirs = wheel_lib_dirs(sys, site);
    for r in resolutions.iter_mut().filter(|r| r.outcome == Outcome::NotFound && is_cuda_library(&r.name)) {
        if let Some((_, dir)) = dirs.iter().find(|(_, d)| sys.is_file(&d.join(&r.name))) {
            let path = dir.join(&r.name);
            let real = sys.resolve(&path).map(|x| x.path).unwrap_or_else(|_| path.clone());
            r.outcome = Outcome::Found {
                path: path.display().to_string(),
                real_path: real.display().to_string(),
                step: Step::Preload { by: "torch/__init__.py (_preload_cuda_deps)".into() },
                object: usize::MAX,
            };
        }
    }
}

fn resolved_library(sys: &System, r: &Resolution) -> ResolvedLibrary {
    let mut lib = ResolvedLibrary {
        name: r.name.clone(),
        request: r.request,
        requested_by: r.requested_by.clone(),
        path: None,
        real_path: None,
        step: None,
        version: None,
        version_source: None,
        error: None,
        searched: Vec::new(),
    };
    match &r.outcome {
        Outcome::Found { path, real_path, step, .. } => {
            lib.path = Some(path.clone());
            lib.real_path = Some(real_path.clone());
            lib.step = Some(step.clone());
            if let Some((v, source)) = library_version(sys, Path::new(real_path)) {
                lib.version = Some(v);
                lib.version_source = Some(source);
            }
        }
        Outcome::Failed { path, error } => {
            lib.path = Some(path.clone());
            lib.error = Some(error.clone());
        }
        Outcome::NotFound => lib.searched = r.tried.iter().map(|t| t.path.clone()).collect(),
    }
    lib
}

/// A library's version: from its file name (`libcudnn.so.9.14.0` → 9.14.0) when it has more
/// than the major, else from the wheel that owns it (`RECORD` lists it; the dist-info name
/// carries the version).
pub fn library_version(sys: &System, real_path: &Path) -> Option<(Version, String)> {
    let file = real_path.file_name()?.to_string_lossy().into_owned();
    if let Some((_, v)) = file.split_once(".so.") {
        if v.contains('.') {
            if let Ok(version) = v.parse::<Version>() {
                return Some((version, format!("file name {}", real_path.display())));
            }
        }
    }
    let site = real_path
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "site-packages" || n == "dist-packages"))?;
    let relative = real_path.strip_prefix(site).ok()?.to_string_lossy().into_owned();
    let owners = sys.memo(&format!("nvidia wheel RECORDs in {}", site.display()), || wheel_owners(sys, site));
    owners.get(&relative).cloned()
}

/// Which nvidia-* wheel of `site` installed each file: relative path → (wheel version, RECORD).
fn wheel_owners(sys: &System, site: &Path) -> std::collections::HashMap<String, (Version, String)> {
    let mut owners = std::collections::HashMap::new();
    for entry in sys.read_dir(site).unwrap_or_default() {
        if !entry.name.ends_with(".dist-info") || !entry.name.starts_with("nvidia") {
            continue;
        }
        let stem = entry.name.trim_end_matches(".dist-info");
        let Some(version) = stem.rsplit_once('-').and_then(|(_, v)| v.parse::<Version>().ok()) else {
            continue;
        };
        let record = entry.path.join("RECORD");
        let Ok(text) = sys.read_to_string(&record) else { continue };
        for line in text.lines() {
            if let Some(file) = line.split(',').next().filter(|f| f.contains(".so")) {
                owners
                    .entry(file.to_string())
                    .or_insert_with(|| (version.clone(), record.display().to_string()));
            }
        }
    }
    owners
}
