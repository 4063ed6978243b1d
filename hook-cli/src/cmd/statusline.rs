//! `throughline statusline`: one short line for Claude Code's statusLine, from the JSON it
//! pipes in on every prompt render. It must be fast and must never show an error: on bad
//! input it prints nothing and exits 0.

use throughline::hosts::claude::{decode_status, StatusInput};
use throughline::model::short_tokens;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<()> {
    let Ok(payload) = throughline::payload::read(std::io::stdin()) else {
        return Ok(());
    };
    if let Some(input) = decode_status(&payload) {
        record_plan(&input);
        outln!("{}", line(&input))?;
    }
    Ok(())
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
