//! Gemini CLI's subagents (0.61.0: the `invoke_agent` tool). Each writes a chat file of its
//! own, `chats/<session id>/<subagent id>.jsonl` beside the session's, whose header says
//! `kind: "subagent"` and when it started; nothing in it names the call. Hooks inside a
//! subagent carry the session's id and chat file, and no mark of the subagent
//! (docs/hosts/gemini-cli.md).

use std::fs;
use std::path::{Path, PathBuf};

use super::session_of;

/// The folder of the subagent chats of the session whose chat file is `main`.
fn folder(main: &Path) -> Option<PathBuf> {
    Some(main.parent()?.join(session_of(main)?))
}

/// Every subagent chat of the session whose chat file is `main`, by name. None there (the
/// usual case) costs one failed directory open.
pub fn transcripts_of(main: &Path) -> Vec<PathBuf> {
    let Some(entries) = folder(main).and_then(|f| fs::read_dir(f).ok()) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    found.sort();
    found
}

/// When the subagent whose chat file is `path` started (its header's `startTime`).
pub fn started(path: &Path) -> Option<String> {
    super::header(path)
        .filter(|h| h.kind == "subagent")
        .map(|h| h.start_time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subagent_chat_sits_in_the_session_s_folder_and_says_when_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let session = "3eb9eaee-432e-42d8-9894-4604a2ba082b";
        let main = dir.path().join("session-2026-12-03T05-15-3eb9eaee.jsonl");
        assert!(transcripts_of(&main).is_empty());
        fs::write(
            &main,
            format!(r#"{{"sessionId":"{session}","startTime":"2026-12-03T05:15:20.000Z","kind":"main"}}"#)
                + "\n",
        )
        .unwrap();
        assert!(transcripts_of(&main).is_empty());
        let sub = dir
            .path()
            .join(session)
            .join("0439834a-7690-48e7-9fde-370ae58639d8.jsonl");
        fs::create_dir_all(sub.parent().unwrap()).unwrap();
        fs::write(
            &sub,
            r#"{"sessionId":"0439834a-7690-48e7-9fde-370ae58639d8","startTime":"2026-12-03T05:15:26.613Z","kind":"subagent"}"#.to_string() + "\n",
        )
        .unwrap();
        assert_eq!(transcripts_of(&main), vec![sub.clone()]);
        assert_eq!(started(&sub).as_deref(), Some("2026-12-03T05:15:26.613Z"));
        assert_eq!(started(&main), None);
    }
}
