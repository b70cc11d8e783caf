//! Probe: every copy of the CUDA libraries (cudart, cuBLAS, cuBLASLt, cuDNN and its
//! sub-libraries, NCCL, NVRTC, cuFFT, cuRAND, cuSPARSE, cuSOLVER, nvJitLink, CUPTI).
//!
//! Directories listed (never walked, never read): the toolkits' library directories, the system
//! directories, the directories of `/etc/ld.so.conf` (its `include` lines followed),
//! `$LD_LIBRARY_PATH`, the pip wheels' `site-packages/nvidia/*/lib` (the unified
//! `nvidia/cu13/lib` included), every environment's `site-packages/torch/lib` (old torch wheels,
//! 1.x, bundle cudart, cuBLAS, NVRTC there, some under auditwheel's hashed names such as
//! `libcudart-80664282.so.10.2`) and conda environments' `lib/`. One [`CudaLibrary`] per real file,
//! links resolved so that a file reached through two directories counts once. Version: the file
//! name (`libcudart.so.13.0.96`), else the wheel's METADATA or the package that owns the file,
//! else the major in the name (`libcudnn.so.9`). A library bundled in `torch/lib` belongs to the
//! environment's `torch` wheel, whose version is torch's, never the library's.

use crate::probe::packages::{Package, PackageIndex};
use crate::probe::problem;
use crate::probe::toolkits::{self, so_full_version, so_version};
use crate::report::{
    CudaLibrary, Evidence, Fact, LibraryKind, Origin, PackageManager, PythonEnvKind, Report,
};
use crate::system::{EntryKind, System};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

const PROBE: &str = "libraries";
const SYSTEM_DIRS: [&str; 8] = [
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib/sbsa-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/lib",
    "/lib/x86_64-linux-gnu",
    "/lib64",
];

/// The library kind a file name belongs to (`libcudnn_graph.so.9` → cuDNN), for shared objects
/// only (`libcudart_static.a`, `libcufftw.so` and `libnvrtc-builtins.so` are not these libraries).
/// A name that auditwheel made unique inside a wheel (`libcudart-80664282.so.10.2`: `-` and
/// eight lowercase hex digits before `.so`) is the library it renames.
pub fn classify(file_name: &str) -> Option<LibraryKind> {
    let (base, _) = file_name.split_once(".so")?;
    let rest = &file_name[base.len()..];
    if !(rest == ".so" || rest.starts_with(".so.")) {
        return None;
    }
    let base = strip_auditwheel_hash(base);
    Some(match base {
        "libcudart" => LibraryKind::Cudart,
        "libcublas" => LibraryKind::Cublas,
        "libcublasLt" => LibraryKind::CublasLt,
        "libnccl" => LibraryKind::Nccl,
        "libnvrtc" => LibraryKind::Nvrtc,
        "libcufft" => LibraryKind::Cufft,
        "libcurand" => LibraryKind::Curand,
        "libcusparse" => LibraryKind::Cusparse,
        "libcusolver" => LibraryKind::Cusolver,
        "libnvJitLink" => LibraryKind::NvJitLink,
        "libcupti" => LibraryKind::Cupti,
        b if b == "libcudnn" || b.starts_with("libcudnn_") => LibraryKind::Cudnn,
        _ => return None,
    })
}

/// A file name without auditwheel's hash: `libcudart-80664282.so.10.2` → `libcudart.so.10.2`
/// (the library's SONAME); any other name as it is.
pub fn without_auditwheel_hash(file_name: &str) -> String {
    match file_name.split_once(".so") {
        Some((base, rest)) => format!("{}.so{rest}", strip_auditwheel_hash(base)),
        None => file_name.to_string(),
    }
}

/// `libcudart-80664282` → `libcudart`: auditwheel's `-` + 8 lowercase hex digits removed; any
/// other name as it is.
fn strip_auditwheel_hash(base: &str) -> &str {
    match base.rsplit_once('-') {
        Some((stem, hash))
            if !stem.is_empty()
                && hash.len() == 8
                && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            stem
        }
        _ => base,
    }
}

/// Directories of `/etc/ld.so.conf`, includes followed: the loader model's reading of it
/// ([`crate::loader::conf::read_conf`]), so that both agree on what the configuration says.
fn ld_so_conf_dirs(sys: &System, report: &mut Report) -> Vec<PathBuf> {
    let conf = Path::new("/etc/ld.so.conf");
    if let Err(e) = sys.read_head(conf, 1) {
        if e.kind() != std::io::ErrorKind::NotFound {
            problem(report, PROBE, Some("/etc/ld.so.conf"), format!("unreadable: {e}"));
        }
    }
    crate::loader::conf::read_conf(sys).into_iter().map(|c| c.dir).collect()
}

/// Every directory to list, in order, links resolved, without duplicates.
fn search_dirs(sys: &System, report: &mut Report) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for tk in &report.cuda.toolkits {
        dirs.extend(toolkits::lib_dirs(sys, Path::new(&tk.root)));
    }
    dirs.extend(SYSTEM_DIRS.iter().map(PathBuf::from));
    dirs.extend(ld_so_conf_dirs(sys, report));
    if let Some(v) = sys.env("LD_LIBRARY_PATH") {
        dirs.extend(v.split(':').filter(|p| p.starts_with('/')).map(PathBuf::from));
    }
    for env in &report.host.python_envs {
        for sp in &env.site_packages {
            let nvidia = Path::new(sp).join("nvidia");
            if let Ok(entries) = sys.read_dir(&nvidia) {
                dirs.extend(
                    entries
                        .iter()
                        .filter(|e| matches!(e.kind, EntryKind::Dir | EntryKind::Symlink))
                        .map(|e| e.path.join("lib")),
                );
            }
            dirs.push(Path::new(sp).join("torch").join("lib"));
        }
        if env.kind == PythonEnvKind::Conda {
            dirs.push(Path::new(&env.prefix).join("lib"));
        }
    }
    toolkits::existing_dirs(sys, dirs)
}

/// Adds every CUDA library file of `sys` to `report.libraries`.
pub fn probe(sys: &System, index: &PackageIndex, report: &mut Report) {
    let dirs = search_dirs(sys, report);
    // Real path → (kind, the paths that reach it: itself first, then links).
    let mut files: BTreeMap<PathBuf, (LibraryKind, Vec<PathBuf>)> = BTreeMap::new();
    let mut order: Vec<PathBuf> = Vec::new();
    for dir in &dirs {
        let entries = match sys.read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                problem(report, PROBE, Some(&dir.display().to_string()), format!("unreadable: {e}"));
                continue;
            }
        };
        let kinds: HashMap<&str, EntryKind> = entries.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        let mut targets: HashMap<String, PathBuf> = HashMap::new();
        for e in &entries {
            let Some(kind) = classify(&e.name) else { continue };
            let real = match e.kind {
                EntryKind::File => e.path.clone(),
                EntryKind::Symlink => match follow_in_dir(sys, dir, &e.name, &kinds, &mut targets) {
                    Ok(real) => real,
                    Err(None) => continue,
                    Err(Some(err)) => {
                        problem(report, PROBE, Some(&e.path.display().to_string()), err);
                        continue;
                    }
                },
                _ => continue,
            };
            let slot = files.entry(real.clone()).or_insert_with(|| {
                order.push(real.clone());
                (kind, vec![real.clone()])
            });
            if e.path != real && !slot.1.contains(&e.path) {
                slot.1.push(e.path.clone());
            }
        }
    }
    for real in order {
        let (kind, paths) = &files[&real];
        report.libraries.push(library(sys, index, report, *kind, &real, paths));
    }
}

/// Follows a link of a (resolved) directory to the real file it names. Links to a name in the
/// same directory (the usual `libX.so -> libX.so.N -> libX.so.N.M.P` chain) are followed with
/// the directory's listing and one `readlink` each; any other target goes through
/// [`System::resolve`]. `Err(None)`: not a file (a directory); `Err(Some(why))`: broken.
fn follow_in_dir(
    sys: &System,
    dir: &Path,
    name: &str,
    kinds: &HashMap<&str, EntryKind>,
    targets: &mut HashMap<String, PathBuf>,
) -> Result<PathBuf, Option<String>> {
    let mut current = name.to_string();
    for _ in 0..16 {
        match kinds.get(current.as_str()) {
            Some(EntryKind::File) => return Ok(dir.join(&current)),
            Some(EntryKind::Symlink) => {}
            Some(_) => return Err(None),
            None => {
                let link = dir.join(name).display().to_string();
                return Err(Some(format!(
                    "dangling link: {link} -> {current} (missing: {})",
                    dir.join(&current).display()
                )));
            }
        }
        let target = match targets.get(&current) {
            Some(t) => t.clone(),
            None => {
                let t =
                    sys.read_link(&dir.join(&current)).map_err(|e| Some(format!("unreadable link: {e}")))?;
                targets.insert(current.clone(), t.clone());
                t
            }
        };
        match target.to_str() {
            Some(t) if !t.contains('/') && !t.is_empty() && t != "." && t != ".." => current = t.to_string(),
            _ => break,
        }
    }
    match sys.resolve(&dir.join(&current)) {
        Ok(r) if sys.symlink_metadata(&r.path).is_ok_and(|m| m.is_file()) => Ok(r.path),
        Ok(_) => Err(None),
        Err(e) => Err(Some(e.to_string())),
    }
}

fn library(
    sys: &System,
    index: &PackageIndex,
    report: &Report,
    kind: LibraryKind,
    real: &Path,
    paths: &[PathBuf],
) -> CudaLibrary {
    let dir = real.parent().unwrap_or(Path::new("/"));
    let real_name = real.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
    let links: Vec<String> = paths
        .iter()
        .skip(1)
        .map(|p| match p.parent() {
            Some(d) if d == dir => p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string(),
            _ => p.display().to_string(),
        })
        .collect();
    // The name the loader asks for: the name with the fewest version numbers after `.so.`
    // (`libcudnn.so.9`, `libcudart.so.11.0`), else the real name.
    let name = std::iter::once(&real_name)
        .chain(links.iter())
        .map(|n| n.rsplit('/').next().unwrap_or(n))
        .filter_map(|n| so_version(n).map(|v| (v.parts().len(), n)))
        .min_by_key(|(parts, _)| *parts)
        .map_or_else(|| real_name.clone(), |(_, n)| n.to_string());
    let listed_owner = index.owner_of_any(paths.iter().map(PathBuf::as_path));
    // A torch wheel's RECORD is not indexed (too large): its `torch/lib` is attributed here.
    let bundled_in = match listed_owner {
        Some(_) => None,
        None => paths.iter().find_map(|p| bundling_wheel(index, p)),
    };
    let owner = listed_owner.or(bundled_in);
    let toolkit_root = report
        .cuda
        .toolkits
        .iter()
        .find(|tk| real.starts_with(&tk.root) && !matches!(tk.origin, Origin::Pip { .. }))
        .map(|tk| tk.root.clone());
    let file_version = so_full_version(&real_name);
    let guessed = match owner {
        Some(_) => None,
        None => guess_system_package(index, kind, &real_name, toolkit_root.as_deref(), file_version.as_ref()),
    };
    let package = owner.or(guessed);
    let version = match (file_version, package) {
        // The wheel's version is torch's, not the bundled library's: the name alone says.
        (v, Some(_)) if bundled_in.is_some() => v
            .or_else(|| so_version(&real_name))
            .map(|v| Fact::new(v, Evidence::file_name(real.display().to_string()))),
        (Some(v), Some(p)) => {
            let mut fact = Fact::new(v, Evidence::file_name(real.display().to_string()));
            if p.upstream_version()
                .is_some_and(|pv| pv.matches_prefix(&fact.value) || fact.value.matches_prefix(&pv))
            {
                fact.evidence.push(p.evidence());
            }
            Some(fact)
        }
        (Some(v), None) => Some(Fact::new(v, Evidence::file_name(real.display().to_string()))),
        (None, Some(p)) => p.upstream_version().map(|v| Fact::new(v, p.evidence())),
        (None, None) => {
            so_version(&real_name).map(|v| Fact::new(v, Evidence::file_name(real.display().to_string())))
        }
    };
    let origin = match (package, toolkit_root) {
        (Some(p), _) => p.origin(),
        (None, Some(root)) => Origin::Toolkit { root },
        (None, None) => Origin::Unknown,
    };
    let size = sys.symlink_metadata(real).map(|m| m.len()).unwrap_or(0);
    CudaLibrary { kind, name, path: real.display().to_string(), links, version, origin, size }
}

/// The wheel that carries a library in its own package directory: the `torch` wheel of the
/// site-packages holding `torch/lib/<file>` (old torch wheels bundle cudart, cuBLAS, NVRTC).
fn bundling_wheel<'a>(index: &'a PackageIndex, file: &Path) -> Option<&'a Package> {
    let lib_dir = file.parent()?;
    let module_dir = lib_dir.parent()?;
    if lib_dir.file_name()? != "lib" || module_dir.file_name()? != "torch" {
        return None;
    }
    index.pip(module_dir.parent()?.to_str()?, "torch")
}

/// When no file list names the owner, NVIDIA's Debian/Ubuntu package naming does: a library in
/// `/usr/local/cuda-X.Y` comes from `<package>-X-Y`, cuDNN from `libcudnnN[-cuda-M]`, NCCL from
/// `libncclN`. Accepted only when the package's version agrees with the file name's.
fn guess_system_package<'a>(
    index: &'a PackageIndex,
    kind: LibraryKind,
    file_name: &str,
    toolkit_root: Option<&str>,
    file_version: Option<&crate::version::Version>,
) -> Option<&'a Package> {
    let major = so_version(file_name).map(|v| v.major());
    let suffix = toolkit_root
        .and_then(|r| Path::new(r).file_name()?.to_str()?.strip_prefix("cuda-").map(|v| v.replace('.', "-")));
    let candidates: Vec<&Package> = match kind {
        LibraryKind::Cudnn => {
            let major = major?;
            let stem = format!("libcudnn{major}");
            index
                .system_matching(move |n| {
                    n == stem || (n.starts_with(&format!("{stem}-cuda-")) && !n.contains("-dev"))
                })
                .collect()
        }
        LibraryKind::Nccl => {
            let name = format!("libnccl{}", major?);
            index.system(&name).into_iter().collect()
        }
        _ => {
            let suffix = suffix?;
            let stem = match kind {
                LibraryKind::Cudart => "cuda-cudart",
                LibraryKind::Cublas | LibraryKind::CublasLt => "libcublas",
                LibraryKind::Nvrtc => "cuda-nvrtc",
                LibraryKind::Cufft => "libcufft",
                LibraryKind::Curand => "libcurand",
                LibraryKind::Cusparse => "libcusparse",
                LibraryKind::Cusolver => "libcusolver",
                LibraryKind::NvJitLink => "libnvjitlink",
                LibraryKind::Cupti => "cuda-cupti",
                LibraryKind::Cudnn | LibraryKind::Nccl => return None,
            };
            index.system(&format!("{stem}-{suffix}")).into_iter().collect()
        }
    };
    candidates.into_iter().filter(|p| p.manager == PackageManager::Dpkg).find(|p| {
        match (file_version, p.upstream_version()) {
            (Some(fv), Some(pv)) => pv.matches_prefix(fv) || fv.matches_prefix(&pv),
            _ => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_are_classified() {
        assert_eq!(classify("libcudart.so.13.0.96"), Some(LibraryKind::Cudart));
        assert_eq!(classify("libcudnn_engines_precompiled.so.9"), Some(LibraryKind::Cudnn));
        assert_eq!(classify("libcublasLt.so.13"), Some(LibraryKind::CublasLt));
        assert_eq!(classify("libnccl.so.2"), Some(LibraryKind::Nccl));
        assert_eq!(classify("libnvJitLink.so.13.0.88"), Some(LibraryKind::NvJitLink));
        for other in [
            "libcudart_static.a",
            "libcufftw.so.12",
            "libnvrtc-builtins.so.13.0",
            "libcudnn.sox",
            "libcuda.so.1",
        ] {
            assert_eq!(classify(other), None, "{other}");
        }
    }

    #[test]
    fn auditwheel_hash_is_removed_from_file_names() {
        assert_eq!(without_auditwheel_hash("libcudart-80664282.so.10.2"), "libcudart.so.10.2");
        assert_eq!(without_auditwheel_hash("libnvrtc-builtins.so"), "libnvrtc-builtins.so");
        assert_eq!(without_auditwheel_hash("libcublas.so.10"), "libcublas.so.10");
        assert_eq!(without_auditwheel_hash("README"), "README");
    }

    #[test]
    fn auditwheel_hashed_names_are_the_library_they_rename() {
        // torch 1.12.1+cu102's torch/lib.
        assert_eq!(classify("libcudart-80664282.so.10.2"), Some(LibraryKind::Cudart));
        assert_eq!(classify("libnvrtc-08c4863f.so.10.2"), Some(LibraryKind::Nvrtc));
        assert_eq!(classify("libcublasLt-0123abcd.so.10"), Some(LibraryKind::CublasLt));
        assert_eq!(classify("libcudnn_ops_infer-deadbeef.so.8"), Some(LibraryKind::Cudnn));
        for other in [
            "libnvrtc-builtins.so",          // NVRTC's builtins, not NVRTC
            "libnvrtc-builtins-80664282.so", // the same, hashed
            "libcudart_static.a",
            "libcudart-80664282.a",
            "libcudart-8066428.so.10.2",   // seven digits
            "libcudart-806642821.so.10.2", // nine
            "libcudart-8066428A.so.10.2",  // uppercase
            "libcudart-8066428g.so.10.2",  // not hex
            "libcudart80664282.so.10.2",   // no dash
            "-80664282.so.10.2",
            "libnvToolsExt-3965bdd0.so.1",
            "libgomp-a34b3233.so.1",
        ] {
            assert_eq!(classify(other), None, "{other}");
        }
    }
}
