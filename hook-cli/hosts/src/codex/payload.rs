//! Codex hook payloads (stdin JSON): the shared envelope (`hosts/envelope.rs`) with a
//! `turn_id` and no `prompt_id`, under Claude Code's event names.

use throughline_core::model::Host;
use throughline_core::record::{EventKind, HookEvent};

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    crate::envelope::decode(bytes, Host::Codex, |name| match name {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPrompt,
        "PreToolUse" => EventKind::PreTool,
        "PostToolUse" => EventKind::PostTool,
        "Stop" | "SubagentStop" => EventKind::Stop,
        "PreCompact" => EventKind::PreCompact,
        "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    })
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
        assert_eq!(start.host, Host::Codex);
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
