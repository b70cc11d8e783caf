//! data/pytorch.toml against the text of its sources, kept (with their URL and commit) in
//! tests/kb_sources/pytorch_*: the wheel build scripts' TORCH_CUDA_ARCH_LIST and cuDNN downloads,
//! the previous-versions page, pytorch/test-infra's release matrix, PyPI's wheels and the official
//! RELEASE.md of 2024. A build, pin, arch list, ROCm or Python version typed wrong fails here.

use cudoctor::kb::tables::{ArchTarget, Confidence, Kb, TorchBuild, TorchRelease};
use cudoctor::version::{CudaVersion, Version};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};

fn kb() -> &'static Kb {
    cudoctor::kb::kb().expect("the embedded knowledge base loads")
}

fn source_text(name: &str) -> String {
    let path = format!("{}/tests/kb_sources/{name}", env!("CARGO_MANIFEST_DIR"));
    fs_err::read_to_string(path).expect("source excerpt exists")
}

fn release(minor: &str) -> &'static TorchRelease {
    kb().pytorch
        .release
        .iter()
        .find(|r| r.version.to_string() == minor)
        .unwrap_or_else(|| panic!("no torch {minor} in the table"))
}

fn build<'a>(r: &'a TorchRelease, tag: &str) -> Option<&'a TorchBuild> {
    r.build.iter().find(|b| b.tag == tag)
}

/// `== <header words>` blocks of an excerpt, comment lines dropped.
fn blocks(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(h) = line.strip_prefix("== ") {
            out.push((h.split_whitespace().map(str::to_string).collect(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(line.to_string());
        }
    }
    out
}

#[test]
fn every_pytorch_excerpt_names_its_public_url() {
    for f in [
        "pytorch_builder_arch_lists.txt",
        "pytorch_builder_cudnn.txt",
        "pytorch_previous_versions.txt",
        "pytorch_test_infra_release_matrix.txt",
        "pytorch_pypi_python_tags.txt",
        "pytorch_release_matrix_2024.md",
        "pytorch_issues.txt",
        "pytorch_observed_arch_lists.txt",
    ] {
        let text = source_text(f);
        assert!(text.lines().take(3).any(|l| l.contains("Source: https://")), "{f}");
    }
}

#[test]
fn every_minor_release_from_1_7_to_the_newest_is_a_row_with_one_pypi_build() {
    let kb = kb();
    let versions: Vec<String> = kb.pytorch.release.iter().map(|r| r.version.to_string()).collect();
    let mut want: Vec<String> = (7..=13).map(|m| format!("1.{m}")).collect();
    let newest = kb.pytorch.release.last().unwrap().version.minor();
    want.extend((0..=newest).map(|m| format!("2.{m}")));
    assert_eq!(versions, want, "one row per minor release, oldest first, no gap");
    for r in &kb.pytorch.release {
        assert_eq!(r.build.iter().filter(|b| b.pypi_default).count(), 1, "torch {}: PyPI build", r.version);
        for b in &r.build {
            // An arch list is only ever shown with where it was read.
            assert_eq!(b.arch_list.is_empty(), b.arch_source.is_none(), "torch {} {}", r.version, b.tag);
            // cuDNN/NCCL read elsewhere than the row's source say where.
            if b.pins_source.is_some() {
                assert!(b.cudnn.is_some() || b.nccl.is_some(), "torch {} {}", r.version, b.tag);
            }
        }
    }
}

/// Evaluates the TORCH_CUDA_ARCH_LIST lines of one build script for an x86_64 wheel of `cuda`:
/// the list before `case`, then the arm whose glob matches, skipping branches for aarch64 or
/// libtorch builds.
fn arch_list_for(script: &[String], cuda: CudaVersion) -> Option<String> {
    let assign = Regex::new(r#"^\s*(?:\S+\)\s*)?(?:export )?TORCH_CUDA_ARCH_LIST="(.*)""#).unwrap();
    let arm = Regex::new(r"^\s*([0-9][0-9.*\[\]]*)\)").unwrap();
    let subshell = Regex::new(r"\$\([^)]*\)").unwrap();
    let comment = Regex::new(r"\s+#.*$").unwrap();
    let version = format!("{}.{}", cuda.major, cuda.minor);
    let mut list = String::new();
    let mut in_case = false;
    let mut matched = false;
    let mut found = false;
    let mut skipping = false;
    for line in script {
        let code = comment.replace(line, "").to_string();
        let t = code.trim();
        if t.starts_with("case ") {
            in_case = true;
            continue;
        }
        if t == "esac" {
            break;
        }
        if in_case {
            if let Some(c) = arm.captures(&code) {
                let glob = format!("^{}$", c[1].replace('.', r"\.").replace('*', ".*"));
                matched = Regex::new(&glob).unwrap().is_match(&version);
                found |= matched;
            }
            if !matched {
                continue;
            }
        }
        if t.starts_with("if ") && (t.contains("aarch64") || t.contains("libtorch")) {
            skipping = true;
            continue;
        }
        if t == "else" || t == "fi" {
            skipping = false;
            continue;
        }
        if skipping {
            continue;
        }
        if let Some(c) = assign.captures(&code) {
            let value = subshell.replace_all(&c[1], "").to_string();
            list = value.replace("${TORCH_CUDA_ARCH_LIST}", &list).replace("$TORCH_CUDA_ARCH_LIST", &list);
        }
    }
    found.then_some(list)
}

fn written(list: &[ArchTarget]) -> String {
    list.iter().map(ToString::to_string).collect::<Vec<_>>().join(";")
}

#[test]
fn arch_lists_match_the_wheel_build_scripts() {
    let kb = kb();
    let mut checked = 0;
    for (head, script) in blocks(&source_text("pytorch_builder_arch_lists.txt")) {
        let (minor, repo, commit) = (&head[0], &head[1], &head[2]);
        let r = release(minor);
        for b in r.build.iter().filter(|b| !b.arch_list.is_empty()) {
            let cited = kb.pytorch.sources.get(b.arch_source.as_ref().unwrap()).unwrap();
            if !cited.url.contains(&format!("/{repo}/blob/{}", &commit[..12])) {
                continue;
            }
            let want = arch_list_for(&script, b.cuda())
                .unwrap_or_else(|| panic!("torch {minor} {}: no case for CUDA {}", b.tag, b.cuda()));
            assert_eq!(written(&b.arch_list), want, "torch {minor} {} ({repo} {commit})", b.tag);
            checked += 1;
        }
    }
    // 34 builds of 1.7 to 2.5 from pytorch/builder, 3 of 2.8 from pytorch/pytorch.
    assert_eq!(checked, 37);
    // Every recorded list except the 2.11 observation and the third-party 2.12-2.14 copies is
    // backed by a script above.
    let scripted = kb
        .pytorch
        .release
        .iter()
        .flat_map(|r| &r.build)
        .filter(|b| b.arch_source.as_deref().is_some_and(|s| s.starts_with("build")))
        .count();
    assert_eq!(scripted, checked);
}

#[test]
fn the_arch_list_evaluation_reads_the_scripts_as_the_shell_would() {
    // Known answers people quote: a 1.10 cu102 wheel has no sm_75/sm_80 kernels, a 2.1 cu118 wheel
    // still has sm_37, and a 2.4 cu124 wheel tops out at sm_90 while 2.8 cu128 adds sm_100/sm_120.
    let cc = |minor: &str, tag: &str| written(&build(release(minor), tag).unwrap().arch_list);
    assert_eq!(cc("1.10", "cu102"), "3.7;5.0;6.0;7.0");
    assert!(cc("2.1", "cu118").contains("3.7"));
    assert!(!cc("2.1", "cu121").contains("3.7"));
    assert!(cc("2.4", "cu124").ends_with("9.0"));
    assert!(cc("2.8", "cu128").ends_with("10.0;12.0"));
    assert!(cc("2.9", "cu130").ends_with("12.0+PTX"));
}

#[test]
fn old_builds_pin_the_cudnn_their_build_image_installed() {
    let kb = kb();
    let version = Regex::new(r"(\d+\.\d+\.\d+\.\d+)").unwrap();
    let mut checked = 0;
    for (head, lines) in blocks(&source_text("pytorch_builder_cudnn.txt")) {
        let (minor, commit) = (&head[0], &head[2]);
        let r = release(minor);
        let mut cuda = None;
        for line in &lines {
            if let Some(f) = line.strip_prefix("function install_") {
                cuda = Some(format!("cu{}", f.trim_end_matches(" {")));
                continue;
            }
            let Some(b) = cuda.as_deref().and_then(|tag| build(r, tag)) else { continue };
            let v = &version.captures(line).expect("a cuDNN version")[1];
            let pinned_here = b
                .pins_source
                .as_ref()
                .and_then(|s| kb.pytorch.sources.get(s))
                .is_some_and(|s| s.url.contains(&commit[..12]));
            if pinned_here || b.cudnn.is_some() {
                assert_eq!(
                    b.cudnn.as_ref().map(ToString::to_string).as_deref(),
                    Some(v),
                    "{minor} {}",
                    b.tag
                );
                checked += 1;
            }
        }
    }
    // Every builder-sourced pin is checked (1.7 to 1.12), plus the 1.12 matrix pins that agree.
    let builder_pins = kb
        .pytorch
        .release
        .iter()
        .flat_map(|r| &r.build)
        .filter(|b| b.pins_source.as_deref().is_some_and(|s| s.starts_with("builder")))
        .count();
    assert_eq!(builder_pins, 15);
    assert_eq!(checked, builder_pins + 2);
}

#[test]
fn builds_rocm_and_pypi_wheels_of_1_x_match_the_previous_versions_page() {
    let text = source_text("pytorch_previous_versions.txt");
    let tag = Regex::new(r"[+/](cu\d+)\b").unwrap();
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut comment = String::new();
    let mut minor = String::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with("# Source") && !l.starts_with("#   ")) {
        if let Some(v) = line.strip_prefix("### v") {
            minor = v.rsplit_once('.').unwrap().0.to_string();
            continue;
        }
        if let Some(c) = line.strip_prefix("# ") {
            comment = c.to_string();
            continue;
        }
        let r = release(&minor);
        let upper = comment.to_uppercase();
        if let Some(rocm) = upper.strip_prefix("ROCM ") {
            let rocm = rocm.split_whitespace().next().unwrap();
            assert!(r.rocm.iter().any(|x| x == rocm), "torch {minor}: ROCm {rocm} not in {:?}", r.rocm);
        } else if let Some(cuda) = comment.strip_prefix("CUDA ") {
            let want: CudaVersion = cuda.parse().unwrap();
            let b = match tag.captures(line) {
                Some(c) => build(r, &c[1]),
                None => {
                    // A plain `pip install torch==X` is the wheel PyPI serves.
                    let b = r.build.iter().find(|b| b.pypi_default);
                    assert_eq!(b.map(|b| b.cuda()), Some(want), "torch {minor}: PyPI wheel");
                    b
                }
            };
            let b = b.unwrap_or_else(|| panic!("torch {minor}: no build for `{line}`"));
            assert_eq!(b.cuda(), want, "torch {minor}");
            seen.entry(minor.clone()).or_default().insert(b.tag.clone());
        }
        checked += 1;
    }
    assert!(checked >= 60, "{checked}");
    // Every build of 1.7 to 1.13 is on the page, or names the source it was read from instead.
    for (minor, tags) in &seen {
        for b in &release(minor).build {
            assert!(
                tags.contains(&b.tag) || b.source.as_deref().is_some_and(|s| s != "getstarted"),
                "torch {minor} {}: not on the page and no source of its own",
                b.tag
            );
        }
    }
    assert_eq!(seen.len(), 7);
}

#[test]
fn builds_rocm_and_pypi_cuda_of_2_x_match_test_infras_release_matrix() {
    let list = Regex::new(r#""release": \[(.*)\]"#).unwrap();
    let single = Regex::new(r#""release": "(.*)""#).unwrap();
    let mut checked = 0;
    for (head, lines) in blocks(&source_text("pytorch_test_infra_release_matrix.txt")) {
        let v: Version = head[0].parse().unwrap();
        let r = release(&v.truncated(2).to_string());
        let mut dict = "";
        for line in &lines {
            if line.ends_with("= {") {
                dict = line.split_whitespace().next().unwrap();
                continue;
            }
            if let Some(c) = list.captures(line) {
                let items: BTreeSet<String> =
                    c[1].split(", ").map(|s| s.trim_matches('"').to_string()).collect();
                match dict {
                    "CUDA_ARCHES_DICT" => {
                        let ours: BTreeSet<String> = r.build.iter().map(|b| b.cuda().to_string()).collect();
                        assert_eq!(ours, items, "torch {v}: CUDA builds");
                    }
                    "ROCM_ARCHES_DICT" => {
                        let ours: BTreeSet<String> = r.rocm.iter().cloned().collect();
                        assert_eq!(ours, items, "torch {v}: ROCm builds");
                    }
                    "PYTHON_ARCHES_DICT" => {
                        // The oldest Python of the release is the matrix's lower bound.
                        let oldest = items.iter().map(|p| p.parse::<Version>().unwrap()).min().unwrap();
                        let python = r.python.as_deref().unwrap();
                        assert!(
                            python.starts_with(&format!(">={oldest},")),
                            "torch {v}: {python} vs {oldest}"
                        );
                    }
                    other => panic!("unexpected dict {other}"),
                }
                checked += 1;
            } else if let Some(c) = single.captures(line) {
                // STABLE_CUDA_VERSIONS: the CUDA of the plain `pip install torch` (PyPI) wheel.
                let b = r.build.iter().find(|b| b.pypi_default).unwrap();
                assert_eq!(b.cuda().to_string(), c[1], "torch {v}: PyPI build");
                checked += 1;
            }
        }
    }
    // 14 releases (2.0 to 2.13) x 3 lists, and the stable CUDA of 2.7 to 2.13.
    assert_eq!(checked, 14 * 3 + 7);
}

#[test]
fn python_versions_match_the_wheels_on_pypi() {
    let mut checked = 0;
    for line in source_text("pytorch_pypi_python_tags.txt").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split(" | ").collect();
        let v: Version = cols[0].parse().unwrap();
        let r = release(&v.truncated(2).to_string());
        let tags: Vec<String> = cols[2]
            .split(' ')
            .map(|t| {
                let d = t.trim_start_matches("cp").trim_end_matches(['m', 't']);
                format!("{}.{}", &d[..1], &d[1..])
            })
            .collect();
        let python = r.python.as_deref().unwrap();
        // The oldest wheel is the lower bound the table gives.
        assert!(
            python.starts_with(&format!(">={},", tags[0]))
                || python == format!(">={}", tags[0])
                || python.starts_with(&format!(">={} ", tags[0])),
            "torch {v}: {python} vs {}",
            tags[0]
        );
        // The newest wheel's Python is named (as supported or experimental), or the note says PyPI
        // has wheels the matrix does not name; an unverified row's note says what PyPI has.
        let newest = tags.last().unwrap();
        if r.confidence == Confidence::Confirmed {
            let cp = format!("cp{}", newest.replace('.', ""));
            assert!(
                python.contains(newest.as_str()) || r.note.as_deref().is_some_and(|n| n.contains(&cp)),
                "torch {v}: {python} lacks {newest}"
            );
        } else {
            assert!(r.note.as_deref().unwrap().contains("PyPI"), "torch {v}");
        }
        checked += 1;
    }
    assert_eq!(checked, kb().pytorch.release.len());
}

#[test]
fn rows_1_12_to_2_3_match_the_official_release_md_of_2024() {
    let text = source_text("pytorch_release_matrix_2024.md");
    let mut checked = 0;
    for line in
        text.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| PyTorch") && !l.starts_with("| ---"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let r = release(cells[1]);
        assert_eq!(r.source, "release-md-2024", "torch {}", cells[1]);
        assert_eq!(r.python.as_deref(), Some(cells[2]), "torch {}", cells[1]);
        for (cell, experimental) in [(cells[3], false), (cells[4], true)] {
            // "CUDA 11.8, CUDNN 8.7.0.84"
            let (cuda, cudnn) = cell.split_once(", CUDNN ").unwrap();
            let cuda: CudaVersion = cuda.trim_start_matches("CUDA ").parse().unwrap();
            let b = r.build.iter().find(|b| b.cuda() == cuda).unwrap();
            assert_eq!(cudoctor::kb::query::is_experimental(b), experimental, "torch {} {}", cells[1], b.tag);
            assert_eq!(b.cudnn.as_ref().unwrap().to_string(), cudnn, "torch {} {}", cells[1], b.tag);
            checked += 1;
        }
    }
    assert_eq!(checked, 12);
    // Its note on PyPI: the 1.x wheel on PyPI is the CUDA 10.2 build.
    assert!(text.contains("the default version that is published to PyPI is CUDA 10.2"));
    for minor in ["1.7", "1.8", "1.9", "1.10", "1.11", "1.12"] {
        let b = release(minor).build.iter().find(|b| b.pypi_default).unwrap();
        assert_eq!(b.tag, "cu102", "torch {minor}");
    }
}

#[test]
fn arch_lists_observed_in_issue_182250_and_the_2_15_rfc_builds_match() {
    let text = source_text("pytorch_issues.txt");
    let blocks = blocks(&text);
    let version = Regex::new(r"^'(\d+\.\d+)\.\d+\+(cu\d+)'$").unwrap();
    let mut current = None;
    let mut checked = 0;
    for line in &blocks.iter().find(|(h, _)| h[0] == "182250").unwrap().1 {
        if let Some(c) = version.captures(line) {
            current = Some((c[1].to_string(), c[2].to_string()));
        } else if let Some(list) = line.strip_prefix("['") {
            let (minor, tag) = current.take().unwrap();
            let b = build(release(&minor), &tag).unwrap();
            let want: Vec<String> = list
                .trim_end_matches("']")
                .split("', '")
                .map(|sm| {
                    let d = sm.trim_start_matches("sm_");
                    format!("{}.{}", &d[..d.len() - 1], &d[d.len() - 1..])
                })
                .collect();
            assert_eq!(written(&b.arch_list), want.join(";"), "{minor} {tag}");
            checked += 1;
        }
    }
    assert_eq!(checked, 3);
    // The 2.15 RFC: 13.2 the PyPI build, 13.0 the other stable one, no 12.6.
    let rfc = &blocks.iter().find(|(h, _)| h[0] == "190385").unwrap().1;
    assert!(rfc[0].contains("CUDA 13.2") && rfc[0].contains("PyPI"));
    let r = release("2.15");
    assert_eq!(r.build.iter().find(|b| b.pypi_default).unwrap().tag, "cu132");
    assert!(rfc[1].contains("CUDA 13.0") && build(r, "cu130").is_some());
    assert!(rfc[2].contains("CUDA 12.6 (removed") && build(r, "cu126").is_none());
}

/// `| 13.0.2 | Turing(7.5), Ampere(8.0, 8.6), … | notes |` → (CUDA 13.0, "7.5;8.0;8.6;…").
fn support_matrix(lines: &[String]) -> Vec<(CudaVersion, String)> {
    let caps = Regex::new(r"(\d+\.\d+(?:\+PTX)?)").unwrap();
    lines
        .iter()
        .filter(|l| l.starts_with("| 1"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let v: Version = cells[1].parse().unwrap();
            let cuda = CudaVersion::new(v.major() as u32, v.minor() as u32);
            let list: Vec<&str> = caps.find_iter(cells[2]).map(|m| m.as_str()).collect();
            (cuda, list.join(";"))
        })
        .collect()
}

#[test]
fn rows_2_11_to_2_14_match_the_release_managers_prs_and_rfcs() {
    let blocks = blocks(&source_text("pytorch_issues.txt"));
    let block = |id: &str| blocks.iter().find(|(h, _)| h[0] == id).unwrap().1.clone();
    // 2.14: the matrix row as added from release/2.14.
    let r = release("2.14");
    assert_eq!(r.source, "pr-194367");
    assert_eq!(r.confidence, Confidence::Confirmed);
    let pin = Regex::new(r"^\| CUDA (\d+\.\d+) \| CUDNN ([\d.]+), NCCL ([\d.]+) \|$").unwrap();
    let mut pins = 0;
    for line in block("194367") {
        if let Some(c) = pin.captures(&line) {
            let b = r.build.iter().find(|b| b.cuda().to_string() == c[1]).unwrap();
            assert_eq!(b.cudnn.as_ref().unwrap().to_string(), c[2], "2.14 {}", b.tag);
            assert_eq!(b.nccl.as_ref().unwrap().to_string(), c[3], "2.14 {}", b.tag);
            pins += 1;
        } else if let Some(p) = line.strip_prefix("| Python `") {
            assert_eq!(r.python.as_deref(), p.split('`').next());
        } else if let Some(rocm) = line.strip_prefix("| ROCm ") {
            assert_eq!(r.rocm, [rocm.split(' ').next().unwrap()]);
        }
    }
    assert_eq!((pins, r.build.len()), (3, 3));
    // 2.9: RELEASE.md's first CUDA Support Matrix.
    for (cuda, want) in support_matrix(&block("164471")) {
        let b = release("2.9").build.iter().find(|b| b.cuda() == cuda).unwrap();
        assert_eq!(written(&b.arch_list), want, "2.9 {}", b.tag);
        assert_eq!(b.arch_source.as_deref(), Some("pr-164471"));
    }
    // 2.10: the matrix "For Release 2.9 and 2.10" as PR 175253 replaced it (its context and "-"
    // lines); 2.11's cu126 and cu128 as it put them ("+" lines), which the installed wheels match.
    let diff = block("175253");
    let old_text: Vec<String> =
        diff.iter().filter(|l| !l.starts_with('+')).map(|l| l[1..].to_string()).collect();
    let new_text: Vec<String> =
        diff.iter().filter(|l| !l.starts_with('-')).map(|l| l[1..].to_string()).collect();
    assert!(old_text[0].contains("For Release 2.9 and 2.10"));
    for (cuda, want) in support_matrix(&old_text) {
        for minor in ["2.9", "2.10"] {
            let b = release(minor).build.iter().find(|b| b.cuda() == cuda).unwrap();
            assert_eq!(written(&b.arch_list), want, "{minor} {}", b.tag);
        }
    }
    for (cuda, want) in support_matrix(&new_text).into_iter().filter(|(c, _)| c.major == 12) {
        let b = release("2.11").build.iter().find(|b| b.cuda() == cuda).unwrap();
        assert_eq!(written(&b.arch_list), want, "2.11 {}", b.tag);
    }
    // 2.12 to 2.14: RELEASE.md's CUDA Support Matrix, or, where the release wheels differ (no
    // +PTX, see the PR 188914 test), that matrix's value kept as a disagreement.
    let matrix = support_matrix(&block("182849"));
    assert_eq!(matrix.len(), 3);
    for minor in ["2.12", "2.13", "2.14"] {
        for b in &release(minor).build {
            let (_, want) = matrix.iter().find(|(c, _)| *c == b.cuda()).unwrap();
            if b.arch_source.as_deref() == Some("pr-182849") {
                assert_eq!(&written(&b.arch_list), want, "{minor} {}", b.tag);
            } else {
                let d =
                    b.disagreement.iter().find(|d| d.field == "arch_list").expect("a recorded disagreement");
                assert_eq!((&d.value, d.source.as_str()), (want, "pr-182849"), "{minor} {}", b.tag);
            }
        }
    }
    // 2.11: the RFC's table agrees with the observed cu126 and cu128 lists; for cu130 it says
    // +PTX, the installed wheel has none, and the table keeps both.
    let r = release("2.11");
    for (cuda, want) in support_matrix(&block("172663")) {
        let b = r.build.iter().find(|b| b.cuda() == cuda).unwrap();
        if written(&b.arch_list) != want {
            let d = b.disagreement.iter().find(|d| d.field == "arch_list").expect("a recorded disagreement");
            assert_eq!((d.value.as_str(), d.source.as_str()), (want.as_str(), "rfc-172663"));
            assert_eq!(b.tag, "cu130");
        }
    }
}

#[test]
fn row_2_13_and_the_nccl_of_2_10_to_2_12_match_the_release_md_prs() {
    let blocks = blocks(&source_text("pytorch_issues.txt"));
    let block = |id: &str| blocks.iter().find(|(h, _)| h[0] == id).unwrap().1.clone();
    let row = block("187075").into_iter().find(|l| l.starts_with("| 2.13 |")).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let r = release("2.13");
    assert_eq!((r.source.as_str(), r.confidence), ("pr-187075", Confidence::Confirmed));
    assert_eq!(r.python.as_deref(), Some(cells[2]));
    assert!(r.rocm.iter().any(|x| format!("ROCm {x}") == cells[6]));
    let build_re = Regex::new(r"CUDA (\d+\.\d+) \(CUDNN ([\d.]+)\) \(NCCL ([\d.]+)\)").unwrap();
    let mut n = 0;
    for (cell, experimental) in [(cells[4], false), (cells[5], true)] {
        for c in build_re.captures_iter(cell) {
            let b = r.build.iter().find(|b| b.cuda().to_string() == c[1]).unwrap();
            assert_eq!(cudoctor::kb::query::is_experimental(b), experimental, "2.13 {}", b.tag);
            assert_eq!(b.cudnn.as_ref().unwrap().to_string(), c[2], "2.13 {}", b.tag);
            assert_eq!(b.nccl.as_ref().unwrap().to_string(), c[3], "2.13 {}", b.tag);
            n += 1;
        }
    }
    assert_eq!((n, r.build.len()), (3, 3));
    // "| 2.12 | 12.6 → 2.29.3; 13.0 / 13.2 → 2.29.7 |"
    let mut checked = 0;
    for line in block("190386") {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let r = release(cells[1]);
        for part in cells[2].split("; ") {
            let (cudas, nccl) = part.split_once(" → ").unwrap();
            let nccl = nccl.split(' ').next().unwrap();
            for cuda in cudas.split(" / ") {
                let b = r.build.iter().find(|b| b.cuda().to_string() == cuda).unwrap();
                assert_eq!(b.nccl.as_ref().unwrap().to_string(), nccl, "{} {}", cells[1], b.tag);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 9);
}

/// `['sm_75', 'sm_80', 'sm_120', 'compute_120']` (torch.cuda.get_arch_list()) in the table's
/// notation: `7.5;8.0;12.0+PTX` (a compute_XY entry is PTX for the capability).
fn from_get_arch_list(line: &str) -> String {
    let items: Vec<&str> = line.trim_start_matches("['").trim_end_matches("']").split("', '").collect();
    let cc = |digits: &str| format!("{}.{}", &digits[..digits.len() - 1], &digits[digits.len() - 1..]);
    let ptx: BTreeSet<String> = items.iter().filter_map(|i| i.strip_prefix("compute_")).map(cc).collect();
    items
        .iter()
        .filter_map(|i| i.strip_prefix("sm_"))
        .map(|d| {
            let c = cc(d);
            if ptx.contains(&c) {
                format!("{c}+PTX")
            } else {
                c
            }
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[test]
fn get_arch_list_output_reads_as_the_tables_notation() {
    assert_eq!(from_get_arch_list("['sm_50', 'sm_90']"), "5.0;9.0");
    assert_eq!(from_get_arch_list("['sm_75', 'sm_100', 'sm_120', 'compute_120']"), "7.5;10.0;12.0+PTX");
}

#[test]
fn linux_arch_lists_of_2_7_and_2_10_match_the_wheels_measured_in_corridorkey_141() {
    let text = source_text("pytorch_observed_arch_lists.txt");
    let (mut minor, mut tag, mut platform) = (String::new(), String::new(), String::new());
    let mut checked = Vec::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("### PyTorch ") {
            let v: Version = v.parse().unwrap();
            minor = v.truncated(2).to_string();
        } else if let Some(c) = line.strip_prefix("#### CUDA ") {
            tag = format!("cu{}", c.replace('.', ""));
        } else if let Some(p) = line.strip_suffix(':') {
            platform = p.to_string();
        } else if line.starts_with("['") && platform == "Linux" {
            let b = build(release(&minor), &tag).unwrap_or_else(|| panic!("no torch {minor} {tag}"));
            assert_eq!(written(&b.arch_list), from_get_arch_list(line), "torch {minor} {tag}");
            checked.push(format!("{minor} {tag}"));
        }
    }
    assert_eq!(checked, ["2.10 cu126", "2.10 cu128", "2.7 cu126", "2.7 cu128"]);
    // 2.7's lists come from this observation; 2.10's agree with RELEASE.md's matrix.
    for tag in ["cu126", "cu128"] {
        assert_eq!(build(release("2.7"), tag).unwrap().arch_source.as_deref(), Some("corridorkey-141"));
    }
    // A GPU cudoctor must not call supported: 2.7's cu128 wheel has no Volta kernels.
    assert!(!written(&build(release("2.7"), "cu128").unwrap().arch_list).contains("7.0"));
}

#[test]
fn the_plan_to_ship_2_7_cu128_without_ptx_is_kept_beside_the_observed_wheel() {
    let blocks = blocks(&source_text("pytorch_issues.txt"));
    let plan = &blocks.iter().find(|(h, _)| h[0] == "145792").unwrap().1;
    assert!(plan.iter().any(|l| l.contains("12.8)")) && plan.iter().any(|l| l.contains(";12.0+PTX\"")));
    assert!(plan.iter().any(|l| l == "Will remove it for 2.7.0 stable release."));
    let b = build(release("2.7"), "cu128").unwrap();
    assert!(written(&b.arch_list).ends_with("12.0+PTX"), "the observed wheel has compute_120");
    let d = b.disagreement.iter().find(|d| d.field == "arch_list").unwrap();
    assert_eq!(d.source, "pr-145792");
    assert_eq!(d.value, written(&b.arch_list).trim_end_matches("+PTX"));
}

#[test]
fn release_wheels_carry_ptx_only_in_2_13_0_as_pr_188914_says() {
    let blocks = blocks(&source_text("pytorch_issues.txt"));
    let text = &blocks.iter().find(|(h, _)| h[0] == "188914").unwrap().1;
    assert!(text
        .iter()
        .any(|l| l.contains("from 2.12.1 to 2.13.0 (cu130): 2.13 started emitting `12.0+PTX`")));
    let release_row = text.iter().find(|l| l.starts_with("| RC / release |")).unwrap();
    let release_list = release_row.split('`').nth(3).unwrap();
    assert_eq!(release_list, "7.5;8.0;8.6;9.0;10.0;12.0");
    for minor in ["2.12", "2.14"] {
        for tag in ["cu130", "cu132"] {
            let b = build(release(minor), tag).unwrap();
            assert_eq!(written(&b.arch_list), release_list, "torch {minor} {tag}");
            assert_eq!(b.arch_source.as_deref(), Some("pr-188914"), "torch {minor} {tag}");
        }
    }
    // 2.13.0 is the exception; its note says later 2.13 patch releases lost the PTX again.
    let b = build(release("2.13"), "cu130").unwrap();
    assert_eq!(written(&b.arch_list), format!("{release_list}+PTX"));
    assert!(b.arch_note.as_deref().unwrap().contains("188925"));
}
