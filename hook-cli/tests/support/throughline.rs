//! A Claude Code installation whose hooks run the real `throughline hook claude` on a temp
//! store, and what tests and benchmarks check in the requests the model receives.

use super::claude::{sh_quote, ClaudeEnv};
use super::model_server::{ModelServer, RecordedRequest, Script};
use super::tmux::{Tmux, UI_TIMEOUT};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test: `THROUGHLINE_BIN` (the CLI as installed, see `scripts/test`), else
/// the one cargo built for the tests.
pub fn bin() -> String {
    std::env::var("THROUGHLINE_BIN")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_throughline").to_string())
}

/// `command` run as in `home`, a person's home made for one test: the store in `home/memory`,
/// and none of the settings of the clients on the machine running the tests reaching it.
pub fn isolate<'a>(command: &'a mut Command, home: &Path) -> &'a mut Command {
    command
        .env("HOME", home)
        .env("THROUGHLINE_HOME", home.join("memory"))
        .current_dir(home);
    for setting in [
        "THROUGHLINE_GUARD",
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_SESSION_ID",
        "CODEX_HOME",
        "GEMINI_CLI_HOME",
        "GROK_HOME",
        "SAMPLE_AGENT_HOME",
    ] {
        command.env_remove(setting);
    }
    command
}

/// What `command` printed, given `stdin` on its standard input.
pub fn output_of(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command may exit before reading its input (an unknown host): a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// `throughline <args>` in `home` (see [`isolate`]).
pub fn in_home(home: &Path, args: &[&str], stdin: &[u8]) -> Output {
    output_of(isolate(Command::new(bin()).args(args), home), stdin)
}

/// `throughline <args>` in `home` with nothing on its input, once it succeeded: what it
/// printed.
pub fn ok_in_home(home: &Path, args: &[&str]) -> String {
    let out = in_home(home, args, b"");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "throughline {args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Every file under `dir` with its bytes, the backups `install` makes left out: what an
/// uninstall must give back byte for byte.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if !path.to_string_lossy().ends_with(".throughline-backup") {
                files.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// A command's standard output as JSON, once it succeeded.
pub fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What marks our memory in a request; it opens every injection.
pub const MEMORY_HEADING: &str = "# Throughline memory";

/// A Claude Code installation whose hooks run `throughline hook claude` on a temp store, with
/// the `/tl` command file in place (the host rejects unknown slash commands).
pub struct World {
    pub server: ModelServer,
    pub env: ClaudeEnv,
    _store: tempfile::TempDir,
}

impl World {
    pub fn new(script: Script) -> World {
        Self::build(script, &[], Vec::new())
    }

    pub fn build(script: Script, vars: &[(&str, &str)], files: Vec<(String, String)>) -> World {
        let server = ModelServer::start(script);
        let store = tempfile::tempdir().expect("tempdir");
        let mut builder = ClaudeEnv::builder(&server)
            .hook_command(format!("{} hook claude", sh_quote(&bin())))
            .env("THROUGHLINE_HOME", store.path().to_string_lossy());
        for (k, v) in vars {
            builder = builder.env(*k, *v);
        }
        for (rel, text) in files {
            builder = builder.file(rel, text);
        }
        let env = builder.build();
        let commands = env.home.join(".claude/commands");
        std::fs::create_dir_all(&commands).expect("create commands dir");
        std::fs::write(
            commands.join("tl.md"),
            "Hand this session over with Throughline.\n",
        )
        .expect("write tl.md");
        World {
            server,
            env,
            _store: store,
        }
    }

    /// `throughline ARGS` on the same store as the hooks.
    pub fn throughline(&self, args: &[&str]) -> String {
        run(&self.env, args)
    }

    pub fn throughline_json(&self, args: &[&str]) -> Value {
        run_json(&self.env, args)
    }

    /// Types `prompt` in `ui` and waits until the model has answered it and the `Stop` hook has
    /// finished. Counts are global, so windows must take turns (they do here).
    pub fn ask(&self, ui: &mut Tmux, prompt: &str) {
        let end_turns = self.server.end_turns();
        let stops = self.env.payloads_of("Stop").len();
        ui.type_prompt(prompt);
        if let Err(e) = self.server.wait_for_end_turns(end_turns + 1, UI_TIMEOUT) {
            panic!("{prompt:?} was not answered: {e}\n{}", ui.context());
        }
        if let Err(e) = self.env.wait_for_event_count("Stop", stops + 1, UI_TIMEOUT) {
            panic!("no Stop after {prompt:?}: {e}\n{}", ui.context());
        }
    }

    /// Every injection logged, oldest first.
    pub fn injections(&self) -> Vec<Value> {
        let mut log = self.throughline_json(&["injections", "--all", "--limit", "1000", "--json"]);
        let list = log.as_array_mut().expect("injections array");
        list.reverse();
        list.clone()
    }

    /// Main requests from index `from` on whose prompt contains `prompt`.
    pub fn first_request_for(&self, from: usize, prompt: &str) -> RecordedRequest {
        self.server
            .main_requests()
            .into_iter()
            .skip(from)
            .find(|r| r.prompt_texts().iter().any(|t| t.contains(prompt)))
            .unwrap_or_else(|| {
                panic!(
                    "no main request for {prompt:?}\n{}",
                    self.env.debug_context()
                )
            })
    }
}

/// `throughline ARGS` in `env` (the hooks' THROUGHLINE_HOME); panics unless it succeeds.
pub fn run(env: &ClaudeEnv, args: &[&str]) -> String {
    let out = env
        .command(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run throughline");
    assert!(
        out.status.success(),
        "throughline {args:?} failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("throughline prints UTF-8")
}

/// [`run`] of a verb with `--json`, parsed.
pub fn run_json(env: &ClaudeEnv, args: &[&str]) -> Value {
    let text = run(env, args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("throughline {args:?}: not JSON ({e}):\n{text}"))
}

/// The conversation messages of a request as one text (system prompt and tools left out).
pub fn messages_text(r: &RecordedRequest) -> String {
    serde_json::to_string(r.messages()).expect("messages serialise")
}

/// How often `needle` occurs in the text blocks of the request's messages.
pub fn occurrences(r: &RecordedRequest, needle: &str) -> usize {
    r.messages()
        .iter()
        .flat_map(|m| match m.get("content") {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_string))
                .collect(),
            _ => Vec::new(),
        })
        .map(|t| t.matches(needle).count())
        .sum()
}

/// Length as the host counts it: UTF-16 code units.
pub fn units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// A turn's `detail --json` with its entries, steps and the parts of its summary line sorted,
/// and without the numbers that place them: live capture stores a subagent's lines as they
/// come, a read of the finished files after the session's own, so only the order differs.
pub fn order_free(turn: &mut serde_json::Value) {
    let summary = turn["detail_summary"].as_str().unwrap_or_default();
    let mut parts: Vec<&str> = summary.split(", ").collect();
    parts.sort();
    turn["detail_summary"] = parts.join(", ").into();
    for (list, numbers) in [
        ("details", &["index"][..]),
        ("steps", &["item", "result", "tool"][..]),
    ] {
        let Some(entries) = turn[list].as_array_mut() else {
            continue;
        };
        for entry in entries.iter_mut() {
            let entry = entry.as_object_mut().unwrap();
            for number in numbers {
                entry.remove(*number);
            }
        }
        entries.sort_by_key(|e| e.to_string());
    }
}

/// `doctor`, run by `throughline` (a command set up for the test's home) with the real
/// `client`'s folder first on `PATH`, names the release `client --version` prints as `name`'s,
/// within the tested ones.
pub fn assert_doctor_names_the_client(throughline: Command, host: &str, name: &str, client: &Path) {
    let (check, version) = doctor_client_check(throughline, host, client);
    assert_eq!(check["status"], "ok", "{check}");
    let message = check["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{name} {version} ("))
            && message.contains("within the tested"),
        "{message}"
    );
}

/// `doctor`'s check of `host`'s client with `client`'s folder first on `PATH`, and the
/// version `client --version` prints.
fn doctor_client_check(mut throughline: Command, host: &str, client: &Path) -> (Value, String) {
    let printed = Command::new(client).arg("--version").output().unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout);
    let version = printed
        .split_whitespace()
        .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("{client:?} --version printed {printed:?}"))
        .to_string();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let folders =
        std::iter::once(client.parent().unwrap().to_path_buf()).chain(std::env::split_paths(&path));
    let out = throughline
        .env("PATH", std::env::join_paths(folders).unwrap())
        .args(["doctor", "--host", host, "--json"])
        .output()
        .unwrap();
    (doctor_check(&out.stdout, "client"), version)
}

/// The check called `name` in the report `doctor --json` printed as `stdout`.
pub fn doctor_check(stdout: &[u8], name: &str) -> Value {
    let report: Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|e| panic!("doctor --json: {e}: {}", String::from_utf8_lossy(stdout)));
    report["checks"]
        .as_array()
        .and_then(|checks| checks.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no {name} check: {report}"))
        .clone()
}
