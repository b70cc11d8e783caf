//! `/etc/ld.so.conf` (with its `include` globs) and whether `/etc/ld.so.cache` still reflects it.
//!
//! `ldconfig` builds the cache from the directories of the configuration; a directory added to
//! `ld.so.conf.d` after the last `ldconfig` run is invisible to the loader's cache step. The
//! staleness check compares the configured directories with the directories the cache lists,
//! and the files' modification times.

use super::cache::LdCache;
use crate::system::System;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Includes followed before giving up (a loop of includes).
const MAX_INCLUDE_DEPTH: usize = 8;

/// One directory of the configuration and the file that named it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfDir {
    /// The directory (machine path).
    pub dir: PathBuf,
    /// The configuration file that lists it.
    pub source: PathBuf,
}

/// Reads `/etc/ld.so.conf` and everything it includes, in order, without duplicates.
pub fn read_conf(sys: &System) -> Vec<ConfDir> {
    let mut out = Vec::new();
    read_one(sys, Path::new("/etc/ld.so.conf"), 0, &mut out);
    out
}

fn read_one(sys: &System, file: &Path, depth: usize, out: &mut Vec<ConfDir>) {
    if depth > MAX_INCLUDE_DEPTH {
        return;
    }
    let Ok(text) = sys.read_to_string(file) else { return };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(pattern) = line.strip_prefix("include").filter(|r| r.starts_with([' ', '\t'])) {
            for pattern in pattern.split_whitespace() {
                let pattern = if pattern.starts_with('/') {
                    PathBuf::from(pattern)
                } else {
                    file.parent().unwrap_or(Path::new("/")).join(pattern)
                };
                for included in glob_files(sys, &pattern) {
                    read_one(sys, &included, depth + 1, out);
                }
            }
            continue;
        }
        if line.starts_with("hwcap") {
            continue;
        }
        // Old syntax allowed `dir=TYPE` and separators other than newlines.
        for entry in line.split([' ', '\t', ',', ':']).filter(|s| !s.is_empty()) {
            let dir = PathBuf::from(entry.split('=').next().unwrap_or(entry));
            if dir.is_absolute() && !out.iter().any(|c: &ConfDir| c.dir == dir) {
                out.push(ConfDir { dir, source: file.to_path_buf() });
            }
        }
    }
}

/// Expands a glob whose only wildcards are in the last component (`/etc/ld.so.conf.d/*.conf`).
fn glob_files(sys: &System, pattern: &Path) -> Vec<PathBuf> {
    let Some(name) = pattern.file_name().and_then(|n| n.to_str()) else { return Vec::new() };
    let dir = pattern.parent().unwrap_or(Path::new("/"));
    if !name.contains(['*', '?', '[']) {
        return vec![pattern.to_path_buf()];
    }
    let Ok(entries) = sys.read_dir(dir) else { return Vec::new() };
    entries.into_iter().filter(|e| wildcard_match(name, &e.name)).map(|e| e.path).collect()
}

/// Matches `*` and `?` (enough for the patterns ld.so.conf files use).
fn wildcard_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A sign that the cache no longer reflects the configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Staleness {
    /// A configured directory holds libraries the cache does not list.
    DirMissing {
        /// The directory.
        dir: String,
        /// The configuration file naming it.
        source: String,
        /// A few of the library names in it the cache does not know.
        examples: Vec<String>,
        /// How many such names there are.
        count: usize,
    },
    /// A configuration file was modified after the cache was written.
    ConfNewer {
        /// The configuration file.
        file: String,
    },
    /// A cache entry leads to a file that no longer exists.
    DanglingEntry {
        /// The entry's name.
        name: String,
        /// Its path.
        path: String,
    },
}

impl Staleness {
    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Staleness::DirMissing { dir, source, examples, count } => format!(
                "{dir} (from {source}) holds {count} librar{} the cache does not list ({}): run `ldconfig`",
                if *count == 1 { "y" } else { "ies" },
                examples.join(", ")
            ),
            Staleness::ConfNewer { file } => format!("{file} was changed after /etc/ld.so.cache was written"),
            Staleness::DanglingEntry { name, path } => {
                format!("cache entry {name} => {path}: the file is gone")
            }
        }
    }
}

/// True when `/lib` is `/usr/lib` on this tree: a link to it (merged /usr, every current
/// distribution), or absent while `/usr/lib` exists (a partial copy of such a machine).
pub fn merged_usr(sys: &System) -> bool {
    match sys.symlink_metadata(Path::new("/lib")) {
        Ok(m) => m.file_type().is_symlink(),
        Err(_) => sys.is_dir(Path::new("/usr/lib")),
    }
}

/// The `/usr` form of a path on a merged-/usr tree (`/lib/x86_64-linux-gnu` →
/// `/usr/lib/x86_64-linux-gnu`); other paths unchanged.
pub fn usr_form(path: &Path, merged: bool) -> PathBuf {
    if merged {
        for top in ["lib", "lib32", "lib64", "libx32", "bin", "sbin"] {
            if let Ok(rest) = path.strip_prefix(Path::new("/").join(top)) {
                return Path::new("/usr").join(top).join(rest);
            }
        }
    }
    path.to_path_buf()
}

/// The name ldconfig would index a directory entry under, if any: the SONAME of a readable
/// library (a link whose name is neither that SONAME nor a `.so` development link to it is not
/// indexed, as in ldconfig's `search_dir`); for a file that cannot be read (an empty
/// placeholder), the name rule of [`indexable`].
fn cache_key(sys: &System, e: &crate::system::DirEntry) -> Option<String> {
    let real = sys.resolve(&e.path).ok()?;
    match crate::binary::elf::read_elf(&sys.host_path(&real.path)) {
        Ok(info) => {
            if info.kind != crate::binary::elf::ObjectKind::Shared {
                return None;
            }
            let soname = info.soname.unwrap_or_else(|| e.name.clone());
            let is_link = e.kind == crate::system::EntryKind::Symlink;
            let dev_link = e.name.ends_with(".so") && soname.starts_with(e.name.as_str());
            if is_link && e.name != soname && !dev_link {
                return None;
            }
            Some(if dev_link && is_link { e.name.clone() } else { soname })
        }
        Err(crate::binary::elf::ElfError::NotElf(why)) if why == "empty file" => {
            indexable(&e.name, e.kind).then(|| e.name.clone())
        }
        Err(_) => None,
    }
}

/// True for names ldconfig puts in the cache: links named `lib*.so*` (the SONAME links and
/// the development `.so` links), and files named `lib*.so` or `lib*.so.N` (a file named with
/// its full version, `libcudnn.so.9.14.0`, is reached through its SONAME link instead).
fn indexable(name: &str, kind: crate::system::EntryKind) -> bool {
    if !name.starts_with("lib") {
        return false;
    }
    let Some((_, version)) = name.split_once(".so") else { return false };
    match kind {
        crate::system::EntryKind::Symlink => version.is_empty() || version.starts_with('.'),
        crate::system::EntryKind::File => {
            version.is_empty() || version.strip_prefix('.').is_some_and(|v| !v.contains('.'))
        }
        _ => false,
    }
}

/// Compares the cache with the configuration: libraries of configured directories missing from
/// it, configuration files newer than it (on the machine itself), entries whose file is gone.
pub fn staleness(sys: &System, cache: &LdCache, conf: &[ConfDir]) -> Vec<Staleness> {
    let mut out = Vec::new();
    let merged = merged_usr(sys);
    let known: BTreeSet<(String, &str)> = cache
        .entries
        .iter()
        .map(|e| {
            let dir = Path::new(&e.path).parent().unwrap_or(Path::new("/"));
            (usr_form(dir, merged).display().to_string(), e.name.as_str())
        })
        .collect();
    let mut seen_dirs = BTreeSet::new();
    for c in conf {
        let real = sys.resolve(&c.dir).map(|r| r.path).unwrap_or_else(|_| c.dir.clone());
        if !seen_dirs.insert(real.clone()) {
            continue;
        }
        let Ok(entries) = sys.read_dir(&c.dir) else { continue };
        let dir_str = usr_form(&c.dir, merged).display().to_string();
        let real_str = usr_form(&real, merged).display().to_string();
        let mut missing: Vec<String> = Vec::new();
        for e in entries.iter().filter(|e| e.name.starts_with("lib") && e.name.contains(".so")) {
            let Some(key) = cache_key(sys, e) else { continue };
            let known_here = known.contains(&(dir_str.clone(), key.as_str()))
                || known.contains(&(real_str.clone(), key.as_str()));
            if !known_here && !missing.contains(&key) {
                missing.push(key);
            }
        }
        if !missing.is_empty() {
            out.push(Staleness::DirMissing {
                dir: c.dir.display().to_string(),
                source: c.source.display().to_string(),
                examples: missing.iter().take(3).cloned().collect(),
                count: missing.len(),
            });
        }
    }
    // Modification times mean something only on the machine itself: a copied tree or a
    // checkout has the times of the copy.
    let cache_time =
        sys.is_host_root().then(|| sys.metadata(Path::new("/etc/ld.so.cache")).and_then(|m| m.modified()));
    if let Some(Ok(cache_time)) = cache_time {
        let mut files: Vec<PathBuf> = vec![PathBuf::from("/etc/ld.so.conf")];
        files.extend(conf.iter().map(|c| c.source.clone()));
        files.dedup();
        let mut reported = BTreeSet::new();
        for f in files {
            let newer = sys.metadata(&f).and_then(|m| m.modified()).is_ok_and(|t| t > cache_time);
            if newer && reported.insert(f.clone()) {
                out.push(Staleness::ConfNewer { file: f.display().to_string() });
            }
        }
    }
    // On a copied tree (a fixture, an image) most system libraries are absent by design.
    let entries = if sys.is_host_root() { cache.entries.as_slice() } else { &[] };
    for e in entries {
        if !sys.exists(Path::new(&e.path)) && seen_dirs.iter().any(|d| Path::new(&e.path).starts_with(d)) {
            out.push(Staleness::DanglingEntry { name: e.name.clone(), path: e.path.clone() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_like_glob() {
        assert!(wildcard_match("*.conf", "nvidia.conf"));
        assert!(!wildcard_match("*.conf", "nvidia.conf.bak"));
        assert!(wildcard_match("a?c*", "abcdef"));
    }
}
