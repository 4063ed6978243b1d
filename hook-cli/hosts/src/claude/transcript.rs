//! Claude Code transcript lines (`~/.claude/projects/<project>/<session>.jsonl`).
//!
//! A person's prompt is a main-chain `user` entry with text content that is not host text
//! (tool results, local-command wrappers, caveats, meta or compaction entries), a slash
//! command that goes to the model, or a prompt the client delivered while the model was
//! working (a `queued_command` attachment). An assistant API message is written one content
//! block per line, every line repeating the message id and usage: blocks are keyed by
//! message id and content, so repeats store once.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use xxhash_rust::xxh3::xxh3_64;

use throughline_core::blocks::{PASTE_END, PASTE_START};
use throughline_core::model::{DetailKind, Usage};
use throughline_core::record::{LineParser, Link, Record};

use super::persisted;

/// A JSON string borrowed from the line, copied only when it holds escapes: most fields of
/// a line are read and dropped, and a copy each was a good part of the parsing time.
#[derive(Deserialize, Default)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

impl Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Text<'a>,
    #[serde(default, borrow)]
    uuid: Option<Text<'a>>,
    #[serde(rename = "parentUuid", default, borrow)]
    parent_uuid: Option<Text<'a>>,
    #[serde(default, borrow)]
    timestamp: Option<Text<'a>>,
    #[serde(rename = "isSidechain", default)]
    sidechain: bool,
    #[serde(rename = "isMeta", default)]
    meta: bool,
    #[serde(rename = "isCompactSummary", default)]
    compact_summary: bool,
    #[serde(rename = "isApiErrorMessage", default)]
    api_error: bool,
    #[serde(default, borrow)]
    cwd: Option<Text<'a>>,
    /// The client release that wrote the line (`2.1.332`).
    #[serde(default, borrow)]
    version: Option<Text<'a>>,
    /// The git branch of the working directory when the line was written.
    #[serde(rename = "gitBranch", default, borrow)]
    git_branch: Option<Text<'a>>,
    #[serde(default, borrow)]
    message: Option<ApiMessage<'a>>,
    #[serde(default, borrow)]
    subtype: Option<Text<'a>>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, borrow)]
    attachment: Option<&'a RawValue>,
    /// Who wrote the entry (2.1.332 and later on commands; both versions on typed prompts).
    #[serde(default, borrow)]
    origin: Option<Origin<'a>>,
}

#[derive(Deserialize)]
struct Origin<'a> {
    #[serde(default, borrow)]
    kind: Text<'a>,
}

impl Origin<'_> {
    /// Entries the client marks as written by someone else (the model, a hook) are not a
    /// prompt; entries without the mark may be.
    fn is_human(origin: &Option<Origin>) -> bool {
        origin.as_ref().is_none_or(|o| &*o.kind == "human")
    }
}

#[derive(Deserialize)]
struct ApiMessage<'a> {
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(default, borrow)]
    model: Option<Text<'a>>,
    #[serde(default, borrow)]
    content: Option<Content<'a>>,
    #[serde(default)]
    usage: Option<ApiUsage>,
}

#[derive(Deserialize)]
struct ApiUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: u64,
    #[serde(default)]
    cache_read_input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

/// Every content block shape in one flat struct: fast to decode, and raw JSON (tool input)
/// stays exactly as the host wrote it.
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Text<'a>,
    #[serde(default, borrow)]
    text: Option<Text<'a>>,
    #[serde(default, borrow)]
    thinking: Option<Text<'a>>,
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(default, borrow)]
    name: Option<Text<'a>>,
    #[serde(default, borrow)]
    input: Option<&'a RawValue>,
    #[serde(default, borrow)]
    tool_use_id: Option<Text<'a>>,
    #[serde(default, borrow)]
    content: Option<Content<'a>>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(default, borrow)]
    source: Option<ImageSource<'a>>,
}

/// The fields of an attachment that say what it is; the others vary by type.
#[derive(Deserialize)]
struct AttachmentHead<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Text<'a>,
    /// `queued_command`: what the person typed while the model was working.
    #[serde(default, borrow)]
    prompt: Option<Content<'a>>,
    #[serde(rename = "commandMode", default, borrow)]
    command_mode: Option<Text<'a>>,
    #[serde(default, borrow)]
    origin: Option<Origin<'a>>,
}

#[derive(Deserialize)]
struct ImageSource<'a> {
    #[serde(default, borrow)]
    media_type: Option<Text<'a>>,
    #[serde(default, borrow)]
    data: Option<Text<'a>>,
}

/// Host text wrapped in these tags is never the person's own words.
const HOST_TEXT_TAGS: &[&str] = &[
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<user-memory-input>",
    "<system-reminder>",
    "<task-notification>",
];

/// How the client marks what the person interrupted: a prompt's place, or a tool's result.
pub(super) const INTERRUPTED: &str = "[Request interrupted by user";

/// The result 2.1.332 writes for a call the person stopped while it ran (Escape), or refused
/// to allow.
pub(super) const REFUSED: &str = "The user doesn't want to proceed with this tool use.";

/// What `gitBranch` says when there is no branch: the sample sessions of both releases wrote
/// it in a folder that is not a repository (a detached head has no branch either).
const NO_BRANCH: &str = "HEAD";

#[derive(Default)]
pub struct TranscriptParser {
    cwd_seen: bool,
    /// The branch the lines read so far said last.
    branch: Option<String>,
    /// Where the client saved outputs too large for the transcript (none: previews are kept).
    saved_outputs: Option<PathBuf>,
}

impl TranscriptParser {
    /// A parser for the lines of the transcript at `path`, which reads the outputs the client
    /// saved beside it.
    pub fn for_transcript(path: &Path) -> Self {
        TranscriptParser {
            saved_outputs: persisted::folder_of(path),
            ..Self::default()
        }
    }

    /// Each tool result of `records` that is a preview of a saved output, made the whole output.
    fn read_saved_outputs(&self, records: &mut [Record]) {
        let Some(folder) = &self.saved_outputs else {
            return;
        };
        for record in records {
            if let Record::Detail {
                kind: DetailKind::ToolResult,
                body,
                ..
            } = record
            {
                if let Some(full) = persisted::full_output(folder, body) {
                    *body = full;
                }
            }
        }
    }
}

impl LineParser for TranscriptParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let mut entry: Entry = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let first_record = out.len();
        let first_cwd = entry.cwd.as_deref().filter(|_| !self.cwd_seen);
        let new_branch = entry
            .git_branch
            .as_deref()
            .filter(|b| !b.is_empty() && *b != NO_BRANCH && self.branch.as_deref() != Some(*b));
        if first_cwd.is_some() || new_branch.is_some() {
            self.cwd_seen |= first_cwd.is_some();
            self.branch = new_branch.map(str::to_string).or(self.branch.take());
            out.push(Record::Meta {
                cwd: first_cwd.map(str::to_string),
                client_version: first_cwd.and(entry.version.as_deref()).map(str::to_string),
                context_window: None,
                branch: new_branch.map(str::to_string),
            });
        }
        let link = link(&entry);
        match &*entry.kind {
            "user" => {
                user_entry(&mut entry, out);
                self.read_saved_outputs(&mut out[first_record..]);
            }
            "assistant" => assistant_entry(&mut entry, out),
            "system" => {
                let body = match entry.content {
                    Some(raw) => as_text(raw),
                    None => line.to_string(),
                };
                out.push(detail(
                    &entry,
                    "",
                    DetailKind::System,
                    entry.subtype.as_deref().map(str::to_string),
                    body,
                ));
            }
            "attachment" => {
                if let Some(raw) = entry.attachment {
                    let head = serde_json::from_str::<AttachmentHead>(raw.get()).ok();
                    let name = head
                        .as_ref()
                        .map(|h| h.kind.to_string())
                        .filter(|k| !k.is_empty());
                    if let Some(prompt) = head.and_then(|h| queued_prompt(&entry, h)) {
                        out.push(prompt);
                        return Ok(link);
                    }
                    out.push(detail(
                        &entry,
                        "",
                        DetailKind::Attachment,
                        name,
                        raw.get().to_string(),
                    ));
                }
            }
            // Bookkeeping (file snapshots, modes, titles, queue operations): not conversation.
            _ => {}
        }
        Ok(link)
    }
}

/// The entry's place in the session's chain (`uuid`, `parentUuid`); none for bookkeeping
/// lines, which have no uuid.
fn link(entry: &Entry) -> Option<Link> {
    let id = |t: &Option<Text>| {
        t.as_deref()
            .filter(|s| !s.is_empty())
            .map(|s| xxh3_64(s.as_bytes()))
    };
    Some(Link {
        id: id(&entry.uuid)?,
        parent: id(&entry.parent_uuid),
    })
}

fn user_entry(entry: &mut Entry, out: &mut Vec<Record>) {
    let Some(content) = entry.message.as_mut().and_then(|m| m.content.take()) else {
        return;
    };
    let mut blocks = match content {
        Content::Text(text) => {
            classify_user_text(entry, text, out);
            return;
        }
        Content::Blocks(blocks) => blocks,
    };
    let has_tool_result = blocks.iter().any(|b| &*b.kind == "tool_result");
    let mut text = String::new();
    for (i, block) in blocks.iter_mut().enumerate() {
        let suffix = format!(":{i}");
        match &*block.kind {
            "text" => {
                let t = block.text.as_deref().unwrap_or_default();
                if has_tool_result {
                    // Text beside tool results is host text (e.g. an interruption note).
                    out.push(detail(
                        entry,
                        &suffix,
                        DetailKind::Meta,
                        None,
                        t.to_string(),
                    ));
                } else {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(t);
                }
            }
            "tool_result" => tool_result(entry, block, out),
            "image" => out.push(image(entry, &suffix, block)),
            _ => out.push(detail(
                entry,
                &suffix,
                DetailKind::Meta,
                Some(block.kind.to_string()),
                String::new(),
            )),
        }
    }
    if !text.is_empty() {
        classify_user_text(entry, text, out);
    }
}

/// A prompt, or host text that only looks like one.
fn classify_user_text(entry: &Entry, text: String, out: &mut Vec<Record>) {
    let at = timestamp(entry);
    let trimmed = text.trim_start();
    let (kind, name) = if entry.sidechain {
        (DetailKind::Subagent, Some("prompt"))
    } else if entry.compact_summary {
        (DetailKind::Meta, Some("compact_summary"))
    } else if entry.meta {
        (DetailKind::Meta, None)
    } else if let Some(command) = model_command(entry, trimmed) {
        out.push(prompt(entry, command, at));
        return;
    } else if HOST_TEXT_TAGS.iter().any(|tag| trimmed.starts_with(tag)) {
        (DetailKind::Command, None)
    } else if trimmed.starts_with(INTERRUPTED) {
        (DetailKind::Meta, Some("interrupted"))
    } else {
        out.push(prompt(entry, text, at));
        return;
    };
    out.push(detail(entry, "", kind, name.map(str::to_string), text));
}

fn prompt(entry: &Entry, text: String, at: Option<String>) -> Record {
    let key = format!("u:{}", entry_id(entry, &text));
    Record::Prompt {
        key,
        text: unwrap_pastes(text),
        at,
    }
}

/// A slash command that goes to the model (a command file, `/init`), as the person typed it:
/// `/name args`. The client writes it as `<command-message>` first; a local command
/// (`/clear`, `/model`) starts with `<command-name>`, is answered by the client itself and
/// stays host text. The command's expanded text follows as a meta entry (L3).
fn model_command(entry: &Entry, text: &str) -> Option<String> {
    if !text.starts_with("<command-message>") || !Origin::is_human(&entry.origin) {
        return None;
    }
    let name = tagged(text, "command-name")?.trim();
    let args = tagged(text, "command-args").unwrap_or_default().trim();
    Some(match args {
        "" => name.to_string(),
        args => format!("{name} {args}"),
    })
}

/// The text between `<tag>` and `</tag>`.
fn tagged<'t>(text: &'t str, tag: &str) -> Option<&'t str> {
    let start = text.find(&format!("<{tag}>"))? + tag.len() + 2;
    let len = text[start..].find(&format!("</{tag}>"))?;
    Some(&text[start..start + len])
}

/// A prompt the person typed while the model was working, which the client handed to the
/// model between two steps of the running turn: it starts a turn there.
fn queued_prompt(entry: &Entry, head: AttachmentHead) -> Option<Record> {
    let is_prompt = &*head.kind == "queued_command"
        && head.command_mode.as_deref() == Some("prompt")
        && Origin::is_human(&head.origin)
        && !entry.sidechain;
    if !is_prompt {
        return None;
    }
    let text = match head.prompt? {
        Content::Text(text) => text,
        Content::Blocks(blocks) => blocks
            .iter()
            .filter_map(|b| b.text.as_deref())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    (!text.trim().is_empty()).then(|| prompt(entry, text, timestamp(entry)))
}

const PASTE_OPEN: &str = "<pasted_content id=\"";

/// The prompt with each `<pasted_content id="…">…</pasted_content id="…">` (2.1.332) written
/// as [`PASTE_START`] … [`PASTE_END`] around the pasted text, kept as it was. The blank lines the
/// client puts around a paste are dropped at the ends of the prompt.
fn unwrap_pastes(text: String) -> String {
    if !text.contains(PASTE_OPEN) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(PASTE_OPEN) {
        let after = &rest[at + PASTE_OPEN.len()..];
        let Some(id_len) = after.find("\">") else {
            break;
        };
        let id = &after[..id_len];
        let pasted = &after[id_len + 2..];
        let close = format!("</pasted_content id=\"{id}\">");
        let Some(len) = pasted.find(&close) else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(PASTE_START);
        out.push_str(&pasted[..len]);
        out.push_str(PASTE_END);
        rest = &pasted[len + close.len()..];
    }
    if out.is_empty() {
        return text;
    }
    out.push_str(rest);
    out.trim().to_string()
}

fn tool_result(entry: &Entry, block: &mut Block, out: &mut Vec<Record>) {
    let id = block.tool_use_id.as_deref().unwrap_or_default().to_string();
    let mut body = String::new();
    let mut images = Vec::new();
    if let Some(content) = block.content.take() {
        match content {
            Content::Text(t) => body = t,
            Content::Blocks(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    match &*part.kind {
                        "image" => images.push(image(entry, &format!(":{id}:{i}"), part)),
                        _ => {
                            if !body.is_empty() {
                                body.push('\n');
                            }
                            body.push_str(part.text.as_deref().unwrap_or_default());
                        }
                    }
                }
            }
        }
    }
    out.push(Record::Detail {
        key: format!("r:{id}"),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some(id),
        body,
        is_error: block.is_error.unwrap_or(false),
        at: timestamp(entry),
    });
    out.extend(images);
}

fn assistant_entry(entry: &mut Entry, out: &mut Vec<Record>) {
    let Some(mut message) = entry.message.take() else {
        return;
    };
    let content = message.content.take();
    let entry = &*entry;
    let at = timestamp(entry);
    let synthetic = message.model.as_deref() == Some("<synthetic>");
    let message_id = match &message.id {
        Some(id) => id.to_string(),
        None => entry_id(entry, ""),
    };
    let blocks = match content {
        Some(Content::Blocks(b)) => b,
        Some(Content::Text(t)) => vec![Block::text(t)],
        None => Vec::new(),
    };
    for block in &blocks {
        match &*block.kind {
            "text" => {
                let text = block.text.as_deref().unwrap_or_default().to_string();
                let key = format!("a:{message_id}:{:016x}", xxh3_64(text.as_bytes()));
                // Synthetic messages are the host's own notices ("No response requested.").
                let host_text = entry.api_error || synthetic;
                if entry.sidechain || host_text {
                    let (kind, name) = match (entry.api_error, synthetic) {
                        (true, _) => (DetailKind::System, "api_error"),
                        (_, true) => (DetailKind::System, "synthetic"),
                        _ => (DetailKind::Subagent, "answer"),
                    };
                    out.push(Record::Detail {
                        key,
                        kind,
                        name: Some(name.into()),
                        tool_use_id: None,
                        body: text,
                        is_error: entry.api_error,
                        at: at.clone(),
                    });
                } else {
                    out.push(Record::Answer {
                        key,
                        text,
                        at: at.clone(),
                    });
                }
            }
            "thinking" | "redacted_thinking" => {
                let text = block
                    .thinking
                    .as_deref()
                    .unwrap_or("[redacted thinking]")
                    .to_string();
                out.push(Record::Detail {
                    key: format!("th:{message_id}:{:016x}", xxh3_64(text.as_bytes())),
                    kind: DetailKind::Thinking,
                    name: None,
                    tool_use_id: None,
                    body: text,
                    is_error: false,
                    at: at.clone(),
                });
            }
            "tool_use" | "server_tool_use" => {
                let id = block.id.as_deref().unwrap_or_default().to_string();
                out.push(Record::Detail {
                    key: tool_call_key(&id),
                    kind: DetailKind::ToolCall,
                    name: block.name.as_deref().map(str::to_string),
                    tool_use_id: Some(id),
                    body: block.input.map(|r| r.get().to_string()).unwrap_or_default(),
                    is_error: false,
                    at: at.clone(),
                });
            }
            other => out.push(Record::Detail {
                key: format!("x:{message_id}:{other}"),
                kind: DetailKind::Meta,
                name: Some(other.to_string()),
                tool_use_id: None,
                body: String::new(),
                is_error: false,
                at: at.clone(),
            }),
        }
    }
    // Synthetic messages carry no real usage.
    if let (Some(u), false) = (&message.usage, synthetic) {
        out.push(Record::ApiCall {
            message_id,
            model: message.model.as_deref().map(str::to_string),
            usage: Usage {
                input: u.input_tokens,
                cache_creation: u.cache_creation_input_tokens,
                cache_read: u.cache_read_input_tokens,
                output: u.output_tokens,
            },
            sidechain: entry.sidechain,
            at,
        });
    }
}

/// The key of the detail that stores tool call `id` (a subagent's meta file names its call).
pub(super) fn tool_call_key(id: &str) -> String {
    format!("c:{id}")
}

/// Message and tool result content: text or a list of blocks. It holds the tool output, the
/// bulk of a transcript, so it is decoded in the same pass as the line rather than kept raw
/// and read again. Any other JSON value becomes its JSON text.
enum Content<'a> {
    Text(String),
    Blocks(Vec<Block<'a>>),
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ContentVisitor(PhantomData))
    }
}

struct ContentVisitor<'a>(PhantomData<Block<'a>>);

impl<'de: 'a, 'a> Visitor<'de> for ContentVisitor<'a> {
    type Value = Content<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("text or a list of content blocks")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Content::Text(text.to_string()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(Content::Text(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut blocks = Vec::new();
        while let Some(block) = seq.next_element()? {
            blocks.push(block);
        }
        Ok(Content::Blocks(blocks))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let value = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Content::Text(value.to_string()))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Content::Text(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Content::Text(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Content::Text(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Content::Text(Value::from(v).to_string()))
    }
}

/// A JSON string's text, or any other JSON value as written.
fn as_text(raw: &RawValue) -> String {
    serde_json::from_str::<String>(raw.get()).unwrap_or_else(|_| raw.get().to_string())
}

impl Block<'_> {
    fn text(text: String) -> Self {
        Block {
            kind: Text("text".into()),
            text: Some(Text(text.into())),
            thinking: None,
            id: None,
            name: None,
            input: None,
            tool_use_id: None,
            content: None,
            is_error: None,
            source: None,
        }
    }
}

fn image(entry: &Entry, suffix: &str, block: &Block) -> Record {
    let (media, bytes) = match &block.source {
        Some(s) => (
            s.media_type.as_deref().unwrap_or("image").to_string(),
            s.data.as_ref().map(|d| base64_len(d)).unwrap_or(0),
        ),
        None => ("image".into(), 0),
    };
    Record::Detail {
        key: format!("i:{}{suffix}", entry_id(entry, "")),
        kind: DetailKind::Image,
        name: Some(media.clone()),
        tool_use_id: None,
        body: format!("[{media}, {bytes} bytes]"),
        is_error: false,
        at: timestamp(entry),
    }
}

/// Decoded size of base64 text.
fn base64_len(data: &str) -> u64 {
    let padding = data.bytes().rev().take_while(|&b| b == b'=').count() as u64;
    (data.len() as u64 * 3 / 4).saturating_sub(padding)
}

fn detail(
    entry: &Entry,
    suffix: &str,
    kind: DetailKind,
    name: Option<String>,
    body: String,
) -> Record {
    Record::Detail {
        key: format!("e:{}{suffix}", entry_id(entry, &body)),
        kind,
        name,
        tool_use_id: None,
        body,
        is_error: false,
        at: timestamp(entry),
    }
}

fn timestamp(entry: &Entry) -> Option<String> {
    entry.timestamp.as_deref().map(str::to_string)
}

/// The entry's uuid, or (for hand-made or older lines without one) a hash of its content.
fn entry_id(entry: &Entry, content: &str) -> String {
    match &entry.uuid {
        Some(uuid) if !uuid.is_empty() => uuid.to_string(),
        _ => format!(
            "h{:016x}",
            xxh3_64(format!("{:?}\0{content}", entry.timestamp.as_deref()).as_bytes())
        ),
    }
}

#[cfg(test)]
mod tests;
