//! The real Codex CLI (pinned in `hook-cli/tests/codex`, or `THROUGHLINE_CODEX_BIN`) in an
//! isolated HOME, pointed at a [`ResponsesServer`](super::responses_server::ResponsesServer),
//! its hooks running the real `throughline hook codex` on a temp store.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::pane::{sh, Pane};
use super::responses_server::ResponsesServer;

/// The `codex` launcher: `THROUGHLINE_CODEX_BIN`, else the one `npm ci --prefix
/// hook-cli/tests/codex` installs.
pub fn codex_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("THROUGHLINE_CODEX_BIN").filter(|b| !b.is_empty()) {
        return bin.into();
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codex/node_modules/.bin/codex");
    assert!(
        bin.exists(),
        "no Codex CLI at {}: run `npm ci --prefix hook-cli/tests/codex`",
        bin.display()
    );
    bin
}

pub struct CodexEnv {
    pub home: tempfile::TempDir,
    pub project: tempfile::TempDir,
    pub store: tempfile::TempDir,
}

impl CodexEnv {
    /// A HOME whose `~/.codex` uses the server as its model provider and runs `throughline`
    /// (`bin`) on every hook event.
    pub fn new(server: &ResponsesServer, bin: &str) -> CodexEnv {
        let env = CodexEnv {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
            store: tempfile::tempdir().unwrap(),
        };
        let codex = env.home.path().join(".codex");
        std::fs::create_dir_all(&codex).unwrap();
        std::fs::write(
            codex.join("config.toml"),
            format!(
                "model = \"gpt-5\"\nmodel_provider = \"scripted\"\n\n\
                 [model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{}\"\n\
                 wire_api = \"responses\"\nenv_key = \"SCRIPTED_KEY\"\n",
                server.base_url()
            ),
        )
        .unwrap();
        let out = env.throughline(bin, &["install", "--host", "codex"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(env.project.path())
            .status()
            .unwrap();
        env
    }

    /// Codex compacts by itself once a session's context passes `tokens` (its
    /// `model_auto_compact_token_limit`; the scripted server reports 1,000 more each response).
    pub fn compact_past(&self, tokens: u64) {
        let config = self.home.path().join(".codex/config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(
            &config,
            format!("model_auto_compact_token_limit = {tokens}\n{text}"),
        )
        .unwrap();
    }

    fn vars(&self, cmd: &mut Command) {
        cmd.env("HOME", self.home.path())
            .env_remove("CODEX_HOME")
            .env("SCRIPTED_KEY", "test")
            .env("THROUGHLINE_HOME", self.store.path())
            .env_remove("THROUGHLINE_GUARD");
    }

    pub fn throughline(&self, bin: &str, args: &[&str]) -> Output {
        self.command(bin).args(args).output().unwrap()
    }

    /// `bin` to run in the project with this environment's home and store.
    pub fn command(&self, bin: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(bin);
        cmd.current_dir(self.project.path());
        self.vars(&mut cmd);
        cmd
    }

    /// `codex exec` with `args`, hooks run without the trust review.
    pub fn exec(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(codex_bin());
        cmd.args([
            "exec",
            "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox",
        ])
        .args(args)
        .current_dir(self.project.path())
        .stdin(std::process::Stdio::null());
        self.vars(&mut cmd);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "codex exec failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

/// What the TUI's prompt shows when it waits for a person.
const PROMPT: &str = "Ask Codex";
/// The title of the dialog that asks to review new or changed hooks.
const REVIEW: &str = "Hooks need review";

/// How long the TUI may take to come up or to finish a turn.
pub const TUI_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Held by each test that drives the TUI: a TUI (and the background server one of them
/// starts, which copies the client into its HOME) is heavy on a small machine, and two at a
/// time kept each other past their time-outs.
pub fn one_tui_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static TUI: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TUI.lock().unwrap_or_else(|e| e.into_inner())
}

/// The interactive Codex TUI in a tmux server of its own, killed when dropped.
pub struct CodexTui(Pane);

impl CodexTui {
    /// Starts `codex` in `env`'s project (trusted up front, hooks run without review) and
    /// waits for its prompt.
    pub fn start(env: &CodexEnv, name: &str) -> CodexTui {
        let tui = Self::launch(env, name, &["--dangerously-bypass-hook-trust"]);
        tui.wait_screen(PROMPT);
        tui
    }

    /// Starts `codex` as a person does. The first window after install asks to review the
    /// new hooks (`review`), and the person trusts them all; later windows run them as trusted.
    pub fn start_reviewed(env: &CodexEnv, name: &str, review: bool) -> CodexTui {
        let tui = Self::launch(env, name, &[]);
        if review {
            tui.wait_screen(REVIEW);
            tui.trust_all_hooks();
        } else {
            tui.wait_screen(PROMPT);
        }
        tui
    }

    /// Answers the hook review as a person does until the prompt is back. On a loaded machine
    /// the dialog may drop keys that come before it is ready, so the answer is given again
    /// while the dialog stays: option 2 trusts them all; if an Enter opened the review list
    /// (option 1) instead, `t` trusts them all there and Esc closes it.
    fn trust_all_hooks(&self) {
        let pause = || std::thread::sleep(std::time::Duration::from_millis(1000));
        let deadline = std::time::Instant::now() + TUI_TIMEOUT;
        loop {
            pause();
            let screen = self.screen();
            let list_open = screen.contains("t trust all");
            if screen.contains(PROMPT) && !screen.contains(REVIEW) && !list_open {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the hook review is still open:\n{screen}"
            );
            if list_open {
                self.keys(&["t"]);
                pause();
                self.keys(&["Escape"]);
            } else if screen.contains(REVIEW) {
                self.keys(&["2"]);
                pause();
                self.keys(&["Enter"]);
            }
        }
    }

    /// Starts `codex ARGS` and waits for its prompt, or for the hook review that comes
    /// before it (which may cover the prompt before it was ever drawn).
    fn launch(env: &CodexEnv, name: &str, args: &[&str]) -> CodexTui {
        let config = env.home.path().join(".codex/config.toml");
        let mut text = std::fs::read_to_string(&config).unwrap();
        let project = env.project.path().canonicalize().unwrap();
        let trust = format!("[projects.\"{}\"]", project.display());
        if !text.contains(&trust) {
            text += &format!("\n{trust}\ntrust_level = \"trusted\"\n");
            std::fs::write(&config, text).unwrap();
        }
        let command = format!(
            "env HOME={} SCRIPTED_KEY=test THROUGHLINE_HOME={} {} --no-alt-screen {}",
            sh(env.home.path()),
            sh(env.store.path()),
            sh(&codex_bin()),
            args.join(" ")
        );
        let tui = CodexTui(Pane::start(
            &format!("tl-codex-{name}"),
            env.home.path(),
            env.project.path(),
            200,
            &command,
            TUI_TIMEOUT,
        ));
        let up = tui.shows_within(
            |screen| screen.contains(PROMPT) || screen.contains(REVIEW),
            TUI_TIMEOUT,
        );
        assert!(up, "codex did not come up:\n{}", tui.screen());
        tui
    }

    /// Types `text` and submits it. Keys that follow typing closely are taken as part of a
    /// paste (an Enter then only adds a line), so the Enter waits until the text is on the
    /// screen and the TUI has been quiet a moment, however loaded the machine is.
    pub fn submit(&self, text: &str) {
        self.keys(&["-l", text]);
        let shown: String = text.chars().take(40).collect();
        self.wait_screen(&shown);
        std::thread::sleep(std::time::Duration::from_millis(1000));
        self.keys(&["Enter"]);
    }

    /// Types a `$skill` mention, picks it from the list the TUI opens, and submits it.
    pub fn submit_skill(&self, mention: &str) {
        self.keys(&["-l", mention]);
        self.wait_screen("[Skill]");
        // Keys that follow typing closely are taken as part of a paste.
        std::thread::sleep(std::time::Duration::from_millis(1000));
        self.keys(&["Enter"]);
        std::thread::sleep(std::time::Duration::from_millis(1000));
        self.keys(&["Enter"]);
    }
}

/// The screen, keys and waits of the pane the TUI runs in.
impl std::ops::Deref for CodexTui {
    type Target = Pane;
    fn deref(&self) -> &Pane {
        &self.0
    }
}

/// Ends the shared background server the TUI starts in `env`'s HOME (it outlives the TUI) when
/// dropped: the processes its pid files name.
pub struct DaemonGuard(PathBuf);

impl DaemonGuard {
    pub fn new(env: &CodexEnv) -> DaemonGuard {
        DaemonGuard(env.home.path().join(".codex/app-server-daemon"))
    }
}

impl Drop for DaemonGuard {
    fn drop(&mut self) {
        // The updater first: it would start the server again.
        for name in ["daemon-updater.pid", "daemon.pid"] {
            let Ok(text) = std::fs::read_to_string(self.0.join(name)) else {
                continue;
            };
            let pid = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v["pid"].as_u64());
            if let Some(pid) = pid {
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        }
    }
}
