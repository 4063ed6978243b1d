//! `throughline-summarize` (what `throughline summarize` runs): asks the summary backend chosen
//! in `config.json` for the one-liners of the turns that left their session's verbatim window.
//! A hook starts it detached with `--background` when a batch is due. With no backend it does
//! nothing. A program of its own so that the CLI every hook starts links no HTTP client
//! (docs/decisions/0057).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use throughline::home::Home;
use throughline::summarize::{self, Stop};

#[derive(Parser)]
#[command(
    name = "throughline summarize",
    version,
    about = "Ask the summary backend for the one-liners of older turns"
)]
struct Args {
    /// Started by a hook: print nothing, log a failure to throughline.log
    #[arg(long, hide = true)]
    background: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(code) => code,
        Err(err) if throughline::reader_gone(err.as_ref()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("throughline: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> anyhow::Result<ExitCode> {
    let home = Home::locate()?;
    let outcome = summarize::run(&home);
    if args.background {
        let problem = match &outcome {
            Ok(run) if run.stop == Stop::Failed => run.calls.last().and_then(|c| c.error.clone()),
            Ok(_) => None,
            Err(e) => Some(e.clone()),
        };
        if let Some(problem) = problem {
            throughline::log::line(&home, "summarize", &problem);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let run = outcome.map_err(anyhow::Error::msg)?;
    // Written, not printed: a closed pipe is an error `main` recognises, not a panic.
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&run)?)?;
    } else {
        for call in &run.calls {
            writeln!(
                out,
                "{} {}:{}: {} of {} turns got a line, {} tokens in, {} out{}",
                call.at,
                call.backend,
                call.model,
                call.lines,
                call.turns,
                call.input_tokens,
                call.output_tokens,
                call.error
                    .as_ref()
                    .map(|e| format!("; failed: {e}"))
                    .unwrap_or_default()
            )?;
        }
        writeln!(
            out,
            "{}",
            match run.stop {
                Stop::Off => "no summary backend is set (summary_backend in `throughline config`); \
                     the local summarizer writes every one-liner",
                Stop::Busy => "another `throughline summarize` is running",
                Stop::Done => "every turn that left its verbatim window has a one-liner by the model",
                Stop::Cap => "today's summary_daily_calls are used up; the next run is tomorrow (UTC)",
                Stop::Failed =>
                    "the request failed: its turns keep their local one-liner and are not asked again",
            }
        )?;
    }
    Ok(if run.stop == Stop::Failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
