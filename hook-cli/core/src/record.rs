//! What a host module produces and answers with, below both the hosts and the shared code
//! that consumes it (ingest, store, handoff): a host depends on this module only.

use std::path::PathBuf;
use std::time::Duration;

use crate::model::{DetailKind, Host, Usage};

/// How long a line waits for its parent in the order its host chained them. The host writes
/// a late prompt within a second, seconds under load; a parent that never comes (a client
/// killed before it wrote the prompt) must not keep the line out of the memory for long.
pub const HOLD: Duration = Duration::from_secs(30);

/// What one transcript line means for the memory. Hosts turn their own lines into these.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// Facts about the session the transcript carries (used when no hook payload has them):
    /// its working directory, the version of the client writing it, the context window the
    /// host reports for the session's model (Codex does; Claude Code's is worked out from the
    /// model and the client version), and the git branch it works on. `None` says nothing: a
    /// parser sends a Meta again when the branch it sees changes.
    Meta {
        cwd: Option<String>,
        client_version: Option<String>,
        context_window: Option<u64>,
        branch: Option<String>,
    },
    /// The person's words: starts a new turn. `key` is stable across re-reads.
    Prompt {
        key: String,
        text: String,
        at: Option<String>,
    },
    /// One assistant text block (L2).
    Answer {
        key: String,
        text: String,
        at: Option<String>,
    },
    /// One L3 entry.
    Detail {
        key: String,
        kind: DetailKind,
        name: Option<String>,
        tool_use_id: Option<String>,
        body: String,
        is_error: bool,
        at: Option<String>,
    },
    /// The one-line summary (L1) of the turn open until now, worked out by the reader when it
    /// read that whole turn, so the writer does not read the turn back to summarise it.
    Summary { text: String },
    /// The host took the session's history back (Codex's rollback, Gemini CLI's `/rewind`):
    /// the turns it dropped leave the memory, and what follows continues the turn before them.
    Rollback(Back),
    /// Usage of one assistant API message.
    ApiCall {
        message_id: String,
        model: Option<String>,
        usage: Usage,
        sidechain: bool,
        at: Option<String>,
    },
}

impl Record {
    pub fn at(&self) -> Option<&str> {
        match self {
            Record::Meta { .. } | Record::Summary { .. } | Record::Rollback(_) => None,
            Record::Prompt { at, .. }
            | Record::Answer { at, .. }
            | Record::Detail { at, .. }
            | Record::ApiCall { at, .. } => at.as_deref(),
        }
    }
}

/// Turns one line of a host's transcript into records.
pub trait LineParser: Send {
    /// `line` is one complete line without its newline. Returns where the line sits in the
    /// host's chain of entries, for hosts that link them (see `ingest::order`). An `Err` names what
    /// is wrong with the line.
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String>;
}

/// Where a line sits in its host's chain: hashes of its own id and of its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub id: u64,
    pub parent: Option<u64>,
}

/// How far back a host took a session's history.
#[derive(Debug, Clone, PartialEq)]
pub enum Back {
    /// Its last this many turns.
    Turns(u32),
    /// To before the turn whose prompt has this key, and every turn after it; nothing when
    /// no stored turn has it (a rewind to an answer mid-turn).
    ToPrompt(String),
}

/// What a hook answers the host with.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Text for the model, added to the context of this event.
    Inject(String),
    /// Stop the prompt from reaching the model and tell the person why. At PreCompact:
    /// stop the compaction.
    Block(String),
    /// A message the client shows the person; the model does not see it.
    Notice(String),
}

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
    /// PreCompact: `auto` when the client compacts by itself, `manual` for `/compact`.
    pub trigger: Option<String>,
    /// Stop: the turn's last answer as the payload carries it, an [`Record::Answer`] keyed as
    /// the host's transcript keys the same words, so a transcript that holds them already, or
    /// gets them later, keeps one copy.
    pub answer: Option<Record>,
}

/// A subagent of the session, as a hook payload names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentRef {
    /// The host's id of the subagent (it names its transcript); empty when the payload says a
    /// subagent ended without saying which ([`SubagentRef::unnamed`]).
    pub agent_id: String,
    /// Its transcript, when the payload gives it.
    pub transcript_path: Option<String>,
}

impl SubagentRef {
    /// A subagent the payload does not name (Gemini CLI's `invoke_agent` returning): every
    /// subagent transcript of the session is read.
    pub fn unnamed() -> SubagentRef {
        SubagentRef {
            agent_id: String::new(),
            transcript_path: None,
        }
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

/// A transcript found on disk, for `import`.
#[derive(Debug, Clone)]
pub struct FoundTranscript {
    pub session_id: String,
    pub path: PathBuf,
    pub bytes: u64,
}

/// How a host counts the text a hook hands it: its cap on `additionalContext`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InjectionLimit {
    pub max: usize,
    pub measure: Measure,
}

/// A unit text is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// UTF-16 code units (JavaScript string length).
    Utf16,
    /// Bytes of UTF-8.
    Utf8,
}

impl Measure {
    pub fn of_char(self, c: char) -> usize {
        match self {
            Measure::Utf16 => c.len_utf16(),
            Measure::Utf8 => c.len_utf8(),
        }
    }

    pub fn len(self, s: &str) -> usize {
        match self {
            Measure::Utf16 => s.chars().map(char::len_utf16).sum(),
            Measure::Utf8 => s.len(),
        }
    }
}
