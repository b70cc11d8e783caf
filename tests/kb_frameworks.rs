//! `data/frameworks.toml` (TensorFlow, JAX, CuPy, ONNX Runtime, PaddlePaddle) against verbatim
//! excerpts of its sources in tests/kb_sources/, row by row, and `kb framework` / `kb cuda` as a
//! user asks them. A value retyped wrong in the table fails here.

use cudoctor::kb::query::{self, QueryError};
use cudoctor::kb::tables::{CudaSpec, FrameworkBuild, Kb, Platform};
use cudoctor::version::{CudaVersion, Version};
use std::collections::BTreeMap;

fn kb() -> &'static Kb {
    cudoctor::kb::kb().expect("the embedded knowledge base loads")
}

fn source_text(name: &str) -> String {
    let path = format!("{}/tests/kb_sources/{name}", env!("CARGO_MANIFEST_DIR"));
    fs_err::read_to_string(path).expect("source excerpt exists")
}

fn lines(name: &str) -> Vec<String> {
    source_text(name).lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
}

fn v(s: &str) -> Version {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn rows(framework: &str) -> Vec<&'static FrameworkBuild> {
    kb().frameworks.build.iter().filter(|b| b.framework == framework).collect()
}

fn cuda_strings(b: &FrameworkBuild) -> Vec<String> {
    b.cuda.iter().map(ToString::to_string).collect()
}

/// `<tr><td>a</td><td>b</td></tr>` → ["a", "b"].
fn cells(line: &str) -> Vec<&str> {
    line.split("<td>").skip(1).map(|c| c.split("</td>").next().unwrap()).collect()
}

/// The tables write CUDA 8 and 9 (and 10 on Windows) without a minor.
fn table_cuda(cell: &str) -> String {
    if cell.contains('.') {
        cell.to_string()
    } else {
        format!("{cell}.0")
    }
}

#[test]
fn every_framework_excerpt_names_its_public_url() {
    for f in [
        "tensorflow_tested_build_configs_linux_gpu.html",
        "tensorflow_tested_build_configs_windows_gpu.html",
        "tensorflow_pypi_and_cuda.txt",
        "paddle_linux_pip_en.txt",
        "paddle_windows_pip_en.txt",
        "paddle_whl_list.txt",
        "jax_installation_cuda.txt",
        "jax_setup_py.txt",
        "cupy_install_docs.txt",
        "pypi_simple_spans.txt",
        "ort_cuda_ep_requirements.txt",
        "frameworks_pypi.txt",
    ] {
        let text = source_text(f);
        assert!(text.lines().take(2).any(|l| l.contains("Source: https://")), "{f}");
    }
}

fn check_tensorflow_table(file: &str, platform: Platform, expected: usize) {
    let mut n = 0;
    for line in source_text(file).lines().filter(|l| l.starts_with("<tr><td>")) {
        let c = cells(line);
        let (name, version) = c[0].rsplit_once('-').unwrap();
        let b = rows("tensorflow")
            .into_iter()
            .find(|b| b.platform == platform && b.version.as_ref() == Some(&v(version)))
            .unwrap_or_else(|| panic!("no tensorflow {version} {platform:?}"));
        let package = if name == "tensorflow" { "tensorflow" } else { "tensorflow-gpu" };
        assert_eq!(b.package, format!("{package}=={version}"));
        assert_eq!(b.python.as_deref(), Some(c[1]), "{version}");
        assert_eq!(b.compiler.as_deref(), Some(c[2]), "{version}");
        assert_eq!(b.build_tools.as_deref(), Some(c[3]), "{version}");
        assert_eq!(b.cudnn.as_deref(), Some(c[4]), "{version}");
        assert_eq!(cuda_strings(b), [table_cuda(c[5])], "{version}");
        n += 1;
    }
    assert_eq!(n, expected, "{file}");
    assert_eq!(rows("tensorflow").iter().filter(|b| b.platform == platform).count(), n);
}

#[test]
fn tensorflow_linux_builds_match_the_tested_build_configurations() {
    check_tensorflow_table("tensorflow_tested_build_configs_linux_gpu.html", Platform::Linux, 38);
}

#[test]
fn tensorflow_windows_builds_match_and_stop_at_2_10() {
    check_tensorflow_table("tensorflow_tested_build_configs_windows_gpu.html", Platform::Windows, 27);
    let text = source_text("tensorflow_tested_build_configs_windows_gpu.html");
    assert!(text.contains("only available for 2.10 or earlier versions"));
    let newest = rows("tensorflow")
        .into_iter()
        .filter(|b| b.platform == Platform::Windows)
        .filter_map(|b| b.version.clone())
        .max()
        .unwrap();
    assert_eq!(newest, v("2.10.0"));
    // Every Linux row from 2.11 on says that native Windows has no GPU build.
    for b in rows("tensorflow").into_iter().filter(|b| b.platform == Platform::Linux) {
        let ver = b.version.clone().unwrap();
        let says = b.note.as_deref().unwrap_or_default().contains("TF 2.10 was the last");
        assert_eq!(says, ver >= v("2.11"), "{ver}");
    }
}

/// `nvidia-cudnn-cu12 (==8.9.4.25) ; extra == 'and-cuda'` → `nvidia-cudnn-cu12==8.9.4.25`.
fn requirement(s: &str) -> String {
    s.split(';').next().unwrap().replace(['(', ')', ' '], "")
}

#[test]
fn tensorflow_and_cuda_pins_match_the_wheel_metadata() {
    let mut with_extra = 0;
    for line in lines("tensorflow_pypi_and_cuda.txt") {
        let version = v(line.split_whitespace().nth(1).unwrap());
        let b = rows("tensorflow")
            .into_iter()
            .find(|b| b.platform == Platform::Linux && b.version.as_ref() == Some(&version))
            .unwrap();
        let dist = line.split("Requires-Dist: ").nth(1).unwrap();
        if dist.starts_with("(no and-cuda extra)") {
            assert!(b.requires.is_empty() && b.install.is_none(), "{version}");
            continue;
        }
        let want: Vec<String> = dist.split(" | ").map(requirement).collect();
        assert_eq!(b.requires, want, "{version}");
        assert_eq!(
            b.install.as_deref(),
            Some(format!("pip install 'tensorflow[and-cuda]=={version}'").as_str())
        );
        // The pinned cuDNN is of the tested configuration's minor.
        let cudnn_pin = want.iter().find(|r| r.starts_with("nvidia-cudnn")).unwrap();
        let pinned = cudnn_pin.split(">=").last().unwrap().split("==").last().unwrap();
        assert!(pinned.starts_with(&format!("{}.", b.cudnn.as_deref().unwrap())), "{version}: {pinned}");
        with_extra += 1;
    }
    assert_eq!(with_extra, 8);
    // Only 2.14 and later have the extra.
    for b in rows("tensorflow") {
        assert_eq!(!b.requires.is_empty(), b.version.clone().unwrap() >= v("2.14"), "{:?}", b.version);
    }
}

/// The blocks of a `== branch commit date` excerpt.
fn blocks(name: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for l in lines(name) {
        if let Some(h) = l.strip_prefix("== ") {
            out.push((h.to_string(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(l);
        }
    }
    out
}

/// `release/2.6` → the Paddle version prefix of its rows (`develop` holds 3.0.0b2).
fn paddle_release_of(branch: &str) -> Version {
    match branch.strip_prefix("release/") {
        Some(r) => v(r),
        None => v("3.0.0b2"),
    }
}

fn check_paddle_page(file: &str, platform: Platform, source: &str, expected: usize) {
    let mut variants = 0;
    for (head, body) in blocks(file) {
        let branch = head.split_whitespace().next().unwrap();
        let release = paddle_release_of(branch);
        let python = body.iter().find_map(|l| l.split("confirm that it is ").nth(1)).unwrap().trim();
        let mut requirement: BTreeMap<String, String> = BTreeMap::new();
        for l in &body {
            if let Some(rest) = l.strip_prefix("* **CUDA toolkit ") {
                let (cudas, cudnn) = rest.split_once(" with cuDNN ").unwrap();
                let value = cudnn.trim_start_matches('v');
                let number: String = value.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
                let value = if value.contains(">=7.6.5") {
                    format!("{number} (>=7.6.5)")
                } else if value[number.len()..].starts_with('+') {
                    format!("{number}+")
                } else {
                    number
                };
                for c in cudas.split('/') {
                    requirement.insert(c.to_string(), value.clone());
                }
            }
        }
        let mut heading = None;
        for l in &body {
            // "If you are using CUDA 11.2", or on the 1.8 and 2.0 pages "CUDA9.0 PaddlePaddle".
            let found = l
                .split("If you are using CUDA ")
                .nth(1)
                .or_else(|| l.contains(" PaddlePaddle</span>").then(|| l.split(">CUDA").nth(1)).flatten());
            if let Some(rest) = found {
                let c: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
                heading = Some(c);
                continue;
            }
            if !l.contains("pip install paddlepaddle-gpu") {
                continue;
            }
            let cuda = heading.take().expect("a command follows its heading");
            let b = rows("paddlepaddle")
                .into_iter()
                .find(|b| b.platform == platform && b.install.as_deref() == Some(l.as_str()))
                .unwrap_or_else(|| panic!("{branch}: no row installs with `{l}`"));
            assert!(b.version.as_ref().unwrap().matches_prefix(&release), "{branch}: {:?}", b.version);
            assert_eq!(cuda_strings(b), std::slice::from_ref(&cuda), "{branch} {l}");
            assert_eq!(b.python.as_deref(), Some(python), "{branch} {cuda}");
            if let Some(r) = requirement.get(&cuda) {
                assert_eq!(b.cudnn.as_ref(), Some(r), "{branch} {cuda}");
            }
            assert_eq!(b.source, source);
            variants += 1;
        }
    }
    assert_eq!(variants, expected, "{file}");
    assert_eq!(rows("paddlepaddle").iter().filter(|b| b.source == source).count(), variants);
}

#[test]
fn paddle_linux_builds_match_the_install_pages_command_by_command() {
    check_paddle_page("paddle_linux_pip_en.txt", Platform::Linux, "paddle", 38);
}

#[test]
fn paddle_windows_builds_match_the_install_pages_command_by_command() {
    check_paddle_page("paddle_windows_pip_en.txt", Platform::Windows, "paddle_windows", 31);
}

#[test]
fn paddle_cudnn_agrees_with_the_wheel_list_or_says_it_does_not() {
    let mut checked = 0;
    for (head, body) in blocks("paddle_whl_list.txt") {
        let release = paddle_release_of(head.split_whitespace().next().unwrap());
        for l in body {
            // `cuda11.2-cudnn8.1-mkl-gcc8.2-avx cp38 ...` (the plain avx build of each CUDA).
            let label = l.split_whitespace().next().unwrap();
            let (platform, label) = match label.strip_prefix("win-") {
                Some(rest) => (Platform::Windows, rest),
                None => (Platform::Linux, label),
            };
            let parts: Vec<&str> = label.split('-').collect();
            if parts.len() != 5 || parts[4] != "avx" {
                continue;
            }
            let cuda = parts[0].trim_start_matches("cuda");
            let cudnn = parts[1].trim_start_matches("cudnn");
            let Some(b) = rows("paddlepaddle").into_iter().find(|b| {
                b.platform == platform
                    && b.version.as_ref().unwrap().matches_prefix(&release)
                    && cuda_strings(b) == [cuda]
            }) else {
                continue; // a wheel the install page does not offer (2.1's CUDA 10.2 TensorRT builds…)
            };
            let ours = b.cudnn.as_deref().unwrap().split_whitespace().next().unwrap();
            let ours_at_label: String =
                ours.split('.').take(cudnn.split('.').count()).collect::<Vec<_>>().join(".");
            if ours_at_label != cudnn {
                let d = b.disagreement.iter().find(|d| d.field == "cudnn").unwrap_or_else(|| {
                    panic!(
                        "{release} CUDA {cuda}: cuDNN {ours} vs wheel label {cudnn} without a disagreement"
                    )
                });
                assert_eq!(d.value, cudnn);
                assert_eq!(d.source, "paddle_whl");
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked}");
}

#[test]
fn paddle_index_urls_name_the_cuda_of_their_row() {
    for b in rows("paddlepaddle") {
        let install = b.install.as_deref().unwrap();
        assert!(install.contains("paddlepaddle-gpu"), "{install}");
        let CudaSpec::Exact(c) = b.cuda[0] else { panic!("{install}: Paddle builds name one toolkit") };
        if let Some(i) = install.find("/packages/stable/cu") {
            let tag = install[i + "/packages/stable/".len()..].trim_end_matches('/');
            assert_eq!(CudaVersion::from_tag(tag), Some(c), "{install}");
        }
        // From 2.0 `postXYZ` is the CUDA version (post112: 11.2); 1.x used post97/post107 (CUDA 9.0
        // and 10.0 with cuDNN 7).
        if let Some(post) =
            b.package.split(".post").nth(1).filter(|_| b.version.as_ref().unwrap() >= &v("2.0"))
        {
            assert_eq!(CudaVersion::from_tag(&format!("cu{post}")), Some(c), "{}", b.package);
        }
    }
}

fn jax_row(plugin: &str, version: &Version) -> &'static FrameworkBuild {
    rows("jax")
        .into_iter()
        .find(|b| b.package == format!("jax[{plugin}]") && b.covers(version))
        .unwrap_or_else(|| panic!("no jax[{plugin}] row covers {version}"))
}

#[test]
fn jax_rows_match_the_installation_page_history() {
    let mut checked = 0;
    let driver = regex::Regex::new(r">= ([\d.]+) for CUDA (\d+)").unwrap();
    for (head, body) in blocks("jax_installation_cuda.txt") {
        let tag = head.split_whitespace().nth(2).unwrap();
        let release = v(tag.trim_start_matches("jax-v"));
        let mut plugin = "cuda12";
        for l in &body {
            if l.starts_with("The CUDA 13 wheel is") {
                plugin = "cuda13";
            }
            if let Some(rest) = l.strip_prefix("| CUDNN ") {
                let built = rest.split_whitespace().next().unwrap();
                let compatible = rest.split('|').nth(1).unwrap().trim().trim_start_matches("CUDNN ");
                let b = jax_row(plugin, &release);
                assert_eq!(
                    b.cudnn.as_deref(),
                    Some(format!("{built} ({compatible})").as_str()),
                    "{tag} {plugin}"
                );
                checked += 1;
            }
            if let Some(rest) = l.strip_prefix("| CUDA ") {
                let built = rest.split_whitespace().next().unwrap();
                let b = jax_row(plugin, &release);
                // "| CUDA 12.3  | CUDA >=12.1        |": the row's CUDA is the compatible range.
                let compatible = rest.split('|').nth(1).unwrap().trim().trim_start_matches("CUDA ");
                assert_eq!(cuda_strings(b), [compatible], "{tag} {plugin}");
                assert_eq!(b.cuda[0].major(), v(built).major() as u32, "{tag}");
                assert!(b.note.as_deref().unwrap().contains(&format!("built with CUDA {built}")), "{tag}");
            }
        }
        // "* CUDA 12.2, cuDNN 8.9, NCCL 2.16": the wheel list of the pages before the tables.
        for l in body.iter().filter_map(|l| l.strip_prefix("* CUDA ")) {
            let (cuda, rest) = l.split_once(", cuDNN ").unwrap();
            let cudnn = rest.split(',').next().unwrap();
            let b = if cuda.starts_with("11.") {
                jax_row("cuda11_pip", &release)
            } else {
                jax_row("cuda12", &release)
            };
            assert!(b.cudnn.as_deref().unwrap().starts_with(cudnn), "{tag} CUDA {cuda}");
            if cuda.starts_with("11.") {
                assert_eq!(cuda_strings(b), [cuda], "{tag}");
            } else {
                assert!(b.note.as_deref().unwrap().contains(&format!("CUDA {cuda}, cuDNN {cudnn}")), "{tag}");
            }
            checked += 1;
        }
        // ">= 525.60.13 for CUDA 12", ">= 580 for CUDA 13"
        let text = body.join(" ");
        let mut drivers = 0;
        for c in driver.captures_iter(&text) {
            let plugin = match &c[2] {
                "11" => "cuda11_pip",
                "12" => "cuda12",
                _ => "cuda13",
            };
            let ours = jax_row(plugin, &release).min_driver.as_ref().unwrap().to_string();
            // The page shortened 525.60.13 to 525 in 0.8.0; the row keeps the full first release.
            assert!(ours.starts_with(&c[1]), "{tag} CUDA {}: {ours} vs {}", &c[2], &c[1]);
            drivers += 1;
        }
        assert!(drivers >= 1, "{tag}");
    }
    assert_eq!(checked, 12);
    // The plugins' own pins, kept beside the page's minimum as a disagreement.
    for l in lines("jax_installation_cuda.txt").iter().filter(|l| l.starts_with("jax-cuda")) {
        let mut w = l.split_whitespace();
        let (package, version) = (w.next().unwrap(), v(w.next().unwrap()));
        let b = jax_row(&package[4..10], &version);
        let pin = l.split("Requires-Dist: ").nth(1).unwrap();
        assert_eq!(b.requires, [pin], "{package}");
        let python = l.split("Requires-Python ").nth(1).unwrap().split_whitespace().next().unwrap();
        assert!(b.python.as_deref().unwrap().starts_with(python), "{package}");
        let floor = pin.split(">=").nth(1).unwrap();
        assert!(b.disagreement.iter().any(|d| d.field == "cudnn" && d.value.contains(floor)), "{package}");
    }
}

#[test]
fn jax_extras_match_setup_py_release_by_release() {
    let mut n = 0;
    for l in lines("jax_setup_py.txt") {
        let release = v(l.split_whitespace().next().unwrap().trim_start_matches("jax-v"));
        let extras: Vec<&str> =
            l.split("extras: ").nth(1).unwrap().split(" | ").next().unwrap().split_whitespace().collect();
        // A CUDA 11 row covers exactly the releases whose setup.py still has cuda11_pip (the page
        // lists the CUDA 11 wheel from 0.4.17), and from 0.4.22 every release has the plugin extra.
        let cuda11 = rows("jax").into_iter().any(|b| b.package == "jax[cuda11_pip]" && b.covers(&release));
        assert_eq!(cuda11, extras.contains(&"cuda11_pip"), "{release}");
        let cuda12 = rows("jax").into_iter().any(|b| b.package == "jax[cuda12]" && b.covers(&release));
        assert_eq!(cuda12, extras.contains(&"cuda12"), "{release}");
        if release >= v("0.4.26") {
            // "nvidia-cudnn-cu12>=8.9.2.26,<9.0" → the row's "(>=8.9.2.26, <9.0)"
            let pin = l.split("nvidia-cudnn-cu12").nth(1).unwrap().trim();
            let want = format!("({})", pin.replace(',', ", "));
            assert!(
                jax_row("cuda12", &release).cudnn.as_deref().unwrap().ends_with(&want),
                "{release}: {want}"
            );
        }
        n += 1;
    }
    assert_eq!(n, 6);
}

#[test]
fn package_release_spans_match_the_pypi_simple_index() {
    let mut n = 0;
    for l in lines("pypi_simple_spans.txt") {
        let w: Vec<&str> = l.split_whitespace().collect();
        let (package, first, last) = (w[0], v(w[2]), v(w[4]));
        if package.starts_with("cupy-") {
            let b = rows("cupy")
                .into_iter()
                .find(|b| b.package == package)
                .unwrap_or_else(|| panic!("{package}"));
            assert_eq!(b.release_span(), Some((first, Some(last))), "{package}");
        } else if let Some(plugin) = package.strip_prefix("jax-").and_then(|p| p.strip_suffix("-plugin")) {
            let spans: Vec<_> = rows("jax")
                .into_iter()
                .filter(|b| b.package == format!("jax[{plugin}]"))
                .filter_map(|b| b.release_span())
                .collect();
            assert_eq!(spans.iter().map(|s| s.0.clone()).min(), Some(first), "{package}");
            assert_eq!(spans.iter().filter_map(|s| s.1.clone()).max(), Some(last), "{package}");
        } else {
            // onnxruntime-gpu: its newest release is covered, by the CUDA 13 row.
            let b = rows("onnxruntime").into_iter().find(|b| b.covers(&last)).unwrap();
            assert_eq!(cuda_strings(b), ["13.x"]);
        }
        n += 1;
    }
    assert_eq!(n, 19);
}

#[test]
fn cupy_packages_cover_the_toolkits_the_install_page_names() {
    let mut n = 0;
    for l in lines("cupy_install_docs.txt").iter().filter(|l| l.starts_with("wheel: ")) {
        let (label, package) = l.trim_start_matches("wheel: ").split_once(" -> ").unwrap();
        let label = label.split_whitespace().collect::<Vec<_>>();
        let b =
            rows("cupy").into_iter().find(|b| b.package == package).unwrap_or_else(|| panic!("{package}"));
        let want: Vec<String> = match label.as_slice() {
            [x, ..] if x.ends_with(".x") => vec![format!("{}.x", &x[1..x.len() - 2])],
            [lo, "~", hi, ..] => {
                let (lo, hi) = (v(&lo[1..]), v(hi));
                (lo.minor()..=hi.minor()).map(|m| format!("{}.{m}", lo.major())).collect()
            }
            [x, ..] => vec![x[1..].to_string()],
            [] => unreachable!(),
        };
        assert_eq!(cuda_strings(b), want, "{package}");
        n += 1;
    }
    assert!(n >= 20, "{n}");
    // CuPy 14 dropped CUDA 11: its newest page lists no 11.x toolkit and cupy-cuda11x ends at 13.6.0.
    let newest =
        lines("cupy_install_docs.txt").into_iter().rev().find(|l| l.contains("CUDA Toolkit")).unwrap();
    assert!(!newest.contains("v11."), "{newest}");
}

#[test]
fn onnxruntime_rows_match_the_requirements_table() {
    let mut n = 0;
    for l in lines("ort_cuda_ep_requirements.txt") {
        let cols: Vec<String> = if l.starts_with('|') {
            l.trim_matches('|').split('|').map(|c| c.replace("<br/>", " ").replace("<br>", " ")).collect()
        } else if l.contains(" | ") {
            l.split(" | ").map(str::to_string).collect()
        } else {
            continue;
        };
        let releases: Vec<Version> = match cols[0].split_once('-') {
            Some((a, b)) => vec![v(a), v(b)],
            None => cols[0].split_whitespace().map(|r| v(r.trim_end_matches(".x"))).collect(),
        };
        // `11.0.3` is a CUDA 11.0 build; `12.x` any 12.x.
        let cuda = cols[1].trim();
        let cuda = match cuda.strip_suffix(".x") {
            Some(major) => CudaSpec::Major(major.parse().unwrap()),
            None => {
                let c = v(cuda);
                CudaSpec::Exact(CudaVersion::new(c.major() as u32, c.minor() as u32))
            }
        };
        let cudnn_linux = cols[2].split_whitespace().next().unwrap().trim_end_matches(".x");
        for r in &releases {
            let found = rows("onnxruntime").into_iter().any(|b| {
                // A row kept as "any 12.x" (the newer page) names the exact toolkit of an older
                // page in its note.
                let same_cuda = b.cuda == [cuda]
                    || matches!((b.cuda.as_slice(), cuda), (&[CudaSpec::Major(m)], CudaSpec::Exact(e))
                        if m == e.major && b.note.as_deref().unwrap_or_default().contains(&format!("built with CUDA {e}")));
                b.covers(r) && same_cuda && b.cudnn.as_deref().unwrap().starts_with(cudnn_linux)
            });
            assert!(found, "onnxruntime {r}: no row with CUDA {cuda} and cuDNN {cudnn_linux}");
            n += 1;
        }
    }
    assert!(n >= 28, "{n}");
    // From 1.19 PyPI's package is CUDA 12 + cuDNN 9; from 1.27 CUDA 13 (wheel metadata).
    for l in lines("frameworks_pypi.txt").iter().filter(|l| l.starts_with("onnxruntime-gpu ")) {
        let version = v(l.split_whitespace().nth(1).unwrap());
        let major = if l.contains("cudnn-cu13") { "13.x" } else { "12.x" };
        let b = rows("onnxruntime")
            .into_iter()
            .find(|b| b.covers(&version) && b.package == "onnxruntime-gpu")
            .unwrap();
        assert_eq!(cuda_strings(b), [major], "onnxruntime-gpu {version}");
        assert_eq!(b.cudnn.as_deref(), Some("9"));
    }
}

// ---- asking the knowledge base -------------------------------------------------------------

#[test]
fn kb_framework_answers_a_release_with_the_driver_its_cuda_needs() {
    let a = query::framework(kb(), "tf", Some(&v("2.15"))).unwrap();
    assert_eq!(a.framework, "tensorflow");
    assert_eq!(a.builds.len(), 1);
    let b = &a.builds[0];
    assert_eq!(b.build.package, "tensorflow==2.15.0");
    assert_eq!(b.needs[0].toolkit_driver.as_ref().unwrap().row.version, CudaVersion::new(12, 2));

    let a = query::framework(kb(), "paddlepaddle-gpu", Some(&v("2.6"))).unwrap();
    let linux: Vec<String> = a
        .builds
        .iter()
        .filter(|b| b.build.platform == Platform::Linux)
        .map(|b| b.build.cuda[0].to_string())
        .collect();
    assert_eq!(linux, ["11.2", "11.6", "11.7", "11.8", "12.0"]);
    assert_eq!(a.builds.len(), 10, "the native-Windows builds are listed too");

    let a = query::framework(kb(), "jax", Some(&v("0.9.1"))).unwrap();
    let plugins: Vec<&str> = a.builds.iter().map(|b| b.build.package.as_str()).collect();
    assert_eq!(plugins, ["jax[cuda12]", "jax[cuda13]"]);

    // 1.10 sits inside the list "1.9, 1.10, 1.11, 1.12".
    let a = query::framework(kb(), "ort", Some(&v("1.10"))).unwrap();
    assert_eq!(a.builds.len(), 1);
    assert_eq!(a.builds[0].build.cuda[0].to_string(), "11.4");
}

#[test]
fn kb_framework_says_what_it_does_not_know() {
    assert!(matches!(query::framework(kb(), "mxnet", None), Err(QueryError::UnknownName { .. })));
    assert!(matches!(query::framework(kb(), "tensorflow", Some(&v("2.99"))), Err(QueryError::Newer { .. })));
    assert!(matches!(query::framework(kb(), "paddle", Some(&v("1.7"))), Err(QueryError::NotFound { .. })));
}

#[test]
fn kb_cuda_lists_paddle_and_tensorflow_builds_of_that_toolkit() {
    let a = query::cuda(kb(), CudaVersion::new(11, 8)).unwrap();
    let listed: Vec<&str> = a.frameworks.iter().map(|f| f.build.package.as_str()).collect();
    for want in ["tensorflow==2.14.0", "paddlepaddle-gpu==2.6.2", "paddlepaddle-gpu==3.0.0b2", "cupy-cuda11x"]
    {
        assert!(listed.contains(&want), "{want} not in {listed:?}");
    }
    let a = query::cuda(kb(), CudaVersion::new(9, 0)).unwrap();
    assert!(a.frameworks.iter().any(|f| f.build.package == "tensorflow-gpu==1.12.0"));
}

#[test]
fn kb_framework_from_the_command_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["kb", "framework", "paddle", "2.6"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("paddlepaddle-gpu==2.6.2.post120"), "{text}");
    assert!(text.contains("https://www.paddlepaddle.org.cn/packages/stable/cu120/"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 100 || l.contains("https://")), "{text}");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudoctor"))
        .args(["kb", "framework", "tensorflow", "9.9"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown to this knowledge base"));
}

#[test]
fn kb_cudnn_lists_builds_the_source_writes_as_a_major() {
    // The ONNX Runtime page writes "9.x": a cuDNN 9.1 question still finds the 1.18.1 CUDA 12 package.
    let a = query::cudnn(kb(), &v("9.1")).unwrap();
    assert!(a
        .frameworks
        .iter()
        .any(|f| f.build.framework == "onnxruntime" && f.build.version.as_ref() == Some(&v("1.18.1"))));
    assert!(!a.frameworks.iter().any(|f| f.build.cudnn.as_deref().is_some_and(|c| c.starts_with('8'))));
}

/// See: issue 4. The release lists were read with `pip index versions` on Python 3.11, which hides
/// releases without a cp311 wheel: the table stopped JAX's plugins at 0.10.2 (0.11 needs Python
/// 3.12; the H200 fixture runs jax 0.11.2) and started cupy-cuda11x at 11.3.0 (11.0.0 exists).
#[test]
fn r4_release_spans_are_not_those_of_one_python() {
    let a = query::framework(kb(), "jax", Some(&v("0.11.2"))).unwrap();
    let plugins: Vec<&str> = a.builds.iter().map(|b| b.build.package.as_str()).collect();
    assert_eq!(plugins, ["jax[cuda12]", "jax[cuda13]"]);
    let a = query::framework(kb(), "cupy", Some(&v("11.0.0"))).unwrap();
    assert!(a.builds.iter().any(|b| b.build.package == "cupy-cuda11x"));
}

#[test]
fn a_minimum_toolkit_is_not_offered_for_an_older_one() {
    // JAX's CUDA 12 plugins need CUDA >= 12.1: kb cuda 12.0 must not list them, 12.1 must.
    let jax_for = |cuda: CudaVersion| {
        query::cuda(kb(), cuda)
            .unwrap()
            .frameworks
            .iter()
            .filter(|f| f.build.package == "jax[cuda12]")
            .filter_map(|f| f.build.versions.clone())
            .collect::<Vec<_>>()
    };
    let on_12_0 = jax_for(CudaVersion::new(12, 0));
    assert_eq!(on_12_0, ["0.4.22 to 0.4.25"], "only the rows without a stated minimum");
    assert!(jax_for(CudaVersion::new(12, 1)).contains(&"0.7.2 to 0.12.0.1".to_string()));
}

#[test]
fn a_release_newer_than_the_tables_is_not_guessed_for_any_framework() {
    for (name, newer) in
        [("tensorflow", "2.22"), ("jax", "0.13"), ("cupy", "15.0"), ("ort", "1.32"), ("paddle", "3.3")]
    {
        let e = query::framework(kb(), name, Some(&v(newer))).unwrap_err();
        assert!(matches!(e, QueryError::Newer { .. }), "{name} {newer}: {e}");
        assert!(e.to_string().contains("data of 2026-11"), "{e}");
    }
}
