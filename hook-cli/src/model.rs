//! The common model every host feeds: sessions made of turns; a turn holds the
//! conversation (L2 messages), its detail (L3) and, later, a one-line summary (L1).

use serde::Serialize;

/// Which agent wrote a session. Each host owns its payload decoding and transcript parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Host {
    Claude,
}

impl Host {
    pub fn as_str(self) -> &'static str {
        match self {
            Host::Claude => "claude",
        }
    }

    pub fn parse(name: &str) -> Option<Host> {
        match name {
            "claude" | "claude-code" => Some(Host::Claude),
            _ => None,
        }
    }
}

/// Who spoke an L2 message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }

    pub fn parse(s: &str) -> Role {
        if s == "user" {
            Role::User
        } else {
            Role::Assistant
        }
    }
}

/// What an L3 entry is. Stored as its `as_str` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DetailKind {
    /// A tool call: `name` is the tool, `body` its input as JSON.
    ToolCall,
    /// A tool's output exactly as the model received it.
    ToolResult,
    Thinking,
    /// Host-side context the model was given (file listings, reminders, ...).
    Attachment,
    /// Host bookkeeping such as turn durations and hook summaries.
    System,
    /// Local commands (`/clear`, `!cmd`), caveats and other wrapped host text.
    Command,
    /// Entries the host marks as meta, compaction summaries and interruptions.
    Meta,
    /// Subagent (sidechain) prompts and answers.
    Subagent,
    /// An image, kept as a placeholder with its size.
    Image,
}

impl DetailKind {
    pub const ALL: [DetailKind; 9] = [
        DetailKind::ToolCall,
        DetailKind::ToolResult,
        DetailKind::Thinking,
        DetailKind::Attachment,
        DetailKind::System,
        DetailKind::Command,
        DetailKind::Meta,
        DetailKind::Subagent,
        DetailKind::Image,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DetailKind::ToolCall => "tool_call",
            DetailKind::ToolResult => "tool_result",
            DetailKind::Thinking => "thinking",
            DetailKind::Attachment => "attachment",
            DetailKind::System => "system",
            DetailKind::Command => "command",
            DetailKind::Meta => "meta",
            DetailKind::Subagent => "subagent",
            DetailKind::Image => "image",
        }
    }

    pub fn parse(s: &str) -> Option<DetailKind> {
        DetailKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Token usage of one assistant API message, as the host recorded it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input: u64,
    pub cache_creation: u64,
    pub cache_read: u64,
    pub output: u64,
}

impl Usage {
    /// Tokens of context the request occupied (what the next request starts from).
    pub fn context(&self) -> u64 {
        self.input + self.cache_creation + self.cache_read
    }
}

/// One recorded session, as listed by `sessions`.
#[derive(Debug, Clone, Serialize)]
pub struct Session {
    /// Row id in the store.
    pub id: i64,
    pub host: Host,
    /// The host's own session id.
    pub session_id: String,
    /// Git root of the working directory, or the working directory itself.
    pub project: Option<String>,
    pub cwd: Option<String>,
    pub transcript_path: Option<String>,
    pub model: Option<String>,
    pub started_at: Option<String>,
    pub last_activity: Option<String>,
    pub ended_at: Option<String>,
    pub end_reason: Option<String>,
    pub start_source: Option<String>,
    pub turns: u64,
}

/// One L2 message.
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    pub role: Role,
    pub text: String,
    pub at: Option<String>,
}

/// One L3 entry.
#[derive(Debug, Clone, Serialize)]
pub struct Detail {
    /// 1-based position among the turn's L3 entries; `detail <turn> --item N` selects it.
    pub index: u32,
    pub kind: DetailKind,
    /// Tool name, attachment type or system subtype.
    pub name: Option<String>,
    pub tool_use_id: Option<String>,
    pub body: String,
    pub is_error: bool,
    pub at: Option<String>,
}

/// A turn: one prompt the person typed and everything until the next one.
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    /// Short stable id a person or a model can quote (`detail <code>`).
    pub code: String,
    pub session_id: String,
    /// 1-based position in its session; 0 holds what came before the first prompt.
    pub seq: u32,
    pub started_at: Option<String>,
    /// L2: the prompt, then every assistant text block, in order.
    pub messages: Vec<Message>,
    /// L3 at a glance, e.g. `Read ×2, Bash ×3, thinking`.
    pub detail_summary: String,
}

/// A turn in full: L2 and every L3 entry.
#[derive(Debug, Clone, Serialize)]
pub struct TurnDetail {
    #[serde(flatten)]
    pub turn: Turn,
    pub details: Vec<Detail>,
}
