//! Rules on the NVIDIA driver: its CUDA against the frameworks' and the log's, the kernel module
//! against the user-space libraries, its age for NVENC, a module of the other flavour.

use super::*;

/// The driver's newest CUDA against what the frameworks were built for.
pub fn driver_cuda_version(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::DriverTooOld) {
        return vec![];
    }
    let mut out = Vec::new();
    let (driver, whose) = match input.report.and_then(machine_driver_cuda) {
        Some((cuda, via)) => (Some(cuda), format!("the driver{via}")),
        None => (input.evidence.driver_cuda, "the driver".to_string()),
    };
    if let Some(found) = input.evidence.driver_cuda {
        out.push(adj(
            Category::DriverTooOld,
            1.5,
            format!("the driver supports CUDA {found} at most (\"found version\" in the log)"),
        ));
    }
    let (Some(driver), Some(_)) = (driver, input.report) else { return out };
    // Triton's kernels are compiled by the ptxas it bundles, not with the framework's CUDA: the
    // framework's version says nothing there (triton_ptxas_vs_driver weighs it).
    if input.signature.id == TRITON_KERNEL_IMAGE {
        return out;
    }
    for fw in relevant_frameworks(input) {
        let Some(cuda) = &fw.cuda else { continue };
        if cuda.value.major > driver.major
            || (cuda.value > driver && cuda.value.major == driver.major && cuda.value.major < 11)
        {
            out.push(adj(
                Category::DriverTooOld,
                5.0,
                format!(
                    "{} {} needs CUDA {}; {whose} supports CUDA {driver} at most",
                    fw.kind.name(),
                    fw.version.value,
                    cuda.value
                ),
            ));
        } else if cuda.value > driver {
            out.push(adj(
                Category::DriverTooOld,
                2.0,
                format!(
                    "{} {} is built for CUDA {}, newer than the {driver} {whose} supports (minor-version compatibility may not cover everything)",
                    fw.kind.name(),
                    fw.version.value,
                    cuda.value
                ),
            ));
        } else {
            out.push(adj(
                Category::DriverTooOld,
                0.3,
                format!(
                    "{whose} supports CUDA {driver}, enough for {} {} (CUDA {})",
                    fw.kind.name(),
                    fw.version.value,
                    cuda.value
                ),
            ));
        }
    }
    out
}

/// Kernel module version against the user-space driver libraries (and the NVML version in the log).
pub fn driver_module_vs_libraries(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::DriverLibraryMismatch) {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let Some(module) = &report.driver.kernel_module else { return vec![] };
    let kv = &module.version.value;
    let mut out = Vec::new();
    let mut differing = Vec::new();
    for lib in report.driver.libraries.iter().filter(|l| !l.forward_compat) {
        if let Some(v) = &lib.version {
            if v != kv {
                differing.push(format!("{} {v} at {}", lib.name, lib.path));
            }
        }
    }
    if let Some(nvml) = &input.evidence.nvml_library_version {
        if !kv.version().matches_prefix(nvml) {
            differing.push(format!("NVML library {nvml} (from the log)"));
        }
    }
    if differing.is_empty() {
        if !report.driver.libraries.is_empty() {
            out.push(adj(
                Category::DriverLibraryMismatch,
                0.3,
                format!("the kernel module and the driver libraries are all {kv}"),
            ));
        }
    } else {
        out.push(adj(
            Category::DriverLibraryMismatch,
            6.0,
            format!("the loaded kernel module is {kv} but {}", differing.join(", ")),
        ));
    }
    out
}

/// Whether the NVIDIA kernel module is loaded. Not for a cause that the open modules do not
/// drive a part of the GPU: a module is loaded then, and its flavour decides
/// ([`kernel_module_flavour`]).
pub fn driver_loaded(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::DriverNotLoaded)
        || input.signature.kernel_module_message
        || all_of_kind(input, Category::DriverNotLoaded, CauseKind::OpenKernelModules)
    {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    match &report.driver.kernel_module {
        Some(m) => vec![adj(
            Category::DriverNotLoaded,
            0.25,
            format!("the NVIDIA kernel module {} is loaded", m.version.value),
        )],
        None if !report.gpus.devices.is_empty() => vec![adj(
            Category::DriverNotLoaded,
            4.0,
            format!(
                "{} NVIDIA GPU(s) are on the PCI bus but no NVIDIA kernel module is loaded",
                report.gpus.devices.len()
            ),
        )],
        None => vec![],
    }
}

/// Another error of the same log says the kernel module and the user-space driver libraries are
/// of different releases (TensorFlow's "kernel version X does not match DSO version Y" printed a
/// few lines under "failed call to cuInit: CUDA_ERROR_NO_DEVICE"): the other errors follow from it.
pub fn driver_mismatch_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const MISMATCH: [&str; 3] =
        ["tf-kernel-dso-mismatch", "nvml-driver-library-mismatch", "cuda-system-driver-mismatch"];
    let what = "that the driver's kernel module and libraries differ";
    settled_elsewhere(input, &MISMATCH, Category::DriverLibraryMismatch, 10.0, what)
}

/// The same log shows the framework loading CUDA (a library it could not open, a failed cuInit):
/// it is a CUDA build, so a CPU-only build does not explain a missing GPU; a failed cuInit points
/// at the driver.
pub fn cuda_loading_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::CpuOnlyBuild) {
        return vec![];
    }
    const LOADING: [&str; 5] = [
        "tf-could-not-load-library",
        "loader-cuda-lib-missing",
        "loader-libcudnn-missing",
        "cuinit-failed",
        "cuda-no-device",
    ];
    let Some(id) = LOADING.iter().find(|id| input.seen.contains(*id)) else { return vec![] };
    let mut out = vec![adj(
        Category::CpuOnlyBuild,
        0.2,
        format!("the same log shows a CUDA build loading CUDA ({id})"),
    )];
    if matches!(*id, "cuinit-failed" | "cuda-no-device") && has(input, Category::DriverNotLoaded) {
        out.push(adj(
            Category::DriverNotLoaded,
            3.0,
            format!("the same log shows CUDA failing to start ({id})"),
        ));
    }
    out
}

/// NVENC's out-of-memory status with encode sessions open on this machine's GPUs now (NVML's
/// encoder statistics): the driver's cap on simultaneous sessions is the likelier reading.
pub fn encode_sessions_open(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "nvenc-session-limit" || !has(input, Category::Other) {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let open: Vec<String> = report
        .gpus
        .devices
        .iter()
        .filter(|g| g.visible)
        .filter_map(|g| {
            g.encoder_sessions.filter(|n| *n > 0).map(|n| format!("GPU {} has {n} open", g.index))
        })
        .collect();
    if open.is_empty() {
        return vec![];
    }
    vec![adj(Category::Other, 2.0, format!("encode sessions are open now ({}; NVML)", open.join(", ")))]
}

/// The driver version the NVENC message names as the minimum, against this machine's (the kernel
/// module's, else NVML's): older is the cause; as new or newer says the message came from
/// another machine's driver, or from a program that carries its own old copy of the libraries.
pub fn nvenc_driver_requirement(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "nvenc-driver-too-old" {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let Some(need) = input.evidence.group("need").and_then(|v| v.parse::<DriverVersion>().ok()) else {
        return vec![];
    };
    let module = report.driver.kernel_module.as_ref().map(|m| &m.version.value);
    let Some(driver) = module.or(report.driver.nvml_version.as_ref().map(|v| &v.value)) else {
        return vec![];
    };
    if *driver < need {
        vec![adj(
            Category::DriverTooOld,
            4.0,
            format!("this machine's driver {driver} is older than the {need} the message asks for"),
        )]
    } else {
        vec![adj(
            Category::DriverTooOld,
            0.3,
            format!("this machine's driver {driver} is at least the {need} the message asks for (was the message from another machine?)"),
        )]
    }
}

/// A cause that NVIDIA's open kernel modules do not drive a part of the GPU (NVENC on a GeForce
/// card before they supported its encoder) holds only where the open modules run: the
/// proprietary module says against it, the open one says nothing (whether this card's part is
/// driven is not known here).
pub fn kernel_module_flavour(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !input.signature.causes.iter().any(|c| c.kind == Some(CauseKind::OpenKernelModules)) {
        return vec![];
    }
    let Some(module) = input.report.and_then(|r| r.driver.kernel_module.as_ref()) else { return vec![] };
    match module.flavour {
        ModuleFlavour::Proprietary => vec![adj(
            Category::DriverNotLoaded,
            0.2,
            format!(
                "the proprietary NVIDIA kernel module {} is loaded, not the open one",
                module.version.value
            ),
        )],
        ModuleFlavour::Open | ModuleFlavour::Unknown => vec![],
    }
}

/// A missing video library of the driver (NVENC's libnvidia-encode.so.1, NVDEC's libnvcuvid.so.1),
/// read on what the machine holds first: where the library is present, the loader's path is to
/// blame; where it is absent in a container, the container's capabilities. The NVIDIA runtime
/// mounts both only with the `video` driver capability: NVIDIA_DRIVER_CAPABILITIES names it (or
/// `all`), and unset it means compute and utility only
/// (<https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html>).
/// The library outweighs the variable: the H200's container is set to compute,graphics,utility,
/// yet its /usr/local/nvidia/lib64 holds libnvidia-encode.so.580.159.04 (mounted by other means).
pub fn video_library_and_capability(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "video-library-missing" {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let Some(wanted) = driver_library_named(input) else { return vec![] };
    if let Some(lib) = report.driver.libraries.iter().find(|l| l.name == wanted) {
        let dir = lib.path.rsplit_once('/').map_or(lib.path.as_str(), |(d, _)| d);
        let fact = match lib.in_loader_cache {
            Some(true) => found_by_the_loader(&lib.path),
            Some(false) => format!(
                "{} is on this machine, but the loader's cache does not list it: a program finds it only through LD_LIBRARY_PATH (add {dir} to /etc/ld.so.conf.d and run ldconfig)",
                lib.path
            ),
            None => format!("{} is on this machine: the program's loader did not find it there", lib.path),
        };
        return vec![
            adj(Category::LibraryNotFound, 3.0, fact),
            adj(Category::ContainerRuntime, 0.3, format!("{} is on this machine", lib.path)),
            adj(Category::DriverNotLoaded, 0.3, format!("{} is on this machine", lib.path)),
        ];
    }
    if report.host.containers_around().is_empty() {
        return vec![];
    }
    let caps = report.environment.iter().find(|e| e.name == "NVIDIA_DRIVER_CAPABILITIES");
    match caps {
        Some(v) if v.value.split(',').any(|c| matches!(c.trim(), "video" | "all")) => vec![adj(
            Category::ContainerRuntime,
            0.2,
            format!("NVIDIA_DRIVER_CAPABILITIES={} includes video: the runtime mounts {wanted}", v.value),
        )],
        Some(v) => vec![adj(
            Category::ContainerRuntime,
            4.0,
            format!(
                "NVIDIA_DRIVER_CAPABILITIES={} leaves out video, so the NVIDIA runtime did not mount {wanted}",
                v.value
            ),
        )],
        None => vec![adj(
            Category::ContainerRuntime,
            2.0,
            "NVIDIA_DRIVER_CAPABILITIES is unset: the NVIDIA runtime then mounts the compute and utility libraries only",
        )],
    }
}

/// The newest CUDA this machine's driver runs, and what to say after "driver" of where that comes
/// from: libcuda's or NVML's own answer where the check ran live (nothing to add), else the
/// kernel module's version read against the CUDA table (a `--root` check, or a report saved with
/// `--no-live`: " (kernel module 470.256.02)"). The module gives no forward-compatibility
/// libraries their due, so it is the second choice.
pub(super) fn machine_driver_cuda(report: &Report) -> Option<(CudaVersion, String)> {
    if let Some(f) = &report.driver.cuda_supported {
        return Some((f.value, String::new()));
    }
    let module = report.driver.kernel_module.as_ref()?;
    let cuda = newest_cuda_of(&module.version.value)?;
    Some((cuda, format!(" (kernel module {})", module.version.value)))
}

/// The newest CUDA release whose minimum Linux driver `driver` meets (the CUDA version nvidia-smi
/// would show), from the knowledge base's CUDA table.
pub(super) fn newest_cuda_of(driver: &DriverVersion) -> Option<CudaVersion> {
    let kb = crate::kb::kb().ok()?;
    kb.cuda.release.iter().filter(|r| r.linux.as_ref().is_some_and(|l| l <= driver)).map(|r| r.version).max()
}

/// The log names a driver version and a CUDA version the user runs (or a TensorFlow release, whose
/// GPU build loads the CUDA it was built for): a driver older than that CUDA needs makes a too-old
/// driver likely for any error that one explains (Error 804 with "driver 470 … CUDA 11.7":
/// <https://github.com/PKU-YuanGroup/Video-LLaVA/issues/22>; TensorFlow 1.5 on driver 384.69, fixed
/// by 387.34: <https://github.com/localminimum/QANet/issues/5>). A driver older than the first
/// release of that CUDA major runs none of it (minor version compatibility holds only within a
/// major), which weighs more than a newer minor. With a machine's facts, `driver_cuda_version`
/// decides instead.
pub fn driver_vs_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::DriverTooOld) {
        return vec![];
    }
    let Some(driver) = &input.evidence.driver_version else { return vec![] };
    let (cuda, via) = match (input.evidence.cuda_in_log, input.evidence.tf_in_log.as_ref()) {
        (Some(cuda), _) => (cuda, String::new()),
        (None, Some(tf)) => match tensorflow_build_cuda(tf) {
            Some(cuda) => (cuda, format!(" (TensorFlow {tf} is built for it)")),
            None => return vec![],
        },
        (None, None) => return vec![],
    };
    let Some(newest) = newest_cuda_of(driver) else { return vec![] };
    let shown = if driver.to_string().ends_with(".999.99") {
        format!("branch {}", driver.branch())
    } else {
        driver.to_string()
    };
    if cuda > newest {
        let factor = if newest.major < cuda.major { 8.0 } else { 3.0 };
        vec![adj(
            Category::DriverTooOld,
            factor,
            format!(
                "the log names driver {shown}, which supports CUDA {newest} at most, and CUDA {cuda}{via}"
            ),
        )]
    } else {
        vec![adj(
            Category::DriverTooOld,
            0.5,
            format!(
                "the log names driver {shown}, which supports CUDA {newest}, enough for CUDA {cuda}{via}"
            ),
        )]
    }
}

/// The user says the system or the driver was just upgraded, for an error that a driver upgrade
/// without a reboot causes (the new libcuda runs against the old kernel module): the CUDA
/// maintainers' first answer in such threads (<https://github.com/diku-dk/futhark/issues/1117>,
/// cuInit failing with 999 after Ubuntu's automatic upgrades; fixed by rebooting).
pub fn upgrade_without_reboot(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::DriverLibraryMismatch) {
        return vec![];
    }
    let Some(phrase) = input.evidence.upgrade_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::DriverLibraryMismatch,
        3.0,
        format!(
            "the log says \"{phrase}\": an upgraded driver runs with the old kernel module until a reboot"
        ),
    )]
}

/// XLA's "You are using ptxas 8.x" with a newer CUDA named in the log: the newer toolkit is
/// installed, XLA just found an old one's ptxas first (it looks under its build's CUDA root and
/// /usr/local/cuda before PATH: <https://github.com/tensorflow/tensorflow/issues/33375>,
/// <https://github.com/tensorflow/tensorflow/issues/39716>).
pub fn ptxas_older_than_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || input.signature.id != "xla-ptxas-outdated" {
        return vec![];
    }
    let ev = input.evidence;
    let ptxas = ev.group("ptxas");
    let Some(major) = ptxas.and_then(|v| v.split('.').next()).and_then(|m| m.parse::<u32>().ok()) else {
        return vec![];
    };
    let Some(cuda) = ev.cuda_in_log else { return vec![] };
    if cuda.major <= major {
        return vec![];
    }
    vec![
        adj(
            Category::LibraryNotFound,
            3.0,
            format!("XLA used ptxas {} while the log names CUDA {cuda}: the newer toolkit is installed but not found first", ptxas.unwrap_or_default()),
        ),
        adj(Category::CudaRuntimeMismatch, 0.5, format!("the log names CUDA {cuda}, newer than the ptxas XLA used")),
    ]
}

/// "No kernel image" from JAX/XLA with a driver older than the CUDA the log names: XLA compiles its
/// kernels at run time for the GPU it runs on, with the installed CUDA's ptxas, so a kernel missing
/// there is most often code the older driver cannot load, not a GPU the build left out (driver 470
/// with CUDA 11.6/11.7: <https://github.com/jax-ml/jax/issues/5723>, /11967, where a CUDA matching
/// the driver or a newer driver fixed it). `driver_vs_cuda_in_log` weighs the versions themselves.
pub fn xla_kernel_image_vs_driver(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || input.signature.id != "cuda-no-kernel-image" {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(marker), Some(driver), Some(cuda)) =
        (ev.jax_in_log.as_deref(), &ev.driver_version, ev.cuda_in_log)
    else {
        return vec![];
    };
    let Some(newest) = newest_cuda_of(driver) else { return vec![] };
    if cuda <= newest {
        return vec![];
    }
    vec![
        adj(
            Category::DriverTooOld,
            8.0,
            format!(
                "the log comes from JAX/XLA ({marker}), which compiles its kernels at run time with CUDA {cuda}, newer than the driver's CUDA {newest}"
            ),
        ),
        adj(Category::ArchUnsupported, 0.4, "XLA compiles its kernels for the GPU it runs on"),
    ]
}

pub(super) const TRITON_KERNEL_IMAGE: &str = "triton-kernel-image-invalid";

/// Triton compiles each kernel with the ptxas it bundles, of CUDA 12 since Triton 2.1 (the one
/// PyTorch 2.1 pins): a driver that supports only CUDA 11 cannot load the result, whatever CUDA the
/// framework was built for (driver 470 in <https://github.com/triton-lang/triton/issues/3001> and
/// <https://github.com/pytorch/pytorch/issues/119054>, 515 in
/// <https://github.com/vllm-project/vllm/issues/5713>). The driver's CUDA comes from this machine,
/// or else from a driver version or "found version" in the log.
pub fn triton_ptxas_vs_driver(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != TRITON_KERNEL_IMAGE {
        return vec![];
    }
    let ev = input.evidence;
    let (driver, whose) = match input.report.and_then(machine_driver_cuda) {
        Some((cuda, via)) => (cuda, format!("this machine's driver{via}")),
        None => match ev.driver_cuda.or_else(|| ev.driver_version.as_ref().and_then(newest_cuda_of)) {
            Some(c) => (c, "the driver in the log".to_string()),
            None => return vec![],
        },
    };
    if driver.major < 12 {
        vec![
            adj(
                Category::DriverTooOld,
                4.0,
                format!(
                    "{whose} supports CUDA {driver} at most; Triton 2.1 and later compile with the CUDA 12 ptxas they bundle"
                ),
            ),
            adj(Category::ArchUnsupported, 0.5, "Triton compiles its kernels for the GPU it runs on"),
        ]
    } else if driver.major >= 13 {
        // Triton 3.6 (PyTorch 2.11) bundles the ptxas of CUDA 12.8 and, for Blackwell, 12.9: read
        // on the H200 (`ptxas --version` in triton/backends/nvidia/bin).
        vec![adj(
            Category::DriverTooOld,
            0.3,
            format!(
                "{whose} supports CUDA {driver}, newer than the ptxas Triton bundles (CUDA 12.8, and 12.9 for Blackwell, in Triton 3.6)"
            ),
        )]
    } else {
        vec![]
    }
}

/// CUDA's initialisation error (cuInit returning 3) where the log names a 570-series or newer
/// driver and shows no fork or worker processes: the known cause there is a driver bug, the
/// nvidia_uvm module's HMM support on some kernels, fixed by `uvm_disable_hmm=1`
/// (<https://github.com/NVIDIA/open-gpu-kernel-modules/issues/947>, /797, /901;
/// <https://github.com/ollama/ollama/issues/11593>). A fork before it is the program's doing; a
/// suspend or resume the user mentions is the nvidia_uvm module (<https://github.com/ollama/ollama/issues/2227>).
pub fn init_failure_with_hmm_driver(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-initialization-error" || !has(input, Category::Other) {
        return vec![];
    }
    let ev = input.evidence;
    if let Some(phrase) = ev.suspend_in_log.as_deref() {
        return vec![adj(
            Category::DriverNotLoaded,
            3.0,
            format!("the log says \"{phrase}\": after a suspend or resume the nvidia_uvm module is often unusable until reloaded"),
        )];
    }
    if ev.fork_in_log.is_some() {
        return vec![];
    }
    let Some(driver) = ev.driver_version.as_ref().filter(|d| d.branch() >= 570) else { return vec![] };
    vec![
        adj(
            Category::Other,
            8.0,
            format!("the log names driver {driver}: with 570 and newer, the UVM module's HMM support makes cuInit fail this way on some kernels"),
        ),
        adj(Category::UserCodeBug, 0.4, "the log shows no fork or worker processes before CUDA starts"),
    ]
}

/// The text shows the kernel driver kept from loading (Secure Boot, a rejected module key) or
/// unreachable ("couldn't communicate with the NVIDIA driver"), whatever program then failed:
/// 14 of the 17 corpus reports with these words were settled by getting the module loaded
/// (<https://github.com/NVIDIA/gpu-driver-container/issues/44>, <https://github.com/Start9Labs/start-os/issues/3702>),
/// and all 4 naming nouveau; the other three were containers and a WSL regression. In a container
/// an unreachable driver is the runtime's to pass through, so there only what happens on the host
/// (Secure Boot, nouveau) counts.
pub fn driver_blocked_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::DriverNotLoaded) {
        return vec![];
    }
    let ev = input.evidence;
    let unreachable = ev.driver_unreachable.as_deref().filter(|_| ev.container_in_log.is_none());
    let Some(phrase) = ev.driver_blocked.as_deref().or(unreachable) else { return vec![] };
    vec![adj(
        Category::DriverNotLoaded,
        6.0,
        format!("the text says \"{phrase}\": the kernel module is not loaded or not reachable"),
    )]
}

/// The user says the failure came after a suspend, hibernation or resume: the nvidia_uvm module
/// (and on laptops the discrete GPU itself) is often unusable until reloaded or the machine is
/// restarted (<https://github.com/ollama/ollama/issues/2227>, <https://github.com/seerge/g-helper/issues/2254>).
/// CUDA's initialisation error has its own rule ([`init_failure_with_hmm_driver`]).
pub fn suspend_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id == "cuda-initialization-error" || !has(input, Category::DriverNotLoaded) {
        return vec![];
    }
    let Some(phrase) = input.evidence.suspend_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::DriverNotLoaded,
        3.0,
        format!("the text says \"{phrase}\": after a suspend or resume the GPU's driver modules are often unusable until reloaded"),
    )]
}

/// "CUDA driver version is insufficient for CUDA runtime version" where the log names a driver
/// that runs CUDA 12 (and no CUDA version the program needs): by CUDA's minor version
/// compatibility every CUDA 12 runtime works on such a driver, so the message rarely means an old
/// driver there. The CUDA runtime also returns it when it finds no libcuda at all, which is how a
/// container started without GPU access fails (driver 565.77 on the host, faster-whisper in an
/// Unraid container without the NVIDIA runtime: <https://github.com/SYSTRAN/faster-whisper/issues/1229>;
/// <https://docs.nvidia.com/deploy/cuda-compatibility/#minor-version-compatibility>). With a CUDA
/// version in the log, `driver_vs_cuda_in_log` compares the two instead.
pub fn insufficient_driver_on_a_cuda12_driver(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some()
        || input.signature.id != "cuda-insufficient-driver"
        || input.evidence.cuda_in_log.is_some()
        || input.evidence.tf_in_log.is_some()
        || !has(input, Category::DriverTooOld)
    {
        return vec![];
    }
    let Some(driver) = &input.evidence.driver_version else { return vec![] };
    let Some(newest) = newest_cuda_of(driver) else { return vec![] };
    if newest.major < 12 {
        return vec![];
    }
    vec![adj(
        Category::DriverTooOld,
        0.4,
        format!(
            "the log names driver {driver}, which runs CUDA {newest} and so every CUDA 12 runtime: an insufficient driver there more often means no libcuda was found"
        ),
    )]
}
