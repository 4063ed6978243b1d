//! Claude Code hook payloads (stdin JSON). Only the fields Throughline uses are decoded;
//! unknown events and fields are accepted, so a newer client never breaks the hook.

use serde::Deserialize;

use crate::model::Host;
use crate::record::Reply;
use crate::record::{EventKind, HookEvent};

#[derive(Deserialize)]
struct Payload {
    session_id: String,
    #[serde(default)]
    transcript_path: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    hook_event_name: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    prompt_id: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    model: Option<String>,
}

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("empty hook payload on stdin".into());
    }
    let p: Payload = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "hook payload is not the JSON Claude Code sends ({e}); starts with {:?}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
        )
    })?;
    if p.session_id.is_empty() {
        return Err("hook payload has an empty session_id".into());
    }
    let kind = match p.hook_event_name.as_str() {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPrompt,
        "PreToolUse" => EventKind::PreTool,
        "PostToolUse" | "PostToolUseFailure" => EventKind::PostTool,
        "Stop" | "SubagentStop" => EventKind::Stop,
        "PreCompact" => EventKind::PreCompact,
        "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    };
    Ok(HookEvent {
        host: Host::Claude,
        kind,
        session_id: p.session_id,
        transcript_path: p.transcript_path.filter(|p| !p.is_empty()),
        cwd: p.cwd.filter(|c| !c.is_empty()),
        source: p.source,
        reason: p.reason,
        prompt_id: p.prompt_id,
        prompt: p.prompt,
        model: p.model.filter(|m| !m.is_empty()),
    })
}

/// What Claude Code reads from a hook's stdout: context for the model, or a blocked prompt
/// with the reason shown to the person.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    let name = match event {
        EventKind::SessionStart => "SessionStart",
        EventKind::UserPrompt => "UserPromptSubmit",
        _ => return None,
    };
    let value = match reply {
        Reply::Inject(text) => serde_json::json!({
            "hookSpecificOutput": {"hookEventName": name, "additionalContext": text}
        }),
        Reply::Block(reason) if event == EventKind::UserPrompt => {
            serde_json::json!({"decision": "block", "reason": reason})
        }
        Reply::Block(_) => return None,
    };
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_session_end_with_its_prompt_id() {
        let e = decode_hook(
            br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","prompt_id":"p9",
                 "hook_event_name":"SessionEnd","reason":"clear"}"#,
        )
        .unwrap();
        assert_eq!(e.kind, EventKind::SessionEnd);
        assert_eq!(e.reason.as_deref(), Some("clear"));
        assert_eq!(e.prompt_id.as_deref(), Some("p9"));
    }

    #[test]
    fn unknown_events_and_fields_are_accepted() {
        let e =
            decode_hook(br#"{"session_id":"s","hook_event_name":"Brand New","x":[1]}"#).unwrap();
        assert_eq!(e.kind, EventKind::Other);
    }

    #[test]
    fn garbage_is_a_clear_error() {
        assert!(decode_hook(b"").unwrap_err().contains("empty"));
        assert!(decode_hook(b"\xff\xfe nope")
            .unwrap_err()
            .contains("not the JSON"));
        assert!(decode_hook(br#"{"hook_event_name":"Stop"}"#).is_err());
    }
}
