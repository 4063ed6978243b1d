//! `stats`, `statusline` and `demo` on the real Claude Code fixture sessions.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_throughline");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-2.1.197");
pub(super) const BEFORE_CLEAR: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";
const AFTER_CLEAR: &str = "0f1b393e-f41a-4e1e-9a85-60441f844f13";

/// A memory holding both fixture sessions, imported the way a person would.
pub(super) struct Memory {
    pub(super) dir: tempfile::TempDir,
}

impl Memory {
    pub(super) fn imported() -> Memory {
        let memory = Memory {
            dir: tempfile::tempdir().unwrap(),
        };
        let projects = memory.dir.path().join("projects/-home-dev-toy");
        fs::create_dir_all(&projects).unwrap();
        for id in [BEFORE_CLEAR, AFTER_CLEAR] {
            let name = format!("{id}.jsonl");
            fs::copy(
                Path::new(FIXTURES).join("transcripts").join(&name),
                projects.join(&name),
            )
            .unwrap();
        }
        let from = memory.dir.path().join("projects");
        let out = memory.run(&["import", "--json", "--from", from.to_str().unwrap()], b"");
        assert!(out.status.success(), "{out:?}");
        memory
    }

    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut child = Command::new(BIN)
            .args(args)
            .env("THROUGHLINE_HOME", self.dir.path().join("memory"))
            .env("HOME", self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    }

    fn statusline(&self, payload: &str) -> (bool, String) {
        let out = self.run(&["statusline"], payload.as_bytes());
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).trim_end().to_string(),
        )
    }
}

/// Usage as the transcript states it: one API message spans several lines (one per content
/// block), so each `message.id` counts once, with its largest output count.
struct TranscriptUsage {
    calls: u64,
    input: u64,
    cache_creation: u64,
    cache_read: u64,
    output: u64,
    last_context: u64,
}

fn usage_in(session: &str) -> TranscriptUsage {
    let path = Path::new(FIXTURES)
        .join("transcripts")
        .join(format!("{session}.jsonl"));
    let mut by_id: HashMap<String, [u64; 4]> = HashMap::new();
    let mut last_context = 0;
    for line in fs::read_to_string(path).unwrap().lines() {
        let entry: Value = serde_json::from_str(line).unwrap();
        let message = &entry["message"];
        if entry["type"] != "assistant" || message["usage"].is_null() {
            continue;
        }
        let u = &message["usage"];
        let n = |k: &str| u[k].as_u64().unwrap_or(0);
        let numbers = [
            n("input_tokens"),
            n("cache_creation_input_tokens"),
            n("cache_read_input_tokens"),
            n("output_tokens"),
        ];
        let id = message["id"].as_str().unwrap().to_string();
        let seen = by_id.entry(id).or_insert(numbers);
        seen[3] = seen[3].max(numbers[3]);
        if entry["isSidechain"] != true {
            last_context = numbers[0] + numbers[1] + numbers[2];
        }
    }
    let sum = |i: usize| by_id.values().map(|u| u[i]).sum();
    TranscriptUsage {
        calls: by_id.len() as u64,
        input: sum(0),
        cache_creation: sum(1),
        cache_read: sum(2),
        output: sum(3),
        last_context,
    }
}

#[test]
fn stats_match_the_transcripts_own_usage() {
    let memory = Memory::imported();
    let out = memory.run(&["stats", "--all", "--json"], b"");
    assert!(out.status.success(), "{out:?}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sessions = report["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    let mut total_input = 0;
    for id in [BEFORE_CLEAR, AFTER_CLEAR] {
        let expected = usage_in(id);
        let s = sessions.iter().find(|s| s["session_id"] == id).unwrap();
        assert_eq!(s["api_calls"], expected.calls, "{id}");
        assert_eq!(s["usage"]["input"], expected.input, "{id}");
        assert_eq!(
            s["usage"]["cache_creation"], expected.cache_creation,
            "{id}"
        );
        assert_eq!(s["usage"]["cache_read"], expected.cache_read, "{id}");
        assert_eq!(s["usage"]["output"], expected.output, "{id}");
        assert_eq!(s["last_context"], expected.last_context, "{id}");
        let conversation = s["conversation_chars"].as_u64().unwrap();
        assert!(conversation > 0);
        assert_eq!(s["handoff_chars"], conversation.min(9_500));
        // English text: about four characters a token.
        let tokens = s["handoff_tokens"].as_u64().unwrap();
        let chars = s["handoff_chars"].as_u64().unwrap();
        assert!((chars / 5..=chars / 3).contains(&tokens), "{s}");
        total_input += expected.input;
    }
    let before = sessions
        .iter()
        .find(|s| s["session_id"] == BEFORE_CLEAR)
        .unwrap();
    assert_eq!(before["turns"], 5);
    assert!(
        before["tool_io_chars"].as_u64().unwrap() > before["conversation_chars"].as_u64().unwrap()
    );
    assert!(before["thinking_chars"].as_u64().unwrap() > 0);
    assert_eq!(report["totals"]["sessions"], 2);
    assert_eq!(report["totals"]["usage"]["input"], total_input);

    let out = memory.run(&["stats", "--session", &BEFORE_CLEAR[..8]], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&BEFORE_CLEAR[..8]), "{text}");
    assert!(!text.contains(&AFTER_CLEAR[..8]), "{text}");
}

#[test]
fn statusline_reads_claude_codes_json_and_never_fails() {
    let memory = Memory::imported();
    let sized = |session: &str, size: &str, used: &str| {
        format!(
            r#"{{"session_id":"{session}","transcript_path":"/x.jsonl","cwd":"/home/dev/toy",
            "model":{{"id":"claude-opus-4-5","display_name":"Opus 4.5"}},
            "workspace":{{"current_dir":"/home/dev/toy","project_dir":"/home/dev/toy"}},
            "version":"2.1.197","cost":{{"total_cost_usd":0.1}},
            "context_window":{{"total_input_tokens":42000,"total_output_tokens":900,
              "context_window_size":{size},"current_usage":null,
              "used_percentage":{used},"remaining_percentage":null}}}}"#
        )
    };
    let payload = |session: &str, used: &str| sized(session, "200000", used);
    assert_eq!(
        memory.statusline(&payload(BEFORE_CLEAR, "21")),
        (true, "throughline · 21% of 200k · 5 turns kept".into())
    );
    // Before the client knows the usage, the store's last request gives it.
    let last = usage_in(BEFORE_CLEAR).last_context;
    assert_eq!(
        memory.statusline(&payload(BEFORE_CLEAR, "null")),
        (
            true,
            format!(
                "throughline · {}k of 200k · 5 turns kept",
                (last + 500) / 1000
            )
        )
    );
    assert_eq!(
        memory.statusline(&payload("not-a-stored-session", "3")),
        (true, "throughline · 3% of 200k · 0 turns kept".into())
    );
    // Numbers in any notation; values out of range shown within it.
    let shown = |size: &str, used: &str| memory.statusline(&sized(AFTER_CLEAR, size, used)).1;
    assert_eq!(
        shown("200000.0", "21.0"),
        "throughline · 21% of 200k · 1 turn kept"
    );
    assert_eq!(shown("2e5", "-5"), "throughline · 0% of 200k · 1 turn kept");
    assert_eq!(
        shown("1000000", "123"),
        "throughline · 100% of 1M · 1 turn kept"
    );
    let last = usage_in(AFTER_CLEAR).last_context;
    assert_eq!(
        shown("1e12", "null"),
        format!(
            "throughline · {}k in context · 1 turn kept",
            (last + 500) / 1000
        )
    );
    for garbage in [
        "",
        "garbage",
        "{}",
        "[1,2]",
        "{\"session_id\": 5}",
        "\u{0}\u{1}",
    ] {
        assert_eq!(
            memory.statusline(garbage),
            (true, String::new()),
            "{garbage:?}"
        );
    }
}

#[test]
fn demo_shows_every_layer_without_an_agent() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .arg("demo")
        .env("HOME", dir.path())
        .env("THROUGHLINE_HOME", dir.path().join("memory"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for expected in [
        "UserPromptSubmit ×6",
        "PostToolUseFailure ×1",
        "turn 1",
        "> Read app.py and tell me what it does.",
        "L3: Read, thinking",
        "turn 5",
        "L2 conversation",
        "L3 detail",
        "The transcript is 40997 bytes",
        "It crashes with FileNotFoundError",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // The demo leaves nothing behind in the person's memory.
    assert!(!dir.path().join("memory").exists());

    let out = Command::new(BIN)
        .args(["demo", "--json"])
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let demo: Value = serde_json::from_slice(&out.stdout).unwrap();
    let prompts: Vec<&str> = demo["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["seq"] != 0)
        .map(|t| t["messages"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(prompts.len(), 5);
    let next = demo["next_session"].as_str().unwrap();
    assert!(prompts.iter().all(|p| next.contains(p)), "{next}");
    assert!(next.chars().count() < demo["transcript_bytes"].as_u64().unwrap() as usize / 10);
    assert_eq!(
        demo["spend"]["usage"]["output"],
        usage_in(BEFORE_CLEAR).output
    );
}

#[test]
fn sessions_says_when_the_list_is_cut_and_old_sessions_are_not_live() {
    let memory = Memory::imported();
    let out = memory.run(&["sessions", "--all", "--limit", "1"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  ")).count(),
        1,
        "{text}"
    );
    assert!(text.contains("--limit N shows more"), "{text}");
    // The fixture sessions ran long before today, and the client never ended the first.
    let out = memory.run(&["sessions", "--all"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(" live "), "{text}");
    assert!(!text.contains("shows more"), "{text}");
}

#[test]
fn the_statusline_records_the_plan_usage_the_client_sends() {
    let memory = Memory::imported();
    let recorded = memory.dir.path().join("memory/plan-usage.json");
    let (ok, _) = memory.statusline(&format!(r#"{{"session_id":"{BEFORE_CLEAR}"}}"#));
    assert!(ok && !recorded.exists(), "no report, nothing recorded");
    let payload = format!(
        r#"{{"session_id":"{BEFORE_CLEAR}","rate_limits":{{"five_hour":{{"used_percentage":42,"resets_at":1764590400}},"seven_day":{{"used_percentage":13,"resets_at":1765000000}}}}}}"#
    );
    let (ok, line) = memory.statusline(&payload);
    assert!(ok && line.starts_with("throughline"), "{line}");
    let plan: Value = serde_json::from_str(&fs::read_to_string(&recorded).unwrap()).unwrap();
    assert_eq!(plan["five_hour"]["used_percentage"], 42.0);
    assert_eq!(plan["seven_day"]["resets_at"], 1_765_000_000);
}

#[test]
fn monitor_shows_the_live_gauges_and_the_plan_usage() {
    let memory = Memory::imported();
    let monitor_with = |now: &str, json: &[&str]| {
        let out = Command::new(BIN)
            .args(["monitor", "--once"])
            .args(json)
            .env("THROUGHLINE_HOME", memory.dir.path().join("memory"))
            .env("HOME", memory.dir.path())
            .env("THROUGHLINE_NOW", now)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let monitor = |now: &str| monitor_with(now, &[]);
    // Shortly after the fixture sessions ran, both are live.
    let screen = monitor("2026-11-30T08:50:00.000Z");
    assert_eq!(screen.matches("toy · ").count(), 2, "{screen}");
    assert!(screen.contains("Claude Code · claude-opus-4-8"), "{screen}");
    // No threshold set: measured up to where the client compacts by itself.
    assert!(screen.contains("/167k"), "{screen}");
    assert!(
        screen.contains("Claude Code compacts at about 84%"),
        "{screen}"
    );
    assert!(screen.contains("█"), "{screen}");
    assert!(!screen.contains("plan:"), "{screen}");

    let payload = format!(
        r#"{{"session_id":"{BEFORE_CLEAR}","rate_limits":{{"five_hour":{{"used_percentage":42,"resets_at":4102444800}}}}}}"#
    );
    assert!(memory.statusline(&payload).0);
    let screen = monitor("2026-11-30T12:00:00.000Z");
    assert!(screen.contains("no live sessions"), "{screen}");
    assert!(screen.contains("plan: 5-hour 42% (resets in "), "{screen}");

    // The same, for a program: one object a line.
    let json = monitor_with("2026-11-30T08:50:00.000Z", &["--json"]);
    assert_eq!(json.lines().count(), 1, "{json}");
    let snapshot: Value = serde_json::from_str(&json).unwrap();
    let sessions = snapshot["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{json}");
    assert_eq!(sessions[0]["host"], "Claude Code");
    assert!(sessions[0]["usable"].as_u64().unwrap() > 160_000, "{json}");
    assert_eq!(snapshot["plan"]["five_hour"]["used_percentage"], 42.0);
}

/// `show` on a terminal (a pseudo-terminal from `script`), with the pager a program that
/// marks each line it is given.
fn show_on_a_terminal(memory: &Memory, pager: &str, args: &str) -> String {
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("\"$TL\" show {BEFORE_CLEAR} {args}"),
            "/dev/null",
        ])
        .env("TL", BIN)
        .env("SHELL", "/bin/sh")
        .env("THROUGHLINE_HOME", memory.dir.path().join("memory"))
        .env("HOME", memory.dir.path())
        .env("PAGER", pager)
        .env_remove("THROUGHLINE_PAGER")
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs a command on a pseudo-terminal");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

#[test]
fn output_on_a_terminal_goes_through_the_pager_and_nowhere_else() {
    let memory = Memory::imported();
    let paged = show_on_a_terminal(&memory, "sed s/^/paged:/", "");
    let lines: Vec<&str> = paged.lines().filter(|l| !l.is_empty()).collect();
    assert!(lines.len() > 3, "{paged}");
    assert!(lines.iter().all(|l| l.starts_with("paged:")), "{paged}");

    let direct = show_on_a_terminal(&memory, "sed s/^/paged:/", "--no-pager");
    assert!(!direct.contains("paged:"), "{direct}");
    assert_eq!(direct.trim_end(), paged.replace("paged:", "").trim_end());
    // A pager that is not there: the output is shown all the same.
    let missing = show_on_a_terminal(&memory, "no-such-pager-here", "");
    assert_eq!(missing.trim_end(), direct.trim_end());

    // A pipe is never paged.
    let mut piped = Command::new(BIN);
    piped
        .args(["show", BEFORE_CLEAR])
        .env("THROUGHLINE_HOME", memory.dir.path().join("memory"))
        .env("HOME", memory.dir.path())
        .env("PAGER", "sed s/^/paged:/");
    let out = piped.output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("paged:"));
}

#[test]
fn detail_shows_each_call_by_what_it_did_with_its_output() {
    let memory = Memory::imported();
    let shown = memory.run(&["show", BEFORE_CLEAR, "--json"], b"");
    let turns: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let code = |seq: u64| {
        let turns = turns["turns"].as_array().expect("turns");
        let turn = turns.iter().find(|t| t["seq"] == seq).unwrap();
        turn["code"].as_str().unwrap().to_string()
    };
    let detail = |seq: u64| {
        let out = memory.run(&["detail", &code(seq)], b"");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let ran = detail(2);
    assert!(
        ran.contains(
            "── tool 1 · Bash: python3 app.py items.json\ncommand: python3 app.py items.json\n"
        ),
        "{ran}"
    );
    assert!(ran.contains("→ output, 1 line:\n34.6\n"), "{ran}");
    assert!(ran.contains("── tool 2 · Bash: ls -la"), "{ran}");
    // No ids to match by hand, no escaped JSON, no host bookkeeping spread out.
    assert!(
        !ran.contains("toolu_") && !ran.contains(r#"{"command""#),
        "{ran}"
    );
    assert!(ran.contains("host note: stop_hook_summary ("), "{ran}");
    assert!(!ran.contains("parentUuid"), "{ran}");

    let failed = detail(5);
    assert!(failed.contains("→ error, 9 lines"), "{failed}");
    assert!(failed.contains("FileNotFoundError"), "{failed}");
}

#[test]
fn a_session_never_prompted_is_listed_only_when_asked() {
    let memory = Memory::imported();
    let transcript = memory
        .dir
        .path()
        .join("projects/-home-dev-toy/e0e0e0e0-0000-4000-8000-000000000000.jsonl");
    fs::write(&transcript, "").unwrap();
    let payload = serde_json::json!({
        "session_id": "e0e0e0e0-0000-4000-8000-000000000000",
        "transcript_path": transcript,
        "cwd": "/home/dev/toy",
        "hook_event_name": "SessionStart",
        "source": "startup",
    });
    let out = memory.run(&["hook", "claude"], payload.to_string().as_bytes());
    assert!(out.status.success(), "{out:?}");
    let listed = |args: &[&str]| {
        let out = memory.run(args, b"");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let usual = listed(&["sessions", "--all"]);
    assert!(!usual.contains("e0e0e0e0"), "{usual}");
    let all = listed(&["sessions", "--all", "--empty"]);
    assert!(all.contains("e0e0e0e0") && all.contains("0 turns"), "{all}");
}
