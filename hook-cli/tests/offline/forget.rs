//! `throughline forget` on imported fixture sessions: the preview, the confirmation, and a
//! forgotten session staying forgotten when its transcript is read again.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_throughline");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-2.1.197");
const BEFORE_CLEAR: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";
const AFTER_CLEAR: &str = "0f1b393e-f41a-4e1e-9a85-60441f844f13";

struct Memory {
    dir: tempfile::TempDir,
}

impl Memory {
    fn imported() -> Memory {
        let memory = Memory {
            dir: tempfile::tempdir().unwrap(),
        };
        let projects = memory.projects();
        fs::create_dir_all(&projects).unwrap();
        for id in [BEFORE_CLEAR, AFTER_CLEAR] {
            let name = format!("{id}.jsonl");
            fs::copy(
                Path::new(FIXTURES).join("transcripts").join(&name),
                projects.join(&name),
            )
            .unwrap();
        }
        memory.import();
        memory
    }

    fn import(&self) {
        let projects = self.projects();
        let from = projects.parent().unwrap();
        let out = self.run(&["import", "--json", "--from", from.to_str().unwrap()]);
        assert!(out.status.success(), "{out:?}");
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, b"")
    }

    /// `throughline ARGS` with `stdin`, outside any hook of a client running these tests.
    fn run_with(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut child = Command::new(BIN)
            .args(args)
            .env("THROUGHLINE_HOME", self.folder())
            .env("HOME", self.dir.path())
            .env_remove("THROUGHLINE_GUARD")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn turns_of(&self, session: &str) -> Option<u64> {
        let out = self.run(&["sessions", "--all", "--json"]);
        let sessions: Value = serde_json::from_slice(&out.stdout).unwrap();
        sessions
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["session_id"] == session)
            .map(|s| s["turns"].as_u64().unwrap())
    }
}

#[test]
fn a_session_is_previewed_confirmed_forgotten_and_stays_forgotten() {
    let memory = Memory::imported();
    let turns = memory.turns_of(BEFORE_CLEAR).expect("imported");
    assert!(turns > 0);

    let dry = memory.json(&["forget", "--session", BEFORE_CLEAR, "--dry-run", "--json"]);
    assert_eq!(dry["preview"]["sessions"], 1);
    assert_eq!(
        dry["preview"]["turns"], turns,
        "as many turns as the session lists"
    );
    assert!(dry["forgotten"].is_null());
    assert_eq!(
        memory.turns_of(BEFORE_CLEAR),
        Some(turns),
        "a dry run changes nothing"
    );
    // The retention settings previewed: what they would remove, and nothing goes.
    memory.run(&["config", "--keep-days", "1"]);
    let would = memory.json(&["forget", "--retention", "--dry-run", "--json"]);
    assert_eq!(would["by_age"]["sessions"], 2, "{would}");
    assert!(would["by_size"].is_null(), "{would}");
    let said = memory.run(&["forget", "--retention", "--dry-run"]);
    let said = String::from_utf8_lossy(&said.stdout);
    assert!(
        said.starts_with("Would forget 2 sessions,") && said.contains("(older than 1 day)"),
        "{said}"
    );
    assert!(
        !said.contains("MB"),
        "a size limit that is off goes unsaid: {said}"
    );
    assert_eq!(memory.turns_of(BEFORE_CLEAR), Some(turns));
    memory.run(&["config", "--keep-days", "0"]);

    // Without a terminal to ask on, nothing goes without --yes.
    let refused = memory.run(&["forget", "--session", BEFORE_CLEAR]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("--yes"), "{said}");
    assert!(String::from_utf8_lossy(&refused.stdout).contains("This forgets 1 session,"));
    assert_eq!(memory.turns_of(BEFORE_CLEAR), Some(turns));

    let done = memory.json(&["forget", "--session", BEFORE_CLEAR, "--yes", "--json"]);
    assert_eq!(done["forgotten"]["removed"], dry["preview"]);
    assert_eq!(memory.turns_of(BEFORE_CLEAR), None);
    assert!(
        memory.turns_of(AFTER_CLEAR).is_some(),
        "the other session stays"
    );

    // Reading the transcripts again stores only what they gain from now on: the session is
    // known again, with none of what was forgotten.
    memory.import();
    assert_eq!(memory.turns_of(BEFORE_CLEAR), Some(0));

    let again = memory.json(&["forget", "--session", BEFORE_CLEAR, "--yes", "--json"]);
    assert_eq!(again["forgotten"]["removed"]["turns"], 0);
}

#[test]
fn everything_before_a_date_and_a_bad_date_explained() {
    let memory = Memory::imported();
    let bad = memory.run(&["forget", "--before", "someday", "--yes"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("30d"));
    let nothing = memory.json(&["forget", "--before", "2000-01-01", "--yes", "--json"]);
    assert_eq!(nothing["preview"]["turns"], 0);
    let all = memory.json(&["forget", "--before", "1d", "--yes", "--json"]);
    assert_eq!(all["forgotten"]["removed"]["sessions"], 2);
    let search = memory.run(&["search", "the", "--all", "--json"]);
    let hits: Value = serde_json::from_slice(&search.stdout).unwrap_or(Value::Null);
    // Like grep, a search that finds nothing exits 1.
    assert_eq!(search.status.code(), Some(1), "{search:?}");
    assert_eq!(hits, Value::Array(vec![]));
}

/// Words no other text holds: random letters, so that the next term of an index sorted by
/// term shares at most a letter or two with one of them.
struct Fragments {
    state: u64,
    made: Vec<String>,
}

impl Fragments {
    fn new(seed: u64) -> Fragments {
        Fragments {
            state: seed ^ u64::from(std::process::id()) << 20,
            made: Vec::new(),
        }
    }

    fn next(&mut self) -> String {
        let word: String = (0..14)
            .map(|_| {
                // xorshift: enough to make words that occur nowhere else.
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                char::from(b'a' + (self.state % 26) as u8)
            })
            .collect();
        self.made.push(word.clone());
        word
    }
}

/// Lines of a Claude Code transcript: `turns` turns, each a prompt, thinking, a tool call,
/// its output and an answer, with a planted word in each.
fn transcript_turns(session: &str, day: &str, turns: usize, words: &mut Fragments) -> Vec<String> {
    let mut parent = Value::Null;
    let mut line = |n: usize, k: &str, mut v: Value| {
        let uuid = format!("{session}-{n}-{k}");
        v["uuid"] = uuid.clone().into();
        v["parentUuid"] = parent.clone();
        v["sessionId"] = session.into();
        v["cwd"] = "/home/dev/toy".into();
        v["isSidechain"] = false.into();
        v["timestamp"] = format!("{day}T10:{:02}:{:02}.000Z", n / 60, n % 60).into();
        parent = uuid.into();
        v.to_string()
    };
    let assistant = |id: String, block: Value| {
        serde_json::json!({"type": "assistant", "message": {
            "id": id, "type": "message", "role": "assistant", "model": "claude-opus-4-8",
            "content": [block], "stop_reason": null,
            "usage": {"input_tokens": 10, "output_tokens": 10}}})
    };
    (0..turns)
        .map(|n| {
            let prompt_id = format!("{session}-prompt-{n}");
            let tool = format!("toolu_{n:06}");
            let user = |content: Value| {
                serde_json::json!({"type": "user", "promptId": prompt_id,
                                   "message": {"role": "user", "content": content}})
            };
            let prompt = user(format!("Look into {} please", words.next()).into());
            let thinking = assistant(
                format!("msg_{n}_a"),
                serde_json::json!({"type": "thinking", "signature": "c2ln",
                                   "thinking": format!("I should grep for {}", words.next())}),
            );
            let call = assistant(
                format!("msg_{n}_a"),
                serde_json::json!({"type": "tool_use", "id": tool, "name": "Bash",
                                   "input": {"command": format!("grep -r {} .", words.next())}}),
            );
            let output = user(
                serde_json::json!([{"type": "tool_result", "tool_use_id": tool,
                "content": format!("src/lib.rs: let {} = 1;", words.next()), "is_error": false}]),
            );
            let answer = assistant(
                format!("msg_{n}_b"),
                serde_json::json!({"type": "text",
                                   "text": format!("Found it: {} is set once.", words.next())}),
            );
            [
                line(n, "prompt", prompt),
                line(n, "thinking", thinking),
                line(n, "call", call),
                line(n, "output", output),
                line(n, "answer", answer),
            ]
            .map(|l| l + "\n")
            .concat()
        })
        .collect()
}

/// Every planted word (its tail: an index keeps a term after the prefix it shares with the
/// term before it) found in a file of the memory's folder, with the file.
fn copies_left(folder: &Path, words: &[String]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let Ok(bytes) = fs::read(&path) else { continue };
        for word in words {
            let tail = &word.as_bytes()[4..];
            if bytes.windows(tail.len()).any(|w| w == tail) {
                found.push((path.display().to_string(), word.clone()));
            }
        }
    }
    found
}

impl Memory {
    fn empty() -> Memory {
        let memory = Memory {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::create_dir_all(memory.projects()).unwrap();
        memory
    }

    /// Where Claude Code keeps this project's transcripts: a hook reads only there.
    fn projects(&self) -> std::path::PathBuf {
        self.dir.path().join(".claude/projects/-home-dev-toy")
    }

    fn folder(&self) -> std::path::PathBuf {
        self.dir.path().join("memory")
    }

    /// Stores a session turn by turn as the hooks do: the prompt when it is sent, the rest
    /// when the turn ends.
    fn by_hooks(&self, session: &str, turns: &[String]) {
        let transcript = self.projects().join(format!("{session}.jsonl"));
        for (n, turn) in turns.iter().enumerate() {
            let (prompt, rest) = turn.split_once('\n').unwrap();
            let mut file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&transcript)
                .unwrap();
            file.write_all(format!("{prompt}\n").as_bytes()).unwrap();
            let text: Value = serde_json::from_str(prompt).unwrap();
            for (event, extra) in [
                (
                    "UserPromptSubmit",
                    ("prompt", text["message"]["content"].clone()),
                ),
                ("Stop", ("stop_hook_active", Value::Bool(false))),
            ] {
                if event == "Stop" {
                    file.write_all(rest.as_bytes()).unwrap();
                }
                let mut payload = serde_json::json!({
                    "session_id": session, "transcript_path": transcript,
                    "cwd": "/home/dev/toy", "hook_event_name": event,
                    "prompt_id": format!("{session}-prompt-{n}"),
                });
                payload[extra.0] = extra.1;
                self.hook(&payload.to_string());
            }
        }
    }

    fn hook(&self, payload: &str) {
        let out = self.run_with(&["hook", "claude"], payload.as_bytes());
        assert!(out.status.success(), "{out:?}");
    }

    /// Runs a search, which fills the search indexes with what is stored.
    fn search_everything(&self) {
        let out = self.run(&["search", "grep", "--all", "--json"]);
        assert!(out.status.success(), "{out:?}");
    }
}

/// Five turns to keep, stored by hooks on `kept_day`, beside thirty turns stored by hooks
/// and thirty imported, on the days given, each with planted words; after `forget`, none of
/// the planted words of the thirty is left in any file of the memory's folder, and all of
/// the five's are.
fn forgotten_leave_no_copy(kept_day: &str, days: [&str; 2], forget: &[&[&str]]) {
    let memory = Memory::empty();
    let mut kept = Fragments::new(1);
    let mut gone = Fragments::new(2);
    memory.by_hooks("kept", &transcript_turns("kept", kept_day, 5, &mut kept));
    memory.by_hooks(
        "hooked",
        &transcript_turns("hooked", days[0], 30, &mut gone),
    );
    let hooked = gone.made.len();
    fs::write(
        memory.projects().join("imported.jsonl"),
        transcript_turns("imported", days[1], 30, &mut gone).concat(),
    )
    .unwrap();
    memory.import();
    memory.search_everything();
    for (how, words) in [
        ("hooks", &gone.made[..hooked]),
        ("import", &gone.made[hooked..]),
    ] {
        assert_eq!(
            copies_left(&memory.folder(), words).len(),
            words.len(),
            "stored by {how}"
        );
    }

    for args in forget {
        let out = memory.run(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    assert_eq!(
        copies_left(&memory.folder(), &gone.made),
        Vec::<(String, String)>::new(),
        "copies left after {forget:?}"
    );
    assert_eq!(
        copies_left(&memory.folder(), &kept.made).len(),
        kept.made.len(),
        "what was not forgotten is all there"
    );
}

#[test]
fn forgotten_sessions_leave_no_copy_in_any_file() {
    forgotten_leave_no_copy(
        "2026-11-20",
        ["2026-11-21", "2026-11-22"],
        &[
            &["forget", "--session", "hooked", "--yes"],
            &["forget", "--session", "imported", "--yes"],
        ],
    );
}

#[test]
fn turns_forgotten_by_date_leave_no_copy_in_any_file() {
    forgotten_leave_no_copy(
        "2026-11-20",
        ["2026-10-01", "2026-10-02"],
        &[&["forget", "--before", "2026-11-01", "--yes"]],
    );
}

#[test]
fn turns_forgotten_by_retention_leave_no_copy_in_any_file() {
    let today = humantime::format_rfc3339(std::time::SystemTime::now()).to_string();
    forgotten_leave_no_copy(
        &today[..10],
        ["2001-10-01", "2001-10-02"],
        &[
            &["config", "--keep-days", "3650"],
            &["forget", "--retention", "--yes"],
        ],
    );
}

const KEY: &str = "Vn4KpX8qRz2TbW7mYc3LsH9d";

/// A memory whose session `pasted` holds [`KEY`] in prose, where no rule sees it, stored by
/// hooks; and the turns of a session `named` whose first tool output is `STAGING_KEY=KEY`.
fn key_pasted_then_named() -> (Memory, Vec<String>) {
    let memory = Memory::empty();
    let mut words = Fragments::new(3);
    let mut pasted = transcript_turns("pasted", "2026-11-20", 3, &mut words);
    let planted = words.made[0].clone();
    pasted[0] = pasted[0].replace(&planted, KEY);
    memory.by_hooks("pasted", &pasted);
    assert!(!copies_left(&memory.folder(), &[KEY.to_string()]).is_empty());

    let mut named = transcript_turns("named", "2026-11-21", 2, &mut words);
    let output = format!("src/lib.rs: let {} = 1;", words.made[3 * 5 + 3]);
    assert!(named[0].contains(&output));
    named[0] = named[0].replace(&output, &format!("STAGING_KEY={KEY}"));
    (memory, named)
}

/// The same key named in an imported session: the import looks for it everywhere before it
/// ends.
#[test]
fn a_secret_found_late_by_an_import_leaves_every_session() {
    let (memory, named) = key_pasted_then_named();
    fs::write(memory.projects().join("named.jsonl"), named.concat()).unwrap();
    memory.import();
    assert_eq!(
        copies_left(&memory.folder(), &[KEY.to_string()]),
        Vec::<(String, String)>::new()
    );
    let waiting = memory.run(&["forget", "--secrets", "--dry-run"]);
    assert_eq!(
        String::from_utf8_lossy(&waiting.stdout),
        "0 secrets found late wait to be replaced in the whole store; nothing was changed.\n"
    );
}

/// A key pasted in prose in one session, where no rule sees it, and named in another
/// (`STAGING_KEY=` in a tool's output): the hook that finds it starts a run of its own, which
/// leaves no copy in any file (decision 0150).
#[test]
fn a_secret_found_late_leaves_every_session_by_a_run_the_hook_starts() {
    let (memory, named) = key_pasted_then_named();
    memory.by_hooks("named", &named);

    // The run is detached from the hook: wait for it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !copies_left(&memory.folder(), &[KEY.to_string()]).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the key is still stored: {:?}",
            copies_left(&memory.folder(), &[KEY.to_string()])
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let shown = memory.run(&["show", "pasted", "--json"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("[REDACTED:secret-seen-before]"), "{shown}");
    // Nothing is left to look for: by hand, the run says so.
    let again = memory.run(&["forget", "--secrets", "--yes"]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        "Every secret found so far was already replaced everywhere.\n"
    );
}
