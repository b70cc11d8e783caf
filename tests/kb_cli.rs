//! `cudoctor kb` as a user runs it: every subcommand in text and JSON, the answers people rely on
//! (which driver a build needs, what a driver runs), the 100-column limit of the text form, and
//! exit code 2 with the accepted forms for input it cannot answer.

use std::process::{Command, Output};

fn cudoctor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cudoctor")).args(args).env("NO_COLOR", "1").output().unwrap()
}

fn ok_text(args: &[&str]) -> String {
    let out = cudoctor(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        // A source URL cannot be wrapped; it stands alone on its line, flush left if it must.
        let lone_url = line.starts_with("https://") && !line.contains(' ');
        assert!(line.chars().count() <= 100 || lone_url, "{args:?}: line over 100 columns: {line}");
    }
    text
}

fn ok_json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = cudoctor(&all);
    assert!(out.status.success(), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("--format json prints JSON")
}

fn fails(args: &[&str]) -> String {
    let out = cudoctor(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    assert!(out.stdout.is_empty(), "{args:?} printed an answer");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn kb_cuda_text() {
    insta::assert_snapshot!("kb_cuda_12_4", ok_text(&["kb", "cuda", "12.4"]));
}

#[test]
fn kb_cuda_json_has_both_driver_minimums_and_the_cudnn_and_torch_builds() {
    let j = ok_json(&["kb", "cuda", "cu118"]);
    assert_eq!(j["cuda"], "11.8");
    assert_eq!(j["releases"][0]["linux"], "520.61.05");
    assert_eq!(j["releases"][0]["windows"], "520.06");
    assert_eq!(j["minor_compat"]["linux"], "450.80.02");
    assert_eq!(j["minor_compat"]["windows"], "452.39");
    let cudnn: Vec<&str> =
        j["cudnn"].as_array().unwrap().iter().map(|c| c["cudnn"].as_str().unwrap()).collect();
    assert!(cudnn.contains(&"8.9.6") && cudnn.contains(&"9.10.2"), "{cudnn:?}");
    assert!(!cudnn.contains(&"9.17.0"), "cuDNN 9.17 has no CUDA 11 package: {cudnn:?}");
    let torch: Vec<String> =
        j["pytorch"].as_array().unwrap().iter().map(|p| p["torch"].to_string()).collect();
    assert!(torch.contains(&"\"2.7\"".to_string()), "{torch:?}");
    // every row of the answer carries its source
    assert!(j["releases"][0]["cited"]["url"].as_str().unwrap().starts_with("https://docs.nvidia.com/"));
}

#[test]
fn kb_cuda_13_x_needs_a_580_driver() {
    let j = ok_json(&["kb", "cuda", "13.0.2"]);
    assert_eq!(j["minor_compat"]["linux"], "580");
    let labels: Vec<&str> =
        j["releases"].as_array().unwrap().iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["CUDA 13.0 GA", "CUDA 13.0 Update 1", "CUDA 13.0 Update 2", "CUDA 13.0.3"]);
    let ccs = &j["cudnn"][0]["build"]["compute_capabilities"];
    assert_eq!(ccs[0], "7.5", "the CUDA 13 cuDNN starts at Turing: {ccs}");
}

#[test]
fn kb_driver_text() {
    insta::assert_snapshot!("kb_driver_535", ok_text(&["kb", "driver", "535.104.05"]));
}

#[test]
fn kb_driver_json_says_what_runs() {
    let j = ok_json(&["kb", "driver", "535.104.05"]);
    assert_eq!(j["newest_native"]["version"], "12.2");
    let runs = |torch: &str, tag: &str| -> String {
        j["pytorch"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["torch"] == torch && p["tag"] == tag)
            .map(|p| p["runs"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(runs("2.4", "cu121"), "fully");
    assert_eq!(runs("2.6", "cu124"), "minor_compat");
    assert_eq!(runs("2.11", "cu130"), "no");
    // The H200 fixture's driver runs the 2.11 cu130 build with every feature.
    let j = ok_json(&["kb", "driver", "580.159.04"]);
    let p = j["pytorch"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["torch"] == "2.11" && p["tag"] == "cu130")
        .unwrap();
    assert_eq!(p["runs"], "fully");
    assert_eq!(j["branch"]["designation"], "lts");
}

#[test]
fn kb_driver_newer_than_the_data_says_so_instead_of_guessing() {
    let text = ok_text(&["kb", "driver", "999.10.01"]);
    assert!(text.contains("newer than any in this knowledge base (data of 2026-11)"), "{text}");
}

#[test]
fn kb_torch_text() {
    insta::assert_snapshot!("kb_torch_2_4_1", ok_text(&["kb", "torch", "2.4.1"]));
}

#[test]
fn kb_torch_json_builds_carry_pins_drivers_and_install_commands() {
    let j = ok_json(&["kb", "torch", "2.11.0+cu130"]);
    let b = j["builds"].as_array().unwrap().iter().find(|b| b["tag"] == "cu130").unwrap();
    assert_eq!(b["cudnn"], "9.19.0.56");
    assert_eq!(b["nccl"], "2.28.9");
    assert_eq!(b["toolkit"]["linux"], "580.95.05");
    assert_eq!(b["minor_compat"]["linux"], "580");
    assert_eq!(b["arch_list"][0], "7.5");
    assert_eq!(
        b["install"],
        "pip install 'torch==2.11.0' --index-url https://download.pytorch.org/whl/cu130"
    );
    assert_eq!(b["disagreement"][0]["value"], "9.17.1.4");
    let cu126 = j["builds"].as_array().unwrap().iter().find(|b| b["tag"] == "cu126").unwrap();
    assert_eq!(cu126["toolkit"]["linux"], "560.28.03");
    assert_eq!(cu126["minor_compat"]["linux"], "525.60.13");
}

#[test]
fn kb_torch_of_a_cuda_build_lists_its_releases_and_the_driver_each_needs() {
    // "Which driver does a PyTorch cu118 / cu121 / ... build need?"
    let cases = [("cu118", 11, "520.61.05"), ("cu121", 12, "530.30.02"), ("cu124", 12, "550.54.14")];
    for (tag, major, toolkit_driver) in cases {
        let j = ok_json(&["kb", "torch", tag]);
        let releases = j["releases"].as_array().unwrap();
        assert!(releases.len() >= 2, "{tag}: {releases:?}");
        for r in releases {
            assert_eq!(r["build"]["tag"], tag);
            assert!(r["toolkit"]["linux"].as_str().unwrap().starts_with(&toolkit_driver[..3]), "{tag}: {r}");
        }
        assert_eq!(
            j["releases"][0]["toolkit"]["linux"], toolkit_driver,
            "{tag}: GA driver of the first release"
        );
        assert_eq!(j["minor_compat"]["major"], major);
        assert_eq!(j["index_url"], format!("https://download.pytorch.org/whl/{tag}"));
    }
    // Case does not matter, and the text shows every release with its driver.
    let text = ok_text(&["kb", "torch", "CU118"]);
    assert!(text.contains("PyTorch cu118 builds"), "{text}");
    for release in ["2.0 ", "2.7 "] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(release) && l.contains(">= 520.61.05")),
            "{text}"
        );
    }
    assert!(text.contains(">= 450.80.02"), "minor version compatibility minimum: {text}");
    // An update of the toolkit can need a newer driver than its GA: per release, not per tag.
    let j = ok_json(&["kb", "torch", "cu130"]);
    let drivers: std::collections::BTreeSet<&str> =
        j["releases"].as_array().unwrap().iter().filter_map(|r| r["toolkit"]["linux"].as_str()).collect();
    assert!(drivers.len() >= 2, "cu130 builds of CUDA 13.0 GA and 13.0 Update 2: {drivers:?}");
    let err = fails(&["kb", "torch", "cu999"]);
    assert!(err.contains("cu118") && err.contains("cu130"), "lists the known builds: {err}");
}

#[test]
fn kb_error_4_says_what_it_is_in_cudnn_8_and_in_cudnn_9() {
    let text = ok_text(&["kb", "error", "4"]);
    assert!(text.contains("CUDNN_STATUS_INTERNAL_ERROR = 4 "), "{text}");
    assert!(text.contains("In cuDNN 9 the same status is CUDNN_STATUS_INTERNAL_ERROR = 4000"), "{text}");
    assert!(text.contains("cuDNN 9 has no status 4"), "{text}");
    let text = ok_text(&["kb", "error", "4000"]);
    assert!(text.contains("In cuDNN 7/8 the same status is CUDNN_STATUS_INTERNAL_ERROR = 4 "), "{text}");
    assert!(!text.contains("has no status"), "{text}");
}

#[test]
fn kb_torch_unverified_rows_are_marked() {
    let text = ok_text(&["kb", "torch", "2.12"]);
    assert!(text.contains("UNVERIFIED"), "{text}");
    let text = ok_text(&["kb", "torch", "2.7"]);
    assert!(!text.contains("UNVERIFIED"), "{text}");
}

#[test]
fn kb_cudnn_text() {
    insta::assert_snapshot!("kb_cudnn_8_9_7", ok_text(&["kb", "cudnn", "8.9.7"]));
}

#[test]
fn kb_cudnn_json_and_integer_form() {
    let j = ok_json(&["kb", "cudnn", "91900"]);
    assert_eq!(j["asked"], "9.19.0");
    assert_eq!(j["known_release"], true);
    assert_eq!(j["matched"], "nearest_older");
    assert_eq!(j["layout"]["sonames"][0], "libcudnn.so.9");
    let j = ok_json(&["kb", "cudnn", "9.10"]);
    assert_eq!(j["matched"], "exact");
    let b = j["release"]["build"].as_array().unwrap();
    assert!(b.iter().any(|b| b["compute_capabilities"].as_array().unwrap().iter().any(|c| c == "12.0")));
}

#[test]
fn kb_gpu_and_error_answer_from_the_catalog_and_code_tables() {
    let text = ok_text(&["kb", "gpu", "H200"]);
    assert!(text.contains("0x2335") && text.contains("Hopper"), "{text}");
    assert!(text.contains("cuDNN 9.17.0  yes"), "{text}");
    let j = ok_json(&["kb", "gpu", "0x2684"]);
    assert_eq!(j[0]["name"], "NVIDIA GeForce RTX 4090");
    let text = ok_text(&["kb", "error", "4000"]);
    assert!(text.contains("CUDNN_STATUS_INTERNAL_ERROR = 4000"), "{text}");
    let j = ok_json(&["kb", "error", "4"]);
    assert!(j["codes"].as_array().unwrap().len() > 1, "a bare 4 exists in several tables");
}

#[test]
fn kb_dump_json_holds_every_table() {
    let j = ok_json(&["kb", "dump"]);
    for key in ["meta", "cuda", "drivers", "cudnn", "pytorch", "frameworks", "gpus", "codes"] {
        assert!(j.get(key).is_some(), "dump lacks {key}");
    }
    assert_eq!(j["meta"]["checked"], "2026-11");
    assert!(j["cuda"]["release"].as_array().unwrap().len() > 60);
    let text = ok_text(&["kb", "dump"]);
    assert!(text.contains("data/cuda.toml"), "{text}");
}

#[test]
fn unknown_or_newer_input_exits_2_with_the_accepted_forms() {
    let e = fails(&["kb", "cuda", "14.0"]);
    assert!(e.contains("unknown to this knowledge base (data of 2026-11"), "{e}");
    let e = fails(&["kb", "cuda", "banana"]);
    assert!(e.contains("accepted forms: 12.4, 12.4.1, cu124, 12040"), "{e}");
    let e = fails(&["kb", "torch", "3.0"]);
    assert!(e.contains("unknown to this knowledge base"), "{e}");
    let e = fails(&["kb", "torch", "1.6"]);
    assert!(e.contains("not a release in this knowledge base"), "{e}");
    let e = fails(&["kb", "driver", "12.4"]);
    assert!(e.contains("accepted forms"), "{e}");
    let e = fails(&["kb", "cudnn", "10.1"]);
    assert!(e.contains("unknown to this knowledge base"), "{e}");
    let e = fails(&["kb", "gpu", "Voodoo5"]);
    assert!(e.contains("PCI device id"), "{e}");
    let e = fails(&["kb", "error", "NOT_A_CODE"]);
    assert!(e.contains("accepted forms"), "{e}");
}

#[test]
fn kb_help_teaches_with_examples() {
    let out = cudoctor(&["kb", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for sub in ["cuda", "driver", "torch", "cudnn", "gpu", "error", "dump"] {
        assert!(help.contains(sub), "{help}");
    }
    let out = cudoctor(&["kb", "torch", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("cudoctor kb torch 2.4.1"), "{help}");
}

#[test]
fn every_answer_fits_100_columns() {
    let queries: &[&[&str]] = &[
        &["cuda", "8.0"],
        &["cuda", "10.1"],
        &["cuda", "11.8"],
        &["cuda", "12.8"],
        &["cuda", "13.0"],
        &["cuda", "13.5"],
        &["driver", "367.48"],
        &["driver", "580.95.05"],
        &["driver", "300.1"],
        &["torch", "1.7"],
        &["torch", "2.8"],
        &["torch", "2.14.1"],
        &["cudnn", "7.6.5"],
        &["cudnn", "8.2.4"],
        &["cudnn", "9.28.1"],
        &["gpu", "A100"],
        &["gpu", "Jetson"],
        &["error", "700"],
        &["dump"],
    ];
    for q in queries {
        let mut args = vec!["kb"];
        args.extend_from_slice(q);
        ok_text(&args); // asserts the width
    }
}

#[test]
fn names_of_several_words_need_no_quotes() {
    let text = ok_text(&["kb", "gpu", "RTX", "4090"]);
    assert!(text.starts_with("NVIDIA GeForce RTX 4090  ("), "{text}");
    let text = ok_text(&["kb", "error", "Xid", "79"]);
    assert!(text.contains("= 79"), "{text}");
}

/// `kb error` and `explain` share one signature table: a code leads to the known errors behind
/// it, and an error message with no code is recognised the way `explain` recognises it.
#[test]
fn kb_error_shows_the_signatures_explain_uses() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudoctor")).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let by_number = run(&["kb", "error", "4"]);
    assert!(by_number.contains("(cudnn-internal-error)"), "{by_number}");
    let by_text = run(&["kb", "error", "no kernel image is available for execution on the device"]);
    assert!(by_text.contains("(cuda-no-kernel-image)") && by_text.contains("arch_unsupported"), "{by_text}");
    // A message with no code starts with its known errors, not with a blank line.
    assert!(by_text.starts_with("Known errors"), "{by_text:?}");
    assert!(by_number.contains("\n\nKnown errors"), "{by_number}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["kb", "error", "4000", "--format", "json"])).unwrap();
    assert!(
        json["signatures"].as_array().unwrap().iter().any(|s| s["id"] == "cudnn-internal-error"),
        "{json}"
    );
}

#[test]
fn kb_driver_says_which_forward_compat_packages_exist() {
    let old = ok_text(&["kb", "driver", "470.82.01"]);
    assert!(old.contains("R470 is not a target of the compatibility guide's table"), "{old}");
    let lts = ok_text(&["kb", "driver", "535.104.05"]);
    assert!(lts.contains("cuda-compat-13-4"), "{lts}");
    assert!(lts.contains("CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"), "{lts}");
    let cuda = ok_text(&["kb", "cuda", "12.8"]);
    assert!(cuda.contains(">= 570.65") && cuda.contains(">= 572.61"), "{cuda}");
    assert!(cuda.contains("cuda-compat-12-8 runs on driver branches: R535"), "{cuda}");
}
