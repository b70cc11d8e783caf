//! Rendering of an [`ExplainReport`] as text, Markdown or JSON, into an injected writer.

use super::fallback::UNRECOGNISED;
use super::{ExplainReport, Explanation};
use std::io::{self, Write};

/// How many causes are shown per error in text and Markdown (JSON has them all).
const SHOWN_CAUSES: usize = 3;

fn percent(score: f64) -> String {
    format!("{:.0}%", (score * 100.0).round())
}

/// Writes the report as pretty JSON.
pub fn json(report: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}

fn summary(report: &ExplainReport) -> String {
    let n = report.errors.iter().filter(|e| e.signature != UNRECOGNISED).count();
    let errors = match n {
        0 if !report.errors.is_empty() => "No known error (a guess from the words)".to_string(),
        1 => "1 known error".to_string(),
        n => format!("{n} known errors"),
    };
    format!("{errors} in {} ({} lines); causes ranked with {}", report.input, report.lines, report.facts)
}

/// What to say when no error was found: an empty input is most often a pipe that carried only
/// standard output (the errors go to standard error), which the user can fix at once.
fn nothing_found(report: &ExplainReport) -> &'static str {
    if report.bytes == 0 {
        "The input was empty: nothing to explain. Errors are written to standard error, so pipe both \
         (`python train.py 2>&1 | cudoctor explain -`), or pass a log file or the message itself."
    } else {
        "No known GPU/CUDA error was found. `cudoctor kb error TEXT` searches the signature table."
    }
}

/// Writes the report as text for a terminal.
pub fn text(report: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", summary(report))?;
    if report.errors.is_empty() {
        writeln!(out, "\n{}", nothing_found(report))?;
        return Ok(());
    }
    if report.errors.len() > 1 {
        writeln!(out, "The first error is usually the cause; later ones are often its consequences.")?;
    }
    for (i, e) in report.errors.iter().enumerate() {
        text_error(i + 1, e, out)?;
    }
    Ok(())
}

fn text_error(n: usize, e: &Explanation, out: &mut dyn Write) -> io::Result<()> {
    let times = if e.count > 1 { format!(", {} times", e.count) } else { String::new() };
    let kind = if e.warning { "warning: " } else { "" };
    writeln!(out, "\n[{n}] {kind}{}  (line {}{times}; {})", e.title, e.first_line, e.signature)?;
    writeln!(out, "    > {}", e.line.trim())?;
    if let Some(code) = &e.code {
        writeln!(out, "    code: {code}")?;
    }
    writeln!(out, "    What it means: {}", e.meaning)?;
    if let Some(why) = &e.facts_not_used {
        writeln!(out, "    Ranked on the text alone: {why}.")?;
    }
    writeln!(out, "    Likely causes:")?;
    for (i, c) in e.causes.iter().take(SHOWN_CAUSES).enumerate() {
        writeln!(out, "    {}. {} ({}): {}", i + 1, c.category, percent(c.score), c.why)?;
        for f in &c.facts {
            writeln!(out, "       because {f}")?;
        }
        for f in &c.against {
            writeln!(out, "       though {f}")?;
        }
        writeln!(out, "       fix: {}", c.fix)?;
    }
    if e.causes.len() > SHOWN_CAUSES {
        let rest: Vec<String> = e.causes[SHOWN_CAUSES..]
            .iter()
            .map(|c| format!("{} ({})", c.category, percent(c.score)))
            .collect();
        writeln!(out, "    Less likely: {}", rest.join(", "))?;
    }
    for k in &e.known_reports {
        writeln!(out, "    Known report like this one ({}): {}", likeness(k), k.url)?;
        writeln!(out, "       {} there; fixed by: {}", k.category, k.fix)?;
    }
    writeln!(out, "    Source: {}", e.source)
}

/// How a known report is like the text: its title, or the share of the wording they hold.
fn likeness(k: &super::known::KnownMatch) -> String {
    if k.by_title {
        "same title, word for word".to_string()
    } else {
        format!("{} alike", percent(k.similarity))
    }
}

/// Writes the report as Markdown, to paste into an issue.
pub fn markdown(report: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## cudoctor explain\n\n{}", summary(report))?;
    if report.errors.is_empty() {
        writeln!(out, "\n{}", nothing_found(report))?;
    }
    for (i, e) in report.errors.iter().enumerate() {
        let times = if e.count > 1 { format!(", {} times", e.count) } else { String::new() };
        writeln!(out, "\n### {}. {}\n", i + 1, e.title)?;
        writeln!(out, "Line {}{times} (`{}`):\n\n```\n{}\n```\n", e.first_line, e.signature, e.line.trim())?;
        if let Some(code) = &e.code {
            writeln!(out, "Code: {code}\n")?;
        }
        writeln!(out, "{}\n", e.meaning)?;
        if let Some(why) = &e.facts_not_used {
            writeln!(out, "Ranked on the text alone: {why}.\n")?;
        }
        writeln!(out, "| # | Cause | Likelihood | Why | Fix |\n|---|---|---|---|---|")?;
        for (j, c) in e.causes.iter().take(SHOWN_CAUSES).enumerate() {
            let mut why = c.why.clone();
            if !c.facts.is_empty() {
                why.push_str(&format!(" Here: {}.", c.facts.join("; ")));
            }
            if !c.against.is_empty() {
                why.push_str(&format!(" Against: {}.", c.against.join("; ")));
            }
            writeln!(
                out,
                "| {} | `{}` | {} | {} | {} |",
                j + 1,
                c.category,
                percent(c.score),
                why.replace('|', "\\|"),
                c.fix.replace('|', "\\|")
            )?;
        }
        if !e.known_reports.is_empty() {
            writeln!(out, "\nKnown reports like this one:\n")?;
            for k in &e.known_reports {
                writeln!(
                    out,
                    "- <{}> ({}, `{}`): {}",
                    k.url,
                    likeness(k),
                    k.category,
                    k.fix.replace('|', "\\|")
                )?;
            }
        }
        if e.source.starts_with("https://") {
            writeln!(out, "\nSource: <{}>", e.source)?;
        } else {
            writeln!(out, "\nSource: {}", e.source)?;
        }
    }
    Ok(())
}
