//! `cudoctor::probe::check` on `tests/fixtures/pip-torch112-cu102`: PyPI's default torch 1.12.1
//! (the CUDA 10.2 build) carries its CUDA libraries in `site-packages/torch/lib`, some under
//! auditwheel's hashed names. Every expected value is in the fixture's FACTS.md, read from the
//! wheel itself.

use cudoctor::report::{CudaLibrary, Evidence, FrameworkKind, LibraryKind, Origin, Report};
use cudoctor::system::System;
use fs_err as fs;
use std::path::Path;

const FIXTURE: &str = "pip-torch112-cu102";
const VENV: &str = "/home/ubuntu/venv";
const TORCH_LIB: &str = "/home/ubuntu/venv/lib/python3.10/site-packages/torch/lib";

fn fixture_dir() -> String {
    format!("{}/tests/fixtures/{FIXTURE}", env!("CARGO_MANIFEST_DIR"))
}

fn report() -> Report {
    let dir = fixture_dir();
    let env = cudoctor::cli::parse_env_file(&fs::read_to_string(format!("{dir}/env")).unwrap());
    cudoctor::probe::check(&System::at_root(format!("{dir}/root"), env))
}

fn only(r: &Report, kind: LibraryKind) -> &CudaLibrary {
    let found: Vec<&CudaLibrary> = r.libraries.iter().filter(|l| l.kind == kind).collect();
    assert_eq!(found.len(), 1, "{kind:?}: {found:#?}");
    found[0]
}

/// A library of torch/lib: that path, the version its name says (never torch's 1.12.1, the
/// wheel's version), and the venv's torch wheel as its origin.
fn assert_bundled(lib: &CudaLibrary, file: &str, version: &str) {
    assert_eq!(lib.path, format!("{TORCH_LIB}/{file}"));
    let v = lib.version.as_ref().expect("a version");
    assert_eq!(v.value.to_string(), version, "{file}");
    assert_eq!(v.evidence, vec![Evidence::file_name(format!("{TORCH_LIB}/{file}"))], "{file}");
    assert!(
        matches!(&lib.origin, Origin::Pip { package, env } if package == "torch" && env == VENV),
        "{file}: {:?}",
        lib.origin
    );
}

#[test]
fn cudart_10_2_is_the_hashed_copy_in_torch_lib() {
    let r = report();
    let cudart = only(&r, LibraryKind::Cudart);
    assert_bundled(cudart, "libcudart-80664282.so.10.2", "10.2");
    assert_eq!(cudart.name, "libcudart-80664282.so.10.2");
    assert!(cudart.links.is_empty());
}

#[test]
fn cublas_and_cublaslt_10_are_in_torch_lib() {
    let r = report();
    assert_bundled(only(&r, LibraryKind::Cublas), "libcublas.so.10", "10");
    assert_bundled(only(&r, LibraryKind::CublasLt), "libcublasLt.so.10", "10");
}

#[test]
fn nvrtc_is_the_hashed_copy_and_its_builtins_are_not_nvrtc() {
    let r = report();
    assert_bundled(only(&r, LibraryKind::Nvrtc), "libnvrtc-08c4863f.so.10.2", "10.2");
    assert!(r.libraries.iter().all(|l| !l.path.ends_with("libnvrtc-builtins.so")), "{:#?}", r.libraries);
}

#[test]
fn only_the_four_bundled_cuda_libraries_are_listed() {
    // cuDNN and NCCL are static in this build; NVTX, libgomp and torch's own libraries are not
    // CUDA libraries of cudoctor's list.
    let r = report();
    let mut files: Vec<&str> = r.libraries.iter().map(|l| l.path.rsplit('/').next().unwrap()).collect();
    files.sort_unstable();
    assert_eq!(
        files,
        ["libcublas.so.10", "libcublasLt.so.10", "libcudart-80664282.so.10.2", "libnvrtc-08c4863f.so.10.2"]
    );
    assert!(r.cudnn.is_empty(), "{:#?}", r.cudnn);
}

#[test]
fn torch_is_1_12_1_built_for_cuda_10_2() {
    let r = report();
    assert_eq!(r.frameworks.len(), 1, "{:#?}", r.frameworks);
    let t = &r.frameworks[0];
    assert_eq!(t.kind, FrameworkKind::Torch);
    assert_eq!(t.package, "torch");
    assert_eq!(t.env, VENV);
    assert_eq!(t.version.value.to_string(), "1.12.1+cu102");
    assert_eq!(t.cuda.as_ref().expect("torch's CUDA").value.to_string(), "10.2");
    assert_eq!(t.build.as_deref(), Some("cu102"));
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
}

#[test]
fn no_driver_no_gpu_no_toolkit() {
    let r = report();
    assert!(r.cuda.toolkits.is_empty(), "{:#?}", r.cuda.toolkits);
    assert!(r.gpus.devices.is_empty());
}

#[test]
fn check_text_says_the_libraries_are_bundled_in_torch() {
    let dir = fixture_dir();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["check", "--root", &format!("{dir}/root"), "--env-file", &format!("{dir}/env")])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("← pip torch (bundled)").count(), 4, "{text}");
}

#[test]
fn fixture_is_documented_and_rebuildable() {
    let dir = fixture_dir();
    for f in ["FACTS.md", "env", "../build/pip-torch112-cu102.sh"] {
        assert!(Path::new(&format!("{dir}/{f}")).is_file(), "{f}");
    }
}

#[test]
fn torch_loads_its_own_cudart_and_cublas_from_torch_lib() {
    // libtorch_cuda.so is a placeholder: its RUNPATH $ORIGIN and DT_NEEDED of the bundled
    // runtime and cuBLAS are assumed (FACTS.md has the real readelf -d), and said so.
    let r = report();
    let linkage = r.frameworks[0].linkage.as_ref().expect("torch's linkage");
    assert_eq!(linkage.binary, format!("{TORCH_LIB}/libtorch_cuda.so"));
    assert_eq!(linkage.cuda_runtime.as_deref(), Some("libcudart.so.10.2"));
    for file in ["libcudart-80664282.so.10.2", "libcublas.so.10"] {
        let lib = linkage
            .libraries
            .iter()
            .find(|l| l.name == file)
            .unwrap_or_else(|| panic!("{file}: {linkage:#?}"));
        assert_eq!(lib.real_path.as_deref(), Some(format!("{TORCH_LIB}/{file}").as_str()));
        assert_eq!(lib.found_by.as_deref(), Some("RUNPATH of libtorch_cuda.so"));
    }
    assert!(linkage.notes.iter().any(|n| n.contains("DT_RUNPATH=$ORIGIN, assumed")), "{:?}", linkage.notes);
}
