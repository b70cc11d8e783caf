//! `cudoctor kb`: asks the knowledge base from the command line. Flags are parsed by clap;
//! versions are parsed here with messages that list the accepted forms; answers come from
//! [`super::query`] and are written as aligned text (at most 100 columns) or JSON.

use super::query::{self, CudnnMatch, FamilySupport, QueryError, Runs};
use super::tables::{Confidence, Disagreement, Kb, Platform, Source};
use crate::render::Format;
use crate::version::{CudaVersion, DriverVersion, Version};
use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::io::Write;

/// Text output is wrapped to this many columns.
const WIDTH: usize = 100;

/// Flags of `cudoctor kb`.
#[derive(Debug, Args)]
pub struct KbArgs {
    /// What to look up.
    #[command(subcommand)]
    pub query: KbQuery,

    /// Output format (markdown prints the text form).
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    pub format: Format,
}

/// The questions `cudoctor kb` answers.
#[derive(Debug, Subcommand)]
pub enum KbQuery {
    /// A CUDA toolkit: the driver it needs (its own and under minor version compatibility), the
    /// cuDNN packages for it, and the PyTorch and other framework builds made with it.
    ///
    /// Accepts 12.4, 12.4.1 (the update is ignored), cu124 and 12040.
    ///
    /// Example:
    ///   cudoctor kb cuda 12.4
    #[command(verbatim_doc_comment)]
    Cuda {
        /// CUDA version: 12.4, 12.4.1, cu124 or 12040.
        #[arg(value_name = "VERSION")]
        wanted: String,
    },
    /// An NVIDIA Linux driver: the newest CUDA it supports natively, which CUDA families it runs
    /// with minor version compatibility, and which PyTorch builds run on it.
    ///
    /// Example:
    ///   cudoctor kb driver 535.104.05
    ///   cudoctor kb driver 580          (a branch: its first release)
    #[command(verbatim_doc_comment)]
    Driver {
        /// Driver version as nvidia-smi prints it: 535.104.05, 580.95.05, or a branch (580).
        #[arg(value_name = "VERSION")]
        wanted: String,
    },
    /// A PyTorch release: its CUDA builds, their cuDNN and NCCL, architecture lists, the driver
    /// each needs, and the install command.
    ///
    /// Example:
    ///   cudoctor kb torch 2.4.1
    ///   cudoctor kb torch 2.11.0+cu130   (the +cu130 local tag is ignored)
    ///   cudoctor kb torch cu118          every release with a cu118 build, the driver each needs
    #[command(verbatim_doc_comment)]
    Torch {
        /// PyTorch version (2.4, 2.4.1, 2.4.1+cu121), or a CUDA build of the wheels (cu118): every
        /// release that has it and the driver each needs.
        #[arg(value_name = "VERSION")]
        wanted: String,
    },
    /// A cuDNN release: the CUDA toolkits of each of its builds, the minimum driver, the GPU
    /// compute capabilities, the library layout and sonames, and the framework builds using it.
    ///
    /// Example:
    ///   cudoctor kb cudnn 8.9.7
    ///   cudoctor kb cudnn 91900          (cudnnGetVersion() form)
    #[command(verbatim_doc_comment)]
    Cudnn {
        /// cuDNN version: 9.1, 9.1.0, 9.1.0.70, or the integer of cudnnGetVersion() (91900, 8907).
        #[arg(value_name = "VERSION")]
        wanted: String,
    },
    /// TensorFlow, JAX, CuPy, ONNX Runtime or PaddlePaddle: the GPU builds of a release (or of
    /// every release) with the CUDA, cuDNN and Python each was made for, the driver its CUDA
    /// needs, and the install command.
    ///
    /// Example:
    ///   cudoctor kb framework tensorflow 2.15
    ///   cudoctor kb framework paddle 2.6
    ///   cudoctor kb framework jax
    #[command(verbatim_doc_comment)]
    Framework {
        /// tensorflow (tf), jax, cupy, onnxruntime (ort), paddlepaddle (paddle).
        name: String,
        /// A release: 2.15, 2.15.0, 0.4.30 (all of the framework's builds when left out).
        #[arg(value_name = "VERSION")]
        wanted: Option<String>,
    },
    /// A GPU: by name (substring, "H200", "RTX 4090") or PCI device id (0x2335).
    ///
    /// Example:
    ///   cudoctor kb gpu H200
    #[command(verbatim_doc_comment)]
    Gpu {
        /// Name substring or PCI device id (several words need no quotes: kb gpu RTX 4090).
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
    },
    /// A CUDA, cuDNN or NCCL error code: by number (4000, 700) or name (CUDNN_STATUS_INTERNAL_ERROR).
    ///
    /// Example:
    ///   cudoctor kb error 4000
    #[command(verbatim_doc_comment)]
    Error {
        /// Error number or name (several words need no quotes: kb error Xid 79).
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
    },
    /// Every table of the knowledge base, with its sources (use --format json for scripts).
    ///
    /// Example:
    ///   cudoctor kb dump --format json > kb.json
    #[command(verbatim_doc_comment)]
    Dump,
}

fn parse_cuda(s: &str) -> Result<CudaVersion> {
    s.parse().map_err(|_| anyhow!("`{s}` is not a CUDA version; accepted forms: 12.4, 12.4.1, cu124, 12040"))
}

fn parse_driver(s: &str) -> Result<DriverVersion> {
    s.parse().map_err(|_| {
        anyhow!(
            "`{s}` is not an NVIDIA driver version; accepted forms: 535.104.05, 580.95.05, 580 (a branch)"
        )
    })
}

/// `cu118`, `CU121`: a CUDA variant of the PyTorch wheels rather than a release.
fn is_build_tag(s: &str) -> bool {
    let s = s.to_ascii_lowercase();
    s.strip_prefix("cu").is_some_and(|d| (2..=3).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_torch(s: &str) -> Result<Version> {
    let v: Version = s.parse().map_err(|_| {
        anyhow!("`{s}` is not a PyTorch version or build; accepted forms: 2.4, 2.4.1, 2.4.1+cu121, cu121")
    })?;
    if v.parts().len() < 2 || v.parts().len() > 3 || v.major() > 99 {
        return Err(anyhow!(
            "`{s}` is not a PyTorch version or build; accepted forms: 2.4, 2.4.1, 2.4.1+cu121, cu121"
        ));
    }
    Ok(v)
}

fn parse_cudnn(s: &str) -> Result<Version> {
    let err = || anyhow!("`{s}` is not a cuDNN version; accepted forms: 9.1, 9.1.0, 9.1.0.70, 91900, 8907");
    let t = s.trim();
    // cudnnGetVersion(): 1000 * major + 100 * minor + patch up to 8.x, 10000 * major + 100 * minor
    // + patch from 9.0.
    if !t.contains('.') {
        let n: u64 = t.parse().map_err(|_| err())?;
        let parts = match n {
            90_000..=999_999 => [n / 10_000, (n % 10_000) / 100, n % 100],
            1_000..=8_999 => [n / 1_000, (n % 1_000) / 100, n % 100],
            _ => return Err(err()),
        };
        return Ok(Version::from_parts(&parts));
    }
    let v: Version = t.parse().map_err(|_| err())?;
    if !v.suffix().is_empty() || v.major() == 0 || v.major() > 99 {
        return Err(err());
    }
    Ok(v)
}

/// Runs `cudoctor kb`.
pub fn run_kb(args: &KbArgs, out: &mut dyn Write) -> Result<()> {
    let kb = super::kb().map_err(|e| anyhow!("the built-in knowledge base is broken: {e}"))?;
    let json = args.format == Format::Json;
    match &args.query {
        KbQuery::Cuda { wanted } => {
            let a = query::cuda(kb, parse_cuda(wanted)?).map_err(query_error)?;
            if json {
                write_json(out, &a)
            } else {
                text_cuda(kb, &a, out)
            }
        }
        KbQuery::Driver { wanted } => {
            let a = query::driver(kb, &parse_driver(wanted)?);
            if json {
                write_json(out, &a)
            } else {
                text_driver(kb, &a, out)
            }
        }
        KbQuery::Torch { wanted } if is_build_tag(wanted) => {
            let a = query::torch_tag(kb, &wanted.to_ascii_lowercase()).map_err(query_error)?;
            if json {
                write_json(out, &a)
            } else {
                text_torch_tag(kb, &a, out)
            }
        }
        KbQuery::Torch { wanted } => {
            let a = query::torch(kb, &parse_torch(wanted)?).map_err(query_error)?;
            if json {
                write_json(out, &a)
            } else {
                text_torch(kb, &a, out)
            }
        }
        KbQuery::Cudnn { wanted } => {
            let a = query::cudnn(kb, &parse_cudnn(wanted)?).map_err(query_error)?;
            if json {
                write_json(out, &a)
            } else {
                text_cudnn(kb, &a, out)
            }
        }
        KbQuery::Framework { name, wanted } => {
            let asked = wanted
                .as_deref()
                .map(|w| {
                    w.parse::<Version>().map_err(|_| {
                        anyhow!("`{w}` is not a release version; accepted forms: 2.15, 2.15.0, 0.4.30")
                    })
                })
                .transpose()?;
            let a = query::framework(kb, name, asked.as_ref()).map_err(query_error)?;
            if json {
                write_json(out, &a)
            } else {
                text_framework(&a, out)
            }
        }
        KbQuery::Gpu { query } => {
            let query = &query.join(" ");
            let mut found = super::gpus::catalog().lookup(query);
            // "H200" names NVIDIA H200 itself, not also the H200 NVL; "RTX 4090" names NVIDIA
            // GeForce RTX 4090, not the 4090 D: a name that is or ends with the query wins.
            let q = query.trim().to_ascii_lowercase();
            let exact: Vec<usize> = (0..found.len())
                .filter(|&i| {
                    let n = found[i].name.to_ascii_lowercase();
                    n == q || n.ends_with(&format!(" {q}"))
                })
                .collect();
            if let [i] = exact[..] {
                found = vec![found[i]];
            }
            if found.is_empty() {
                return Err(anyhow!(
                    "no GPU in this knowledge base (data of {}) matches `{query}`; accepted forms: a name or \
                     part of one (H200, \"RTX 4090\", A100) or a PCI device id (0x2335, 10de:2335)",
                    kb.meta.checked
                ));
            }
            if json {
                write_json(out, &found)
            } else {
                text_gpus(kb, &found, out)
            }
        }
        KbQuery::Error { query } => {
            let query = &query.join(" ");
            let found = super::codes::tables().lookup(query);
            // The signature table of `cudoctor explain` is the one source of what an error
            // means and what causes it: the codes found, or the text given, lead to it.
            let mut signatures: Vec<&crate::explain::Signature> = Vec::new();
            for m in &found {
                for sig in crate::explain::signatures_for_code(m.table, m.entry.number) {
                    if !signatures.iter().any(|s| s.id == sig.id) {
                        signatures.push(sig);
                    }
                }
            }
            if signatures.is_empty() {
                signatures.extend(crate::explain::match_text(query).into_iter().map(|m| m.signature));
                signatures.dedup_by(|a, b| a.id == b.id);
            }
            if found.is_empty() && signatures.is_empty() {
                return Err(anyhow!(
                    "no error code in this knowledge base (data of {}) matches `{query}`; accepted forms: a \
                     number (4000, 700, -1), a name (CUDNN_STATUS_INTERNAL_ERROR, cudaErrorIllegalAddress), \
                     an Xid (\"Xid 79\") or an error message (\"no kernel image is available\")",
                    kb.meta.checked
                ));
            }
            if json {
                #[derive(serde::Serialize)]
                struct ErrorAnswer<'a> {
                    codes: &'a [super::codes::CodeMatch<'a>],
                    signatures: &'a [&'a crate::explain::Signature],
                }
                write_json(out, &ErrorAnswer { codes: &found, signatures: &signatures })
            } else {
                if !found.is_empty() {
                    text_codes(kb, &found, out)?;
                }
                text_signatures(&signatures, !found.is_empty(), out)
            }
        }
        KbQuery::Dump => {
            let codes = super::codes::tables();
            let dump = Dump {
                kb,
                gpus: super::gpus::catalog().entries(),
                codes: super::codes::CodeTable::ALL.iter().map(|t| (t.id(), codes.entries(*t))).collect(),
            };
            if json {
                write_json(out, &dump)
            } else {
                text_dump(kb, &dump, out)
            }
        }
    }
}

fn query_error(e: QueryError) -> anyhow::Error {
    anyhow!(e)
}

/// Everything `kb dump` prints.
#[derive(Serialize)]
struct Dump<'a> {
    #[serde(flatten)]
    kb: &'a Kb,
    gpus: &'a [super::gpus::GpuEntry],
    codes: std::collections::BTreeMap<&'static str, &'a [super::codes::CodeEntry]>,
}

fn write_json<T: Serialize>(out: &mut dyn Write, v: &T) -> Result<()> {
    // An I/O error (a closed pipe) stays an io::Error, which main treats as a normal end.
    serde_json::to_writer_pretty(&mut *out, v).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// Numbered citations printed at the end of a text answer.
#[derive(Default)]
struct Citations {
    sources: Vec<Source>,
}

impl Citations {
    fn cite(&mut self, s: &Source) -> String {
        let n = match self.sources.iter().position(|x| x == s) {
            Some(i) => i + 1,
            None => {
                self.sources.push(s.clone());
                self.sources.len()
            }
        };
        format!("[{n}]")
    }

    fn write(&self, out: &mut dyn Write) -> Result<()> {
        if self.sources.is_empty() {
            return Ok(());
        }
        writeln!(out, "\nSources")?;
        for (i, s) in self.sources.iter().enumerate() {
            let tag = format!("[{}] ", i + 1);
            wrap(out, &format!("  {tag}"), &" ".repeat(2 + tag.len()), &s.document)?;
            // A URL cannot be wrapped: indent it less rather than pass the width.
            let indent = (2 + tag.len()).min(WIDTH.saturating_sub(s.url.chars().count()));
            writeln!(out, "{}{}", " ".repeat(indent), s.url)?;
        }
        Ok(())
    }
}

/// Writes `text` wrapped at [`WIDTH`] columns, the first line after `first`, the rest after `rest`.
fn wrap(out: &mut dyn Write, first: &str, rest: &str, text: &str) -> Result<()> {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            writeln!(out, "{line}")?;
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    writeln!(out, "{line}")?;
    Ok(())
}

/// Writes rows as aligned columns (the last column is not padded).
fn table(out: &mut dyn Write, indent: &str, rows: &[Vec<String>]) -> Result<()> {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for r in rows {
        let mut line = indent.to_string();
        for (c, cell) in r.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < r.len() {
                line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn ge(d: Option<&DriverVersion>) -> String {
    d.map_or_else(|| "not recorded".to_string(), |d| format!(">= {d}"))
}

fn unverified(c: Confidence) -> &'static str {
    if c.is_unverified() {
        " (unverified)"
    } else {
        ""
    }
}

fn disagreements<'a>(
    out: &mut dyn Write,
    cites: &mut Citations,
    sources: &'a std::collections::BTreeMap<String, Source>,
    ds: &'a [Disagreement],
) -> Result<()> {
    for d in ds {
        let c = sources.get(&d.source).map(|s| cites.cite(s)).unwrap_or_default();
        wrap(out, "    other source: ", "      ", &format!("{} = {} {c}: {}", d.field, d.value, d.note))?;
    }
    Ok(())
}

fn header(out: &mut dyn Write, title: &str, checked: &str) -> Result<()> {
    writeln!(out, "{title}  (cudoctor knowledge base, data of {checked})")?;
    Ok(())
}

fn text_cuda(kb: &Kb, a: &query::CudaAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    header(out, &format!("CUDA {}", a.cuda), a.data_checked)?;
    writeln!(out, "\nDriver of the toolkit (every feature)")?;
    let mut rows = vec![vec!["release".into(), "Linux".into(), "Windows".into(), "source".into()]];
    let mut notes = Vec::new();
    for r in &a.releases {
        let c = cites.cite(r.cited);
        rows.push(vec![
            format!("{}{}", r.row.label, unverified(r.row.confidence)),
            ge(r.row.linux.as_ref()),
            match (&r.row.windows, &r.row.windows_note) {
                (None, Some(n)) => n.split(" (").next().unwrap_or(n).to_string(),
                (w, _) => ge(w.as_ref()),
            },
            c,
        ]);
        if let Some(n) = &r.row.note {
            notes.push(format!("{}: {n}", r.row.label));
        }
        if let (None, Some(n)) = (&r.row.windows, &r.row.windows_note) {
            if !notes.iter().any(|x| x.starts_with("Windows: ")) {
                notes.push(format!("Windows: {n}"));
            }
        }
    }
    table(out, "  ", &rows)?;
    for n in notes {
        wrap(out, "  note: ", "    ", &n)?;
    }
    match &a.minor_compat {
        Some(m) => {
            let c = cites.cite(m.cited);
            writeln!(
                out,
                "\nMinimum driver with CUDA minor version compatibility (any {}.x toolkit)",
                m.row.major
            )?;
            writeln!(
                out,
                "  Linux {}   Windows {}   {c}",
                ge(Some(&m.row.linux)),
                ge(m.row.windows.as_ref())
            )?;
            wrap(
                out,
                "  ",
                "  ",
                "Runs with limited features: PTX newer than the driver cannot be JIT-compiled, and a few \
                 APIs return an error.",
            )?;
            if let Some(n) = &m.row.note {
                wrap(out, "  note: ", "    ", n)?;
            }
            disagreements(out, &mut cites, &kb.cuda.sources, &m.row.disagreement)?;
        }
        None => {
            writeln!(
                out,
                "\nNo minor version compatibility before CUDA 11: the toolkit driver is the minimum."
            )?;
        }
    }
    if let Some(fc) = &a.forward_compat {
        let c = cites.cite(fc.cited);
        writeln!(out, "\nOlder drivers: forward compatibility (Linux, data-center GPUs only)")?;
        let runs = fc.row.is_some_and(|r| !r.runs_on.is_empty());
        let what = match fc.row {
            Some(r) if !r.runs_on.is_empty() => format!(
                "{} runs on driver branches: {} (the compatibility guide's table) {c}",
                fc.package,
                r.runs_on.iter().map(|b| format!("R{b}")).collect::<Vec<_>>().join(", ")
            ),
            Some(_) => format!(
                "{}: no other supported driver branch in the compatibility guide's table (it is its own \
                 branch's CUDA) {c}",
                fc.package
            ),
            None => format!(
                "{}: not in the compatibility guide's current table (it lists {}; driver branches not \
                 listed there are end of life) {c}",
                fc.package,
                compat_span(kb)
            ),
        };
        wrap(out, "  ", "    ", &what)?;
        if runs {
            compat_scope(kb, out)?;
        }
    }
    writeln!(out, "\ncuDNN packages that list CUDA {}", a.cuda)?;
    if a.cudnn.is_empty() {
        writeln!(out, "  none recorded")?;
    }
    for c in &a.cudnn {
        let cite = cites.cite(c.cited);
        let covers = c.covers.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let package =
            c.build.package.clone().unwrap_or_else(|| format!("cuDNN {} (CUDA {})", c.cudnn, a.cuda));
        writeln!(out, "  {package}{}  {cite}", unverified(c.confidence))?;
        let linux = match (&c.build.linux, c.build.linux_branch) {
            (Some(l), _) => format!(">= {l}"),
            (None, Some(b)) => format!("r{b}"),
            (None, None) => "not recorded".into(),
        };
        let windows = match (&c.build.windows, &c.build.windows_note) {
            (None, Some(n)) => n.clone(),
            (w, _) => ge(w.as_ref()),
        };
        writeln!(out, "    matrix of {covers}; driver Linux {linux}, Windows {windows}")?;
        wrap(out, "    compute capabilities: ", "      ", &capabilities(c.build))?;
    }
    if let Some(w) = &a.cudnn_wheels {
        let c = cites.cite(w.cited);
        let vs = &w.row.versions;
        let (first, last) = (vs.first().map(ToString::to_string), vs.last().map(ToString::to_string));
        wrap(
            out,
            "  ",
            "    ",
            &format!(
                "pip wheels for CUDA {}.x: {} {} to {} ({} releases) {c}",
                w.row.cuda_major,
                w.row.package,
                first.unwrap_or_default(),
                last.unwrap_or_default(),
                vs.len()
            ),
        )?;
    } else {
        writeln!(out, "  pip wheels for CUDA {}.x: none published", a.cuda.major)?;
    }
    writeln!(out, "\nPyTorch builds with CUDA {} ({})", a.cuda, a.cuda.tag())?;
    if a.pytorch.is_empty() {
        writeln!(out, "  none recorded")?;
    } else {
        let mut rows =
            vec![vec!["torch".into(), "channel".into(), "cuDNN".into(), "NCCL".into(), "source".into()]];
        for p in &a.pytorch {
            rows.push(vec![
                format!("{}{}", p.torch, unverified(p.confidence)),
                channel(p.build),
                opt(p.build.cudnn.as_ref()),
                opt(p.build.nccl.as_ref()),
                cites.cite(p.cited),
            ]);
        }
        table(out, "  ", &rows)?;
        writeln!(
            out,
            "  install: pip install torch==<version> --index-url https://download.pytorch.org/whl/{}",
            a.cuda.tag()
        )?;
    }
    if !a.frameworks.is_empty() {
        writeln!(out, "\nOther frameworks built for CUDA {}", a.cuda)?;
        framework_rows(out, &mut cites, &a.frameworks)?;
    }
    cites.write(out)
}

/// `11.2 to 11.8` for a run of consecutive minors of one major, else the list.
fn cuda_list(cuda: &[super::tables::CudaSpec]) -> String {
    use super::tables::CudaSpec;
    let exact: Vec<CudaVersion> =
        cuda.iter().filter_map(|c| if let CudaSpec::Exact(v) = c { Some(*v) } else { None }).collect();
    let run = exact.len() == cuda.len()
        && exact.len() > 2
        && exact.windows(2).all(|w| w[1].major == w[0].major && w[1].minor == w[0].minor + 1);
    if run {
        return format!("{} to {}", exact[0], exact[exact.len() - 1]);
    }
    cuda.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

fn framework_rows(
    out: &mut dyn Write,
    cites: &mut Citations,
    builds: &[query::FrameworkForCuda<'_>],
) -> Result<()> {
    let mut rows = Vec::new();
    for f in builds {
        let b = f.build;
        let mut what = match (&b.versions, &b.version) {
            (Some(vs), _) => format!("{} {vs}", b.package),
            (None, _) if b.package.contains("==") => b.package.clone(),
            (None, Some(v)) => format!("{} {v}", b.package),
            (None, None) => b.package.clone(),
        };
        if b.platform == Platform::Windows {
            what.push_str(" (Windows)");
        }
        let mut needs = format!("CUDA {}", cuda_list(&b.cuda));
        if let Some(c) = &b.cudnn {
            needs.push_str(&format!(", cuDNN {c}"));
        }
        rows.push(vec![
            format!("{what}{}", unverified(b.confidence)),
            format!("{needs} {}", cites.cite(f.cited)),
        ]);
    }
    // One line per build when it fits, else the requirement on the next line.
    let widest = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    let longest = rows.iter().map(|r| r[1].chars().count()).max().unwrap_or(0);
    if 2 + widest + 2 + longest <= WIDTH {
        return table(out, "  ", &rows);
    }
    for r in rows {
        writeln!(out, "  {}", r[0])?;
        wrap(out, "    ", "      ", &r[1])?;
    }
    Ok(())
}

fn text_framework(a: &query::FrameworkAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    match &a.asked {
        Some(v) => writeln!(out, "{} {v}: GPU builds (data of {})", a.framework, a.data_checked)?,
        None => writeln!(out, "{}: GPU builds (data of {})", a.framework, a.data_checked)?,
    }
    for f in &a.builds {
        let b = f.build;
        let mut head = match &b.versions {
            Some(vs) => format!("{} {vs}", b.package),
            None => b.package.clone(),
        };
        if b.platform == Platform::Windows {
            head.push_str(" (native Windows)");
        }
        head.push_str(unverified(b.confidence));
        writeln!(out, "\n  {head}")?;
        let mut needs = Vec::new();
        for n in &f.needs {
            let mut s = format!("CUDA {}", n.cuda);
            match (&n.toolkit_driver, &n.minor_compat) {
                (Some(t), m) => {
                    if let Some(d) = &t.row.linux {
                        s.push_str(&format!(" (driver >= {d} {}", cites.cite(t.cited)));
                        if let Some(m) = m {
                            s.push_str(&format!(
                                ", or >= {} with minor version compatibility {}",
                                m.row.linux,
                                cites.cite(m.cited)
                            ));
                        }
                        s.push(')');
                    }
                }
                (None, Some(m)) => {
                    s.push_str(&format!(" (driver >= {} {})", m.row.linux, cites.cite(m.cited)));
                }
                (None, None) => {}
            }
            needs.push(s);
        }
        let mut line = needs.join("; ");
        if let Some(c) = &b.cudnn {
            line.push_str(&format!("; cuDNN {c}"));
        }
        if let Some(p) = &b.python {
            line.push_str(&format!("; Python {p}"));
        }
        line.push_str(&format!(" {}", cites.cite(f.cited)));
        wrap(out, "    ", "      ", &line)?;
        if b.compiler.is_some() || b.build_tools.is_some() {
            let tools: Vec<&str> =
                [b.compiler.as_deref(), b.build_tools.as_deref()].into_iter().flatten().collect();
            wrap(out, "    built with: ", "      ", &tools.join(", "))?;
        }
        if let Some(d) = &b.min_driver {
            wrap(out, "    the source's minimum driver: ", "      ", &format!(">= {d}"))?;
        }
        if let Some(i) = &b.install {
            writeln!(out, "    install: {i}")?;
        }
        if !b.requires.is_empty() {
            let cite = f.requires_cited.map(|s| cites.cite(s)).unwrap_or_default();
            wrap(out, "    wheel requires: ", "      ", &format!("{} {cite}", b.requires.join(", ")))?;
        }
        if let Some(n) = &b.note {
            wrap(out, "    note: ", "      ", n)?;
        }
        for d in &b.disagreement {
            wrap(out, "    another source: ", "      ", &format!("{} = {}: {}", d.field, d.value, d.note))?;
        }
    }
    cites.write(out)
}

/// `CUDA 12.6 Update 3`, `CUDA 10.1 GA`: Table 3's long labels made short for a table cell.
fn short_label(r: &super::tables::CudaRelease) -> String {
    match r.update {
        0 => format!("CUDA {} GA", r.version),
        n => format!("CUDA {} Update {n}", r.version),
    }
}

fn capabilities(b: &super::tables::CudnnBuild) -> String {
    if !b.compute_capabilities.is_empty() {
        let mut ccs = b.compute_capabilities.clone();
        ccs.sort();
        ccs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
    } else if let Some(min) = b.min_compute_capability {
        match b.max_compute_capability {
            Some(max) => format!("{min} to {max} (\"SM {min} and later\")"),
            None => format!("{min} and later"),
        }
    } else {
        "not recorded".into()
    }
}

fn opt<T: std::fmt::Display>(v: Option<&T>) -> String {
    v.map_or_else(|| "-".to_string(), ToString::to_string)
}

fn channel(b: &super::tables::TorchBuild) -> String {
    if query::is_experimental(b) {
        "experimental".into()
    } else {
        "stable".into()
    }
}

fn text_driver(kb: &Kb, a: &query::DriverAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    header(out, &format!("NVIDIA driver {} (Linux)", a.driver), a.data_checked)?;
    writeln!(out)?;
    match &a.newest_native {
        Some(r) => {
            let c = cites.cite(r.cited);
            wrap(
                out,
                "Newest CUDA it supports natively: ",
                "  ",
                &format!(
                    "{} (its toolkit driver is {}); nvidia-smi shows CUDA Version {} {c}",
                    r.row.label,
                    ge(r.row.linux.as_ref()),
                    r.row.version
                ),
            )?;
        }
        None => writeln!(
            out,
            "Older than every toolkit driver in the knowledge base: no CUDA version known to run."
        )?,
    }
    if let Some(b) = &a.branch {
        let c = cites.cite(b.cited);
        let mut s = match b.row.newest_cuda {
            Some(n) => format!("Branch R{}: newest CUDA {n} {c}", b.row.branch),
            None => format!("Branch R{}: newest CUDA not recorded", b.row.branch),
        };
        let lc =
            b.row.lifecycle_source.as_ref().and_then(|l| kb.drivers.sources.get(l)).map(|l| cites.cite(l));
        if b.row.designation.is_some() || b.row.end_of_life.is_some() {
            let mut l = String::from("; data-center");
            if let Some(d) = b.row.designation {
                l.push_str(&format!(" {}", d.label()));
            }
            if let Some(e) = &b.row.end_of_life {
                l.push_str(&format!(", end of life {e}"));
            }
            s.push_str(&l);
            if let Some(lc) = &lc {
                s.push_str(&format!(" {lc}"));
            }
        }
        if let Some(n) = &b.row.note {
            s.push_str(&format!("; {n}"));
            if b.row.designation.is_none() && b.row.end_of_life.is_none() {
                if let Some(lc) = &lc {
                    s.push_str(&format!(" {lc}"));
                }
            }
        }
        wrap(out, "", "  ", &s)?;
        disagreements(out, &mut cites, &kb.drivers.sources, &b.row.disagreement)?;
    }
    if a.newer_than_known {
        wrap(
            out,
            "",
            "  ",
            &format!(
                "This driver's branch is newer than any in this knowledge base (data of {}): it supports at \
                 least the CUDA versions below; which newer CUDA it supports is unknown here.",
                a.data_checked
            ),
        )?;
    }
    writeln!(out, "\nCUDA families")?;
    let mut rows = vec![vec!["family".into(), "runs on this driver".into(), "minor compat. minimum".into()]];
    for f in a.families.iter().rev() {
        let mc = f.minor_compat.as_ref().map(|m| (ge(Some(&m.row.linux)), cites.cite(m.cited)));
        let what = match f.support {
            FamilySupport::AllNative => format!("yes, natively up to {}", f.newest_known),
            FamilySupport::MinorCompat => match f.newest_native {
                Some(n) => format!("natively up to {n}, newer {}.x by minor compat.", f.major),
                None => format!("by minor version compatibility only (to {})", f.newest_known),
            },
            FamilySupport::UpToNewestNative => {
                format!("natively up to {} only; newer need a newer driver", opt(f.newest_native.as_ref()))
            }
            FamilySupport::None => "no".into(),
        };
        let needs = match &mc {
            Some((m, c)) => format!("{m} {c}"),
            None => "-".into(),
        };
        rows.push(vec![format!("CUDA {}.x", f.major), what, needs]);
    }
    table(out, "  ", &rows)?;
    if let Some(fc) = &a.forward_compat {
        let c = cites.cite(fc.cited);
        writeln!(out, "\nForward compatibility (Linux, data-center GPUs only)")?;
        let branch = a.driver.branch();
        let nfb =
            a.branch.as_ref().and_then(|b| b.row.designation) == Some(super::tables::Designation::NewFeature);
        let line = match (&fc.target, fc.packages.is_empty()) {
            (Some(_), false) => format!(
                "cuda-compat packages that run on R{branch}: {} (the compatibility guide's table) {c}",
                fc.packages.join(", ")
            ),
            (Some(t), true) => format!(
                "R{branch} is a target of the compatibility guide's table, paired with CUDA {}; no newer \
                 cuda-compat package is listed for it {c}",
                t.cuda
            ),
            (None, _) => format!(
                "R{branch} is not a target of the compatibility guide's table: branches not listed there are \
                 end of life and no cuda-compat package is supported on them {c}"
            ),
        };
        wrap(out, "  ", "    ", &line)?;
        if nfb && fc.target.is_some() {
            wrap(
                out,
                "  ",
                "    ",
                "Note: the guide also says New Feature Branches are not supported targets for forward \
                 compatibility, and this is one.",
            )?;
        }
        if !fc.packages.is_empty() {
            compat_scope(kb, out)?;
        }
    }
    writeln!(out, "\nPyTorch CUDA builds on this driver")?;
    let verdicts = [
        (Runs::Fully, "fully (driver >= the build's toolkit driver)"),
        (Runs::MinorCompat, "with minor version compatibility (no JIT of newer PTX)"),
        (Runs::No, "no: driver too old"),
        (Runs::Unknown, "unknown: toolkit driver not recorded"),
    ];
    for (runs, label) in verdicts {
        let builds: Vec<String> = a
            .pytorch
            .iter()
            .filter(|p| p.runs == runs)
            .map(|p| {
                format!(
                    "{}{}{}",
                    p.torch,
                    p.tag.replace("cu", "+cu"),
                    if p.confidence.is_unverified() { "?" } else { "" }
                )
            })
            .collect();
        if builds.is_empty() {
            continue;
        }
        writeln!(out, "  {label}:")?;
        wrap(out, "    ", "    ", &builds.join(" "))?;
    }
    if a.pytorch.iter().any(|p| p.confidence.is_unverified()) {
        writeln!(out, "  (? = release row unverified)")?;
    }
    wrap(
        out,
        "\n",
        "",
        "Driver numbers are Linux ones; Windows drivers are numbered differently. Run `cudoctor kb torch \
         <version>` for one release's builds and their drivers.",
    )?;
    cites.write(out)
}

/// `cuda-compat-12-2 to cuda-compat-13-4`: the packages of the guide's table.
fn compat_span(kb: &Kb) -> String {
    let m = &kb.cuda.forward_compat.matrix;
    match (m.iter().min_by_key(|p| p.cuda), m.iter().max_by_key(|p| p.cuda)) {
        (Some(a), Some(b)) => format!("{} to {}", a.name(), b.name()),
        _ => "no package".into(),
    }
}

/// Where the cuda-compat package works at all, and the error elsewhere.
fn compat_scope(kb: &Kb, out: &mut dyn Write) -> Result<()> {
    let fc = &kb.cuda.forward_compat;
    let mut s = format!("Only on: {}.", fc.applies_to.join(", "));
    if let Some(e) = fc.errors.iter().find(|e| e.code == 804) {
        s.push_str(&format!(" Elsewhere (GeForce and other GPUs) CUDA fails with {} ({}).", e.name, e.code));
    }
    wrap(out, "  ", "    ", &s)
}

fn text_torch(kb: &Kb, a: &query::TorchAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    let r = a.release.row;
    header(out, &format!("PyTorch {}", a.asked), a.data_checked)?;
    let c = cites.cite(a.release.cited);
    writeln!(out)?;
    if a.asked.parts().len() >= 3 || !a.asked.suffix().is_empty() {
        wrap(
            out,
            "",
            "  ",
            &format!("Release {} (patch releases share the CUDA builds of their minor). {c}", r.version),
        )?;
    } else {
        writeln!(out, "Release {} {c}", r.version)?;
    }
    if r.confidence.is_unverified() {
        wrap(out, "UNVERIFIED: ", "  ", r.note.as_deref().unwrap_or("not confirmed against its source"))?;
    } else if let Some(n) = &r.note {
        wrap(out, "note: ", "  ", n)?;
    }
    let sources = &kb.pytorch.sources;
    writeln!(
        out,
        "Python: {}{}",
        r.python.as_deref().unwrap_or("not recorded"),
        cite_id(&mut cites, sources, r.python_source.as_ref())
    )?;
    if !r.rocm.is_empty() {
        writeln!(
            out,
            "ROCm builds: {} (https://download.pytorch.org/whl/rocm<version>){}",
            r.rocm.join(", "),
            cite_id(&mut cites, sources, r.rocm_source.as_ref())
        )?;
    }
    for b in &a.builds {
        let t = b.build;
        writeln!(
            out,
            "\n{} ({}): CUDA {}{}",
            t.tag,
            channel(t),
            t.cuda_full.as_ref().map_or(b.cuda.to_string(), ToString::to_string),
            cite_id(&mut cites, sources, t.source.as_ref())
        )?;
        if let Some(n) = &t.note {
            wrap(out, "  note: ", "    ", n)?;
        }
        let pins = pins_cite(&mut cites, sources, t);
        let mut rows = Vec::new();
        rows.push(vec!["cuDNN".into(), opt(t.cudnn.as_ref()), pins.trim_start().to_string()]);
        rows.push(vec!["NCCL".into(), opt(t.nccl.as_ref()), String::new()]);
        match &b.toolkit {
            Some(tk) => rows.push(vec![
                "driver (toolkit)".into(),
                format!("Linux {}, Windows {}", ge(tk.row.linux.as_ref()), ge(tk.row.windows.as_ref())),
                format!("{} {}", short_label(tk.row), cites.cite(tk.cited)),
            ]),
            None => rows.push(vec!["driver (toolkit)".into(), "not recorded".into(), String::new()]),
        }
        match &b.minor_compat {
            Some(m) => rows.push(vec![
                "driver (minor compat.)".into(),
                format!("Linux {}, Windows {}", ge(Some(&m.row.linux)), ge(m.row.windows.as_ref())),
                format!("any CUDA {}.x {}", m.row.major, cites.cite(m.cited)),
            ]),
            None => {
                rows.push(vec!["driver (minor compat.)".into(), "none before CUDA 11".into(), String::new()])
            }
        }
        let arch = if t.arch_list.is_empty() {
            "not recorded".to_string()
        } else {
            let c = b.arch_cited.map(|s| cites.cite(s)).unwrap_or_default();
            format!("{} {c}", t.arch_list.iter().map(ToString::to_string).collect::<Vec<_>>().join(";"))
        };
        rows.push(vec!["TORCH_CUDA_ARCH_LIST".into(), arch, String::new()]);
        table(out, "  ", &rows)?;
        if let Some(n) = &t.arch_note {
            wrap(out, "  arch note: ", "    ", n)?;
        }
        disagreements(out, &mut cites, &kb.pytorch.sources, &t.disagreement)?;
        writeln!(out, "  install: {}", b.install)?;
        if let Some(p) = &b.pypi_install {
            writeln!(out, "       or: {p}   (PyPI's default torch is this build)")?;
        }
    }
    cites.write(out)
}

fn text_torch_tag(kb: &Kb, a: &query::TorchTagAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    header(out, &format!("PyTorch {} builds", a.tag), a.data_checked)?;
    writeln!(out)?;
    let first = a.releases.first().map_or(String::new(), |r| r.release.to_string());
    let last = a.releases.last().map_or(String::new(), |r| r.release.to_string());
    wrap(
        out,
        "",
        "  ",
        &format!(
            "CUDA {} wheels at {}, published for {} release{} ({first} to {last}).",
            a.cuda,
            a.index_url,
            a.releases.len(),
            if a.releases.len() == 1 { "" } else { "s" }
        ),
    )?;
    match &a.minor_compat {
        Some(m) => wrap(
            out,
            "",
            "  ",
            &format!(
                "Driver: the build's toolkit driver below for every feature; with minor version \
                 compatibility any driver from Linux {}, Windows {} runs it (no JIT of newer PTX) {}.",
                ge(Some(&m.row.linux)),
                ge(m.row.windows.as_ref()),
                cites.cite(m.cited)
            ),
        )?,
        None => writeln!(
            out,
            "Driver: the build's toolkit driver below (no minor version compatibility before CUDA 11)."
        )?,
    }
    writeln!(out)?;
    let sources = &kb.pytorch.sources;
    let mut rows = vec![vec![
        "release".to_string(),
        "channel".into(),
        "CUDA".into(),
        "driver Linux".into(),
        "Windows".into(),
        "cuDNN".into(),
        "NCCL".into(),
    ]];
    for r in &a.releases {
        let b = r.build;
        let (linux, windows) = match &r.toolkit {
            Some(t) => {
                (format!("{} {}", ge(t.row.linux.as_ref()), cites.cite(t.cited)), ge(t.row.windows.as_ref()))
            }
            None => ("not recorded".into(), String::new()),
        };
        let pins = pins_cite(&mut cites, sources, b);
        rows.push(vec![
            format!("{}{}", r.release, unverified(r.confidence)),
            channel(b),
            b.cuda_full.as_ref().map_or(a.cuda.to_string(), ToString::to_string),
            linux,
            windows,
            opt(b.cudnn.as_ref()),
            format!("{}{pins}", opt(b.nccl.as_ref())),
        ]);
    }
    table(out, "  ", &rows)?;
    writeln!(out)?;
    wrap(
        out,
        "",
        "  ",
        &format!(
            "Install one: pip install 'torch==<release>.*' --index-url {}. Run `cudoctor kb torch \
             <release>` for its other builds, Python versions and architecture list.",
            a.index_url
        ),
    )?;
    cites.write(out)
}

/// " [n]" for the source of a build's cuDNN/NCCL pins, where it has pins and they come from
/// another source than its row's.
fn pins_cite(
    cites: &mut Citations,
    sources: &std::collections::BTreeMap<String, Source>,
    b: &super::tables::TorchBuild,
) -> String {
    if b.cudnn.is_some() || b.nccl.is_some() {
        cite_id(cites, sources, b.pins_source.as_ref())
    } else {
        String::new()
    }
}

/// " [n]" for a field read from another source than its row's (by source id), or nothing.
fn cite_id(
    cites: &mut Citations,
    sources: &std::collections::BTreeMap<String, super::tables::Source>,
    id: Option<&String>,
) -> String {
    id.and_then(|id| sources.get(id)).map(|s| format!(" {}", cites.cite(s))).unwrap_or_default()
}

fn text_cudnn(kb: &Kb, a: &query::CudnnAnswer<'_>, out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    let r = a.release.row;
    header(out, &format!("cuDNN {}", a.asked), a.data_checked)?;
    writeln!(out)?;
    let c = cites.cite(a.release.cited);
    let covers = r.covers.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    match a.matched {
        CudnnMatch::Exact => writeln!(out, "Support matrix of {covers}{} {c}", unverified(r.confidence))?,
        CudnnMatch::SameMinor => wrap(
            out,
            "",
            "  ",
            &format!(
                "No support matrix of {} itself is recorded; below is the matrix of {covers}, the same minor \
                 release. {c}",
                a.asked
            ),
        )?,
        CudnnMatch::NearestOlder => wrap(
            out,
            "",
            "  ",
            &format!(
                "No support matrix of cuDNN {}.{} is recorded{}; below is the nearest older one, {covers}. \
                 Newer releases may add toolkits and GPUs and drop old ones. {c}",
                a.asked.major(),
                a.asked.minor(),
                if a.known_release { " (the release exists)" } else { "" }
            ),
        )?,
    }
    if let Some(n) = &r.note {
        wrap(out, "note: ", "  ", n)?;
    }
    if a.wheels.is_empty() {
        writeln!(out, "pip wheels: none of {} on PyPI", a.asked)?;
    }
    for w in &a.wheels {
        let c = cites.cite(w.cited);
        let vs = w.versions.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        wrap(out, "", "  ", &format!("pip wheel for CUDA {}.x: {}=={vs} {c}", w.cuda_major, w.package))?;
    }
    for b in &r.build {
        let cuda = b.cuda.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let name = b.package.clone().unwrap_or_else(|| format!("for CUDA {}.x", b.cuda_major().unwrap_or(0)));
        writeln!(out, "\n{name}")?;
        let linux = match (&b.linux, b.linux_branch) {
            (Some(l), _) => format!(">= {l}"),
            (None, Some(br)) => format!("r{br}"),
            (None, None) => "not recorded".into(),
        };
        let windows = match (&b.windows, &b.windows_note) {
            (Some(w), _) => format!(">= {w}"),
            (None, Some(n)) => n.clone(),
            (None, None) => "not recorded".into(),
        };
        let rows = vec![
            vec!["CUDA toolkits".into(), cuda],
            vec!["driver".into(), format!("Linux {linux}, Windows {windows}")],
            vec!["compute capabilities".into(), capabilities(b)],
        ];
        table(out, "  ", &rows)?;
        if let Some(n) = &b.note {
            wrap(out, "  note: ", "    ", n)?;
        }
    }
    if let Some(l) = &a.layout {
        let c = cites.cite(l.cited);
        let kind = match l.row.layout {
            super::tables::CudnnLayoutKind::Single => "one library",
            super::tables::CudnnLayoutKind::Split => "split into sub-libraries",
        };
        writeln!(out, "\nLayout of cuDNN {}: {kind}{} {c}", l.row.major, unverified(l.row.confidence))?;
        wrap(out, "  ", "  ", &l.row.sonames.join(" "))?;
        if let Some(n) = &l.row.note {
            wrap(out, "  note: ", "    ", n)?;
        }
    }
    if !a.pytorch.is_empty() {
        writeln!(out, "\nPyTorch builds that pin cuDNN {}.{}", a.asked.major(), a.asked.minor())?;
        let mut rows = Vec::new();
        for p in &a.pytorch {
            rows.push(vec![format!("torch {}", p.torch), p.tag.to_string(), format!("cuDNN {}", p.cudnn)]);
        }
        table(out, "  ", &rows)?;
        for p in &a.pytorch {
            disagreements(out, &mut cites, &kb.pytorch.sources, p.disagreement)?;
        }
    }
    if !a.frameworks.is_empty() {
        writeln!(out, "\nOther framework builds with cuDNN {}.{}", a.asked.major(), a.asked.minor())?;
        framework_rows(out, &mut cites, &a.frameworks)?;
    }
    cites.write(out)
}

fn text_dump(kb: &Kb, dump: &Dump<'_>, out: &mut dyn Write) -> Result<()> {
    header(out, "Knowledge base tables", &kb.meta.checked)?;
    let count_unverified =
        |it: &mut dyn Iterator<Item = Confidence>| it.filter(Confidence::is_unverified).count();
    let rows = vec![
        vec!["table".into(), "rows".into(), "unverified".into(), "file".into()],
        vec![
            "CUDA toolkit releases".into(),
            kb.cuda.release.len().to_string(),
            count_unverified(&mut kb.cuda.release.iter().map(|r| r.confidence)).to_string(),
            "data/cuda.toml".into(),
        ],
        vec![
            "minor version compatibility".into(),
            kb.cuda.minor_compat.len().to_string(),
            "0".into(),
            "data/cuda.toml".into(),
        ],
        vec![
            "driver branches".into(),
            kb.drivers.branch.len().to_string(),
            "0".into(),
            "data/drivers.toml".into(),
        ],
        vec![
            "cuDNN support matrices".into(),
            kb.cudnn.release.len().to_string(),
            count_unverified(&mut kb.cudnn.release.iter().map(|r| r.confidence)).to_string(),
            "data/cudnn.toml".into(),
        ],
        vec![
            "PyTorch releases".into(),
            kb.pytorch.release.len().to_string(),
            count_unverified(&mut kb.pytorch.release.iter().map(|r| r.confidence)).to_string(),
            "data/pytorch.toml".into(),
        ],
        vec![
            "other framework builds".into(),
            kb.frameworks.build.len().to_string(),
            count_unverified(&mut kb.frameworks.build.iter().map(|r| r.confidence)).to_string(),
            "data/frameworks.toml".into(),
        ],
        vec!["GPU products".into(), dump.gpus.len().to_string(), "0".into(), "data/gpus.toml".into()],
        vec![
            "error codes".into(),
            dump.codes.values().map(|c| c.len()).sum::<usize>().to_string(),
            "0".into(),
            "data/codes/*.toml".into(),
        ],
    ];
    writeln!(out)?;
    table(out, "  ", &rows)?;
    writeln!(out, "\nEvery row with its source: cudoctor kb dump --format json")?;
    Ok(())
}

fn text_gpus(kb: &Kb, found: &[&super::gpus::GpuEntry], out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    if found.len() > 1 {
        header(out, &format!("{} GPUs", found.len()), &kb.meta.checked)?;
        writeln!(out)?;
        let mut rows = vec![vec![
            "name".into(),
            "device ids".into(),
            "CC".into(),
            "architecture".into(),
            "segment".into(),
        ]];
        for g in found {
            rows.push(vec![
                g.name.clone(),
                device_ids(g),
                g.compute_capability.to_string(),
                g.architecture.name().into(),
                format!("{:?}", g.segment).to_lowercase(),
            ]);
        }
        table(out, "  ", &rows)?;
        writeln!(out, "\nOne of them in full: cudoctor kb gpu <device id or full name>")?;
        return Ok(());
    }
    let g = found[0];
    let cc = g.compute_capability;
    header(out, &g.name, &kb.meta.checked)?;
    writeln!(out)?;
    let mut rows = vec![
        vec!["PCI device ids".into(), device_ids(g), cites.cite(&g.source)],
        vec!["compute capability".into(), format!("{cc} ({})", cc.sm()), cites.cite(&g.capability_source)],
        vec!["architecture".into(), g.architecture.name().into(), String::new()],
        vec!["segment".into(), format!("{:?}", g.segment).to_lowercase(), String::new()],
    ];
    if let Some(m) = g.memory_gib {
        rows.push(vec!["memory".into(), format!("{m} GiB"), String::new()]);
    }
    if !g.other_names.is_empty() {
        rows.push(vec!["also reported as".into(), g.other_names.join(", "), String::new()]);
    }
    table(out, "  ", &rows)?;
    writeln!(out, "\ncuDNN support matrices that list compute capability {cc}")?;
    let mut rows = Vec::new();
    for r in kb.cudnn.release.iter().rev() {
        let majors: Vec<String> = r
            .build
            .iter()
            .filter(|b| b.supports_capability(cc))
            .map(|b| {
                let first = b.cuda.first().map(ToString::to_string).unwrap_or_default();
                let last = b.cuda.last().map(ToString::to_string).unwrap_or_default();
                if first == last {
                    format!("CUDA {first}")
                } else {
                    format!("CUDA {first}-{last}")
                }
            })
            .collect();
        let c = kb.cudnn.sources.get(&r.source).map(|s| cites.cite(s)).unwrap_or_default();
        let answer = if majors.is_empty() { "no".to_string() } else { format!("yes: {}", majors.join(", ")) };
        rows.push(vec![format!("cuDNN {}", r.version), answer, c]);
    }
    table(out, "  ", &rows)?;
    let with: Vec<String> = kb
        .pytorch
        .release
        .iter()
        .flat_map(|r| r.build.iter().map(move |b| (r, b)))
        .filter(|(_, b)| b.arch_list.iter().any(|a| a.capability == cc))
        .map(|(r, b)| format!("{}+{}", r.version, b.tag))
        .collect();
    let recorded =
        kb.pytorch.release.iter().flat_map(|r| &r.build).filter(|b| !b.arch_list.is_empty()).count();
    writeln!(
        out,
        "\nPyTorch release wheels with {} kernels (of the {recorded} builds whose arch list is recorded)",
        cc.sm()
    )?;
    wrap(out, "  ", "  ", &if with.is_empty() { "none".to_string() } else { with.join(" ") })?;
    cites.write(out)
}

fn device_ids(g: &super::gpus::GpuEntry) -> String {
    if g.device_ids.is_empty() {
        "none (integrated)".into()
    } else {
        g.device_ids.iter().map(|d| format!("0x{d:04X}")).collect::<Vec<_>>().join(" ")
    }
}

/// The known error signatures behind an answer, with their causes by category: the same table
/// `cudoctor explain` ranks with a machine's facts.
fn text_signatures(
    signatures: &[&crate::explain::Signature],
    after_codes: bool,
    out: &mut dyn Write,
) -> Result<()> {
    if signatures.is_empty() {
        return Ok(());
    }
    // A blank line parts it from the codes above; alone, it starts the output.
    if after_codes {
        writeln!(out)?;
    }
    writeln!(
        out,
        "Known errors with this code or text (`cudoctor explain` ranks their causes on this machine):"
    )?;
    for sig in signatures {
        writeln!(out, "  {} ({})", sig.title, sig.id)?;
        let causes: Vec<String> = sig.causes.iter().map(|c| c.category.to_string()).collect();
        let mut seen: Vec<String> = Vec::new();
        for c in causes {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        // Wrapped to stay within 100 columns.
        let mut line = String::from("    causes:");
        for (i, c) in seen.iter().enumerate() {
            let piece = if i + 1 < seen.len() { format!(" {c},") } else { format!(" {c}") };
            if line.len() + piece.len() > 100 {
                writeln!(out, "{line}")?;
                line = " ".repeat(11);
            }
            line.push_str(&piece);
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn text_codes(kb: &Kb, found: &[super::codes::CodeMatch<'_>], out: &mut dyn Write) -> Result<()> {
    let mut cites = Citations::default();
    header(
        out,
        &format!("{} matching error code{}", found.len(), if found.len() == 1 { "" } else { "s" }),
        &kb.meta.checked,
    )?;
    for m in found {
        let e = m.entry;
        let c = cites.cite(&e.source);
        writeln!(out, "\n{}: {} = {} {c}", m.table.title(), e.name, e.number)?;
        if !e.aliases.is_empty() {
            wrap(out, "  also named: ", "    ", &e.aliases.join(", "))?;
        }
        if e.deprecated {
            writeln!(out, "  deprecated")?;
        }
        wrap(out, "  ", "  ", &e.description)?;
        // cuDNN 9 renumbered its statuses (4 became 4000): say what the other numbering calls it.
        let other = match m.table {
            super::codes::CodeTable::Cudnn8 => Some(super::codes::CodeTable::Cudnn9),
            super::codes::CodeTable::Cudnn9 => Some(super::codes::CodeTable::Cudnn8),
            _ => None,
        };
        if let Some(other) = other {
            let codes = super::codes::tables();
            let same = codes.entries(other).iter().find(|o| o.name == e.name);
            let (this_era, other_era) =
                if m.table == super::codes::CodeTable::Cudnn8 { ("7/8", "9") } else { ("9", "7/8") };
            let line = match same {
                Some(o) => format!(
                    "In cuDNN {other_era} the same status is {} = {} (cuDNN 9 renumbered the statuses; \
                     the number in the message tells which cuDNN produced it).",
                    o.name, o.number
                ),
                None => format!("cuDNN {other_era} has no {} (a cuDNN {this_era} status only).", e.name),
            };
            wrap(out, "  ", "  ", &line)?;
            if m.table == super::codes::CodeTable::Cudnn8
                && !found.iter().any(|f| f.table == super::codes::CodeTable::Cudnn9)
            {
                let nine = codes.entries(super::codes::CodeTable::Cudnn9);
                let nonzero = nine.iter().map(|o| o.number).filter(|&n| n != 0);
                if let (None, Some(lo), Some(hi)) = (
                    codes.get(super::codes::CodeTable::Cudnn9, e.number),
                    nonzero.clone().min(),
                    nonzero.max(),
                ) {
                    wrap(
                        out,
                        "  ",
                        "  ",
                        &format!("cuDNN 9 has no status {}: its statuses are 0 and {lo} to {hi}.", e.number),
                    )?;
                }
            }
        }
    }
    if found.len() > 1 {
        wrap(
            out,
            "\n",
            "",
            "A bare number means different things in different libraries: the first match is the most \
             likely one; the library in the error message decides.",
        )?;
    }
    cites.write(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cudnn_versions_parse_every_form_people_paste() {
        assert_eq!(parse_cudnn("91900").unwrap().to_string(), "9.19.0");
        assert_eq!(parse_cudnn("8907").unwrap().to_string(), "8.9.7");
        assert_eq!(parse_cudnn("9.1.0.70").unwrap().to_string(), "9.1.0.70");
        assert!(parse_cudnn("abc").is_err());
        assert!(parse_cudnn("12").is_err());
        assert!(parse_cudnn("-1").is_err());
    }

    #[test]
    fn torch_versions_keep_their_local_tag_out_of_the_lookup() {
        let v = parse_torch("2.11.0+cu130").unwrap();
        assert_eq!(v.truncated(3).to_string(), "2.11.0");
        assert!(parse_torch("2").is_err());
        assert!(parse_torch("torch").is_err());
    }

    #[test]
    fn wrapped_text_never_passes_the_width() {
        let mut out = Vec::new();
        let long = "word ".repeat(80);
        wrap(&mut out, "  note: ", "    ", &long).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.lines().count() > 3);
        assert!(s.lines().all(|l| l.chars().count() <= WIDTH), "{s}");
    }
}
