//! Rules on the GPUs a program sees and how it uses them: visibility (CUDA_VISIBLE_DEVICES, WSL,
//! notebooks without a GPU, MIG, compute mode), forks, tensors on two devices, hardware hints.

use super::*;

/// The kernel log in the same text shows the GPU's hardware failing: memory errors (Xid 48 DBE,
/// 63/64 row remapping, 92/94/95 contained and uncontained ECC), the GPU fallen off the bus (79),
/// NVLink or GSP errors: a hang, a timeout or a CUDA error around them is that GPU
/// (<https://docs.nvidia.com/deploy/xid-errors/index.html>; a vLLM engine hanging on an A100 whose
/// HBM logged Xid 48/63/94: <https://github.com/wtdcode/vllm-backport/issues/62>). Application
/// faults (13, 31, 43) say nothing of the hardware by themselves.
pub fn hardware_xid_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const XID: [&str; 3] = ["xid-memory", "xid-fallen-off-bus", "xid-nvlink-gsp"];
    settled_elsewhere(input, &XID, Category::HardwareFault, 6.0, "a GPU hardware error in the kernel log")
}

/// CUDA_VISIBLE_DEVICES against the GPUs present.
pub fn gpu_visibility(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // Only an environment cause about the variable is argued, for or against: a signature whose
    // environment cause is LD_LIBRARY_PATH, TORCH_CUDA_ARCH_LIST or NCCL's is not argued with every
    // GPU being visible, nor with none being.
    let about_visibility = input.signature.causes.iter().any(|c| {
        c.category == Category::EnvVarMisconfig
            && c.variable.as_deref() == Some(crate::explain::CUDA_VISIBLE_DEVICES)
    });
    if !about_visibility {
        return vec![];
    }
    let from_report = input.report.and_then(|r| r.gpus.cuda_visible_devices.clone());
    let (value, origin) = match (from_report, &input.evidence.cuda_visible_devices) {
        (Some(v), _) => (v, "is set to"),
        (None, Some(v)) => (v.clone(), "is set in the log to"),
        (None, None) => {
            return match input.report {
                Some(r) if !r.gpus.devices.is_empty() => {
                    vec![adj(
                        Category::EnvVarMisconfig,
                        0.7,
                        "CUDA_VISIBLE_DEVICES is not set: every GPU is visible",
                    )]
                }
                _ => vec![],
            };
        }
    };
    let count = input.report.map(|r| r.gpus.devices.len());
    let trimmed = value.trim();
    let renumbered = input.signature.id == "cuda-invalid-device-ordinal";
    if trimmed.is_empty()
        || trimmed == "-1"
        || trimmed.eq_ignore_ascii_case("none")
        || trimmed == "NoDevFiles"
    {
        return vec![adj(
            Category::EnvVarMisconfig,
            6.0,
            format!("CUDA_VISIBLE_DEVICES {origin} \"{trimmed}\": no GPU is visible"),
        )];
    }
    if let Some(count) = count {
        let beyond: Vec<&str> = trimmed
            .split(',')
            .map(str::trim)
            .filter(|s| s.parse::<usize>().is_ok_and(|i| i >= count))
            .collect();
        if !beyond.is_empty() {
            return vec![adj(
                Category::EnvVarMisconfig,
                6.0,
                format!("CUDA_VISIBLE_DEVICES {origin} \"{trimmed}\" but this machine has {count} GPU(s) (indices from 0)"),
            )];
        }
        return vec![adj(
            Category::EnvVarMisconfig,
            if renumbered { 1.5 } else { 0.8 },
            format!("CUDA_VISIBLE_DEVICES {origin} \"{trimmed}\", which exists here"),
        )];
    }
    if renumbered {
        // Visible GPUs are numbered from 0: with CUDA_VISIBLE_DEVICES=1, "cuda:1" does not exist.
        return vec![adj(
            Category::EnvVarMisconfig,
            2.0,
            format!("CUDA_VISIBLE_DEVICES {origin} \"{trimmed}\": the GPUs it leaves visible are renumbered from 0"),
        )];
    }
    vec![]
}

/// On a GPU in MIG mode a CUDA process enumerates one MIG instance only, the one
/// CUDA_VISIBLE_DEVICES names (by its `MIG-<uuid>`), so an ordinal past 0 is invalid and a job
/// given another slice's index finds none
/// (<https://docs.nvidia.com/datacenter/tesla/mig-user-guide/index.html#cuda-device-enumeration>;
/// <https://github.com/mlcommons/training/issues/442>, a Slurm node's A100 slices). The machine's
/// GPUs say whether MIG is on; without a report, the log must name MIG.
pub fn mig_device_selection(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const SIGNATURES: [&str; 3] =
        ["cuda-invalid-device-ordinal", "torch-allocator-nvml-assert", "torch-device-num-gpus-assert"];
    if !SIGNATURES.contains(&input.signature.id.as_str()) || !has(input, Category::EnvVarMisconfig) {
        return vec![];
    }
    let fact = match input.report {
        Some(r) if r.gpus.devices.iter().any(|g| g.mig_enabled == Some(true)) => {
            "a GPU of this machine is in MIG mode: a CUDA process sees one MIG instance, the one CUDA_VISIBLE_DEVICES names".to_string()
        }
        Some(_) => return vec![],
        None => match input.evidence.mig_in_log.as_deref() {
            Some(hint) => format!(
                "the log shows MIG (\"{hint}\"): a CUDA process sees one MIG instance, the one CUDA_VISIBLE_DEVICES names"
            ),
            None => return vec![],
        },
    };
    vec![adj(Category::EnvVarMisconfig, 3.0, fact)]
}

/// The user says the machine has no NVIDIA GPU: for a signature that lists "no NVIDIA GPU" among
/// its causes (filed as `other`), that cause. With a machine's facts, its GPU list decides.
pub fn no_nvidia_gpu_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() {
        return vec![];
    }
    let Some(phrase) = input.evidence.no_nvidia_gpu.as_deref() else { return vec![] };
    // The cause that a machine without an NVIDIA GPU explains (`other`; for "Torch not compiled
    // with CUDA enabled" too, https://github.com/NVlabs/neuralrgbd/issues/24: no GPU, a CPU torch
    // installed on purpose, the code calling .cuda()).
    let Some(cause) = no_gpu_cause(input) else { return vec![] };
    // "I run it on the CPU" says what happens, not what the machine has: where a CPU-only build is
    // a cause, a GPU machine with a CPU torch reads the same.
    if has(input, Category::CpuOnlyBuild) && phrase.to_lowercase().contains("cpu") {
        return vec![];
    }
    let mut out = vec![adj(cause.category, 4.0, format!("the log says \"{phrase}\": no NVIDIA GPU to use"))];
    // A machine whose graphics are Intel's or AMD's, and no NVIDIA GPU named beside them: a
    // container runtime that would hand the container a GPU has none to hand (Docker's "could not
    // select device driver" on an Intel Xe laptop: https://github.com/fboulnois/stable-diffusion-docker/issues/82;
    // a ComfyUI image on an Intel iGPU: https://github.com/ai-dock/comfyui/issues/79).
    if cause.category != Category::ContainerRuntime
        && has(input, Category::ContainerRuntime)
        && !phrase.to_lowercase().contains("cpu")
        && input.evidence.compute_capability.is_none()
    {
        out.push(adj(
            Category::ContainerRuntime,
            0.25,
            format!("the log says \"{phrase}\": the container runtime has no NVIDIA GPU to give"),
        ));
    }
    if cause.category != Category::CpuOnlyBuild && has(input, Category::CpuOnlyBuild) {
        out.push(adj(
            Category::CpuOnlyBuild,
            0.25,
            format!(
                "the log says \"{phrase}\": a CPU build is the right one for a machine without an NVIDIA GPU"
            ),
        ));
    }
    out
}

/// An illegal memory access in a kernel user code does not index into: a convolution (cuDNN
/// picks and runs the kernel: a Conv2d failing only with cuDNN 8.2,
/// <https://github.com/pytorch/pytorch/issues/75734>; Conv3d only for batch 25 and up, fixed in
/// cuDNN 7.6, <https://github.com/pytorch/pytorch/issues/17930>; Conv1d, a cuDNN wgrad kernel
/// reading out of bounds, <https://github.com/pytorch/pytorch/issues/127605>; Conv3d in PyTorch 1.5,
/// <https://github.com/pytorch/pytorch/issues/51333>) or code TorchInductor generated (max-autotune
/// benchmarking, <https://github.com/pytorch/pytorch/issues/95335>; a cat kernel's autotuning,
/// <https://github.com/pytorch/pytorch/issues/127652>): for a signature that lists "a bug in the
/// framework or a vendor library" (filed as `other`), that bug before the user's indices.
pub fn library_kernel_fault(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(marker) = input.evidence.library_kernel.as_deref() else { return vec![] };
    let library_bug = input.signature.causes.iter().any(|c| c.kind == Some(CauseKind::LibraryBug));
    if !library_bug || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    vec![
        adj(
            Category::Other,
            5.0,
            format!("the fault is in a library's kernel ({marker}): its indexing is the library's, not the program's"),
        ),
        adj(Category::UserCodeBug, 0.5, format!("user code does not index into {marker}'s kernel")),
    ]
}

/// The cause of `signature` that a machine or runtime without a usable NVIDIA GPU explains (filed
/// as `other`).
pub(super) fn no_gpu_cause<'a>(input: &RuleInput<'a>) -> Option<&'a crate::explain::Cause> {
    input.signature.causes.iter().find(|c| c.kind == Some(CauseKind::NoGpu))
}

/// The log shows WSL 1 (a `4.4.0-<build>-Microsoft` kernel): WSL 1 does not expose the Windows
/// driver to Linux at all, so nothing installed inside it (a Linux driver, libcuda, a toolkit) can
/// reach the GPU; the fix is to convert the distribution to WSL 2
/// (<https://github.com/microsoft/WSL/issues/5554>, <https://github.com/CompVis/stable-diffusion/issues/161>).
/// Filed as the driver not loaded, as the corpus does; the loader and container causes drop, and
/// the WSL 2 loader-path rule stays quiet.
pub fn wsl1_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::DriverNotLoaded) {
        return vec![];
    }
    let Some(hint) = input.evidence.wsl1_in_log.as_deref() else { return vec![] };
    let mut out = vec![adj(
        Category::DriverNotLoaded,
        4.0,
        format!("the log shows WSL 1 (\"{hint}\"), which does not expose the Windows driver to Linux"),
    )];
    for other in [Category::LibraryNotFound, Category::ContainerRuntime] {
        if has(input, other) {
            out.push(adj(other, 0.5, "on WSL 1 nothing inside Linux can reach the GPU"));
        }
    }
    out
}

/// The log shows a Colab notebook and CUDA is reported unavailable: a Colab runtime has a GPU only
/// when the notebook's runtime type asks for one, and the maintainers' answer to these reports is
/// to switch it (<https://github.com/googlecolab/colabtools/issues/482>, /930: "To use a GPU, you
/// need to switch to a GPU runtime"). Not when the log shows a CPU build of torch or a driver too
/// old for it, which explain it on a GPU runtime too.
pub fn notebook_without_gpu(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() {
        return vec![];
    }
    let ev = input.evidence;
    let Some(hint) = ev.colab_in_log.as_deref() else { return vec![] };
    if ev.cpu_build_in_log.is_some() || ev.driver_cuda.is_some() || ev.no_nvidia_gpu.is_some() {
        return vec![];
    }
    let Some(cause) = no_gpu_cause(input) else { return vec![] };
    let mut out = vec![adj(
        cause.category,
        4.0,
        format!(
            "the log shows Colab (\"{hint}\"), whose runtime has no GPU unless a GPU runtime type is chosen"
        ),
    )];
    if cause.category != Category::CpuOnlyBuild && has(input, Category::CpuOnlyBuild) {
        out.push(adj(Category::CpuOnlyBuild, 0.5, "the torch Colab installs is a CUDA build"));
    }
    out
}

/// The log shows WSL: there the driver runs on Windows and CUDA reaches it through the libcuda in
/// /usr/lib/wsl/lib, so for an error about finding the driver (a signature listing both the
/// loader path and a missing driver) the loader path is the likely cause, most often a Linux
/// driver package installed inside WSL that shadows it (NVIDIA's CUDA on WSL guide; the WSL
/// reports in the corpus, e.g. <https://github.com/Genesis-Embodied-AI/genesis-world/issues/114>).
pub fn wsl_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some()
        || !has(input, Category::LibraryNotFound)
        || !has(input, Category::DriverNotLoaded)
    {
        return vec![];
    }
    let Some(hint) = input.evidence.wsl_in_log.as_deref() else { return vec![] };
    // WSL 1 has no GPU at all: `wsl1_in_log` speaks for it.
    if input.evidence.wsl1_in_log.is_some() {
        return vec![];
    }
    vec![
        adj(
            Category::LibraryNotFound,
            5.0,
            format!("the log shows WSL (\"{hint}\"): CUDA must load libcuda from /usr/lib/wsl/lib"),
        ),
        adj(
            Category::DriverNotLoaded,
            0.4,
            "on WSL the driver is loaded by Windows, not by a Linux kernel module",
        ),
    ]
}

/// No driver found on WSL, outside a container: WSL's GPU comes from the Windows driver, which only
/// WSL 2 exposes (<https://docs.nvidia.com/cuda/wsl-user-guide/index.html>; a distro left on WSL 1:
/// <https://github.com/CompVis/stable-diffusion/issues/161>). Neither a container nor a machine
/// without an NVIDIA GPU is the likelier story there.
pub fn wsl_without_driver(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    if input.report.is_some()
        || has(input, Category::LibraryNotFound)
        || !has(input, Category::DriverNotLoaded)
        || ev.container_in_log.is_some()
    {
        return vec![];
    }
    let Some(hint) = ev.wsl_in_log.as_deref() else { return vec![] };
    let mut out = vec![adj(
        Category::DriverNotLoaded,
        3.0,
        format!("the log shows WSL (\"{hint}\"): its driver comes from Windows, through WSL 2 only"),
    )];
    if has(input, Category::ContainerRuntime) {
        out.push(adj(Category::ContainerRuntime, 0.5, "the log shows WSL and no container"));
    }
    out
}

/// The compute mode of the GPU, for a signature whose causes include a GPU held in an exclusive
/// compute mode: an nvidia-smi table showing `E. Process` makes it likely; native Windows makes it
/// unlikely (exclusive modes need TCC, GeForce and WDDM GPUs stay in Default), where the error
/// mostly follows a broken driver install
/// (<https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/2986>).
pub fn compute_mode_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() {
        return vec![];
    }
    let Some(exclusive) = input
        .signature
        .causes
        .iter()
        .find(|c| c.kind == Some(CauseKind::ExclusiveComputeMode))
        .map(|c| c.category)
    else {
        return vec![];
    };
    if let Some(mode) = input.evidence.exclusive_compute_mode.as_deref() {
        return vec![adj(exclusive, 4.0, format!("nvidia-smi in the log shows the compute mode \"{mode}\""))];
    }
    let Some(win) = input.evidence.windows_in_log.as_deref() else { return vec![] };
    let mut out = vec![adj(
        exclusive,
        0.2,
        format!(
            "the log shows Windows (\"{win}\"), where GPUs in WDDM mode stay in the Default compute mode"
        ),
    )];
    if has(input, Category::DriverNotLoaded) && exclusive != Category::DriverNotLoaded {
        out.push(adj(
            Category::DriverNotLoaded,
            2.0,
            format!("on Windows (\"{win}\") this error mostly follows a broken driver install"),
        ));
    }
    out
}

/// The user describes the card pushed or the machine failing (an overclock or undervolt, the power
/// supply, a mining rig, the OS crashing) around a kernel fault that unstable hardware also causes:
/// miners' illegal memory accesses are overclocks and power in their maintainers' experience
/// (<https://github.com/ethereum-mining/ethminer/issues/285>, <https://github.com/nicehash/excavator/issues/18>,
/// <https://github.com/miniZ-miner/miniZ/issues/1>: a failing PSU; <https://github.com/h2oai/h2ogpt/issues/490>:
/// an undervolt).
pub fn hardware_hint_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::HardwareFault) || input.signature.causes.len() < 2 {
        return vec![];
    }
    let Some(phrase) = input.evidence.hardware_hint.as_deref() else { return vec![] };
    vec![adj(Category::HardwareFault, 6.0, format!("the log says \"{phrase}\": the hardware, not a program"))]
}

/// An invalid device ordinal in a job that spans several machines: each process must pick its GPU
/// by its rank on its own node, which the launcher or the training library computes; in the
/// corpus those threads were that library taking the global rank (PyTorch Lightning under SLURM:
/// <https://github.com/Lightning-AI/pytorch-lightning/issues/7027>; TRL and llama-cookbook on two
/// nodes: <https://github.com/huggingface/trl/issues/515>,
/// <https://github.com/meta-llama/llama-cookbook/issues/90>), fixed in a later release.
pub fn device_ordinal_on_several_nodes(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-invalid-device-ordinal" || !has(input, Category::Other) {
        return vec![];
    }
    let Some(phrase) = input.evidence.multi_node.as_deref() else { return vec![] };
    vec![adj(
        Category::Other,
        16.0,
        format!("the job spans several machines (\"{phrase}\"): the launcher or library maps each process to a GPU of its own node, and a global rank used as the device index is past that node's GPUs"),
    )]
}

/// Whose fork a "Cannot re-initialize CUDA in forked subprocess" is, when the log has the
/// traceback: a frame of an installed library (other than PyTorch) is that library starting its
/// workers; frames of the program's own files and Python's multiprocessing only are the program
/// forking (provoked on the H200: a `multiprocessing` fork Pool after a CUDA tensor,
/// tests/fixtures/h200-errors/fork.log).
pub fn who_forked(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-forked-subprocess" {
        return vec![];
    }
    let ev = input.evidence;
    if let Some(library) = ev.library_frame.as_deref() {
        return vec![adj(
            Category::Other,
            2.0,
            format!("the traceback runs through the installed package {library}: it starts the workers"),
        )];
    }
    let Some(own) = ev.own_frame.as_deref() else { return vec![] };
    vec![adj(
        Category::UserCodeBug,
        2.0,
        format!("the traceback's frames are the program's own ({own}), Python's and PyTorch's: the program forks its workers"),
    )]
}

/// Tensors on two different GPUs ("found at least two devices, cuda:0 and cuda:1"): a program
/// that moves its tensors with one .to(device) puts them on one GPU; a model spread over several
/// is a library's placement (device_map="auto", a pipeline, FSDP), and the threads were that
/// library's bug (see the signature's sources), or fixed as often by making one GPU visible.
pub fn tensors_on_two_gpus(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "torch-tensor-device-mismatch" || !has(input, Category::Other) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(a), Some(b)) = (ev.group("device"), ev.group("other_device")) else { return vec![] };
    if !(a.starts_with("cuda") && b.starts_with("cuda") && a != b) {
        return vec![];
    }
    // The same threads were fixed as often by making one GPU visible as by the library's fix.
    vec![
        adj(
            Category::Other,
            20.0,
            format!("the tensors are on two GPUs ({a} and {b}): the model is spread over several GPUs, which a library does"),
        ),
        adj(
            Category::EnvVarMisconfig,
            16.0,
            format!("the tensors are on two GPUs ({a} and {b}): with one GPU visible, all of them land on it"),
        ),
    ]
}

/// A GPU and the CPU in the "Expected all tensors to be on the same device" form (or PyTorch
/// 1.4's "Expected object of backend"): in issue threads the tensor left behind was the library's
/// own (a mask, an index or a buffer it builds), fixed in its release; only a traceback that ends
/// in the program's own file, through no installed package, keeps the program first. The "Input
/// type … and weight type" form stays the program's (see the signature's sources).
pub fn library_left_a_tensor_behind(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "torch-tensor-device-mismatch" || !has(input, Category::Other) {
        return vec![];
    }
    let ev = input.evidence;
    let form = match (ev.group("all_tensors"), ev.group("backend")) {
        (Some(_), _) => "Expected all tensors",
        (None, Some(_)) => "Expected object of backend",
        (None, None) => return vec![],
    };
    // Two GPUs are `tensors_on_two_gpus`'s.
    let on_gpu = |d: Option<&str>| d.is_some_and(|d| d.starts_with("cuda"));
    if on_gpu(ev.group("device")) && on_gpu(ev.group("other_device")) {
        return vec![];
    }
    if ev.own_frame.is_some() && ev.library_frame.is_none() {
        return vec![];
    }
    let fact = match ev.library_frame.as_deref() {
        Some(library) => format!("the traceback runs through the installed package {library}, which made the tensors"),
        None => format!(
            "PyTorch raised it in its \"{form}\" form, which in reported threads was mostly a library's own tensor left on the CPU"
        ),
    };
    vec![adj(Category::Other, 12.0, fact)]
}

/// Any other CUDA library error in a log that also shows a device-side assertion: the assertion
/// leaves the CUDA context unusable, so the next library call fails too (on an H200 with PyTorch
/// 2.11, an embedding index past its table prints `Assertion `srcIndex < srcSelectDimSize`
/// failed` and then `CUBLAS_STATUS_INTERNAL_ERROR when calling cublasCreate(handle)`). The fix is
/// the assertion's: the program's indices.
pub fn error_after_device_assert(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id == "cuda-device-assert"
        || !input.seen.contains("cuda-device-assert")
        || !has(input, Category::UserCodeBug)
    {
        return vec![];
    }
    vec![adj(
        Category::UserCodeBug,
        4.0,
        "the log also shows a device-side assertion, which breaks the CUDA context: this error is its consequence",
    )]
}
