//! The `search` and `detail` verbs as a person or a script runs them: plain stored text unless
//! colour is asked for, match offsets in `--json`, lines around a hit; and live work beside
//! bulk work: hook calls made while `import` stores a large backlog, or while the first search
//! after it indexes the backlog, all complete and store what they read, and searches run
//! meanwhile never fail. Correctness only: how long a hook waits is measured by
//! `bench/search_live.py`.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{json, Value};

const THROUGHLINE: &str = env!("CARGO_BIN_EXE_throughline");

/// Claude Code-shaped transcripts: `sessions` of `turns` turns, each with a tool output of
/// about `output_bytes` that the structured result repeats, as the real client writes it.
fn write_corpus(dir: &Path, sessions: usize, turns: usize, output_bytes: usize) {
    let project = dir.join("-bulk-project");
    std::fs::create_dir_all(&project).unwrap();
    let words = [
        "parser", "store", "hook", "cursor", "index", "render", "budget", "layer",
    ];
    for s in 0..sessions {
        let id = format!("00000000-0000-4000-8000-{s:012}");
        let mut out = String::new();
        let mut parent: Option<String> = None;
        let line = |out: &mut String, parent: &mut Option<String>, mut entry: Value| {
            let uuid = format!("{id}-{}", out.len());
            entry["uuid"] = uuid.clone().into();
            entry["parentUuid"] = parent.clone().into();
            entry["sessionId"] = id.clone().into();
            entry["cwd"] = "/bulk/project".into();
            entry["timestamp"] = "2026-11-20T10:00:00.000Z".into();
            out.push_str(&entry.to_string());
            out.push('\n');
            *parent = Some(uuid);
        };
        for t in 0..turns {
            // Lines of eight words, as a file read or a log would have.
            let text: String = (0..output_bytes / 8)
                .map(|i| {
                    let sep = if i % 8 == 7 { "\n" } else { " " };
                    format!("{}{sep}", words[(i * 7 + t + s) % words.len()])
                })
                .collect();
            line(
                &mut out,
                &mut parent,
                json!({"type": "user", "promptId": format!("p{s}-{t}"),
                       "message": {"role": "user", "content": format!("bulk prompt {s} {t}")}}),
            );
            line(
                &mut out,
                &mut parent,
                json!({"type": "assistant", "message": {"id": format!("m{s}-{t}"),
                       "role": "assistant", "model": "claude-opus-4-8", "content": [
                       {"type": "tool_use", "id": format!("t{s}-{t}"), "name": "Read",
                        "input": {"file_path": "src/lib.rs"}}]}}),
            );
            line(
                &mut out,
                &mut parent,
                json!({"type": "user", "message": {"role": "user", "content": [
                       {"type": "tool_result", "tool_use_id": format!("t{s}-{t}"),
                        "content": text}]},
                       "toolUseResult": {"stdout": text, "stderr": ""}}),
            );
        }
        std::fs::write(project.join(format!("{id}.jsonl")), out).unwrap();
    }
}

/// A session that goes on while the bulk work runs: each call appends a prompt to its
/// transcript and runs the UserPromptSubmit hook on it.
struct LiveSession {
    /// Claude Code's folder of this session (`CLAUDE_CONFIG_DIR` of its hooks).
    client: PathBuf,
    transcript: PathBuf,
    parent: Option<String>,
    prompts: Vec<String>,
}

impl LiveSession {
    fn new(dir: &Path) -> LiveSession {
        let client = dir.join("claude");
        let folder = client.join("projects/-live-project");
        std::fs::create_dir_all(&folder).unwrap();
        LiveSession {
            client,
            transcript: folder.join("live-session.jsonl"),
            parent: None,
            prompts: Vec::new(),
        }
    }

    fn prompt(&mut self, home: &Path) {
        let n = self.prompts.len();
        let prompt = format!("livefact{n:03} keeps the cache warm");
        let uuid = format!("live-{n}");
        let entry = json!({"type": "user", "uuid": uuid, "parentUuid": self.parent,
            "sessionId": "live-session", "cwd": "/live/project", "promptId": format!("lp{n}"),
            "timestamp": "2026-11-30T10:00:00.000Z",
            "message": {"role": "user", "content": prompt}});
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.transcript)
            .unwrap();
        writeln!(file, "{entry}").unwrap();
        self.parent = Some(uuid);
        let payload = json!({"session_id": "live-session",
            "transcript_path": self.transcript, "cwd": "/live/project",
            "hook_event_name": "UserPromptSubmit", "prompt": prompt});
        let mut hook = throughline(home, &["hook", "claude"])
            .env("CLAUDE_CONFIG_DIR", &self.client)
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        hook.stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        let out = hook.wait_with_output().unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
        self.prompts.push(prompt);
    }
}

fn throughline(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(THROUGHLINE);
    command
        .args(args)
        .env("THROUGHLINE_HOME", home)
        .env_remove("THROUGHLINE_GUARD")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// A search is answered (exit 0, or 1 for no match) and says nothing on stderr.
fn assert_answered(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)) && stderr.is_empty(),
        "{what} failed ({:?}): {stderr}",
        out.status
    );
}

/// Runs live hook calls, and searches on a second thread, until `bulk` exits; returns how
/// many hooks ran while it did, after checking that the bulk work and every search
/// succeeded.
fn beside(home: &Path, mut bulk: Child, live: &mut LiveSession) -> usize {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let searches = scope.spawn(|| {
            let mut answered = 0;
            while !done.load(Ordering::Relaxed) {
                let searched = throughline(home, &["search", "--all", "livefact"])
                    .output()
                    .unwrap();
                assert_answered(&searched, "a search beside the bulk work");
                answered += 1;
            }
            answered
        });
        let mut during = 0;
        while bulk.try_wait().unwrap().is_none() {
            live.prompt(home);
            during += 1;
        }
        done.store(true, Ordering::Relaxed);
        let out = bulk.wait_with_output().unwrap();
        assert_answered(&out, "the bulk work");
        let searched = searches.join().expect("searches beside the bulk work");
        assert!(searched >= 1, "no search ran beside the bulk work");
        during
    })
}

/// Every hook stored its prompt, and none logged a failure.
fn assert_hooks_complete(home: &Path, live: &LiveSession) {
    let log = std::fs::read_to_string(home.join("throughline.log")).unwrap_or_default();
    assert!(log.is_empty(), "hooks logged failures:\n{log}");
    // Room for every prompt: beside bulk work that lets them go first, hooks run many times.
    let limit = (live.prompts.len() + 10).to_string();
    let out = throughline(
        home,
        // Scoped to the session: all of it is ranked, however many prompts match.
        &[
            "search",
            "--session",
            "live-session",
            "--json",
            "--limit",
            &limit,
            "livefact",
        ],
    )
    .output()
    .unwrap();
    assert_answered(&out, "the last search");
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<&str> = hits
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["role"] == "user")
        .map(|h| h["excerpts"][0]["text"].as_str().unwrap())
        .collect();
    found.sort();
    let mut wanted: Vec<&str> = live.prompts.iter().map(String::as_str).collect();
    wanted.sort();
    assert_eq!(
        found, wanted,
        "every live prompt is stored and found verbatim"
    );
}

#[test]
fn hooks_and_searches_complete_during_an_import_and_a_first_search() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    // About 80 MB of transcript: long enough in a test build for hooks to run beside it.
    write_corpus(&corpus, 80, 60, 8_000);
    let corpus = corpus.to_str().unwrap();

    // An import that indexes what it stored, with hooks and searches beside it.
    let home = dir.path().join("import-home");
    let mut live = LiveSession::new(&dir.path().join("a"));
    live.prompt(&home);
    let import = throughline(&home, &["import", "--json", "--from", corpus])
        .spawn()
        .unwrap();
    let during = beside(&home, import, &mut live);
    assert!(during >= 3, "only {during} hooks ran during the import");
    assert_hooks_complete(&home, &live);

    // An import that leaves indexing to the first search; that search runs beside hooks and
    // other searches.
    let home = dir.path().join("search-home");
    let mut live = LiveSession::new(&dir.path().join("b"));
    let imported = throughline(&home, &["import", "--json", "--no-index", "--from", corpus])
        .output()
        .unwrap();
    assert_answered(&imported, "the import");
    let first = throughline(&home, &["search", "--all", "parser store"])
        .spawn()
        .unwrap();
    let during = beside(&home, first, &mut live);
    assert!(
        during >= 3,
        "only {during} hooks ran during the first search"
    );
    assert_hooks_complete(&home, &live);
}

#[test]
fn output_is_the_stored_text_unless_colour_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let mut live = LiveSession::new(dir.path());
    live.prompt(&home);
    let stored = &live.prompts[0];
    let run = |args: &[&str]| {
        let out = throughline(&home, args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // Piped: no marks, no escapes, the prompt as stored.
    let plain = run(&["search", "--all", "cache warm"]);
    assert!(plain.contains(&format!("\n  {stored}\n")), "{plain}");
    assert!(!plain.contains('\u{1b}') && !plain.contains('«'), "{plain}");
    assert_eq!(
        run(&["search", "--all", "--color", "never", "cache warm"]),
        plain
    );
    let coloured = run(&["search", "--all", "--color", "always", "cache warm"]);
    assert!(
        // The words as written are one match.
        coloured.contains("\u{1b}[31mcache warm\u{1b}[0m") && coloured.contains("keeps the"),
        "{coloured:?}"
    );
    // JSON: the text as stored, and where the match is in it, in characters.
    let hits: Value =
        serde_json::from_str(&run(&["search", "--all", "--json", "\"cache warm\""])).unwrap();
    let excerpt = &hits[0]["excerpts"][0];
    assert_eq!(excerpt["text"], stored.as_str());
    let [start, end] = [0, 1].map(|i| excerpt["matches"][0][i].as_u64().unwrap() as usize);
    let matched: String = stored.chars().skip(start).take(end - start).collect();
    assert_eq!(matched, "cache warm");
}

#[test]
fn detail_reads_some_lines_of_a_long_output() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    write_corpus(&corpus, 1, 2, 20_000);
    let home = dir.path().join("home");
    let imported = throughline(
        &home,
        &["import", "--json", "--from", corpus.to_str().unwrap()],
    )
    .output()
    .unwrap();
    assert_answered(&imported, "the import");
    let hits: Value = serde_json::from_slice(
        &throughline(
            &home,
            &[
                "search",
                "--all",
                "--json",
                "--tool",
                "Read",
                "budget layer",
            ],
        )
        .output()
        .unwrap()
        .stdout,
    )
    .unwrap();
    let turn = hits[0]["turn"].as_str().unwrap();
    let run = |args: &[&str]| throughline(&home, args).output().unwrap();
    let lines = run(&["detail", turn, "--tool", "1", "--lines", "2-3"]);
    assert!(lines.status.success(), "{lines:?}");
    assert_eq!(
        String::from_utf8_lossy(&lines.stdout).lines().count(),
        3,
        "a heading and two lines: {lines:?}"
    );
    let grep = run(&["detail", turn, "--tool", "1", "--grep", "budget", "--json"]);
    let grep: Value = serde_json::from_slice(&grep.stdout).unwrap();
    assert!(grep["total_lines"].as_u64().unwrap() >= 1);
    assert!(grep["lines"][0]["text"]
        .as_str()
        .unwrap()
        .contains("budget"));
    // Lines belong to one output: without --tool or --item the verb says what to add.
    let bad = run(&["detail", turn, "--lines", "1-2"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("the tool call's or the entry's number"));
    let bad = run(&["detail", turn, "--tool", "1", "--lines", "9-2"]);
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("such as 400-420"),
        "{bad:?}"
    );
}

#[test]
fn nothing_found_says_how_to_widen_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let mut live = LiveSession::new(dir.path());
    live.prompt(&home);
    let out = throughline(
        &home,
        &[
            "search",
            "--all",
            "--since",
            "1d",
            "--layer",
            "l3",
            "zebra quokka",
        ],
    )
    .output()
    .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert_eq!(
        said.trim(),
        "no matches; try without --layer, --since; fewer or other words"
    );
}
