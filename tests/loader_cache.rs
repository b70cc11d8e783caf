//! ld.so.cache: real caches written by this machine's `ldconfig` in all three formats, and the
//! H200 fixture's cache, read by cudoctor and compared line by line with `ldconfig -p -C`.
//! Then the cache as a search step, and its staleness against ld.so.conf.d.

use cudoctor::loader::cache::{self, CacheFormat};
use cudoctor::loader::conf::{self, Staleness};
use cudoctor::loader::{Loader, Outcome, Request, Step, Target};
use cudoctor::system::System;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn ldconfig_listing(cache_file: &Path) -> String {
    let out = Command::new("ldconfig").arg("-p").arg("-C").arg(cache_file).output().expect("ldconfig runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A root with two library directories, one in ld.so.conf and one in an included file.
fn root_with_libs() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    for (dir, name) in [("opt/a", "alpha"), ("opt/b", "beta"), ("opt/b", "gamma")] {
        let d = r.join(dir);
        std::fs::create_dir_all(&d).unwrap();
        let c = d.join(format!("{name}.c"));
        std::fs::write(&c, format!("int {name}(void) {{ return 1; }}\n")).unwrap();
        let so = d.join(format!("lib{name}.so.1.2.3"));
        let ok = Command::new("cc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(&so)
            .arg(&c)
            .arg(format!("-Wl,-soname,lib{name}.so.1"))
            .status()
            .unwrap()
            .success();
        assert!(ok);
        std::fs::remove_file(c).unwrap();
    }
    std::fs::create_dir_all(r.join("etc/ld.so.conf.d")).unwrap();
    std::fs::write(r.join("etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n/opt/a\n").unwrap();
    std::fs::write(r.join("etc/ld.so.conf.d/b.conf"), "# the b libraries\n/opt/b\n").unwrap();
    tmp
}

fn run_ldconfig(root: &Path, format: &str, cache: &str) {
    let status = Command::new("ldconfig")
        .args(["-c", format, "-C", cache, "-f", "/etc/ld.so.conf", "-r"])
        .arg(root)
        .status()
        .expect("ldconfig runs");
    assert!(status.success(), "ldconfig -c {format} (needs root for -r)");
}

#[test]
fn caches_of_every_format_read_exactly_as_ldconfig_lists_them() {
    let tmp = root_with_libs();
    let r = tmp.path();
    for (format, expected) in
        [("new", CacheFormat::New), ("old", CacheFormat::Old), ("compat", CacheFormat::Compat)]
    {
        let name = format!("/etc/cache.{format}");
        run_ldconfig(r, format, &name);
        let file = r.join(name.trim_start_matches('/'));
        let parsed = cache::parse(&fs_err::read(&file).unwrap()).unwrap();
        assert_eq!(parsed.format, expected);
        let names: Vec<&str> = parsed.entries.iter().map(|e| e.name.as_str()).collect();
        assert!(names.contains(&"libalpha.so.1") && names.contains(&"libgamma.so.1"), "{names:?}");
        let ours = parsed.ldconfig_listing(&file.display().to_string());
        assert_eq!(ours, ldconfig_listing(&file), "format {format}");
    }
}

#[test]
fn the_h200_fixture_cache_reads_as_ldconfig_lists_it() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/h200-cuda13-torch211/root/etc/ld.so.cache");
    let parsed = cache::parse(&fs_err::read(&file).unwrap()).unwrap();
    assert_eq!(parsed.entries.len(), 520);
    assert_eq!(parsed.ldconfig_listing(&file.display().to_string()), ldconfig_listing(&file));
    let cudart = parsed.lookup("libcudart.so.13", true, object::elf::EM_X86_64).unwrap();
    assert_eq!(cudart.path, "/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13");
    let cudnn = parsed.lookup("libcudnn.so.9", true, object::elf::EM_X86_64).unwrap();
    assert_eq!(cudnn.path, "/lib/x86_64-linux-gnu/libcudnn.so.9");
    assert!(parsed.lookup("libcudnn.so.9", false, object::elf::EM_X86_64).is_none(), "x32 is another ABI");
}

#[test]
fn the_cache_step_finds_what_no_path_names_and_staleness_is_reported() {
    let tmp = root_with_libs();
    let r = tmp.path();
    run_ldconfig(r, "new", "/etc/ld.so.cache");
    let sys = System::at_root(r, BTreeMap::new());
    let loader = Loader::new(&sys, Target::X86_64);
    let res = loader.search("libbeta.so.1", None, Request::Needed);
    match &res.outcome {
        Outcome::Found { path, step, .. } => {
            assert_eq!(path, "/opt/b/libbeta.so.1");
            assert_eq!(*step, Step::Cache);
        }
        other => panic!("{other:?}"),
    }
    let confs = conf::read_conf(&sys);
    let dirs: Vec<String> = confs.iter().map(|c| c.dir.display().to_string()).collect();
    assert_eq!(dirs, ["/opt/b", "/opt/a"], "include first, in file order");
    let cache = loader.cache().unwrap();
    assert!(conf::staleness(&sys, cache, &confs).is_empty());

    // A directory added to ld.so.conf.d after the cache was written.
    let d = r.join("opt/c");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(r.join("opt/a/libalpha.so.1.2.3"), d.join("libdelta.so.4")).unwrap();
    std::fs::write(r.join("etc/ld.so.conf.d/c.conf"), "/opt/c\n").unwrap();
    let confs = conf::read_conf(&sys);
    let stale = conf::staleness(&sys, cache, &confs);
    assert!(
        matches!(&stale[..], [Staleness::DirMissing { dir, count: 1, .. }] if dir == "/opt/c"),
        "{stale:#?}"
    );
    assert!(stale[0].describe().contains("run `ldconfig`"));
}
