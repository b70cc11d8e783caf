//! `cudoctor explain` end to end: the binary on an argument, a file (CRLF, invalid UTF-8, gzip),
//! standard input, and with another machine's saved report.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cudoctor(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or_default()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

const LOG: &[u8] = b"Epoch 1/10: 100%|##########| 500/500 [01:02<00:00, loss=0.231]\r\n\
\xff\xfe not utf-8 \x80\r\n\
E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN library: 8.7.0 but source was compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher minor version.\r\n\
step 2 loss 0.2\r\n\
tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize\r\n\
tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize\r\n";

#[test]
fn a_log_file_gives_each_error_once_first_error_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("train.log");
    fs_err::write(&path, LOG).unwrap();
    let v = json(&cudoctor(&["explain", "--no-check", "--format", "json", path.to_str().unwrap()], None));
    assert_eq!(v["lines"], 6);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0]["signature"], "tf-cudnn-runtime-mismatch");
    assert_eq!(errors[0]["first_line"], 3);
    assert_eq!(errors[0]["causes"][0]["category"], "cudnn_version_mismatch");
    assert_eq!(errors[0]["evidence"]["cudnn_runtime"], "8.7.0");
    assert_eq!(errors[1]["signature"], "tf-conv-algorithm");
    assert_eq!(errors[1]["count"], 2);
}

#[test]
fn gzip_logs_and_standard_input_are_read() {
    use flate2::write::GzEncoder;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("train.log.gz");
    let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(LOG).unwrap();
    fs_err::write(&path, enc.finish().unwrap()).unwrap();
    let from_gz =
        json(&cudoctor(&["explain", "--no-check", "--format", "json", path.to_str().unwrap()], None));
    let from_stdin = json(&cudoctor(&["explain", "--no-check", "--format", "json", "-"], Some(LOG)));
    assert_eq!(from_gz["errors"], from_stdin["errors"]);
    assert_eq!(from_stdin["input"], "standard input");
    assert_eq!(from_stdin["errors"].as_array().unwrap().len(), 2);
}

#[test]
fn a_message_argument_is_explained_in_text_and_markdown() {
    let msg = "RuntimeError: CUDA error: device-side assert triggered";
    let out = cudoctor(&["explain", "--no-check", msg], None);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("device-side assertion failed"), "{text}");
    assert!(text.contains("1. user_code_bug"), "{text}");
    let out = cudoctor(&["explain", "--no-check", "--format", "markdown", msg], None);
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("| 1 | `user_code_bug` |"), "{md}");
}

#[test]
fn text_without_a_known_error_says_so() {
    let out = cudoctor(&["explain", "--no-check", "all good here"], None);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("No known GPU/CUDA error"));
}

#[test]
fn an_empty_input_says_so_and_how_to_pipe_the_errors() {
    // `python train.py | cudoctor explain -` pipes standard output only; the traceback is not in it.
    let out = cudoctor(&["explain", "--no-check", "-"], Some(b""));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The input was empty"), "{text}");
    assert!(text.contains("2>&1 | cudoctor explain -"), "{text}");
    let out = cudoctor(&["explain", "--no-check", "--format", "markdown", "-"], Some(b""));
    assert!(String::from_utf8(out.stdout).unwrap().contains("The input was empty"));
}

#[test]
fn an_unknown_message_is_answered_by_its_words_and_says_it_is_a_guess() {
    let msg = "worker 3: fatal: cannot open /dev/nvidia-uvm: Permission denied";
    let out = cudoctor(&["explain", "--no-check", msg], None);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("No known error (a guess from the words)"), "{text}");
    assert!(text.contains("1. permission_or_cache"), "{text}");
    assert!(text.contains("\"Permission denied\""), "{text}");
    let doc = json(&cudoctor(&["explain", "--no-check", "--format", "json", msg], None));
    assert_eq!(doc["errors"][0]["signature"], "unrecognised");
    assert_eq!(doc["errors"][0]["causes"][0]["category"], "permission_or_cache");
}

#[test]
fn another_machines_report_ranks_the_causes() {
    use cudoctor::report::{Evidence, Fact, Gpu, GpuProcess, Report};
    let mut r = Report::new("/", true);
    r.gpus.devices.push(Gpu {
        name: Some("NVIDIA A100-SXM4-80GB".into()),
        memory_total_mib: Some(81_920),
        memory_used_mib: Some(80_000),
        processes: vec![GpuProcess {
            pid: 7,
            name: Some("vllm".into()),
            used_mib: Some(79_000),
            kind: "compute".into(),
        }],
        visible: true,
        evidence: vec![Evidence::api("nvmlDeviceGetMemoryInfo")],
        ..Gpu::default()
    });
    r.driver.cuda_supported = Some(Fact::new("12.8".parse().unwrap(), Evidence::api("cuDriverGetVersion")));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.json");
    fs_err::write(&path, serde_json::to_vec(&r).unwrap()).unwrap();
    let msg = "failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED";
    let v = json(&cudoctor(&["explain", "--report", path.to_str().unwrap(), "--format", "json", msg], None));
    let top = &v["errors"][0]["causes"][0];
    assert_eq!(top["category"], "oom");
    assert!(top["facts"][0].as_str().unwrap().contains("vllm (pid 7)"));
    assert!(v["facts"].as_str().unwrap().contains("other.json"));

    fs_err::write(&path, b"{ not a report").unwrap();
    let out = cudoctor(&["explain", "--report", path.to_str().unwrap(), msg], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a cudoctor check JSON report"));
}

/// The report `cudoctor check` makes of the real H200 fixture (driver 580, Python 3.12, PyTorch
/// 2.11.0+cu130 loading its own cuDNN 9.19, a system cuDNN 9.14 beside it), saved in `dir`.
fn h200_report(dir: &std::path::Path) -> std::path::PathBuf {
    fixture_report("h200-cuda13-torch211", dir)
}

/// The report `cudoctor check` makes of a fixture machine, saved in `dir`.
fn fixture_report(name: &str, dir: &std::path::Path) -> std::path::PathBuf {
    let fixture = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let check = cudoctor(
        &[
            "check",
            "--root",
            &format!("{fixture}/root"),
            "--env-file",
            &format!("{fixture}/env"),
            "--format",
            "json",
        ],
        None,
    );
    assert!(
        check.status.success() || check.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let report = dir.join(format!("{name}.json"));
    fs_err::write(&report, &check.stdout).unwrap();
    report
}

#[test]
fn the_h200_fixture_report_explains_its_own_cudnn_error() {
    // The real error recorded on that machine (tests/fixtures/h200-cuda13-torch211/FACTS.md), ranked
    // with the report `cudoctor check` makes of the fixture: two cuDNN installs, 9.14.0 and 9.19.0.
    let dir = tempfile::tempdir().unwrap();
    let report = h200_report(dir.path());
    let msg = "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0). PyTorch already comes bundled with cuDNN.";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", msg], None));
    let top = &v["errors"][0]["causes"][0];
    assert_eq!(top["category"], "cudnn_version_mismatch");
    let facts = top["facts"].as_array().unwrap();
    let names_the_system_copy = |f: &serde_json::Value| {
        let f = f.as_str().unwrap();
        f.contains("cuDNN 9.14.0") && f.contains("/usr/lib/x86_64-linux-gnu")
    };
    assert!(facts.iter().any(names_the_system_copy), "{facts:?}");
}

#[test]
fn a_second_cudnn_does_not_blame_a_framework_that_loads_its_own() {
    // On the H200, PyTorch's libcudnn.so.9 resolves (RPATH) to its wheel's cuDNN 9.19, the one it
    // was built with: the system's 9.14 is beside it, not in its way.
    let dir = tempfile::tempdir().unwrap();
    let report = h200_report(dir.path());
    let msg = "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", msg], None));
    let causes = v["errors"][0]["causes"].as_array().unwrap();
    assert_ne!(causes[0]["category"], "cudnn_version_mismatch", "{causes:?}");
    // The second copy is held against the mismatch, not for it.
    let mismatch = causes.iter().find(|c| c["category"] == "cudnn_version_mismatch").unwrap();
    let against = mismatch["against"].to_string();
    assert!(against.contains("loads its own cuDNN 9.19.0"), "{against}");
    assert!(mismatch["facts"].is_null(), "{mismatch}");
}

#[test]
fn a_log_from_another_machine_is_ranked_on_its_text_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let report = h200_report(dir.path());
    let cases = [
        // A traceback from a Python 3.8 environment; the H200's is 3.12.
        (
            "Traceback (most recent call last):\n  File \"/home/me/anaconda3/envs/tf/lib/python3.8/site-packages/tensorflow/python/__init__.py\", line 2\nImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
            "Python 3.8",
        ),
        // nvidia-smi's header of a 470 driver; the H200 runs 580.
        (
            "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\nRuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
            "driver 470",
        ),
        // The PyTorch release the user names; the H200 has 2.11.0.
        (
            "torch==1.13.1+cu117\nRuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
            "PyTorch 1.13.1",
        ),
    ];
    for (text, says) in cases {
        let ranked = |extra: &[&str]| {
            let mut args = vec!["explain", "--format", "json"];
            args.extend_from_slice(extra);
            args.push(text);
            json(&cudoctor(&args, None))
        };
        let with = ranked(&["--report", report.to_str().unwrap()]);
        let alone = ranked(&["--no-check"]);
        let why = with["errors"][0]["facts_not_used"].as_str().unwrap_or_default().to_string();
        assert!(why.contains(says), "{text}: {why:?}");
        assert_eq!(with["errors"][0]["causes"], alone["errors"][0]["causes"], "{text}");
    }
    // The same traceback from the H200's own Python is ranked with its facts.
    let own = "  File \"/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda/__init__.py\", line 1\nImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", own], None));
    assert!(v["errors"][0]["facts_not_used"].is_null(), "{}", v["errors"][0]["facts_not_used"]);
    assert_eq!(v["errors"][0]["causes"][0]["category"], "cuda_runtime_mismatch");
}

#[test]
fn a_library_asked_for_by_its_full_version_is_found_by_its_soname() {
    // CTranslate2 asks for libcudnn_ops.so.9.1.0; the fixture's pip cuDNN 9.5 has libcudnn_ops.so.9,
    // which the loader would take: it is not on the path, not of another version.
    let dir = tempfile::tempdir().unwrap();
    let report = fixture_report("pip-torch-cu126", dir.path());
    let msg = "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", msg], None));
    let top = &v["errors"][0]["causes"][0];
    assert_eq!(top["category"], "library_not_found", "{top}");
    assert!(top["facts"].to_string().contains("libcudnn_ops.so.9 (serving libcudnn_ops.so.9.1.0) exists at"));
    // A cuDNN of another major is a version mismatch on the same machine.
    let msg = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", msg], None));
    assert_eq!(v["errors"][0]["causes"][0]["category"], "cudnn_version_mismatch");
}

#[test]
fn a_cuda_torch_does_not_argue_against_a_cpu_torchvision() {
    // The fixture's torch is 2.7.1+cu126: exactly the machine on which a CPU torchvision beside it
    // has no CUDA kernel for its ops (sam2#220). torch's build must not count against that.
    let dir = tempfile::tempdir().unwrap();
    let report = fixture_report("pip-torch-cu126", dir.path());
    let msg = "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.";
    let v =
        json(&cudoctor(&["explain", "--report", report.to_str().unwrap(), "--format", "json", msg], None));
    let top = &v["errors"][0]["causes"][0];
    assert_eq!(top["category"], "cpu_only_build", "{top}");
    assert!(!v.to_string().contains("is built with CUDA"), "{v}");
}

#[test]
fn a_mistyped_log_file_is_an_error_not_a_message_with_no_known_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("trian.log");
    let out = cudoctor(&["explain", "--no-check", missing.to_str().unwrap()], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no such file") && err.contains("trian.log"), "{err}");
    let out = cudoctor(&["explain", "--no-check", dir.path().to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
    // A one-word message is still a message.
    let v =
        json(&cudoctor(&["explain", "--no-check", "--format", "json", "CUDNN_STATUS_NOT_INITIALIZED"], None));
    assert_eq!(v["errors"][0]["signature"], "cudnn-not-initialized");
}

#[test]
fn a_pasted_title_of_a_known_thread_names_the_thread_and_its_fix() {
    // The title of https://github.com/qwopqwop200/GPTQ-for-LLaMa/issues/85, a corpus report. (The
    // title of PaddleDetection#8873 served here until two more threads with the same Paddle
    // message joined the corpus: a message three threads share names none of them.)
    let title =
        "Windows 11 / WSL2 / Ubuntu / cuda 11.7 / RTX 3070 - IndexError: list index out of range (+PTX)";
    let url = "https://github.com/qwopqwop200/GPTQ-for-LLaMa/issues/85";
    let out = cudoctor(&["explain", "--no-check", "-"], Some(title.as_bytes()));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("Known report like this one (same title, word for word): {url}")),
        "{text}"
    );
    assert!(text.contains("fixed by: "), "{text}");
    let md = cudoctor(&["explain", "--no-check", "--format", "markdown", title], None);
    assert!(String::from_utf8_lossy(&md.stdout)
        .contains(&format!("- <{url}> (same title, word for word, `env_var_misconfig`)")));
    let v = json(&cudoctor(&["explain", "--no-check", "--format", "json", title], None));
    assert_eq!(v["errors"][0]["known_reports"][0]["url"], url);
    assert_eq!(v["errors"][0]["causes"][0]["category"], "env_var_misconfig");
    // A common error line is no thread's.
    let line = cudoctor(
        &["explain", "--no-check", "RuntimeError: CUDA error: an illegal memory access was encountered"],
        None,
    );
    assert!(!String::from_utf8_lossy(&line.stdout).contains("Known report"));
}
