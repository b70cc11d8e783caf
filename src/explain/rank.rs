//! Ranking: each rule is a pure function of (the matched signature, the evidence in the log, the
//! machine's [`Report`] when there is one) that returns weight adjustments for cause categories,
//! each with the fact that justifies it. A cause's score is its prior weight times the factors of
//! every adjustment to its category, normalised over the signature's causes. Without a report
//! (`--no-check`) only the log's own evidence moves the priors.

use super::{Category, CauseKind, LogEvidence, Signature, SignatureTable};
use crate::report::{Container, Framework, FrameworkKind, LibraryKind, ModuleFlavour, Report};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use serde::Serialize;
use std::collections::BTreeSet;

/// A cause with its score and the facts that moved it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedCause {
    /// Root-cause category.
    pub category: Category,
    /// Share of the likelihood among the signature's causes, 0 to 1.
    pub score: f64,
    /// Why this cause produces the message.
    pub why: String,
    /// What to do.
    pub fix: String,
    /// Facts of this machine or of the log that raised it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<String>,
    /// Facts that lowered it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<String>,
}

/// A rule's verdict on one category.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjustment {
    /// The category it concerns.
    pub category: Category,
    /// Multiplier on the prior (above 1 raises, below 1 lowers).
    pub factor: f64,
    /// The fact, in words.
    pub fact: String,
}

fn adj(category: Category, factor: f64, fact: impl Into<String>) -> Adjustment {
    Adjustment { category, factor, fact: fact.into() }
}

/// Everything a rule may look at.
pub struct RuleInput<'a> {
    /// The matched signature.
    pub signature: &'a Signature,
    /// What the log says around the error.
    pub evidence: &'a LogEvidence,
    /// The machine's facts, if ranking with them.
    pub report: Option<&'a Report>,
    /// Ids of every signature seen anywhere in the same log.
    pub seen: &'a BTreeSet<&'a str>,
    /// The signature table (GPU names, architecture support).
    pub table: &'a SignatureTable,
}

/// A ranking rule.
pub type Rule = fn(&RuleInput<'_>) -> Vec<Adjustment>;

/// Every rule, in the order their facts are listed.
pub const RULES: &[Rule] = &[
    memory_in_use,
    oom_elsewhere_in_log,
    oom_message_figures,
    free_memory_at_library_start,
    jax_cudnn_handle,
    cudnn_installs,
    cudnn_versions_in_log,
    cudnn_mismatch_elsewhere_in_log,
    cudnn_dependency_elsewhere_in_log,
    version_check_library,
    arch_support,
    arch_list_in_log,
    gpu_vs_cuda_in_log,
    kepler_or_older_in_log,
    driver_cuda_version,
    driver_module_vs_libraries,
    driver_loaded,
    driver_mismatch_elsewhere_in_log,
    cpu_only_builds,
    cpu_build_in_log,
    cuda_build_in_log,
    cuda_loading_elsewhere_in_log,
    gpu_visibility,
    containers,
    container_errors_elsewhere_in_log,
    container_in_log,
    no_container_in_text,
    nvcc_missing_in_container,
    dll_error_without_cudnn,
    missing_library,
    missing_library_vs_cuda_in_log,
    missing_toolkit_library_by_release,
    missing_library_on_colab,
    missing_cudnn_on_colab,
    missing_cudnn_library,
    cudnn_named_vs_missing,
    tf_op_ran_on_gpu,
    missing_library_present_in_log,
    symbol_origin,
    unversioned_library_name,
    os_error_in_log,
    caffe_grouped_convolution,
    no_nvidia_gpu_in_log,
    wsl1_in_log,
    notebook_without_gpu,
    nccl_env_in_log,
    nccl_detail_elsewhere_in_log,
    nccl_multi_node,
    memory_hint_in_log,
    memory_growth_in_log,
    extension_op_without_function,
    allocator_mode_refused,
    worker_exit_in_log,
    nccl_cuda_failure_detail,
    missing_dll_not_cudnn,
    extension_dll_before_torch,
    bitsandbytes_on_windows,
    shared_memory_request,
    wsl_in_log,
    compute_mode_in_log,
    driver_vs_cuda_in_log,
    bf16_gemm_refused,
    gemm_refused_by_the_gpu,
    jit_extension_not_built,
    upgrade_without_reboot,
    tf_build_vs_cuda_in_log,
    tf_build_vs_cudnn_in_log,
    ptxas_older_than_cuda_in_log,
    jax_plugin_failure_reason,
    cudnn_attention_arch,
    xla_kernel_image_vs_driver,
    triton_ptxas_vs_driver,
    video_library_and_capability,
    nvenc_driver_requirement,
    kernel_module_flavour,
    encode_sessions_open,
    driver_library_in_this_container,
    mig_device_selection,
    ort_build_vs_log,
    paddle_build_vs_cuda_in_log,
    wsl_without_driver,
    newest_gpu_in_log,
    library_kernel_fault,
    pip_torch_import_missing_cudnn,
    stub_libcuda_in_log,
    init_failure_with_hmm_driver,
    missing_library_on_import,
    hardware_xid_elsewhere_in_log,
    init_failure_in_a_library_probe,
    custom_allreduce_without_p2p,
    hardware_hint_in_log,
    driver_blocked_in_log,
    suspend_in_log,
    device_ordinal_on_several_nodes,
    tensors_on_two_gpus,
    library_left_a_tensor_behind,
    who_forked,
    pytorch_cudnn_not_initialized,
    kernel_cache_in_log,
    torch_release_bug,
    toolkit_newer_than_the_code,
    paddle_cudnn_bad_param,
    cudnn_rnn_failure,
    cublas_failure_after_embedding,
    error_after_device_assert,
    allocator_option_of_newer_torch,
    oom_while_restoring_checkpoint,
    insufficient_driver_on_a_cuda12_driver,
];

/// Ranks the causes of `signature` for this error.
pub fn rank(
    signature: &Signature,
    evidence: &LogEvidence,
    report: Option<&Report>,
    seen: &BTreeSet<&str>,
    table: &SignatureTable,
) -> Vec<RankedCause> {
    let input = RuleInput { signature, evidence, report, seen, table };
    let adjustments: Vec<Adjustment> = RULES.iter().flat_map(|rule| rule(&input)).collect();
    let mut ranked: Vec<RankedCause> = signature
        .causes
        .iter()
        .map(|c| {
            let mine = adjustments.iter().filter(|a| a.category == c.category);
            let factor: f64 = mine.clone().map(|a| a.factor.clamp(0.05, 20.0)).product();
            RankedCause {
                category: c.category,
                score: c.weight * factor,
                why: c.why.clone(),
                fix: c.fix.clone(),
                facts: mine.clone().filter(|a| a.factor >= 1.0).map(|a| a.fact.clone()).collect(),
                against: mine.filter(|a| a.factor < 1.0).map(|a| a.fact.clone()).collect(),
            }
        })
        .collect();
    let total: f64 = ranked.iter().map(|c| c.score).sum();
    if total > 0.0 {
        for c in &mut ranked {
            c.score /= total;
        }
    }
    // Stable: ties keep the signature's order.
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
    ranked
}

fn has(input: &RuleInput<'_>, category: Category) -> bool {
    input.signature.causes.iter().any(|c| c.category == category)
}

/// Every cause of `category` the signature has is of `kind` (true where it has none).
fn all_of_kind(input: &RuleInput<'_>, category: Category, kind: CauseKind) -> bool {
    input.signature.causes.iter().filter(|c| c.category == category).all(|c| c.kind == Some(kind))
}

fn gib(mib: f64) -> String {
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
fn settled_elsewhere(
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

/// A cuDNN handle that JAX could not create: JAX preallocates 75% of the GPU and leaves the rest to
/// libraries such as cuDNN (<https://docs.jax.dev/en/latest/gpu_memory_allocation.html>), so unlike
/// TensorFlow's, its handle failures are more often the cuDNN install than memory (jax#15774,
/// jax#16078, jax#22626 were fixed by installing the right cuDNN). Free-memory figures, when the log
/// has them, decide instead.
pub fn jax_cudnn_handle(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const HANDLE: [&str; 3] = ["tf-conv-algorithm", "cudnn-internal-error", "cudnn-not-initialized"];
    let ev = input.evidence;
    if !HANDLE.contains(&input.signature.id.as_str()) || !has(input, Category::Oom) || ev.free_mib.is_some() {
        return vec![];
    }
    match ev.jax_in_log.as_deref() {
        Some(marker) => vec![adj(
            Category::Oom,
            0.4,
            format!("the log is JAX's ({marker}), which leaves a quarter of the GPU free for cuDNN"),
        )],
        None => vec![],
    }
}

/// The frameworks a message comes from: see [`super::provenance::frameworks_of`].
fn log_frameworks(input: &RuleInput<'_>) -> Option<Vec<FrameworkKind>> {
    super::provenance::frameworks_of(input.signature, input.evidence)
}

/// The machine's frameworks that the message can be about: a TensorFlow error says nothing of
/// how this machine's PyTorch was built.
fn relevant_frameworks<'a>(input: &RuleInput<'a>) -> Vec<&'a Framework> {
    let Some(report) = input.report else { return vec![] };
    let kinds = log_frameworks(input);
    report.frameworks.iter().filter(|f| kinds.as_ref().is_none_or(|k| k.contains(&f.kind))).collect()
}

fn framework_cudnn<'a>(input: &RuleInput<'a>) -> Vec<(&'a Framework, &'a Version)> {
    relevant_frameworks(input).into_iter().filter_map(|f| f.cudnn.as_ref().map(|c| (f, &c.value))).collect()
}

fn same_minor(a: &Version, b: &Version) -> bool {
    a.major() == b.major() && a.minor() == b.minor()
}

/// The cuDNN install a framework's libcudnn resolves to (its linkage, as the loader would find it).
fn loaded_cudnn<'a>(fw: &Framework, installs: &[(&'a str, &'a Version)]) -> Option<(&'a str, &'a Version)> {
    let linkage = fw.linkage.as_ref()?;
    let lib = linkage.libraries.iter().find(|l| l.name.starts_with("libcudnn.so"))?;
    let file = lib.real_path.as_deref().or(lib.path.as_deref())?;
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d).trim_end_matches('/');
    installs.iter().find(|(d, _)| d.trim_end_matches('/') == dir).copied()
}

/// cuDNN installs on this machine against each other and against the frameworks' builds.
pub fn cudnn_installs(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(report) = input.report else { return vec![] };
    let mut out = Vec::new();
    let installs: Vec<(&str, &Version)> = report
        .cudnn
        .iter()
        .filter_map(|c| c.version.as_ref().map(|v| (c.lib_dir.as_str(), &v.value)))
        .collect();
    // Copies whose version could not be read count as installs, not as evidence either way.
    let unversioned = report.cudnn.len() - installs.len();
    if installs.is_empty() {
        if unversioned == 0 && (!report.frameworks.is_empty() || !report.libraries.is_empty()) {
            out.push(adj(Category::CudnnMissing, 3.0, "no cuDNN install was found on this machine"));
            out.push(adj(
                Category::CudnnVersionMismatch,
                0.5,
                "no cuDNN install was found, so none can mismatch",
            ));
        }
        return out;
    }
    out.push(adj(
        Category::CudnnMissing,
        0.3,
        format!("cuDNN {} is installed at {}", installs[0].1, installs[0].0),
    ));
    let mut mismatched = false;
    // Frameworks that are known (from how the loader resolves their libcudnn) to load the cuDNN
    // they were built with: another copy elsewhere does not reach them.
    let mut safe: Vec<String> = Vec::new();
    // The cuDNN the log says was found at run time, when one install here is of that version.
    let found_in_log = input
        .evidence
        .cudnn_runtime
        .as_ref()
        .and_then(|r| installs.iter().find(|(_, v)| same_minor(v, r)).copied());
    for (fw, built) in framework_cudnn(input) {
        if let Some((dir, v)) = found_in_log.filter(|(_, v)| !same_minor(v, built)) {
            mismatched = true;
            out.push(adj(
                Category::CudnnVersionMismatch,
                6.0,
                format!(
                    "the log found cuDNN {v}, installed here at {dir}; {} {} was built with cuDNN {built}",
                    fw.kind.name(),
                    fw.version.value
                ),
            ));
            continue;
        }
        if let Some((dir, v)) = loaded_cudnn(fw, &installs) {
            if same_minor(v, built) && fw.linkage.as_ref().is_some_and(|l| l.cudnn_mixes.is_empty()) {
                safe.push(format!(
                    "{} {} loads its own cuDNN {v} from {dir}",
                    fw.kind.name(),
                    fw.version.value
                ));
                continue;
            }
            mismatched = true;
            out.push(adj(
                Category::CudnnVersionMismatch,
                6.0,
                format!(
                    "{} {} was built with cuDNN {built} and loads cuDNN {v} from {dir}",
                    fw.kind.name(),
                    fw.version.value
                ),
            ));
            continue;
        }
        for (dir, v) in installs.iter().filter(|(_, v)| !same_minor(v, built)) {
            mismatched = true;
            out.push(adj(
                Category::CudnnVersionMismatch,
                4.0,
                format!(
                    "{} {} was built with cuDNN {built}, and cuDNN {v} is also installed at {dir}",
                    fw.kind.name(),
                    fw.version.value
                ),
            ));
        }
    }
    let distinct: BTreeSet<String> = installs.iter().map(|(_, v)| v.truncated(2).to_string()).collect();
    if !mismatched && distinct.len() > 1 {
        let list: Vec<String> = installs.iter().map(|(d, v)| format!("{v} at {d}")).collect();
        let what = format!("{} cuDNN installs of different versions: {}", installs.len(), list.join("; "));
        if safe.is_empty() {
            mismatched = true;
            out.push(adj(Category::CudnnVersionMismatch, 3.0, what));
        } else {
            // Another program may still pick the other copy; the frameworks found do not, so the
            // second copy makes a mismatch less likely than the prior says, not more.
            out.push(adj(Category::CudnnVersionMismatch, 0.7, format!("{what}, but {}", safe.join("; "))));
        }
    }
    if mismatched {
        if let Some(ld) = report.environment.iter().find(|e| e.name == "LD_LIBRARY_PATH") {
            for (dir, v) in &installs {
                if ld.value.split(':').any(|p| p.trim_end_matches('/') == dir.trim_end_matches('/')) {
                    out.push(adj(
                        Category::EnvVarMisconfig,
                        3.0,
                        format!("LD_LIBRARY_PATH contains {dir}, where cuDNN {v} lives"),
                    ));
                }
            }
        }
    } else if installs.len() == 1 && unversioned == 0 {
        out.push(adj(
            Category::CudnnVersionMismatch,
            0.4,
            format!(
                "only one cuDNN is installed ({} at {}), matching the frameworks' builds",
                installs[0].1, installs[0].0
            ),
        ));
    }
    out
}

/// The log names the cuDNN it was built with and the one it found.
pub fn cudnn_versions_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    match (&ev.cudnn_compiled, &ev.cudnn_runtime) {
        // An older cuDNN than the build's is the direction that fails.
        (Some(c), Some(r)) if r < c => vec![adj(
            Category::CudnnVersionMismatch,
            3.0,
            format!("the log says it was built with cuDNN {c} and found the older cuDNN {r}"),
        )],
        (Some(c), Some(r)) if c != r => vec![adj(
            Category::CudnnVersionMismatch,
            2.0,
            format!("the log says it was built with cuDNN {c} and loaded cuDNN {r}"),
        )],
        _ => vec![],
    }
}

/// Another error of the same log says the cuDNN found is not the one the framework was built with:
/// errors that follow from it ("DNN library initialization failed", "Failed to get convolution
/// algorithm") are that mismatch too.
pub fn cudnn_mismatch_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const MISMATCH: [&str; 5] = [
        "tf-cudnn-runtime-mismatch",
        "jax-outdated-cudnn",
        "torch-cudnn-version-incompatibility",
        "cudnn-version-mismatch-status",
        "paddle-cudnn-version-warning",
    ];
    settled_elsewhere(input, &MISMATCH, Category::CudnnVersionMismatch, 4.0, "a cuDNN version mismatch")
}

/// The same log shows the loader's own reason for a cuDNN sub-library failing to load: a library
/// it depends on (NVRTC, libcuda.so) is missing. A bare "could not load libcudnn_cnn_infer.so.8"
/// (a title retyping it) is then that dependency, not cuDNN
/// (<https://github.com/facefusion/facefusion-docker/issues/8>).
pub fn cudnn_dependency_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    settled_elsewhere(
        input,
        &["cudnn-dependency-missing"],
        Category::LibraryNotFound,
        4.0,
        "a library cuDNN depends on as the one missing",
    )
}

/// A version check that names the library it found too old (JAX's "Found cuDNN version 8600, but
/// JAX was built against version 8906"): cuDNN is a cuDNN mismatch, any other CUDA library a CUDA
/// one.
pub fn version_check_library(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(lib) = input.evidence.library.as_deref() else { return vec![] };
    // A file name (`cudnn_ops_infer64_8.dll`, `libcudnn.so.8`) is a library the loader missed, not
    // the one a version check names.
    if lib.starts_with("lib")
        || lib.contains('.')
        || !has(input, Category::CudnnVersionMismatch)
        || !has(input, Category::CudaRuntimeMismatch)
    {
        return vec![];
    }
    if lib.eq_ignore_ascii_case("cudnn") {
        vec![
            adj(Category::CudnnVersionMismatch, 4.0, format!("the library the check names is {lib}")),
            adj(
                Category::CudaRuntimeMismatch,
                0.5,
                format!("the library the check names is {lib}, not a CUDA library"),
            ),
        ]
    } else {
        vec![adj(
            Category::CudnnVersionMismatch,
            0.5,
            format!("the library the check names is {lib}, not cuDNN"),
        )]
    }
}

struct GpuArch {
    name: String,
    cc: ComputeCapability,
}

fn gpu_archs(input: &RuleInput<'_>) -> Vec<GpuArch> {
    let mut out = Vec::new();
    if let Some(report) = input.report {
        for g in report.gpus.devices.iter().filter(|g| g.visible) {
            let name = g.name.clone().unwrap_or_else(|| format!("GPU {}", g.index));
            let cc = g.compute_capability.or_else(|| input.table.gpu_capability(&name).map(|f| f.cc));
            if let Some(cc) = cc {
                out.push(GpuArch { name, cc });
            }
        }
    }
    if out.is_empty() {
        if let Some(cc) = input.evidence.compute_capability {
            let name = input.evidence.gpu_name.clone().unwrap_or_else(|| "the GPU in the log".into());
            out.push(GpuArch { name, cc });
        }
    }
    out
}

/// CUDA and cuDNN on this machine against the first releases supporting its GPUs.
pub fn arch_support(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(report) = input.report else { return vec![] };
    // A GPU without NVENC, or without the codec asked, is no matter of CUDA or cuDNN releases
    // (found on the H200: "No capable devices found" argued with its CUDA and cuDNN support).
    if !has(input, Category::ArchUnsupported) || input.evidence.video_engine_in_log.is_some() {
        return vec![];
    }
    let mut out = Vec::new();
    let mut all_new_enough = true;
    let mut checked = false;
    let gpus = gpu_archs(input);
    for gpu in &gpus {
        let Some(support) = input.table.arch_support(gpu.cc) else { continue };
        let cudnns = report
            .cudnn
            .iter()
            .filter_map(|c| c.version.as_ref().map(|v| (format!("at {}", c.lib_dir), &v.value)))
            .chain(
                framework_cudnn(input).into_iter().map(|(f, v)| (format!("in {}'s build", f.kind.name()), v)),
            );
        for (place, v) in cudnns {
            checked = true;
            if *v < support.min_cudnn {
                all_new_enough = false;
                out.push(adj(
                    Category::ArchUnsupported,
                    5.0,
                    format!(
                        "{} (compute capability {}) needs cuDNN {} or newer; cuDNN {v} is {place}",
                        gpu.name, gpu.cc, support.min_cudnn
                    ),
                ));
            }
        }
        for fw in relevant_frameworks(input) {
            let Some(cuda) = &fw.cuda else { continue };
            checked = true;
            if cuda.value < support.min_cuda {
                all_new_enough = false;
                out.push(adj(
                    Category::ArchUnsupported,
                    5.0,
                    format!(
                        "{} (compute capability {}) needs CUDA {} or newer; {} {} is built for CUDA {}",
                        gpu.name,
                        gpu.cc,
                        support.min_cuda,
                        fw.kind.name(),
                        fw.version.value,
                        cuda.value
                    ),
                ));
            }
        }
        for fw in relevant_frameworks(input) {
            let archs = fw_arch_list(fw);
            if archs.is_empty() {
                continue;
            }
            checked = true;
            if !archs.iter().any(|a| a.major == gpu.cc.major && a.minor <= gpu.cc.minor) {
                all_new_enough = false;
                let list: Vec<String> = archs.iter().map(ComputeCapability::sm).collect();
                out.push(adj(
                    Category::ArchUnsupported,
                    5.0,
                    format!(
                        "{} {} has kernels for {} only, not {} ({})",
                        fw.kind.name(),
                        fw.version.value,
                        list.join(" "),
                        gpu.cc.sm(),
                        gpu.name
                    ),
                ));
            }
        }
    }
    // An architecture the log names that none of these GPUs has (`compute_35` asked of a CUDA 12
    // nvcc on an H200) is what failed: that this machine's GPUs are supported says nothing of it.
    let other_arch = input
        .evidence
        .compute_capability
        .or(input.evidence.asked_arch)
        .is_some_and(|cc| !gpus.iter().any(|g| g.cc == cc));
    if checked && all_new_enough && !other_arch {
        let mut names: Vec<&str> = gpus.iter().map(|g| g.name.as_str()).collect();
        names.dedup();
        out.push(adj(
            Category::ArchUnsupported,
            0.3,
            format!("the installed CUDA and cuDNN releases support the {}", names.join(", ")),
        ));
    }
    out
}

fn fw_arch_list(fw: &Framework) -> Vec<ComputeCapability> {
    fw.details
        .iter()
        .filter(|(k, _)| k.contains("arch") || k.contains("capabilit"))
        .flat_map(|(_, v)| v.split(|c: char| c == ',' || c == ';' || c.is_whitespace()))
        .filter(|s| s.starts_with("sm_"))
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// The build's supported architectures printed in the log.
pub fn arch_list_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    let Some(cc) = ev.compute_capability else { return vec![] };
    if ev.supported_archs.is_empty() || ev.supported_archs.contains(&cc) {
        return vec![];
    }
    let list: Vec<String> = ev.supported_archs.iter().map(ComputeCapability::sm).collect();
    vec![adj(
        Category::ArchUnsupported,
        2.0,
        format!("the build supports {} but the GPU is {}", list.join(" "), cc.sm()),
    )]
}

/// A GPU the log names that is Kepler or older (compute capability below 5.0: a Tesla K80, a GTX
/// 760): CUDA 12 dropped Kepler, cuDNN 9 needs Maxwell, and the PyTorch and TensorFlow wheels of
/// the last years carry no code for it (data/pytorch.toml's architecture lists), so whatever the
/// message, the build most likely cannot run there (60 of the corpus's 90 threads naming such a
/// card were fixed by another build, an older release, the CPU or a newer GPU: a GTX 760 under
/// chaiNNer, <https://github.com/chaiNNer-org/chaiNNer/issues/814>; a K80 under a torch 2.0 venv,
/// <https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/9589>). With a machine's facts,
/// `arch_support` compares the real builds instead.
pub fn kepler_or_older_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::ArchUnsupported) {
        return vec![];
    }
    // The card by name, its capability from the GPU table: a compute capability the text states
    // is as often a requirement it quotes ("needs a GPU with at least compute capability 2.0") as
    // the GPU's own.
    let Some(name) = input.evidence.gpu_name.as_deref() else { return vec![] };
    let Some(cc) = input.table.gpu_capability(name).map(|f| f.cc) else { return vec![] };
    if cc >= ComputeCapability::new(5, 0) {
        return vec![];
    }
    vec![adj(
        Category::ArchUnsupported,
        2.0,
        format!("{name} (compute capability {cc}) is older than Maxwell, which current CUDA, cuDNN and framework builds no longer support"),
    )]
}

/// A GPU the log names (RTX 3080, sm_86) and a CUDA the log says is in use (cudatoolkit 10.0,
/// +cu101, or a TensorFlow release's build CUDA) that predates that GPU's architecture: the build
/// cannot run on it. With a machine's facts, `arch_support` compares the real builds instead.
pub fn gpu_vs_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::ArchUnsupported) {
        return vec![];
    }
    let ev = input.evidence;
    let Some(cc) = ev.compute_capability else { return vec![] };
    // A TensorFlow release stands for its build's CUDA, compared by major only: its GPU builds
    // carry PTX that the driver compiles for a newer GPU of the same CUDA generation (TF 2.4,
    // built with CUDA 11.0, runs on an RTX 30 card; TF 1.15 with CUDA 10.0 does not).
    let (cuda, major_only, via) = match (ev.cuda_in_log, ev.tf_in_log.as_ref()) {
        (Some(cuda), _) => (cuda, ev.cuda_in_log_major_only, String::new()),
        (None, Some(tf)) => match tensorflow_build_cuda(tf) {
            Some(cuda) => (cuda, true, format!(" (TensorFlow {tf} is built for it)")),
            None => return vec![],
        },
        (None, None) => return vec![],
    };
    let Some(support) = input.table.arch_support(cc) else { return vec![] };
    // "CUDA 11" alone says nothing about 11.0 against 11.1: only a whole major too old counts.
    let too_old = if major_only { cuda.major < support.min_cuda.major } else { cuda < support.min_cuda };
    let name = ev.gpu_name.clone().unwrap_or_else(|| cc.sm());
    if !too_old {
        // A CUDA the log names that supports the GPU: not the architecture, unless only its
        // major was named, or the GPU is of an architecture newer CUDA releases dropped (CUDA 13
        // has no Maxwell, Pascal or Volta code; CUDA 12 no Kepler): only Turing (7.5) and newer
        // are supported by every CUDA from their first one on.
        // A compiler refusing an architecture flag is about the flag, not the GPU.
        let build_time = input.signature.id == "toolchain-unsupported-arch";
        if major_only || cc < ComputeCapability::new(7, 5) || build_time {
            return vec![];
        }
        return vec![adj(
            Category::ArchUnsupported,
            0.4,
            format!(
                "{name} (compute capability {cc}) is supported from CUDA {}; the log says CUDA {cuda}{via}",
                support.min_cuda
            ),
        )];
    }
    vec![adj(
        Category::ArchUnsupported,
        4.0,
        format!(
            "{name} (compute capability {cc}) needs CUDA {} or newer; the log says CUDA {cuda}{via}",
            support.min_cuda
        ),
    )]
}

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

/// Whether the CPU-only build a message can mean is the framework's own. Not for an operator with
/// no CUDA kernel: that is its package's build (a CPU torchvision next to a CUDA torch), so how
/// torch was built argues neither way.
fn cpu_build_is_the_frameworks(input: &RuleInput<'_>) -> bool {
    input.signature.id != "torch-op-no-cuda-kernel"
}

/// CPU-only framework builds.
pub fn cpu_only_builds(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::CpuOnlyBuild) || !cpu_build_is_the_frameworks(input) {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let mut out = Vec::new();
    for fw in relevant_frameworks(input) {
        let relevant = matches!(
            fw.kind,
            FrameworkKind::Torch | FrameworkKind::Jaxlib | FrameworkKind::Tensorflow | FrameworkKind::Paddle
        );
        if !relevant {
            continue;
        }
        let cpu = fw.build.as_deref() == Some("cpu") || fw.cuda.is_none();
        let jax_plugin =
            report.frameworks.iter().any(|f| f.kind == FrameworkKind::JaxCudaPlugin && f.env == fw.env);
        if cpu && !(fw.kind == FrameworkKind::Jaxlib && jax_plugin) {
            out.push(adj(
                Category::CpuOnlyBuild,
                5.0,
                format!("{} {} in {} is a CPU-only build", fw.kind.name(), fw.version.value, fw.env),
            ));
        } else if !cpu {
            out.push(adj(
                Category::CpuOnlyBuild,
                0.2,
                format!("{} {} is built with CUDA", fw.kind.name(), fw.version.value),
            ));
        }
    }
    out
}

/// The log shows the PyTorch in use is a CPU build: a `+cpu` wheel version (xFormers' "you have
/// 2.1.2+cpu", a pip list, torch.__version__) or collect_env's "CUDA used to build PyTorch: None".
/// Seen in <https://github.com/open-mmlab/PIA/issues/30> and
/// <https://github.com/invoke-ai/InvokeAI/issues/4788>.
pub fn cpu_build_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::CpuOnlyBuild) {
        return vec![];
    }
    let Some(what) = input.evidence.cpu_build_in_log.as_deref() else { return vec![] };
    vec![adj(Category::CpuOnlyBuild, 6.0, format!("the log shows a CPU-only PyTorch build ({what})"))]
}

/// The log shows the PyTorch in use is a CUDA build (a `+cu118` version, a CUDA wheel index, a
/// plain `pip install torch` on x86 Linux): a CPU-only build does not explain a missing GPU, and
/// the driver does (<https://github.com/pytorch/pytorch/issues/31243>: torch 1.3.0 from pip on
/// Ubuntu with driver 410; <https://github.com/pytorch/pytorch/issues/85332>: 1.8.1+cu102).
pub fn cuda_build_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // Only where the CPU build in question is PyTorch's own: not ONNX Runtime's or JAX's package.
    let about_torch = log_frameworks(input).is_none_or(|k| k.contains(&FrameworkKind::Torch))
        && cpu_build_is_the_frameworks(input);
    if input.report.is_some()
        || !about_torch
        || !has(input, Category::CpuOnlyBuild)
        || input.evidence.cpu_build_in_log.is_some()
    {
        return vec![];
    }
    let Some(what) = input.evidence.cuda_build_in_log.as_deref() else { return vec![] };
    vec![adj(Category::CpuOnlyBuild, 0.3, format!("the log shows a CUDA build of PyTorch ({what})"))]
}

/// CUDA_VISIBLE_DEVICES against the GPUs present.
pub fn gpu_visibility(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // Only an environment cause about the variable is argued, for or against: a signature whose
    // environment cause is LD_LIBRARY_PATH, TORCH_CUDA_ARCH_LIST or NCCL's is not argued with every
    // GPU being visible, nor with none being.
    let about_visibility = input.signature.causes.iter().any(|c| {
        c.category == Category::EnvVarMisconfig && c.variable.as_deref() == Some(super::CUDA_VISIBLE_DEVICES)
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

/// The containers this machine runs in (WSL 2 is not one: its GPU is the Windows driver's).
fn host_containers(report: &Report) -> Vec<Container> {
    report.host.containers.iter().map(|c| c.value).filter(|c| *c != Container::Wsl2).collect()
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

/// The driver library a message says could not be loaded, for the messages whose rules look it up
/// on this machine ([`video_library_and_capability`], [`driver_library_in_this_container`]): its
/// name as the check lists it (without ".so").
fn driver_library_named(input: &RuleInput<'_>) -> Option<&'static str> {
    let named = |prefix: &str| input.evidence.library.as_deref().is_some_and(|l| l.starts_with(prefix));
    match input.signature.id.as_str() {
        "video-library-missing" if named("libnvcuvid") => Some("libnvcuvid"),
        "video-library-missing" => Some("libnvidia-encode"),
        // nvidia-smi's "couldn't find libnvidia-ml.so" is NVML's library alike.
        "loader-libcuda-missing" if named("libnvidia-ml") => Some("libnvidia-ml"),
        "loader-libcuda-missing" => Some("libcuda"),
        "nvidia-smi-no-libnvidia-ml" => Some("libnvidia-ml"),
        _ => None,
    }
}

/// Whether this runs in a container, and with GPU device nodes.
pub fn containers(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let kinds = host_containers(report);
    if kinds.is_empty() {
        // A log that shows a container, read on a machine that is none, came from a container this
        // host started (`docker run … 2>&1 | cudoctor explain -`) or from another machine: that
        // this host is no container says nothing about it, and `container_in_log` weighs the log.
        if input.evidence.container_in_log.is_some() {
            return vec![];
        }
        return vec![adj(Category::ContainerRuntime, 0.3, "this is not a container")];
    }
    // A container whose GPU answers (device nodes, NVML, and libcuda's cuDriverGetVersion) has its
    // plumbing working: a cause such as "started without --gpus" or "no driver mounted" is
    // contradicted for an error from here. Not for the container runtime's own messages, which
    // come from where a container is started, not from inside one; not for a container cause
    // that is no GPU plumbing (a /dev/shm too small for NCCL or DataLoader workers); and not
    // where a rule of its own reads the driver library the message names (in its loader cache).
    let gpu_answers = !report.driver.device_nodes.is_empty()
        && report.driver.nvml_version.is_some()
        && report.driver.cuda_supported.is_some();
    let shared_memory_only = all_of_kind(input, Category::ContainerRuntime, CauseKind::HostMemory);
    let runtime_message =
        input.signature.container_message || shared_memory_only || driver_library_named(input).is_some();
    if report.driver.device_nodes.is_empty() {
        vec![adj(
            Category::ContainerRuntime,
            4.0,
            format!("running in a container ({:?}) with no /dev/nvidia* device nodes", kinds[0])
                .to_lowercase(),
        )]
    } else if gpu_answers && !runtime_message {
        vec![adj(
            Category::ContainerRuntime,
            0.5,
            format!(
                "this container ({}) reaches the GPU: its device nodes, NVML and libcuda answer",
                format!("{:?}", kinds[0]).to_lowercase()
            ),
        )]
    } else {
        vec![adj(
            Category::ContainerRuntime,
            1.2,
            format!("running in a container ({:?})", kinds[0]).to_lowercase(),
        )]
    }
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
    if host_containers(report).is_empty() {
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

/// The driver's libcuda or libnvidia-ml "cannot open" (or nvidia-smi not finding
/// libnvidia-ml.so), read inside a container that holds the
/// very library the loader's cache lists (the H200's container: libcuda.so.1 in
/// /usr/local/nvidia/lib64, in `ldconfig -p`): this container was started with the driver mounted,
/// so "started without the NVIDIA runtime" does not explain an error from here, and a program
/// here that still fails searches elsewhere (its own library path, a sandbox). The message's
/// usual reading, a container without the runtime, stays for a machine that is none (the log of
/// a `docker run` this host started) or whose cache does not list the library.
pub fn driver_library_in_this_container(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // The video libraries' container cause is read on the capabilities instead.
    if input.signature.id == "video-library-missing" {
        return vec![];
    }
    let Some(wanted) = driver_library_named(input) else { return vec![] };
    let Some(report) = input.report else { return vec![] };
    if host_containers(report).is_empty() || !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let Some(lib) = report
        .driver
        .libraries
        .iter()
        .find(|l| l.name == wanted && !l.forward_compat && l.in_loader_cache == Some(true))
    else {
        return vec![];
    };
    vec![
        adj(
            Category::ContainerRuntime,
            0.4,
            format!(
                "this container has {} and the loader's cache lists it: the driver was mounted",
                lib.path
            ),
        ),
        adj(Category::LibraryNotFound, 2.0, found_by_the_loader(&lib.path)),
    ]
}

/// A driver library the message says could not be loaded, found in this machine's loader cache:
/// what that says of the program that failed.
fn found_by_the_loader(path: &str) -> String {
    format!(
        "{path} is in the loader's cache here (ldconfig -p lists it): a program using the system's loader finds it, so the one that failed searches elsewhere (its own library path, a Snap or Flatpak sandbox) or ran in another container"
    )
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

/// The same log also holds an error whose most likely cause is the container runtime (the NVIDIA
/// hook failing, Docker without a GPU driver, a driver library missing inside the image): an error
/// that the container could explain (nvidia-smi failing to reach the driver) is most likely that
/// too. Which signatures count is read from the table (those whose first cause is the container).
pub fn container_errors_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let top = |s: &Signature| s.likeliest_cause().map(|c| (c.category, c.weight));
    if top(input.signature).is_some_and(|(category, _)| category == Category::ContainerRuntime) {
        return vec![];
    }
    // Another error counts when the container explains it more often than not: NCCL's generic
    // "unhandled system error" leads with the container at 0.35 of its causes but says nothing
    // about an NCCL socket or InfiniBand failure in the same log.
    let other = input.table.signatures.iter().find(|s| {
        s.id != input.signature.id
            && input.seen.contains(s.id.as_str())
            && top(s)
                .is_some_and(|(category, weight)| category == Category::ContainerRuntime && weight >= 0.5)
    });
    match other {
        Some(s) => vec![adj(
            Category::ContainerRuntime,
            4.0,
            format!("the same log also shows a container error ({})", s.id),
        )],
        None => vec![],
    }
}

/// The log shows the program ran in a Docker container (a `docker run` line, a container prompt):
/// for an error the container can explain, the container. When this machine is itself a
/// container, `containers` decides instead (its device nodes are facts; the log's words are not).
/// Not for a text no signature matched: there the container's words have already voted, and in
/// Docker and Kubernetes reports they are everywhere whatever failed (a driver install that
/// nouveau blocks, <https://github.com/NVIDIA/k8s-driver-manager/issues/37>), so they must not
/// count twice.
pub fn container_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some_and(|r| !host_containers(r).is_empty())
        || input.signature.container_message
        || input.signature.id == super::fallback::UNRECOGNISED
        || !has(input, Category::ContainerRuntime)
    {
        return vec![];
    }
    let Some(hint) = input.evidence.container_in_log.as_deref() else { return vec![] };
    vec![adj(Category::ContainerRuntime, 4.0, format!("the log shows a container (\"{hint}\")"))]
}

/// The driver's libcuda (or libnvidia-ml) not found, ranked on the text alone (`--no-check`; with a
/// report, `containers` weighs the machine), in a text that names no container at all, in any
/// words: the container is the least likely place it was fixed. In the corpus, the reports of
/// this signature that name none (11) were never fixed in the container (a desktop install
/// without the driver's CUDA library, WSL 1, the toolkit's stub), against 7 of the 15 that do; the
/// signature's prior, written for logs from images, put it first. The words are read around the
/// error, in the text's last lines and anywhere in a pasted report (a Singularity report names
/// it in its title only). Only this signature: in a long log the words are read near the error
/// only, and NCCL's reports of a container's shared memory name Docker elsewhere (four such were
/// lost when every signature with a container cause had the rule).
pub fn no_container_in_text(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some()
        || input.signature.id != "loader-libcuda-missing"
        || input.evidence.names_container
        || !has(input, Category::ContainerRuntime)
    {
        return vec![];
    }
    vec![adj(Category::ContainerRuntime, 0.5, "the text names no container")]
}

/// The shell found no nvcc, in a text that names a container: CUDA's base and runtime images hold
/// the runtime libraries and no toolkit, so nvcc is missing rather than off the PATH. The corpus's
/// container threads of this message were all fixed with a -devel image or a toolkit installed in
/// the container (<https://github.com/NVIDIA/nvidia-docker/issues/1160>,
/// <https://github.com/anibali/docker-pytorch/issues/17>); on a host, most were a PATH that lacked
/// the toolkit's bin directory (sudo resets it: <https://github.com/traveller59/second.pytorch/issues/7>).
pub fn nvcc_missing_in_container(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "nvcc-not-on-path"
        || !input.evidence.names_container
        || !has(input, Category::LibraryNotFound)
    {
        return vec![];
    }
    vec![adj(
        Category::LibraryNotFound,
        2.5,
        "the text names a container: CUDA's base and runtime images have no nvcc",
    )]
}

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

fn library_kind(file: &str) -> Option<LibraryKind> {
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
fn cuda_of_soname(kind: LibraryKind, soname: u64) -> Option<((u64, u64), (u64, u64))> {
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

fn so_major(file: &str) -> Option<u64> {
    file.split(".so.").nth(1)?.split('.').next()?.parse().ok()
}

/// A CUDA library's Windows DLL name as the Linux soname of the same release, so that the soname
/// rules read both: `cublas64_12.dll` is `libcublas.so.12`, `cublasLt64_11.dll` is
/// `libcublasLt.so.11`, `cudart64_110.dll` is `libcudart.so.11.0`, `cudart64_101.dll` is
/// `libcudart.so.10.1`, `nvrtc64_120_0.dll` is `libnvrtc.so.12.0`, `cudart64_92.dll` is
/// `libcudart.so.9.2`. The number after `64_` is the soname major for 10 to 19 (and for cuFFT's,
/// cuSPARSE's, cuSOLVER's own numbering), major and minor run together otherwise, as the DLLs of
/// the CUDA toolkits for Windows are named.
fn dll_as_soname(file: &str) -> Option<String> {
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

/// A cuDNN library of one major missing on Colab: its runtime always comes with a cuDNN (the one of
/// its CUDA release), so what asks for another major was built for another cuDNN
/// (onnxruntime-gpu 1.5 wanting libcudnn.so.8 on Colab's cuDNN 7:
/// <https://github.com/microsoft/onnxruntime/issues/6379>; TensorFlow against Colab's newer cuDNN:
/// <https://github.com/googlecolab/colabtools/issues/3012>, /3013). Containers are left out: a CUDA
/// `-runtime` image has no cuDNN at all.
pub fn missing_cudnn_on_colab(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::CudnnVersionMismatch) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(file), Some(hint)) = (ev.library.as_deref(), ev.colab_in_log.as_deref()) else {
        return vec![];
    };
    let Some(major) = cudnn_major_wanted(file) else { return vec![] };
    let mut out = vec![adj(
        Category::CudnnVersionMismatch,
        3.0,
        format!("the log shows Colab (\"{hint}\"), which comes with a cuDNN installed: {file} (cuDNN {major}) is asked for by a build for another"),
    )];
    if has(input, Category::CudnnMissing) {
        out.push(adj(Category::CudnnMissing, 0.5, format!("Colab (\"{hint}\") comes with cuDNN installed")));
    }
    out
}

/// A cuDNN library named as missing by a message that is not the loader's own (TensorFlow's
/// "Could not load dynamic library 'libcudnn.so.8'"): as for the loader's, cuDNN of that major is
/// most often simply not installed. With a machine's facts, `missing_library` decides instead.
pub fn missing_cudnn_library(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || input.signature.id == "loader-libcudnn-missing" {
        return vec![];
    }
    let Some(file) = input.evidence.library.as_deref() else { return vec![] };
    if !file.starts_with("libcudnn") || !file.contains(".so.") || !has(input, Category::CudnnMissing) {
        return vec![];
    }
    vec![adj(
        Category::CudnnMissing,
        2.5,
        format!("{file} is a cuDNN library, which is installed separately from CUDA"),
    )]
}

/// The cuDNN major a missing cuDNN library asks for: `libcudnn_ops.so.9.1.0` is 9,
/// `cudnn_ops_infer64_8.dll` is 8.
fn cudnn_major_wanted(file: &str) -> Option<u64> {
    let lower = file.to_ascii_lowercase();
    if lower.starts_with("libcudnn") && lower.contains(".so.") {
        return so_major(&lower);
    }
    let stem = lower.strip_suffix(".dll")?;
    if !stem.starts_with("cudnn") {
        return None;
    }
    stem.rsplit('_').next()?.parse().ok()
}

/// The cuDNN major that the PyTorch named in the log brings with its CUDA wheels (the build of the
/// log's `+cuXYZ` tag, else the one PyPI serves), from data/pytorch.toml's pins.
fn torch_cudnn_major(torch: &str) -> Option<(u64, String)> {
    let (version, tag) = match torch.split_once('+') {
        Some((v, t)) => (v, Some(t)),
        None => (torch, None),
    };
    let version: Version = version.parse().ok()?;
    let kb = crate::kb::kb().ok()?;
    let release = kb
        .pytorch
        .release
        .iter()
        .find(|r| r.version.major() == version.major() && r.version.minor() == version.minor())?;
    let build = match tag {
        Some(t) => release.build.iter().find(|b| b.tag == t)?,
        None => release.build.iter().find(|b| b.pypi_default)?,
    };
    let cudnn = build.cudnn.as_ref()?;
    Some((cudnn.major(), format!("torch {torch} ({}) brings cuDNN {}", build.tag, cudnn)))
}

/// The cuDNN major that PyTorch's wheel index for a CUDA release brings (`download.pytorch.org/whl/cu124`,
/// its nightly and test indices): the one major that every build with that tag pins in
/// data/pytorch.toml (cu124 and later: cuDNN 9, every release on them being 2.4 or later);
/// none where the index served builds of either major (cu118, cu121) or pins none.
fn wheel_index_cudnn_major(marker: &str) -> Option<(u64, String)> {
    let at = marker.find("/cu")?;
    let digits: String = marker[at + 3..].chars().take_while(char::is_ascii_digit).collect();
    let tag = format!("cu{digits}");
    let builds = crate::kb::query::torch_tag(crate::kb::kb().ok()?, &tag).ok()?;
    let majors: BTreeSet<u64> =
        builds.releases.iter().filter_map(|r| r.build.cudnn.as_ref().map(|c| c.major())).collect();
    let [major] = majors.into_iter().collect::<Vec<_>>()[..] else { return None };
    Some((major, format!("PyTorch from the {tag} wheel index brings cuDNN {major}")))
}

/// A missing cuDNN library of one major while the log names the cuDNN that is there: the user's
/// own words ("I have installed cudnn-9.2", "libcudnn8", "cuDNN: 8.0.2"), or a PyTorch whose CUDA
/// wheels bring a cuDNN. Another major is a version mismatch (CTranslate2 4.5 wants cuDNN 9 next to
/// a torch with cuDNN 8: <https://github.com/m-bain/whisperX/issues/901>; CTranslate2 4.4 wants
/// cuDNN 8 on a machine with 9.2: <https://github.com/SYSTRAN/faster-whisper/issues/885>; TensorFlow
/// 2.3 asks for libcudnn.so.7 next to cuDNN 8: <https://github.com/tensorflow/tensorflow/issues/42309>);
/// the same major is installed where the loader does not look (pip's nvidia/cudnn/lib next to
/// torch 2.5: <https://github.com/OpenNMT/CTranslate2/issues/1826>). A user naming the cuDNN they have
/// lowers "not installed" for any cuDNN error. With a machine's facts, `missing_library` decides.
pub fn cudnn_named_vs_missing(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() {
        return vec![];
    }
    let ev = input.evidence;
    let mut present: Vec<(u64, String)> =
        ev.cudnn_in_log.iter().map(|v| (v.major(), format!("the log names cuDNN {v}"))).collect();
    let user_named = present.first().map(|(_, fact)| fact.clone());
    if let Some(t) = ev.torch_in_log.as_deref().and_then(torch_cudnn_major) {
        present.push(t);
    } else if let Some(t) = ev.cuda_build_in_log.as_deref().and_then(wheel_index_cudnn_major) {
        present.push(t);
    }
    let mut out = Vec::new();
    let wanted = ev.library.as_deref().and_then(|f| cudnn_major_wanted(f).map(|m| (f, m)));
    let Some((file, major)) = wanted else {
        if let (Some(fact), true) = (user_named, has(input, Category::CudnnMissing)) {
            out.push(adj(Category::CudnnMissing, 0.3, format!("{fact}: cuDNN is installed")));
        }
        return out;
    };
    if let Some((_, fact)) = present.iter().find(|(m, _)| *m != major) {
        if has(input, Category::CudnnMissing) {
            out.push(adj(Category::CudnnMissing, 0.3, fact.clone()));
        }
        if has(input, Category::CudnnVersionMismatch) {
            out.push(adj(
                Category::CudnnVersionMismatch,
                4.0,
                format!("{file} is cuDNN {major}, and {fact}: the program was built for another cuDNN major"),
            ));
        }
    } else if let Some((_, fact)) = present.first() {
        if has(input, Category::CudnnMissing) {
            out.push(adj(Category::CudnnMissing, 0.4, fact.clone()));
        }
        out.push(adj(
            Category::LibraryNotFound,
            4.0,
            format!("{file} is cuDNN {major}, and {fact}: it is installed where the loader does not look"),
        ));
    }
    out
}

/// Caffe's cuDNN convolution layer creates its cuDNN handles at set-up, three per group
/// (`CUDNN_STREAMS_PER_GROUP`): a grouped or depthwise convolution (group = channels) makes
/// thousands, and cudnnCreate fails with CUDNN_STATUS_INTERNAL_ERROR even at batch size 1. The
/// fix is the layer's engine (`engine: CAFFE`), as MobileNet-Caffe's README says
/// (<https://github.com/shicai/MobileNet-Caffe/issues/34>, <https://github.com/weiliu89/caffe/issues/651>,
/// <https://github.com/yjxiong/caffe/issues/174>). With a machine's facts, memory in use still
/// weighs more.
pub fn caffe_grouped_convolution(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(marker) = input.evidence.caffe_cudnn_conv.as_deref() else { return vec![] };
    if !has(input, Category::UserCodeBug) || !has(input, Category::Oom) {
        return vec![];
    }
    vec![adj(
        Category::UserCodeBug,
        3.5,
        format!(
            "the failure is Caffe's cuDNN convolution set-up ({marker}), which creates three cuDNN handles per group: a grouped (depthwise) convolution runs out of them"
        ),
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

/// A cuDNN 8 or 9 library missing when a pip-installed PyTorch imports (`site-packages/torch/
/// __init__.py` in the traceback): its CUDA wheels depend on the nvidia-cudnn wheel, which pip
/// installs beside torch, and torch finds it by a path relative to itself. Missing then means
/// installed where torch does not look: a venv whose lib64 and lib site-packages differ (torch in
/// one, nvidia in the other: <https://github.com/pytorch/pytorch/issues/165812>,
/// <https://github.com/pytorch/pytorch/issues/104259>, fixed by a symlink), the nvidia wheels
/// removed or replaced by hand (ibid., fixed by reinstalling them). With a machine's facts,
/// `missing_library` decides.
pub fn pip_torch_import_missing_cudnn(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::LibraryNotFound) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(path), Some(file)) = (ev.pip_torch_import.as_deref(), ev.library.as_deref()) else {
        return vec![];
    };
    if !file.starts_with("libcudnn") || so_major(file).is_none_or(|m| m < 8) {
        return vec![];
    }
    let mut out = vec![adj(
        Category::LibraryNotFound,
        4.0,
        format!(
            "{path} is a pip-installed PyTorch, whose CUDA wheels bring {file} in the nvidia-cudnn wheel beside it: it is installed where torch does not look"
        ),
    )];
    if has(input, Category::CudnnMissing) {
        out.push(adj(Category::CudnnMissing, 0.5, format!("pip installs {file} with torch")));
    }
    out
}

/// The cause of `signature` that a machine or runtime without a usable NVIDIA GPU explains (filed
/// as `other`).
fn no_gpu_cause<'a>(input: &RuleInput<'a>) -> Option<&'a crate::explain::Cause> {
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

/// An NCCL failure in a job that spans several machines: NCCL must talk over an interface the
/// nodes share, and with docker bridges, VPN or virtual interfaces present it may pick one the
/// other node cannot reach. NCCL's maintainers answer these with NCCL_SOCKET_IFNAME
/// (<https://github.com/NVIDIA/nccl/issues/697>, <https://github.com/NVIDIA/nccl/issues/207>,
/// <https://github.com/pytorch/pytorch/issues/17349>); a container's small /dev/shm is a
/// single-node problem.
pub fn nccl_multi_node(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !input.signature.id.starts_with("nccl") || !has(input, Category::EnvVarMisconfig) {
        return vec![];
    }
    let Some(phrase) = input.evidence.multi_node.as_deref() else { return vec![] };
    let mut out = vec![adj(
        Category::EnvVarMisconfig,
        3.0,
        format!("the job spans several machines (\"{phrase}\"): NCCL needs the interface they share"),
    )];
    if has(input, Category::ContainerRuntime) {
        out.push(adj(Category::ContainerRuntime, 0.5, "shared-memory limits concern ranks on one machine"));
    }
    out
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

/// "invalid device function" in an op of an extension the project compiles itself (deformable
/// convolution, RoIAlign, mmcv's ops): the extension was built against another CUDA or PyTorch
/// than the one running it (the corpus's six such reports, e.g.
/// <https://github.com/zzangjinsun/NLSPN_ECCV20/issues/6> and <https://github.com/MhLiao/DB/issues/31>,
/// against none of its fifteen architecture reports).
pub fn extension_op_without_function(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-invalid-device-function" {
        return vec![];
    }
    let Some(op) = input.evidence.extension_op.as_deref() else { return vec![] };
    vec![adj(
        Category::CudaRuntimeMismatch,
        8.0,
        format!("the function is missing from a compiled extension's op ({op}): rebuild it against the running PyTorch and CUDA"),
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

/// The CUDA error under an NCCL error names which cause it is
/// (<https://github.com/NVIDIA/nccl/blob/master/src/include/checks.h> prints it as "Cuda failure
/// 'message'"): peer access refused is the platform's P2P (NCCL_P2P_DISABLE,
/// <https://github.com/QwenLM/Qwen-VL/issues/447>), an allocation failure is memory
/// (<https://github.com/NVIDIA/nccl/issues/295>), a missing kernel is a build for other GPUs.
pub fn nccl_cuda_failure_detail(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !input.signature.id.starts_with("nccl") {
        return vec![];
    }
    let Some(detail) = input.evidence.nccl_cuda_failure.as_deref() else { return vec![] };
    let lower = detail.to_ascii_lowercase();
    let (category, factor) = if lower.contains("peer access") || lower.contains("peer mapping") {
        (Category::EnvVarMisconfig, 3.0)
    } else if lower.contains("out of memory") {
        (Category::Oom, 3.0)
    } else if lower.contains("invalid device function") || lower.contains("no kernel image") {
        (Category::CudaRuntimeMismatch, 2.0)
    } else {
        return vec![];
    };
    if !has(input, category) {
        return vec![];
    }
    vec![adj(category, factor, format!("NCCL's CUDA call failed with \"{detail}\""))]
}

/// NCCL's generic results (unhandled system error, internal error, remote error) say only that
/// some call failed; the NCCL WARN line printed before them names which, and NCCL's
/// troubleshooting guide reads that line first
/// (<https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html>). When the same
/// log holds one of NCCL's specific failures (a socket connection, an InfiniBand queue pair or
/// completion, locked memory), the generic error is that failure, and its most likely cause is
/// the specific one's. (/dev/shm is already counted by `container_errors_elsewhere_in_log`.)
pub fn nccl_detail_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const GENERIC: &[&str] = &["nccl-system-error", "nccl-internal-error", "nccl-remote-error"];
    const DETAIL: &[&str] = &["nccl-socket-connect", "nccl-ib-connect", "nccl-ib-memlock"];
    if !GENERIC.contains(&input.signature.id.as_str()) {
        return vec![];
    }
    let detail = input
        .table
        .signatures
        .iter()
        .find(|s| DETAIL.contains(&s.id.as_str()) && input.seen.contains(s.id.as_str()));
    let Some(detail) = detail else { return vec![] };
    let Some(top) = detail.likeliest_cause() else { return vec![] };
    if !has(input, top.category) {
        return vec![];
    }
    vec![adj(
        top.category,
        3.0,
        format!("the same log shows which call failed ({}: {})", detail.id, detail.title),
    )]
}

/// NCCL's own log shows a parameter set from the environment or nccl.conf (NCCL_GRAPH_FILE,
/// NCCL_TOPO_FILE, NCCL_SOCKET_IFNAME…): for an NCCL error that a wrong setting explains, the
/// setting. NCCL's maintainers read these lines first
/// (<https://github.com/NVIDIA/nccl/issues/1240>: an image-provided NCCL_GRAPH_FILE).
pub fn nccl_env_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !input.signature.id.starts_with("nccl") || !has(input, Category::EnvVarMisconfig) {
        return vec![];
    }
    if let Some(set) = input.evidence.nccl_env_set.as_deref() {
        return vec![adj(
            Category::EnvVarMisconfig,
            4.0,
            format!("NCCL reports {set} set from the environment or nccl.conf"),
        )];
    }
    // No interface to bootstrap on: NCCL_SOCKET_IFNAME names none of the host's interfaces (a
    // typo, a name from another machine, a value with stray characters:
    // https://github.com/marin-community/marin/issues/6940), or only loopback is left. Provoked
    // on the H200 with NCCL_SOCKET_IFNAME=nosuchif0: "invalid usage ... Last error: Bootstrap : no
    // socket interface found".
    let Some(line) = input.evidence.nccl_no_interface.as_deref() else { return vec![] };
    vec![adj(
        Category::EnvVarMisconfig,
        5.0,
        format!("NCCL found no network interface to start on (\"{line}\"): NCCL_SOCKET_IFNAME matches none of this host's interfaces"),
    )]
}

/// The most shared memory one thread block may use on any NVIDIA GPU so far: 227 KB (opt-in) on
/// compute capability 9.0 and 10.0 (CUDA C++ Programming Guide, "Technical Specifications per
/// Compute Capability").
const MAX_SHARED_MEMORY_PER_BLOCK: u64 = 227 * 1024;

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

/// The newest CUDA this machine's driver runs, and what to say after "driver" of where that comes
/// from: libcuda's or NVML's own answer where the check ran live (nothing to add), else the
/// kernel module's version read against the CUDA table (a `--root` check, or a report saved with
/// `--no-live`: " (kernel module 470.256.02)"). The module gives no forward-compatibility
/// libraries their due, so it is the second choice.
fn machine_driver_cuda(report: &Report) -> Option<(CudaVersion, String)> {
    if let Some(f) = &report.driver.cuda_supported {
        return Some((f.value, String::new()));
    }
    let module = report.driver.kernel_module.as_ref()?;
    let cuda = newest_cuda_of(&module.version.value)?;
    Some((cuda, format!(" (kernel module {})", module.version.value)))
}

/// The newest CUDA release whose minimum Linux driver `driver` meets (the CUDA version nvidia-smi
/// would show), from the knowledge base's CUDA table.
fn newest_cuda_of(driver: &DriverVersion) -> Option<CudaVersion> {
    let kb = crate::kb::kb().ok()?;
    kb.cuda.release.iter().filter(|r| r.linux.as_ref().is_some_and(|l| l <= driver)).map(|r| r.version).max()
}

/// The CUDA toolkit the Linux GPU build of TensorFlow `version` was made for and loads, from the
/// knowledge base's tested build configurations (none where a row names only a CUDA major).
fn tensorflow_build_cuda(version: &Version) -> Option<CudaVersion> {
    let kb = crate::kb::kb().ok()?;
    kb.frameworks
        .build
        .iter()
        .filter(|b| b.framework == "tensorflow" && b.platform.is_linux() && b.covers(version))
        .find_map(|b| b.cuda.first().and_then(|c| c.toolkit()))
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

/// The CUDA major and cuDNN major the PyPI `onnxruntime-gpu` release `version` is built for, from
/// the knowledge base's requirements rows (the default package, not the separate CUDA 12/11 feeds).
fn ort_build_needs(version: &Version, cuda_in_name: Option<u32>) -> Option<(u32, Option<u64>)> {
    let kb = crate::kb::kb().ok()?;
    // Builds are per minor release: 1.17.1 is a "1.17" row's.
    let minor = version.truncated(2);
    let builds = || kb.frameworks.build.iter().filter(|b| b.framework == "onnxruntime" && b.covers(&minor));
    // A package name with its CUDA major (`…-cuda12-1.17.1`) picks that build; else PyPI's default.
    let named = cuda_in_name.and_then(|m| {
        builds().find(|b| {
            b.package.starts_with("onnxruntime-gpu") && b.cuda.first().is_some_and(|c| c.major() == m)
        })
    });
    let build = named.or_else(|| builds().find(|b| b.package == "onnxruntime-gpu"))?;
    let cuda = build.cuda.first()?.major();
    let cudnn = build.cudnn.as_deref().and_then(|c| {
        let digits: String = c.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    });
    Some((cuda, cudnn))
}

/// The CUDA and cuDNN majors ONNX Runtime's own message says its build requires ("Require cuDNN
/// 8.* and CUDA 12.*", printed since 1.17): what this build needs, whichever feed it came from.
fn ort_requirement_in_message(ev: &LogEvidence) -> Option<(u32, u64)> {
    Some((ev.group("need_cuda")?.parse().ok()?, ev.group("need_cudnn")?.parse().ok()?))
}

/// A PaddlePaddle GPU wheel whose post tag names one CUDA major (`1.7.2.post107`: CUDA 10) in a
/// log that names another as the installed one ("cuda 9.2"): Paddle loads the CUDA libraries of its
/// build's release at run time, and another release's are not what it looks for — whatever the
/// message (a libcublas.so it cannot find, a segfault, a cuDNN it cannot load). Threads:
/// <https://github.com/PaddlePaddle/Paddle/issues/28618> (post107 on CUDA 9.2),
/// <https://github.com/PaddlePaddle/PaddleOCR/issues/41> (post97 on CUDA 10.0), both fixed by the
/// wheel for the installed CUDA.
pub fn paddle_build_vs_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let ev = input.evidence;
    let (Some((build, major)), Some(cuda)) = (ev.paddle_build.as_ref(), ev.cuda_in_log) else {
        return vec![];
    };
    if input.report.is_some() || cuda.major == *major || !has(input, Category::CudaRuntimeMismatch) {
        return vec![];
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        4.0,
        format!(
            "paddlepaddle-gpu {build} is a build for CUDA {major}, and the log says CUDA {cuda} is installed"
        ),
    )]
}

/// ONNX Runtime's CUDA provider failing to load, against the onnxruntime-gpu release and the CUDA
/// the log names: each release is built for one CUDA major and one cuDNN major (the requirements
/// table). A CUDA of another major is the mismatch (an ORT for CUDA 11.8 next to CUDA 12.1:
/// <https://github.com/Gourieff/sd-webui-reactor/issues/310>, /418); the CUDA it was built for
/// leaves cuDNN, most often of the wrong major (cuDNN 9 from NVIDIA's current installer where
/// 1.16 needs 8: <https://github.com/hacksider/Deep-Live-Cam/issues/948>), and a cuDNN the log
/// names of another major than the build needs says so. With a machine's facts, the installed
/// libraries decide.
pub fn ort_build_vs_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || input.signature.id != "ort-cuda-provider" {
        return vec![];
    }
    let ev = input.evidence;
    let (cuda_major, cudnn_major, built) = match (ort_requirement_in_message(ev), ev.ort_in_log.as_ref()) {
        (Some((cuda, cudnn)), _) => {
            (cuda, Some(cudnn), format!("the provider says its build requires CUDA {cuda}.*"))
        }
        (None, Some(ort)) => {
            let Some((cuda, cudnn)) = ort_build_needs(ort, ev.ort_build_cuda) else { return vec![] };
            (cuda, cudnn, format!("onnxruntime-gpu {ort} is built for CUDA {cuda}"))
        }
        (None, None) => return vec![],
    };
    let mut out = Vec::new();
    // A CUDA library the provider could not load (libcublas.so.11) is that library's problem.
    let cuda_library_missing =
        ev.library.as_deref().is_some_and(|l| !l.to_ascii_lowercase().contains("cudnn"));
    if let Some(cuda) = ev.cuda_in_log {
        if cuda.major != cuda_major {
            out.push(adj(
                Category::CudaRuntimeMismatch,
                3.0,
                format!("{built}, and the log names CUDA {cuda}"),
            ));
        } else {
            out.push(adj(
                Category::CudaRuntimeMismatch,
                0.3,
                format!("{built}, the CUDA {cuda} the log names: its cuDNN is what is left"),
            ));
            // The user naming only the cuDNN major the build needs leaves where it is installed.
            let right_cudnn_named = cudnn_major.is_some_and(|need| {
                !ev.cudnn_in_log.is_empty() && ev.cudnn_in_log.iter().all(|v| v.major() == need)
            });
            if right_cudnn_named && has(input, Category::LibraryNotFound) {
                out.push(adj(
                    Category::LibraryNotFound,
                    3.0,
                    format!("{built}, and the log names CUDA {cuda} and the cuDNN major it needs: they are installed where the loader does not look"),
                ));
            } else if !cuda_library_missing && has(input, Category::CudnnVersionMismatch) {
                let needs = cudnn_major.map(|m| format!(" and cuDNN {m}")).unwrap_or_default();
                out.push(adj(
                    Category::CudnnVersionMismatch,
                    3.0,
                    format!(
                        "{built}{needs}, and the log names CUDA {cuda}: the cuDNN is the likelier misfit"
                    ),
                ));
            }
        }
    }
    if let Some(need) = cudnn_major {
        if let Some(other) = ev.cudnn_in_log.iter().find(|v| v.major() != need) {
            if has(input, Category::CudnnVersionMismatch) {
                out.push(adj(
                    Category::CudnnVersionMismatch,
                    4.0,
                    format!("{built} and cuDNN {need}.*, and the log names cuDNN {other}"),
                ));
            }
        }
    }
    out
}

/// cuDNN's graph API finding no plan, against the GPU the log names: its fused attention has
/// engines for Ampere (sm_80) and newer only ("cuDNN SDPA doesn't support Turing GPUs",
/// <https://github.com/karpathy/llm.c/issues/761>), so an older GPU explains it and a newer one
/// makes the framework release or the cuDNN version likelier.
pub fn cudnn_attention_arch(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cudnn-frontend-no-plan" {
        return vec![];
    }
    let Some(cc) = input.evidence.compute_capability else { return vec![] };
    let name = input.evidence.gpu_name.clone().unwrap_or_else(|| cc.sm());
    if cc < ComputeCapability::new(8, 0) {
        vec![adj(
            Category::ArchUnsupported,
            4.0,
            format!("{name} (compute capability {cc}) predates Ampere: cuDNN's fused attention has no engine for it"),
        )]
    } else {
        vec![adj(
            Category::ArchUnsupported,
            0.3,
            format!(
                "{name} (compute capability {cc}) is Ampere or newer, which cuDNN's fused attention supports"
            ),
        )]
    }
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

/// The log names a GPU of the newest generation (Blackwell: supported from CUDA 12.8 and cuDNN 9.7
/// on): most of what fails on one is a build from before it, without its kernels. In the corpus,
/// 19 of 22 reports naming an RTX 50 / B200 GPU were that (ComfyUI, A1111, vLLM, RVC, NCCL tests;
/// <https://github.com/Purfview/whisper-standalone-win/issues/542> as a cuBLAS NOT_SUPPORTED).
pub fn newest_gpu_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some() || !has(input, Category::ArchUnsupported) {
        return vec![];
    }
    let Some(cc) = input.evidence.compute_capability else { return vec![] };
    let Some(support) = input.table.arch_support(cc) else { return vec![] };
    if support.min_cuda < CudaVersion::new(12, 8) {
        return vec![];
    }
    let name = input.evidence.gpu_name.clone().unwrap_or_else(|| cc.sm());
    vec![adj(
        Category::ArchUnsupported,
        2.5,
        format!(
            "{name} (compute capability {cc}) is supported only from CUDA {} and cuDNN {}: builds before them have no kernels for it",
            support.min_cuda, support.min_cudnn
        ),
    )]
}

/// Peer access refused where the log names a serving framework's custom all-reduce: those kernels
/// are an optional fast path over P2P, and the answer in these threads is to turn it off
/// (SGLang's --disable-custom-all-reduce on 2x T4: <https://github.com/sgl-project/sglang/issues/552>,
/// on RTX 4090s: <https://github.com/sgl-project/sglang/issues/4814>; TensorRT-LLM's
/// use_custom_all_reduce: <https://github.com/NVIDIA/TensorRT-LLM/issues/1034>, "custom allreduce is
/// only supported when the peer access is supported"), not NCCL's variables, which it does not read.
pub fn custom_allreduce_without_p2p(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-peer-access-unsupported" || !has(input, Category::Other) {
        return vec![];
    }
    let Some(marker) = input.evidence.custom_allreduce.as_deref() else { return vec![] };
    vec![adj(
        Category::Other,
        4.0,
        format!("the log names a custom all-reduce (\"{marker}\"), an optional P2P path the framework can turn off"),
    )]
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

/// cuBLAS refused a GEMM and the log shows it was a bfloat16 one: GPUs before Ampere have no bf16
/// GEMMs (<https://github.com/opendatalab/MinerU/issues/1508> on a Tesla M40,
/// <https://github.com/pytorch/pytorch/issues/57773> on a P100). A GPU named in the log with
/// capability 8.0 or newer has them, so the rule then says nothing.
pub fn bf16_gemm_refused(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cublas-not-supported" {
        return vec![];
    }
    let Some(marker) = input.evidence.bf16_in_log.as_deref() else { return vec![] };
    if input.evidence.compute_capability.is_some_and(|cc| cc.major >= 8) {
        return vec![];
    }
    vec![adj(
        Category::ArchUnsupported,
        3.0,
        format!("the refused operation is bfloat16 (\"{marker}\"), which cuBLAS supports only on Ampere and newer GPUs"),
    )]
}

/// cuBLAS refused a GEMM on the GPU the log names. On an RTX 50 (Blackwell, capability 12.x) the
/// cuBLASLt paths some libraries ask for (CTranslate2's int8 GEMMs under faster-whisper) are
/// refused whatever the CUDA release (<https://github.com/OpenNMT/CTranslate2/issues/1865>,
/// <https://github.com/Purfview/whisper-standalone-win/issues/542>, /562: a float16 compute type or
/// a CTranslate2 with the fix worked): the architecture. An Ampere to Hopper GPU (8.x, 9.x) has
/// every GEMM type they ask for, so the architecture goes down; older ones are left to the
/// signature's prior (the architecture, 15 of its 25 threads) and `bf16_gemm_refused`.
pub fn gemm_refused_by_the_gpu(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cublas-not-supported" {
        return vec![];
    }
    let Some(cc) = input.evidence.compute_capability else { return vec![] };
    let gpu = input.evidence.gpu_name.as_deref().unwrap_or("the GPU");
    match cc.major {
        // Ampere to Hopper have every GEMM type these libraries ask for (bf16, int8, fp16): there
        // the refusal is the cuBLAS loaded or the library's call, not the GPU.
        8..=11 => vec![adj(
            Category::ArchUnsupported,
            0.5,
            format!("{gpu} (compute capability {cc}) has the bfloat16, int8 and float16 GEMMs cuBLAS offers"),
        )],
        12.. => vec![adj(
            Category::ArchUnsupported,
            3.0,
            format!("{gpu} (compute capability {cc}) is an RTX 50 / Blackwell GPU, where cuBLAS refuses GEMM types some libraries ask for (int8)"),
        )],
        _ => vec![],
    }
}

/// The missing module is one PyTorch builds at first use under its extensions cache
/// (~/.cache/torch_extensions: DeepSpeed's fused_adam and cpu_adam, a project's `load()` kernels):
/// it is absent because its build failed earlier in the log, not because a library is off the
/// search path (<https://github.com/deepspeedai/DeepSpeed/issues/5723>,
/// <https://github.com/QwenLM/Qwen-VL/issues/188>, <https://github.com/liucongg/ChatGLM-Finetuning/issues/91>).
pub fn jit_extension_not_built(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let Some(module) = input.evidence.jit_extension.as_deref() else { return vec![] };
    if !has(input, Category::Other) {
        return vec![];
    }
    vec![adj(
        Category::Other,
        20.0,
        format!("{module} is built at first use under torch_extensions: its build failed before this"),
    )]
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

/// Which library an undefined symbol belongs to, from its name.
pub fn symbol_origin(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // A symbol missing from torch's own libraries is two PyTorch installs mixed, not an
    // extension: that signature's causes already say so.
    if input.signature.id == "torch-own-lib-undefined-symbol" {
        return vec![];
    }
    let Some(sym) = input.evidence.symbol.as_deref() else { return vec![] };
    // PyTorch's C++ namespaces, mangled: c10, at, torch and caffe2 (TypeMeta lives in caffe2 in
    // older releases), as the symbol's own scope or inside a free function's signature
    // (_Z16THPVariable_WrapN2at10TensorBaseE).
    const TORCH_CXX: [&str; 8] =
        ["_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch", "_ZN6caffe2", "_ZNK6caffe2"];
    const TORCH_NESTED: [&str; 4] = ["N3c10", "N2at", "N5torch", "N6caffe2"];
    let torch_in_signature = sym.starts_with("_Z") && TORCH_NESTED.iter().any(|n| sym.contains(n));
    if TORCH_CXX.iter().any(|p| sym.starts_with(p)) || torch_in_signature {
        vec![adj(
            Category::Other,
            4.0,
            format!("{sym} is a PyTorch C++ symbol: an extension built against another PyTorch version"),
        )]
    } else if sym.strip_prefix("cu").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase())) {
        vec![adj(
            Category::DriverTooOld,
            10.0,
            format!("{sym} is a CUDA driver API function missing from libcuda: the driver predates the CUDA calling it"),
        )]
    } else if sym.starts_with("__cuda") {
        // nvcc writes calls to these into every object it compiles (__cudaPopCallConfiguration
        // since CUDA 9.2, __cudaRegisterFatBinaryEnd since 10.1); the runtime the extension
        // loads, PyTorch's, is an older one. In 6 of 7 threads with such a symbol the extension
        // had been compiled by another CUDA's nvcc than the framework's (vid2vid#80,
        // faster-rcnn.pytorch#190, maskrcnn-benchmark#469, CenterNet#67).
        vec![adj(
            Category::CudaRuntimeMismatch,
            4.0,
            format!("{sym} is emitted by nvcc into the code it compiles: the extension was built by another CUDA release's nvcc than the runtime it loads"),
        )]
    } else if sym.starts_with("cudnn") {
        vec![adj(
            Category::CudnnVersionMismatch,
            4.0,
            format!("{sym} is a cuDNN function missing from the cuDNN that was loaded"),
        )]
    } else if ["cublas", "cuda", "cusparse", "cufft", "curand", "cusolver", "nvJitLink", "nvrtc", "nccl"]
        .iter()
        .any(|p| sym.starts_with(p))
    {
        vec![adj(
            Category::CudaRuntimeMismatch,
            3.0,
            format!("{sym} is a CUDA library function missing from the copy that was loaded"),
        )]
    } else {
        vec![]
    }
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

/// The TensorFlow release the log names against the CUDA it names, through the knowledge base's
/// tested builds (data/frameworks.toml, per platform): before CUDA 11 a TensorFlow build loads only
/// its own CUDA minor (libcudart.so.10.1), from 11 on any toolkit of its major. A CUDA the build
/// cannot use makes the runtime mismatch likely for any error it explains (TensorFlow 2.1 with
/// CUDA 10.2 sees only the CPU: <https://github.com/tensorflow/tensorflow/issues/38090>;
/// tensorflow-gpu 1.13 with CUDA 9.0: <https://github.com/tensorflow/tensorflow/issues/26209>), and
/// a release that has a GPU build for the platform makes a CPU-only build unlikely.
pub fn tf_build_vs_cuda_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    use crate::kb::tables::Platform;
    if input.report.is_some() {
        return vec![];
    }
    let ev = input.evidence;
    let Some(tf) = &ev.tf_in_log else { return vec![] };
    let Ok(kb) = crate::kb::kb() else { return vec![] };
    let platform = if ev.windows_in_log.is_some() { Platform::Windows } else { Platform::Linux };
    let Some(build) = kb
        .frameworks
        .build
        .iter()
        .find(|b| b.framework == "tensorflow" && b.platform == platform && b.covers(tf))
    else {
        return vec![];
    };
    let on = if platform == Platform::Windows { " on Windows" } else { "" };
    // Without a sign of Windows the platform is unknown: a CPU-only build is unlikely only for a
    // release that has a GPU build on native Windows too (2.10 and older), since "win10" in an
    // issue template is not always recognised (https://github.com/tensorflow/tensorflow/issues/64536).
    let gpu_on_windows = || {
        kb.frameworks.build.iter().any(|b| {
            b.framework == "tensorflow"
                && b.platform == Platform::Windows
                && b.covers(tf)
                && !b.cuda.is_empty()
        })
    };
    let mut out = Vec::new();
    if has(input, Category::CpuOnlyBuild)
        && !build.cuda.is_empty()
        && (platform == Platform::Windows || gpu_on_windows())
    {
        out.push(adj(Category::CpuOnlyBuild, 0.3, format!("TensorFlow {tf} has a GPU build{on}")));
    }
    let Some(cuda) = ev.cuda_in_log.filter(|_| !ev.cuda_in_log_major_only) else { return out };
    if build.cuda.is_empty() || !has(input, Category::CudaRuntimeMismatch) {
        return out;
    }
    let usable = build.cuda.iter().any(|spec| match spec.toolkit() {
        Some(t) if t.major < 11 => t.major == cuda.major && t.minor == cuda.minor,
        _ => spec.major() == cuda.major,
    });
    if !usable {
        let built: Vec<String> = build.cuda.iter().map(|c| c.to_string()).collect();
        out.push(adj(
            Category::CudaRuntimeMismatch,
            4.0,
            format!(
                "TensorFlow {tf}{on} is built for CUDA {}, and the log names CUDA {cuda}",
                built.join(" or ")
            ),
        ));
    }
    out
}

/// The TensorFlow release the log names against the cuDNN it names, through the tested builds'
/// cuDNN (data/frameworks.toml): TensorFlow loads the cuDNN major it was built for and refuses a
/// runtime older than its build's ("Loaded runtime CuDNN library: 5005 … but source was compiled
/// with 5110"). When no cuDNN the log names is of that major and at least that release, the
/// cuDNN is the misfit (tensorflow-gpu 1.2 with cuDNN 5.0:
/// <https://github.com/GuangmingZhu/AttentionConvLSTM/issues/13>; TensorFlow 2.3 with cuDNN 7:
/// <https://github.com/tensorflow/tensorflow/issues/42309>; TensorFlow 1.13 with cuDNN 7.1 where 7.4
/// is needed: <https://github.com/tensorflow/tensorflow/issues/26209>).
pub fn tf_build_vs_cudnn_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    use crate::kb::tables::Platform;
    if input.report.is_some() || !has(input, Category::CudnnVersionMismatch) {
        return vec![];
    }
    let ev = input.evidence;
    let (Some(tf), false) = (&ev.tf_in_log, ev.cudnn_in_log.is_empty()) else { return vec![] };
    let Ok(kb) = crate::kb::kb() else { return vec![] };
    let platform = if ev.windows_in_log.is_some() { Platform::Windows } else { Platform::Linux };
    let Some(need) = kb
        .frameworks
        .build
        .iter()
        .find(|b| b.framework == "tensorflow" && b.platform == platform && b.covers(tf))
        .and_then(|b| b.cudnn.as_deref())
        .and_then(|c| c.parse::<Version>().ok())
    else {
        return vec![];
    };
    let usable = |have: &Version| {
        have.major() == need.major()
            && (need.parts().len() < 2 || have.parts().len() < 2 || have.minor() >= need.minor())
    };
    if ev.cudnn_in_log.iter().any(usable) {
        return vec![];
    }
    let named: Vec<String> = ev.cudnn_in_log.iter().map(|v| v.to_string()).collect();
    vec![adj(
        Category::CudnnVersionMismatch,
        4.0,
        format!(
            "TensorFlow {tf} is built and tested with cuDNN {need}, and the log names cuDNN {}",
            named.join(", ")
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

const TRITON_KERNEL_IMAGE: &str = "triton-kernel-image-invalid";

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

/// JAX's CUDA plugin failing to initialize says why at the end of its traceback: when the same log
/// shows a CUDA library check failing (`Unable to load cuSPARSE`, an outdated cuDNN or CUDA
/// library), that check is the reason, not a plugin of another version than jaxlib
/// (<https://github.com/google-deepmind/mujoco_playground/issues/137>).
pub fn jax_plugin_failure_reason(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "jax-plugin-init-failed" {
        return vec![];
    }
    // cuInit finding no device (provoked on the H200 with CUDA_VISIBLE_DEVICES=""): the plugin
    // had no GPU to register, whatever its versions.
    if input.seen.contains("cuda-no-device") {
        return vec![adj(
            Category::EnvVarMisconfig,
            30.0,
            "the plugin's cuInit found no device (CUDA_ERROR_NO_DEVICE): no GPU is visible to this process",
        )];
    }
    const LIBRARY_CHECKS: [&str; 3] = ["jax-cuda-library-load", "jax-lib-version", "jax-outdated-cudnn"];
    let Some(check) = LIBRARY_CHECKS.iter().find(|id| input.seen.contains(*id)) else { return vec![] };
    vec![
        adj(
            Category::CudaRuntimeMismatch,
            4.0,
            format!("the log shows the plugin's CUDA library check failing ({check})"),
        ),
        adj(Category::Other, 0.3, "the plugin failed on a CUDA library, not on a jaxlib function it lacks"),
    ]
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

/// PyTorch's own "cuDNN error: CUDNN_STATUS_NOT_INITIALIZED": its CUDA wheels bring their own
/// cuDNN, so the threads are fixed by installing the PyTorch build for the CUDA at hand
/// (<https://github.com/Turoad/CLRNet/issues/24>: torch 1.8.0+cu111, <https://github.com/haotian-liu/LLaVA/issues/458>:
/// nvcc and torch.version.cuda made to agree, <https://github.com/xincoder/GRIP/issues/23>: a torch
/// upgrade, <https://github.com/selimsef/dfdc_deepfake_challenge/issues/22>: "pytorch for the same cuda
/// version") more often than by freeing memory. TensorFlow's and JAX's handle failures are other
/// signatures.
pub fn pytorch_cudnn_not_initialized(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cudnn-not-initialized" || !has(input, Category::CudaRuntimeMismatch) {
        return vec![];
    }
    if input.evidence.group("torch_form").is_none() || input.evidence.memory_hint.is_some() {
        return vec![];
    }
    vec![adj(
        Category::CudaRuntimeMismatch,
        3.0,
        "PyTorch's form of the error (\"cuDNN error: …\"): its wheels ship cuDNN, the build's CUDA is what threads fix",
    )]
}

/// PyTorch releases with a bug of their own behind a message: (the signature, the releases, a
/// wheel tag that never had it, what was wrong).
/// - 1.8.0's CUDA 10.2 wheels, the default from pip, raised CUDNN_STATUS_NOT_INITIALIZED on Turing
///   and newer GPUs; 1.8.1 fixed it (<https://github.com/pytorch/pytorch/issues/53336>,
///   <https://github.com/pytorch/pytorch/issues/53720>, <https://github.com/pytorch/pytorch/issues/53896>,
///   <https://github.com/werner-duvaud/muzero-general/issues/139>), and the cu111 build never had it.
/// - 2.3.0 and 2.3.1 fail the `device < num_gpus` assert when a program restricts the visible
///   GPUs; 2.4.0 fixed it (pytorch/pytorch#128819, as <https://github.com/kuwaai/kuwa-aios/issues/20>
///   resolved it; <https://github.com/xorbitsai/inference/issues/1439>: "introduced by torch 2.3.0").
const TORCH_RELEASE_BUGS: &[(&str, &[&str], Option<&str>, &str)] = &[
    (
        "cudnn-not-initialized",
        &["1.8.0"],
        Some("cu111"),
        "PyTorch 1.8.0's CUDA 10.2 wheels fail to initialise cuDNN; 1.8.1 fixed it (pytorch#53336)",
    ),
    (
        "torch-device-num-gpus-assert",
        &["2.3.0", "2.3.1"],
        None,
        "PyTorch 2.3.0 and 2.3.1 fail this assert when the visible GPUs are restricted; 2.4.0 fixed it (pytorch#128819)",
    ),
];

/// A message under a PyTorch release known for a bug behind it, named in the log or installed
/// here: the release is the cause.
pub fn torch_release_bug(input: &RuleInput<'_>) -> Vec<Adjustment> {
    let bugs: Vec<_> = TORCH_RELEASE_BUGS.iter().filter(|b| b.0 == input.signature.id).collect();
    if bugs.is_empty() || !has(input, Category::Other) {
        return vec![];
    }
    let here = relevant_frameworks(input).into_iter().filter(|f| f.kind == FrameworkKind::Torch);
    let mut versions =
        input.evidence.torch_in_log.as_deref().into_iter().chain(here.map(|f| f.version.value.as_str()));
    let bug = versions.find_map(|v| {
        let (number, tag) = v.split_once('+').unwrap_or((v, ""));
        bugs.iter().find(|(_, releases, good_tag, _)| releases.contains(&number) && Some(tag) != *good_tag)
    });
    match bug {
        Some((_, _, _, why)) => vec![adj(Category::Other, 20.0, why.to_string())],
        None => vec![],
    }
}

/// PyTorch's driver-API call refused with "invalid argument" where the log names its run-time
/// compiled kernels or their cache: the JITerator loaded a cached kernel that does not fit
/// (<https://github.com/pytorch/pytorch/issues/132756>, <https://github.com/pytorch/pytorch/issues/156010>:
/// deleting ~/.cache/torch/kernels fixed it).
pub fn kernel_cache_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "torch-driver-invalid-argument" {
        return vec![];
    }
    let Some(marker) = input.evidence.kernel_cache_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::PermissionOrCache,
        5.0,
        format!("the log names PyTorch's run-time compiled kernels or their cache (\"{marker}\")"),
    )]
}

/// Code that CUDA 13 no longer compiles (`cuda-api-removed`) on a machine whose CUDA toolkit is 13
/// or newer: that toolkit is the one building it (one with nvcc, first one that CUDA_HOME, PATH
/// or /usr/local/cuda points to). Where a 12.x toolkit is installed beside it, building with that
/// one is the fix that needs no patch, and is said so.
pub fn toolkit_newer_than_the_code(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cuda-api-removed" {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let version = |t: &crate::report::CudaToolkit| t.version.as_ref().map(|v| v.value.clone());
    let mut toolkits: Vec<_> = report.cuda.toolkits.iter().filter_map(|t| Some((t, version(t)?))).collect();
    // The toolkit a build uses: one with nvcc, one something points to, then the newest.
    toolkits
        .sort_by_key(|(t, v)| (t.nvcc.is_none(), t.pointed_to_by.is_empty(), std::cmp::Reverse(v.clone())));
    let mut out = Vec::new();
    if let Some((t, v)) = toolkits.iter().find(|(_, v)| v.major() >= 13) {
        out.push(adj(
            Category::Other,
            1.5,
            format!(
                "this machine's CUDA toolkit at {} is {v}: code written for CUDA 12 does not build with it",
                t.root
            ),
        ));
        if let Some((old, ov)) = toolkits.iter().find(|(_, v)| v.major() == 12) {
            out.push(adj(
                Category::CudaRuntimeMismatch,
                2.0,
                format!("CUDA {ov} is installed here too ({}): built with it (CUDA_HOME, PATH), the code needs no patch", old.root),
            ));
        }
    }
    out
}

/// Paddle's CUDNN_STATUS_BAD_PARAM: Paddle (1.x, and 2.x on Linux) loads the system's cuDNN and
/// its GPU builds are compiled against one cuDNN release (1.x "post107" wheels: 7.6), so an older
/// cuDNN on the machine gets arguments it reads otherwise. The threads were fixed by the cuDNN
/// the build wants (<https://github.com/PaddlePaddle/models/issues/4145> and
/// <https://github.com/PaddlePaddle/Paddle/issues/34166>: 7.4 -> 7.6;
/// <https://github.com/PaddlePaddle/Paddle/issues/26250>: 7.3 loaded instead of 7.6).
pub fn paddle_cudnn_bad_param(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "cudnn-bad-param" || !has(input, Category::CudnnVersionMismatch) {
        return vec![];
    }
    if input.evidence.group("paddle").is_none() {
        return vec![];
    }
    vec![adj(
        Category::CudnnVersionMismatch,
        3.0,
        "Paddle's cuDNN error: Paddle loads the system's cuDNN, and its builds want the cuDNN they were compiled with",
    )]
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

/// A cuBLAS failure where the log names an embedding layer: an index past the embedding's
/// table (a token id beyond the vocabulary, a feature value beyond the embedding size) makes the
/// lookup's kernel fail, and the first cuBLAS call after it reports the broken context as
/// CUBLAS_STATUS_NOT_INITIALIZED or EXECUTION_FAILED
/// (<https://github.com/huggingface/transformers/issues/6263>, <https://github.com/shenweichen/DeepCTR-Torch/issues/135>:
/// running on the CPU shows the IndexError).
pub fn cublas_failure_after_embedding(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !input.signature.id.starts_with("cublas-") || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    let Some(marker) = input.evidence.embedding_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::UserCodeBug,
        4.0,
        format!(
            "the log names an embedding (\"{marker}\"): an index beyond its table breaks the CUDA context, and cuBLAS reports it next"
        ),
    )]
}

/// A cuDNN internal or execution failure in PyTorch's recurrent layer: the RNN kernels take the
/// program's inputs as they are, and the threads were the program's (an embedding index out of
/// range, <https://github.com/pytorch/pytorch/issues/4675>; an input left on the CPU,
/// <https://github.com/pytorch/pytorch/issues/6306>).
pub fn cudnn_rnn_failure(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const IDS: [&str; 3] = ["cudnn-internal-error", "cudnn-execution-failed", "cudnn-bad-param"];
    if !IDS.contains(&input.signature.id.as_str()) || !has(input, Category::UserCodeBug) {
        return vec![];
    }
    let Some(marker) = input.evidence.rnn_in_log.as_deref() else { return vec![] };
    vec![adj(
        Category::UserCodeBug,
        4.0,
        format!("the failure is in cuDNN's RNN ({marker}), which runs on the inputs the program gives it"),
    )]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::table;

    #[test]
    fn operation_not_supported_with_a_vgpu_or_an_allocator_mode_points_at_the_allocator_setting() {
        let plain = "RuntimeError: CUDA driver error: operation not supported";
        assert_eq!(top(plain), ("cuda-not-supported".into(), Category::ArchUnsupported));
        let vgpu = "GPU: NVIDIA L40S-48C. Max memory: 47.712 GB.\nRuntimeError: CUDA driver error: operation not supported";
        assert_eq!(top(vgpu), ("cuda-not-supported".into(), Category::EnvVarMisconfig));
        let alloc = "PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync\nCUDA error: operation not supported";
        assert_eq!(top(alloc), ("cuda-not-supported".into(), Category::EnvVarMisconfig));
    }

    #[test]
    fn onnxruntimes_cuda_provider_is_held_against_the_release_and_cuda_the_log_names() {
        let line = "CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN";
        // The provider's message alone: the CUDA major is the commonest misfit.
        assert_eq!(top(line), ("ort-cuda-provider".into(), Category::CudaRuntimeMismatch));
        // A 1.16 build is for CUDA 11.8: with CUDA 11.8 named, cuDNN is what is left.
        let same = format!("i am using cuda 11.8, onnxruntime-gpu 1.16.3 and python 3.10.0.\n{line}");
        assert_eq!(top(&same), ("ort-cuda-provider".into(), Category::CudnnVersionMismatch));
        // The same release with CUDA 12.1 is the CUDA mismatch.
        let other = format!("CUDA 12.1, onnxruntime-gpu 1.16.3\n{line}");
        assert_eq!(top(&other), ("ort-cuda-provider".into(), Category::CudaRuntimeMismatch));
        // With the cuDNN major it needs named too, the libraries are there but not found.
        let both = format!("CUDA 11.8, cuDNN 8.9.7, ONNX Runtime: 1.16.3\n{line}");
        assert_eq!(top(&both), ("ort-cuda-provider".into(), Category::LibraryNotFound));
    }

    #[test]
    fn without_facts_the_priors_decide_and_scores_sum_to_one() {
        let t = table();
        let sig = t.by_id("cudnn-internal-error").unwrap();
        let ranked = rank(sig, &LogEvidence::default(), None, &BTreeSet::new(), t);
        assert_eq!(ranked[0].category, Category::Oom);
        let total: f64 = ranked.iter().map(|c| c.score).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn an_oom_in_the_same_log_raises_oom_for_other_errors() {
        let t = table();
        let sig = t.by_id("torch-no-cudnn-engine").unwrap();
        let seen: BTreeSet<&str> = ["torch-cuda-oom"].into();
        let ranked = rank(sig, &LogEvidence::default(), None, &seen, t);
        assert_eq!(ranked[0].category, Category::Oom);
        assert!(ranked[0].facts[0].contains("torch-cuda-oom"));
    }

    #[test]
    fn a_container_error_in_the_same_log_raises_the_container_for_nvidia_smi() {
        let t = table();
        let sig = t.by_id("nvidia-smi-no-driver").unwrap();
        let alone = rank(sig, &LogEvidence::default(), None, &["nvidia-smi-no-driver"].into(), t);
        assert_eq!(alone[0].category, Category::DriverNotLoaded);
        let seen: BTreeSet<&str> = ["nvidia-smi-no-driver", "docker-no-gpu-driver"].into();
        let ranked = rank(sig, &LogEvidence::default(), None, &seen, t);
        assert_eq!(ranked[0].category, Category::ContainerRuntime);
        assert!(ranked[0].facts[0].contains("docker-no-gpu-driver"));
        // A signature whose own first cause is the container is left to its priors.
        let docker = t.by_id("docker-no-gpu-driver").unwrap();
        assert!(container_errors_elsewhere_in_log(&RuleInput {
            signature: docker,
            evidence: &LogEvidence::default(),
            report: None,
            seen: &seen,
            table: t,
        })
        .is_empty());
    }

    #[test]
    fn nccl_s_generic_system_error_in_the_same_log_is_not_a_container_error() {
        let t = table();
        let sig = t.by_id("nccl-socket-connect").unwrap();
        let seen: BTreeSet<&str> = ["nccl-socket-connect", "nccl-system-error"].into();
        let ranked = rank(sig, &LogEvidence::default(), None, &seen, t);
        assert_eq!(ranked[0].category, Category::EnvVarMisconfig);
        // /dev/shm failing in the same log still is.
        let seen: BTreeSet<&str> = ["nccl-socket-connect", "nccl-shm"].into();
        assert_eq!(
            rank(sig, &LogEvidence::default(), None, &seen, t)[0].category,
            Category::ContainerRuntime
        );
    }

    #[test]
    fn a_generic_nccl_error_takes_the_cause_of_the_nccl_warning_beside_it() {
        let t = table();
        let sig = t.by_id("nccl-system-error").unwrap();
        let first = |seen: &[&'static str]| {
            let seen: BTreeSet<&str> = seen.iter().copied().collect();
            rank(sig, &LogEvidence::default(), None, &seen, t)[0].category
        };
        // Alone, the generic error keeps its priors (a container's /dev/shm first).
        assert_eq!(first(&["nccl-system-error"]), Category::ContainerRuntime);
        // A socket that could not connect, or an RDMA peer that never answered: the interface
        // or InfiniBand settings.
        assert_eq!(first(&["nccl-system-error", "nccl-socket-connect"]), Category::EnvVarMisconfig);
        assert_eq!(first(&["nccl-system-error", "nccl-ib-connect"]), Category::EnvVarMisconfig);
        // Locked memory for InfiniBand: the memlock limit rises next to the container's.
        let seen: BTreeSet<&str> = ["nccl-system-error", "nccl-ib-memlock"].into();
        let ranked = rank(sig, &LogEvidence::default(), None, &seen, t);
        assert!(ranked.iter().take(2).any(|c| c.category == Category::PermissionOrCache));
        // Other signatures' own causes are left alone.
        let socket = t.by_id("nccl-socket-connect").unwrap();
        let seen: BTreeSet<&str> = ["nccl-socket-connect", "nccl-ib-memlock"].into();
        assert_eq!(
            rank(socket, &LogEvidence::default(), None, &seen, t)[0].category,
            Category::EnvVarMisconfig
        );
    }

    #[test]
    fn the_cuda_error_under_an_nccl_error_names_its_cause() {
        let t = table();
        let sig = t.by_id("nccl-cuda-error").unwrap();
        let first = |detail: &str| {
            let ev = LogEvidence { nccl_cuda_failure: Some(detail.into()), ..LogEvidence::default() };
            rank(sig, &ev, None, &BTreeSet::new(), t)[0].category
        };
        assert_eq!(
            first("peer access is not supported between these two devices"),
            Category::EnvVarMisconfig
        );
        assert_eq!(first("out of memory"), Category::Oom);
        assert_eq!(first("invalid device function"), Category::CudaRuntimeMismatch);
        // An error that names no cause leaves the priors.
        assert_eq!(
            first("invalid argument"),
            rank(sig, &LogEvidence::default(), None, &BTreeSet::new(), t)[0].category
        );
    }

    #[test]
    fn a_gpu_newer_than_the_cuda_in_the_log_ranks_the_architecture_first() {
        let t = table();
        let sig = t.by_id("cublas-execution-failed").unwrap();
        let ev = |cuda: &str| LogEvidence {
            gpu_name: Some("GeForce RTX 3080".into()),
            compute_capability: "8.6".parse().ok(),
            cuda_in_log: cuda.parse().ok(),
            ..LogEvidence::default()
        };
        let old = rank(sig, &ev("10.0"), None, &BTreeSet::new(), t);
        assert_eq!(old[0].category, Category::ArchUnsupported);
        assert!(old[0].facts[0].contains("CUDA 10.0"));
        let new = rank(sig, &ev("11.3"), None, &BTreeSet::new(), t);
        assert!(new[0].facts.iter().all(|f| !f.contains("needs CUDA")));
        assert_ne!(new[0].category, Category::ArchUnsupported);
        assert!(new.iter().any(|c| c.category == Category::ArchUnsupported
            && c.against.iter().any(|f| f.contains("supported from CUDA 11.1"))));
        // "CUDA 11" alone may be 11.1: neither held against an sm_86 card nor for it; "cuda10" is.
        let major = |cuda: &str| LogEvidence { cuda_in_log_major_only: true, ..ev(cuda) };
        let eleven = rank(sig, &major("11.0"), None, &BTreeSet::new(), t);
        assert!(eleven.iter().all(|c| c.facts.is_empty() && c.against.is_empty()));
        assert_eq!(
            rank(sig, &major("10.0"), None, &BTreeSet::new(), t)[0].category,
            Category::ArchUnsupported
        );
    }

    #[test]
    fn a_user_saying_there_is_no_nvidia_gpu_ranks_that_first_where_the_signature_lists_it() {
        let t = table();
        let ev =
            LogEvidence { no_nvidia_gpu: Some("running it on the CPU".into()), ..LogEvidence::default() };
        let sig = t.by_id("torch-no-nvidia-driver").unwrap();
        // Without evidence the prior decides: reports of this message that show no container are
        // mostly machines without an NVIDIA GPU; a container in the log puts its runtime first.
        assert_eq!(
            rank(sig, &LogEvidence::default(), None, &BTreeSet::new(), t)[0].category,
            Category::Other
        );
        let docker = LogEvidence { container_in_log: Some("docker run".into()), ..LogEvidence::default() };
        assert_eq!(rank(sig, &docker, None, &BTreeSet::new(), t)[0].category, Category::ContainerRuntime);
        assert_eq!(rank(sig, &ev, None, &BTreeSet::new(), t)[0].category, Category::Other);
        // A CPU-only torch on a machine without a GPU is no broken install; "running it on the CPU"
        // alone does not say the machine has no GPU.
        let cpu_torch = t.by_id("torch-not-compiled-with-cuda").unwrap();
        assert_eq!(rank(cpu_torch, &ev, None, &BTreeSet::new(), t)[0].category, Category::CpuOnlyBuild);
        let laptop = LogEvidence {
            no_nvidia_gpu: Some("My laptop doesn't have an NVIDIA GPU".into()),
            ..LogEvidence::default()
        };
        assert_eq!(rank(cpu_torch, &laptop, None, &BTreeSet::new(), t)[0].category, Category::Other);
        // NCCL's `other` is the network, not a missing GPU: left alone.
        let nccl = t.by_id("nccl-timeout").unwrap();
        assert!(no_nvidia_gpu_in_log(&RuleInput {
            signature: nccl,
            evidence: &ev,
            report: None,
            seen: &BTreeSet::new(),
            table: t
        })
        .is_empty());
    }

    #[test]
    fn an_illegal_access_in_a_convolution_or_compiled_kernel_is_a_library_bug() {
        let t = table();
        let none = BTreeSet::new();
        let ima = t.by_id("cuda-illegal-address").unwrap();
        // Alone, the message is most often a library's bug (21 of the corpus's 37 reports of it).
        let alone = rank(ima, &LogEvidence::default(), None, &none, t);
        assert_eq!(alone[0].category, Category::Other);
        for marker in ["nn.Conv2d", "[inductor]"] {
            let ev = LogEvidence { library_kernel: Some(marker.into()), ..LogEvidence::default() };
            let ranked = rank(ima, &ev, None, &none, t);
            assert_eq!(ranked[0].category, Category::Other, "{marker}");
            assert!(ranked[0].score > alone[0].score && !ranked[0].facts.is_empty(), "{marker}");
        }
        // A signature that names no library bug among its causes is left alone.
        let ev = LogEvidence { library_kernel: Some("nn.Conv2d".into()), ..LogEvidence::default() };
        let assert_sig = t.by_id("cuda-device-assert").unwrap();
        assert!(library_kernel_fault(&RuleInput {
            signature: assert_sig,
            evidence: &ev,
            report: None,
            seen: &none,
            table: t
        })
        .is_empty());
    }

    #[test]
    fn a_cudnn_missing_as_a_pip_torch_imports_is_installed_where_torch_does_not_look() {
        let t = table();
        let none = BTreeSet::new();
        let sig = t.by_id("loader-libcudnn-missing").unwrap();
        let missing = |file: &str, path: Option<&str>| LogEvidence {
            library: Some(file.into()),
            pip_torch_import: path.map(Into::into),
            ..LogEvidence::default()
        };
        let pip = Some("venv/lib64/python3.11/site-packages/torch/__init__.py");
        assert_eq!(
            rank(sig, &missing("libcudnn.so.9", None), None, &none, t)[0].category,
            Category::CudnnMissing
        );
        assert_eq!(
            rank(sig, &missing("libcudnn.so.9", pip), None, &none, t)[0].category,
            Category::LibraryNotFound
        );
        // cuDNN 7 and older did not come as a pip wheel beside torch.
        assert_eq!(
            rank(sig, &missing("libcudnn.so.7", pip), None, &none, t)[0].category,
            Category::CudnnMissing
        );
    }

    #[test]
    fn peer_access_refused_to_a_custom_all_reduce_is_that_fast_path() {
        let t = table();
        let none = BTreeSet::new();
        let text = "Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'";
        let r = crate::explain::scan::scan_bytes(text.as_bytes(), t);
        let e = rules_only(&r);
        assert_eq!(e[0].signature, "cuda-peer-access-unsupported");
        assert_eq!(e[0].evidence.custom_allreduce.as_deref(), Some("custom_all_reduce"));
        assert_eq!(e[0].causes[0].category, Category::Other);
        assert!(e[0].causes[0].facts.iter().any(|f| f.contains("custom all-reduce")));
        // Without it the fast path is still the likelier cause (every corpus thread of the family
        // was settled by turning it off), but nothing in the log says which one.
        let sig = t.by_id("cuda-peer-access-unsupported").unwrap();
        let ranked = rank(sig, &LogEvidence::default(), None, &none, t);
        assert_eq!(ranked[0].category, Category::Other);
        assert!(ranked[0].facts.is_empty());
    }

    #[test]
    fn docker_asked_for_a_gpu_on_intel_graphics_is_the_missing_gpu_not_the_toolkit() {
        let t = table();
        let none = BTreeSet::new();
        let sig = t.by_id("docker-no-gpu-driver").unwrap();
        assert_eq!(
            rank(sig, &LogEvidence::default(), None, &none, t)[0].category,
            Category::ContainerRuntime
        );
        let intel =
            LogEvidence { no_nvidia_gpu: Some("Intel® Xe Graphics".into()), ..LogEvidence::default() };
        assert_eq!(rank(sig, &intel, None, &none, t)[0].category, Category::Other);
        // A laptop naming its NVIDIA GPU beside the Intel one has a GPU to hand over.
        let hybrid = LogEvidence {
            compute_capability: Some(ComputeCapability::new(8, 6)),
            gpu_name: Some("RTX 3060".into()),
            ..intel
        };
        assert_eq!(rank(sig, &hybrid, None, &none, t)[0].category, Category::ContainerRuntime);
    }

    #[test]
    fn wsl1_is_the_driver_and_a_colab_notebook_the_missing_gpu() {
        let t = table();
        let none = BTreeSet::new();
        let smi = t.by_id("nvidia-smi-no-driver").unwrap();
        assert_eq!(rank(smi, &LogEvidence::default(), None, &none, t)[0].category, Category::DriverNotLoaded);
        let wsl1 = LogEvidence {
            wsl1_in_log: Some("4.4.0-19041-Microsoft".into()),
            wsl_in_log: Some("wsl2".into()),
            ..LogEvidence::default()
        };
        assert_eq!(rank(smi, &wsl1, None, &none, t)[0].category, Category::DriverNotLoaded);
        // On WSL 2 the loader path is the answer for a driver library not found; on WSL 1 there is
        // no driver to find.
        let cudarc = t.by_id("cudarc-libcuda-not-found").unwrap();
        let wsl2 = LogEvidence { wsl_in_log: Some("WSL".into()), ..LogEvidence::default() };
        assert_eq!(rank(cudarc, &wsl2, None, &none, t)[0].category, Category::LibraryNotFound);
        assert_eq!(rank(cudarc, &wsl1, None, &none, t)[0].category, Category::DriverNotLoaded);
        let available = t.by_id("torch-cuda-not-available").unwrap();
        assert_eq!(
            rank(available, &LogEvidence::default(), None, &none, t)[0].category,
            Category::CpuOnlyBuild
        );
        let colab = LogEvidence { colab_in_log: Some("Colab".into()), ..LogEvidence::default() };
        assert_eq!(rank(available, &colab, None, &none, t)[0].category, Category::Other);
        // A CPU wheel in the log explains it on a GPU runtime too.
        let colab_cpu = LogEvidence { cpu_build_in_log: Some("2.1.0+cpu".into()), ..colab };
        assert_eq!(rank(available, &colab_cpu, None, &none, t)[0].category, Category::CpuOnlyBuild);
    }

    #[test]
    fn a_cpu_wheel_named_in_the_log_ranks_the_cpu_build_first() {
        let t = table();
        let sig = t.by_id("xformers-extension-mismatch").unwrap();
        let plain = rank(sig, &LogEvidence::default(), None, &BTreeSet::new(), t);
        assert_eq!(plain[0].category, Category::Other);
        let ev = LogEvidence { cpu_build_in_log: Some("2.1.2+cpu".into()), ..LogEvidence::default() };
        let ranked = rank(sig, &ev, None, &BTreeSet::new(), t);
        assert_eq!(ranked[0].category, Category::CpuOnlyBuild);
        assert!(ranked[0].facts[0].contains("2.1.2+cpu"));
        // A signature without a CPU-build cause is left alone.
        let oom = t.by_id("torch-cuda-oom").unwrap();
        let input =
            RuleInput { signature: oom, evidence: &ev, report: None, seen: &BTreeSet::new(), table: t };
        assert!(cpu_build_in_log(&input).is_empty());
    }

    #[test]
    fn how_a_torchrun_worker_ended_moves_memory_against_the_program_s_own_error() {
        let t = table();
        let sig = t.by_id("torchrun-child-failed").unwrap();
        let first = |exit: Option<&str>| {
            let ev = LogEvidence { worker_exit: exit.map(Into::into), ..LogEvidence::default() };
            rank(sig, &ev, None, &BTreeSet::new(), t)[0].category
        };
        assert_eq!(first(Some("exitcode: -9")), Category::Oom);
        assert_eq!(first(Some("signal 9 (SIGKILL)")), Category::Oom);
        assert_eq!(first(Some("exitcode  : 1")), Category::UserCodeBug);
        // A signature without both causes is left alone.
        let ddp = t.by_id("ddp-unused-parameters").unwrap();
        let ev = LogEvidence { worker_exit: Some("exitcode: -9".into()), ..LogEvidence::default() };
        assert_eq!(rank(ddp, &ev, None, &BTreeSet::new(), t)[0].category, Category::UserCodeBug);
    }

    #[test]
    fn pytorch_cxx_symbols_point_at_an_extension_built_for_another_torch() {
        let t = table();
        let sig = t.by_id("loader-undefined-symbol").unwrap();
        let first = |sym: &str| {
            let ev = LogEvidence { symbol: Some(sym.into()), ..LogEvidence::default() };
            rank(sig, &ev, None, &BTreeSet::new(), t)[0].category
        };
        // caffe2's TypeMeta (older releases), a free function taking an at::TensorBase, c10.
        assert_eq!(
            first("_ZN6caffe28TypeMeta21_typeMetaDataInstanceISt7complexIdEEEPKNS_6detail1"),
            Category::Other
        );
        assert_eq!(first("_Z16THPVariable_WrapN2at10TensorBaseE"), Category::Other);
        assert_eq!(first("_ZN3c104cuda9SetDeviceEi"), Category::Other);
        // A CUDA library function is not a PyTorch symbol.
        assert_eq!(first("cublasLtGetStatusString"), Category::CudaRuntimeMismatch);
        // Code nvcc emits, from an extension compiled by another CUDA than the framework's.
        assert_eq!(first("__cudaPopCallConfiguration"), Category::CudaRuntimeMismatch);
    }

    #[test]
    fn a_container_in_the_log_counts_on_a_host_that_is_none() {
        // `docker run … 2>&1 | cudoctor explain -` on the host: the host is no container, the
        // failing program was in one. That the host is none must not argue against the runtime.
        let t = table();
        let sig = t.by_id("nvidia-smi-no-driver").unwrap();
        let host = crate::report::Report::new("/", true);
        let docker = LogEvidence { container_in_log: Some("docker run".into()), ..LogEvidence::default() };
        let ranked = rank(sig, &docker, Some(&host), &BTreeSet::new(), t);
        assert_eq!(ranked[0].category, Category::ContainerRuntime);
        assert!(ranked.iter().all(|c| c.against.iter().all(|a| !a.contains("not a container"))));
        // Without a container in the log, the host being none still counts against the runtime.
        let ranked = rank(sig, &LogEvidence::default(), Some(&host), &BTreeSet::new(), t);
        let runtime = ranked.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
        assert!(runtime.against.iter().any(|a| a.contains("not a container")), "{:?}", runtime.against);
    }

    #[test]
    fn a_docker_command_in_the_log_raises_the_container_for_nvidia_smi() {
        let t = table();
        let sig = t.by_id("nvidia-smi-no-driver").unwrap();
        let ev = LogEvidence { container_in_log: Some("docker run".into()), ..LogEvidence::default() };
        let ranked = rank(sig, &ev, None, &BTreeSet::new(), t);
        assert_eq!(ranked[0].category, Category::ContainerRuntime);
        assert!(ranked[0].facts[0].contains("docker run"));
    }

    /// The first error of a text and its top cause, ranked without a machine's facts.
    /// `explain --no-check` by the rules (and the word model) alone: these tests are about what
    /// the rules make of a text, and many of their texts are corpus reports, which the known
    /// reports would recognise.
    fn rules_only(result: &crate::explain::scan::ScanResult) -> Vec<crate::explain::Explanation> {
        static NONE: std::sync::OnceLock<crate::explain::known::KnownReports> = std::sync::OnceLock::new();
        let known = NONE.get_or_init(|| crate::explain::known::KnownReports::train(std::iter::empty()));
        let learned = crate::explain::Learned {
            words: Some(crate::explain::words::model()),
            known: Some(known),
            leave_out: None,
        };
        crate::explain::explain_with(result, None, &learned)
    }

    /// The first error of a text, explained by the rules alone ([`rules_only`]).
    fn first(text: &str) -> crate::explain::Explanation {
        let result = crate::explain::scan::scan_bytes(text.as_bytes(), table());
        rules_only(&result).into_iter().next().expect("a known error")
    }

    /// The signatures the rules read a text's errors as, first error first.
    fn signatures(text: &str) -> Vec<String> {
        let result = crate::explain::scan::scan_bytes(text.as_bytes(), table());
        rules_only(&result).into_iter().map(|e| e.signature).collect()
    }

    fn top(text: &str) -> (String, Category) {
        let e = first(text);
        (e.signature, e.causes[0].category)
    }

    /// The categories of the first error's causes, best first.
    fn causes(text: &str) -> Vec<Category> {
        first(text).causes.iter().map(|c| c.category).collect()
    }

    #[test]
    fn a_missing_libcuda_is_the_containers_only_where_the_text_names_one() {
        // Fedora's driver package without its CUDA library: nothing says container.
        let desktop = "./excavator: error while loading shared libraries: libcuda.so.1: cannot open \
                       shared object file: No such file or directory\nI have installed the latest \
                       NVIDIA 460.39 driver on Fedora 32.\n";
        let ranked = causes(desktop);
        assert_ne!(ranked[0], Category::ContainerRuntime, "{ranked:?}");
        let e = first(desktop);
        let container = e.causes.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
        assert!(
            container.against.iter().any(|f| f.contains("names no container")),
            "{:?}",
            container.against
        );
        // The same error in a pod, or in an image, keeps the container first; in a pasted report
        // the container may be named anywhere, far above the error (in its title).
        let filler = "setting up the environment\n".repeat(30);
        let titled = format!(
            "GPU support stopped working with Singularity 3.4.2\n{filler}./test: error while loading \
             shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory\n"
        );
        assert_eq!(causes(&titled)[0], Category::ContainerRuntime);
        for text in [
            "libcuda.so.1: cannot open shared object file: No such file or directory\nin my k8s pod\n",
            "ImportError: libcuda.so.1: cannot open shared object file (inside the docker container)\n",
        ] {
            assert_eq!(causes(text)[0], Category::ContainerRuntime, "{text}");
        }
    }

    #[test]
    fn cudnn_not_initialised_under_pytorch_1_8_0_cuda_10_2_is_that_release() {
        let error = "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED";
        for named in ["pytorch 1.8.0 installation", "pip install torch==1.8.0+cu102"] {
            assert_eq!(top(&format!("{named}\n{error}")).1, Category::Other, "{named}");
        }
        // Its CUDA 11.1 build did not have the bug; other releases are ranked as before.
        for named in ["pip install torch==1.8.0+cu111", "pip install torch==1.8.1"] {
            assert_eq!(top(&format!("{named}\n{error}")).1, Category::CudaRuntimeMismatch, "{named}");
        }
    }

    #[test]
    fn a_driver_kept_from_loading_or_a_suspend_points_at_the_module_whatever_failed() {
        // vLLM's platform detection alone is its package set; with Secure Boot named, the module.
        let vllm = "RuntimeError: Failed to infer device type";
        assert_eq!(top(vllm).1, Category::Other);
        let blocked =
            format!("{vllm}\nmokutil --sb-state says SecureBoot enabled, lsmod | grep nvidia is empty");
        assert_eq!(top(&blocked), ("vllm-no-platform".into(), Category::DriverNotLoaded));
        // nouveau on the host counts inside Kubernetes too; "couldn't communicate" there does not.
        let k8s = "the k8s driver daemonset pod fails, dmesg shows nouveau errors\nRuntimeError: Failed to infer device type";
        assert_eq!(top(k8s).1, Category::DriverNotLoaded);
        let docker = "docker run --gpus all img\nRuntimeError: Failed to infer device type\nNVIDIA-SMI couldn't communicate with the NVIDIA driver";
        assert_ne!(top(docker).1, Category::DriverNotLoaded);
        let woke = "RuntimeError: Failed to infer device type\nit only happens after the laptop resumed from hibernation";
        let at = |t: &str| causes(t).iter().position(|&c| c == Category::DriverNotLoaded).unwrap();
        assert!(at(woke) < at(vllm), "{:?}", causes(woke));
    }

    #[test]
    fn triton_pre_ampere_layouts_peer_access_toggles_and_vllm_platform_detection_are_known() {
        let triton = "python: /project/lib/Analysis/Allocation.cpp:47: Assertion `!(srcMmaLayout && dstMmaLayout && !srcMmaLayout.isAmpere()) && \"mma -> mma layout conversion is only supported on Ampere\"' failed.";
        assert_eq!(top(triton), ("triton-mma-layout-pre-ampere".into(), Category::ArchUnsupported));
        let peer = "CUDA error: peer access is already enabled\n  cudaDeviceEnablePeerAccess(id_other, 0)";
        assert_eq!(top(peer), ("cuda-peer-access-already-enabled".into(), Category::Other));
        let vllm = "INFO __init__.py:194] No platform detected, vLLM is running on UnspecifiedPlatform\n\
                    RuntimeError: Failed to infer device type";
        assert_eq!(top(vllm), ("vllm-no-platform".into(), Category::Other));
    }

    #[test]
    fn out_of_memory_while_torch_load_restores_a_checkpoint_is_the_loading_code() {
        let restore =
            "  File \"demo.py\", line 124, in <module>\n    checkpoint = torch.load(args.checkpoint)\n\
                       File \"torch/serialization.py\", line 135, in _cuda_deserialize\n\
                       RuntimeError: CUDA error: out of memory";
        assert_eq!(top(restore), ("cuda-out-of-memory-runtime".into(), Category::UserCodeBug));
        let mapped = "    sd = torch.load(path, map_location='cpu')\n    model.cuda()\nRuntimeError: CUDA error: out of memory";
        assert_eq!(top(mapped), ("cuda-out-of-memory-runtime".into(), Category::Oom));
        let training = "  File \"train.py\", line 80, in <module>\n    loss.backward()\nRuntimeError: CUDA error: out of memory";
        assert_eq!(top(training), ("cuda-out-of-memory-runtime".into(), Category::Oom));
    }

    #[test]
    fn the_os_error_of_a_failed_call_decides_between_permissions_and_a_full_shm() {
        let denied = "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:290, unhandled system error\n\
                      node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied";
        assert_eq!(top(denied), ("nccl-system-error".into(), Category::PermissionOrCache));
        let full = "include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device";
        assert_eq!(top(full), ("nccl-shm".into(), Category::ContainerRuntime));
    }

    #[test]
    fn a_versioned_cuda_library_missing_on_colab_is_a_build_for_another_cuda() {
        let colab = "OSError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\
                     when running the google colab demo";
        assert_eq!(top(colab), ("loader-cuda-lib-missing".into(), Category::CudaRuntimeMismatch));
        // Alone, a toolkit library asked for by its release is most often a build for another CUDA;
        // with the same CUDA said to be installed, a loader path that misses it; a library that is
        // not the toolkit's (TensorRT's) is not installed or not on the path.
        let plain = "OSError: libcudart.so.10.1: cannot open shared object file: No such file or directory";
        assert_eq!(top(plain), ("loader-cuda-lib-missing".into(), Category::CudaRuntimeMismatch));
        let installed = format!("I have CUDA 10.1 installed\n{plain}");
        assert_eq!(top(&installed), ("loader-cuda-lib-missing".into(), Category::LibraryNotFound));
        let tensorrt =
            "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory";
        assert_eq!(top(tensorrt), ("loader-cuda-lib-missing".into(), Category::LibraryNotFound));
        // cuRAND's soname (libcurand.so.10, CUDA 10 to 13) names no release.
        let curand =
            "ImportError: libcurand.so.10: cannot open shared object file: No such file or directory";
        assert_eq!(top(curand), ("loader-cuda-lib-missing".into(), Category::LibraryNotFound));
        // A CUDA image, shown by the LD_LIBRARY_PATH NVIDIA's images set, is one CUDA release too.
        let image = "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic \
                     library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: \
                     No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64";
        assert_eq!(top(image).1, Category::CudaRuntimeMismatch);
        let no_image =
            image.replace("/usr/local/nvidia/lib:/usr/local/nvidia/lib64", "/usr/local/cuda/lib64");
        assert_eq!(top(&no_image).1, Category::LibraryNotFound);
    }

    #[test]
    fn pytorch_s_allocator_asserting_on_nvml_is_memory_first_and_its_init_form_the_driver() {
        let oom = "RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":830, please report a bug to PyTorch.";
        assert_eq!(top(oom), ("torch-allocator-nvml-assert".into(), Category::Oom));
        assert!(causes(oom).contains(&Category::EnvVarMisconfig), "a MIG slice named wrongly is listed");
        let init = "RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlInit_v2_() INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":1123, please report a bug to PyTorch.";
        assert_eq!(top(init), ("torch-allocator-nvml-init-assert".into(), Category::DriverLibraryMismatch));
    }

    #[test]
    fn a_brand_the_container_cli_cannot_evaluate_is_the_toolkit_not_the_driver() {
        let brand =
            "nvidia-container-cli: requirement error: unsatisfied condition: brand = quadrortx: unknown";
        assert_eq!(top(brand), ("container-cli-brand-requirement".into(), Category::ContainerRuntime));
        let cuda = "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version, or use an earlier cuda container: unknown";
        assert_eq!(top(cuda), ("container-cli-requirement".into(), Category::DriverTooOld));
    }

    #[test]
    fn a_cudnn_library_missing_under_a_wheel_index_of_the_other_major_is_the_cudnn_major() {
        let dll = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!";
        let nightly = format!(
            "pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu129\n{dll}"
        );
        assert_eq!(top(&nightly).1, Category::CudnnVersionMismatch);
        // cu121 served PyTorch releases with cuDNN 8 and with 9: it says nothing.
        let cu121 = format!("pip install torch --index-url https://download.pytorch.org/whl/cu121\n{dll}");
        assert_ne!(top(&cu121).1, Category::CudnnVersionMismatch);
        assert_eq!(wheel_index_cudnn_major("download.pytorch.org/whl/cu126").map(|t| t.0), Some(9));
        assert_eq!(wheel_index_cudnn_major("download.pytorch.org/whl/cu118"), None);
        // Read from data/pytorch.toml's pins, the older indices too: cu117 served cuDNN 8 only.
        assert_eq!(wheel_index_cudnn_major("download.pytorch.org/whl/cu117").map(|t| t.0), Some(8));
        let nine = "Could not load library libcudnn_ops.so.9. Error: libcudnn_ops.so.9: cannot open shared object file: No such file or directory";
        let cu117 =
            format!("pip install torch==1.13.1 --index-url https://download.pytorch.org/whl/cu117\n{nine}");
        assert_eq!(top(&cu117).1, Category::CudnnVersionMismatch);
    }

    #[test]
    fn a_kepler_card_named_in_the_log_is_the_architecture_whatever_the_message() {
        // py-faster-rcnn#118: a GTX 760 (Kepler, 3.0) and "invalid device function".
        let kepler =
            "I use a GeForce GTX 760.\nCheck failed: error == cudaSuccess (8 vs. 0)  invalid device function";
        assert_eq!(top(kepler).1, Category::ArchUnsupported);
        assert!(first(kepler).causes[0].facts.iter().any(|f| f.contains("older than Maxwell")));
        // A GTX 750 is Maxwell (5.0), not the Kepler of the rest of its series.
        let maxwell = kepler.replace("GTX 760", "GTX 750 Ti");
        assert!(!first(&maxwell)
            .causes
            .iter()
            .flat_map(|c| &c.facts)
            .any(|f| f.contains("older than Maxwell")));
    }

    #[test]
    fn messages_in_their_own_words_are_recognised() {
        // PyTorch's THC named cuBLAS statuses in words (THCGeneral.cpp).
        let thc = "RuntimeError: cublas runtime error : resource allocation failed at /pytorch/aten/src/THC/THCGeneral.cpp:250";
        assert_eq!(top(thc), ("cublas-alloc-failed".into(), Category::Oom));
        let invalid = "RuntimeError: cublas runtime error : an invalid numeric value was used as an argument at /pytorch/aten/src/THC/THCBlas.cu:120";
        assert_eq!(top(invalid).0, "cublas-invalid-value");
        // nvidia-docker 1.0 said what nvidia-container-cli says as an unsatisfied condition.
        let docker1 =
            "nvidia-docker | 2017/11/21 00:48:39 Error: unsupported CUDA version: driver 8.0 < image 9.0.176";
        assert_eq!(top(docker1), ("container-cli-requirement".into(), Category::DriverTooOld));
        let shm = "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).";
        assert_eq!(top(shm), ("torch-dataloader-shm".into(), Category::ContainerRuntime));
        let adapter = "[    3.824916] NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)";
        assert_eq!(top(adapter), ("nvrm-rminitadapter-failed".into(), Category::DriverNotLoaded));
        let gsp =
            "[ 7253.163112] NVRM: _kgspRpcRecvPoll: Timeout waiting for RPC from GSP! Expected function 76";
        assert_eq!(top(gsp), ("nvrm-gsp-timeout".into(), Category::Other));
        let port = "torch.distributed.DistNetworkError: The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).";
        assert_eq!(top(port), ("torch-distributed-address-in-use".into(), Category::Other));
        let rm = "pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.";
        assert_eq!(top(rm), ("nvml-driver-library-mismatch".into(), Category::DriverLibraryMismatch));
        let paddle = "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 18.062744MB memory on GPU 0, available memory is only 17.537501MB.";
        assert_eq!(top(paddle).1, Category::Oom);
        let tgi = "Error: Warmup(Generation(\"Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`\"))";
        assert_eq!(top(tgi), ("tgi-prefill-oom".into(), Category::Oom));
        // A kernel fault inside a library's kernel (xformers' attention) is the library's bug;
        // alone too (3 of the 4 corpus reports with only this line were a library's bug).
        let fault = "RuntimeError: CUDA error: misaligned address";
        assert_eq!(top(fault), ("cuda-kernel-fault".into(), Category::Other));
        let in_xformers = format!(
            "  File \"/venv/lib/site-packages/xformers/ops/fmha/cutlass.py\", line 202, in apply\n{fault}"
        );
        assert_eq!(top(&in_xformers), ("cuda-kernel-fault".into(), Category::Other));
    }

    #[test]
    fn a_versioned_cuda_symbol_not_defined_in_the_loaded_copy_is_a_cuda_library_mismatch() {
        let text = "OSError: /opt/conda/lib/python3.9/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol \
                    cublasLtGetStatusString version libcublasLt.so.11 not defined in file libcublasLt.so.11 with \
                    link time reference";
        assert_eq!(top(text), ("loader-undefined-symbol".into(), Category::CudaRuntimeMismatch));
    }

    #[test]
    fn a_dll_load_failure_importing_a_built_torch_extension_is_importing_it_before_torch() {
        let ext = "I have built a CUDA extension for PyTorch according to the cpp_extension tutorial.\n\
                   When I import my module I get ImportError: DLL load failed: The specified module could not be found.";
        assert_eq!(top(ext), ("windows-dll-missing".into(), Category::UserCodeBug));
        let plain =
            "from torch._C import *\nImportError: DLL load failed: The specified module could not be found.";
        assert_ne!(top(plain).1, Category::UserCodeBug);
    }

    #[test]
    fn eperm_on_the_device_nodes_is_the_container_s_device_cgroup_eacces_the_file_modes() {
        let eperm = "Failed to initialize NVML: Unknown Error\n\
                     open(\"/dev/nvidiactl\", O_RDWR) = -1 EPERM (Operation not permitted)";
        assert_eq!(top(eperm), ("nvml-unknown-error".into(), Category::ContainerRuntime));
        let eacces = "Failed to initialize NVML: Unknown Error\n\
                      open(\"/dev/nvidiactl\", O_RDWR) = -1 EACCES (Permission denied)";
        assert_eq!(top(eacces), ("nvml-unknown-error".into(), Category::PermissionOrCache));
    }

    #[test]
    fn an_nccl_parameter_set_in_the_environment_ranks_the_setting_first() {
        let set = "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n\
                   host:1:2 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /etc/topo.xml";
        assert_eq!(top(set), ("nccl-system-error".into(), Category::EnvVarMisconfig));
        // NCCL_DEBUG is how the log was obtained, not a setting that explains it.
        let debug = "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n\
                     host:1:2 [0] NCCL INFO NCCL_DEBUG set by environment to INFO";
        assert_ne!(top(debug).1, Category::EnvVarMisconfig);
    }

    #[test]
    fn a_shared_memory_request_no_gpu_can_meet_is_the_configuration_not_the_gpu() {
        let too_big = "triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 663808, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.";
        assert_eq!(top(too_big), ("triton-out-of-shared-memory".into(), Category::UserCodeBug));
        let small_gpu = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.";
        assert_eq!(top(small_gpu), ("triton-out-of-shared-memory".into(), Category::ArchUnsupported));
    }

    #[test]
    fn a_missing_dll_is_a_cudnn_install_only_when_it_is_cudnn() {
        let nvrtc = "RuntimeError: CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find module 'nvrtc64_120_0.dll' (or one of its dependencies).";
        assert_eq!(top(nvrtc), ("windows-dll-missing".into(), Category::LibraryNotFound));
        let cudnn = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!";
        assert_eq!(top(cudnn).1, Category::CudnnMissing);
    }

    #[test]
    fn a_version_check_is_a_cudnn_mismatch_only_when_it_names_cudnn() {
        let cudnn = "CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, which is newer.";
        assert_eq!(top(cudnn).1, Category::CudnnVersionMismatch);
        let cusolver = "CUDA backend failed to initialize: Found cuSOLVER version 11405, but JAX was built against version 11502, which is newer.";
        assert_eq!(top(cusolver).1, Category::CudaRuntimeMismatch);
    }

    #[test]
    fn a_missing_library_of_another_cuda_than_the_log_names_is_a_runtime_mismatch() {
        let other =
            "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\
                     my system: ubuntu20.04 + nvidia530.30 + cuda12.1";
        assert_eq!(top(other).1, Category::CudaRuntimeMismatch);
        let same =
            "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n\
                    my system: ubuntu20.04 + nvidia530.30 + cuda12.1";
        assert_eq!(top(same).1, Category::LibraryNotFound);
        // ONNX Runtime's provider needs libcublas.so.11 and the user has CUDA 11.2: the loader path.
        let ort = "FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublas.so.11: cannot open shared object file: No such file or directory\n\
                   - CUDA  version: 11.2";
        assert_eq!(top(ort).1, Category::LibraryNotFound);
        let ort12 = "FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory\n\
                     Cuda compilation tools, release 12.1, V12.1.66";
        assert_eq!(top(ort12).1, Category::CudaRuntimeMismatch);
        // Before CUDA 11 the soname carries the minor: libcudart.so.10.1 is not in CUDA 10.0.
        let minor =
            "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\
                     my CUDA version is 10.0";
        assert_eq!(top(minor).1, Category::CudaRuntimeMismatch);
    }

    #[test]
    fn a_cuda_library_jax_cannot_load_is_the_library_not_a_cpu_only_jaxlib() {
        let text = "RuntimeError: jaxlib/cuda/versions_helpers.cc:81: operation cusparseGetProperty(MAJOR_VERSION, &major) failed: The cuSPARSE library was not found.\n\
                    RuntimeError: Unable to load cuSPARSE. Is it installed?\n\
                    WARNING: An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.";
        assert_eq!(top(text), ("jax-cuda-library-load".to_string(), Category::CudaRuntimeMismatch));
    }

    #[test]
    fn a_cudnn_handle_jax_could_not_create_is_the_cudnn_install_before_memory() {
        let handle = "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:429] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR";
        assert_eq!(top(handle).1, Category::Oom);
        let jax =
            format!("{handle}\nXlaRuntimeError                           Traceback (most recent call last)");
        assert_eq!(top(&jax).1, Category::CudnnVersionMismatch);
    }

    #[test]
    fn a_header_runtime_compilation_cannot_find_is_a_missing_install() {
        let text = "cupy.cuda.compiler.CompileException: /tmp/tmpiatufk20/d1a4.cubin.cu(56): catastrophic error: cannot open source file \"cuda_runtime.h\"";
        assert_eq!(top(text), ("nvrtc-header-not-found".to_string(), Category::LibraryNotFound));
    }

    #[test]
    fn a_failed_cudnn_handle_with_plenty_of_free_memory_is_not_out_of_memory() {
        let roomy = "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n\
                     E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:443] Memory usage: 2624061440 bytes free, 12524191744 bytes total.";
        assert_eq!(top(roomy).1, Category::CudnnVersionMismatch);
        let full = "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n\
                    E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:443] Memory usage: 65536 bytes free, 12524191744 bytes total.";
        assert_eq!(top(full).1, Category::Oom);
    }

    #[test]
    fn a_cudnn_mismatch_reported_elsewhere_explains_a_failed_dnn_initialization() {
        // Alone, the message leaves a cuDNN of the wrong version first and a missing one next.
        let alone = "XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.";
        let bare = causes(alone);
        assert_eq!(&bare[..2], &[Category::CudnnVersionMismatch, Category::CudnnMissing]);
        let with_cause =
            "E cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0.\n\
                          XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.";
        let result = crate::explain::scan::scan_bytes(with_cause.as_bytes(), table());
        let explained = rules_only(&result);
        let dnn = explained.iter().find(|e| e.signature == "tf-dnn-library-not-found").unwrap();
        assert_eq!(dnn.causes[0].category, Category::CudnnVersionMismatch);
    }

    #[test]
    fn no_valid_cudnn_algorithm_is_memory_but_no_engine_is_a_cudnn_mismatch() {
        let algo = "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution";
        assert_eq!(top(algo), ("torch-no-valid-cudnn-algorithm".into(), Category::Oom));
        let engine = "RuntimeError: GET was unable to find an engine to execute this computation";
        assert_eq!(top(engine), ("torch-no-cudnn-engine".into(), Category::CudnnVersionMismatch));
    }

    #[test]
    fn cuda_not_available_is_a_warning_behind_the_error_that_explains_it() {
        assert_eq!(top("torch.cuda.is_available() returns False").1, Category::CpuOnlyBuild);
        let with_reason = "torch.cuda.is_available() returns False\n\
                           UserWarning: CUDA initialization: Found no NVIDIA driver on your system.";
        assert_eq!(top(with_reason).0, "torch-no-nvidia-driver");
    }

    #[test]
    fn a_cuda_dll_of_the_cuda_major_the_log_names_is_the_path_and_another_major_a_mismatch() {
        let same =
            "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\nI'm running cuda 12.8";
        assert_eq!(top(same), ("ctranslate2-library-missing".into(), Category::LibraryNotFound));
        let other =
            "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\nCUDA version: 11.8";
        assert_eq!(top(other), ("ctranslate2-library-missing".into(), Category::CudaRuntimeMismatch));
        // Retyped, with no message a signature knows: the DLL's major against the CUDA named.
        let retyped = "I use CUDA 11.8, but it said it needed cublas64_12.dll";
        assert_eq!(top(retyped).1, Category::CudaRuntimeMismatch);
    }

    #[test]
    fn tensorrt_libraries_and_cudnn_s_dependencies_not_found_are_the_loader_path() {
        let trt = "createInferBuilder: Error Code 6: API Usage Error (Unable to load library: nvinfer_builder_resource_10.dll)";
        assert_eq!(top(trt), ("tensorrt-library-missing".into(), Category::LibraryNotFound));
        let dep = "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file or directory";
        assert_eq!(top(dep), ("cudnn-dependency-missing".into(), Category::LibraryNotFound));
        // A title retyping the first half, above the loader's full line.
        let titled = format!("Could not load library libcudnn_cnn_infer.so.8\n{dep}");
        assert_eq!(top(&titled).1, Category::LibraryNotFound);
    }

    #[test]
    fn cudnn_majors_written_in_chinese_text_are_read() {
        let text =
            "报错 libcudnn.so.8: cannot open shared object file\nvLLM需要cuDNN9\nonnxruntime 1.18需要cuDNN8";
        assert_eq!(top(text).1, Category::CudnnVersionMismatch);
        let dll = "先是cudnn_ops_infer64_8.dll缺失\n- CUDA版本：12.6\n- cuDNN版本：9.5";
        assert_eq!(top(dll), ("windows-dll-missing".into(), Category::CudnnVersionMismatch));
    }

    #[test]
    fn ctranslate2_missing_cuda_libraries_are_recognised_on_linux_and_windows() {
        for text in [
            "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded",
            "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded",
        ] {
            assert_eq!(top(text), ("ctranslate2-library-missing".into(), Category::CudaRuntimeMismatch));
        }
        // CUDA 12 named in the log against a CUDA 12 library: no mismatch, the library is missing.
        let same = "Cuda compilation tools, release 12.4, V12.4.131\nRuntimeError: Library libcublas.so.12 is not found or cannot be loaded";
        assert_eq!(top(same).0, "ctranslate2-library-missing");
    }

    #[test]
    fn an_illegal_address_in_a_serving_engine_is_its_bug_and_on_an_overclocked_card_the_card() {
        let plain = "RuntimeError: CUDA error: an illegal memory access was encountered";
        assert_eq!(top(plain).1, Category::Other);
        assert_eq!(top(&format!("codellama-13b-awq {plain}")).1, Category::Other);
        assert_eq!(top(&format!("[Bug]: {plain}. Qwen2.5-VL")).1, Category::Other);
        assert_eq!(top(&format!("{plain}\n  File \"vllm/worker/model_runner.py\"")).1, Category::Other);
        let rig = "Cuda Error 77 Illegal Memory access on my 1080ti mining rig, I lowered the overclocks";
        assert_eq!(top(rig).1, Category::HardwareFault);
        assert_eq!(top(&format!("generation crashing my OS\n{plain}")).1, Category::HardwareFault);
        let faulty = "CUDNN_STATUS_INTERNAL_ERROR on CUDA 11.2 and 10.2. Likely a faulty device";
        assert_eq!(top(faulty).1, Category::HardwareFault);
        assert_eq!(top("CUDNN_STATUS_INTERNAL_ERROR").1, Category::Oom);
        let rnn = "hx, cx = self.lstm(x)\ntorch.backends.cudnn.CuDNNError: 4: b'CUDNN_STATUS_INTERNAL_ERROR'";
        assert_eq!(top(rnn).1, Category::UserCodeBug);
    }

    #[test]
    fn pytorchs_cudnn_not_initialized_is_its_build_and_cuda_visible_devices_in_brackets_no_gpu() {
        assert_eq!(
            top("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED"),
            ("cudnn-not-initialized".into(), Category::CudaRuntimeMismatch)
        );
        // Unless the user says memory ran out; other frameworks' forms keep memory first.
        let oom =
            "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\nwith a smaller batch size it works";
        assert_eq!(top(oom).1, Category::Oom);
        assert_eq!(top("CUDNN failure: CUDNN_STATUS_NOT_INITIALIZED").1, Category::Oom);
        let brackets =
            "RuntimeError: CUDNN_STATUS_INTERNAL_ERROR when I run it with CUDA_VISIBLE_DEVICES=[1,2,3]";
        assert_eq!(top(brackets).1, Category::EnvVarMisconfig);
    }

    #[test]
    fn paddle_naming_an_older_cudnn_than_its_build_is_the_mismatch_behind_its_cudnn_errors() {
        let warning = "W0608 17:24:55.806937 14489 device_context.h:360] WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.4, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.";
        assert_eq!(top(warning), ("paddle-cudnn-version-warning".into(), Category::CudnnVersionMismatch));
        // Listed after the error it explains, which it ranks; Paddle's bad parameter alone is
        // also the cuDNN version first (Paddle loads the system's cuDNN), and so is another
        // library's (8 of the corpus's 21 BAD_PARAM reports were a cuDNN other than the build's,
        // 4 the caller's).
        let bad_param = "ExternalError:  Cudnn error, CUDNN_STATUS_BAD_PARAM  at (/paddle/paddle/fluid/operators/batch_norm_op.cu:287)";
        assert_eq!(top(bad_param).1, Category::CudnnVersionMismatch);
        assert_eq!(top("RuntimeError: CUDNN_STATUS_BAD_PARAM").1, Category::CudnnVersionMismatch);
        let both = format!("{warning}\n{bad_param}");
        assert_eq!(top(&both), ("cudnn-bad-param".into(), Category::CudnnVersionMismatch));
    }

    #[test]
    fn a_tensorrt_7_version_tag_error_is_an_engine_of_another_version() {
        let text = "[TensorRT] ERROR: coreReadArchive.cpp (41) - Serialization Error in verifyHeader: 0 (Version tag does not match. Note: Current Version: 96, Serialized Engine Version: 97)";
        assert_eq!(top(text), ("tensorrt-engine-deserialize".into(), Category::Other));
    }

    #[test]
    fn the_device_count_assert_under_pytorch_2_3_is_that_release_s_bug() {
        // kuwa-aios#20 (PyTorch 2.3.1, fixed by 2.4.0, pytorch#128819); under another release the
        // visible-devices setting stays first.
        let assert = "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch. device=, num_gpus=";
        let under = |torch: &str| top(&format!("PyTorch: {torch}\n{assert}"));
        assert_eq!(under("2.3.1"), ("torch-device-num-gpus-assert".into(), Category::Other));
        assert_eq!(under("2.5.0").1, Category::EnvVarMisconfig);
    }

    #[test]
    fn pytorch_s_driver_invalid_argument_is_its_kernel_cache_where_the_log_names_it() {
        // Alone, memory running short (LLaMA-Factory#8428); with the JITerator or its cache named,
        // the cached kernel (pytorch#132756, #156010). The "erializ" anchor brings cuDF's Jitify
        // cache in (and still TensorRT's "Serialized Engine Version").
        let msg = "RuntimeError: CUDA driver error: invalid argument";
        assert_eq!(top(msg), ("torch-driver-invalid-argument".into(), Category::Oom));
        let jiterator = format!("JITerator: Torch.prod produces {msg}");
        assert_eq!(top(&jiterator).1, Category::PermissionOrCache);
        let cached = format!("{msg}\nit goes away after rm -rf ~/.cache/torch/kernels");
        assert_eq!(top(&cached).1, Category::PermissionOrCache);
        let jitify = "RuntimeError: Failed to deserialize program";
        assert_eq!(top(jitify), ("jitify-cache-deserialize".into(), Category::PermissionOrCache));
    }

    #[test]
    fn no_kernel_image_from_jax_with_a_driver_older_than_its_cuda_is_the_driver() {
        let error = "jax.numpy.ones(3)\nRuntimeError: Unknown: no kernel image is available for execution on the device";
        let old =
            format!("jax 0.3.16, jaxlib 0.3.15 with cuda-11.6.2 and nvidia driver version 470\n{error}");
        assert_eq!(top(&old), ("cuda-no-kernel-image".into(), Category::DriverTooOld));
        // A driver new enough for the CUDA named, or no JAX: the build's architectures.
        let new_driver =
            format!("jax 0.3.16, jaxlib 0.3.15 with cuda-11.6.2 and nvidia driver version 510\n{error}");
        assert_eq!(top(&new_driver).1, Category::ArchUnsupported);
        let torch = "torch with cuda-11.6.2 and nvidia driver version 470\nRuntimeError: CUDA error: no kernel image is available for execution on the device";
        assert_eq!(top(torch).1, Category::ArchUnsupported);
    }

    #[test]
    fn onnx_runtime_with_a_cudnn_of_another_major_than_its_release_loads_is_the_cudnn_mismatch() {
        let error = "Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll";
        let cudnn9_for_117 =
            format!("{error}\napply yolov8n.onnx with cuda12.4 cudnn9 onnxruntime-win-x64-cuda12-1.17.1");
        assert_eq!(top(&cudnn9_for_117), ("ort-cuda-provider".into(), Category::CudnnVersionMismatch));
        let cudnn8_for_120 = format!("{error}\nonnxruntime-gpu==1.20.1, CUDA 12.4, cuDNN 8.9.7");
        assert_eq!(top(&cudnn8_for_120).1, Category::CudnnVersionMismatch);
        // The major the release needs: not the mismatch.
        let cudnn9_for_120 = format!("{error}\nonnxruntime-gpu==1.20.1, CUDA 12.4, cuDNN 9.1");
        assert_ne!(top(&cudnn9_for_120).1, Category::CudnnVersionMismatch);
    }

    #[test]
    fn an_operator_without_a_cuda_kernel_is_a_cpu_build_of_its_package() {
        let text = "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. 'torchvision::nms' is only available for these backends: [CPU, Meta, QuantizedCPU, BackendSelect]";
        assert_eq!(top(text), ("torch-op-no-cuda-kernel".into(), Category::CpuOnlyBuild));
        let skew = "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=12.1.";
        assert_eq!(top(skew), ("torchvision-cuda-mismatch".into(), Category::CudaRuntimeMismatch));
    }

    #[test]
    fn zlibwapi_missing_is_cudnns_dependency_off_the_path_not_a_missing_cudnn() {
        let text = "Could not locate zlibwapi.dll. Please make sure it is in your library path!";
        assert_eq!(top(text).1, Category::LibraryNotFound);
        let cudnn = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!";
        assert_eq!(top(cudnn).1, Category::CudnnMissing);
    }

    #[test]
    fn checkpoints_collectives_and_windows_runtimes_have_their_own_causes() {
        let load = "RuntimeError: Attempting to deserialize object on CUDA device 2 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an existing device.";
        assert_eq!(top(load), ("torch-deserialize-cuda-device".into(), Category::UserCodeBug));
        // The older message (no CUDA at all) stays its own signature.
        let no_cuda = "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.";
        assert_eq!(top(no_cuda).0, "torch-deserialize-cuda");
        let nccl = "RuntimeError: Tensors must be CUDA and dense";
        assert_eq!(top(nccl), ("torch-distributed-tensors-not-cuda".into(), Category::UserCodeBug));
        let vc = "The code execution cannot proceed because MSVCP140.dll was not found. Reinstalling the program may fix this problem.";
        assert_eq!(top(vc), ("windows-vc-runtime-missing".into(), Category::LibraryNotFound));
    }

    #[test]
    fn a_status_on_the_newest_gpus_is_a_build_from_before_them() {
        let text = "I recently got this Error since I bought an RTX 5080:\nRuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED";
        assert_eq!(top(text).1, Category::ArchUnsupported);
        let older = "on my RTX 3080:\nRuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED";
        assert_ne!(top(older).1, Category::ArchUnsupported);
    }

    #[test]
    fn no_driver_on_wsl_is_the_windows_driver_unless_a_container_is_shown() {
        let wsl = "Running on Ubuntu 22.04 under WSL2 with an RTX 3090.\nRuntimeError: Found no NVIDIA driver on your system.";
        assert_eq!(top(wsl).1, Category::DriverNotLoaded);
        let docker = "docker run -it myimage python app.py   (on WSL2)\nRuntimeError: Found no NVIDIA driver on your system.";
        assert_ne!(top(docker).1, Category::DriverNotLoaded);
    }

    #[test]
    fn vllm_without_memory_for_the_kv_cache_is_out_of_memory() {
        let text = "INFO worker.py:267] model weights take 5.20GiB; non_torch_memory takes 0.03GiB; PyTorch activation peak memory takes 1.42GiB; the rest of the memory reserved for KV Cache is -1.05GiB.";
        assert_eq!(top(text), ("vllm-kv-cache-memory".into(), Category::Oom));
        let text = "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";
        assert_eq!(top(text), ("vllm-kv-cache-memory".into(), Category::Oom));
    }

    #[test]
    fn the_comfyui_launcher_hint_is_the_driver_unless_an_error_shows_above_it() {
        let hint =
            "If you see this and ComfyUI did not start try updating your Nvidia Drivers to the latest.";
        assert_eq!(top(hint), ("comfyui-portable-update-driver".into(), Category::DriverTooOld));
        let after_error = format!(
            "RuntimeError: CUDA error: no kernel image is available for execution on the device\n{hint}"
        );
        assert_eq!(top(&after_error).0, "cuda-no-kernel-image");
    }

    #[test]
    fn pytorch_failing_to_load_its_own_dlls_is_a_missing_dependency_not_a_missing_cudnn() {
        for text in [
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\venv\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies."#,
            r#"OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "D:\ComfyUI\python_embeded\Lib\site-packages\torch\lib\c10.dll" or one of its dependencies."#,
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "D:\python\lib\site-packages\torch\lib\cudnn_cnn_infer64_8.dll" or one of its dependencies."#,
        ] {
            assert_eq!(top(text), ("windows-dll-missing".into(), Category::LibraryNotFound), "{text}");
        }
        let cudnn = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!";
        assert_eq!(top(cudnn).1, Category::CudnnMissing);
    }

    #[test]
    fn pytorch_dll_paths_are_read_when_wrapped_or_pasted_json_escaped() {
        let wrapped = "02:54:18-197331 ERROR    Could not load torch: [WinError 126] Das angegebene Modul wurde nicht gefunden. Error loading\n                         \"P:\\AI\\kohya_ss\\venv\\lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.";
        let escaped = r#""message": "[WinError 126] The specified module could not be found. Error loading \"c:\\Users\\me\\envs\\DL\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.","#;
        for text in [wrapped, escaped] {
            assert_eq!(top(text), ("windows-dll-missing".into(), Category::LibraryNotFound), "{text}");
        }
    }

    #[test]
    fn a_procedure_missing_from_an_extension_dll_is_a_build_for_another_torch() {
        for text in [
            "ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
            "ImportError: DLL load failed while importing exllamav2_ext: 找不到指定的程序。",
        ] {
            assert_eq!(top(text), ("windows-dll-procedure-not-found".into(), Category::Other), "{text}");
        }
        // A module that is not found at all is still a missing DLL.
        let missing =
            "ImportError: DLL load failed while importing _C: The specified module could not be found.";
        assert_eq!(top(missing).0, "windows-dll-missing");
    }

    #[test]
    fn bitsandbytes_on_windows_is_a_build_without_windows_cuda_binaries() {
        let linux = "CUDA SETUP: Loading binary /opt/conda/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so...\n\
                     RuntimeError: CUDA Setup failed despite GPU being available.";
        // On Linux the release's own CUDA set-up is the likeliest (upgrade or pin bitsandbytes).
        assert_eq!(top(linux), ("bitsandbytes-cuda-setup".into(), Category::Other));
        let windows = "CUDA SETUP: Loading binary C:\\Users\\me\\venv\\Lib\\site-packages\\bitsandbytes\\libbitsandbytes_cpu.so...\n\
                       RuntimeError: CUDA Setup failed despite GPU being available.";
        assert_eq!(top(windows), ("bitsandbytes-cuda-setup".into(), Category::CpuOnlyBuild));
        let ctypes = "The following directories listed in your path were found to be non-existent: {WindowsPath('/usr/local/cuda/lib64')}\n\
                      TypeError: argument of type 'WindowsPath' is not iterable";
        assert_eq!(top(ctypes), ("bitsandbytes-cuda-setup".into(), Category::CpuOnlyBuild));
        // bitsandbytes' own warning is its; llama.cpp says the same words about itself
        // (https://github.com/ggml-org/llama.cpp/issues/22778), which is no bitsandbytes set-up.
        let warning = "The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.";
        assert_eq!(top(warning).0, "bitsandbytes-cuda-setup");
        let llama = "warning: no usable GPU found, --gpu-layers option will be ignored\n\
                     warning: one possible reason is that llama.cpp was compiled without GPU support";
        assert!(!signatures(llama).contains(&"bitsandbytes-cuda-setup".to_string()));
    }

    #[test]
    fn torch_without_its_cuda_functions_is_a_cpu_only_build() {
        // torch.cuda calls into torch._C's _cuda_* functions, which only a CUDA build has.
        for text in [
            "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'",
            "AttributeError: module 'torch._C' has no attribute '_cuda_getDeviceCount'",
        ] {
            assert_eq!(top(text), ("torch-c-without-cuda".into(), Category::CpuOnlyBuild), "{text}");
        }
        // Another missing attribute of torch._C is no sign of a CPU build.
        let other =
            "AttributeError: module 'torch._C' has no attribute '_set_print_stack_traces_on_fatal_signal'";
        assert!(!signatures(other).contains(&"torch-c-without-cuda".to_string()));
    }

    #[test]
    fn the_cuda_stub_library_names_both_ways_the_driver_s_libcuda_is_missed() {
        let text = "failed to initialize CUDA: CUDA driver is a stub library";
        let e = first(text);
        let categories: Vec<Category> = e.causes.iter().map(|c| c.category).collect();
        assert_eq!(e.signature, "cuda-stub-library");
        // The stubs directory ahead on LD_LIBRARY_PATH, or the driver's libcuda.so.1 not on the
        // loader's path at all (NixOS: /run/opengl-driver/lib): both are listed, before the rest.
        assert_eq!(categories[..2], [Category::EnvVarMisconfig, Category::LibraryNotFound]);
        assert!(e.causes[1].fix.contains("/run/opengl-driver/lib"), "{}", e.causes[1].fix);
    }

    #[test]
    fn windows_and_wsl_loader_messages_without_a_framework_are_recognised() {
        let cases = [
            ("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH", "nvcc-host-compiler-missing", Category::EnvVarMisconfig),
            (
                "nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions between 2017 and 2019 (inclusive) are supported!",
                "nvcc-no-supported-msvc",
                Category::Other,
            ),
            (
                "Failed to initialize NVML: GPU access blocked by the operating system\nFailed to properly shut down NVML: GPU access blocked by the operating system",
                "nvml-gpu-access-blocked",
                Category::LibraryNotFound,
            ),
            ("I c:\\tf_jenkins\\dso_loader.cc:119] Couldn't open CUDA library cupti64_80.dll", "tf-could-not-load-library", Category::LibraryNotFound),
            (r#"'Could not load "nvrtc64_70.dll":"#, "windows-dll-missing", Category::LibraryNotFound),
            ("torch.cuda.is_available=False after conda install", "torch-cuda-not-available", Category::CpuOnlyBuild),
            ("print(device_lib.list_local_devices())", "tf-gpu-check", Category::CpuOnlyBuild),
        ];
        for (text, id, category) in cases {
            assert_eq!(top(text), (id.into(), category), "{text}");
        }
        let ort = r#"[E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] LoadLibrary failed with error 126 "" when trying to load "C:\venv\Lib\site-packages\onnxruntime\capi\onnxruntime_providers_cuda.dll""#;
        assert_eq!(top(ort).0, "ort-cuda-provider");
    }

    #[test]
    fn a_missing_cudnn_of_another_major_than_the_log_names_is_a_version_mismatch() {
        let missing9 = "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}\nInvalid handle. Cannot load symbol cudnnCreateTensorDescriptor";
        assert_eq!(top(missing9).1, Category::CudnnMissing);
        let torch20 = format!("!pip install torch==2.0.0+cu118 torchvision==0.15.1+cu118\n{missing9}");
        assert_eq!(top(&torch20).1, Category::CudnnVersionMismatch);
        let torch25 = format!("{missing9}\nctranslate2==4.5.0\ntorch==2.5.1");
        assert_eq!(top(&torch25).1, Category::LibraryNotFound);
        let user = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nThe thing is, I have installed cudnn-9.2 as per the official instructions.";
        assert_eq!(top(user).1, Category::CudnnVersionMismatch);
    }

    #[test]
    fn a_missing_library_the_log_shows_installed_is_a_loader_path_problem() {
        let missing = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory";
        assert_eq!(top(missing).1, Category::CudnnMissing);
        let located = format!(
            "{missing}\n$ locate libcudnn_ops_infer.so.8\n/home/u/.local/lib/python3.8/site-packages/nvidia/cudnn/lib/libcudnn_ops_infer.so.8"
        );
        assert_eq!(top(&located).1, Category::LibraryNotFound);
    }

    #[test]
    fn a_missing_cudnn_named_by_tensorflow_is_cudnn_not_installed() {
        assert_eq!(top("Could not load dynamic library 'libcudnn.so.8'").1, Category::CudnnMissing);
        assert_eq!(top("Could not load dynamic library 'libcudart.so.11.0'").1, Category::LibraryNotFound);
    }

    #[test]
    fn an_invalid_device_ordinal_is_a_hard_coded_index_unless_visibility_was_narrowed() {
        assert_eq!(top("RuntimeError: CUDA error: invalid device ordinal").1, Category::UserCodeBug);
        let narrowed = "RuntimeError: CUDA error: invalid device ordinal\n  (set in train.py: os.environ['CUDA_VISIBLE_DEVICES'] = '1')";
        let result = crate::explain::scan::scan_bytes(narrowed.as_bytes(), table());
        let explained = rules_only(&result);
        let e = explained.iter().find(|e| e.signature == "cuda-invalid-device-ordinal").unwrap();
        assert_eq!(e.causes[0].category, Category::EnvVarMisconfig);
    }

    #[test]
    fn a_build_arch_list_without_the_gpu_raises_arch_unsupported() {
        let t = table();
        let sig = t.by_id("cuda-no-kernel-image").unwrap();
        let ev = LogEvidence {
            compute_capability: Some(ComputeCapability::new(12, 0)),
            supported_archs: vec![ComputeCapability::new(8, 6), ComputeCapability::new(9, 0)],
            ..LogEvidence::default()
        };
        let ranked = rank(sig, &ev, None, &BTreeSet::new(), t);
        assert_eq!(ranked[0].category, Category::ArchUnsupported);
        assert!(ranked[0].facts[0].contains("sm_120"));
    }

    #[test]
    fn wsl_in_the_log_makes_a_missing_device_the_driver_library_path() {
        let native =
            "CUDA Error CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while calling init (cuInit)";
        assert_eq!(top(native), ("cuda-no-device".into(), Category::EnvVarMisconfig));
        let wsl = format!("I have the same issue with my cuda 12.1 run under wsl2\n{native}");
        assert_eq!(top(&wsl), ("cuda-no-device".into(), Category::LibraryNotFound));
    }

    #[test]
    fn the_compute_mode_and_the_os_decide_busy_or_unavailable() {
        let error = "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable";
        assert_eq!(top(error).1, Category::Other);
        let exclusive = format!(
            "{error}\n| N/A   35C    P0    63W / 235W |     74MiB / 11439MiB |      0%   E. Process |"
        );
        assert_eq!(top(&exclusive).1, Category::Other);
        let windows = format!("{error}\nWindows 10\nInstalled: cuda_11.3.1_win10_network");
        assert_eq!(top(&windows).1, Category::DriverNotLoaded);
    }

    #[test]
    fn a_driver_older_than_the_cuda_of_the_tensorflow_release_named_is_too_old() {
        let log = |driver: &str| {
            format!(
                "E tensorflow/stream_executor/cuda/cuda_dnn.cc:385] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n\
                 E tensorflow/stream_executor/cuda/cuda_dnn.cc:393] possibly insufficient driver version: {driver}\n\
                 tensorflow version: 1.5.0"
            )
        };
        // TensorFlow 1.5 loads CUDA 9.0, whose first driver is 384.81.
        let old = causes(&log("384.69.0"));
        assert_eq!(old[0], Category::DriverTooOld, "{old:?}");
        // A driver that runs CUDA 9.0 leaves the usual cause, memory, first.
        let fine = causes(&log("390.77.0"));
        assert_eq!(fine[0], Category::Oom, "{fine:?}");
        // Without a TensorFlow release (or a CUDA version) the driver line alone decides nothing.
        let bare = causes(
            "E cuda_dnn.cc:385] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n\
             E cuda_dnn.cc:393] possibly insufficient driver version: 384.69.0",
        );
        assert_eq!(bare[0], Category::Oom, "{bare:?}");
    }

    #[test]
    fn a_gpu_newer_than_the_cuda_of_the_tensorflow_release_named_is_unsupported() {
        let log = |tf: &str| {
            format!(
                "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n\
                 GPU: GeForce RTX 3090, tensorflow-gpu=={tf}"
            )
        };
        // TensorFlow 1.15 is built for CUDA 10.0, a major older than Ampere's first (11.1).
        assert_eq!(causes(&log("1.15"))[0], Category::ArchUnsupported);
        // TensorFlow 2.4 is built for CUDA 11.0: the same major, no verdict on the architecture.
        assert_eq!(causes(&log("2.4.0"))[0], Category::Oom);
    }

    #[test]
    fn no_cudnn_graph_plan_is_the_framework_release_unless_the_gpu_predates_ampere() {
        let error = "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.";
        assert_eq!(top(error), ("cudnn-frontend-no-plan".into(), Category::Other));
        let turing = format!("{error}\nGPU: NVIDIA GeForce RTX 2080 Ti, CUDA 12.6");
        assert_eq!(causes(&turing)[0], Category::ArchUnsupported);
        let ada = format!("{error}\nI have an Nvidia 4070 TI 12GB GPU");
        assert_eq!(causes(&ada)[0], Category::Other);
    }

    #[test]
    fn a_driver_older_than_the_cuda_named_in_the_log_is_too_old() {
        let e804 = "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW";
        let e = first(&format!("My driver version is 470.141.03 with CUDA 11.7.\n{e804}"));
        assert_eq!(e.causes[0].category, Category::DriverTooOld);
        assert!(
            e.causes[0].facts.iter().any(|f| f.contains("supports CUDA 11.4 at most")),
            "{:?}",
            e.causes[0]
        );
        // A driver new enough for the CUDA named lowers it.
        let ok = crate::explain::scan::scan_bytes(
            format!("My driver version is 550.54.14 with CUDA 12.1.\n{e804}").as_bytes(),
            table(),
        );
        let e = rules_only(&ok).into_iter().next().unwrap();
        assert_ne!(e.causes[0].category, Category::DriverTooOld);
    }

    #[test]
    fn container_start_messages_are_not_explained_by_the_container_they_start() {
        let timeout = "sudo docker run --rm --gpus all nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi\n\
                       nvidia-container-cli: initialization error: driver rpc error: timed out: unknown.";
        assert_eq!(top(timeout), ("container-cli-driver-timeout".into(), Category::DriverNotLoaded));
        let nvml = "loading NVML\nFailed to start nvml with error:  could not load NVML library";
        assert_eq!(top(nvml), ("nvml-could-not-load".into(), Category::ContainerRuntime));
        let cdi = "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all";
        assert_eq!(top(cdi), ("cdi-unresolvable".into(), Category::ContainerRuntime));
    }

    #[test]
    fn a_kernel_module_and_libcuda_of_different_releases_explain_no_device() {
        let log = "E cuda_driver.cc:406] failed call to cuInit: CUDA_ERROR_NO_DEVICE\n\
                   I cuda_diagnostics.cc:189] libcuda reported version is: 375.66.0\n\
                   I cuda_diagnostics.cc:193] kernel reported version is: 384.130.0\n\
                   I cuda_diagnostics.cc:150] hostname: box\n\
                   E cuda_diagnostics.cc:303] kernel version 384.130.0 does not match DSO version 375.66.0 -- cannot find working devices in this configuration";
        assert_eq!(top(log), ("cuda-no-device".into(), Category::DriverLibraryMismatch));
        // Alone, a missing device is still most often a visibility setting.
        assert_eq!(top("failed call to cuInit: CUDA_ERROR_NO_DEVICE").1, Category::EnvVarMisconfig);
    }

    #[test]
    fn a_missing_cudnn_of_another_major_than_the_setup_lists_is_a_version_mismatch() {
        let other = "- CUDA/cuDNN version: 10.2, 8.0.2\nCould not load dynamic library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No such file or directory";
        assert_eq!(top(other).1, Category::CudnnVersionMismatch);
        let same = "cuDNN 7.6.5 is installed\nCould not load dynamic library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No such file or directory";
        assert_eq!(top(same).1, Category::LibraryNotFound);
    }

    #[test]
    fn tensorflows_cudnn_version_check_is_recognised_when_the_paste_wraps_it() {
        // Wrapped by the issue form: "Loaded runtime CuDNN l" / "ibrary: 7.4.1 but source ...".
        let wrapped = "E tensorflow/stream_executor/cuda/cuda_dnn.cc:319] Loaded runtime CuDNN l\n\
                       ibrary: 7.4.1 but source was compiled with: 7.6.4.  CuDNN library major and minor version needs to match or have higher minor version in case of CuDNN 7.0 or later version. If using a binary install, up\n\
                       grade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compa";
        let e = first(wrapped);
        assert_eq!(
            (e.signature.as_str(), e.causes[0].category),
            ("tf-cudnn-runtime-mismatch", Category::CudnnVersionMismatch)
        );
        assert_eq!(e.evidence.cudnn_runtime.map(|v| v.to_string()).as_deref(), Some("7.4.1"));
        assert_eq!(e.evidence.cudnn_compiled.map(|v| v.to_string()).as_deref(), Some("7.6.4"));
        // TensorFlow 1.x's integers and compatibility versions.
        let old = "E cuda_dnn.cc:378] Loaded runtime CuDNN library: 7101 (compatibility version 7100) but source was compiled with 7004 (compatibility version 7000).  If using a binary install, upgrade your CuDNN library to match.";
        let e = first(old);
        assert_eq!(e.evidence.cudnn_runtime.map(|v| v.to_string()).as_deref(), Some("7.1.1"));
        assert_eq!(e.evidence.cudnn_compiled.map(|v| v.to_string()).as_deref(), Some("7.0.4"));
    }

    #[test]
    fn frameworks_own_cudnn_version_checks_name_a_version_mismatch() {
        let paddle = "Check failed: (cudnn_cuh_major < 4 && cudnn_dso_major < 4) || (cudnn_cuh_major == cudnn_dso_major) [cudnn init] libcudnn v5 with header v7 unmatched!";
        assert_eq!(top(paddle), ("framework-cudnn-header-mismatch".into(), Category::CudnnVersionMismatch));
        // MXNet only warns: a real error in the same log is listed first.
        let mxnet = "[08:32:10] ../src/base.cc:80: cuDNN lib mismatch: linked-against version 8200 != compiled-against version 8100.  Set MXNET_CUDNN_LIB_CHECKING=0 to quiet this warning.\n\
                     RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB";
        let result = crate::explain::scan::scan_bytes(mxnet.as_bytes(), table());
        let explained = rules_only(&result);
        let ids: Vec<&str> = explained.iter().map(|e| e.signature.as_str()).collect();
        assert_eq!(ids.last(), Some(&"mxnet-cudnn-lib-mismatch"), "{ids:?}");
        assert_ne!(ids.first(), Some(&"mxnet-cudnn-lib-mismatch"), "{ids:?}");
        let alone = "cuDNN lib mismatch: linked-against version 8200 != compiled-against version 8100.";
        assert_eq!(top(alone), ("mxnet-cudnn-lib-mismatch".into(), Category::CudnnVersionMismatch));
    }

    #[test]
    fn a_cudnn_failure_of_a_tensorflow_op_is_not_a_missing_cudnn() {
        let bare = causes("UNIMPLEMENTED: DNN library is not found.");
        assert_eq!(&bare[..2], &[Category::CudnnVersionMismatch, Category::CudnnMissing]);
        let op =
            "Node: 'model/conv2d/Conv2D'\nDNN library is not found.\n\t [[{{node model/conv2d/Conv2D}}]]";
        let on_gpu = causes(op);
        assert_eq!(on_gpu[0], Category::CudnnVersionMismatch);
        // The op ran on a registered GPU, so TensorFlow had loaded cuDNN: a missing one drops back.
        let rank_of_missing = |c: &[Category]| c.iter().position(|&k| k == Category::CudnnMissing);
        assert!(rank_of_missing(&on_gpu) > rank_of_missing(&bare), "{on_gpu:?}");
    }

    #[test]
    fn tensorflow_seeing_no_gpu_without_loader_errors_is_a_cpu_only_build() {
        let check = "print(tf.config.list_physical_devices('GPU'))\n[]";
        assert_eq!(top(check), ("tf-gpu-check".into(), Category::CpuOnlyBuild));
        let dlopen = "print(tf.config.list_physical_devices('GPU'))\nW gpu_device.cc:2365] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed";
        assert_eq!(top(dlopen).1, Category::LibraryNotFound);
        let cuinit = "print(tf.config.list_physical_devices('GPU'))\nE cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
        assert_eq!(top(cuinit).0, "cuda-no-device");
    }

    #[test]
    fn modprobe_refusing_the_nvidia_module_is_the_driver_not_loading() {
        // Secure Boot's "Key was rejected by service", or a module built for another kernel.
        let modprobe = "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service";
        assert_eq!(top(modprobe), ("driver-module-missing".into(), Category::DriverNotLoaded));
    }

    #[test]
    fn a_caffe_cudnn_convolution_set_up_failure_is_a_grouped_convolution_before_memory() {
        let caffe = "I0619 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR";
        assert_eq!(top(caffe), ("cudnn-internal-error".into(), Category::UserCodeBug));
        let bare = "Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR";
        assert_eq!(top(bare).1, Category::UserCodeBug);
        // Not Caffe's convolution set-up: memory stays first.
        let tf = "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR";
        assert_eq!(top(tf).1, Category::Oom);
    }

    #[test]
    fn a_library_soname_is_held_against_the_cuda_releases_that_ship_it() {
        // cuSOLVER 10 is CUDA 10.1 to 11.0: CUDA 11.2 ships libcusolver.so.11.
        let old = "Could not load dynamic library 'libcusolver.so.10'; dlerror: libcusolver.so.10: cannot open shared object file\nI have CUDA 11.2 installed";
        assert_eq!(top(old).1, Category::CudaRuntimeMismatch);
        let same = "Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object file\nI have CUDA 11.2 installed";
        assert_eq!(top(same).1, Category::LibraryNotFound);
        // cuFFT 10 ships with every CUDA 11: not another CUDA's library.
        let cufft = "Could not load dynamic library 'libcufft.so.10'; dlerror: libcufft.so.10: cannot open shared object file\nmy CUDA version is 11.8";
        assert_eq!(top(cufft).1, Category::LibraryNotFound);
        // libnccl.so.2 says nothing about CUDA.
        assert_eq!(cuda_of_soname(LibraryKind::Nccl, 2), None);
    }

    #[test]
    fn a_tensorflow_release_held_against_the_cuda_the_log_names() {
        // TensorFlow 2.1 on Windows is built for CUDA 10.1: with 10.2 it lists only the CPU.
        let win =
            "- OS Platform and Distribution: Windows 10\n- TensorFlow version (use command below): 2.1.0\n\
                   - CUDA/cuDNN version: 10.2.89\ntf.config.list_physical_devices(None)\n\
                   [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]";
        assert_eq!(top(win), ("tf-gpu-check".into(), Category::CudaRuntimeMismatch));
        // The CUDA it was built for: no mismatch, and a GPU build exists, so not a CPU-only build.
        let fine = win.replace("10.2.89", "10.1.243");
        assert_ne!(top(&fine).1, Category::CudaRuntimeMismatch);
        assert_ne!(top(&fine).1, Category::CpuOnlyBuild);
        // TensorFlow 2.12 on Windows has no GPU build at all.
        let cpu = "Windows 11\nTensorFlow version: 2.12.0\nCUDA/cuDNN version: 11.2/8.1\nprint(tf.config.list_physical_devices('GPU'))\n[]";
        assert_eq!(top(cpu).1, Category::CpuOnlyBuild);
        // Without a sign of the platform, 2.11+ may be native Windows's CPU-only package.
        let unknown = "### TensorFlow version\n\ntf 2.16\n\n### OS platform and distribution\n\nwin10\n\nprint(tf.config.list_physical_devices('GPU'))";
        assert_eq!(top(unknown).1, Category::CpuOnlyBuild);
        // From CUDA 11 on a TensorFlow build loads any toolkit of its major.
        let minor = "TensorFlow version: 2.11.0\nCUDA/cuDNN version: 11.8/8.6\nprint(tf.config.list_physical_devices('GPU'))\n[]";
        assert_ne!(top(minor).1, Category::CudaRuntimeMismatch);
    }

    #[test]
    fn a_bare_libcublas_so_10_is_not_provided_by_cuda_10_0() {
        let text = "W dso_loader.cc:55] Could not load dynamic library 'libnvinfer.so.6'; dlerror: libcublas.so.10: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /home/u/cuda-10.0/lib64";
        assert_eq!(top(text), ("tf-could-not-load-library".into(), Category::CudaRuntimeMismatch));
        let same = "W dso_loader.cc:55] Could not load dynamic library 'libcublas.so.10'; dlerror: libcublas.so.10: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/cuda-10.2/lib64";
        assert_eq!(top(same).1, Category::LibraryNotFound);
    }

    #[test]
    fn an_old_ptxas_with_a_newer_cuda_named_is_the_toolkit_not_being_found() {
        let found = "E ptxas_utils.cc:110] You are using ptxas 8.x, but TF requires ptxas 9.x (and strongly prefers >= 9.2.88).\n\
                     PATH, LD_LIBRARY_PATH, CUDA_HOME all points to the CUDA 10.0 directory";
        assert_eq!(top(found), ("xla-ptxas-outdated".into(), Category::LibraryNotFound));
        let old =
            "W asm_compiler.cc:111] *** WARNING *** You are using ptxas 9.2.148, which is older than 11.1.";
        assert_eq!(top(old), ("xla-ptxas-outdated".into(), Category::CudaRuntimeMismatch));
    }

    #[test]
    fn a_jax_plugin_failing_on_a_cuda_library_is_the_library_not_the_plugin_version() {
        let skew = "Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n\
                    AttributeError: module 'jaxlib.xla_client' has no attribute 'register_custom_type_id_handler'";
        assert_eq!(top(skew), ("jax-plugin-init-failed".into(), Category::Other));
        let lib = "ERROR:jax._src.xla_bridge:444: Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n\
                   Traceback (most recent call last):\n  File \"x/jax_plugins/xla_cuda12/__init__.py\", line 139, in _version_check\n\
                   RuntimeError: Unable to load cuSPARSE. Is it installed?";
        assert_eq!(top(lib), ("jax-plugin-init-failed".into(), Category::CudaRuntimeMismatch));
    }
    #[test]
    fn an_nvcc_path_that_does_not_exist_is_cuda_home_and_a_bare_nvcc_not_found_is_path() {
        // CUDA_HOME set to a colon list or a toolkit that is not installed
        // (https://github.com/NVIDIA/apex/issues/368, https://github.com/open-mmlab/OpenPCDet/issues/1502).
        for line in [
            "FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda:/usr/local/cuda-10.1/bin/nvcc': ':/usr/local/cuda:/usr/local/cuda-10.1/bin/nvcc'",
            "error: command ':/usr/local/cuda-11.1/bin/nvcc' failed: No such file or directory",
            "unable to execute '/usr/local/cuda:/usr/local/cuda/bin/nvcc': No such file or directory",
            "/bin/sh: 1: :/usr/local/cuda/bin/nvcc: not found",
        ] {
            assert_eq!(top(line), ("nvcc-path-missing".into(), Category::EnvVarMisconfig), "{line}");
        }
        // The shell finding no nvcc on PATH (sudo resets it: https://github.com/speedinghzl/CCNet/issues/56).
        assert_eq!(
            top("build.sh: 11: build.sh: nvcc: not found"),
            ("nvcc-not-on-path".into(), Category::EnvVarMisconfig)
        );
        // In a container, the image without the toolkit (https://github.com/NVIDIA/nvidia-docker/issues/1160).
        assert_eq!(
            top("$ docker run --gpus all -it nvidia/cuda:10.2-runtime-ubuntu18.04 bash\nroot@3f2a:/# nvcc --version\nbash: nvcc: command not found"),
            ("nvcc-not-on-path".into(), Category::LibraryNotFound)
        );
        // nvcc ran and the compilation failed: not a missing nvcc.
        let compiled = crate::explain::scan::scan_bytes(
            b"error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1",
            table(),
        );
        let ids: Vec<String> = rules_only(&compiled).into_iter().map(|e| e.signature).collect();
        assert!(!ids.iter().any(|id| id.starts_with("nvcc-")), "{ids:?}");
    }

    #[test]
    fn a_cuda_build_of_torch_named_in_the_log_is_not_a_cpu_only_build() {
        let plain = "torch.cuda.is_available() returns False";
        assert_eq!(top(plain).1, Category::CpuOnlyBuild);
        // pip on x86 Linux installs a CUDA build (https://github.com/pytorch/pytorch/issues/31243).
        let linux = format!("$ pip install torch===1.3.0 torchvision===0.4.1 -f https://download.pytorch.org/whl/torch_stable.html\nUbuntu1804\n{plain}");
        assert_ne!(top(&linux).1, Category::CpuOnlyBuild);
        let tagged = format!("print(torch.__version__)\n1.8.1+cu102\n{plain}");
        assert_ne!(top(&tagged).1, Category::CpuOnlyBuild);
        // The same command on Windows, or asking for the CPU wheels, says nothing of the sort.
        assert_eq!(top(&linux.replace("Ubuntu1804", "Windows 10")).1, Category::CpuOnlyBuild);
        let cpu_index = format!(
            "Ubuntu 22.04\npip install torch --index-url https://download.pytorch.org/whl/cpu\n{plain}"
        );
        assert_eq!(top(&cpu_index).1, Category::CpuOnlyBuild);
        // conda's CPU build string wins over a CUDA toolkit in the same list
        // (https://github.com/pytorch/pytorch/issues/69202).
        let conda = format!(
            "Ubuntu 20.04\npytorch                   1.9.0           py3.8_cpu_0    pytorch\n{plain}"
        );
        assert_eq!(top(&conda).1, Category::CpuOnlyBuild);
    }

    #[test]
    fn ollama_gpu_discovery_failures_are_read_by_their_status_not_as_jax() {
        // The number after "init failure" is the CUDA status (35 = insufficient driver).
        let old = "level=INFO source=gpu.go:340 msg=\"Unable to load cudart CUDA management library /tmp/ollama1/runners/cuda_v11/libcudart.so.11.0: cudart init failure: 35\"";
        assert_eq!(top(old).1, Category::DriverTooOld);
        let words = "level=DEBUG source=gpu.go:537 msg=\"Unable to load cudart\" library=C:\\ollama\\cudart64_12.dll error=\"your nvidia driver is too old or missing.  If you have a CUDA GPU please upgrade to run ollama\"";
        assert_eq!(top(words), ("ollama-driver-too-old".into(), Category::DriverTooOld));
        // Its probe runs cuInit in a fresh process: 3 there is not a fork.
        let init = "Ollama will not use GPU, fails with \"cudart init failure: 3\"";
        assert_eq!(top(init), ("cuda-initialization-error".into(), Category::DriverNotLoaded));
        // A driver-API function missing from libcuda is an old driver.
        let symbol = "msg=\"Unable to load nvcuda\" library=/usr/lib64/libcuda.so.418.74 error=\"symbol lookup for cuCtxCreate_v3 failed: /usr/lib64/libcuda.so.418.74: undefined symbol: cuCtxCreate_v3\"";
        assert_eq!(top(symbol).1, Category::DriverTooOld);
        // Retyped in lower case, it is still not JAX's "Unable to load CUDA."
        let lower = "unable to load cudart library /usr/lib/libcuda.so: some failure";
        assert!(!signatures(lower).contains(&"jax-backend-init".to_string()));
    }

    #[test]
    fn cuda_in_a_forked_child_has_its_own_signature_and_is_most_often_a_library_s() {
        let msg = "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method";
        let e = first(msg);
        assert_eq!(e.signature, "cuda-forked-subprocess");
        assert_eq!(causes(msg)[..2], [Category::Other, Category::UserCodeBug]);
        // Its fix names both ways out: the library's update or setting, and spawn.
        assert!(e.causes[0].fix.contains("spawn"), "{}", e.causes[0].fix);
        // CUDA's own initialisation error is still the other signature.
        assert_eq!(top("CUDA error: initialization error").0, "cuda-initialization-error");
        // With the traceback: the program's own file and Python's multiprocessing only is the
        // program forking; an installed library's frame (not PyTorch's) is that library's.
        let own = format!(
            "Traceback (most recent call last):\n  File \"/home/u/train.py\", line 7, in <module>\n  File \"/usr/lib/python3.12/multiprocessing/pool.py\", line 774, in get\n  File \"/opt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py\", line 466, in _lazy_init\n{msg}"
        );
        frames_decide(&own, "C:\\venv\\Lib\\site-packages\\xinference\\core\\worker.py", "xinference");
    }

    /// `log`'s traceback ends in the program's own /home/u/train.py: the program's code first; the
    /// same frame under an installed `package` (at `installed`): that library's bug, named.
    fn frames_decide(log: &str, installed: &str, package: &str) {
        assert_eq!(top(log).1, Category::UserCodeBug);
        let e = first(&log.replace("/home/u/train.py", installed));
        assert_eq!(e.causes[0].category, Category::Other);
        assert!(e.causes[0].facts.iter().any(|f| f.contains(package)), "{:?}", e.causes[0].facts);
    }

    #[test]
    fn tensors_on_two_devices_are_a_library_s_unless_the_program_s_input_or_frame_says_otherwise() {
        let two = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1! (when checking argument for argument tensors in method wrapper_CUDA_cat)";
        assert_eq!(top(two), ("torch-tensor-device-mismatch".into(), Category::Other));
        // One GPU made visible is the other fix those threads confirmed: it comes second, above
        // the program's own placement, and not for a GPU and the CPU.
        let second = |t: &str| first(t).causes[1].category;
        assert_eq!(second(two), Category::EnvVarMisconfig);
        assert!(first(two).causes[1].fix.contains("CUDA_VISIBLE_DEVICES=0"));
        let cpu = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!";
        assert_eq!(top(cpu).1, Category::Other);
        assert_ne!(second(cpu), Category::EnvVarMisconfig);
        let bare = "RuntimeError: Expected all tensors to be on the same device";
        assert_eq!(top(bare).1, Category::Other);
        let old = "RuntimeError: Expected object of backend CPU but got backend CUDA for argument #2 'mat2'";
        assert_eq!(top(old).1, Category::Other);
        assert!(first(old).causes[0].facts.iter().any(|f| f.contains("Expected object of backend")));
        // The input/weight form is the program's own input left behind.
        let input = "RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same";
        assert_eq!(top(input).1, Category::UserCodeBug);
        // A traceback that ends in the program's own file, through no installed package.
        let own = format!("{cpu}\n  File \"/home/u/train.py\", line 12, in <module>\n    loss = model(x)");
        frames_decide(
            &own,
            "/venv/lib/python3.10/site-packages/neuralprophet/forecaster.py",
            "neuralprophet",
        );
    }

    #[test]
    fn an_invalid_ordinal_on_several_nodes_is_the_launcher_s_rank_to_device_mapping() {
        let one = "RuntimeError: CUDA error: invalid device ordinal";
        assert_eq!(top(one).1, Category::UserCodeBug);
        let nodes = format!("torchrun --nnodes 2 --nproc_per_node 8 train.py\n{one}");
        assert_eq!(top(&nodes), ("cuda-invalid-device-ordinal".into(), Category::Other));
        let words = format!("Multi-node training with accelerate fails on the second node\n{one}");
        assert_eq!(top(&words).1, Category::Other);
    }

    #[test]
    fn cuinit_failing_under_a_570_driver_is_the_hmm_bug_unless_a_fork_came_first() {
        let log = "NVIDIA-SMI 570.158.01\nmsg=\"Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.575.57.08: cuda driver library init failure: 3\"";
        assert_eq!(top(log), ("cuda-initialization-error".into(), Category::Other));
        let old_driver = log.replace("570.158.01", "550.54.14").replace("575.57.08", "550.54.14");
        assert_ne!(top(&old_driver).1, Category::Other);
        let forked = format!("DataLoader worker (pid 123) started with num_workers=4\n{log}");
        assert_ne!(top(&forked).1, Category::Other);
        let resumed = format!("It worked until the laptop resumed from suspend\n{log}");
        assert_eq!(top(&resumed).1, Category::DriverNotLoaded);
    }

    #[test]
    fn a_cuda_library_missing_on_a_python_import_is_a_build_for_another_cuda() {
        let bare = "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory";
        let import = format!("    from vllm import cuda_utils\n{bare}");
        assert_eq!(causes(&import)[0], Category::CudaRuntimeMismatch);
        // The same with the library shown installed elsewhere is the loader path.
        let found =
            format!("{import}\n$ find / -name libcudart.so.12\n/usr/local/cuda-12.1/lib64/libcudart.so.12");
        assert_eq!(causes(&found)[0], Category::LibraryNotFound);
    }

    #[test]
    fn a_paddle_wheel_for_another_cuda_than_the_installed_one_is_the_mismatch() {
        // Paddle's dynamic loader asks for the unversioned libcublas.so: alone, a missing
        // development link; with a post107 wheel (CUDA 10) on CUDA 9.2, the build's CUDA.
        let error = "Error: Failed to find dynamic library: libcublas.so ( libcublas.so: cannot open shared object file: No such file or directory )";
        assert_eq!(causes(error)[0], Category::LibraryNotFound);
        let mismatch = format!("- cuda 9.2\npython3 -m pip install paddlepaddle-gpu==1.7.2.post107\n{error}");
        let e = first(&mismatch);
        assert_eq!(e.causes[0].category, Category::CudaRuntimeMismatch);
        assert!(
            e.causes[0].facts.iter().any(|f| f.contains("1.7.2.post107 is a build for CUDA 10")),
            "{:?}",
            e.causes[0]
        );
        // The wheel for the CUDA installed leaves the loader's path.
        let same = mismatch.replace("post107", "post97");
        assert_eq!(causes(&same)[0], Category::LibraryNotFound);
    }

    #[test]
    fn a_gpu_memory_xid_later_in_the_log_makes_an_earlier_error_the_hardware() {
        let error = "RuntimeError: CUDA error: an illegal memory access was encountered";
        assert_ne!(top(error).1, Category::HardwareFault);
        let with_xid = format!("{error}\n[Mon Sep  1 10:00:00 2026] NVRM: Xid (PCI:0000:17:00): 48, pid=1234, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.");
        assert_eq!(top(&with_xid), ("cuda-illegal-address".into(), Category::HardwareFault));
        // An application fault (Xid 13) does not say the same.
        let app = with_xid.replace("): 48,", "): 13,");
        assert_ne!(top(&app).1, Category::HardwareFault);
    }

    #[test]
    fn a_function_missing_from_a_compiled_extension_op_is_a_build_for_another_cuda() {
        let plain = "RuntimeError: CUDA error: invalid device function";
        assert_eq!(top(plain), ("cuda-invalid-device-function".into(), Category::ArchUnsupported));
        for op in [
            "error in modulated_deformable_im2col_cuda: invalid device function",
            "File \"mmcv/ops/roi_align.py\", line 82, in forward\nRuntimeError: CUDA error: invalid device function",
        ] {
            assert_eq!(top(op).1, Category::CudaRuntimeMismatch, "{op}");
        }
    }

    #[test]
    fn memory_that_grows_over_the_run_is_a_leak_not_a_batch_too_large() {
        let oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
        assert_eq!(top(oom), ("torch-cuda-oom".into(), Category::Oom));
        for said in [
            "memory leak during training",
            "The GPU memory usage growed slowly during training, finally threw",
            "Tracking the GPU memory consumption a slow and steady increase is visible.",
        ] {
            let e = first(&format!("{said}\n{oom}"));
            assert_eq!(e.causes[0].category, Category::UserCodeBug, "{said}");
            assert!(e.causes[0].facts.iter().any(|f| f.contains("memory grows")), "{said}");
        }
        // A batch that is simply too large, or the GPU's utilisation rising, says nothing of growth.
        assert_eq!(top(&format!("with batch size 64 I get\n{oom}")).1, Category::Oom);
        assert_eq!(top(&format!("GPU usage increases to 100% and then\n{oom}")).1, Category::Oom);
    }

    #[test]
    fn the_messages_of_the_last_rounds_have_their_signatures() {
        let cases = [
            (
                "[TensorRT] ERROR: INVALID_CONFIG: The engine plan file is generated on an incompatible device, expecting compute 6.1 got compute 7.5, please rebuild.",
                "tensorrt-engine-other-gpu",
                Category::ArchUnsupported,
            ),
            (
                "AttributeError: module 'faiss' has no attribute 'StandardGpuResources'",
                "faiss-no-gpu-build",
                Category::CpuOnlyBuild,
            ),
            (
                "NameError: name 'GpuResourcesVector' is not defined",
                "faiss-no-gpu-build",
                Category::CpuOnlyBuild,
            ),
            (
                "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0",
                "bf16-compute-capability",
                Category::ArchUnsupported,
            ),
            (
                "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path! Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor",
                "cudnn-symbol-not-loaded",
                Category::CudnnVersionMismatch,
            ),
        ];
        for (text, id, category) in cases {
            assert_eq!(top(text), (id.into(), category), "{text}");
        }
        // NCCL's numbered errors are read with their message (the number alone is no longer a literal).
        assert_eq!(top("NCCL Error 3: internal error").0, "nccl-internal-error");
        assert_eq!(top("NCCL Error 5: invalid usage").0, "nccl-invalid-usage");
        assert_eq!(top("NCCL Error 2: unhandled system error").0, "nccl-system-error");
        // The engine's and the GPU's capabilities are read from TensorRT's message.
        let e = first(cases[0].0);
        assert!(e.evidence.captured.contains(&("engine_cc".into(), "7.5".into())));
        assert!(e.evidence.captured.contains(&("device_cc".into(), "6.1".into())));
    }

    #[test]
    fn cufft_torchvision_cudnn_api_and_blackwell_cublas_messages_rank_their_threads_causes() {
        // From rounds CP-DJ of the corpus, as the threads pasted them.
        let cases = [
            ("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR", "cufft-error", Category::ArchUnsupported),
            ("RuntimeError: operator torchvision::nms does not exist", "torchvision-op-missing", Category::Other),
            (
                "src/cudnn.hpp:112:3: error: too few arguments to function 'cudnnStatus_t cudnnSetConvolution2dDescriptor(...)'",
                "cudnn-api-arguments",
                Category::CudnnVersionMismatch,
            ),
        ];
        for (text, id, category) in cases {
            assert_eq!(top(text), (id.into(), category), "{text}");
        }
        // cuBLAS's refusal on a Blackwell card, named as users name it, is the architecture; with no
        // GPU named, too (15 of the corpus's 25 threads of it); an Ampere to Hopper GPU has every
        // GEMM type, and a cuBLAS of another CUDA release comes first.
        let refused = "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED";
        assert_eq!(top(refused).1, Category::ArchUnsupported);
        assert_eq!(top(&format!("on an RTX 4090\n{refused}")).1, Category::CudaRuntimeMismatch);
        for gpu in ["run failed with 5080", "GeForce RTX 50XX - cuBLAS failed", "about it on RTX Blackwell"] {
            assert_eq!(top(&format!("{gpu}\n{refused}")).1, Category::ArchUnsupported, "{gpu}");
        }
    }

    #[test]
    fn build_toolkit_uvm_and_device_messages_of_rounds_dl_ea_rank_their_threads_causes() {
        // As the threads pasted them (and the corpus's earlier threads with the same messages).
        let cases = [
            (
                "RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.",
                "flash-attn-cuda-too-old",
                Category::CudaRuntimeMismatch,
            ),
            (
                "nvidia-docker | 2016/06/06 22:49:17 Error: Could not load UVM kernel module",
                "nvidia-uvm-not-loaded",
                Category::DriverNotLoaded,
            ),
            (
                "NVIDIA Docker - initialization error: nvml error: driver not loaded",
                "container-cli-nvml-driver-not-loaded",
                Category::DriverNotLoaded,
            ),
            (
                "CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.",
                "cmake-cuda-compiler-not-found",
                Category::EnvVarMisconfig,
            ),
            (
                "Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS) (found version \"6.0\")",
                "cmake-cuda-compiler-not-found",
                Category::EnvVarMisconfig,
            ),
            (
                "CMake Error: Could NOT find CUDA: Found unsuitable version \"9.0\", but required is exact version \"8.0\"",
                "cmake-cuda-unsuitable-version",
                Category::CudaRuntimeMismatch,
            ),
            (
                "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same",
                "torch-tensor-device-mismatch",
                Category::UserCodeBug,
            ),
        ];
        for (text, id, category) in cases {
            assert_eq!(top(text), (id.into(), category), "{text}");
        }
    }

    #[test]
    fn a_cublas_error_after_an_embedding_or_an_assertion_is_the_program_s() {
        // Without context the handle's creation failing is memory; next to an embedding it is an
        // index past the table (huggingface/transformers#6263).
        let handle =
            "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`";
        assert_eq!(top(handle).1, Category::Oom);
        let embedding = format!("I added some other embeddings to BertEmbedding, then:\n{handle}");
        assert_eq!(top(&embedding).1, Category::UserCodeBug);
        // As printed on an H200 (PyTorch 2.11) by an embedding lookup past its table: the assertion
        // comes first, and the cuBLAS error after it is ranked as its consequence.
        let log = "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex: block: [0,0,0], thread: [2,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n\
            Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n\
            RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`\n";
        let all = rules_only(&crate::explain::scan::scan_bytes(log.as_bytes(), crate::explain::table()));
        assert_eq!(all[0].signature, "cuda-device-assert");
        assert_eq!(all[1].signature, "cublas-internal-or-unsupported");
        assert_eq!(all[1].causes[0].category, Category::UserCodeBug);
        assert!(all[1].causes[0].facts[0].contains("device-side assertion"), "{:?}", all[1].causes[0].facts);
        let alone =
            "RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`";
        assert_ne!(top(alone).1, Category::UserCodeBug);
    }

    #[test]
    fn a_bad_parameter_in_a_recurrent_layer_is_the_program_s_input() {
        let bad = "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM";
        assert_eq!(top(bad).1, Category::CudnnVersionMismatch);
        for layer in
            ["out = self.lstm(x, lengths)", "chainer.links.NStepLSTM(1, 8, 8, 0.0)", "keras.layers.LSTM(64)"]
        {
            assert_eq!(top(&format!("{layer}\n{bad}")).1, Category::UserCodeBug, "{layer}");
        }
    }

    #[test]
    fn ctranslate2_without_cuda_is_a_cpu_build_even_on_a_mac() {
        // The macOS wheel is CPU-only: the device setting must change, a cpu_only_build as the
        // threads labelled it (torch's own message on a Mac stays the no-GPU cause).
        let mac = "Running whisperX on my MacBook\nValueError: This CTranslate2 package was not compiled with CUDA support";
        assert_eq!(top(mac), ("ctranslate2-not-compiled-with-cuda".into(), Category::CpuOnlyBuild));
        assert!(first(mac).causes[0].fix.contains("device=\"cpu\""));
        let torch = "I'm on a MacBook M1\nAssertionError: Torch not compiled with CUDA enabled";
        assert_eq!(top(torch), ("torch-not-compiled-with-cuda".into(), Category::Other));
    }

    #[test]
    fn paddle_inference_asking_a_cpu_paddle_for_the_gpu_is_the_cpu_build() {
        // MinerU's report: paddlepaddle-gpu installed, then put back to the CPU wheel.
        let log = "安装了 paddlepaddle-gpu 之后，还显示 Please use PaddlePaddle with GPU version\n[2025/01/20 10:00:00] ppocr DEBUG: dt_boxes num : 12";
        assert_eq!(top(log), ("paddle-inference-cpu-build".into(), Category::CpuOnlyBuild));
        assert!(first(log).causes[0].fix.contains("is_compiled_with_cuda"));
    }

    #[test]
    fn nvlink_given_newer_device_code_is_two_cuda_releases_mixed() {
        // XLA ran the machine's CUDA 11.4 nvlink on a cubin of jaxlib's pip CUDA 11.8
        // (dreamerv3 #64); a make with nvcc 12.0 against 12.9's libcudadevrt (memtestG80 #15).
        for log in [
            "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: nvlink exited with non-zero error code 256,output: nvlink fatal  : Input file '/tmp/tempfile-x.cubin' newer than toolkit (118 vs114)",
            "nvlink fatal   : Input file '/usr/local/cuda/lib64/libcudadevrt.a:cuda_device_runtime.o' newer than toolkit (129 vs 120)",
        ] {
            assert_eq!(top(log), ("nvlink-input-newer-than-toolkit".into(), Category::CudaRuntimeMismatch), "{log}");
        }
    }

    #[test]
    fn paddle_s_missing_cublas_dll_of_another_cuda_is_the_cuda_mismatch() {
        // A CUDA 10.0 build asks for cublas64_100.dll; the user has CUDA 10.1 (PaddleOCR #458).
        let log = "使用cuda10.1 出现RuntimeError: cublas64_100.dll not found.";
        assert_eq!(top(log), ("windows-dll-missing".into(), Category::CudaRuntimeMismatch));
        let alone = "RuntimeError: cublas64_100.dll not found.";
        assert_eq!(top(alone).0, "windows-dll-missing");
    }

    #[test]
    fn paddle_s_loader_names_the_library_that_is_missing() {
        let cudnn = "The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not configured correctly. (error code is 126)";
        assert_eq!(top(cudnn), ("paddle-dynamic-library-not-configured".into(), Category::CudnnMissing));
        // Not cuDNN: the library is off the path.
        let cublas = "The third-party dynamic library (cublas64_102.dll) that Paddle depends on is not configured correctly. (error code is 126)";
        assert_eq!(top(cublas), ("paddle-dynamic-library-not-configured".into(), Category::LibraryNotFound));
    }

    #[test]
    fn a_cudnn_dll_without_a_procedure_is_two_cudnn_copies() {
        let text = r#"OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\venv\lib\site-packages\paddle\..\nvidia\cudnn\bin\cudnn_cnn64_9.dll" or one of its dependencies."#;
        assert_eq!(top(text), ("windows-cudnn-procedure-not-found".into(), Category::CudnnVersionMismatch));
        // A procedure missing from torch's own DLL is not about cuDNN.
        let torch = r#"OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\venv\lib\site-packages\torch\lib\c10_cuda.dll" or one of its dependencies."#;
        assert_eq!(top(torch).0, "windows-dll-missing");
    }

    #[test]
    fn a_torch_extensions_module_that_is_missing_did_not_build() {
        let jit = "ImportError: /root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so: cannot open shared object file: No such file or directory";
        let e = first(jit);
        assert_eq!(
            (e.signature.as_str(), e.causes[0].category),
            ("loader-cuda-lib-missing", Category::Other)
        );
        assert!(e.causes[0].facts.iter().any(|f| f.contains("cpu_adam.so")), "{:?}", e.causes[0].facts);
        // A CUDA library that is missing is still about the library.
        let cudart =
            "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory";
        assert_ne!(top(cudart).1, Category::Other);
    }

    #[test]
    fn a_mac_in_a_pasted_report_s_title_is_a_machine_without_an_nvidia_gpu() {
        let filler = "loading the pipeline\n".repeat(30);
        let titled = format!(
            "Inference fails on my M2 MacBook Air\n{filler}AssertionError: Torch not compiled with CUDA enabled\n"
        );
        let e = first(&titled);
        assert_eq!(e.causes[0].category, Category::Other);
        assert!(e.causes[0].fix.contains("mps"), "{}", e.causes[0].fix);
        // The same error on a machine that names an NVIDIA GPU is a CPU-only build.
        let rtx = titled.replace("M2 MacBook Air", "RTX 4090 desktop");
        assert_eq!(first(&rtx).causes[0].category, Category::CpuOnlyBuild);
    }

    #[test]
    fn cublas_refusing_a_gemm_on_an_rtx_50_is_the_architecture() {
        let text = "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n\nRTX 5060 Ti 16GB, CUDA 12.9";
        assert_eq!(top(text), ("cublas-not-supported".into(), Category::ArchUnsupported));
        let a100 =
            "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n\nA100 80GB, CUDA 12.9";
        assert_ne!(top(a100).1, Category::ArchUnsupported);
        // A pasted report names its GPU once, in the title, far above the error.
        let filler = "loading the model\n".repeat(30);
        let titled = format!(
            "Faster-Whisper fails on my RTX 5070\n{filler}RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n"
        );
        assert_eq!(top(&titled), ("cublas-not-supported".into(), Category::ArchUnsupported));
        assert_ne!(top(&titled.replace("RTX 5070", "A100")).1, Category::ArchUnsupported);
    }
}
