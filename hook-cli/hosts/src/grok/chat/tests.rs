use super::*;

/// Session A of the recording from Grok 1.0.6: a turn with a command, a todo list and a
/// written file, a second turn, and `/tl`.
const CHAT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/grok-1.0.6/headless/sessions/%2Fhome%2Fdev%2Fproj/01a23a5c-21d7-7441-af4d-2c3f3951acaa/chat_history.jsonl"
);

fn parse(text: &str) -> Vec<Record> {
    let mut parser = ChatParser;
    let mut out = Vec::new();
    for line in text.lines() {
        parser.parse_line(line, &mut out).unwrap();
    }
    out
}

fn prompts(records: &[Record]) -> Vec<&str> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Prompt { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn attachments(records: &[Record]) -> Vec<(&str, &str)> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Detail {
                kind: DetailKind::Attachment,
                name: Some(name),
                body,
                ..
            } => Some((name.as_str(), body.as_str())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_recorded_chat_file_becomes_the_person_s_words_answers_and_detail() {
    let records = parse(&std::fs::read_to_string(CHAT).unwrap());
    let prompts = prompts(&records);
    // Out of Grok's `<user_query>` marks; its opening context is no prompt.
    assert_eq!(
        prompts,
        [
            "Count the files here please",
            "Which port did we pick",
            "/tl"
        ]
    );
    let answers: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Answer { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[1], "Port 8443: the firewall blocks 8080.");
    let detail = |kind: DetailKind| {
        records
            .iter()
            .filter(|r| matches!(r, Record::Detail { kind: k, .. } if *k == kind))
            .count()
    };
    assert_eq!(detail(DetailKind::ToolCall), 4);
    assert_eq!(detail(DetailKind::ToolResult), 4);
    let added: Vec<&str> = attachments(&records).iter().map(|a| a.0).collect();
    assert_eq!(
        added,
        [
            "context",
            "system_reminder",
            "system_reminder",
            "skill_information"
        ]
    );
    assert!(attachments(&records)[0].1.starts_with("<user_info>"));
    // A call and its result are paired by the call's id.
    assert!(records.iter().any(|r| matches!(r,
        Record::Detail { kind: DetailKind::ToolResult, tool_use_id: Some(_), body, .. }
            if body.contains("README.md\nnotes.txt"))));
    // The chat file holds no usage: nothing to report as if it were known.
    assert!(!records.iter().any(|r| matches!(r, Record::ApiCall { .. })));
}

/// Shapes Grok's source writes that the recording did not show: thinking, an image, a search
/// on xAI's side, words typed while the model worked.
#[test]
fn thinking_images_searches_and_interjections() {
    let records = parse(concat!(
        r#"{"type":"reasoning","id":"rs_01","summary":[{"type":"summary_text","text":"The parser lives in src/parser.rs."}],"encrypted_content":"gAAAAB..."}"#,
        "\n",
        r#"{"type":"user","content":[{"type":"text","text":"<user_query>\nnow a failing case\n</user_query>"},{"type":"image","url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="}],"prompt_index":1}"#,
        "\n",
        r#"{"type":"user","content":[{"type":"text","text":"use the empty input"}],"synthetic_reason":"interjection"}"#,
        "\n",
        r#"{"type":"backend_tool_call","kind":{"tool_type":"web_search","query":"rust parser empty input"}}"#,
    ));
    let prompts = prompts(&records);
    assert_eq!(prompts, ["now a failing case", "use the empty input"]);
    let kinds: Vec<DetailKind> = records
        .iter()
        .filter_map(|r| match r {
            Record::Detail { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    assert!(kinds.contains(&DetailKind::Thinking), "{kinds:?}");
    assert!(kinds.contains(&DetailKind::ToolCall), "{kinds:?}");
    assert!(records.iter().any(|r| matches!(r,
        Record::Detail { kind: DetailKind::Image, body, .. } if body == "[image image/png, 16 bytes]")));
}

#[test]
fn keys_survive_the_file_being_rewritten() {
    let text = std::fs::read_to_string(CHAT).unwrap();
    let keys = |records: Vec<Record>| -> Vec<String> {
        records
            .into_iter()
            .filter_map(|r| match r {
                Record::Prompt { key, .. }
                | Record::Answer { key, .. }
                | Record::Detail { key, .. } => Some(key),
                _ => None,
            })
            .collect()
    };
    let first = keys(parse(&text));
    // Grok clears old tool output in place: the same call keeps its key.
    let pruned = text.replace("exit: 0\\nREADME.md\\nnotes.txt\\n", "[cleared]");
    assert_ne!(pruned, text);
    assert_eq!(keys(parse(&pruned)), first);
    // The same words at another index (after /rewind) are another prompt.
    let again = parse(
        r#"{"type":"user","content":[{"type":"text","text":"<user_query>\nWhich port did we pick\n</user_query>"}],"prompt_index":4}"#,
    );
    assert!(!first.contains(&keys(again)[0]));
}

#[test]
fn memory_handed_over_by_a_stop_hook_is_detail() {
    let records = parse(
        r#"{"type":"user","content":[{"type":"text","text":"Throughline memory ..."}],"synthetic_reason":"stop_hook_feedback"}"#,
    );
    assert!(matches!(&records[..],
        [Record::Detail { kind: DetailKind::Attachment, name: Some(n), .. }] if n == "stop_hook_feedback"));
}

#[test]
fn bad_and_unknown_lines() {
    let mut parser = ChatParser;
    let mut out = Vec::new();
    assert!(parser.parse_line("not json", &mut out).is_err());
    assert!(parser.parse_line("{}", &mut out).is_err());
    parser
        .parse_line(r#"{"type":"future_item","x":1}"#, &mut out)
        .unwrap();
    parser
        .parse_line(r#"{"type":"user","content":7}"#, &mut out)
        .unwrap();
    parser
        .parse_line(r#"{"type":"tool_result","content":"no id"}"#, &mut out)
        .unwrap();
    parser
        .parse_line(r#"{"type":"assistant","content":"   "}"#, &mut out)
        .unwrap();
    assert!(out.is_empty());
}
