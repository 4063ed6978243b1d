//! The hook binary against real Claude Code payloads and transcripts, and against bad input:
//! whatever arrives, it exits 0, prints nothing, logs one line, and loses nothing stored.

mod support;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use support::store_env::StoreEnv;
use support::throughline::bin;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-2.1.197");
const BEFORE_CLEAR: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";
const AFTER_CLEAR: &str = "0f1b393e-f41a-4e1e-9a85-60441f844f13";

/// The store and projects folder of [`StoreEnv`], with transcripts named by session.
struct Env(StoreEnv);

impl std::ops::Deref for Env {
    type Target = StoreEnv;
    fn deref(&self) -> &StoreEnv {
        &self.0
    }
}

impl std::ops::DerefMut for Env {
    fn deref_mut(&mut self) -> &mut StoreEnv {
        &mut self.0
    }
}

impl Env {
    fn new() -> Env {
        Env(StoreEnv::new())
    }

    fn transcript(&self, session: &str) -> PathBuf {
        self.path(&format!("{session}.jsonl"))
    }

    /// Runs the hook and checks the contract: exit 0, and nothing on stdout but one line of
    /// JSON for the host (the memory after `/clear`).
    fn hook(&self, payload: &[u8]) -> Output {
        let out = self.throughline(&["hook", "claude"], payload);
        assert!(out.status.success(), "hook failed: {out:?}");
        if !out.stdout.is_empty() {
            let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!("hook printed what the host cannot read ({e}): {out:?}")
            });
            assert!(
                reply["hookSpecificOutput"]["additionalContext"].is_string(),
                "{reply}"
            );
        }
        out
    }

    /// A sample payload with its transcript path pointed at this environment.
    fn payload(&self, file: &str) -> Vec<u8> {
        let text = fs::read_to_string(Path::new(FIXTURES).join("hooks").join(file)).unwrap();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        let session = v["session_id"].as_str().unwrap().to_string();
        v["transcript_path"] = self.transcript(&session).to_string_lossy().into();
        serde_json::to_vec(&v).unwrap()
    }

    fn append(&self, session: &str, bytes: &[u8]) {
        self.append_to(&format!("{session}.jsonl"), bytes);
    }
}

fn sample(session: &str) -> Vec<u8> {
    fs::read(
        Path::new(FIXTURES)
            .join("transcripts")
            .join(format!("{session}.jsonl")),
    )
    .unwrap()
}

fn payload_files() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(Path::new(FIXTURES).join("hooks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn prompts(memory: &[Value]) -> Vec<String> {
    memory
        .iter()
        .flat_map(|t| t["messages"].as_array().unwrap().clone())
        .filter(|m| m["role"] == "user")
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn import_leaves_projects_with_capture_off_alone() {
    let env = Env::new();
    for session in [BEFORE_CLEAR, AFTER_CLEAR] {
        env.append(session, &sample(session));
    }
    fs::create_dir_all(&env.home).unwrap();
    // The samples ran in /home/dev/toy: everything under /home/dev is off.
    fs::write(
        env.home.join("config.json"),
        r#"{"capture_off": ["/home/dev"]}"#,
    )
    .unwrap();
    let from = env.projects();
    let done = env.json(&["import", "--from", &from, "--json"]);
    assert_eq!(
        (done["transcripts"].as_u64(), done["left_alone"].as_u64()),
        (Some(0), Some(2)),
        "{done}"
    );

    fs::write(env.home.join("config.json"), r#"{"capture_off": []}"#).unwrap();
    let done = env.json(&["import", "--from", &from, "--json"]);
    assert_eq!(
        (done["transcripts"].as_u64(), done["left_alone"].as_u64()),
        (Some(2), Some(0)),
        "{done}"
    );
}

/// Live capture: the transcript grows in uneven pieces (often cut mid-line) while the real
/// payloads fire in order. The result must equal a one-shot import of the finished files.
#[test]
fn live_capture_equals_import_of_the_finished_transcripts() {
    let live = Env::new();
    let files = payload_files();
    let mut fed = std::collections::HashMap::<&str, usize>::new();
    for (i, file) in files.iter().enumerate() {
        for session in [BEFORE_CLEAR, AFTER_CLEAR] {
            let full = sample(session);
            let from = *fed.get(session).unwrap_or(&0);
            // Feed a share of the file that grows with the event count, at an odd byte.
            let to = (full.len() * (i + 1) / files.len() + 37 * i).min(full.len());
            if to > from {
                live.append(session, &full[from..to]);
                fed.insert(session, to);
            }
        }
        live.hook(&live.payload(file));
    }
    // One more call per session once both files are whole (the host would fire the next event).
    live.hook(&live.payload("27-Stop.json"));
    live.hook(&live.payload("32-SessionEnd.json"));

    let imported = imported(&[
        (BEFORE_CLEAR, &sample(BEFORE_CLEAR)),
        (AFTER_CLEAR, &sample(AFTER_CLEAR)),
    ]);

    for session in [BEFORE_CLEAR, AFTER_CLEAR] {
        assert_eq!(
            live.memory(session),
            imported.memory(session),
            "session {session}"
        );
    }
    let before = live.memory(BEFORE_CLEAR);
    assert_eq!(
        prompts(&before),
        [
            "Read app.py and tell me what it does.",
            "Run it on items.json and list the directory.",
            "Add a --json flag that prints {\"total\": value} instead. 決定: 出力は常に UTF-8。",
            "Write a test file for total_value.",
            "What happens with a missing file?",
        ]
    );
    // The /clear wrapper of the new session is kept, but not as a prompt.
    let after = live.memory(AFTER_CLEAR);
    assert_eq!(prompts(&after), ["Continue with the next step."]);
    assert!(after[0]["details"]
        .to_string()
        .contains("<command-name>/clear"));
    assert!(live.log().is_empty(), "unexpected log: {}", live.log());

    // Hook events recorded what the transcript cannot say.
    let sessions = live.json(&["sessions", "--all", "--json"]);
    let old = sessions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == BEFORE_CLEAR)
        .unwrap();
    assert_eq!(old["end_reason"], "clear");
    assert_eq!(old["project"], "/home/dev/toy");
    let new = sessions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == AFTER_CLEAR)
        .unwrap();
    assert_eq!(new["start_source"], "clear");
}

#[test]
fn tool_output_is_stored_byte_for_byte_and_thinking_is_kept() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    env.hook(&env.payload("27-Stop.json"));
    let memory = env.memory(BEFORE_CLEAR);
    let details: Vec<&Value> = memory
        .iter()
        .flat_map(|t| t["details"].as_array().unwrap())
        .collect();
    // Compare with the transcript's own tool_result blocks.
    let text = String::from_utf8(sample(BEFORE_CLEAR)).unwrap();
    let mut results = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(blocks) = v["message"]["content"].as_array() else {
            continue;
        };
        for b in blocks.iter().filter(|b| b["type"] == "tool_result") {
            let stored = details
                .iter()
                .find(|d| d["kind"] == "tool_result" && d["tool_use_id"] == b["tool_use_id"])
                .expect("every tool result is stored");
            assert_eq!(stored["body"], b["content"]);
            assert_eq!(stored["is_error"], b["is_error"].as_bool().unwrap_or(false));
            results += 1;
        }
    }
    assert_eq!(results, 8);
    assert!(details
        .iter()
        .any(|d| d["kind"] == "thinking" && d["body"] == "Start by reading the entry point."));
    assert_eq!(memory[4]["detail_summary"], "Bash, 1 failed");
}

/// Imports `transcripts` (session, content) into a new store.
fn imported(transcripts: &[(&str, &[u8])]) -> Env {
    let env = Env::new();
    for (session, content) in transcripts {
        env.append(session, content);
    }
    let from = env.projects();
    let out = env.throughline(&["import", "--from", &from], b"");
    assert!(out.status.success(), "{out:?}");
    env
}

#[test]
fn lines_written_before_their_prompt_are_stored_in_its_turn() {
    // Claude Code under load writes a prompt line (and the attachments that follow it) after
    // the model's first lines of that turn; each entry still names its parent.
    let lines: Vec<Value> = String::from_utf8(sample(BEFORE_CLEAR))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let is_prompt = |v: &Value| v["type"] == "user" && v["message"]["content"].is_string();
    let mut late = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_prompt(&lines[i]) {
            late.push(vec![lines[i].clone()]);
            i += 1;
            continue;
        }
        let attachments = lines[i + 1..]
            .iter()
            .take_while(|v| v["type"] == "attachment")
            .count();
        let prompt = &lines[i..=i + attachments];
        let model = lines[i + 1 + attachments..]
            .iter()
            .take_while(|v| v["type"] == "assistant");
        late.push(model.cloned().collect());
        late.push(prompt.to_vec());
        i += 1 + attachments + late[late.len() - 2].len();
    }
    let text = |group: &[Value]| -> String { group.iter().map(|v| format!("{v}\n")).collect() };
    let reordered: String = late.iter().map(|g| text(g)).collect();
    assert_eq!(reordered.lines().count(), lines.len());

    // Live: a hook runs after every group, so some read a turn's first lines before its prompt.
    let mut live = Env::new();
    for group in &late {
        let Some(at) = group.iter().find_map(|v| v["timestamp"].as_str()) else {
            live.append(BEFORE_CLEAR, text(group).as_bytes());
            continue;
        };
        live.now = Some(at.to_string());
        live.append(BEFORE_CLEAR, text(group).as_bytes());
        live.hook(&live.payload("07-PreToolUse.json"));
    }
    live.hook(&live.payload("27-Stop.json"));
    assert!(live.log().is_empty(), "unexpected log: {}", live.log());

    let in_order = imported(&[(BEFORE_CLEAR, &sample(BEFORE_CLEAR))]);
    let expected = in_order.memory(BEFORE_CLEAR);
    assert_eq!(live.memory(BEFORE_CLEAR), expected);
    let late_import = imported(&[(BEFORE_CLEAR, reordered.as_bytes())]);
    assert_eq!(late_import.memory(BEFORE_CLEAR), expected);
    let first = expected
        .iter()
        .find(|t| t["messages"][0]["text"] == "Read app.py and tell me what it does.")
        .expect("the first turn");
    assert!(first["details"]
        .to_string()
        .contains("Start by reading the entry point."));
}

#[test]
fn repeated_hooks_duplicate_nothing() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    for file in payload_files().iter().take(27) {
        env.hook(&env.payload(file));
    }
    let once = env.memory(BEFORE_CLEAR);
    for file in payload_files().iter().take(27) {
        env.hook(&env.payload(file));
    }
    assert_eq!(env.memory(BEFORE_CLEAR), once);
    let status = env.json(&["status", "--json"]);
    assert_eq!(status["store"]["turns"], 5);
}

#[test]
fn garbage_or_empty_stdin_exits_zero_with_one_log_line() {
    let env = Env::new();
    for (input, expect) in [
        (&b""[..], "empty hook payload"),
        (
            &b"\x00\xff garbage \xfe"[..],
            "not the JSON Claude Code sends",
        ),
        (
            &b"{\"session_id\": 3}"[..],
            "not the JSON Claude Code sends",
        ),
        (&b"[1,2,3"[..], "not the JSON Claude Code sends"),
    ] {
        let before = env.log().lines().count();
        let out = env.hook(input);
        let log = env.log();
        assert_eq!(log.lines().count(), before + 1, "{log}");
        assert!(log.lines().last().unwrap().contains(expect), "{log}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(expect));
    }
}

#[test]
fn an_unknown_host_is_logged_not_fatal() {
    let env = Env::new();
    env.hook(b"{}");
    let out = env.throughline(&["hook", "nosuchagent"], b"{}");
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(env.log().contains("unknown host \"nosuchagent\""));
}

#[test]
fn the_recursion_guard_captures_nothing() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    let out = Command::new(bin())
        .args(["hook", "claude"])
        .env("THROUGHLINE_HOME", &env.home)
        .env("THROUGHLINE_GUARD", "1")
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(!env.home.join("throughline.db").exists());
}

#[test]
fn a_half_written_last_line_waits_until_it_is_whole() {
    let env = Env::new();
    let full = sample(BEFORE_CLEAR);
    let text = String::from_utf8(full.clone()).unwrap();
    // Cut inside the last prompt's line.
    let cut = text.find("What happens with a missing file?").unwrap() + 10;
    env.append(BEFORE_CLEAR, &full[..cut]);
    env.hook(&env.payload("24-UserPromptSubmit.json"));
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)).len(), 4);
    env.append(BEFORE_CLEAR, &full[cut..]);
    env.hook(&env.payload("27-Stop.json"));
    let memory = env.memory(BEFORE_CLEAR);
    assert_eq!(prompts(&memory).len(), 5);
    assert_eq!(prompts(&memory)[4], "What happens with a missing file?");
    assert!(env.log().is_empty(), "{}", env.log());
}

fn user_line(uuid: &str, text: &str) -> String {
    serde_json::json!({"type": "user", "uuid": uuid, "timestamp": "2026-11-30T09:00:00.000Z",
        "cwd": "/home/dev/toy", "message": {"role": "user", "content": text}})
    .to_string()
        + "\n"
}

#[test]
fn a_byte_order_mark_before_the_payload_or_the_transcript_is_ignored() {
    let env = Env::new();
    const BOM: &[u8] = b"\xef\xbb\xbf";
    env.append(
        BEFORE_CLEAR,
        &[BOM, user_line("u1", "the first prompt").as_bytes()].concat(),
    );
    env.hook(&[BOM, &env.payload("05-Stop.json")].concat());
    assert!(env.log().is_empty(), "{}", env.log());
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)), ["the first prompt"]);
}

#[test]
fn malformed_lines_are_skipped_with_their_position_and_the_rest_is_kept() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, user_line("u1", "first").as_bytes());
    env.append(
        BEFORE_CLEAR,
        b"{\"type\": \"user\", \"message\": {\"content\": \"broken\n",
    );
    env.append(BEFORE_CLEAR, b"\n   \n");
    env.append(BEFORE_CLEAR, user_line("u2", "second").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)), ["first", "second"]);
    let log = env.log();
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(
        log.contains("at byte ") && log.contains("skipped line: not JSON"),
        "{log}"
    );
}

#[test]
fn a_secret_in_a_malformed_line_stays_out_of_the_log_the_stderr_and_doctor() {
    let env = Env::new();
    // Assembled here, so the repository holds no token of this shape.
    let secret = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    env.append(BEFORE_CLEAR, user_line("u1", "first").as_bytes());
    // A message that is a string, not an object: the parse error quotes it.
    let line = serde_json::json!({"type": "user", "uuid": "u2",
        "message": format!("STRIPE_SECRET_KEY={secret}")});
    env.append(BEFORE_CLEAR, format!("{line}\n").as_bytes());
    let out = env.hook(&env.payload("05-Stop.json"));
    let log = env.log();
    assert!(log.contains("skipped line"), "{log}");
    assert!(log.contains("[REDACTED:stripe-key]"), "{log}");
    assert!(!log.contains(&secret), "{log}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains(&secret), "{stderr}");
    let doctor = env.throughline(&["doctor"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(report.contains("skipped line"), "{report}");
    assert!(!report.contains(&secret), "{report}");
}

#[test]
fn doctor_does_not_show_a_secret_an_older_version_logged() {
    let env = Env::new();
    let secret = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    fs::create_dir_all(&env.home).unwrap();
    fs::write(
        env.home.join("throughline.log"),
        format!("2099-01-01T00:00:00.000Z hook claude: skipped line: not JSON: \"{secret}\"\n"),
    )
    .unwrap();
    let doctor = env.throughline(&["doctor"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(report.contains("[REDACTED:stripe-key]"), "{report}");
    assert!(!report.contains(&secret), "{report}");
}

#[test]
fn invalid_utf8_is_replaced_not_dropped() {
    let env = Env::new();
    let mut line = user_line("u1", "caf\u{e9} ok").into_bytes();
    // Turn the two-byte é into a lone continuation byte.
    let at = line.windows(2).position(|w| w == "é".as_bytes()).unwrap();
    line.splice(at..at + 2, [0xE9]);
    env.append(BEFORE_CLEAR, &line);
    env.hook(&env.payload("05-Stop.json"));
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)), ["caf\u{fffd} ok"]);
    assert!(env.log().contains("invalid UTF-8 replaced"));
}

#[test]
fn a_fifty_megabyte_line_is_stored_whole() {
    let env = Env::new();
    let big = "x".repeat(50 << 20);
    env.append(
        BEFORE_CLEAR,
        user_line("u1", "read the big file").as_bytes(),
    );
    let result = serde_json::json!({"type": "user", "uuid": "r1", "message": {"role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": big}]}});
    env.append(BEFORE_CLEAR, format!("{result}\n").as_bytes());
    env.append(BEFORE_CLEAR, user_line("u2", "after").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    let memory = env.memory(BEFORE_CLEAR);
    assert_eq!(prompts(&memory), ["read the big file", "after"]);
    assert_eq!(
        memory[0]["details"][0]["body"].as_str().unwrap().len(),
        50 << 20
    );
}

#[test]
fn a_line_past_64_megabytes_is_passed_over_once_and_never_read_again() {
    let env = Env::new();
    env.append(
        BEFORE_CLEAR,
        user_line("u1", "read the huge file").as_bytes(),
    );
    // A line still being written, already too long to store.
    let start = r#"{"type": "user", "uuid": "r1", "message": {"role": "user", "content": ""#;
    env.append(BEFORE_CLEAR, start.as_bytes());
    env.append(BEFORE_CLEAR, "x".repeat(65 << 20).as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    let log = env.log();
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(
        log.contains("a line longer than 64 MB is not stored"),
        "{log}"
    );

    // More of it, then its end and a prompt: each call goes on where the last one stopped,
    // so no part of the long line is read as a line of its own.
    env.append(BEFORE_CLEAR, "y".repeat(1 << 20).as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    env.append(BEFORE_CLEAR, b"\"}}\n");
    env.append(BEFORE_CLEAR, user_line("u2", "after").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    assert_eq!(env.log(), log);
    assert_eq!(
        prompts(&env.memory(BEFORE_CLEAR)),
        ["read the huge file", "after"]
    );
}

#[test]
fn a_missing_or_deleted_transcript_loses_nothing() {
    let env = Env::new();
    env.hook(&env.payload("01-SessionStart.json"));
    assert!(
        env.log().is_empty(),
        "a session that has not written yet is normal"
    );
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    env.hook(&env.payload("27-Stop.json"));
    fs::remove_file(env.transcript(BEFORE_CLEAR)).unwrap();
    env.hook(&env.payload("27-Stop.json"));
    assert!(env.log().contains("is gone"), "{}", env.log());
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)).len(), 5);
}

#[test]
fn a_transcript_replaced_by_a_shorter_file_is_read_again_without_loss_or_duplicates() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, user_line("u1", "one").as_bytes());
    env.append(BEFORE_CLEAR, user_line("u2", "two").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    // Rotated: a new, shorter file holding one old line and one new.
    let path = env.transcript(BEFORE_CLEAR);
    fs::remove_file(&path).unwrap();
    env.append(BEFORE_CLEAR, user_line("u2", "two").as_bytes());
    env.append(BEFORE_CLEAR, user_line("u3", "3").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)), ["one", "two", "3"]);
}

#[test]
fn a_transcript_cut_short_in_place_and_regrown_past_the_old_offset_loses_nothing() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, user_line("u1", "one").as_bytes());
    env.append(BEFORE_CLEAR, user_line("u2", "two").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    // The same file (same inode), emptied and written again, longer than before: its size
    // alone does not tell.
    let path = env.transcript(BEFORE_CLEAR);
    fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    env.append(
        BEFORE_CLEAR,
        user_line("u3", "three, written after the cut").as_bytes(),
    );
    env.append(
        BEFORE_CLEAR,
        user_line("u4", "four, also after it").as_bytes(),
    );
    env.hook(&env.payload("05-Stop.json"));
    assert_eq!(
        prompts(&env.memory(BEFORE_CLEAR)),
        [
            "one",
            "two",
            "three, written after the cut",
            "four, also after it"
        ]
    );
}

#[test]
fn concurrent_hooks_of_one_and_of_different_sessions_store_everything_once() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    env.append(AFTER_CLEAR, &sample(AFTER_CLEAR));
    let mut children = Vec::new();
    for i in 0..12 {
        let payload = env.payload(if i % 2 == 0 {
            "27-Stop.json"
        } else {
            "31-Stop.json"
        });
        let mut child = env
            .command()
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&payload).unwrap();
        children.push(child);
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    }
    assert!(env.log().is_empty(), "{}", env.log());
    assert_eq!(prompts(&env.memory(BEFORE_CLEAR)).len(), 5);
    assert_eq!(prompts(&env.memory(AFTER_CLEAR)).len(), 1);
    let imported = Env::new();
    imported.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    imported.hook(&imported.payload("27-Stop.json"));
    assert_eq!(env.memory(BEFORE_CLEAR), imported.memory(BEFORE_CLEAR));
}

#[test]
fn a_hook_killed_mid_write_loses_and_duplicates_nothing() {
    let env = Env::new();
    env.append(BEFORE_CLEAR, user_line("u0", "before").as_bytes());
    env.hook(&env.payload("05-Stop.json"));
    // A large append makes the next ingest long enough to be killed while it runs.
    for i in 0..40 {
        let result = serde_json::json!({"type": "user", "uuid": format!("r{i}"), "message": {"role": "user",
            "content": [{"type": "tool_result", "tool_use_id": format!("t{i}"), "content": "y".repeat(1 << 20)}]}});
        env.append(BEFORE_CLEAR, format!("{result}\n").as_bytes());
    }
    env.append(BEFORE_CLEAR, user_line("u1", "after").as_bytes());
    for delay_ms in [5, 20, 60] {
        let mut child = env
            .command()
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&env.payload("05-Stop.json"))
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    env.hook(&env.payload("05-Stop.json"));
    let memory = env.memory(BEFORE_CLEAR);
    assert_eq!(prompts(&memory), ["before", "after"]);
    assert_eq!(memory[0]["details"].as_array().unwrap().len(), 40);
}

/// Real sessions of both clients with every way a prompt reaches the model (see the
/// transcripts' own prompts): each is a turn with its own answer.
#[test]
fn commands_queued_prompts_and_pastes_are_turns_with_their_own_answers() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    for (version, session) in [
        ("claude-2.1.332", "7934ba4f-0869-45fd-bf0f-7e833733f925"),
        ("claude-2.1.197", "f340e2f9-0a6b-4f50-9d43-cd0140b3d5db"),
    ] {
        let path = format!("{fixtures}/{version}/prompts/{session}.jsonl");
        let env = imported(&[(session, &fs::read(path).unwrap())]);
        let memory = env.memory(session);
        let turn = |prompt: &str| {
            memory
                .iter()
                .find(|t| {
                    t["messages"][0]["text"]
                        .as_str()
                        .unwrap()
                        .starts_with(prompt)
                })
                .unwrap_or_else(|| panic!("{version}: no turn for {prompt:?}"))
        };
        let answers = |t: &Value| -> Vec<String> {
            t["messages"].as_array().unwrap()[1..]
                .iter()
                .map(|m| m["text"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(memory.len(), 7, "{version}: {:#?}", prompts(&memory));
        // The scripted model answers "ANSWER to: <the end of the prompt it got>".
        let command = turn("/worktree-pr 幫我發 pr 給 marco please");
        assert_eq!(
            answers(command),
            ["ANSWER to:  from the current worktree.  Instructions from the person: 幫我發 pr 給 marco please"],
            "{version}"
        );
        // The command file as the model got it is in the turn's detail.
        assert!(
            command["details"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["kind"] == "meta"
                    && d["body"]
                        .as_str()
                        .unwrap()
                        .starts_with("Open a pull request")),
            "{version}: {command:#}"
        );
        assert_eq!(
            answers(turn("SLOW one please")),
            ["ANSWER to: SLOW one please"]
        );
        assert_eq!(
            answers(turn("queued while working")),
            ["ANSWER to: queued while working"]
        );
        // Delivered while Bash ran: its turn starts there and holds the answer after it.
        let tool = turn("TOOL run a slow command");
        assert!(answers(tool).is_empty(), "{version}: {tool:#}");
        assert_eq!(tool["detail_summary"], "Bash", "{version}");
        let queued = turn("mid-turn queued note");
        assert_eq!(answers(queued), ["ANSWER to: TOOL run a slow command"]);
        let paste = turn("Look at this log: ");
        let text = paste["messages"][0]["text"].as_str().unwrap();
        assert!(
            !text.contains("pasted_content") && text.ends_with("and tell me"),
            "{text}"
        );
        // The person's words are found: their turn is one hit, by the prompt or by the answer
        // that repeats them, the other one counted as the turn's one more line.
        let found = env.json(&["search", "marco", "--all", "--json"]);
        let hit = found
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["turn"] == command["code"])
            .unwrap_or_else(|| panic!("{version}: {found:#}"));
        assert!(
            hit["role"] == "user" || hit["role"] == "assistant",
            "{version}: {hit:#}"
        );
        assert_eq!(hit["more_lines"], 1, "{version}: {hit:#}");
    }
}

/// The sample session going on minutes later with one more prompt, after which the host
/// appends copies of the first turn's lines (same uuids and message ids, chained off the
/// current entry): what follows the sample, as the prompt and copies, then the answer.
fn with_copies_of_the_first_turn(with_prompt: bool) -> (String, String) {
    let sample = String::from_utf8(sample(BEFORE_CLEAR)).unwrap();
    let lines: Vec<&str> = sample.lines().collect();
    let is_prompt = |l: &str| {
        l.contains(r#""type":"user""#)
            && l.contains(r#""content":"#)
            && serde_json::from_str::<Value>(l).unwrap()["message"]["content"].is_string()
    };
    let first = lines.iter().position(|l| is_prompt(l)).unwrap();
    let second = first
        + 1
        + lines[first + 1..]
            .iter()
            .position(|l| is_prompt(l))
            .unwrap();
    let start = if with_prompt { first } else { first + 1 };
    let copies: String = lines[start..second]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let leaf = lines.iter().rev().find_map(|l| {
        serde_json::from_str::<Value>(l).unwrap()["uuid"]
            .as_str()
            .map(str::to_string)
    });
    let next = serde_json::json!({"type": "user", "uuid": "n1", "parentUuid": leaf,
        "timestamp": "2026-11-30T08:50:00.000Z", "cwd": "/home/dev/toy", "isSidechain": false,
        "promptId": "p-next", "message": {"role": "user", "content": "One more question."}});
    let reply = serde_json::json!({"type": "assistant", "uuid": "n2", "parentUuid": "n1",
        "timestamp": "2026-11-30T08:50:01.000Z", "isSidechain": false,
        "message": {"id": "msg_next", "role": "assistant", "model": "claude-opus-4-8",
            "content": [{"type": "text", "text": "The one more answer."}],
            "usage": {"input_tokens": 5, "output_tokens": 3}}});
    (format!("{next}\n{copies}"), format!("{reply}\n"))
}

#[test]
fn copies_the_host_appends_again_are_stored_once_where_they_first_were() {
    let expected = imported(&[(BEFORE_CLEAR, &sample(BEFORE_CLEAR))]).memory(BEFORE_CLEAR);
    for with_prompt in [false, true] {
        let (copies, answer) = with_copies_of_the_first_turn(with_prompt);
        let whole = [
            sample(BEFORE_CLEAR),
            copies.clone().into(),
            answer.clone().into(),
        ]
        .concat();
        let import = imported(&[(BEFORE_CLEAR, &whole)]);
        // Live: one hook after the session, one after the copies, one after the answer.
        let mut live = Env::new();
        live.now = Some("2026-11-30T09:00:00.000Z".into());
        for piece in [sample(BEFORE_CLEAR), copies.into(), answer.into()] {
            live.append(BEFORE_CLEAR, &piece);
            live.hook(&live.payload("27-Stop.json"));
        }
        for env in [&import, &live] {
            let memory = env.memory(BEFORE_CLEAR);
            assert_eq!(
                memory[..5],
                expected[..],
                "with the prompt copied: {with_prompt}"
            );
            assert_eq!(
                memory[5]["messages"],
                serde_json::json!([
                    {"role": "user", "text": "One more question.", "at": "2026-11-30T08:50:00.000Z"},
                    {"role": "assistant", "text": "The one more answer.", "at": "2026-11-30T08:50:01.000Z"}
                ]),
                "with the prompt copied: {with_prompt}"
            );
            assert!(memory[5]["details"].as_array().unwrap().is_empty());
            assert_eq!(memory.len(), 6);
        }
    }
}

/// A Claude Code 2.0.x session resumed after four turns: the resumed client wrote three earlier
/// prompts again under new uuids (see the fixture's README).
const RESUMED: &str = "3c9e5b1d-7a42-4f8e-b6d0-2e71c4a9f583";

fn resumed_lines() -> Vec<String> {
    let path = format!(
        "{}/tests/fixtures/claude-2.0.37-resume/transcripts/{RESUMED}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = fs::read_to_string(path).unwrap();
    text.lines().map(|l| format!("{l}\n")).collect()
}

/// Each prompt of the resumed session is one turn with its own answer, in the store and in
/// the memory the next session gets at `/clear`.
fn assert_resumed_prompts_stored_once(env: &Env, session: &str) {
    let memory = env.memory(session);
    assert_eq!(
        prompts(&memory),
        [
            "Read app.py and tell me what it does.",
            "Run it on items.json.",
            "Go on.",
            "Go on.",
            "Now add a --json flag.",
            "Go on.",
        ],
        "{session}"
    );
    for turn in &memory {
        let messages = turn["messages"].as_array().unwrap();
        assert!(
            messages.iter().any(|m| m["role"] == "assistant"),
            "{session}: a turn without its answer: {turn:#}"
        );
    }
    // `/model`, run after the resume, is host text of the turn open then.
    assert!(memory[3]["details"]
        .to_string()
        .contains("Set model to sonnet"));

    let cleared = format!("{session}-cleared");
    let end = serde_json::json!({"session_id": session, "hook_event_name": "SessionEnd",
        "reason": "clear", "prompt_id": format!("clear-{session}"), "cwd": "/home/dev/toy",
        "transcript_path": env.transcript(session)});
    let start = serde_json::json!({"session_id": cleared,
        "hook_event_name": "SessionStart", "source": "clear",
        "prompt_id": format!("clear-{session}"), "cwd": "/home/dev/toy",
        "transcript_path": env.transcript(&cleared)});
    env.hook(end.to_string().as_bytes());
    let reply: Value = serde_json::from_slice(&env.hook(start.to_string().as_bytes()).stdout)
        .expect("the memory after /clear");
    let handed = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        handed.contains("Nothing left from the plan") && !handed.contains("(no answer)"),
        "{session}: {handed}"
    );
}

#[test]
fn prompts_a_resumed_session_writes_again_add_no_turn_on_import() {
    let text = resumed_lines().concat();
    // A fork's file starts with the history it copied, the copies with it: a session of its
    // own, whose prompts are not taken for copies of its parent's.
    let fork = "7e0d2b44-19c5-4a8f-83d6-5b2f0e9c1a77";
    let forked = text.replace(RESUMED, fork);
    let env = imported(&[(RESUMED, text.as_bytes()), (fork, forked.as_bytes())]);
    assert!(env.log().is_empty(), "{}", env.log());
    assert_resumed_prompts_stored_once(&env, RESUMED);
    assert_resumed_prompts_stored_once(&env, fork);
}

#[test]
fn prompts_a_resumed_session_writes_again_add_no_turn_when_read_by_hooks() {
    let mut live = Env::new();
    let stop = serde_json::json!({"session_id": RESUMED, "hook_event_name": "Stop",
        "transcript_path": live.transcript(RESUMED), "cwd": "/home/dev/toy"});
    // A hook after every line, its clock at the line's time: each copy comes in a read of
    // its own, after its original, and a line held for its parent would still wait.
    for line in resumed_lines() {
        let entry: Value = serde_json::from_str(&line).unwrap();
        if let Some(at) = entry["timestamp"].as_str() {
            live.now = Some(at.to_string());
        }
        live.append(RESUMED, line.as_bytes());
        live.hook(stop.to_string().as_bytes());
        if line.contains("<local-command-stdout>") {
            // Chained to the last copy through the two lines before it: stored at once.
            let memory = live.memory(RESUMED);
            assert_eq!(memory.len(), 4);
            assert!(memory[3]["details"]
                .to_string()
                .contains("Set model to sonnet"));
        }
    }
    assert!(live.log().is_empty(), "{}", live.log());
    let whole = resumed_lines().concat();
    let expected = imported(&[(RESUMED, whole.as_bytes())]).memory(RESUMED);
    assert_eq!(live.memory(RESUMED), expected);
    assert_resumed_prompts_stored_once(&live, RESUMED);
}

/// The same sessions read by a hook after every fifth line store what an import stores.
#[test]
fn commands_queued_prompts_and_pastes_are_captured_live_as_imported() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    for (version, session) in [
        ("claude-2.1.332", "7934ba4f-0869-45fd-bf0f-7e833733f925"),
        ("claude-2.1.197", "f340e2f9-0a6b-4f50-9d43-cd0140b3d5db"),
    ] {
        let text =
            fs::read_to_string(format!("{fixtures}/{version}/prompts/{session}.jsonl")).unwrap();
        let expected = imported(&[(session, text.as_bytes())]).memory(session);
        let mut live = Env::new();
        live.now = Some("2026-12-01T12:00:00.000Z".into());
        let stop = serde_json::json!({"session_id": session, "hook_event_name": "Stop",
            "transcript_path": live.transcript(session), "cwd": "/home/dev/toy"});
        let lines: Vec<&str> = text.lines().collect();
        for piece in lines.chunks(5) {
            live.append(
                session,
                piece
                    .iter()
                    .map(|l| format!("{l}\n"))
                    .collect::<String>()
                    .as_bytes(),
            );
            live.hook(stop.to_string().as_bytes());
        }
        assert!(live.log().is_empty(), "{version}: {}", live.log());
        assert_eq!(live.memory(session), expected, "{version}");
    }
}

/// A payload cannot make a hook read a file its host does not keep transcripts in: outside
/// the host's folder, or out of it through `..`, nothing is read, the session keeps its path,
/// and the log says why. Its own transcript is read as always.
#[test]
fn a_transcript_path_outside_the_hosts_folder_is_not_read() {
    let env = Env::new();
    let home = env.project.ancestors().nth(3).unwrap().to_path_buf();
    let elsewhere = home.join("notes/planted.jsonl");
    fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    fs::write(
        &elsewhere,
        user_line("x1", "planted text from another file"),
    )
    .unwrap();
    env.append(BEFORE_CLEAR, &sample(BEFORE_CLEAR));
    let own = env.payload("27-Stop.json");
    env.hook(&own);
    let before = env.memory(BEFORE_CLEAR);
    let through_parent = env.project.join("../../../notes/planted.jsonl");
    for path in [&elsewhere, &through_parent] {
        let mut payload: Value = serde_json::from_slice(&own).unwrap();
        payload["transcript_path"] = path.to_string_lossy().into();
        env.hook(&serde_json::to_vec(&payload).unwrap());
    }
    assert_eq!(
        env.memory(BEFORE_CLEAR),
        before,
        "nothing planted was stored"
    );
    let log = env.log();
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("outside Claude Code's folder; not read"))
            .count(),
        2,
        "{log}"
    );
    let sessions = env.json(&["sessions", "--all", "--json"]);
    let stored = sessions[0]["transcript_path"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        stored,
        env.transcript(BEFORE_CLEAR).to_string_lossy(),
        "{sessions:#}"
    );
    // Its own transcript keeps being read.
    env.append(
        BEFORE_CLEAR,
        user_line("u-later", "a later prompt").as_bytes(),
    );
    env.hook(&own);
    assert!(prompts(&env.memory(BEFORE_CLEAR)).contains(&"a later prompt".to_string()));
}
