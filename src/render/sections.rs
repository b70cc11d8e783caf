//! The report laid out for people: sections of labelled rows, each with the evidence that backs
//! it. Built once from a [`Report`] by a pure function, then drawn by the text and Markdown
//! renderers, so both always say the same thing.

use crate::report::{
    CudaLibrary, DriverLibrary, Evidence, Fact, LibraryKind, ModuleFlavour, Origin, PackageManager,
    PathChain, Report,
};
use std::collections::BTreeMap;

/// A titled group of rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Title (`Driver`, `GPUs`).
    pub title: String,
    /// Rows in order.
    pub rows: Vec<Row>,
}

/// One fact for people: a label, the value, where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Left column (`Kernel module`, `cudnn`).
    pub label: String,
    /// The value (`580.159.04 (open)`).
    pub value: String,
    /// Where it was read, in words; empty when not applicable.
    pub source: String,
}

impl Row {
    fn new(label: impl Into<String>, value: impl Into<String>, source: impl Into<String>) -> Row {
        Row { label: label.into(), value: value.into(), source: source.into() }
    }
}

fn source_of<T>(fact: &Fact<T>) -> String {
    fact.evidence.first().map(Evidence::describe).unwrap_or_default()
}

/// Describes where a component came from, briefly (`pip nvidia-cudnn-cu13`, `dpkg libnccl2`).
pub fn describe_origin(origin: &Origin) -> String {
    match origin {
        Origin::Pip { package, .. } => format!("pip {package}"),
        Origin::Conda { package, env } => format!("conda {package} in {env}"),
        Origin::System { manager, package } => format!("{} {package}", manager.name()),
        Origin::Toolkit { root } => format!("toolkit {root}"),
        Origin::Driver => "driver".to_string(),
        Origin::Unknown => "no package".to_string(),
    }
}

fn chain_text(chain: &PathChain) -> String {
    let mut hops = vec![chain.path.clone()];
    for link in &chain.links {
        if let Evidence::Symlink { target, .. } = link {
            hops.push(target.clone());
        }
    }
    match (&chain.target, &chain.error) {
        (Some(t), _) if hops.last() != Some(t) => hops.push(t.clone()),
        (None, Some(e)) => hops.push(format!("✗ {e}")),
        _ => {}
    }
    hops.join(" -> ")
}

/// Builds the sections of a report.
pub fn sections(report: &Report) -> Vec<Section> {
    let mut out = vec![host(report), driver(report), gpus(report), cuda(report)];
    out.push(cudnn(report));
    out.push(libraries(report));
    out.push(packages(report));
    out.push(frameworks(report));
    let env: Vec<Row> =
        report.environment.iter().map(|v| Row::new(v.name.clone(), v.value.clone(), "")).collect();
    out.push(Section { title: "Environment".into(), rows: env });
    let problems: Vec<Row> = report
        .problems
        .iter()
        .map(|p| Row::new(p.probe.clone(), p.message.clone(), p.subject.clone().unwrap_or_default()))
        .collect();
    out.push(Section { title: "Could not read".into(), rows: problems });
    out.retain(|s| !s.rows.is_empty());
    out
}

fn host(report: &Report) -> Section {
    let h = &report.host;
    let mut rows = Vec::new();
    if let Some(os) = &h.os {
        rows.push(Row::new("OS", os.value.clone(), source_of(os)));
    }
    if let Some(k) = &h.kernel {
        rows.push(Row::new("Kernel", k.value.clone(), source_of(k)));
    }
    if let Some(a) = &h.arch {
        rows.push(Row::new("Architecture", a.value.clone(), source_of(a)));
    }
    if let Some(g) = &h.glibc {
        rows.push(Row::new("glibc", g.value.to_string(), source_of(g)));
    }
    if let Some(name) = &h.hostname {
        rows.push(Row::new("Host name", name.clone(), ""));
    }
    for c in &h.containers {
        let name = serde_json::to_value(c.value).ok().and_then(|v| v.as_str().map(str::to_string));
        rows.push(Row::new("Container", name.unwrap_or_default(), source_of(c)));
    }
    for env in &h.python_envs {
        let kind = serde_json::to_value(env.kind).ok().and_then(|v| v.as_str().map(str::to_string));
        let mut value = format!("{} ({}", env.prefix, kind.unwrap_or_default());
        if let Some(v) = &env.python_version {
            value.push_str(&format!(", Python {v}"));
        }
        if env.active {
            value.push_str(", first on PATH");
        }
        value.push(')');
        rows.push(Row::new(
            "Python env",
            value,
            env.evidence.first().map(Evidence::describe).unwrap_or_default(),
        ));
    }
    for db in &h.package_dbs {
        rows.push(Row::new(
            "Packages",
            format!(
                "{}: {} package{}",
                db.manager.name(),
                db.packages,
                if db.packages == 1 { "" } else { "s" }
            ),
            db.path.clone(),
        ));
    }
    Section { title: "Host".into(), rows }
}

fn driver(report: &Report) -> Section {
    let d = &report.driver;
    let mut rows = Vec::new();
    match &d.kernel_module {
        Some(m) => {
            let flavour = match m.flavour {
                ModuleFlavour::Open => " (open kernel module)",
                ModuleFlavour::Proprietary => " (proprietary kernel module)",
                ModuleFlavour::Unknown => "",
            };
            rows.push(Row::new(
                "Kernel module",
                format!("{}{flavour}", m.version.value),
                source_of(&m.version),
            ));
        }
        None => rows.push(Row::new("Kernel module", "none loaded (no /proc/driver/nvidia/version)", "")),
    }
    if let Some(v) = &d.nvml_version {
        rows.push(Row::new("NVML driver", v.value.to_string(), source_of(v)));
    }
    if let Some(c) = &d.cuda_supported {
        rows.push(Row::new("Supports CUDA", format!("up to {}", c.value), source_of(c)));
    }
    // One row per directory and version: a driver install is a set of files of one version.
    let version_of =
        |l: &DriverLibrary| l.version.as_ref().map(ToString::to_string).unwrap_or_else(|| "?".into());
    for ((dir, version), libs) in grouped(&d.libraries, |l| (dir_of(&l.path), version_of(l))) {
        let label = if libs[0].forward_compat { "Forward compat" } else { "Libraries" };
        let names: Vec<&str> = libs.iter().map(|l| l.name.as_str()).collect();
        rows.push(Row::new(label, format!("{version}  {}", names.join(" ")), dir));
    }
    // The driver's own libraries the loader's cache does not lead to, one row per directory: a
    // program finds them only through LD_LIBRARY_PATH (forward-compatibility copies are meant to
    // be reached that way).
    let unlisted = d.libraries.iter().filter(|l| !l.forward_compat && l.in_loader_cache == Some(false));
    for (dir, libs) in grouped(unlisted, |l| dir_of(&l.path)) {
        let names: Vec<&str> = libs.iter().map(|l| l.name.as_str()).collect();
        rows.push(Row::new(
            "Not in cache",
            format!(
                "{}: found only through LD_LIBRARY_PATH (add this directory to /etc/ld.so.conf.d, run ldconfig)",
                names.join(" ")
            ),
            dir,
        ));
    }
    if !d.device_nodes.is_empty() {
        let nodes: Vec<String> = d
            .device_nodes
            .iter()
            .map(|n| {
                let name = n.path.trim_start_matches("/dev/").to_string();
                match n.accessible {
                    Some(false) => format!("{name} (no access)"),
                    _ => name,
                }
            })
            .collect();
        rows.push(Row::new("Device nodes", nodes.join(" "), "/dev"));
    }
    Section { title: "Driver".into(), rows }
}

fn gpus(report: &Report) -> Section {
    let g = &report.gpus;
    let source = match g.source {
        crate::report::GpuSource::Nvml => "NVML",
        crate::report::GpuSource::Sysfs => "PCI devices in sysfs",
        crate::report::GpuSource::None => "",
    };
    let mut rows = Vec::new();
    if g.devices.is_empty() {
        rows.push(Row::new("GPUs", "no NVIDIA GPU found", if report.live { "NVML, sysfs" } else { "sysfs" }));
    }
    for gpu in &g.devices {
        let mut parts = vec![gpu.name.clone().unwrap_or_else(|| "NVIDIA GPU".into())];
        if let Some(id) = gpu.pci_device_id {
            parts.push(format!("[10de:{id:04x}]"));
        }
        if let Some(cc) = gpu.compute_capability {
            parts.push(format!("compute {cc}"));
        }
        if let Some(total) = gpu.memory_total_mib {
            match gpu.memory_used_mib {
                Some(used) => parts.push(format!("{total} MiB ({used} MiB used)")),
                None => parts.push(format!("{total} MiB")),
            }
        }
        if !gpu.visible {
            parts.push("hidden by CUDA_VISIBLE_DEVICES".into());
        }
        rows.push(Row::new(format!("GPU {}", gpu.index), parts.join(", "), source));
        let mut details = Vec::new();
        if let Some(bus) = &gpu.pci_bus_id {
            details.push(format!("bus {bus}"));
        }
        if let Some(m) = gpu.mig_enabled {
            details.push(format!("MIG {}", if m { "on" } else { "off" }));
        }
        if let Some(p) = gpu.persistence {
            details.push(format!("persistence {}", if p { "on" } else { "off" }));
        }
        if let Some(e) = gpu.ecc_enabled {
            details.push(format!("ECC {}", if e { "on" } else { "off" }));
        }
        if let Some(n) = gpu.encoder_sessions.filter(|n| *n > 0) {
            details.push(format!("{n} NVENC session{}", if n == 1 { "" } else { "s" }));
        }
        if let Some(t) = gpu.temperature_c {
            details.push(format!("{t} °C"));
        }
        if let Some(p) = gpu.power_w {
            match gpu.power_limit_w {
                Some(l) => details.push(format!("{p:.0}/{l:.0} W")),
                None => details.push(format!("{p:.0} W")),
            }
        }
        if !details.is_empty() {
            rows.push(Row::new("", details.join(", "), ""));
        }
        if !gpu.throttle_reasons.is_empty() {
            rows.push(Row::new("", format!("throttled: {}", gpu.throttle_reasons.join(", ")), ""));
        }
        for p in &gpu.processes {
            let mem = p.used_mib.map(|m| format!("{m} MiB")).unwrap_or_else(|| "? MiB".into());
            let name = p.name.clone().unwrap_or_else(|| "?".into());
            rows.push(Row::new("", format!("process {} ({name}, {}): {mem}", p.pid, p.kind), ""));
        }
    }
    if let Some(note) = &g.visibility_note {
        rows.push(Row::new("Visibility", note.clone(), ""));
    }
    Section { title: "GPUs".into(), rows }
}

fn cuda(report: &Report) -> Section {
    let c = &report.cuda;
    let mut rows = Vec::new();
    for tk in &c.toolkits {
        let version =
            tk.version.as_ref().map(|v| v.value.to_string()).unwrap_or_else(|| "version unknown".into());
        let mut value = format!("{version}  {}", tk.root);
        if !tk.pointed_to_by.is_empty() {
            value.push_str(&format!("  ← {}", tk.pointed_to_by.join(", ")));
        }
        let source = tk.version.as_ref().map(source_of).unwrap_or_default();
        rows.push(Row::new("Toolkit", value, source));
    }
    if c.toolkits.is_empty() {
        rows.push(Row::new("Toolkit", "none found", ""));
    }
    for (label, chain) in [
        ("/usr/local/cuda", &c.usr_local_cuda),
        ("CUDA_HOME", &c.cuda_home),
        ("CUDA_PATH", &c.cuda_path),
        ("nvcc on PATH", &c.nvcc_on_path),
    ] {
        if let Some(chain) = chain {
            rows.push(Row::new(label, chain_text(chain), ""));
        }
    }
    Section { title: "CUDA".into(), rows }
}

fn cudnn(report: &Report) -> Section {
    let rows = report
        .cudnn
        .iter()
        .map(|c| {
            let version = c.version.as_ref().map(|v| v.value.to_string()).unwrap_or_else(|| "?".into());
            let mut value = format!("{version}  {}  ({})", c.lib_dir, describe_origin(&c.origin));
            if let Some(major) = c.cuda_major {
                value.push_str(&format!(", for CUDA {major}"));
            }
            Row::new("cuDNN", value, c.version.as_ref().map(source_of).unwrap_or_default())
        })
        .collect();
    Section { title: "cuDNN".into(), rows }
}

fn libraries(report: &Report) -> Section {
    let mut by_kind: BTreeMap<LibraryKind, Vec<&CudaLibrary>> = BTreeMap::new();
    for lib in &report.libraries {
        by_kind.entry(lib.kind).or_default().push(lib);
    }
    let mut rows = Vec::new();
    for kind in LibraryKind::ALL {
        // One row per directory and version: cuDNN's sub-libraries join their main library.
        let libs = by_kind.get(&kind).into_iter().flatten().copied();
        let version_of =
            |l: &CudaLibrary| l.version.as_ref().map(|v| v.value.to_string()).unwrap_or_else(|| "?".into());
        for ((_, version), libs) in grouped(libs, |l| (dir_of(&l.path), version_of(l))) {
            let main = libs.iter().find(|l| !l.name.contains('_')).unwrap_or(&libs[0]);
            let mut value = format!("{version}  {}", main.path);
            if libs.len() > 1 {
                value.push_str(&format!(" (+{} more)", libs.len() - 1));
            }
            let mut origin = describe_origin(&main.origin);
            if bundled_in_wheel(main) {
                origin.push_str(" (bundled)");
            }
            rows.push(Row::new(kind.name(), value, origin));
        }
    }
    Section { title: "CUDA libraries".into(), rows }
}

/// The directory part of a path ("" for a bare name).
fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `items` in groups of equal key, each group and the groups in the order their items came
/// (one report row per group).
fn grouped<T, K: PartialEq>(items: impl IntoIterator<Item = T>, key: impl Fn(&T) -> K) -> Vec<(K, Vec<T>)> {
    let mut groups: Vec<(K, Vec<T>)> = Vec::new();
    for item in items {
        let k = key(&item);
        match groups.iter_mut().find(|g| g.0 == k) {
            Some(g) => g.1.push(item),
            None => groups.push((k, vec![item])),
        }
    }
    groups
}

/// True for a library inside a framework wheel's own directory (`site-packages/torch/lib`,
/// origin pip `torch`) rather than a wheel of its own (`nvidia/cublas/lib`).
fn bundled_in_wheel(lib: &CudaLibrary) -> bool {
    let Origin::Pip { package, .. } = &lib.origin else { return false };
    dir_of(&lib.path).strip_suffix("/lib").is_some_and(|d| d.rsplit('/').next() == Some(package.as_str()))
}

/// Packages people ask about first: the libraries frameworks load and the driver.
fn is_key_package(name: &str) -> bool {
    const KEY: &[&str] = &[
        "cudnn",
        "nccl",
        "cudart",
        "cublas",
        "compat",
        "nvidia-driver",
        "libnvidia-compute",
        "libcuda1",
        "cuda-toolkit-1",
        "cuda-nvcc",
        "nvinfer",
        "tensorrt",
        "cuda-runtime",
        "nvidia-cuda-toolkit",
    ];
    KEY.iter().any(|k| name.contains(k))
        && !name.contains("config")
        && !name.contains("-dev")
        && !name.contains("-headers")
}

fn packages(report: &Report) -> Section {
    let mut rows = Vec::new();
    for db in &report.host.package_dbs {
        if db.manager == PackageManager::Pip || db.gpu_packages.is_empty() {
            continue;
        }
        let (key, rest): (Vec<_>, Vec<_>) = db.gpu_packages.iter().partition(|p| is_key_package(&p.name));
        let mut items: Vec<String> = key
            .iter()
            .map(|p| format!("{} {}{}", p.name, p.version, if p.held { " (held)" } else { "" }))
            .collect();
        if !rest.is_empty() {
            items.push(format!("+{} other CUDA packages (--format json lists them)", rest.len()));
        }
        // Several packages a line, so that 40 packages take a dozen lines, not 40.
        let mut line = String::new();
        let mut first = true;
        for item in items {
            if !line.is_empty() && line.len() + item.len() + 2 > 78 {
                rows.push(Row::new(if first { db.manager.name() } else { "" }, line.clone(), ""));
                first = false;
                line.clear();
            }
            if !line.is_empty() {
                line.push_str(", ");
            }
            line.push_str(&item);
        }
        if !line.is_empty() {
            rows.push(Row::new(if first { db.manager.name() } else { "" }, line, ""));
        }
    }
    Section { title: "GPU-stack packages".into(), rows }
}

fn frameworks(report: &Report) -> Section {
    let mut rows = Vec::new();
    for f in &report.frameworks {
        let mut value = format!("{} {}", f.package, f.version.value);
        if let Some(c) = &f.cuda {
            value.push_str(&format!(", CUDA {}", c.value));
        }
        if let Some(c) = &f.cudnn {
            value.push_str(&format!(", cuDNN {}", c.value));
        }
        if let Some(b) = &f.build {
            value.push_str(&format!(", build {b}"));
        }
        value.push_str(&format!("  in {}", f.env));
        rows.push(Row::new(f.kind.name(), value, source_of(&f.version)));
        if let Some(linkage) = &f.linkage {
            // Paths inside the framework's own site-packages are shown from there.
            let site = f.location.find("site-packages/").map(|at| &f.location[..at]);
            let mut more = linkage_rows(linkage);
            if let Some(prefix) = site.filter(|p| !p.is_empty()) {
                for row in &mut more {
                    row.value = row.value.replace(prefix, "…/");
                }
            }
            rows.extend(more);
        }
    }
    Section { title: "Frameworks".into(), rows }
}

/// The libraries people ask about first; the rest are in `--format json` and `cudoctor inspect`.
const KEY_LIBRARIES: &[&str] = &["libcudart.so", "libcublas.so", "libcudnn.so", "libnccl.so"];

fn linkage_rows(l: &crate::report::Linkage) -> Vec<Row> {
    let mut rows = Vec::new();
    for lib in &l.libraries {
        let unhashed = crate::probe::libraries::without_auditwheel_hash(&lib.name);
        let key = KEY_LIBRARIES.iter().any(|k| unhashed.starts_with(k));
        let missing = lib.path.is_none() || lib.error.is_some();
        if !key && !missing {
            continue;
        }
        let value = match (&lib.real_path, &lib.error) {
            (_, Some(error)) => format!("{}: {error}", lib.name),
            (Some(real), None) => {
                let version = lib.version.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
                format!("loads {}{version} from {real}", lib.name)
            }
            (None, None) => format!("{}: not found ({} places searched)", lib.name, lib.searched.len()),
        };
        rows.push(Row::new("", value, lib.found_by.clone().unwrap_or_default()));
    }
    if let Some(code) = &l.gpu_code {
        let mut parts: Vec<String> =
            code.cubins.iter().map(|a| format!("{}×{}", a.target, a.count)).collect();
        if parts.is_empty() {
            parts.push("no cubins".into());
        }
        let ptx =
            if code.ptx.is_empty() { "no PTX".to_string() } else { format!("PTX {}", code.ptx.join(" ")) };
        rows.push(Row::new("", format!("kernels {}; {ptx}", parts.join(" ")), "its .nv_fatbin"));
    }
    for mix in &l.cudnn_mixes {
        rows.push(Row::new("", format!("cuDNN MIXED: {mix}"), ""));
    }
    for note in &l.notes {
        rows.push(Row::new("", format!("note: {note}"), ""));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib(path: &str, origin: Origin) -> CudaLibrary {
        CudaLibrary {
            kind: LibraryKind::Cudart,
            name: path.rsplit('/').next().unwrap().to_string(),
            path: path.to_string(),
            links: Vec::new(),
            version: None,
            origin,
            size: 0,
        }
    }

    fn pip(package: &str) -> Origin {
        Origin::Pip { package: package.into(), env: "/v".into() }
    }

    #[test]
    fn only_a_library_in_its_frameworks_own_lib_dir_is_bundled() {
        let sp = "/v/lib/python3.10/site-packages";
        assert!(bundled_in_wheel(&lib(&format!("{sp}/torch/lib/libcudart-80664282.so.10.2"), pip("torch"))));
        // The runtime wheel's own copy, and a copy in torch/lib that dpkg owns, are not.
        let wheel =
            lib(&format!("{sp}/nvidia/cuda_runtime/lib/libcudart.so.12"), pip("nvidia-cuda-runtime-cu12"));
        assert!(!bundled_in_wheel(&wheel));
        let system = Origin::System { manager: PackageManager::Dpkg, package: "python3-torch".into() };
        assert!(!bundled_in_wheel(&lib(
            "/usr/lib/python3/dist-packages/torch/lib/libcudart.so.11.0",
            system
        )));
        assert!(!bundled_in_wheel(&lib(&format!("{sp}/jax/lib/libcudart.so.12"), pip("torch"))));
    }
}
