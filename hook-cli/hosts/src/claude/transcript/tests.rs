use super::*;
use throughline_core::record::Record;

fn parse(line: &str) -> Vec<Record> {
    let mut out = Vec::new();
    TranscriptParser {
        cwd_seen: true,
        ..Default::default()
    }
    .parse_line(line, &mut out)
    .unwrap();
    out
}

fn kinds(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| match r {
            Record::Meta { .. } => "meta".to_string(),
            Record::Prompt { .. } => "prompt".to_string(),
            Record::Answer { .. } => "answer".to_string(),
            Record::Detail { kind, .. } => kind.as_str().to_string(),
            Record::ApiCall { .. } => "api".to_string(),
            Record::Summary { .. } => "summary".to_string(),
            Record::Rollback(_) => "rollback".to_string(),
        })
        .collect()
}

#[test]
fn a_typed_prompt_is_a_prompt_verbatim() {
    let r = parse(
        r#"{"type":"user","uuid":"u1","promptId":"p","message":{"role":"user","content":"Add a --json flag. 決定: UTF-8。"}}"#,
    );
    assert_eq!(
        r,
        [Record::Prompt {
            key: "u:u1".into(),
            text: "Add a --json flag. 決定: UTF-8。".into(),
            at: None
        }]
    );
}

#[test]
fn host_text_is_never_a_prompt() {
    let cases = [
        (
            r#"{"type":"user","uuid":"a","message":{"content":"<command-name>/clear</command-name>\n<command-args></command-args>"}}"#,
            "command",
        ),
        (
            r#"{"type":"user","uuid":"b","isMeta":true,"message":{"content":"<local-command-caveat>Caveat</local-command-caveat>"}}"#,
            "meta",
        ),
        (
            r#"{"type":"user","uuid":"c","message":{"content":"<local-command-stdout>ok</local-command-stdout>"}}"#,
            "command",
        ),
        (
            r#"{"type":"user","uuid":"d","isCompactSummary":true,"message":{"content":"This session is being continued..."}}"#,
            "meta",
        ),
        (
            r#"{"type":"user","uuid":"e","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}}"#,
            "meta",
        ),
        (
            r#"{"type":"user","uuid":"f","isSidechain":true,"message":{"content":"Search the repo for X"}}"#,
            "subagent",
        ),
        // 2.1.336 reminds the model in a turn that has worked a while without a word to the
        // person, and asks again by itself when an answer showed nothing.
        (
            r#"{"type":"attachment","uuid":"r","attachment":{"type":"silent_turn_reminder","text":"The user hasn't heard from you in a while."}}"#,
            "attachment",
        ),
        (
            r#"{"type":"user","uuid":"h","isMeta":true,"turnCompanion":true,"ownNote":true,"promptId":"p","message":{"role":"user","content":"[Your previous response had no visible output. Please continue and produce a user-visible response.]"}}"#,
            "meta",
        ),
        (
            r#"{"type":"user","uuid":"g","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}"#,
            "tool_result",
        ),
    ];
    for (line, kind) in cases {
        assert_eq!(kinds(&parse(line)), [kind], "{line}");
    }
}

#[test]
fn an_output_too_large_for_the_transcript_is_stored_whole_from_the_file_the_client_saved() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("s1.jsonl");
    std::fs::create_dir_all(dir.path().join("s1/tool-results")).unwrap();
    let whole = "line 1\n".repeat(5000) + "the line only the whole output has\n";
    std::fs::write(dir.path().join("s1/tool-results/b7.txt"), &whole).unwrap();
    let line = |file: &str| {
        format!(
            r#"{{"type":"user","uuid":"u","message":{{"content":[{{"type":"tool_result","tool_use_id":"t9","content":"<persisted-output>\nOutput too large (39.1KB). Full output saved to: /Users/me/.claude/projects/p/s1/tool-results/{file}\n\nPreview (first 2KB):\nline 1\n...\n</persisted-output>"}}]}}}}"#
        )
    };
    let body = |line: &str| {
        let mut out = Vec::new();
        TranscriptParser::for_transcript(&transcript)
            .parse_line(line, &mut out)
            .unwrap();
        match out.pop() {
            Some(Record::Detail { body, .. }) => body,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(body(&line("b7.txt")), whole);
    // A file that is gone (cleaned up, another machine's) leaves the preview as it was.
    assert!(body(&line("gone.txt")).starts_with("<persisted-output>\nOutput too large"));
}

#[test]
fn tool_results_keep_their_text_and_error_flag() {
    let r = parse(
        r#"{"type":"user","uuid":"u","message":{"content":[{"type":"tool_result","tool_use_id":"t9","is_error":true,"content":[{"type":"text","text":"line 1"},{"type":"text","text":"line 2"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}]}}"#,
    );
    match &r[0] {
        Record::Detail {
            kind,
            body,
            is_error,
            tool_use_id,
            ..
        } => {
            assert_eq!(*kind, DetailKind::ToolResult);
            assert_eq!(body, "line 1\nline 2");
            assert!(*is_error);
            assert_eq!(tool_use_id.as_deref(), Some("t9"));
        }
        other => panic!("{other:?}"),
    }
    match &r[1] {
        Record::Detail { kind, body, .. } => {
            assert_eq!(*kind, DetailKind::Image);
            assert_eq!(body, "[image/png, 3 bytes]");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn assistant_blocks_are_keyed_so_repeats_store_once() {
    let line = r#"{"type":"assistant","uuid":"x","message":{"id":"msg_1","model":"m","content":[{"type":"text","text":"Looking."}],"usage":{"input_tokens":10,"cache_creation_input_tokens":2,"cache_read_input_tokens":3,"output_tokens":4}}}"#;
    let again = line.replace("\"uuid\":\"x\"", "\"uuid\":\"y\"");
    assert_eq!(parse(line), parse(&again));
    assert_eq!(kinds(&parse(line)), ["answer", "api"]);
    let tool = r#"{"type":"assistant","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls -la",  "z":1}}]}}"#;
    match &parse(tool)[0] {
        Record::Detail {
            kind, name, body, ..
        } => {
            assert_eq!(*kind, DetailKind::ToolCall);
            assert_eq!(name.as_deref(), Some("Bash"));
            assert_eq!(
                body, r#"{"command":"ls -la",  "z":1}"#,
                "tool input is kept as written"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn thinking_sidechain_and_api_errors_stay_in_detail() {
    let thinking = r#"{"type":"assistant","message":{"id":"m","content":[{"type":"thinking","thinking":"hmm","signature":"s"}]}}"#;
    assert_eq!(kinds(&parse(thinking)), ["thinking"]);
    let side = r#"{"type":"assistant","isSidechain":true,"message":{"id":"m2","content":[{"type":"text","text":"found it"}],"usage":{"input_tokens":1}}}"#;
    let r = parse(side);
    assert_eq!(kinds(&r), ["subagent", "api"]);
    assert!(matches!(
        r[1],
        Record::ApiCall {
            sidechain: true,
            ..
        }
    ));
    let err = r#"{"type":"assistant","isApiErrorMessage":true,"message":{"id":"m3","model":"<synthetic>","content":[{"type":"text","text":"API Error: 500"}],"usage":{"input_tokens":0}}}"#;
    assert_eq!(
        kinds(&parse(err)),
        ["system"],
        "synthetic usage is not recorded"
    );
}

#[test]
fn bookkeeping_lines_are_skipped_and_garbage_is_an_error() {
    assert!(parse(r#"{"type":"file-history-snapshot","messageId":"x"}"#).is_empty());
    assert!(parse(r#"{"type":"last-prompt","lastPrompt":"x"}"#).is_empty());
    let mut out = Vec::new();
    let err = TranscriptParser::default()
        .parse_line("{not json", &mut out)
        .unwrap_err();
    assert!(err.contains("not JSON"), "{err}");
}

#[test]
fn every_line_of_the_sample_transcripts_parses() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/claude-2.1.197/transcripts"
    );
    let mut prompts = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut parser = TranscriptParser::default();
        for line in text.lines() {
            let mut out = Vec::new();
            parser.parse_line(line, &mut out).unwrap();
            prompts += out
                .iter()
                .filter(|r| matches!(r, Record::Prompt { .. }))
                .count();
        }
    }
    assert_eq!(prompts, 6, "five prompts before /clear and one after");
}

#[test]
fn an_attachment_keeps_its_type_and_its_json_whatever_its_content() {
    let attachment = r##"{"type":"hook_additional_context","content":["# Memory","more"],"hookName":"SessionStart"}"##;
    let r = parse(&format!(
        r#"{{"type":"attachment","uuid":"a1","attachment":{attachment}}}"#
    ));
    let [Record::Detail {
        kind, name, body, ..
    }] = &r[..]
    else {
        panic!("{r:?}");
    };
    assert_eq!(*kind, DetailKind::Attachment);
    assert_eq!(name.as_deref(), Some("hook_additional_context"));
    assert_eq!(body, attachment);
}

#[test]
fn content_that_is_neither_text_nor_blocks_is_kept_as_its_json() {
    let r = parse(
        r#"{"type":"user","uuid":"u9","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":{"files":["a.rs"],"count":1}}]}}"#,
    );
    let [Record::Detail { kind, body, .. }] = &r[..] else {
        panic!("{r:?}");
    };
    assert_eq!(*kind, DetailKind::ToolResult);
    assert_eq!(body, r#"{"files":["a.rs"],"count":1}"#);
}

/// The prompts (text) a fixture transcript yields, in file order.
fn prompts_of(fixture: &str) -> Vec<String> {
    let path = format!("{}/../tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let mut parser = TranscriptParser::default();
    let mut prompts = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut out = Vec::new();
        parser.parse_line(line, &mut out).unwrap();
        prompts.extend(out.into_iter().filter_map(|r| match r {
            Record::Prompt { text, .. } => Some(text),
            _ => None,
        }));
    }
    prompts
}

/// One session of each client: a typed prompt, a command file with arguments, a prompt
/// queued behind a slow answer, a long paste, a prompt queued while a tool ran, a prompt a
/// hook blocked and local commands.
#[test]
fn every_prompt_the_person_typed_is_a_prompt_in_both_versions() {
    let pasted: String = (1..=40)
        .map(|i| {
            format!("Pasted line {i}: the quick brown fox jumps over the lazy dog, 決定 {i}.\n")
        })
        .collect();
    let typed = |paste: &str| {
        vec![
            "first plain prompt".to_string(),
            "/worktree-pr 幫我發 pr 給 marco please".to_string(),
            "SLOW one please".to_string(),
            "queued while working".to_string(),
            paste.to_string(),
            "TOOL run a slow command".to_string(),
            "mid-turn queued note".to_string(),
        ]
    };
    // 2.1.332 wraps a long paste in tags with an id the person never sees. Three prompts a
    // hook blocked follow (the client kept each in the input box, so they grew).
    let current = typed(&format!(
        "Look at this log: \n\n[Pasted text]\n{pasted}[End of pasted text]\n\n and tell me"
    ));
    assert_eq!(
        prompts_of("claude-2.1.332/prompts/7934ba4f-0869-45fd-bf0f-7e833733f925.jsonl"),
        current
    );
    // 2.1.197 writes the paste inline; after the blocked prompt come /model, /clear, and
    // in the new session a prompt and two commands.
    let mut oldest = typed(&format!(
        "Look at this log: {} and tell me",
        pasted.trim_end()
    ));
    assert_eq!(
        prompts_of("claude-2.1.197/prompts/f340e2f9-0a6b-4f50-9d43-cd0140b3d5db.jsonl"),
        oldest
    );
    oldest = vec!["after clear".into(), "/worktree-pr".into(), "/init".into()];
    assert_eq!(
        prompts_of("claude-2.1.197/prompts/60d4fceb-14d5-4500-a188-aa1cf900de26.jsonl"),
        oldest
    );
}

#[test]
fn local_commands_and_blocked_prompts_stay_host_text() {
    let cases = [
        // 2.1.197 `/model sonnet`: name first, answered by the client.
        r#"{"type":"user","uuid":"m","message":{"content":"<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>sonnet</command-args>"}}"#,
        // A model command the client marks as not written by the person.
        r#"{"type":"user","uuid":"n","origin":{"kind":"agent"},"message":{"content":"<command-message>review</command-message>\n<command-name>/review</command-name>"}}"#,
    ];
    for line in cases {
        assert_eq!(kinds(&parse(line)), ["command"], "{line}");
    }
    let blocked = r#"{"type":"system","subtype":"informational","uuid":"b","content":"UserPromptSubmit operation blocked by hook:\nBlocked.\n\nOriginal prompt: /tl","level":"warning","preventContinuation":true}"#;
    assert_eq!(kinds(&parse(blocked)), ["system"]);
    // Queued entries that are not the person's prompt stay attachments.
    for attachment in [
        r#"{"type":"queued_command","prompt":"<task-notification>done</task-notification>","commandMode":"task-notification"}"#,
        r#"{"type":"queued_command","prompt":"hi","commandMode":"prompt","origin":{"kind":"agent"}}"#,
        r#"{"type":"queued_command","commandMode":"prompt"}"#,
    ] {
        let line = format!(r#"{{"type":"attachment","uuid":"q","attachment":{attachment}}}"#);
        assert_eq!(kinds(&parse(&line)), ["attachment"], "{line}");
    }
}

#[test]
fn a_command_keeps_what_the_person_typed_and_its_expansion_stays_in_detail() {
    let command = parse(
        r#"{"type":"user","uuid":"c1","origin":{"kind":"human"},"message":{"content":"<command-message>worktree-pr</command-message>\n<command-name>/worktree-pr</command-name>\n<command-args>  ship it  </command-args>"}}"#,
    );
    assert_eq!(
        command,
        [Record::Prompt {
            key: "u:c1".into(),
            text: "/worktree-pr ship it".into(),
            at: None
        }]
    );
    let body = parse(
        r#"{"type":"user","uuid":"c2","parentUuid":"c1","isMeta":true,"message":{"content":[{"type":"text","text":"Open a pull request.\n\nInstructions: ship it\n"}]}}"#,
    );
    assert_eq!(kinds(&body), ["meta"]);
}

#[test]
fn a_queued_prompt_from_blocks_keeps_their_text() {
    let r = parse(
        r#"{"type":"attachment","uuid":"q1","timestamp":"2026-12-01T10:34:44.287Z","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"one"},{"type":"image","source":{}},{"type":"text","text":"two"}],"commandMode":"prompt"}}"#,
    );
    assert_eq!(
        r,
        [Record::Prompt {
            key: "u:q1".into(),
            text: "one\ntwo".into(),
            at: Some("2026-12-01T10:34:44.287Z".into())
        }]
    );
}

#[test]
fn paste_tags_are_replaced_only_when_they_pair_up() {
    let text = |t: &str| {
        let line = serde_json::json!({"type": "user", "uuid": "p", "message": {"content": t}});
        match &parse(&line.to_string())[..] {
            [Record::Prompt { text, .. }] => text.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        text("a <pasted_content id=\"1\">x</pasted_content id=\"1\"> b <pasted_content id=\"e5\">\ny\n</pasted_content id=\"e5\">"),
        "a [Pasted text]x[End of pasted text] b [Pasted text]\ny\n[End of pasted text]"
    );
    // A prompt that is all paste (2.1.332 puts blank lines around it).
    assert_eq!(
        text("\n\n<pasted_content id=\"e5e0\">\nRun it twice:\n- once\n</pasted_content id=\"e5e0\">\n"),
        "[Pasted text]\nRun it twice:\n- once\n[End of pasted text]"
    );
    // Unpaired or mismatched tags are the person's own text.
    for kept in [
        "<pasted_content id=\"1\">x",
        "<pasted_content id=\"1\">x</pasted_content id=\"2\">",
        "<pasted_content id=\"1",
    ] {
        assert_eq!(text(kept), kept);
    }
}

/// The branches the Meta records of a fixture transcript say, in file order.
fn branches_of(path: &str) -> Vec<String> {
    let mut parser = TranscriptParser::default();
    let mut branches = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut out = Vec::new();
        parser.parse_line(line, &mut out).unwrap();
        branches.extend(out.into_iter().filter_map(|r| match r {
            Record::Meta { branch, .. } => branch,
            _ => None,
        }));
    }
    branches
}

#[test]
fn the_branch_is_said_once_until_it_changes_and_head_is_no_branch() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures");
    assert_eq!(
        branches_of(&format!(
            "{fixtures}/claude-2.1.332/prompts/7934ba4f-0869-45fd-bf0f-7e833733f925.jsonl"
        )),
        ["master"]
    );
    // Written in a folder that is not a repository.
    assert!(branches_of(&format!(
        "{fixtures}/claude-2.1.197/transcripts/f839b538-b1ae-45df-beaa-8b044d1f240c.jsonl"
    ))
    .is_empty());

    let mut parser = TranscriptParser::default();
    let mut out = Vec::new();
    for branch in ["main", "main", "HEAD", "fix/parser", "main"] {
        let line = format!(
            r#"{{"type":"system","uuid":"s-{branch}","cwd":"/p","version":"2.1.332","gitBranch":"{branch}"}}"#
        );
        parser.parse_line(&line, &mut out).unwrap();
    }
    let metas: Vec<(Option<&str>, Option<&str>)> = out
        .iter()
        .filter_map(|r| match r {
            Record::Meta { cwd, branch, .. } => Some((cwd.as_deref(), branch.as_deref())),
            _ => None,
        })
        .collect();
    assert_eq!(
        metas,
        [
            (Some("/p"), Some("main")),
            (None, Some("fix/parser")),
            (None, Some("main"))
        ]
    );
}
