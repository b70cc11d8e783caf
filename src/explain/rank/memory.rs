//! Rules on memory: GPU memory in use and by whom, an out-of-memory error's own figures, allocator
//! settings, shared memory per block.

use super::*;

pub(super) fn gib(mib: f64) -> String {
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

/// GPU memory already in use on this machine (other processes holding it).
pub fn memory_in_use(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(report) = input.report else { return vec![] };
    // Only a GPU's memory: where each memory cause is the host's, the GPUs say nothing of it.
    if all_of_kind(input, Category::Oom, CauseKind::HostMemory) {
        return vec![];
    }
    let mut out = Vec::new();
    for gpu in report.gpus.devices.iter().filter(|g| g.visible) {
        let (Some(used), Some(total)) = (gpu.memory_used_mib, gpu.memory_total_mib) else { continue };
        if total == 0 {
            continue;
        }
        let frac = used as f64 / total as f64;
        let name = gpu.name.as_deref().unwrap_or("GPU");
        let holders: Vec<String> = gpu
            .processes
            .iter()
            .map(|p| {
                let who = p.name.as_deref().unwrap_or("process");
                match p.used_mib {
                    Some(m) => format!("{who} (pid {}) {}", p.pid, gib(m as f64)),
                    None => format!("{who} (pid {})", p.pid),
                }
            })
            .collect();
        let by = if holders.is_empty() { String::new() } else { format!(", held by {}", holders.join(", ")) };
        if frac >= 0.8 {
            out.push(adj(
                Category::Oom,
                5.0,
                format!(
                    "GPU {} ({name}) has {} of {} in use now{by}",
                    gpu.index,
                    gib(used as f64),
                    gib(total as f64)
                ),
            ));
        } else if frac <= 0.3 {
            out.push(adj(
                Category::Oom,
                0.6,
                format!(
                    "GPU {} ({name}) has {} of {} free now",
                    gpu.index,
                    gib((total - used) as f64),
                    gib(total as f64)
                ),
            ));
        }
    }
    out
}

/// Another error of the same log, one of `ids`, settles `category` for this one: raise it by
/// `factor`, saying which (`what` completes "the same log also reports …").
pub(super) fn settled_elsewhere(
    input: &RuleInput<'_>,
    ids: &[&str],
    category: Category,
    factor: f64,
    what: &str,
) -> Vec<Adjustment> {
    if ids.contains(&input.signature.id.as_str()) || !has(input, category) {
        return vec![];
    }
    match ids.iter().find(|id| input.seen.contains(*id)) {
        Some(id) => vec![adj(category, factor, format!("the same log also reports {what} ({id})"))],
        None => vec![],
    }
}

/// Another error of the same log says memory ran out.
pub fn oom_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const OOM: [&str; 5] = [
        "torch-cuda-oom",
        "cuda-out-of-memory-runtime",
        "tf-oom",
        "cudnn-alloc-failed",
        "cublas-alloc-failed",
    ];
    settled_elsewhere(input, &OOM, Category::Oom, 4.0, "running out of memory")
}

/// The figures of an out-of-memory message.
pub fn oom_message_figures(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    let (Some(req), Some(total)) = (ev.requested_mib, ev.total_mib) else { return vec![] };
    let mut out = Vec::new();
    if req > total {
        out.push(adj(
            Category::Oom,
            1.5,
            format!("it asked for {} on a GPU of {} in total", gib(req), gib(total)),
        ));
        out.push(adj(
            Category::UserCodeBug,
            2.0,
            "a single allocation larger than the whole GPU points at a shape or batch-size mistake",
        ));
    } else if let Some(allowed) = ev.allowed_mib.filter(|a| ev.free_mib.is_none_or(|free| *a < free)) {
        // The program capped its own share (set_per_process_memory_fraction): the cap ran out, not
        // the GPU, and the free memory beside it is not fragmentation. Provoked on the H200: a
        // 4 GiB request with 139.3 GiB free and "1.40 GiB allowed".
        out.push(adj(
            Category::Oom,
            2.0,
            format!(
                "the process may use only {} (a memory fraction set with torch.cuda.set_per_process_memory_fraction), less than the {} free: raise the fraction or need less",
                gib(allowed),
                ev.free_mib.map_or_else(|| "memory".to_string(), gib)
            ),
        ));
    } else if let Some(free) = ev.free_mib {
        if free >= req {
            out.push(adj(
                Category::Other,
                3.0,
                format!(
                    "{} was free for a request of {}: the free memory is fragmented",
                    gib(free),
                    gib(req)
                ),
            ));
        } else {
            out.push(adj(
                Category::Oom,
                1.5,
                format!("only {} was free for a request of {}", gib(free), gib(req)),
            ));
        }
    }
    out
}

/// Free memory a handle failure reports (XLA's "Memory usage: N bytes free" after "Could not create
/// cudnn handle"), without an allocation request: with hundreds of MiB free, a library's handle
/// (which needs far less) did not fail for memory. JAX leaves a quarter of the GPU free by design.
pub fn free_memory_at_library_start(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const AMPLE_MIB: f64 = 512.0;
    let ev = input.evidence;
    if !has(input, Category::Oom) || ev.requested_mib.is_some() {
        return vec![];
    }
    match ev.free_mib {
        Some(free) if free >= AMPLE_MIB => vec![adj(
            Category::Oom,
            0.2,
            format!(
                "{} of GPU memory was free when it failed, far more than a library handle needs",
                gib(free)
            ),
        )],
        _ => vec![],
    }
}

/// GPU memory that grows over a run until it runs out: something keeps tensors (and the autograd
/// graphs behind them) alive between steps, the usual case in reports of a slow leak
/// (<https://github.com/microsoft/SpareNet/issues/12>: losses accumulated with their graphs,
/// <https://github.com/pytorch/pytorch/issues/4932>: evaluation without no_grad). The report's own
/// "out of memory" is then no evidence for a batch that is simply too large.
pub fn memory_growth_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::Oom) || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    let Some(phrase) = input.evidence.memory_growth.as_deref() else { return vec![] };
    vec![adj(
        Category::UserCodeBug,
        12.0,
        format!("the report says memory grows over the run (\"{phrase}\"): a leak, not a batch too large"),
    )]
}

/// The user says memory ran out, or that a smaller batch runs, around an error that memory
/// pressure can cause (a cuDNN internal error, an illegal address from a failed allocation):
/// <https://github.com/pytorch/pytorch/issues/81620> (NVIDIA: cuDNN's internal error was an
/// allocation failure), <https://github.com/pytorch/pytorch/issues/21819>.
pub fn memory_hint_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::Oom) || input.signature.causes.iter().all(|c| c.category == Category::Oom) {
        return vec![];
    }
    let Some(phrase) = input.evidence.memory_hint.as_deref() else { return vec![] };
    // Where the message itself says it ("OpenEncodeSessionEx failed: out of memory"), its causes
    // already weigh what it says.
    let said = phrase.to_ascii_lowercase();
    if input.signature.literals.iter().any(|l| l.to_ascii_lowercase().contains(&said)) {
        return vec![];
    }
    // Memory that ran out because it grew is the leak's symptom ([`memory_growth_in_log`]).
    if input.evidence.memory_growth.is_some() {
        return vec![];
    }
    vec![adj(Category::Oom, 4.0, format!("the log says \"{phrase}\""))]
}

/// "Operation not supported" with an allocator mode or a virtual GPU in the log: vGPU profiles and
/// cloud VMs lack the virtual-memory (expandable segments) and stream-ordered (cudaMallocAsync)
/// allocators (<https://github.com/unslothai/unsloth/issues/1446> on an L40S-48C,
/// <https://github.com/Lightricks/ComfyUI-LTXVideo/issues/108>, fixed by the native allocator).
pub fn allocator_mode_refused(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-not-supported" || !has(input, Category::EnvVarMisconfig) {
        return vec![];
    }
    let Some(marker) = input.evidence.allocator_or_vgpu.as_deref() else { return vec![] };
    vec![adj(
        Category::EnvVarMisconfig,
        4.0,
        format!(
            "the log names \"{marker}\": an allocator mode that virtual GPUs and some cloud VMs do not offer"
        ),
    )]
}

/// How the launcher says a worker ended, for an error that either memory or the program's own
/// exception explains (torchrun's ChildFailedError): SIGKILL (exit code -9) with no traceback is
/// the kernel's out-of-memory killer (<https://github.com/hpcaitech/ColossalAI/issues/3172>,
/// <https://github.com/Wan-Video/Wan2.2/issues/29>); exit code 1 is a Python exception whose
/// traceback is the real error (<https://pytorch.org/docs/stable/elastic/errors.html>).
pub fn worker_exit_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::Oom) || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    let Some(phrase) = input.evidence.worker_exit.as_deref() else { return vec![] };
    let code = phrase.rsplit([':', ' ']).next().and_then(|c| c.trim().parse::<i64>().ok());
    if phrase.contains("SIGKILL") || code == Some(-9) {
        vec![adj(
            Category::Oom,
            3.0,
            format!("a worker was killed (\"{phrase}\"): the out-of-memory killer's signal"),
        )]
    } else if code == Some(1) {
        vec![
            adj(Category::UserCodeBug, 2.5, format!("a worker raised an exception (\"{phrase}\")")),
            adj(
                Category::Oom,
                0.5,
                format!("a worker exited with an error of its own (\"{phrase}\"), not a kill"),
            ),
        ]
    } else {
        vec![]
    }
}

/// The most shared memory one thread block may use on any NVIDIA GPU so far: 227 KB (opt-in) on
/// compute capability 9.0 and 10.0 (CUDA C++ Programming Guide, "Technical Specifications per
/// Compute Capability").
pub(super) const MAX_SHARED_MEMORY_PER_BLOCK: u64 = 227 * 1024;

/// A kernel's shared-memory request against the GPU's limit, as Triton prints them ("Required:
/// 663808, Hardware limit: 101376"): a request no GPU can meet is the kernel's or the model's
/// configuration (<https://github.com/state-spaces/mamba/issues/387>: a head dimension of 512); one
/// that a GPU with more shared memory meets is this GPU's size
/// (<https://github.com/FlashML-org/FreeToken/issues/246>: 96 KB asked of a Turing card's 64 KB).
pub fn shared_memory_request(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::UserCodeBug) || !has(input, Category::ArchUnsupported) {
        return vec![];
    }
    let bytes = |name: &str| input.evidence.group(name).and_then(|v| v.parse::<u64>().ok());
    let (Some(required), Some(limit)) = (bytes("required"), bytes("limit")) else { return vec![] };
    if required > MAX_SHARED_MEMORY_PER_BLOCK {
        let fact = format!(
            "{required} bytes of shared memory per block are asked for: more than any GPU offers ({MAX_SHARED_MEMORY_PER_BLOCK})"
        );
        vec![adj(Category::UserCodeBug, 4.0, fact.clone()), adj(Category::ArchUnsupported, 0.3, fact)]
    } else if required > limit {
        vec![adj(
            Category::ArchUnsupported,
            2.0,
            format!("{required} bytes of shared memory per block fit GPUs with more than this one's {limit}"),
        )]
    } else {
        vec![]
    }
}

/// An allocator option PyTorch rejects that is a real option of newer releases: the installed
/// PyTorch is older than what sets it (BiRefNet#179: expandable_segments on an older torch); any
/// other key is a typo in the variable.
pub fn allocator_option_of_newer_torch(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const OPTIONS: [&str; 9] = [
        "expandable_segments",
        "max_split_size_mb",
        "garbage_collection_threshold",
        "roundup_power2_divisions",
        "backend",
        "release_lock_on_cudamalloc",
        "pinned_use_cuda_host_register",
        "pinned_num_register_threads",
        "pinned_use_background_threads",
    ];
    if input.signature.id != "torch-allocator-config-invalid" {
        return vec![];
    }
    let key = input.evidence.group("option").or_else(|| input.evidence.group("option_old"));
    match key {
        Some(key) if OPTIONS.contains(&key) => vec![adj(
            Category::Other,
            3.0,
            format!("{key} is an option of newer PyTorch releases: this one predates it"),
        )],
        Some(key) => vec![adj(
            Category::EnvVarMisconfig,
            3.0,
            format!("{key} is no option of any PyTorch release: a typo in PYTORCH_CUDA_ALLOC_CONF"),
        )],
        None => vec![],
    }
}

/// Out of memory while `torch.load` restores a checkpoint: without `map_location` every tensor
/// goes back to the GPU it was saved from, whatever device the program runs on, so a full (or
/// another) GPU fails before the model exists; the fix is in the loading code
/// (`map_location="cpu"` or the run's device): <https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/95>,
/// <https://github.com/nkolot/SPIN/issues/76>, <https://github.com/HorizonRobotics/alf/pull/1532>,
/// <https://github.com/open-mmlab/mmaction2/pull/2254>.
pub fn oom_while_restoring_checkpoint(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::Oom) || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    let Some(marker) = input.evidence.checkpoint_load.as_deref() else { return vec![] };
    vec![
        adj(
            Category::UserCodeBug,
            12.0,
            format!(
                "memory ran out while a checkpoint was restored (\"{marker}\"): torch.load puts tensors back on the GPU they were saved from unless map_location says otherwise"
            ),
        ),
        adj(Category::Oom, 0.3, "the memory was asked for by a checkpoint's restore, not by the model's work"),
    ]
}
