//! Rules on the GPU's architecture: its compute capability against the CUDA, cuDNN and framework
//! builds, the build's architecture list, precisions the GPU lacks.

use super::*;

pub(super) struct GpuArch {
    name: String,
    cc: ComputeCapability,
}

pub(super) fn gpu_archs(input: &RuleInput<'_>) -> Vec<GpuArch> {
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

pub(super) fn fw_arch_list(fw: &Framework) -> Vec<ComputeCapability> {
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
