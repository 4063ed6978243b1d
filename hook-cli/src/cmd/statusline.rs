//! `throughline statusline`: one short line for Claude Code's statusLine, from the JSON it
//! pipes in on every prompt render. It must be fast and must never show an error: on bad
//! input it prints nothing and exits 0. With `--then`, the person's own statusline runs
//! instead of Throughline's line, given the same input; the plan usage is recorded all the same.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use throughline::hosts::claude::{decode_status, StatusInput};
use throughline::model::short_tokens;

#[derive(clap::Args)]
pub struct Args {
    /// The person's own statusline command (run by `sh -c`), shown instead of Throughline's
    #[arg(long, value_name = "COMMAND")]
    then: Option<String>,
}

/// How long the person's statusline may take: the client redraws the line on every prompt.
const THEIRS_TIMEOUT: Duration = Duration::from_secs(5);

pub fn run(args: Args) -> anyhow::Result<()> {
    let Ok(payload) = throughline::payload::read(std::io::stdin()) else {
        return Ok(());
    };
    let input = decode_status(&payload);
    if let Some(input) = &input {
        record_plan(input);
    }
    match (args.then, input) {
        (Some(theirs), _) => {
            let shown = run_theirs(&theirs, &payload);
            std::io::stdout().lock().write_all(&shown)?;
        }
        (None, Some(input)) => outln!("{}", line(&input))?,
        (None, None) => {}
    }
    Ok(())
}

/// What the person's own statusline prints for `payload`; nothing when it cannot run or
/// takes too long (it is killed then).
fn run_theirs(command: &str, payload: &[u8]) -> Vec<u8> {
    let Ok(mut child) = Command::new("sh")
        .args(["-c", command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    else {
        return Vec::new();
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A statusline that does not read its input must not block this write.
        let payload = payload.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&payload);
        });
    }
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let started = Instant::now();
    while matches!(child.try_wait(), Ok(None)) {
        if started.elapsed() > THEIRS_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Vec::new();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    reader.join().unwrap_or_default()
}

/// Keeps the plan usage the client reported for the app and `monitor`; a failure costs only
/// a log line, never the statusline.
fn record_plan(input: &StatusInput) {
    let Ok(home) = throughline::home::Home::locate() else {
        return;
    };
    if let Err(e) = throughline::plan::record(&home, &input.plan) {
        throughline::log::line(
            &home,
            "statusline",
            &format!("plan usage not recorded: {e}"),
        );
    }
}

fn line(input: &StatusInput) -> String {
    let store = super::open_for_reading().ok();
    let session = store
        .as_ref()
        .and_then(|s| s.session(&input.session_id).ok());
    let mut parts = vec!["throughline".to_string()];
    let window = input.window.map(short_tokens);
    match (input.used_percentage, &window) {
        (Some(used), Some(window)) => parts.push(format!("{used:.0}% of {window}")),
        _ => {
            // Before the client knows, the last request the store saw tells the context size.
            let used = store
                .as_ref()
                .zip(session.as_ref())
                .and_then(|(store, session)| store.context_usage(session).ok().flatten())
                .map(|(usage, _)| short_tokens(usage.context()));
            if let Some(used) = used {
                parts.push(match window {
                    Some(window) => format!("{used} of {window}"),
                    None => format!("{used} in context"),
                });
            }
        }
    }
    let turns = session.as_ref().map_or(0, |s| s.turns);
    parts.push(format!(
        "{turns} turn{} kept",
        if turns == 1 { "" } else { "s" }
    ));
    // A handoff offered from this session waits for the next new chat of the project.
    let waiting = store
        .as_ref()
        .zip(session.as_ref())
        .and_then(|(store, session)| {
            let project = session.project.as_deref()?;
            throughline::handoff::pending(store, project).ok().flatten()
        });
    if waiting.is_some_and(|h| Some(&h.session_id) == session.as_ref().map(|s| &s.session_id)) {
        parts.push("handoff ready".to_string());
    }
    parts.join(" · ")
}
