//! `throughline`: the headless hook CLI.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(err) => {
            // `throughline show | head`: once the reader is gone, what is left to print has
            // nowhere to go. That is a normal end, not a failure.
            let reader_gone = err.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if reader_gone {
                return ExitCode::SUCCESS;
            }
            eprintln!("throughline: {err:#}");
            ExitCode::FAILURE
        }
    }
}
