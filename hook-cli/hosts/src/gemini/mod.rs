//! Gemini CLI: hook payloads, chat files, where chat files live, and the CLI process a hook
//! runs under. Facts per release: `docs/hosts/gemini-cli.md`.

mod chat;
pub mod install;
mod payload;
mod subagents;
mod tools;

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

pub use chat::ChatParser;
pub use payload::{decode_hook, encode_reply};

use super::{transcripts_root, Agent, Found, Spec};
use crate::process::{command_name, nearest_ancestor};
use throughline_core::model::Host;
use throughline_core::record::{FoundTranscript, HostProcess, InjectionLimit, Measure};

/// Gemini CLI, to the shared code.
pub struct GeminiCli;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("gemini");

/// No cap was seen (100,000 characters arrived whole in 0.61.0); each part of the memory keeps
/// the same budget as on the other hosts, counted as JavaScript counts.
const INJECTION_LIMIT: InjectionLimit = InjectionLimit {
    max: 9_500,
    measure: Measure::Utf16,
};

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &["gemini-cli"],
    name: "Gemini CLI",
    // A custom command (`commands/tl.toml`) that sends `/tl` as the prompt: BeforeAgent sees
    // it and blocks it before any request.
    handoff_command: "/tl",
    injection_limit: INJECTION_LIMIT,
    // After `/clear` the CLI drops a SessionStart hook's context (0.61.0): the memory goes in
    // with the new session's first prompt.
    memory_at_session_start: false,
    // BeforeAgent's context has no cap: the one output takes both parts (decision 0145).
    memory_parts: 2,
    memory_parts_in_one_output: true,
    context_with_prompt: true,
    reports_usage: true,
    tools: Some(tools::TOOLS),
    clear_starts_as_new: false,
    compaction_stop_ends_turn: false,
    installer: install::INSTALLER,
    decode_hook,
    encode_reply,
    line_parser: |_| Box::new(ChatParser::default()),
    // Pinned in hook-cli/tests/gemini.
    tested_releases: Some(crate::release::TestedReleases {
        program: "gemini",
        also_at: &[],
        oldest: "0.61.0",
        newest: "0.61.0",
        update: "npm install -g @google/gemini-cli",
    }),
};

impl Agent for GeminiCli {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        Some(home()?.join("tmp"))
    }
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        let Some(root) = transcripts_root(self, root) else {
            return Ok(Vec::new());
        };
        let mut found = Found::default();
        for project in fs::read_dir(&root)? {
            let chats = project?.path().join("chats");
            let Ok(entries) = fs::read_dir(&chats) else {
                continue;
            };
            for entry in entries {
                let path = entry?.path();
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                // Subagents' chats sit in a folder per parent, named by their own id.
                if !(name.starts_with("session-") && name.ends_with(".jsonl")) {
                    continue;
                }
                found.add(session_of(&path), path);
            }
        }
        let mut transcripts = found.oldest_first();
        // `--resume` (0.61.0) first starts a file of the current minute for the resumed id,
        // holding only the session context, then goes on in the session's own file: in
        // another minute that start is a file of its own, one with no message.
        let mut files_per_session: HashMap<String, usize> = HashMap::new();
        for t in &transcripts {
            *files_per_session.entry(t.session_id.clone()).or_default() += 1;
        }
        transcripts.retain(|t| files_per_session[&t.session_id] == 1 || holds_messages(&t.path));
        Ok(transcripts)
    }
    /// The CLI's node process nearest above the hook: `/clear` stays in it, another window is
    /// another one.
    fn owner_process(&self) -> Option<HostProcess> {
        nearest_ancestor(|pid| {
            command_name(pid).as_deref() == Some("node")
                && fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|args| runs_gemini(&args))
        })
    }
    /// Hooks and the commands they run get the session id in `GEMINI_SESSION_ID`.
    fn owner_session(&self) -> Option<String> {
        std::env::var("GEMINI_SESSION_ID")
            .ok()
            .filter(|id| !id.is_empty())
    }
    fn subagent_transcripts(&self, main: &Path) -> Vec<PathBuf> {
        subagents::transcripts_of(main)
    }
    fn spawned_at(&self, path: &Path) -> Option<String> {
        subagents::started(path)
    }
}

/// Whether a node command line (NUL-separated) runs the Gemini CLI's script.
fn runs_gemini(cmdline: &[u8]) -> bool {
    cmdline
        .split(|&b| b == 0)
        .skip(1)
        .any(|arg| arg.windows(6).any(|w| w == b"gemini"))
}

/// `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`: settings, commands and chats.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("GEMINI_CLI_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(dirs::home_dir)
        .map(|h| h.join(".gemini"))
}

/// The header line of a chat file: whose session it is, and for a subagent's, when it began.
#[derive(serde::Deserialize)]
struct Header {
    #[serde(rename = "sessionId")]
    session_id: String,
    #[serde(default)]
    kind: String,
    #[serde(rename = "startTime", default)]
    start_time: String,
}

fn header(path: &Path) -> Option<Header> {
    // A header is a few hundred bytes; a file that starts otherwise is not read whole.
    const HEADER_MAX: u64 = 64 * 1024;
    let mut first = String::new();
    BufReader::new(
        throughline_core::regular_file::open(path)
            .ok()?
            .take(HEADER_MAX),
    )
    .read_line(&mut first)
    .ok()?;
    serde_json::from_str(&first).ok()
}

/// The session id a chat file's header line names (its file name has only the first 8
/// characters).
fn session_of(path: &Path) -> Option<String> {
    header(path)
        .map(|h| h.session_id)
        .filter(|id| !id.is_empty())
}

/// Whether a chat file has a message line of its own: a prompt or an answer, beyond the
/// header and the `$set` patches.
fn holds_messages(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Message {
        id: Option<serde::de::IgnoredAny>,
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    let Ok(file) = throughline_core::regular_file::open(path) else {
        return false;
    };
    BufReader::new(file)
        .split(b'\n')
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_slice::<Message>(&line).ok())
        .any(|m| m.id.is_some() && matches!(m.kind.as_deref(), Some("user" | "gemini")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cli_is_told_from_other_node_programs() {
        assert!(runs_gemini(
            b"node\0/home/me/node_modules/@google/gemini-cli/bundle/gemini.js\0"
        ));
        assert!(runs_gemini(
            b"/usr/bin/node\0/usr/local/bin/gemini\0--yolo\0"
        ));
        assert!(!runs_gemini(b"node\0/srv/app/server.js\0"));
        assert!(!runs_gemini(b"gemini\0"));
    }

    #[test]
    fn chats_are_found_per_project_with_the_session_id_from_their_header() {
        let dir = tempfile::tempdir().unwrap();
        let chats = dir.path().join("proj/chats");
        fs::create_dir_all(chats.join("parent-id")).unwrap();
        let id = "51482c4a-1c28-4627-9095-474492012901";
        fs::write(
            chats.join("session-2026-12-01T13-43-51482c4a.jsonl"),
            format!("{{\"sessionId\":\"{id}\",\"projectHash\":\"h\",\"kind\":\"main\"}}\n"),
        )
        .unwrap();
        fs::write(
            chats.join("session-2026-12-01T13-44-garbage.jsonl"),
            "not json\n",
        )
        .unwrap();
        fs::write(chats.join("parent-id/sub.jsonl"), "{}\n").unwrap();
        fs::write(chats.join("notes.txt"), "").unwrap();
        fs::create_dir_all(dir.path().join("other")).unwrap();
        let found = GeminiCli.find_transcripts(Some(dir.path().into())).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].session_id, id);
        assert!(GeminiCli
            .find_transcripts(Some(dir.path().join("none")))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn the_start_a_resume_leaves_in_another_minute_is_no_second_transcript() {
        let dir = tempfile::tempdir().unwrap();
        let chats = dir.path().join("proj/chats");
        fs::create_dir_all(&chats).unwrap();
        let id = "59a4cafb-6221-4461-badb-15eab99d046e";
        let header = format!("{{\"sessionId\":\"{id}\",\"kind\":\"main\"}}\n");
        let context = r#"{"$set":{"messages":[{"id":"c","type":"user","content":[{"text":"<session_context>"}]}]}}"#;
        let own = chats.join("session-2026-12-03T18-20-59a4cafb.jsonl");
        fs::write(
            &own,
            format!(
                "{header}{context}\n{}\n",
                r#"{"id":"p","type":"user","content":[{"text":"Count the lines"}]}"#
            ),
        )
        .unwrap();
        fs::write(
            chats.join("session-2026-12-03T18-21-59a4cafb.jsonl"),
            format!("{header}{context}\n"),
        )
        .unwrap();
        let found = GeminiCli.find_transcripts(Some(dir.path().into())).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, own);
        // A session's only file is found before its first message is written.
        fs::remove_file(&own).unwrap();
        let found = GeminiCli.find_transcripts(Some(dir.path().into())).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
