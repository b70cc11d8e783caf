//! The `cudoctor check` binary as a user runs it: on the real H200 layout, on a machine with no
//! GPU and no driver, on a sysfs-only machine, and on broken input.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn cudoctor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cudoctor")).args(args).env("NO_COLOR", "1").output().unwrap()
}

fn check_json(root: &Path, env_file: Option<&Path>) -> serde_json::Value {
    let mut args = vec!["check".to_string(), "--format".into(), "json".into(), "--root".into()];
    args.push(root.display().to_string());
    if let Some(env) = env_file {
        args.push("--env-file".into());
        args.push(env.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = cudoctor(&args);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("check --format json prints JSON")
}

fn h200() -> serde_json::Value {
    let dir = fixture("h200-cuda13-torch211");
    check_json(&dir.join("root"), Some(&dir.join("env")))
}

#[test]
fn h200_kernel_driver_with_both_sources() {
    let r = h200();
    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["live"], false);
    let module = &r["driver"]["kernel_module"];
    assert_eq!(module["version"]["value"], "580.159.04");
    assert_eq!(module["flavour"], "open");
    let evidence: Vec<&str> = module["version"]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(evidence, ["/proc/driver/nvidia/version", "/sys/module/nvidia/version"]);
}

#[test]
fn h200_forward_compat_libcuda_is_reported_beside_the_host_driver() {
    let r = h200();
    let libs = r["driver"]["libraries"].as_array().unwrap();
    let libcuda: Vec<(&str, &str, bool)> = libs
        .iter()
        .filter(|l| l["name"] == "libcuda")
        .map(|l| {
            (
                l["path"].as_str().unwrap(),
                l["version"].as_str().unwrap(),
                l["forward_compat"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(
        libcuda.contains(&("/usr/local/nvidia/lib64/libcuda.so.580.159.04", "580.159.04", false)),
        "{libcuda:?}"
    );
    assert!(
        libcuda.contains(&("/usr/local/cuda-13.0/compat/libcuda.so.580.95.05", "580.95.05", true)),
        "{libcuda:?}"
    );
}

#[test]
fn h200_environment_is_allow_listed_and_visibility_explained() {
    let r = h200();
    let names: Vec<&str> =
        r["environment"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"CUDA_HOME"));
    assert!(names.contains(&"NVIDIA_VISIBLE_DEVICES"));
    assert_eq!(r["gpus"]["nvidia_visible_devices"], "0");
    assert_eq!(r["host"]["os"]["value"], "Ubuntu 24.04.3 LTS");
}

#[test]
fn every_format_renders_the_h200_layout() {
    let dir = fixture("h200-cuda13-torch211");
    let root = dir.join("root").display().to_string();
    let env = dir.join("env").display().to_string();
    for format in ["text", "markdown"] {
        let out = cudoctor(&["check", "--root", &root, "--env-file", &env, "--format", format]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("580.159.04"), "{format}: {text}");
        assert!(text.contains("580.95.05"), "{format}: {text}");
        assert!(!text.contains('\x1b'), "no colour when not on a terminal");
    }
}

#[test]
fn a_machine_without_gpu_or_driver_gets_a_short_correct_report() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("etc")).unwrap();
    fs::write(
        dir.path().join("etc/os-release"),
        "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n",
    )
    .unwrap();
    let out = cudoctor(&["check", "--root", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Debian GNU/Linux 12"), "{text}");
    assert!(text.contains("none loaded"), "{text}");
    assert!(text.contains("no NVIDIA GPU found"), "{text}");
    assert!(text.lines().count() < 25, "short: {text}");
    let r = check_json(dir.path(), None);
    assert!(r["driver"]["kernel_module"].is_null());
    assert_eq!(r["gpus"]["devices"].as_array().unwrap().len(), 0);
    assert_eq!(r["gpus"]["source"], "none");
}

#[test]
fn gpus_are_found_in_sysfs_without_nvml() {
    let dir = tempfile::tempdir().unwrap();
    let add = |addr: &str, vendor: &str, device: &str, class: &str| {
        let d = dir.path().join("sys/bus/pci/devices").join(addr);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("vendor"), format!("{vendor}\n")).unwrap();
        fs::write(d.join("device"), format!("{device}\n")).unwrap();
        fs::write(d.join("class"), format!("{class}\n")).unwrap();
    };
    add("0000:00:06.0", "0x10de", "0x2335", "0x030200"); // H200
    add("0000:00:06.1", "0x10de", "0x22e8", "0x040300"); // its HDMI audio function: not a GPU
    add("0000:00:07.0", "0x8086", "0x1234", "0x030000"); // another vendor's display
    add("0000:00:08.0", "0x10de", "0x2684", "0x030000"); // RTX 4090
    let r = check_json(dir.path(), None);
    let devices = r["gpus"]["devices"].as_array().unwrap();
    assert_eq!(r["gpus"]["source"], "sysfs");
    let ids: Vec<u64> = devices.iter().map(|d| d["pci_device_id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0x2335, 0x2684]);
    // Without NVML the knowledge base names them, and says so.
    assert_eq!(devices[0]["name"], "NVIDIA H200");
    assert_eq!(devices[0]["compute_capability"], "9.0");
    assert_eq!(devices[1]["name"], "NVIDIA GeForce RTX 4090");
    assert_eq!(devices[1]["evidence"][1]["kind"], "knowledge_base");
    assert!(devices.iter().all(|d| d["visible"] == true));
}

#[test]
fn cuda_visible_devices_hides_gpus_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for (i, addr) in ["0000:01:00.0", "0000:02:00.0"].iter().enumerate() {
        let d = dir.path().join("sys/bus/pci/devices").join(addr);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("vendor"), "0x10de").unwrap();
        fs::write(d.join("device"), if i == 0 { "0x2330" } else { "0x2335" }).unwrap();
        fs::write(d.join("class"), "0x030200").unwrap();
    }
    let env = dir.path().join("env");
    fs::write(&env, "CUDA_VISIBLE_DEVICES=1\n").unwrap();
    let r = check_json(dir.path(), Some(&env));
    let visible: Vec<bool> =
        r["gpus"]["devices"].as_array().unwrap().iter().map(|d| d["visible"].as_bool().unwrap()).collect();
    assert_eq!(visible, [false, true]);
    let note = r["gpus"]["visibility_note"].as_str().unwrap();
    assert!(note.contains("sees 1 of 2") && note.contains("cuda:0 = GPU 1"), "{note}");
}

#[test]
fn junk_and_unreadable_driver_files_become_problems_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("proc/driver/nvidia")).unwrap();
    fs::write(dir.path().join("proc/driver/nvidia/version"), b"\xff\xfe garbage \x00\x01\n").unwrap();
    // A directory where a file should be: reading it fails.
    fs::create_dir_all(dir.path().join("etc/os-release")).unwrap();
    // A looping and a dangling link where the driver libraries are searched.
    fs::create_dir_all(dir.path().join("usr/local/nvidia")).unwrap();
    std::os::unix::fs::symlink("lib64", dir.path().join("usr/local/nvidia/lib")).unwrap();
    std::os::unix::fs::symlink("lib", dir.path().join("usr/local/nvidia/lib64")).unwrap();
    std::os::unix::fs::symlink("/nowhere", dir.path().join("usr/lib64")).unwrap();
    let r = check_json(dir.path(), None);
    assert!(r["driver"]["kernel_module"].is_null());
    let problems = r["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["subject"] == "/proc/driver/nvidia/version"),
        "the junk version file is reported: {problems:?}"
    );
}

#[test]
fn redact_hides_the_host_name_and_home_paths() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("etc")).unwrap();
    fs::write(dir.path().join("etc/hostname"), "trainbox-42\n").unwrap();
    let env = dir.path().join("env");
    fs::write(&env, "USER=alice\nPATH=/home/alice/venv/bin:/usr/bin\nCUDA_HOME=/home/alice/cuda\n").unwrap();
    let root = dir.path().display().to_string();
    let envs = env.display().to_string();
    let plain = cudoctor(&["check", "--root", &root, "--env-file", &envs, "--format", "json"]);
    assert!(String::from_utf8_lossy(&plain.stdout).contains("trainbox-42"));
    let out = cudoctor(&["check", "--root", &root, "--env-file", &envs, "--format", "json", "--redact"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("trainbox-42") && !text.contains("alice"), "{text}");
    assert!(text.contains("/home/<user>/cuda"));
}

#[test]
fn a_missing_root_is_a_clear_error_with_exit_code_2() {
    let out = cudoctor(&["check", "--root", "/definitely/not/here"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/definitely/not/here"), "{err}");
}

#[test]
fn a_root_one_level_off_is_named_with_the_directory_that_looks_like_a_root() {
    // The mistake a fixture invites: passing the fixture directory, whose machine is in `root/`.
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("root/etc")).unwrap();
    fs::write(dir.path().join("env"), "PATH=/usr/bin\n").unwrap();
    let out = cudoctor(&["check", "--root", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "the check still runs");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("warning: --root"), "{err}");
    let inner = dir.path().join("root").display().to_string();
    assert!(err.contains(&format!("did you mean --root {inner}?")), "{err}");

    // The root itself: no warning.
    let out = cudoctor(&["check", "--root", &inner]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn help_teaches_the_check_command() {
    let out = cudoctor(&["check", "--help"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in ["--root", "--format", "--redact", "--no-live", "Examples"] {
        assert!(text.contains(needle), "{needle} missing from help: {text}");
    }
}

fn torch_linkage(r: &serde_json::Value) -> &serde_json::Value {
    let torch = r["frameworks"].as_array().unwrap().iter().find(|f| f["kind"] == "torch").expect("torch");
    &torch["linkage"]
}

fn loaded<'a>(linkage: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    linkage["libraries"].as_array().unwrap().iter().find(|l| l["name"] == name).unwrap_or_else(|| {
        panic!("{name} not in {linkage}");
    })
}

const WHEEL_CUDNN: &str = "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib";

/// FACTS.md: PyTorch loads the wheel's cuDNN 9.19.0 through libtorch_cuda.so's RPATH, while the
/// system has 9.14.0 (and PyTorch's own collect_env names the system one).
#[test]
fn h200_torch_loads_the_wheel_cudnn_through_its_rpath() {
    let r = h200();
    let l = torch_linkage(&r);
    let cudnn = loaded(l, "libcudnn.so.9");
    assert_eq!(cudnn["real_path"], format!("{WHEEL_CUDNN}/libcudnn.so.9"));
    assert_eq!(cudnn["version"], "9.19.0.56");
    assert_eq!(cudnn["found_by"], "RPATH of libtorch_cuda.so");
    let graph = loaded(l, "libcudnn_graph.so.9");
    assert_eq!(graph["dlopen"], true);
    assert_eq!(graph["real_path"], format!("{WHEEL_CUDNN}/libcudnn_graph.so.9"));
    assert_eq!(loaded(l, "libnccl.so.2")["version"], "2.28.9");
    assert_eq!(l["cuda_runtime"], "libcudart.so.13");
}

/// FACTS.md: with the system directory first on LD_LIBRARY_PATH, libcudnn.so.9 still comes from
/// the wheel (RPATH before LD_LIBRARY_PATH) but the libcudnn_graph.so.9 it dlopens comes from the
/// system (LD_LIBRARY_PATH before its RUNPATH): PyTorch then fails with "cuDNN version
/// incompatibility". The check shows the mix.
#[test]
fn h200_system_cudnn_on_ld_library_path_mixes_two_cudnn_installs() {
    let dir = fixture("h200-cuda13-torch211");
    let env = fs_err::read_to_string(dir.join("env")).unwrap().replace(
        "LD_LIBRARY_PATH=/usr/local/nvidia/lib64",
        "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64",
    );
    let tmp = tempfile::tempdir().unwrap();
    let env_file = tmp.path().join("env");
    fs::write(&env_file, env).unwrap();
    let r = check_json(&dir.join("root"), Some(&env_file));
    let l = torch_linkage(&r);
    assert_eq!(loaded(l, "libcudnn.so.9")["real_path"], format!("{WHEEL_CUDNN}/libcudnn.so.9"));
    let graph = loaded(l, "libcudnn_graph.so.9");
    assert_eq!(graph["real_path"], "/usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9.14.0");
    assert_eq!(graph["found_by"], "LD_LIBRARY_PATH");
    let root = dir.join("root").display().to_string();
    let out = cudoctor(&["check", "--root", &root, "--env-file", env_file.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cuDNN MIXED"), "{text}");
}
