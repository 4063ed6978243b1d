use super::*;

const ROLLOUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/codex-0.171.0/rollout.jsonl"
);

fn parse_all(text: &str) -> Vec<Record> {
    let mut parser = RolloutParser::default();
    let mut out = Vec::new();
    for line in text.lines() {
        parser.parse_line(line, &mut out).unwrap();
    }
    out
}

fn user_line(text: &str) -> String {
    serde_json::json!({"timestamp": "2026-11-30T09:00:00.000Z", "type": "response_item",
        "payload": {"type": "message", "id": "msg_x", "role": "user",
            "content": [{"type": "input_text", "text": text}]}})
    .to_string()
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

#[test]
fn the_real_rollout_keeps_what_was_typed_and_said_and_every_tool_run() {
    let records = parse_all(&std::fs::read_to_string(ROLLOUT).unwrap());
    assert_eq!(
        records[0],
        Record::Meta {
            cwd: Some("/home/dev/proj".into()),
            client_version: Some("0.171.0".into()),
            context_window: None,
            branch: None,
        }
    );
    // Its token counts say the model's window, once.
    let windows: Vec<u64> = records
        .iter()
        .filter_map(|r| match r {
            Record::Meta {
                context_window: Some(w),
                ..
            } => Some(*w),
            _ => None,
        })
        .collect();
    assert_eq!(windows, [258_400]);
    assert_eq!(
        prompts(&records),
        ["please RUNLS in this folder", "thanks, now summarize"]
    );
    let answers: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Answer { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(answers, ["Reply 1.", "Reply 2."]);
    let host_text: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Detail {
                kind: DetailKind::Attachment,
                name,
                ..
            } => name.as_deref(),
            _ => None,
        })
        .collect();
    // Developer messages are named by the kind Codex gives their content.
    assert_eq!(
        host_text,
        ["host_skills.instructions", "environment_context"]
    );
    let call = records.iter().find_map(|r| match r {
        Record::Detail {
            kind: DetailKind::ToolCall,
            name,
            tool_use_id,
            body,
            ..
        } => Some((name.clone(), tool_use_id.clone(), body.clone())),
        _ => None,
    });
    assert_eq!(
        call,
        Some((
            Some("exec_command".into()),
            Some("call_0".into()),
            r#"{"cmd": "ls -la"}"#.into()
        ))
    );
    let result = records.iter().find_map(|r| match r {
        Record::Detail {
            kind: DetailKind::ToolResult,
            tool_use_id,
            body,
            is_error,
            ..
        } => Some((tool_use_id.clone(), body.clone(), *is_error)),
        _ => None,
    });
    let (id, body, failed) = result.unwrap();
    assert_eq!(id.as_deref(), Some("call_0"));
    assert!(body.contains("Process exited with code 0\n"), "{body}");
    assert!(body.ends_with("-rw-r--r--  1 root root   12 Nov 30 08:51 hello.py\n"));
    assert!(!failed);
    let usage: Vec<(String, Usage)> = records
        .iter()
        .filter_map(|r| match r {
            Record::ApiCall {
                message_id, usage, ..
            } => Some((message_id.clone(), *usage)),
            _ => None,
        })
        .collect();
    assert_eq!(usage.len(), 3);
    assert_eq!(usage[0].1.context(), 10_121);
    assert_eq!(usage[2].1.context(), 10_319);
}

#[test]
fn codex_text_in_the_person_s_place_never_becomes_a_prompt() {
    for (text, name) in [
        (
            "<environment_context>\n  <cwd>/p</cwd>\n</environment_context>",
            "environment_context",
        ),
        (
            "# AGENTS.md instructions for /p\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>",
            "agents_md",
        ),
        (
            "<hook_prompt hook_run_id=\"r1\">keep going</hook_prompt>",
            "hook_prompt",
        ),
        (
            "  <skills_instructions>\n## Skills\n</skills_instructions>",
            "skills_instructions",
        ),
    ] {
        let records = parse_all(&user_line(text));
        assert!(prompts(&records).is_empty(), "{text}");
        assert!(
            matches!(&records[..], [Record::Detail { kind: DetailKind::Attachment, name: Some(n), body, .. }]
                if n == name && body == text),
            "{text}: {records:?}"
        );
    }
}

#[test]
fn a_goal_continuation_keeps_its_marks_and_objective_only() {
    let instructions = "Continue working toward the goal. ".repeat(150);
    let goal = format!(
        "<codex_internal_context source=\"goal\">\n{instructions}\n<objective>\nShip the \
         --json flag 決定\n</objective>\n{instructions}\n</codex_internal_context>"
    );
    assert_eq!(
        prompts(&parse_all(&user_line(&goal))),
        ["<codex_internal_context source=\"goal\">\n<objective>\nShip the --json flag 決定\n</objective>\n</codex_internal_context>"]
    );
    // Without its closing mark, or not at the start, the text is the person's as written.
    let open = goal.replace("</codex_internal_context>", "");
    assert_eq!(prompts(&parse_all(&user_line(&open))), [open.as_str()]);
    let quoted = format!("look at this: {goal}");
    assert_eq!(prompts(&parse_all(&user_line(&quoted))), [quoted.as_str()]);
    let bare = "<codex_internal_context source=\"goal\">go on</codex_internal_context>";
    assert_eq!(
        prompts(&parse_all(&user_line(bare))),
        ["<codex_internal_context source=\"goal\">\n</codex_internal_context>"]
    );
}

#[test]
fn reasoning_is_thinking_and_a_failed_command_is_an_error() {
    let lines = [
        r#"{"timestamp":"t1","type":"response_item","payload":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Listing files**"}],"content":[{"type":"reasoning_text","text":"ls shows them"}],"encrypted_content":"gAAA"}}"#,
        r#"{"timestamp":"t2","type":"response_item","payload":{"type":"reasoning","id":"rs_2","summary":[],"encrypted_content":"gAAA"}}"#,
        r#"{"timestamp":"t3","type":"response_item","payload":{"type":"function_call_output","call_id":"c9","output":"Chunk ID: 1\nProcess exited with code 2\nOutput:\nno such file\n"}}"#,
        r#"{"timestamp":"t4","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c8","output":{"content":"patch failed","success":false}}}"#,
    ];
    let records = parse_all(&lines.join("\n"));
    let bodies: Vec<(DetailKind, &str, bool)> = records
        .iter()
        .filter_map(|r| match r {
            Record::Detail {
                kind,
                body,
                is_error,
                ..
            } => Some((*kind, body.as_str(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(
        bodies,
        [
            (
                DetailKind::Thinking,
                "**Listing files**\n\nls shows them",
                false
            ),
            (DetailKind::Thinking, "[encrypted reasoning]", false),
            (
                DetailKind::ToolResult,
                "Chunk ID: 1\nProcess exited with code 2\nOutput:\nno such file\n",
                true
            ),
            (DetailKind::ToolResult, "patch failed", true),
        ]
    );
}

#[test]
fn bad_lines_are_named_and_unknown_ones_pass() {
    let mut parser = RolloutParser::default();
    let mut out = Vec::new();
    assert!(parser
        .parse_line("{not json", &mut out)
        .unwrap_err()
        .contains("not JSON"));
    assert!(parser
        .parse_line(r#"{"type":"response_item","payload":{"type":7}}"#, &mut out)
        .unwrap_err()
        .contains("response_item payload"));
    for fine in [
        r#"{"type":"brand_new_kind","payload":{"x":[1]}}"#,
        r#"{"type":"event_msg","payload":{"type":"brand_new_event"}}"#,
        r#"{"type":"event_msg"}"#,
        r#"{"type":"event_msg","payload":{"type":"token_count","info":null}}"#,
    ] {
        assert_eq!(parser.parse_line(fine, &mut out), Ok(None), "{fine}");
    }
    assert!(out.is_empty(), "{out:?}");
}

/// The memory a store holds of a session, as `detail` shows it.
#[test]
fn what_the_model_writes_in_a_compaction_turn_is_not_said_to_the_person() {
    // As Codex 0.171.0 wrote a `/compact`: a turn with no user message, the model's summary,
    // then the compacted history.
    let lines = [
        r#"{"timestamp":"t1","type":"event_msg","payload":{"type":"task_started","turn_id":"tc"}}"#,
        r#"{"timestamp":"t2","type":"response_item","payload":{"type":"message","id":"msg_2","role":"assistant","content":[{"type":"output_text","text":"Summary: the port is 8731."}]}}"#,
        r#"{"timestamp":"t3","type":"compacted","payload":{"message":"Another language model started to solve this problem and produced a summary"}}"#,
        r#"{"timestamp":"t4","type":"event_msg","payload":{"type":"task_complete","turn_id":"tc"}}"#,
        r#"{"timestamp":"t5","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}"#,
    ];
    let mut text = lines.join("\n");
    text.push('\n');
    text += &user_line("after compact");
    let records = parse_all(&text);
    assert!(
        !records.iter().any(|r| matches!(r, Record::Answer { .. })),
        "{records:?}"
    );
    let summaries = records
        .iter()
        .filter(|r| matches!(r, Record::Detail { name: Some(n), .. } if n == "compact_summary"))
        .count();
    assert_eq!(summaries, 2);
    assert_eq!(prompts(&records), ["after compact"]);
}

#[test]
fn a_long_output_without_its_header_is_read_even_when_byte_400_is_inside_a_character() {
    // 399 ASCII bytes, then a three-byte character across byte 400, and no "Output:" line.
    let output = format!("{}€ and more", "x".repeat(399));
    assert_eq!(exit_code(&output), None);
    let with_code = format!("Process exited with code 2\n{}", "é".repeat(300));
    assert_eq!(exit_code(&with_code), Some(2));
}

#[test]
fn the_session_meta_names_the_branch_when_the_session_started_in_a_repository() {
    let meta = |git: &str| {
        format!(
            r#"{{"timestamp":"2026-11-30T09:00:00.000Z","type":"session_meta","payload":{{"id":"s","cwd":"/home/dev/proj","cli_version":"0.171.0","git":{git}}}}}"#
        )
    };
    let branches = |text: &str| -> Vec<Option<String>> {
        parse_all(text)
            .into_iter()
            .filter_map(|r| match r {
                Record::Meta { branch, .. } => Some(branch),
                _ => None,
            })
            .collect()
    };
    // The sample's folder is no repository: `git` is empty.
    assert_eq!(branches(&meta("{}")), [None]);
    let resumed = [
        meta(r#"{"commit_hash":"0a1b","branch":"main","repository_url":"git@example.com:p.git"}"#),
        meta(r#"{"branch":"main"}"#),
        meta(r#"{"branch":"release/2"}"#),
    ]
    .join("\n");
    assert_eq!(
        branches(&resumed),
        [Some("main".to_string()), Some("release/2".to_string())]
    );
}
