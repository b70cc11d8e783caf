//! Rules on shared libraries the loader did not find: where the file actually is, the CUDA release
//! its name asks for, Windows DLLs, libraries present elsewhere in the log.

use super::*;

/// A Windows DLL (or a library Paddle's loader names) that failed to load, in a text that names no
/// cuDNN at all: cuDNN is not what is missing. Of the corpus's real reports of this family, none
/// without a cuDNN name was settled by installing cuDNN; ten were a DLL off the search path or a
/// missing dependency (Python 3.8's DLL
/// search: <https://github.com/inducer/pycuda/issues/213>; CUDA DLLs:
/// <https://github.com/tensorflow/tensorflow/issues/40804>) and four a broken package.
pub fn dll_error_without_cudnn(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !matches!(input.signature.id.as_str(), "windows-dll-missing" | "paddle-dynamic-library-not-configured")
        || input.evidence.names_cudnn
        || !has(input, Category::CudnnMissing)
    {
        return vec![];
    }
    vec![adj(Category::CudnnMissing, 0.2, "the text names no cuDNN library")]
}

pub(super) fn library_kind(file: &str) -> Option<LibraryKind> {
    let stem = file.strip_prefix("lib")?.split(".so").next()?;
    let kind = match stem {
        s if s.starts_with("cudnn") => LibraryKind::Cudnn,
        "cudart" => LibraryKind::Cudart,
        "cublasLt" => LibraryKind::CublasLt,
        "cublas" => LibraryKind::Cublas,
        "nccl" => LibraryKind::Nccl,
        s if s.starts_with("nvrtc") => LibraryKind::Nvrtc,
        "cufft" => LibraryKind::Cufft,
        "curand" => LibraryKind::Curand,
        "cusparse" => LibraryKind::Cusparse,
        "cusolver" => LibraryKind::Cusolver,
        "nvJitLink" => LibraryKind::NvJitLink,
        "cupti" => LibraryKind::Cupti,
        _ => return None,
    };
    Some(kind)
}

/// The CUDA releases (major, minor) whose toolkit ships a library of this soname major, first and
/// last, where the soname tells:
/// cudart, cuBLAS, NVRTC and nvJitLink follow the CUDA major; cuFFT, cuSOLVER and cuSPARSE have
/// their own numbering (CUDA 11.8 ships libcufft.so.10, libcusolver.so.11, libcusparse.so.11; CUDA
/// 13.0 libcufft.so.12, libcusolver.so.12, libcusparse.so.12, as the Debian CUDA 11.8 and the
/// H200's CUDA 13 fixtures hold; cuSOLVER 10 is CUDA 10.1 to 11.0, per the CUDA 11.1 release
/// notes' component versions); cuRAND is libcurand.so.10 from CUDA 10 to 13 and says nothing, nor
/// do NCCL's and CUPTI's.
pub(super) fn cuda_of_soname(kind: LibraryKind, soname: u64) -> Option<((u64, u64), (u64, u64))> {
    use LibraryKind as K;
    let majors = |a: u64, b: u64| Some(((a, 0), (b, 99)));
    match (kind, soname) {
        (K::Cudart | K::Cublas | K::CublasLt | K::Nvrtc | K::NvJitLink, m) => majors(m, m),
        (K::Cufft, 10) => majors(10, 11),
        (K::Cufft, 11) => majors(12, 12),
        (K::Cufft, 12) => majors(13, 13),
        (K::Cusolver, 10) => Some(((10, 1), (11, 0))),
        (K::Cusolver, 11) => Some(((11, 1), (12, 99))),
        (K::Cusolver, 12) => majors(13, 13),
        (K::Cusparse, 10 | 11) => majors(soname, soname),
        (K::Cusparse, 12) => majors(12, 13),
        _ => None,
    }
}

pub(super) fn so_major(file: &str) -> Option<u64> {
    file.split(".so.").nth(1)?.split('.').next()?.parse().ok()
}

/// A CUDA library's Windows DLL name as the Linux soname of the same release, so that the soname
/// rules read both: `cublas64_12.dll` is `libcublas.so.12`, `cublasLt64_11.dll` is
/// `libcublasLt.so.11`, `cudart64_110.dll` is `libcudart.so.11.0`, `cudart64_101.dll` is
/// `libcudart.so.10.1`, `nvrtc64_120_0.dll` is `libnvrtc.so.12.0`, `cudart64_92.dll` is
/// `libcudart.so.9.2`. The number after `64_` is the soname major for 10 to 19 (and for cuFFT's,
/// cuSPARSE's, cuSOLVER's own numbering), major and minor run together otherwise, as the DLLs of
/// the CUDA toolkits for Windows are named.
pub(super) fn dll_as_soname(file: &str) -> Option<String> {
    let stem = file.strip_suffix(".dll").or_else(|| file.strip_suffix(".DLL"))?;
    let (name, number) = stem.split_once("64_")?;
    if name.is_empty() || name.starts_with("lib") {
        return None;
    }
    let digits = number.split('_').next()?;
    let n: u64 = digits.parse().ok()?;
    let version = match n {
        10..=19 => n.to_string(),
        20..=99 => format!("{}.{}", n / 10, n % 10),
        100..=199 => format!("{}.{}", n / 10, n % 10),
        _ => return None,
    };
    let soname = format!("lib{name}.so.{version}");
    library_kind(&soname).map(|_| soname)
}

/// A library the loader could not find, against the copies on this machine.
pub fn missing_library(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(report) = input.report else { return vec![] };
    let Some(file) = input.evidence.library.as_deref() else { return vec![] };
    if !file.starts_with("lib") || !file.contains(".so") {
        return vec![];
    }
    let file_name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    // The soname the loader resolves for a fully versioned name: any libcudnn_ops.so.9 serves a
    // program asking for libcudnn_ops.so.9.1.0 (CTranslate2 tries both).
    let soname = match (file.split_once(".so."), so_major(file)) {
        (Some((stem, _)), Some(major)) => format!("{stem}.so.{major}"),
        _ => file.to_string(),
    };
    let named = |n: &str| n == file || n == soname;
    let exact: Vec<&str> = report
        .libraries
        .iter()
        .filter(|l| {
            named(&l.name) || named(&file_name(&l.path)) || l.links.iter().any(|k| named(&file_name(k)))
        })
        .map(|l| l.path.as_str())
        .collect();
    if let Some(path) = exact.first() {
        let dir = path.rsplit_once('/').map_or(*path, |(d, _)| d);
        let found =
            if file_name(path) == file { file.to_string() } else { format!("{soname} (serving {file})") };
        return vec![
            adj(
                Category::LibraryNotFound,
                4.0,
                format!("{found} exists at {dir}, a directory the loader did not search"),
            ),
            adj(
                Category::EnvVarMisconfig,
                2.0,
                format!("{dir} is not on the loader path (LD_LIBRARY_PATH or ld.so.conf)"),
            ),
            adj(Category::CudnnMissing, 0.2, format!("{file} is installed at {dir}")),
        ];
    }
    let Some(kind) = library_kind(file) else { return vec![] };
    let wanted = so_major(file);
    // One entry per directory, with the most precise version read there: a cuDNN 9 install is
    // 24 files and links, which would not fit on a terminal line.
    let mut dirs: Vec<(&str, Option<&Version>, usize)> = Vec::new();
    for l in report.libraries.iter().filter(|l| l.kind == kind) {
        let dir = l.path.rsplit_once('/').map_or(l.path.as_str(), |(d, _)| d);
        let version = l.version.as_ref().map(|v| &v.value);
        match dirs.iter_mut().find(|(d, _, _)| *d == dir) {
            Some((_, v, n)) => {
                *n += 1;
                if version.map(|x| x.to_string().len()) > v.map(|x| x.to_string().len()) {
                    *v = version;
                }
            }
            None => dirs.push((dir, version, 1)),
        }
    }
    let others: Vec<String> = dirs
        .iter()
        .map(|(dir, version, n)| {
            let files = if *n == 1 { "1 file".to_string() } else { format!("{n} files") };
            match version {
                Some(v) => format!("{} {v} in {dir} ({files})", kind.name()),
                None => format!("{} in {dir} ({files})", kind.name()),
            }
        })
        .collect();
    if others.is_empty() {
        let mut out = vec![adj(
            Category::LibraryNotFound,
            1.5,
            format!("no {} library of any version is on this machine", kind.name()),
        )];
        if kind == LibraryKind::Cudnn {
            out.push(adj(Category::CudnnMissing, 4.0, "no cuDNN library of any version is on this machine"));
        }
        return out;
    }
    let category = if kind == LibraryKind::Cudnn {
        Category::CudnnVersionMismatch
    } else {
        Category::CudaRuntimeMismatch
    };
    let major = wanted.map_or_else(String::new, |m| format!(" (major {m})"));
    vec![
        adj(
            category,
            4.0,
            format!("the program wants {file}{major}; this machine has {}", others.join(", ")),
        ),
        adj(Category::CudnnMissing, 0.5, format!("{} is installed, in another version", kind.name())),
        adj(Category::LibraryNotFound, 0.6, format!("no copy named {file} exists here")),
    ]
}

/// A missing CUDA library of one major (libcudart.so.10.1) while the log says another CUDA is what
/// the user has (cuda12.1, cudatoolkit 11.3, +cu118): the program was built for another CUDA. The
/// same CUDA (libcublas.so.11 with CUDA 11.2 installed; before CUDA 11 sonames carry the minor too)
/// means the library is there and the loader does not look where it is.
pub fn missing_library_vs_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() {
        return vec![];
    }
    let (Some(file), Some(have)) = (input.evidence.library.as_deref(), input.evidence.cuda_in_log) else {
        return vec![];
    };
    // A Windows DLL (cublas64_12.dll) is read as the soname of the same release.
    let linux_name = dll_as_soname(file);
    let name = linux_name.as_deref().unwrap_or(file);
    let Some(kind) = library_kind(name) else { return vec![] };
    if kind == LibraryKind::Cudnn {
        return vec![];
    }
    let Some(soname) = so_major(name) else { return vec![] };
    let Some((mut first, mut last)) = cuda_of_soname(kind, soname) else { return vec![] };
    // CUDA 10.0's cuBLAS is libcublas.so.10.0; from 10.1 on its soname carries the major alone, so
    // a bare libcublas.so.10 is CUDA 10.1 or 10.2 (TensorFlow 2.1+ asks for it, and CUDA 10.0 does
    // not provide it: https://github.com/talmolab/sleap/issues/426).
    if kind == LibraryKind::Cublas && soname == 10 && name.split(".so.").nth(1) == Some("10") {
        (first, last) = ((10, 1), (10, 2));
    }
    let same_minor = || {
        let minor: Option<u64> = name.split(".so.").nth(1)?.split('.').nth(1)?.parse().ok();
        Some(minor == Some(u64::from(have.minor)))
    };
    // Before CUDA 11, cudart's and cuBLAS's sonames carry the minor too (libcudart.so.10.1).
    let have_at = (u64::from(have.major), u64::from(have.minor));
    let same_cuda = (first..=last).contains(&have_at) && (have_at.0 >= 11 || same_minor().unwrap_or(true));
    let wanted = match (first, last) {
        ((a, x), (b, y)) if a == b && (x, y) != (0, 99) => format!("{a}.{x} to {a}.{y}"),
        ((a, _), (b, _)) if a == b => format!("{a}"),
        ((a, 0), (b, 99)) => format!("{a} to {b}"),
        ((a, x), (b, 99)) => format!("{a}.{x} to {b}"),
        ((a, 0), (b, y)) => format!("{a} to {b}.{y}"),
        ((a, x), (b, y)) => format!("{a}.{x} to {b}.{y}"),
    };
    if same_cuda {
        if !has(input, Category::LibraryNotFound) {
            return vec![];
        }
        return vec![
            adj(
                Category::LibraryNotFound,
                3.0,
                format!("the program asks for {file}, and the log says CUDA {have}, which provides it, is installed"),
            ),
            adj(
                Category::CudaRuntimeMismatch,
                0.4,
                format!("{file} belongs to CUDA {have}, the version the log says is installed"),
            ),
        ];
    }
    if !has(input, Category::CudaRuntimeMismatch) {
        return vec![];
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        3.0,
        format!(
            "the program asks for {file} (CUDA {wanted}), and the log says CUDA {have} is what is installed"
        ),
    )]
}

/// A CUDA toolkit library asked for by its release (`libcudart.so.11.0`, `libcublas.so.9.0`,
/// `libcusolver.so.11`) that the loader did not find, in a text that says nothing more (no CUDA
/// version, no machine's facts): the program was built for that release, and of the reports of
/// this message whose cause is known, a build for another CUDA than the installed one outnumbers a
/// loader path that missed an installed copy about six to one (27 to 4 in
/// `tests/explain_corpus`: TensorFlow 0.10 built for CUDA 7.5 on CUDA 8,
/// <https://github.com/tensorflow/tensorflow/issues/4664>; a conda cudatoolkit 9.2 under a PyTorch
/// for 9.0, <https://github.com/pytorch/pytorch/issues/10910>; against an LD_LIBRARY_PATH that
/// missed the installed copy, <https://github.com/leofansq/CPCL/issues/4>). TensorFlow's own
/// "Could not load dynamic library" is not this: it tries every library on every start and
/// prints them all, found or not in the places it looks (4 to 6 the other way). What the text
/// says of the installed CUDA decides instead (`missing_library_vs_cuda_in_log`).
pub fn missing_toolkit_library_by_release(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    if input.report.is_some()
        || input.signature.id != "loader-cuda-lib-missing"
        || ev.cuda_in_log.is_some()
        || !has(input, Category::CudaRuntimeMismatch)
    {
        return vec![];
    }
    let Some(file) = ev.library.as_deref() else { return vec![] };
    // Only a soname that tells the CUDA release (not cuRAND's, nor cuDNN's or NCCL's).
    let release = library_kind(file).zip(so_major(file)).and_then(|(kind, n)| cuda_of_soname(kind, n));
    if release.is_none() {
        return vec![];
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        1.6,
        format!(
            "{file} names the CUDA release the program was built for, and the text names no CUDA installed"
        ),
    )]
}

/// A missing CUDA library of a given release (libcudart.so.10.1, libcublas.so.11) on Google Colab
/// or in a container: the runtime, like a CUDA image, comes with one CUDA release, and what asks
/// for another was built for another CUDA (mxnet-cu101 on Colab's CUDA 11.2:
/// <https://github.com/ai-forever/ghost/issues/50>; a CUDA 11 CTranslate2 after Colab moved to CUDA
/// 12: <https://github.com/Softcatala/whisper-ctranslate2/issues/74>; RAPIDS cu12 wheels on Colab's
/// CUDA 11: <https://github.com/NVIDIA/cuml/issues/5300>; TensorFlow 2.4 asking for libcudart.so.11.0
/// in a CUDA 10.1 image: <https://github.com/deepchem/deepchem/issues/2467>; libcusolver.so.10 in a
/// CUDA 11 image: <https://github.com/iterative/cml/issues/972>). cuDNN is left to the cuDNN rules,
/// and the driver's own libcuda (not a toolkit library), which the container toolkit mounts, to the
/// container rules.
pub fn missing_library_on_colab(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::CudaRuntimeMismatch) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(file), Some(place)) = (
        ev.library.as_deref(),
        ev.colab_in_log
            .as_deref()
            .map(|hint| format!("Colab (\"{hint}\")"))
            .or_else(|| ev.container_in_log.as_deref().map(|hint| format!("a container (\"{hint}\")"))),
    ) else {
        return vec![];
    };
    let Some(kind) = library_kind(file) else { return vec![] };
    if kind == LibraryKind::Cudnn || so_major(file).is_none() {
        return vec![];
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        3.0,
        format!("the log shows {place}, which comes with one CUDA release: {file} is asked for by a build for another"),
    )]
}

/// A cuDNN failure reported by a TensorFlow op (`[Op:Conv2D]`, `[[{{node …}}]]`): TensorFlow
/// registers a GPU only after it has opened cuDNN (otherwise it prints "Cannot dlopen some GPU
/// libraries … Skipping registering GPU devices" and the op runs on the CPU), so cuDNN was found
/// and failed to initialize: another version than the build's, or no memory for it
/// (<https://github.com/apapiu/guided-diffusion-keras/issues/8>, <https://github.com/tensorflow/text/issues/1167>).
pub fn tf_op_ran_on_gpu(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || input.signature.id != "tf-dnn-library-not-found" {
        return vec![];
    }
    let Some(op) = input.evidence.tf_op.as_deref() else { return vec![] };
    vec![adj(
        Category::CudnnMissing,
        0.3,
        format!("the error comes from a TensorFlow op on the GPU ({op}): TensorFlow only registers a GPU once cuDNN is loaded"),
    )]
}

/// The log itself shows the missing library at a path (a `find`/`locate` result): it is
/// installed, and the loader does not search that directory.
pub fn missing_library_present_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::LibraryNotFound) {
        return vec![];
    }
    let Some(path) = input.evidence.library_found_at.as_deref() else { return vec![] };
    let dir = path.rsplit_once('/').map_or(path, |(d, _)| d);
    let mut out = vec![adj(
        Category::LibraryNotFound,
        4.0,
        format!("the log shows it at {path}: {dir} is not on the loader path"),
    )];
    if has(input, Category::CudnnMissing) {
        out.push(adj(Category::CudnnMissing, 0.3, format!("the log shows it installed at {dir}")));
    }
    out
}

/// The operating-system error a failed call reported, when the log shows it. File modes refuse an
/// open with EACCES ("Permission denied"); the devices cgroup a container runtime sets up refuses
/// it with EPERM ("Operation not permitted",
/// <https://docs.kernel.org/admin-guide/cgroup-v1/devices.html>): for an error the container can
/// explain, EPERM points at the container's device rules (kubelet's static CPU manager or a
/// systemd reload rewriting them: <https://github.com/NVIDIA/nvidia-docker/issues/966>,
/// <https://github.com/mattshma/bigdata/issues/150>).
pub fn os_error_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    match input.evidence.os_error.as_deref() {
        Some(e @ "Operation not permitted") if has(input, Category::ContainerRuntime) => vec![adj(
            Category::ContainerRuntime,
            8.0,
            format!("the failing call reported \"{e}\" (EPERM): a device cgroup refused it, not the file's permissions"),
        )],
        Some(e @ ("Permission denied" | "Operation not permitted")) if has(input, Category::PermissionOrCache) => {
            vec![adj(Category::PermissionOrCache, 8.0, format!("the failing call reported \"{e}\""))]
        }
        Some(e @ "No space left on device") if has(input, Category::ContainerRuntime) => vec![adj(
            Category::ContainerRuntime,
            2.0,
            format!("the failing call reported \"{e}\": a filesystem (often a container's small /dev/shm) is full"),
        )],
        _ => vec![],
    }
}

/// A Windows DLL named as missing that is not cuDNN (nvrtc64_120_0.dll, cudart64_110.dll, torch's
/// c10.dll, cuDNN 8's zlibwapi.dll dependency): installing cuDNN cannot be the fix. Nor is it for PyTorch's
/// own cuDNN copy in torch\lib, which is there: a dependency of it is missing or the copy is broken.
pub fn missing_dll_not_cudnn(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::CudnnMissing) {
        return vec![];
    }
    let Some(file) = input.evidence.library.as_deref() else { return vec![] };
    let lower = file.to_ascii_lowercase();
    if !lower.ends_with(".dll") {
        return vec![];
    }
    // cuDNN 8 for Windows loads zlib's zlibwapi.dll, a separate download its install guide has the
    // user put on PATH (https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/index.html#install-zlib-windows);
    // the message comes from cuDNN, which is therefore installed
    // (https://github.com/NickSwardh/YoloDotNet/issues/18).
    if lower.contains("zlibwapi") {
        let mut out = vec![adj(
            Category::CudnnMissing,
            0.3,
            format!("{file} is zlib, which cuDNN 8 loads: cuDNN itself is installed and asking for it"),
        )];
        if has(input, Category::LibraryNotFound) {
            out.push(adj(
                Category::LibraryNotFound,
                2.0,
                format!("{file} is a separate download that must be on PATH (next to cuDNN's DLLs)"),
            ));
        }
        return out;
    }
    if !lower.contains("cudnn") {
        return vec![adj(Category::CudnnMissing, 0.3, format!("{file} is not a cuDNN library"))];
    }
    let dir = input.evidence.group("dir");
    match dir {
        // A message pasted JSON-escaped doubles every backslash.
        Some(d)
            if d.to_ascii_lowercase().replace('/', "\\").replace("\\\\", "\\").ends_with("\\torch\\lib") =>
        {
            vec![adj(
                Category::CudnnMissing,
                0.3,
                format!("{file} is PyTorch's own copy in {d}: cuDNN is there, a DLL it depends on is not"),
            )]
        }
        _ => vec![],
    }
}

/// Windows failing to load a DLL while the log is about a PyTorch extension the user built, and no
/// CUDA/cuDNN DLL is named: the extension's dependencies live in torch\lib and are found only once
/// torch is imported (<https://github.com/pytorch/pytorch/issues/26800>).
pub fn extension_dll_before_torch(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::UserCodeBug) || !has(input, Category::CudnnMissing) {
        return vec![];
    }
    let Some(hint) = input.evidence.torch_extension_in_log.as_deref() else { return vec![] };
    let names_cuda_dll = input.evidence.library.as_deref().is_some_and(|l| {
        let l = l.to_ascii_lowercase();
        l.ends_with(".dll") && (l.starts_with("cu") || l.starts_with("nvrtc") || l.contains("cudnn"))
    });
    if names_cuda_dll {
        return vec![];
    }
    vec![
        adj(
            Category::UserCodeBug,
            12.0,
            format!("the log is about a PyTorch extension (\"{hint}\"): its DLLs are found only after import torch"),
        ),
        adj(Category::CudnnMissing, 0.5, "no cuDNN DLL is named; the extension's own import failed"),
    ]
}

/// bitsandbytes before 0.43.0 shipped Linux binaries only: on Windows its CUDA setup finds nothing
/// it can load and falls back to `libbitsandbytes_cpu.so` (or fails passing a `WindowsPath` to
/// ctypes). The fix is a build with Windows CUDA DLLs, not another CUDA runtime
/// (<https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1104>,
/// <https://github.com/bmaltais/kohya_ss/issues/1000>).
pub fn bitsandbytes_on_windows(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "bitsandbytes-cuda-setup" || !has(input, Category::CpuOnlyBuild) {
        return vec![];
    }
    let Some(win) = input.evidence.windows_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::CpuOnlyBuild,
        4.0,
        format!(
            "the log shows Windows (\"{win}\"): bitsandbytes before 0.43.0 has no Windows CUDA binaries and loads its CPU library"
        ),
    )]
}

/// A missing `libX.so` without a version is the development link, not the library.
pub fn unversioned_library_name(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(lib) = input.evidence.library.as_deref() else { return vec![] };
    if !lib.starts_with("lib") || !lib.ends_with(".so") {
        return vec![];
    }
    vec![adj(
        Category::LibraryNotFound,
        2.5,
        format!("{lib} without a version is the development link that only -dev packages create; the versioned library may well be installed"),
    )]
}

/// The log shows the CUDA toolkit's stub libcuda being loaded (`…/lib64/stubs/libcuda.so` in the
/// loader's words) or its directory on LD_LIBRARY_PATH: the stub exists only to link against and
/// implements nothing, so whatever the call, the driver's own libcuda was not the one found
/// (<https://github.com/numba/numba/issues/8985>, <https://github.com/pytorch/tensorpipe/issues/294>,
/// <https://github.com/NVIDIA/warp/issues/219>, <https://github.com/xmake-io/xmake/issues/4686>).
pub fn stub_libcuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(stub) = input.evidence.stub_libcuda.as_deref() else { return vec![] };
    if !has(input, Category::LibraryNotFound) {
        return vec![];
    }
    vec![adj(
        Category::LibraryNotFound,
        8.0,
        format!("the log shows the toolkit's link-time stub ({stub}) where the driver's libcuda.so.1 should be found"),
    )]
}

/// CUDA's initialisation error reported by a service's GPU probe (Ollama's "cudart init failure:
/// 3", "cuda driver library init failure: 3"): the probe runs cuInit first thing in its own
/// process, so no fork came before it; a kernel module that is not usable (nvidia_uvm after a
/// suspend or resume) is the usual cause (<https://github.com/ollama/ollama/issues/5453>, fixed by
/// reloading nvidia_uvm; /2227).
pub fn init_failure_in_a_library_probe(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-initialization-error" {
        return vec![];
    }
    let Some(probe) = input.evidence.group("probe") else {
        return vec![];
    };
    vec![
        adj(Category::UserCodeBug, 0.3, format!("the {probe} probe initialises CUDA in a fresh process: no fork before it")),
        adj(Category::DriverNotLoaded, 1.5, "a GPU probe failing at start is most often the nvidia_uvm module unusable (after suspend/resume)"),
    ]
}

/// A CUDA library of a given major missing while Python imports a module (`from vllm import
/// cuda_utils`, `import selective_scan_cuda`, `from core.nn import _C`): that module's compiled
/// code was built for that CUDA major, and the environment (its PyTorch's nvidia-* wheels, the
/// toolkit) has another (vLLM 0.2.2 wheels for CUDA 12 beside a CUDA 11 torch:
/// <https://github.com/vllm-project/vllm/issues/1718>; mamba_ssm for CUDA 11 with torch cu121:
/// <https://github.com/NVlabs/MambaVision/issues/12>; an extension built under CUDA 9 run with 10:
/// <https://github.com/Tramac/awesome-semantic-segmentation-pytorch/issues/99>). A path the log
/// shows the library at is left to `missing_library_present_in_log`; cuDNN to its own rules.
pub fn missing_library_on_import(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::CudaRuntimeMismatch) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(file), Some(import)) = (ev.library.as_deref(), ev.python_import.as_deref()) else {
        return vec![];
    };
    if ev.library_found_at.is_some() || so_major(file).is_none() {
        return vec![];
    }
    match library_kind(file) {
        None | Some(LibraryKind::Cudnn | LibraryKind::Nccl | LibraryKind::Cupti) => return vec![],
        Some(_) => {}
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        2.5,
        format!("{file} is missing while Python runs \"{import}\": that module was built for the CUDA major the name carries"),
    )]
}
