//! Probe: cuDNN installs, one per directory holding `libcudnn*` (taken from the libraries the
//! libraries probe found).
//!
//! Version sources, by preference: the version header (`cudnn_version.h`, Debian's
//! alternatives-managed `cudnn_version_v9.h`, `cudnn.h` before 8.0) beside the install or in
//! the system include directories, of the same major as the library; the wheel's METADATA
//! (`nvidia-cudnn-cu13`); the package that owns the library (`libcudnn9-cuda-13`); the file
//! name. Sources that agree are added to the evidence.

use crate::probe::packages::PackageIndex;
use crate::probe::problem;
use crate::probe::toolkits::{parse_define, so_full_version, so_version};
use crate::report::{CudaLibrary, CudnnInstall, CudnnLayout, Evidence, Fact, LibraryKind, Origin, Report};
use crate::system::System;
use crate::version::Version;
use std::path::{Path, PathBuf};

const PROBE: &str = "cudnn";

/// `CUDNN_MAJOR`, `CUDNN_MINOR` and `CUDNN_PATCHLEVEL` of a cuDNN header, as a version.
pub fn parse_cudnn_header(text: &str) -> Option<Version> {
    let major = parse_define(text, "CUDNN_MAJOR")?;
    let minor = parse_define(text, "CUDNN_MINOR")?;
    let patch = parse_define(text, "CUDNN_PATCHLEVEL")?;
    let ok = |v: i64| (0..1000).contains(&v);
    if !(1..100).contains(&major) || !ok(minor) || !ok(patch) {
        return None;
    }
    Some(Version::from_parts(&[major as u64, minor as u64, patch as u64]))
}

/// The CUDA major in a cuDNN package name: `nvidia-cudnn-cu13` → 13, `libcudnn9-cuda-13` → 13,
/// `libcudnn8` → None.
pub fn cuda_major_from_package(name: &str) -> Option<u32> {
    let lower = name.to_ascii_lowercase();
    let digits = if let Some((_, rest)) = lower.rsplit_once("-cuda-") {
        rest
    } else if let Some((_, rest)) = lower.rsplit_once("-cu") {
        rest
    } else {
        return None;
    };
    let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|m| (7..100).contains(m))
}

/// The layout that a set of library file names shows.
pub fn layout_of(names: &[String], major: Option<u64>) -> CudnnLayout {
    let sub = names.iter().any(|n| n.starts_with("libcudnn_"));
    match (sub, major) {
        (true, _) => CudnnLayout::Split,
        (false, Some(m)) if m <= 7 => CudnnLayout::Single,
        _ => CudnnLayout::Unknown,
    }
}

/// Adds one cuDNN install per library directory to `report.cudnn`.
pub fn probe(sys: &System, index: &PackageIndex, report: &mut Report) {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for lib in report.libraries.iter().filter(|l| l.kind == LibraryKind::Cudnn) {
        let dir = Path::new(&lib.path).parent().unwrap_or(Path::new("/")).to_path_buf();
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let mut installs = Vec::new();
    for dir in dirs {
        let libs: Vec<CudaLibrary> = report
            .libraries
            .iter()
            .filter(|l| l.kind == LibraryKind::Cudnn && Path::new(&l.path).parent() == Some(dir.as_path()))
            .cloned()
            .collect();
        installs.push(install(sys, index, report, &dir, &libs));
    }
    report.cudnn.extend(installs);
}

fn install(
    sys: &System,
    index: &PackageIndex,
    report: &mut Report,
    dir: &Path,
    libs: &[CudaLibrary],
) -> CudnnInstall {
    let mut names: Vec<String> = Vec::new();
    for l in libs {
        let real = Path::new(&l.path).file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        for n in std::iter::once(real).chain(l.links.iter().filter(|n| !n.contains('/')).cloned()) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names.sort();
    let file_name =
        |l: &CudaLibrary| Path::new(&l.path).file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
    let main = libs.iter().find(|l| file_name(l).starts_with("libcudnn.so")).or(libs.first());
    let major = main
        .and_then(|l| so_version(&file_name(l)).or_else(|| l.version.as_ref().map(|v| v.value.clone())))
        .map(|v| v.major());

    let mut sources: Vec<Fact<Version>> = Vec::new();
    let mut header = None;
    for h in header_candidates(sys, dir, major) {
        let Ok(bytes) = sys.read_head(&h, 256 << 10) else { continue };
        let hs = h.display().to_string();
        match parse_cudnn_header(&String::from_utf8_lossy(&bytes)) {
            Some(v) if major.is_none_or(|m| m == v.major()) => {
                let detail = "CUDNN_MAJOR.CUDNN_MINOR.CUDNN_PATCHLEVEL";
                sources.push(Fact::new(v, Evidence::file_detail(hs.clone(), detail)));
                header = Some(hs);
                break;
            }
            Some(_) => {}
            None if h.file_name().is_some_and(|n| n != "cudnn.h") => {
                problem(report, PROBE, Some(&hs), "no plausible CUDNN_MAJOR/MINOR/PATCHLEVEL defines")
            }
            // cudnn.h of cuDNN 8+ includes cudnn_version.h and defines nothing itself.
            None => {}
        }
    }
    let origin = main.map_or(Origin::Unknown, |l| l.origin.clone());
    let package = index.for_origin(&origin);
    if let Some(p) = package {
        if let Some(v) = p.upstream_version() {
            sources.push(Fact::new(v, p.evidence()));
        }
    }
    if let Some(l) = main {
        let name = file_name(l);
        if let Some(v) = so_full_version(&name) {
            sources.push(Fact::new(v, Evidence::file_name(l.path.clone())));
        } else if sources.is_empty() {
            if let Some(v) = so_version(&name) {
                sources.push(Fact::new(v, Evidence::file_name(l.path.clone())));
            }
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
    let layout = layout_of(&names, version.as_ref().map(|v| v.value.major()).or(major));
    CudnnInstall {
        lib_dir: dir.display().to_string(),
        version,
        layout,
        libraries: names,
        header,
        cuda_major: package.and_then(|p| cuda_major_from_package(&p.name)),
        origin,
    }
}

/// Headers that may describe the install in `dir`, nearest first.
fn header_candidates(sys: &System, dir: &Path, major: Option<u64>) -> Vec<PathBuf> {
    let mut names = vec!["cudnn_version.h".to_string()];
    if let Some(m) = major {
        names.push(format!("cudnn_version_v{m}.h"));
    }
    names.push("cudnn.h".to_string());
    let mut include_dirs = Vec::new();
    if let Some(parent) = dir.parent() {
        include_dirs.push(parent.join("include"));
    }
    let system = dir.starts_with("/usr/lib") || dir.starts_with("/lib") || dir.starts_with("/usr/lib64");
    if system {
        for multiarch in ["x86_64-linux-gnu", "aarch64-linux-gnu", "sbsa-linux-gnu"] {
            if dir.ends_with(multiarch) {
                include_dirs.push(Path::new("/usr/include").join(multiarch));
            }
        }
        include_dirs.push(PathBuf::from("/usr/include"));
    }
    let mut out = Vec::new();
    for d in include_dirs {
        for n in &names {
            let p = d.join(n);
            if sys.is_file(&p) && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_headers_give_both_versions() {
        let sys = include_str!(
            "../../tests/fixtures/h200-cuda13-torch211/root/usr/include/x86_64-linux-gnu/cudnn_version_v9.h"
        );
        assert_eq!(parse_cudnn_header(sys).unwrap().to_string(), "9.14.0");
        let wheel = include_str!(
            "../../tests/fixtures/h200-cuda13-torch211/root/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/include/cudnn_version_v9.h"
        );
        assert_eq!(parse_cudnn_header(wheel).unwrap().to_string(), "9.19.0");
    }

    #[test]
    fn junk_headers_give_nothing() {
        assert!(parse_cudnn_header("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR x\n").is_none());
        assert!(parse_cudnn_header(
            "#define CUDNN_MAJOR 0\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n"
        )
        .is_none());
        assert!(parse_cudnn_header("\u{0}\u{1}binary").is_none());
    }

    #[test]
    fn package_names_give_the_cuda_major() {
        assert_eq!(cuda_major_from_package("nvidia-cudnn-cu13"), Some(13));
        assert_eq!(cuda_major_from_package("libcudnn9-cuda-13"), Some(13));
        assert_eq!(cuda_major_from_package("libcudnn8"), None);
        assert_eq!(cuda_major_from_package("nvidia-cudnn-cu11"), Some(11));
    }

    #[test]
    fn layouts_follow_the_file_names() {
        let nine: Vec<String> = ["libcudnn.so.9", "libcudnn_graph.so.9"].map(String::from).to_vec();
        assert_eq!(layout_of(&nine, Some(9)), CudnnLayout::Split);
        assert_eq!(layout_of(&["libcudnn.so.7".to_string()], Some(7)), CudnnLayout::Single);
        assert_eq!(layout_of(&["libcudnn.so.9".to_string()], Some(9)), CudnnLayout::Unknown);
    }
}
