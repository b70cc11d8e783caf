//! `cudoctor inspect`: the fat binary reader against cuobjdump's own listing of real CUDA
//! builds, symbol-version prediction against the real loader, and the command end to end.

use cudoctor::binary::elf;
use cudoctor::binary::fatbin::{self, Compression, EntryKind};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// `cuobjdump --list-elf` and `--list-ptx` lines: (is_ptx, "sm_90a") in listed order.
fn cuobjdump_truth(file: &Path) -> Vec<(bool, String)> {
    let text = fs_err::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| {
            let is_ptx = l.starts_with("PTX file");
            if !is_ptx && !l.starts_with("ELF file") {
                return None;
            }
            let name = l.rsplit(' ').next()?;
            let arch = name.split('.').find(|p| p.starts_with("sm_"))?;
            Some((is_ptx, arch.to_string()))
        })
        .collect()
}

fn our_listing(fb: &fatbin::Fatbin) -> Vec<(bool, String)> {
    let mut cubins: Vec<(bool, String)> = Vec::new();
    let mut ptx = Vec::new();
    for e in &fb.entries {
        match e.target.kind {
            // cuobjdump names PTX `sm_XX.ptx`; cudoctor says compute_XX.
            EntryKind::Ptx => ptx.push((true, e.target.cuobjdump_name().replace("compute_", "sm_"))),
            EntryKind::Cubin => cubins.push((false, e.target.cuobjdump_name())),
        }
    }
    cubins.extend(ptx);
    cubins
}

#[test]
fn fat_binaries_list_exactly_what_cuobjdump_lists() {
    let dir = fixtures().join("binaries");
    for file in ["libkernels_cu118.so", "libkernels_cu118_lz4.so", "libkernels_cu135.so"] {
        let facts = elf::read_file(&dir.join(file)).unwrap();
        let fb = facts.fatbin.expect("a .nv_fatbin section");
        assert!(fb.problems.is_empty(), "{file}: {:?}", fb.problems);
        let truth = cuobjdump_truth(&dir.join(format!("{file}.cuobjdump.txt")));
        assert!(!truth.is_empty());
        assert_eq!(our_listing(&fb), truth, "{file}");
    }
    let bare = fatbin::parse(&fs_err::read(dir.join("cu135.fatbin")).unwrap());
    assert_eq!(our_listing(&bare), cuobjdump_truth(&dir.join("cu135.fatbin.cuobjdump.txt")));
}

#[test]
fn variants_and_compression_are_read_from_the_entry_flags() {
    let dir = fixtures().join("binaries");
    let cu135 = elf::read_file(&dir.join("libkernels_cu135.so")).unwrap().fatbin.unwrap();
    let names: Vec<String> = cu135.entries.iter().map(|e| e.target.to_string()).collect();
    assert_eq!(names, ["sm_75", "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_120f", "compute_75"]);
    assert!(cu135.entries.iter().all(|e| e.compression == Compression::Zstd));

    let lz4 = elf::read_file(&dir.join("libkernels_cu118_lz4.so")).unwrap().fatbin.unwrap();
    assert!(lz4.entries.iter().all(|e| e.compression == Compression::Lz4));
    let plain = elf::read_file(&dir.join("libkernels_cu118.so")).unwrap().fatbin.unwrap();
    assert_eq!(plain.containers, 2);
    let compressed: Vec<String> = plain
        .entries
        .iter()
        .filter(|e| e.compression != Compression::None)
        .map(|e| e.target.to_string())
        .collect();
    assert_eq!(compressed, ["compute_80"], "nvcc compresses PTX by default, cubins not");
}

#[test]
fn elf_facts_match_readelf() {
    let lib = fixtures().join("binaries/libkernels_cu118.so");
    let info = elf::read_elf(&lib).unwrap();
    let readelf = Command::new("readelf").arg("-d").arg(&lib).output().unwrap();
    let text = String::from_utf8_lossy(&readelf.stdout);
    let needed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| l.split('[').nth(1)?.split(']').next())
        .collect();
    assert_eq!(info.needed, needed);
    let (offset, size) = info.fatbin.unwrap();
    let sections = Command::new("readelf").arg("-SW").arg(&lib).output().unwrap();
    let line = String::from_utf8_lossy(&sections.stdout)
        .lines()
        .find(|l| l.contains(".nv_fatbin"))
        .map(str::to_string)
        .unwrap();
    let cols: Vec<&str> = line.split_whitespace().collect();
    let at = cols.iter().position(|c| *c == ".nv_fatbin").unwrap();
    assert_eq!(u64::from_str_radix(cols[at + 3], 16).unwrap(), offset);
    assert_eq!(u64::from_str_radix(cols[at + 4], 16).unwrap(), size);
}

fn cc(args: &[&str], cwd: &Path) {
    let ok = Command::new("cc").args(args).current_dir(cwd).status().unwrap().success();
    assert!(ok, "cc {args:?}");
}

#[test]
fn a_symbol_version_the_provider_lacks_is_predicted_as_the_loader_reports_it() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("prov.c"), "int old_fn(void) { return 1; }\nint new_fn(void) { return 2; }\n")
        .unwrap();
    std::fs::write(
        d.join("v2.map"),
        "PROV_1 { global: old_fn; local: *; };\nPROV_2 { global: new_fn; } PROV_1;\n",
    )
    .unwrap();
    std::fs::write(d.join("v1.map"), "PROV_1 { global: old_fn; new_fn; local: *; };\n").unwrap();
    std::fs::create_dir_all(d.join("new")).unwrap();
    std::fs::create_dir_all(d.join("old")).unwrap();
    cc(
        &[
            "-shared",
            "-fPIC",
            "-o",
            "new/libprov.so.1",
            "prov.c",
            "-Wl,-soname,libprov.so.1",
            "-Wl,--version-script,v2.map",
        ],
        d,
    );
    cc(
        &[
            "-shared",
            "-fPIC",
            "-o",
            "old/libprov.so.1",
            "prov.c",
            "-Wl,-soname,libprov.so.1",
            "-Wl,--version-script,v1.map",
        ],
        d,
    );
    std::fs::write(d.join("main.c"), "int new_fn(void); int main(void) { return new_fn() == 2 ? 0 : 1; }\n")
        .unwrap();
    cc(&["-o", "main", "main.c", "new/libprov.so.1", "-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/old"], d);

    let real = Command::new(d.join("main")).output().unwrap();
    let stderr = String::from_utf8_lossy(&real.stderr);
    assert!(stderr.contains("version `PROV_2' not found"), "{stderr}");

    let out = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["inspect", "--no-live", "--format", "json"])
        .arg(d.join("main"))
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let missing = &json["files"][0]["missing_versions"];
    assert_eq!(missing.as_array().unwrap().len(), 1, "{missing:#}");
    assert_eq!(missing[0]["version"], "PROV_2");
    assert_eq!(missing[0]["provider"], "libprov.so.1");
    assert_eq!(missing[0]["provider_newest"], "PROV_1", "the newest version the old provider has");
}

#[test]
fn the_command_judges_gpu_code_for_a_given_capability() {
    let lib = fixtures().join("binaries/libkernels_cu135.so");
    let run = |gpu: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
            .args(["inspect", "--no-live", "--gpu", gpu])
            .arg(&lib)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let h200 = run("9.0");
    assert!(
        h200.contains("cubins: sm_75 ×1, sm_90a ×1, sm_100 ×1, sm_100a ×1, sm_100f ×1, sm_120f ×1"),
        "{h200}"
    );
    assert!(h200.contains("on compute capability 9.0 [--gpu]: native kernels (sm_90a)"), "{h200}");
    let ampere = run("8.6");
    assert!(ampere.contains("PTX JIT-compiled by the driver at first use (compute_75)"), "{ampere}");
    let b300 = run("10.3");
    assert!(b300.contains("native kernels (sm_100, sm_100f)"), "{b300}");
}

#[test]
fn a_placeholder_says_not_an_elf_file_and_falls_back_to_its_name() {
    let root = fixtures().join("h200-cuda13-torch211/root");
    let out = Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["inspect", "--root"])
        .arg(&root)
        .arg("--env-file")
        .arg(fixtures().join("h200-cuda13-torch211/env"))
        .arg("/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("not an ELF file (empty file)"), "{text}");
    assert!(text.contains("name:     libtorch_cuda.so (only its name is known)"), "{text}");
    let cudnn = text.lines().find(|l| l.trim_start().starts_with("libcudnn.so.9 ")).unwrap();
    assert!(cudnn.contains("site-packages/nvidia/cudnn/lib/libcudnn.so.9"), "{cudnn}");
    assert!(cudnn.contains("[RPATH of libtorch_cuda.so]"), "{cudnn}");
    assert!(!text.contains("warning:"), "no mix without LD_LIBRARY_PATH: {text}");
}
