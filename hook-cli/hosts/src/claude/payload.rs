//! Claude Code hook payloads (stdin JSON). Only the fields Throughline uses are decoded;
//! unknown events and fields are accepted, so a newer client never breaks the hook.

use serde::Deserialize;

use crate::envelope::Envelope;
use throughline_core::record::Reply;
use throughline_core::record::{EventKind, HookEvent, SubagentRef};

/// The tools that start a subagent: `Agent` (2.1.197 and later), `Task` before.
const SUBAGENT_TOOLS: &[&str] = &["Agent", "Task"];

#[derive(Deserialize)]
struct SubagentAnswer {
    #[serde(rename = "agentId")]
    agent_id: String,
}

impl Envelope<'_> {
    /// The subagent the event is about: the one the hook runs in, or the one the returning
    /// call started (its answer names it).
    fn subagent(&self) -> Option<SubagentRef> {
        let spawned = || {
            let tool = self.tool_name.as_deref()?;
            if !SUBAGENT_TOOLS.contains(&tool) {
                return None;
            }
            let answer: SubagentAnswer = serde_json::from_str(self.tool_response?.get()).ok()?;
            Some(answer.agent_id)
        };
        let agent_id = self
            .agent_id
            .clone()
            .or_else(spawned)
            .filter(|id| !id.is_empty())?;
        Some(SubagentRef {
            agent_id,
            transcript_path: self.agent_transcript_path.clone().filter(|p| !p.is_empty()),
        })
    }
}

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p = Envelope::parse(bytes, super::HOST)?;
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
    let subagent = p.subagent();
    Ok(p.event(super::HOST, kind, subagent))
}

/// What Claude Code reads from a hook's stdout: context for the model, or a blocked prompt
/// with the reason shown to the person.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    let name = match event {
        EventKind::SessionStart => "SessionStart",
        EventKind::UserPrompt => "UserPromptSubmit",
        // Only a block: the client reads no context from PreCompact.
        EventKind::PreCompact => "PreCompact",
        EventKind::Stop => "Stop",
        _ => return None,
    };
    let value = match reply {
        Reply::Inject(_) if matches!(event, EventKind::PreCompact | EventKind::Stop) => {
            return None
        }
        // Shown under the turn as "<event> says: …" (2.1.197 and 2.1.333).
        Reply::Notice(text) => serde_json::json!({"systemMessage": text}),
        Reply::Inject(text) => serde_json::json!({
            "hookSpecificOutput": {"hookEventName": name, "additionalContext": text}
        }),
        Reply::Block(reason) if event == EventKind::UserPrompt => {
            serde_json::json!({"decision": "block", "reason": reason})
        }
        // The client shows "compaction blocked by PreCompact hook" and logs the reason; the
        // person is told more at the turn's end (a `Notice` from the Stop hook).
        Reply::Block(reason) if event == EventKind::PreCompact => {
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
    fn a_compaction_is_stopped_by_a_block_and_the_turns_end_tells_the_person() {
        let e = decode_hook(
            br#"{"session_id":"s","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":null}"#,
        )
        .unwrap();
        assert_eq!(
            (e.kind, e.trigger.as_deref()),
            (EventKind::PreCompact, Some("auto"))
        );
        let block = encode_reply(EventKind::PreCompact, &Reply::Block("why".into())).unwrap();
        assert_eq!(block, r#"{"decision":"block","reason":"why"}"#);
        assert_eq!(
            encode_reply(EventKind::PreCompact, &Reply::Inject("x".into())),
            None
        );
        let notice = encode_reply(EventKind::Stop, &Reply::Notice("do this".into())).unwrap();
        assert_eq!(notice, r#"{"systemMessage":"do this"}"#);
    }

    #[test]
    fn unknown_events_and_fields_are_accepted() {
        let e =
            decode_hook(br#"{"session_id":"s","hook_event_name":"Brand New","x":[1]}"#).unwrap();
        assert_eq!(e.kind, EventKind::Other);
    }

    #[test]
    fn a_hook_inside_a_subagent_names_it_and_its_stop_gives_its_transcript() {
        let inside = decode_hook(
            br#"{"session_id":"s","transcript_path":"/t/s.jsonl","hook_event_name":"PreToolUse",
                 "agent_id":"a8aa7eb1bbcf19469","agent_type":"general-purpose","tool_name":"Bash"}"#,
        )
        .unwrap();
        let agent = |path: Option<&str>| SubagentRef {
            agent_id: "a8aa7eb1bbcf19469".into(),
            transcript_path: path.map(Into::into),
        };
        assert_eq!(inside.subagent, Some(agent(None)));
        let stop = decode_hook(
            br#"{"session_id":"s","hook_event_name":"SubagentStop","agent_id":"a8aa7eb1bbcf19469",
                 "agent_transcript_path":"/t/s/subagents/agent-a8aa7eb1bbcf19469.jsonl",
                 "last_assistant_message":"done","background_tasks":[]}"#,
        )
        .unwrap();
        assert_eq!(stop.kind, EventKind::Stop);
        assert_eq!(
            stop.subagent,
            Some(agent(Some("/t/s/subagents/agent-a8aa7eb1bbcf19469.jsonl")))
        );
    }

    #[test]
    fn the_answer_of_a_subagent_call_names_the_subagent_and_other_answers_do_not() {
        let post = |tool: &str, response: &str| {
            let payload = format!(
                r#"{{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"{tool}",
                    "tool_response":{response},"tool_use_id":"toolu_1"}}"#
            );
            decode_hook(payload.as_bytes()).unwrap().subagent
        };
        let started = r#"{"status":"completed","agentId":"af54","content":[{"type":"text"}]}"#;
        for tool in ["Agent", "Task"] {
            assert_eq!(post(tool, started).unwrap().agent_id, "af54");
        }
        // Other tools, and answers of any other shape, name no subagent and still decode.
        assert_eq!(post("Bash", r#"{"agentId":"af54","stdout":"x"}"#), None);
        for response in [
            r#""text""#,
            "[1,2]",
            "null",
            r#"{"agentId":7}"#,
            r#"{"agentId":""}"#,
        ] {
            assert_eq!(post("Agent", response), None, "{response}");
        }
    }

    #[test]
    fn a_byte_order_mark_before_the_json_is_ignored() {
        let e = decode_hook(b"\xef\xbb\xbf{\"session_id\":\"s\",\"hook_event_name\":\"Stop\"}")
            .unwrap();
        assert_eq!((e.kind, e.session_id.as_str()), (EventKind::Stop, "s"));
        // Only one mark, and only at the start.
        assert!(decode_hook(b"\xef\xbb\xbf\xef\xbb\xbf{\"session_id\":\"s\"}").is_err());
        assert!(decode_hook(b"\xef\xbb\xbf").unwrap_err().contains("empty"));
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
