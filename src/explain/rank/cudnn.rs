//! Rules on cuDNN: the installs found against each other and against the frameworks' builds,
//! versions named in the log, a missing cuDNN by its major.

use super::*;

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

pub(super) fn framework_cudnn<'a>(input: &RuleInput<'a>) -> Vec<(&'a Framework, &'a Version)> {
    relevant_frameworks(input).into_iter().filter_map(|f| f.cudnn.as_ref().map(|c| (f, &c.value))).collect()
}

pub(super) fn same_minor(a: &Version, b: &Version) -> bool {
    a.major() == b.major() && a.minor() == b.minor()
}

/// The cuDNN install a framework's libcudnn resolves to (its linkage, as the loader would find it).
pub(super) fn loaded_cudnn<'a>(
    fw: &Framework,
    installs: &[(&'a str, &'a Version)],
) -> Option<(&'a str, &'a Version)> {
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
pub(super) fn cudnn_major_wanted(file: &str) -> Option<u64> {
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
pub(super) fn torch_cudnn_major(torch: &str) -> Option<(u64, String)> {
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
pub(super) fn wheel_index_cudnn_major(marker: &str) -> Option<(u64, String)> {
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
