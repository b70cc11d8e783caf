//! Errors provoked on the H200 machine (tests/fixtures/h200-errors/README.md says how), explained
//! on the text alone: each is recognised, and where the text says enough, its cause comes first.

use cudoctor::explain::{self, Category};

/// A text explained on its own words, as `explain --no-check` does.
fn explain_text(text: &[u8]) -> Vec<explain::Explanation> {
    explain::explain(&explain::scan::scan_bytes(text, explain::table()), None)
}

fn explain_fixture(name: &str) -> Vec<explain::Explanation> {
    let path = format!("{}/tests/fixtures/h200-errors/{name}.log", env!("CARGO_MANIFEST_DIR"));
    explain_text(&fs_err::read(&path).unwrap())
}

#[test]
fn each_provoked_error_is_recognised_with_its_cause_first() {
    let cases = [
        ("oom", "torch-cuda-oom", Category::Oom),
        ("fraction_oom", "torch-cuda-oom", Category::Oom),
        ("ordinal", "cuda-invalid-device-ordinal", Category::UserCodeBug),
        ("novis", "torch-no-cuda-gpus", Category::EnvVarMisconfig),
        ("assert", "cuda-device-assert", Category::UserCodeBug),
        ("device_mismatch", "torch-tensor-device-mismatch", Category::UserCodeBug),
        ("cupy_ordinal", "cuda-invalid-device-ordinal", Category::UserCodeBug),
        ("jax_oom", "tf-oom", Category::Oom),
        ("nccl_ifname", "nccl-invalid-usage", Category::EnvVarMisconfig),
        ("no_kernel_image", "cuda-no-kernel-image", Category::ArchUnsupported),
        ("ext_no_kernel", "cuda-no-kernel-image", Category::ArchUnsupported),
        ("jax_novis", "jax-plugin-init-failed", Category::EnvVarMisconfig),
        ("nvcc_sm35", "toolchain-unsupported-arch", Category::ArchUnsupported),
        ("cuda_home_bad", "nvcc-path-missing", Category::EnvVarMisconfig),
        ("deser_dev3", "torch-deserialize-cuda-device", Category::UserCodeBug),
        ("cudnn_broken", "torch-cudnn-version-incompatibility", Category::CudnnVersionMismatch),
        ("alloc_conf_bad", "torch-allocator-config-invalid", Category::EnvVarMisconfig),
        ("nccl_dup_gpu", "nccl-invalid-usage", Category::UserCodeBug),
        // The program's own fork Pool after a CUDA tensor: its traceback shows only its own file,
        // Python's multiprocessing and PyTorch, so the program comes before a library.
        ("fork", "cuda-forked-subprocess", Category::UserCodeBug),
        // No signature: the words (Triton's cache manager failing in os.makedirs) vote.
        ("triton_cache_dir", "unrecognised", Category::PermissionOrCache),
        ("ext_dir", "unrecognised", Category::PermissionOrCache),
        ("nvcc_ccbin", "nvcc-host-compiler-missing", Category::EnvVarMisconfig),
        // No signature either: XLA's fatal glog line about XLA_FLAGS.
        ("xla_flags_bad", "unrecognised", Category::EnvVarMisconfig),
    ];
    for (name, signature, category) in cases {
        let explained = explain_fixture(name);
        let first = &explained[0];
        assert_eq!((first.signature.as_str(), first.causes[0].category), (signature, category), "{name}");
    }
    // The out-of-bounds write of a hand-written kernel: the log (a `python -c` traceback through
    // CuPy) does not show the kernel, so the message is recognised but nothing in it says whose
    // code was wrong; CuPy's second report of it while unloading the module is the same error.
    let illegal = explain_fixture("illegal");
    assert_eq!(illegal[0].signature, "cuda-illegal-address");
    assert_eq!(illegal.len(), 1, "{:?}", illegal.iter().map(|e| &e.signature).collect::<Vec<_>>());
    assert!(illegal[0].count >= 2);
    // Recognised; which cause is this machine's is for the facts to say (a CUDA 11 runtime that
    // is absent, a CUDA checkpoint where no GPU is visible).
    assert_eq!(explain_fixture("cudart11")[0].signature, "loader-cuda-lib-missing");
    assert_eq!(explain_fixture("deser_nocuda")[0].signature, "torch-deserialize-cuda");
    // A host sync inside a captured graph (here the program's; in the corpus a library's, which
    // ranks first) and a misaligned store of a hand-written kernel: recognised.
    assert_eq!(explain_fixture("graph_capture")[0].signature, "cuda-graph-capture-unsupported");
    assert_eq!(explain_fixture("misaligned")[0].signature, "cuda-kernel-fault");
}

#[test]
fn an_allocator_option_is_a_typo_or_a_newer_torch_s() {
    // PyTorch 2.11 on a misspelled key (the fixture) and PyTorch 2.0 on an option of later releases.
    assert_eq!(explain_fixture("alloc_conf_bad")[0].causes[0].category, Category::EnvVarMisconfig);
    let old = explain_text(b"RuntimeError: Unrecognized CachingAllocator option: expandable_segments");
    assert_eq!(old[0].causes[0].category, Category::Other);
}

#[test]
fn a_run_without_an_error_gets_no_guess() {
    // A successful run's output (a tensor printed) names CUDA but no trouble: nothing to explain.
    assert!(explain_fixture("no_error").is_empty());
    // Nor do the diagnostics people paste and the logs of runs that worked, though their words
    // ("Volatile Uncorr. ECC", "CUDA OOMs: 0", "guard failure", "Is debug build", NCCL's INFO
    // lines) each drew a guess before.
    for name in ["collect_env", "nvidia_smi", "nvidia_smi_q", "nccl_info", "train_ok", "compile_ok"] {
        let found = explain_fixture(&format!("clean_{name}"));
        assert!(found.is_empty(), "{name}: {:?}", found.iter().map(|e| &e.signature).collect::<Vec<_>>());
    }
    // The same line inside a report of trouble is still read.
    let text = "Training hangs after the first step\ntensor(-5.0644, device='cuda:0')";
    let e = explain_text(text.as_bytes());
    assert_eq!(e.len(), 1);
}

#[test]
fn a_capped_process_is_told_its_cap_not_fragmentation() {
    // 4 GiB asked with 139.3 GiB free and "1.40 GiB allowed": the fraction ran out.
    let explained = explain_fixture("fraction_oom");
    let oom = &explained[0].causes[0];
    assert!(oom.facts.iter().any(|f| f.contains("may use only 1.4 GiB")), "{:?}", oom.facts);
    let all: Vec<&String> = explained[0].causes.iter().flat_map(|c| c.facts.iter()).collect();
    assert!(!all.iter().any(|f| f.contains("fragmented")), "{all:?}");
    // Without a cap, a request the free memory could hold still points at fragmentation.
    let text = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 139.29 GiB is free.";
    let e = &explain_text(text.as_bytes())[0];
    assert!(e.causes.iter().flat_map(|c| c.facts.iter()).any(|f| f.contains("fragmented")));
}

#[test]
fn nccl_without_an_interface_names_the_socket_setting() {
    let first = &explain_fixture("nccl_ifname")[0];
    let top = &first.causes[0];
    assert!(top.facts[0].contains("no network interface"), "{:?}", top.facts);
    assert!(top.fix.contains("NCCL_SOCKET_IFNAME"), "{}", top.fix);
}
