//! Claude Code: hook payloads, transcript lines, and where transcripts live.

pub mod install;
mod payload;
mod persisted;
pub mod pricing;
pub mod process;
mod status;
pub mod subagents;
mod tools;
mod transcript;
pub mod window;

use std::fs;
use std::path::{Path, PathBuf};

pub use payload::{decode_hook, encode_reply};
pub use status::{decode_status, StatusInput};
pub use transcript::TranscriptParser;

use super::{Agent, CompactRule, CompactionPoint, Found, Spec};
use throughline_core::model::Host;
use throughline_core::model::TaskChange;
use throughline_core::record::{
    FoundTranscript, HostProcess, InjectionLimit, Measure, SubagentRef,
};

/// Claude Code, to the shared code.
pub struct ClaudeCode;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("claude");

/// Claude Code cuts `additionalContext` past 10,000 characters as JavaScript counts them.
const INJECTION_LIMIT: InjectionLimit = InjectionLimit {
    max: 9_500,
    measure: Measure::Utf16,
};

/// Tokens below the end of the window where Claude Code compacts by itself when no threshold
/// is set: it keeps up to 20,000 for the answer and compacts 13,000 before that
/// (docs/hosts/claude-code.md, "Compaction"): a 200k window at 167k, 83.5%.
const OWN_COMPACTION_MARGIN: u64 = 33_000;

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &["claude-code"],
    name: "Claude Code",
    handoff_command: "/tl",
    injection_limit: INJECTION_LIMIT,
    memory_at_session_start: true,
    memory_parts: 2,
    memory_parts_in_one_output: false,
    context_with_prompt: true,
    reports_usage: true,
    tools: Some(tools::TOOLS),
    clear_starts_as_new: false,
    compaction_stop_ends_turn: false,
    installer: install::INSTALLER,
    decode_hook,
    encode_reply,
    line_parser: |path| Box::new(TranscriptParser::for_transcript(path)),
    // Pinned in hook-cli/tests/claude-code: the newest release and the oldest supported.
    tested_releases: Some(crate::release::TestedReleases {
        program: "claude",
        also_at: &[".local/bin/claude", ".claude/local/claude"],
        oldest: "2.1.197",
        newest: "2.1.337",
        update: "claude update",
    }),
};

impl Agent for ClaudeCode {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn compaction_point(
        &self,
        window: u64,
        threshold: Option<u8>,
        client_version: Option<&str>,
    ) -> CompactionPoint {
        match threshold {
            Some(percent) => CompactionPoint {
                tokens: (window * u64::from(percent.clamp(1, 100)) / 100).max(1),
                rule: CompactRule::Threshold,
            },
            None => {
                let own = window::own_compaction_window(window, client_version);
                CompactionPoint {
                    // A window too small for the margin (never seen) counts whole.
                    tokens: match own.checked_sub(OWN_COMPACTION_MARGIN) {
                        Some(tokens) if tokens >= own / 2 => tokens,
                        _ => own.max(1),
                    },
                    rule: CompactRule::Client,
                }
            }
        }
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        projects_dir()
    }
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        find_transcripts(root)
    }
    fn owner_process(&self) -> Option<HostProcess> {
        process::owner()
    }
    fn owner_session(&self) -> Option<String> {
        process::owner_session()
    }
    fn subagent_transcript(&self, main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
        match &subagent.transcript_path {
            Some(path) => Some(PathBuf::from(path)),
            None => subagents::transcript_of(main, &subagent.agent_id),
        }
    }
    fn subagent_transcripts(&self, main: &Path) -> Vec<PathBuf> {
        subagents::transcripts_of(main)
    }
    fn spawning_call_key(&self, path: &Path) -> Option<String> {
        subagents::spawning_call_key(path)
    }
    fn task_tools(&self) -> &'static [&'static str] {
        tools::TASK_TOOLS
    }
    fn task_change(&self, tool: &str, input: &str, result: Option<&str>) -> Option<TaskChange> {
        tools::task_change(tool, input, result)
    }
    fn is_interruption(&self, result: &str) -> bool {
        result.starts_with(transcript::INTERRUPTED) || result.starts_with(transcript::REFUSED)
    }
}

/// `$CLAUDE_CONFIG_DIR`, else `~/.claude`: user settings, commands and transcripts.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os("CLAUDE_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".claude")))
}

/// `~/.claude.json` (inside `$CLAUDE_CONFIG_DIR` when set): the client's own state, where
/// `claude mcp add --scope user` registers MCP servers.
pub fn state_file() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join(".claude.json")),
        None => dirs::home_dir().map(|h| h.join(".claude.json")),
    }
}

/// `~/.claude/projects`, where Claude Code writes one folder of transcripts per project.
pub fn projects_dir() -> Option<PathBuf> {
    Some(config_dir()?.join("projects"))
}

/// Every main transcript (`<project>/<session id>.jsonl`) under `root`, oldest first.
pub fn find_transcripts(root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
    let Some(root) = root.or_else(projects_dir) else {
        return Ok(Vec::new());
    };
    let mut found = Found::default();
    for project in fs::read_dir(&root)? {
        let project = project?.path();
        if !project.is_dir() {
            continue;
        }
        for entry in fs::read_dir(&project)? {
            let path = entry?.path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let session_id = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            found.add(session_id, path);
        }
    }
    Ok(found.oldest_first())
}
