//! The `cudoctor explain` command: flags, input resolution (argument, file, stdin, gzip), the
//! machine facts to rank with (this machine, a saved report, or none), and rendering.

use super::{explain, render, scan, table, ExplainReport, ScanOptions};
use crate::render::Format;
use crate::report::Report;
use anyhow::{Context, Result};
use clap::Args;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// Flags of `cudoctor explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The error message itself, a log file (plain or .gz), or `-` for standard input (the
    /// default when nothing is given). One word that reads as a path (`./run.log`, `/tmp/x.txt`)
    /// and does not exist is an error, not a message.
    #[arg(value_name = "TEXT|FILE|-")]
    pub input: Option<String>,

    /// Rank the causes on the message alone: do not look at this machine.
    #[arg(long, conflicts_with = "report")]
    pub no_check: bool,

    /// Rank the causes with another machine's facts: a report saved with
    /// `cudoctor check --format json > FILE`.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Where the text comes from.
enum Source {
    Stdin,
    File(PathBuf),
    Text(String),
}

/// What the argument is: standard input, a file, or the message itself; an error for one meant
/// as a file that is not one ([`not_a_file`]).
fn resolve_source(input: Option<&str>) -> Result<Source> {
    Ok(match input {
        None | Some("-") => Source::Stdin,
        Some(s) if !s.contains('\n') && s.len() < 4096 && Path::new(s).is_file() => {
            Source::File(PathBuf::from(s))
        }
        Some(s) => match not_a_file(s) {
            Some(problem) => anyhow::bail!(problem),
            None => Source::Text(s.to_string()),
        },
    })
}

/// An argument meant as a file that is not one: a directory, or one word that reads as a path
/// (`./train.log`, `~/logs/run.txt`, `/tmp/out.err`, `run.log.gz`) and does not exist. Explaining
/// it as a message would answer "no known error" for a typo in the file name.
fn not_a_file(arg: &str) -> Option<String> {
    if arg.contains(char::is_whitespace) || arg.len() >= 4096 {
        return None;
    }
    let path = Path::new(arg);
    if path.is_dir() {
        return Some(format!("{arg} is a directory: give a log file inside it, or `-` for standard input"));
    }
    let rooted = ["/", "./", "../", "~/"].iter().any(|p| arg.starts_with(p));
    let named = [".log", ".txt", ".out", ".err", ".gz"].iter().any(|e| arg.to_ascii_lowercase().ends_with(e));
    (!path.exists() && (rooted || named)).then(|| {
        format!("no such file: {arg} (to explain a message rather than a file, pass its text: quote it)")
    })
}

/// Wraps a reader so that gzip input is decompressed (detected by its magic bytes).
fn maybe_gunzip<'a>(mut reader: impl Read + 'a) -> io::Result<Box<dyn Read + 'a>> {
    let mut head = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match reader.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let whole = io::Cursor::new(head[..got].to_vec()).chain(reader);
    if got == 2 && head == [0x1f, 0x8b] {
        Ok(Box::new(flate2::read::MultiGzDecoder::new(whole)))
    } else {
        Ok(Box::new(whole))
    }
}

fn load_report(path: &Path) -> Result<Report> {
    let text = fs_err::read_to_string(path)?;
    serde_json::from_str(&text)
        .with_context(|| format!("--report {}: not a cudoctor check JSON report", path.display()))
}

/// Runs `cudoctor explain`.
pub fn run_explain(args: &ExplainArgs, out: &mut dyn Write) -> Result<()> {
    let source = resolve_source(args.input.as_deref())?;
    let (report, facts) = if args.no_check {
        (None, "the message alone (--no-check)".to_string())
    } else if let Some(path) = &args.report {
        (Some(load_report(path)?), format!("the report {}", path.display()))
    } else {
        let sys = crate::system::System::current(true);
        (Some(crate::probe::check(&sys)), "this machine's facts".to_string())
    };
    let t = table();
    let (result, input) = match source {
        Source::Text(text) => (scan::scan_bytes(text.as_bytes(), t), "the message".to_string()),
        Source::Stdin => {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                eprintln!("cudoctor explain: reading the error text from standard input (end with Ctrl-D)");
            }
            let reader = maybe_gunzip(stdin.lock())?;
            (
                scan(reader, t, ScanOptions::default()).context("reading standard input")?,
                "standard input".into(),
            )
        }
        Source::File(path) => {
            let file = fs_err::File::open(&path)?;
            let size = file.metadata().map(|m| m.len()).unwrap_or(0);
            let reader = maybe_gunzip(io::BufReader::with_capacity(1 << 16, file))?;
            let show = io::stderr().is_terminal() && size >= 256 << 20;
            let mut report_progress = |bytes: u64| {
                if show {
                    eprint!("\rcudoctor explain: {} MiB read of {} MiB (file size)", bytes >> 20, size >> 20);
                }
            };
            let opts = ScanOptions { progress: Some(&mut report_progress) };
            let result = scan(reader, t, opts).with_context(|| format!("reading {}", path.display()))?;
            if show {
                eprintln!();
            }
            (result, path.display().to_string())
        }
    };
    let errors = explain(&result, report.as_ref());
    let doc =
        ExplainReport { schema_version: 1, input, lines: result.lines, bytes: result.bytes, facts, errors };
    match args.format {
        Format::Json => render::json(&doc, out)?,
        Format::Text => render::text(&doc, out)?,
        Format::Markdown => render::markdown(&doc, out)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_detected_by_its_magic_bytes() {
        use flate2::write::GzEncoder;
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"hello\nRuntimeError: No CUDA GPUs are available\n").unwrap();
        let gz = enc.finish().unwrap();
        let mut text = String::new();
        maybe_gunzip(&gz[..]).unwrap().read_to_string(&mut text).unwrap();
        assert!(text.contains("No CUDA GPUs"));
        let mut plain = String::new();
        maybe_gunzip(&b"x"[..]).unwrap().read_to_string(&mut plain).unwrap();
        assert_eq!(plain, "x");
    }

    #[test]
    fn arguments_that_are_not_files_are_messages() {
        assert!(matches!(resolve_source(None), Ok(Source::Stdin)));
        assert!(matches!(resolve_source(Some("-")), Ok(Source::Stdin)));
        assert!(matches!(resolve_source(Some("CUDNN_STATUS_INTERNAL_ERROR")), Ok(Source::Text(_))));
        assert!(matches!(resolve_source(Some("Cargo.toml")), Ok(Source::File(_))));
        assert!(resolve_source(Some("./trian.log")).is_err());
    }

    #[test]
    fn a_missing_file_or_a_directory_is_not_explained_as_a_message() {
        for arg in ["./trian.log", "/tmp/no/such/run.txt", "train.log.gz", "~/logs/x", "RUN.LOG"] {
            assert!(not_a_file(arg).is_some_and(|p| p.contains("no such file")), "{arg}");
        }
        assert!(not_a_file("src").is_some_and(|p| p.contains("directory")));
        // Messages, also one-word ones, and files that exist, go on.
        for arg in ["CUDNN_STATUS_INTERNAL_ERROR", "libcudart.so.11.0", "Cargo.toml", "a /b c.log", "-"] {
            assert_eq!(not_a_file(arg), None, "{arg}");
        }
    }
}
