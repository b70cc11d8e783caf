//! Text rendering for a terminal: sections with aligned labels, each value followed by where it
//! was read (dimmed). Lines are kept within [`WIDTH`] columns where the value allows: a source
//! that does not fit goes onto its own line below the value. Colour only when asked for.

use super::sections::Section;
use std::io::{self, Write};

/// The width text output aims to fit.
pub const WIDTH: usize = 100;

/// ANSI styling, off unless enabled.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Whether escape codes are written.
    pub color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn bold(&self, t: &str) -> String {
        self.paint("1", t)
    }
    fn dim(&self, t: &str) -> String {
        self.paint("2", t)
    }
}

/// Writes sections as aligned text under a heading line.
pub fn write_sections(
    heading: &str,
    sections: &[Section],
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{}", style.bold(heading))?;
    for section in sections {
        writeln!(out)?;
        writeln!(out, "{}", style.bold(&section.title))?;
        let label_width = section.rows.iter().map(|r| r.label.chars().count()).max().unwrap_or(0).min(16);
        for row in &section.rows {
            let label = format!("{:<label_width$}", row.label);
            let indent = " ".repeat(label_width + 4);
            let lines = wrap(&shorten(&row.value), WIDTH.saturating_sub(label_width + 4).max(40));
            let last = lines.len() - 1;
            for (i, text) in lines.iter().enumerate() {
                let line = if i == 0 { format!("  {label}  {text}") } else { format!("{indent}{text}") };
                if i < last || row.source.is_empty() {
                    writeln!(out, "{line}")?;
                } else if line.chars().count() + row.source.chars().count() + 4 <= WIDTH {
                    writeln!(out, "{line}  {}", style.dim(&format!("← {}", row.source)))?;
                } else {
                    writeln!(out, "{line}")?;
                    writeln!(out, "{indent}{}", style.dim(&format!("← {}", row.source)))?;
                }
            }
        }
    }
    Ok(())
}

/// Values longer than this are cut in text output (JSON keeps them whole).
const MAX_VALUE: usize = 4 * WIDTH;

/// Breaks a value into lines of at most `width` characters at spaces; a word longer than the
/// width (a path) stays whole on its own line.
fn wrap(value: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in value.split(' ') {
        let current = lines.last_mut().expect("lines is never empty");
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
    }
    // A break after a double space ("13.1.0.3  /path") leaves a trailing space: drop it.
    for line in &mut lines {
        line.truncate(line.trim_end().len());
    }
    lines
}

fn shorten(value: &str) -> String {
    let count = value.chars().count();
    if count <= MAX_VALUE {
        return value.to_string();
    }
    let kept: String = value.chars().take(MAX_VALUE - 40).collect();
    format!("{kept}… ({} more characters in --format json)", count - (MAX_VALUE - 40))
}
