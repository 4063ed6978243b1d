//! What each reading verb prints, kept as snapshots: through a pipe (the stored text as it is)
//! and on a terminal (colours, escapes, the pager left out). A change in what people see shows
//! up as a diff of these files; `INSTA_UPDATE=always` writes the new ones to review.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::reports::{Memory, BEFORE_CLEAR as SESSION};

const BIN: &str = env!("CARGO_BIN_EXE_throughline");
/// A day after the fixture sessions ran: ages and "live" read the same in every run.
const NOW: &str = "2026-12-01T09:00:00.000Z";

/// The program run as in every snapshot, with `env` on top (a setting, another time).
fn command(memory: &Memory, program: &str, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(program);
    // Settings of the machine running the tests would show in `config` and change the memory.
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("THROUGHLINE_") {
            command.env_remove(name);
        }
    }
    command
        .env("THROUGHLINE_HOME", memory.dir.path().join("memory"))
        .env("HOME", memory.dir.path())
        .env("THROUGHLINE_NOW", NOW)
        .env("TZ", "UTC")
        .env("THROUGHLINE_PAGER", "cat")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .envs(env.iter().copied());
    command
}

/// What the verb prints into a pipe.
fn piped(memory: &Memory, env: &[(&str, &str)], args: &[&str]) -> String {
    let out = command(memory, BIN, env).args(args).output().unwrap();
    shown(memory, &out)
}

/// What the verb prints on a terminal (`script` gives it one).
fn on_a_terminal(memory: &Memory, env: &[(&str, &str)], args: &[&str]) -> String {
    let line = std::iter::once("\"$TL\"")
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let out = command(memory, "script", env)
        .args(["-qec", &line, "/dev/null"])
        .env("TL", BIN)
        .env("TERM", "xterm")
        .env("SHELL", "/bin/sh")
        .output()
        .expect("`script` (util-linux) runs a command on a pseudo-terminal");
    shown(memory, &out).replace("\r\n", "\n")
}

/// The output with the binary tested named `[BIN]` and this run's temporary folder `[TMP]`,
/// escape characters made visible as `␛`, and an exit status other than 0 at the end (1:
/// nothing found, or a problem found).
fn shown(memory: &Memory, out: &Output) -> String {
    let code = out.status.code();
    assert!(matches!(code, Some(0 | 1)), "{out:?}");
    let binary = std::fs::canonicalize(BIN).unwrap();
    let mut shown = String::from_utf8_lossy(&out.stdout)
        .replace(binary.to_str().unwrap(), "[BIN]")
        .replace(BIN, "[BIN]")
        .replace(memory.dir.path().to_str().unwrap(), "[TMP]")
        .replace('\u{1b}', "␛");
    if code == Some(1) {
        shown.push_str("[exit 1]\n");
    }
    shown
}

fn turn_code(memory: &Memory, seq: u64) -> String {
    let shown: Value =
        serde_json::from_str(&piped(memory, &[], &["show", SESSION, "--json"])).unwrap();
    let turns = shown["turns"].as_array().unwrap();
    let turn = turns.iter().find(|t| t["seq"] == seq).unwrap();
    turn["code"].as_str().unwrap().to_string()
}

/// Each verb, piped and on a terminal.
fn both(memory: &Memory, name: &str, args: &[&str]) {
    both_with(memory, name, &[], args);
}

fn both_with(memory: &Memory, name: &str, env: &[(&str, &str)], args: &[&str]) {
    insta::assert_snapshot!(format!("{name}_piped"), piped(memory, env, args));
    insta::assert_snapshot!(format!("{name}_terminal"), on_a_terminal(memory, env, args));
}

#[test]
fn what_each_reading_verb_prints() {
    let memory = Memory::imported();
    let ran = turn_code(&memory, 2);
    let edited = turn_code(&memory, 3);
    let wrote = turn_code(&memory, 4);
    let failed = turn_code(&memory, 5);
    both(&memory, "sessions", &["sessions", "--all"]);
    both(&memory, "show", &["show", SESSION]);
    both(&memory, "detail", &["detail", &ran]);
    both(&memory, "detail_edit", &["detail", &edited]);
    both(&memory, "detail_write", &["detail", &wrote]);
    both(&memory, "detail_failed", &["detail", &failed]);
    both(
        &memory,
        "detail_tool_lines",
        &["detail", &failed, "--tool", "1", "--lines", "2-4"],
    );
    both(&memory, "search", &["search", "--all", "json flag"]);
    // A tool's hit: the rest of its turn is read with the turn's own command.
    both(
        &memory,
        "search_tools",
        &["search", "--all", "--layer", "l3", "json flag"],
    );
    // The shape a script reads: one object per turn, with how many more of its lines hold a
    // word.
    insta::assert_snapshot!(
        "search_json",
        piped(&memory, &[], &["search", "--all", "--json", "json flag"])
    );
    both(
        &memory,
        "search_nothing",
        &["search", "--all", "kubernetes ingress"],
    );
    both(
        &memory,
        "recall",
        &["recall", "--session", SESSION, "--last", "2"],
    );
    both(&memory, "stats", &["stats", "--all"]);
    both(
        &memory,
        "handoff_preview",
        &["handoff", "--preview", "--session", SESSION],
    );
    both(
        &memory,
        "handoff_preview_clear",
        &["handoff", "--preview", "--clear", "--session", SESSION],
    );
}

#[test]
fn what_the_setup_and_upkeep_verbs_print() {
    let memory = Memory::imported();
    handoff_taken(&memory);
    let status = |printed: String| {
        // The database's size changes with every change to what is stored, and says nothing here.
        printed
            .lines()
            .map(|line| match (line.find(" ("), line.find(", schema")) {
                (Some(from), Some(to)) if line.starts_with("database") => {
                    format!("{} ([SIZE]{}", &line[..from], &line[to..])
                }
                _ => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    insta::assert_snapshot!("status_piped", status(piped(&memory, &[], &["status"])));
    insta::assert_snapshot!(
        "status_terminal",
        status(on_a_terminal(&memory, &[], &["status"]))
    );
    both(&memory, "injections", &["injections", "--all"]);
    both(&memory, "config", &["config"]);
    // Throughline is not registered in this home: a problem, a note and what is fine.
    both(&memory, "doctor", &["doctor"]);
    both(
        &memory,
        "forget_dry_run",
        &["forget", "--session", SESSION, "--dry-run"],
    );
    // Minutes after the sessions' last turns, while they are live.
    let live = [("THROUGHLINE_NOW", "2026-11-30T08:50:00.000Z")];
    both_with(&memory, "monitor", &live, &["monitor", "--once"]);

    // NO_COLOR holds for monitor's gauges as for the other verbs (`hardening.rs` runs those
    // with it); `--color always` colours a pipe too.
    insta::assert_snapshot!(
        "monitor_no_color_terminal",
        on_a_terminal(
            &memory,
            &[live[0], ("NO_COLOR", "1")],
            &["monitor", "--once"]
        )
    );
    insta::assert_snapshot!(
        "doctor_color_always_piped",
        piped(&memory, &[], &["doctor", "--color", "always"])
    );
}

/// The memory of the first session handed to a new one in its project, for `injections`.
fn handoff_taken(memory: &Memory) {
    let out = command(memory, BIN, &[])
        .args(["handoff", "--session", SESSION])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let projects = memory.dir.path().join(".claude/projects/-home-dev-toy");
    std::fs::create_dir_all(&projects).unwrap();
    let transcript = projects.join("e0e0e0e0-0000-4000-8000-000000000000.jsonl");
    std::fs::write(&transcript, "").unwrap();
    let prompt = serde_json::json!({
        "session_id": "e0e0e0e0-0000-4000-8000-000000000000",
        "transcript_path": transcript,
        "cwd": "/home/dev/toy",
        "prompt_id": "6f0c1d2e-0000-4000-8000-000000000001",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "Go on.",
    });
    let mut hook = command(memory, BIN, &[])
        .args(["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    hook.stdin
        .take()
        .unwrap()
        .write_all(prompt.to_string().as_bytes())
        .unwrap();
    let out = hook.wait_with_output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Throughline memory"),
        "the handoff was not taken: {out:?}"
    );
}

#[test]
fn a_listing_fits_a_narrow_terminal_and_a_pipe_gets_it_whole() {
    let memory = Memory::imported();
    let out = command(&memory, "script", &[])
        .args(["-qec", "stty cols 50; \"$TL\" sessions --all", "/dev/null"])
        .env("TL", BIN)
        .env("TERM", "xterm")
        .env("SHELL", "/bin/sh")
        .output()
        .unwrap();
    let narrow = shown(&memory, &out).replace("\r\n", "\n");
    let listed: Vec<&str> = narrow.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(listed.len(), 2, "{narrow}");
    // Colours take no room, and a line cut in one ends it.
    assert!(narrow.contains('␛'), "{narrow}");
    let seen: Vec<String> = listed.iter().map(|l| without_colours(l)).collect();
    assert!(seen.iter().all(|l| l.chars().count() <= 50), "{narrow}");
    assert!(seen.iter().any(|l| l.chars().count() == 50), "{narrow}");
    assert!(listed.iter().any(|l| l.ends_with("…␛[0m")), "{narrow}");
    let whole = piped(&memory, &[], &["sessions", "--all"]);
    assert!(
        whole.contains("Read app.py and tell me what it does."),
        "{whole}"
    );
}

/// `text` as `shown` gives it, without its colours (`␛[…m`).
fn without_colours(text: &str) -> String {
    let mut seen = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("␛[") {
        seen.push_str(&rest[..at]);
        rest = rest[at..].split_once('m').map_or("", |(_, after)| after);
    }
    seen.push_str(rest);
    seen
}
