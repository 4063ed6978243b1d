//! An isolated home, project and environment for running the real Claude Code CLI against a
//! [`ModelServer`].
//!
//! Every hook event is registered in `$HOME/.claude/settings.json` with a small recorder script:
//! it passes the payload to the hook command under test (if any, its stdout and exit code go back
//! to Claude Code unchanged) and then appends the payload as one line to a JSONL log. A payload in
//! the log therefore means the hook under test has finished with it.

use super::model_server::ModelServer;
use serde_json::{json, Value};
use std::fs;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Every hook event the settings register.
pub const HOOK_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
    "Notification",
];

/// Events whose hook groups take a tool-name matcher.
const TOOL_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "PostToolUseFailure"];

/// Default time limit of one headless run.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

const API_KEY: &str = "sk-ant-api03-throughline-harness-key-0123456789abcdefghij";

/// The pinned clients, by the alias `hook-cli/tests/claude-code/package.json` installs them
/// under: the current release and the oldest one supported.
pub const PINNED: &[&str] = &["current", "oldest"];

/// The Claude Code binary the tests drive, checked once by its `--version`:
/// `THROUGHLINE_CLAUDE_BIN` (any binary; `THROUGHLINE_CLAUDE_VERSION`, when set, is the version
/// it must report), else the pinned client `THROUGHLINE_CLAUDE` names (`current`, the
/// default, or `oldest`).
pub fn claude_bin() -> PathBuf {
    checked_client().0.clone()
}

/// The version the client under test reports (`2.1.334`).
pub fn client_version() -> &'static str {
    &checked_client().1
}

/// Whether the client under test is `version` or newer (`"2.1.332"`).
pub fn client_at_least(version: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    parts(client_version()) >= parts(version)
}

fn checked_client() -> &'static (PathBuf, String) {
    static CHECKED: std::sync::OnceLock<(PathBuf, String)> = std::sync::OnceLock::new();
    CHECKED.get_or_init(|| {
        let (bin, expected) = chosen_client();
        let reported = reported_version(&bin);
        if let Some(expected) = expected {
            assert_eq!(
                reported,
                expected,
                "{} reports version {reported}, not the {expected} the tests expect",
                bin.display()
            );
        }
        eprintln!("Claude Code {reported} at {}", bin.display());
        (bin, reported)
    })
}

/// The binary to run, and the version it must report.
fn chosen_client() -> (PathBuf, Option<String>) {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if let Some(p) = var("THROUGHLINE_CLAUDE_BIN") {
        let p = PathBuf::from(p);
        assert!(
            p.exists(),
            "THROUGHLINE_CLAUDE_BIN={} does not exist",
            p.display()
        );
        return (p, var("THROUGHLINE_CLAUDE_VERSION"));
    }
    let alias = var("THROUGHLINE_CLAUDE").unwrap_or_else(|| PINNED[0].to_string());
    assert!(
        PINNED.contains(&alias.as_str()),
        "THROUGHLINE_CLAUDE={alias}: the pinned clients are {PINNED:?}"
    );
    // The app's tests include this file too: the path holds from either crate.
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hook-cli/tests/claude-code");
    let bin = harness.join(format!("node_modules/claude-code-{alias}/claude"));
    assert!(
        bin.exists(),
        "the pinned Claude Code ({alias}) is not installed at {}.\n\
         Install the pinned clients with:\n    npm ci --prefix hook-cli/tests/claude-code\n\
         (or point THROUGHLINE_CLAUDE_BIN at a claude binary)",
        bin.display()
    );
    (bin, Some(pinned_version(&harness, &alias)))
}

/// The version `package.json` pins for `alias` (`npm:<package>@<version>`).
pub fn pinned_version(harness: &Path, alias: &str) -> String {
    let manifest: Value = serde_json::from_str(
        &fs::read_to_string(harness.join("package.json")).expect("read the harness package.json"),
    )
    .expect("the harness package.json is JSON");
    let spec = manifest["dependencies"][format!("claude-code-{alias}")]
        .as_str()
        .unwrap_or_else(|| panic!("package.json pins no claude-code-{alias}"));
    spec.rsplit_once('@')
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| {
            panic!("package.json pins claude-code-{alias} as {spec}, without a version")
        })
}

/// What `claude --version` prints first (`2.1.332 (Claude Code)` → `2.1.332`).
fn reported_version(bin: &Path) -> String {
    let out = Command::new(bin)
        .arg("--version")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run {} --version: {e}", bin.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .next()
        .unwrap_or_else(|| panic!("{} --version printed nothing", bin.display()))
        .to_string()
}

/// Quote `s` for a POSIX shell.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r#"'\''"#))
}

/// What a finished (or killed) `claude` process left behind.
#[derive(Debug)]
pub struct RunOutput {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    pub timed_out: bool,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        !self.timed_out && self.status.map(|s| s.success()).unwrap_or(false)
    }

    /// Panic unless the run exited 0; `context` (e.g. the server log) goes in the message.
    pub fn expect_ok(&self, context: &str) -> &Self {
        if !self.success() {
            panic!(
                "claude {} after {:?} (status {:?})\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- context ---\n{}",
                if self.timed_out { "timed out" } else { "failed" },
                self.elapsed,
                self.status,
                self.stdout,
                self.stderr,
                context
            );
        }
        self
    }
}

/// Files of the default project: a tiny shell program with something to read, run and edit.
pub fn default_project_files() -> Vec<(String, String)> {
    vec![
        (
            "README.md".to_string(),
            "# greeter\n\nA tiny shell project used by the Throughline capture tests.\n".to_string(),
        ),
        (
            "greet.sh".to_string(),
            "#!/bin/sh\n# Prints a greeting; exits 3 without a name.\nif [ -z \"$1\" ]; then\n  echo \"usage: greet.sh NAME\" >&2\n  exit 3\nfi\necho \"Hello, $1!\"\n".to_string(),
        ),
        (
            "data.txt".to_string(),
            "alpha 1\nbeta 2\ngamma 3\ncafé ✓ 4\n".to_string(),
        ),
    ]
}

/// Builds a [`ClaudeEnv`].
pub struct ClaudeEnvBuilder {
    server: ModelServer,
    hook_command: Option<String>,
    git: bool,
    files: Vec<(String, String)>,
    env: Vec<(String, String)>,
    settings: Vec<(String, Value)>,
}

impl ClaudeEnvBuilder {
    /// The hook command under test, run for every event with the payload on stdin
    /// (e.g. `"/path/to/throughline hook claude"`).
    pub fn hook_command(mut self, cmd: impl Into<String>) -> Self {
        self.hook_command = Some(cmd.into());
        self
    }

    /// Extra environment for Claude Code and so for its hooks.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Add (or replace) a project file, path relative to the project directory.
    pub fn file(mut self, rel: impl Into<String>, contents: impl Into<String>) -> Self {
        let rel = rel.into();
        self.files.retain(|(r, _)| *r != rel);
        self.files.push((rel, contents.into()));
        self
    }

    /// Start from an empty project instead of the default files.
    pub fn no_default_files(mut self) -> Self {
        self.files.clear();
        self
    }

    /// Whether the project is a git repository with one commit (default: yes).
    pub fn git(mut self, yes: bool) -> Self {
        self.git = yes;
        self
    }

    /// An extra top-level key for `$HOME/.claude/settings.json`.
    pub fn setting(mut self, key: impl Into<String>, value: Value) -> Self {
        self.settings.push((key.into(), value));
        self
    }

    pub fn build(self) -> ClaudeEnv {
        let root = tempfile::Builder::new()
            .prefix("tl-claude-")
            .tempdir()
            .expect("tempdir");
        let root_path = root.path().canonicalize().expect("canonicalize tempdir");
        // THROUGHLINE_KEEP_TEST_DIRS=1 keeps the home, project and hook log for a post-mortem.
        let root = if std::env::var_os("THROUGHLINE_KEEP_TEST_DIRS").is_some_and(|v| v != "0") {
            eprintln!(
                "keeping the Claude Code test environment at {}",
                root_path.display()
            );
            let _ = root.keep();
            None
        } else {
            Some(root)
        };
        let home = root_path.join("home");
        let project = root_path.join("project");
        let hooks_dir = root_path.join("hooks");
        for d in [&home, &project, &hooks_dir, &home.join(".claude")] {
            fs::create_dir_all(d).expect("create dir");
        }
        let hook_log = hooks_dir.join("payloads.jsonl");
        fs::write(&hook_log, "").expect("create hook log");

        for (rel, contents) in &self.files {
            let p = project.join(rel);
            if let Some(parent) = p.parent() {
                fs::create_dir_all(parent).expect("create project subdir");
            }
            fs::write(&p, contents).expect("write project file");
            if rel.ends_with(".sh") {
                use std::os::unix::fs::PermissionsExt;
                let _ = fs::set_permissions(&p, fs::Permissions::from_mode(0o755));
            }
        }

        // The recorder script.
        let recorder = hooks_dir.join("record.sh");
        let inner = match &self.hook_command {
            Some(cmd) => format!("( {cmd} ) < \"$payload\" || rc=$?\n"),
            None => String::new(),
        };
        let script = format!(
            "#!/bin/sh\n\
             # Hands the payload to the hook under test, then logs it (one JSON document a line).\n\
             payload=$(mktemp {dir}/payload.XXXXXX) || exit 0\n\
             cat > \"$payload\"\n\
             rc=0\n\
             {inner}\
             {{ flock 9; cat \"$payload\" >> {log}; printf '\\n' >> {log}; }} 9>>{lock}\n\
             rm -f \"$payload\"\n\
             exit $rc\n",
            dir = sh_quote(&hooks_dir.to_string_lossy()),
            log = sh_quote(&hook_log.to_string_lossy()),
            lock = sh_quote(&hooks_dir.join("payloads.lock").to_string_lossy()),
        );
        fs::write(&recorder, script).expect("write recorder");
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&recorder, fs::Permissions::from_mode(0o755))
                .expect("chmod recorder");
        }

        let handler =
            json!([{ "type": "command", "command": sh_quote(&recorder.to_string_lossy()) }]);
        let mut hooks = serde_json::Map::new();
        for ev in HOOK_EVENTS {
            let group = if TOOL_EVENTS.contains(ev) {
                json!({ "matcher": "*", "hooks": handler })
            } else {
                json!({ "hooks": handler })
            };
            hooks.insert(ev.to_string(), json!([group]));
        }
        let mut settings = serde_json::Map::new();
        settings.insert("hooks".into(), Value::Object(hooks));
        // The interactive client otherwise asks to accept bypass-permissions mode on start.
        settings.insert(
            "skipDangerousModePermissionPrompt".into(),
            Value::Bool(true),
        );
        for (k, v) in self.settings {
            settings.insert(k, v);
        }
        fs::write(
            home.join(".claude/settings.json"),
            serde_json::to_string_pretty(&Value::Object(settings)).unwrap(),
        )
        .expect("write settings.json");

        let key_tail: String = {
            let chars: Vec<char> = API_KEY.chars().collect();
            chars[chars.len().saturating_sub(20)..].iter().collect()
        };
        let project_key = project.to_string_lossy().into_owned();
        let claude_json = json!({
            "hasCompletedOnboarding": true,
            "customApiKeyResponses": { "approved": [key_tail], "rejected": [] },
            "projects": { project_key: { "hasTrustDialogAccepted": true, "allowedTools": [] } },
        });
        fs::write(
            home.join(".claude.json"),
            serde_json::to_string_pretty(&claude_json).unwrap(),
        )
        .expect("write .claude.json");

        let mut env: Vec<(String, String)> = Vec::new();
        let inherit =
            |k: &str, fallback: &str| std::env::var(k).unwrap_or_else(|_| fallback.to_string());
        env.push((
            "PATH".into(),
            inherit("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ));
        env.push(("HOME".into(), home.to_string_lossy().into_owned()));
        env.push(("USER".into(), inherit("USER", "root")));
        env.push(("LOGNAME".into(), inherit("LOGNAME", "root")));
        let shell = if Path::new("/bin/bash").exists() {
            "/bin/bash"
        } else {
            "/bin/sh"
        };
        env.push(("SHELL".into(), shell.into()));
        env.push(("LANG".into(), "C.UTF-8".into()));
        env.push(("TERM".into(), "xterm-256color".into()));
        env.push(("TMPDIR".into(), inherit("TMPDIR", "/tmp")));
        env.push(("ANTHROPIC_BASE_URL".into(), self.server.url()));
        env.push(("ANTHROPIC_API_KEY".into(), API_KEY.into()));
        env.push(("IS_SANDBOX".into(), "1".into()));
        env.push(("DISABLE_TELEMETRY".into(), "1".into()));
        env.push((
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".into(),
            "1".into(),
        ));
        env.push(("DISABLE_AUTOUPDATER".into(), "1".into()));
        for (k, v) in self.env {
            env.retain(|(ek, _)| *ek != k);
            env.push((k, v));
        }

        let out = ClaudeEnv {
            root,
            root_path,
            home,
            project,
            hook_log,
            env,
            bin: claude_bin(),
            server: self.server,
        };
        if self.git {
            out.git(&["init", "-q", "-b", "main"]);
            out.git(&["add", "-A"]);
            out.git(&["commit", "-q", "-m", "initial commit", "--allow-empty"]);
        }
        out
    }
}

/// An isolated Claude Code installation: temp HOME, project directory, settings and environment.
pub struct ClaudeEnv {
    /// Removes the directory on drop (`None` when kept on purpose).
    #[allow(dead_code)]
    root: Option<tempfile::TempDir>,
    /// The canonical temp root holding `home/`, `project/` and `hooks/`.
    pub root_path: PathBuf,
    pub home: PathBuf,
    /// The working directory Claude Code runs in.
    pub project: PathBuf,
    /// The JSONL log of every hook payload.
    pub hook_log: PathBuf,
    env: Vec<(String, String)>,
    bin: PathBuf,
    server: ModelServer,
}

impl ClaudeEnv {
    pub fn builder(server: &ModelServer) -> ClaudeEnvBuilder {
        ClaudeEnvBuilder {
            server: server.clone(),
            hook_command: None,
            git: true,
            files: default_project_files(),
            env: Vec::new(),
            settings: Vec::new(),
        }
    }

    /// Default project, git repository, recorder hooks only.
    pub fn new(server: &ModelServer) -> ClaudeEnv {
        Self::builder(server).build()
    }

    pub fn bin(&self) -> &Path {
        &self.bin
    }

    pub fn server(&self) -> &ModelServer {
        &self.server
    }

    /// The environment Claude Code runs with (it replaces the test's own environment).
    pub fn env_vars(&self) -> &[(String, String)] {
        &self.env
    }

    /// Value of one variable of [`env_vars`](Self::env_vars).
    pub fn env_var(&self, key: &str) -> Option<&str> {
        self.env
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A command with this environment (and nothing else from the test's), run in the project.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.project);
        c
    }

    /// Run `git` in the project.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self
            .command("git")
            .args([
                "-c",
                "user.name=Harness",
                "-c",
                "user.email=harness@example.invalid",
            ])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run git");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Run `claude ARGS` to completion or until `timeout`, whichever first.
    pub fn run(&self, args: &[&str], timeout: Duration) -> RunOutput {
        let start = Instant::now();
        let mut child = self
            .command(&self.bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", self.bin.display()));
        let out_reader = drain(child.stdout.take());
        let err_reader = drain(child.stderr.take());
        let (status, timed_out) = wait_with_deadline(&mut child, start + timeout);
        RunOutput {
            status,
            stdout: out_reader.join().unwrap_or_default(),
            stderr: err_reader.join().unwrap_or_default(),
            elapsed: start.elapsed(),
            timed_out,
        }
    }

    /// `claude -p PROMPT --dangerously-skip-permissions`.
    pub fn run_print(&self, prompt: &str) -> RunOutput {
        self.run(
            &["-p", prompt, "--dangerously-skip-permissions"],
            RUN_TIMEOUT,
        )
    }

    /// `claude -p PROMPT --resume SESSION --dangerously-skip-permissions`.
    pub fn resume_print(&self, session_id: &str, prompt: &str) -> RunOutput {
        self.run(
            &[
                "-p",
                prompt,
                "--resume",
                session_id,
                "--dangerously-skip-permissions",
            ],
            RUN_TIMEOUT,
        )
    }

    /// Raw lines of the hook log, exactly as Claude Code sent them (blank lines dropped).
    pub fn hook_lines(&self) -> Vec<String> {
        let text = fs::read_to_string(&self.hook_log).unwrap_or_default();
        // A payload is whole once the newline after it is written: the recorder appends the
        // two apart, and a hook may be writing while this reads.
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        whole
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Every hook payload so far, in the order the hooks finished.
    pub fn hook_payloads(&self) -> Vec<Value> {
        self.hook_lines()
            .iter()
            .map(|l| {
                serde_json::from_str(l)
                    .unwrap_or_else(|e| panic!("hook payload is not JSON ({e}): {l}"))
            })
            .collect()
    }

    /// The `hook_event_name` of every payload, in order.
    pub fn hook_events(&self) -> Vec<String> {
        self.hook_payloads()
            .iter()
            .map(event_name)
            .map(str::to_string)
            .collect()
    }

    /// Payloads of one event.
    pub fn payloads_of(&self, event: &str) -> Vec<Value> {
        self.hook_payloads()
            .into_iter()
            .filter(|p| event_name(p) == event)
            .collect()
    }

    /// Block until `pred` holds for the hook payloads; the error lists the events seen.
    pub fn wait_for_hooks(
        &self,
        timeout: Duration,
        mut pred: impl FnMut(&[Value]) -> bool,
    ) -> Result<Vec<Value>, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let payloads = self.hook_payloads();
            if pred(&payloads) {
                return Ok(payloads);
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "timed out after {timeout:?} waiting for hook payloads; seen: {:?}",
                    payloads.iter().map(event_name).collect::<Vec<_>>()
                ));
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Block until at least `n` payloads of `event` have been logged.
    pub fn wait_for_event_count(
        &self,
        event: &str,
        n: usize,
        timeout: Duration,
    ) -> Result<Vec<Value>, String> {
        self.wait_for_hooks(timeout, |ps| {
            ps.iter().filter(|p| event_name(p) == event).count() >= n
        })
        .map_err(|e| format!("waiting for {n} × {event}: {e}"))
    }

    /// Session ids in the order their first payload was logged.
    pub fn session_ids(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in self.hook_payloads() {
            if let Some(id) = p.get("session_id").and_then(Value::as_str) {
                if !out.iter().any(|o| o == id) {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    /// The `transcript_path` hooks reported for `session_id`.
    pub fn transcript_path(&self, session_id: &str) -> Option<PathBuf> {
        self.hook_payloads()
            .iter()
            .filter(|p| p.get("session_id").and_then(Value::as_str) == Some(session_id))
            .find_map(|p| {
                p.get("transcript_path")
                    .and_then(Value::as_str)
                    .map(PathBuf::from)
            })
    }

    /// A description for panic messages: hook events seen and the server log.
    pub fn debug_context(&self) -> String {
        format!(
            "hook events: {:?}\n{}",
            self.hook_events(),
            self.server.log()
        )
    }
}

/// `hook_event_name` of a payload (empty when missing).
pub fn event_name(p: &Value) -> &str {
    p.get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn drain<R: Read + Send + 'static>(r: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Wait for `child`, killing it at `deadline`. Returns the status and whether it was killed.
fn wait_with_deadline(child: &mut Child, deadline: Instant) -> (Option<ExitStatus>, bool) {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (Some(status), false),
            Ok(None) => {}
            Err(_) => return (None, false),
        }
        if Instant::now() >= deadline {
            // The child leads its own process group: end it together with what it started.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            return (child.wait().ok(), true);
        }
        thread::sleep(Duration::from_millis(20));
    }
}
