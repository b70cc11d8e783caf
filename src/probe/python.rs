//! Probe: Python environments, found from files only (no interpreter is run).
//!
//! Sources, in order: the `PATH` entries whose parent is a venv (`pyvenv.cfg`) or a conda
//! environment (`conda-meta/`), `$VIRTUAL_ENV`, `$CONDA_PREFIX`, conda installs under the usual
//! prefixes and their `envs/*`, venvs directly under `/opt/*`, the system interpreter's
//! site-packages and dist-packages, and users' `~/.local` site-packages. An environment reached
//! twice is reported once, with both reasons. The active one is the environment of the first
//! `PATH` entry that holds a Python (an environment's `bin/` counts as one).

use crate::probe::problem;
use crate::report::{Evidence, PythonEnv, PythonEnvKind, Report};
use crate::system::{EntryKind, System};
use crate::version::Version;
use std::path::{Path, PathBuf};

const PROBE: &str = "python";
/// Where conda installs usually live (under the checked root); `~` is every /home/* and /root.
const CONDA_BASES: [&str; 9] = [
    "/opt/conda",
    "/opt/miniconda3",
    "/opt/miniconda",
    "/opt/anaconda3",
    "/opt/miniforge3",
    "/opt/mambaforge",
    "/usr/local/miniconda3",
    "/usr/local/anaconda3",
    "/usr/local/conda",
];
const HOME_CONDA_DIRS: [&str; 6] =
    ["miniconda3", "anaconda3", "miniforge3", "mambaforge", "miniconda", ".conda"];

/// What a `pyvenv.cfg` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PyvenvCfg {
    /// `version_info` (uv) or `version` (venv, virtualenv).
    pub version: Option<Version>,
    /// `home`: the base interpreter's directory.
    pub home: Option<String>,
    /// `include-system-site-packages`.
    pub include_system_site_packages: Option<bool>,
}

/// Parses `pyvenv.cfg` (`key = value` lines; unknown keys and junk lines are skipped).
pub fn parse_pyvenv_cfg(text: &str) -> PyvenvCfg {
    let mut out = PyvenvCfg::default();
    for line in text.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.trim();
        match key.trim() {
            "version_info" | "version" => {
                if let Ok(v) = value.parse::<Version>() {
                    if out.version.is_none() || key.trim() == "version_info" {
                        out.version = Some(v);
                    }
                }
            }
            "home" if !value.is_empty() => out.home = Some(value.to_string()),
            "include-system-site-packages" => {
                out.include_system_site_packages = match value.to_ascii_lowercase().as_str() {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                }
            }
            _ => {}
        }
    }
    out
}

/// The `X.Y` of a `pythonX.Y` directory name (`python3.12` → 3.12); `python3` alone is no version.
pub fn python_dir_version(name: &str) -> Option<Version> {
    let v = name.strip_prefix("python")?;
    if !v.contains('.') {
        return None;
    }
    let v: Version = v.parse().ok()?;
    v.suffix().is_empty().then_some(v)
}

struct Finder<'a> {
    sys: &'a System,
    envs: Vec<PythonEnv>,
    /// The resolved prefix of each env, for de-duplication.
    real: Vec<PathBuf>,
}

impl Finder<'_> {
    /// Adds (or merges into) the env at `prefix`; returns its index.
    fn add(&mut self, prefix: &Path, kind: PythonEnvKind, why: Evidence) -> usize {
        let real = self.sys.resolve(prefix).map(|r| r.path).unwrap_or_else(|_| prefix.to_path_buf());
        if let Some(i) = self.real.iter().position(|r| *r == real) {
            if !self.envs[i].evidence.contains(&why) {
                self.envs[i].evidence.push(why);
            }
            return i;
        }
        let mut env = PythonEnv {
            prefix: prefix.display().to_string(),
            kind,
            python_version: None,
            site_packages: Vec::new(),
            evidence: vec![why],
            active: false,
            home: None,
            include_system_site_packages: None,
        };
        match kind {
            PythonEnvKind::Venv => self.fill_venv(prefix, &mut env),
            PythonEnvKind::Conda => self.fill_conda(prefix, &mut env),
            PythonEnvKind::System | PythonEnvKind::User => {}
        }
        self.envs.push(env);
        self.real.push(real);
        self.envs.len() - 1
    }

    fn fill_venv(&self, prefix: &Path, env: &mut PythonEnv) {
        let cfg_path = prefix.join("pyvenv.cfg");
        if let Ok(bytes) = self.sys.read_head(&cfg_path, 64 << 10) {
            let cfg = parse_pyvenv_cfg(&String::from_utf8_lossy(&bytes));
            env.python_version = cfg.version;
            env.home = cfg.home;
            env.include_system_site_packages = cfg.include_system_site_packages;
            let ev = Evidence::file(cfg_path.display().to_string());
            if !env.evidence.contains(&ev) {
                env.evidence.push(ev);
            }
        }
        self.fill_lib_site_packages(prefix, env);
    }

    fn fill_conda(&self, prefix: &Path, env: &mut PythonEnv) {
        // conda-meta/python-3.11.9-h955ad1f_0.json names the interpreter's version.
        if let Ok(entries) = self.sys.read_dir(&prefix.join("conda-meta")) {
            for e in entries {
                let Some(rest) = e.name.strip_prefix("python-") else { continue };
                let Some(v) = rest.split('-').next().and_then(|v| v.parse::<Version>().ok()) else {
                    continue;
                };
                env.python_version = Some(v);
                break;
            }
        }
        self.fill_lib_site_packages(prefix, env);
    }

    /// `lib/pythonX.Y/site-packages` of a prefix; also gives the version when nothing else did.
    fn fill_lib_site_packages(&self, prefix: &Path, env: &mut PythonEnv) {
        let Ok(entries) = self.sys.read_dir(&prefix.join("lib")) else { return };
        for e in entries.iter().filter(|e| e.name.starts_with("python")) {
            let sp = e.path.join("site-packages");
            if self.sys.is_dir(&sp) {
                env.site_packages.push(sp.display().to_string());
                if env.python_version.is_none() {
                    env.python_version = python_dir_version(&e.name);
                }
            }
        }
    }

    fn is_venv(&self, prefix: &Path) -> bool {
        self.sys.is_file(&prefix.join("pyvenv.cfg"))
    }

    fn is_conda(&self, prefix: &Path) -> bool {
        self.sys.is_dir(&prefix.join("conda-meta"))
    }

    /// The env kind of a prefix, if it is one.
    fn kind_of(&self, prefix: &Path) -> Option<PythonEnvKind> {
        if self.is_venv(prefix) {
            Some(PythonEnvKind::Venv)
        } else if self.is_conda(prefix) {
            Some(PythonEnvKind::Conda)
        } else {
            None
        }
    }

    /// A conda install: its base env and every `envs/*`.
    fn conda_install(&mut self, base: &Path) {
        if self.is_conda(base) {
            self.add(
                base,
                PythonEnvKind::Conda,
                Evidence::file(base.join("conda-meta").display().to_string()),
            );
        }
        let envs_dir = base.join("envs");
        let Ok(entries) = self.sys.read_dir(&envs_dir) else { return };
        for e in entries.iter().filter(|e| matches!(e.kind, EntryKind::Dir | EntryKind::Symlink)) {
            if self.is_conda(&e.path) {
                self.add(&e.path, PythonEnvKind::Conda, Evidence::file(envs_dir.display().to_string()));
            }
        }
    }
}

/// Adds the Python environments of `sys` to `report.host.python_envs`.
pub fn probe(sys: &System, report: &mut Report) {
    let mut f = Finder { sys, envs: Vec::new(), real: Vec::new() };
    let mut active: Option<usize> = None;
    let mut system_python_first = false;

    for dir in sys.path_entries() {
        let parent = dir.parent().filter(|_| dir.file_name().is_some_and(|n| n == "bin"));
        let env_kind = parent.and_then(|p| f.kind_of(p));
        if let (Some(p), Some(kind)) = (parent, env_kind) {
            let i = f.add(p, kind, Evidence::env("PATH"));
            if active.is_none() && !system_python_first {
                active = Some(i);
            }
        } else if active.is_none()
            && !system_python_first
            && ["python3", "python"].iter().any(|n| sys.is_file(&dir.join(n)))
        {
            system_python_first = true;
        }
    }
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        let Some(value) = sys.env(var).filter(|v| v.starts_with('/')) else { continue };
        let prefix = PathBuf::from(value);
        match f.kind_of(&prefix) {
            Some(kind) => {
                f.add(&prefix, kind, Evidence::env(var));
            }
            None => problem(report, PROBE, Some(value), format!("${var} names no venv or conda environment")),
        }
    }
    for base in CONDA_BASES {
        f.conda_install(Path::new(base));
    }
    for home in homes(sys) {
        for d in HOME_CONDA_DIRS {
            f.conda_install(&home.join(d));
        }
    }
    opt_venvs(&mut f);
    let system = system_env(&mut f);
    user_envs(&mut f, &homes(sys));

    if system_python_first {
        active = system;
    }
    if let Some(i) = active {
        f.envs[i].active = true;
    }
    report.host.python_envs.extend(f.envs);
}

/// `/root` and every `/home/*`.
fn homes(sys: &System) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("/root")];
    if let Ok(entries) = sys.read_dir(Path::new("/home")) {
        out.extend(entries.into_iter().filter(|e| e.kind == EntryKind::Dir).map(|e| e.path));
    }
    out
}

/// venvs at `/opt/<x>`, `/opt/<x>/.venv` and `/opt/<x>/venv` (a common layout in images).
fn opt_venvs(f: &mut Finder<'_>) {
    let Ok(entries) = f.sys.read_dir(Path::new("/opt")) else { return };
    for e in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
        for candidate in [e.path.clone(), e.path.join(".venv"), e.path.join("venv")] {
            if f.is_venv(&candidate) {
                let cfg = candidate.join("pyvenv.cfg").display().to_string();
                f.add(&candidate, PythonEnvKind::Venv, Evidence::file(cfg));
            }
        }
    }
}

/// The system interpreter: `/usr/lib/python3*/{site,dist}-packages`, `/usr/lib/python3/dist-packages`,
/// `/usr/local/lib/python3*/…` and `/usr/lib64/python3*/site-packages`, as one env with prefix `/usr`.
fn system_env(f: &mut Finder<'_>) -> Option<usize> {
    let mut sites = Vec::new();
    let mut version: Option<Version> = None;
    for lib in ["/usr/lib", "/usr/lib64", "/usr/local/lib"] {
        let Ok(entries) = f.sys.read_dir(Path::new(lib)) else { continue };
        for e in entries.iter().filter(|e| e.name.starts_with("python3")) {
            for sub in ["dist-packages", "site-packages"] {
                let sp = e.path.join(sub);
                if f.sys.is_dir(&sp) {
                    sites.push(sp.display().to_string());
                    if let Some(v) = python_dir_version(&e.name) {
                        if version.as_ref().is_none_or(|old| v > *old) {
                            version = Some(v);
                        }
                    }
                }
            }
        }
    }
    if sites.is_empty() {
        return None;
    }
    if version.is_none() {
        // Debian's `dist-packages` names no version: the interpreter `python3` leads to does.
        version = f
            .sys
            .resolve(Path::new("/usr/bin/python3"))
            .ok()
            .and_then(|r| r.path.file_name().and_then(|n| python_dir_version(&n.to_string_lossy())));
    }
    let why = Evidence::file(sites[0].clone());
    let i = f.add(Path::new("/usr"), PythonEnvKind::System, why);
    f.envs[i].python_version = version;
    f.envs[i].site_packages = sites;
    Some(i)
}

/// `~/.local/lib/python3*/site-packages` of every user.
fn user_envs(f: &mut Finder<'_>, homes: &[PathBuf]) {
    for home in homes {
        let local = home.join(".local");
        let Ok(entries) = f.sys.read_dir(&local.join("lib")) else { continue };
        let mut sites = Vec::new();
        let mut version = None;
        for e in entries.iter().filter(|e| e.name.starts_with("python3")) {
            let sp = e.path.join("site-packages");
            if f.sys.is_dir(&sp) {
                sites.push(sp.display().to_string());
                version = python_dir_version(&e.name).or(version);
            }
        }
        if sites.is_empty() {
            continue;
        }
        let i = f.add(&local, PythonEnvKind::User, Evidence::file(sites[0].clone()));
        f.envs[i].python_version = version;
        f.envs[i].site_packages = sites;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_pyvenv_cfg_gives_version_and_home() {
        let text = include_str!("../../tests/fixtures/h200-cuda13-torch211/root/opt/torch/.venv/pyvenv.cfg");
        let cfg = parse_pyvenv_cfg(text);
        assert_eq!(cfg.version.unwrap().to_string(), "3.12.3");
        assert_eq!(cfg.home.as_deref(), Some("/usr/bin"));
        assert_eq!(cfg.include_system_site_packages, Some(false));
    }

    #[test]
    fn venv_style_cfg_and_junk_are_handled() {
        let cfg = parse_pyvenv_cfg(
            "home = /usr/local/bin\ninclude-system-site-packages = true\nversion = 3.10.12\n",
        );
        assert_eq!(cfg.version.unwrap().to_string(), "3.10.12");
        assert_eq!(cfg.include_system_site_packages, Some(true));
        assert_eq!(parse_pyvenv_cfg("\u{0}garbage\nversion = banana\n=\n"), PyvenvCfg::default());
    }

    #[test]
    fn python_dir_names_give_versions() {
        assert_eq!(python_dir_version("python3.12").unwrap().to_string(), "3.12");
        assert!(python_dir_version("python3").is_none());
        assert!(python_dir_version("python3.12t").is_none());
        assert!(python_dir_version("pythonx").is_none());
    }
}
