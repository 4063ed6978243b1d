//! The real Gemini CLI (pinned in `hook-cli/tests/gemini`, or `THROUGHLINE_GEMINI_BIN`) in an
//! isolated HOME, pointed at a [`GeminiServer`](super::gemini_server::GeminiServer), its hooks
//! installed by the real `throughline install --host gemini` on a temp store; headless
//! (`gemini -p`) or in its interactive TUI under tmux.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use super::gemini_server::GeminiServer;
use super::pane::{sh, Pane};

/// The release the tests are written against.
pub const VERSION: &str = "0.61.0";

/// The `gemini` launcher: `THROUGHLINE_GEMINI_BIN`, else the one `npm ci --prefix
/// hook-cli/tests/gemini` installs.
pub fn gemini_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("THROUGHLINE_GEMINI_BIN").filter(|b| !b.is_empty()) {
        return bin.into();
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gemini/node_modules/.bin/gemini");
    assert!(
        bin.exists(),
        "no Gemini CLI at {}: run `npm ci --prefix hook-cli/tests/gemini`",
        bin.display()
    );
    bin
}

pub struct GeminiEnv {
    pub home: tempfile::TempDir,
    pub project: tempfile::TempDir,
    pub store: tempfile::TempDir,
    base_url: String,
}

impl GeminiEnv {
    /// A HOME whose `~/.gemini` signs in with an API key and runs `throughline` (`bin`) on
    /// every hook event; the client is checked to be the pinned release.
    pub fn new(server: &GeminiServer, bin: &str) -> GeminiEnv {
        let env = GeminiEnv {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
            store: tempfile::tempdir().unwrap(),
            base_url: server.base_url(),
        };
        let dir = env.home.path().join(".gemini");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("settings.json"),
            "{\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}\n}\n",
        )
        .unwrap();
        let version = env.gemini(&["--version"]);
        assert_eq!(
            String::from_utf8_lossy(&version.stdout).trim(),
            VERSION,
            "the Gemini CLI the tests drive"
        );
        let out = env.throughline(bin, &["install", "--host", "gemini"]);
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

    fn vars(&self, cmd: &mut Command) {
        for (name, value) in self.env_vars() {
            cmd.env(name, value);
        }
        cmd.env_remove("GEMINI_CLI_HOME")
            .env_remove("GEMINI_SESSION_ID")
            .env_remove("THROUGHLINE_GUARD");
    }

    fn env_vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("HOME", self.home.path().display().to_string()),
            ("GEMINI_API_KEY", "test".into()),
            ("GOOGLE_GEMINI_BASE_URL", self.base_url.clone()),
            ("GEMINI_CLI_TRUST_WORKSPACE", "true".into()),
            ("THROUGHLINE_HOME", self.store.path().display().to_string()),
        ]
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

    fn gemini(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(gemini_bin());
        cmd.args(args)
            .current_dir(self.project.path())
            .stdin(std::process::Stdio::null());
        self.vars(&mut cmd);
        cmd.output().unwrap()
    }

    /// `gemini -p PROMPT --yolo` (tools run without asking).
    pub fn headless(&self, prompt: &str) -> Output {
        let out = self.gemini(&["-p", prompt, "--yolo"]);
        assert!(
            out.status.success(),
            "gemini -p failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `gemini --resume latest -p PROMPT --yolo`: the latest session goes on.
    pub fn headless_resumed(&self, prompt: &str) -> Output {
        let out = self.gemini(&["--resume", "latest", "-p", prompt, "--yolo"]);
        assert!(
            out.status.success(),
            "gemini --resume failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// The chat files of this HOME, oldest first.
    pub fn chats(&self) -> Vec<throughline::hosts::FoundTranscript> {
        throughline::hosts::agent(throughline::hosts::gemini::HOST)
            .find_transcripts(Some(self.home.path().join(".gemini/tmp")))
            .unwrap()
    }
}

/// How long the TUI may take to come up or to finish a turn.
pub const TUI_TIMEOUT: Duration = Duration::from_secs(90);

/// Held by each test that drives the TUI: two at a time on a small machine push each other
/// past their time-outs.
pub fn one_tui_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static TUI: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TUI.lock().unwrap_or_else(|e| e.into_inner())
}

/// The interactive TUI in a tmux server of its own, killed when dropped.
pub struct GeminiTui(Pane);

/// On the screen whenever the TUI waits for a prompt.
const READY: &str = "Type your message";

impl GeminiTui {
    /// Starts `gemini` in `env`'s project and waits for its prompt.
    pub fn start(env: &GeminiEnv, name: &str) -> GeminiTui {
        let vars: Vec<String> = env
            .env_vars()
            .into_iter()
            .map(|(k, v)| format!("{k}={}", sh(Path::new(&v))))
            .collect();
        // Not in CI's environment: with `CI` set the TUI's renderer draws nothing until exit.
        let command = format!("env -u CI {} {}", vars.join(" "), sh(&gemini_bin()));
        let tui = GeminiTui(Pane::start(
            &format!("tl-gemini-{name}"),
            env.home.path(),
            env.project.path(),
            160,
            &command,
            TUI_TIMEOUT,
        ));
        tui.wait_screen(READY);
        // The prompt shows before the input takes pastes.
        std::thread::sleep(Duration::from_millis(1000));
        tui
    }

    /// Pastes `text` (typed keys lose characters in this TUI) and submits it once it shows.
    /// A `?` that arrives in an empty prompt opens the shortcuts instead: prompts end without
    /// one.
    pub fn submit(&self, text: &str) {
        let shown: String = text.chars().take(30).collect();
        let in_the_input = |s: &str| s.contains(&shown) && !s.contains(READY);
        // A paste that lands while the TUI redraws (right after /clear) is dropped: paste
        // again while the input still stands empty.
        let mut pasted = false;
        for _ in 0..4 {
            self.wait_screen(READY);
            self.paste(text);
            if self.shows_within(in_the_input, Duration::from_secs(10)) {
                pasted = true;
                break;
            }
        }
        assert!(
            pasted,
            "{text:?} never reached the input:\n{}",
            self.screen()
        );
        // The TUI takes an Enter right after a paste as part of it, and one that comes while
        // it is still busy with the previous command not at all: Enter again until the input
        // is empty.
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(500));
            self.keys(&["Enter"]);
            if self.shows_within(|s| s.contains(READY), Duration::from_secs(5)) {
                return;
            }
        }
        panic!("{text:?} was never submitted:\n{}", self.screen());
    }

    /// Submits `text` and waits until `server` has ended one more turn and the TUI is ready.
    pub fn ask(&self, server: &GeminiServer, text: &str) {
        let before = server.served();
        self.submit(text);
        let deadline = Instant::now() + TUI_TIMEOUT;
        while server.served() == before {
            assert!(
                Instant::now() < deadline,
                "no answer to {text:?}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        self.wait_screen(READY);
    }
}

/// The screen, keys and waits of the pane the TUI runs in.
impl std::ops::Deref for GeminiTui {
    type Target = Pane;
    fn deref(&self) -> &Pane {
        &self.0
    }
}
