//! Codex CLI: hook payloads, rollout lines, where rollouts live, and the `codex` process a
//! hook runs under. Facts per release: `docs/hosts/codex.md`.

pub mod install;
mod payload;
mod rollout;
mod subagents;
mod tools;

use std::fs;
use std::path::{Path, PathBuf};

pub use payload::{decode_hook, encode_reply};
pub use rollout::RolloutParser;

use super::{transcripts_root, Agent, Found, Spec};
use crate::process::{command_name, nearest_ancestor};
use throughline_core::model::Host;
use throughline_core::record::{
    FoundTranscript, HostProcess, InjectionLimit, Measure, SubagentRef,
};

/// Codex, to the shared code.
pub struct Codex;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("codex");

/// Codex cuts a hook's `additionalContext` past 10,000 bytes of UTF-8 (0.171.0); the margin
/// leaves room for a client that counts a little differently.
const INJECTION_LIMIT: InjectionLimit = InjectionLimit {
    max: 9_500,
    measure: Measure::Utf8,
};

/// The name of the executable that runs hooks (the npm package's `codex` binary; the
/// `codex.js` launcher above it is `node`).
const PROCESS_NAME: &str = "codex";

// Codex names no session for a process; `throughline handoff` takes `--session`.

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &[],
    name: "Codex",
    // The TUI refuses slash commands it does not know and has no custom prompts; a skill
    // mention reaches the UserPromptSubmit hook as typed, before any request (0.171.0).
    handoff_command: "$tl",
    injection_limit: INJECTION_LIMIT,
    memory_at_session_start: true,
    // SessionStart's context goes in before the prompt and UserPromptSubmit's after it, each
    // a message of its own in the same first request (0.171.0; decision 0145).
    memory_parts: 2,
    memory_parts_in_one_output: false,
    context_with_prompt: true,
    reports_usage: true,
    tools: Some(tools::TOOLS),
    clear_starts_as_new: false,
    // A PreCompact `continue: false` interrupts the turn (0.171.0; docs/hosts/codex.md).
    compaction_stop_ends_turn: true,
    installer: install::INSTALLER,
    decode_hook,
    encode_reply,
    line_parser: |_| Box::new(RolloutParser::default()),
    // Pinned in hook-cli/tests/codex.
    tested_releases: Some(crate::release::TestedReleases {
        program: "codex",
        also_at: &[],
        oldest: "0.171.0",
        newest: "0.171.0",
        update: "npm install -g @openai/codex",
    }),
};

impl Agent for Codex {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        Some(home()?.join("sessions"))
    }
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        let Some(root) = transcripts_root(self, root) else {
            return Ok(Vec::new());
        };
        let mut found = Found::default();
        collect_rollouts(&root, 0, &mut found)?;
        Ok(found.oldest_first())
    }
    /// The `codex` process nearest above the hook: a `/clear` stays in it, a second window is
    /// another one. Hooks run by the shared background server (`codex app-server`) have the
    /// same parent in every window: no process can tell the windows apart, so there is none
    /// (decision 0032).
    fn owner_process(&self) -> Option<HostProcess> {
        let owner = nearest_ancestor(|pid| command_name(pid).as_deref() == Some(PROCESS_NAME))?;
        let args = std::fs::read(format!("/proc/{}/cmdline", owner.pid)).ok()?;
        (!is_shared_server(&args)).then_some(owner)
    }
    /// The commands the model runs get the session id in `CODEX_SESSION_ID` (0.171.0 also
    /// sets the same id as `CODEX_THREAD_ID`).
    fn owner_session(&self) -> Option<String> {
        ["CODEX_SESSION_ID", "CODEX_THREAD_ID"]
            .into_iter()
            .find_map(|name| std::env::var(name).ok().filter(|id| !id.is_empty()))
    }
    fn subagent_transcript(&self, main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
        subagents::transcript_of(main, subagent)
    }
    fn subagent_transcripts(&self, main: &Path) -> Vec<PathBuf> {
        subagents::transcripts_of(main)
    }
    fn spawned_at(&self, path: &Path) -> Option<String> {
        subagents::meta(path).map(|m| m.started)
    }
}

/// Whether a `codex` command line (NUL-separated) runs the app server that every TUI window
/// of the user shares.
fn is_shared_server(cmdline: &[u8]) -> bool {
    cmdline.split(|&b| b == 0).nth(1) == Some(b"app-server")
}

/// `$CODEX_HOME`, else `~/.codex`: configuration, hooks and rollouts.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".codex")))
}

/// Rollouts sit in `YYYY/MM/DD/` below `sessions/`; deeper folders are not Codex's.
const DEPTH: usize = 3;

fn collect_rollouts(dir: &Path, depth: usize, found: &mut Found) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if depth < DEPTH {
                collect_rollouts(&path, depth + 1, found)?;
            }
            continue;
        }
        // A subagent's rollout is read with its session's, never as a session of its own.
        if subagents::meta(&path).is_none() {
            found.add(session_of(&path), path);
        }
    }
    Ok(())
}

/// The session id a rollout's name ends with (`rollout-<time>-<uuid>.jsonl`): the id hooks
/// are sent with.
fn session_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_prefix("rollout-")?.strip_suffix(".jsonl")?;
    const UUID: usize = 36;
    let id = stem.get(stem.len().checked_sub(UUID)?..)?;
    let dashes: Vec<usize> = id.match_indices('-').map(|(i, _)| i).collect();
    (dashes == [8, 13, 18, 23] && id.chars().all(|c| c == '-' || c.is_ascii_hexdigit()))
        .then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_server_is_no_window_s_process() {
        let daemon = b"/home/me/.codex/packages/app-server-daemon/releases/0.171.0/bin/codex\0app-server\0--listen\0unix://\0--managed-daemon\0";
        assert!(is_shared_server(daemon));
        assert!(!is_shared_server(
            b"/usr/lib/codex/bin/codex\0--no-alt-screen\0"
        ));
        assert!(!is_shared_server(
            b"/usr/lib/codex/bin/codex\0exec\0app-server\0"
        ));
        assert!(!is_shared_server(b"codex\0"));
    }

    #[test]
    fn rollouts_are_found_by_day_with_the_session_id_from_their_name() {
        let dir = tempfile::tempdir().unwrap();
        let day = dir.path().join("2026/11/30");
        fs::create_dir_all(&day).unwrap();
        let id = "01a22ba6-a25c-7110-8548-5c0daa3cbefe";
        fs::write(
            day.join(format!("rollout-2026-11-30T08-51-10-{id}.jsonl")),
            "{}\n",
        )
        .unwrap();
        fs::write(day.join("rollout-2026-11-30T08-51-10-short.jsonl"), "").unwrap();
        fs::write(day.join("notes.jsonl"), "").unwrap();
        let found = Codex.find_transcripts(Some(dir.path().into())).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].session_id, id);
        assert_eq!(found[0].bytes, 3);
        let missing = Codex
            .find_transcripts(Some(dir.path().join("none")))
            .unwrap();
        assert!(missing.is_empty());
    }
}
