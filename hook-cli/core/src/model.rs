//! The common model every host feeds: sessions made of turns; a turn holds the
//! conversation (L2 messages), its detail (L3) and, later, a one-line summary (L1).

use std::time::Duration;

use serde::Serialize;

mod call;
mod steps;
mod working_state;
pub use call::{Call, Replacement};
pub use steps::{readable_input, steps, Step};
pub use working_state::{
    first_line, project_path, tail_from_boundary, FilesChanged, TaskList, BRIEF_CHARS,
    THINKING_CHARS,
};
pub use working_state::{FileChange, TaskChange, Todo, TodoStatus, ToolCallBrief, WorkingState};

/// How recently a session that has not ended must have been active to count as live. A host
/// that crashes never sends its end event, so activity is the only other sign of life.
pub const LIVE_WINDOW: Duration = Duration::from_secs(30 * 60);

/// Which agent wrote a session: the host's stored name (`claude`, `codex`). The hosts crate
/// holds the table of the hosts a build knows, each naming itself with [`Host::new`]; the
/// layers below it carry the name and never ask what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Host(&'static str);

impl Host {
    pub const fn new(name: &'static str) -> Host {
        Host(name)
    }

    /// The name stored with each session and taken by `--host` and `hook <host>`.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl Serialize for Host {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
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

    /// Entries the client writes for itself (host notes, the context it attaches at each
    /// request, meta lines), not the agent's work. The app's turn view folds the same kinds
    /// (`CLIENT_KINDS` in `ui/src/views/memory.ts`).
    pub fn is_clients_own(self) -> bool {
        matches!(
            self,
            DetailKind::System | DetailKind::Attachment | DetailKind::Meta
        )
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

impl Session {
    /// Not ended and active within [`LIVE_WINDOW`] of `now` (a stored
    /// timestamp): a host that crashes never sends its end event.
    pub fn is_live(&self, now: &str) -> bool {
        let since = crate::clock::before(now, LIVE_WINDOW).unwrap_or_default();
        self.ended_at.is_none()
            && self
                .last_activity
                .as_deref()
                .or(self.started_at.as_deref())
                .is_some_and(|at| at >= since.as_str())
    }
}

/// Counts of tokens (or characters) as people say them: 950 → `950`, 84,312 → `84k`,
/// 1,000,000 → `1M`.
pub fn short_tokens(tokens: u64) -> String {
    match tokens {
        0..=999 => tokens.to_string(),
        1_000..=999_999 => format!("{}k", (tokens + 500) / 1_000),
        _ => format!("{:.1}M", tokens as f64 / 1e6).replace(".0M", "M"),
    }
}

/// About how many tokens `text` is to a model, without a tokenizer: a token is about four
/// characters of English or code, two of other alphabets (accented Latin, Cyrillic, Greek),
/// and one Chinese, Japanese or Korean character, so counting characters over four would put a
/// Japanese answer at a quarter of its size.
pub fn estimated_tokens(text: &str) -> u64 {
    let quarters: u64 = text
        .chars()
        .map(|c| match c {
            _ if c.is_ascii() => 1,
            '\u{1100}'..='\u{11FF}'
            | '\u{2E80}'..='\u{9FFF}'
            | '\u{AC00}'..='\u{D7AF}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{FF00}'..='\u{FFEF}'
            | '\u{20000}'..='\u{3FFFF}' => 4,
            _ => 2,
        })
        .sum();
    quarters.div_ceil(4)
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
    /// The model the host named when the session started; `[1m]` marks a 1M-context variant.
    pub start_model: Option<String>,
    /// The client release writing the session, as its transcript says.
    pub client_version: Option<String>,
    /// The context window the host reports for the session's model, when it does (Codex).
    pub context_window: Option<u64>,
    /// The git branch the session works on, as its transcript last said.
    pub branch: Option<String>,
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
    /// The same entries as what was done: each call with its result (see [`steps`]).
    pub steps: Vec<Step>,
}

/// Which layer a search hit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// The conversation: prompts and assistant text.
    L2,
    /// Detail: tool calls and output, thinking, subagents.
    L3,
}

impl Layer {
    /// `l2` or `l3`.
    pub fn parse(s: &str) -> Option<Layer> {
        match s.to_ascii_lowercase().as_str() {
            "l2" => Some(Layer::L2),
            "l3" => Some(Layer::L3),
            _ => None,
        }
    }
}

/// Where a search hit is: its turn, its entry and who wrote it.
#[derive(Debug, Clone, Serialize)]
pub struct EntryRef {
    pub turn: String,
    pub session_id: String,
    /// The session's project (git root or working directory), when known.
    pub project: Option<String>,
    pub at: Option<String>,
    pub layer: Layer,
    /// `user` / `assistant` for the conversation, the detail kind (`tool_result`, ...) for L3.
    pub role: String,
    pub tool: Option<String>,
    /// `detail <turn> --tool N` shows this call and its output.
    pub tool_index: Option<u32>,
    /// `detail <turn> --item N` shows this entry (L3).
    pub item: Option<u32>,
}

/// One tool call of a turn with the result that answered it.
#[derive(Debug, Clone, Serialize)]
pub struct ToolExchange {
    /// 1-based position among the turn's tool calls (`detail <turn> --tool N`).
    pub number: u32,
    pub call: Detail,
    /// What the call did and its input, as its step shows them ([`Step::title`],
    /// [`Step::input`]).
    pub title: String,
    pub input: String,
    /// None while the tool is still running or when the host recorded no result.
    pub result: Option<Detail>,
}

impl TurnDetail {
    pub fn tool_calls(&self) -> impl Iterator<Item = &Detail> {
        self.details
            .iter()
            .filter(|d| d.kind == DetailKind::ToolCall)
    }

    /// The N-th tool call (1-based) paired with its result by `tool_use_id`.
    pub fn tool_exchange(&self, number: u32) -> Result<ToolExchange, NoSuchPart> {
        let missing = || NoSuchPart {
            turn: self.turn.code.clone(),
            what: "tool calls",
            count: self.tool_calls().count(),
        };
        let index = number.checked_sub(1).ok_or_else(missing)? as usize;
        let call = self.tool_calls().nth(index).ok_or_else(missing)?;
        let result = call.tool_use_id.as_ref().and_then(|id| {
            self.details
                .iter()
                .find(|d| d.kind == DetailKind::ToolResult && d.tool_use_id.as_ref() == Some(id))
        });
        let step = self.steps.iter().find(|s| s.tool == Some(number));
        Ok(ToolExchange {
            number,
            call: call.clone(),
            title: step.map_or_else(
                || call.name.clone().unwrap_or_default(),
                |s| s.title.clone(),
            ),
            input: step
                .and_then(|s| s.input.clone())
                .unwrap_or_else(|| readable_input(&call.body)),
            result: result.cloned(),
        })
    }

    /// The N-th detail entry (1-based).
    pub fn item(&self, number: u32) -> Result<&Detail, NoSuchPart> {
        self.details
            .iter()
            .find(|d| d.index == number)
            .ok_or_else(|| NoSuchPart {
                turn: self.turn.code.clone(),
                what: "detail entries",
                count: self.details.len(),
            })
    }

    /// The turn with only its N-th detail entry (1-based).
    pub fn only_item(mut self, number: u32) -> Result<TurnDetail, NoSuchPart> {
        self.item(number)?;
        self.details.retain(|d| d.index == number);
        self.steps
            .retain(|s| s.item == number || s.result == Some(number));
        Ok(self)
    }
}

/// A tool call or entry number a turn does not have.
#[derive(Debug, thiserror::Error)]
#[error("turn {turn} has {count} {what}, numbered from 1")]
pub struct NoSuchPart {
    pub turn: String,
    pub what: &'static str,
    pub count: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_estimates_hold_for_chinese_and_japanese() {
        assert_eq!(estimated_tokens(""), 0);
        assert_eq!(estimated_tokens("The dev server runs on 8443."), 7);
        // One token a character, as the models count them, not a quarter.
        assert_eq!(estimated_tokens("ダークモードを追加しました。"), 14);
        assert_eq!(estimated_tokens("修复了登录页面的错误"), 10);
        assert_eq!(estimated_tokens("한국어 문장"), 6);
        assert_eq!(estimated_tokens("Привет"), 3);
    }

    #[test]
    fn token_counts_read_short() {
        assert_eq!(short_tokens(950), "950");
        assert_eq!(short_tokens(84_312), "84k");
        assert_eq!(short_tokens(199_600), "200k");
        assert_eq!(short_tokens(1_000_000), "1M");
        assert_eq!(short_tokens(1_250_000), "1.2M");
    }

    fn entry(index: u32, kind: DetailKind, id: &str, body: &str) -> Detail {
        Detail {
            index,
            kind,
            name: (kind == DetailKind::ToolCall).then(|| "Bash".to_string()),
            tool_use_id: Some(id.to_string()),
            body: body.to_string(),
            is_error: false,
            at: None,
        }
    }

    fn turn_with(details: Vec<Detail>) -> TurnDetail {
        TurnDetail {
            turn: Turn {
                code: "abc1234".into(),
                session_id: "s".into(),
                seq: 1,
                started_at: None,
                messages: Vec::new(),
                detail_summary: String::new(),
            },
            steps: steps(&details, &|_, _| None),
            details,
        }
    }

    #[test]
    fn tool_calls_pair_with_their_results_by_id_in_any_order() {
        // Parallel calls: both calls first, results in the other order, thinking between.
        let detail = turn_with(vec![
            entry(1, DetailKind::Thinking, "-", "hmm"),
            entry(2, DetailKind::ToolCall, "t1", "ls"),
            entry(3, DetailKind::ToolCall, "t2", "pwd"),
            entry(4, DetailKind::ToolResult, "t2", "/home"),
            entry(5, DetailKind::ToolResult, "t1", "a b"),
        ]);
        let first = detail.tool_exchange(1).unwrap();
        assert_eq!(
            (
                first.call.body.as_str(),
                first.result.unwrap().body.as_str()
            ),
            ("ls", "a b")
        );
        let second = detail.tool_exchange(2).unwrap();
        assert_eq!(second.result.unwrap().body, "/home");
    }

    #[test]
    fn a_call_without_result_and_numbers_out_of_range() {
        let detail = turn_with(vec![entry(1, DetailKind::ToolCall, "t1", "sleep 99")]);
        assert!(detail.tool_exchange(1).unwrap().result.is_none());
        for n in [0, 2] {
            let err = detail.tool_exchange(n).unwrap_err().to_string();
            assert_eq!(err, "turn abc1234 has 1 tool calls, numbered from 1");
        }
        let err = detail.only_item(7).unwrap_err().to_string();
        assert_eq!(err, "turn abc1234 has 1 detail entries, numbered from 1");
    }
}
