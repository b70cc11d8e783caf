//! `cudoctor::probe::check` on the fixtures built from real packages (see each fixture's FACTS.md
//! and tests/fixtures/README.md): Debian's own CUDA 11.8 and driver 535 packages, a pip venv
//! with PyPI's torch 2.7.1 for CUDA 12.6 on Ubuntu 22.04, a venv with JAX, CuPy and ONNX Runtime
//! GPU on the cu12 wheels pip resolved for them, Debian's CPU-only torch next to Debian's CUDA, and
//! an arm64 machine with no NVIDIA anything. Every assertion is a fact read from the packages themselves. Facts the probes do
//! not report yet are `#[ignore]`d tests naming what is missing.

use cudoctor::report::{
    CudaLibrary, CudnnLayout, Evidence, FrameworkKind, LibraryKind, ModuleFlavour, Origin, PackageManager,
    PythonEnvKind, Report,
};
use cudoctor::system::System;
use fs_err as fs;
use std::path::Path;
use std::process::Command;

fn fixture_dir(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn report(name: &str) -> Report {
    let dir = fixture_dir(name);
    let env = cudoctor::cli::parse_env_file(&fs::read_to_string(format!("{dir}/env")).unwrap());
    cudoctor::probe::check(&System::at_root(format!("{dir}/root"), env))
}

fn libs(r: &Report, kind: LibraryKind) -> Vec<&CudaLibrary> {
    r.libraries.iter().filter(|l| l.kind == kind).collect()
}

fn dpkg_origin(origin: &Origin, name: &str) -> bool {
    matches!(origin, Origin::System { manager: PackageManager::Dpkg, package } if package == name)
}

fn pip_origin(origin: &Origin, name: &str, prefix: &str) -> bool {
    matches!(origin, Origin::Pip { package, env } if package == name && env == prefix)
}

// ---------------------------------------------------------------------------------------------
// debian-toolkit-driver: Debian 12, nvidia-cuda-toolkit 11.8.89~11.8.0-5~deb12u1, driver 535.309.01
// ---------------------------------------------------------------------------------------------

const DEBIAN: &str = "debian-toolkit-driver";

#[test]
fn debian_host_is_debian_12_on_x86_64_with_its_dpkg_database() {
    let r = report(DEBIAN);
    assert_eq!(r.host.os_id.as_deref(), Some("debian"));
    assert_eq!(r.host.os_version.as_deref(), Some("12"));
    assert_eq!(r.host.os.as_ref().unwrap().value, "Debian GNU/Linux 12 (bookworm)");
    assert_eq!(r.host.arch.as_ref().unwrap().value, "x86_64");
    let dpkg = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Dpkg).expect("dpkg");
    assert_eq!(dpkg.path, "/var/lib/dpkg/status");
    assert_eq!(dpkg.packages, 48);
    let tk = dpkg.gpu_packages.iter().find(|p| p.name == "nvidia-cuda-toolkit").expect("nvidia-cuda-toolkit");
    assert_eq!(tk.version, "11.8.89~11.8.0-5~deb12u1");
    assert_eq!(tk.upstream_version.as_ref().unwrap().to_string(), "11.8.89");
    let cuda1 = dpkg.gpu_packages.iter().find(|p| p.name == "libcuda1").expect("libcuda1");
    assert_eq!(cuda1.upstream_version.as_ref().unwrap().to_string(), "535.309.01");
    assert!(r.host.python_envs.is_empty());
}

#[test]
fn debian_glibc_is_2_36() {
    let r = report(DEBIAN);
    assert_eq!(r.host.glibc.as_ref().expect("glibc").value.to_string(), "2.36");
}

#[test]
fn debian_kernel_module_is_the_proprietary_535_309_01() {
    let r = report(DEBIAN);
    let module = r.driver.kernel_module.as_ref().expect("kernel module");
    assert_eq!(module.version.value.to_string(), "535.309.01");
    assert_eq!(module.flavour, ModuleFlavour::Proprietary);
    assert_eq!(module.version.evidence[0], Evidence::file("/proc/driver/nvidia/version"));
}

#[test]
fn debian_driver_libraries_are_535_309_01_from_dpkg() {
    let r = report(DEBIAN);
    let cuda = r.driver.libraries.iter().find(|l| l.name == "libcuda").expect("libcuda");
    assert_eq!(cuda.path, "/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01");
    assert_eq!(cuda.version.as_ref().unwrap().to_string(), "535.309.01");
    assert!(!cuda.forward_compat);
    assert!(dpkg_origin(&cuda.origin, "libcuda1"), "{:?}", cuda.origin);
    let nvml = r.driver.libraries.iter().find(|l| l.name == "libnvidia-ml").expect("libnvidia-ml");
    assert_eq!(nvml.path, "/usr/lib/x86_64-linux-gnu/nvidia/current/libnvidia-ml.so.535.309.01");
    assert!(dpkg_origin(&nvml.origin, "libnvidia-ml1"), "{:?}", nvml.origin);
}

#[test]
fn debian_toolkit_is_11_8_in_nvidia_cuda_toolkit_owned_by_dpkg() {
    let r = report(DEBIAN);
    assert_eq!(r.cuda.toolkits.len(), 1, "{:#?}", r.cuda.toolkits);
    let tk = &r.cuda.toolkits[0];
    assert_eq!(tk.root, "/usr/lib/nvidia-cuda-toolkit");
    assert!(dpkg_origin(&tk.origin, "nvidia-cuda-toolkit"), "{:?}", tk.origin);
    assert_eq!(tk.nvcc.as_deref(), Some("/usr/bin/nvcc"));
    assert!(tk.pointed_to_by.iter().any(|p| p == "nvcc on PATH"), "{:?}", tk.pointed_to_by);
    let v = &tk.version.as_ref().expect("a version").value;
    assert_eq!((v.major(), v.minor()), (11, 8));
    // cuda.h says 11080, the package 11.8.89: both among the sources.
    let sources: Vec<String> = tk.version_sources.iter().map(|s| s.value.to_string()).collect();
    assert!(sources.iter().any(|s| s == "11.8"), "{sources:?}");
    assert!(sources.iter().any(|s| s == "11.8.89"), "{sources:?}");
    // No /usr/local/cuda, no CUDA_HOME on this machine.
    assert!(r.cuda.usr_local_cuda.is_none());
    assert!(r.cuda.cuda_home.is_none());
    assert_eq!(r.cuda.nvcc_on_path.as_ref().unwrap().target.as_deref(), Some("/usr/bin/nvcc"));
}

#[test]
fn debian_toolkit_version_is_11_8_89_and_no_source_says_11_0() {
    let r = report(DEBIAN);
    let tk = &r.cuda.toolkits[0];
    assert_eq!(tk.version.as_ref().unwrap().value.to_string(), "11.8.89");
    assert!(tk.version_sources.iter().all(|s| s.value.to_string() != "11.0"), "{:#?}", tk.version_sources);
}

#[test]
fn debian_cuda_libraries_have_their_package_versions_and_owners() {
    let r = report(DEBIAN);
    let expected = [
        (LibraryKind::Cudart, "libcudart.so.11.8.89", "11.8.89", "libcudart11.0"),
        (LibraryKind::Cublas, "libcublas.so.11.11.3.6", "11.11.3.6", "libcublas11"),
        (LibraryKind::CublasLt, "libcublasLt.so.11.11.3.6", "11.11.3.6", "libcublaslt11"),
        (LibraryKind::Cufft, "libcufft.so.10.9.0.58", "10.9.0.58", "libcufft10"),
        (LibraryKind::Curand, "libcurand.so.10.3.0.86", "10.3.0.86", "libcurand10"),
        (LibraryKind::Cusolver, "libcusolver.so.11.4.1.48", "11.4.1.48", "libcusolver11"),
        (LibraryKind::Cusparse, "libcusparse.so.11.7.5.86", "11.7.5.86", "libcusparse11"),
        (LibraryKind::Nvrtc, "libnvrtc.so.11.8.89", "11.8.89", "libnvrtc11.2"),
    ];
    for (kind, file, version, package) in expected {
        let found = libs(&r, kind);
        assert_eq!(found.len(), 1, "{kind:?}: {found:#?}");
        let lib = found[0];
        assert_eq!(lib.path, format!("/usr/lib/x86_64-linux-gnu/{file}"));
        assert_eq!(lib.version.as_ref().unwrap().value.to_string(), version, "{kind:?}");
        assert!(dpkg_origin(&lib.origin, package), "{kind:?}: {:?}", lib.origin);
        assert_eq!(lib.size, 0, "placeholders");
    }
    let cupti = libs(&r, LibraryKind::Cupti);
    assert_eq!(cupti.len(), 1);
    assert_eq!(cupti[0].path, "/usr/lib/x86_64-linux-gnu/libcupti.so.2022.3.0");
    assert!(dpkg_origin(&cupti[0].origin, "libcupti11.8"));
    // CUDA 11.8 has no nvJitLink; Debian ships no cuDNN or NCCL here.
    assert!(libs(&r, LibraryKind::NvJitLink).is_empty());
    assert!(libs(&r, LibraryKind::Cudnn).is_empty());
    assert!(libs(&r, LibraryKind::Nccl).is_empty());
}

#[test]
fn debian_has_no_cudnn_no_framework_no_gpu() {
    let r = report(DEBIAN);
    assert!(r.cudnn.is_empty(), "{:#?}", r.cudnn);
    assert!(r.frameworks.is_empty());
    assert!(r.gpus.devices.is_empty());
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

// ---------------------------------------------------------------------------------------------
// pip-torch-cu126: Ubuntu 22.04, libnvidia-compute-580, venv with torch 2.7.1 + nvidia-*-cu12
// ---------------------------------------------------------------------------------------------

const PIP: &str = "pip-torch-cu126";
const VENV: &str = "/home/ubuntu/venv";
const PIP_SITE: &str = "/home/ubuntu/venv/lib/python3.11/site-packages";

#[test]
fn pip_host_is_ubuntu_22_04_with_one_active_venv() {
    let r = report(PIP);
    assert_eq!(r.host.os_id.as_deref(), Some("ubuntu"));
    assert_eq!(r.host.os_version.as_deref(), Some("22.04"));
    assert_eq!(r.host.os.as_ref().unwrap().value, "Ubuntu 22.04.5 LTS");
    assert_eq!(r.host.python_envs.len(), 1, "{:#?}", r.host.python_envs);
    let venv = &r.host.python_envs[0];
    assert_eq!(venv.prefix, VENV);
    assert_eq!(venv.kind, PythonEnvKind::Venv);
    assert!(venv.active);
    assert_eq!(venv.python_version.as_ref().unwrap().to_string(), "3.11.7");
    assert_eq!(venv.site_packages, [PIP_SITE]);
    assert_eq!(venv.home.as_deref(), Some("/usr/bin"));
    let pip = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Pip).expect("pip db");
    assert_eq!(pip.path, PIP_SITE);
    assert_eq!(pip.packages, 15);
}

#[test]
fn pip_driver_is_580_178_04_with_ubuntus_libraries() {
    let r = report(PIP);
    let module = r.driver.kernel_module.as_ref().expect("kernel module");
    assert_eq!(module.version.value.to_string(), "580.178.04");
    assert_eq!(module.flavour, ModuleFlavour::Proprietary);
    let cuda = r.driver.libraries.iter().find(|l| l.name == "libcuda").expect("libcuda");
    assert_eq!(cuda.path, "/usr/lib/x86_64-linux-gnu/libcuda.so.580.178.04");
    assert_eq!(cuda.version.as_ref().unwrap().to_string(), "580.178.04");
    assert!(!cuda.forward_compat);
    let nvml = r.driver.libraries.iter().find(|l| l.name == "libnvidia-ml").expect("libnvidia-ml");
    assert_eq!(nvml.path, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.178.04");
}

#[test]
fn pip_driver_libraries_are_owned_by_libnvidia_compute_580() {
    let r = report(PIP);
    let cuda = r.driver.libraries.iter().find(|l| l.name == "libcuda").expect("libcuda");
    assert!(dpkg_origin(&cuda.origin, "libnvidia-compute-580"), "{:?}", cuda.origin);
}

#[test]
fn pip_no_compiler_toolkit_only_the_runtime_wheel() {
    let r = report(PIP);
    // No nvcc anywhere, nothing in /usr/local; the runtime wheel (cuda.h + libcudart) is listed as
    // a toolkit of its own, owned by its wheel.
    assert!(r.cuda.toolkits.iter().all(|t| t.nvcc.is_none()), "{:#?}", r.cuda.toolkits);
    assert!(r.cuda.nvcc_on_path.is_none());
    assert!(r.cuda.usr_local_cuda.is_none());
    for tk in &r.cuda.toolkits {
        assert_eq!(tk.root, format!("{PIP_SITE}/nvidia/cuda_runtime"));
        assert!(pip_origin(&tk.origin, "nvidia-cuda-runtime-cu12", VENV), "{:?}", tk.origin);
        let v = &tk.version.as_ref().unwrap().value;
        assert_eq!((v.major(), v.minor()), (12, 6));
    }
}

#[test]
fn pip_cuda_libraries_are_the_pinned_wheels() {
    let r = report(PIP);
    let expected = [
        (
            LibraryKind::Cudart,
            "nvidia/cuda_runtime/lib/libcudart.so.12",
            "12.6.77",
            "nvidia-cuda-runtime-cu12",
        ),
        (LibraryKind::Cublas, "nvidia/cublas/lib/libcublas.so.12", "12.6.4.1", "nvidia-cublas-cu12"),
        (LibraryKind::CublasLt, "nvidia/cublas/lib/libcublasLt.so.12", "12.6.4.1", "nvidia-cublas-cu12"),
        (LibraryKind::Nccl, "nvidia/nccl/lib/libnccl.so.2", "2.26.2", "nvidia-nccl-cu12"),
        (LibraryKind::Nvrtc, "nvidia/cuda_nvrtc/lib/libnvrtc.so.12", "12.6.77", "nvidia-cuda-nvrtc-cu12"),
        (LibraryKind::Cufft, "nvidia/cufft/lib/libcufft.so.11", "11.3.0.4", "nvidia-cufft-cu12"),
        (LibraryKind::Curand, "nvidia/curand/lib/libcurand.so.10", "10.3.7.77", "nvidia-curand-cu12"),
        (LibraryKind::Cusolver, "nvidia/cusolver/lib/libcusolver.so.11", "11.7.1.2", "nvidia-cusolver-cu12"),
        (LibraryKind::Cusparse, "nvidia/cusparse/lib/libcusparse.so.12", "12.5.4.2", "nvidia-cusparse-cu12"),
        (
            LibraryKind::NvJitLink,
            "nvidia/nvjitlink/lib/libnvJitLink.so.12",
            "12.6.85",
            "nvidia-nvjitlink-cu12",
        ),
        (LibraryKind::Cupti, "nvidia/cuda_cupti/lib/libcupti.so.12", "12.6.80", "nvidia-cuda-cupti-cu12"),
    ];
    for (kind, file, version, package) in expected {
        let found = libs(&r, kind);
        assert_eq!(found.len(), 1, "{kind:?}: {found:#?}");
        let lib = found[0];
        assert_eq!(lib.path, format!("{PIP_SITE}/{file}"));
        let v = lib.version.as_ref().unwrap();
        assert_eq!(v.value.to_string(), version, "{kind:?}");
        assert!(
            v.evidence.iter().any(|e| matches!(e, Evidence::Package { manager: PackageManager::Pip, package: p, .. } if p == package)),
            "{kind:?}: {:?}",
            v.evidence
        );
        assert!(pip_origin(&lib.origin, package, VENV), "{kind:?}: {:?}", lib.origin);
    }
    // Nothing of CUDA outside the venv (the driver's libraries are not CUDA libraries).
    assert!(r.libraries.iter().all(|l| l.path.starts_with(PIP_SITE)), "{:#?}", r.libraries);
}

#[test]
fn pip_one_cudnn_9_5_1_from_the_wheel_for_cuda_12() {
    let r = report(PIP);
    assert_eq!(r.cudnn.len(), 1, "{:#?}", r.cudnn);
    let c = &r.cudnn[0];
    assert_eq!(c.lib_dir, format!("{PIP_SITE}/nvidia/cudnn/lib"));
    assert_eq!(c.version.as_ref().unwrap().value.to_string(), "9.5.1");
    assert_eq!(
        c.header.as_deref(),
        Some(format!("{PIP_SITE}/nvidia/cudnn/include/cudnn_version.h").as_str())
    );
    assert_eq!(c.layout, CudnnLayout::Split);
    assert_eq!(c.cuda_major, Some(12));
    assert!(pip_origin(&c.origin, "nvidia-cudnn-cu12", VENV), "{:?}", c.origin);
    for sub in [
        "libcudnn.so.9",
        "libcudnn_graph.so.9",
        "libcudnn_engines_precompiled.so.9",
        "libcudnn_engines_runtime_compiled.so.9",
        "libcudnn_heuristic.so.9",
        "libcudnn_ops.so.9",
        "libcudnn_cnn.so.9",
        "libcudnn_adv.so.9",
    ] {
        assert!(c.libraries.iter().any(|l| l == sub), "{sub} in {:?}", c.libraries);
    }
}

#[test]
fn pip_torch_is_2_7_1_built_for_cuda_12_6() {
    let r = report(PIP);
    assert_eq!(r.frameworks.len(), 1, "{:#?}", r.frameworks);
    let t = &r.frameworks[0];
    assert_eq!(t.kind, FrameworkKind::Torch);
    assert_eq!(t.package, "torch");
    assert_eq!(t.env, VENV);
    assert_eq!(t.location, format!("{PIP_SITE}/torch"));
    assert_eq!(t.version.value.to_string(), "2.7.1+cu126");
    assert_eq!(
        t.version.evidence[0],
        Evidence::file_detail(format!("{PIP_SITE}/torch/version.py"), "__version__")
    );
    assert_eq!(t.cuda.as_ref().unwrap().value.to_string(), "12.6");
    assert_eq!(t.build.as_deref(), Some("cu126"));
    assert_eq!(
        t.details.get("git_version").map(String::as_str),
        Some("e2d141dbde55c2a4370fac5165b0561b6af4798b")
    );
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

#[test]
fn pip_torch_is_built_for_cudnn_9_5_1() {
    let r = report(PIP);
    let t = &r.frameworks[0];
    let cudnn = t.cudnn.as_ref().expect("torch's cuDNN");
    assert_eq!(cudnn.value.truncated(3).to_string(), "9.5.1");
    assert!(
        cudnn.evidence.iter().any(|e| matches!(e, Evidence::Package { manager: PackageManager::Pip, package, .. } if package == "torch")),
        "{:?}",
        cudnn.evidence
    );
}

// ---------------------------------------------------------------------------------------------
// no-gpu: Debian 12 arm64, no NVIDIA anything, venv with torch 2.7.1+cpu
// ---------------------------------------------------------------------------------------------

const NO_GPU: &str = "no-gpu";

#[test]
fn no_gpu_machine_has_nothing_of_nvidia() {
    let r = report(NO_GPU);
    assert_eq!(r.host.os_id.as_deref(), Some("debian"));
    assert_eq!(r.host.arch.as_ref().unwrap().value, "aarch64");
    assert!(r.driver.kernel_module.is_none());
    assert!(r.driver.libraries.is_empty());
    assert!(r.gpus.devices.is_empty());
    assert!(r.cuda.toolkits.is_empty());
    assert!(r.libraries.is_empty(), "{:#?}", r.libraries);
    assert!(r.cudnn.is_empty());
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

#[test]
fn no_gpu_torch_is_the_cpu_build() {
    let r = report(NO_GPU);
    let venv = r.host.python_envs.iter().find(|e| e.prefix == "/srv/app/.venv").expect("venv");
    assert!(venv.active);
    assert_eq!(venv.python_version.as_ref().unwrap().to_string(), "3.11.2");
    assert_eq!(r.frameworks.len(), 1);
    let t = &r.frameworks[0];
    assert_eq!(t.kind, FrameworkKind::Torch);
    assert_eq!(t.version.value.to_string(), "2.7.1+cpu");
    assert!(t.cuda.is_none());
    assert_eq!(t.build.as_deref(), Some("cpu"));
}

#[test]
fn no_gpu_glibc_is_2_36() {
    let r = report(NO_GPU);
    assert_eq!(r.host.glibc.as_ref().expect("glibc").value.to_string(), "2.36");
}

#[test]
fn no_gpu_check_prints_a_short_report_and_exits_0() {
    let dir = fixture_dir(NO_GPU);
    let out = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["check", "--root", &format!("{dir}/root"), "--env-file", &format!("{dir}/env")])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("2.7.1+cpu"), "{text}");
    assert!(text.contains("no NVIDIA GPU"), "{text}");
    assert!(!text.contains("cuDNN  "), "no cuDNN section: {text}");
    assert!(text.lines().count() <= 30, "short: {text}");
}

// ---------------------------------------------------------------------------------------------
// pip-jax-cupy-ort: Ubuntu 22.04, libnvidia-compute-580, venv with jax[cuda12] 0.6.2, CuPy, ORT GPU
// ---------------------------------------------------------------------------------------------

const MIX: &str = "pip-jax-cupy-ort";
const MIX_VENV: &str = "/opt/ml/.venv";
const MIX_SITE: &str = "/opt/ml/.venv/lib/python3.11/site-packages";

fn framework(r: &Report, kind: FrameworkKind) -> &cudoctor::report::Framework {
    let found: Vec<_> = r.frameworks.iter().filter(|f| f.kind == kind).collect();
    assert_eq!(found.len(), 1, "{kind:?}: {:#?}", r.frameworks);
    found[0]
}

#[test]
fn mix_jax_jaxlib_and_the_cuda12_plugin_are_0_6_2() {
    let r = report(MIX);
    for (kind, package, dir) in [
        (FrameworkKind::Jax, "jax", "jax"),
        (FrameworkKind::Jaxlib, "jaxlib", "jaxlib"),
        (FrameworkKind::JaxCudaPlugin, "jax-cuda12-plugin", "jax_cuda12_plugin"),
    ] {
        let f = framework(&r, kind);
        assert_eq!(f.package, package);
        assert_eq!(f.env, MIX_VENV);
        assert_eq!(f.location, format!("{MIX_SITE}/{dir}"));
        assert_eq!(f.version.value.to_string(), "0.6.2", "{kind:?}");
    }
    assert_eq!(framework(&r, FrameworkKind::JaxCudaPlugin).build.as_deref(), Some("cuda12"));
    assert!(r.frameworks.iter().all(|f| f.kind != FrameworkKind::Torch));
}

#[test]
fn mix_cupy_is_13_4_1_for_cuda_12_and_ort_gpu_1_22_0_for_cuda_12_2() {
    let r = report(MIX);
    let cupy = framework(&r, FrameworkKind::Cupy);
    assert_eq!(cupy.package, "cupy-cuda12x");
    assert_eq!(cupy.version.value.to_string(), "13.4.1");
    assert_eq!(cupy.build.as_deref(), Some("cuda12x"));
    let ort = framework(&r, FrameworkKind::Onnxruntime);
    assert_eq!(ort.package, "onnxruntime-gpu");
    assert_eq!(ort.version.value.to_string(), "1.22.0");
    let cuda = ort.cuda.as_ref().expect("ORT's CUDA");
    assert_eq!(cuda.value.to_string(), "12.2");
    assert_eq!(
        cuda.evidence[0],
        Evidence::file_detail(
            format!("{MIX_SITE}/onnxruntime/capi/build_and_package_info.py"),
            "cuda_version"
        )
    );
}

#[test]
fn mix_libraries_are_the_resolved_wheels_and_there_is_no_curand_and_no_nvcc() {
    let r = report(MIX);
    let expected = [
        (
            LibraryKind::Cudart,
            "nvidia/cuda_runtime/lib/libcudart.so.12",
            "12.9.79",
            "nvidia-cuda-runtime-cu12",
        ),
        (LibraryKind::Cublas, "nvidia/cublas/lib/libcublas.so.12", "12.9.3.13", "nvidia-cublas-cu12"),
        (LibraryKind::Nccl, "nvidia/nccl/lib/libnccl.so.2", "2.32.3", "nvidia-nccl-cu12"),
        (LibraryKind::Cufft, "nvidia/cufft/lib/libcufft.so.11", "11.4.1.4", "nvidia-cufft-cu12"),
        (LibraryKind::Cusolver, "nvidia/cusolver/lib/libcusolver.so.11", "11.7.5.82", "nvidia-cusolver-cu12"),
        (
            LibraryKind::Cusparse,
            "nvidia/cusparse/lib/libcusparse.so.12",
            "12.5.10.65",
            "nvidia-cusparse-cu12",
        ),
        (
            LibraryKind::NvJitLink,
            "nvidia/nvjitlink/lib/libnvJitLink.so.12",
            "12.9.86",
            "nvidia-nvjitlink-cu12",
        ),
        (LibraryKind::Cupti, "nvidia/cuda_cupti/lib/libcupti.so.12", "12.8.90", "nvidia-cuda-cupti-cu12"),
    ];
    for (kind, file, version, package) in expected {
        let lib = libs(&r, kind).into_iter().find(|l| l.path == format!("{MIX_SITE}/{file}"));
        let lib = lib.unwrap_or_else(|| panic!("{kind:?} {file}: {:#?}", libs(&r, kind)));
        assert_eq!(lib.version.as_ref().unwrap().value.to_string(), version, "{kind:?}");
        assert!(pip_origin(&lib.origin, package, MIX_VENV), "{kind:?}: {:?}", lib.origin);
    }
    assert!(libs(&r, LibraryKind::Curand).is_empty(), "no curand wheel");
    // The nvcc wheel has ptxas and libnvvm, not nvcc.
    assert!(r.cuda.toolkits.iter().all(|t| t.nvcc.is_none()), "{:#?}", r.cuda.toolkits);
    assert!(r.cuda.nvcc_on_path.is_none());
}

#[test]
fn mix_one_cudnn_9_28_0_from_the_wheel() {
    let r = report(MIX);
    assert_eq!(r.cudnn.len(), 1, "{:#?}", r.cudnn);
    let c = &r.cudnn[0];
    assert_eq!(c.lib_dir, format!("{MIX_SITE}/nvidia/cudnn/lib"));
    assert_eq!(c.version.as_ref().unwrap().value.to_string(), "9.28.0");
    assert_eq!(c.cuda_major, Some(12));
    assert_eq!(c.layout, CudnnLayout::Split);
    assert!(pip_origin(&c.origin, "nvidia-cudnn-cu12", MIX_VENV), "{:?}", c.origin);
    for sub in ["libcudnn_engines_tensor_ir.so.9", "libcudnn_ext.so.9", "libcudnn_graph.so.9"] {
        assert!(c.libraries.iter().any(|l| l == sub), "{sub} in {:?}", c.libraries);
    }
    // CuPy's _wheel.json names cuDNN 8.8.1 files it could fetch; none is installed.
    assert!(r.libraries.iter().all(|l| !l.path.contains("8.8.1")));
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

// ---------------------------------------------------------------------------------------------
// debian-system-torch: debian-toolkit-driver + Debian's CPU-only python3-torch 1.13.1+dfsg-4
// ---------------------------------------------------------------------------------------------

const DEBIAN_TORCH: &str = "debian-system-torch";

#[test]
fn debian_torch_is_debians_cpu_build_next_to_a_cuda_11_8_toolkit() {
    let r = report(DEBIAN_TORCH);
    // The toolkit and driver of debian-toolkit-driver are all there...
    assert_eq!(r.cuda.toolkits.len(), 1);
    assert_eq!(r.cuda.toolkits[0].root, "/usr/lib/nvidia-cuda-toolkit");
    assert_eq!(r.driver.kernel_module.as_ref().unwrap().version.value.to_string(), "535.309.01");
    let dpkg = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Dpkg).unwrap();
    assert_eq!(dpkg.packages, 52);
    // ...and torch, in the system's dist-packages, is the CPU build whose files say 1.13.0a0.
    let env = r.host.python_envs.iter().find(|e| e.prefix == "/usr").expect("system python");
    assert_eq!(env.kind, PythonEnvKind::System);
    assert!(env.active);
    assert_eq!(env.site_packages, ["/usr/lib/python3/dist-packages"]);
    assert_eq!(r.frameworks.len(), 1, "{:#?}", r.frameworks);
    let t = &r.frameworks[0];
    assert_eq!(t.kind, FrameworkKind::Torch);
    assert_eq!(t.env, "/usr");
    assert_eq!(t.location, "/usr/lib/python3/dist-packages/torch");
    assert_eq!(t.version.value.to_string(), "1.13.0a0");
    assert_eq!(
        t.version.evidence[0],
        Evidence::file_detail("/usr/lib/python3/dist-packages/torch/version.py", "__version__")
    );
    assert!(t.cuda.is_none());
    assert_eq!(t.build.as_deref(), Some("cpu"));
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

#[test]
fn debian_torch_system_python_is_3_11() {
    let r = report(DEBIAN_TORCH);
    let env = r.host.python_envs.iter().find(|e| e.prefix == "/usr").expect("system python");
    let v = env.python_version.as_ref().expect("a version");
    assert_eq!((v.major(), v.minor()), (3, 11));
}

#[test]
fn debian_torch_names_its_dpkg_package() {
    let r = report(DEBIAN_TORCH);
    let t = &r.frameworks[0];
    assert!(
        t.version.evidence.iter().any(|e| matches!(e, Evidence::Package { manager: PackageManager::Dpkg, package, .. } if package == "python3-torch")),
        "{:?}",
        t.version.evidence
    );
}

#[test]
fn every_fixture_is_small_and_documented() {
    for name in [DEBIAN, PIP, NO_GPU, MIX, DEBIAN_TORCH] {
        let dir = fixture_dir(name);
        assert!(Path::new(&format!("{dir}/FACTS.md")).is_file(), "{name}/FACTS.md");
        assert!(Path::new(&format!("{dir}/env")).is_file(), "{name}/env");
        assert!(Path::new(&format!("{dir}/../build/{name}.sh")).is_file(), "build/{name}.sh");
    }
}
