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
        memory.import();
        memory
    }

    fn import(&self) {
        let from = self.dir.path().join("projects");
        let out = self.run(&["import", "--json", "--from", from.to_str().unwrap()]);
        assert!(out.status.success(), "{out:?}");
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut child = Command::new(BIN)
            .args(args)
            .env("THROUGHLINE_HOME", self.dir.path().join("memory"))
            .env("HOME", self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"").unwrap();
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
    assert!(dry["preview"]["turns"].as_u64().unwrap() >= turns);
    assert!(dry["forgotten"].is_null());
    assert_eq!(
        memory.turns_of(BEFORE_CLEAR),
        Some(turns),
        "a dry run changes nothing"
    );

    // Without a terminal to ask on, nothing goes without --yes.
    let refused = memory.run(&["forget", "--session", BEFORE_CLEAR]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("--yes"), "{said}");
    assert!(String::from_utf8_lossy(&refused.stdout).contains("This forgets 1 sessions"));
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
