//! Ranking: each rule is a pure function of (the matched signature, the evidence in the log, the
//! machine's [`Report`] when there is one) that returns weight adjustments for cause categories,
//! each with the fact that justifies it. A cause's score is its prior weight times the factors of
//! every adjustment to its category, normalised over the signature's causes. Without a report
//! (`--no-check`) only the log's own evidence moves the priors.
//!
//! This file holds the types, the list of rules ([`RULES`], in the order their facts are listed)
//! and the scoring; the rules live in one file per family of causes (memory, cuDNN, architecture,
//! driver, builds, devices, containers, the loader, NCCL), with the helpers they share beside the
//! rules that use them most. Every rule and helper is visible to the others through this module.

use super::{Category, CauseKind, LogEvidence, Signature, SignatureTable};
use crate::report::{Framework, FrameworkKind, LibraryKind, ModuleFlavour, Report};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use serde::Serialize;
use std::collections::BTreeSet;

mod arch;
mod builds;
mod containers;
mod cudnn;
mod devices;
mod driver;
mod loader;
mod memory;
mod nccl;
pub use arch::*;
pub use builds::*;
pub use containers::*;
pub use cudnn::*;
pub use devices::*;
pub use driver::*;
pub use loader::*;
pub use memory::*;
pub use nccl::*;

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
    nvcc_on_this_machine,
    extension_toolkit_vs_torch,
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

#[cfg(test)]
mod tests;
