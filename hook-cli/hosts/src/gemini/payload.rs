//! Gemini CLI hook payloads (stdin JSON): the shared envelope (`hosts/envelope.rs`) with a
//! `timestamp`, under Gemini's own event names (`BeforeAgent`, `AfterAgent`, `AfterTool`,
//! `PreCompress`, ...), and the replies it reads.

use throughline_core::record::{EventKind, HookEvent, Reply, SubagentRef};

use crate::envelope::Envelope;

/// The tool that runs a subagent; its AfterTool comes when the subagent is done.
const SUBAGENT_TOOL: &str = "invoke_agent";

/// The model is not in the payload: the chat file names it with each answer.
pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p = Envelope::parse(bytes, super::HOST)?;
    let kind = match p.hook_event_name.as_str() {
        "SessionStart" => EventKind::SessionStart,
        "BeforeAgent" => EventKind::UserPrompt,
        "BeforeTool" => EventKind::PreTool,
        "AfterTool" => EventKind::PostTool,
        "AfterAgent" => EventKind::Stop,
        // Sent before every model call (0.61.0): a check whether to compress, not a compression.
        "PreCompress" => EventKind::Other,
        "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    };
    // The returning call names no subagent: every subagent chat of the session is read.
    let subagent = (kind == EventKind::PostTool && p.tool_name.as_deref() == Some(SUBAGENT_TOOL))
        .then(SubagentRef::unnamed);
    Ok(HookEvent {
        prompt_id: None,
        ..p.event(super::HOST, kind, subagent)
    })
}

/// BeforeAgent's `additionalContext` reaches the model after the prompt (SessionStart's does
/// only at start-up, never after `/clear`: the memory goes in at the first prompt); a
/// `decision: block` stops the prompt and shows the reason.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    let value = match (event, reply) {
        (EventKind::UserPrompt, Reply::Inject(text)) => serde_json::json!({
            "hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": text}
        }),
        (EventKind::UserPrompt, Reply::Block(reason)) => {
            serde_json::json!({"decision": "block", "reason": reason})
        }
        (EventKind::SessionStart, Reply::Inject(text)) => serde_json::json!({
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        }),
        _ => return None,
    };
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/gemini-cli-0.61.0"
    );

    fn sample(name: &str) -> HookEvent {
        let bytes = std::fs::read(format!("{SAMPLES}/hooks/{name}.json")).unwrap();
        decode_hook(&bytes).unwrap()
    }

    #[test]
    fn the_return_of_a_subagent_call_names_an_unnamed_subagent() {
        let payload = |tool: &str| {
            format!(
                r#"{{"session_id":"s","hook_event_name":"AfterTool","tool_name":"{tool}",
                    "tool_input":{{}},"tool_response":{{}}}}"#
            )
        };
        let returned = decode_hook(payload("invoke_agent").as_bytes()).unwrap();
        assert_eq!(returned.subagent, Some(SubagentRef::unnamed()));
        let shell = decode_hook(payload("run_shell_command").as_bytes()).unwrap();
        assert_eq!(shell.subagent, None);
    }

    #[test]
    fn the_payloads_gemini_sent_decode() {
        let start = sample("01-SessionStart");
        assert_eq!(start.kind, EventKind::SessionStart);
        assert_eq!(start.host, crate::gemini::HOST);
        assert_eq!(start.source.as_deref(), Some("startup"));
        assert!(start
            .transcript_path
            .unwrap()
            .ends_with("session-2026-11-30T08-51-7f206dea.jsonl"));
        let prompt = sample("02-BeforeAgent");
        assert_eq!(prompt.kind, EventKind::UserPrompt);
        assert_eq!(prompt.prompt.as_deref(), Some("hello there"));
        assert_eq!(prompt.cwd.as_deref(), Some("/home/dev/proj"));
        assert_eq!(sample("03-AfterAgent").kind, EventKind::Stop);
        let end = sample("04-SessionEnd");
        assert_eq!(end.kind, EventKind::SessionEnd);
        assert_eq!(end.reason.as_deref(), Some("exit"));
        assert_eq!(sample("tool-04-AfterTool").kind, EventKind::PostTool);
    }

    #[test]
    fn unknown_events_and_garbage() {
        let e =
            decode_hook(br#"{"session_id":"s","hook_event_name":"BeforeModel","llm_request":{}}"#)
                .unwrap();
        assert_eq!(e.kind, EventKind::Other);
        assert!(decode_hook(b"").unwrap_err().contains("empty"));
        assert!(decode_hook(b"[1]")
            .unwrap_err()
            .contains("not the JSON Gemini CLI sends"));
        assert!(decode_hook(br#"{"session_id":"","hook_event_name":"AfterAgent"}"#).is_err());
    }

    #[test]
    fn replies_are_what_gemini_reads() {
        let inject = encode_reply(EventKind::UserPrompt, &Reply::Inject("m".into())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&inject).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "BeforeAgent");
        assert_eq!(v["hookSpecificOutput"]["additionalContext"], "m");
        let block = encode_reply(EventKind::UserPrompt, &Reply::Block("no".into())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&block).unwrap();
        assert_eq!(v["decision"], "block");
        assert_eq!(v["reason"], "no");
        assert_eq!(
            encode_reply(EventKind::Stop, &Reply::Inject("m".into())),
            None
        );
    }
}
