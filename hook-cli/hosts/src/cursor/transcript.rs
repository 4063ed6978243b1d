//! Cursor's agent transcripts (`~/.cursor/projects/<workspace>/agent-transcripts/<id>/<id>.jsonl`).
//! Cursor documents only that `transcript_path` names "the main conversation transcript file";
//! the line shape is what its users report (see `docs/hosts/cursor.md`): one JSON object per
//! message, `{"role": "user" | "assistant", "message": {"content": [...]}}`, with Claude-style
//! content blocks (`text`, `thinking`, `tool_use`, `tool_result`). Lines carry no id and no
//! time, so each record is keyed by its content: a line read again stores nothing twice.
//! Lines of any other shape are Cursor's bookkeeping and are passed over.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use xxhash_rust::xxh3::xxh3_64;

use throughline_core::model::DetailKind;
use throughline_core::record::{LineParser, Link, Record};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default, borrow)]
    role: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    message: Option<Message<'a>>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    input: Option<&'a RawValue>,
    #[serde(default, borrow)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default)]
    is_error: bool,
}

/// The tag Cursor is reported to wrap the person's words in, inside a user message that also
/// carries the context it attached (open files, rules).
const QUERY_OPEN: &str = "<user_query>";
const QUERY_CLOSE: &str = "</user_query>";

#[derive(Default)]
pub struct TranscriptParser;

impl LineParser for TranscriptParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let line: Line = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let (Some(role), Some(content)) =
            (line.role.as_deref(), line.message.and_then(|m| m.content))
        else {
            return Ok(None);
        };
        let blocks = blocks_of(content)?;
        match role {
            "user" => user(&blocks, out),
            "assistant" => assistant(&blocks, out),
            // Anything else Cursor writes is its own, never the conversation.
            _ => {}
        }
        // Cursor appends in order: no line waits for another.
        Ok(None)
    }
}

/// A message's content: blocks, or one string (as a text block).
fn blocks_of(content: &RawValue) -> Result<Vec<Block<'_>>, String> {
    if content.get().trim_start().starts_with('"') {
        let text: Cow<str> =
            serde_json::from_str(content.get()).map_err(|e| format!("content: {e}"))?;
        return Ok(vec![Block {
            kind: Cow::Borrowed("text"),
            text: Some(text),
            thinking: None,
            id: None,
            name: None,
            input: None,
            tool_use_id: None,
            content: None,
            is_error: false,
        }]);
    }
    serde_json::from_str(content.get()).map_err(|e| format!("content blocks: {e}"))
}

fn user(blocks: &[Block], out: &mut Vec<Record>) {
    // With a `<user_query>` block, the other text blocks are context Cursor attached.
    let tagged = blocks
        .iter()
        .any(|b| b.kind == "text" && b.text.as_deref().and_then(queried).is_some());
    let mut words = Vec::new();
    for block in blocks {
        match block.kind.as_ref() {
            "text" => {
                let text = block.text.as_deref().unwrap_or_default();
                match queried(text) {
                    Some(query) => words.push(query),
                    None if tagged => {
                        out.push(detail("x", DetailKind::Attachment, None, None, text, false))
                    }
                    None => words.push(text),
                }
            }
            "tool_result" => out.push(tool_result(block)),
            other => out.push(unknown(other, block)),
        }
    }
    let text = words.join("\n\n");
    let text = text.trim();
    if !text.is_empty() {
        out.push(Record::Prompt {
            key: format!("u:{}", hash(text)),
            text: text.to_string(),
            at: None,
        });
    }
}

/// The person's words inside `<user_query>` tags, when the block is wrapped in them.
fn queried(text: &str) -> Option<&str> {
    let inner = text
        .trim()
        .strip_prefix(QUERY_OPEN)?
        .strip_suffix(QUERY_CLOSE)?;
    Some(inner.trim())
}

fn assistant(blocks: &[Block], out: &mut Vec<Record>) {
    for block in blocks {
        match block.kind.as_ref() {
            "text" => {
                let text = block.text.as_deref().unwrap_or_default().trim();
                if !text.is_empty() {
                    out.push(Record::Answer {
                        key: format!("a:{}", hash(text)),
                        text: text.to_string(),
                        at: None,
                    });
                }
            }
            "thinking" | "reasoning" => {
                let text = block
                    .thinking
                    .as_deref()
                    .or(block.text.as_deref())
                    .unwrap_or_default();
                if !text.trim().is_empty() {
                    out.push(detail("th", DetailKind::Thinking, None, None, text, false));
                }
            }
            "tool_use" => {
                let body = block.input.map_or("{}", RawValue::get);
                let key = match block.id.as_deref() {
                    Some(id) if !id.is_empty() => format!("c:{id}"),
                    _ => format!("c:{}", hash(&format!("{:?}\0{body}", block.name))),
                };
                out.push(Record::Detail {
                    key,
                    kind: DetailKind::ToolCall,
                    name: block.name.as_deref().map(str::to_string),
                    tool_use_id: block.id.as_deref().map(str::to_string),
                    body: body.to_string(),
                    is_error: false,
                    at: None,
                });
            }
            "tool_result" => out.push(tool_result(block)),
            other => out.push(unknown(other, block)),
        }
    }
}

fn tool_result(block: &Block) -> Record {
    let body = block.content.map(text_of).unwrap_or_default();
    let key = match block.tool_use_id.as_deref() {
        Some(id) if !id.is_empty() => format!("r:{id}"),
        _ => format!("r:{}", hash(&body)),
    };
    Record::Detail {
        key,
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: block.tool_use_id.as_deref().map(str::to_string),
        body,
        is_error: block.is_error,
        at: None,
    }
}

/// A block of a kind not reported yet: kept whole in the detail, so nothing is lost.
fn unknown(kind: &str, block: &Block) -> Record {
    let body = block
        .text
        .as_deref()
        .map(str::to_string)
        .or_else(|| block.content.map(text_of))
        .unwrap_or_default();
    detail("o", DetailKind::Meta, Some(kind), None, &body, false)
}

fn detail(
    prefix: &str,
    kind: DetailKind,
    name: Option<&str>,
    tool_use_id: Option<&str>,
    body: &str,
    is_error: bool,
) -> Record {
    Record::Detail {
        key: format!("{prefix}:{}", hash(&format!("{name:?}\0{body}"))),
        kind,
        name: name.map(str::to_string),
        tool_use_id: tool_use_id.map(str::to_string),
        body: body.to_string(),
        is_error,
        at: None,
    }
}

/// A tool result's text: a string as it is, text blocks joined, anything else as its JSON.
fn text_of(raw: &RawValue) -> String {
    if let Ok(text) = serde_json::from_str::<String>(raw.get()) {
        return text;
    }
    #[derive(Deserialize)]
    struct Text {
        #[serde(default)]
        text: Option<String>,
    }
    match serde_json::from_str::<Vec<Text>>(raw.get()) {
        Ok(parts) if parts.iter().all(|p| p.text.is_some()) => parts
            .into_iter()
            .filter_map(|p| p.text)
            .collect::<Vec<_>>()
            .join("\n"),
        _ => raw.get().to_string(),
    }
}

fn hash(content: &str) -> String {
    format!("{:016x}", xxh3_64(content.as_bytes()))
}

#[cfg(test)]
mod tests;
