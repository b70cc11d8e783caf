//! Command-line interface: raw flags (validated only, by clap) and the commands they run.
//! Each command turns its flags into settings (which may do I/O), runs, and renders to the given
//! writer; `main.rs` only maps the result to an exit code.

use crate::render::Format;
use crate::system::System;
use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Finds, explains and fixes the NVIDIA GPU stack under PyTorch, TensorFlow, JAX and friends.
#[derive(Debug, Parser)]
#[command(name = "cudoctor", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find every part of the GPU stack: driver, GPUs, CUDA toolkits and libraries, cuDNN, and
    /// the GPU builds of PyTorch, TensorFlow, JAX, CuPy, ONNX Runtime and Paddle.
    ///
    /// Nothing is imported and nothing is changed: versions are read from files (version
    /// headers, package databases, wheel metadata), and live facts from NVML and libcuda. Every
    /// fact says where it was read.
    ///
    /// Examples:
    ///   cudoctor check                      this machine
    ///   cudoctor check --format markdown    to paste into a bug report (add --redact)
    ///   cudoctor check --root /mnt/image    a mounted image or a copied machine
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),

    /// Look up the knowledge base: which driver a CUDA toolkit or PyTorch build needs, which
    /// cuDNN goes with which CUDA, what a driver runs. Every answer names its public source.
    ///
    /// Examples:
    ///   cudoctor kb cuda 12.4             drivers, cuDNN and framework builds for CUDA 12.4
    ///   cudoctor kb driver 535.104.05     what this driver runs (CUDA, PyTorch builds)
    ///   cudoctor kb torch 2.4.1           builds, cuDNN/NCCL pins, arch lists, drivers, pip command
    ///   cudoctor kb torch cu118           every release of a CUDA build and the driver it needs
    ///   cudoctor kb cudnn 8.9.7           toolkits, drivers, GPUs, sonames of a cuDNN release
    ///   cudoctor kb gpu H200              device ids, compute capability, cuDNN/PyTorch coverage
    ///   cudoctor kb error 4000            what an error number or name means, in every library
    ///   cudoctor kb dump --format json    every table, for scripts
    #[command(verbatim_doc_comment)]
    Kb(crate::kb::cli::KbArgs),
    /// Show which library files a program or shared library really loads here, and which GPU
    /// architectures its CUDA kernels were built for.
    ///
    /// For every DT_NEEDED library (and what cuDNN and the CUDA runtime dlopen by name) it
    /// follows glibc's search order: the RPATH of the requesting library and of those that
    /// loaded it (only when the requester has no RUNPATH), LD_LIBRARY_PATH, the requester's
    /// RUNPATH, /etc/ld.so.cache, the default directories. Each library is shown with the file
    /// found and the step that found it, or every place searched. Nothing is loaded.
    ///
    /// The .nv_fatbin section is read header by header (no decompression): cubins per sm_XX
    /// (with `a`/`f` variants), PTX, and whether a GPU of a given capability gets native
    /// kernels, PTX JIT, or "no kernel image is available".
    ///
    /// Examples:
    ///   cudoctor inspect $(python -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib/libtorch_cuda.so
    ///   cudoctor inspect --gpu 8.6 ./libmyop.so
    ///   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu cudoctor inspect …/nvidia/cudnn/lib/libcudnn.so.9
    ///   cudoctor inspect --root /mnt/image --env-file image.env /usr/lib/x86_64-linux-gnu/libcudnn.so.9
    #[command(verbatim_doc_comment)]
    Inspect(crate::inspect::InspectArgs),
    /// Explain a CUDA/cuDNN/framework error: a message, a log file (plain or gzip) or
    /// standard input, matched against known error signatures; the candidate causes are
    /// ranked with this machine's facts. Text that no signature knows is answered by the
    /// words it uses, marked "unrecognised" (a guess: which fixes real reports with the same
    /// words needed, and a keyword table), but only where trouble is written or a short title
    /// asks about the GPU stack ("GPU becomes unavailable after computer wakes up"): a run
    /// that worked, nvidia-smi or collect_env output get "No known GPU/CUDA error was found".
    /// A pasted text that is (part of) a real report cudoctor knows, or that report's title,
    /// names that report's thread and the fix it confirmed. A log that cannot be this
    /// machine's (another GPU, driver, Python or site-packages directory; a library missing in
    /// a `docker run` the log shows; an issue's Markdown or a person's "I have tried…") is
    /// ranked on its text alone, and the output says why: to rank with this machine, pass the
    /// log itself. `cudoctor kb error TEXT` shows what the signature table knows.
    ///
    /// Examples:
    ///   cudoctor explain "CUDNN_STATUS_INTERNAL_ERROR"
    ///   python train.py 2>&1 | cudoctor explain -
    ///   cudoctor explain --no-check train.log.gz        rank on the text alone
    ///   cudoctor explain --report other.json train.log  rank with another machine's report
    #[command(verbatim_doc_comment)]
    Explain(crate::explain::command::ExplainArgs),
}

/// Flags of `cudoctor check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Check the machine under DIR (a mounted image, a container's rootfs, a copied tree)
    /// instead of this one. Nothing live is touched: no NVML, no libcuda, no subprocess.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// With --root: read the checked machine's environment variables from FILE (KEY=VALUE
    /// lines, as `env` prints them). Without it, a --root check sees no environment.
    #[arg(long, value_name = "FILE", requires = "root")]
    pub env_file: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Hide user names, host names, home directories, serial numbers and GPU UUIDs, so the
    /// report can be pasted into a public issue.
    #[arg(long)]
    pub redact: bool,

    /// Do not touch the live machine: no NVML, no libcuda, no subprocess. Files only.
    #[arg(long)]
    pub no_live: bool,
}

/// Builds the `System` a command looks at from `--root`, `--env-file` and `--no-live`.
pub fn system_for(root: Option<&PathBuf>, env_file: Option<&PathBuf>, no_live: bool) -> Result<System> {
    match root {
        None => Ok(System::current(!no_live)),
        Some(root) => {
            let meta = fs_err::metadata(root).with_context(|| format!("--root {}", root.display()))?;
            if !meta.is_dir() {
                bail!("--root {}: expected a directory, found a file", root.display());
            }
            if let Some(warning) = root_warning(root) {
                eprintln!("warning: {warning}");
            }
            let env = match env_file {
                Some(file) => parse_env_file(&fs_err::read_to_string(file)?),
                None => BTreeMap::new(),
            };
            Ok(System::at_root(root, env))
        }
    }
}

/// The top-level directories a machine's root holds; a `--root` with none of them is almost
/// always one level off (a fixture directory, or the parent of a container's rootfs).
const ROOT_MARKERS: [&str; 5] = ["usr", "etc", "proc", "sys", "dev"];

/// Why `root` does not look like the root of a machine's file system, or `None` when it does.
/// A check of such a root still runs, but finds nothing, so the user is told why, and pointed at
/// the one subdirectory that does look like a root, if there is one.
pub fn root_warning(root: &Path) -> Option<String> {
    let looks_like_root = |dir: &Path| ROOT_MARKERS.iter().any(|m| dir.join(m).is_dir());
    if looks_like_root(root) {
        return None;
    }
    let inner = fs_err::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|p| p.is_dir() && looks_like_root(p))
        .min();
    let hint = match inner {
        Some(p) => format!("; did you mean --root {}?", p.display()),
        None => String::new(),
    };
    Some(format!(
        "--root {} holds none of /usr, /etc, /proc, /sys, /dev, so the check will find little \
         there{hint}",
        root.display()
    ))
}

/// Parses `KEY=VALUE` lines (`env` output, or a Dockerfile-like `.env`); blank lines, comments
/// and lines without `=` are skipped.
pub fn parse_env_file(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let l = l.strip_prefix("export ").unwrap_or(l);
            let (k, v) = l.split_once('=')?;
            let v = v.trim();
            let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v);
            Some((k.trim().to_string(), v.to_string()))
        })
        .collect()
}

/// Runs `cudoctor check`.
pub fn run_check(args: &CheckArgs, out: &mut dyn Write) -> Result<()> {
    let sys = system_for(args.root.as_ref(), args.env_file.as_ref(), args.no_live)?;
    let mut report = crate::probe::check(&sys);
    crate::annotate::annotate(&mut report);
    if args.redact {
        report = crate::render::redact::redact(&report, sys.env("USER").or(sys.env("LOGNAME")));
    }
    let color = args.format == Format::Text && color_wanted();
    crate::render::report(&report, crate::render::Options { format: args.format, color }, out)?;
    Ok(())
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (<https://no-color.org>). This is
/// about the terminal of the person running cudoctor, so it reads this process's environment.
fn color_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_files_accept_env_output_and_dotenv_lines() {
        let env = parse_env_file("A=1\n# c\nexport B=\"two words\"\n\nnoequals\nC=x=y\n");
        assert_eq!(env["A"], "1");
        assert_eq!(env["B"], "two words");
        assert_eq!(env["C"], "x=y");
        assert_eq!(env.len(), 3);
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
