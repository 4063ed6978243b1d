//! Codex rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): one
//! `{timestamp, type, payload}` object per line, appended to as the session goes on (a resumed
//! session appends to the same file).
//!
//! The model's history is in `response_item` lines: messages by role, tool calls and their
//! outputs (paired by `call_id`), reasoning. Codex writes its own context as `user` and
//! `developer` messages too: only what the person typed is a prompt, the rest goes to L3.
//! `event_msg` lines repeat the history for the UI; from them come the turns' ends, usage and
//! rollbacks.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use xxhash_rust::xxh3::xxh3_64;

use throughline_core::model::{DetailKind, Usage};
use throughline_core::record::{Back, LineParser, Link, Record};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default, borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    payload: Option<&'a RawValue>,
}

/// Every `response_item` shape in one flat struct; `content` and `output` vary by type and
/// are read once the type is known.
#[derive(Deserialize)]
struct Item<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    role: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, borrow)]
    summary: Option<&'a RawValue>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    input: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    call_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    output: Option<&'a RawValue>,
    #[serde(default, borrow)]
    internal_chat_message_metadata_passthrough: Option<Passthrough<'a>>,
}

#[derive(Deserialize, Default)]
struct Passthrough<'a> {
    #[serde(default, borrow)]
    content_item_kinds: Vec<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    image_url: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    turn_id: Option<Cow<'a, str>>,
    #[serde(default)]
    duration_ms: Option<u64>,
    #[serde(default)]
    num_turns: Option<u32>,
    #[serde(default)]
    info: Option<TokenInfo>,
    #[serde(default, borrow)]
    reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct TokenInfo {
    #[serde(default)]
    model_context_window: Option<u64>,
    #[serde(default)]
    total_token_usage: Option<TokenUsage>,
    #[serde(default)]
    last_token_usage: Option<TokenUsage>,
}

#[derive(Deserialize, Clone, Copy, Default)]
struct TokenUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    cached_input_tokens: u64,
    #[serde(default)]
    cache_write_input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    total_tokens: u64,
}

/// `session_meta` and `turn_context`: where the session works, and with which model.
#[derive(Deserialize)]
struct Context<'a> {
    #[serde(default, borrow)]
    cwd: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    model: Option<Cow<'a, str>>,
    /// `session_meta`: the Codex release writing the rollout.
    #[serde(default, borrow)]
    cli_version: Option<Cow<'a, str>>,
    /// `session_meta`: the repository the session started in (`{}` outside one).
    #[serde(default, borrow)]
    git: Option<Git<'a>>,
}

#[derive(Deserialize)]
struct Git<'a> {
    #[serde(default, borrow)]
    branch: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Compacted<'a> {
    #[serde(default, borrow)]
    message: Option<Cow<'a, str>>,
}

/// Codex's own text in `user` messages starts with one of these; it is never the person's.
const HOST_TEXT: &[(&str, &str)] = &[
    ("<environment_context>", "environment_context"),
    ("<skills_instructions>", "skills_instructions"),
    ("# AGENTS.md instructions", "agents_md"),
    ("<user_instructions>", "user_instructions"),
    ("<hook_prompt", "hook_prompt"),
    // A subagent's end, told to the model that spawned it (0.171.0).
    ("<subagent_notification>", "subagent_notification"),
];

/// A goal's continuation prompt: Codex sends it in the person's place, some 6,000 characters
/// of instructions around the objective the person set.
const GOAL_OPEN: &str = "<codex_internal_context source=\"goal\">";
const GOAL_CLOSE: &str = "</codex_internal_context>";

pub struct RolloutParser {
    cwd_seen: bool,
    /// The model of the latest `turn_context`: usage lines do not name it.
    model: Option<String>,
    /// Whether the Codex turn read now began with a user message. A turn without one is
    /// Codex's own (a compaction): what the model writes there is not said to the person.
    prompted: bool,
    /// The latest `model_context_window` said in this read.
    window: Option<u64>,
    /// The latest branch said in this read.
    branch: Option<String>,
}

impl Default for RolloutParser {
    fn default() -> Self {
        RolloutParser {
            cwd_seen: false,
            model: None,
            // A read that starts inside a turn takes it for the person's.
            prompted: true,
            window: None,
            branch: None,
        }
    }
}

impl LineParser for RolloutParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let line: Line = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let Some(payload) = line.payload else {
            return Ok(None);
        };
        let at = line.timestamp.as_deref().map(str::to_string);
        let invalid = |e: serde_json::Error| format!("{} payload: {e}", line.kind);
        match &*line.kind {
            "response_item" => {
                let item: Item = serde_json::from_str(payload.get()).map_err(invalid)?;
                let before = out.len();
                response_item(item, payload, at, self.prompted, out);
                if out[before..]
                    .iter()
                    .any(|r| matches!(r, Record::Prompt { .. }))
                {
                    self.prompted = true;
                }
            }
            "event_msg" => {
                let event: Event = serde_json::from_str(payload.get()).map_err(invalid)?;
                self.event(event, at, out);
            }
            "session_meta" | "turn_context" => {
                let context: Context = serde_json::from_str(payload.get()).map_err(invalid)?;
                let first_cwd = context.cwd.as_deref().filter(|_| !self.cwd_seen);
                let new_branch = context
                    .git
                    .as_ref()
                    .and_then(|git| git.branch.as_deref())
                    .filter(|b| !b.is_empty() && self.branch.as_deref() != Some(*b));
                if first_cwd.is_some() || new_branch.is_some() {
                    self.cwd_seen |= first_cwd.is_some();
                    self.branch = new_branch.map(str::to_string).or(self.branch.take());
                    out.push(Record::Meta {
                        cwd: first_cwd.map(str::to_string),
                        client_version: first_cwd
                            .and(context.cli_version.as_deref())
                            .map(str::to_string),
                        context_window: None,
                        branch: new_branch.map(str::to_string),
                    });
                }
                if let Some(model) = context.model.filter(|m| !m.is_empty()) {
                    self.model = Some(model.into_owned());
                }
            }
            "compacted" => {
                let compacted: Compacted = serde_json::from_str(payload.get()).map_err(invalid)?;
                let body = compacted.message.unwrap_or_default().into_owned();
                out.push(detail(
                    format!("e:{}", hash_key(at.as_deref(), &body)),
                    DetailKind::Meta,
                    Some("compact_summary"),
                    body,
                    at,
                ));
            }
            // Settings, world state and per-response usage repeat what the lines above hold.
            _ => {}
        }
        // Rollouts are written in order: no line waits for another.
        Ok(None)
    }
}

impl RolloutParser {
    fn event(&mut self, event: Event, at: Option<String>, out: &mut Vec<Record>) {
        let turn = event.turn_id.as_deref().unwrap_or_default();
        match &*event.kind {
            "token_count" => {
                let Some(info) = event.info else { return };
                // The window the gauges measure against, said once per read unless it changes.
                if let Some(window) = info.model_context_window.filter(|&w| w > 0) {
                    if self.window != Some(window) {
                        self.window = Some(window);
                        out.push(Record::Meta {
                            cwd: None,
                            client_version: None,
                            context_window: Some(window),
                            branch: None,
                        });
                    }
                }
                let (Some(last), Some(total)) = (info.last_token_usage, info.total_token_usage)
                else {
                    return;
                };
                out.push(Record::ApiCall {
                    // Codex repeats a usage report (e.g. with new rate limits); the running
                    // total names the request it reports, so a repeat stores once.
                    message_id: format!("tokens:{}", total.total_tokens),
                    model: self.model.clone(),
                    usage: Usage {
                        input: last
                            .input_tokens
                            .saturating_sub(last.cached_input_tokens)
                            .saturating_sub(last.cache_write_input_tokens),
                        cache_creation: last.cache_write_input_tokens,
                        cache_read: last.cached_input_tokens,
                        output: last.output_tokens,
                    },
                    sidechain: false,
                    at,
                });
            }
            "task_started" => self.prompted = false,
            "task_complete" => out.push(detail(
                format!("done:{turn}"),
                DetailKind::System,
                Some("task_complete"),
                event
                    .duration_ms
                    .map(|ms| format!("turn took {ms} ms"))
                    .unwrap_or_default(),
                at,
            )),
            "turn_aborted" => out.push(detail(
                format!("aborted:{turn}"),
                DetailKind::Meta,
                Some("interrupted"),
                event.reason.unwrap_or_default().into_owned(),
                at,
            )),
            "thread_rolled_back" => {
                if let Some(turns) = event.num_turns.filter(|&n| n > 0) {
                    out.push(Record::Rollback(Back::Turns(turns)));
                }
            }
            // Turn starts, and the UI's copies of messages and tool runs.
            _ => {}
        }
    }
}

/// One history item; `prompted` says whether its turn began with a user message.
fn response_item(
    item: Item,
    raw: &RawValue,
    at: Option<String>,
    prompted: bool,
    out: &mut Vec<Record>,
) {
    let id = item.id.as_deref().unwrap_or_default();
    match &*item.kind {
        "message" => {
            let parts = parts_of(item.content);
            match item.role.as_deref() {
                Some("user") => user_message(id, &parts, at, out),
                Some("assistant") => {
                    for part in &parts {
                        let text = part.text.as_deref().unwrap_or_default();
                        let key = format!("a:{id}:{:016x}", xxh3_64(text.as_bytes()));
                        out.push(if prompted {
                            Record::Answer {
                                key,
                                text: text.to_string(),
                                at: at.clone(),
                            }
                        } else {
                            detail(
                                key,
                                DetailKind::Meta,
                                Some("compact_summary"),
                                text.to_string(),
                                at.clone(),
                            )
                        });
                    }
                }
                // Developer messages: Codex's instructions, and what hooks injected.
                role => {
                    let name = item
                        .internal_chat_message_metadata_passthrough
                        .unwrap_or_default()
                        .content_item_kinds
                        .into_iter()
                        .next()
                        .map_or_else(|| role.unwrap_or("developer").to_string(), Cow::into_owned);
                    let body = join_text(&parts);
                    out.push(detail(
                        format!("e:{}", item_key(id, at.as_deref(), &body)),
                        DetailKind::Attachment,
                        Some(&name),
                        body,
                        at,
                    ));
                }
            }
        }
        "function_call" | "custom_tool_call" | "local_shell_call" => {
            let call_id = item.call_id.as_deref().unwrap_or(id).to_string();
            let body = match (item.arguments, item.input) {
                (Some(args), _) => args.into_owned(),
                (None, Some(input)) => input.into_owned(),
                (None, None) => raw.get().to_string(),
            };
            out.push(Record::Detail {
                key: format!("c:{call_id}"),
                kind: DetailKind::ToolCall,
                name: Some(
                    item.name
                        .map_or_else(|| item.kind.to_string(), Cow::into_owned),
                ),
                tool_use_id: Some(call_id),
                body,
                is_error: false,
                at,
            });
        }
        "function_call_output" | "custom_tool_call_output" => {
            let call_id = item.call_id.as_deref().unwrap_or_default().to_string();
            let (body, is_error) = tool_output(item.output);
            out.push(Record::Detail {
                key: format!("r:{call_id}"),
                kind: DetailKind::ToolResult,
                name: None,
                tool_use_id: Some(call_id),
                body,
                is_error,
                at,
            });
        }
        "reasoning" => {
            let mut text = join_text(&parts_of(item.summary));
            let content = join_text(&parts_of(item.content));
            if !content.is_empty() {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                text.push_str(&content);
            }
            if text.is_empty() {
                // Only the encrypted form was kept: the model's reasoning is not readable.
                text = "[encrypted reasoning]".into();
            }
            out.push(Record::Detail {
                key: format!("th:{}", item_key(id, at.as_deref(), &text)),
                kind: DetailKind::Thinking,
                name: None,
                tool_use_id: None,
                body: text,
                is_error: false,
                at,
            });
        }
        // Web searches, image generations and types newer than this parser: kept as written.
        other => {
            let body = raw.get().to_string();
            out.push(detail(
                format!("x:{}", item_key(id, at.as_deref(), &body)),
                DetailKind::Meta,
                Some(other),
                body,
                at,
            ));
        }
    }
}

/// The person's parts of a `user` message are one prompt; Codex's own parts go to L3.
fn user_message(id: &str, parts: &[Part], at: Option<String>, out: &mut Vec<Record>) {
    let mut prompt = String::new();
    for (i, part) in parts.iter().enumerate() {
        let text = part.text.as_deref().unwrap_or_default();
        if part.kind == "input_image" || part.image_url.is_some() {
            out.push(detail(
                format!("i:{}:{i}", item_key(id, at.as_deref(), "")),
                DetailKind::Image,
                Some("image"),
                "[image]".into(),
                at.clone(),
            ));
            continue;
        }
        let trimmed = text.trim_start();
        if let Some((_, name)) = HOST_TEXT.iter().find(|(tag, _)| trimmed.starts_with(tag)) {
            out.push(detail(
                format!("e:{}:{i}", item_key(id, at.as_deref(), text)),
                DetailKind::Attachment,
                Some(name),
                text.to_string(),
                at.clone(),
            ));
            continue;
        }
        if !prompt.is_empty() {
            prompt.push('\n');
        }
        prompt.push_str(&goal_objective(text).unwrap_or(Cow::Borrowed(text)));
    }
    if !prompt.is_empty() {
        out.push(Record::Prompt {
            key: format!("u:{}", item_key(id, at.as_deref(), &prompt)),
            text: prompt,
            at,
        });
    }
}

/// A goal continuation cut to its marks and the objective the person set; `None` for any
/// other text, and for a continuation whose closing mark is missing.
fn goal_objective(text: &str) -> Option<Cow<'_, str>> {
    let start = text.len() - text.trim_start().len();
    let inner = text[start..].strip_prefix(GOAL_OPEN)?;
    let inner = &inner[..inner.find(GOAL_CLOSE)?];
    let objective = inner
        .find("<objective>")
        .and_then(|open| {
            let close = inner[open..].find("</objective>")? + open + "</objective>".len();
            Some(&inner[open..close])
        })
        .unwrap_or_default();
    Some(Cow::Owned(if objective.is_empty() {
        format!("{GOAL_OPEN}\n{GOAL_CLOSE}")
    } else {
        format!("{GOAL_OPEN}\n{objective}\n{GOAL_CLOSE}")
    }))
}

/// A tool's output as the model got it: text, content items, or `{content, success}`.
fn tool_output(raw: Option<&RawValue>) -> (String, bool) {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Output<'a> {
        Text(#[serde(borrow)] Cow<'a, str>),
        Parts(#[serde(borrow)] Vec<Part<'a>>),
        Body {
            #[serde(default, borrow)]
            content: Option<Cow<'a, str>>,
            #[serde(default)]
            success: Option<bool>,
        },
    }
    let Some(raw) = raw else {
        return (String::new(), false);
    };
    match serde_json::from_str::<Output>(raw.get()) {
        Ok(Output::Text(text)) => {
            let failed = exit_code(&text).is_some_and(|code| code != 0);
            (text.into_owned(), failed)
        }
        Ok(Output::Parts(parts)) => (join_text(&parts), false),
        Ok(Output::Body {
            content: Some(content),
            success,
        }) => (content.into_owned(), success == Some(false)),
        _ => (raw.get().to_string(), false),
    }
}

/// The exit code in the header Codex puts above a command's output.
fn exit_code(output: &str) -> Option<i64> {
    let end = output.find("\nOutput:").unwrap_or_else(|| {
        // The first 400 bytes, cut where a character ends (found by fuzzing: a cut inside
        // one panicked, and every later call of the session panicked on the same line).
        let mut end = output.len().min(400);
        while !output.is_char_boundary(end) {
            end -= 1;
        }
        end
    });
    let head = &output[..end];
    let at = head.find("Process exited with code ")? + "Process exited with code ".len();
    head[at..].split_whitespace().next()?.parse().ok()
}

/// Content parts; any other shape has no text to take.
fn parts_of(raw: Option<&RawValue>) -> Vec<Part<'_>> {
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or_default()
}

fn join_text(parts: &[Part]) -> String {
    let texts: Vec<&str> = parts.iter().filter_map(|p| p.text.as_deref()).collect();
    texts.join("\n")
}

fn detail(
    key: String,
    kind: DetailKind,
    name: Option<&str>,
    body: String,
    at: Option<String>,
) -> Record {
    Record::Detail {
        key,
        kind,
        name: name.map(str::to_string),
        tool_use_id: None,
        body,
        is_error: false,
        at,
    }
}

/// The item's id, or (for items written without one) a hash of its time and content.
fn item_key(id: &str, at: Option<&str>, content: &str) -> String {
    if id.is_empty() {
        hash_key(at, content)
    } else {
        id.to_string()
    }
}

fn hash_key(at: Option<&str>, content: &str) -> String {
    format!("h{:016x}", xxh3_64(format!("{at:?}\0{content}").as_bytes()))
}

#[cfg(test)]
mod tests;
