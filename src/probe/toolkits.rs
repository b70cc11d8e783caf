//! Probe: CUDA toolkits and the pointers to them (`/usr/local/cuda`, `$CUDA_HOME`,
//! `$CUDA_PATH`, the first `nvcc` on `PATH`).
//!
//! Toolkits are looked for in `/usr/local/cuda*`, `/opt/cuda*`, Debian's
//! `/usr/lib/nvidia-cuda-toolkit`, conda environments (a `cuda-*`/`cudatoolkit` package or a
//! `lib/libcudart.so*`) and pip wheels (`site-packages/nvidia/cu13`, the unified layout of the
//! CUDA 13 wheels, and `nvidia/cuda_runtime` of the CUDA 12 ones). Version sources, every one
//! kept in `version_sources`, by preference: `version.json` (or the older `version.txt`),
//! `nvcc --version` (live only, and only when no version file answered), the version of the
//! package that installed nvcc (the same number nvcc prints), `CUDA_VERSION` of
//! `include/cuda.h`, the `libcudart.so.X.Y.Z` file name, the package that owns the toolkit.

use crate::probe::packages::{Package, PackageIndex};
use crate::probe::problem;
use crate::report::{CudaToolkit, Evidence, Fact, Origin, PathChain, PythonEnvKind, Report};
use crate::system::{EntryKind, System};
use crate::version::{CudaVersion, Version};
use std::path::{Path, PathBuf};

const PROBE: &str = "toolkits";
const DEBIAN_TOOLKIT: &str = "/usr/lib/nvidia-cuda-toolkit";
/// Version headers are read only this far (CUDA_VERSION sits near the top of cuda.h, 1 MB long).
const HEADER_HEAD: u64 = 256 << 10;

/// Why a `version.json` gave no version.
#[derive(Debug, thiserror::Error)]
pub enum VersionJsonError {
    /// Not JSON.
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// JSON without `cuda.version`.
    #[error("expected a `cuda.version` string, found none")]
    Missing,
    /// A `cuda.version` that is no version.
    #[error(transparent)]
    Version(#[from] crate::version::VersionError),
}

/// Parses a toolkit's `version.json` (`{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, …}`).
pub fn parse_version_json(text: &str) -> Result<Version, VersionJsonError> {
    let value: serde_json::Value = serde_json::from_str(text)?;
    let v = value.get("cuda").and_then(|c| c.get("version")).and_then(|v| v.as_str());
    Ok(v.ok_or(VersionJsonError::Missing)?.parse()?)
}

/// Parses the `version.txt` of toolkits before 11.1 (`CUDA Version 10.2.89`).
pub fn parse_version_txt(text: &str) -> Option<Version> {
    text.lines().find_map(|l| l.trim().strip_prefix("CUDA Version")?.trim().parse().ok())
}

/// Parses `nvcc --version`: `Cuda compilation tools, release 13.0, V13.0.88` gives 13.0.88
/// (the `V` build number, else the release).
pub fn parse_nvcc_version(output: &str) -> Option<Version> {
    let line = output.lines().find(|l| l.contains("Cuda compilation tools"))?;
    let after = line.split_once("release")?.1;
    let (release, rest) = after.split_once(',').unwrap_or((after, ""));
    if let Some(v) = rest.trim().strip_prefix('V').and_then(|v| v.parse::<Version>().ok()) {
        return Some(v);
    }
    release.trim().parse().ok()
}

/// The value of `#define NAME <integer>` in a C header.
pub fn parse_define(text: &str, name: &str) -> Option<i64> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
        let mut words = rest.split_whitespace();
        if words.next()? != name {
            return None;
        }
        let value = words.next()?.trim_end_matches(['L', 'l', 'U', 'u']);
        value.parse().ok()
    })
}

/// `CUDA_VERSION` of `cuda.h` (`13000` → 13.0).
pub fn parse_cuda_h(text: &str) -> Option<CudaVersion> {
    CudaVersion::from_int(parse_define(text, "CUDA_VERSION")?)
}

/// The version in a shared library's file name when it has at least major and minor:
/// `libcudart.so.13.0.96` → 13.0.96; `libcudart.so.13` → None.
pub fn so_full_version(file_name: &str) -> Option<Version> {
    let v = so_version(file_name)?;
    (v.parts().len() >= 2).then_some(v)
}

/// The version after `.so.` in a file name (`libcudnn.so.9` → 9).
pub fn so_version(file_name: &str) -> Option<Version> {
    let (_, v) = file_name.split_once(".so.")?;
    let v: Version = v.parse().ok()?;
    v.suffix().is_empty().then_some(v)
}

/// Where a toolkit came from, for finding its files and package.
#[derive(Debug, Clone)]
enum Kind {
    /// `/usr/local/cuda-X.Y`, `/opt/cuda`.
    Tree,
    /// Debian's `nvidia-cuda-toolkit`.
    Debian,
    /// A conda environment.
    Conda,
    /// A pip wheel layout; the site-packages directory.
    Pip(String),
}

/// True when `resolved` (a path already free of links, from [`System::resolve`]) is a
/// directory: one `lstat` instead of a second walk of every component.
pub(crate) fn is_real_dir(sys: &System, resolved: &Path) -> bool {
    sys.symlink_metadata(resolved).is_ok_and(|m| m.is_dir())
}

/// The library directories of a toolkit root (`lib64`, `lib`, `targets/*/lib`), links resolved,
/// without duplicates.
pub fn lib_dirs(sys: &System, root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("lib64"), root.join("lib")];
    if let Ok(targets) = sys.read_dir(&root.join("targets")) {
        dirs.extend(targets.into_iter().map(|t| t.path.join("lib")));
    }
    existing_dirs(sys, dirs)
}

/// The directories among `dirs` that exist, links resolved, each once, in order.
pub(crate) fn existing_dirs(sys: &System, dirs: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for d in dirs {
        if let Ok(r) = sys.resolve(&d) {
            if is_real_dir(sys, &r.path) && !out.contains(&r.path) {
                out.push(r.path);
            }
        }
    }
    out
}

fn include_dirs(sys: &System, root: &Path, kind: &Kind) -> Vec<PathBuf> {
    if matches!(kind, Kind::Debian) {
        return vec![PathBuf::from("/usr/include")];
    }
    let mut dirs = vec![root.join("include")];
    if let Ok(targets) = sys.read_dir(&root.join("targets")) {
        dirs.extend(targets.into_iter().map(|t| t.path.join("include")));
    }
    dirs
}

/// Follows `path` link by link; a broken chain keeps the hops seen and says why.
pub fn path_chain(sys: &System, path: &Path) -> PathChain {
    let display = path.display().to_string();
    match sys.resolve(path) {
        Ok(r) => PathChain {
            path: display,
            links: r
                .links
                .iter()
                .map(|(l, t)| Evidence::Symlink {
                    path: l.display().to_string(),
                    target: t.display().to_string(),
                })
                .collect(),
            target: Some(r.path.display().to_string()),
            error: None,
        },
        Err(e) => {
            // Walk the last component's links by hand so the report shows the broken hops.
            let mut links = Vec::new();
            let mut cur = path.to_path_buf();
            for _ in 0..8 {
                let Ok(target) = sys.read_link(&cur) else { break };
                links.push(Evidence::Symlink {
                    path: cur.display().to_string(),
                    target: target.display().to_string(),
                });
                cur = if target.is_absolute() {
                    target
                } else {
                    cur.parent().unwrap_or(Path::new("/")).join(target)
                };
            }
            PathChain { path: display, links, target: None, error: Some(e.to_string()) }
        }
    }
}

struct Found {
    root: PathBuf,
    kind: Kind,
}

/// Adds the toolkits and pointers of `sys` to `report.cuda`.
pub fn probe(sys: &System, index: &PackageIndex, report: &mut Report) {
    let mut found: Vec<Found> = Vec::new();
    let add = |root: PathBuf, kind: Kind, found: &mut Vec<Found>| {
        if !found.iter().any(|f| f.root == root) {
            found.push(Found { root, kind });
        }
    };
    for parent in ["/usr/local", "/opt"] {
        let Ok(entries) = sys.read_dir(Path::new(parent)) else { continue };
        for e in entries.iter().filter(|e| e.name.starts_with("cuda")) {
            let Ok(r) = sys.resolve(&e.path) else { continue };
            if looks_like_toolkit(sys, &r.path) {
                add(r.path, Kind::Tree, &mut found);
            }
        }
    }
    if sys.is_dir(Path::new(DEBIAN_TOOLKIT)) {
        add(PathBuf::from(DEBIAN_TOOLKIT), Kind::Debian, &mut found);
    }
    for env in report.host.python_envs.iter() {
        if env.kind == PythonEnvKind::Conda && conda_has_cuda(sys, index, &env.prefix) {
            add(PathBuf::from(&env.prefix), Kind::Conda, &mut found);
        }
        for sp in &env.site_packages {
            for sub in ["nvidia/cu13", "nvidia/cu12", "nvidia/cuda_runtime"] {
                let root = Path::new(sp).join(sub);
                if sys.is_dir(&root) {
                    add(root, Kind::Pip(sp.clone()), &mut found);
                }
            }
        }
    }

    let mut toolkits: Vec<CudaToolkit> =
        found.iter().map(|f| toolkit(sys, index, report, &f.root, &f.kind)).collect();

    // The pointers.
    if sys.symlink_metadata(Path::new("/usr/local/cuda")).is_ok() {
        report.cuda.usr_local_cuda = Some(path_chain(sys, Path::new("/usr/local/cuda")));
    }
    if let Ok(entries) = sys.read_dir(Path::new("/usr/local")) {
        for e in entries.iter().filter(|e| e.kind == EntryKind::Symlink && e.name.starts_with("cuda")) {
            if let Ok(r) = sys.resolve(&e.path) {
                point(&mut toolkits, &r.path, &e.path.display().to_string());
            }
        }
    }
    for (var, slot) in [("CUDA_HOME", 0), ("CUDA_PATH", 1)] {
        let Some(value) = sys.env(var).filter(|v| !v.is_empty()) else { continue };
        let mut chain = path_chain(sys, Path::new(value));
        if !value.starts_with('/') {
            chain.error = Some("not an absolute path".to_string());
            chain.target = None;
        }
        if let Some(t) = &chain.target {
            point(&mut toolkits, Path::new(t), &format!("${var}"));
        }
        if slot == 0 {
            report.cuda.cuda_home = Some(chain);
        } else {
            report.cuda.cuda_path = Some(chain);
        }
    }
    if let Some(nvcc) = sys.which("nvcc") {
        let chain = path_chain(sys, &nvcc);
        if let Some(t) = &chain.target {
            let real = Path::new(t);
            let root = if real == Path::new("/usr/bin/nvcc") {
                PathBuf::from(DEBIAN_TOOLKIT)
            } else {
                real.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default()
            };
            point(&mut toolkits, &root, "nvcc on PATH");
        }
        report.cuda.nvcc_on_path = Some(chain);
    }
    report.cuda.toolkits.extend(toolkits);
}

fn point(toolkits: &mut [CudaToolkit], target: &Path, by: &str) {
    for tk in toolkits.iter_mut() {
        if Path::new(&tk.root) == target && !tk.pointed_to_by.iter().any(|p| p == by) {
            tk.pointed_to_by.push(by.to_string());
        }
    }
}

fn looks_like_toolkit(sys: &System, root: &Path) -> bool {
    ["bin/nvcc", "version.json", "version.txt", "include/cuda.h", "lib64", "targets"]
        .iter()
        .any(|p| sys.exists(&root.join(p)))
}

fn conda_has_cuda(sys: &System, index: &PackageIndex, prefix: &str) -> bool {
    index.conda_in(prefix).any(|p| is_conda_cuda_package(&p.name))
        || sys
            .read_dir(&Path::new(prefix).join("lib"))
            .map(|es| es.iter().any(|e| e.name.starts_with("libcudart.so")))
            .unwrap_or(false)
}

fn is_conda_cuda_package(name: &str) -> bool {
    matches!(name, "cudatoolkit" | "cuda-toolkit" | "cuda-cudart" | "cuda-nvcc" | "cuda-runtime")
}

fn toolkit(sys: &System, index: &PackageIndex, report: &mut Report, root: &Path, kind: &Kind) -> CudaToolkit {
    let root_s = root.display().to_string();
    let mut sources: Vec<Fact<Version>> = Vec::new();

    // 1. version.json / version.txt.
    if !matches!(kind, Kind::Pip(_)) {
        let json = root.join("version.json");
        match sys.read_head(&json, 1 << 20) {
            Ok(bytes) => match parse_version_json(&String::from_utf8_lossy(&bytes)) {
                Ok(v) => sources
                    .push(Fact::new(v, Evidence::file_detail(json.display().to_string(), "cuda.version"))),
                Err(e) => problem(report, PROBE, Some(&json.display().to_string()), e.to_string()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => problem(report, PROBE, Some(&json.display().to_string()), format!("unreadable: {e}")),
        }
        let txt = root.join("version.txt");
        if let Ok(bytes) = sys.read_head(&txt, 64 << 10) {
            match parse_version_txt(&String::from_utf8_lossy(&bytes)) {
                Some(v) => sources.push(Fact::new(v, Evidence::file(txt.display().to_string()))),
                None => problem(report, PROBE, Some(&txt.display().to_string()), "no `CUDA Version` line"),
            }
        }
    }

    // 2. nvcc --version: live only, and only when no version file answered (a subprocess
    // costs tens of milliseconds; a file a few microseconds).
    let nvcc =
        if matches!(kind, Kind::Debian) { PathBuf::from("/usr/bin/nvcc") } else { root.join("bin/nvcc") };
    let nvcc = sys.is_file(&nvcc).then_some(nvcc);
    if let Some(nvcc) = nvcc.as_ref().filter(|_| sys.is_live() && sources.is_empty()) {
        let outcome = sys.run(nvcc, &["--version"]);
        let command = format!("{} --version", nvcc.display());
        match outcome.stdout().and_then(parse_nvcc_version) {
            Some(v) => sources.push(Fact::new(v, Evidence::command(command))),
            None => problem(
                report,
                PROBE,
                Some(&command),
                outcome.failure().unwrap_or_else(|| "no `release` line in its output".to_string()),
            ),
        }
    }

    // 3. The package that installed nvcc records nvcc's own version (`cuda-nvcc-13-0`
    // 13.0.88, Debian's `nvidia-cuda-toolkit` 11.8.89): as precise as `nvcc --version`.
    let compiler = compiler_package(index, root, kind);
    if let Some(p) = compiler {
        if let Some(v) = p.upstream_version() {
            sources.push(Fact::new(v, p.evidence()));
        }
    }

    // 4. CUDA_VERSION of cuda.h.
    for dir in include_dirs(sys, root, kind) {
        let h = dir.join("cuda.h");
        let Ok(bytes) = sys.read_head(&h, HEADER_HEAD) else { continue };
        match parse_cuda_h(&String::from_utf8_lossy(&bytes)) {
            Some(v) => {
                let value = Version::from_parts(&[u64::from(v.major), u64::from(v.minor)]);
                sources
                    .push(Fact::new(value, Evidence::file_detail(h.display().to_string(), "CUDA_VERSION")));
            }
            None => {
                problem(report, PROBE, Some(&h.display().to_string()), "no plausible `#define CUDA_VERSION`")
            }
        }
        break;
    }

    // 5. libcudart.so.X.Y.Z.
    let libs = if matches!(kind, Kind::Debian) {
        vec![PathBuf::from("/usr/lib/x86_64-linux-gnu"), PathBuf::from("/usr/lib/aarch64-linux-gnu")]
    } else {
        lib_dirs(sys, root)
    };
    // The real file (`libcudart.so.11.8.89`), not the SONAME link (`libcudart.so.11.0`).
    'libs: for dir in libs {
        let Ok(entries) = sys.read_dir(&dir) else { continue };
        let best = entries
            .iter()
            .filter(|e| e.kind == EntryKind::File && e.name.starts_with("libcudart.so."))
            .filter_map(|e| so_full_version(&e.name).map(|v| (v, e)))
            .max_by_key(|(v, _)| v.parts().len());
        if let Some((v, e)) = best {
            sources.push(Fact::new(v, Evidence::file_name(e.path.display().to_string())));
            break 'libs;
        }
    }

    // 6. The package that owns the toolkit, when another than the compiler's.
    let package = owning_package(sys, index, root, kind);
    if let Some(p) = package.filter(|p| Some(*p) != compiler) {
        if let Some(v) = p.upstream_version() {
            sources.push(Fact::new(v, p.evidence()));
        }
    }

    // Last resort: the directory name (`cuda-12.4`).
    if sources.is_empty() {
        if let Some(v) = root
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("cuda-"))
            .and_then(|v| v.parse::<Version>().ok())
            .filter(|v| v.suffix().is_empty())
        {
            sources.push(Fact::new(v, Evidence::file_name(root_s.clone())));
        }
    }

    let version = sources.first().cloned().map(|mut best| {
        for other in sources.iter().skip(1) {
            if other.value.matches_prefix(&best.value) || best.value.matches_prefix(&other.value) {
                best.evidence.extend(other.evidence.iter().cloned());
            }
        }
        best
    });
    let origin = match (package, kind) {
        (Some(p), _) => p.origin(),
        (None, _) => Origin::Toolkit { root: root_s.clone() },
    };
    CudaToolkit {
        root: root_s,
        version,
        version_sources: sources,
        origin,
        nvcc: nvcc.map(|p| p.display().to_string()),
        pointed_to_by: Vec::new(),
    }
}

/// The package that installed the toolkit's nvcc, by name: NVIDIA's `cuda-nvcc-X-Y` for
/// `/usr/local/cuda-X.Y`, Debian's `nvidia-cuda-toolkit`, conda's `cuda-nvcc` (`cudatoolkit`
/// before CUDA 12). The pip layouts have none (no nvcc there).
fn compiler_package<'a>(index: &'a PackageIndex, root: &Path, kind: &Kind) -> Option<&'a Package> {
    match kind {
        Kind::Tree => {
            let suffix = root.file_name()?.to_str()?.strip_prefix("cuda-")?.replace('.', "-");
            index.system(&format!("cuda-nvcc-{suffix}"))
        }
        Kind::Debian => index.system("nvidia-cuda-toolkit"),
        Kind::Conda => {
            let prefix = root.display().to_string();
            let found = index.conda_in(&prefix).find(|p| p.name == "cuda-nvcc");
            found.or_else(|| index.conda_in(&prefix).find(|p| p.name == "cudatoolkit"))
        }
        Kind::Pip(_) => None,
    }
}

/// The package that installed a toolkit: the owner of its nvcc, cuda.h or libcudart in a file
/// list; else, for `/usr/local/cuda-X.Y`, NVIDIA's `cuda-*-X-Y` packages by name.
fn owning_package<'a>(
    sys: &System,
    index: &'a PackageIndex,
    root: &Path,
    kind: &Kind,
) -> Option<&'a Package> {
    match kind {
        Kind::Pip(sp) => {
            return ["nvidia-cuda-runtime", "nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime-cu12"]
                .iter()
                .find_map(|n| index.pip(sp, n));
        }
        Kind::Conda => {
            let prefix = root.display().to_string();
            for name in ["cuda-toolkit", "cudatoolkit", "cuda-nvcc", "cuda-cudart", "cuda-runtime"] {
                if let Some(p) = index.conda_in(&prefix).find(|p| p.name == name) {
                    return Some(p);
                }
            }
            return None;
        }
        Kind::Debian => return index.system("nvidia-cuda-toolkit"),
        Kind::Tree => {}
    }
    let probes = [root.join("bin/nvcc"), root.join("version.json"), root.join("include/cuda.h")];
    if let Some(p) = probes.iter().find_map(|p| index.owner(p)) {
        return Some(p);
    }
    for dir in lib_dirs(sys, root) {
        if let Ok(entries) = sys.read_dir(&dir) {
            if let Some(p) = entries
                .iter()
                .filter(|e| e.name.starts_with("libcudart.so"))
                .find_map(|e| index.owner(&e.path))
            {
                return Some(p);
            }
        }
    }
    let suffix = root.file_name()?.to_str()?.strip_prefix("cuda-")?.replace('.', "-");
    ["cuda-toolkit", "cuda-compiler", "cuda-nvcc", "cuda-libraries", "cuda-cudart", "cuda-runtime"]
        .iter()
        .find_map(|stem| index.system(&format!("{stem}-{suffix}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvcc_output_gives_the_build_version() {
        let out = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n\
                   Built on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n\
                   Build cuda_13.0.r13.0/compiler.36424714_0\n";
        assert_eq!(parse_nvcc_version(out).unwrap().to_string(), "13.0.88");
        assert_eq!(parse_nvcc_version("Cuda compilation tools, release 9.2\n").unwrap().to_string(), "9.2");
        assert!(parse_nvcc_version("bash: nvcc: command not found\n").is_none());
        assert!(parse_nvcc_version("Cuda compilation tools, release junk, Vjunk\n").is_none());
    }

    #[test]
    fn the_fixture_cuda_h_gives_13_0() {
        let h = include_str!(
            "../../tests/fixtures/h200-cuda13-torch211/root/usr/local/cuda-13.0/targets/x86_64-linux/include/cuda.h"
        );
        assert_eq!(parse_cuda_h(h), Some(CudaVersion::new(13, 0)));
        assert_eq!(parse_cuda_h("#define CUDA_VERSION 0\n"), None);
        assert_eq!(parse_cuda_h("#define CUDA_VERSION banana\n"), None);
        assert_eq!(parse_define("#  define X 12L\n", "X"), Some(12));
    }

    #[test]
    fn version_files_parse_and_junk_is_an_error() {
        let json =
            r#"{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, "cuda_cudart": {"version": "12.4.127"}}"#;
        assert_eq!(parse_version_json(json).unwrap().to_string(), "12.4.1");
        assert!(matches!(parse_version_json("{}"), Err(VersionJsonError::Missing)));
        assert!(matches!(parse_version_json("\u{1}junk"), Err(VersionJsonError::Json(_))));
        assert!(matches!(
            parse_version_json(r#"{"cuda":{"version":"abc"}}"#),
            Err(VersionJsonError::Version(_))
        ));
        assert_eq!(parse_version_txt("CUDA Version 10.2.89\n").unwrap().to_string(), "10.2.89");
    }

    #[test]
    fn library_file_names_give_versions() {
        assert_eq!(so_full_version("libcudart.so.13.0.96").unwrap().to_string(), "13.0.96");
        assert!(so_full_version("libcudart.so.13").is_none());
        assert_eq!(so_version("libcudnn.so.9").unwrap().major(), 9);
        assert!(so_version("libcudart.so").is_none());
        assert!(so_version("libnvrtc-builtins.so.13.0.88.bak").is_none());
    }
}
