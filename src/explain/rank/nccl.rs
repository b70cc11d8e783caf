//! Rules on NCCL: its environment variables, its detail lines, several nodes, peer access.

use super::*;

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
