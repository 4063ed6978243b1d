//! `throughline`: the headless hook CLI.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(err) => {
            // Broken pipe (e.g. `throughline show | head`) is not an error worth reporting.
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("throughline: {err:#}");
            ExitCode::FAILURE
        }
    }
}
