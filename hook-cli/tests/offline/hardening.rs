//! Hostile or unlucky input on disk and on the terminal: a FIFO or a symlink out of its folder
//! given as the transcript, a file of bad lines, files others could read, a reader that stops
//! reading, and control sequences in stored text.

use crate::support;

use std::fs;
use std::io::Read;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::store_env::StoreEnv;
use support::throughline::bin;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-2.1.197");
const SESSION: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";

/// A Stop payload of the fixture session whose transcript is `transcript`.
fn stop_payload(transcript: &Path) -> Vec<u8> {
    let text = fs::read_to_string(Path::new(FIXTURES).join("hooks/05-Stop.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["transcript_path"] = transcript.to_string_lossy().into();
    serde_json::to_vec(&v).unwrap()
}

/// A store holding the fixture session, imported.
fn imported_fixture() -> StoreEnv {
    let env = StoreEnv::new();
    fs::copy(
        Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl")),
        env.path(&format!("{SESSION}.jsonl")),
    )
    .unwrap();
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(out.status.success(), "{out:?}");
    env
}

fn log_lines(env: &StoreEnv) -> Vec<String> {
    env.log().lines().map(str::to_string).collect()
}

fn stored_turns(env: &StoreEnv) -> u64 {
    let out = env.throughline(&["sessions", "--all", "--json"], b"");
    let sessions: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    sessions.as_array().map_or(0, |all| {
        all.iter().map(|s| s["turns"].as_u64().unwrap()).sum()
    })
}

#[test]
fn a_fifo_as_the_transcript_never_hangs_the_hook() {
    let env = StoreEnv::new();
    let fifo = env.path(&format!("{SESSION}.jsonl"));
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let started = Instant::now();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&fifo));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the hook waited"
    );
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let lines = log_lines(&env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("not a regular file"), "{lines:?}");
}

#[test]
fn a_transcript_symlinked_out_of_its_folder_is_not_read() {
    let env = StoreEnv::new();
    let link = env.path(&format!("{SESSION}.jsonl"));
    symlink("/etc/passwd", &link).unwrap();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&link));
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let lines = log_lines(&env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("outside its folder"), "{lines:?}");
    assert_eq!(stored_turns(&env), 0);

    // A link to a transcript beside it is read as that transcript.
    let real = env.path("real.jsonl");
    fs::copy(
        Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl")),
        &real,
    )
    .unwrap();
    fs::remove_file(&link).unwrap();
    symlink(&real, &link).unwrap();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&link));
    assert!(out.status.success(), "{out:?}");
    assert!(stored_turns(&env) > 0);
}

#[test]
fn a_file_of_bad_lines_is_one_log_line_per_call() {
    let env = StoreEnv::new();
    let transcript = env.path(&format!("{SESSION}.jsonl"));
    let garbage: String = (0..200).map(|i| format!("{{not json {i}\n")).collect();
    fs::write(&transcript, garbage).unwrap();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&transcript));
    assert!(out.status.success(), "{out:?}");
    let lines = log_lines(&env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("and 199 more problems"), "{lines:?}");
}

#[test]
fn log_config_and_folder_are_owner_only_whatever_the_umask_and_the_past() {
    let env = StoreEnv::new();
    fs::create_dir_all(&env.home).unwrap();
    fs::set_permissions(&env.home, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(env.home.join("config.json"), "{}").unwrap();
    fs::set_permissions(
        env.home.join("config.json"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;

    // umask 000: what the hook creates would be 0666 without an explicit mode. A payload it
    // cannot read makes a log line; a good one reads the config and opens the store.
    let hook = |payload: &[u8]| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("umask 000; exec {} hook claude", bin()))
            .env("THROUGHLINE_HOME", &env.home)
            .env_remove("THROUGHLINE_GUARD")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(payload)?;
                child.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    hook(b"not json");
    hook(&stop_payload(&env.path("none.jsonl")));
    assert_eq!(mode(&env.home.join("throughline.db")), 0o600);
    assert_eq!(
        mode(&env.home),
        0o700,
        "the folder is tightened on first use"
    );
    assert_eq!(mode(&env.home.join("throughline.log")), 0o600);
    assert_eq!(mode(&env.home.join("config.json")), 0o600);

    let out = env.throughline(&["config", "--pause"], b"");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(mode(&env.home.join("config.json")), 0o600);
}

#[test]
fn a_reader_that_stops_reading_is_a_normal_end() {
    let env = imported_fixture();
    for args in [vec!["show", SESSION], vec!["search", "app", "--all"]] {
        // `| head -c 1`: the reader takes one byte and goes.
        let mut child = Command::new(bin())
            .args(&args)
            .env("THROUGHLINE_HOME", &env.home)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        stdout.read_exact(&mut one).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {said}");
    }
}

#[test]
fn output_into_a_closed_pipe_is_a_quiet_normal_end() {
    let env = imported_fixture();
    for args in [
        vec!["show", SESSION],
        vec!["show", SESSION, "--json"],
        vec!["sessions", "--all", "--json"],
        vec!["search", "app", "--all", "--json"],
        vec!["status"],
        vec!["summarize"],
        vec!["summarize", "--json"],
    ] {
        // The reader is gone before the first byte is written.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(bin())
            .args(&args)
            .env("THROUGHLINE_HOME", &env.home)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(said.is_empty(), "{args:?}: {said}");
    }
}

#[test]
fn control_sequences_in_stored_text_are_escaped_on_a_terminal_and_raw_in_json() {
    let env = StoreEnv::new();
    let text = fs::read_to_string(Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl")))
        .unwrap();
    // A title change, a screen clear and an OSC 52 clipboard write in a tool's output.
    let hostile = r"\u001b]0;owned\u0007\u001b[2J\u001b]52;c;ZWNobyBwd25lZA==\u0007";
    let text = text.replacen(
        "\"content\":\"34.6\"",
        &format!("\"content\":\"34.6 {hostile} end\""),
        1,
    );
    fs::write(env.path(&format!("{SESSION}.jsonl")), text).unwrap();
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(out.status.success(), "{out:?}");
    let shown = env.json(&["show", SESSION, "--json"]);
    let code = shown["turns"][1]["code"].as_str().unwrap().to_string();

    let json = env.throughline(&["detail", &code, "--json"], b"");
    assert!(
        String::from_utf8_lossy(&json.stdout).contains(r"\u001b]52;c;"),
        "--json keeps the stored text exactly"
    );

    // Through a terminal: `script` gives the command one.
    for args in [
        format!("detail {code}"),
        "search 34.6 --all".to_string(),
        format!("show {SESSION}"),
    ] {
        let seen = on_a_terminal(&env, &args);
        if args.starts_with("show") {
            continue; // show lists no tool output; it went through the same escaping above
        }
        assert!(
            !seen.contains('\u{1b}'),
            "{args}: raw escape reached the terminal: {seen:?}"
        );
        assert!(seen.contains(r"\x1b]52;c;"), "{args}: {seen:?}");
    }
}

/// Runs `hook claude` with `stdin`, killing it if it is still running after `patience`.
fn hook_with_stdin(env: &StoreEnv, stdin: Stdio, patience: Duration) -> std::process::Output {
    let mut child = env
        .command()
        .args(["hook", "claude"])
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() && started.elapsed() < patience {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

/// A hook fed `stdin` ends within `within`, exit 0, nothing on stdout, and one log line
/// saying `why`.
fn gives_up_quietly(env: &StoreEnv, stdin: Stdio, within: Duration, why: &str) {
    let started = Instant::now();
    let out = hook_with_stdin(env, stdin, Duration::from_secs(20));
    assert!(started.elapsed() < within, "the hook went on reading");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let lines = log_lines(env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains(why), "{lines:?}");
}

#[test]
fn an_endless_payload_is_cut_off_and_logged() {
    let env = StoreEnv::new();
    let zero = fs::File::open("/dev/zero").unwrap();
    gives_up_quietly(
        &env,
        zero.into(),
        Duration::from_secs(10),
        "larger than 16 MB",
    );
}

#[test]
fn a_payload_pipe_left_open_is_given_up() {
    let env = StoreEnv::new();
    let (read_end, _open_end) = std::io::pipe().unwrap();
    gives_up_quietly(
        &env,
        read_end.into(),
        Duration::from_secs(5),
        "stdin was not closed within 500 ms",
    );
}

#[test]
fn a_payload_field_longer_than_any_host_sends_is_refused_at_once() {
    let start = fs::read_to_string(Path::new(FIXTURES).join("hooks/01-SessionStart.json")).unwrap();
    for field in ["cwd", "session_id"] {
        let env = StoreEnv::new();
        let mut payload: Value = serde_json::from_str(&start).unwrap();
        // A path of a million folders: looking for its project's root took minutes.
        payload[field] = "/a".repeat(1 << 20).into();
        let file = env.path("payload.json");
        fs::write(&file, serde_json::to_vec(&payload).unwrap()).unwrap();
        gives_up_quietly(
            &env,
            fs::File::open(&file).unwrap().into(),
            Duration::from_secs(5),
            &format!("the payload's {field} is 2097152 bytes"),
        );
        let stored = fs::metadata(env.home.join("throughline.db")).map_or(0, |m| m.len());
        assert!(stored < 1 << 20, "{field}: the store holds {stored} bytes");
    }
}

#[test]
fn ages_reaching_past_1970_are_read_as_1970_not_a_crash() {
    let env = imported_fixture();
    for args in [
        vec!["config", "--keep-days", "36500"],
        vec!["forget", "--retention"],
        vec!["config", "--keep-days", "4294967295"],
        vec!["forget", "--retention"],
        vec!["search", "app", "--all", "--since", "99999999d"],
        vec!["forget", "--before", "999999999d", "--yes"],
        vec!["doctor"],
    ] {
        let out = env.throughline(&args, b"");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {said}");
    }
    assert!(stored_turns(&env) > 0, "nothing was older than 1970");
}

/// `throughline args` run on a terminal (`script` gives it one); what the terminal got.
fn on_a_terminal(env: &StoreEnv, args: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", &format!("{} {args}", bin()), "/dev/null"])
        .env("THROUGHLINE_HOME", &env.home)
        .env("NO_COLOR", "1")
        // What the terminal is shown, not a pager waiting for keys nobody presses.
        .env("THROUGHLINE_PAGER", "cat")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let seen = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args}: {seen}");
    seen
}

#[test]
fn every_verb_escapes_control_and_reordering_characters_on_a_terminal() {
    let env = StoreEnv::new();
    let text = fs::read_to_string(Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl")))
        .unwrap();
    // A clipboard write and a right-to-left override in the prompt, a title change in the
    // working folder, a screen clear in the model's name.
    let cwd = r#""cwd":"/home/dev/toy\u001b]0;owned\u0007""#;
    let text = text
        .replacen(
            "Read app.py and tell me what it does.",
            r"Read app.py \u001b]52;c;ZWNobw==\u0007 \u202eevil",
            1,
        )
        .replace(r#""cwd":"/home/dev/toy""#, cwd)
        .replace(r#""model":"claude-opus-4-8""#, r#""model":"opus\u001b[2J""#);
    fs::write(env.path(&format!("{SESSION}.jsonl")), text).unwrap();
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(out.status.success(), "{out:?}");
    // A handoff taken by the next session's first prompt, for `injections`.
    let out = env.throughline(&["handoff", "--session", SESSION], b"");
    assert!(out.status.success(), "{out:?}");
    let prompt = fs::read_to_string(Path::new(FIXTURES).join("hooks/30-UserPromptSubmit.json"))
        .unwrap()
        .replace(r#""cwd":"/home/dev/toy""#, cwd);
    let out = env.throughline(&["hook", "claude"], prompt.as_bytes());
    assert!(!out.stdout.is_empty(), "the handoff was not taken: {out:?}");
    let code = env.json(&["show", SESSION, "--json"])["turns"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();

    for args in [
        "injections --all --full".to_string(),
        "sessions --all".to_string(),
        format!("show {SESSION}"),
        format!("detail {code}"),
        "search evil --all".to_string(),
        format!("recall --session {SESSION}"),
    ] {
        let seen = on_a_terminal(&env, &args);
        assert!(
            !seen.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "{args}: raw control reached the terminal: {seen:?}"
        );
        assert!(seen.contains(r"\x1b"), "{args}: {seen:?}");
        if args.starts_with("injections") {
            continue;
        }
        // In colour, every escape sequence left is a colour.
        let coloured = on_a_terminal(&env, &format!("{args} --color always"));
        let seen = without_colours(&coloured);
        assert_ne!(seen, coloured, "{args}: no colour");
        assert!(
            !seen.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "{args}: raw control reached the terminal in colour: {coloured:?}"
        );
        assert!(seen.contains(r"\x1b"), "{args}: {coloured:?}");
    }
}

/// `text` without its colours: `ESC [ n;n m`, and no other escape sequence.
fn without_colours(text: &str) -> String {
    let mut seen = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        seen.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let params = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';');
        match params.strip_prefix('m') {
            Some(colour_ended) => rest = colour_ended,
            None => {
                seen.push_str("\u{1b}[");
                rest = after;
            }
        }
    }
    seen.push_str(rest);
    seen
}

#[test]
fn a_write_lock_held_elsewhere_is_given_up_quickly_and_nothing_is_lost() {
    let whole = fs::read(Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl"))).unwrap();
    let imported = StoreEnv::new();
    fs::write(imported.path(&format!("{SESSION}.jsonl")), &whole).unwrap();
    let out = imported.throughline(&["import", "--from", &imported.projects()], b"");
    assert!(out.status.success(), "{out:?}");

    let env = StoreEnv::new();
    let transcript = env.path(&format!("{SESSION}.jsonl"));
    fs::write(&transcript, b"").unwrap();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&transcript));
    assert!(out.status.success(), "{out:?}");
    fs::write(&transcript, &whole).unwrap();

    let holder = rusqlite::Connection::open(env.home.join("throughline.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let started = Instant::now();
    let out = env.throughline(&["hook", "claude"], &stop_payload(&transcript));
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_millis(2000),
        "the hook waited {waited:?}"
    );
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let lines = log_lines(&env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("held the memory's write lock"),
        "{lines:?}"
    );
    holder.execute_batch("ROLLBACK").unwrap();

    let out = env.throughline(&["hook", "claude"], &stop_payload(&transcript));
    assert!(out.status.success(), "{out:?}");
    assert!(stored_turns(&imported) > 0);
    assert_eq!(
        stored_turns(&env),
        stored_turns(&imported),
        "the next hook caught up"
    );
}

#[test]
fn a_query_of_thousands_of_words_is_cut_and_answered_at_once() {
    let env = imported_fixture();
    let words: Vec<String> = (0..20_000).map(|i| format!("w{i}")).collect();
    let started = Instant::now();
    let out = env.throughline(&["search", "--all", &words.join(" ")], b"");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        said.contains("only the first 1024 of the query's 20000 different terms were searched"),
        "{said}"
    );
}
