//! One module per host. Each decodes its hook payloads into a [`HookEvent`], parses its
//! transcript lines into [`Record`](crate::record::Record)s, knows where its transcripts live
//! and how it counts what a hook hands it: shared code asks these through [`Agent`], and a new
//! host is one more module and one more arm in [`agent`].

pub mod claude;
pub mod codex;
pub mod process;

use std::path::PathBuf;

use crate::model::Host;
pub use crate::record::{EventKind, FoundTranscript, HookEvent, HostProcess};
use crate::record::{InjectionLimit, LineParser, Reply};

/// What the shared code asks a host.
pub trait Agent: Sync {
    /// The host's name as a person knows it (`Claude Code`).
    fn name(&self) -> &'static str;
    fn decode_hook(&self, payload: &[u8]) -> Result<HookEvent, String>;
    /// The host's stdout form of a reply, if the event can carry one.
    fn encode_reply(&self, event: EventKind, reply: &Reply) -> Option<String>;
    /// The prompt that offers a handoff (`/tl`); the hook blocks it before the model sees it.
    fn handoff_command(&self) -> &'static str;
    /// How much a hook's `additionalContext` may hold, counted the way the host counts.
    fn injection_limit(&self) -> InjectionLimit;
    fn line_parser(&self) -> Box<dyn LineParser>;
    /// Where the host keeps its transcripts, for `import`.
    fn transcripts_dir(&self) -> Option<PathBuf>;
    /// Every main transcript under `root` (else [`Agent::transcripts_dir`]), oldest first.
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>>;
    /// The host process a hook runs under: a `/clear` never leaves it (decision 0023).
    fn owner_process(&self) -> Option<HostProcess>;
    /// The session of the host process this command runs under (e.g. `/tl` from the host).
    fn owner_session(&self) -> Option<String>;
}

pub fn agent(host: Host) -> &'static dyn Agent {
    match host {
        Host::Claude => &claude::ClaudeCode,
        Host::Codex => &codex::Codex,
    }
}

pub fn decode_hook(host: Host, payload: &[u8]) -> Result<HookEvent, String> {
    agent(host).decode_hook(payload)
}

pub fn encode_reply(host: Host, event: EventKind, reply: &Reply) -> Option<String> {
    agent(host).encode_reply(event, reply)
}

pub fn owner_process(host: Host) -> Option<HostProcess> {
    agent(host).owner_process()
}

pub fn owner_session(host: Host) -> Option<String> {
    agent(host).owner_session()
}

pub fn line_parser(host: Host) -> Box<dyn LineParser> {
    agent(host).line_parser()
}
