//! A host that exists only in tests: the smallest client the [`Agent`] contract allows, built
//! as any host is (this folder and one line in the host table), so the suite shows that adding
//! a host touches nothing else. Compiled only with the `sample-host` feature, which the CLI's
//! tests turn on.
//!
//! Its hooks are registered in `~/.sample-agent/hooks.json`; they send one flat JSON object
//! (`event`, `session`, `transcript`, `cwd`, `prompt`, `source`), and its transcripts are
//! JSON lines of `user`, `assistant` and `tool` entries.

pub mod install;
mod payload;
mod transcript;

use std::fs;
use std::path::PathBuf;

use super::{transcripts_root, Agent, Found, Spec};
use throughline_core::model::Host;
use throughline_core::record::{FoundTranscript, HostProcess, InjectionLimit, Measure};

/// The sample agent, to the shared code.
pub struct SampleAgent;

/// The name sessions of this host are stored under.
pub const HOST: Host = Host::new("sample");

const SPEC: Spec = Spec {
    host: HOST,
    aliases: &["sample-agent"],
    name: "Sample Agent",
    handoff_command: "/tl",
    injection_limit: InjectionLimit {
        max: 9_500,
        measure: Measure::Utf8,
    },
    memory_at_session_start: true,
    memory_parts: 1,
    memory_parts_in_one_output: false,
    context_with_prompt: true,
    reports_usage: false,
    tools: None,
    clear_starts_as_new: false,
    compaction_stop_ends_turn: false,
    installer: install::INSTALLER,
    decode_hook: payload::decode_hook,
    encode_reply: payload::encode_reply,
    line_parser: |_| Box::new(transcript::TranscriptParser),
    tested_releases: None,
};

impl Agent for SampleAgent {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }
    fn transcripts_dir(&self) -> Option<PathBuf> {
        Some(home()?.join("sessions"))
    }
    /// `sessions/<id>.jsonl`.
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>> {
        let Some(root) = transcripts_root(self, root) else {
            return Ok(Vec::new());
        };
        let mut found = Found::default();
        for entry in fs::read_dir(root)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let id = path.file_stem().and_then(|s| s.to_str()).map(String::from);
                found.add(id, path);
            }
        }
        Ok(found.oldest_first())
    }
    /// It has no `/clear`: a new session takes the memory through a handoff.
    fn owner_process(&self) -> Option<HostProcess> {
        None
    }
}

/// `$SAMPLE_AGENT_HOME`, else `~/.sample-agent`.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("SAMPLE_AGENT_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".sample-agent")))
}
