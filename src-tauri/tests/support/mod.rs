//! Stores for the app's tests, filled from real Claude Code transcripts the way
//! `throughline import` fills them.

use std::path::{Path, PathBuf};

use throughline_engine::capture::{capture_event, capture_transcript};
use throughline_engine::handoff::{self, Reply};
use throughline_engine::home::Home;

const FIXTURES: &str = "../hook-cli/tests/fixtures/claude-2.1.197/transcripts";
/// Shortly after the fixture sessions ran: both count as live.
pub const SOON_AFTER: &str = "2026-11-30T08:50:00.000Z";

/// The fixture transcripts, in a stable order.
pub fn transcripts() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(FIXTURES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
}

/// The session id a fixture transcript was recorded under.
pub fn session_id(transcript: &Path) -> String {
    transcript
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

/// Captures `transcript` into the store in `home` as session `id`.
pub fn capture(home: &Home, id: &str, transcript: &Path) {
    let mut store = throughline_engine::open_store(home).unwrap();
    capture_transcript(
        &mut store,
        throughline_engine::hosts::claude::HOST,
        id,
        transcript,
    )
    .unwrap();
}

/// The project's next new chat sends its first prompt, and the hook's library path answers it:
/// with a waiting handoff, that is an injection. `transcript` need not exist yet.
pub fn first_prompt_of_a_new_chat(home: &Home, id: &str, transcript: &Path) -> Option<Reply> {
    hook_of_a_new_chat(home, id, transcript, "UserPromptSubmit")
}

/// The project's next new chat starts: with a waiting handoff, the memory's first part.
pub fn start_of_a_new_chat(home: &Home, id: &str, transcript: &Path) -> Option<Reply> {
    hook_of_a_new_chat(home, id, transcript, "SessionStart")
}

fn hook_of_a_new_chat(home: &Home, id: &str, transcript: &Path, event: &str) -> Option<Reply> {
    let mut payload = serde_json::json!({
        "session_id": id,
        "transcript_path": transcript,
        "cwd": "/home/dev/toy",
        "hook_event_name": event,
    });
    match event {
        "SessionStart" => payload["source"] = "startup".into(),
        _ => payload["prompt"] = "carry on".into(),
    }
    hook(home, &payload)
}

/// Claude Code runs a hook with `payload`: the hook's library path captures it and answers.
pub fn hook(home: &Home, payload: &serde_json::Value) -> Option<Reply> {
    let event = throughline_engine::hosts::decode_hook(
        throughline_engine::hosts::claude::HOST,
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let mut store = throughline_engine::open_store(home).unwrap();
    capture_event(
        &mut store,
        throughline_engine::hosts::claude::HOST,
        &event,
        false,
    )
    .unwrap();
    handoff::respond(
        &mut store,
        home,
        &throughline_engine::config::load(home).config,
        &event,
        || None,
    )
    .unwrap()
}
