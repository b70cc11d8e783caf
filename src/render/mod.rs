//! Rendering: turns a [`Report`] into text, JSON or Markdown. Renderers write to an injected
//! `&mut dyn Write` and never print directly; the text and Markdown forms are drawn from the same
//! [`sections::Section`] layout so they always agree.

pub mod markdown;
pub mod redact;
pub mod sections;
pub mod text;

use crate::report::Report;
use std::io::{self, Write};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Grouped, aligned text for a terminal.
    Text,
    /// The report as JSON (see docs/report-schema.md).
    Json,
    /// Markdown to paste into a bug report.
    Markdown,
}

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Output format.
    pub format: Format,
    /// ANSI colour in text output.
    pub color: bool,
}

/// The heading line of a check.
pub fn heading(report: &Report) -> String {
    let mode = if report.live { "live" } else { "files only" };
    format!("cudoctor {} — check of {} ({mode})", report.cudoctor_version, report.root)
}

/// Writes a report in the chosen format.
pub fn report(report: &Report, options: Options, out: &mut dyn Write) -> io::Result<()> {
    match options.format {
        Format::Json => json(report, out),
        Format::Text => text::write_sections(
            &heading(report),
            &sections::sections(report),
            text::Style { color: options.color },
            out,
        ),
        Format::Markdown => markdown::write_sections(&heading(report), &sections::sections(report), out),
    }
}

/// Writes the report as pretty JSON.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
