//! The `cudoctor` binary: parses flags, runs the command, maps the outcome to an exit code
//! (0 ok, 1 findings, 2 error; a closed pipe is not an error).

use clap::Parser;
use cudoctor::cli::{Cli, Command};
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Check(args) => cudoctor::cli::run_check(args, &mut out),
        Command::Kb(args) => cudoctor::kb::cli::run_kb(args, &mut out),
        Command::Inspect(args) => cudoctor::inspect::run(args, &mut out),
        Command::Explain(args) => cudoctor::explain::command::run_explain(args, &mut out),
    };
    let result = result.and_then(|()| out.flush().map_err(anyhow::Error::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().filter_map(|c| c.downcast_ref::<io::Error>()).any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}
