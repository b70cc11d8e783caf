//! Rendering: turns a [`crate::report::Report`] into text, JSON or Markdown. Renderers write to an
//! injected `&mut dyn Write` and never print directly.

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

/// Writes the report as pretty JSON.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
