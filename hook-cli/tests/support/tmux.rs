//! The interactive Claude Code UI inside a detached tmux session.
//!
//! Each driver runs its own tmux server (`tmux -L <unique name>`, socket under the test's temp
//! dir), so parallel tests never share a session, and kills it when dropped. Turns are awaited through the model server (it served
//! the `end_turn` answer) and the hook log (the `Stop` hook has finished), never by sleeping.

use super::claude::{event_name, ClaudeEnv};
use super::pane::end_process_group;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Default wait for the UI to come up, a turn to end, or a command to take effect.
pub const UI_TIMEOUT: Duration = Duration::from_secs(60);

const WIDTH: u32 = 220;
const HEIGHT: u32 = 50;
const TARGET: &str = "cc:0.0";

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A running interactive `claude --dangerously-skip-permissions`.
pub struct Tmux<'a> {
    env: &'a ClaudeEnv,
    socket: String,
    /// Prompts typed so far (each one expects an `end_turn` and a `Stop` hook).
    prompts: usize,
    end_turns_at_start: usize,
    stops_at_start: usize,
}

impl<'a> Tmux<'a> {
    /// Start Claude Code in `env`'s project and wait until it accepts input.
    pub fn start(env: &'a ClaudeEnv) -> Tmux<'a> {
        Self::start_with_args(env, &["--dangerously-skip-permissions"])
    }

    /// Start `claude ARGS` and wait until it accepts input.
    pub fn start_with_args(env: &'a ClaudeEnv, args: &[&str]) -> Tmux<'a> {
        let socket = format!(
            "tl-harness-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let conf = env.root_path.join("tmux.conf");
        std::fs::write(
            &conf,
            "set -g remain-on-exit on\nset -g history-limit 10000\nset -g default-terminal xterm-256color\nset -g focus-events on\n",
        )
        .expect("write tmux.conf");
        let mut t = Tmux {
            env,
            socket,
            prompts: 0,
            end_turns_at_start: env.server().end_turns(),
            stops_at_start: env.payloads_of("Stop").len(),
        };
        let mut cmd = t.tmux_command();
        cmd.arg("-f").arg(&conf);
        cmd.args([
            "new-session",
            "-d",
            "-s",
            "cc",
            "-x",
            &WIDTH.to_string(),
            "-y",
            &HEIGHT.to_string(),
        ]);
        cmd.arg("-c").arg(&env.project);
        cmd.arg(env.bin());
        cmd.args(args);
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .expect("run tmux (is it installed?)");
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        t.wait_ready(UI_TIMEOUT);
        t
    }

    /// `tmux -L <socket>`, its socket kept under the test's temp dir so nothing outlives it.
    fn tmux_command(&self) -> Command {
        let mut cmd = self.env.command("tmux");
        cmd.env("TMUX_TMPDIR", &self.env.root_path);
        cmd.arg("-L").arg(&self.socket);
        cmd
    }

    fn tmux(&self, args: &[&str]) -> Output {
        self.tmux_command()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run tmux")
    }

    fn tmux_ok(&self, args: &[&str]) {
        let out = self.tmux(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.context()
        );
    }

    /// The visible screen as text.
    pub fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-t", TARGET]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Whether the Claude Code process has exited (the pane is kept, dead).
    pub fn exited(&self) -> bool {
        let out = self.tmux(&["display-message", "-p", "-t", TARGET, "#{pane_dead}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// Screen, hook events and server log, for panic messages.
    pub fn context(&self) -> String {
        format!(
            "--- screen ---\n{}\n--- harness ---\n{}",
            self.screen(),
            self.env.debug_context()
        )
    }

    /// Poll the screen until `pred` holds; panic with `what` and the context on timeout.
    pub fn wait_screen(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if Instant::now() >= deadline {
                panic!(
                    "timed out after {timeout:?} waiting for {what}\n{}",
                    self.context()
                );
            }
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// Wait until the input box is shown, answering start-up dialogs on the way.
    pub fn wait_ready(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let mut last_dialog = String::new();
        loop {
            let s = self.screen();
            if is_ready(&s) {
                return;
            }
            if self.exited() {
                panic!("claude exited during start-up\n{}", self.context());
            }
            // Answer a dialog one key at a time, each only once the screen shows the effect of
            // the previous one (keys sent together can arrive as one chunk and be misread).
            if let Some(key) = dialog_key(&s) {
                if s != last_dialog {
                    self.keys(&[key]);
                    last_dialog = s;
                }
            }
            if Instant::now() >= deadline {
                panic!(
                    "timed out after {timeout:?} waiting for the Claude Code UI\n{}",
                    self.context()
                );
            }
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// Send tmux key names (e.g. `"Enter"`, `"Escape"`, `"C-c"`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", TARGET];
        args.extend_from_slice(keys);
        self.tmux_ok(&args);
    }

    /// Type `text` literally (no Enter).
    pub fn type_text(&self, text: &str) {
        if text.contains('\n') {
            self.tmux_ok(&["set-buffer", "-b", "tl-paste", "--", text]);
            self.tmux_ok(&["paste-buffer", "-p", "-d", "-b", "tl-paste", "-t", TARGET]);
        } else {
            self.tmux_ok(&["send-keys", "-t", TARGET, "-l", "--", text]);
        }
    }

    /// Type a prompt and submit it. Wait for its answer with [`wait_turn`](Self::wait_turn).
    pub fn type_prompt(&mut self, text: &str) {
        self.wait_screen("the input box", UI_TIMEOUT, is_ready);
        self.type_text(text);
        self.settle_input(text);
        self.keys(&["Enter"]);
        self.prompts += 1;
    }

    /// Give the UI a moment to take the typed text in before Enter: wait until a piece of it
    /// shows on screen (or the paste placeholder does), at most a few seconds.
    fn settle_input(&self, text: &str) {
        let probe: String = text.lines().next().unwrap_or("").chars().take(24).collect();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            let s = self.screen();
            if (!probe.is_empty() && s.contains(probe.as_str())) || s.contains("[Pasted text") {
                return;
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Block until every prompt typed so far has been answered (`end_turn` served) and its
    /// `Stop` hook has finished.
    pub fn wait_turn(&self) {
        self.wait_turn_timeout(UI_TIMEOUT)
    }

    pub fn wait_turn_timeout(&self, timeout: Duration) {
        let target = self.end_turns_at_start + self.prompts;
        if let Err(e) = self.env.server().wait_for_end_turns(target, timeout) {
            panic!(
                "{e}\n--- screen ---\n{}\nhook events: {:?}",
                self.screen(),
                self.env.hook_events()
            );
        }
        let stops = self.stops_at_start + self.prompts;
        if let Err(e) = self.env.wait_for_event_count("Stop", stops, timeout) {
            panic!("{e}\n{}", self.context());
        }
    }

    /// Type a prompt and wait for the turn to end.
    pub fn prompt(&mut self, text: &str) {
        self.type_prompt(text);
        self.wait_turn();
    }

    /// Run `/clear` and wait until the new session has started (its `SessionStart` hook with
    /// `source = "clear"` has finished) and the input box is back. Returns that payload.
    pub fn clear(&mut self) -> Value {
        let before =
            self.count_payloads(|p| event_name(p) == "SessionStart" && source(p) == "clear");
        self.wait_screen("the input box", UI_TIMEOUT, is_ready);
        self.type_text("/clear");
        self.settle_input("/clear");
        self.keys(&["Enter"]);
        let payloads = self
            .env
            .wait_for_hooks(UI_TIMEOUT, |ps| {
                ps.iter()
                    .filter(|p| event_name(p) == "SessionStart" && source(p) == "clear")
                    .count()
                    > before
            })
            .unwrap_or_else(|e| {
                panic!(
                    "/clear did not start a new session: {e}\n{}",
                    self.context()
                )
            });
        self.wait_screen("the input box after /clear", UI_TIMEOUT, is_ready);
        payloads
            .into_iter()
            .filter(|p| event_name(p) == "SessionStart" && source(p) == "clear")
            .nth(before)
            .expect("SessionStart(clear) payload")
    }

    /// Run `/compact` and wait until the client has compacted (its `SessionStart` hook with
    /// `source = "compact"` has finished) and the input box is back. Returns that payload.
    pub fn compact(&mut self) -> Value {
        let before =
            self.count_payloads(|p| event_name(p) == "SessionStart" && source(p) == "compact");
        self.wait_screen("the input box", UI_TIMEOUT, is_ready);
        self.type_text("/compact");
        self.settle_input("/compact");
        self.keys(&["Enter"]);
        let payloads = self
            .env
            .wait_for_hooks(UI_TIMEOUT, |ps| {
                ps.iter()
                    .filter(|p| event_name(p) == "SessionStart" && source(p) == "compact")
                    .count()
                    > before
            })
            .unwrap_or_else(|e| panic!("/compact did not compact: {e}\n{}", self.context()));
        self.wait_screen("the input box after /compact", UI_TIMEOUT, is_ready);
        payloads
            .into_iter()
            .filter(|p| event_name(p) == "SessionStart" && source(p) == "compact")
            .nth(before)
            .expect("SessionStart(compact) payload")
    }

    /// Run `/exit` and wait for the `SessionEnd` hook and the process to end.
    pub fn exit(&mut self) -> Value {
        let before = self.count_payloads(|p| event_name(p) == "SessionEnd");
        self.wait_screen("the input box", UI_TIMEOUT, is_ready);
        self.type_text("/exit");
        self.settle_input("/exit");
        self.keys(&["Enter"]);
        let payloads = self
            .env
            .wait_for_hooks(UI_TIMEOUT, |ps| {
                ps.iter().filter(|p| event_name(p) == "SessionEnd").count() > before
            })
            .unwrap_or_else(|e| panic!("/exit did not end the session: {e}\n{}", self.context()));
        let deadline = Instant::now() + UI_TIMEOUT;
        while !self.exited() {
            if Instant::now() >= deadline {
                panic!("claude did not exit after /exit\n{}", self.context());
            }
            thread::sleep(Duration::from_millis(50));
        }
        payloads
            .into_iter()
            .filter(|p| event_name(p) == "SessionEnd")
            .nth(before)
            .expect("SessionEnd payload")
    }

    fn count_payloads(&self, pred: impl Fn(&Value) -> bool) -> usize {
        self.env.hook_payloads().iter().filter(|p| pred(p)).count()
    }
}

impl Drop for Tmux<'_> {
    /// The client ends before the test's folder is removed (see [`end_process_group`]).
    fn drop(&mut self) {
        let out = self.tmux(&["display-message", "-p", "-t", TARGET, "#{pane_pid}"]);
        if let Ok(pid) = String::from_utf8_lossy(&out.stdout).trim().parse::<u32>() {
            end_process_group(pid);
        }
        let _ = self.tmux(&["kill-server"]);
    }
}

fn source(p: &Value) -> &str {
    p.get("source").and_then(Value::as_str).unwrap_or("")
}

/// Whether the screen shows the prompt input box, ready for typing: an unindented `❯` line (a
/// dialog's selected option is indented), no dialog, and no turn in progress.
fn is_ready(screen: &str) -> bool {
    screen.lines().any(|l| l.starts_with('❯'))
        && !screen.contains("Enter to confirm")
        && !screen.to_lowercase().contains("esc to interrupt")
}

/// The next key towards accepting a start-up dialog (`N. Yes...` options with a `❯` cursor):
/// `Down`/`Up` until the cursor is on the first "Yes" option, then `Enter`.
fn dialog_key(screen: &str) -> Option<&'static str> {
    if !screen.contains("Enter to confirm") {
        return None;
    }
    let mut cursor = None;
    let mut yes = None;
    for line in screen.lines() {
        let t = line.trim_start();
        let (selected, rest) = match t.strip_prefix('❯') {
            Some(r) => (true, r.trim_start()),
            None => (false, t),
        };
        let Some((num, label)) = rest.split_once(". ") else {
            continue;
        };
        let Ok(n) = num.trim().parse::<i32>() else {
            continue;
        };
        if selected {
            cursor = Some(n);
        }
        if yes.is_none() && label.trim_start().starts_with("Yes") {
            yes = Some(n);
        }
    }
    let (cursor, yes) = (cursor?, yes?);
    Some(match yes.cmp(&cursor) {
        std::cmp::Ordering::Greater => "Down",
        std::cmp::Ordering::Less => "Up",
        std::cmp::Ordering::Equal => "Enter",
    })
}
