//! `cudoctor::probe::check` on the H200 fixture (a real machine's layout, see its FACTS.md):
//! every installed version the vendors' tools showed there is reported, with its evidence.
//! And on small broken trees built in temp dirs: junk files, broken links, unreadable
//! directories and an empty root give problems or nothing, never a panic.

use cudoctor::report::{
    CudaLibrary, CudnnLayout, Evidence, FrameworkKind, LibraryKind, Origin, PackageManager, PythonEnvKind,
    Report,
};
use cudoctor::system::System;
use cudoctor::version::CudaVersion;
use fs_err as fs;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::Path;

const FIXTURE: &str = "tests/fixtures/h200-cuda13-torch211";
const SITE: &str = "/opt/torch/.venv/lib/python3.12/site-packages";

fn fixture_report() -> Report {
    let env = cudoctor::cli::parse_env_file(&fs::read_to_string(format!("{FIXTURE}/env")).unwrap());
    cudoctor::probe::check(&System::at_root(format!("{FIXTURE}/root"), env))
}

fn has_package_evidence(evidence: &[Evidence], manager: PackageManager, name: &str) -> bool {
    evidence.iter().any(
        |e| matches!(e, Evidence::Package { manager: m, package, .. } if *m == manager && package == name),
    )
}

#[test]
fn the_venv_is_found_from_path_and_is_active() {
    let r = fixture_report();
    let venv = r.host.python_envs.iter().find(|e| e.prefix == "/opt/torch/.venv").expect("the venv");
    assert_eq!(venv.kind, PythonEnvKind::Venv);
    assert!(venv.active);
    assert_eq!(venv.python_version.as_ref().unwrap().to_string(), "3.12.3");
    assert_eq!(venv.site_packages, [SITE]);
    assert!(venv.evidence.contains(&Evidence::env("PATH")));
    assert_eq!(venv.home.as_deref(), Some("/usr/bin"));
    assert_eq!(r.host.python_envs.iter().filter(|e| e.active).count(), 1);
}

#[test]
fn the_toolkit_is_13_0_reached_through_the_alternatives_chain() {
    let r = fixture_report();
    let tk = r.cuda.toolkits.iter().find(|t| t.root == "/usr/local/cuda-13.0").expect("toolkit");
    let v = tk.version.as_ref().expect("a version");
    // No version.json there and not live: the package that installed nvcc (cuda-nvcc-13-0
    // 13.0.88, the V13.0.88 that `nvcc --version` printed on the machine) gives it; cuda.h's
    // CUDA_VERSION 13000 and the libcudart file name agree.
    assert_eq!(v.value.to_string(), "13.0.88");
    assert_eq!((v.value.major(), v.value.minor()), (13, 0));
    assert!(has_package_evidence(&v.evidence[..1], PackageManager::Dpkg, "cuda-nvcc-13-0"));
    assert!(v.evidence.iter().any(
        |e| matches!(e, Evidence::File { path, detail: Some(d) } if path.ends_with("cuda.h") && d == "CUDA_VERSION")
    ));
    let sources: Vec<String> = tk.version_sources.iter().map(|s| s.value.to_string()).collect();
    assert_eq!(
        sources,
        ["13.0.88", "13.0", "13.0.96", "13.0.2"],
        "nvcc's package, cuda.h, libcudart, cuda-compiler-13-0"
    );
    assert!(
        !tk.version_sources.iter().any(|s| matches!(s.evidence[0], Evidence::Command { .. })),
        "not live: no nvcc run"
    );
    assert_eq!(tk.nvcc.as_deref(), Some("/usr/local/cuda-13.0/bin/nvcc"));
    for p in ["/usr/local/cuda", "$CUDA_HOME", "nvcc on PATH"] {
        assert!(tk.pointed_to_by.iter().any(|x| x == p), "{p} in {:?}", tk.pointed_to_by);
    }

    let chain = r.cuda.usr_local_cuda.as_ref().expect("/usr/local/cuda");
    let hops: Vec<(String, String)> = chain
        .links
        .iter()
        .map(|l| match l {
            Evidence::Symlink { path, target } => (path.clone(), target.clone()),
            other => panic!("not a link: {other:?}"),
        })
        .collect();
    assert_eq!(
        hops,
        [
            ("/usr/local/cuda".to_string(), "/etc/alternatives/cuda".to_string()),
            ("/etc/alternatives/cuda".to_string(), "/usr/local/cuda-13.0".to_string())
        ]
    );
    assert_eq!(chain.target.as_deref(), Some("/usr/local/cuda-13.0"));
    assert_eq!(r.cuda.cuda_home.as_ref().unwrap().target.as_deref(), Some("/usr/local/cuda-13.0"));
    assert_eq!(
        r.cuda.nvcc_on_path.as_ref().unwrap().target.as_deref(),
        Some("/usr/local/cuda-13.0/bin/nvcc")
    );
    assert!(r.cuda.cuda_path.is_none());
}

#[test]
fn the_driver_libraries_the_loader_s_cache_lists_are_marked() {
    // The container's ld.so.cache (read by `ldconfig -p` on the H200) lists the driver's libraries
    // the runtime mounted in /usr/local/nvidia/lib64, video ones included, and not the toolkit's
    // forward-compatibility copies in /usr/local/cuda-13.0/compat.
    let r = fixture_report();
    let lib = |dir: &str, name: &str| {
        r.driver
            .libraries
            .iter()
            .find(|l| l.name == name && l.path.starts_with(dir))
            .unwrap_or_else(|| panic!("{name} in {dir}: {:?}", r.driver.libraries))
    };
    for name in ["libcuda", "libnvidia-ml", "libnvcuvid", "libnvidia-encode"] {
        assert_eq!(lib("/usr/local/nvidia/lib64/", name).in_loader_cache, Some(true), "{name}");
    }
    assert_eq!(lib("/usr/local/cuda-13.0/compat/", "libcuda").in_loader_cache, Some(false));
}

#[test]
fn a_driver_library_the_loader_s_cache_does_not_list_is_shown() {
    // The H200's cache, and a libcuda of another driver copied where the cache never looked.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("etc")).unwrap();
    fs::copy(format!("{FIXTURE}/root/etc/ld.so.cache"), root.join("etc/ld.so.cache")).unwrap();
    write(root, "opt/driver/lib/libcuda.so.575.64.03", "");
    let env = BTreeMap::from([("LD_LIBRARY_PATH".to_string(), "/opt/driver/lib".to_string())]);
    let r = cudoctor::probe::check(&System::at_root(root, env));
    let lib = r.driver.libraries.iter().find(|l| l.name == "libcuda").unwrap();
    assert_eq!(lib.in_loader_cache, Some(false));
    let mut text = Vec::new();
    let options = cudoctor::render::Options { format: cudoctor::render::Format::Text, color: false };
    cudoctor::render::report(&r, options, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("Not in cache"), "{text}");

    // The cache's soname a copy rather than a link (a tree whose links were flattened, as the
    // shared copy of this fixture is): the loader still finds the library in that directory.
    write(root, "usr/local/nvidia/lib64/libcuda.so.1", "");
    write(root, "usr/local/nvidia/lib64/libcuda.so.580.159.04", "");
    let r = cudoctor::probe::check(&System::at_root(root, BTreeMap::new()));
    let mounted = r.driver.libraries.iter().find(|l| l.path.starts_with("/usr/local/nvidia/lib64/")).unwrap();
    assert_eq!(mounted.in_loader_cache, Some(true), "{mounted:?}");
    // One row per directory, its libraries by name, the directory as the row's source.
    let row = &text[text.find("Not in cache").unwrap()..];
    let row = &row[..row.find("Device nodes").unwrap_or(row.len())];
    assert!(row.contains("libcuda: found only through LD_LIBRARY_PATH"), "{row}");
    assert!(row.contains("/opt/driver/lib"), "{row}");
}

#[test]
fn the_pip_cuda_13_runtime_is_a_toolkit_of_its_own() {
    let r = fixture_report();
    let root = format!("{SITE}/nvidia/cu13");
    let tk = r.cuda.toolkits.iter().find(|t| t.root == root).expect("nvidia/cu13");
    assert_eq!(tk.version.as_ref().unwrap().value.to_string(), "13.0.96");
    assert!(matches!(&tk.origin, Origin::Pip { package, .. } if package == "nvidia-cuda-runtime"));
}

fn libs(r: &Report, kind: LibraryKind) -> Vec<&CudaLibrary> {
    r.libraries.iter().filter(|l| l.kind == kind).collect()
}

#[test]
fn both_copies_of_cudart_are_13_0_96() {
    let r = fixture_report();
    let cudart = libs(&r, LibraryKind::Cudart);
    assert_eq!(cudart.len(), 2, "{cudart:#?}");
    let toolkit = cudart.iter().find(|l| l.path.starts_with("/usr/local/cuda-13.0/")).unwrap();
    assert_eq!(toolkit.path, "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96");
    assert_eq!(toolkit.version.as_ref().unwrap().value.to_string(), "13.0.96");
    assert_eq!(toolkit.name, "libcudart.so.13");
    let mut links = toolkit.links.clone();
    links.sort();
    assert_eq!(links, ["libcudart.so", "libcudart.so.13"]);
    assert_eq!(toolkit.size, 0, "the fixture's libraries are placeholders");
    let wheel = cudart.iter().find(|l| l.path.starts_with(SITE)).unwrap();
    assert_eq!(wheel.path, format!("{SITE}/nvidia/cu13/lib/libcudart.so.13"));
    let v = wheel.version.as_ref().unwrap();
    assert_eq!(v.value.to_string(), "13.0.96");
    assert!(has_package_evidence(&v.evidence, PackageManager::Pip, "nvidia-cuda-runtime"));
    assert!(
        matches!(&wheel.origin, Origin::Pip { package, env } if package == "nvidia-cuda-runtime" && env == "/opt/torch/.venv")
    );
}

#[test]
fn a_file_reached_through_two_directories_counts_once() {
    let r = fixture_report();
    // lib64 -> targets/x86_64-linux/lib, /usr/local/cuda/… in ld.so.conf.d: one file each.
    let mut paths: Vec<&str> = r.libraries.iter().map(|l| l.path.as_str()).collect();
    let n = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), n);
    assert!(r
        .libraries
        .iter()
        .all(|l| !l.path.contains("/lib64/") && !l.path.starts_with("/usr/local/cuda/")));
}

#[test]
fn both_cudnn_installs_are_found_with_their_versions() {
    let r = fixture_report();
    assert_eq!(r.cudnn.len(), 2, "{:#?}", r.cudnn);
    let system = r.cudnn.iter().find(|c| c.lib_dir == "/usr/lib/x86_64-linux-gnu").expect("system cuDNN");
    let v = system.version.as_ref().unwrap();
    assert_eq!(v.value.to_string(), "9.14.0");
    assert!(has_package_evidence(&v.evidence, PackageManager::Dpkg, "libcudnn9-cuda-13"));
    assert_eq!(system.header.as_deref(), Some("/usr/include/x86_64-linux-gnu/cudnn_version_v9.h"));
    assert_eq!(system.layout, CudnnLayout::Split);
    assert_eq!(system.cuda_major, Some(13));
    assert!(
        matches!(&system.origin, Origin::System { manager: PackageManager::Dpkg, package } if package == "libcudnn9-cuda-13")
    );
    for sub in ["libcudnn_graph.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_heuristic.so.9"] {
        assert!(system.libraries.iter().any(|l| l == sub), "{sub}");
    }

    let wheel =
        r.cudnn.iter().find(|c| c.lib_dir == format!("{SITE}/nvidia/cudnn/lib")).expect("wheel cuDNN");
    let v = wheel.version.as_ref().unwrap();
    assert_eq!(v.value.to_string(), "9.19.0");
    assert!(has_package_evidence(&v.evidence, PackageManager::Pip, "nvidia-cudnn-cu13"));
    assert_eq!(wheel.cuda_major, Some(13));
    assert_eq!(wheel.layout, CudnnLayout::Split);

    let dpkg = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Dpkg).unwrap();
    let pkg = dpkg.gpu_packages.iter().find(|p| p.name == "libcudnn9-cuda-13").unwrap();
    assert_eq!(pkg.upstream_version.as_ref().unwrap().to_string(), "9.14.0.64");
    assert!(pkg.held);
    let pip = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Pip && d.path == SITE).unwrap();
    let pkg = pip.gpu_packages.iter().find(|p| p.name == "nvidia-cudnn-cu13").unwrap();
    assert_eq!(pkg.version, "9.19.0.56");
}

#[test]
fn nccl_is_2_28_3_from_dpkg_and_2_28_9_from_the_wheel() {
    let r = fixture_report();
    let dpkg = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Dpkg).unwrap();
    assert_eq!(dpkg.path, "/var/lib/dpkg/status");
    assert_eq!(dpkg.packages, 44);
    let nccl = dpkg.gpu_packages.iter().find(|p| p.name == "libnccl2").expect("libnccl2");
    assert_eq!(nccl.version, "2.28.3-1+cuda13.0");
    assert_eq!(nccl.upstream_version.as_ref().unwrap().to_string(), "2.28.3");
    assert!(nccl.held);
    let nccl_libs = libs(&r, LibraryKind::Nccl);
    let wheel = nccl_libs
        .iter()
        .find(|l| l.path == format!("{SITE}/nvidia/nccl/lib/libnccl.so.2"))
        .expect("wheel NCCL");
    let v = wheel.version.as_ref().unwrap();
    assert_eq!(v.value.to_string(), "2.28.9");
    assert!(has_package_evidence(&v.evidence, PackageManager::Pip, "nvidia-nccl-cu13"));
}

#[test]
fn pytorch_jax_and_cupy_builds_are_read_from_files() {
    let r = fixture_report();
    let torch = r.frameworks.iter().find(|f| f.kind == FrameworkKind::Torch).expect("torch");
    assert_eq!(torch.version.value.to_string(), "2.11.0+cu130");
    assert!(
        matches!(&torch.version.evidence[0], Evidence::File { path, .. } if path == &format!("{SITE}/torch/version.py"))
    );
    assert_eq!(torch.cuda.as_ref().unwrap().value, CudaVersion::new(13, 0));
    assert_eq!(torch.build.as_deref(), Some("cu130"));
    assert_eq!(torch.env, "/opt/torch/.venv");
    assert_eq!(torch.details["git_version"], "70d99e998b4955e0049d13a98d77ae1b14db1f45");

    let version_of = |k: FrameworkKind| {
        r.frameworks.iter().find(|f| f.kind == k).map(|f| f.version.value.to_string()).unwrap_or_default()
    };
    assert_eq!(version_of(FrameworkKind::Jax), "0.11.2");
    assert_eq!(version_of(FrameworkKind::Jaxlib), "0.11.2");
    let plugin = r.frameworks.iter().find(|f| f.kind == FrameworkKind::JaxCudaPlugin).expect("jax plugin");
    assert_eq!(plugin.package, "jax-cuda13-plugin");
    assert_eq!(plugin.version.value.to_string(), "0.11.2");
    assert_eq!(plugin.cuda_major, Some(13));
    assert_eq!(plugin.details.get("pjrt").map(String::as_str), Some("0.11.2"));

    let cupy = r.frameworks.iter().find(|f| f.kind == FrameworkKind::Cupy).expect("cupy");
    assert_eq!(cupy.package, "cupy-cuda13x");
    assert_eq!(cupy.version.value.to_string(), "14.2.0");
    assert_eq!(cupy.cuda_major, Some(13));
    assert!(has_package_evidence(&cupy.version.evidence, PackageManager::Pip, "cupy-cuda13x"));
}

#[test]
fn the_fixture_check_meets_no_problem() {
    let r = fixture_report();
    let mine = ["packages", "python", "toolkits", "libraries", "cudnn", "frameworks"];
    let problems: Vec<_> = r.problems.iter().filter(|p| mine.contains(&p.probe.as_str())).collect();
    assert!(problems.is_empty(), "{problems:#?}");
}

// ---- Bad input -------------------------------------------------------------------------------

fn write(root: &Path, rel: &str, content: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

fn check_at(root: &Path, env: &[(&str, &str)]) -> Report {
    let env: BTreeMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    cudoctor::probe::check(&System::at_root(root, env))
}

#[test]
fn an_empty_root_gives_an_empty_report() {
    let dir = tempfile::tempdir().unwrap();
    let r = check_at(dir.path(), &[]);
    assert!(
        r.cuda.toolkits.is_empty() && r.libraries.is_empty() && r.cudnn.is_empty() && r.frameworks.is_empty()
    );
    assert!(r.host.python_envs.is_empty() && r.host.package_dbs.is_empty());
    assert!(r.cuda.usr_local_cuda.is_none());
}

#[test]
fn junk_version_files_become_problems_and_other_sources_still_answer() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "usr/local/cuda-12.4/version.json", "{\"cuda\": {\"version\": \u{7f}");
    write(root, "usr/local/cuda-12.4/include/cuda.h", "#define CUDA_VERSION banana\n");
    write(root, "usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "");
    write(
        root,
        "usr/local/cuda-12.4/include/cudnn_version.h",
        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR ??\n",
    );
    write(root, "usr/local/cuda-12.4/lib64/libcudnn.so.8.9.7", "");
    write(root, "venv/pyvenv.cfg", "version = not-a-version\n");
    write(root, "venv/lib/python3.11/site-packages/torch/version.py", "__version__ = 2\ncuda = '12.4'\n");
    write(root, "venv/lib/python3.11/site-packages/paddle/version/__init__.py", "\u{0}\u{1}\u{2}");
    write(root, "venv/lib/python3.11/site-packages/jaxlib/version.py", "_version = 'x.y'\n");
    let r = check_at(root, &[("PATH", "/venv/bin:/usr/bin")]);

    let tk = r.cuda.toolkits.iter().find(|t| t.root == "/usr/local/cuda-12.4").expect("toolkit");
    assert_eq!(tk.version.as_ref().unwrap().value.to_string(), "12.4.127", "the libcudart file name answers");
    let subjects: Vec<&str> = r.problems.iter().filter_map(|p| p.subject.as_deref()).collect();
    for bad in [
        "/usr/local/cuda-12.4/version.json",
        "/usr/local/cuda-12.4/include/cuda.h",
        "/usr/local/cuda-12.4/include/cudnn_version.h",
        "/venv/lib/python3.11/site-packages/torch/version.py",
    ] {
        assert!(subjects.contains(&bad), "{bad} not in {subjects:?}");
    }
    let cudnn = r.cudnn.first().expect("cudnn from the file name");
    assert_eq!(cudnn.version.as_ref().unwrap().value.to_string(), "8.9.7");
    assert!(cudnn.header.is_none());
    let venv = r.host.python_envs.iter().find(|e| e.prefix == "/venv").expect("venv");
    assert_eq!(venv.python_version.as_ref().unwrap().to_string(), "3.11", "from lib/python3.11");
    assert!(r.frameworks.iter().all(|f| f.kind != FrameworkKind::Torch), "{:?}", r.frameworks);
}

#[test]
fn dangling_and_looping_cuda_links_are_reported_not_followed_forever() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("usr/local")).unwrap();
    symlink("/usr/local/cuda-11.8", root.join("usr/local/cuda")).unwrap();
    fs::create_dir_all(root.join("etc")).unwrap();
    symlink("loop-b", root.join("etc/loop-a")).unwrap();
    symlink("loop-a", root.join("etc/loop-b")).unwrap();
    symlink("/etc/loop-a", root.join("usr/local/cuda-12")).unwrap();
    let r = check_at(root, &[("CUDA_HOME", "/etc/loop-a"), ("PATH", "/usr/local/cuda/bin")]);
    let chain = r.cuda.usr_local_cuda.as_ref().expect("the dangling link is reported");
    assert!(chain.target.is_none());
    assert!(chain.error.as_deref().unwrap().contains("dangling"), "{chain:?}");
    assert_eq!(
        chain.links,
        [Evidence::Symlink { path: "/usr/local/cuda".into(), target: "/usr/local/cuda-11.8".into() }]
    );
    let home = r.cuda.cuda_home.as_ref().unwrap();
    assert!(home.target.is_none());
    assert!(home.error.as_deref().unwrap().contains("loop"), "{home:?}");
    assert!(r.cuda.toolkits.is_empty());
    assert!(r.cuda.nvcc_on_path.is_none());
}

#[test]
fn a_dangling_library_link_is_a_problem_and_the_rest_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5", "");
    symlink("libnccl.so.2.21.5", root.join("usr/lib/x86_64-linux-gnu/libnccl.so.2")).unwrap();
    symlink("libcudnn.so.8.9.7", root.join("usr/lib/x86_64-linux-gnu/libcudnn.so.8")).unwrap();
    let r = check_at(root, &[("LD_LIBRARY_PATH", "/usr/lib/x86_64-linux-gnu:/nowhere:relative")]);
    assert_eq!(r.libraries.len(), 1);
    assert_eq!(r.libraries[0].name, "libnccl.so.2");
    assert_eq!(r.libraries[0].links, ["libnccl.so.2"]);
    assert!(r.problems.iter().any(|p| p.probe == "libraries"
        && p.subject.as_deref() == Some("/usr/lib/x86_64-linux-gnu/libcudnn.so.8")
        && p.message.contains("dangling")));
    assert!(r.cudnn.is_empty());
}

#[test]
fn an_unreadable_directory_is_a_problem_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "venv/pyvenv.cfg", "version_info = 3.12.1\n");
    write(root, "venv/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.5.1+cu124'\n");
    let sp = root.join("venv/lib/python3.12/site-packages");
    let ld = root.join("opt/locked/lib");
    fs::create_dir_all(&ld).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(&ld, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = fs::read_dir(&sp).is_ok(); // root ignores permissions
    let r = check_at(root, &[("PATH", "/venv/bin"), ("LD_LIBRARY_PATH", "/opt/locked/lib")]);
    fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&ld, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(r.host.python_envs.iter().any(|e| e.prefix == "/venv" && e.active));
    if !readable {
        assert!(r.frameworks.is_empty());
        assert!(r
            .problems
            .iter()
            .any(|p| p.subject.as_deref() == Some("/venv/lib/python3.12/site-packages")));
        assert!(r.problems.iter().any(|p| p.subject.as_deref() == Some("/opt/locked/lib")));
    } else {
        // Running as root: permissions do not stop reads, the probes simply see the files.
        assert_eq!(r.frameworks[0].build.as_deref(), Some("cu124"));
    }
}

#[test]
fn a_database_that_cannot_be_read_is_a_problem_even_for_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A directory where a file should be: reading fails whoever reads.
    fs::create_dir_all(root.join("var/lib/dpkg/status")).unwrap();
    fs::create_dir_all(root.join("etc/ld.so.conf")).unwrap();
    write(root, "usr/lib/x86_64-linux-gnu/libcudart.so.12.8.90", "");
    let r = check_at(root, &[]);
    let subjects: Vec<&str> = r.problems.iter().filter_map(|p| p.subject.as_deref()).collect();
    assert!(subjects.contains(&"/var/lib/dpkg/status"), "{subjects:?}");
    assert!(subjects.contains(&"/etc/ld.so.conf"), "{subjects:?}");
    assert!(r.host.package_dbs.is_empty());
    assert_eq!(r.libraries.len(), 1);
    assert_eq!(r.libraries[0].origin, Origin::Unknown);
}

#[test]
fn conda_environments_give_envs_packages_and_a_toolkit() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let env = "opt/conda/envs/tf";
    write(root, "opt/conda/conda-meta/python-3.12.4-h5148396_1.json", "{}");
    write(root, &format!("{env}/conda-meta/python-3.11.9-h955ad1f_0.json"), "{}");
    write(
        root,
        &format!("{env}/conda-meta/cuda-cudart-12.4.127-0.json"),
        r#"{"name":"cuda-cudart","version":"12.4.127","build":"0","files":["lib/libcudart.so.12","lib/libcudart.so.12.4.127"]}"#,
    );
    write(root, &format!("{env}/conda-meta/cudnn-9.1.1.17-cuda12_0.json"), "not json at all");
    write(root, &format!("{env}/lib/libcudart.so.12.4.127"), "");
    symlink("libcudart.so.12.4.127", root.join(format!("{env}/lib/libcudart.so.12"))).unwrap();
    fs::create_dir_all(root.join(format!("{env}/lib/python3.11/site-packages"))).unwrap();
    let r = check_at(root, &[("CONDA_PREFIX", "/opt/conda/envs/tf")]);

    let tf = r.host.python_envs.iter().find(|e| e.prefix == "/opt/conda/envs/tf").expect("conda env");
    assert_eq!(tf.kind, PythonEnvKind::Conda);
    assert_eq!(tf.python_version.as_ref().unwrap().to_string(), "3.11.9");
    assert!(tf.evidence.contains(&Evidence::env("CONDA_PREFIX")));
    assert!(r.host.python_envs.iter().any(|e| e.prefix == "/opt/conda"));
    let db = r.host.package_dbs.iter().find(|d| d.path == "/opt/conda/envs/tf/conda-meta").unwrap();
    assert_eq!(db.packages, 3);
    assert!(r
        .problems
        .iter()
        .any(|p| p.subject.as_deref().is_some_and(|s| s.ends_with("cudnn-9.1.1.17-cuda12_0.json"))));
    let tk = r.cuda.toolkits.iter().find(|t| t.root == "/opt/conda/envs/tf").expect("conda toolkit");
    assert_eq!(tk.version.as_ref().unwrap().value.to_string(), "12.4.127");
    let lib = r.libraries.iter().find(|l| l.kind == LibraryKind::Cudart).unwrap();
    assert!(
        matches!(&lib.origin, Origin::Conda { package, env } if package == "cuda-cudart" && env == "/opt/conda/envs/tf")
    );
}

/// Debian 12's own CUDA packages (values and file lists as dpkg records them on a real machine):
/// `nvidia-cuda-toolkit` in /usr/lib/nvidia-cuda-toolkit with /usr/bin/nvcc, headers in
/// /usr/include, libcudart owned by `libcudart11.0` through its `info/*.list`.
#[test]
fn a_debian_cuda_toolkit_is_found_with_dpkg_file_ownership() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "var/lib/dpkg/status",
        "Package: libcudart11.0\nStatus: install ok installed\nArchitecture: amd64\n\
         Version: 11.8.89~11.8.0-5~deb12u1\n\n\
         Package: nvidia-cuda-toolkit\nStatus: install ok installed\nArchitecture: amd64\n\
         Version: 11.8.89~11.8.0-5~deb12u1\n",
    );
    write(
        root,
        "var/lib/dpkg/info/libcudart11.0:amd64.list",
        "/.\n/usr\n/usr/lib\n/usr/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89\n\
         /usr/share/doc/libcudart11.0/copyright\n/usr/lib/x86_64-linux-gnu/libcudart.so.11.0\n",
    );
    write(root, "usr/lib/nvidia-cuda-toolkit/bin/nvcc", "");
    write(root, "usr/bin/nvcc", "#!/bin/sh\nexec /usr/lib/nvidia-cuda-toolkit/bin/nvcc \"$@\"\n");
    write(root, "usr/include/cuda.h", "#define CUDA_VERSION 11080\n");
    write(root, "usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89", "");
    symlink("libcudart.so.11.8.89", root.join("usr/lib/x86_64-linux-gnu/libcudart.so.11.0")).unwrap();
    symlink("libcudart.so.11.0", root.join("usr/lib/x86_64-linux-gnu/libcudart.so")).unwrap();
    let r = check_at(root, &[("PATH", "/usr/local/bin:/usr/bin:/bin")]);

    let tk = r.cuda.toolkits.iter().find(|t| t.root == "/usr/lib/nvidia-cuda-toolkit").expect("toolkit");
    assert_eq!(tk.version.as_ref().unwrap().value.to_string(), "11.8.89", "the package that installed nvcc");
    let sources: Vec<String> = tk.version_sources.iter().map(|s| s.value.to_string()).collect();
    assert_eq!(
        sources,
        ["11.8.89", "11.8", "11.8.89"],
        "dpkg, cuda.h, the real libcudart (not the 11.0 soname)"
    );
    assert!(matches!(&tk.origin, Origin::System { package, .. } if package == "nvidia-cuda-toolkit"));
    assert_eq!(tk.nvcc.as_deref(), Some("/usr/bin/nvcc"));
    assert_eq!(tk.pointed_to_by, ["nvcc on PATH"]);

    let cudart = r.libraries.iter().find(|l| l.kind == LibraryKind::Cudart).expect("cudart");
    assert_eq!(cudart.path, "/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89");
    assert_eq!(cudart.name, "libcudart.so.11.0", "the SONAME link, fewest numbers");
    assert_eq!(cudart.size, 0);
    assert!(
        matches!(&cudart.origin, Origin::System { manager: PackageManager::Dpkg, package } if package == "libcudart11.0")
    );
    let v = cudart.version.as_ref().unwrap();
    assert_eq!(v.value.to_string(), "11.8.89");
    assert!(has_package_evidence(&v.evidence, PackageManager::Dpkg, "libcudart11.0"));
}

#[test]
fn system_and_user_site_packages_rpm_and_other_frameworks_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "usr/bin/python3", "");
    write(root, "var/lib/rpm/rpmdb.sqlite", "");
    let sys_sp = "usr/lib/python3.12/site-packages";
    write(
        root,
        &format!("{sys_sp}/tensorflow/python/platform/build_info.py"),
        "import collections\n\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-18/bin/clang'), \
         ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), \
         ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])\n",
    );
    write(
        root,
        &format!("{sys_sp}/tensorflow-2.20.0.dist-info/METADATA"),
        "Name: tensorflow\nVersion: 2.20.0\n\n",
    );
    write(
        root,
        &format!("{sys_sp}/onnxruntime_gpu-1.22.0.dist-info/METADATA"),
        "Name: onnxruntime-gpu\nVersion: 1.22.0\n",
    );
    write(root, &format!("{sys_sp}/onnxruntime/capi/libonnxruntime_providers_cuda.so"), "");
    write(
        root,
        &format!("{sys_sp}/onnxruntime/capi/build_and_package_info.py"),
        "package_name = 'onnxruntime-gpu'\n__version__ = '1.22.0'\ncuda_version = '12.8'\ncudnn_version = '9.8'\n",
    );
    let user_sp = "home/alice/.local/lib/python3.12/site-packages";
    write(
        root,
        &format!("{user_sp}/paddlepaddle_gpu-3.0.0.dist-info/METADATA"),
        "Name: paddlepaddle-gpu\nVersion: 3.0.0\n",
    );
    write(
        root,
        &format!("{user_sp}/paddle/version/__init__.py"),
        "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nfull_version    = '3.0.0'\ncuda_version    = '12.6'\n\
         cudnn_version   = '9.5.1'\nistaged         = True\n",
    );
    let r = check_at(root, &[("PATH", "/usr/local/bin:/usr/bin")]);

    let system = r.host.python_envs.iter().find(|e| e.kind == PythonEnvKind::System).expect("system env");
    assert!(system.active, "/usr/bin/python3 is the first python on PATH");
    assert_eq!(system.python_version.as_ref().unwrap().to_string(), "3.12");
    let user = r.host.python_envs.iter().find(|e| e.kind == PythonEnvKind::User).expect("user env");
    assert_eq!(user.prefix, "/home/alice/.local");
    assert!(!user.active);

    let rpm = r.host.package_dbs.iter().find(|d| d.manager == PackageManager::Rpm).expect("rpm detected");
    assert_eq!(rpm.path, "/var/lib/rpm");
    assert!(rpm.note.as_deref().unwrap().starts_with("not parsed"));

    let tf = r.frameworks.iter().find(|f| f.kind == FrameworkKind::Tensorflow).expect("tensorflow");
    assert_eq!(tf.version.value.to_string(), "2.20.0");
    assert_eq!(tf.cuda.as_ref().unwrap().value, CudaVersion::new(12, 5));
    assert_eq!(tf.cudnn.as_ref().unwrap().value.to_string(), "9");
    assert_eq!(tf.build.as_deref(), Some("cuda"));
    assert_eq!(tf.details["cuda_compute_capabilities"], "sm_60,sm_70,sm_80,sm_89,compute_90");

    let ort = r.frameworks.iter().find(|f| f.kind == FrameworkKind::Onnxruntime).expect("onnxruntime");
    assert_eq!(ort.package, "onnxruntime-gpu");
    assert_eq!(ort.cuda.as_ref().unwrap().value, CudaVersion::new(12, 8));
    assert_eq!(ort.cudnn.as_ref().unwrap().value.to_string(), "9.8");
    assert_eq!(ort.build.as_deref(), Some("cuda"));

    let paddle = r.frameworks.iter().find(|f| f.kind == FrameworkKind::Paddle).expect("paddle");
    assert_eq!(paddle.env, "/home/alice/.local");
    assert_eq!(paddle.version.value.to_string(), "3.0.0");
    assert_eq!(paddle.cuda.as_ref().unwrap().value, CudaVersion::new(12, 6));
    assert_eq!(paddle.cudnn.as_ref().unwrap().value.to_string(), "9.5.1");
}
