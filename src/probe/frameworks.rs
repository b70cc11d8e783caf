//! Probe: the framework builds in every Python environment, read from files and never
//! imported: PyTorch (`torch/version.py`), TensorFlow (`tensorflow/python/platform/build_info.py`),
//! JAX, jaxlib and the JAX CUDA plugins (dist-infos, `jaxlib/version.py`), CuPy (the
//! `cupy-cudaXXx` distribution name, `cupy/_version.py`), ONNX Runtime
//! (`onnxruntime/capi/version_info.py`, `build_and_package_info.py`, the CUDA provider library)
//! and PaddlePaddle (`paddle/version/__init__.py`).
//!
//! Each site-packages directory is listed once; only the few files named above are read.

use crate::probe::packages::{normalize_dist_name, parse_dist_dir_name, PackageIndex};
use crate::probe::problem;
use crate::report::{Evidence, Fact, Framework, FrameworkKind, PackageManager, Report};
use crate::system::System;
use crate::version::{CudaVersion, Version};
use regex::Regex;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PROBE: &str = "frameworks";
/// Framework version files are small; anything longer is not one.
const MAX_PY_FILE: u64 = 256 << 10;

/// A value assigned at the top level of a generated Python file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PyValue {
    /// A string literal.
    Str(String),
    /// `True` or `False`.
    Bool(bool),
    /// `None`.
    None,
    /// Anything else, as written (`[...]`, numbers).
    Other(String),
}

impl PyValue {
    /// The string, when a non-empty string literal other than `'False'`/`'None'` (which generated
    /// files write for "absent").
    pub fn as_str(&self) -> Option<&str> {
        match self {
            PyValue::Str(s) if !s.is_empty() && s != "False" && s != "None" => Some(s),
            _ => None,
        }
    }
}

/// Parses the top-level `name = value` (and `name: type = value`) lines of a generated Python
/// file such as `torch/version.py` or `paddle/version/__init__.py`.
pub fn parse_py_assignments(text: &str) -> BTreeMap<String, PyValue> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t', '#']) {
            continue;
        }
        let Some((lhs, rhs)) = line.split_once('=') else { continue };
        if rhs.starts_with('=') || lhs.ends_with(['!', '<', '>']) {
            continue;
        }
        let name = lhs.split(':').next().unwrap_or(lhs).trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        out.insert(name.to_string(), parse_py_value(rhs.trim()));
    }
    out
}

fn parse_py_value(raw: &str) -> PyValue {
    for q in ['\'', '"'] {
        if let Some(rest) = raw.strip_prefix(q) {
            if let Some(end) = rest.find(q) {
                return PyValue::Str(rest[..end].to_string());
            }
        }
    }
    let bare = raw.split('#').next().unwrap_or(raw).trim();
    match bare {
        "True" => PyValue::Bool(true),
        "False" => PyValue::Bool(false),
        "None" => PyValue::None,
        _ => PyValue::Other(bare.to_string()),
    }
}

/// What `torch/version.py` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TorchVersionPy {
    /// `__version__` (`2.11.0+cu130`).
    pub version: Version,
    /// `cuda` (`13.0`), `None` for CPU and ROCm builds.
    pub cuda: Option<CudaVersion>,
    /// `hip` (ROCm builds).
    pub hip: Option<String>,
    /// `git_version`.
    pub git_version: Option<String>,
}

/// Parses `torch/version.py`.
pub fn parse_torch_version_py(text: &str) -> Option<TorchVersionPy> {
    let a = parse_py_assignments(text);
    let version: Version = a.get("__version__")?.as_str()?.parse().ok()?;
    Some(TorchVersionPy {
        version,
        cuda: a.get("cuda").and_then(PyValue::as_str).and_then(|c| c.parse().ok()),
        hip: a.get("hip").and_then(PyValue::as_str).map(str::to_string),
        git_version: a.get("git_version").and_then(PyValue::as_str).map(str::to_string),
    })
}

/// The build flavour of a PyTorch version: the local tag (`cu130`, `cpu`, `rocm6.2`), else
/// derived from its CUDA or HIP version, else `cpu`.
pub fn torch_build(version: &Version, cuda: Option<CudaVersion>, hip: Option<&str>) -> String {
    let local = version.suffix();
    if version.as_str().contains('+') && !local.is_empty() {
        return local.to_string();
    }
    if let Some(c) = cuda {
        return c.tag();
    }
    if let Some(h) = hip.and_then(|h| h.parse::<Version>().ok()) {
        return format!("rocm{}.{}", h.major(), h.minor());
    }
    "cpu".to_string()
}

/// The entries of TensorFlow's `build_info.py`, in both its forms: the `build_info` dict
/// (`('cuda_version', '12.5.1')` or `'cuda_version': '12.5.1'`) and the older `name = value` lines.
pub fn parse_tf_build_info(text: &str) -> BTreeMap<String, PyValue> {
    static ENTRY: OnceLock<Regex> = OnceLock::new();
    let re = ENTRY.get_or_init(|| {
        Regex::new(r#"'(\w+)'\s*[,:]\s*('[^']*'|"[^"]*"|True|False|None|\[[^\]]*\])"#).expect("valid regex")
    });
    let mut out = parse_py_assignments(text);
    out.remove("build_info");
    for cap in re.captures_iter(text) {
        out.insert(cap[1].to_string(), parse_py_value(&cap[2]));
    }
    out
}

/// A TensorFlow CUDA version: `12.5.1`, or Windows' `64_112`.
pub fn tf_cuda_version(s: &str) -> Option<CudaVersion> {
    match s.strip_prefix("64_") {
        Some(digits) => CudaVersion::from_tag(&format!("cu{digits}")),
        None => s.parse().ok(),
    }
}

/// A cuDNN version as frameworks write it: `9`, `8.9.1`, Windows' `64_8`.
pub fn loose_version(s: &str) -> Option<Version> {
    s.strip_prefix("64_").unwrap_or(s).parse().ok()
}

/// The CUDA of a CuPy distribution name: `cupy-cuda13x` → (13, None), `cupy-cuda117` → (11, 11.7).
pub fn cupy_cuda(name: &str) -> Option<(u32, Option<CudaVersion>)> {
    let tag = normalize_dist_name(name).strip_prefix("cupy-cuda")?.to_string();
    if let Some(major) = tag.strip_suffix('x') {
        return Some((major.parse().ok()?, None));
    }
    let v = CudaVersion::from_tag(&format!("cu{tag}"))?;
    Some((v.major, Some(v)))
}

/// The CUDA major in a JAX plugin name (`jax-cuda13-plugin` → 13).
pub fn jax_plugin_cuda(name: &str) -> Option<u32> {
    let n = normalize_dist_name(name);
    let rest = n.strip_prefix("jax-cuda")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// jaxlib's local version before the plugins (`0.4.26+cuda12.cudnn89`): CUDA major and cuDNN.
pub fn jaxlib_local(version: &Version) -> (Option<u32>, Option<Version>) {
    let mut cuda = None;
    let mut cudnn = None;
    for part in version.suffix().split('.') {
        if let Some(c) = part.strip_prefix("cuda") {
            cuda = c.parse().ok();
        } else if let Some(d) = part.strip_prefix("cudnn") {
            // `89` is 8.9; `8` is 8.
            let digits: Vec<char> = d.chars().collect();
            let v = match digits.as_slice() {
                [major, minor] => format!("{major}.{minor}"),
                _ => d.to_string(),
            };
            cudnn = v.parse().ok();
        }
    }
    (cuda, cudnn)
}

/// One site-packages directory, listed once.
struct Site<'a> {
    sys: &'a System,
    sp: &'a str,
    env: &'a str,
    names: Vec<String>,
    /// Normalised distribution name → dist-info directory name.
    dists: HashMap<String, String>,
}

impl Site<'_> {
    fn has(&self, name: &str) -> bool {
        self.names.binary_search_by(|n| n.as_str().cmp(name)).is_ok()
    }

    fn path(&self, rel: &str) -> String {
        format!("{}/{rel}", self.sp)
    }

    fn read(&self, rel: &str) -> Option<String> {
        let bytes = self.sys.read_head(Path::new(&self.path(rel)), MAX_PY_FILE).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The installed distributions whose normalised name satisfies `pred`, sorted.
    fn dists_matching(&self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let mut v: Vec<String> = self.dists.keys().filter(|k| pred(k)).cloned().collect();
        v.sort();
        v
    }

    /// The version of a distribution and its evidence (METADATA through the index, else the
    /// dist-info directory name).
    fn dist_version(&self, index: &PackageIndex, normalized: &str) -> Option<(String, Fact<Version>)> {
        if let Some(p) = index.pip(self.sp, normalized) {
            if let Ok(v) = p.version.parse::<Version>() {
                return Some((p.name.clone(), Fact::new(v, p.evidence())));
            }
        }
        let dir = self.dists.get(normalized)?;
        let (_, v) = parse_dist_dir_name(dir)?;
        Some((normalized.to_string(), Fact::new(v.parse().ok()?, Evidence::file_name(self.path(dir)))))
    }

    fn framework(
        &self,
        kind: FrameworkKind,
        package: String,
        dir: &str,
        version: Fact<Version>,
    ) -> Framework {
        Framework {
            kind,
            package,
            env: self.env.to_string(),
            location: self.path(dir),
            version,
            cuda: None,
            cudnn: None,
            build: None,
            details: BTreeMap::new(),
            cuda_major: None,
            linkage: None,
        }
    }
}

/// Adds the frameworks of every Python environment to `report.frameworks`.
pub fn probe(sys: &System, index: &PackageIndex, report: &mut Report) {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let envs = report.host.python_envs.clone();
    for env in &envs {
        for sp in &env.site_packages {
            if !seen.insert(sp.clone()) {
                continue;
            }
            let entries = match sys.read_dir(Path::new(sp)) {
                Ok(e) => e,
                Err(e) => {
                    problem(report, PROBE, Some(sp), format!("unreadable: {e}"));
                    continue;
                }
            };
            let names: Vec<String> = entries.into_iter().map(|e| e.name).collect();
            let dists = names
                .iter()
                .filter_map(|n| {
                    parse_dist_dir_name(n).map(|(name, _)| (normalize_dist_name(&name), n.clone()))
                })
                .collect();
            let site = Site { sys, sp, env: &env.prefix, names, dists };
            torch(&site, index, report, &mut out);
            tensorflow(&site, index, report, &mut out);
            jax(&site, index, report, &mut out);
            cupy(&site, index, &mut out);
            onnxruntime(&site, index, report, &mut out);
            paddle(&site, index, report, &mut out);
        }
    }
    // A framework installed by the system's package manager (Debian's python3-torch) says so:
    // its package version is what an upgrade or a bug report refers to.
    for f in &mut out {
        let location = Path::new(&f.location);
        let files = [location.join("__init__.py"), location.join("version.py")];
        if let Some(package) = index.owner_of_any(files.iter().map(PathBuf::as_path)) {
            if matches!(package.manager, PackageManager::Dpkg | PackageManager::Rpm) {
                f.version.evidence.push(package.evidence());
            }
        }
    }
    report.frameworks.extend(out);
}

fn torch(site: &Site<'_>, index: &PackageIndex, report: &mut Report, out: &mut Vec<Framework>) {
    if !site.has("torch") {
        return;
    }
    let dist = site.dist_version(index, "torch");
    let parsed = site.read("torch/version.py").map(|t| parse_torch_version_py(&t));
    let vp = site.path("torch/version.py");
    let mut f = match (parsed, dist) {
        (Some(Some(p)), dist) => {
            let mut version = Fact::new(p.version.clone(), Evidence::file_detail(vp.clone(), "__version__"));
            if let Some((_, d)) = &dist {
                if d.value.matches_prefix(&p.version.truncated(3)) {
                    version.evidence.extend(d.evidence.iter().cloned());
                }
            }
            let package = dist.map_or_else(|| "torch".to_string(), |(n, _)| n);
            let mut f = site.framework(FrameworkKind::Torch, package, "torch", version);
            f.cuda = p.cuda.map(|c| Fact::new(c, Evidence::file_detail(vp.clone(), "cuda")));
            f.cuda_major = p.cuda.map(|c| c.major);
            f.build = Some(torch_build(&p.version, p.cuda, p.hip.as_deref()));
            if let Some(h) = p.hip {
                f.details.insert("hip".to_string(), h);
            }
            if let Some(g) = p.git_version {
                f.details.insert("git_version".to_string(), g);
            }
            f
        }
        (parsed, Some((name, version))) => {
            if matches!(parsed, Some(None)) {
                problem(report, PROBE, Some(&vp), "no `__version__` string");
            }
            let build = version.value.as_str().contains('+').then(|| version.value.suffix().to_string());
            let mut f = site.framework(FrameworkKind::Torch, name, "torch", version);
            f.cuda = build
                .as_deref()
                .and_then(CudaVersion::from_tag)
                .map(|c| Fact::new(c, f.version.evidence[0].clone()));
            f.cuda_major = f.cuda.as_ref().map(|c| c.value.major);
            f.build = build;
            f
        }
        (Some(None), None) => {
            problem(report, PROBE, Some(&vp), "no `__version__` string");
            return;
        }
        (None, None) => return,
    };
    // The CUDA library wheels a torch wheel pins (`Requires-Dist: nvidia-cudnn-cu12==9.5.1.17`)
    // are the versions it was built and tested with.
    if let Some(dir) = site.dists.get("torch") {
        let metadata = format!("{dir}/METADATA");
        if let Some(text) = site.read(&metadata) {
            let evidence = Evidence::Package {
                manager: PackageManager::Pip,
                package: "torch".to_string(),
                path: site.path(&metadata),
            };
            for (name, version) in parse_exact_pins(&text) {
                if name.starts_with("nvidia-cudnn-") && f.cudnn.is_none() {
                    f.cudnn = Some(Fact::new(version, evidence.clone()));
                } else if name.starts_with("nvidia-nccl-") {
                    f.details.insert("nccl".to_string(), version.to_string());
                }
            }
        }
    }
    if f.details.is_empty() && f.build.is_none() {
        f.build = None;
    }
    out.push(f);
}

/// The exact pins of a wheel's METADATA: `Requires-Dist: nvidia-cudnn-cu12==9.5.1.17; …` gives
/// (`nvidia-cudnn-cu12`, 9.5.1.17). Ranges (`>=`) and extras are left out.
pub fn parse_exact_pins(metadata: &str) -> Vec<(String, Version)> {
    metadata
        .lines()
        .filter_map(|l| l.strip_prefix("Requires-Dist:"))
        .filter(|l| !l.contains("extra =="))
        .filter_map(|l| {
            let requirement = l.split(';').next()?.trim();
            let (name, version) = requirement.split_once("==")?;
            let name = name.trim().trim_end_matches(['(', ' ']);
            let version = version.trim().trim_end_matches(')').trim();
            Some((name.to_ascii_lowercase().replace('_', "-"), version.parse().ok()?))
        })
        .collect()
}

fn tensorflow(site: &Site<'_>, index: &PackageIndex, report: &mut Report, out: &mut Vec<Framework>) {
    if !site.has("tensorflow") {
        return;
    }
    let dists = site.dists_matching(|n| n.starts_with("tensorflow") || n.starts_with("tf-nightly"));
    let Some((package, version)) = dists
        .iter()
        .filter(|d| {
            !d.contains("estimator") && !d.contains("io") && !d.contains("hub") && !d.contains("addons")
        })
        .find_map(|d| site.dist_version(index, d))
    else {
        return;
    };
    let mut f = site.framework(FrameworkKind::Tensorflow, package, "tensorflow", version);
    let rel = "tensorflow/python/platform/build_info.py";
    if let Some(text) = site.read(rel) {
        let info = parse_tf_build_info(&text);
        let ev = |d: &str| Evidence::file_detail(site.path(rel), d);
        f.cuda = info
            .get("cuda_version")
            .and_then(PyValue::as_str)
            .and_then(tf_cuda_version)
            .map(|c| Fact::new(c, ev("cuda_version")));
        f.cudnn = info
            .get("cudnn_version")
            .and_then(PyValue::as_str)
            .and_then(loose_version)
            .map(|c| Fact::new(c, ev("cudnn_version")));
        f.cuda_major = f.cuda.as_ref().map(|c| c.value.major);
        let is_cuda = info.get("is_cuda_build") == Some(&PyValue::Bool(true));
        let is_rocm = info.get("is_rocm_build") == Some(&PyValue::Bool(true));
        f.build = Some(
            if is_cuda {
                "cuda"
            } else if is_rocm {
                "rocm"
            } else {
                "cpu"
            }
            .to_string(),
        );
        if let Some(PyValue::Other(caps)) = info.get("cuda_compute_capabilities") {
            let caps: Vec<&str> = caps
                .trim_matches(['[', ']'])
                .split(',')
                .map(|c| c.trim().trim_matches(['\'', '"']))
                .filter(|c| !c.is_empty())
                .collect();
            f.details.insert("cuda_compute_capabilities".to_string(), caps.join(","));
        }
        if info.is_empty() {
            problem(report, PROBE, Some(&site.path(rel)), "no build_info entries");
        }
    }
    out.push(f);
}

fn jax(site: &Site<'_>, index: &PackageIndex, report: &mut Report, out: &mut Vec<Framework>) {
    if let Some((package, version)) = site.dist_version(index, "jax") {
        out.push(site.framework(FrameworkKind::Jax, package, "jax", version));
    }
    let jaxlib = site.dist_version(index, "jaxlib").or_else(|| {
        let rel = "jaxlib/version.py";
        let text = site.read(rel)?;
        let a = parse_py_assignments(&text);
        let v = a.get("_version").or_else(|| a.get("__version__")).and_then(PyValue::as_str)?.parse().ok();
        if v.is_none() {
            problem(report, PROBE, Some(&site.path(rel)), "no `_version` string");
        }
        Some(("jaxlib".to_string(), Fact::new(v?, Evidence::file_detail(site.path(rel), "_version"))))
    });
    if let Some((package, version)) = jaxlib {
        let (cuda, cudnn) = jaxlib_local(&version.value);
        let ev = version.evidence[0].clone();
        let mut f = site.framework(FrameworkKind::Jaxlib, package, "jaxlib", version);
        f.cuda_major = cuda;
        f.build = cuda.map(|c| format!("cuda{c}"));
        f.cudnn = cudnn.map(|v| Fact::new(v, ev));
        out.push(f);
    }
    for dist in site.dists_matching(|n| n.starts_with("jax-cuda") && n.ends_with("-plugin")) {
        let Some((package, version)) = site.dist_version(index, &dist) else { continue };
        let major = jax_plugin_cuda(&dist);
        let dir = dist.replace('-', "_");
        let mut f = site.framework(FrameworkKind::JaxCudaPlugin, package, &dir, version);
        f.cuda_major = major;
        f.build = major.map(|m| format!("cuda{m}"));
        if let Some(m) = major {
            if let Some((_, pjrt)) = site.dist_version(index, &format!("jax-cuda{m}-pjrt")) {
                f.details.insert("pjrt".to_string(), pjrt.value.to_string());
            }
        }
        out.push(f);
    }
}

fn cupy(site: &Site<'_>, index: &PackageIndex, out: &mut Vec<Framework>) {
    if !site.has("cupy") {
        return;
    }
    for dist in
        site.dists_matching(|n| n == "cupy" || n.starts_with("cupy-cuda") || n.starts_with("cupy-rocm"))
    {
        let version = site.dist_version(index, &dist).or_else(|| {
            let text = site.read("cupy/_version.py")?;
            let v = parse_py_assignments(&text).get("__version__")?.as_str()?.parse().ok()?;
            Some((
                dist.clone(),
                Fact::new(v, Evidence::file_detail(site.path("cupy/_version.py"), "__version__")),
            ))
        });
        let Some((package, version)) = version else { continue };
        let ev = version.evidence[0].clone();
        let mut f = site.framework(FrameworkKind::Cupy, package, "cupy", version);
        if let Some((major, exact)) = cupy_cuda(&dist) {
            f.cuda_major = Some(major);
            f.cuda = exact.map(|c| Fact::new(c, ev));
        }
        f.build = dist.strip_prefix("cupy-").map(str::to_string);
        out.push(f);
    }
}

fn onnxruntime(site: &Site<'_>, index: &PackageIndex, report: &mut Report, out: &mut Vec<Framework>) {
    if !site.has("onnxruntime") {
        return;
    }
    let dists = site.dists_matching(|n| n.starts_with("onnxruntime") || n.starts_with("ort-nightly"));
    let capi = site.sys.read_dir(Path::new(&site.path("onnxruntime/capi"))).unwrap_or_default();
    let version = dists.iter().find_map(|d| site.dist_version(index, d)).or_else(|| {
        // No dist-info (copied tree, vendored install): the core library's file name.
        capi.iter().find_map(|e| {
            let v = e.name.strip_prefix("libonnxruntime.so.")?.parse::<Version>().ok()?;
            Some(("onnxruntime".to_string(), Fact::new(v, Evidence::file_name(e.path.display().to_string()))))
        })
    });
    let Some((package, version)) = version else { return };
    let mut f = site.framework(FrameworkKind::Onnxruntime, package, "onnxruntime", version);
    for rel in ["onnxruntime/capi/version_info.py", "onnxruntime/capi/build_and_package_info.py"] {
        let Some(text) = site.read(rel) else { continue };
        let a = parse_py_assignments(&text);
        let ev = |d: &str| Evidence::file_detail(site.path(rel), d);
        if f.cuda.is_none() {
            f.cuda = a
                .get("cuda_version")
                .and_then(PyValue::as_str)
                .and_then(|s| s.parse().ok())
                .map(|c| Fact::new(c, ev("cuda_version")));
        }
        if f.cudnn.is_none() {
            f.cudnn = a
                .get("cudnn_version")
                .and_then(PyValue::as_str)
                .and_then(loose_version)
                .map(|c| Fact::new(c, ev("cudnn_version")));
        }
        if a.is_empty() {
            problem(report, PROBE, Some(&site.path(rel)), "no assignments");
        }
    }
    f.cuda_major = f.cuda.as_ref().map(|c| c.value.major);
    let cuda_provider = capi.iter().any(|e| e.name.starts_with("libonnxruntime_providers_cuda.so"));
    if !capi.is_empty() {
        f.details.insert(
            "cuda_provider".to_string(),
            if cuda_provider { "present" } else { "absent" }.to_string(),
        );
        f.build = Some(if cuda_provider { "cuda" } else { "cpu" }.to_string());
    }
    out.push(f);
}

fn paddle(site: &Site<'_>, index: &PackageIndex, report: &mut Report, out: &mut Vec<Framework>) {
    if !site.has("paddle") {
        return;
    }
    let rel = "paddle/version/__init__.py";
    let info = site.read(rel).map(|t| parse_py_assignments(&t)).unwrap_or_default();
    let ev = |d: &str| Evidence::file_detail(site.path(rel), d);
    let dist = site
        .dists_matching(|n| n.starts_with("paddlepaddle"))
        .into_iter()
        .find_map(|d| site.dist_version(index, &d));
    let from_file = info
        .get("full_version")
        .and_then(PyValue::as_str)
        .and_then(|v| v.parse::<Version>().ok())
        .map(|v| ("paddlepaddle".to_string(), Fact::new(v, ev("full_version"))));
    let Some((package, version)) = dist.or(from_file) else {
        if !info.is_empty() {
            problem(report, PROBE, Some(&site.path(rel)), "no `full_version` string");
        }
        return;
    };
    let mut f = site.framework(FrameworkKind::Paddle, package, "paddle", version);
    f.cuda = info
        .get("cuda_version")
        .and_then(PyValue::as_str)
        .and_then(|s| s.parse().ok())
        .map(|c| Fact::new(c, ev("cuda_version")));
    f.cudnn = info
        .get("cudnn_version")
        .and_then(PyValue::as_str)
        .and_then(loose_version)
        .map(|c| Fact::new(c, ev("cudnn_version")));
    f.cuda_major = f.cuda.as_ref().map(|c| c.value.major);
    if !info.is_empty() {
        f.build = Some(if f.cuda.is_some() { "cuda" } else { "cpu" }.to_string());
    }
    out.push(f);
}

#[cfg(test)]
mod tests {
    use super::*;

    const TORCH_VERSION_PY: &str = include_str!(
        "../../tests/fixtures/h200-cuda13-torch211/root/opt/torch/.venv/lib/python3.12/site-packages/torch/version.py"
    );

    #[test]
    fn the_fixture_torch_version_py_gives_a_cu130_build() {
        let t = parse_torch_version_py(TORCH_VERSION_PY).unwrap();
        assert_eq!(t.version.to_string(), "2.11.0+cu130");
        assert_eq!(t.cuda, Some(CudaVersion::new(13, 0)));
        assert_eq!(t.hip, None);
        assert_eq!(t.git_version.as_deref(), Some("70d99e998b4955e0049d13a98d77ae1b14db1f45"));
        assert_eq!(torch_build(&t.version, t.cuda, None), "cu130");
    }

    #[test]
    fn exact_pins_of_a_torch_wheel() {
        let text = "Name: torch\nRequires-Dist: filelock\nRequires-Dist: nvidia-cudnn-cu12==9.5.1.17; platform_system == \"Linux\" and platform_machine == \"x86_64\"\nRequires-Dist: nvidia-nccl-cu12==2.21.5; platform_system == \"Linux\"\nRequires-Dist: sympy>=1.13.3\nRequires-Dist: opt-einsum>=3.3; extra == \"opt-einsum\"\n";
        let pins = parse_exact_pins(text);
        assert_eq!(pins.len(), 2);
        assert_eq!(pins[0].0, "nvidia-cudnn-cu12");
        assert_eq!(pins[0].1.to_string(), "9.5.1.17");
        assert_eq!(pins[1].0, "nvidia-nccl-cu12");
    }

    #[test]
    fn torch_builds_without_a_local_tag_are_derived() {
        let v: Version = "2.5.1".parse().unwrap();
        assert_eq!(torch_build(&v, Some(CudaVersion::new(12, 4)), None), "cu124");
        assert_eq!(torch_build(&v, None, Some("6.2.41133-dd7f95766")), "rocm6.2");
        assert_eq!(torch_build(&v, None, None), "cpu");
        assert!(parse_torch_version_py("__version__ = 12\n").is_none());
        assert!(parse_torch_version_py("\u{0}\u{0}junk").is_none());
    }

    #[test]
    fn tf_build_info_parses_both_forms() {
        let new = "import collections\n\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/clang'), \
                   ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'compute_90']), ('cuda_version', '12.5.1'), \
                   ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False)])\n";
        let info = parse_tf_build_info(new);
        assert_eq!(info["cuda_version"], PyValue::Str("12.5.1".into()));
        assert_eq!(info["is_cuda_build"], PyValue::Bool(true));
        assert_eq!(tf_cuda_version(info["cuda_version"].as_str().unwrap()), Some(CudaVersion::new(12, 5)));
        let old = "build_info = {'cuda_version': '64_101', 'cudnn_version': '64_7', 'is_cuda_build': True}\n";
        let info = parse_tf_build_info(old);
        assert_eq!(tf_cuda_version(info["cuda_version"].as_str().unwrap()), Some(CudaVersion::new(10, 1)));
        assert_eq!(loose_version(info["cudnn_version"].as_str().unwrap()).unwrap().major(), 7);
    }

    #[test]
    fn paddle_version_files_say_false_for_cpu() {
        let text = "full_version    = '2.2.1'\ncuda_version    = 'False'\ncudnn_version   = 'False'\nistaged = True\n";
        let a = parse_py_assignments(text);
        assert_eq!(a["full_version"].as_str(), Some("2.2.1"));
        assert_eq!(a["cuda_version"].as_str(), None);
        assert_eq!(a["istaged"], PyValue::Bool(true));
        assert!(!parse_py_assignments("if x == 1:\n    y = 2\n").contains_key("y"));
    }

    #[test]
    fn distribution_names_give_the_cuda() {
        assert_eq!(cupy_cuda("cupy-cuda13x"), Some((13, None)));
        assert_eq!(cupy_cuda("cupy_cuda117"), Some((11, Some(CudaVersion::new(11, 7)))));
        assert_eq!(cupy_cuda("cupy"), None);
        assert_eq!(jax_plugin_cuda("jax_cuda13_plugin"), Some(13));
        let (cuda, cudnn) = jaxlib_local(&"0.4.26+cuda12.cudnn89".parse().unwrap());
        assert_eq!(cuda, Some(12));
        assert_eq!(cudnn.unwrap().to_string(), "8.9");
    }
}
