//! Cursor hook payloads (stdin JSON) as Cursor documents them (`cursor.com/docs/hooks`): a
//! common part on every event (`conversation_id`, `generation_id`, `model`,
//! `hook_event_name`, `cursor_version`, `workspace_roots`, `user_email`, `transcript_path`)
//! and each event's own fields, under camelCase event names. Cursor also runs the hooks in
//! Claude Code's settings, mapping their event names to its own; the payload those get is
//! not documented, so Claude's event names and `session_id` are read too.

use std::path::Path;

use serde::Deserialize;

use throughline_core::record::{EventKind, HookEvent, Reply, SubagentRef};

#[derive(Deserialize)]
struct Payload {
    /// "Stable ID of the conversation across many turns".
    #[serde(default)]
    conversation_id: Option<String>,
    /// sessionStart and sessionEnd: "same as `conversation_id`".
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    hook_event_name: String,
    /// Null when the person turned transcripts off.
    #[serde(default)]
    transcript_path: Option<String>,
    #[serde(default)]
    workspace_roots: Option<Vec<String>>,
    /// Tool events: where the tool ran.
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    model: Option<String>,
    /// sessionEnd: `completed`, `aborted`, `error`, `window_close`, `user_close`.
    #[serde(default)]
    reason: Option<String>,
    /// subagentStop: the subagent's own transcript.
    #[serde(default)]
    agent_transcript_path: Option<String>,
}

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p: Payload = crate::payload_json(bytes, "Cursor")?;
    let session_id = [p.conversation_id, p.session_id]
        .into_iter()
        .flatten()
        .find(|id| !id.is_empty())
        .ok_or("hook payload has no conversation_id")?;
    // The workspace is the project; a tool's cwd may be a folder inside it.
    let cwd = p
        .workspace_roots
        .and_then(|roots| roots.into_iter().find(|r| !r.is_empty()))
        .or(p.cwd.filter(|c| !c.is_empty()));
    // The Task tool's subagent ended: its transcript is read into this conversation, whose
    // `transcript_path` is documented as the main one. Its file's name is all that names it.
    let subagent = p
        .agent_transcript_path
        .filter(|path| !path.is_empty() && p.hook_event_name == "subagentStop")
        .and_then(|path| {
            let agent_id = Path::new(&path).file_stem()?.to_string_lossy().into_owned();
            Some(SubagentRef {
                agent_id,
                transcript_path: Some(path),
            })
        });
    Ok(HookEvent {
        host: super::HOST,
        kind: kind(&p.hook_event_name),
        session_id,
        transcript_path: p.transcript_path.filter(|t| !t.is_empty()),
        cwd,
        // A new chat is all sessionStart tells: no `/clear`, no resume.
        source: None,
        reason: p.reason,
        prompt_id: None,
        prompt: p.prompt,
        model: p.model.filter(|m| !m.is_empty()),
        subagent,
        trigger: None,
        answer: None,
    })
}

/// Cursor's event names, and the Claude Code names its third-party hooks map to them.
fn kind(name: &str) -> EventKind {
    match name {
        "sessionStart" | "SessionStart" => EventKind::SessionStart,
        "beforeSubmitPrompt" | "UserPromptSubmit" => EventKind::UserPrompt,
        "preToolUse" | "PreToolUse" => EventKind::PreTool,
        "postToolUse" | "postToolUseFailure" | "PostToolUse" | "PostToolUseFailure" => {
            EventKind::PostTool
        }
        "stop" | "Stop" => EventKind::Stop,
        "preCompact" | "PreCompact" => EventKind::PreCompact,
        "sessionEnd" | "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    }
}

/// Whether `payload` carries Cursor's `cursor_version` field, which Cursor documents on every
/// hook's input and no other host sends. A byte scan: the payload is not parsed twice.
pub fn has_cursor_version(payload: &[u8]) -> bool {
    const KEY: &[u8] = b"\"cursor_version\"";
    let mut from = 0;
    while let Some(at) = memchr::memmem::find(&payload[from..], KEY).map(|i| i + from) {
        from = at + KEY.len();
        // A quote escaped inside a string is preceded by an odd run of backslashes.
        let backslashes = payload[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        let after = payload[from..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .copied();
        // Only an object's key is followed by a colon.
        if backslashes % 2 == 0 && after == Some(b':') {
            return true;
        }
    }
    false
}

/// sessionStart's `additional_context` is added to the conversation's initial system
/// context; beforeSubmitPrompt can only let the prompt through or stop it (`continue`, with
/// `user_message` shown to the person) and cannot add context.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    let value = match (event, reply) {
        (EventKind::SessionStart, Reply::Inject(text)) => {
            serde_json::json!({ "additional_context": text })
        }
        (EventKind::UserPrompt, Reply::Block(reason)) => {
            serde_json::json!({ "continue": false, "user_message": reason })
        }
        _ => return None,
    };
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/cursor");

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!("{FIXTURES}/hooks/{name}.json")).unwrap()
    }

    fn sample(name: &str) -> HookEvent {
        decode_hook(&fixture(name)).unwrap()
    }

    #[test]
    fn the_documented_payloads_decode() {
        let start = sample("01-sessionStart");
        assert_eq!(start.kind, EventKind::SessionStart);
        assert_eq!(start.host, crate::cursor::HOST);
        assert_eq!(start.session_id, "c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10");
        assert_eq!(start.cwd.as_deref(), Some("/home/dev/proj"));
        assert_eq!(start.source, None);
        let prompt = sample("02-beforeSubmitPrompt");
        assert_eq!(prompt.kind, EventKind::UserPrompt);
        assert_eq!(prompt.prompt.as_deref(), Some("add a --verbose flag"));
        assert_eq!(prompt.model.as_deref(), Some("claude-sonnet-4-20250514"));
        assert!(prompt.transcript_path.unwrap().ends_with(
            "agent-transcripts/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10.jsonl"
        ));
        let tool = sample("03-postToolUse");
        assert_eq!(tool.kind, EventKind::PostTool);
        // The workspace, not the folder the tool ran in, is the project.
        assert_eq!(tool.cwd.as_deref(), Some("/home/dev/proj"));
        assert_eq!(sample("04-stop").kind, EventKind::Stop);
        let end = sample("05-sessionEnd");
        assert_eq!(end.kind, EventKind::SessionEnd);
        assert_eq!(end.reason.as_deref(), Some("user_close"));
    }

    #[test]
    fn a_subagent_stop_names_the_subagent_by_its_transcript() {
        let stop = sample("06-subagentStop");
        // Not the conversation's turn ending: its transcript is read, nothing more.
        assert_eq!(stop.kind, EventKind::Other);
        assert_eq!(stop.session_id, "c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10");
        let subagent = stop.subagent.unwrap();
        assert_eq!(subagent.agent_id, "0a1b2c3d-sub");
        assert!(subagent.transcript_path.unwrap().ends_with(
            "agent-transcripts/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10/subagents/0a1b2c3d-sub.jsonl"
        ));
        // The field on another event, or an empty one, names no subagent.
        for payload in [
            br#"{"conversation_id":"c","hook_event_name":"stop","agent_transcript_path":"/t/s.jsonl"}"#
                .as_slice(),
            br#"{"conversation_id":"c","hook_event_name":"subagentStop","agent_transcript_path":""}"#,
            br#"{"conversation_id":"c","hook_event_name":"subagentStop"}"#,
        ] {
            assert_eq!(decode_hook(payload).unwrap().subagent, None);
        }
    }

    #[test]
    fn claude_event_names_and_a_null_transcript_are_read() {
        let e = decode_hook(
            br#"{"conversation_id":"c","hook_event_name":"UserPromptSubmit","prompt":"hi",
                 "transcript_path":null,"workspace_roots":[],"cwd":"/w","cursor_version":"2.1.0"}"#,
        )
        .unwrap();
        assert_eq!(e.kind, EventKind::UserPrompt);
        assert_eq!(e.transcript_path, None);
        assert_eq!(e.cwd.as_deref(), Some("/w"));
        let e =
            decode_hook(br#"{"session_id":"s","hook_event_name":"afterAgentThought"}"#).unwrap();
        assert_eq!((e.session_id.as_str(), e.kind), ("s", EventKind::Other));
    }

    #[test]
    fn garbage_is_refused_with_what_it_is() {
        assert!(decode_hook(b"").unwrap_err().contains("empty"));
        assert!(decode_hook(b"[1]")
            .unwrap_err()
            .contains("not the JSON Cursor sends"));
        assert!(
            decode_hook(br#"{"conversation_id":"","hook_event_name":"stop"}"#)
                .unwrap_err()
                .contains("no conversation_id")
        );
    }

    #[test]
    fn only_a_cursor_version_key_marks_a_cursor_payload() {
        for name in ["01-sessionStart", "02-beforeSubmitPrompt", "04-stop"] {
            assert!(has_cursor_version(&fixture(name)), "{name}");
        }
        assert!(has_cursor_version(
            br#"{"a":1, "cursor_version" : "1.7.2"}"#
        ));
        // The words in a prompt, or a value, are not the key.
        assert!(!has_cursor_version(
            br#"{"session_id":"s","prompt":"what is \"cursor_version\": here?"}"#
        ));
        assert!(!has_cursor_version(br#"{"prompt":"cursor_version"}"#));
        assert!(!has_cursor_version(br#"{"x":"a\\\"cursor_version\":1"}"#));
        assert!(has_cursor_version(br#"{"x":"a\\","cursor_version":"1"}"#));
        // What the other hosts really sent.
        for host in ["claude-2.1.197", "codex-0.171.0", "gemini-cli-0.61.0"] {
            let dir = format!(
                "{}/../tests/fixtures/{host}/hooks",
                env!("CARGO_MANIFEST_DIR")
            );
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                assert!(
                    !has_cursor_version(&std::fs::read(&path).unwrap()),
                    "{path:?}"
                );
            }
        }
    }

    #[test]
    fn replies_are_what_cursor_reads() {
        let inject = encode_reply(EventKind::SessionStart, &Reply::Inject("m".into())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&inject).unwrap();
        assert_eq!(v, serde_json::json!({"additional_context": "m"}));
        let block = encode_reply(EventKind::UserPrompt, &Reply::Block("no".into())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&block).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"continue": false, "user_message": "no"})
        );
        // A prompt hook's output has no field for context.
        assert_eq!(
            encode_reply(EventKind::UserPrompt, &Reply::Inject("m".into())),
            None
        );
    }
}
