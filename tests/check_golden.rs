//! Golden outputs of `cudoctor check` for every fixture layout, in every format: a change in what
//! a user sees shows up as a snapshot diff. Regenerate with `INSTA_UPDATE=always cargo test
//! --test check_golden` and review the diff.

use std::process::Command;

fn check(fixture: &str, format: &str) -> String {
    let root = format!("tests/fixtures/{fixture}/root");
    let env = format!("tests/fixtures/{fixture}/env");
    let out = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--root", &root, "--env-file", &env, "--format", format])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

macro_rules! golden {
    ($name:ident, $fixture:literal, $format:literal) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(check($fixture, $format));
        }
    };
}

golden!(h200_text, "h200-cuda13-torch211", "text");
golden!(h200_markdown, "h200-cuda13-torch211", "markdown");
golden!(h200_json, "h200-cuda13-torch211", "json");
golden!(debian_text, "debian-toolkit-driver", "text");
golden!(pip_torch_cu126_text, "pip-torch-cu126", "text");
golden!(no_gpu_text, "no-gpu", "text");
golden!(pip_jax_cupy_ort_text, "pip-jax-cupy-ort", "text");
golden!(debian_system_torch_text, "debian-system-torch", "text");
golden!(pip_torch112_cu102_text, "pip-torch112-cu102", "text");
