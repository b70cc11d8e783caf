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
        "cuda_table3_13.2.2.txt",
        "cuda_forward_compatibility.txt",
        "datacenter_driver_branches.txt",
        "cuda_minor_version_compatibility.txt",
        "cudnn_9.17.0_support_matrix.txt",
        "cudnn_9.10.2_support_matrix.txt",
        "cudnn_9.0.0_support_matrix.txt",
        "cudnn_8.9.6_support_matrix.txt",
        "cudnn_8.9.5_support_matrix.txt",
        "cudnn_8.9.1_support_matrix.txt",
        "cudnn_9.5.0_support_matrix.txt",
        "cudnn_8.5.0_support_matrix.txt",
        "cudnn_8.4.0_support_matrix.txt",
        "cudnn_8.3.0_support_matrix.txt",
        "cudnn_8.2.2_support_matrix.txt",
        "cudnn_8.0.3_support_matrix.txt",
        "cudnn_7.6.4_support_matrix.txt",
        "cudnn_7.6.0_support_matrix.txt",
        "pytorch_release_matrix.md",
        "pytorch_pypi_requires_dist.txt",
        "cudnn_pypi_wheels.txt",
        "cudnn_pypi_json.txt",
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
        assert!(seen.insert((
            b.framework.clone(),
            b.package.clone(),
            b.version.as_ref().map(|v| v.to_string())
        )));
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
        if let Some(n) = b.newest_cuda {
            assert!(known.contains(&n), "branch {}: CUDA {n} unknown", b.branch);
        }
    }
    for p in &kb.cuda.forward_compat.matrix {
        assert!(known.contains(&p.cuda), "{}: CUDA {} unknown", p.name(), p.cuda);
    }
}

#[test]
fn driver_branches_agree_with_the_toolkit_driver_table() {
    // A branch's newest CUDA is the newest toolkit whose Table 3 driver belongs to that branch or
    // an older one; rows taken from the compatibility guide agree with its table's columns; a row
    // without a newest CUDA says why.
    let kb = kb();
    let fc = &kb.cuda.forward_compat;
    for b in &kb.drivers.branch {
        match b.source.as_str() {
            "t3" | "t3-133" => {
                let newest = kb
                    .cuda
                    .release
                    .iter()
                    .filter(|r| r.linux.as_ref().is_some_and(|l| l.branch() <= b.branch))
                    .map(|r| r.version)
                    .max();
                assert_eq!(newest, b.newest_cuda, "branch {}", b.branch);
            }
            "fwd" => {
                let t = fc.target.iter().find(|t| t.branch == b.branch).expect("a column of the table");
                assert_eq!(Some(t.cuda), b.newest_cuda, "branch {}", b.branch);
            }
            other => assert!(
                b.newest_cuda.is_none() && b.note.is_some(),
                "branch {}: newest CUDA from `{other}`, which pairs no toolkit",
                b.branch
            ),
        }
    }
    // Every column of the forward-compatibility table names a branch and the CUDA it is paired
    // with: the same pairing the driver table holds.
    for t in &fc.target {
        let b = kb.drivers.branch.iter().find(|b| b.branch == t.branch).expect("branch row");
        assert_eq!(b.newest_cuda, Some(t.cuda), "column {}+", t.branch);
    }
    // Branches are stored oldest first.
    let stored: Vec<u64> = kb.drivers.branch.iter().map(|b| b.branch).collect();
    let mut sorted = stored.clone();
    sorted.sort();
    assert_eq!(stored, sorted);
}

#[test]
fn forward_compat_packages_only_run_on_older_branches_and_newer_packages_cover_more() {
    let kb = kb();
    let fc = &kb.cuda.forward_compat;
    let paired = |branch: u64| fc.target.iter().find(|t| t.branch == branch).map(|t| t.cuda).unwrap();
    for p in &fc.matrix {
        for &b in &p.runs_on {
            // a compat package brings a newer CUDA to an older branch, never an older one
            assert!(paired(b) < p.cuda, "{} on R{b} ({})", p.name(), paired(b));
        }
        // every older-paired branch of the table that the package skips is its own (N/A) or
        // one the guide marks X; a newer package runs wherever an older one does
        for q in fc.matrix.iter().filter(|q| q.cuda > p.cuda) {
            for b in &p.runs_on {
                assert!(
                    q.runs_on.contains(b),
                    "{} runs on R{b} but the newer {} does not",
                    p.name(),
                    q.name()
                );
            }
        }
    }
    let mut seen = HashSet::new();
    for p in &fc.matrix {
        assert!(seen.insert(p.cuda), "{} twice", p.name());
    }
    assert!(fc.applies_to.iter().any(|a| a.contains("Data Center GPUs")));
    assert!(fc.errors.iter().any(|e| e.code == 804 && e.name == "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"));
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

/// The Table 3 rows of the 13.2 Update 2 notes: (label, Linux, Windows cell).
fn table3_13_2_2() -> Vec<(String, String, String)> {
    let text = excerpt_lines("cuda_table3_13.2.2.txt").join("\n");
    let table = text.split("Table 3 CUDA Toolkit and Corresponding Driver Versions").nth(1).unwrap();
    table
        .lines()
        .filter(|l| l.starts_with("CUDA ") && l.matches('|').count() == 2)
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[0].to_string(), cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn toolkit_drivers_match_table_3_of_the_13_2_2_notes_linux_and_windows() {
    let kb = kb();
    let rows = table3_13_2_2();
    assert_eq!(rows.len(), 64);
    let mut checked = 0;
    for (label, linux, windows) in &rows {
        // The notes list 7.0, 7.5 and the 11.0.1 release candidate, which the kb leaves out.
        if label.starts_with("CUDA 7.") || label.contains(" RC") {
            assert!(kb.cuda.release.iter().all(|r| &r.label != label), "{label}");
            continue;
        }
        let row = cuda_row(kb, label);
        assert_eq!(row.linux.as_ref(), Some(&driver(linux)), "{label}");
        if windows == "N/A" {
            assert_eq!(row.windows, None, "{label}");
            assert!(row.windows_note.as_deref().unwrap_or("").starts_with("N/A"), "{label}");
        } else {
            assert_eq!(row.windows.as_ref(), Some(&driver(windows)), "{label}");
        }
        checked += 1;
    }
    assert_eq!(checked, 61);
    // Every Windows value the kb holds is one this table states.
    let labels: HashSet<&str> = rows.iter().map(|(l, _, _)| l.as_str()).collect();
    for r in kb.cuda.release.iter().filter(|r| r.windows.is_some()) {
        assert!(labels.contains(r.label.as_str()), "{}: Windows value without a source line", r.label);
    }
}

#[test]
fn minor_version_ranges_match_table_2_of_the_13_2_2_notes() {
    let kb = kb();
    let text = excerpt_lines("cuda_table3_13.2.2.txt").join("\n");
    for (major, min, max) in [(13u32, 580u64, None), (12, 525, Some(580u64)), (11, 450, Some(525))] {
        let line = text.lines().find(|l| l.starts_with(&format!("{major}.x "))).unwrap();
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[1], format!(">= {min}"));
        assert_eq!(cells[2], max.map_or("N/A".to_string(), |m| format!("< {m}")));
        let row = cudoctor::kb::query::minor_compat(kb, major).unwrap();
        assert_eq!(row.linux.branch(), min, "CUDA {major}.x");
        assert_eq!(row.below_branch, max, "CUDA {major}.x");
        if let Some(w) = &row.windows {
            // Windows drivers are numbered apart (528.33) but sit in the same range
            assert!(w.branch() >= min && max.is_none_or(|m| w.branch() < m), "CUDA {major}.x Windows");
        }
    }
    assert!(text.contains("Tesla Recommended Drivers 450.80.02 (Linux) / 452.39 (Windows)"));
    assert!(text.contains("Starting with CUDA 13.1, the Windows display driver is no longer bundled"));
}

#[test]
fn forward_compat_table_matches_the_compatibility_guide() {
    let kb = kb();
    let fc = &kb.cuda.forward_compat;
    let text = excerpt_lines("cuda_forward_compatibility.txt").join("\n");
    let cells: Vec<&str> = text.lines().map(|l| l.trim_end_matches('|').trim()).collect();
    // The columns: "535+ (CUDA 12.2)".
    let columns: Vec<(u64, CudaVersion)> = cells
        .iter()
        .filter_map(|c| {
            let (branch, rest) = c.split_once("+ (CUDA ")?;
            Some((branch.parse().ok()?, rest.trim_end_matches(')').parse().ok()?))
        })
        .collect();
    assert_eq!(columns.len(), 7);
    let stored: Vec<(u64, CudaVersion)> = fc.target.iter().map(|t| (t.branch, t.cuda)).collect();
    assert_eq!(stored, columns);
    // The rows: a package name, then one cell per column.
    let mut rows = 0;
    for (i, c) in cells.iter().enumerate() {
        let Some(name) = c.strip_prefix("cuda-compat-") else { continue };
        if name.contains('<') || name.contains('`') || name.contains(' ') {
            continue;
        }
        let v: CudaVersion = name.replace('-', ".").parse().unwrap();
        let marks = &cells[i + 1..i + 1 + columns.len()];
        let want: Vec<u64> =
            columns.iter().zip(marks).filter(|(_, m)| **m == "C").map(|((b, _), _)| *b).collect();
        for ((b, paired), m) in columns.iter().zip(marks) {
            assert!(["C", "X", "N/A"].contains(m), "{name} R{b}: {m}");
            // N/A marks the package's own branch
            assert_eq!(*m == "N/A", *paired == v, "{name} R{b}");
        }
        let row = fc.matrix.iter().find(|p| p.cuda == v).unwrap_or_else(|| panic!("no row {name}"));
        assert_eq!(row.runs_on, want, "cuda-compat-{name}");
        rows += 1;
    }
    assert_eq!(rows, 12);
    assert_eq!(fc.matrix.len(), rows);
    assert!(text.contains("Branches not listed in the table above are end of life"));
    assert!(text.contains("New Feature Branches are not supported targets"));
    assert!(text.contains("NVIDIA Data Center GPUs."));
    for e in &fc.errors {
        assert!(text.contains(&format!("{} = {}", e.name, e.code)), "{}", e.name);
        assert!(text.contains(&e.meaning), "{}", e.name);
    }
    assert_eq!(fc.introduced_in, CudaVersion::new(10, 0));
    assert!(text.contains("Forward Compatibility Upgrade path in CUDA 10.0"));
}

#[test]
fn driver_branch_lifecycle_matches_the_data_center_support_matrices() {
    use cudoctor::kb::tables::Designation;
    let kb = kb();
    let text = excerpt_lines("datacenter_driver_branches.txt").join("\n");
    let designation = |s: &str| match s {
        "Long Term Support Branch" => Designation::Lts,
        "Production Branch" => Designation::Production,
        "New Feature Branch" => Designation::NewFeature,
        "Evaluation/Developer Branch" => Designation::Evaluation,
        other => panic!("{other}"),
    };
    let mut confirmed = 0;
    for edition in text.split("== ").skip(1) {
        let mut lines = edition.lines();
        let id = lines.next().unwrap().split_whitespace().next().unwrap();
        let cells: Vec<&str> = lines.collect();
        let branches: Vec<u64> =
            cells.iter().map_while(|c| c.strip_prefix('R').and_then(|b| b.parse().ok())).collect();
        let n = branches.len();
        let at = |header: &str| cells.iter().position(|c| *c == header).unwrap() + 1;
        let designations = &cells[at("Branch Designation")..at("Branch Designation") + n];
        let eols = &cells[at("End of Life")..at("End of Life") + n];
        for ((b, d), e) in branches.iter().zip(designations).zip(eols) {
            let row = kb.drivers.branch.iter().find(|r| r.branch == *b).unwrap_or_else(|| panic!("R{b}"));
            if row.lifecycle_source.as_deref() == Some(id) {
                assert_eq!(row.designation, Some(designation(d)), "R{b} in {id}");
                assert_eq!(row.end_of_life.as_deref(), Some(*e), "R{b} in {id}");
                confirmed += 1;
            } else if row.end_of_life.as_deref() != Some(*e) {
                // another edition says otherwise: the row must keep it as a disagreement
                assert!(
                    row.disagreement.iter().any(|x| x.source == id && x.value == *e),
                    "R{b}: {id} says {e}, the row {:?} without a disagreement",
                    row.end_of_life
                );
            }
        }
        // The v580 edition's list of end-of-life branches.
        if let Some(note) = cells.iter().find(|c| c.starts_with("Note: All other previous driver branches")) {
            for b in note
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter_map(|w| w.strip_prefix('R')?.parse::<u64>().ok())
            {
                if let Some(row) = kb.drivers.branch.iter().find(|r| r.branch == b) {
                    if row.lifecycle_source.as_deref() == Some(id) {
                        assert!(row.note.as_deref().unwrap_or("").contains("end of life"), "R{b}");
                        confirmed += 1;
                    }
                }
            }
        }
    }
    // every branch whose lifecycle cites a matrix was checked against it
    let cited = kb.drivers.branch.iter().filter(|b| b.lifecycle_source.is_some()).count();
    assert_eq!(confirmed, cited);
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
            // `11.4 4`: the toolkit and a footnote number.
            let first = t.split_whitespace().next().unwrap();
            toolkits.insert(first.parse::<CudaVersion>().unwrap());
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
fn cudnn_9_5_0_matrix_rows_match() {
    check_matrix("cudnn_9.5.0_support_matrix.txt", "9.5.0", 3);
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

/// The 8.9 matrices as their text flows (HTML or PDF): every toolkit, driver and capability the
/// excerpt names is the kb row's, and the other way round. Footnote digits run into numbers
/// ("11.27" is 11.2 with footnote 7, "9.03" is 9.0 with footnote 3): CUDA 11/12 and the
/// capabilities of these matrices have one-digit minors, so the first digit after the dot is kept.
fn check_89_text(name: &str, release: &str) {
    let kb = kb();
    let text = excerpt_lines(name).join("\n");
    let row = kb.cudnn.release.iter().find(|r| r.version.to_string() == release).unwrap();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let toolkit = regex::Regex::new(r"^(1[12]\.\d)\d?$").unwrap();
    let capability = regex::Regex::new(r"^(\d\.\d)\d?$").unwrap();
    let listed_toolkits: BTreeSet<CudaVersion> =
        tokens.iter().filter_map(|t| toolkit.captures(t)).map(|c| c[1].parse().unwrap()).collect();
    let listed_ccs: BTreeSet<ComputeCapability> =
        tokens.iter().filter_map(|t| capability.captures(t)).map(|c| c[1].parse().unwrap()).collect();
    let at_least = regex::Regex::new(r">=\s*(\d+\.\d+(?:\.\d+)?)").unwrap();
    let drivers: BTreeSet<DriverVersion> = at_least.captures_iter(&text).map(|c| driver(&c[1])).collect();
    let kb_toolkits: BTreeSet<CudaVersion> = row.build.iter().flat_map(|b| b.cuda.iter().copied()).collect();
    assert_eq!(kb_toolkits, listed_toolkits, "{name}");
    let kb_drivers: BTreeSet<DriverVersion> =
        row.build.iter().flat_map(|b| b.linux.iter().chain(b.windows.iter()).cloned()).collect();
    assert_eq!(kb_drivers, drivers, "{name}");
    assert_eq!(listed_ccs.len(), 9, "{name}: {listed_ccs:?}");
    for b in &row.build {
        let kcc: BTreeSet<ComputeCapability> = b.compute_capabilities.iter().copied().collect();
        assert_eq!(kcc, listed_ccs, "{name} {:?}", b.package);
        // Each package names its own major's drivers: 525.60.13 / 527.41 for 12.x, 450.80.02 /
        // 452.39 for 11.x, the pairs the text gives beside `for CUDA 12.x` and `for CUDA 11.x`.
        let major = b.cuda_major().unwrap();
        let line = text.lines().find(|l| l.contains(&format!("for CUDA {major}.x"))).unwrap_or_default();
        if line.contains(">=") {
            let on_line: Vec<DriverVersion> = at_least.captures_iter(line).map(|c| driver(&c[1])).collect();
            assert_eq!(on_line, [b.linux.clone().unwrap(), b.windows.clone().unwrap()], "{name} {major}");
        }
    }
}

#[test]
fn cudnn_8_9_1_and_8_9_5_matrix_rows_match() {
    check_89_text("cudnn_8.9.1_support_matrix.txt", "8.9.1");
    check_89_text("cudnn_8.9.5_support_matrix.txt", "8.9.5");
    check_89_text("cudnn_8.9.6_support_matrix.txt", "8.9.6");
}

/// One row of an older matrix: a toolkit, its "SM x and later" cell (which spans the rows below
/// it), and its driver cell ("r450", "r460, r455, r450", "r418.39"), if any.
#[derive(Debug)]
struct SmRow {
    cuda: CudaVersion,
    sm: Option<ComputeCapability>,
    drivers: Vec<(u64, Option<String>)>,
    not_supported: bool,
}

/// Reads the rows of one section of a 7.6 - 8.5 matrix excerpt, whatever the text flow (HTML
/// table, PDF columns): toolkits are `CUDA 10.1.243`-style anywhere or a `11.4`-style cell at the
/// start of a line; footnote digits run into the toolkit (`11.41`), so only the first minor digit
/// is kept.
fn sm_rows(section: &str) -> Vec<SmRow> {
    let re = regex::Regex::new(
        r"(?m)(?:(?P<pkg>for\s+)?CUDA (?P<t1>(?:8|9|10|11)\.\d)[\d.x]*(?P<ns> \(Not Supported\))?|^(?P<t2>1[01]\.\d)\d?(?: update \d)?(?:\s*\||[ \t]*$|\s)|SM (?P<sm>\d\.\d) and later|\b[rR](?P<br>\d{3})(?:\.(?P<rest>\d+))?\b)",
    )
    .unwrap();
    let mut rows: Vec<SmRow> = Vec::new();
    let mut carry: Option<ComputeCapability> = None;
    for c in re.captures_iter(section) {
        if c.name("pkg").is_some() {
            // `cuDNN 8.4.0 for CUDA 10.2`: a package name, not a row.
            continue;
        }
        if let Some(t) = c.name("t1").or_else(|| c.name("t2")) {
            rows.push(SmRow {
                cuda: t.as_str().parse().unwrap(),
                sm: carry,
                drivers: Vec::new(),
                not_supported: c.name("ns").is_some(),
            });
        } else if let Some(sm) = c.name("sm") {
            let sm: ComputeCapability = sm.as_str().parse().unwrap();
            if let Some(last) = rows.last_mut() {
                last.sm = Some(sm);
            }
            // A spanning cell placed after the rows it spans (PDF flow) covers those before it.
            if carry.is_none() {
                rows.iter_mut().filter(|r| r.sm.is_none()).for_each(|r| r.sm = Some(sm));
            }
            carry = Some(sm);
        } else if let (Some(br), Some(last)) = (c.name("br"), rows.last_mut()) {
            last.drivers.push((br.as_str().parse().unwrap(), c.name("rest").map(|r| r.as_str().to_string())));
        }
    }
    rows
}

/// Checks the sections `(from, to, release)` of an excerpt against the kb rows of `release`:
/// each supported toolkit is a build with that SM floor and driver, a toolkit listed as not
/// supported has no build, and the kb has no build the sections of that release lack (two
/// sections may give one table twice, as a page and its PDF flow it).
fn check_sm_matrix(name: &str, sections: &[(&str, &str, &str)]) {
    let kb = kb();
    let text = excerpt_lines(name).join("\n");
    let mut listed_per_release: std::collections::BTreeMap<&str, BTreeSet<CudaVersion>> = Default::default();
    for (from, to, release) in sections {
        let start = text.find(from).unwrap_or_else(|| panic!("{name}: no `{from}`"));
        let end = text[start..].find(to).map_or(text.len(), |e| start + e);
        let rows = sm_rows(&text[start..end]);
        assert!(!rows.is_empty(), "{name} {release}: no rows");
        let row = kb.cudnn.release.iter().find(|r| r.version.to_string() == *release).unwrap();
        let listed = listed_per_release.entry(release).or_default();
        for r in &rows {
            let build = row.build.iter().find(|b| b.cuda.contains(&r.cuda));
            if r.not_supported {
                assert!(build.is_none(), "{name} {release}: CUDA {} is listed as not supported", r.cuda);
                continue;
            }
            listed.insert(r.cuda);
            let b = build.unwrap_or_else(|| panic!("{name} {release}: no build for CUDA {}", r.cuda));
            if let Some(sm) = r.sm {
                assert_eq!(b.min_compute_capability, Some(sm), "{name} {release} CUDA {}", r.cuda);
            }
            match r.drivers.iter().min() {
                None => assert!(b.linux.is_none() && b.linux_branch.is_none(), "{name} {release} {}", r.cuda),
                Some((branch, None)) => {
                    assert_eq!(b.linux_branch, Some(*branch), "{name} {release} CUDA {}", r.cuda)
                }
                Some((branch, Some(rest))) => assert_eq!(
                    b.linux.as_ref().map(ToString::to_string),
                    Some(format!("{branch}.{rest}")),
                    "{name} {release} CUDA {}",
                    r.cuda
                ),
            }
        }
    }
    for (release, listed) in listed_per_release {
        let row = kb.cudnn.release.iter().find(|r| r.version.to_string() == release).unwrap();
        let kb_toolkits: BTreeSet<CudaVersion> =
            row.build.iter().flat_map(|b| b.cuda.iter().copied()).collect();
        assert_eq!(kb_toolkits, listed, "{name} {release}");
    }
}

#[test]
fn cudnn_7_6_to_8_5_matrix_rows_match() {
    check_sm_matrix(
        "cudnn_8.0.3_support_matrix.txt",
        &[
            ("cuDNN 8.0.2 - 8.0.3", "1.2. cuDNN 8.0.0", "8.0.3"),
            ("1.2. cuDNN 8.0.0 - 8.0.1 Preview", "1.3. cuDNN", "8.0.1"),
            ("1.3. cuDNN 7.6.4 - 7.6.5", "1.4. cuDNN", "7.6.5"),
            ("1.4. cuDNN 7.6.3", "1.5. cuDNN", "7.6.3"),
        ],
    );
    check_sm_matrix(
        "cudnn_8.2.2_support_matrix.txt",
        &[("Table 1.", "Table 2.", "8.2.2"), ("Table 2.", "8.1.0 - 8.1.1", "8.2.1")],
    );
    check_sm_matrix("cudnn_8.3.0_support_matrix.txt", &[("Table 1.", "\u{0}", "8.3.0")]);
    check_sm_matrix(
        "cudnn_8.4.0_support_matrix.txt",
        &[
            ("cuDNN Package |", "2. CPU Architecture", "8.4.0"),
            ("2. CPU Architecture And OS Requirements", "\u{0}", "8.4.0"),
        ],
    );
    check_sm_matrix("cudnn_8.5.0_support_matrix.txt", &[("Table 1.", "\u{0}", "8.5.0")]);
    check_sm_matrix("cudnn_7.6.0_support_matrix.txt", &[("cuDNN 7.6.0", "cuDNN 7.5.1", "7.6.0")]);
}

#[test]
fn cudnn_7_6_4_follows_its_own_matrix_which_has_no_cuda_10_2() {
    let kb = kb();
    let text = excerpt_lines("cudnn_7.6.4_support_matrix.txt").join("\n");
    assert!(text.contains("cuDNN v7.6.3 - v7.6.4"));
    let first = sm_rows(&text);
    assert_eq!(first[0].cuda, CudaVersion::new(10, 1), "{first:?}");
    let v764: Version = "7.6.4".parse().unwrap();
    let row = kb.cudnn.release.iter().find(|r| r.covers.contains(&v764)).unwrap();
    assert!(row.covers.contains(&"7.6.3".parse().unwrap()));
    assert!(row.build.iter().all(|b| !b.cuda.contains(&CudaVersion::new(10, 2))));
    let b = row.build.iter().find(|b| b.cuda.contains(&first[0].cuda)).unwrap();
    assert_eq!(b.linux.as_ref().map(ToString::to_string).as_deref(), Some("418.39"));
}

#[test]
fn cudnn_releases_are_kept_oldest_first_and_every_build_names_its_capabilities_or_says_why() {
    let kb = kb();
    let versions: Vec<&Version> = kb.cudnn.release.iter().map(|r| &r.version).collect();
    let mut sorted = versions.clone();
    sorted.sort();
    assert_eq!(versions, sorted);
    for r in &kb.cudnn.release {
        assert!(r.confidence == Confidence::Confirmed || r.note.is_some(), "cudnn {}", r.version);
        for b in &r.build {
            let has_ccs = !b.compute_capabilities.is_empty() || b.min_compute_capability.is_some();
            assert!(
                has_ccs || r.note.is_some(),
                "cuDNN {} CUDA {:?}: no capabilities, no note",
                r.version,
                b.cuda
            );
            assert!(b.cuda.windows(2).all(|w| w[0] < w[1]), "cuDNN {}: toolkits oldest first", r.version);
            let majors: BTreeSet<u32> = b.cuda.iter().map(|c| c.major).collect();
            assert_eq!(majors.len(), 1, "cuDNN {}: one package spans one CUDA major", r.version);
        }
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
        // The matrix names the newest ROCm; the release also had older ROCm wheels, and the matrix
        // writes some versions shorter than their wheel index (`ROCm 5.4` is rocm5.4.2).
        let rocm = rocm.trim_start_matches("ROCm ");
        assert!(
            release.rocm.iter().any(|r| r == rocm || r.starts_with(&format!("{rocm}."))),
            "torch {version}: ROCm {rocm} not in {:?}",
            release.rocm
        );
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
        // A build the matrix does not list must name the source it was read from.
        let listed = stable.matches("CUDA ").count() + experimental.matches("CUDA ").count();
        let own = release.build.iter().filter(|b| b.source.is_none()).count();
        assert_eq!(
            own, listed,
            "torch {version}: builds not in the matrix and without a source of their own"
        );
    }
    assert!(checked >= 35, "{checked}");
}

#[test]
fn tensorflow_builds_match_the_tested_build_configurations() {
    let kb = kb();
    let text = source_text("tensorflow_tested_build_configs_linux_gpu.html");
    let mut n = 0;
    for line in text.lines().filter(|l| l.starts_with("<tr><td>")) {
        let cells: Vec<&str> = line.split("<td>").skip(1).map(|c| c.split("</td>").next().unwrap()).collect();
        let version = cells[0].trim_start_matches("tensorflow-");
        let b = kb
            .frameworks
            .build
            .iter()
            .find(|b| {
                b.framework == "tensorflow"
                    && b.version.as_ref().map(|v| v.to_string()).as_deref() == Some(version)
            })
            .unwrap_or_else(|| panic!("no tensorflow {version}"));
        assert_eq!(b.python.as_deref(), Some(cells[1]));
        assert_eq!(b.cudnn.as_deref(), Some(cells[4]));
        assert_eq!(b.cuda.iter().map(ToString::to_string).collect::<Vec<_>>(), [cells[5]]);
        n += 1;
    }
    assert_eq!(n, 22);
    assert_eq!(kb.frameworks.build.iter().filter(|b| b.framework == "tensorflow").count(), n);
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
        ("2.14", "cu132", "595.58.03", "580"),
        // 2.15 pins cuda-toolkit 13.2.2: Update 2 of 13.2, whose driver the 13.2.2 notes raise
        ("2.15", "cu132", "595.71.05", "580"),
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
                // `pkg==1.2.3; marker` or, in older metadata, `pkg (==1.2.3) ; marker`
                .map(|l| {
                    l.split("==")
                        .nth(1)
                        .unwrap()
                        .split(';')
                        .next()
                        .unwrap()
                        .trim()
                        .trim_end_matches(')')
                        .to_string()
                })
        };
        let cudnn = pin("nvidia-cudnn-").unwrap();
        // 1.13 pins no NCCL (it is built in).
        let nccl = pin("nvidia-nccl-");
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
        assert_eq!(b.nccl.as_ref().map(ToString::to_string), nccl, "torch {version}");
        assert_eq!(b.cuda_full.as_ref().map(ToString::to_string), toolkit, "torch {version}");
        // The table never claims an older Python than the wheel accepts. (Requires-Python can lag:
        // 2.5.0 says >=3.8.0 but has no cp38 wheel, and the matrix says >=3.9.)
        let requires: Version =
            block.lines().find_map(|l| l.strip_prefix("Requires-Python: >=")).unwrap().parse().unwrap();
        let ours: Version = release.python.as_deref().unwrap()[2..]
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(ours.truncated(2) >= requires.truncated(2), "torch {version}: {ours} < {requires}");
        checked += 1;
    }
    assert_eq!(checked, 17);
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
fn cudnn_wheel_lists_are_the_installable_linux_x86_64_releases_of_pypi_json() {
    let kb = kb();
    let mut from_json: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for line in excerpt_lines("cudnn_pypi_json.txt") {
        let cells: Vec<&str> = line.split(" | ").collect();
        let (package, version) = cells[0].split_once(' ').unwrap();
        let entry = from_json.entry(package.to_string()).or_default();
        let linux_x86 = cells[1].split(',').any(|t| t.starts_with("manylinux") && t.ends_with("x86_64"));
        // pip skips yanked files and pre-releases (`.dev`, `a0`) unless asked for them.
        let pre = version.contains("dev") || version.contains('a');
        if linux_x86 && cells[2] == "-" && !pre {
            entry.insert(version.to_string());
        }
    }
    assert_eq!(from_json.len(), 3);
    for (package, listed) in from_json {
        let w = kb.cudnn.wheels.iter().find(|w| w.package == package).unwrap();
        let ours: BTreeSet<String> = w.versions.iter().map(ToString::to_string).collect();
        assert_eq!(ours, listed, "{package}");
    }
}

#[test]
fn cupy_and_jax_packages_span_the_releases_pypi_lists() {
    let kb = kb();
    let lines = excerpt_lines("frameworks_pypi.txt");
    let mut n = 0;
    for pair in lines.windows(2) {
        let Some(listed) = pair[1].strip_prefix("Available versions: ") else { continue };
        let package = pair[0].split_whitespace().next().unwrap();
        let versions: Vec<&str> = listed.split(", ").collect();
        let (newest, oldest) = (versions[0], versions[versions.len() - 1]);
        let row = kb
            .frameworks
            .build
            .iter()
            .find(|b| {
                b.package == package
                    || (package.starts_with("jax-") && b.package == format!("jax[{}]", &package[4..10]))
            })
            .unwrap_or_else(|| panic!("no row for {package}"));
        assert_eq!(row.versions.as_deref(), Some(format!("{oldest} to {newest}").as_str()), "{package}");
        let cuda_major: u32 = package.split("cuda").nth(1).unwrap()[..2].parse().unwrap();
        assert_eq!(row.cuda.iter().map(|c| c.major()).collect::<Vec<_>>(), [cuda_major], "{package}");
        n += 1;
    }
    assert_eq!(n, 5);
    // onnxruntime-gpu: CUDA 12 wheels up to 1.26, CUDA 13 from 1.27.
    for line in lines.iter().filter(|l| l.starts_with("onnxruntime-gpu ")) {
        let v: Version = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let major = if line.contains("cudnn-cu13") { 13 } else { 12 };
        let row = kb
            .frameworks
            .build
            .iter()
            .filter(|b| b.framework == "onnxruntime" && b.version.as_ref().is_some_and(|r| *r <= v))
            .max_by(|a, b| a.version.cmp(&b.version))
            .unwrap();
        assert_eq!(row.cuda.iter().map(|c| c.major()).collect::<Vec<_>>(), [major], "onnxruntime-gpu {v}");
    }
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

#[test]
fn forward_compat_answers_for_drivers_and_toolkits() {
    use cudoctor::kb::query;
    let kb = kb();
    let of = |d: &str| query::driver(kb, &driver(d)).forward_compat.expect("the guide is a source");
    // R470 is not a column of the guide's table: no package is supported on it.
    let r470 = of("470.82.01");
    assert!(r470.target.is_none());
    assert!(r470.packages.is_empty());
    // R535 runs every package from 12.3 to 13.4; R580 only the 13.x packages newer than 13.0.
    let r535 = of("535.104.05");
    assert_eq!(r535.packages.len(), 11);
    assert_eq!(r535.packages.first().map(String::as_str), Some("cuda-compat-13-4"));
    assert_eq!(r535.packages.last().map(String::as_str), Some("cuda-compat-12-3"));
    assert_eq!(
        of("580.95.05").packages,
        ["cuda-compat-13-4", "cuda-compat-13-3", "cuda-compat-13-2", "cuda-compat-13-1"]
    );
    assert!(of("615.31").packages.is_empty());
    // CUDA 12.8: both Table 3 rows with Linux and Windows, the 12.x minimums, its compat package.
    let a = query::cuda(kb, CudaVersion::new(12, 8)).unwrap();
    let rows: Vec<(String, String)> = a
        .releases
        .iter()
        .filter(|r| r.row.source.starts_with("t3"))
        .map(|r| (r.row.linux.as_ref().unwrap().to_string(), r.row.windows.as_ref().unwrap().to_string()))
        .collect();
    assert_eq!(rows, [("570.26".into(), "570.65".into()), ("570.124.06".into(), "572.61".into())]);
    let m = a.minor_compat.unwrap();
    assert_eq!(
        (m.row.linux.to_string(), m.row.windows.as_ref().unwrap().to_string()),
        ("525.60.13".into(), "528.33".into())
    );
    let fc = a.forward_compat.unwrap();
    assert_eq!(fc.package, "cuda-compat-12-8");
    assert_eq!(fc.row.unwrap().runs_on, [535]);
    // 13.x toolkits name no Windows driver: the notes say N/A.
    let a = query::cuda(kb, CudaVersion::new(13, 0)).unwrap();
    assert!(a.releases.iter().all(|r| r.row.windows.is_none() && r.row.windows_note.is_some()));
}

#[test]
fn installer_file_names_agree_with_table_3_and_every_release_has_a_row() {
    // NVIDIA's installer names carry the driver they bundle: never older than Table 3's minimum,
    // and where newer, the row says so. Every installer release has a row (13.4 counts the GA as
    // build 1: 13.4.1 is the GA, 13.4.0 the developer preview).
    let kb = kb();
    let bundled = |file: &str| -> Option<DriverVersion> {
        let d = file.split('_').nth(2)?;
        d.starts_with(|c: char| c.is_ascii_digit()).then(|| driver(d))
    };
    let mut releases = 0;
    for line in excerpt_lines("cuda_installer_filenames.txt") {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let full: Version = cells[0].parse().unwrap();
        let cuda = CudaVersion::new(full.major() as u32, full.minor() as u32);
        let patch = full.part(2) as u32;
        if cuda == CudaVersion::new(13, 4) && patch == 0 {
            continue;
        }
        let update = if cuda >= CudaVersion::new(13, 4) { patch - 1 } else { patch };
        let row = kb
            .cuda
            .release
            .iter()
            .find(|r| r.version == cuda && r.update == update)
            .unwrap_or_else(|| panic!("no row for the {full} installers"));
        let said = |d: &DriverVersion| {
            row.note.as_deref().unwrap_or("").contains(&d.to_string())
                || row.disagreement.iter().any(|x| x.value == d.to_string())
        };
        for (stated, file) in [(&row.linux, cells[1]), (&row.windows, cells[2])] {
            match (stated, bundled(file)) {
                (Some(min), Some(b)) => {
                    assert!(&b >= min, "{file}: bundles {b}, below Table 3's {min}");
                    assert!(
                        &b == min || said(&b),
                        "{file}: bundles {b}, the row {} does not say so",
                        row.label
                    );
                }
                (None, Some(b)) => assert!(said(&b), "{file}: the row {} does not name {b}", row.label),
                (Some(min), None) => panic!("{file}: no bundled driver, yet {} states {min}", row.label),
                (None, None) => {}
            }
        }
        releases += 1;
    }
    assert_eq!(releases, 37);
}
