//! Tool output too large for the transcript. Claude Code (2.1.197 and 2.1.333) writes an output
//! over its limit (about 30 KB) to `<session>/tool-results/<id>.txt` beside the session's
//! transcript and puts only a 2 KB preview in the transcript line:
//! `<persisted-output>\nOutput too large (30.3KB). Full output saved to: <path>\n\nPreview …`
//! (docs/hosts/claude-code.md, "Large tool output"). The whole output is what is stored.

use std::io::Read;
use std::path::{Path, PathBuf};

const OPEN: &str = "<persisted-output>";
const SAVED_TO: &str = "saved to: ";
/// A saved output past this is stored up to it: a hook reads a bounded amount.
const MAX_BYTES: u64 = 16 << 20;

/// The folder of saved outputs for a transcript: the session's own folder, also for a
/// subagent's transcript (`<session>/subagents/agent-<id>.jsonl`), whose outputs the client
/// saves with its session's.
pub fn folder_of(transcript: &Path) -> Option<PathBuf> {
    let parent = transcript.parent()?;
    let session = if parent.file_name().is_some_and(|n| n == "subagents") {
        parent.parent()?.to_path_buf()
    } else {
        transcript.with_extension("")
    };
    Some(session.join("tool-results"))
}

/// The whole output a preview `body` stands for, read from `folder`. Only the file name of the
/// path the preview states is used, so nothing outside the session's folder is read (a moved
/// or imported folder still is); None when `body` is not a preview or the file cannot be read,
/// and the preview is kept.
pub fn full_output(folder: &Path, body: &str) -> Option<String> {
    let head = body.strip_prefix(OPEN)?.trim_start();
    let first_line = head.lines().next()?;
    let stated = &first_line[first_line.find(SAVED_TO)? + SAVED_TO.len()..];
    let name = Path::new(stated.trim()).file_name()?.to_str()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.starts_with('.') || !name.chars().all(plain) {
        return None;
    }
    let file = throughline_core::regular_file::open(&folder.join(name)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES).read_to_end(&mut bytes).ok()?;
    Some(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preview(path: &str) -> String {
        format!(
            "{OPEN}\nOutput too large (30.3KB). Full output saved to: {path}\n\nPreview (first 2KB):\nline 1\n...\n</persisted-output>"
        )
    }

    #[test]
    fn the_saved_output_of_a_session_or_its_subagent_is_read_from_the_sessions_folder() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("s1");
        std::fs::create_dir_all(session.join("tool-results")).unwrap();
        std::fs::write(session.join("tool-results/b1.txt"), "the whole output\n").unwrap();
        let main = dir.path().join("s1.jsonl");
        let subagent = session.join("subagents/agent-a1.jsonl");
        for transcript in [&main, &subagent] {
            let folder = folder_of(transcript).unwrap();
            assert_eq!(folder, session.join("tool-results"));
            // The stated path may name another machine's folder: only its file name counts.
            let body = preview("/Users/someone/.claude/projects/p/s1/tool-results/b1.txt");
            assert_eq!(
                full_output(&folder, &body).as_deref(),
                Some("the whole output\n")
            );
        }
    }

    #[test]
    fn a_preview_keeps_when_its_file_is_gone_or_names_something_else() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("tool-results");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(dir.path().join("secret.txt"), "not an output").unwrap();
        std::fs::write(folder.join(".hidden"), "not an output").unwrap();
        for body in [
            preview("/x/tool-results/missing.txt"),
            preview("/x/tool-results/.hidden"),
            preview("/x/tool-results/.."),
            preview(""),
            "Output too large. Full output saved to: /x/b1.txt".to_string(),
        ] {
            assert_eq!(full_output(&folder, &body), None, "{body}");
        }
    }

    #[test]
    fn a_saved_output_is_read_up_to_its_bound_and_invalid_utf8_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b2.txt"), b"ok \xff end").unwrap();
        let body = preview("/x/b2.txt");
        assert_eq!(
            full_output(dir.path(), &body).as_deref(),
            Some("ok \u{fffd} end")
        );
    }
}
