use super::*;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/cursor/projects/home-dev-proj/agent-transcripts/",
    "c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10.jsonl"
);

fn parse(line: &str) -> Vec<Record> {
    let mut out = Vec::new();
    TranscriptParser.parse_line(line, &mut out).unwrap();
    out
}

fn sample() -> Vec<Record> {
    std::fs::read_to_string(SAMPLE)
        .unwrap()
        .lines()
        .flat_map(parse)
        .collect()
}

#[test]
fn the_sample_turns_become_prompts_answers_and_detail() {
    let records = sample();
    let prompts: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Prompt { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        ["add a --verbose flag", "and document it in the README"]
    );
    let answers: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Answer { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        answers,
        [
            "I'll add the flag to the argument parser.",
            "Added `--verbose`; the tests pass.",
            "Documented under Usage."
        ]
    );
    let detail: Vec<(DetailKind, Option<&str>, &str)> = records
        .iter()
        .filter_map(|r| match r {
            Record::Detail {
                kind, name, body, ..
            } => Some((*kind, name.as_deref(), body.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(detail[0].0, DetailKind::Attachment);
    assert!(detail[0].2.contains("<attached_files>"));
    assert_eq!(
        detail[1],
        (DetailKind::Thinking, None, "The CLI parses args with clap.")
    );
    assert_eq!(detail[2].0, DetailKind::ToolCall);
    assert_eq!(detail[2].1, Some("Shell"));
    assert!(detail[2].2.contains("cargo test"));
    assert_eq!(
        detail[3],
        (DetailKind::ToolResult, None, "test result: ok. 12 passed")
    );
    // No usage is written: nothing to count tokens from.
    assert!(!records.iter().any(|r| matches!(r, Record::ApiCall { .. })));
}

#[test]
fn a_line_read_again_gives_the_same_keys() {
    assert_eq!(sample(), sample());
    let keys: Vec<String> = sample()
        .iter()
        .filter_map(|r| match r {
            Record::Prompt { key, .. }
            | Record::Answer { key, .. }
            | Record::Detail { key, .. } => Some(key.clone()),
            _ => None,
        })
        .collect();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
    let call = parse(
        r#"{"role":"assistant","message":{"content":[{"type":"tool_use","id":"t9","name":"Read","input":{}}]}}"#,
    );
    assert!(matches!(&call[0], Record::Detail { key, .. } if key == "c:t9"));
}

#[test]
fn a_prompt_that_starts_with_a_tag_is_still_the_persons() {
    let records = parse(
        r#"{"role":"user","message":{"content":[{"type":"text","text":"<div> does not render, why?"}]}}"#,
    );
    assert!(
        matches!(&records[..], [Record::Prompt { text, .. }] if text == "<div> does not render, why?")
    );
}

#[test]
fn other_lines_are_passed_over_and_garbage_is_an_error() {
    assert!(parse(r#"{"type":"turn_ended"}"#).is_empty());
    assert!(parse(r#"{"role":"system","message":{"content":"rules"}}"#).is_empty());
    assert!(parse(r#"{"role":"user","message":{}}"#).is_empty());
    let mut out = Vec::new();
    assert!(TranscriptParser
        .parse_line("not json", &mut out)
        .unwrap_err()
        .contains("not JSON"));
    assert!(TranscriptParser
        .parse_line(r#"{"role":"user","message":{"content":7}}"#, &mut out)
        .is_err());
    // A block of a kind not seen yet is kept whole.
    let records =
        parse(r#"{"role":"assistant","message":{"content":[{"type":"image","text":"x"}]}}"#);
    assert!(
        matches!(&records[..], [Record::Detail { kind: DetailKind::Meta, name: Some(n), .. }] if n == "image")
    );
}
