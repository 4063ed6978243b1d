//! What each reading verb prints, kept as snapshots: through a pipe (the stored text as it is)
//! and on a terminal (colours, escapes, the pager left out). A change in what people see shows
//! up as a diff of these files; `INSTA_UPDATE=always` writes the new ones to review.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::reports::{Memory, BEFORE_CLEAR as SESSION};

const BIN: &str = env!("CARGO_BIN_EXE_throughline");
/// A day after the fixture sessions ran: ages and "live" read the same in every run.
const NOW: &str = "2026-12-01T09:00:00.000Z";

fn command(memory: &Memory, program: &str) -> Command {
    let mut command = Command::new(program);
    command
        .env("THROUGHLINE_HOME", memory.dir.path().join("memory"))
        .env("HOME", memory.dir.path())
        .env("THROUGHLINE_NOW", NOW)
        .env("TZ", "UTC")
        .env("THROUGHLINE_PAGER", "cat")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    command
}

/// What the verb prints into a pipe.
fn piped(memory: &Memory, args: &[&str]) -> String {
    let out = command(memory, BIN).args(args).output().unwrap();
    shown(memory, &out)
}

/// What the verb prints on a terminal (`script` gives it one).
fn on_a_terminal(memory: &Memory, args: &[&str]) -> String {
    let line = std::iter::once("\"$TL\"")
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let out = command(memory, "script")
        .args(["-qec", &line, "/dev/null"])
        .env("TL", BIN)
        .env("TERM", "xterm")
        .env("SHELL", "/bin/sh")
        .output()
        .expect("`script` (util-linux) runs a command on a pseudo-terminal");
    shown(memory, &out).replace("\r\n", "\n")
}

/// The output with this run's temporary folder named `[TMP]`, escape characters made
/// visible as `␛`, and an exit status other than 0 at the end (1: nothing found).
fn shown(memory: &Memory, out: &Output) -> String {
    let code = out.status.code();
    assert!(matches!(code, Some(0 | 1)), "{out:?}");
    let mut shown = String::from_utf8_lossy(&out.stdout)
        .replace(memory.dir.path().to_str().unwrap(), "[TMP]")
        .replace('\u{1b}', "␛");
    if code == Some(1) {
        shown.push_str("[exit 1]\n");
    }
    shown
}

fn turn_code(memory: &Memory, seq: u64) -> String {
    let shown: Value = serde_json::from_str(&piped(memory, &["show", SESSION, "--json"])).unwrap();
    let turns = shown["turns"].as_array().unwrap();
    let turn = turns.iter().find(|t| t["seq"] == seq).unwrap();
    turn["code"].as_str().unwrap().to_string()
}

/// Each verb, piped and on a terminal.
fn both(memory: &Memory, name: &str, args: &[&str]) {
    insta::assert_snapshot!(format!("{name}_piped"), piped(memory, args));
    insta::assert_snapshot!(format!("{name}_terminal"), on_a_terminal(memory, args));
}

#[test]
fn what_each_reading_verb_prints() {
    let memory = Memory::imported();
    let ran = turn_code(&memory, 2);
    let failed = turn_code(&memory, 5);
    both(&memory, "sessions", &["sessions", "--all"]);
    both(&memory, "show", &["show", SESSION]);
    both(&memory, "detail", &["detail", &ran]);
    both(&memory, "detail_failed", &["detail", &failed]);
    both(
        &memory,
        "detail_tool_lines",
        &["detail", &failed, "--tool", "1", "--lines", "2-4"],
    );
    both(&memory, "search", &["search", "--all", "json flag"]);
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
fn a_listing_fits_a_narrow_terminal_and_a_pipe_gets_it_whole() {
    let memory = Memory::imported();
    let out = command(&memory, "script")
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
    let whole = piped(&memory, &["sessions", "--all"]);
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
