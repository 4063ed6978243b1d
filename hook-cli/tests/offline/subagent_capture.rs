//! Subagent transcripts from real Claude Code sessions (2.1.197, whose subagent runs while
//! its call waits, and 2.1.332, which runs it in the background): hooks and `import` store
//! each subagent's conversation as detail of the turn that started it, once, searchable,
//! and a broken subagent file never costs the session's own capture.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::store_env::StoreEnv;
use support::throughline::order_free;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// A recorded session: one prompt whose answer starts a subagent, then a second prompt.
struct Sample {
    dir: &'static str,
    session: &'static str,
    agent: &'static str,
}

const OLDEST: Sample = Sample {
    dir: "claude-2.1.197-subagent",
    session: "1adf2376-163e-4c37-913a-2dfd439c0efe",
    agent: "af54b2686f3a47270",
};

const CURRENT: Sample = Sample {
    dir: "claude-2.1.332-subagent",
    session: "3e2fcb70-f4e8-49a1-b907-6fc1408585d0",
    agent: "a8595d2407e7b4ce1",
};

/// Where a sample's session transcript sits, relative to the project folder.
fn main_rel(s: &Sample) -> String {
    format!("{}.jsonl", s.session)
}

fn agent_rel(s: &Sample) -> String {
    format!("{}/subagents/agent-{}.jsonl", s.session, s.agent)
}

fn meta_rel(s: &Sample) -> String {
    format!("{}/subagents/agent-{}.meta.json", s.session, s.agent)
}

fn fixture(s: &Sample, rel: &str) -> Vec<u8> {
    fs::read(
        Path::new(FIXTURES)
            .join(s.dir)
            .join("transcripts")
            .join(rel),
    )
    .unwrap()
}

fn payload_files(s: &Sample) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(Path::new(FIXTURES).join(s.dir).join("hooks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// The store and projects folder of [`StoreEnv`], holding one recorded session.
struct Env(StoreEnv);

impl std::ops::Deref for Env {
    type Target = StoreEnv;
    fn deref(&self) -> &StoreEnv {
        &self.0
    }
}

impl Env {
    fn new() -> Env {
        Env(StoreEnv::new())
    }

    /// An environment holding the whole recorded session, the way `import` finds it.
    fn with_files(s: &Sample) -> Env {
        let env = Env::new();
        for rel in [main_rel(s), agent_rel(s), meta_rel(s)] {
            env.append(&rel, &fixture(s, &rel));
        }
        env
    }

    fn append(&self, rel: &str, bytes: &[u8]) {
        self.append_to(rel, bytes);
    }

    fn import(&self) -> Value {
        self.json(&["import", "--from", &self.projects(), "--json"])
    }

    /// Runs a recorded payload with its paths pointed at this environment; the hook
    /// contract holds: exit 0, nothing on stdout for these events.
    fn hook(&self, file: &Path) {
        let text = fs::read_to_string(file).unwrap().replace(
            "/home/dev/.claude/projects/-home-dev-toy",
            self.project.to_str().unwrap(),
        );
        let out = self.throughline(&["hook", "claude"], text.as_bytes());
        assert!(out.status.success(), "hook failed: {out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
    }

    fn counts(&self) -> Value {
        let s = &self.json(&["status", "--json"])["store"];
        serde_json::json!([s["turns"], s["messages"], s["details"], s["api_calls"]])
    }
}

/// The turn numbered `seq` of a memory.
fn turn(memory: &[Value], seq: u64) -> &Value {
    memory.iter().find(|t| t["seq"] == seq).unwrap()
}

/// A turn's detail entries of one kind, as `(name, body)`.
fn entries<'a>(turn: &'a Value, kind: &str) -> Vec<(&'a str, &'a str)> {
    turn["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == kind)
        .map(|d| {
            (
                d["name"].as_str().unwrap_or(""),
                d["body"].as_str().unwrap(),
            )
        })
        .collect()
}

/// The memory with the order of each turn's entries left out ([`order_free`]).
fn as_sets(memory: Vec<Value>) -> Vec<Value> {
    memory
        .into_iter()
        .map(|mut t| {
            order_free(&mut t);
            t
        })
        .collect()
}

#[test]
fn import_stores_the_subagent_in_the_turn_that_started_it() {
    for s in [OLDEST, CURRENT] {
        let env = Env::with_files(&s);
        env.import();
        let memory = env.memory(s.session);
        let first = turn(&memory, 1);
        assert_eq!(
            entries(first, "subagent"),
            [
                (
                    "prompt",
                    "Run greet.sh with the name Helper and report what it prints."
                ),
                ("answer", "Running it."),
                ("answer", "greet.sh prints: Hello, Helper! (exit 0)."),
            ],
            "{}",
            s.dir
        );
        // The subagent's own tool call and its real output, paired as any other.
        let calls = entries(first, "tool_call");
        assert_eq!(
            calls.iter().map(|c| c.0).collect::<Vec<_>>(),
            ["Agent", "Bash"]
        );
        assert!(calls[1].1.contains("sh greet.sh Helper"), "{calls:?}");
        assert!(entries(first, "tool_result").contains(&("", "Hello, Helper!")));
        // The turn after holds nothing of it, though it was open when the subagent was read.
        let second = turn(&memory, 2);
        assert!(entries(second, "subagent").is_empty(), "{second:#}");
        assert!(!second.to_string().contains("Hello, Helper!"), "{second:#}");
        // The subagent's text is not the conversation: the prompts are the person's two.
        let prompts: Vec<&str> = memory
            .iter()
            .flat_map(|t| t["messages"].as_array().unwrap())
            .filter(|m| m["role"] == "user")
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            prompts,
            [
                "Have a helper check greet.sh for me.",
                "Thanks. Anything else?"
            ]
        );
        assert!(env.log().is_empty(), "{}", env.log());
    }
}

#[test]
fn importing_again_or_replaying_every_hook_stores_nothing_new() {
    for s in [OLDEST, CURRENT] {
        let env = Env::with_files(&s);
        let first = env.import();
        assert!(first["records"].as_u64().unwrap() > 0);
        let counts = env.counts();
        let again = env.import();
        assert_eq!(
            (again["bytes_read"].as_u64(), again["records"].as_u64()),
            (Some(0), Some(0)),
            "{again}"
        );
        for file in payload_files(&s) {
            env.hook(&file);
        }
        assert_eq!(env.counts(), counts, "{}", s.dir);
    }
}

/// Live capture: both transcripts grow in uneven pieces while the recorded payloads fire in
/// order. The memory must equal an import of the finished files.
#[test]
fn live_capture_equals_import_of_the_finished_files() {
    for s in [OLDEST, CURRENT] {
        let live = Env::new();
        let files = payload_files(&s);
        let grown = [main_rel(&s), agent_rel(&s)];
        let mut fed = [0usize; 2];
        live.append(&meta_rel(&s), &fixture(&s, &meta_rel(&s)));
        for (i, file) in files.iter().enumerate() {
            for (rel, fed) in grown.iter().zip(fed.iter_mut()) {
                let full = fixture(&s, rel);
                let to = (full.len() * (i + 1) / files.len() + 37 * i).min(full.len());
                if to > *fed {
                    live.append(rel, &full[*fed..to]);
                    *fed = to;
                }
            }
            live.hook(file);
        }
        let imported = Env::with_files(&s);
        imported.import();
        assert_eq!(
            as_sets(live.memory(s.session)),
            as_sets(imported.memory(s.session)),
            "{}",
            s.dir
        );
        assert!(live.log().is_empty(), "{}", live.log());
    }
}

#[test]
fn the_subagents_words_are_found_by_search_and_shown_by_detail() {
    let env = Env::with_files(&CURRENT);
    env.import();
    // "Running it." is said only inside the subagent.
    let hits = env.json(&["search", "\"Running it.\"", "--all", "--json"]);
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(
        (&hits[0]["layer"], &hits[0]["role"]),
        (&"l3".into(), &"subagent".into())
    );
    let code = hits[0]["turn"].as_str().unwrap();
    let shown = env.throughline(&["detail", code], b"");
    let text = String::from_utf8(shown.stdout).unwrap();
    for part in [
        "subagent: prompt, 1 line\nRun greet.sh with the name Helper",
        "subagent: answer, 1 line\nRunning it.",
        "Bash: sh greet.sh Helper",
        "Hello, Helper!",
    ] {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
}

/// Clients before 2.1.197 wrote subagent lines into the session's transcript too
/// (`isSidechain: true`); a line stored from there is not stored again from the subagent's file.
#[test]
fn a_subagent_line_also_in_the_sessions_transcript_is_stored_once() {
    for s in [OLDEST, CURRENT] {
        let alone = Env::with_files(&s);
        alone.import();

        let both = Env::new();
        let main = String::from_utf8(fixture(&s, &main_rel(&s))).unwrap();
        let agent = String::from_utf8(fixture(&s, &agent_rel(&s))).unwrap();
        // The subagent's lines right after the call that started it.
        let mut inlined = String::new();
        for line in main.lines() {
            inlined.push_str(line);
            inlined.push('\n');
            if line.contains(r#""name":"Agent""#) {
                inlined.push_str(&agent);
            }
        }
        both.append(&main_rel(&s), inlined.as_bytes());
        both.append(&agent_rel(&s), agent.as_bytes());
        both.append(&meta_rel(&s), &fixture(&s, &meta_rel(&s)));
        both.import();
        assert_eq!(both.counts(), alone.counts(), "{}", s.dir);
        assert_eq!(
            as_sets(both.memory(s.session)),
            as_sets(alone.memory(s.session)),
            "{}",
            s.dir
        );
    }
}

/// 2.1.332 runs a subagent in the background: the session may be at its next prompt when
/// the subagent's first hook comes. The meta file still puts it in the turn of its call.
#[test]
fn a_subagent_read_after_the_session_moved_on_joins_the_turn_of_its_call() {
    for s in [OLDEST, CURRENT] {
        let env = Env::with_files(&s);
        let stop = payload_files(&s)
            .into_iter()
            .find(|p| p.to_string_lossy().ends_with("-SubagentStop.json"))
            .unwrap();
        env.hook(&stop);
        let memory = env.memory(s.session);
        assert_eq!(entries(turn(&memory, 1), "subagent").len(), 3, "{}", s.dir);
        assert!(
            entries(turn(&memory, 2), "subagent").is_empty(),
            "{}",
            s.dir
        );
    }
}

#[test]
fn without_its_meta_file_a_subagent_joins_the_turn_open_in_the_session() {
    let s = OLDEST;
    let env = Env::new();
    // The session up to the subagent's stop: the first turn is still open.
    let main = fixture(&s, &main_rel(&s));
    let text = String::from_utf8(main).unwrap();
    let upto = text.find("Thanks. Anything else?").unwrap();
    let cut = text[..upto].rfind('\n').unwrap() + 1;
    env.append(&main_rel(&s), &text.as_bytes()[..cut]);
    env.append(&agent_rel(&s), &fixture(&s, &agent_rel(&s)));
    env.hook(&payload_files(&s)[6]);
    let memory = env.memory(s.session);
    assert_eq!(
        entries(turn(&memory, 1), "subagent").len(),
        3,
        "{memory:#?}"
    );
}

#[test]
fn a_broken_subagent_file_costs_its_bad_lines_only() {
    let s = OLDEST;
    let env = Env::with_files(&s);
    // A torn line in the middle of the subagent's file, and a subagent folder entry that is
    // not a file at all.
    let agent = String::from_utf8(fixture(&s, &agent_rel(&s))).unwrap();
    let lines: Vec<&str> = agent.lines().collect();
    let torn = format!(
        "{}\n{{\"type\":\"user\",\"mess\n{}\n",
        lines[..3].join("\n"),
        lines[3..].join("\n")
    );
    fs::write(env.path(&agent_rel(&s)), torn).unwrap();
    fs::create_dir_all(env.path(&format!("{}/subagents/agent-dir.jsonl", s.session))).unwrap();
    let done = env.import();
    let problems = done["problems"].to_string();
    assert!(problems.contains("skipped line"), "{done}");
    assert!(problems.contains("agent-dir.jsonl"), "{done}");
    let memory = env.memory(s.session);
    assert_eq!(memory.iter().filter(|t| t["seq"] != 0).count(), 2);
    assert_eq!(
        entries(turn(&memory, 1), "subagent").len(),
        3,
        "{memory:#?}"
    );
}

#[test]
fn a_hook_naming_a_subagent_by_a_path_like_id_reads_nothing_more() {
    let s = OLDEST;
    let env = Env::with_files(&s);
    // Where the id would lead if it were taken as a path.
    fs::create_dir_all(env.path(&format!("{}/subagents/agent-x", s.session))).unwrap();
    env.append("elsewhere.jsonl", &fixture(&s, &agent_rel(&s)));
    let stop = fs::read_to_string(&payload_files(&s)[6]).unwrap();
    let mut payload: Value = serde_json::from_str(&stop).unwrap();
    payload["agent_id"] = "x/../../../elsewhere".into();
    payload
        .as_object_mut()
        .unwrap()
        .remove("agent_transcript_path");
    let bad = env.path("bad-payload.json");
    fs::write(&bad, payload.to_string()).unwrap();
    env.hook(&bad);
    let memory = env.memory(s.session);
    // The session's own transcript is read, and nothing else.
    assert_eq!(memory.iter().filter(|t| t["seq"] != 0).count(), 2);
    for t in &memory {
        assert!(entries(t, "subagent").is_empty(), "{t:#}");
    }
    assert!(env.log().is_empty(), "{}", env.log());
}

#[test]
fn while_capture_is_paused_a_subagent_is_passed_over_too() {
    let s = OLDEST;
    let env = Env::with_files(&s);
    fs::create_dir_all(&env.home).unwrap();
    fs::write(env.home.join("config.json"), r#"{"pause_capture": true}"#).unwrap();
    for file in payload_files(&s) {
        env.hook(&file);
    }
    fs::write(env.home.join("config.json"), r#"{"pause_capture": false}"#).unwrap();
    let done = env.import();
    assert_eq!(done["records"], 0, "{done}");
}
