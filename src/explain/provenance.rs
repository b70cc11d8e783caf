//! Whether the machine's facts can describe the machine the log came from. A log pasted from a
//! colleague's Windows box, or a cuDNN error explained on a laptop without an NVIDIA GPU, must not
//! be ranked on this machine's facts: "no cuDNN install was found here" says nothing about where
//! the error happened. Pure function of (signature, what the log says, the report).

use super::{Category, LogEvidence, Signature};
use crate::report::{Framework, FrameworkKind, Report};
use crate::version::Version;

/// Categories of causes that can produce a message on a machine where no GPU is usable: the
/// driver, libraries or build are what is missing. A signature with none of these among its causes
/// is printed only once a GPU ran (an out-of-memory error, a cuDNN status, an illegal access).
const WITHOUT_A_GPU: [Category; 8] = [
    Category::DriverNotLoaded,
    Category::DriverLibraryMismatch,
    Category::DriverTooOld,
    Category::CpuOnlyBuild,
    Category::ContainerRuntime,
    Category::LibraryNotFound,
    Category::CudnnMissing,
    Category::EnvVarMisconfig,
];

/// Product words that one name may carry and the other not ("NVIDIA GeForce RTX 3090" in NVML,
/// "RTX 3090" in a log).
fn normalised_gpu(name: &str) -> String {
    let lower = name.to_lowercase();
    let kept: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| {
            !w.is_empty() && !matches!(*w, "nvidia" | "geforce" | "tesla" | "quadro" | "gpu" | "laptop")
        })
        .collect();
    kept.concat()
}

/// Why this machine's facts cannot be about the machine that printed this error, or `None` when
/// they may be.
pub fn facts_elsewhere(signature: &Signature, evidence: &LogEvidence, report: &Report) -> Option<String> {
    // An issue as written on a tracker describes the machine of whoever wrote it: most texts with
    // its Markdown are someone else's report, pasted here to be explained. (280 corpus reports have
    // it; setting the facts aside for them took the corpus ranked with the H200's report from 944
    // to 952 right, with the Debian toolkit machine's from 929 to 949. A line a person starts, "I
    // have tried…", "Hi,", took the 3972 with the H200's report from 2612 to 2644, with the
    // machine without a GPU from 2620 to 2656, and the held-out set explained on this container
    // without a GPU from 96 to 99 of 191, as on the text alone.)
    if let Some(marker) = &evidence.written_report {
        return Some(format!(
            "the text is a written report (\"{marker}\"), not a log printed on this machine"
        ));
    }
    let here_linux = report.host.os.as_ref().map(|os| os.value.clone());
    if let (Some(marker), Some(os)) = (&evidence.windows_in_log, &here_linux) {
        return Some(format!("the log comes from Windows ({marker}) and this machine runs {os}"));
    }
    if let Some(why) = container_libraries(evidence, report) {
        return Some(why);
    }
    let here: Vec<&str> = report.gpus.devices.iter().filter_map(|g| g.name.as_deref()).collect();
    let no_gpu_here = report.gpus.devices.is_empty() && report.driver.kernel_module.is_none();
    // Whether a message needs a running GPU is known of a known message only: the causes of an
    // unrecognised text are the words' vote, not the message's own causes.
    let needs_gpu = signature.id != super::fallback::UNRECOGNISED
        && !signature.build_message
        && !signature.causes.iter().any(|c| WITHOUT_A_GPU.contains(&c.category));
    if let Some(named) = &evidence.gpu_name {
        let log = normalised_gpu(named);
        let matches = |h: &&str| {
            let h = normalised_gpu(h);
            !log.is_empty() && (h.contains(&log) || log.contains(&h))
        };
        if !here.is_empty() && !here.iter().any(matches) {
            return Some(format!("the log names the GPU {named} and this machine has {}", here.join(", ")));
        }
        if no_gpu_here && needs_gpu {
            return Some(format!("the log names the GPU {named} and this machine has no NVIDIA GPU"));
        }
    }
    if no_gpu_here && needs_gpu {
        return Some(
            "this error is printed only once a GPU has run, and this machine has no NVIDIA GPU or driver"
                .to_string(),
        );
    }
    if let Some(why) = driver_elsewhere(signature, evidence, report, no_gpu_here) {
        return Some(why);
    }
    if let Some(why) = python_elsewhere(evidence, report) {
        return Some(why);
    }
    if let Some(why) = packages_elsewhere(evidence, report) {
        return Some(why);
    }
    if let Some(why) = framework_absent(signature, evidence, report) {
        return Some(why);
    }
    framework_elsewhere(evidence, report)
}

/// The frameworks a message comes from, when its signature or the log says so (`tf-…` from
/// TensorFlow, `ort-…` from ONNX Runtime, a JAX traceback, the frameworks the text names); `None`
/// when it could be any, and an empty list for programs that are none of the frameworks a check
/// reports (Numba, TensorRT…) and for a text no signature knows that names no framework.
pub fn frameworks_of(signature: &Signature, evidence: &LogEvidence) -> Option<Vec<FrameworkKind>> {
    use FrameworkKind::*;
    const JAX: [FrameworkKind; 3] = [Jax, Jaxlib, JaxCudaPlugin];
    let prefix = signature.id.split('-').next().unwrap_or_default();
    match prefix {
        "torch" | "torchvision" | "torchrun" | "xformers" | "vllm" => Some(vec![Torch]),
        "tf" => Some(vec![Tensorflow]),
        "jax" => Some(JAX.to_vec()),
        "xla" => Some(vec![Tensorflow, Jax, Jaxlib, JaxCudaPlugin]),
        "paddle" => Some(vec![Paddle]),
        "ort" => Some(vec![Onnxruntime]),
        // FFmpeg's NVENC and NVDEC messages, cuDF's Jitify cache: programs outside the frameworks.
        "numba" | "theano" | "tensorrt" | "ctranslate2" | "nvenc" | "video" | "jitify" => Some(vec![]),
        _ if evidence.jax_in_log.is_some() => Some(JAX.to_vec()),
        // A message any framework prints, in a text that names some: those are the ones it is
        // about (an ONNX Runtime log says nothing of how this machine's PyTorch was built).
        _ if evidence.frameworks_named.is_some() => evidence.frameworks_named.clone(),
        // A text no signature knows and that names no framework: none of this machine's.
        _ if signature.id == super::fallback::UNRECOGNISED => Some(vec![]),
        _ => None,
    }
}

/// A library the loader did not find, in a program the log shows running in a container (`docker
/// run … image`), explained on a machine that is no container: the image's libraries are its own,
/// and this machine's say nothing of them (a host without any cudart is no reason for
/// `libcudart.so.10.1` missing in nvcr.io's tritonserver image,
/// <https://github.com/isarsoft/yolov4-triton-tensorrt/issues/16>). Not for the driver's own
/// libraries, which the container toolkit mounts from this very host.
fn container_libraries(evidence: &LogEvidence, report: &Report) -> Option<String> {
    let hint = evidence.container_in_log.as_deref()?;
    let library = evidence.library.as_deref()?;
    let drivers = ["libcuda.", "libnvidia-", "libnvcuvid", "nvcuda", "nvml"];
    if drivers.iter().any(|d| library.starts_with(d)) || !report.host.containers_around().is_empty() {
        return None;
    }
    Some(format!(
        "the program ran in a container (\"{hint}\"), whose libraries are the image's, not this machine's"
    ))
}

/// The message comes from a framework that no environment found here has, while the check did
/// find environments with frameworks: a TensorFlow error explained on a machine with only PyTorch
/// happened on another machine, and this one's cuDNN installs say nothing about it. (Found by
/// ranking the corpus with the H200's report: ten TensorFlow "Failed to get convolution algorithm"
/// reports, fixed by memory growth, were put on the H200's two cuDNN copies.)
fn framework_absent(signature: &Signature, evidence: &LogEvidence, report: &Report) -> Option<String> {
    let kinds = frameworks_of(signature, evidence).filter(|k| !k.is_empty())?;
    if report.frameworks.is_empty() || report.frameworks.iter().any(|f| kinds.contains(&f.kind)) {
        return None;
    }
    Some(format!("the message is {}'s, and no environment here has it", kinds[0].name()))
}

/// The log names a driver of another branch than the one loaded here, or any driver while this
/// machine has none. Not for a driver/library mismatch: its log names the other half's version.
fn driver_elsewhere(
    signature: &Signature,
    evidence: &LogEvidence,
    report: &Report,
    no_gpu_here: bool,
) -> Option<String> {
    let named = evidence.driver_version.as_ref()?;
    if signature.causes.iter().any(|c| c.category == Category::DriverLibraryMismatch) {
        return None;
    }
    match &report.driver.kernel_module {
        Some(m) if m.version.value.branch() != named.branch() => Some(format!(
            "the log names NVIDIA driver {} and this machine runs {}",
            named.branch(),
            m.version.value
        )),
        None if no_gpu_here => Some(format!(
            "the log names NVIDIA driver {} and this machine has no NVIDIA driver",
            named.branch()
        )),
        _ => None,
    }
}

/// The program ran on a Python that no environment found here has (a traceback's
/// `python3.8/site-packages` on a machine whose environments are all 3.12).
fn python_elsewhere(evidence: &LogEvidence, report: &Report) -> Option<String> {
    let named = evidence.python_in_log.as_ref()?;
    let here: Vec<&Version> =
        report.host.python_envs.iter().filter_map(|e| e.python_version.as_ref()).collect();
    // `named` is major.minor (3.8): an environment of 3.8.10 matches it.
    if here.is_empty() || here.iter().any(|v| v.matches_prefix(named)) {
        return None;
    }
    let mut names: Vec<String> = here.iter().map(|v| v.truncated(2).to_string()).collect();
    names.dedup();
    Some(format!(
        "the log's program ran on Python {named} and this machine's environments have {}",
        names.join(", ")
    ))
}

/// The log's program took its packages from a site-packages directory that is none of this
/// machine's environments' (a traceback through `/home/u/anaconda3/envs/x/lib/python3.8/site-packages`
/// pasted on a machine whose environments are `/usr` and `/opt/venv`): the log was printed
/// elsewhere. Only when the check found environments; a directory is compared as written, so an
/// environment the check did not find reads as elsewhere, and the text alone ranks the error.
fn packages_elsewhere(evidence: &LogEvidence, report: &Report) -> Option<String> {
    let dir = evidence.packages_dir_in_log.as_deref()?;
    let envs = &report.host.python_envs;
    if envs.is_empty() {
        return None;
    }
    let same = |d: &String| d.trim_end_matches('/').eq_ignore_ascii_case(dir.trim_end_matches('/'));
    if envs.iter().any(|e| e.site_packages.iter().any(same)) {
        return None;
    }
    let prefixes: Vec<&str> = envs.iter().map(|e| e.prefix.as_str()).collect();
    Some(format!(
        "the log's packages are in {dir}, which is none of this machine's Python environments ({})",
        prefixes.join(", ")
    ))
}

/// The log names a PyTorch or TensorFlow release that no environment here has, while some
/// environment here has that framework in another release.
fn framework_elsewhere(evidence: &LogEvidence, report: &Report) -> Option<String> {
    // A version's numeric parts leave out its local tag: 2.11.0+cu130 is release 2.11.0.
    let mut named: Vec<(FrameworkKind, Version)> = Vec::new();
    if let Some(v) = evidence.torch_in_log.as_deref().and_then(|t| t.parse::<Version>().ok()) {
        named.push((FrameworkKind::Torch, v));
    }
    if let Some(v) = &evidence.tf_in_log {
        named.push((FrameworkKind::Tensorflow, v.clone()));
    }
    for (kind, v) in named {
        let here: Vec<&Framework> = report.frameworks.iter().filter(|f| f.kind == kind).collect();
        let same = |f: &&Framework| f.version.value.matches_prefix(&v);
        if !here.is_empty() && !here.iter().any(same) {
            let versions: Vec<&str> = here.iter().map(|f| f.version.value.as_str()).collect();
            return Some(format!(
                "the log names {} {v} and this machine has {}",
                kind.name(),
                versions.join(", ")
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::{find_signature, scan, table};
    use crate::report::{Container, Evidence, Fact, Gpu};

    fn linux() -> Report {
        let mut r = Report::new("/", true);
        r.host.os = Some(Fact::new("Ubuntu 22.04.4 LTS".to_string(), Evidence::file_name("/etc/os-release")));
        r
    }

    fn with_gpu(name: &str) -> Report {
        let mut r = linux();
        let gpu = Gpu { name: Some(name.to_string()), visible: true, ..Gpu::default() };
        r.gpus.devices.push(gpu);
        r
    }

    fn why(text: &str, report: &Report) -> Option<String> {
        let result = scan::scan_bytes(text.as_bytes(), table());
        let o = &result.occurrences[0];
        let sig = &table().signatures[o.signature];
        let ev = crate::explain::evidence::extract(&o.evidence_text(), &o.key, &o.groups, o.code, table());
        facts_elsewhere(sig, &ev, report)
    }

    #[test]
    fn a_text_no_signature_knows_is_about_the_frameworks_it_names_or_none() {
        // The fallback's signature, as explain_unrecognised builds it: only its id matters here.
        let mut unrecognised = table().by_id("cuda-out-of-memory-runtime").unwrap().clone();
        unrecognised.id = crate::explain::fallback::UNRECOGNISED.into();
        let of = |text: &str| {
            frameworks_of(&unrecognised, &crate::explain::evidence::extract(text, "", &[], None, table()))
        };
        assert_eq!(of("EXECUTION PROVIDERS only azure and cpu"), Some(vec![]));
        assert_eq!(of("import torch; training runs on the cpu"), Some(vec![FrameworkKind::Torch]));
        // A message any framework prints is about all of them while the text names none.
        let sig = table().by_id("cuda-out-of-memory-runtime").unwrap();
        let ev = crate::explain::evidence::extract("CUDA error: out of memory", "", &[], None, table());
        assert_eq!(frameworks_of(sig, &ev), None);
    }

    #[test]
    fn an_issue_written_on_a_tracker_is_not_ranked_on_this_machine_a_terminal_log_is() {
        let r = with_gpu("NVIDIA H200");
        let error = "RuntimeError: CUDA error: no kernel image is available for execution on the device";
        // What a program prints, even with a root prompt's `#`, is this machine's.
        assert_eq!(why(&format!("root@box:/# python train.py\n# nvidia-smi\n{error}"), &r), None);
        for written in [
            format!("## 🐛 Bug\n```\n{error}\n```"),
            format!("**Describe the bug**\n{error}"),
            format!("{error}\n![Screenshot](https://user-images.githubusercontent.com/1/2.png)"),
            // A person's own words at a line's start: no program prints them.
            format!("Hi, I installed torch 2.1 with conda and get this when training:\n{error}"),
            format!("I have tried reinstalling the driver twice.\n{error}"),
            format!("{error}\nBut I already installed cuda and set the root to CUDA_HOME."),
            format!("{error}\nwhen i create the envs and run the script, i always meet it"),
        ] {
            let why = why(&written, &r).unwrap_or_else(|| panic!("not set aside: {written}"));
            assert!(why.contains("written report"), "{why}");
        }
    }

    #[test]
    fn a_library_missing_in_a_container_is_not_ranked_on_the_hosts_libraries() {
        let docker = "root@ubuntu:~# docker run --gpus all --rm -v$(pwd)/plugins:/plugins --env LD_PRELOAD=/plugins/libmyplugins.so nvcr.io/nvidia/tritonserver:20.09-py3 tritonserver\n";
        let missing = "/bin/bash: error while loading shared libraries: libcudart.so.10.1: cannot open shared object file: No such file or directory";
        let r = with_gpu("NVIDIA H200");
        let reason = why(&format!("{docker}{missing}"), &r).unwrap();
        assert!(reason.contains("container") && reason.contains("docker run"), "{reason}");
        // Without the container, the host's libraries are the program's.
        assert_eq!(why(missing, &r), None);
        // The driver's libcuda is mounted from the host: its facts stay.
        let libcuda = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory";
        assert_eq!(why(&format!("{docker}{libcuda}"), &r), None);
        // Explained inside a container, the log may well be this container's.
        let mut inside = r.clone();
        inside.host.containers.push(Fact::new(Container::Docker, Evidence::file_name("/.dockerenv")));
        assert_eq!(why(&format!("{docker}{missing}"), &inside), None);
    }

    #[test]
    fn a_windows_log_is_not_ranked_on_a_linux_machine() {
        let text = r"OSError: [WinError 126] The specified module could not be found. Error loading C:\Users\me\miniconda3\lib\site-packages\torch\lib\cudnn_cnn_infer64_8.dll";
        let why = why(text, &with_gpu("NVIDIA GeForce RTX 3090")).unwrap();
        assert!(why.contains("Windows") && why.contains("Ubuntu"), "{why}");
    }

    #[test]
    fn a_frameworks_message_is_not_ranked_on_a_machine_without_that_framework() {
        let text = "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize";
        let mut r = with_gpu("NVIDIA GeForce RTX 3090");
        // No environment found: nothing is known of what is installed.
        assert_eq!(why(text, &r), None);
        let torch = Framework {
            kind: FrameworkKind::Torch,
            package: "torch".into(),
            env: "/venv".into(),
            location: "/venv/lib/python3.12/site-packages/torch".into(),
            version: Fact::new("2.5.1".parse().unwrap(), Evidence::file_name("/venv/torch/version.py")),
            cuda: None,
            cudnn: None,
            build: None,
            details: Default::default(),
            cuda_major: None,
            linkage: None,
        };
        r.frameworks.push(torch.clone());
        let why_not = why(text, &r).unwrap();
        assert!(why_not.contains("TensorFlow") && why_not.contains("no environment"), "{why_not}");
        r.frameworks.push(Framework { kind: FrameworkKind::Tensorflow, ..torch.clone() });
        assert_eq!(why(text, &r), None);
        // A message any framework prints is about the frameworks its text names: in a PaddlePaddle
        // log, on a machine with PyTorch and TensorFlow only, it happened elsewhere.
        let paddle = "paddle/fluid/platform/device_context.cc:252] CUDA error: out of memory";
        assert!(why(paddle, &r).is_some_and(|w| w.contains("PaddlePaddle")), "{:?}", why(paddle, &r));
        assert_eq!(why("CUDA error: out of memory", &r), None);
    }

    #[test]
    fn a_log_whose_packages_are_in_none_of_this_machines_environments_is_from_elsewhere() {
        let text = "  File \"/home/u/anaconda3/envs/x/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 293, in _lazy_init\n    torch._C._cuda_init()\nRuntimeError: No CUDA GPUs are available";
        let mut r = with_gpu("NVIDIA H200");
        // Nothing is known of this machine's environments: nothing to compare with.
        assert_eq!(why(text, &r), None);
        let venv = |prefix: &str| crate::report::PythonEnv {
            prefix: prefix.to_string(),
            kind: crate::report::PythonEnvKind::Venv,
            python_version: Some("3.10.12".parse().unwrap()),
            site_packages: vec![format!("{prefix}/lib/python3.10/site-packages")],
            evidence: Vec::new(),
            active: true,
            home: None,
            include_system_site_packages: None,
        };
        r.host.python_envs.push(venv("/opt/venv"));
        let elsewhere = why(text, &r).unwrap();
        assert!(elsewhere.contains("/home/u/anaconda3/envs/x/lib/python3.10/site-packages"), "{elsewhere}");
        assert!(elsewhere.contains("/opt/venv"), "{elsewhere}");
        // The same log from the environment the check found is this machine's.
        r.host.python_envs.push(venv("/home/u/anaconda3/envs/x"));
        assert_eq!(why(text, &r), None);
    }

    #[test]
    fn a_gpu_named_in_the_log_must_be_one_of_this_machines() {
        let text = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.69 GiB total capacity) on NVIDIA GeForce RTX 3090";
        assert_eq!(why(text, &with_gpu("NVIDIA GeForce RTX 3090")), None);
        assert_eq!(why(text, &with_gpu("GeForce RTX 3090")), None);
        let other = why(text, &with_gpu("NVIDIA H200")).unwrap();
        assert!(other.contains("RTX 3090") && other.contains("H200"), "{other}");
    }

    #[test]
    fn an_error_that_needs_a_running_gpu_is_not_from_a_machine_without_one() {
        let oom = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB";
        assert!(why(oom, &linux()).unwrap().contains("no NVIDIA GPU"));
        assert_eq!(why(oom, &with_gpu("NVIDIA A100-SXM4-80GB")), None);
        // Errors about a missing driver or library happen on exactly such a machine.
        let missing =
            "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory";
        assert_eq!(why(missing, &linux()), None);
        assert!(find_signature("CUDA out of memory").is_some());
    }

    #[test]
    fn a_text_no_signature_knows_is_not_said_to_need_a_running_gpu() {
        let text = "fatal: cannot open /dev/nvidia-uvm: Permission denied";
        let e = crate::explain::fallback::explain_unrecognised(
            text,
            1,
            Some(&linux()),
            table(),
            crate::explain::words::model(),
        )
        .unwrap();
        assert_eq!(e.facts_not_used, None);
    }
}
