//! The real binary on real Gemini CLI 0.61.0 chat files: `import --host gemini` backfills
//! them, the hooks the CLI sent for a session land in the same session, and a hook given
//! garbage never disturbs the CLI.

use std::fs;

use serde_json::Value;

use crate::support::throughline::{in_home, json_of};

const SAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/gemini-cli-0.61.0"
);
const FIRST: &str = "7f206dea-04d3-4e6a-92b8-4d3649748340";
const SECOND: &str = "fe92adb4-0c4a-4e7b-8b82-6a45a1d1b4e6";

#[test]
fn import_and_hooks_agree_on_the_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let chats = dir.path().join(".gemini/tmp/proj/chats");
    fs::create_dir_all(&chats).unwrap();
    let first = chats.join("session-2026-11-30T08-51-7f206dea.jsonl");
    fs::copy(
        format!("{SAMPLES}/chats/session-2026-11-30T08-51-7f206dea.jsonl"),
        &first,
    )
    .unwrap();
    let imported = json_of(&in_home(
        dir.path(),
        &["import", "--host", "gemini", "--json"],
        b"",
    ));
    assert_eq!(imported["transcripts"], 1);
    assert_eq!(imported["problems"], Value::Array(Vec::new()));

    // The second session arrives live, through the hooks the CLI sent for it.
    let second = chats.join("session-2026-11-30T08-52-fe92adb4.jsonl");
    fs::copy(
        format!("{SAMPLES}/chats/session-2026-11-30T08-52-fe92adb4.jsonl"),
        &second,
    )
    .unwrap();
    for name in [
        "05-SessionStart",
        "06-BeforeAgent",
        "07-AfterAgent",
        "08-SessionEnd",
    ] {
        let payload = fs::read_to_string(format!("{SAMPLES}/hooks/{name}.json"))
            .unwrap()
            .replace(
                "/home/dev/.gemini/home/dev/proj/chats",
                &chats.display().to_string(),
            );
        let out = in_home(dir.path(), &["hook", "gemini"], payload.as_bytes());
        assert!(out.status.success());
        assert_eq!(out.stdout, b"", "{name}: nothing to hand on");
    }
    // Importing again adds nothing: the hooks' session is the imported one's.
    let again = json_of(&in_home(
        dir.path(),
        &["import", "--host", "gemini", "--json"],
        b"",
    ));
    assert_eq!(again["problems"], Value::Array(Vec::new()));

    for (id, prompt, answer) in [
        (FIRST, "hello there", "Gemini reply 5."),
        (SECOND, "hello again", "Gemini reply 11."),
    ] {
        let shown = json_of(&in_home(dir.path(), &["show", id, "--json"], b""));
        assert_eq!(shown["session"]["host"], "gemini");
        assert_eq!(shown["session"]["cwd"], "/home/dev/proj");
        let texts: Vec<&str> = shown["turns"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["messages"].as_array().unwrap())
            .filter_map(|m| m["text"].as_str())
            .collect();
        assert_eq!(texts, [prompt, answer], "{shown}");
    }
    let stats = json_of(&in_home(
        dir.path(),
        &["stats", "--session", SECOND, "--json"],
        b"",
    ));
    let session = &stats["sessions"][0];
    assert_eq!(
        (&session["api_calls"], &session["last_context"]),
        (&Value::from(1), &Value::from(9_657)),
        "{stats}"
    );
}

#[test]
fn a_hook_given_garbage_exits_0_prints_nothing_and_logs_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for payload in [
        &b""[..],
        b"{\"session_id\":",
        b"\xff\xfe",
        b"{\"hook_event_name\":\"AfterAgent\"}",
    ] {
        let out = in_home(dir.path(), &["hook", "gemini"], payload);
        assert!(out.status.success());
        assert_eq!(out.stdout, b"");
    }
    let log = fs::read_to_string(dir.path().join("memory/throughline.log")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    assert!(log.lines().all(|l| l.contains("hook gemini")), "{log}");
    // A chat file that is not one is read past line by line, in one log line for the file.
    // Where Gemini CLI keeps its chats: a hook reads nothing else.
    let chat = dir.path().join(".gemini/tmp/p/chats/chat.jsonl");
    fs::create_dir_all(chat.parent().unwrap()).unwrap();
    fs::write(&chat, "not json\n{\"$set\":{\"messages\":[{\"id\":1}]}}\n").unwrap();
    let payload = format!(
        r#"{{"session_id":"s1","transcript_path":"{}","cwd":"/p","hook_event_name":"AfterAgent"}}"#,
        chat.display()
    );
    let out = in_home(dir.path(), &["hook", "gemini"], payload.as_bytes());
    assert!(out.status.success() && out.stdout.is_empty());
    let log = fs::read_to_string(dir.path().join("memory/throughline.log")).unwrap();
    let skipped: Vec<&str> = log.lines().filter(|l| l.contains("skipped line")).collect();
    assert_eq!(skipped.len(), 1, "{log}");
    assert!(
        skipped[0].contains("and 1 more problems in this file"),
        "{log}"
    );
}

/// `/rewind` writes `{"$rewindTo": <message id>}`: the prompt it goes back to before, and
/// every turn after it, leave the memory and the search index; what is said next continues.
#[test]
fn a_rewind_takes_the_turns_from_its_prompt_on_out_of_the_memory() {
    let dir = tempfile::tempdir().unwrap();
    let chats = dir.path().join(".gemini/tmp/proj/chats");
    fs::create_dir_all(&chats).unwrap();
    let session = "5e1f0a2b-7c3d-4e5f-8a9b-0c1d2e3f4a5b";
    let line = |v: Value| v.to_string() + "\n";
    let mut text = line(serde_json::json!({"sessionId": session, "projectHash": "p",
        "startTime": "2026-12-02T09:00:00.000Z", "kind": "main"}));
    for (n, said) in [
        "keep the parser",
        "try the rewritefactor idea",
        "and go further with it",
    ]
    .iter()
    .enumerate()
    {
        text += &line(serde_json::json!({"id": format!("u{n}"), "type": "user",
            "timestamp": format!("2026-12-02T09:0{n}:00.000Z"), "content": [{"text": said}]}));
        text += &line(serde_json::json!({"id": format!("g{n}"), "type": "gemini",
            "timestamp": format!("2026-12-02T09:0{n}:30.000Z"), "content": format!("Done: {said}.")}));
    }
    text += &line(serde_json::json!({"$rewindTo": "u1"}));
    text += &line(serde_json::json!({"id": "u9", "type": "user",
        "timestamp": "2026-12-02T09:09:00.000Z", "content": [{"text": "instead, document the parser"}]}));
    text += &line(serde_json::json!({"id": "g9", "type": "gemini",
        "timestamp": "2026-12-02T09:09:30.000Z", "content": "Documented."}));
    fs::write(chats.join("session-2026-12-02T09-00-5e1f0a2b.jsonl"), text).unwrap();
    json_of(&in_home(
        dir.path(),
        &["import", "--host", "gemini", "--json"],
        b"",
    ));
    let shown = json_of(&in_home(dir.path(), &["show", session, "--json"], b""));
    let prompts: Vec<&str> = shown["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["seq"].as_u64() != Some(0))
        .map(|t| t["messages"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(prompts, ["keep the parser", "instead, document the parser"]);
    let found = in_home(dir.path(), &["search", "--all", "rewritefactor"], b"");
    assert_eq!(
        found.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&found.stdout)
    );
}
