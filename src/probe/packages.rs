//! Probe: package databases — dpkg (`/var/lib/dpkg/status` and `info/*.list`), rpm (detected
//! only), conda (`conda-meta/*.json`) and pip (`*.dist-info`) — and the [`PackageIndex`] that the
//! later probes use to say which package installed a file.
//!
//! Only the entries of the GPU stack are read in depth: file lists are loaded for the dpkg
//! packages, conda packages and wheels whose names say CUDA, cuDNN, NCCL, NVIDIA or a framework,
//! so that a machine with thousands of packages is still indexed in a few milliseconds. The
//! Report receives the databases found and their GPU-stack entries; the index stays in memory.
//!
//! The RPM database (Berkeley DB or SQLite) is not parsed: its presence is reported with a note.

use crate::probe::problem;
use crate::report::{Evidence, InstalledPackage, Origin, PackageDb, PackageManager, PythonEnvKind, Report};
use crate::system::{EntryKind, System};
use crate::version::Version;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

const PROBE: &str = "packages";
/// The largest package database file read (a real dpkg status is a few MB).
const MAX_DB_BYTES: u64 = 64 << 20;
/// The largest file list read (dpkg `.list`, pip `RECORD`, conda-meta JSON).
const MAX_LIST_BYTES: u64 = 4 << 20;
const DPKG_STATUS: &str = "/var/lib/dpkg/status";
const RPM_DIRS: [&str; 2] = ["/var/lib/rpm", "/usr/lib/sysimage/rpm"];

/// One stanza of `/var/lib/dpkg/status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DpkgEntry {
    /// `Package:`.
    pub package: String,
    /// `Architecture:` (`amd64`, `all`).
    pub architecture: Option<String>,
    /// `Version:` as written (`2.28.3-1+cuda13.0`).
    pub version: String,
    /// `Status:` (`install ok installed`, `hold ok installed`, `deinstall ok config-files`).
    pub status: String,
}

impl DpkgEntry {
    /// True when the package's files are on disk (status ends in `installed`).
    pub fn is_installed(&self) -> bool {
        self.status.split_whitespace().nth(2) == Some("installed")
    }

    /// True when the package is held (`apt-mark hold`).
    pub fn is_held(&self) -> bool {
        self.status.split_whitespace().next() == Some("hold")
    }
}

/// Parses `/var/lib/dpkg/status`: one entry per stanza that has a `Package` and a `Version`
/// (stanzas without them, and unknown fields, are skipped).
pub fn parse_dpkg_status(text: &str) -> Vec<DpkgEntry> {
    let mut out = Vec::new();
    for stanza in text.split("\n\n") {
        let (mut package, mut arch, mut version, mut status) = (None, None, None, None);
        for line in stanza.lines() {
            if line.starts_with([' ', '\t']) {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else { continue };
            let value = value.trim().to_string();
            match key {
                "Package" => package = Some(value),
                "Architecture" => arch = Some(value),
                "Version" => version = Some(value),
                "Status" => status = Some(value),
                _ => {}
            }
        }
        if let (Some(package), Some(version)) = (package, version) {
            out.push(DpkgEntry { package, architecture: arch, version, status: status.unwrap_or_default() });
        }
    }
    out
}

/// The upstream part of a dpkg or rpm version: `1:2.28.3-1+cuda13.0` → `2.28.3`,
/// `9.14.0.64-1` → `9.14.0.64`.
pub fn upstream_version(version: &str) -> Option<Version> {
    let v = version.trim();
    let v = match v.split_once(':') {
        Some((epoch, rest)) if epoch.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => v,
    };
    let v = v.rsplit_once('-').map_or(v, |(upstream, _)| upstream);
    let v = v.split(['+', '~']).next().unwrap_or(v);
    v.parse().ok()
}

/// The name and version of a wheel's `METADATA` (or an egg's `PKG-INFO`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistMetadata {
    /// `Name:` as written (`nvidia-cudnn-cu13`).
    pub name: String,
    /// `Version:` as written.
    pub version: String,
}

/// Parses the header of a core-metadata file (`METADATA`, `PKG-INFO`): `Name` and `Version`,
/// read up to the first blank line.
pub fn parse_metadata(text: &str) -> Option<DistMetadata> {
    let (mut name, mut version) = (None, None);
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Name:") {
            name.get_or_insert_with(|| v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("Version:") {
            version.get_or_insert_with(|| v.trim().to_string());
        }
    }
    match (name, version) {
        (Some(name), Some(version)) if !name.is_empty() && !version.is_empty() => {
            Some(DistMetadata { name, version })
        }
        _ => None,
    }
}

/// Splits a `*.dist-info` or `*.egg-info` directory name into name and version:
/// `nvidia_cudnn_cu13-9.19.0.56.dist-info` → (`nvidia_cudnn_cu13`, `9.19.0.56`).
pub fn parse_dist_dir_name(dir: &str) -> Option<(String, String)> {
    let stem = dir.strip_suffix(".dist-info").or_else(|| dir.strip_suffix(".egg-info"))?;
    let (name, rest) = stem.split_once('-')?;
    let version = rest.split('-').next().unwrap_or(rest);
    if name.is_empty() || version.is_empty() {
        return None;
    }
    Some((name.to_string(), version.to_string()))
}

/// The file paths of a wheel's `RECORD` (the first CSV column), relative to site-packages.
pub fn parse_record(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim_end_matches('\r');
            if let Some(quoted) = line.strip_prefix('"') {
                // A path holding a comma is quoted; `""` stands for one quote.
                let mut out = String::new();
                let mut chars = quoted.chars().peekable();
                while let Some(c) = chars.next() {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            out.push('"');
                        } else {
                            break;
                        }
                    } else {
                        out.push(c);
                    }
                }
                Some(out)
            } else {
                line.split(',').next().map(str::to_string)
            }
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// A distribution name normalised as PEP 503 says (`Nvidia_CUDNN.cu13` → `nvidia-cudnn-cu13`).
pub fn normalize_dist_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Splits a `conda-meta` file name into name, version and build:
/// `cuda-cudart-12.4.127-0.json` → (`cuda-cudart`, `12.4.127`, `0`).
pub fn parse_conda_meta_file_name(file: &str) -> Option<(String, String, String)> {
    let stem = file.strip_suffix(".json")?;
    let (rest, build) = stem.rsplit_once('-')?;
    let (name, version) = rest.rsplit_once('-')?;
    if name.is_empty() || version.is_empty() || build.is_empty() {
        return None;
    }
    Some((name.to_string(), version.to_string(), build.to_string()))
}

/// The fields cudoctor reads of a `conda-meta/*.json` record.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CondaMeta {
    /// Package name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Build string (`h6a678d5_0`, `cuda12_py311`).
    #[serde(default)]
    pub build: String,
    /// Files, relative to the environment prefix.
    #[serde(default)]
    pub files: Vec<String>,
}

/// Parses a `conda-meta/*.json` record.
pub fn parse_conda_meta(text: &str) -> Result<CondaMeta, serde_json::Error> {
    serde_json::from_str(text)
}

/// True for package names of the GPU stack: CUDA, its libraries, cuDNN, NCCL, NVIDIA, and the
/// frameworks that ship GPU builds.
pub fn is_gpu_stack_name(name: &str) -> bool {
    const WORDS: [&str; 23] = [
        "cuda",
        "cudnn",
        "nccl",
        "nvidia",
        "cublas",
        "cufft",
        "curand",
        "cusparse",
        "cusolver",
        "nvrtc",
        "nvjitlink",
        "cupti",
        "nvtx",
        "nvvm",
        "nvcc",
        "libnpp",
        "cufile",
        "tensorrt",
        "torch",
        "tensorflow",
        "cupy",
        "onnxruntime",
        "paddle",
    ];
    let lower = normalize_dist_name(name);
    WORDS.iter().any(|w| lower.contains(w))
        || matches!(lower.as_str(), "triton" | "jax" | "jaxlib")
        || lower.starts_with("jax-cuda")
        || lower.starts_with("libnv")
}

/// One package known to the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Which database.
    pub manager: PackageManager,
    /// The name as the database writes it.
    pub name: String,
    /// The version as the database writes it.
    pub version: String,
    /// The database file of the entry (status file, conda-meta JSON, dist-info directory).
    pub db_path: String,
    /// The environment prefix, for conda and pip packages.
    pub env: Option<String>,
    /// The site-packages directory, for pip packages.
    pub site_packages: Option<String>,
    /// Held back from upgrades (dpkg `hold`).
    pub held: bool,
}

impl Package {
    /// The upstream version (packaging revision removed for dpkg and rpm).
    pub fn upstream_version(&self) -> Option<Version> {
        match self.manager {
            PackageManager::Dpkg | PackageManager::Rpm => upstream_version(&self.version),
            PackageManager::Conda | PackageManager::Pip => self.version.parse().ok(),
        }
    }

    /// Who installed a file owned by this package.
    pub fn origin(&self) -> Origin {
        match self.manager {
            PackageManager::Dpkg | PackageManager::Rpm => {
                Origin::System { manager: self.manager, package: self.name.clone() }
            }
            PackageManager::Conda => {
                Origin::Conda { package: self.name.clone(), env: self.env.clone().unwrap_or_default() }
            }
            PackageManager::Pip => {
                Origin::Pip { package: self.name.clone(), env: self.env.clone().unwrap_or_default() }
            }
        }
    }

    /// The database entry as evidence.
    pub fn evidence(&self) -> Evidence {
        Evidence::Package { manager: self.manager, package: self.name.clone(), path: self.db_path.clone() }
    }

    fn installed(&self) -> InstalledPackage {
        InstalledPackage {
            name: self.name.clone(),
            version: self.version.clone(),
            upstream_version: self.upstream_version(),
            held: self.held,
            evidence: self.evidence(),
        }
    }
}

/// Every package found, and which package owns which file: built once by [`probe`] and handed
/// to the probes that attribute files (toolkits, libraries, cuDNN, frameworks).
#[derive(Debug, Clone, Default)]
pub struct PackageIndex {
    packages: Vec<Package>,
    owners: HashMap<PathBuf, usize>,
}

impl PackageIndex {
    /// Every package, in the order found.
    pub fn packages(&self) -> &[Package] {
        &self.packages
    }

    /// Adds a package and the (machine) paths of its files.
    pub fn add(&mut self, package: Package, files: impl IntoIterator<Item = PathBuf>) -> usize {
        let i = self.packages.len();
        self.packages.push(package);
        for f in files {
            self.owners.entry(f).or_insert(i);
        }
        i
    }

    /// The package whose file list holds `path` (the machine path as given, not resolved).
    pub fn owner(&self, path: &Path) -> Option<&Package> {
        self.owners.get(path).map(|&i| &self.packages[i])
    }

    /// The owner of a file reached through any of `paths` (a file's real path and the links to it).
    pub fn owner_of_any<'a>(&self, paths: impl IntoIterator<Item = &'a Path>) -> Option<&Package> {
        paths.into_iter().find_map(|p| self.owner(p))
    }

    /// The installed system (dpkg or rpm) package of that exact name.
    pub fn system(&self, name: &str) -> Option<&Package> {
        self.packages
            .iter()
            .find(|p| matches!(p.manager, PackageManager::Dpkg | PackageManager::Rpm) && p.name == name)
    }

    /// The installed system packages whose names satisfy `pred`.
    pub fn system_matching<'a>(
        &'a self,
        pred: impl Fn(&str) -> bool + 'a,
    ) -> impl Iterator<Item = &'a Package> {
        self.packages
            .iter()
            .filter(move |p| matches!(p.manager, PackageManager::Dpkg | PackageManager::Rpm) && pred(&p.name))
    }

    /// The wheels of one site-packages directory.
    pub fn pip_in<'a>(&'a self, site_packages: &str) -> impl Iterator<Item = &'a Package> + 'a {
        let sp = site_packages.to_string();
        self.packages.iter().filter(move |p| {
            p.manager == PackageManager::Pip && p.site_packages.as_deref() == Some(sp.as_str())
        })
    }

    /// The wheel of that (normalised) name in one site-packages directory.
    pub fn pip(&self, site_packages: &str, name: &str) -> Option<&Package> {
        let want = normalize_dist_name(name);
        self.pip_in(site_packages).find(|p| normalize_dist_name(&p.name) == want)
    }

    /// The package an [`Origin`] names (`None` for a toolkit tree, the driver, or unknown).
    pub fn for_origin(&self, origin: &Origin) -> Option<&Package> {
        match origin {
            Origin::System { manager, package } => {
                self.packages.iter().find(|p| p.manager == *manager && p.name == *package)
            }
            Origin::Pip { package, env } => self.packages.iter().find(|p| {
                p.manager == PackageManager::Pip && p.name == *package && p.env.as_deref() == Some(env)
            }),
            Origin::Conda { package, env } => self.packages.iter().find(|p| {
                p.manager == PackageManager::Conda && p.name == *package && p.env.as_deref() == Some(env)
            }),
            Origin::Toolkit { .. } | Origin::Driver | Origin::Unknown => None,
        }
    }

    /// The conda packages of one environment.
    pub fn conda_in<'a>(&'a self, env: &str) -> impl Iterator<Item = &'a Package> + 'a {
        let env = env.to_string();
        self.packages
            .iter()
            .filter(move |p| p.manager == PackageManager::Conda && p.env.as_deref() == Some(env.as_str()))
    }
}

/// Reads every package database of `sys` into `report.host.package_dbs` and returns the index.
/// Python environments must already be in the report (pip and conda databases live in them).
pub fn probe(sys: &System, report: &mut Report) -> PackageIndex {
    let mut index = PackageIndex::default();
    dpkg(sys, report, &mut index);
    rpm(sys, report);
    let envs = report.host.python_envs.clone();
    let mut seen_sites = HashSet::new();
    for env in &envs {
        if env.kind == PythonEnvKind::Conda {
            conda(sys, report, &mut index, &env.prefix);
        }
        for sp in &env.site_packages {
            if seen_sites.insert(sp.clone()) {
                pip(sys, report, &mut index, &env.prefix, sp);
            }
        }
    }
    index
}

fn dpkg(sys: &System, report: &mut Report, index: &mut PackageIndex) {
    let path = Path::new(DPKG_STATUS);
    let bytes = match sys.read_head(path, MAX_DB_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => {
            problem(report, PROBE, Some(DPKG_STATUS), format!("unreadable: {e}"));
            return;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let entries = parse_dpkg_status(&text);
    let mut gpu = Vec::new();
    let mut count = 0;
    for e in entries.into_iter().filter(DpkgEntry::is_installed) {
        count += 1;
        let package = Package {
            manager: PackageManager::Dpkg,
            name: e.package.clone(),
            version: e.version.clone(),
            db_path: DPKG_STATUS.to_string(),
            env: None,
            site_packages: None,
            held: e.is_held(),
        };
        if !is_gpu_stack_name(&e.package) {
            index.add(package, []);
            continue;
        }
        gpu.push(package.installed());
        let files = dpkg_file_list(sys, &e);
        index.add(package, files);
    }
    report.host.package_dbs.push(PackageDb {
        manager: PackageManager::Dpkg,
        path: DPKG_STATUS.to_string(),
        packages: count,
        note: None,
        gpu_packages: gpu,
    });
}

/// The files of a dpkg package from `info/<pkg>.list` or `info/<pkg>:<arch>.list`, when present.
fn dpkg_file_list(sys: &System, e: &DpkgEntry) -> Vec<PathBuf> {
    let mut names = vec![format!("/var/lib/dpkg/info/{}.list", e.package)];
    if let Some(arch) = &e.architecture {
        names.push(format!("/var/lib/dpkg/info/{}:{arch}.list", e.package));
    }
    for name in names {
        if let Ok(bytes) = sys.read_head(Path::new(&name), MAX_LIST_BYTES) {
            return String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with('/') && l.len() > 1)
                .map(PathBuf::from)
                .collect();
        }
    }
    Vec::new()
}

fn rpm(sys: &System, report: &mut Report) {
    for dir in RPM_DIRS {
        let p = Path::new(dir);
        if !sys.is_dir(p) {
            continue;
        }
        let has_db = ["rpmdb.sqlite", "Packages", "Packages.db"].iter().any(|f| sys.exists(&p.join(f)));
        if !has_db {
            continue;
        }
        report.host.package_dbs.push(PackageDb {
            manager: PackageManager::Rpm,
            path: dir.to_string(),
            packages: 0,
            note: Some(
                "not parsed: cudoctor does not read the RPM database (SQLite/Berkeley DB)".to_string(),
            ),
            gpu_packages: Vec::new(),
        });
        return;
    }
}

fn conda(sys: &System, report: &mut Report, index: &mut PackageIndex, prefix: &str) {
    let meta_dir = Path::new(prefix).join("conda-meta");
    let entries = match sys.read_dir(&meta_dir) {
        Ok(e) => e,
        Err(e) => {
            problem(report, PROBE, Some(&meta_dir.display().to_string()), format!("unreadable: {e}"));
            return;
        }
    };
    let mut count = 0;
    let mut gpu = Vec::new();
    for entry in entries.iter().filter(|e| e.kind == EntryKind::File) {
        let Some((name, version, _build)) = parse_conda_meta_file_name(&entry.name) else { continue };
        count += 1;
        let mut package = Package {
            manager: PackageManager::Conda,
            name,
            version,
            db_path: entry.path.display().to_string(),
            env: Some(prefix.to_string()),
            site_packages: None,
            held: false,
        };
        if !is_gpu_stack_name(&package.name) {
            index.add(package, []);
            continue;
        }
        let mut files = Vec::new();
        match sys
            .read_head(&entry.path, MAX_LIST_BYTES)
            .map(|b| parse_conda_meta(&String::from_utf8_lossy(&b)))
        {
            Ok(Ok(meta)) => {
                package.version = meta.version;
                files = meta.files.iter().map(|f| join_relative(Path::new(prefix), f)).collect();
            }
            Ok(Err(e)) => problem(report, PROBE, Some(&package.db_path), format!("not a conda record: {e}")),
            Err(e) => problem(report, PROBE, Some(&package.db_path), format!("unreadable: {e}")),
        }
        gpu.push(package.installed());
        index.add(package, files);
    }
    report.host.package_dbs.push(PackageDb {
        manager: PackageManager::Conda,
        path: meta_dir.display().to_string(),
        packages: count,
        note: None,
        gpu_packages: gpu,
    });
}

fn pip(sys: &System, report: &mut Report, index: &mut PackageIndex, prefix: &str, site_packages: &str) {
    let sp = Path::new(site_packages);
    let entries = match sys.read_dir(sp) {
        Ok(e) => e,
        Err(e) => {
            problem(report, PROBE, Some(site_packages), format!("unreadable: {e}"));
            return;
        }
    };
    let mut count = 0;
    let mut gpu = Vec::new();
    for entry in &entries {
        let Some((dir_name, dir_version)) = parse_dist_dir_name(&entry.name) else { continue };
        count += 1;
        let mut package = Package {
            manager: PackageManager::Pip,
            name: dir_name,
            version: dir_version,
            db_path: entry.path.display().to_string(),
            env: Some(prefix.to_string()),
            site_packages: Some(site_packages.to_string()),
            held: false,
        };
        if !is_gpu_stack_name(&package.name) {
            index.add(package, []);
            continue;
        }
        let meta_path =
            entry.path.join(if entry.name.ends_with(".egg-info") { "PKG-INFO" } else { "METADATA" });
        if let Ok(bytes) = sys.read_head(&meta_path, 64 << 10) {
            if let Some(meta) = parse_metadata(&String::from_utf8_lossy(&bytes)) {
                package.name = meta.name;
                package.version = meta.version;
                package.db_path = meta_path.display().to_string();
            }
        }
        // RECORDs of frameworks are large (torch: >1 MB) and own no CUDA library; the NVIDIA
        // wheels' RECORDs are small and say which wheel owns which file of `nvidia/`.
        let files = if normalize_dist_name(&package.name).starts_with("nvidia-") {
            sys.read_head(&entry.path.join("RECORD"), MAX_LIST_BYTES)
                .map(|b| {
                    parse_record(&String::from_utf8_lossy(&b))
                        .into_iter()
                        .filter(|f| f.contains(".so"))
                        .map(|f| join_relative(sp, &f))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        gpu.push(package.installed());
        index.add(package, files);
    }
    report.host.package_dbs.push(PackageDb {
        manager: PackageManager::Pip,
        path: site_packages.to_string(),
        packages: count,
        note: None,
        gpu_packages: gpu,
    });
}

/// `base` joined with a relative path from a file list, `..` applied (RECORD lists
/// `../../bin/tool`); an absolute entry is kept as is.
fn join_relative(base: &Path, rel: &str) -> PathBuf {
    let mut out = if rel.starts_with('/') { PathBuf::from("/") } else { base.to_path_buf() };
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE_STATUS: &str =
        include_str!("../../tests/fixtures/h200-cuda13-torch211/root/var/lib/dpkg/status");

    #[test]
    fn the_real_dpkg_status_gives_every_cuda_cudnn_and_nccl_package() {
        let entries = parse_dpkg_status(FIXTURE_STATUS);
        assert_eq!(entries.len(), 44);
        let nccl = entries.iter().find(|e| e.package == "libnccl2").unwrap();
        assert_eq!(nccl.version, "2.28.3-1+cuda13.0");
        assert!(nccl.is_installed() && nccl.is_held());
        assert_eq!(nccl.architecture.as_deref(), Some("amd64"));
        let cudart = entries.iter().find(|e| e.package == "cuda-cudart-13-0").unwrap();
        assert!(cudart.is_installed() && !cudart.is_held());
        assert_eq!(upstream_version(&nccl.version).unwrap().to_string(), "2.28.3");
        let cudnn = entries.iter().find(|e| e.package == "libcudnn9-cuda-13").unwrap();
        assert_eq!(upstream_version(&cudnn.version).unwrap().to_string(), "9.14.0.64");
    }

    #[test]
    fn removed_packages_and_broken_stanzas_are_not_installed() {
        let text = "Package: a\nStatus: deinstall ok config-files\nVersion: 1.0-1\n\n\
                    Package: b\nStatus: install ok installed\n\nVersion: 2\n\n\
                    Package: c\nStatus: install ok installed\nVersion: 1:3.0-2ubuntu1\nDescription: x\n y: z\n";
        let entries = parse_dpkg_status(text);
        assert_eq!(entries.iter().map(|e| e.package.as_str()).collect::<Vec<_>>(), ["a", "c"]);
        assert!(!entries[0].is_installed());
        assert_eq!(upstream_version(&entries[1].version).unwrap().to_string(), "3.0");
        assert!(upstream_version("junk").is_none());
    }

    #[test]
    fn wheel_metadata_and_dist_names_parse() {
        let text = "Metadata-Version: 2.4\nName: nvidia-cudnn-cu13\nVersion: 9.19.0.56\nSummary: cuDNN\n\nName: body\n";
        let m = parse_metadata(text).unwrap();
        assert_eq!((m.name.as_str(), m.version.as_str()), ("nvidia-cudnn-cu13", "9.19.0.56"));
        assert!(parse_metadata("Summary: nothing\n").is_none());
        assert_eq!(
            parse_dist_dir_name("nvidia_cudnn_cu13-9.19.0.56.dist-info").unwrap(),
            ("nvidia_cudnn_cu13".to_string(), "9.19.0.56".to_string())
        );
        assert_eq!(parse_dist_dir_name("foo-1.0-py3.8.egg-info").unwrap().1, "1.0");
        assert!(parse_dist_dir_name("torch").is_none());
        assert_eq!(normalize_dist_name("Nvidia_CUDNN.cu13"), "nvidia-cudnn-cu13");
        assert_eq!(normalize_dist_name("jax__cuda13--plugin"), "jax-cuda13-plugin");
    }

    #[test]
    fn record_lines_give_paths_even_quoted() {
        let text =
            "nvidia/cudnn/lib/libcudnn.so.9,sha256=abc,123\n\"odd,name.py\",,\n\"q\"\"x\",,\nA/RECORD,,\n";
        assert_eq!(parse_record(text), ["nvidia/cudnn/lib/libcudnn.so.9", "odd,name.py", "q\"x", "A/RECORD"]);
    }

    #[test]
    fn conda_meta_names_and_records_parse() {
        assert_eq!(
            parse_conda_meta_file_name("cuda-cudart-12.4.127-0.json").unwrap(),
            ("cuda-cudart".to_string(), "12.4.127".to_string(), "0".to_string())
        );
        assert!(parse_conda_meta_file_name("history").is_none());
        let m = parse_conda_meta(
            r#"{"name":"cudnn","version":"9.1.1.17","build":"cuda12_0","files":["lib/libcudnn.so.9"]}"#,
        )
        .unwrap();
        assert_eq!(m.files, ["lib/libcudnn.so.9"]);
        assert!(parse_conda_meta("{not json").is_err());
    }

    #[test]
    fn record_paths_are_joined_with_dotdot_applied() {
        assert_eq!(
            join_relative(Path::new("/v/lib/python3.12/site-packages"), "../../../bin/x"),
            Path::new("/v/bin/x")
        );
        assert_eq!(join_relative(Path::new("/v"), "/abs/f"), Path::new("/abs/f"));
    }

    #[test]
    fn the_index_attributes_files_and_finds_packages() {
        let mut index = PackageIndex::default();
        let wheel = Package {
            manager: PackageManager::Pip,
            name: "nvidia-cudnn-cu13".into(),
            version: "9.19.0.56".into(),
            db_path: "/sp/nvidia_cudnn_cu13-9.19.0.56.dist-info/METADATA".into(),
            env: Some("/venv".into()),
            site_packages: Some("/sp".into()),
            held: false,
        };
        let deb = Package {
            manager: PackageManager::Dpkg,
            name: "libnccl2".into(),
            version: "2.28.3-1+cuda13.0".into(),
            db_path: DPKG_STATUS.into(),
            env: None,
            site_packages: None,
            held: true,
        };
        index.add(wheel.clone(), [join_relative(Path::new("/sp"), "nvidia/cudnn/lib/libcudnn.so.9")]);
        index.add(deb.clone(), [PathBuf::from("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3")]);
        assert_eq!(index.owner(Path::new("/sp/nvidia/cudnn/lib/libcudnn.so.9")), Some(&wheel));
        assert_eq!(index.owner(Path::new("/sp/nvidia/cudnn/lib/libcudnn.so")), None);
        assert_eq!(index.pip("/sp", "NVIDIA_cudnn.cu13"), Some(&wheel));
        assert_eq!(index.pip("/other", "nvidia-cudnn-cu13"), None);
        assert_eq!(index.system("libnccl2"), Some(&deb));
        assert_eq!(index.for_origin(&deb.origin()), Some(&deb));
        assert_eq!(index.for_origin(&wheel.origin()), Some(&wheel));
        assert_eq!(index.for_origin(&Origin::Unknown), None);
        assert!(matches!(wheel.origin(), Origin::Pip { ref env, .. } if env == "/venv"));
        assert_eq!(deb.upstream_version().unwrap().to_string(), "2.28.3");
    }

    #[test]
    fn gpu_stack_names_are_recognised() {
        for n in [
            "libcudnn9-cuda-13",
            "libnccl2",
            "nvidia-cuda-runtime",
            "torch",
            "cupy-cuda13x",
            "libnvjitlink-13-0",
        ] {
            assert!(is_gpu_stack_name(n), "{n}");
        }
        for n in ["bash", "python3-numpy", "libc6", "jaxtyping"] {
            assert!(!is_gpu_stack_name(n), "{n}");
        }
    }
}
