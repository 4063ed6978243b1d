//! Subagent transcripts. Claude Code (2.1.197 and 2.1.332) writes each subagent's conversation
//! to `<session>/subagents/agent-<agent id>.jsonl` beside the session's `<session>.jsonl`, and
//! next to it `agent-<agent id>.meta.json`, whose `toolUseId` is the id of the `Agent` call
//! that started it (docs/hosts/claude-code.md, "Subagents").

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::transcript;

/// The folder of a session's subagent transcripts.
fn folder(main: &Path) -> Option<PathBuf> {
    let stem = main.file_stem()?;
    Some(main.with_file_name(stem).join("subagents"))
}

/// The transcript of subagent `agent_id` of the session whose transcript is `main`. None for
/// an id that could name another file.
pub fn transcript_of(main: &Path, agent_id: &str) -> Option<PathBuf> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if agent_id.is_empty() || !agent_id.chars().all(plain) {
        return None;
    }
    Some(folder(main)?.join(format!("agent-{agent_id}.jsonl")))
}

/// Every subagent transcript of the session whose transcript is `main`, by name. None there
/// (the usual case) costs one failed directory open.
pub fn transcripts_of(main: &Path) -> Vec<PathBuf> {
    let Some(entries) = folder(main).and_then(|f| fs::read_dir(f).ok()) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("agent-") && name.ends_with(".jsonl")
        })
        .collect();
    found.sort();
    found
}

#[derive(Deserialize)]
struct Meta {
    #[serde(rename = "toolUseId")]
    tool_use_id: String,
}

/// The detail key of the tool call that started the subagent whose transcript is `path`, from
/// the meta file beside it; None when there is none or it names no call.
pub fn spawning_call_key(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?.strip_suffix(".jsonl")?;
    let mut text = Vec::new();
    throughline_core::regular_file::open(&path.with_file_name(format!("{name}.meta.json")))
        .and_then(|mut file| std::io::Read::read_to_end(&mut file, &mut text))
        .ok()?;
    let meta: Meta = serde_json::from_slice(&text).ok()?;
    (!meta.tool_use_id.is_empty()).then(|| transcript::tool_call_key(&meta.tool_use_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subagent_transcript_sits_in_the_session_folder() {
        let main = Path::new("/home/dev/.claude/projects/-home-dev-toy/s1.jsonl");
        assert_eq!(
            transcript_of(main, "a8aa7eb1bbcf19469").unwrap(),
            Path::new("/home/dev/.claude/projects/-home-dev-toy/s1/subagents/agent-a8aa7eb1bbcf19469.jsonl")
        );
        for bad in ["", "../s2", "a/b", "a b", "..", "a.jsonl"] {
            assert_eq!(transcript_of(main, bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_meta_file_names_the_spawning_call() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("s1.jsonl");
        assert!(transcripts_of(&main).is_empty());
        let folder = dir.path().join("s1/subagents");
        fs::create_dir_all(&folder).unwrap();
        for name in [
            "agent-b.jsonl",
            "agent-a.jsonl",
            "agent-a.meta.json",
            "notes.txt",
        ] {
            fs::write(folder.join(name), "").unwrap();
        }
        let found = transcripts_of(&main);
        assert_eq!(
            found,
            [folder.join("agent-a.jsonl"), folder.join("agent-b.jsonl")]
        );

        // An empty, broken or foreign meta file links nothing; a missing one neither.
        for text in ["", "{", r#"{"toolUseId":""}"#, r#"{"toolUseId":7}"#] {
            fs::write(folder.join("agent-a.meta.json"), text).unwrap();
            assert_eq!(spawning_call_key(&found[0]), None, "{text:?}");
        }
        assert_eq!(spawning_call_key(&found[1]), None);
        fs::write(
            folder.join("agent-a.meta.json"),
            r#"{"agentType":"general-purpose","toolUseId":"toolu_01","spawnDepth":1}"#,
        )
        .unwrap();
        assert_eq!(
            spawning_call_key(&found[0]),
            Some(transcript::tool_call_key("toolu_01"))
        );
    }
}
