//! Cursor: hook payloads, agent transcripts and where they live, built from Cursor's
//! documentation (no client could be run here). Facts and their sources:
//! `docs/hosts/cursor.md`.

pub mod install;
mod payload;
mod transcript;

use std::fs;
use std::path::{Component, Path, PathBuf};

pub use payload::{decode_hook, encode_reply};
pub use transcript::TranscriptParser;

use super::{transcripts_root, Agent, Found, Spec};
use throughline_core::model::Host;
use throughline_core::record::{
    FoundTranscript, HostProcess, InjectionLimit, Measure, SubagentRef,
};

/// Cursor, to the shared code.
pub struct Cursor;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("cursor");

/// Cursor documents no cap on `additional_context`; the memory keeps the budget it has on
/// the other hosts, counted as JavaScript counts.
const INJECTION_LIMIT: InjectionLimit = InjectionLimit {
    max: 9_500,
    measure: Measure::Utf16,
};

// Cursor hands hooks no session id in their environment (only in the payload).

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &[],
    name: "Cursor",
    // `/tl` as the prompt (typed, or from `commands/tl.md`): beforeSubmitPrompt stops it.
    handoff_command: "/tl",
    injection_limit: INJECTION_LIMIT,
    // sessionStart's `additional_context` is the only context a hook can add.
    memory_at_session_start: true,
    memory_parts: 1,
    memory_parts_in_one_output: false,
    // beforeSubmitPrompt's output has no field for context: a handoff goes in at the new
    // chat's sessionStart.
    context_with_prompt: false,
    // Cursor's transcripts and hooks carry no token counts.
    reports_usage: false,
    tools: None,
    clear_starts_as_new: false,
    compaction_stop_ends_turn: false,
    installer: install::INSTALLER,
    decode_hook,
    encode_reply,
    line_parser: |_| Box::new(TranscriptParser),
    // Its CLI is in no registry the end-to-end suites can install from.
    tested_releases: None,
};

impl Agent for Cursor {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn claims(&self, payload: &[u8]) -> bool {
        payload::has_cursor_version(payload)
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        Some(home()?.join("projects"))
    }
    /// `projects/<workspace>/agent-transcripts/<id>/<id>.jsonl` (and `<id>.jsonl` directly
    /// under `agent-transcripts`); subagents' transcripts in `<id>/subagents/` are not
    /// sessions of their own.
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        let Some(root) = transcripts_root(self, root) else {
            return Ok(Vec::new());
        };
        let mut found = Found::default();
        for project in fs::read_dir(&root)? {
            let Ok(entries) = fs::read_dir(project?.path().join("agent-transcripts")) else {
                continue;
            };
            for entry in entries {
                let path = entry?.path();
                let transcript = if path.is_dir() {
                    match path.file_name() {
                        Some(id) => path.join(Path::new(id).with_extension("jsonl")),
                        None => continue,
                    }
                } else {
                    path
                };
                if transcript.extension().is_none_or(|e| e != "jsonl") {
                    continue;
                }
                let session_id = transcript.file_stem().and_then(|s| s.to_str());
                found.add(session_id.map(str::to_string), transcript.clone());
            }
        }
        Ok(found.oldest_first())
    }
    /// The workspace a transcript's `projects/<folder>` names. The folder is the workspace's
    /// path with every character but letters and digits as `-` (*reported*), which cannot be
    /// read back alone: the folders on disk that give that name are looked for.
    fn workspace_of(&self, path: &Path) -> Option<String> {
        let folder = transcripts_folder(path)?.parent()?.file_name()?.to_str()?;
        let found = folder_named(Path::new("/"), folder)?;
        Some(found.to_string_lossy().into_owned())
    }
    /// The transcript `subagentStop` names, when it is another of the workspace's transcripts
    /// (*reported*: in `<id>/subagents/`): a payload makes the hook read no file elsewhere.
    /// The turn open in the session when the subagent stopped is the one whose Task call
    /// started it: Cursor's transcripts name no call and no time.
    fn subagent_transcript(&self, main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
        let path = PathBuf::from(subagent.transcript_path.as_ref()?);
        let inside = path.starts_with(transcripts_folder(main)?)
            && !path.components().any(|c| c == Component::ParentDir);
        (inside && path != main).then_some(path)
    }
    /// Cursor sends no `/clear`: a new chat is linked to an old one only by a handoff, so the
    /// process a hook runs under is never needed.
    fn owner_process(&self) -> Option<HostProcess> {
        None
    }
}

/// The workspace's `agent-transcripts` folder a transcript is in.
fn transcripts_folder(path: &Path) -> Option<&Path> {
    path.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "agent-transcripts"))
}

/// The folder under `dir` whose path below it Cursor names `name` (`home-dev-my-app` for
/// `home/dev/my.app`), trying each entry whose name fits the start of `name`.
fn folder_named(dir: &Path, name: &str) -> Option<PathBuf> {
    if name.is_empty() {
        return Some(dir.to_path_buf());
    }
    for entry in fs::read_dir(dir).ok()?.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let entry_name = entry.file_name();
        let Some(entry_name) = entry_name.to_str() else {
            continue;
        };
        let slug: String = entry_name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let rest = match name.strip_prefix(slug.as_str()) {
            Some("") => "",
            Some(rest) => match rest.strip_prefix('-') {
                Some(rest) => rest,
                None => continue,
            },
            None => continue,
        };
        if let Some(found) = folder_named(&entry.path(), rest) {
            return Some(found);
        }
    }
    None
}

/// `~/.cursor`: hooks, commands, MCP servers and transcripts.
pub fn home() -> Option<PathBuf> {
    dirs::home_dir().map(|h| h.join(".cursor"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_is_found_from_the_folder_cursor_names_it_by() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("home/dev/my.app/src")).unwrap();
        fs::create_dir_all(root.join("home/dev/my")).unwrap();
        fs::create_dir_all(root.join("home/dev-tools")).unwrap();
        fs::write(root.join("home/dev/notes"), "").unwrap();
        assert_eq!(
            folder_named(root, "home-dev-my-app"),
            Some(root.join("home/dev/my.app"))
        );
        assert_eq!(
            folder_named(root, "home-dev-tools"),
            Some(root.join("home/dev-tools"))
        );
        assert_eq!(
            folder_named(root, "home-dev-my"),
            Some(root.join("home/dev/my"))
        );
        assert_eq!(
            folder_named(root, "home-dev-notes"),
            None,
            "a file is no workspace"
        );
        assert_eq!(folder_named(root, "home-dev-gone"), None);
        // The folder comes from the transcript's place.
        let transcript = PathBuf::from("/x/.cursor/projects/tmp/agent-transcripts/a/a.jsonl");
        assert_eq!(Cursor.workspace_of(&transcript).as_deref(), Some("/tmp"));
        assert_eq!(Cursor.workspace_of(Path::new("/x/a.jsonl")), None);
    }

    #[test]
    fn a_subagent_transcript_is_read_only_among_the_workspace_s() {
        let transcripts = Path::new("/h/.cursor/projects/w/agent-transcripts");
        let main = transcripts.join("c/c.jsonl");
        let named = |path: &str| {
            let subagent = SubagentRef {
                agent_id: "s".into(),
                transcript_path: Some(path.into()),
            };
            Cursor.subagent_transcript(&main, &subagent)
        };
        let own = transcripts.join("c/subagents/s.jsonl");
        assert_eq!(named(own.to_str().unwrap()), Some(own));
        for elsewhere in [
            "/h/.ssh/id_ed25519",
            "/h/.cursor/projects/other/agent-transcripts/c/subagents/s.jsonl",
            "/h/.cursor/projects/w/agent-transcripts/../../../../.ssh/id_ed25519",
            "/h/.cursor/projects/w/agent-transcripts/c/c.jsonl",
            "subagents/s.jsonl",
        ] {
            assert_eq!(named(elsewhere), None, "{elsewhere}");
        }
        let unnamed = SubagentRef::unnamed();
        assert_eq!(Cursor.subagent_transcript(&main, &unnamed), None);
    }

    #[test]
    fn transcripts_are_found_per_workspace_by_their_id() {
        let root = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/cursor/projects"
        ));
        let found = Cursor.find_transcripts(Some(root)).unwrap();
        assert_eq!(found.len(), 1, "subagents are not sessions: {found:?}");
        assert_eq!(found[0].session_id, "c5b3e3f1-6a3e-4a8e-9d53-0e2f7c1a9b10");
        let dir = tempfile::tempdir().unwrap();
        let flat = dir.path().join("w/agent-transcripts");
        fs::create_dir_all(flat.join("empty-dir")).unwrap();
        fs::write(flat.join("abc.jsonl"), "{}\n").unwrap();
        fs::write(flat.join("old.txt"), "user: hi\n").unwrap();
        fs::create_dir_all(dir.path().join("no-transcripts")).unwrap();
        let found = Cursor.find_transcripts(Some(dir.path().into())).unwrap();
        assert_eq!(
            found
                .iter()
                .map(|t| t.session_id.as_str())
                .collect::<Vec<_>>(),
            ["abc"]
        );
        assert!(Cursor
            .find_transcripts(Some(dir.path().join("none")))
            .unwrap()
            .is_empty());
    }
}
