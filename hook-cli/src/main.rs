//! `throughline`: the headless hook CLI.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    match cli.run() {
        Ok(code) => code,
        Err(err) => {
            if throughline::reader_gone(err.as_ref()) {
                return ExitCode::SUCCESS;
            }
            eprintln!("throughline: {err:#}");
            ExitCode::FAILURE
        }
    }
}
