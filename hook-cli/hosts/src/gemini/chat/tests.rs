use super::*;

const SAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/gemini-cli-0.61.0/chats"
);

fn parse(text: &str) -> Vec<Record> {
    let mut parser = ChatParser::default();
    let mut out = Vec::new();
    for line in text.lines() {
        parser.parse_line(line, &mut out).unwrap();
    }
    out
}

fn sample(name: &str) -> Vec<Record> {
    parse(&std::fs::read_to_string(format!("{SAMPLES}/{name}.jsonl")).unwrap())
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

fn answers(records: &[Record]) -> Vec<&str> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Answer { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// One per key, as the store keeps them.
fn details(records: &[Record], kind: DetailKind) -> Vec<(&str, Option<&str>, bool)> {
    let mut keys = std::collections::HashSet::new();
    records
        .iter()
        .filter_map(|r| match r {
            Record::Detail {
                key,
                kind: k,
                body,
                name,
                is_error,
                ..
            } if *k == kind && keys.insert(key) => {
                Some((body.as_str(), name.as_deref(), *is_error))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_headless_session_is_one_prompt_and_its_answer() {
    let records = sample("session-2026-11-30T08-51-7f206dea");
    assert_eq!(prompts(&records), ["hello there"]);
    assert_eq!(answers(&records), ["Gemini reply 5."]);
    let context = details(&records, DetailKind::Attachment);
    assert_eq!(context.len(), 1);
    assert!(context[0].0.starts_with("<session_context>"));
    assert_eq!(context[0].1, Some("session_context"));
    let cwd = records.iter().find_map(|r| match r {
        Record::Meta { cwd: Some(c), .. } => Some(c.as_str()),
        _ => None,
    });
    assert_eq!(cwd, Some("/home/dev/proj"));
    let usage: Vec<_> = records
        .iter()
        .filter_map(|r| match r {
            Record::ApiCall { usage, model, .. } => Some((*usage, model.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        usage,
        [(
            Usage {
                input: 9657,
                cache_creation: 0,
                cache_read: 0,
                output: 5
            },
            Some("gemini-3.1-pro-preview".to_string())
        )]
    );
    assert!(records.contains(&Record::Meta {
        cwd: None,
        client_version: None,
        context_window: Some(WINDOW),
        branch: None,
    }));
}

#[test]
fn tool_calls_thoughts_and_hook_context_of_a_real_turn() {
    let records = sample("session-2026-12-01T13-43-51482c4a");
    // The person's words only: the hook's context is the CLI's, kept in L3.
    assert_eq!(prompts(&records), ["please RUNLS here"]);
    assert_eq!(answers(&records), ["Listed the folder. Done."]);
    let hook = details(&records, DetailKind::Attachment);
    assert!(hook
        .iter()
        .any(|(body, name, _)| *name == Some("hook_context") && body.contains("MEMORY")));
    assert_eq!(
        details(&records, DetailKind::Thinking),
        [("I should list files.", None, false)]
    );
    // The message is written twice (before and after its tool ran), and the tool's answer
    // again as a user message: one call, one result by their keys.
    assert_eq!(
        details(&records, DetailKind::ToolCall),
        [(r#"{"command":"ls -1"}"#, Some("run_shell_command"), false)]
    );
    let results = details(&records, DetailKind::ToolResult);
    assert_eq!(results.len(), 1);
    assert!(results[0].0.contains("Output: (empty)") && !results[0].2);
    // Usage per message id: the copy repeats it under the same id.
    let ids: std::collections::BTreeSet<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::ApiCall { message_id, .. } => Some(message_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(ids.len(), 2);
}

#[test]
fn failed_tools_images_notices_rewinds_and_restated_history() {
    let records = parse(concat!(
        r#"{"id":"u1","timestamp":"t1","type":"user","content":[{"text":"look at this"},{"inlineData":{"mimeType":"image/png","data":"AAAABBBB"}}]}"#,
        "\n",
        r#"{"id":"g1","timestamp":"t2","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"read_file","args":{"path":"x"},"status":"error","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"error":"File not found: x"}}}]}]}"#,
        "\n",
        r#"{"id":"i1","timestamp":"t3","type":"info","content":"Request cancelled."}"#,
        "\n",
        r#"{"$rewindTo":"u1"}"#,
        "\n",
        r#"{"$set":{"messages":[{"id":"u2","type":"user","content":"restated prompt"}]}}"#,
        "\n",
        r#"{"$set":{"lastUpdated":"t4"}}"#,
    ));
    assert_eq!(prompts(&records), ["look at this", "restated prompt"]);
    assert_eq!(
        details(&records, DetailKind::Image),
        [("[image image/png, 6 bytes]", Some("image"), false)]
    );
    assert_eq!(
        details(&records, DetailKind::ToolResult),
        [("File not found: x", None, true)]
    );
    assert_eq!(
        details(&records, DetailKind::System),
        [("Request cancelled.", Some("info"), false)]
    );
    assert_eq!(details(&records, DetailKind::Meta).len(), 1);
}

#[test]
fn what_the_person_typed_is_the_prompt_when_the_cli_sent_more() {
    let records = parse(
        r#"{"id":"u1","type":"user","content":[{"text":"Expanded command text"}],"displayContent":[{"text":"/review src"}]}"#,
    );
    assert_eq!(prompts(&records), ["/review src"]);
}

#[test]
fn bad_lines_say_what_is_wrong() {
    let mut parser = ChatParser::default();
    let mut out = Vec::new();
    assert!(parser
        .parse_line("{not json", &mut out)
        .unwrap_err()
        .contains("not JSON"));
    assert!(parser
        .parse_line(r#"{"$set":{"messages":[{"id":5}]}}"#, &mut out)
        .unwrap_err()
        .contains("$set message"));
    // Fields of unexpected shapes are read as far as they go.
    parser
        .parse_line(
            r#"{"id":"x","type":"gemini","content":{"odd":1},"thoughts":[]}"#,
            &mut out,
        )
        .unwrap();
    parser
        .parse_line(r#"{"id":"y","type":"user"}"#, &mut out)
        .unwrap();
    assert!(out.is_empty());
}
