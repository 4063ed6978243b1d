//! The real binary on Cursor payloads and a transcript made from Cursor's documentation (no
//! Cursor client runs here): `import --host cursor` backfills a transcript, the hooks of a
//! session land in it, and one Cursor turn fed through both hook files Cursor runs
//! (`~/.cursor/hooks.json` and `~/.claude/settings.json`) is stored once, under Cursor, with
//! one injection.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::throughline::{in_home, json_of};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cursor");
const ID: &str = "c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10";
/// Where the fixtures say the transcript is.
const FIXTURE_HOME: &str = "/home/dev/.cursor";

const TRANSCRIPT: &str = "projects/home-dev-proj/agent-transcripts/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10.jsonl";

/// Cursor writes the sample transcript into `home`.
fn write_transcript(home: &Path) -> PathBuf {
    let path = home.join(".cursor").join(TRANSCRIPT);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::copy(format!("{FIXTURES}/{TRANSCRIPT}"), &path).unwrap();
    path
}

/// A documented payload, pointing at the transcript in `home`, for conversation `id`.
fn payload(home: &Path, name: &str, id: &str) -> String {
    fs::read_to_string(format!("{FIXTURES}/hooks/{name}.json"))
        .unwrap()
        .replace(FIXTURE_HOME, &home.join(".cursor").display().to_string())
        .replace(ID, id)
}

/// The same payload as Cursor may hand a hook in Claude Code's settings: its documentation
/// maps the event names and says nothing of the fields, so both shapes are fed.
fn claude_named(payload: &str) -> String {
    [
        ("\"sessionStart\"", "\"SessionStart\""),
        ("\"beforeSubmitPrompt\"", "\"UserPromptSubmit\""),
        ("\"postToolUse\"", "\"PostToolUse\""),
        ("\"stop\"", "\"Stop\""),
        ("\"sessionEnd\"", "\"SessionEnd\""),
    ]
    .iter()
    .fold(payload.to_string(), |p, (from, to)| p.replace(from, to))
}

const TURN: [&str; 5] = [
    "01-sessionStart",
    "02-beforeSubmitPrompt",
    "03-postToolUse",
    "04-stop",
    "05-sessionEnd",
];

fn texts(shown: &Value) -> Vec<String> {
    shown["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["messages"].as_array().unwrap())
        .filter_map(|m| m["text"].as_str().map(str::to_string))
        .collect()
}

const SAMPLE_TEXTS: [&str; 5] = [
    "add a --verbose flag",
    "I'll add the flag to the argument parser.",
    "Added `--verbose`; the tests pass.",
    "and document it in the README",
    "Documented under Usage.",
];

#[test]
fn import_and_hooks_agree_on_the_session() {
    let dir = tempfile::tempdir().unwrap();
    write_transcript(dir.path());
    let imported = json_of(&in_home(
        dir.path(),
        &["import", "--host", "cursor", "--json"],
        b"",
    ));
    assert_eq!(imported["transcripts"], 1, "{imported}");
    assert_eq!(imported["problems"], Value::Array(Vec::new()));
    for name in TURN {
        let out = in_home(
            dir.path(),
            &["hook", "cursor"],
            payload(dir.path(), name, ID).as_bytes(),
        );
        assert!(out.status.success());
        assert_eq!(out.stdout, b"", "{name}: nothing to hand on");
    }
    let shown = json_of(&in_home(dir.path(), &["show", ID, "--json"], b""));
    assert_eq!(shown["session"]["host"], "cursor");
    assert_eq!(shown["session"]["cwd"], "/home/dev/proj");
    assert_eq!(texts(&shown), SAMPLE_TEXTS, "{shown}");
}

/// Session `old` in the project with its transcript read, and a handoff offered from it.
fn offered_handoff(home: &Path, old: &str) {
    let transcript = home.join(format!(
        ".cursor/projects/home-dev-proj/agent-transcripts/{old}/{old}.jsonl"
    ));
    fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    fs::write(
        &transcript,
        "{\"role\":\"user\",\"message\":{\"content\":\"the release is on Friday\"}}\n\
         {\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Noted: Friday.\"}]}}\n",
    )
    .unwrap();
    for name in ["02-beforeSubmitPrompt", "04-stop"] {
        let out = in_home(
            home,
            &["hook", "cursor"],
            payload(home, name, old).as_bytes(),
        );
        assert!(out.status.success() && out.stdout.is_empty());
    }
    // `/tl` in the old chat: stopped before the model, with what happened for the person.
    let tl = payload(home, "02-beforeSubmitPrompt", old).replace("add a --verbose flag", "/tl");
    let out = in_home(home, &["hook", "cursor"], tl.as_bytes());
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["continue"], false, "{reply}");
    assert!(reply["user_message"]
        .as_str()
        .unwrap()
        .contains("handoff ready"));
}

/// Feeds `events` of the sample turn of conversation `ID`, each event through every hook file in
/// `files` (`cursor`, `claude`), and returns what each call printed. The transcript appears
/// after the chat starts, as Cursor writes it.
fn feed_turn(home: &Path, events: &[&str], files: &[&str]) -> Vec<(String, String, Vec<u8>)> {
    let mut printed = Vec::new();
    for &name in events {
        let native = payload(home, name, ID);
        for &file in files {
            let body = if file == "claude" {
                claude_named(&native)
            } else {
                native.clone()
            };
            let out = in_home(home, &["hook", file], body.as_bytes());
            assert!(out.status.success(), "{name} via {file}");
            printed.push((name.to_string(), file.to_string(), out.stdout));
        }
        if name == "01-sessionStart" {
            write_transcript(home);
        }
    }
    printed
}

fn injections(home: &Path) -> Vec<Value> {
    json_of(&in_home(home, &["injections", "--all", "--json"], b""))
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn sessions(home: &Path) -> Vec<Value> {
    let listed = json_of(&in_home(home, &["sessions", "--all", "--json"], b""));
    listed
        .as_array()
        .cloned()
        .unwrap_or_else(|| listed["sessions"].as_array().cloned().unwrap_or_default())
}

#[test]
fn a_turn_through_both_hook_files_is_stored_once_under_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    fs::create_dir_all(home.join(".claude")).unwrap();
    for host in ["claude", "cursor"] {
        json_of(&in_home(home, &["install", "--host", host, "--json"], b""));
    }
    offered_handoff(home, "0ld0ld00-0000-4000-8000-000000000001");

    let both = ["cursor", "claude"];
    let mut printed = feed_turn(home, &TURN[..4], &both);
    // Cursor reports no token counts: its gauge says so instead of showing an empty window.
    let monitor = in_home(home, &["monitor", "--once"], b"");
    let live = String::from_utf8_lossy(&monitor.stdout);
    assert!(
        live.contains("context use not reported by Cursor · 2 turns"),
        "{live}"
    );
    printed.extend(feed_turn(home, &TURN[4..], &both));
    // The memory goes in once: at the new chat's start, from Cursor's own file.
    let spoke: Vec<_> = printed
        .iter()
        .filter(|(_, _, out)| !out.is_empty())
        .collect();
    assert_eq!(spoke.len(), 1, "{printed:?}");
    let (event, file, out) = spoke[0];
    assert_eq!(
        (event.as_str(), file.as_str()),
        ("01-sessionStart", "cursor")
    );
    let reply: Value = serde_json::from_slice(out).unwrap();
    assert!(reply["additional_context"]
        .as_str()
        .unwrap()
        .contains("Friday"));

    let shown = json_of(&in_home(home, &["show", ID, "--json"], b""));
    assert_eq!(shown["session"]["host"], "cursor");
    assert_eq!(texts(&shown), SAMPLE_TEXTS, "each turn once: {shown}");
    let cursor_sessions: Vec<_> = sessions(home)
        .into_iter()
        .filter(|s| s["session_id"] == ID)
        .collect();
    assert_eq!(cursor_sessions.len(), 1);
    let into_new: Vec<_> = injections(home)
        .into_iter()
        .filter(|i| i.to_string().contains(ID))
        .collect();
    assert_eq!(into_new.len(), 1, "{into_new:?}");
}

#[test]
fn with_only_claude_codes_file_the_cursor_turn_is_still_cursors() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    fs::create_dir_all(home.join(".claude")).unwrap();
    json_of(&in_home(
        home,
        &["install", "--host", "claude", "--json"],
        b"",
    ));
    offered_handoff(home, "0ld0ld00-0000-4000-8000-000000000002");

    let printed = feed_turn(home, &TURN, &["claude"]);
    let spoke: Vec<_> = printed.iter().filter(|(_, _, o)| !o.is_empty()).collect();
    assert_eq!(spoke.len(), 1, "{printed:?}");
    assert_eq!(spoke[0].0, "01-sessionStart");
    // Cursor's own reply shape, which it reads from Claude-format hooks too.
    let reply: Value = serde_json::from_slice(&spoke[0].2).unwrap();
    assert!(reply["additional_context"].is_string(), "{reply}");

    let shown = json_of(&in_home(home, &["show", ID, "--json"], b""));
    assert_eq!(shown["session"]["host"], "cursor");
    assert_eq!(shown["session"]["cwd"], "/home/dev/proj");
    assert_eq!(texts(&shown), SAMPLE_TEXTS);
}

const SUBAGENT: &str = "projects/home-dev-proj/agent-transcripts/c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10/subagents/0a1b2c3d-sub.jsonl";

/// A turn's detail entries of one kind, as `(name, body)`.
fn entries(home: &Path, turn: &Value, kind: &str) -> Vec<(String, String)> {
    let code = turn["code"].as_str().unwrap();
    let detail = json_of(&in_home(home, &["detail", code, "--json"], b""));
    detail["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == kind)
        .map(|d| {
            let text = |field: &str| d[field].as_str().unwrap_or_default().to_string();
            (text("name"), text("body"))
        })
        .collect()
}

/// Built from Cursor's documentation alone (`subagentStop` names the subagent's own
/// transcript, `agent_transcript_path`, beside the main one); no client ran it.
#[test]
fn a_subagent_s_transcript_joins_the_turn_open_when_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    json_of(&in_home(
        home,
        &["install", "--host", "cursor", "--json"],
        b"",
    ));
    let hook = |name: &str| {
        let out = in_home(
            home,
            &["hook", "cursor"],
            payload(home, name, ID).as_bytes(),
        );
        assert!(
            out.status.success() && out.stdout.is_empty(),
            "{name}: {out:?}"
        );
    };
    hook("01-sessionStart");
    // The first turn as far as its tool's result, when the subagent it started stops.
    let transcript = write_transcript(home);
    let whole = fs::read_to_string(&transcript).unwrap();
    let first_turn: String = whole.lines().take(3).map(|l| format!("{l}\n")).collect();
    fs::write(&transcript, first_turn).unwrap();
    hook("02-beforeSubmitPrompt");
    hook("03-postToolUse");
    let subagent = home.join(".cursor").join(SUBAGENT);
    fs::create_dir_all(subagent.parent().unwrap()).unwrap();
    fs::copy(format!("{FIXTURES}/{SUBAGENT}"), &subagent).unwrap();
    hook("06-subagentStop");
    fs::write(&transcript, whole).unwrap();
    hook("04-stop");
    hook("05-sessionEnd");

    let shown = json_of(&in_home(home, &["show", ID, "--json"], b""));
    // Its words are detail of the conversation, not what the person or the assistant said.
    assert_eq!(texts(&shown), SAMPLE_TEXTS, "{shown}");
    let turn = |seq: u64| {
        let turns = shown["turns"].as_array().unwrap();
        turns.iter().find(|t| t["seq"] == seq).unwrap().clone()
    };
    assert_eq!(
        entries(home, &turn(1), "subagent"),
        [
            (
                "prompt".to_string(),
                "Find where the CLI parses its arguments.".to_string()
            ),
            (
                "answer".to_string(),
                "cli/src/args.rs parses them with clap's derive API.".to_string()
            ),
        ]
    );
    assert!(entries(home, &turn(2), "subagent").is_empty());
    assert_eq!(
        fs::read_to_string(home.join("memory/throughline.log")).unwrap_or_default(),
        ""
    );
}

#[test]
fn a_hook_given_garbage_exits_0_prints_nothing_and_logs_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for payload in [
        &b""[..],
        b"{\"conversation_id\":",
        b"\xff\xfe",
        b"{\"hook_event_name\":\"stop\",\"cursor_version\":\"2.1.46\"}",
    ] {
        let out = in_home(dir.path(), &["hook", "cursor"], payload);
        assert!(out.status.success());
        assert_eq!(out.stdout, b"");
    }
    let log = fs::read_to_string(dir.path().join("memory/throughline.log")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    assert!(log.lines().all(|l| l.contains("hook cursor")), "{log}");
}

#[test]
fn a_prompt_never_takes_a_handoff_it_could_not_deliver() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    offered_handoff(home, "0ld0ld00-0000-4000-8000-000000000003");
    // A chat whose start was missed: its prompt cannot carry the memory, so leaves it waiting.
    let late = "1a7e1a7e-0000-4000-8000-000000000004";
    let out = in_home(
        home,
        &["hook", "cursor"],
        payload(home, "02-beforeSubmitPrompt", late).as_bytes(),
    );
    assert!(out.status.success() && out.stdout.is_empty());
    let out = in_home(
        home,
        &["hook", "cursor"],
        payload(home, "01-sessionStart", ID).as_bytes(),
    );
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(reply["additional_context"]
        .as_str()
        .unwrap()
        .contains("Friday"));
}

#[test]
fn an_imported_transcript_belongs_to_the_workspace_its_folder_names() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().canonicalize().unwrap();
    let workspace = home.join("my app.v2");
    fs::create_dir_all(&workspace).unwrap();
    // Cursor's folder name for a workspace (reported): the path without its leading `/`,
    // every character but letters and digits as `-`.
    let folder: String = workspace.to_str().unwrap()[1..]
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let transcript = home.join(format!(
        ".cursor/projects/{folder}/agent-transcripts/{ID}/{ID}.jsonl"
    ));
    fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    fs::copy(format!("{FIXTURES}/{TRANSCRIPT}"), &transcript).unwrap();
    let imported = json_of(&in_home(
        &home,
        &["import", "--host", "cursor", "--json"],
        b"",
    ));
    assert_eq!(imported["transcripts"], 1, "{imported}");
    let shown = json_of(&in_home(&home, &["show", ID, "--json"], b""));
    assert_eq!(
        shown["session"]["cwd"],
        workspace.to_str().unwrap(),
        "{shown}"
    );
    assert_eq!(texts(&shown), SAMPLE_TEXTS);
}
