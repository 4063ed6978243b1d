//! One-liners by a model (docs/decisions/0055): the real `throughline` against our scripted
//! Messages API and OpenAI-compatible servers, and fake `claude` and `codex` executables.
//! Batching, the daily cap, fallback on errors, bad answers and timeouts, the detached start
//! from a hook, the recursion guard, and what `stats`, `doctor` and the injection log show.

use crate::support;

use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::summary_server::{self, Behaviour, SummaryServer};
use support::throughline::bin;

const CWD: &str = "/home/dev/toy";

/// A store and a projects folder, and the environment every `throughline` call gets.
struct Env {
    dir: tempfile::TempDir,
    home: PathBuf,
    projects: PathBuf,
    vars: Vec<(String, String)>,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        // Claude Code's folder (`CLAUDE_CONFIG_DIR` of every command): a hook reads only there.
        let projects = dir.path().join("claude/projects");
        fs::create_dir_all(projects.join("-home-dev-toy")).unwrap();
        fs::create_dir_all(&home).unwrap();
        Env {
            home,
            projects,
            vars: Vec::new(),
            dir,
        }
    }

    fn var(mut self, key: &str, value: impl Into<String>) -> Env {
        self.vars.push((key.into(), value.into()));
        self
    }

    fn config(&self, settings: Value) {
        fs::write(self.home.join("config.json"), settings.to_string()).unwrap();
    }

    fn transcript(&self, session: &str) -> PathBuf {
        self.projects
            .join("-home-dev-toy")
            .join(format!("{session}.jsonl"))
    }

    /// Appends turns `from..to` (1-based) of a Claude Code session to its transcript.
    fn add_turns(&self, session: &str, from: usize, to: usize) {
        let mut text = String::new();
        for i in from..to {
            let parent = if i == 1 {
                Value::Null
            } else {
                json!(format!("{session}-a{}", i - 1))
            };
            let at = format!("2026-12-01T09:{:02}:{:02}.000Z", i / 60, i % 60);
            text += &json!({"type": "user", "uuid": format!("{session}-u{i}"), "parentUuid": parent,
                "sessionId": session, "timestamp": at, "cwd": CWD,
                "message": {"role": "user", "content": format!("Step {i}: check ledger part {i} and report what you find.")}})
            .to_string();
            text.push('\n');
            text += &json!({"type": "assistant", "uuid": format!("{session}-a{i}"),
                "parentUuid": format!("{session}-u{i}"), "sessionId": session, "timestamp": at,
                "cwd": CWD, "message": {"id": format!("msg_{session}_{i}"), "role": "assistant",
                "model": "claude-sonnet-4-5", "type": "message",
                "content": [{"type": "text", "text": format!("Ledger part {i} holds {} rows; the totals match.", i * 7)}],
                "usage": {"input_tokens": 10, "output_tokens": 5}}})
            .to_string();
            text.push('\n');
        }
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.transcript(session))
            .unwrap();
        file.write_all(text.as_bytes()).unwrap();
    }

    /// A session of `turns` turns, imported.
    fn session(&self, session: &str, turns: usize) {
        self.add_turns(session, 1, turns + 1);
        let from = self.projects.to_string_lossy().into_owned();
        self.ok(&["import", "--from", &from, "--no-index"]);
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bin());
        c.args(args)
            .env("THROUGHLINE_HOME", &self.home)
            .env("CLAUDE_CONFIG_DIR", self.projects.parent().unwrap())
            .env_remove("THROUGHLINE_GUARD")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .envs(self.vars.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null());
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }

    /// `throughline summarize --json`, whatever its exit status.
    fn summarize(&self) -> (bool, Value) {
        let out = self.run(&["summarize", "--json"]);
        let run = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "summarize printed no JSON ({e}): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.success(), run)
    }

    fn spend(&self) -> Value {
        self.json(&["stats", "--all", "--json"])["summaries"]["spend"].clone()
    }

    /// The turn codes of a session, oldest first.
    fn codes(&self, session: &str) -> Vec<String> {
        self.json(&["show", session, "--json"])["turns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["seq"].as_u64() > Some(0))
            .map(|t| t["code"].as_str().unwrap().to_string())
            .collect()
    }

    /// Runs `throughline hook claude` with a payload, as the host does.
    fn hook(&self, payload: Value) -> Output {
        let mut child = self
            .command(&["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    fn payload(&self, session: &str, event: &str) -> Value {
        json!({"session_id": session, "transcript_path": self.transcript(session),
               "cwd": CWD, "hook_event_name": event})
    }

    /// The doctor's finding on one-liners (the doctor fails here: nothing is registered).
    fn doctor_check(&self) -> Value {
        let out = self.run(&["doctor", "--json"]);
        let doctor: Value = serde_json::from_slice(&out.stdout).unwrap();
        doctor["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "one-liners")
            .unwrap()
            .clone()
    }

    fn log(&self) -> String {
        fs::read_to_string(self.home.join("throughline.log")).unwrap_or_default()
    }
}

fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The memory a new session of the project gets after a handoff of `from`.
/// The strings of a logged injection's list (`one_liners`, `one_liners_by`).
fn strings(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

fn handed_over(env: &Env, from: &str) -> Value {
    env.ok(&["handoff", "--session", from]);
    // The host runs the hook before it writes the prompt to the transcript.
    let mut payload = env.payload("next-session", "UserPromptSubmit");
    payload["prompt"] = json!("Go on with the ledger.");
    let out = env.hook(payload);
    assert!(out.status.success());
    env.json(&["injections", "--all", "--json"])[0].clone()
}

#[test]
fn openai_compatible_batches_turns_that_left_the_window_within_the_daily_cap() {
    let server = SummaryServer::start(Behaviour::Lines);
    let env = Env::new();
    env.session("sess-long", 40);
    env.config(
        json!({"summary_backend": "openai", "summary_url": format!("{}/v1", server.url()),
        "summary_model": "qwen3:4b", "summary_api_key": "sk-local", "summary_batch_turns": 10,
        "summary_daily_calls": 3}),
    );
    let codes = env.codes("sess-long");
    assert_eq!(codes.len(), 40);

    let (ok, run) = env.summarize();
    assert!(ok, "{run}");
    assert_eq!(run["stop"], "cap", "{run}");
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // Ten turns a request, oldest first; the six of the verbatim window are never asked for.
    let asked: Vec<String> = requests.iter().flat_map(|r| r.turn_ids()).collect();
    assert_eq!(asked, codes[..30]);
    let first = &requests[0];
    assert_eq!(first.path, "/v1/chat/completions");
    assert_eq!(first.body["model"], "qwen3:4b");
    assert_eq!(first.header("authorization"), Some("Bearer sk-local"));
    let system = first.body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("exactly as written") && system.contains("at most 160 characters"));
    assert!(first.prompt().contains("Ledger part 1 holds 7 rows"));

    let spend = env.spend();
    assert_eq!(
        (spend["calls"].as_u64(), spend["lines"].as_u64()),
        (Some(3), Some(30))
    );
    assert!(spend["input_tokens"].as_u64().unwrap() > 300, "{spend}");
    let stats = env.ok(&["stats", "--all"]);
    assert!(
        stats.contains(
            "one-liners by a model: 3 requests (0 failed, 3 today of 3), 30 of 30 turns got a line"
        ),
        "{stats}"
    );

    // The cap holds for the rest of the day.
    let (_, run) = env.summarize();
    assert_eq!(run["stop"], "cap");
    assert_eq!(server.requests().len(), 3);
    let check = env.doctor_check();
    assert_eq!(check["status"], "note", "{check}");

    // The memory uses the model's lines and the log says who wrote each.
    let injection = handed_over(&env, "sess-long");
    let text = injection["text"].as_str().unwrap();
    let by = strings(&injection["one_liners_by"]);
    let lines = strings(&injection["one_liners"]);
    assert_eq!(by.len(), lines.len());
    assert!(by.contains(&"openai:qwen3:4b"), "{by:?}");
    for (code, by) in lines.iter().zip(&by) {
        let model_line = format!("- {code}: {}\n", summary_server::line(code));
        assert_eq!(text.contains(&model_line), *by != "local", "{code} {by}");
    }
    // `recall --oneline` (and the MCP tool) lists the model's lines too.
    let recalled = env.ok(&[
        "recall",
        "--session",
        "sess-long",
        "--before",
        &codes[31],
        "--oneline",
        "--last",
        "3",
    ]);
    assert!(
        recalled.contains(&format!(
            "[{}] {}",
            codes[29],
            summary_server::line(&codes[29])
        )),
        "{recalled}"
    );
    assert!(
        recalled.contains(&format!("[{}] Step 31: check ledger part 31", codes[30])),
        "{recalled}"
    );
    let listed = env.ok(&["injections", "--all"]);
    assert!(listed.contains("openai:qwen3:4b"), "{listed}");
}

#[test]
fn the_messages_api_falls_back_on_errors_and_timeouts_and_asks_for_nothing_twice() {
    let server = SummaryServer::start(Behaviour::Status(529));
    let env = Env::new().var("ANTHROPIC_API_KEY", "sk-ant-test");
    env.session("sess-api", 30);
    env.config(
        json!({"summary_backend": "anthropic", "summary_url": server.url(),
        "summary_batch_turns": 8, "summary_timeout_secs": 1}),
    );
    let codes = env.codes("sess-api");

    // One failed request ends the run; its turns keep their local line.
    let (ok, run) = env.summarize();
    assert!(!ok);
    assert_eq!(run["stop"], "failed");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some("sk-ant-test"));
    assert_eq!(requests[0].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(requests[0].body["model"], "claude-haiku-4-5");
    assert!(requests[0].body["system"]
        .as_str()
        .unwrap()
        .contains("one line per turn"));
    assert_eq!(requests[0].turn_ids(), codes[..8]);
    let error = run["calls"][0]["error"].as_str().unwrap();
    assert!(
        error.contains("HTTP 529") && error.contains("scripted failure"),
        "{error}"
    );
    let check = env.doctor_check();
    assert_eq!(check["status"], "problem", "{check}");
    assert!(check["message"].as_str().unwrap().contains("HTTP 529"));
    assert!(check["fix"]
        .as_str()
        .unwrap()
        .contains("throughline summarize"));

    // A server that does not answer in time: the request is abandoned after the timeout.
    server.set(Behaviour::Hang(Duration::from_secs(8)));
    let started = Instant::now();
    let (ok, run) = env.summarize();
    assert!(!ok);
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    let error = run["calls"][0]["error"].as_str().unwrap();
    assert!(error.contains("no answer within"), "{error}");

    // An answer that is not the API's.
    server.set(Behaviour::Garbage);
    let (_, run) = env.summarize();
    assert!(run["calls"][0]["error"]
        .as_str()
        .unwrap()
        .contains("not JSON"));

    // Each of the 24 due turns was in one failed request: none is asked for again.
    server.set(Behaviour::Lines);
    let (ok, run) = env.summarize();
    assert!(ok, "{run}");
    assert_eq!(
        (run["stop"].as_str(), run["calls"].as_array().map(Vec::len)),
        (Some("done"), Some(0))
    );
    let asked: Vec<String> = server
        .requests()
        .iter()
        .flat_map(|r| r.turn_ids())
        .collect();
    assert_eq!(asked, codes[..24], "each turn asked for once");
    let spend = env.spend();
    assert_eq!(
        (spend["calls"].as_u64(), spend["failed_calls"].as_u64()),
        (Some(3), Some(3)),
        "{spend}"
    );
    // A key given in the environment is never shown.
    let config = env.ok(&["config"]);
    assert!(!config.contains("sk-ant-test"), "{config}");
}

#[test]
fn a_bad_line_falls_back_for_its_turn_alone() {
    let server = SummaryServer::start(Behaviour::HalfBroken);
    let env = Env::new();
    env.session("sess-half", 16);
    // A memory of one small part: the older turns are one-liners, not verbatim in spare room.
    env.config(
        json!({"summary_backend": "openai", "summary_url": server.url(),
        "summary_model": "llama3.2", "summary_batch_turns": 10, "memory_total": 4000,
        "budget": 4000}),
    );
    let (ok, run) = env.summarize();
    assert!(ok, "{run}");
    // 10 turns (of the 16, six stay verbatim): every other line ran over two lines.
    assert_eq!(run["calls"][0]["turns"], 10);
    assert_eq!(run["calls"][0]["lines"], 5);
    assert_eq!(run["calls"][0]["error"], Value::Null);
    let injection = handed_over(&env, "sess-half");
    let text = injection["text"].as_str().unwrap();
    let codes = env.codes("sess-half");
    let lines = strings(&injection["one_liners"]);
    assert!(
        codes[..10].iter().all(|c| lines.contains(&c.as_str())),
        "{text}"
    );
    for (i, code) in codes[..10].iter().enumerate() {
        let model_line = format!("- {code}: {}", summary_server::line(code));
        assert_eq!(text.contains(&model_line), i % 2 == 0, "{code}");
    }
    assert!(!text.contains("runs on") && !text.contains("nobody asked"));
}

#[test]
fn a_stop_hook_starts_the_summarizer_detached_once_a_batch_is_due() {
    let server = SummaryServer::start(Behaviour::Hang(Duration::from_secs(4)));
    let env = Env::new();
    env.config(
        json!({"summary_backend": "openai", "summary_url": server.url(),
        "summary_model": "llama3.2", "summary_batch_turns": 4}),
    );
    let session = "sess-live";
    // Nine turns: three have left the six-turn window, a batch is four.
    env.add_turns(session, 1, 10);
    let out = env.hook(env.payload(session, "Stop"));
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(
        !env.home.join("summarize.lock").exists(),
        "started with no batch due"
    );

    env.add_turns(session, 10, 11);
    // Only the end of a turn starts it.
    env.hook(env.payload(session, "UserPromptSubmit"));
    assert!(!env.home.join("summarize.lock").exists());
    let started = Instant::now();
    let out = env.hook(env.payload(session, "Stop"));
    let hook_took = started.elapsed();
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    wait_until("the summarizer's request", Duration::from_secs(10), || {
        !server.requests().is_empty()
    });
    // The hook returned while the request was still unanswered, and the run holds the lock.
    assert!(hook_took < Duration::from_secs(3), "{hook_took:?}");
    let (_, busy) = env.summarize();
    assert_eq!(busy["stop"], "busy");
    let codes = env.codes(session);
    assert_eq!(server.requests()[0].turn_ids(), codes[..4]);
    wait_until("the line stored", Duration::from_secs(15), || {
        env.spend()["lines"].as_u64() == Some(4)
    });
    assert_eq!(server.requests().len(), 1, "one batch was due");

    // Three more turns leave the window, short of a batch: the Stop leaves them, the end of
    // the session sends them.
    server.set(Behaviour::Lines);
    wait_until("the first run to end", Duration::from_secs(15), || {
        env.summarize().1["stop"] == "done"
    });
    env.add_turns(session, 11, 14);
    env.hook(env.payload(session, "Stop"));
    env.hook(env.payload(session, "SessionEnd"));
    wait_until("the last lines stored", Duration::from_secs(15), || {
        env.spend()["lines"].as_u64() == Some(7)
    });
    let codes = env.codes(session);
    assert_eq!(server.requests()[1].turn_ids(), codes[4..7]);
    assert_eq!(server.requests().len(), 2);
    assert!(env.log().is_empty(), "{}", env.log());
}

/// A fake `claude` (or `codex`) on PATH: records how it was run, answers like the real one, and
/// fires a hook of its own session as the real client does.
fn fake_agent(dir: &Path, name: &str, answer: &str) -> PathBuf {
    let bin_dir = dir.join("bin");
    fs::create_dir_all(&bin_dir).unwrap();
    let record = dir.join(format!("{name}-calls"));
    fs::create_dir_all(&record).unwrap();
    let script = format!(
        r#"#!/bin/sh
n=$(ls {record} | wc -l)
call={record}/$n
mkdir -p "$call"
printf '%s\n' "$@" > "$call/args"
pwd > "$call/cwd"
printf '%s' "${{THROUGHLINE_GUARD:-}}" > "$call/guard"
cat > "$call/stdin"
printf '{{"session_id":"summarizer-own","transcript_path":"%s/own.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}}' "$PWD" "$PWD" | {bin} hook claude
case "$FAKE_AGENT" in
  hang) sleep 30 ;;
  fail) echo "usage limit reached" >&2; exit 1 ;;
esac
lines=$(grep -o '<turn id="[^"]*">' "$call/stdin" | sed 's/<turn id="\(.*\)">/\1: Fake line for \1 with v3.14.2 kept./' | awk 'BEGIN{{ORS="\\n"}} {{print}}')
{answer}
"#,
        record = record.display(),
        bin = bin(),
    );
    let path = bin_dir.join(name);
    fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    record
}

fn path_with(dir: &Path) -> String {
    format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn claude_p_runs_isolated_guarded_and_bounded_in_time() {
    let env = Env::new();
    let record = fake_agent(
        env.dir.path(),
        "claude",
        r#"printf '{"type":"result","subtype":"success","is_error":false,"result":"%s","usage":{"input_tokens":40,"cache_creation_input_tokens":1000,"cache_read_input_tokens":200,"output_tokens":90}}\n' "$lines""#,
    );
    let path = path_with(env.dir.path());
    let env = env.var("PATH", path);
    env.session("sess-sub", 12);
    env.config(json!({"summary_backend": "claude", "summary_timeout_secs": 2}));
    let (ok, run) = env.summarize();
    assert!(ok, "{run}");
    assert_eq!(run["calls"][0]["lines"], 6);
    assert_eq!(run["calls"][0]["input_tokens"], 1240);
    assert_eq!(run["calls"][0]["model"], "haiku");

    let call = record.join("0");
    let args = fs::read_to_string(call.join("args")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    for flag in [
        "-p",
        "--no-session-persistence",
        "--strict-mcp-config",
        "--output-format",
    ] {
        assert!(args.contains(&flag), "{flag} in {args:?}");
    }
    let after = |flag: &str| args[args.iter().position(|a| *a == flag).unwrap() + 1];
    assert_eq!(after("--model"), "haiku");
    assert_eq!(after("--output-format"), "json");
    assert_eq!(after("--tools"), "", "no tools");
    assert!(
        args.iter().any(|a| a.contains("exactly as written")),
        "our system prompt"
    );
    // Its own folder, and its hooks told to leave it alone.
    let cwd = fs::read_to_string(call.join("cwd")).unwrap();
    assert_eq!(
        Path::new(cwd.trim()).canonicalize().unwrap(),
        env.home.join("summarize").canonicalize().unwrap()
    );
    assert_eq!(fs::read_to_string(call.join("guard")).unwrap(), "1");
    let sessions = env.json(&["sessions", "--all", "--json"]);
    let text = sessions.to_string();
    assert!(
        text.contains("sess-sub") && !text.contains("summarizer-own"),
        "{text}"
    );

    // Over its time, it is stopped and its turns keep their local line.
    let env = env.var("FAKE_AGENT", "hang");
    env.add_turns("sess-sub", 13, 20);
    let from = env.projects.to_string_lossy().into_owned();
    env.ok(&["import", "--from", &from, "--no-index"]);
    let started = Instant::now();
    let (ok, run) = env.summarize();
    assert!(!ok);
    assert!(started.elapsed() < Duration::from_secs(10));
    let error = run["calls"][0]["error"].as_str().unwrap();
    assert!(error.contains("did not answer within 2 s"), "{error}");

    let env = env.var("FAKE_AGENT", "fail");
    env.add_turns("sess-sub", 20, 30);
    env.ok(&["import", "--from", &from, "--no-index"]);
    let (_, run) = env.summarize();
    let error = run["calls"][0]["error"].as_str().unwrap();
    assert!(error.contains("usage limit reached"), "{error}");
    let text = env.json(&["sessions", "--all", "--json"]).to_string();
    assert!(!text.contains("summarizer-own"));
}

#[test]
fn codex_exec_answers_through_its_json_events() {
    let env = Env::new();
    let record = fake_agent(
        env.dir.path(),
        "codex",
        r#"printf '{"type":"thread.started","thread_id":"t1"}\n{"type":"turn.started"}\n{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"%s"}}\n{"type":"turn.completed","usage":{"input_tokens":900,"cached_input_tokens":100,"output_tokens":60}}\n' "$lines""#,
    );
    let path = path_with(env.dir.path());
    let env = env.var("PATH", path);
    env.session("sess-codex", 10);
    env.config(json!({"summary_backend": "codex", "summary_model": "gpt-5-codex-mini"}));
    let (ok, run) = env.summarize();
    assert!(ok, "{run}");
    assert_eq!(run["calls"][0]["lines"], 4);
    assert_eq!(run["calls"][0]["input_tokens"], 900);
    let args = fs::read_to_string(record.join("0/args")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    for flag in [
        "exec",
        "--json",
        "--ephemeral",
        "--skip-git-repo-check",
        "read-only",
        "gpt-5-codex-mini",
        "-",
    ] {
        assert!(args.contains(&flag), "{flag} in {args:?}");
    }
    assert_eq!(fs::read_to_string(record.join("0/guard")).unwrap(), "1");
    let stdin = fs::read_to_string(record.join("0/stdin")).unwrap();
    assert!(stdin.starts_with("You write the memory of a coding session"));
}

#[test]
fn no_backend_makes_no_request_and_the_hook_starts_nothing() {
    let env = Env::new();
    env.session("sess-off", 30);
    let (ok, run) = env.summarize();
    assert!(ok);
    assert_eq!(run["stop"], "off");
    env.add_turns("sess-off", 31, 32);
    env.hook(env.payload("sess-off", "Stop"));
    assert!(!env.home.join("summarize.lock").exists());
    let stats = env.ok(&["stats", "--all"]);
    assert!(stats.contains("one-liners: local; no summary requests made (summary_backend off)"));
    // A backend without what it needs says what to set.
    env.config(json!({"summary_backend": "openai"}));
    let out = env.run(&["summarize"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("set summary_model"));
    env.config(json!({"summary_backend": "sometimes"}));
    let config = env.ok(&["config"]);
    assert!(
        config.contains("problem:") && config.contains("sometimes"),
        "{config}"
    );

    // `config --set` writes one setting, checked first; the key is never printed.
    fs::remove_file(env.home.join("config.json")).unwrap();
    let out = env.run(&["config", "--set", "summary_backend=sometimes"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
    let out = env.run(&["config", "--set", "summary_batch=3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no setting \"summary_batch\""));
    let config = env.ok(&[
        "config",
        "--set",
        "summary_backend=anthropic",
        "--set",
        "summary_daily_calls=5",
        "--set",
        "summary_api_key=sk-ant-secret",
    ]);
    // A setting's line, in words: the key, its value, where it comes from.
    let setting = |key: &str| -> Vec<&str> {
        let line = config.lines().find(|l| l.starts_with(&format!("{key} ")));
        line.map_or_else(Vec::new, |l| l.split_whitespace().collect())
    };
    assert_eq!(
        setting("summary_backend")[..4],
        ["summary_backend", "\"anthropic\"", "from", "file"],
        "{config}"
    );
    assert_eq!(setting("summary_daily_calls")[1], "5", "{config}");
    assert_eq!(setting("summary_api_key")[1], "\"(set)\"", "{config}");
    assert!(!config.contains("sk-ant-secret"));
    let json = env.ok(&["config", "--json"]);
    assert!(!json.contains("sk-ant-secret"), "{json}");
}

#[test]
fn a_cli_without_its_summarizer_next_to_it_says_so_and_the_hook_still_succeeds() {
    let env = Env::new();
    let alone = env.dir.path().join("alone");
    fs::create_dir_all(&alone).unwrap();
    fs::copy(bin(), alone.join("throughline")).unwrap();
    env.config(json!({"summary_backend": "claude", "summary_batch_turns": 2}));
    env.add_turns("sess-alone", 1, 10);
    let mut hook = Command::new(alone.join("throughline"));
    hook.args(["hook", "claude"])
        .env("THROUGHLINE_HOME", &env.home)
        .env("CLAUDE_CONFIG_DIR", env.projects.parent().unwrap())
        .env_remove("THROUGHLINE_GUARD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A test beside this one may fork while the copy was still open for writing: its child
    // holds that descriptor until it execs, and the copy cannot run meanwhile.
    let mut spawned = hook.spawn();
    for _ in 0..50 {
        match &spawned {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                spawned = hook.spawn();
            }
            _ => break,
        }
    }
    let out = spawned
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(env.payload("sess-alone", "Stop").to_string().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(
        env.log().contains("throughline-summarize is missing"),
        "{}",
        env.log()
    );
    let out = Command::new(alone.join("throughline"))
        .arg("summarize")
        .env("THROUGHLINE_HOME", &env.home)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("scripts/build-cli builds both"));
}
