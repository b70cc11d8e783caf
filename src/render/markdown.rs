//! Markdown rendering, to paste into a bug report: one table per section, the whole report in a
//! collapsible block so that it does not flood an issue thread.

use super::sections::Section;
use std::io::{self, Write};

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Writes sections as Markdown tables under a heading.
pub fn write_sections(heading: &str, sections: &[Section], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "<details><summary>{}</summary>", cell(heading))?;
    for section in sections {
        writeln!(out)?;
        writeln!(out, "### {}", section.title)?;
        writeln!(out)?;
        writeln!(out, "| | | source |")?;
        writeln!(out, "|---|---|---|")?;
        for row in &section.rows {
            let source =
                if row.source.is_empty() { String::new() } else { format!("`{}`", cell(&row.source)) };
            writeln!(out, "| {} | {} | {} |", cell(&row.label), cell(&row.value), source)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "</details>")
}
