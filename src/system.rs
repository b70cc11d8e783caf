//! `System`: the one door through which probes see a machine.
//!
//! It owns the filesystem root (`/` on a live machine, a fixture or a mounted image with
//! `--root`), a snapshot of the environment variables taken once at start, the switch for live
//! access (NVML, libcuda, subprocesses), and the subprocess runner with its timeouts. Every path a
//! probe passes in or gets back is a *machine path* — absolute, as seen on the checked machine
//! (`/usr/local/cuda-13.0`) — never a path joined onto the root. No probe touches `std::env`, an
//! absolute host path or `std::process` directly.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Symbolic links followed before a path is declared a loop (glibc's limit is 40).
const MAX_LINK_HOPS: usize = 40;

/// The default time a subprocess may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// What a probe may touch on the machine.
#[derive(Debug, Clone)]
pub struct System {
    root: PathBuf,
    env: BTreeMap<String, String>,
    live: bool,
    timeout: Duration,
    /// What each path component looked like when [`System::resolve`] first met it: a check
    /// resolves hundreds of paths through the same few directories, and a machine does not
    /// change in the milliseconds a check takes.
    components: Arc<Mutex<HashMap<PathBuf, Seen>>>,
    /// Values derived from files once per check ([`System::memo`]).
    memos: Arc<Mutex<HashMap<String, Arc<dyn Any + Send + Sync>>>>,
}

/// A path component as `lstat` and `readlink` saw it.
#[derive(Debug, Clone)]
enum Seen {
    Missing,
    Link(PathBuf),
    Other,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The file name.
    pub name: String,
    /// The machine path of the entry.
    pub path: PathBuf,
    /// What the entry itself is (a link is not followed).
    pub kind: EntryKind,
}

/// The type of a directory entry, without following links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// Anything else (device, socket, fifo).
    Other,
}

/// A path with every symbolic link on the way followed inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The final machine path, free of links.
    pub path: PathBuf,
    /// Each link met, in order: (the link's machine path, its target as written).
    pub links: Vec<(PathBuf, PathBuf)>,
}

/// Why a path could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// A link points at a path that does not exist.
    #[error("dangling link: {link} -> {target} (missing: {missing})")]
    Dangling {
        /// The last link followed.
        link: PathBuf,
        /// Its target as written.
        target: PathBuf,
        /// The first missing machine path.
        missing: PathBuf,
    },
    /// The path itself does not exist (no link involved).
    #[error("not found: {0}")]
    NotFound(PathBuf),
    /// More than 40 links were followed.
    #[error("symbolic link loop at {0} (more than {MAX_LINK_HOPS} links)")]
    Loop(PathBuf),
    /// Another I/O error.
    #[error("{path}: {source}")]
    Io {
        /// The machine path that failed.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
}

/// How a subprocess ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandOutcome {
    /// It ran and exited (stdout is kept even on a non-zero exit: it often still answers).
    Exited {
        /// The exit code, `None` when killed by a signal.
        code: Option<i32>,
        /// Standard output, lossily decoded.
        stdout: String,
        /// Standard error, lossily decoded.
        stderr: String,
    },
    /// It was killed after the timeout.
    TimedOut(Duration),
    /// It could not be started.
    FailedToStart(String),
    /// Not run: cudoctor is not live (a `--root` check or `--no-live`).
    NotLive,
}

impl CommandOutcome {
    /// Standard output when the command ran, whatever its exit code.
    pub fn stdout(&self) -> Option<&str> {
        match self {
            CommandOutcome::Exited { stdout, .. } => Some(stdout),
            _ => None,
        }
    }

    /// A one-line description of a failure, `None` for a clean exit.
    pub fn failure(&self) -> Option<String> {
        match self {
            CommandOutcome::Exited { code: Some(0), .. } => None,
            CommandOutcome::Exited { code, stderr, .. } => Some(format!(
                "exited with {}: {}",
                code.map_or_else(|| "a signal".to_string(), |c| format!("code {c}")),
                stderr.lines().next().unwrap_or("").trim()
            )),
            CommandOutcome::TimedOut(d) => Some(format!("timed out after {} s", d.as_secs_f32())),
            CommandOutcome::FailedToStart(e) => Some(format!("could not start: {e}")),
            CommandOutcome::NotLive => Some("not run (not live)".to_string()),
        }
    }
}

impl System {
    /// The machine cudoctor runs on: root `/`, the real environment, live unless `live` is false.
    pub fn current(live: bool) -> System {
        let env = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        System {
            root: PathBuf::from("/"),
            env,
            live,
            timeout: DEFAULT_TIMEOUT,
            components: Arc::default(),
            memos: Arc::default(),
        }
    }

    /// A machine seen through a directory (a fixture, a mounted image): never live.
    pub fn at_root(root: impl Into<PathBuf>, env: BTreeMap<String, String>) -> System {
        System {
            root: root.into(),
            env,
            live: false,
            timeout: DEFAULT_TIMEOUT,
            components: Arc::default(),
            memos: Arc::default(),
        }
    }

    /// The same system with another subprocess timeout.
    pub fn with_timeout(mut self, timeout: Duration) -> System {
        self.timeout = timeout;
        self
    }

    /// The filesystem root on the host running cudoctor.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// True when the root is `/` of the running machine (its /proc and /dev describe it).
    pub fn is_host_root(&self) -> bool {
        self.root == Path::new("/")
    }

    /// True when live access (NVML, libcuda, subprocesses) is allowed.
    pub fn is_live(&self) -> bool {
        self.live && self.is_host_root()
    }

    /// One environment variable of the checked machine.
    pub fn env(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }

    /// Every environment variable (callers filter through an allow-list before reporting).
    pub fn env_vars(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// The host path of a machine path (`/usr/lib` under root `/fixture` is `/fixture/usr/lib`).
    pub fn host_path(&self, machine: &Path) -> PathBuf {
        let mut out = self.root.clone();
        for c in machine.components() {
            match c {
                Component::Normal(n) => out.push(n),
                Component::ParentDir if out != self.root => {
                    out.pop();
                }
                _ => {}
            }
        }
        out
    }

    /// Reads a whole file (use [`System::read_head`] for files that may be large).
    pub fn read(&self, machine: &Path) -> io::Result<Vec<u8>> {
        fs_err::read(self.host_path(machine))
    }

    /// Reads a text file, replacing invalid UTF-8.
    pub fn read_to_string(&self, machine: &Path) -> io::Result<String> {
        Ok(String::from_utf8_lossy(&self.read_head(machine, 16 << 20)?).into_owned())
    }

    /// Reads at most `max` bytes from the start of a file.
    pub fn read_head(&self, machine: &Path, max: u64) -> io::Result<Vec<u8>> {
        let file = fs_err::File::open(self.host_path(machine))?;
        // Sized from the file's length: `read_to_end` on a `Take` would otherwise grow its
        // buffer from a few bytes, one system call each time.
        let len = file.metadata().map(|m| m.len()).unwrap_or(0).min(max);
        let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
        file.take(max).read_to_end(&mut buf)?;
        Ok(buf)
    }

    /// A value computed from the machine once per check and shared by every probe that asks
    /// for it under the same `key` (an index of wheel RECORD files, say).
    pub fn memo<T: Any + Send + Sync>(&self, key: &str, make: impl FnOnce() -> T) -> Arc<T> {
        if let Some(found) = self.memos.lock().ok().and_then(|m| m.get(key).cloned()) {
            if let Ok(value) = found.downcast::<T>() {
                return value;
            }
        }
        let value = Arc::new(make());
        if let Ok(mut memos) = self.memos.lock() {
            memos.insert(key.to_string(), value.clone());
        }
        value
    }

    /// Lists a directory, sorted by name; unreadable entries are skipped.
    pub fn read_dir(&self, machine: &Path) -> io::Result<Vec<DirEntry>> {
        let mut out = Vec::new();
        for entry in fs_err::read_dir(self.host_path(machine))? {
            let Ok(entry) = entry else { continue };
            let Ok(name) = entry.file_name().into_string() else { continue };
            let kind = match entry.file_type() {
                Ok(t) if t.is_symlink() => EntryKind::Symlink,
                Ok(t) if t.is_dir() => EntryKind::Dir,
                Ok(t) if t.is_file() => EntryKind::File,
                _ => EntryKind::Other,
            };
            out.push(DirEntry { path: machine.join(&name), name, kind });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// The target of a symbolic link, as written.
    pub fn read_link(&self, machine: &Path) -> io::Result<PathBuf> {
        fs_err::read_link(self.host_path(machine))
    }

    /// Metadata of the path itself (links not followed).
    pub fn symlink_metadata(&self, machine: &Path) -> io::Result<std::fs::Metadata> {
        fs_err::symlink_metadata(self.host_path(machine))
    }

    /// Metadata after following links inside the root.
    pub fn metadata(&self, machine: &Path) -> io::Result<std::fs::Metadata> {
        let resolved =
            self.resolve(machine).map_err(|e| io::Error::new(io::ErrorKind::NotFound, e.to_string()))?;
        fs_err::symlink_metadata(self.host_path(&resolved.path))
    }

    /// True when the path exists after following links.
    pub fn exists(&self, machine: &Path) -> bool {
        self.resolve(machine).is_ok()
    }

    /// True when the path is a directory after following links.
    pub fn is_dir(&self, machine: &Path) -> bool {
        self.metadata(machine).map(|m| m.is_dir()).unwrap_or(false)
    }

    /// True when the path is a regular file after following links.
    pub fn is_file(&self, machine: &Path) -> bool {
        self.metadata(machine).map(|m| m.is_file()).unwrap_or(false)
    }

    /// Follows every symbolic link on the way to `machine`, staying inside the root: an absolute
    /// link target is taken relative to the root, `..` never climbs above it.
    pub fn resolve(&self, machine: &Path) -> Result<Resolved, ResolveError> {
        let mut pending: Vec<OsString> = Vec::new();
        push_components(&mut pending, machine);
        let mut current = PathBuf::from("/");
        let mut links = Vec::new();
        while let Some(part) = pending.pop() {
            if part == ".." {
                current.pop();
                continue;
            }
            if part == "." || part.is_empty() {
                continue;
            }
            let candidate = current.join(&part);
            match self.component(&candidate)? {
                Seen::Missing => {
                    return Err(match links.last() {
                        Some((link, target)) => ResolveError::Dangling {
                            link: PathBuf::clone(link),
                            target: PathBuf::clone(target),
                            missing: candidate,
                        },
                        None => ResolveError::NotFound(candidate),
                    });
                }
                Seen::Link(target) => {
                    if links.len() >= MAX_LINK_HOPS {
                        return Err(ResolveError::Loop(candidate));
                    }
                    if target.is_absolute() {
                        current = PathBuf::from("/");
                    }
                    push_components(&mut pending, &target);
                    links.push((candidate, target));
                }
                Seen::Other => current = candidate,
            }
        }
        Ok(Resolved { path: current, links })
    }

    /// One path component as `lstat` (and `readlink` for a link) sees it, remembered.
    fn component(&self, candidate: &Path) -> Result<Seen, ResolveError> {
        if let Some(known) = self.components.lock().ok().and_then(|c| c.get(candidate).cloned()) {
            return Ok(known);
        }
        let found = match fs_err::symlink_metadata(self.host_path(candidate)) {
            Ok(m) if m.file_type().is_symlink() => Seen::Link(
                self.read_link(candidate)
                    .map_err(|source| ResolveError::Io { path: candidate.to_path_buf(), source })?,
            ),
            Ok(_) => Seen::Other,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Seen::Missing,
            Err(source) => return Err(ResolveError::Io { path: candidate.to_path_buf(), source }),
        };
        if let Ok(mut cache) = self.components.lock() {
            cache.insert(candidate.to_path_buf(), found.clone());
        }
        Ok(found)
    }

    /// Finds an executable by name on the machine's `PATH` (each entry taken inside the root).
    /// Returns the machine path of the first entry that holds a file of that name.
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        self.path_entries().into_iter().map(|dir| dir.join(name)).find(|p| self.is_file(p))
    }

    /// The absolute entries of `PATH`, in order, without duplicates.
    pub fn path_entries(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for entry in self.env("PATH").unwrap_or("").split(':') {
            let p = PathBuf::from(entry);
            if p.is_absolute() && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// True when this process may open the (machine) path for reading and writing; only
    /// meaningful live, `None` otherwise.
    pub fn can_open_read_write(&self, machine: &Path) -> Option<bool> {
        if !self.is_live() {
            return None;
        }
        Some(std::fs::OpenOptions::new().read(true).write(true).open(machine).is_ok())
    }

    /// Runs a program of the machine with a timeout, only when live. stdout and stderr are
    /// captured (at most 1 MiB each) and kept whatever the exit code.
    pub fn run(&self, program: &Path, args: &[&str]) -> CommandOutcome {
        self.run_with_timeout(program, args, self.timeout)
    }

    /// [`System::run`] with an explicit timeout.
    pub fn run_with_timeout(&self, program: &Path, args: &[&str], timeout: Duration) -> CommandOutcome {
        if !self.is_live() {
            return CommandOutcome::NotLive;
        }
        run_bounded(program, args, timeout)
    }
}

fn push_components(stack: &mut Vec<OsString>, path: &Path) {
    let parts: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    stack.extend(parts.into_iter().rev());
}

fn run_bounded(program: &Path, args: &[&str], timeout: Duration) -> CommandOutcome {
    use wait_timeout::ChildExt;
    let started = Instant::now();
    let mut child = match Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return CommandOutcome::FailedToStart(e.to_string()),
    };
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return CommandOutcome::TimedOut(timeout);
        }
        Err(e) => return CommandOutcome::FailedToStart(e.to_string()),
    };
    let collect = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
        h.and_then(|h| h.join().ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
    };
    let _ = started;
    CommandOutcome::Exited { code: status.code(), stdout: collect(stdout), stderr: collect(stderr) }
}

fn drain<R: Read + Send + 'static>(reader: R) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = reader.take(1 << 20).read_to_end(&mut buf);
        buf
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn fixture() -> (tempfile::TempDir, System) {
        let dir = tempfile::tempdir().unwrap();
        let sys = System::at_root(dir.path(), BTreeMap::new());
        (dir, sys)
    }

    #[test]
    fn resolve_follows_absolute_links_inside_the_root() {
        let (dir, sys) = fixture();
        let r = dir.path();
        std::fs::create_dir_all(r.join("usr/local/cuda-13.0/bin")).unwrap();
        std::fs::create_dir_all(r.join("etc/alternatives")).unwrap();
        symlink("/usr/local/cuda-13.0", r.join("etc/alternatives/cuda")).unwrap();
        symlink("/etc/alternatives/cuda", r.join("usr/local/cuda")).unwrap();
        let got = sys.resolve(Path::new("/usr/local/cuda/bin")).unwrap();
        assert_eq!(got.path, Path::new("/usr/local/cuda-13.0/bin"));
        assert_eq!(got.links.len(), 2);
        assert_eq!(got.links[0].0, Path::new("/usr/local/cuda"));
        assert_eq!(got.links[1].0, Path::new("/etc/alternatives/cuda"));
    }

    #[test]
    fn resolve_reports_loops_and_dangling_links() {
        let (dir, sys) = fixture();
        let r = dir.path();
        symlink("b", r.join("a")).unwrap();
        symlink("a", r.join("b")).unwrap();
        symlink("/nowhere", r.join("dangling")).unwrap();
        assert!(matches!(sys.resolve(Path::new("/a")), Err(ResolveError::Loop(_))));
        assert!(matches!(sys.resolve(Path::new("/dangling")), Err(ResolveError::Dangling { .. })));
        assert!(matches!(sys.resolve(Path::new("/missing")), Err(ResolveError::NotFound(_))));
    }

    #[test]
    fn dotdot_never_climbs_above_the_root() {
        let (dir, sys) = fixture();
        std::fs::write(dir.path().join("f"), "x").unwrap();
        assert_eq!(sys.host_path(Path::new("/../../f")), dir.path().join("f"));
        assert_eq!(sys.resolve(Path::new("/../f")).unwrap().path, Path::new("/f"));
    }

    #[test]
    fn a_fixture_root_is_never_live() {
        let (_dir, sys) = fixture();
        assert!(!sys.is_live());
        assert_eq!(sys.run(Path::new("/bin/true"), &[]), CommandOutcome::NotLive);
    }

    #[test]
    fn a_hanging_command_times_out() {
        let out = run_bounded(Path::new("/bin/sleep"), &["5"], Duration::from_millis(100));
        assert_eq!(out, CommandOutcome::TimedOut(Duration::from_millis(100)));
        assert_eq!(out.failure().unwrap(), "timed out after 0.1 s");
    }
}
