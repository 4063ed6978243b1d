use super::*;

const CHAT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/grok-docs/sessions/%2Fhome%2Fdev%2Fproj/0199a0c2-7a51-7c33-9e1e-5f2a4c6b8d10/chat_history.jsonl"
);

fn parse(text: &str) -> Vec<Record> {
    let mut parser = ChatParser;
    let mut out = Vec::new();
    for line in text.lines() {
        parser.parse_line(line, &mut out).unwrap();
    }
    out
}

#[test]
fn a_chat_file_becomes_prompts_answers_and_detail() {
    let records = parse(&std::fs::read_to_string(CHAT).unwrap());
    let prompts: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Prompt { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        [
            "add a test for the parser",
            "now also a failing case",
            "use the empty input"
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
    assert_eq!(answers[1], "Added tests/parser.rs; all 3 tests pass.");
    let detail = |kind: DetailKind| {
        records
            .iter()
            .filter(|r| matches!(r, Record::Detail { kind: k, .. } if *k == kind))
            .count()
    };
    // Two calls of the model, one search on xAI's side.
    assert_eq!(detail(DetailKind::ToolCall), 3);
    assert_eq!(detail(DetailKind::ToolResult), 2);
    assert_eq!(detail(DetailKind::Thinking), 1);
    assert_eq!(detail(DetailKind::Image), 1);
    // The project instructions Grok sent are not the person's words.
    assert!(records.iter().any(|r| matches!(r,
        Record::Detail { kind: DetailKind::Attachment, name: Some(n), body, .. }
            if n == "project_instructions" && body.contains("AGENTS.md"))));
    // A call and its result are paired by the call's id.
    assert!(records.iter().any(|r| matches!(r,
        Record::Detail { kind: DetailKind::ToolResult, tool_use_id: Some(id), body, .. }
            if id == "call_2" && body.contains("3 passed"))));
    assert!(records.iter().any(|r| matches!(r,
        Record::Detail { kind: DetailKind::Image, body, .. } if body == "[image image/png, 16 bytes]")));
    // The chat file holds no usage: nothing to report as if it were known.
    assert!(!records.iter().any(|r| matches!(r, Record::ApiCall { .. })));
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
    let pruned = text.replace("exit: 0\\ntest result: ok. 3 passed", "[cleared]");
    assert_eq!(keys(parse(&pruned)), first);
    // The same words at another index (after /rewind) are another prompt.
    let again = parse(
        r#"{"type":"user","content":[{"type":"text","text":"add a test for the parser"}],"prompt_index":4}"#,
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
