//! The same message ranks differently on different machines: causes are weighed by the facts of
//! a `Report` (built here by hand, as `cudoctor check` would fill it).

use cudoctor::explain::{self, Category, Explanation};
use cudoctor::report::{
    CudaToolkit, CudnnInstall, CudnnLayout, Evidence, Fact, Framework, FrameworkKind, Gpu, GpuProcess,
    GpuSource, Origin, PackageManager, Report,
};
use cudoctor::version::{ComputeCapability, CudaVersion, Version};

const CAFFE_CHECK: &str = "F1217 08:19:28.327307  6021 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR";

fn v(s: &str) -> Version {
    s.parse().unwrap()
}

fn explain_with(text: &str, report: Option<&Report>) -> Explanation {
    let result = explain::scan::scan_bytes(text.as_bytes(), explain::table());
    explain::explain(&result, report).into_iter().next().expect("the message is known")
}

fn gpu(name: &str, cc: (u32, u32), total: u64, used: u64, processes: Vec<GpuProcess>) -> Gpu {
    Gpu {
        index: 0,
        name: Some(name.into()),
        compute_capability: Some(ComputeCapability::new(cc.0, cc.1)),
        memory_total_mib: Some(total),
        memory_used_mib: Some(used),
        processes,
        visible: true,
        ..Gpu::default()
    }
}

fn cudnn(dir: &str, version: &str) -> CudnnInstall {
    CudnnInstall {
        lib_dir: dir.into(),
        version: Some(Fact::new(v(version), Evidence::file(format!("{dir}/libcudnn.so")))),
        layout: CudnnLayout::Split,
        libraries: vec!["libcudnn.so.9".into()],
        header: None,
        cuda_major: None,
        origin: Origin::System { manager: PackageManager::Dpkg, package: "libcudnn".into() },
    }
}

fn torch(version: &str, cuda: &str, cudnn: &str) -> Framework {
    Framework {
        kind: FrameworkKind::Torch,
        package: "torch".into(),
        env: "/opt/venv".into(),
        location: "/opt/venv/lib/python3.12/site-packages/torch".into(),
        version: Fact::new(v(version), Evidence::file("torch/version.py")),
        cuda: Some(Fact::new(cuda.parse::<CudaVersion>().unwrap(), Evidence::file("torch/version.py"))),
        cudnn: Some(Fact::new(v(cudnn), Evidence::file("torch/version.py"))),
        build: Some(format!("cu{}", cuda.replace('.', ""))),
        cuda_major: cuda.split('.').next().and_then(|m| m.parse().ok()),
        details: Default::default(),
        linkage: None,
    }
}

/// A driver library of 580.159.04 as the NVIDIA runtime mounts it (/usr/local/nvidia/lib64, the
/// H200's container), listed in the loader's cache or not.
fn mounted_driver_library(name: &str, in_loader_cache: Option<bool>) -> cudoctor::report::DriverLibrary {
    cudoctor::report::DriverLibrary {
        name: name.into(),
        path: format!("/usr/local/nvidia/lib64/{name}.so.580.159.04"),
        version: Some("580.159.04".parse().unwrap()),
        forward_compat: false,
        in_loader_cache,
        origin: Origin::Driver,
        evidence: vec![],
    }
}

fn machine() -> Report {
    let mut r = Report::new("/", true);
    r.gpus.source = GpuSource::Nvml;
    r
}

#[test]
fn without_facts_the_caffe_check_is_named_and_ranked_on_what_the_log_says() {
    // Caffe's convolution set-up creating cuDNN handles per group: a grouped convolution, which
    // the real threads confirm more often than memory when nothing else is known.
    let e = explain_with(CAFFE_CHECK, None);
    assert_eq!(e.signature, "cudnn-internal-error");
    assert_eq!(e.causes[0].category, Category::UserCodeBug);
    assert!(e.causes[0].facts[0].contains("cudnn_conv_layer.cpp:53]"), "{:?}", e.causes[0].facts);
    assert_eq!(e.causes[1].category, Category::Oom);
}

#[test]
fn gpu_memory_held_by_another_process_puts_oom_first_with_the_fact() {
    let mut r = machine();
    let other =
        GpuProcess { pid: 4242, name: Some("python".into()), used_mib: Some(22_000), kind: "compute".into() };
    r.gpus.devices.push(gpu("NVIDIA GeForce RTX 3090", (8, 6), 24_576, 23_100, vec![other]));
    r.cudnn.push(cudnn("/opt/venv/lib/python3.12/site-packages/nvidia/cudnn/lib", "8.9.2"));
    r.frameworks.push(torch("2.1.0", "12.1", "8.9.2"));
    let e = explain_with(CAFFE_CHECK, Some(&r));
    assert_eq!(e.causes[0].category, Category::Oom);
    assert!(e.causes[0].facts.iter().any(|f| f.contains("python (pid 4242)")), "{:?}", e.causes[0].facts);
    assert!(e.causes[0].score > 0.6);
}

#[test]
fn two_cudnn_installs_unlike_torchs_put_the_version_mismatch_first() {
    let mut r = machine();
    r.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 600, vec![]));
    r.cudnn.push(cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0"));
    r.cudnn.push(cudnn("/opt/venv/lib/python3.12/site-packages/nvidia/cudnn/lib", "9.19.0"));
    r.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    r.environment.push(cudoctor::report::EnvVar {
        name: "LD_LIBRARY_PATH".into(),
        value: "/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64".into(),
    });
    let e = explain_with(CAFFE_CHECK, Some(&r));
    assert_eq!(e.causes[0].category, Category::CudnnVersionMismatch, "{:#?}", e.causes);
    assert!(e.causes[0]
        .facts
        .iter()
        .any(|f| f.contains("9.14.0") && f.contains("/usr/lib/x86_64-linux-gnu")));
    // The free H200 lowered out-of-memory below it.
    let oom = e.causes.iter().find(|c| c.category == Category::Oom).unwrap();
    assert!(oom.against.iter().any(|f| f.contains("free now")));
}

#[test]
fn a_cudnn_copy_of_unknown_version_is_not_called_absent_or_alone() {
    let text = "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).";
    let facts = |r: &Report| -> Vec<String> {
        explain_with(text, Some(r))
            .causes
            .iter()
            .flat_map(|c| c.facts.iter().chain(&c.against).cloned())
            .collect()
    };
    let mut r = machine();
    r.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    r.cudnn.push(cudnn("/opt/venv/lib/python3.12/site-packages/nvidia/cudnn/lib", "9.19.0"));
    assert!(facts(&r).iter().any(|f| f.contains("only one cuDNN is installed")));
    // A second copy whose version could not be read (no package, no header).
    let mut unknown = cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0");
    unknown.version = None;
    r.cudnn.push(unknown.clone());
    assert!(!facts(&r).iter().any(|f| f.contains("only one cuDNN")), "{:?}", facts(&r));
    // Only copies of unknown version: not "no cuDNN install was found".
    let mut r = machine();
    r.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    r.cudnn.push(unknown);
    assert!(!facts(&r).iter().any(|f| f.contains("no cuDNN install")), "{:?}", facts(&r));
}

#[test]
fn an_ampere_gpu_with_cudnn_7_puts_arch_unsupported_first() {
    let mut r = machine();
    r.gpus.devices.push(gpu("NVIDIA GeForce RTX 3090", (8, 6), 24_576, 1_000, vec![]));
    r.cudnn.push(cudnn("/usr/local/cuda-10.2/lib64", "7.6.5"));
    let e = explain_with(CAFFE_CHECK, Some(&r));
    assert_eq!(e.causes[0].category, Category::ArchUnsupported, "{:#?}", e.causes);
    assert!(e.causes[0].facts[0].contains("needs cuDNN 8.0.4 or newer; cuDNN 7.6.5"));
}

#[test]
fn an_architecture_the_toolkit_dropped_is_not_argued_away_by_this_machine_s_supported_gpu() {
    // `compute_35` asked of a CUDA 12+ nvcc on an H200: this GPU being supported is beside the
    // point; the same machine's support still counts against an error about its own GPU.
    let mut r = machine();
    r.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 0, vec![]));
    r.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    let supported = |e: &Explanation| {
        let arch = e.causes.iter().find(|c| c.category == Category::ArchUnsupported).unwrap();
        arch.against.iter().any(|a| a.contains("releases support the NVIDIA H200"))
    };
    let dropped = explain_with("nvcc fatal   : Unsupported gpu architecture 'compute_35'", Some(&r));
    assert!(!supported(&dropped), "{:#?}", dropped.causes);
    let own = explain_with("nvcc fatal   : Unsupported gpu architecture 'compute_90'", Some(&r));
    assert!(supported(&own), "{:#?}", own.causes);
    // Its environment cause is TORCH_CUDA_ARCH_LIST / CUDA_HOME: every GPU being visible is no
    // argument against it, as it is against a hidden GPU.
    let visible = |e: &Explanation| {
        let env = e.causes.iter().find(|c| c.category == Category::EnvVarMisconfig).unwrap();
        env.against.iter().any(|a| a.contains("CUDA_VISIBLE_DEVICES is not set"))
    };
    assert!(!visible(&dropped), "{:#?}", dropped.causes);
    assert!(visible(&explain_with("RuntimeError: No CUDA GPUs are available", Some(&r))));
}

#[test]
fn the_driver_decides_between_driver_too_old_and_a_runtime_mismatch() {
    let msg = "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version";
    let mut old = machine();
    old.driver.cuda_supported = Some(Fact::new(CudaVersion::new(11, 4), Evidence::api("cuDriverGetVersion")));
    old.frameworks.push(torch("2.4.0", "12.4", "9.1.0"));
    let e = explain_with(msg, Some(&old));
    assert_eq!(e.causes[0].category, Category::DriverTooOld);
    assert!(e.causes[0].facts[0].contains("supports CUDA 11.4 at most"));

    let mut new = machine();
    new.driver.cuda_supported = Some(Fact::new(CudaVersion::new(13, 0), Evidence::api("cuDriverGetVersion")));
    new.frameworks.push(torch("2.4.0", "12.4", "9.1.0"));
    new.host.containers.push(Fact::new(cudoctor::report::Container::Docker, Evidence::file("/.dockerenv")));
    let e = explain_with(msg, Some(&new));
    assert_ne!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);
    assert_eq!(e.causes[0].category, Category::ContainerRuntime);
}

#[test]
fn a_missing_library_that_exists_elsewhere_is_a_loader_path_problem() {
    use cudoctor::report::{CudaLibrary, LibraryKind};
    let msg = "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory";
    let mut r = machine();
    r.libraries.push(CudaLibrary {
        kind: LibraryKind::Cudnn,
        name: "libcudnn.so.8".into(),
        path: "/anaconda/envs/py38/lib/libcudnn.so.8.0.4".into(),
        links: vec!["/anaconda/envs/py38/lib/libcudnn.so.8".into()],
        version: Some(Fact::new(
            v("8.0.4"),
            Evidence::file_name("/anaconda/envs/py38/lib/libcudnn.so.8.0.4"),
        )),
        origin: Origin::Unknown,
        size: 1,
    });
    let e = explain_with(msg, Some(&r));
    assert_eq!(e.causes[0].category, Category::LibraryNotFound, "{:#?}", e.causes);
    assert!(e.causes[0].facts[0].contains("/anaconda/envs/py38/lib"));
    // Text alone: not installed is the likelier reading.
    assert_eq!(explain_with(msg, None).causes[0].category, Category::CudnnMissing);
}

#[test]
fn another_major_installed_is_named_once_per_directory() {
    use cudoctor::report::{CudaLibrary, LibraryKind};
    let msg = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory";
    let mut r = machine();
    for (dir, file, version) in [
        ("/usr/lib/x86_64-linux-gnu", "libcudnn_ops.so.9.14.0", "9.14.0"),
        ("/usr/lib/x86_64-linux-gnu", "libcudnn_ops.so.9", "9.14.0.64"),
        ("/usr/lib/x86_64-linux-gnu", "libcudnn_cnn.so.9", "9.14.0.64"),
        ("/venv/nvidia/cudnn/lib", "libcudnn.so.9", "9.19.0.56"),
    ] {
        let path = format!("{dir}/{file}");
        r.libraries.push(CudaLibrary {
            kind: LibraryKind::Cudnn,
            name: file.into(),
            path: path.clone(),
            links: vec![],
            version: Some(Fact::new(v(version), Evidence::file_name(path))),
            origin: Origin::Unknown,
            size: 1,
        });
    }
    let e = explain_with(msg, Some(&r));
    let mismatch = e.causes.iter().find(|c| c.category == Category::CudnnVersionMismatch).unwrap();
    let fact = mismatch.facts.iter().find(|f| f.starts_with("the program wants")).unwrap();
    assert!(
        fact.ends_with(
            "this machine has cudnn 9.14.0.64 in /usr/lib/x86_64-linux-gnu (3 files), cudnn 9.19.0.56 in /venv/nvidia/cudnn/lib (1 file)"
        ),
        "{fact}"
    );
}

#[test]
fn a_loaded_kernel_module_argues_only_against_messages_it_did_not_print() {
    // "RmInitAdapter failed" is printed by the loaded module itself: that it is loaded is no
    // argument against a module that does not drive the GPU (the open module on a GeForce it does
    // not support). "Couldn't communicate with the NVIDIA driver" is the message a missing module
    // gives: there, a loaded module counts against that cause.
    let mut r = machine();
    r.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 0, vec![]));
    r.driver.kernel_module = Some(cudoctor::report::KernelModule {
        version: Fact::new("580.95.05".parse().unwrap(), Evidence::file("/sys/module/nvidia/version")),
        flavour: cudoctor::report::ModuleFlavour::Open,
    });
    let loaded_against = |e: &Explanation| {
        let cause = e.causes.iter().find(|c| c.category == Category::DriverNotLoaded).unwrap();
        cause.against.iter().any(|a| a.contains("kernel module 580.95.05 is loaded"))
    };
    let adapter = explain_with("NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)", Some(&r));
    assert_eq!(adapter.causes[0].category, Category::DriverNotLoaded, "{:#?}", adapter.causes);
    assert!(!loaded_against(&adapter));
    let smi = explain_with(
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
        Some(&r),
    );
    assert!(loaded_against(&smi), "{:#?}", smi.causes);
}

#[test]
fn cuda_visible_devices_argues_only_for_causes_about_it() {
    // CUDA_VISIBLE_DEVICES="" hides every GPU: that settles "No CUDA GPUs are available", whose
    // environment cause is that variable, and says nothing of a missing library, whose
    // environment cause is LD_LIBRARY_PATH.
    let mut r = machine();
    r.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 0, vec![]));
    r.gpus.cuda_visible_devices = Some(String::new());
    let named = |e: &Explanation| {
        let env = e.causes.iter().find(|c| c.category == Category::EnvVarMisconfig).unwrap();
        env.facts.iter().chain(&env.against).any(|f| f.contains("CUDA_VISIBLE_DEVICES"))
    };
    let hidden = explain_with("RuntimeError: No CUDA GPUs are available", Some(&r));
    assert_eq!(hidden.causes[0].category, Category::EnvVarMisconfig, "{:#?}", hidden.causes);
    assert!(named(&hidden));
    let missing = explain_with(
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        Some(&r),
    );
    assert!(!named(&missing), "{:#?}", missing.causes);
}

fn toolkit(root: &str, version: &str, nvcc: bool) -> CudaToolkit {
    CudaToolkit {
        root: root.into(),
        version: Some(Fact::new(v(version), Evidence::file(format!("{root}/bin/nvcc")))),
        version_sources: vec![],
        origin: Origin::System { manager: PackageManager::Dpkg, package: "cuda-compiler".into() },
        nvcc: nvcc.then(|| format!("{root}/bin/nvcc")),
        pointed_to_by: vec![],
    }
}

#[test]
fn code_cuda_13_no_longer_compiles_names_this_machine_s_toolkit_and_a_12_beside_it() {
    let msg = "api.cu(4): error: class \"cudaDeviceProp\" has no member \"clockRate\"";
    // On the text alone: the project predates CUDA 13, with no fact about this machine.
    let alone = explain_with(msg, None);
    assert_eq!(alone.causes[0].category, Category::Other);
    assert!(alone.causes[0].facts.is_empty(), "{:#?}", alone.causes[0].facts);
    // With a CUDA 13 toolkit (nvcc) here, and a pip runtime without nvcc: the nvcc one is named
    // (this machine has no GPU, as a build box often has not: a compiler's message needs none).
    let mut r = machine();
    r.cuda.toolkits.push(toolkit("/opt/venv/lib/python3.12/site-packages/nvidia/cu13", "13.0.96", false));
    r.cuda.toolkits.push(toolkit("/usr/local/cuda-13.0", "13.0.88", true));
    let e = explain_with(msg, Some(&r));
    assert_eq!(e.causes[0].category, Category::Other);
    assert!(
        e.causes[0].facts.iter().any(|f| f.contains("/usr/local/cuda-13.0 is 13.0.88")),
        "{:#?}",
        e.causes
    );
    // A 12.x toolkit installed beside it is the fix without a patch, and is said so.
    r.cuda.toolkits.push(toolkit("/usr/local/cuda-12.8", "12.8.93", true));
    let e = explain_with(msg, Some(&r));
    let mismatch = e.causes.iter().find(|c| c.category == Category::CudaRuntimeMismatch).unwrap();
    assert!(
        mismatch.facts.iter().any(|f| f.contains("CUDA 12.8.93 is installed here too")),
        "{:#?}",
        e.causes
    );
    assert!(
        mismatch.score
            > alone.causes.iter().find(|c| c.category == Category::CudaRuntimeMismatch).unwrap().score
    );
}

#[test]
fn nvcc_not_found_is_the_path_where_a_toolkit_is_installed_and_the_toolkit_where_none_is() {
    let msg = "/bin/sh: 1: nvcc: not found\nmake: *** [Makefile:12: obj/kernels.o] Error 127";
    let fact = |e: &Explanation, c: Category, part: &str| {
        e.causes.iter().find(|k| k.category == c).is_some_and(|k| k.facts.iter().any(|f| f.contains(part)))
    };
    // A toolkit with nvcc, off this shell's PATH: the build's PATH (or CUDA_HOME) is what lacks it.
    let mut r = machine();
    r.cuda.toolkits.push(toolkit("/usr/local/cuda-12.4", "12.4.131", true));
    let e = explain_with(msg, Some(&r));
    assert_eq!(e.causes[0].category, Category::EnvVarMisconfig, "{:#?}", e.causes);
    assert!(
        fact(&e, Category::EnvVarMisconfig, "nvcc at /usr/local/cuda-12.4/bin/nvcc (CUDA 12.4.131)"),
        "{:#?}",
        e.causes
    );
    // No toolkit with nvcc at all (a pip runtime only): nothing to point PATH at.
    let mut bare = machine();
    bare.cuda.toolkits.push(toolkit(
        "/opt/venv/lib/python3.12/site-packages/nvidia/cuda_runtime",
        "12.4.127",
        false,
    ));
    let e = explain_with(msg, Some(&bare));
    assert_eq!(e.causes[0].category, Category::LibraryNotFound, "{:#?}", e.causes);
    assert!(fact(&e, Category::LibraryNotFound, "no CUDA toolkit with nvcc"), "{:#?}", e.causes);
    // CMake's message is weighed the same way.
    let cmake = "CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.";
    assert_eq!(explain_with(cmake, Some(&bare)).causes[0].category, Category::LibraryNotFound);
    assert_eq!(explain_with(cmake, Some(&r)).causes[0].category, Category::EnvVarMisconfig);
    // Where this shell finds nvcc, the build ran with another PATH, or (CMake) another CUDACXX.
    let mut on_path = r.clone();
    on_path.cuda.nvcc_on_path = Some(cudoctor::report::PathChain {
        path: "/usr/local/cuda-12.4/bin/nvcc".into(),
        links: vec![],
        target: Some("/usr/local/cuda-12.4/bin/nvcc".into()),
        error: None,
    });
    assert!(fact(
        &explain_with(cmake, Some(&on_path)),
        Category::EnvVarMisconfig,
        "another PATH (sudo, an IDE, a service) or CUDACXX"
    ));
    assert!(fact(&explain_with(msg, Some(&on_path)), Category::EnvVarMisconfig, "or CUDA_HOME"));
    // And PyTorch's extension builder's.
    let torch =
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.";
    assert_eq!(explain_with(torch, Some(&bare)).causes[0].category, Category::LibraryNotFound);
    assert!(fact(
        &explain_with(torch, Some(&r)),
        Category::EnvVarMisconfig,
        "nvcc at /usr/local/cuda-12.4/bin/nvcc"
    ));
    // A build shown running in a container: this host's toolkit is not the image's.
    let docker = format!("$ docker run --rm -it nvidia/cuda:12.4.1-runtime-ubuntu22.04 ./build.sh\n{msg}");
    let e = explain_with(&docker, Some(&r));
    assert!(!fact(&e, Category::EnvVarMisconfig, "this machine has nvcc"), "{:#?}", e.causes);
}

#[test]
fn an_extension_built_with_another_cuda_names_the_toolkit_to_point_cuda_home_at() {
    let msg = "RuntimeError: \nThe detected CUDA version (12.4) mismatches the version that was used to compile\nPyTorch (11.8). Please make sure to use the same CUDA versions.";
    let fact = |e: &Explanation, c: Category, part: &str| {
        e.causes.iter().find(|k| k.category == c).is_some_and(|k| k.facts.iter().any(|f| f.contains(part)))
    };
    // CUDA_HOME leads to 12.4, PyTorch is cu118, and an 11.8 toolkit is installed: point CUDA_HOME at it.
    let mut r = machine();
    r.frameworks.push(torch("2.3.1+cu118", "11.8", "8.7.0"));
    let mut used = toolkit("/usr/local/cuda-12.4", "12.4.131", true);
    used.pointed_to_by.push("$CUDA_HOME".into());
    r.cuda.toolkits.push(used);
    let mut both = r.clone();
    both.cuda.toolkits.push(toolkit("/usr/local/cuda-11.8", "11.8.89", true));
    let e = explain_with(msg, Some(&both));
    assert_eq!(e.causes[0].category, Category::EnvVarMisconfig, "{:#?}", e.causes);
    assert!(fact(&e, Category::EnvVarMisconfig, "export CUDA_HOME=/usr/local/cuda-11.8"), "{:#?}", e.causes);
    assert!(fact(&e, Category::EnvVarMisconfig, "finds CUDA 12.4.131 at /usr/local/cuda-12.4 ($CUDA_HOME)"));
    // Only the 12.4 toolkit: a CUDA 11 toolkit, or PyTorch's build for 12, is what is missing.
    let e = explain_with(msg, Some(&r));
    assert_eq!(e.causes[0].category, Category::CudaRuntimeMismatch, "{:#?}", e.causes);
    assert!(
        fact(&e, Category::CudaRuntimeMismatch, "no CUDA 11 toolkit with nvcc is installed here"),
        "{:#?}",
        e.causes
    );
}

/// A Docker container whose GPU answers from inside: device nodes, NVML and cuDriverGetVersion.
fn working_gpu_container() -> Report {
    let mut r = machine();
    r.host.containers.push(Fact::new(cudoctor::report::Container::Docker, Evidence::file("/.dockerenv")));
    r.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm"]
        .into_iter()
        .map(|path| cudoctor::report::DeviceNode { path: path.into(), accessible: Some(true) })
        .collect();
    r.driver.nvml_version =
        Some(Fact::new("580.95.05".parse().unwrap(), Evidence::api("nvmlSystemGetDriverVersion")));
    r.driver.cuda_supported = Some(Fact::new(CudaVersion::new(13, 0), Evidence::api("cuDriverGetVersion")));
    r
}

#[test]
fn a_container_whose_gpu_answers_is_not_blamed_for_its_plumbing() {
    // On the H200's container the stub-library message put "the container has no driver
    // mounted" forward for being in a container, where NVML and libcuda answered.
    let stub = "failed to initialize CUDA: CUDA driver is a stub library";
    let container = |e: &Explanation| e.causes.iter().position(|c| c.category == Category::ContainerRuntime);
    let here = explain_with(stub, Some(&working_gpu_container()));
    let cause = here.causes.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
    assert!(cause.against.iter().any(|a| a.contains("reaches the GPU")), "{:#?}", here.causes);
    assert!(container(&here) > Some(1), "{:#?}", here.causes);
    // In a container without device nodes the same cause comes first.
    let mut blind = working_gpu_container();
    blind.driver.device_nodes.clear();
    assert_eq!(explain_with(stub, Some(&blind)).causes[0].category, Category::ContainerRuntime);
    // The runtime's own message is the container's wherever it is read.
    let runtime =
        "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].";
    assert_eq!(
        explain_with(runtime, Some(&working_gpu_container())).causes[0].category,
        Category::ContainerRuntime
    );
    // NVML's "Unknown Error" (the cgroup lost the device nodes) is GPU plumbing: where NVML
    // answers now, that is said against it, though it stays the likeliest cause.
    let nvml = explain_with("Failed to initialize NVML: Unknown Error", Some(&working_gpu_container()));
    let cause = nvml.causes.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
    assert!(cause.against.iter().any(|a| a.contains("reaches the GPU")), "{:#?}", nvml.causes);
    // A /dev/shm too small for NCCL is the container's too, and no GPU answering says otherwise.
    // (The GPU nearly free, as the H200's was when this read "though GPU 0 has 140.4 GiB of
    // 140.4 GiB free now" against host memory running out.)
    let mut idle = working_gpu_container();
    idle.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 100, vec![]));
    let shm =
        explain_with("NCCL WARN Error: failed to extend /dev/shm/nccl-abc123 to 9637892 bytes", Some(&idle));
    let cause = shm.causes.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
    assert!(!cause.against.iter().any(|a| a.contains("reaches the GPU")), "{:#?}", shm.causes);
    assert_eq!(shm.causes[0].category, Category::ContainerRuntime, "{:#?}", shm.causes);
    // Its memory cause is the host's: the GPUs' free memory is no fact about it.
    let oom = shm.causes.iter().find(|c| c.category == Category::Oom).unwrap();
    assert!(oom.against.is_empty() && oom.facts.is_empty(), "{oom:#?}");
}

#[test]
fn triton_s_invalid_kernel_image_is_weighed_on_the_driver_not_on_the_framework_s_cuda() {
    let msg = "RuntimeError: Triton Error [CUDA]: device kernel image is invalid";
    // PyTorch 2.1 for CUDA 11.8 runs on a CUDA 11.4 driver, but Triton compiles with its own CUDA
    // 12 ptxas: the driver is too old for Triton (https://github.com/pytorch/pytorch/issues/119054).
    let mut old = machine();
    old.driver.cuda_supported = Some(Fact::new(CudaVersion::new(11, 4), Evidence::api("cuDriverGetVersion")));
    old.frameworks.push(torch("2.1.2", "11.8", "8.7.0"));
    let e = explain_with(msg, Some(&old));
    assert_eq!(e.signature, "triton-kernel-image-invalid");
    assert_eq!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);
    assert!(e.causes[0].facts.iter().any(|f| f.contains("CUDA 12 ptxas")), "{:#?}", e.causes[0]);
    assert!(
        e.causes[0].against.is_empty(),
        "the framework's CUDA 11.8 says nothing here: {:#?}",
        e.causes[0]
    );

    let mut new = machine();
    new.driver.cuda_supported = Some(Fact::new(CudaVersion::new(13, 0), Evidence::api("cuDriverGetVersion")));
    new.frameworks.push(torch("2.11.0", "13.0", "9.15.0"));
    let e = explain_with(msg, Some(&new));
    assert_ne!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);
}

#[test]
fn without_a_live_answer_the_driver_s_cuda_is_read_from_its_kernel_module() {
    // A report from `check --root` or `--no-live` has no cuDriverGetVersion: the loaded module's
    // version, read against the CUDA table, stands in (470 runs CUDA 11.4 at most, 580 CUDA 13.0).
    let module = |v: &str| cudoctor::report::KernelModule {
        version: Fact::new(v.parse().unwrap(), Evidence::file("/proc/driver/nvidia/version")),
        flavour: cudoctor::report::ModuleFlavour::Proprietary,
    };
    let triton = "RuntimeError: Triton Error [CUDA]: device kernel image is invalid";
    let mut old = machine();
    old.driver.kernel_module = Some(module("470.256.02"));
    old.frameworks.push(torch("2.1.2", "11.8", "8.7.0"));
    let e = explain_with(triton, Some(&old));
    assert_eq!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);
    assert!(
        e.causes[0].facts.iter().any(|f| f.contains("kernel module 470.256.02") && f.contains("CUDA 11.4")),
        "{:#?}",
        e.causes[0]
    );

    let mut new = machine();
    new.driver.kernel_module = Some(module("580.159.04"));
    new.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    let e = explain_with(triton, Some(&new));
    assert_ne!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);

    // The same stand-in weighs the framework's CUDA against the driver for any message.
    let mut cu128_on_470 = machine();
    cu128_on_470.driver.kernel_module = Some(module("470.256.02"));
    cu128_on_470.frameworks.push(torch("2.7.0", "12.8", "9.7.1"));
    let e = explain_with(
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        Some(&cu128_on_470),
    );
    let too_old = e.causes.iter().find(|c| c.category == Category::DriverTooOld).unwrap();
    assert!(
        too_old.facts.iter().any(|f| f.contains(
            "PyTorch 2.7.0 needs CUDA 12.8; the driver (kernel module 470.256.02) supports CUDA 11.4 at most"
        )),
        "{:#?}",
        too_old
    );
}

#[test]
fn the_same_invalid_kernel_image_reads_as_a_missing_architecture_from_tensorflow_s_start_up() {
    let tf = "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid";
    assert_eq!(explain_with(tf, None).causes[0].category, Category::ArchUnsupported);
    // Elsewhere (llama.cpp, ollama) the code is most often newer than the driver.
    let ggml = "CUDA error: device kernel image is invalid\n  current device: 0, in function ggml_cuda_compute_forward";
    assert_eq!(explain_with(ggml, None).causes[0].category, Category::DriverTooOld);
}

#[test]
fn nvenc_s_missing_library_in_a_container_is_read_on_its_driver_capabilities() {
    use cudoctor::report::{Container, DeviceNode, EnvVar};
    let msg = "[h264_nvenc @ 0x5581d0] Cannot load libnvidia-encode.so.1";
    let in_docker = |caps: &str| {
        let mut r = machine();
        r.host.containers.push(Fact::new(Container::Docker, Evidence::file("/.dockerenv")));
        r.driver.device_nodes.push(DeviceNode { path: "/dev/nvidia0".into(), accessible: Some(true) });
        r.environment.push(EnvVar { name: "NVIDIA_DRIVER_CAPABILITIES".into(), value: caps.into() });
        r
    };
    // The H200's container: no `video`, so no libnvidia-encode mounted.
    let e = explain_with(msg, Some(&in_docker("compute,graphics,utility")));
    assert_eq!(e.signature, "video-library-missing");
    assert_eq!(e.causes[0].category, Category::ContainerRuntime, "{:#?}", e.causes);
    assert!(e.causes[0].facts.iter().any(|f| f.contains("leaves out video")), "{:#?}", e.causes[0]);

    let e = explain_with(msg, Some(&in_docker("all")));
    assert_ne!(e.causes[0].category, Category::ContainerRuntime, "{:#?}", e.causes);

    // The library itself on the machine outweighs the variable (the H200's container has it in
    // /usr/local/nvidia/lib64 though its capabilities leave out video).
    let mut has_it = in_docker("compute,graphics,utility");
    has_it.driver.libraries.push(mounted_driver_library("libnvidia-encode", None));
    let e = explain_with(msg, Some(&has_it));
    assert_eq!(e.causes[0].category, Category::LibraryNotFound, "{:#?}", e.causes);
    assert!(e.causes[0].facts[0].contains("/usr/local/nvidia/lib64"), "{:#?}", e.causes[0]);
    // Whether the loader's cache lists it says where to look: listed, the failing program searches
    // elsewhere (a sandbox); not listed, only LD_LIBRARY_PATH would find it.
    has_it.driver.libraries[0].in_loader_cache = Some(true);
    let e = explain_with(msg, Some(&has_it));
    assert!(e.causes[0].facts[0].contains("is in the loader's cache here"), "{:#?}", e.causes[0]);
    has_it.driver.libraries[0].in_loader_cache = Some(false);
    let e = explain_with(msg, Some(&has_it));
    assert_eq!(e.causes[0].category, Category::LibraryNotFound, "{:#?}", e.causes);
    assert!(
        e.causes[0].facts[0].contains("add /usr/local/nvidia/lib64 to /etc/ld.so.conf.d"),
        "{:#?}",
        e.causes[0]
    );
    has_it.driver.libraries[0].in_loader_cache = None;

    // NVDEC's library is weighed on itself: libnvidia-encode being there says nothing of
    // libnvcuvid (FFmpeg's decoder: https://github.com/NVIDIA/nvidia-docker/issues/1001).
    let nvdec = "ffmpeg -hwaccel cuda -c:v hevc_cuvid: libnvcuvid.so.1: cannot open shared object file";
    let e = explain_with(nvdec, Some(&has_it));
    assert_eq!(e.signature, "video-library-missing");
    assert_eq!(e.causes[0].category, Category::ContainerRuntime, "{:#?}", e.causes);
    assert!(e.causes[0].facts.iter().any(|f| f.contains("did not mount libnvcuvid")), "{:#?}", e.causes[0]);
    // Frigate's wording, without a machine: the container first, as the signature's prior.
    let frigate = "When attempting to enable Nvidia acceleration, I get the error that libnvcuvid.so.1 cannot be loaded";
    let e = explain_with(frigate, None);
    assert_eq!(e.signature, "video-library-missing");
    assert_eq!(e.causes[0].category, Category::ContainerRuntime, "{:#?}", e.causes);
}

#[test]
fn libcuda_missing_inside_a_container_that_holds_it_is_not_the_container_s_plumbing() {
    use cudoctor::report::{Container, DeviceNode};
    let msg = "OSError: libcuda.so.1: cannot open shared object file: No such file or directory";
    let container = |listed: Option<bool>| {
        let mut r = machine();
        r.host.containers.push(Fact::new(Container::Docker, Evidence::file("/.dockerenv")));
        r.driver.device_nodes.push(DeviceNode { path: "/dev/nvidia0".into(), accessible: Some(true) });
        r.driver.libraries.push(mounted_driver_library("libcuda", listed));
        r
    };
    // The H200's container: libcuda mounted and in ldconfig -p.
    let e = explain_with(msg, Some(&container(Some(true))));
    assert_eq!(e.signature, "loader-libcuda-missing");
    assert_eq!(e.causes[0].category, Category::LibraryNotFound, "{:#?}", e.causes);
    assert!(
        e.causes[0].facts.iter().any(|f| f.contains("is in the loader's cache here")),
        "{:#?}",
        e.causes[0]
    );
    // Without the cache's word the container stays the usual reading.
    let e = explain_with(msg, Some(&container(None)));
    assert_eq!(e.causes[0].category, Category::ContainerRuntime, "{:#?}", e.causes);
    // nvidia-smi not finding NVML's library is weighed on libnvidia-ml, not libcuda.
    let smi = "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.";
    let mut with_nvml = container(Some(true));
    let e = explain_with(smi, Some(&with_nvml));
    assert_eq!(e.signature, "nvidia-smi-no-libnvidia-ml");
    assert!(!e.causes.iter().flat_map(|c| &c.facts).any(|f| f.contains("loader's cache")), "{:#?}", e.causes);
    with_nvml.driver.libraries[0].name = "libnvidia-ml".into();
    with_nvml.driver.libraries[0].path = "/usr/local/nvidia/lib64/libnvidia-ml.so.580.159.04".into();
    let e = explain_with(smi, Some(&with_nvml));
    let container_cause = e.causes.iter().find(|c| c.category == Category::ContainerRuntime).unwrap();
    assert!(
        container_cause.against.iter().any(|a| a.contains("libnvidia-ml.so.580.159.04")),
        "{:#?}",
        e.causes
    );
}

#[test]
fn an_invalid_device_ordinal_on_a_mig_gpu_is_the_visible_devices_setting() {
    let msg = "RuntimeError: CUDA error: invalid device ordinal";
    // A plain machine: the hard-coded index is the usual cause.
    assert_eq!(explain_with(msg, Some(&machine())).causes[0].category, Category::UserCodeBug);
    // An A100 in MIG mode: a process sees one instance, the one CUDA_VISIBLE_DEVICES names.
    let mut mig = machine();
    let mut a100 = gpu("NVIDIA A100-SXM4-80GB", (8, 0), 81920, 0, vec![]);
    a100.mig_enabled = Some(true);
    mig.gpus.devices.push(a100);
    let e = explain_with(msg, Some(&mig));
    assert_eq!(e.causes[0].category, Category::EnvVarMisconfig, "{:#?}", e.causes);
    assert!(e.causes[0].facts.iter().any(|f| f.contains("MIG mode")), "{:#?}", e.causes[0]);
    // Without a machine, the log has to name MIG.
    let log = format!("CUDA_VISIBLE_DEVICES=MIG-4b5e6f7a-1111-2222-3333-444455556666\n{msg}");
    assert_eq!(explain_with(&log, None).causes[0].category, Category::EnvVarMisconfig);
}

#[test]
fn nvenc_s_out_of_memory_is_the_session_cap_unless_the_gpu_s_memory_is_full() {
    // NVENC's status 10 is what GeForce drivers return past their cap on simultaneous encode
    // sessions, with GPU memory to spare (NvPipe#81: 27% in use); the message's own "out of
    // memory" is no user's word that memory ran out.
    let msg = "[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)";
    let alone = explain_with(msg, None);
    assert_eq!(alone.signature, "nvenc-session-limit");
    assert_eq!(alone.causes[0].category, Category::Other, "{:#?}", alone.causes);
    assert!(alone.causes[0].fix.contains("fewer encodes"), "{}", alone.causes[0].fix);
    // On a machine whose GPU memory is nearly all held, memory comes first.
    let mut full = machine();
    full.gpus.devices.push(gpu("NVIDIA GeForce RTX 3060", (8, 6), 12_288, 11_900, vec![]));
    let here = explain_with(msg, Some(&full));
    assert_eq!(here.causes[0].category, Category::Oom, "{:#?}", here.causes);
    assert!(here.causes[0].facts.iter().any(|f| f.contains("in use now")), "{:#?}", here.causes);
}

#[test]
fn every_gpu_visible_is_not_said_against_a_model_spread_over_them() {
    // "Several GPUs visible" is the cause for tensors on two GPUs; CUDA_VISIBLE_DEVICES unset on
    // a two-GPU machine is that cause's condition, not a fact against it.
    let msg = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!";
    let mut two = machine();
    two.gpus.devices.push(gpu("NVIDIA GeForce RTX 3090", (8, 6), 24_576, 9_000, vec![]));
    two.gpus.devices.push(Gpu { index: 1, ..gpu("NVIDIA GeForce RTX 3090", (8, 6), 24_576, 9_000, vec![]) });
    let e = explain_with(msg, Some(&two));
    let env = e.causes.iter().find(|c| c.category == Category::EnvVarMisconfig).unwrap();
    assert!(env.against.iter().all(|a| !a.contains("CUDA_VISIBLE_DEVICES")), "{env:#?}");
    assert_eq!(e.causes[1].category, Category::EnvVarMisconfig, "{:#?}", e.causes);
}

#[test]
fn nvenc_s_minimum_driver_is_weighed_on_this_machine_s_driver() {
    // FFmpeg prints the oldest driver its NVENC API needs; the machine's kernel module says
    // whether this driver is it.
    let log = "[h264_nvenc @ 0x55d] Driver does not support the required nvenc API version. Required: 12.1 Found: 12.0\n\
               [h264_nvenc @ 0x55d] The minimum required Nvidia driver for nvenc is 530.41.03 or newer\n";
    let module = |v: &str, flavour| cudoctor::report::KernelModule {
        version: Fact::new(v.parse().unwrap(), Evidence::file("/proc/driver/nvidia/version")),
        flavour,
    };
    let alone = explain_with(log, None);
    assert_eq!(alone.signature, "nvenc-driver-too-old");
    assert_eq!(alone.causes[0].category, Category::DriverTooOld, "{:#?}", alone.causes);

    let mut old = machine();
    old.driver.kernel_module = Some(module("470.256.02", cudoctor::report::ModuleFlavour::Proprietary));
    let e = explain_with(log, Some(&old));
    assert!(
        e.causes[0].facts.iter().any(|f| f.contains("470.256.02 is older than the 530.41.03")),
        "{:#?}",
        e.causes
    );
    assert!(e.causes[0].score > alone.causes[0].score);

    let mut new = machine();
    new.driver.kernel_module = Some(module("580.159.04", cudoctor::report::ModuleFlavour::Open));
    new.frameworks.push(torch("2.11.0", "13.0", "9.19.0"));
    let e = explain_with(log, Some(&new));
    let too_old = e.causes.iter().find(|c| c.category == Category::DriverTooOld).unwrap();
    assert!(
        too_old.against.iter().any(|f| f.contains("580.159.04 is at least the 530.41.03")),
        "{too_old:#?}"
    );
    assert!(too_old.score < alone.causes[0].score);
    // FFmpeg's message says nothing of the CUDA this machine's PyTorch needs (found on the H200:
    // "though the driver supports CUDA 13.0, enough for PyTorch 2.11.0+cu130").
    assert!(too_old.against.iter().chain(&too_old.facts).all(|f| !f.contains("PyTorch")), "{too_old:#?}");
    assert_eq!(e.causes[0].category, Category::DriverTooOld, "{:#?}", e.causes);

    // NVENC's session status under the open modules: only the proprietary module says against
    // that cause; "a kernel module is loaded" says nothing of it.
    let session = "[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)";
    let open = explain_with(session, Some(&new));
    let cause =
        |e: &Explanation| e.causes.iter().find(|c| c.category == Category::DriverNotLoaded).unwrap().clone();
    assert!(cause(&open).against.is_empty(), "{:#?}", cause(&open));
    let proprietary = explain_with(session, Some(&old));
    assert!(
        cause(&proprietary).against.iter().any(|f| f.contains("proprietary")),
        "{:#?}",
        cause(&proprietary)
    );
    assert!(cause(&proprietary).score < cause(&open).score);
}

#[test]
fn a_gpu_without_nvenc_is_not_argued_with_its_cuda_support() {
    // FFmpeg's "No capable devices found": the GPU has no NVENC (an MX card, a mining card)
    // or not for that codec; that CUDA and cuDNN support the GPU says nothing of it (found on
    // the H200). A CUDA error still gets that fact.
    let mut h200 = machine();
    h200.gpus.devices.push(gpu("NVIDIA H200", (9, 0), 143_771, 0, vec![]));
    h200.cudnn.push(cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0"));
    let arch = |text: &str| {
        let result = explain::scan::scan_bytes(text.as_bytes(), explain::table());
        let e = explain::explain(&result, Some(&h200)).into_iter().next().expect("an answer");
        e.causes.into_iter().find(|c| c.category == Category::ArchUnsupported).expect("an arch cause")
    };
    let nvenc =
        arch("HandBrake cannot start NVENC\n[hevc_nvenc @ 0x7f2f345b1780] No capable devices found\n");
    assert!(nvenc.against.iter().all(|f| !f.contains("support the NVIDIA H200")), "{nvenc:#?}");
    let cuda = arch("RuntimeError: CUDA error: no kernel image is available for execution on the device");
    assert!(cuda.against.iter().any(|f| f.contains("support the NVIDIA H200")), "{cuda:#?}");
}

#[test]
fn nvenc_s_out_of_memory_with_sessions_open_is_the_session_cap() {
    // Encode sessions open now (NVML's encoder statistics) make the cap on simultaneous sessions
    // the likelier reading of NVENC's status 10.
    let session = "[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)";
    let with = |sessions: Option<u32>| {
        let mut m = machine();
        m.gpus.devices.push(Gpu {
            encoder_sessions: sessions,
            ..gpu("NVIDIA GeForce RTX 3060", (8, 6), 12_288, 2_000, vec![])
        });
        m
    };
    let busy = explain_with(session, Some(&with(Some(3))));
    assert_eq!(busy.causes[0].category, Category::Other);
    assert!(busy.causes[0].facts.iter().any(|f| f.contains("GPU 0 has 3 open")), "{:#?}", busy.causes[0]);
    let idle = explain_with(session, Some(&with(Some(0))));
    assert!(idle.causes[0].facts.iter().all(|f| !f.contains("encode sessions")), "{:#?}", idle.causes[0]);
    assert!(idle.causes[0].score < busy.causes[0].score);
}
