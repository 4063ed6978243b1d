//! Grok hook payloads (stdin JSON): a camelCase envelope (`hookEventName`, `sessionId`, `cwd`,
//! `workspaceRoot`, `timestamp`, `promptId`, ...) with snake_case event values
//! (`user_prompt_submit`, `stop`, ...), the same whichever hook file (Grok's own, Claude
//! Code's, Cursor's) ran the command. Only the fields Throughline uses are decoded; unknown
//! events and fields are accepted. Facts and their sources: `docs/hosts/grok.md`.

use serde::Deserialize;

use throughline_core::record::{EventKind, HookEvent, Reply};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Envelope {
    session_id: String,
    #[serde(default)]
    hook_event_name: String,
    #[serde(default)]
    cwd: Option<String>,
    /// The session's `updates.jsonl`; its `chat_history.jsonl` sits beside it.
    #[serde(default)]
    transcript_path: Option<String>,
    /// SessionStart: how it started; Stop: why the turn ended; SessionEnd: why it ended.
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    model_id: Option<String>,
    /// Set when the event fires inside a subagent's own session.
    #[serde(default)]
    subagent_type: Option<String>,
    /// Stop: the text of the turn's last assistant message.
    #[serde(default)]
    last_assistant_message: Option<String>,
}

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p: Envelope = crate::payload_json(bytes, "Grok")?;
    if p.session_id.is_empty() {
        return Err("hook payload has an empty sessionId".into());
    }
    let kind = match kind_of(&p.hook_event_name) {
        // A subagent runs in a session of its own, with its own chat file: its events say
        // nothing about the session the person talks to.
        _ if p.subagent_type.is_some() => EventKind::Other,
        // Grok also fires Stop at session end (`channel_closed`, `shutdown`) and ignores what
        // it answers: only a turn's end is one.
        EventKind::Stop if p.reason.as_deref().is_some_and(|r| r != "end_turn") => EventKind::Other,
        kind => kind,
    };
    let transcript_path = super::chat_file(
        p.transcript_path.as_deref().filter(|t| !t.is_empty()),
        p.cwd.as_deref(),
        &p.session_id,
    );
    // The chat file held the answer whenever a Stop hook ran on 1.0.6; the payload's copy
    // keeps it if one day the file lags behind. A clipped copy would be kept beside the
    // whole one the file brings later: the file has it.
    let answer = match kind {
        EventKind::Stop => p
            .last_assistant_message
            .filter(|text| !is_clipped(text))
            .and_then(super::chat::answer),
        _ => None,
    };
    Ok(HookEvent {
        host: super::HOST,
        kind,
        source: p.source.map(|s| start_source(&s).to_string()),
        reason: p.reason,
        session_id: p.session_id,
        transcript_path: transcript_path.map(|t| t.to_string_lossy().into_owned()),
        cwd: p.cwd.filter(|c| !c.is_empty()),
        // `promptId` names a turn, not a /clear: nothing to link by.
        prompt_id: None,
        prompt: p.prompt.map(|prompt| super::typed(&prompt).0),
        model: p.model_id.filter(|m| !m.is_empty()),
        subagent: None,
        trigger: None,
        answer,
    })
}

/// Whether Grok cut `text` to fit a hook's input: it ends then with `… [+N chars]`.
fn is_clipped(text: &str) -> bool {
    text.strip_suffix(" chars]")
        .and_then(|rest| rest.rsplit_once("… [+"))
        .is_some_and(|(_, count)| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()))
}

/// The event a hook was called for. Grok sends the snake_case form; its own names (and
/// Cursor's) are accepted too, as its hook files spell them.
fn kind_of(name: &str) -> EventKind {
    match name {
        "session_start" | "SessionStart" | "sessionStart" => EventKind::SessionStart,
        "user_prompt_submit" | "UserPromptSubmit" | "beforeSubmitPrompt" => EventKind::UserPrompt,
        "pre_tool_use" | "PreToolUse" | "preToolUse" => EventKind::PreTool,
        "post_tool_use"
        | "PostToolUse"
        | "postToolUse"
        | "post_tool_use_failure"
        | "PostToolUseFailure"
        | "postToolUseFailure" => EventKind::PostTool,
        "stop" | "Stop" => EventKind::Stop,
        "pre_compact" | "PreCompact" | "preCompact" => EventKind::PreCompact,
        "session_end" | "SessionEnd" | "sessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other,
    }
}

/// SessionStart's source in the words the shared code uses: the documentation names
/// `startup` and `resume`; the published source sends `new` and `load`.
fn start_source(source: &str) -> &str {
    match source {
        "new" => "startup",
        "load" => "resume",
        other => other,
    }
}

/// Only a Stop hook's answer reaches the model: its block reason and `additionalContext` are
/// fed to it as hook feedback and the agent runs one more round in the same turn (a block
/// only carries what does not fit the context). Grok ignores the stdout of
/// SessionStart and UserPromptSubmit hooks and cannot block a prompt, so nothing else is
/// answered.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    match (event, reply) {
        (EventKind::Stop, Reply::Inject(text)) => {
            let (reason, context) = feedback_entries(text);
            let mut answer = serde_json::json!({
                "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": context}
            });
            if let Some(reason) = reason {
                answer["decision"] = "block".into();
                answer["reason"] = reason.into();
            }
            Some(answer.to_string())
        }
        _ => None,
    }
}

/// How many characters Grok keeps of each entry of a Stop answer's feedback, the block reason
/// and the additional context (`STOP_FEEDBACK_TEXT_MAX` in the 1.0.6 source); it feeds the
/// reason first, then the context, to the model in one message.
const FEEDBACK_ENTRY_CHARS: usize = 10_000;

/// `text` as the entries of one Stop answer: all in the context when it fits one entry, else
/// a reason of the lines that fit one entry and the context of the rest, so a memory of two
/// parts (`memory_parts_in_one_output`) reaches the model whole.
fn feedback_entries(text: &str) -> (Option<&str>, &str) {
    let Some((limit, _)) = text.char_indices().nth(FEEDBACK_ENTRY_CHARS) else {
        return (None, text);
    };
    // At a line's end, unless that would leave most of an entry unused (a very long line).
    let cut = text[..limit]
        .rfind('\n')
        .map(|i| i + 1)
        .filter(|&i| i > limit / 2)
        .unwrap_or(limit);
    (Some(text[..cut].trim_end()), &text[cut..])
}

/// Whether `bytes` is Grok's envelope: its top-level object has a `hookEventName` key (Claude
/// Code and Cursor send `hook_event_name`). Grok writes that key first, so a prefix tells it
/// at once; otherwise the bytes are searched, and only a payload that holds the key somewhere
/// is parsed (without keeping anything) to see whether it is at the top.
pub fn is_grok_envelope(bytes: &[u8]) -> bool {
    const KEY: &[u8] = b"\"hookEventName\"";
    let body = crate::without_bom(bytes);
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    let Some(rest) = start.and_then(|i| body[i..].strip_prefix(b"{")) else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    if rest.starts_with(KEY) {
        return true;
    }
    // A JSON string cannot hold an unescaped quote, so only a key (or a whole value spelled
    // so) matches.
    if memchr::memmem::find(body, KEY).is_none() {
        return false;
    }
    #[derive(Deserialize)]
    struct Probe {
        #[serde(rename = "hookEventName")]
        _name: serde::de::IgnoredAny,
    }
    serde_json::from_slice::<Probe>(body).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_core::record::Record;

    const RECORDING: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/grok-1.0.6/headless"
    );

    /// Every payload Grok 1.0.6 sent in the recording, in order.
    fn recorded() -> Vec<Vec<u8>> {
        recorded_with_chat_lines().into_iter().map(|(p, _)| p).collect()
    }

    /// Every recorded payload, with how many lines its session's chat file had when the hook
    /// ran.
    fn recorded_with_chat_lines() -> Vec<(Vec<u8>, usize)> {
        std::fs::read_to_string(format!("{RECORDING}/hooks.jsonl"))
            .unwrap()
            .lines()
            .map(|line| {
                let entry: serde_json::Value = serde_json::from_str(line).unwrap();
                let lines = entry["chat_lines"].as_u64().unwrap() as usize;
                (entry["payload"].to_string().into_bytes(), lines)
            })
            .collect()
    }

    fn first(event: &str) -> HookEvent {
        let payload = recorded()
            .into_iter()
            .find(|p| String::from_utf8_lossy(p).contains(&format!(r#""hookEventName":"{event}""#)))
            .unwrap();
        decode_hook(&payload).unwrap()
    }

    #[test]
    fn the_recorded_payloads_decode() {
        let start = first("session_start");
        assert_eq!(start.kind, EventKind::SessionStart);
        assert_eq!(start.host, crate::grok::HOST);
        assert_eq!(start.source.as_deref(), Some("startup"));
        assert_eq!(start.cwd.as_deref(), Some("/home/dev/proj"));
        let prompt = first("user_prompt_submit");
        assert_eq!(prompt.kind, EventKind::UserPrompt);
        // Out of the `<user_query>` marks Grok sends it in.
        assert_eq!(
            prompt.prompt.as_deref(),
            Some("Count the files here please")
        );
        // The chat file beside the transcript the payload names.
        assert!(prompt.transcript_path.unwrap().ends_with(
            "/%2Fhome%2Fdev%2Fproj/01a23a5c-21d7-7441-af4d-2c3f3951acaa/chat_history.jsonl"
        ));
        assert_eq!(first("post_tool_use").kind, EventKind::PostTool);
        let stop = first("stop");
        assert_eq!(stop.kind, EventKind::Stop);
        assert_eq!(stop.reason.as_deref(), Some("end_turn"));
        let end = first("session_end");
        assert_eq!(end.kind, EventKind::SessionEnd);
        assert_eq!(end.reason.as_deref(), Some("shutdown"));
        // `/tl` comes with the skill's text after the marks: the typed words are the command.
        let tl = recorded()
            .into_iter()
            .map(|p| decode_hook(&p).unwrap())
            .find(|e| e.prompt.as_deref() == Some("/tl"));
        assert!(tl.is_some());
    }

    #[test]
    fn stops_at_session_end_and_inside_subagents_are_no_turn_end() {
        let at_end = br#"{"hookEventName":"stop","sessionId":"s","reason":"shutdown","stopHookActive":false}"#;
        assert_eq!(decode_hook(at_end).unwrap().kind, EventKind::Other);
        let child = br#"{"hookEventName":"user_prompt_submit","sessionId":"c","prompt":"look","subagentType":"explore"}"#;
        assert_eq!(decode_hook(child).unwrap().kind, EventKind::Other);
        let resumed = br#"{"hookEventName":"session_start","sessionId":"s","source":"load"}"#;
        assert_eq!(
            decode_hook(resumed).unwrap().source.as_deref(),
            Some("resume")
        );
    }

    #[test]
    fn a_turn_s_end_carries_its_answer_as_the_chat_file_records_it() {
        use throughline_core::record::LineParser;
        let mut turn_ends = 0;
        for (payload, chat_lines) in recorded_with_chat_lines() {
            let event = decode_hook(&payload).unwrap();
            if event.kind != EventKind::Stop {
                // Nor the Stop at session end, which has no `lastAssistantMessage`.
                assert_eq!(event.answer, None);
                continue;
            }
            // The chat file's last line when the hook ran is the same answer, the same record.
            let chat = std::fs::read_to_string(format!(
                "{RECORDING}/sessions/%2Fhome%2Fdev%2Fproj/{}/chat_history.jsonl",
                event.session_id
            ))
            .unwrap();
            let mut records = Vec::new();
            let last = chat.lines().nth(chat_lines - 1).unwrap();
            super::super::ChatParser
                .parse_line(last, &mut records)
                .unwrap();
            assert!(
                matches!(records.as_slice(), [Record::Answer { .. }]),
                "{records:?}"
            );
            assert_eq!(event.answer.as_ref(), records.first());
            turn_ends += 1;
        }
        assert_eq!(turn_ends, 5);
    }

    #[test]
    fn no_answer_is_taken_clipped_empty_or_from_a_subagent() {
        let stop = |extra: &str| {
            let payload = format!(
                r#"{{"hookEventName":"stop","sessionId":"s","reason":"end_turn"{extra}}}"#
            );
            decode_hook(payload.as_bytes()).unwrap().answer
        };
        assert!(stop(r#","lastAssistantMessage":"Done.""#).is_some());
        // Grok cuts a long one to fit the hook's input: the chat file has it whole.
        assert_eq!(
            stop(r#","lastAssistantMessage":"Done and … [+120 chars]""#),
            None
        );
        assert_eq!(stop(r#","lastAssistantMessage":" \n""#), None);
        assert_eq!(stop(""), None);
        assert_eq!(
            stop(r#","lastAssistantMessage":"Looked.","subagentType":"explore""#),
            None
        );
        assert!(!is_clipped("a price … [+5 dollars]"));
        assert!(!is_clipped("… [+ chars]"));
        assert!(is_clipped("… [+1 chars]"));
    }

    #[test]
    fn without_a_transcript_path_the_chat_file_follows_the_cwd() {
        let e = decode_hook(
            br#"{"hookEventName":"stop","sessionId":"abc","cwd":"/w/my proj","reason":"end_turn"}"#,
        )
        .unwrap();
        assert!(e
            .transcript_path
            .unwrap()
            .ends_with("/sessions/%2Fw%2Fmy%20proj/abc/chat_history.jsonl"));
    }

    #[test]
    fn unknown_events_and_garbage() {
        let e = decode_hook(
            br#"{"hookEventName":"notification","sessionId":"s","notificationType":"idle_prompt"}"#,
        )
        .unwrap();
        assert_eq!(e.kind, EventKind::Other);
        assert!(decode_hook(b"").unwrap_err().contains("empty"));
        assert!(decode_hook(b"[1]")
            .unwrap_err()
            .contains("not the JSON Grok sends"));
        assert!(decode_hook(br#"{"hookEventName":"stop","sessionId":""}"#).is_err());
        // Claude Code's snake_case envelope is not Grok's.
        assert!(decode_hook(br#"{"session_id":"s","hook_event_name":"Stop"}"#).is_err());
    }

    #[test]
    fn only_a_stop_answer_is_written() {
        let out = encode_reply(EventKind::Stop, &Reply::Inject("memory".into())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "Stop");
        assert_eq!(v["hookSpecificOutput"]["additionalContext"], "memory");
        for kind in [EventKind::SessionStart, EventKind::UserPrompt] {
            assert_eq!(encode_reply(kind, &Reply::Inject("m".into())), None);
            assert_eq!(encode_reply(kind, &Reply::Block("no".into())), None);
        }
    }

    #[test]
    fn a_memory_longer_than_one_feedback_entry_fills_two() {
        let line = format!("{}\n", "é".repeat(99));
        let memory = line.repeat(150);
        let out = encode_reply(EventKind::Stop, &Reply::Inject(memory.clone())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["decision"], "block");
        let reason = v["reason"].as_str().unwrap();
        let context = v["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
        for entry in [reason, context] {
            assert!(entry.chars().count() <= FEEDBACK_ENTRY_CHARS);
        }
        // Cut at a line's end, nothing lost: Grok puts the two back one after the other.
        assert_eq!(reason.chars().count(), 100 * 100 - 1);
        assert_eq!(format!("{reason}\n{context}"), memory);

        // One long line is cut where the entry is full.
        let long_line = "x".repeat(15_000);
        let (reason, context) = feedback_entries(&long_line);
        assert_eq!((reason.unwrap().len(), context.len()), (10_000, 5_000));
        // A memory that fits one entry stays in the context alone, as before.
        let out = encode_reply(EventKind::Stop, &Reply::Inject(line.repeat(100))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v.get("decision").is_none() && v.get("reason").is_none(), "{v}");
    }

    #[test]
    fn the_envelope_is_told_from_claude_codes_and_cursors() {
        for payload in recorded() {
            assert!(
                is_grok_envelope(&payload),
                "{}",
                String::from_utf8_lossy(&payload)
            );
        }
        // Key order does not matter; a BOM and whitespace neither.
        assert!(is_grok_envelope(
            b"\xef\xbb\xbf \n{\"sessionId\":\"s\",\"hookEventName\":\"stop\"}"
        ));
        let claude = br#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"hi"}"#;
        assert!(!is_grok_envelope(claude));
        // Grok's key inside another host's payload: a tool input, or text about it.
        assert!(!is_grok_envelope(
            br#"{"session_id":"s","hook_event_name":"PostToolUse","tool_input":{"hookEventName":"x"}}"#
        ));
        assert!(!is_grok_envelope(
            br#"{"session_id":"s","tool_input":{"content":"{\"hookEventName\":\"stop\"}"}}"#
        ));
        assert!(!is_grok_envelope(
            br#"{"conversation_id":"c","hook_event_name":"stop"}"#
        ));
        assert!(!is_grok_envelope(b"not json"));
        assert!(!is_grok_envelope(b""));
    }
}
