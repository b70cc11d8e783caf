//! The loader model against real ELF files built here with `cc`, in fixture trees under temp
//! directories: each step of glibc's search order, and, where the host can run it, the real
//! loader's own answer (`LD_TRACE_LOADED_OBJECTS=1`, and a real `dlopen`) compared with the model.

use cudoctor::loader::{Candidate, Loader, Outcome, Request, Resolution, Step, Target};
use cudoctor::system::System;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles C source into a shared library at `out` with extra linker flags.
fn cc_shared(src: &str, out: &Path, flags: &[&str]) {
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let c = out.with_extension("c");
    std::fs::write(&c, src).unwrap();
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(out)
        .arg(&c)
        .args(flags)
        .status()
        .expect("cc is needed to build the test libraries");
    assert!(status.success(), "cc failed for {}", out.display());
    std::fs::remove_file(c).unwrap();
}

/// A library `lib<name>.so.1` (SONAME set) returning `id` from `<name>_id()`.
fn dep(root: &Path, dir: &str, name: &str, id: i32) -> PathBuf {
    let out = root.join(dir.trim_start_matches('/')).join(format!("lib{name}.so.1"));
    let soname = format!("-Wl,-soname,lib{name}.so.1");
    cc_shared(&format!("int {name}_id(void) {{ return {id}; }}\n"), &out, &[&soname]);
    out
}

/// A library needing `needs` (paths of built libraries, linked by SONAME) with extra flags.
fn user(root: &Path, rel: &str, needs: &[&Path], flags: &[&str]) -> PathBuf {
    let out = root.join(rel.trim_start_matches('/'));
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    args.push("-Wl,--no-as-needed".into());
    for n in needs {
        args.push(n.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    cc_shared("int user_fn(void) { return 0; }\n", &out, &args);
    out
}

fn sys_with(root: &Path, ld_library_path: Option<&str>) -> System {
    let mut env = BTreeMap::new();
    if let Some(v) = ld_library_path {
        env.insert("LD_LIBRARY_PATH".to_string(), v.to_string());
    }
    System::at_root(root, env)
}

/// Loads `top` (machine path) and resolves its needed tree.
fn resolve_tree(sys: &System, top: &str) -> (Vec<Resolution>, Vec<cudoctor::loader::Object>) {
    let mut loader = Loader::new(sys, Target::X86_64);
    let root = loader.load_path(Path::new(top), None).unwrap();
    let res = loader.load_needed_tree(root);
    (res, loader.objects.clone())
}

fn find<'a>(res: &'a [Resolution], name: &str) -> &'a Resolution {
    res.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name} not requested: {res:#?}"))
}

fn found(r: &Resolution) -> (String, Step) {
    match &r.outcome {
        Outcome::Found { path, step, .. } => (path.clone(), step.clone()),
        other => panic!("{} not found: {other:?}\ntried: {:#?}", r.name, r.tried),
    }
}

#[test]
fn rpath_comes_before_ld_library_path_and_origin_expands() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let a = dep(r, "/app/rp", "dep", 1);
    dep(r, "/llp", "dep", 2);
    user(r, "/app/libuser.so", &[&a], &["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/rp"]);
    let (res, _) = resolve_tree(&sys_with(r, Some("/llp")), "/app/libuser.so");
    let (path, step) = found(find(&res, "libdep.so.1"));
    assert_eq!(path, "/app/rp/libdep.so.1");
    assert_eq!(step, Step::Rpath { of: "/app/libuser.so".into() });
}

#[test]
fn runpath_comes_after_ld_library_path() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let a = dep(r, "/app/rp", "dep", 1);
    dep(r, "/llp", "dep", 2);
    user(r, "/app/libuser.so", &[&a], &["-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/rp"]);
    let sys = sys_with(r, Some("/llp"));
    let (res, objects) = resolve_tree(&sys, "/app/libuser.so");
    assert_eq!(objects[0].runpath.as_deref(), Some("$ORIGIN/rp"));
    let (path, step) = found(find(&res, "libdep.so.1"));
    assert_eq!((path.as_str(), step), ("/llp/libdep.so.1", Step::LdLibraryPath));
    // Without LD_LIBRARY_PATH the RUNPATH finds it.
    let (res, _) = resolve_tree(&sys_with(r, None), "/app/libuser.so");
    let (path, step) = found(find(&res, "libdep.so.1"));
    assert_eq!(path, "/app/rp/libdep.so.1");
    assert_eq!(step, Step::Runpath { of: "/app/libuser.so".into() });
}

#[test]
fn rpath_is_inherited_from_the_loader_only_when_the_requester_has_no_runpath() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let leaf = dep(r, "/inh", "leaf", 7);
    // mid has no search path of its own; top's RPATH /inh is searched on mid's behalf.
    let mid = user(r, "/inh/libmid.so", &[&leaf], &["-Wl,-soname,libmid.so"]);
    user(r, "/top/libtop.so", &[&mid], &["-Wl,--disable-new-dtags", "-Wl,-rpath,/inh"]);
    let (res, _) = resolve_tree(&sys_with(r, None), "/top/libtop.so");
    let (path, step) = found(find(&res, "libleaf.so.1"));
    assert_eq!(path, "/inh/libleaf.so.1");
    assert_eq!(step, Step::Rpath { of: "/top/libtop.so".into() });

    // Give mid a RUNPATH (pointing nowhere useful): top's RPATH is no longer searched for it.
    let mid2 = user(
        r,
        "/inh2/libmid.so",
        &[&leaf],
        &["-Wl,-soname,libmid.so", "-Wl,--enable-new-dtags", "-Wl,-rpath,/nowhere"],
    );
    std::fs::remove_file(r.join("inh/libmid.so")).unwrap();
    std::fs::copy(&mid2, r.join("inh/libmid.so")).unwrap();
    let (res, _) = resolve_tree(&sys_with(r, None), "/top/libtop.so");
    let leaf_res = find(&res, "libleaf.so.1");
    assert_eq!(leaf_res.outcome, Outcome::NotFound, "{leaf_res:#?}");
    let searched: Vec<&str> = leaf_res.tried.iter().map(|t| t.path.as_str()).collect();
    assert!(searched.contains(&"/nowhere/libleaf.so.1"), "{searched:?}");
    assert!(!searched.iter().any(|p| p.starts_with("/inh/")), "RPATH of top was searched: {searched:?}");
}

#[test]
fn default_directories_are_searched_last_and_multiarch_is_detected() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let d = dep(r, "/usr/lib/x86_64-linux-gnu", "deflt", 3);
    user(r, "/app/libuser.so", &[&d], &[]);
    // A /lib of its own: not a merged-/usr tree, so /lib/x86_64-linux-gnu is another directory.
    std::fs::create_dir_all(r.join("lib")).unwrap();
    let sys = sys_with(r, None);
    let loader = Loader::new(&sys, Target::X86_64);
    assert_eq!(loader.default_dirs()[1], Path::new("/usr/lib/x86_64-linux-gnu"));
    let (res, _) = resolve_tree(&sys, "/app/libuser.so");
    let (path, step) = found(find(&res, "libdeflt.so.1"));
    assert_eq!((path.as_str(), step), ("/usr/lib/x86_64-linux-gnu/libdeflt.so.1", Step::DefaultDir));
    // Not found: every directory searched is listed.
    let mut loader = Loader::new(&sys, Target::X86_64);
    let top = loader.load_path(Path::new("/app/libuser.so"), None).unwrap();
    let miss = loader.search("libabsent.so.4", Some(top), Request::Needed);
    assert_eq!(miss.outcome, Outcome::NotFound);
    let tried: Vec<&str> = miss.tried.iter().map(|t| t.path.as_str()).collect();
    assert!(tried.contains(&"/usr/lib/libabsent.so.4"), "{tried:?}");
    assert!(tried.iter().any(|t| t.contains("ld.so.cache")), "{tried:?}");
}

#[test]
fn wrong_machine_elf_is_skipped_but_a_non_elf_file_stops_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let good = dep(r, "/good", "foo", 1);
    user(r, "/app/libuser.so", &[&good], &[]);
    // An AArch64-tagged copy first on the path: skipped silently.
    std::fs::create_dir_all(r.join("arm")).unwrap();
    let mut bytes = fs_err::read(&good).unwrap();
    bytes[18..20].copy_from_slice(&183u16.to_le_bytes());
    std::fs::write(r.join("arm/libfoo.so.1"), &bytes).unwrap();
    let (res, _) = resolve_tree(&sys_with(r, Some("/arm:/good")), "/app/libuser.so");
    let foo = find(&res, "libfoo.so.1");
    assert_eq!(found(foo).0, "/good/libfoo.so.1");
    assert!(matches!(&foo.tried[0].outcome, Candidate::Skipped(w) if w.contains("AArch64")), "{foo:#?}");

    // Junk first on the path: glibc stops with "invalid ELF header" (it does not skip it).
    std::fs::create_dir_all(r.join("junk")).unwrap();
    std::fs::write(r.join("junk/libfoo.so.1"), vec![b'x'; 200]).unwrap();
    let (res, _) = resolve_tree(&sys_with(r, Some("/junk:/good")), "/app/libuser.so");
    assert_eq!(
        find(&res, "libfoo.so.1").outcome,
        Outcome::Failed { path: "/junk/libfoo.so.1".into(), error: "invalid ELF header".into() }
    );
}

/// What the real loader of this machine resolves for a program, through
/// `LD_TRACE_LOADED_OBJECTS=1` (what `ldd` prints): name → path.
fn real_loader(program: &Path, ld_library_path: &str) -> Result<BTreeMap<String, String>, String> {
    let out = Command::new(program)
        .env("LD_TRACE_LOADED_OBJECTS", "1")
        .env("LD_LIBRARY_PATH", ld_library_path)
        .output()
        .map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(stdout
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once(" => ")?;
            Some((name.to_string(), rest.split(" (").next()?.to_string()))
        })
        .collect())
}

#[test]
fn the_model_agrees_with_this_machines_loader_on_every_step() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().to_path_buf();
    let b = |p: &str| base.join(p.trim_start_matches('/'));
    let a1 = dep(&base, "/rp", "alpha", 1);
    dep(&base, "/llp", "alpha", 2);
    let b1 = dep(&base, "/rn", "beta", 1);
    dep(&base, "/llp", "beta", 2);
    // A program with RPATH ($ORIGIN/rp) needing alpha, and a library with RUNPATH needing beta.
    let runlib = user(
        &base,
        "/lib2/librun.so",
        &[&b1],
        &["-Wl,-soname,librun.so", "-Wl,--enable-new-dtags", &format!("-Wl,-rpath,{}", b("/rn").display())],
    );
    let main_c = b("/bin/main.c");
    std::fs::create_dir_all(b("/bin")).unwrap();
    std::fs::write(&main_c, "int main(void) { return 0; }\n").unwrap();
    let program = b("/bin/main");
    let status = Command::new("cc")
        .arg("-o")
        .arg(&program)
        .arg(&main_c)
        .arg("-Wl,--no-as-needed")
        .arg(&a1)
        .arg(&runlib)
        .args(["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/../rp"])
        .arg(format!("-Wl,-rpath-link,{}", b("/rn").display()))
        .status()
        .unwrap();
    assert!(status.success());
    let llp = format!("{}:{}", b("/llp").display(), b("/lib2").display());

    // The model, on the host's own root (these are real host paths).
    let mut env = BTreeMap::new();
    env.insert("LD_LIBRARY_PATH".to_string(), llp.clone());
    let sys = System::at_root("/", env);
    let mut loader = Loader::new(&sys, Target::X86_64);
    let main = loader.load_path(&program, None).unwrap();
    loader.set_main(main);
    let model: BTreeMap<String, String> = loader
        .load_needed_tree(main)
        .iter()
        .filter_map(|r| Some((r.name.clone(), r.found_path()?.to_string())))
        .collect();
    let real = real_loader(&program, &llp).expect("the program runs");
    eprintln!("model: {model:#?}\nreal: {real:#?}");
    for name in ["libalpha.so.1", "libbeta.so.1", "librun.so", "libc.so.6"] {
        let m = model.get(name).map(|p| std::fs::canonicalize(p).unwrap());
        let r = real.get(name).map(|p| std::fs::canonicalize(p).unwrap());
        assert_eq!(m, r, "{name}: model {:?} vs loader {:?}", model.get(name), real.get(name));
    }
    // And the picks are the ones each rule predicts.
    assert!(model["libalpha.so.1"].ends_with("/bin/../rp/libalpha.so.1"), "RPATH of the program");
    assert!(model["libbeta.so.1"].ends_with("/llp/libbeta.so.1"), "LD_LIBRARY_PATH before RUNPATH");
    assert!(model["librun.so"].ends_with("/lib2/librun.so"), "LD_LIBRARY_PATH");
}

#[test]
fn junk_first_on_ld_library_path_fails_in_the_model_as_in_the_real_loader() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().to_path_buf();
    let good = dep(&base, "/good", "foo", 1);
    std::fs::create_dir_all(base.join("junk")).unwrap();
    std::fs::write(base.join("junk/libfoo.so.1"), vec![b'x'; 200]).unwrap();
    let main_c = base.join("main.c");
    std::fs::write(&main_c, "int foo_id(void); int main(void) { return foo_id() == 1 ? 0 : 3; }\n").unwrap();
    let program = base.join("main");
    assert!(Command::new("cc").arg("-o").arg(&program).arg(&main_c).arg(&good).status().unwrap().success());
    let llp = format!("{}:{}", base.join("junk").display(), base.join("good").display());
    let real = real_loader(&program, &llp);
    let err = real.expect_err("the real loader refuses the junk file");
    assert!(err.contains("invalid ELF header"), "{err}");

    let mut env = BTreeMap::new();
    env.insert("LD_LIBRARY_PATH".to_string(), llp);
    let sys = System::at_root("/", env);
    let mut loader = Loader::new(&sys, Target::X86_64);
    let main = loader.load_path(&program, None).unwrap();
    let res = loader.load_needed_tree(main);
    assert!(
        matches!(&find(&res, "libfoo.so.1").outcome, Outcome::Failed { error, .. } if error == "invalid ELF header")
    );
}

/// A fake cuDNN: `libcudnn.so.9` (RUNPATH `$ORIGIN`) that dlopens `libcudnn_graph.so.9` and
/// reports which copy it got, as cuDNN 9 does with its sub-libraries.
fn fake_cudnn(root: &Path, dir: &str, graph_id: i32) {
    let d = root.join(dir.trim_start_matches('/'));
    let graph = d.join("libcudnn_graph.so.9");
    cc_shared(
        &format!("int cudnn_graph_id(void) {{ return {graph_id}; }}\n"),
        &graph,
        &["-Wl,-soname,libcudnn_graph.so.9"],
    );
    let src = "#include <dlfcn.h>\n\
        int cudnn_load_graph(void) {\n\
          void *h = dlopen(\"libcudnn_graph.so.9\", RTLD_NOW);\n\
          if (!h) return -1;\n\
          int (*f)(void) = (int (*)(void))dlsym(h, \"cudnn_graph_id\");\n\
          return f ? f() : -2;\n\
        }\n";
    cc_shared(
        src,
        &d.join("libcudnn.so.9"),
        &["-Wl,-soname,libcudnn.so.9", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN", "-ldl"],
    );
}

// See: tests/fixtures/h200-cuda13-torch211/FACTS.md — the wheel's libcudnn.so.9 is found through
// libtorch's RPATH, but with the system directory on LD_LIBRARY_PATH the graph library it
// dlopens comes from the system (LD_LIBRARY_PATH is searched before its RUNPATH).
#[test]
fn r3_cudnn_sub_libraries_follow_ld_library_path_before_the_wheels_runpath() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().to_path_buf();
    fake_cudnn(&base, "/site/nvidia/cudnn/lib", 919);
    fake_cudnn(&base, "/usr/lib/x86_64-linux-gnu", 914);
    let wheel_cudnn = base.join("site/nvidia/cudnn/lib/libcudnn.so.9");
    // A "libtorch_cuda.so" with PyTorch's RPATH, and a program calling through it.
    let torch_src = "int cudnn_load_graph(void); int torch_graph(void) { return cudnn_load_graph(); }\n";
    let torch = base.join("site/torch/lib/libtorch_cuda.so");
    cc_shared(
        torch_src,
        &torch,
        &[
            "-Wl,--no-as-needed",
            "-Wl,--disable-new-dtags",
            "-Wl,-rpath,$ORIGIN/../../nvidia/cudnn/lib",
            wheel_cudnn.to_str().unwrap(),
        ],
    );
    let main_c = base.join("main.c");
    std::fs::write(
        &main_c,
        "#include <stdio.h>\nint torch_graph(void); int main(void) { printf(\"%d\\n\", torch_graph()); return 0; }\n",
    )
    .unwrap();
    let program = base.join("python");
    let mut link = Command::new("cc");
    link.arg("-o").arg(&program).arg(&main_c).arg("-Wl,--no-as-needed").arg(&torch);
    assert!(link.status().unwrap().success());

    let system_dir = base.join("usr/lib/x86_64-linux-gnu");
    for (llp, expected_graph, expected_step) in [
        (Some(system_dir.display().to_string()), 914, "LD_LIBRARY_PATH"),
        (None, 919, "RUNPATH of libcudnn.so.9"),
    ] {
        // The real loader: which graph library did the dlopen get?
        let mut cmd = Command::new(&program);
        cmd.env_remove("LD_LIBRARY_PATH");
        if let Some(l) = &llp {
            cmd.env("LD_LIBRARY_PATH", l);
        }
        let out = cmd.output().unwrap();
        let got: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().expect("the program prints an id");
        assert_eq!(got, expected_graph, "real loader with LD_LIBRARY_PATH={llp:?}");

        // The model, from the torch library (as PyTorch's import loads it).
        let mut env = BTreeMap::new();
        if let Some(l) = &llp {
            env.insert("LD_LIBRARY_PATH".to_string(), l.clone());
        }
        let sys = System::at_root("/", env);
        let mut loader = Loader::new(&sys, Target::X86_64);
        let top = loader.load_path(&torch, None).unwrap();
        let res = cudoctor::loader::frameworks::load_with_dlopens(&mut loader, top);
        let cudnn = find(&res, "libcudnn.so.9");
        assert!(matches!(found(cudnn).1, Step::Rpath { .. }), "{cudnn:#?}");
        let graph = find(&res, "libcudnn_graph.so.9");
        assert_eq!(graph.request, Request::Dlopen);
        let (path, step) = found(graph);
        assert_eq!(step.describe(), expected_step, "{graph:#?}");
        let expected_dir =
            if expected_graph == 914 { "usr/lib/x86_64-linux-gnu" } else { "nvidia/cudnn/lib" };
        assert!(path.contains(expected_dir), "{path}");
    }
}

#[test]
fn the_h200_fixture_loads_the_wheel_cudnn_and_mixes_it_with_ld_library_path() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/h200-cuda13-torch211");
    let env_text = fs_err::read_to_string(fixture.join("env")).unwrap();
    let mut env = cudoctor::cli::parse_env_file(&env_text);
    let torch = Path::new("/opt/torch/.venv/lib/python3.12/site-packages/torch");
    let sys = System::at_root(fixture.join("root"), env.clone());
    let linkage = cudoctor::loader::frameworks::framework_cuda(&sys, torch).expect("torch has a CUDA binary");
    assert!(linkage.binary.ends_with("torch/lib/libtorch_cuda.so"));
    assert!(linkage.binary_error.as_deref().is_some_and(|e| e.contains("not an ELF file")));
    let lib =
        |name: &str| linkage.libraries.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("{name}"));
    let cudnn = lib("libcudnn.so.9");
    assert!(cudnn.real_path.as_deref().unwrap().ends_with("site-packages/nvidia/cudnn/lib/libcudnn.so.9"));
    assert_eq!(cudnn.version.as_ref().unwrap().to_string(), "9.19.0.56");
    assert_eq!(lib("libcudart.so.13").version.as_ref().unwrap().to_string(), "13.0.96");
    assert!(lib("libcudnn_graph.so.9").real_path.as_deref().unwrap().contains("site-packages/nvidia/cudnn"));
    assert_eq!(linkage.cuda_runtime.as_deref(), Some("libcudart.so.13"));

    env.insert(
        "LD_LIBRARY_PATH".into(),
        "/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64:/usr/local/nvidia/lib".into(),
    );
    let sys = System::at_root(fixture.join("root"), env);
    let linkage = cudoctor::loader::frameworks::framework_cuda(&sys, torch).unwrap();
    let lib = |name: &str| linkage.libraries.iter().find(|l| l.name == name).unwrap().clone();
    assert!(lib("libcudnn.so.9").real_path.unwrap().contains("site-packages"));
    let graph = lib("libcudnn_graph.so.9");
    assert_eq!(graph.real_path.as_deref(), Some("/usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9.14.0"));
    assert_eq!(graph.step, Some(Step::LdLibraryPath));
    assert_eq!(graph.version.unwrap().to_string(), "9.14.0");
    assert!(linkage
        .cudnn_mixes
        .iter()
        .any(|n| n.contains("libcudnn_graph.so.9") && n.contains("cuDNN version incompatibility")));
}

#[test]
fn platform_and_lib_tokens_expand_as_on_this_machine() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    // A multiarch tree: $LIB is lib/x86_64-linux-gnu, $PLATFORM x86_64.
    std::fs::create_dir_all(r.join("usr/lib/x86_64-linux-gnu")).unwrap();
    let p = dep(r, "/app/x86_64", "plat", 1);
    let l = dep(r, "/opt/lib/x86_64-linux-gnu", "libtok", 1);
    user(
        r,
        "/app/libuser.so",
        &[&p, &l],
        &["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/$PLATFORM:/opt/$LIB"],
    );
    let (res, _) = resolve_tree(&sys_with(r, None), "/app/libuser.so");
    assert_eq!(found(find(&res, "libplat.so.1")).0, "/app/x86_64/libplat.so.1");
    assert_eq!(found(find(&res, "liblibtok.so.1")).0, "/opt/lib/x86_64-linux-gnu/liblibtok.so.1");
}

#[test]
fn pytorch_preloads_a_cuda_library_the_loader_cannot_find_from_the_nvidia_wheels() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let site = "/venv/lib/python3.12/site-packages";
    let cublas = dep(r, &format!("{site}/nvidia/cublas/lib"), "cublas", 12);
    // libtorch_cuda.so needing libcublas.so.1 with no search path that leads to it.
    user(r, &format!("{site}/torch/lib/libtorch_cuda.so"), &[&cublas], &[]);
    let sys = sys_with(r, None);
    let linkage = cudoctor::loader::frameworks::framework_cuda(&sys, &Path::new(site).join("torch")).unwrap();
    assert!(linkage.binary_error.is_none(), "{linkage:#?}");
    let lib = linkage.libraries.iter().find(|l| l.name == "libcublas.so.1").unwrap();
    assert_eq!(lib.path.as_deref(), Some(format!("{site}/nvidia/cublas/lib/libcublas.so.1").as_str()));
    assert!(matches!(&lib.step, Some(Step::Preload { by }) if by.contains("_preload_cuda_deps")), "{lib:#?}");
}

#[test]
fn ld_preload_wins_over_every_search_path() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let a = dep(r, "/app/rp", "dep", 1);
    dep(r, "/pre", "dep", 2);
    user(r, "/app/libuser.so", &[&a], &["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/rp"]);
    let mut env = BTreeMap::new();
    env.insert("LD_PRELOAD".to_string(), "/pre/libdep.so.1".to_string());
    let sys = System::at_root(r, env);
    let mut loader = Loader::new(&sys, Target::X86_64);
    let pre = loader.load_ld_preload();
    assert_eq!(pre[0].found_path(), Some("/pre/libdep.so.1"));
    let top = loader.load_path(Path::new("/app/libuser.so"), None).unwrap();
    let res = loader.load_needed_tree(top);
    let (path, step) = found(find(&res, "libdep.so.1"));
    assert_eq!((path.as_str(), step), ("/pre/libdep.so.1", Step::AlreadyLoaded));
}
