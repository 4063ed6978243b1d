//! Grok (Grok Build, the `grok` CLI): hook payloads, chat files, where sessions live, and the
//! process a hook runs under. Checked on Grok 1.0.6 driven offline: `docs/hosts/grok.md`.

mod chat;
pub mod install;
mod payload;
mod tools;

use std::fs;
use std::path::{Path, PathBuf};

pub use chat::ChatParser;
pub use payload::{decode_hook, encode_reply, is_grok_envelope};

use super::{transcripts_root, Agent, Found, Spec};
use crate::process::{command_name, nearest_ancestor};
use throughline_core::model::Host;
use throughline_core::record::{FoundTranscript, HostProcess, InjectionLimit, Measure};

/// Grok, to the shared code.
pub struct Grok;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("grok");

/// Grok documents no cap on hook output; its source keeps 64 KiB of it and 10,000 characters
/// of each feedback entry (`payload::FEEDBACK_ENTRY_CHARS`). A memory part keeps the budget of
/// the other hosts, counted in bytes as a Rust program counts, so each fits an entry.
const INJECTION_LIMIT: InjectionLimit = InjectionLimit {
    max: 9_500,
    measure: Measure::Utf8,
};

/// The file of each session the model's messages are kept in.
const CHAT_FILE: &str = "chat_history.jsonl";

/// Grok sends what the person typed inside these marks, in the chat file and to the prompt
/// hook alike, with what it adds after them (a skill's text, `<skill_information>`).
const QUERY_OPEN: &str = "<user_query>";
const QUERY_CLOSE: &str = "</user_query>";

/// What the person typed, and what Grok added around it, of a prompt Grok wrapped in
/// `<user_query>`; a text without the marks is all the person's.
fn typed(text: &str) -> (String, Option<String>) {
    let inner = text.trim_start().strip_prefix(QUERY_OPEN).and_then(|rest| {
        let end = rest.find(QUERY_CLOSE)?;
        Some((&rest[..end], rest[end + QUERY_CLOSE.len()..].trim()))
    });
    match inner {
        Some((query, added)) => (
            query.trim_matches('\n').to_string(),
            (!added.is_empty()).then(|| added.to_string()),
        ),
        None => (text.to_string(), None),
    }
}

/// Longest folder name Grok gives a working directory as it is; a longer one is hashed.
const MAX_DIRNAME_BYTES: usize = 255;

// A subagent's session is a session of its own in the same tree, read (and imported) as
// one.

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &[],
    name: "Grok",
    // A skill (`skills/tl/SKILL.md`): Grok cannot block a prompt, so the model runs
    // `throughline handoff` itself; the prompt hook, seeing `/tl`, offers the handoff too.
    handoff_command: "/tl",
    injection_limit: INJECTION_LIMIT,
    memory_at_session_start: false,
    // The one Stop answer takes both parts, in its block reason and its context (decision
    // 0149).
    memory_parts: 2,
    memory_parts_in_one_output: true,
    // Grok ignores a prompt hook's stdout; a Stop hook's `additionalContext` reaches the
    // model, so the memory goes in when the new session's first turn ends.
    context_with_prompt: false,
    // The chat file holds no token counts (they are in `signals.json`, whose format Grok does
    // not document): a gauge says the use is unknown.
    reports_usage: false,
    tools: Some(tools::TOOLS),
    // `/new` (alias `/clear`) starts a session as a launch does (1.0.6).
    clear_starts_as_new: true,
    compaction_stop_ends_turn: false,
    installer: install::INSTALLER,
    decode_hook,
    encode_reply,
    line_parser: |_| Box::new(ChatParser),
    // No release of it is driven by the end-to-end suites.
    tested_releases: None,
};

impl Agent for Grok {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn claims(&self, payload: &[u8]) -> bool {
        is_grok_envelope(payload)
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        Some(home()?.join("sessions"))
    }
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        let Some(root) = transcripts_root(self, root) else {
            return Ok(Vec::new());
        };
        let mut found = Found::default();
        for group in fs::read_dir(&root)? {
            let group = group?.path();
            let Ok(sessions) = fs::read_dir(&group) else {
                continue;
            };
            for session in sessions {
                let dir = session?.path();
                let path = dir.join(CHAT_FILE);
                let session_id = dir.file_name().and_then(|n| n.to_str()).map(str::to_string);
                found.add(session_id, path);
            }
        }
        Ok(found.oldest_first())
    }
    /// The working directory is the name of the folder the session's folder is in
    /// (URL-encoded), or, for a long one, the `.cwd` file Grok writes there.
    fn workspace_of(&self, path: &Path) -> Option<String> {
        let group = path.parent()?.parent()?;
        if let Ok(cwd) = fs::read_to_string(group.join(".cwd")) {
            return Some(cwd.trim_end_matches('\n').to_string());
        }
        let cwd = url_decode(group.file_name()?.to_str()?)?;
        cwd.starts_with('/').then_some(cwd)
    }
    /// The `grok` process nearest above the hook.
    fn owner_process(&self) -> Option<HostProcess> {
        nearest_ancestor(|pid| command_name(pid).as_deref() == Some("grok"))
    }
    /// Grok sets `GROK_SESSION_ID` for every hook it runs.
    fn owner_session(&self) -> Option<String> {
        std::env::var("GROK_SESSION_ID")
            .ok()
            .filter(|id| !id.is_empty())
    }
}

/// `$GROK_HOME`, else `~/.grok`: hooks, skills and sessions.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("GROK_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".grok")))
}

/// A session's chat file: beside the transcript a payload names (`updates.jsonl`), else in
/// the session's folder under its working directory.
fn chat_file(transcript: Option<&str>, cwd: Option<&str>, session_id: &str) -> Option<PathBuf> {
    if let Some(dir) = transcript.and_then(|t| Path::new(t).parent()) {
        return Some(dir.join(CHAT_FILE));
    }
    let sessions = home()?.join("sessions");
    let encoded = url_encode(cwd.filter(|c| !c.is_empty())?);
    if encoded.len() <= MAX_DIRNAME_BYTES {
        return Some(sessions.join(encoded).join(session_id).join(CHAT_FILE));
    }
    // A long working directory has a hashed folder: the session's id finds it.
    fs::read_dir(&sessions)
        .ok()?
        .filter_map(Result::ok)
        .map(|group| group.path().join(session_id).join(CHAT_FILE))
        .find(|path| path.is_file())
}

/// Every byte but ASCII letters, digits and `-_.~` as `%XX`: how Grok names a working
/// directory's folder.
fn url_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn url_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_words_are_taken_out_of_grok_s_marks() {
        assert_eq!(
            typed("<user_query>\nCount the files\n</user_query>"),
            ("Count the files".to_string(), None)
        );
        let (query, added) = typed(
            "<user_query>\n/tl\n</user_query>\n<skill_information>\nRun it\n</skill_information>",
        );
        assert_eq!(query, "/tl");
        assert_eq!(
            added.as_deref(),
            Some("<skill_information>\nRun it\n</skill_information>")
        );
        assert_eq!(typed("plain words"), ("plain words".to_string(), None));
        assert_eq!(
            typed("<user_query> never closed"),
            ("<user_query> never closed".to_string(), None)
        );
    }

    #[test]
    fn working_directories_are_named_as_grok_names_them() {
        assert_eq!(url_encode("/home/dev/my proj"), "%2Fhome%2Fdev%2Fmy%20proj");
        assert_eq!(url_encode("/a/ü-1.x_~"), "%2Fa%2F%C3%BC-1.x_~");
        for cwd in ["/home/dev/my proj", "/a/ü-1.x_~", "/"] {
            assert_eq!(url_decode(&url_encode(cwd)).as_deref(), Some(cwd));
        }
        assert_eq!(url_decode("%2"), None);
        assert_eq!(url_decode("%zz"), None);
    }

    #[test]
    fn sessions_are_found_with_their_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        let group = dir.path().join("%2Fhome%2Fdev%2Fproj");
        fs::create_dir_all(group.join("s-1")).unwrap();
        fs::write(group.join("s-1").join(CHAT_FILE), "{}\n").unwrap();
        // A session that wrote no chat yet, and a stray file.
        fs::create_dir_all(group.join("s-2")).unwrap();
        fs::write(group.join("prompt_history.jsonl"), "").unwrap();
        let long = dir.path().join("very-long-slug-0123456789abcdef");
        fs::create_dir_all(long.join("s-3")).unwrap();
        fs::write(long.join(".cwd"), "/a/very/long/path\n").unwrap();
        fs::write(long.join("s-3").join(CHAT_FILE), "").unwrap();
        let found = Grok.find_transcripts(Some(dir.path().into())).unwrap();
        let mut ids: Vec<&str> = found.iter().map(|t| t.session_id.as_str()).collect();
        ids.sort();
        assert_eq!(ids, ["s-1", "s-3"]);
        let cwd = |id: &str| {
            let t = found.iter().find(|t| t.session_id == id).unwrap();
            Grok.workspace_of(&t.path)
        };
        assert_eq!(cwd("s-1").as_deref(), Some("/home/dev/proj"));
        assert_eq!(cwd("s-3").as_deref(), Some("/a/very/long/path"));
        assert!(Grok
            .find_transcripts(Some(dir.path().join("none")))
            .unwrap()
            .is_empty());
    }
}
