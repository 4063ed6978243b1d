//! Codex hook payloads (stdin JSON): the shared envelope (`hosts/envelope.rs`) with a
//! `turn_id` and no `prompt_id`, under Claude Code's event names. Hooks run inside a subagent
//! too, with the session's id, the subagent's `agent_id` and its rollout as
//! `transcript_path`.

use throughline_core::record::{EventKind, HookEvent, Reply, SubagentRef};

use crate::envelope::Envelope;

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p = Envelope::parse(bytes, super::HOST)?;
    let kind = match p.hook_event_name.as_str() {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPrompt,
        "PreToolUse" => EventKind::PreTool,
        "PostToolUse" => EventKind::PostTool,
        "Stop" | "SubagentStop" => EventKind::Stop,
        "PreCompact" => EventKind::PreCompact,
        "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    };
    let named = |id: &Option<String>| id.clone().filter(|id| !id.is_empty());
    let stopped = p.hook_event_name == "SubagentStop";
    if named(&p.agent_id).is_some() && !stopped {
        // Inside a subagent: its prompt is not the person's, and its rollout is not the
        // session's. Its SubagentStop reads it into the turn that started it.
        return Ok(HookEvent {
            transcript_path: None,
            prompt: None,
            prompt_id: None,
            ..p.event(super::HOST, EventKind::Other, None)
        });
    }
    let subagent = named(&p.agent_id).map(|agent_id| SubagentRef {
        agent_id,
        transcript_path: named(&p.agent_transcript_path),
    });
    Ok(HookEvent {
        prompt_id: None,
        ..p.event(super::HOST, kind, subagent)
    })
}

/// Codex reads a hook's answer in Claude Code's form, except at PreCompact: there it takes
/// only `continue`, `stopReason`, `systemMessage` and `suppressOutput` (0.171.0), and a
/// Claude-style `decision: "block"` is invalid output, so the compaction runs anyway. A
/// `continue: false` stops it by interrupting the turn, and the TUI shows the `stopReason`
/// under "Hook stopped".
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    match (event, reply) {
        (EventKind::PreCompact, Reply::Block(reason)) => {
            Some(serde_json::json!({"continue": false, "stopReason": reason}).to_string())
        }
        (EventKind::PreCompact, _) => None,
        _ => crate::claude::encode_reply(event, reply),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/codex-0.171.0"
    );

    fn sample(name: &str) -> HookEvent {
        let bytes = std::fs::read(format!("{SAMPLES}/hooks/{name}.json")).unwrap();
        decode_hook(&bytes).unwrap()
    }

    #[test]
    fn the_payloads_codex_sent_decode() {
        let start = sample("01-SessionStart");
        assert_eq!(start.kind, EventKind::SessionStart);
        assert_eq!(start.host, crate::codex::HOST);
        assert_eq!(start.source.as_deref(), Some("startup"));
        assert_eq!(start.model.as_deref(), Some("gpt-5"));
        assert!(start
            .transcript_path
            .unwrap()
            .ends_with("rollout-2026-11-30T08-51-10-01a22ba6-a25c-7110-8548-5c0daa3cbefe.jsonl"));
        let prompt = sample("02-UserPromptSubmit");
        assert_eq!(prompt.kind, EventKind::UserPrompt);
        assert_eq!(
            prompt.prompt.as_deref(),
            Some("please RUNLS in this folder")
        );
        assert_eq!(prompt.cwd.as_deref(), Some("/home/dev/proj"));
        assert_eq!(sample("03-PostToolUse").kind, EventKind::PostTool);
        assert_eq!(sample("04-Stop").kind, EventKind::Stop);
        assert_eq!(sample("05-SessionStart").source.as_deref(), Some("resume"));
    }

    /// Payloads Codex 0.171.0 sent for a subagent's prompt and its SubagentStop.
    #[test]
    fn a_subagent_s_hooks_name_it_and_only_its_stop_is_read() {
        let inside = decode_hook(
            br#"{"session_id":"s1","turn_id":"t2","transcript_path":"/c/rollout-x-a1.jsonl",
                "cwd":"/p","hook_event_name":"UserPromptSubmit","model":"gpt-5",
                "permission_mode":"bypassPermissions","agent_id":"a1","agent_type":"default",
                "prompt":"Investigate the lexer"}"#,
        )
        .unwrap();
        assert_eq!(inside.kind, EventKind::Other);
        assert_eq!(inside.prompt, None);
        assert_eq!(inside.transcript_path, None);
        assert_eq!(inside.session_id, "s1");
        let stop = decode_hook(
            br#"{"session_id":"s1","turn_id":"t2","transcript_path":"/c/rollout-x-s1.jsonl",
                "cwd":"/p","hook_event_name":"SubagentStop","agent_id":"a1",
                "agent_type":"default","agent_transcript_path":"/c/rollout-x-a1.jsonl",
                "last_assistant_message":"Found it.","stop_hook_active":false}"#,
        )
        .unwrap();
        assert_eq!(stop.kind, EventKind::Stop);
        assert_eq!(
            stop.transcript_path.as_deref(),
            Some("/c/rollout-x-s1.jsonl")
        );
        assert_eq!(
            stop.subagent,
            Some(SubagentRef {
                agent_id: "a1".into(),
                transcript_path: Some("/c/rollout-x-a1.jsonl".into()),
            })
        );
        assert_eq!(sample("02-UserPromptSubmit").subagent, None);
    }

    #[test]
    fn a_compaction_is_stopped_with_continue_false_and_the_reason_shown() {
        let stop = encode_reply(EventKind::PreCompact, &Reply::Block("why".into())).unwrap();
        assert_eq!(stop, r#"{"continue":false,"stopReason":"why"}"#);
        assert_eq!(
            encode_reply(EventKind::PreCompact, &Reply::Notice("x".into())),
            None
        );
        // Every other answer as Claude Code's.
        for (event, reply) in [
            (EventKind::UserPrompt, Reply::Block("no".into())),
            (EventKind::SessionStart, Reply::Inject("m".into())),
            (EventKind::Stop, Reply::Notice("n".into())),
        ] {
            assert_eq!(
                encode_reply(event, &reply),
                crate::claude::encode_reply(event, &reply)
            );
        }
    }

    #[test]
    fn unknown_events_and_garbage() {
        let e =
            decode_hook(br#"{"session_id":"s","hook_event_name":"PostCompact","x":1}"#).unwrap();
        assert_eq!(e.kind, EventKind::Other);
        assert!(decode_hook(b" \n").unwrap_err().contains("empty"));
        assert!(decode_hook(b"{\"session_id\":")
            .unwrap_err()
            .contains("not the JSON Codex sends"));
        assert!(decode_hook(br#"{"session_id":"","hook_event_name":"Stop"}"#).is_err());
    }
}
