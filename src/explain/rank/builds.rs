//! Rules on how the frameworks and their extensions were built: CPU-only builds, the CUDA and cuDNN
//! a build names against the log's, PyTorch releases with a bug of their own, extensions built for
//! another torch.

use super::*;

/// Whether the CPU-only build a message can mean is the framework's own. Not for an operator with
/// no CUDA kernel: that is its package's build (a CPU torchvision next to a CUDA torch), so how
/// torch was built argues neither way.
pub(super) fn cpu_build_is_the_frameworks(input: &RuleInput<'_>) -> bool {
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

/// The CUDA toolkit the Linux GPU build of TensorFlow `version` was made for and loads, from the
/// knowledge base's tested build configurations (none where a row names only a CUDA major).
pub(super) fn tensorflow_build_cuda(version: &Version) -> Option<CudaVersion> {
    let kb = crate::kb::kb().ok()?;
    kb.frameworks
        .build
        .iter()
        .filter(|b| b.framework == "tensorflow" && b.platform.is_linux() && b.covers(version))
        .find_map(|b| b.cuda.first().and_then(|c| c.toolkit()))
}

/// The CUDA major and cuDNN major the PyPI `onnxruntime-gpu` release `version` is built for, from
/// the knowledge base's requirements rows (the default package, not the separate CUDA 12/11 feeds).
pub(super) fn ort_build_needs(version: &Version, cuda_in_name: Option<u32>) -> Option<(u32, Option<u64>)> {
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
pub(super) fn ort_requirement_in_message(ev: &LogEvidence) -> Option<(u32, u64)> {
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

/// PyTorch releases with a bug of their own behind a message: (the signature, the releases, a
/// wheel tag that never had it, what was wrong).
/// - 1.8.0's CUDA 10.2 wheels, the default from pip, raised CUDNN_STATUS_NOT_INITIALIZED on Turing
///   and newer GPUs; 1.8.1 fixed it (<https://github.com/pytorch/pytorch/issues/53336>,
///   <https://github.com/pytorch/pytorch/issues/53720>, <https://github.com/pytorch/pytorch/issues/53896>,
///   <https://github.com/werner-duvaud/muzero-general/issues/139>), and the cu111 build never had it.
/// - 2.3.0 and 2.3.1 fail the `device < num_gpus` assert when a program restricts the visible
///   GPUs; 2.4.0 fixed it (pytorch/pytorch#128819, as <https://github.com/kuwaai/kuwa-aios/issues/20>
///   resolved it; <https://github.com/xorbitsai/inference/issues/1439>: "introduced by torch 2.3.0").
pub(super) const TORCH_RELEASE_BUGS: &[(&str, &[&str], Option<&str>, &str)] = &[
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

/// A build that found no nvcc (the shell's "nvcc: not found", PyTorch's "CUDA_HOME environment
/// variable is not set", CMake's "No CMAKE_CUDA_COMPILER could be found", DeepSpeed's missing
/// CUDA_HOME), weighed on the toolkits this machine has: with an
/// nvcc installed, the build's process was not pointed at it (PATH, CUDA_HOME or CUDACXX; sudo and
/// IDEs start with another PATH); with none, there is no compiler to point at. Not for a build the
/// log shows in a container on a host that is none: the image's toolkit is not this machine's.
/// Nor for an nvcc path a CUDA_HOME made (`nvcc-path-missing`): the path in the message (a colon
/// list, a `bin` directory) shows the setting wrong whatever is installed here; weighed on a
/// machine without a toolkit, five such corpus logs were turned to the toolkit.
pub fn nvcc_on_this_machine(input: &RuleInput<'_>) -> Vec<Adjustment> {
    const NO_NVCC: [&str; 4] = [
        "nvcc-not-on-path",
        "cuda-home-not-set",
        "cmake-cuda-compiler-not-found",
        "deepspeed-cuda-home-missing",
    ];
    if !NO_NVCC.contains(&input.signature.id.as_str())
        || !has(input, Category::EnvVarMisconfig)
        || !has(input, Category::LibraryNotFound)
    {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    if input.evidence.container_in_log.is_some() && report.host.containers_around().is_empty() {
        return vec![];
    }
    let installed = report.cuda.toolkits.iter().find_map(|t| {
        let nvcc = t.nvcc.as_deref()?;
        Some(match &t.version {
            Some(v) => format!("{nvcc} (CUDA {})", v.value),
            None => nvcc.to_string(),
        })
    });
    match installed {
        Some(nvcc) => {
            // CMake takes the compiler from CUDACXX first; the others from CUDA_HOME.
            let setting = if input.signature.id == "cmake-cuda-compiler-not-found" { "CUDACXX" } else { "CUDA_HOME" };
            let path = match &report.cuda.nvcc_on_path {
                Some(_) => format!(
                    "and this shell finds nvcc on PATH: the build ran with another PATH (sudo, an IDE, a service) or {setting}"
                ),
                None => "a directory this shell's PATH does not hold either".to_string(),
            };
            vec![
                adj(Category::EnvVarMisconfig, 3.0, format!("this machine has nvcc at {nvcc}, {path}")),
                adj(Category::LibraryNotFound, 0.4, format!("a CUDA toolkit with nvcc is installed: {nvcc}")),
            ]
        }
        None => vec![
            adj(
                Category::LibraryNotFound,
                3.0,
                "no CUDA toolkit with nvcc was found on this machine (the driver and the frameworks' CUDA wheels bring none)",
            ),
            adj(Category::EnvVarMisconfig, 0.5, "there is no nvcc here for PATH or CUDA_HOME to point at"),
        ],
    }
}

/// PyTorch's check that an extension is built with its own CUDA major ("The detected CUDA version
/// (12.1) mismatches the version that was used to compile PyTorch (11.8)", DeepSpeed's and Apex's
/// forms alike), weighed on this machine: the toolkit a build finds (CUDA_HOME, CUDA_PATH, nvcc on
/// PATH, /usr/local/cuda: torch.utils.cpp_extension's order) against the CUDA of the PyTorch
/// installed here. With a toolkit of PyTorch's major installed elsewhere, the fix is to point
/// CUDA_HOME at it, and the fact names both; with none, a toolkit (or a PyTorch build) has to be
/// installed.
pub fn extension_toolkit_vs_torch(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "torch-cuda-mismatch-extension"
        || !has(input, Category::EnvVarMisconfig)
        || !has(input, Category::CudaRuntimeMismatch)
    {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let torch = relevant_frameworks(input)
        .into_iter()
        .filter(|f| f.kind == FrameworkKind::Torch)
        .find_map(|f| Some((f, f.cuda.as_ref()?.value)));
    let Some((torch, wanted)) = torch else { return vec![] };
    let with_nvcc: Vec<(&crate::report::CudaToolkit, &Version)> = report
        .cuda
        .toolkits
        .iter()
        .filter(|t| t.nvcc.is_some())
        .filter_map(|t| Some((t, &t.version.as_ref()?.value)))
        .collect();
    let found = ["$CUDA_HOME", "$CUDA_PATH", "nvcc on PATH", "/usr/local/cuda"].iter().find_map(|by| {
        with_nvcc.iter().find(|(t, _)| t.pointed_to_by.iter().any(|p| p == by)).map(|(t, v)| (*t, *v, *by))
    });
    let same_major = |v: &Version| v.major() == u64::from(wanted.major);
    let Some((used, used_version, by)) = found.filter(|(_, v, _)| !same_major(v)) else { return vec![] };
    let torch_says = format!(
        "PyTorch {} here is built with CUDA {wanted}, and the build finds CUDA {used_version} at {} ({by})",
        torch.version.value, used.root
    );
    match with_nvcc.iter().find(|(_, v)| same_major(v)) {
        Some((other, version)) => {
            let fact = format!(
                "{torch_says}; CUDA {version} is installed at {}: export CUDA_HOME={} (and its bin on PATH)",
                other.root, other.root
            );
            vec![adj(Category::EnvVarMisconfig, 2.5, fact)]
        }
        None => vec![
            adj(
                Category::CudaRuntimeMismatch,
                2.0,
                format!(
                    "{torch_says}; no CUDA {} toolkit with nvcc is installed here: install one, or the PyTorch build for CUDA {}",
                    wanted.major,
                    used_version.major()
                ),
            ),
            adj(
                Category::EnvVarMisconfig,
                0.5,
                format!("no CUDA {} toolkit is installed here for CUDA_HOME to point at", wanted.major),
            ),
        ],
    }
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
