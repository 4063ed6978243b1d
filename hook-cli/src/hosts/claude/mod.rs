//! Claude Code: hook payloads, transcript lines, and where transcripts live.

mod payload;
pub mod process;
mod status;
mod transcript;
pub mod version;

use std::fs;
use std::path::PathBuf;

pub use payload::{decode_hook, encode_reply};
pub use status::{decode_status, StatusInput};
pub use transcript::TranscriptParser;

use crate::record::FoundTranscript;

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
    let mut found = Vec::new();
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
            let (Some(stem), Ok(meta)) = (path.file_stem(), fs::metadata(&path)) else {
                continue;
            };
            found.push((
                meta.modified().ok(),
                FoundTranscript {
                    session_id: stem.to_string_lossy().into_owned(),
                    bytes: meta.len(),
                    path,
                },
            ));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.path.cmp(&b.1.path)));
    Ok(found.into_iter().map(|(_, t)| t).collect())
}
