//! A model of glibc's dynamic loader (`ld.so`): which file a process really loads for a library
//! name, and why.
//!
//! For a name without a slash, requested by object L, glibc searches (elf/dl-load.c
//! `_dl_map_object`), stopping at the first usable file:
//!
//! 1. an object already loaded under that name or SONAME is reused;
//! 2. only when L has no `DT_RUNPATH`: the `DT_RPATH` of L, then of the object that loaded L,
//!    and so on up the chain, then of the executable;
//! 3. `LD_LIBRARY_PATH`;
//! 4. the `DT_RUNPATH` of L (of L only: it is not inherited);
//! 5. `/etc/ld.so.cache`, unless L has `DF_1_NODEFLIB`;
//! 6. the default directories (`/lib/x86_64-linux-gnu`, `/usr/lib/x86_64-linux-gnu`, `/lib`,
//!    `/usr/lib` on Debian-style multiarch systems, `/lib64`, `/usr/lib64` elsewhere).
//!
//! `$ORIGIN` is the directory of the path L was found under (links not resolved), `$LIB` and
//! `$PLATFORM` expand as on the machine. An ELF file of another class or machine is skipped
//! silently; a file that is not ELF at all, or too short, stops the search with an error
//! ("invalid ELF header", "file too short"), as glibc does. A library that `dlopen`s another by
//! name (cuDNN its sub-libraries, libcudart `libcuda.so.1`) searches with its own RPATH/RUNPATH:
//! [`Loader::dlopen`]. Everything is read through [`System`], so the model runs on `--root`
//! trees and fixtures; no library is ever loaded.

pub mod cache;
pub mod conf;
pub mod frameworks;

use crate::binary::elf::{self, ElfClass, ElfError, ElfInfo};
use crate::system::System;
use cache::LdCache;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where a search step found (or looked for) a library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Step {
    /// The name held a slash: the path was opened as given.
    Path,
    /// Already loaded in the process (by this name or its SONAME).
    AlreadyLoaded,
    /// The `DT_RPATH` of an object (the requester, or one that loaded it, or the executable).
    Rpath {
        /// The object whose RPATH it is.
        of: String,
    },
    /// `LD_LIBRARY_PATH`.
    LdLibraryPath,
    /// The `DT_RUNPATH` of the requesting object.
    Runpath {
        /// The object whose RUNPATH it is.
        of: String,
    },
    /// `/etc/ld.so.cache`.
    Cache,
    /// A default directory of the loader.
    DefaultDir,
    /// Loaded by full path by a framework before the library needed it (PyTorch's
    /// `_preload_cuda_deps`).
    Preload {
        /// Who preloads it.
        by: String,
    },
}

impl Step {
    /// The step in words: `rpath of libtorch_cuda.so`.
    pub fn describe(&self) -> String {
        let base = |p: &str| Path::new(p).file_name().map_or(p.to_string(), |f| f.to_string_lossy().into());
        match self {
            Step::Path => "path as given".into(),
            Step::AlreadyLoaded => "already loaded".into(),
            Step::Rpath { of } => format!("RPATH of {}", base(of)),
            Step::LdLibraryPath => "LD_LIBRARY_PATH".into(),
            Step::Runpath { of } => format!("RUNPATH of {}", base(of)),
            Step::Cache => "ld.so.cache".into(),
            Step::DefaultDir => "default directory".into(),
            Step::Preload { by } => format!("preloaded by {by}"),
        }
    }
}

/// What happened to one candidate file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Candidate {
    /// No such file there.
    Missing,
    /// An ELF file for another class or machine: skipped silently, the search goes on.
    Skipped(String),
    /// Taken.
    Taken,
    /// Not usable, and the loader stops here with this error.
    Fatal(String),
}

/// One file the search looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tried {
    /// The machine path tried.
    pub path: String,
    /// The step it belongs to.
    pub step: Step,
    /// What happened.
    pub outcome: Candidate,
}

/// How the search for a name ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    /// Found.
    Found {
        /// The machine path the loader opens (links not resolved: `$ORIGIN` comes from it).
        path: String,
        /// The file behind it, links resolved.
        real_path: String,
        /// The step that found it.
        step: Step,
        /// Index of the object in [`Loader::objects`].
        object: usize,
    },
    /// A file was found that the loader refuses: the load fails with this error.
    Failed {
        /// The file.
        path: String,
        /// glibc's words (`invalid ELF header`, `file too short`).
        error: String,
    },
    /// Nowhere: `cannot open shared object file: No such file or directory`.
    NotFound,
}

/// Why a library was requested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// A `DT_NEEDED` entry.
    Needed,
    /// A run-time `dlopen` by name.
    Dlopen,
}

/// The search for one library name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolution {
    /// The name asked for (`libcudnn_graph.so.9`).
    pub name: String,
    /// The machine path of the object that asked.
    pub requested_by: String,
    /// Needed or dlopened.
    pub request: Request,
    /// The result.
    pub outcome: Outcome,
    /// Every candidate file looked at, in order.
    pub tried: Vec<Tried>,
    /// Remarks: an empty placeholder file taken, assumptions made, an `LD_LIBRARY_PATH` entry
    /// that is relative.
    pub notes: Vec<String>,
}

impl Resolution {
    /// The path found, if any.
    pub fn found_path(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Found { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// Where the dynamic facts of an object came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Facts {
    /// Read from the file's ELF headers.
    Read,
    /// The file could not be read as ELF (an empty placeholder); what is shown is assumed from
    /// what is known of this library (e.g. cuDNN's `RUNPATH=$ORIGIN`), or nothing.
    Assumed(String),
}

/// One object in the modelled process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Object {
    /// The machine path it was found under.
    pub path: String,
    /// The file behind the path, links resolved.
    pub real_path: String,
    /// The names it was requested by (the loader matches later requests against them).
    pub names: Vec<String>,
    /// `DT_SONAME`.
    pub soname: Option<String>,
    /// `DT_NEEDED`.
    pub needed: Vec<String>,
    /// `DT_RPATH` as written (dropped by glibc when the object also has `DT_RUNPATH`).
    pub rpath: Option<String>,
    /// `DT_RUNPATH` as written.
    pub runpath: Option<String>,
    /// `DF_1_NODEFLIB`.
    pub nodeflib: bool,
    /// The object that caused it to be loaded (index), `None` for a root.
    pub loader: Option<usize>,
    /// Where the facts above came from.
    pub facts: Facts,
    /// Why the file could not be read as ELF, if it could not.
    pub elf_error: Option<String>,
    /// Symbol versions it needs from its dependencies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub version_needs: Vec<elf::VersionNeed>,
    /// Symbol versions it defines (`GLIBCXX_3.4.30` for a libstdc++).
    #[serde(skip)]
    pub version_defs: Vec<String>,
}

/// The class and machine of the modelled process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// 64-bit.
    pub class64: bool,
    /// `e_machine`.
    pub machine: u16,
}

impl Target {
    /// x86-64, the common case.
    pub const X86_64: Target = Target { class64: true, machine: object::elf::EM_X86_64 };

    /// The target of an ELF file.
    pub fn of(info: &ElfInfo) -> Target {
        Target { class64: info.class == ElfClass::Elf64, machine: info.machine }
    }

    /// The GNU multiarch triplet (`x86_64-linux-gnu`).
    pub fn triplet(&self) -> &'static str {
        use object::elf;
        match (self.class64, self.machine) {
            (true, elf::EM_X86_64) => "x86_64-linux-gnu",
            (false, elf::EM_X86_64) => "x86_64-linux-gnux32",
            (true, elf::EM_AARCH64) => "aarch64-linux-gnu",
            (false, elf::EM_386) => "i386-linux-gnu",
            (true, elf::EM_PPC64) => "powerpc64le-linux-gnu",
            _ => "unknown-linux-gnu",
        }
    }

    /// `$PLATFORM` (`AT_PLATFORM`).
    pub fn platform(&self) -> &'static str {
        use object::elf;
        match self.machine {
            elf::EM_X86_64 => "x86_64",
            elf::EM_AARCH64 => "aarch64",
            elf::EM_386 => "i686",
            elf::EM_PPC64 => "powerpc64le",
            _ => "unknown",
        }
    }
}

/// The loader model for one process on one machine.
pub struct Loader<'a> {
    sys: &'a System,
    target: Target,
    env_dirs: Vec<PathBuf>,
    env_notes: Vec<String>,
    cache: Option<LdCache>,
    cache_problem: Option<String>,
    default_dirs: Vec<PathBuf>,
    lib_token: String,
    merged_usr: bool,
    main: Option<usize>,
    /// Every object loaded so far, in load order.
    pub objects: Vec<Object>,
}

impl<'a> Loader<'a> {
    /// A loader for a process of `target` on `sys`, reading `LD_LIBRARY_PATH` from its
    /// environment and `/etc/ld.so.cache` from its root.
    pub fn new(sys: &'a System, target: Target) -> Loader<'a> {
        let multiarch = Path::new("/usr/lib").join(target.triplet());
        let is_multiarch = sys.is_dir(&multiarch);
        let default_dirs: Vec<PathBuf> = if is_multiarch {
            let t = target.triplet();
            vec![format!("/lib/{t}").into(), format!("/usr/lib/{t}").into(), "/lib".into(), "/usr/lib".into()]
        } else if target.class64 {
            vec!["/lib64".into(), "/usr/lib64".into()]
        } else {
            vec!["/lib".into(), "/usr/lib".into()]
        };
        let lib_token = if is_multiarch {
            format!("lib/{}", target.triplet())
        } else if target.class64 {
            "lib64".into()
        } else {
            "lib".into()
        };
        let (cache, cache_problem) = match sys.read(Path::new("/etc/ld.so.cache")) {
            Ok(bytes) => match cache::parse(&bytes) {
                Ok(c) => (Some(c), None),
                Err(e) => (None, Some(format!("/etc/ld.so.cache: {e}"))),
            },
            Err(e) => (None, Some(format!("/etc/ld.so.cache: {e}"))),
        };
        let mut env_dirs = Vec::new();
        let mut env_notes = Vec::new();
        if let Some(v) = sys.env("LD_LIBRARY_PATH") {
            for part in v.split([':', ';']) {
                if part.is_empty() {
                    env_notes
                        .push("LD_LIBRARY_PATH has an empty entry: the current directory is searched".into());
                } else if !part.starts_with('/') {
                    env_notes
                        .push(format!("LD_LIBRARY_PATH entry `{part}` is relative to the current directory"));
                } else {
                    env_dirs.push(PathBuf::from(part));
                }
            }
        }
        Loader {
            sys,
            target,
            env_dirs,
            env_notes,
            cache,
            cache_problem,
            default_dirs,
            lib_token,
            merged_usr: conf::merged_usr(sys),
            main: None,
            objects: Vec::new(),
        }
    }

    /// The parsed ld.so.cache, if it could be read.
    pub fn cache(&self) -> Option<&LdCache> {
        self.cache.as_ref()
    }

    /// Why the cache could not be read.
    pub fn cache_problem(&self) -> Option<&str> {
        self.cache_problem.as_deref()
    }

    /// The default directories searched last.
    pub fn default_dirs(&self) -> &[PathBuf] {
        &self.default_dirs
    }

    /// Remarks on `LD_LIBRARY_PATH` (empty or relative entries, which search the current
    /// directory).
    pub fn env_notes(&self) -> &[String] {
        &self.env_notes
    }

    /// The `LD_LIBRARY_PATH` directories.
    pub fn ld_library_path(&self) -> &[PathBuf] {
        &self.env_dirs
    }

    /// Makes object `index` the executable (its RPATH is searched after the loader chain's).
    pub fn set_main(&mut self, index: usize) {
        self.main = Some(index);
    }

    /// Loads an object by machine path (the executable, or a `dlopen` with a full path, as
    /// PyTorch does for `libtorch_global_deps.so`). Returns its index; an object already loaded
    /// from the same file is reused.
    pub fn load_path(&mut self, path: &Path, loader: Option<usize>) -> Result<usize, String> {
        let real = self.sys.resolve(path).map_err(|e| e.to_string())?;
        let real_str = real.path.display().to_string();
        if let Some(i) = self.objects.iter().position(|o| o.real_path == real_str) {
            return Ok(i);
        }
        match self.check_candidate(&real.path) {
            Candidate::Fatal(e) => return Err(e),
            Candidate::Skipped(e) => return Err(e),
            _ => {}
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(self.add_object(path, &real.path, &name, loader))
    }

    fn add_object(&mut self, path: &Path, real: &Path, name: &str, loader: Option<usize>) -> usize {
        let host = self.sys.host_path(real);
        let (info, error) = match elf::read_elf(&host) {
            Ok(info) => (Some(info), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let mut object = Object {
            path: path.display().to_string(),
            real_path: real.display().to_string(),
            names: vec![name.to_string()],
            soname: None,
            needed: Vec::new(),
            rpath: None,
            runpath: None,
            nodeflib: false,
            loader,
            facts: Facts::Read,
            elf_error: error,
            version_needs: Vec::new(),
            version_defs: Vec::new(),
        };
        match info {
            Some(info) => {
                object.soname = info.soname;
                object.needed = info.needed;
                // glibc ignores DT_RPATH when DT_RUNPATH is present (get-dynamic-info.h).
                object.rpath = if info.runpath.is_some() { None } else { info.rpath };
                object.runpath = info.runpath;
                object.nodeflib = info.nodeflib;
                object.version_needs = info.version_needs;
                object.version_defs = info.version_defs;
            }
            None => {
                let (assumed, why) = frameworks::assumed_dynamic(self.sys, name, path);
                if let Some(a) = assumed {
                    object.rpath = a.rpath;
                    object.runpath = a.runpath;
                    object.needed = a.needed;
                }
                object.facts = Facts::Assumed(why);
            }
        }
        self.objects.push(object);
        self.objects.len() - 1
    }

    /// What the loader does with a file found at `real` (links resolved).
    fn check_candidate(&self, real: &Path) -> Candidate {
        let host = self.sys.host_path(real);
        match elf::read_ident(&host) {
            Ok(id) => {
                let class64 = id.class == ElfClass::Elf64;
                if class64 != self.target.class64 {
                    Candidate::Skipped(format!(
                        "wrong ELF class: ELFCLASS{}",
                        if class64 { "64" } else { "32" }
                    ))
                } else if id.machine != self.target.machine {
                    Candidate::Skipped(format!("ELF for {}", elf::machine_name(id.machine)))
                } else {
                    Candidate::Taken
                }
            }
            // A zero-byte file: on a real machine glibc stops with "file too short"; in a
            // fixture tree it stands for a library whose content was not copied.
            Err(ElfError::NotElf(why)) if why == "empty file" => Candidate::Taken,
            Err(ElfError::NotElf(_)) => Candidate::Fatal("invalid ELF header".into()),
            Err(ElfError::Corrupt(_)) => Candidate::Fatal("file too short".into()),
            Err(ElfError::Io(e)) => Candidate::Fatal(e),
        }
    }

    /// Expands `$ORIGIN`, `$LIB` and `$PLATFORM` in an RPATH/RUNPATH list of object `of`.
    pub fn expand(&self, list: &str, of: usize) -> Vec<PathBuf> {
        let origin =
            Path::new(&self.objects[of].path).parent().map(|p| p.display().to_string()).unwrap_or_default();
        list.split(':')
            .filter(|s| !s.is_empty())
            .map(|s| {
                let s = s
                    .replace("${ORIGIN}", &origin)
                    .replace("$ORIGIN", &origin)
                    .replace("${LIB}", &self.lib_token)
                    .replace("$LIB", &self.lib_token)
                    .replace("${PLATFORM}", self.target.platform())
                    .replace("$PLATFORM", self.target.platform());
                // Kept as written: glibc does not fold `..`, the kernel resolves it physically.
                PathBuf::from(s)
            })
            .filter(|p| p.is_absolute())
            .collect()
    }

    /// The search for `name` requested by object `by`, without loading anything.
    pub fn search(&self, name: &str, by: Option<usize>, request: Request) -> Resolution {
        let requested_by = by.map(|i| self.objects[i].path.clone()).unwrap_or_default();
        let mut res = Resolution {
            name: name.to_string(),
            requested_by,
            request,
            outcome: Outcome::NotFound,
            tried: Vec::new(),
            notes: Vec::new(),
        };
        if let Some(i) = self.objects.iter().position(|o| {
            o.names.iter().any(|n| n == name) || o.soname.as_deref() == Some(name) || o.path == name
        }) {
            let o = &self.objects[i];
            res.outcome = Outcome::Found {
                path: o.path.clone(),
                real_path: o.real_path.clone(),
                step: Step::AlreadyLoaded,
                object: i,
            };
            return res;
        }
        if name.contains('/') {
            let path = by.map_or_else(
                || PathBuf::from(name),
                |b| self.expand(name, b).into_iter().next().unwrap_or_else(|| PathBuf::from(name)),
            );
            self.try_dirs(
                &mut res,
                name,
                &[path.parent().unwrap_or(Path::new("/")).to_path_buf()],
                Step::Path,
            );
            return res;
        }

        let runpath_of_requester = by.and_then(|b| self.objects[b].runpath.as_ref().map(|r| (b, r)));
        if runpath_of_requester.is_none() {
            let mut did_main = false;
            let mut cur = by;
            while let Some(i) = cur {
                if let Some(rpath) = &self.objects[i].rpath {
                    let dirs = self.expand(rpath, i);
                    let step = Step::Rpath { of: self.objects[i].path.clone() };
                    if self.try_dirs(&mut res, name, &dirs, step) {
                        return res;
                    }
                }
                did_main |= Some(i) == self.main;
                cur = self.objects[i].loader;
            }
            if let (false, Some(m)) = (did_main, self.main) {
                if let Some(rpath) = &self.objects[m].rpath {
                    let dirs = self.expand(rpath, m);
                    let step = Step::Rpath { of: self.objects[m].path.clone() };
                    if self.try_dirs(&mut res, name, &dirs, step) {
                        return res;
                    }
                }
            }
        }
        if self.try_dirs(&mut res, name, &self.env_dirs, Step::LdLibraryPath) {
            return res;
        }
        if let Some((b, runpath)) = runpath_of_requester {
            let dirs = self.expand(runpath, b);
            let step = Step::Runpath { of: self.objects[b].path.clone() };
            if self.try_dirs(&mut res, name, &dirs, step) {
                return res;
            }
        }
        let nodeflib = by.is_some_and(|b| self.objects[b].nodeflib);
        if nodeflib {
            res.notes.push(
                "the requesting object has DF_1_NODEFLIB: cache and default directories skipped".into(),
            );
            return res;
        }
        match &self.cache {
            Some(cache) => {
                if let Some(entry) = cache.lookup(name, self.target.class64, self.target.machine) {
                    let p = PathBuf::from(&entry.path);
                    if self.try_file(&mut res, &p, Step::Cache) {
                        return res;
                    }
                } else {
                    res.tried.push(Tried {
                        path: format!("/etc/ld.so.cache: no entry for {name}"),
                        step: Step::Cache,
                        outcome: Candidate::Missing,
                    });
                }
            }
            None => {
                let why = self.cache_problem.clone().unwrap_or_else(|| "/etc/ld.so.cache: absent".into());
                res.tried.push(Tried { path: why, step: Step::Cache, outcome: Candidate::Missing });
            }
        }
        self.try_dirs(&mut res, name, &self.default_dirs, Step::DefaultDir);
        res
    }

    /// Tries `name` in each directory; true when the search is over (found or fatal).
    fn try_dirs(&self, res: &mut Resolution, name: &str, dirs: &[PathBuf], step: Step) -> bool {
        let file = Path::new(name).file_name().map(PathBuf::from).unwrap_or_else(|| PathBuf::from(name));
        dirs.iter().any(|d| self.try_file(res, &d.join(&file), step.clone()))
    }

    fn try_file(&self, res: &mut Resolution, path: &Path, step: Step) -> bool {
        let mut found = self.sys.resolve(path).ok().filter(|r| self.sys.is_file(&r.path));
        if found.is_none() && self.merged_usr && !self.sys.exists(Path::new("/lib")) {
            // A copied tree of a merged-/usr machine without its `/lib -> usr/lib` link.
            found = self.sys.resolve(&conf::usr_form(path, true)).ok().filter(|r| self.sys.is_file(&r.path));
        }
        let resolved = match found {
            Some(r) => r,
            None => {
                res.tried.push(Tried { path: path.display().to_string(), step, outcome: Candidate::Missing });
                return false;
            }
        };
        let outcome = self.check_candidate(&resolved.path);
        res.tried.push(Tried {
            path: path.display().to_string(),
            step: step.clone(),
            outcome: outcome.clone(),
        });
        match outcome {
            Candidate::Taken => {
                let real = resolved.path.display().to_string();
                if self.sys.metadata(&resolved.path).is_ok_and(|m| m.len() == 0) {
                    res.notes.push(format!(
                        "{real} is an empty file (a placeholder here; on a real machine the loader stops with \"file too short\")"
                    ));
                }
                res.outcome = Outcome::Found {
                    path: path.display().to_string(),
                    real_path: real,
                    step,
                    object: usize::MAX,
                };
                true
            }
            Candidate::Fatal(error) => {
                res.outcome = Outcome::Failed { path: path.display().to_string(), error };
                true
            }
            Candidate::Missing | Candidate::Skipped(_) => false,
        }
    }

    /// Searches and, when found, loads `name` as requested by `by` (the object index is filled
    /// in the outcome).
    pub fn request(&mut self, name: &str, by: Option<usize>, request: Request) -> Resolution {
        let mut res = self.search(name, by, request);
        if let Outcome::Found { path, real_path, step, object } = &mut res.outcome {
            if *step == Step::AlreadyLoaded {
                let o = &mut self.objects[*object];
                if !o.names.iter().any(|n| n == name) {
                    o.names.push(name.to_string());
                }
            } else if let Some(i) = self.objects.iter().position(|o| o.real_path == *real_path) {
                // The same file under another name or path: glibc compares device and inode.
                *object = i;
                self.objects[i].names.push(name.to_string());
            } else {
                *object = self.add_object(Path::new(path.as_str()), Path::new(real_path.as_str()), name, by);
            }
        }
        res
    }

    /// Loads what `LD_PRELOAD` names (before anything else, as glibc does: a later need of the
    /// same name or SONAME then finds it already loaded). Returns their resolutions, requested
    /// by `LD_PRELOAD`.
    pub fn load_ld_preload(&mut self) -> Vec<Resolution> {
        let Some(list) = self.sys.env("LD_PRELOAD").map(str::to_string) else { return Vec::new() };
        let mut out = Vec::new();
        for name in list.split([' ', ':']).filter(|n| !n.is_empty()) {
            let mut res = if name.contains('/') {
                let mut res = Resolution {
                    name: name.to_string(),
                    requested_by: String::new(),
                    request: Request::Needed,
                    outcome: Outcome::NotFound,
                    tried: Vec::new(),
                    notes: Vec::new(),
                };
                match self.load_path(Path::new(name), None) {
                    Ok(i) => {
                        res.outcome = Outcome::Found {
                            path: name.to_string(),
                            real_path: self.objects[i].real_path.clone(),
                            step: Step::Path,
                            object: i,
                        }
                    }
                    Err(e) => res.notes.push(e),
                }
                res
            } else {
                self.request(name, None, Request::Needed)
            };
            res.requested_by = "LD_PRELOAD".into();
            out.push(res);
        }
        out
    }

    /// Loads the `DT_NEEDED` tree of object `root`, breadth first as glibc does, and returns
    /// every resolution in order. Names already resolved are not repeated.
    pub fn load_needed_tree(&mut self, root: usize) -> Vec<Resolution> {
        let mut out = Vec::new();
        let mut queue = std::collections::VecDeque::from([root]);
        let mut visited = std::collections::BTreeSet::new();
        while let Some(i) = queue.pop_front() {
            if !visited.insert(i) {
                continue;
            }
            let needed = self.objects[i].needed.clone();
            for name in needed {
                let res = self.request(&name, Some(i), Request::Needed);
                if let Outcome::Found { object, step, .. } = &res.outcome {
                    if *step != Step::AlreadyLoaded {
                        queue.push_back(*object);
                    }
                }
                out.push(res);
            }
        }
        out
    }

    /// `dlopen(name)` called from object `caller`: the search uses the caller's RPATH/RUNPATH,
    /// then the found library's own needs are loaded. Returns every resolution.
    pub fn dlopen(&mut self, name: &str, caller: usize) -> Vec<Resolution> {
        let res = self.request(name, Some(caller), Request::Dlopen);
        let loaded = match &res.outcome {
            Outcome::Found { object, step, .. } if *step != Step::AlreadyLoaded => Some(*object),
            _ => None,
        };
        let mut out = vec![res];
        if let Some(i) = loaded {
            out.extend(self.load_needed_tree(i));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_read_as_people_say_them() {
        let s = Step::Rpath { of: "/x/torch/lib/libtorch_cuda.so".into() };
        assert_eq!(s.describe(), "RPATH of libtorch_cuda.so");
    }
}
