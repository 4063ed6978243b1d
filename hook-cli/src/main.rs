//! `throughline`: the headless hook CLI.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    // `throughline show | head`: once the reader is gone, what is left to print has nowhere
    // to go. `print!` panics on that; it is a normal end, not a failure.
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report_panic(info);
    }));
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
