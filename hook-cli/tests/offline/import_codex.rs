//! The real binary on the real Codex 0.171.0 dumps: `import --host codex` backfills a rollout,
//! the hooks Codex sent for it land in the same session, and the read verbs show it.

use std::fs;

use serde_json::Value;

use crate::support::throughline::{in_home, json_of};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/codex-0.171.0");
const SESSION: &str = "01a22ba6-a25c-7110-8548-5c0daa3cbefe";

#[test]
fn import_and_hooks_agree_on_the_session_and_every_verb_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join(".codex/sessions/2026/11/30");
    fs::create_dir_all(&day).unwrap();
    let rollout = day.join(format!("rollout-2026-11-30T08-51-10-{SESSION}.jsonl"));
    let text = fs::read_to_string(format!("{SAMPLES}/rollout.jsonl")).unwrap();
    // The first turn is on disk before the import; the resumed turn comes with its hooks.
    let resumed_at = text.find(r#""type":"thread_settings_applied""#).unwrap();
    let cut = text[..resumed_at].rfind('\n').unwrap() + 1;
    fs::write(&rollout, &text[..cut]).unwrap();

    let imported = json_of(&in_home(
        dir.path(),
        &["import", "--host", "codex", "--json"],
        b"",
    ));
    assert_eq!(imported["transcripts"], 1);
    assert_eq!(imported["problems"], Value::Array(Vec::new()));

    fs::write(&rollout, &text).unwrap();
    for name in ["05-SessionStart", "06-UserPromptSubmit", "07-Stop"] {
        let payload = fs::read_to_string(format!("{SAMPLES}/hooks/{name}.json")).unwrap();
        let payload = payload.replace(
            &format!(
                "/home/dev/.codex/sessions/2026/11/30/rollout-2026-11-30T08-51-10-{SESSION}.jsonl"
            ),
            &rollout.display().to_string(),
        );
        let out = in_home(dir.path(), &["hook", "codex"], payload.as_bytes());
        assert!(out.status.success());
        assert_eq!(out.stdout, b"", "{name}: a resumed session gets nothing");
    }

    let shown = json_of(&in_home(dir.path(), &["show", SESSION, "--json"], b""));
    let turns = shown["turns"].as_array().unwrap();
    let prompts: Vec<&str> = turns
        .iter()
        .filter_map(|t| t["messages"][0]["text"].as_str())
        .collect();
    assert_eq!(
        prompts,
        ["please RUNLS in this folder", "thanks, now summarize"]
    );
    assert_eq!(shown["session"]["host"], "codex");
    let recalled = in_home(
        dir.path(),
        &["recall", "--session", SESSION, "--last", "1"],
        b"",
    );
    let recalled = String::from_utf8_lossy(&recalled.stdout).into_owned();
    assert!(recalled.contains("Reply 2."), "{recalled}");
    let stats = json_of(&in_home(
        dir.path(),
        &["stats", "--session", SESSION, "--json"],
        b"",
    ));
    // Three requests, from the rollout's token counts; the last one's context for the gauge.
    let session = &stats["sessions"][0];
    assert_eq!(
        (
            &session["turns"],
            &session["api_calls"],
            &session["usage"]["input"],
            &session["last_context"]
        ),
        (
            &Value::from(2),
            &Value::from(3),
            &Value::from(30_694),
            &Value::from(10_319)
        ),
        "{stats}"
    );
    let found = json_of(&in_home(
        dir.path(),
        &["search", "hello.py", "--all", "--json"],
        b"",
    ));
    assert!(found.to_string().contains("exec_command"), "{found}");
}

#[test]
fn a_hook_given_garbage_exits_0_prints_nothing_and_logs_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for payload in [
        &b""[..],
        b"{\"session_id\":",
        b"\xff\xfe",
        b"{\"hook_event_name\":\"Stop\"}",
    ] {
        let out = in_home(dir.path(), &["hook", "codex"], payload);
        assert!(out.status.success());
        assert_eq!(out.stdout, b"");
    }
    let log = fs::read_to_string(dir.path().join("memory/throughline.log")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    assert!(log.lines().all(|l| l.contains("hook codex")), "{log}");
    // A rollout that is not one is read past line by line, in one log line for the file.
    // Where Codex keeps its rollouts: a hook reads nothing else.
    let rollout = dir.path().join(".codex/sessions/rollout.jsonl");
    fs::create_dir_all(rollout.parent().unwrap()).unwrap();
    fs::write(
        &rollout,
        "not json\n{\"type\":\"response_item\",\"payload\":{\"type\":1}}\n",
    )
    .unwrap();
    let payload = format!(
        r#"{{"session_id":"s1","transcript_path":"{}","cwd":"/p","hook_event_name":"Stop"}}"#,
        rollout.display()
    );
    let out = in_home(dir.path(), &["hook", "codex"], payload.as_bytes());
    assert!(out.status.success() && out.stdout.is_empty());
    let log = fs::read_to_string(dir.path().join("memory/throughline.log")).unwrap();
    let skipped: Vec<&str> = log.lines().filter(|l| l.contains("skipped line")).collect();
    assert_eq!(skipped.len(), 1, "{log}");
    assert!(
        skipped[0].contains("and 1 more problems in this file"),
        "{log}"
    );
}
