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
    assert_eq!(rank(sig, &LogEvidence::default(), None, &seen, t)[0].category, Category::ContainerRuntime);
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
    assert_eq!(rank(socket, &LogEvidence::default(), None, &seen, t)[0].category, Category::EnvVarMisconfig);
}

#[test]
fn the_cuda_error_under_an_nccl_error_names_its_cause() {
    let t = table();
    let sig = t.by_id("nccl-cuda-error").unwrap();
    let first = |detail: &str| {
        let ev = LogEvidence { nccl_cuda_failure: Some(detail.into()), ..LogEvidence::default() };
        rank(sig, &ev, None, &BTreeSet::new(), t)[0].category
    };
    assert_eq!(first("peer access is not supported between these two devices"), Category::EnvVarMisconfig);
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
    assert_eq!(rank(sig, &major("10.0"), None, &BTreeSet::new(), t)[0].category, Category::ArchUnsupported);
}

#[test]
fn a_user_saying_there_is_no_nvidia_gpu_ranks_that_first_where_the_signature_lists_it() {
    let t = table();
    let ev = LogEvidence { no_nvidia_gpu: Some("running it on the CPU".into()), ..LogEvidence::default() };
    let sig = t.by_id("torch-no-nvidia-driver").unwrap();
    // Without evidence the prior decides: reports of this message that show no container are
    // mostly machines without an NVIDIA GPU; a container in the log puts its runtime first.
    assert_eq!(rank(sig, &LogEvidence::default(), None, &BTreeSet::new(), t)[0].category, Category::Other);
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
    assert_eq!(rank(sig, &missing("libcudnn.so.7", pip), None, &none, t)[0].category, Category::CudnnMissing);
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
    assert_eq!(rank(sig, &LogEvidence::default(), None, &none, t)[0].category, Category::ContainerRuntime);
    let intel = LogEvidence { no_nvidia_gpu: Some("Intel® Xe Graphics".into()), ..LogEvidence::default() };
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
    assert_eq!(rank(available, &LogEvidence::default(), None, &none, t)[0].category, Category::CpuOnlyBuild);
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
    let input = RuleInput { signature: oom, evidence: &ev, report: None, seen: &BTreeSet::new(), table: t };
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
    assert!(container.against.iter().any(|f| f.contains("names no container")), "{:?}", container.against);
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
    let blocked = format!("{vllm}\nmokutil --sb-state says SecureBoot enabled, lsmod | grep nvidia is empty");
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
    let restore = "  File \"demo.py\", line 124, in <module>\n    checkpoint = torch.load(args.checkpoint)\n\
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
    let tensorrt = "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory";
    assert_eq!(top(tensorrt), ("loader-cuda-lib-missing".into(), Category::LibraryNotFound));
    // cuRAND's soname (libcurand.so.10, CUDA 10 to 13) names no release.
    let curand = "ImportError: libcurand.so.10: cannot open shared object file: No such file or directory";
    assert_eq!(top(curand), ("loader-cuda-lib-missing".into(), Category::LibraryNotFound));
    // A CUDA image, shown by the LD_LIBRARY_PATH NVIDIA's images set, is one CUDA release too.
    let image = "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic \
                 library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: \
                 No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64";
    assert_eq!(top(image).1, Category::CudaRuntimeMismatch);
    let no_image = image.replace("/usr/local/nvidia/lib:/usr/local/nvidia/lib64", "/usr/local/cuda/lib64");
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
    let brand = "nvidia-container-cli: requirement error: unsatisfied condition: brand = quadrortx: unknown";
    assert_eq!(top(brand), ("container-cli-brand-requirement".into(), Category::ContainerRuntime));
    let cuda = "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version, or use an earlier cuda container: unknown";
    assert_eq!(top(cuda), ("container-cli-requirement".into(), Category::DriverTooOld));
}

#[test]
fn a_cudnn_library_missing_under_a_wheel_index_of_the_other_major_is_the_cudnn_major() {
    let dll = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!";
    let nightly =
        format!("pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu129\n{dll}");
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
    assert!(!first(&maxwell).causes.iter().flat_map(|c| &c.facts).any(|f| f.contains("older than Maxwell")));
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
    let gsp = "[ 7253.163112] NVRM: _kgspRpcRecvPoll: Timeout waiting for RPC from GSP! Expected function 76";
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
    let other = "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\
                 my system: ubuntu20.04 + nvidia530.30 + cuda12.1";
    assert_eq!(top(other).1, Category::CudaRuntimeMismatch);
    let same = "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n\
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
    let minor = "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\
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
    let other = "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\nCUDA version: 11.8";
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
    let oom = "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\nwith a smaller batch size it works";
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
    let error =
        "jax.numpy.ones(3)\nRuntimeError: Unknown: no kernel image is available for execution on the device";
    let old = format!("jax 0.3.16, jaxlib 0.3.15 with cuda-11.6.2 and nvidia driver version 470\n{error}");
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
    let hint = "If you see this and ComfyUI did not start try updating your Nvidia Drivers to the latest.";
    assert_eq!(top(hint), ("comfyui-portable-update-driver".into(), Category::DriverTooOld));
    let after_error =
        format!("RuntimeError: CUDA error: no kernel image is available for execution on the device\n{hint}");
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
    let missing = "ImportError: DLL load failed while importing _C: The specified module could not be found.";
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
    let exclusive =
        format!("{error}\n| N/A   35C    P0    63W / 235W |     74MiB / 11439MiB |      0%   E. Process |");
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
    let error =
        "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.";
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
    assert!(e.causes[0].facts.iter().any(|f| f.contains("supports CUDA 11.4 at most")), "{:?}", e.causes[0]);
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
    let op = "Node: 'model/conv2d/Conv2D'\nDNN library is not found.\n\t [[{{node model/conv2d/Conv2D}}]]";
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
    let win = "- OS Platform and Distribution: Windows 10\n- TensorFlow version (use command below): 2.1.0\n\
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
    let old = "W asm_compiler.cc:111] *** WARNING *** You are using ptxas 9.2.148, which is older than 11.1.";
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
    let cpu_index =
        format!("Ubuntu 22.04\npip install torch --index-url https://download.pytorch.org/whl/cpu\n{plain}");
    assert_eq!(top(&cpu_index).1, Category::CpuOnlyBuild);
    // conda's CPU build string wins over a CUDA toolkit in the same list
    // (https://github.com/pytorch/pytorch/issues/69202).
    let conda =
        format!("Ubuntu 20.04\npytorch                   1.9.0           py3.8_cpu_0    pytorch\n{plain}");
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
    frames_decide(&own, "/venv/lib/python3.10/site-packages/neuralprophet/forecaster.py", "neuralprophet");
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
    let alone = "RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`";
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
    assert_eq!((e.signature.as_str(), e.causes[0].category), ("loader-cuda-lib-missing", Category::Other));
    assert!(e.causes[0].facts.iter().any(|f| f.contains("cpu_adam.so")), "{:?}", e.causes[0].facts);
    // A CUDA library that is missing is still about the library.
    let cudart = "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory";
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
    let text =
        "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n\nRTX 5060 Ti 16GB, CUDA 12.9";
    assert_eq!(top(text), ("cublas-not-supported".into(), Category::ArchUnsupported));
    let a100 = "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n\nA100 80GB, CUDA 12.9";
    assert_ne!(top(a100).1, Category::ArchUnsupported);
    // A pasted report names its GPU once, in the title, far above the error.
    let filler = "loading the model\n".repeat(30);
    let titled = format!(
        "Faster-Whisper fails on my RTX 5070\n{filler}RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n"
    );
    assert_eq!(top(&titled), ("cublas-not-supported".into(), Category::ArchUnsupported));
    assert_ne!(top(&titled.replace("RTX 5070", "A100")).1, Category::ArchUnsupported);
}

#[test]
fn tensorrt_s_info_lines_about_loading_an_engine_are_not_its_failure() {
    // TensorRT 8 logs every engine load it does (https://github.com/wang-xinyu/tensorrtx/issues/1145,
    // where the process was then killed for memory).
    let info = "[TensorRT] INFO: [MemUsageSnapshot] deserializeCudaEngine begin: CPU 453 MiB, GPU 2255 MiB\n\
                [TensorRT] INFO: [MemUsageSnapshot] deserializeCudaEngine end: CPU 852 MiB, GPU 3128 MiB";
    assert!(!signatures(info).contains(&"tensorrt-engine-deserialize".to_string()), "{:?}", signatures(info));
    let failed = "[08/01/2022-15:41:44] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)";
    assert_eq!(signatures(failed), vec!["tensorrt-engine-deserialize".to_string()]);
}
