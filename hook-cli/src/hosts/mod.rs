//! One module per host. Each decodes its hook payloads into a [`HookEvent`], parses its
//! transcript lines into [`Record`](crate::ingest::Record)s and knows where its transcripts live.

pub mod claude;

use std::path::{Path, PathBuf};

use crate::handoff::Reply;
use crate::ingest::LineParser;
use crate::model::Host;

/// What a hook call is about, whatever host sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    SessionStart,
    UserPrompt,
    PreTool,
    PostTool,
    Stop,
    PreCompact,
    SessionEnd,
    /// Events Throughline has no use for beyond catching up with the transcript.
    Other,
}

/// A decoded hook payload.
#[derive(Debug, Clone)]
pub struct HookEvent {
    pub host: Host,
    pub kind: EventKind,
    pub session_id: String,
    pub transcript_path: Option<String>,
    pub cwd: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    pub source: Option<String>,
    /// SessionEnd: `clear`, `logout`, `prompt_input_exit`, ...
    pub reason: Option<String>,
    /// Shared by the SessionEnd and SessionStart of one `/clear`.
    pub prompt_id: Option<String>,
    /// UserPromptSubmit: what the person typed.
    pub prompt: Option<String>,
    /// SessionStart: the model the session runs, as the host names it; only here does Claude
    /// Code tell a 1M-context variant (`claude-opus-4-8[1m]`), transcripts drop the suffix.
    pub model: Option<String>,
    /// The subagent the event is about: the hook runs inside it, it stopped, or the call that
    /// started it returned. Its transcript is read with the session's.
    pub subagent: Option<SubagentRef>,
}

/// A subagent of the session, as a hook payload names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentRef {
    /// The host's id of the subagent (it names its transcript).
    pub agent_id: String,
    /// Its transcript, when the payload gives it.
    pub transcript_path: Option<String>,
}

/// `bytes` without a leading UTF-8 byte order mark. Some tools write one before JSON (a
/// payload piped through them, a transcript saved by an editor) and serde rejects it.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

pub fn decode_hook(host: Host, payload: &[u8]) -> Result<HookEvent, String> {
    match host {
        Host::Claude => claude::decode_hook(payload),
    }
}

/// The host's stdout form of a reply, if the event can carry one.
pub fn encode_reply(host: Host, event: EventKind, reply: &Reply) -> Option<String> {
    match host {
        Host::Claude => claude::encode_reply(event, reply),
    }
}

/// One run of a host program: a process id and its start time, so that a pid the system
/// hands out again later is a different process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostProcess {
    pub pid: u32,
    /// Clock ticks after boot (`/proc/<pid>/stat`, field 22).
    pub started: u64,
}

impl HostProcess {
    /// How the store names this process.
    pub fn key(&self) -> String {
        format!("proc:{}:{}", self.pid, self.started)
    }
}

/// The host process a hook runs under, when the host registers its processes.
pub fn owner_process(host: Host) -> Option<HostProcess> {
    match host {
        Host::Claude => claude::process::owner(),
    }
}

/// The session of the host process this command runs under (e.g. `/tl` from the host).
pub fn owner_session(host: Host) -> Option<String> {
    match host {
        Host::Claude => claude::process::owner_session(),
    }
}

pub fn line_parser(host: Host) -> Box<dyn LineParser> {
    match host {
        Host::Claude => Box::new(claude::TranscriptParser::default()),
    }
}

/// A transcript found on disk, for `import`.
#[derive(Debug, Clone)]
pub struct FoundTranscript {
    pub session_id: String,
    pub path: PathBuf,
    pub bytes: u64,
}

pub fn find_transcripts(
    host: Host,
    root: Option<PathBuf>,
) -> std::io::Result<Vec<FoundTranscript>> {
    match host {
        Host::Claude => claude::find_transcripts(root),
    }
}

/// The transcript of one subagent of the session whose transcript is `main`.
pub fn subagent_transcript(host: Host, main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
    match host {
        Host::Claude => match &subagent.transcript_path {
            Some(path) => Some(PathBuf::from(path)),
            None => claude::subagents::transcript_of(main, &subagent.agent_id),
        },
    }
}

/// Every subagent transcript of the session whose transcript is `main`.
pub fn subagent_transcripts(host: Host, main: &Path) -> Vec<PathBuf> {
    match host {
        Host::Claude => claude::subagents::transcripts_of(main),
    }
}

/// The detail key of the tool call that started the subagent whose transcript is `path`.
pub fn spawning_call_key(host: Host, path: &Path) -> Option<String> {
    match host {
        Host::Claude => claude::subagents::spawning_call_key(path),
    }
}
