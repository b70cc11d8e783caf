//! `cudoctor inspect FILE…`: the binary truth of shared libraries and programs — what each one
//! needs, which file the loader really picks for every need on this machine (or under
//! `--root`) and why, what it `dlopen`s, the CUDA runtime it links, the symbol versions the
//! host's libstdc++ lacks, and the GPU architectures its kernels were built for.
//!
//! [`inspect`] builds an [`InspectReport`] (no printing); [`render_text`] and JSON render it.

use crate::binary::elf::{self, ElfInfo, ObjectKind};
use crate::binary::fatbin::{Fatbin, GpuSupport};
use crate::binary::{missing_versions, newest_version};
use crate::loader::frameworks::{load_with_dlopens, ArchSummary};
use crate::loader::{conf, Candidate, Facts, Loader, Outcome, Request, Resolution, Target};
use crate::system::System;
use crate::version::ComputeCapability;
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What `inspect` found for one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// The machine path given.
    pub path: String,
    /// The file behind it, links resolved.
    pub real_path: Option<String>,
    /// Why it could not be read as ELF (then only its name is known).
    pub error: Option<String>,
    /// Its ELF facts.
    pub elf: Option<ElfInfo>,
    /// Every library resolution, in load order (needed ones breadth first, then dlopened ones).
    pub resolutions: Vec<Resolution>,
    /// The CUDA runtime it links (`libcudart.so.13`), directly or through a dependency.
    pub cuda_runtime: Option<String>,
    /// Symbol versions needed from a loaded library that does not define them:
    /// (needing object, provider file, version).
    pub missing_versions: Vec<MissingVersion>,
    /// Its GPU code, when it has a `.nv_fatbin` section.
    pub gpu_code: Option<GpuCode>,
    /// What will go wrong at run time, in words (mixed cuDNN installs).
    pub warnings: Vec<String>,
}

/// A symbol version the loader will not find.
#[derive(Debug, Clone, Serialize)]
pub struct MissingVersion {
    /// The object that needs it.
    pub needed_by: String,
    /// The library that should define it (`libstdc++.so.6`).
    pub provider: String,
    /// The provider file resolved on this machine.
    pub provider_path: String,
    /// The version (`GLIBCXX_3.4.30`).
    pub version: String,
    /// The newest version of that family the provider has (`GLIBCXX_3.4.29`).
    pub provider_newest: Option<String>,
}

/// The GPU code of a file and what it means for the GPUs considered.
#[derive(Debug, Clone, Serialize)]
pub struct GpuCode {
    /// Containers walked.
    pub containers: usize,
    /// Cubins per target, PTX targets, compression.
    pub summary: ArchSummary,
    /// For each GPU capability considered: what runs on it.
    pub verdicts: Vec<GpuVerdict>,
}

/// What a binary offers one GPU.
#[derive(Debug, Clone, Serialize)]
pub struct GpuVerdict {
    /// The GPU's compute capability.
    pub capability: ComputeCapability,
    /// Where the capability came from (`--gpu`, NVML).
    pub source: String,
    /// Native cubins, PTX JIT, or nothing.
    pub support: GpuSupport,
}

/// The whole answer of `inspect`.
#[derive(Debug, Clone, Serialize)]
pub struct InspectReport {
    /// The root looked at.
    pub root: String,
    /// `LD_LIBRARY_PATH` of the modelled process.
    pub ld_library_path: Option<String>,
    /// Remarks on `LD_LIBRARY_PATH` (empty or relative entries).
    pub ld_library_path_notes: Vec<String>,
    /// ld.so.cache format and whether it reflects ld.so.conf.
    pub cache: CacheState,
    /// One report per file.
    pub files: Vec<FileReport>,
}

/// The state of `/etc/ld.so.cache`.
#[derive(Debug, Clone, Serialize)]
pub struct CacheState {
    /// Entries in the cache (`None` when unreadable).
    pub entries: Option<usize>,
    /// Why it could not be read.
    pub problem: Option<String>,
    /// Signs it is stale.
    pub stale: Vec<conf::Staleness>,
}

/// Inspects each file (machine paths on `sys`) for GPUs of the given capabilities.
pub fn inspect(sys: &System, files: &[PathBuf], gpus: &[(ComputeCapability, String)]) -> InspectReport {
    let mut cache_state = CacheState { entries: None, problem: None, stale: Vec::new() };
    let ld_library_path_notes;
    {
        let probe = Loader::new(sys, Target::X86_64);
        ld_library_path_notes = probe.env_notes().to_vec();
        if let Some(c) = probe.cache() {
            cache_state.entries = Some(c.entries.len());
            cache_state.stale = conf::staleness(sys, c, &conf::read_conf(sys));
        }
        cache_state.problem = probe.cache_problem().map(str::to_string);
    }
    let files = files.iter().map(|f| inspect_file(sys, f, gpus)).collect();
    InspectReport {
        root: sys.root().display().to_string(),
        ld_library_path: sys.env("LD_LIBRARY_PATH").map(str::to_string),
        ld_library_path_notes,
        cache: cache_state,
        files,
    }
}

fn inspect_file(sys: &System, path: &Path, gpus: &[(ComputeCapability, String)]) -> FileReport {
    let mut report = FileReport {
        path: path.display().to_string(),
        real_path: None,
        error: None,
        elf: None,
        resolutions: Vec::new(),
        cuda_runtime: None,
        missing_versions: Vec::new(),
        gpu_code: None,
        warnings: Vec::new(),
    };
    let real = match sys.resolve(path) {
        Ok(r) => r.path,
        Err(e) => {
            report.error = Some(e.to_string());
            return report;
        }
    };
    report.real_path = Some(real.display().to_string());
    let facts = elf::read_file(&sys.host_path(&real));
    let target = match &facts {
        Ok(f) => Target::of(&f.elf),
        Err(e) => {
            report.error = Some(e.to_string());
            Target::X86_64
        }
    };
    let mut loader = Loader::new(sys, target);
    if let Ok(root) = loader.load_path(path, None) {
        if facts.as_ref().is_ok_and(|f| f.elf.kind == ObjectKind::Executable) {
            loader.set_main(root);
        }
        if let Facts::Assumed(why) = &loader.objects[root].facts {
            if loader.objects[root].rpath.is_some() || loader.objects[root].runpath.is_some() {
                report.error = Some(format!("{} — {why}", report.error.take().unwrap_or_default()));
            }
        }
        report.resolutions = load_with_dlopens(&mut loader, root);
        report.cuda_runtime = loader
            .objects
            .iter()
            .flat_map(|o| o.needed.iter().chain(o.names.iter()))
            .find(|n| n.starts_with("libcudart.so."))
            .cloned();
        report.missing_versions = find_missing_versions(&loader);
        report.warnings =
            crate::loader::frameworks::cudnn_mixes(&report.resolutions, report.real_path.as_deref());
    }
    if let Ok(f) = facts {
        if let Some(fb) = &f.fatbin {
            report.gpu_code = Some(gpu_code(fb, gpus));
        }
        report.elf = Some(f.elf);
    }
    report
}

fn find_missing_versions(loader: &Loader<'_>) -> Vec<MissingVersion> {
    let mut out = Vec::new();
    for o in &loader.objects {
        for need in &o.version_needs {
            let Some(provider) = loader
                .objects
                .iter()
                .find(|p| p.names.contains(&need.file) || p.soname.as_deref() == Some(&need.file))
            else {
                continue;
            };
            if provider.version_defs.is_empty() {
                continue; // unreadable provider: nothing to compare with
            }
            for v in missing_versions(std::slice::from_ref(need), &need.file, &provider.version_defs) {
                let family = v.split('_').next().map(|f| format!("{f}_")).unwrap_or_default();
                out.push(MissingVersion {
                    needed_by: o.path.clone(),
                    provider: need.file.clone(),
                    provider_path: provider.real_path.clone(),
                    provider_newest: newest_version(&provider.version_defs, &family).cloned(),
                    version: v,
                });
            }
        }
    }
    out
}

fn gpu_code(fb: &Fatbin, gpus: &[(ComputeCapability, String)]) -> GpuCode {
    let verdicts = gpus
        .iter()
        .map(|(cc, source)| GpuVerdict {
            capability: *cc,
            source: source.clone(),
            support: fb.support_for(cc.major, cc.minor),
        })
        .collect();
    GpuCode { containers: fb.containers, summary: ArchSummary::of(fb), verdicts }
}

/// Compute capabilities of the GPUs of this machine, through NVML (live only).
pub fn live_gpus(sys: &System) -> Vec<(ComputeCapability, String)> {
    if !sys.is_live() {
        return Vec::new();
    }
    let Ok(nvml) = nvml_wrapper::Nvml::init() else { return Vec::new() };
    let count = nvml.device_count().unwrap_or(0);
    let mut out = Vec::new();
    for i in 0..count.min(64) {
        let Ok(dev) = nvml.device_by_index(i) else { continue };
        let Ok(cc) = dev.cuda_compute_capability() else { continue };
        let (Ok(major), Ok(minor)) = (u32::try_from(cc.major), u32::try_from(cc.minor)) else { continue };
        let name = dev.name().unwrap_or_else(|_| "GPU".into());
        let c = ComputeCapability::new(major, minor);
        if !out.iter().any(|(x, _)| *x == c) {
            out.push((c, format!("GPU {i} {name} (NVML)")));
        }
    }
    out
}

/// Renders the report as text for a terminal.
pub fn render_text(r: &InspectReport, out: &mut dyn Write) -> io::Result<()> {
    if r.root != "/" {
        writeln!(out, "root: {}", r.root)?;
    }
    writeln!(out, "LD_LIBRARY_PATH: {}", r.ld_library_path.as_deref().unwrap_or("(unset)"))?;
    for n in &r.ld_library_path_notes {
        writeln!(out, "  note: {n}")?;
    }
    match (&r.cache.entries, &r.cache.problem) {
        (Some(n), _) => writeln!(out, "ld.so.cache: {n} entries")?,
        (None, Some(p)) => writeln!(out, "ld.so.cache: {p}")?,
        (None, None) => writeln!(out, "ld.so.cache: absent")?,
    }
    for s in &r.cache.stale {
        writeln!(out, "  stale: {}", s.describe())?;
    }
    for f in &r.files {
        writeln!(out)?;
        render_file(f, out)?;
    }
    Ok(())
}

fn render_file(f: &FileReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", f.path)?;
    if let Some(real) = f.real_path.as_ref().filter(|r| **r != f.path) {
        writeln!(out, "  file:     {real}")?;
    }
    if let Some(e) = &f.error {
        writeln!(out, "  error:    {e}")?;
        if f.elf.is_none() {
            let name =
                Path::new(&f.path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            writeln!(out, "  name:     {name} (only its name is known)")?;
        }
    }
    if let Some(e) = &f.elf {
        let kind = match e.kind {
            ObjectKind::Shared => "shared object",
            ObjectKind::Executable => "executable",
            ObjectKind::Relocatable => "relocatable object",
            ObjectKind::Other => "other ELF",
        };
        let bits = if e.class == elf::ElfClass::Elf64 { 64 } else { 32 };
        writeln!(out, "  ELF:      {bits}-bit {} {kind}", e.machine_name())?;
        if let Some(s) = &e.soname {
            writeln!(out, "  SONAME:   {s}")?;
        }
        match (&e.rpath, &e.runpath) {
            (Some(rp), Some(ru)) => {
                writeln!(out, "  RUNPATH:  {ru}")?;
                writeln!(out, "  RPATH:    {rp} (ignored: the file also has RUNPATH)")?;
            }
            (Some(rp), None) => {
                writeln!(out, "  RPATH:    {rp} (searched before LD_LIBRARY_PATH, inherited)")?
            }
            (None, Some(ru)) => writeln!(out, "  RUNPATH:  {ru} (searched after LD_LIBRARY_PATH)")?,
            (None, None) => writeln!(out, "  RPATH/RUNPATH: none")?,
        }
        if !e.needed.is_empty() {
            writeln!(out, "  NEEDED:   {}", e.needed.join(", "))?;
        }
    }
    if let Some(rt) = &f.cuda_runtime {
        writeln!(out, "  CUDA runtime: {rt}")?;
    }
    if !f.resolutions.is_empty() {
        writeln!(out, "  libraries (needed breadth first, then dlopened):")?;
        let width = f.resolutions.iter().map(|r| r.name.len()).max().unwrap_or(0).min(40);
        for r in &f.resolutions {
            render_resolution(r, &f.path, width, out)?;
        }
        let placeholders =
            f.resolutions.iter().filter(|r| r.notes.iter().any(|n| n.contains("is an empty file"))).count();
        if placeholders > 0 {
            writeln!(
                out,
                "  note: {placeholders} of these are empty placeholder files (a copied tree); their own \
                 needs and search paths are assumed where known"
            )?;
        }
    }
    for w in &f.warnings {
        writeln!(out, "  warning: {w}")?;
    }
    for m in &f.missing_versions {
        writeln!(
            out,
            "  missing version: {} needs {} from {} ({}{}): \"version `{}' not found\"",
            short(&m.needed_by),
            m.version,
            m.provider,
            m.provider_path,
            m.provider_newest.as_ref().map(|n| format!(", newest there {n}")).unwrap_or_default(),
            m.version
        )?;
    }
    if let Some(g) = &f.gpu_code {
        let cubins_total: usize = g.summary.cubins.iter().map(|(_, n)| n).sum();
        writeln!(
            out,
            "  GPU code: {} entries in {} containers ({cubins_total} cubins, {} PTX), {} compressed",
            g.summary.entries,
            g.containers,
            g.summary.entries - cubins_total,
            g.summary.compressed
        )?;
        let cubins: Vec<String> = g.summary.cubins.iter().map(|(t, n)| format!("{t} ×{n}")).collect();
        writeln!(out, "    cubins: {}", if cubins.is_empty() { "none".into() } else { cubins.join(", ") })?;
        let ptx = if g.summary.ptx.is_empty() { "none".to_string() } else { g.summary.ptx.join(", ") };
        writeln!(out, "    PTX:    {ptx}")?;
        for p in &g.summary.problems {
            writeln!(out, "    problem: {p}")?;
        }
        for v in &g.verdicts {
            let what = match &v.support {
                GpuSupport::Native(t) => format!(
                    "native kernels ({})",
                    t.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                ),
                GpuSupport::PtxJit(t) => format!(
                    "no cubin fits; PTX JIT-compiled by the driver at first use ({})",
                    t.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                ),
                GpuSupport::None => {
                    "nothing runs: \"no kernel image is available for execution on the device\"".into()
                }
            };
            writeln!(out, "    on compute capability {} [{}]: {what}", v.capability, v.source)?;
        }
    }
    Ok(())
}

/// Folds `.` and `..` without touching the filesystem (for display only).
fn lexical(p: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in Path::new(p).components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn short(p: &str) -> String {
    Path::new(p).file_name().map_or(p.to_string(), |f| f.to_string_lossy().into_owned())
}

fn render_resolution(r: &Resolution, root: &str, width: usize, out: &mut dyn Write) -> io::Result<()> {
    let how = match r.request {
        Request::Needed if r.requested_by == root => String::new(),
        Request::Needed => format!(", needed by {}", short(&r.requested_by)),
        Request::Dlopen => format!(", dlopened by {}", short(&r.requested_by)),
    };
    match &r.outcome {
        Outcome::Found { path, real_path, step, .. } => {
            if *step == crate::loader::Step::AlreadyLoaded {
                return Ok(());
            }
            // Show the file; the path the loader opened only when links (not just `..`) differ.
            let via =
                if lexical(path) != Path::new(real_path) { format!(" (via {path})") } else { String::new() };
            writeln!(out, "    {:width$}  {real_path}{via}  [{}{how}]", r.name, step.describe())?;
        }
        Outcome::Failed { path, error } => {
            writeln!(
                out,
                "    {:width$}  FAILS at {path}: {error}  [{}]",
                r.name,
                how.trim_start_matches(", ")
            )?;
        }
        Outcome::NotFound => {
            writeln!(out, "    {:width$}  NOT FOUND{how}; searched:", r.name)?;
            for t in &r.tried {
                let why = match &t.outcome {
                    Candidate::Skipped(w) => format!(" (skipped: {w})"),
                    _ => String::new(),
                };
                writeln!(out, "      {} [{}]{why}", t.path, t.step.describe())?;
            }
        }
    }
    for t in r.tried.iter().filter(|t| matches!(t.outcome, Candidate::Skipped(_))) {
        if matches!(r.outcome, Outcome::NotFound) {
            break;
        }
        if let Candidate::Skipped(w) = &t.outcome {
            writeln!(out, "    {:width$}    skipped {} ({w})", "", t.path)?;
        }
    }
    for n in r.notes.iter().filter(|n| !n.contains("is an empty file")) {
        writeln!(out, "    {:width$}    note: {n}", "")?;
    }
    Ok(())
}

/// Flags of `cudoctor inspect`.
#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// Shared libraries or programs to inspect (paths on the machine; under --root, paths
    /// inside that tree, e.g. /opt/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Inspect the machine under DIR (a mounted image, a container's rootfs, a copied tree):
    /// libraries are searched in DIR's directories and DIR's /etc/ld.so.cache.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// With --root: the environment (LD_LIBRARY_PATH …) of the modelled process, as KEY=VALUE
    /// lines. Without --root the current environment is used.
    #[arg(long, value_name = "FILE", requires = "root")]
    pub env_file: Option<PathBuf>,

    /// Judge the GPU code for a GPU of this compute capability (9.0 for H100/H200, 8.6,
    /// 12.0, sm_90). Repeatable. Without it, the GPUs of this machine are asked through NVML.
    #[arg(long, value_name = "CAPABILITY")]
    pub gpu: Vec<ComputeCapability>,

    /// Output format: text, or json (the full model: every search step and candidate).
    #[arg(long, value_enum, default_value_t = crate::render::Format::Text)]
    pub format: crate::render::Format,

    /// Do not touch the live machine (no NVML).
    #[arg(long)]
    pub no_live: bool,
}

/// Runs `cudoctor inspect`.
pub fn run(args: &InspectArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let sys = crate::cli::system_for(args.root.as_ref(), args.env_file.as_ref(), args.no_live)?;
    let files: Vec<PathBuf> = args
        .files
        .iter()
        .map(|f| {
            if args.root.is_none() && f.is_relative() {
                std::path::absolute(f).unwrap_or_else(|_| f.clone())
            } else {
                f.clone()
            }
        })
        .collect();
    let mut gpus: Vec<(ComputeCapability, String)> =
        args.gpu.iter().map(|c| (*c, "--gpu".to_string())).collect();
    if gpus.is_empty() {
        gpus = live_gpus(&sys);
    }
    let report = inspect(&sys, &files, &gpus);
    match args.format {
        crate::render::Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
        }
        crate::render::Format::Text | crate::render::Format::Markdown => render_text(&report, out)?,
    }
    Ok(())
}
