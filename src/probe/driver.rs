//! Probe: the NVIDIA driver — the kernel module (version and open/proprietary flavour), the
//! user-space driver libraries with their versions (forward-compatibility copies under
//! `cuda-*/compat` included), the newest CUDA the driver supports (`cuDriverGetVersion` through
//! libcuda, live only), and the `/dev/nvidia*` nodes.
//!
//! Sources, in order: `/proc/driver/nvidia/version`, then `/sys/module/nvidia/version`; library
//! versions from the versioned file names (`libcuda.so.580.159.04`).

use super::packages::PackageIndex;
use super::problem;
use crate::report::{DeviceNode, DriverLibrary, Evidence, Fact, KernelModule, ModuleFlavour, Origin, Report};
use crate::system::{EntryKind, System};
use crate::version::{CudaVersion, DriverVersion};
use std::path::{Path, PathBuf};

/// The driver libraries that matter to CUDA work and to its video codecs (NVENC's
/// libnvidia-encode, NVDEC's libnvcuvid: FFmpeg and the decoders of the frameworks load them);
/// graphics libraries are left out.
pub const COMPUTE_LIBRARIES: &[&str] = &[
    "libcuda",
    "libnvidia-ml",
    "libnvidia-ptxjitcompiler",
    "libnvidia-nvvm",
    "libcudadebugger",
    "libnvidia-encode",
    "libnvcuvid",
];

/// Directories where driver libraries live: distribution paths, the NVIDIA container runtime's
/// mount point, WSL2's driver store.
const DRIVER_LIB_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    // Debian's driver packages, behind the `nvidia` alternative.
    "/usr/lib/x86_64-linux-gnu/nvidia/current",
    "/usr/lib/aarch64-linux-gnu/nvidia/current",
    "/usr/lib64/nvidia",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/nvidia/lib64",
    "/usr/local/nvidia/lib",
    "/usr/lib/wsl/lib",
];

/// Adds the driver facts of `sys` to `report`; `index` names the package that owns each
/// driver library.
pub fn probe(sys: &System, index: &PackageIndex, report: &mut Report) {
    report.driver.kernel_module = kernel_module(sys, report);
    report.driver.libraries = driver_libraries(sys, index);
    report.driver.device_nodes = device_nodes(sys);
}

/// The live part of the driver probe: the newest CUDA the driver supports, through libcuda.
/// `Ok(None)` when not live or libcuda is absent.
pub fn live_cuda(sys: &System) -> Result<Option<Fact<CudaVersion>>, String> {
    if !sys.is_live() {
        return Ok(None);
    }
    Ok(live_cuda_driver_version()?.map(|v| Fact::new(v, Evidence::api("cuDriverGetVersion"))))
}

/// Puts the result of [`live_cuda`] into the report.
pub fn apply_live_cuda(result: Result<Option<Fact<CudaVersion>>, String>, report: &mut Report) {
    match result {
        Ok(Some(fact)) => report.driver.cuda_supported = Some(fact),
        Ok(None) => {}
        Err(e) => problem(report, "driver", Some("libcuda.so.1"), e),
    }
}

fn kernel_module(sys: &System, report: &mut Report) -> Option<KernelModule> {
    const PROC: &str = "/proc/driver/nvidia/version";
    const SYS: &str = "/sys/module/nvidia/version";
    let from_proc = match sys.read_to_string(Path::new(PROC)) {
        Ok(text) => {
            let parsed = parse_proc_version(&text);
            if parsed.is_none() {
                problem(report, "driver", Some(PROC), "no driver version in the file");
            }
            parsed
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            problem(report, "driver", Some(PROC), format!("unreadable: {e}"));
            None
        }
    };
    let from_sys =
        sys.read_to_string(Path::new(SYS)).ok().and_then(|t| t.trim().parse::<DriverVersion>().ok());
    match (from_proc, from_sys) {
        (Some((version, flavour)), sysfs) => {
            let mut fact = Fact::new(version, Evidence::file(PROC));
            match sysfs {
                Some(s) if s == fact.value => fact.evidence.push(Evidence::file(SYS)),
                Some(s) => {
                    problem(report, "driver", Some(SYS), format!("says {s}, but {PROC} says {}", fact.value))
                }
                None => {}
            }
            Some(KernelModule { version: fact, flavour })
        }
        (None, Some(s)) => {
            Some(KernelModule { version: Fact::new(s, Evidence::file(SYS)), flavour: ModuleFlavour::Unknown })
        }
        (None, None) => None,
    }
}

/// Parses `/proc/driver/nvidia/version`:
/// `NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build …` (open)
/// or `NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 …` (proprietary).
pub fn parse_proc_version(text: &str) -> Option<(DriverVersion, ModuleFlavour)> {
    let line = text.lines().find(|l| l.starts_with("NVRM version:"))?;
    let at = line.find("Kernel Module")?;
    let flavour = if line[..at].contains("Open") { ModuleFlavour::Open } else { ModuleFlavour::Proprietary };
    let version = line[at + "Kernel Module".len()..]
        .split_whitespace()
        .take(4)
        .find_map(|token| token.parse::<DriverVersion>().ok())?;
    Some((version, flavour))
}

/// Splits a versioned driver library file name: `libcuda.so.580.159.04` → (`libcuda`, version).
pub fn parse_driver_library_name(file: &str) -> Option<(&'static str, DriverVersion)> {
    let (stem, version) = file.split_once(".so.")?;
    let name = COMPUTE_LIBRARIES.iter().find(|n| **n == stem)?;
    // `libcuda.so.1` and `libnvidia-nvvm.so.4` are sonames, not driver versions.
    if !version.contains('.') {
        return None;
    }
    Some((name, version.parse().ok()?))
}

fn driver_libraries(sys: &System, index: &PackageIndex) -> Vec<DriverLibrary> {
    let mut dirs: Vec<(PathBuf, bool)> = DRIVER_LIB_DIRS.iter().map(|d| (PathBuf::from(d), false)).collect();
    for entry in sys.env("LD_LIBRARY_PATH").unwrap_or("").split(':').filter(|e| e.starts_with('/')) {
        dirs.push((PathBuf::from(entry), false));
    }
    // Forward-compatibility packages: /usr/local/cuda-X.Y/compat.
    for base in ["/usr/local", "/opt"] {
        for entry in sys.read_dir(Path::new(base)).unwrap_or_default() {
            if entry.name.starts_with("cuda") && entry.kind == EntryKind::Dir {
                dirs.push((entry.path.join("compat"), true));
            }
        }
    }
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for (dir, compat) in dirs {
        let Ok(real_dir) = sys.resolve(&dir) else { continue };
        let Ok(entries) = sys.read_dir(&real_dir.path) else { continue };
        for entry in entries {
            if entry.kind != EntryKind::File {
                continue;
            }
            let Some((name, version)) = parse_driver_library_name(&entry.name) else { continue };
            if seen.contains(&entry.path) {
                continue;
            }
            seen.push(entry.path.clone());
            let path = entry.path.display().to_string();
            let mut evidence = vec![Evidence::file_name(path.clone())];
            // dpkg lists a file under the directory it unpacked it to: the path as found, or
            // under the link the search started from.
            let as_listed = dir.join(&entry.name);
            let origin = match index.owner_of_any([entry.path.as_path(), as_listed.as_path()]) {
                Some(package) => {
                    evidence.push(package.evidence());
                    package.origin()
                }
                None if compat => {
                    Origin::Toolkit { root: dir.parent().unwrap_or(&dir).display().to_string() }
                }
                None => Origin::Driver,
            };
            out.push(DriverLibrary {
                name: name.to_string(),
                evidence,
                path,
                version: Some(version),
                forward_compat: compat,
                in_loader_cache: None,
                origin,
            });
        }
    }
    mark_loader_cache(sys, &mut out);
    out
}

/// Sets `in_loader_cache` on each library: whether `/etc/ld.so.cache` has an entry named after it
/// (`libnvcuvid.so.1`, `libnvidia-nvvm.so.4`) for a file that exists in that library's directory.
/// The directory, not the versioned file, is compared: the entry's soname is most often a link to
/// the versioned file, but a copy, or a tree whose links were flattened, serves the loader the same.
/// A library present but not listed is found only through LD_LIBRARY_PATH; one listed is found by
/// any program using the system's loader, so a program that still cannot load it looks elsewhere
/// (a sandbox, its own search path, another container). Left `None` without a readable cache.
fn mark_loader_cache(sys: &System, libraries: &mut [DriverLibrary]) {
    let Ok(bytes) = sys.read(Path::new("/etc/ld.so.cache")) else { return };
    let Ok(cache) = crate::loader::cache::parse(&bytes) else { return };
    // (library name, the real directory its listed file is in).
    let mut listed: Vec<(&str, PathBuf)> = Vec::new();
    for entry in &cache.entries {
        let stem = entry.name.split(".so").next().unwrap_or_default();
        let Some(name) = COMPUTE_LIBRARIES.iter().find(|n| **n == stem) else { continue };
        if let Ok(real) = sys.resolve(Path::new(&entry.path)) {
            if let Some(dir) = real.path.parent() {
                listed.push((name, dir.to_path_buf()));
            }
        }
    }
    for lib in libraries {
        let dir = Path::new(&lib.path).parent();
        lib.in_loader_cache =
            Some(listed.iter().any(|(name, d)| *name == lib.name && Some(d.as_path()) == dir));
    }
}

fn device_nodes(sys: &System) -> Vec<DeviceNode> {
    let Ok(entries) = sys.read_dir(Path::new("/dev")) else { return Vec::new() };
    entries
        .into_iter()
        .filter(|e| e.name.starts_with("nvidia"))
        .map(|e| DeviceNode {
            accessible: if e.kind == EntryKind::Dir { None } else { sys.can_open_read_write(&e.path) },
            path: e.path.display().to_string(),
        })
        .collect()
}

/// Calls `cuDriverGetVersion` through `libcuda.so.1` (no `cuInit` needed: it costs microseconds,
/// while `cuInit` costs ~200 ms). `Ok(None)` when libcuda is absent.
fn live_cuda_driver_version() -> Result<Option<CudaVersion>, String> {
    type GetVersion = unsafe extern "C" fn(*mut i32) -> i32;
    // SAFETY: loading the system's libcuda runs its initialisers, as every CUDA program does.
    let lib = match unsafe { libloading::Library::new("libcuda.so.1") } {
        Ok(lib) => lib,
        Err(_) => return Ok(None),
    };
    // SAFETY: the symbol has this signature in every CUDA driver since 2.2.
    let get: libloading::Symbol<GetVersion> =
        unsafe { lib.get(b"cuDriverGetVersion\0") }.map_err(|e| format!("no cuDriverGetVersion: {e}"))?;
    let mut version = 0i32;
    // SAFETY: the out-pointer is valid for the duration of the call.
    let status = unsafe { get(&mut version) };
    if status != 0 {
        return Err(format!("cuDriverGetVersion returned CUresult {status}"));
    }
    CudaVersion::from_int(i64::from(version))
        .map(Some)
        .ok_or_else(|| format!("cuDriverGetVersion gave an implausible version {version}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_version_open_and_proprietary() {
        let open = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \nGCC version:  gcc version 15.3.0 (GCC) \n";
        let (v, f) = parse_proc_version(open).unwrap();
        assert_eq!(v.to_string(), "580.159.04");
        assert_eq!(f, ModuleFlavour::Open);
        let prop =
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n";
        let (v, f) = parse_proc_version(prop).unwrap();
        assert_eq!(v.to_string(), "535.104.05");
        assert_eq!(f, ModuleFlavour::Proprietary);
        assert_eq!(parse_proc_version("garbage\n"), None);
        assert_eq!(parse_proc_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  xx\n"), None);
    }

    #[test]
    fn driver_library_names() {
        let (n, v) = parse_driver_library_name("libcuda.so.580.95.05").unwrap();
        assert_eq!((n, v.to_string().as_str()), ("libcuda", "580.95.05"));
        assert_eq!(parse_driver_library_name("libcuda.so.1"), None);
        assert_eq!(parse_driver_library_name("libnvidia-nvvm.so.4"), None);
        assert_eq!(parse_driver_library_name("libcudart.so.13.0.96"), None);
        assert_eq!(parse_driver_library_name("libGLX_nvidia.so.580.159.04"), None);
    }
}
