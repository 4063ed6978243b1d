//! `throughline demo`: a recorded Claude Code session ships inside the binary; replaying its
//! hook calls into a temporary memory shows the whole product without an agent or an API key.
//! The hook calls go through the same decoding and capture as the real `hook` verb.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use crate::capture;
use crate::handoff::{self, Reply};
use crate::home::Home;
use crate::hosts;

/// Five prompts with Read, Bash, Edit, Write, a failing command and thinking (Claude Code
/// 2.1.197); the test suite reads the same file.
pub const SAMPLE_TRANSCRIPT: &str = include_str!(
    "../../tests/fixtures/claude-2.1.197/transcripts/f839b538-b1ae-45df-beaa-8b044d1f240c.jsonl"
);
pub const SAMPLE_SESSION: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";
const SAMPLE_CWD: &str = "/home/dev/toy";

/// The session that follows the sample's `/clear` in the replay.
pub const NEXT_SESSION: &str = "demo-next-session";

/// What a replay produced.
pub struct Replay {
    pub home: Home,
    /// The hook events fired, in order.
    pub fired: Vec<&'static str>,
    /// What the session after `/clear` received.
    pub memory: Option<String>,
}

/// Replays the sample session into a memory under `dir`, appending the transcript line by
/// line and firing the hook event Claude Code fires after each line, then a `/clear` into a
/// new session. Hooks go through the same capture and handoff code as the real `hook` verb.
pub fn replay(dir: &Path) -> Result<Replay, String> {
    let home = Home::at(dir.join("memory"));
    let transcript = dir
        .join("transcripts")
        .join(format!("{SAMPLE_SESSION}.jsonl"));
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    fs::create_dir_all(transcript.parent().unwrap_or(dir)).map_err(|e| fail(&e))?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&transcript)
        .map_err(|e| fail(&e))?;
    let mut store = crate::open_store(&home).map_err(|e| fail(&e))?;
    let config = crate::config::load(&home).config;
    let mut fired = Vec::new();
    let mut memory = None;
    let mut fire = |session: &str, event: &'static str, extra: Value| -> Result<(), String> {
        let mut payload = json!({
            "session_id": session,
            "transcript_path": transcript,
            "cwd": SAMPLE_CWD,
            "hook_event_name": event,
        });
        if let (Some(payload), Value::Object(extra)) = (payload.as_object_mut(), extra) {
            payload.extend(extra);
        }
        let decoded =
            hosts::decode_hook(crate::hosts::claude::HOST, payload.to_string().as_bytes())?;
        capture::capture_event(&mut store, crate::hosts::claude::HOST, &decoded, false)
            .map_err(|e| fail(&e))?;
        if let Some(Reply::Inject(text)) =
            handoff::respond(&mut store, &home, &config, &decoded, || None).map_err(|e| fail(&e))?
        {
            // After /clear the memory may come in two parts, the second with the first prompt.
            memory = Some(match memory.take() {
                Some(first) => format!("{first}\n{text}"),
                None => text,
            });
        }
        fired.push(event);
        Ok(())
    };
    fire(
        SAMPLE_SESSION,
        "SessionStart",
        json!({ "source": "startup" }),
    )?;
    for line in SAMPLE_TRANSCRIPT.lines() {
        file.write_all(line.as_bytes())
            .and_then(|_| file.write_all(b"\n"))
            .map_err(|e| fail(&e))?;
        if let Some(event) = event_after(line) {
            fire(SAMPLE_SESSION, event, json!({}))?;
        }
    }
    let clear = json!({ "reason": "clear", "source": "clear", "prompt_id": "demo-clear" });
    fire(SAMPLE_SESSION, "SessionEnd", clear.clone())?;
    fire(NEXT_SESSION, "SessionStart", clear)?;
    fire(
        NEXT_SESSION,
        "UserPromptSubmit",
        json!({ "prompt": "Where were we?" }),
    )?;
    Ok(Replay {
        home,
        fired,
        memory,
    })
}

/// The hook Claude Code fires once it has written `line`.
fn event_after(line: &str) -> Option<&'static str> {
    let entry: Value = serde_json::from_str(line).ok()?;
    let content = &entry["message"]["content"];
    let has_block = |kind: &str| {
        content
            .as_array()
            .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == kind))
    };
    match entry["type"].as_str()? {
        "user" if content.is_string() => Some("UserPromptSubmit"),
        "user" if has_block("tool_result") => Some(if entry["toolUseResult"].is_string() {
            // A failed tool's result is its error text; Claude Code fires the failure event.
            "PostToolUseFailure"
        } else {
            "PostToolUse"
        }),
        "assistant" if has_block("tool_use") => Some("PreToolUse"),
        "system" if entry["subtype"] == "turn_duration" => Some("Stop"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_fires_the_hooks_of_the_recorded_session() {
        let dir = tempfile::tempdir().unwrap();
        let Replay {
            home,
            fired,
            memory,
        } = replay(dir.path()).unwrap();
        let count = |e: &str| fired.iter().filter(|f| **f == e).count();
        assert_eq!(
            count("SessionStart"),
            2,
            "the start, and the one after /clear"
        );
        assert_eq!(
            count("UserPromptSubmit"),
            6,
            "five prompts, and the first after /clear"
        );
        assert_eq!(count("Stop"), 5);
        assert_eq!(
            count("PreToolUse"),
            count("PostToolUse") + count("PostToolUseFailure")
        );
        assert_eq!(count("PostToolUseFailure"), 1);
        let store = crate::store::Store::open_read_only(&home).unwrap();
        let session = store.session(SAMPLE_SESSION).unwrap();
        assert_eq!(session.turns, 5);
        let memory = memory.expect("the session after /clear receives the memory");
        assert!(memory.contains("What happens with a missing file?"));
    }
}
