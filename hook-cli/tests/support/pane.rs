//! A terminal program in a detached tmux server of its own (`tmux -L <name>`, socket under a
//! test's temp dir), killed with its process group when dropped: what the Codex and Gemini
//! TUI drivers share. Claude Code's driver ([`super::tmux`]) also counts its turns.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The tmux session every pane runs in.
const TARGET: &str = "tl";

pub struct Pane {
    socket: String,
    root: PathBuf,
    /// How long [`Pane::wait_screen`] waits.
    timeout: Duration,
}

impl Pane {
    /// Starts the shell line `command` in `cwd` on a `width` × 50 screen, in the tmux server
    /// `name` (unique per test process) with its socket under `root`.
    pub fn start(
        name: &str,
        root: &Path,
        cwd: &Path,
        width: u32,
        command: &str,
        timeout: Duration,
    ) -> Pane {
        let pane = Pane {
            socket: format!("{name}-{}", std::process::id()),
            root: root.to_path_buf(),
            timeout,
        };
        let out = pane
            .tmux()
            .args(["new-session", "-d", "-s", TARGET, "-x", &width.to_string()])
            .args(["-y", "50", "-c"])
            .arg(cwd)
            .arg(command)
            .output()
            .expect("run tmux (is it installed?)");
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        pane
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.env("TMUX_TMPDIR", &self.root)
            .arg("-L")
            .arg(&self.socket);
        cmd
    }

    pub fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", TARGET])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Presses `keys` (tmux key names: `Up`, `Enter`, `Escape`; text; `-l` then literal text).
    pub fn keys(&self, keys: &[&str]) {
        self.tmux()
            .args(["send-keys", "-t", TARGET])
            .args(keys)
            .status()
            .unwrap();
    }

    /// Pastes `text` as a bracketed paste.
    pub fn paste(&self, text: &str) {
        self.tmux()
            .args(["set-buffer", "--", text])
            .status()
            .unwrap();
        self.tmux()
            .args(["paste-buffer", "-p", "-t", TARGET])
            .status()
            .unwrap();
    }

    /// Waits until the screen shows `needle`; on time-out the error shows the screen.
    pub fn wait_screen(&self, needle: &str) {
        if !self.shows_within(|screen| screen.contains(needle), self.timeout) {
            panic!(
                "timed out waiting for {needle:?} on the screen:\n{}",
                self.screen()
            );
        }
    }

    /// Whether the screen comes to pass `done` within `limit`.
    pub fn shows_within(&self, done: impl Fn(&str) -> bool, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if done(&self.screen()) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }
}

impl Drop for Pane {
    /// A client can outlive its tmux server (and keep its MCP server running): its process
    /// group, led by the pane's process, goes first.
    fn drop(&mut self) {
        let pane = self
            .tmux()
            .args(["list-panes", "-t", TARGET, "-F", "#{pane_pid}"])
            .output();
        let leader = pane.ok().and_then(|out| {
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse::<u32>()
                .ok()
        });
        if let Some(pid) = leader {
            end_process_group(pid);
        }
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// How long a client gets to exit once asked.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// Asks the process group led by `leader` to end and waits, a few seconds at most, for all of
/// it to be gone: a client writes its settings as it exits, and must not do so into a test's
/// folder after the folder was removed.
pub fn end_process_group(leader: u32) {
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{leader}")])
        .status();
    let deadline = Instant::now() + EXIT_GRACE;
    while Instant::now() < deadline && group_running(leader) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a process of group `group` has not exited yet (a zombie has).
fn group_running(group: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // After the command name (in parentheses): state, parent, process group.
        let fields: Vec<&str> = stat
            .rsplit_once(") ")
            .map_or(Vec::new(), |(_, rest)| rest.split(' ').take(3).collect());
        matches!(fields.as_slice(), [state, _, pgrp]
            if *pgrp == group.to_string() && !matches!(*state, "Z" | "X"))
    })
}

/// `path` quoted for a shell line.
pub fn sh(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}
