//! The knowledge base's compatibility tables: invariants every row must keep, and spot checks of
//! rows against verbatim excerpts of their public sources (tests/kb_sources/, each file naming its
//! URL). A wrong number typed into data/*.toml fails one of these.

use cudoctor::kb::tables::{Confidence, Kb};
use cudoctor::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use std::collections::{BTreeSet, HashSet};

fn kb() -> &'static Kb {
    cudoctor::kb::kb().expect("the embedded knowledge base loads")
}

fn source_text(name: &str) -> String {
    let path = format!("{}/tests/kb_sources/{name}", env!("CARGO_MANIFEST_DIR"));
    fs_err::read_to_string(path).expect("source excerpt exists")
}

/// Lines of an excerpt, without the `#` header that names the source.
fn excerpt_lines(name: &str) -> Vec<String> {
    source_text(name).lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
}

fn driver(s: &str) -> DriverVersion {
    s.trim().trim_start_matches(">=").trim().parse().unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

// ---- invariants ------------------------------------------------------------------------------

#[test]
fn every_source_excerpt_names_its_public_url() {
    let files = [
        "cuda_table3_linux.txt",
        "cuda_table3_windows.txt",
        "cuda_minor_version_compatibility.txt",
        "cudnn_9.17.0_support_matrix.txt",
        "cudnn_9.10.2_support_matrix.txt",
        "cudnn_9.0.0_support_matrix.txt",
        "cudnn_8.9.6_support_matrix.txt",
        "pytorch_release_matrix.md",
        "pytorch_pypi_requires_dist.txt",
        "cudnn_pypi_wheels.txt",
        "frameworks_pypi.txt",
        "tensorflow_tested_build_configs_linux_gpu.html",
    ];
    for f in files {
        let text = source_text(f);
        assert!(text.lines().take(3).any(|l| l.contains("Source: https://")), "{f}");
    }
}

#[test]
fn every_row_cites_a_public_https_source_and_every_unverified_row_says_why() {
    let kb = kb();
    let all_sources = kb
        .cuda
        .sources
        .values()
        .chain(kb.drivers.sources.values())
        .chain(kb.cudnn.sources.values())
        .chain(kb.pytorch.sources.values())
        .chain(kb.frameworks.sources.values());
    for s in all_sources {
        assert!(s.url.starts_with("https://"), "{s:?}");
        assert!(!s.document.trim().is_empty(), "{s:?}");
    }
    for r in &kb.cuda.release {
        assert!(r.confidence == Confidence::Confirmed || r.note.is_some(), "{}", r.label);
    }
    for r in &kb.pytorch.release {
        assert!(r.confidence == Confidence::Confirmed || r.note.is_some(), "torch {}", r.version);
    }
    for b in &kb.frameworks.build {
        assert!(b.confidence == Confidence::Confirmed || b.note.is_some(), "{}", b.package);
    }
    for l in &kb.cudnn.layout {
        assert!(l.confidence == Confidence::Confirmed || l.note.is_some(), "cudnn {}", l.major);
    }
    assert_eq!(kb.meta.checked, "2026-11");
}

#[test]
fn toolkit_drivers_never_decrease_within_a_major_as_cuda_grows() {
    let kb = kb();
    let mut rows: Vec<_> = kb.cuda.release.iter().collect();
    rows.sort_by_key(|r| (r.version, r.update));
    for pair in rows.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.version.major != b.version.major {
            continue;
        }
        if let (Some(x), Some(y)) = (&a.linux, &b.linux) {
            assert!(x <= y, "Linux: {} needs {x} but the later {} needs {y}", a.label, b.label);
        }
        if let (Some(x), Some(y)) = (&a.windows, &b.windows) {
            assert!(x <= y, "Windows: {} needs {x} but the later {} needs {y}", a.label, b.label);
        }
    }
    // The table is stored oldest first, as the invariant above reads it.
    let stored: Vec<_> = kb.cuda.release.iter().map(|r| (r.version, r.update)).collect();
    let mut sorted = stored.clone();
    sorted.sort();
    assert_eq!(stored, sorted);
}

#[test]
fn no_table_has_duplicate_keys() {
    let kb = kb();
    let mut seen = HashSet::new();
    for r in &kb.cuda.release {
        assert!(seen.insert((r.version, r.update)), "CUDA {} update {} twice", r.version, r.update);
    }
    let mut seen = HashSet::new();
    for b in &kb.drivers.branch {
        assert!(seen.insert(b.branch), "branch {} twice", b.branch);
    }
    let mut seen = HashSet::new();
    for m in &kb.cuda.minor_compat {
        assert!(seen.insert(m.major), "minor_compat {} twice", m.major);
    }
    let mut seen = HashSet::new();
    for r in &kb.pytorch.release {
        assert!(seen.insert(r.version.to_string()), "torch {} twice", r.version);
        let mut tags = HashSet::new();
        for b in &r.build {
            assert!(tags.insert(&b.tag), "torch {} {} twice", r.version, b.tag);
        }
    }
    let mut covered = HashSet::new();
    for r in &kb.cudnn.release {
        for c in &r.covers {
            assert!(covered.insert(c.to_string()), "cuDNN {c} documented by two rows");
        }
        assert!(r.covers.contains(&r.version), "cuDNN {} row does not cover itself", r.version);
    }
    let mut seen = HashSet::new();
    for b in &kb.frameworks.build {
        assert!(
            seen.insert((
                b.framework.clone(),
                b.package.clone(),
                b.version.as_ref().map(|v| v.to_string()),
                b.platform,
                b.cuda.iter().map(ToString::to_string).collect::<Vec<_>>()
            )),
            "{} {} {:?} twice",
            b.framework,
            b.package,
            b.cuda
        );
    }
    let mut packages = HashSet::new();
    for w in &kb.cudnn.wheels {
        assert!(packages.insert(w.cuda_major), "two wheel lists for CUDA {}", w.cuda_major);
        let mut seen = HashSet::new();
        for v in &w.versions {
            assert!(seen.insert(v.to_string()), "{} {v} twice", w.package);
        }
        let mut sorted = w.versions.clone();
        sorted.sort();
        assert_eq!(sorted, w.versions, "{} is kept oldest first", w.package);
    }
}

#[test]
fn every_build_names_a_cuda_version_the_cuda_table_knows() {
    let kb = kb();
    let known: BTreeSet<CudaVersion> = kb.cuda.release.iter().map(|r| r.version).collect();
    let majors: BTreeSet<u32> = known.iter().map(|v| v.major).collect();
    for r in &kb.pytorch.release {
        for b in &r.build {
            assert!(known.contains(&b.cuda()), "torch {} {}: CUDA {} unknown", r.version, b.tag, b.cuda());
            if let Some(full) = &b.cuda_full {
                let full_cuda = CudaVersion::new(full.major() as u32, full.minor() as u32);
                assert_eq!(full_cuda, b.cuda(), "torch {} {}: cuda_full {full}", r.version, b.tag);
            }
        }
    }
    for r in &kb.cudnn.release {
        for b in &r.build {
            for c in &b.cuda {
                assert!(known.contains(c), "cuDNN {}: CUDA {c} unknown", r.version);
            }
        }
    }
    for b in &kb.frameworks.build {
        for c in &b.cuda {
            match c {
                cudoctor::kb::tables::CudaSpec::Exact(v) => {
                    assert!(known.contains(v), "{} {:?}: CUDA {v} unknown", b.framework, b.version)
                }
                cudoctor::kb::tables::CudaSpec::Major(m) => {
                    assert!(majors.contains(m), "{}: CUDA {m}.x", b.package)
                }
            }
        }
    }
    for b in &kb.drivers.branch {
        assert!(known.contains(&b.newest_cuda), "branch {}: CUDA {} unknown", b.branch, b.newest_cuda);
    }
}

#[test]
fn driver_branches_agree_with_the_toolkit_driver_table() {
    // A branch's newest CUDA is the newest toolkit whose Table 3 driver belongs to that branch or
    // an older one.
    let kb = kb();
    for b in &kb.drivers.branch {
        let newest = kb
            .cuda
            .release
            .iter()
            .filter(|r| r.linux.as_ref().is_some_and(|l| l.branch() <= b.branch))
            .map(|r| r.version)
            .max();
        assert_eq!(newest, Some(b.newest_cuda), "branch {}", b.branch);
    }
}

#[test]
fn minor_version_compatibility_minimums_sit_below_every_later_toolkit_driver_of_their_major() {
    let kb = kb();
    for m in &kb.cuda.minor_compat {
        for r in kb.cuda.release.iter().filter(|r| r.version.major == m.major && r.version.minor > 0) {
            if let Some(l) = &r.linux {
                assert!(&m.linux <= l, "CUDA {}.x minimum {} above {} ({l})", m.major, m.linux, r.label);
            }
        }
    }
    // cuDNN packages never ask for less than the family minimum.
    for r in &kb.cudnn.release {
        for b in &r.build {
            if let (Some(l), Some(major)) = (&b.linux, b.cuda_major()) {
                if let Some(m) = cudoctor::kb::query::minor_compat(kb, major) {
                    assert!(&m.linux <= l, "cuDNN {} for CUDA {major}: {l} below {}", r.version, m.linux);
                }
            }
        }
    }
}

// ---- spot checks against the sources ---------------------------------------------------------

fn cuda_row<'a>(kb: &'a Kb, label: &str) -> &'a cudoctor::kb::tables::CudaRelease {
    kb.cuda.release.iter().find(|r| r.label == label).unwrap_or_else(|| panic!("no row `{label}`"))
}

#[test]
fn toolkit_drivers_match_table_3_linux_row_by_row() {
    let kb = kb();
    let lines = excerpt_lines("cuda_table3_linux.txt");
    assert!(lines.len() >= 60);
    for line in lines.iter().filter(|l| !l.trim().is_empty()) {
        let (label, linux) = line.split_once('|').unwrap();
        let row = cuda_row(kb, label.trim());
        assert_eq!(row.linux.as_ref(), Some(&driver(linux)), "{line}");
    }
    // and the table holds no Linux value that the excerpt lacks
    let labels: HashSet<&str> =
        lines.iter().filter_map(|l| l.split_once('|')).map(|(a, _)| a.trim()).collect();
    for r in kb.cuda.release.iter().filter(|r| r.linux.is_some()) {
        assert!(labels.contains(r.label.as_str()), "{} has a Linux driver no source line confirms", r.label);
    }
}

#[test]
fn toolkit_drivers_match_table_3_windows_where_recorded() {
    let kb = kb();
    for line in excerpt_lines("cuda_table3_windows.txt").iter().filter(|l| !l.trim().is_empty()) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let row = cuda_row(kb, cells[0]);
        assert_eq!(row.linux.as_ref(), Some(&driver(cells[1])), "{line}");
        assert_eq!(row.windows.as_ref(), Some(&driver(cells[2])), "{line}");
    }
}

#[test]
fn minor_version_compatibility_matches_the_compatibility_guide() {
    let kb = kb();
    let text = excerpt_lines("cuda_minor_version_compatibility.txt").join("\n");
    // "CUDA 13.x\n\n>= 580" and so on: the branch of each family's minimum.
    for (major, branch) in [(13u32, 580u64), (12, 525), (11, 450)] {
        let block = text.split(&format!("CUDA {major}.x")).nth(1).unwrap();
        let stated: u64 =
            block.split(">= ").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(stated, branch);
        let row = cudoctor::kb::query::minor_compat(kb, major).unwrap();
        assert_eq!(row.linux.branch(), branch, "CUDA {major}.x");
    }
    assert!(text.contains("450.80.02 (Linux) / 452.39 (Windows)"));
    let m11 = cudoctor::kb::query::minor_compat(kb, 11).unwrap();
    assert_eq!(m11.linux.to_string(), "450.80.02");
    assert_eq!(m11.windows.as_ref().unwrap().to_string(), "452.39");
    // The release notes' Table 2 gives 525.60.13 for 12.x (the 12.0 GA driver).
    let m12 = cudoctor::kb::query::minor_compat(kb, 12).unwrap();
    assert_eq!(m12.linux.to_string(), "525.60.13");
    assert_eq!(m12.below_branch, Some(580));
    assert_eq!(cudoctor::kb::query::minor_compat(kb, 11).unwrap().below_branch, Some(525));
}

/// One block of a cuDNN 9 support matrix excerpt: toolkits, drivers, capabilities.
#[derive(Debug)]
struct MatrixBlock {
    package: String,
    toolkits: BTreeSet<CudaVersion>,
    linux: DriverVersion,
    windows: Option<DriverVersion>,
    capabilities: BTreeSet<ComputeCapability>,
}

/// Parses the one-cell-per-line excerpts of the cuDNN 9 support matrices. Blocks cut short by the
/// excerpt (no driver, or no architecture list after the capabilities) are dropped.
fn parse_matrix(name: &str) -> Vec<MatrixBlock> {
    let mut blocks = Vec::new();
    let lines = excerpt_lines(name);
    let mut chunks: Vec<Vec<String>> = Vec::new();
    for l in lines {
        let t = l.trim().trim_start_matches('•').trim().to_string();
        if t.is_empty() {
            continue;
        }
        if t.starts_with("cuDNN ") && t.contains(" for CUDA ") {
            chunks.push(vec![t]);
        } else if let Some(c) = chunks.last_mut() {
            c.push(t);
        }
    }
    for c in chunks {
        let mut it = c.iter().skip(1).peekable();
        let mut toolkits = BTreeSet::new();
        while let Some(t) = it.peek() {
            if *t == "Yes" || *t == "No" {
                it.next();
                break;
            }
            toolkits.insert(t.parse::<CudaVersion>().unwrap());
            it.next();
        }
        let (Some(linux), Some(windows)) = (it.next(), it.next()) else { continue };
        let mut capabilities = BTreeSet::new();
        let mut complete = false;
        for t in it {
            if t.starts_with("NVIDIA") {
                complete = true;
                break;
            }
            let first = t.split_whitespace().next().unwrap();
            capabilities.insert(first.parse::<ComputeCapability>().unwrap());
        }
        if !complete {
            continue;
        }
        blocks.push(MatrixBlock {
            package: c[0].clone(),
            toolkits,
            linux: driver(linux),
            windows: if windows == "N/A" { None } else { Some(driver(windows)) },
            capabilities,
        });
    }
    blocks
}

fn check_matrix(name: &str, release: &str, expected_blocks: usize) {
    let kb = kb();
    let blocks = parse_matrix(name);
    assert_eq!(blocks.len(), expected_blocks, "{name}: {blocks:?}");
    let release: Version = release.parse().unwrap();
    let row = kb.cudnn.release.iter().find(|r| r.version == release).unwrap();
    for b in blocks {
        let found = row.build.iter().find(|k| {
            let ks: BTreeSet<CudaVersion> = k.cuda.iter().copied().collect();
            b.toolkits.is_subset(&ks) && k.linux.as_ref() == Some(&b.linux)
        });
        let k = found.unwrap_or_else(|| panic!("{name}: no kb build for {} {:?}", b.package, b.toolkits));
        assert_eq!(k.windows, b.windows, "{}", b.package);
        let kcc: BTreeSet<ComputeCapability> = k.compute_capabilities.iter().copied().collect();
        assert_eq!(kcc, b.capabilities, "{}", b.package);
    }
}

#[test]
fn cudnn_9_17_matrix_rows_match() {
    check_matrix("cudnn_9.17.0_support_matrix.txt", "9.17.0", 2);
}

#[test]
fn cudnn_9_10_matrix_rows_match() {
    check_matrix("cudnn_9.10.2_support_matrix.txt", "9.10.2", 3);
}

#[test]
fn cudnn_9_0_matrix_rows_match() {
    check_matrix("cudnn_9.0.0_support_matrix.txt", "9.0.0", 3);
}

#[test]
fn cudnn_8_9_matrix_rows_match() {
    let kb = kb();
    let text = excerpt_lines("cudnn_8.9.6_support_matrix.txt").join("\n");
    let row = kb.cudnn.release.iter().find(|r| r.version.to_string() == "8.9.6").unwrap();
    let b12 = row.build.iter().find(|b| b.cuda_major() == Some(12)).unwrap();
    let b11 = row.build.iter().find(|b| b.cuda_major() == Some(11)).unwrap();
    let line12 = format!(
        "cuDNN 8.9.6 for CUDA 12.x 12.2 Yes >={} >={}",
        b12.linux.as_ref().unwrap(),
        b12.windows.as_ref().unwrap()
    );
    assert!(text.contains(&line12), "{line12}");
    let line11 = format!(
        "cuDNN 8.9.6 for CUDA 11.x 11.8 Yes >= {} >={}",
        b11.linux.as_ref().unwrap(),
        b11.windows.as_ref().unwrap()
    );
    assert!(text.contains(&line11), "{line11}");
    // The capability column, footnote digits stripped: 9.03 is 9.0 (note 3), 8.94 is 8.9 (note 4).
    let ccs: Vec<String> = ["9.03", "8.94", "8.6", "8.0", "7.5", "7.0", "6.1", "6.0", "5.0"]
        .iter()
        .inspect(|c| assert!(text.contains(&format!("\n{c}\n")), "{c}"))
        .map(|c| c[..3].to_string())
        .collect();
    for b in [b12, b11] {
        let mut kb_ccs: Vec<String> = b.compute_capabilities.iter().map(ToString::to_string).collect();
        kb_ccs.sort();
        let mut want = ccs.clone();
        want.sort();
        assert_eq!(kb_ccs, want);
    }
    // Toolkits: 12.0 to 12.2 and 11.0 to 11.8 (11.2, 11.1, 11.0 carry footnotes 7, 8, 9).
    assert_eq!(b12.cuda.iter().map(ToString::to_string).collect::<Vec<_>>(), ["12.0", "12.1", "12.2"]);
    assert_eq!(b11.cuda.len(), 9);
    for t in ["11.7", "11.6", "11.5", "11.4", "11.3", "11.27", "11.18", "11.09"] {
        assert!(text.contains(&format!("\n{t}\n")), "{t}");
    }
}

#[test]
fn pytorch_builds_match_the_release_matrix_row_by_row() {
    let kb = kb();
    let text = source_text("pytorch_release_matrix.md");
    let mut checked = 0;
    for line in
        text.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| PyTorch") && !l.starts_with("| ---"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (version, python, stable, experimental, rocm) =
            (cells[1], cells[2], cells[4], cells[5], cells[6]);
        let release = kb.pytorch.release.iter().find(|r| r.version.to_string() == version).unwrap();
        assert_eq!(release.python.as_deref(), Some(python), "torch {version}");
        assert_eq!(release.rocm, vec![rocm.trim_start_matches("ROCm ").to_string()], "torch {version}");
        for (cell, channel) in [(stable, "stable"), (experimental, "experimental")] {
            // "CUDA 12.6 (CUDNN 9.10.2.21) (NCCL 2.28.9), CUDA 12.8 ..." or "CUDA 11.8, CUDNN 8.7.0.84"
            // (one cuDNN after the list applies to every CUDA before it).
            let trailing_cudnn = cell.split(", ").find_map(|p| p.strip_prefix("CUDNN ")).map(str::to_string);
            for part in cell.split(", ").filter(|p| p.starts_with("CUDA ")) {
                let cuda: CudaVersion = part[5..].split_whitespace().next().unwrap().parse().unwrap();
                let build = release
                    .build
                    .iter()
                    .find(|b| b.cuda() == cuda)
                    .unwrap_or_else(|| panic!("torch {version}: no {} build", cuda.tag()));
                assert_eq!(
                    format!("{:?}", build.channel).to_lowercase(),
                    channel,
                    "torch {version} {}",
                    build.tag
                );
                let pinned = part
                    .split("(CUDNN ")
                    .nth(1)
                    .map(|s| s.trim_end_matches(')').split(')').next().unwrap().to_string());
                let nccl = part.split("(NCCL ").nth(1).map(|s| s.trim_end_matches(')').to_string());
                let want_cudnn = pinned.or_else(|| {
                    // "CUDA 11.8, CUDA 12.4 (CUDNN 9.1.0.70)": the pin belongs to 12.4 only.
                    if cell.contains("(CUDNN") {
                        None
                    } else {
                        trailing_cudnn.clone()
                    }
                });
                // Where the wheel's own metadata pins another cuDNN, the table keeps the wheel's pin
                // and records the matrix's value as a disagreement.
                let kb_cudnn = build.cudnn.as_ref().map(ToString::to_string);
                let disputed =
                    build.disagreement.iter().find(|d| d.field == "cudnn").map(|d| d.value.clone());
                assert!(
                    kb_cudnn == want_cudnn || (disputed.is_some() && disputed == want_cudnn),
                    "torch {version} {}: cuDNN {kb_cudnn:?}, matrix {want_cudnn:?}",
                    build.tag
                );
                // NCCL: the matrix's pin, or (where it names none) the PyPI wheel's.
                let kb_nccl = build.nccl.as_ref().map(ToString::to_string);
                assert!(
                    kb_nccl == nccl || (nccl.is_none() && build.pypi_default),
                    "torch {version} {}: NCCL {kb_nccl:?}, matrix {nccl:?}",
                    build.tag
                );
                checked += 1;
            }
        }
        let listed = stable.matches("CUDA ").count() + experimental.matches("CUDA ").count();
        assert_eq!(release.build.len(), listed, "torch {version}: builds not in the matrix");
    }
    assert!(checked >= 35, "{checked}");
}

#[test]
fn the_drivers_pytorch_builds_need_are_the_official_ones() {
    // The numbers people ask for most, stated once more in full.
    let kb = kb();
    let want = [
        ("2.7", "cu118", "520.61.05", "450.80.02"),
        ("2.4", "cu121", "530.30.02", "525.60.13"),
        ("2.5", "cu124", "550.54.14", "525.60.13"),
        ("2.7", "cu126", "560.28.03", "525.60.13"),
        ("2.9", "cu128", "570.26", "525.60.13"),
        ("2.11", "cu130", "580.95.05", "580"),
        ("2.15", "cu132", "595.58.03", "580"),
    ];
    for (torch, tag, toolkit, minor) in want {
        let a = cudoctor::kb::query::torch(kb, &torch.parse().unwrap()).unwrap();
        let b = a.builds.iter().find(|b| b.build.tag == tag).unwrap();
        assert_eq!(
            b.toolkit.as_ref().unwrap().row.linux.as_ref().unwrap().to_string(),
            toolkit,
            "{torch} {tag}"
        );
        assert_eq!(b.minor_compat.as_ref().unwrap().row.linux.to_string(), minor, "{torch} {tag}");
    }
}

#[test]
fn pypi_default_builds_match_the_wheel_metadata() {
    let kb = kb();
    let text = source_text("pytorch_pypi_requires_dist.txt");
    let mut checked = 0;
    for block in text.split("== torch ").skip(1) {
        let version: Version = block.split_whitespace().next().unwrap().parse().unwrap();
        let pin = |package: &str| -> Option<String> {
            block
                .lines()
                .filter_map(|l| l.strip_prefix("Requires-Dist: "))
                .find(|l| l.starts_with(package))
                .map(|l| l.split("==").nth(1).unwrap().split(';').next().unwrap().trim().to_string())
        };
        let cudnn = pin("nvidia-cudnn-").unwrap();
        let nccl = pin("nvidia-nccl-").unwrap();
        let (cuda, toolkit) = match pin("cuda-toolkit") {
            Some(t) => {
                let v: Version = t.parse().unwrap();
                (CudaVersion::new(v.major() as u32, v.minor() as u32), Some(t))
            }
            None => (pin("nvidia-cuda-runtime-").unwrap().parse::<CudaVersion>().unwrap(), None),
        };
        let release = kb
            .pytorch
            .release
            .iter()
            .find(|r| r.version.major() == version.major() && r.version.minor() == version.minor())
            .unwrap_or_else(|| panic!("no torch {version}"));
        let b = release
            .build
            .iter()
            .find(|b| b.pypi_default)
            .unwrap_or_else(|| panic!("torch {version}: no PyPI build"));
        assert_eq!(b.cuda(), cuda, "torch {version}");
        assert_eq!(b.cudnn.as_ref().map(ToString::to_string), Some(cudnn), "torch {version}");
        assert_eq!(b.nccl.as_ref().map(ToString::to_string), Some(nccl), "torch {version}");
        assert_eq!(b.cuda_full.as_ref().map(ToString::to_string), toolkit, "torch {version}");
        let python = block.lines().find_map(|l| l.strip_prefix("Requires-Python: ")).unwrap();
        assert!(
            release.python.as_deref().unwrap_or_default().starts_with(python),
            "torch {version}: {python}"
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
    assert_eq!(
        kb.pytorch.release.iter().filter(|r| r.build.iter().filter(|b| b.pypi_default).count() > 1).count(),
        0
    );
}

#[test]
fn cudnn_wheels_per_cuda_major_match_pypi() {
    let kb = kb();
    let lines = excerpt_lines("cudnn_pypi_wheels.txt");
    let mut n = 0;
    for pair in lines.chunks(2) {
        let package = pair[0].split_whitespace().next().unwrap();
        let listed: BTreeSet<String> =
            pair[1].trim_start_matches("Available versions: ").split(", ").map(str::to_string).collect();
        let w = kb.cudnn.wheels.iter().find(|w| w.package == package).unwrap();
        let ours: BTreeSet<String> = w.versions.iter().map(ToString::to_string).collect();
        assert_eq!(ours, listed, "{package}");
        assert_eq!(package, format!("nvidia-cudnn-cu{}", w.cuda_major));
        n += 1;
    }
    assert_eq!(n, 3);
    // The facts people ask: CUDA 11 wheels stop at 9.10.2, CUDA 13 wheels start at 9.12.0.
    let last11 = kb.cudnn.wheels.iter().find(|w| w.cuda_major == 11).unwrap().versions.last().unwrap();
    assert_eq!(last11.to_string(), "9.10.2.21");
    let first13 = kb.cudnn.wheels.iter().find(|w| w.cuda_major == 13).unwrap().versions.first().unwrap();
    assert_eq!(first13.to_string(), "9.12.0.46");
}

#[test]
fn every_declared_source_is_cited_by_some_row() {
    // A source nobody cites is a sign of a row that was removed or retyped; keep the two in step.
    let dump = serde_json::to_value(kb()).unwrap();
    for table in ["cuda", "drivers", "cudnn", "pytorch", "frameworks"] {
        let t = &dump[table];
        let rows = {
            let mut t = t.clone();
            t.as_object_mut().unwrap().remove("sources");
            t.to_string()
        };
        for id in t["sources"].as_object().unwrap().keys() {
            assert!(rows.contains(&format!("\"{id}\"")), "{table}: source `{id}` is cited by no row");
        }
    }
}
