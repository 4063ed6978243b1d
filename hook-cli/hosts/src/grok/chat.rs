//! Grok's `chat_history.jsonl` (`~/.grok/sessions/<encoded cwd>/<session id>/`): the
//! messages the model is sent, one JSON object a line, tagged by `type`: `system` (the
//! system prompt), `user` (a list of `text` and `image` parts; `prompt_index` on what the
//! person typed, `synthetic_reason` on what Grok added), `assistant` (its text and
//! `tool_calls`), `tool_result`, `reasoning` and `backend_tool_call`. Lines carry neither ids
//! nor times, and Grok rewrites the file when it prunes old tool output, so each record is
//! keyed by what identifies it for good: a prompt by its index and text, a tool call and its
//! result by the call's id, anything else by its content within its turn.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use xxhash_rust::xxh3::xxh3_64;

use throughline_core::model::DetailKind;
use throughline_core::record::{LineParser, Link, Record};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    /// A string (`system`, `assistant`, `tool_result`) or a list of parts (`user`).
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default)]
    prompt_index: Option<u64>,
    #[serde(default, borrow)]
    synthetic_reason: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Vec<ToolCall<'a>>,
    #[serde(default, borrow)]
    tool_call_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    images: Vec<Part<'a>>,
    /// `reasoning`: what the model's thinking is summed up as (the rest is encrypted).
    #[serde(default, borrow)]
    summary: Vec<Part<'a>>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    /// `backend_tool_call`: a search or code run on xAI's side, tagged by `tool_type`.
    #[serde(rename = "kind", default, borrow)]
    backend: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ToolCall<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    /// The arguments as the model wrote them: a JSON text.
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct Part<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    /// An image part's `data:` URL (or a link).
    #[serde(default, borrow)]
    url: Option<Cow<'a, str>>,
}

/// Grok's chat file, to the shared code.
#[derive(Default)]
pub struct ChatParser;

impl LineParser for ChatParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let parsed: Line = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        match parsed.kind.as_ref() {
            "user" => user(&parsed, out),
            "assistant" => assistant(&parsed, out),
            "tool_result" => tool_result(&parsed, out),
            "reasoning" => reasoning(&parsed, out),
            "backend_tool_call" => backend_call(&parsed, out),
            // `system`: the system prompt, the same for every session; anything newer is
            // not known yet.
            _ => {}
        }
        // Grok appends in order: no line waits for another.
        Ok(None)
    }
}

fn user(line: &Line, out: &mut Vec<Record>) {
    let parts = parts_of(line.content);
    let text = texts(&parts);
    let images = parts.iter().filter(|p| p.kind == "image");
    for (i, image) in images.enumerate() {
        out.push(image_detail(
            format!("i:{}:{i}", hash(&text)),
            image.url.as_deref(),
        ));
    }
    if text.is_empty() {
        return;
    }
    match (line.synthetic_reason.as_deref(), line.prompt_index) {
        // What the person typed: a prompt starts a turn. Grok adds what a skill says after it.
        (None, Some(index)) => {
            let (query, added) = super::typed(&text);
            if let Some(added) = added {
                out.push(detail(
                    format!("e:skill:{}", hash(&added)),
                    DetailKind::Attachment,
                    "skill_information",
                    added,
                ));
            }
            out.push(Record::Prompt {
                // After /rewind an index comes again, with other words.
                key: format!("u:{index}:{}", hash(&text)),
                text: query,
                at: None,
            })
        }
        // Typed while the model worked (Ctrl+Enter): the person's words too.
        (Some("interjection"), _) => out.push(Record::Prompt {
            key: format!("j:{}", hash(&text)),
            text: super::typed(&text).0,
            at: None,
        }),
        // The environment and rules Grok opens a session with (`<user_info>`, 1.0.6) name no
        // reason and no index.
        (None, None) => out.push(detail(
            format!("e:context:{}", hash(&text)),
            DetailKind::Attachment,
            "context",
            text,
        )),
        // Project instructions, reminders, a Stop hook's feedback (the memory Throughline
        // hands over), compaction notes: what Grok told the model, not the person.
        (Some(reason), _) => out.push(detail(
            format!("e:{reason}:{}", hash(&text)),
            DetailKind::Attachment,
            reason,
            text,
        )),
    }
}

fn assistant(line: &Line, out: &mut Vec<Record>) {
    out.extend(answer(string_of(line.content)));
    for call in &line.tool_calls {
        out.push(Record::Detail {
            key: format!("c:{}", call.id),
            kind: DetailKind::ToolCall,
            name: call.name.as_deref().map(str::to_string),
            tool_use_id: Some(call.id.to_string()),
            body: call.arguments.as_deref().unwrap_or("{}").to_string(),
            is_error: false,
            at: None,
        });
    }
}

/// The model's words, keyed by them: the same record whether read here or from the Stop
/// hook's `lastAssistantMessage`. A message of tool calls alone says nothing.
pub(super) fn answer(text: String) -> Option<Record> {
    (!text.trim().is_empty()).then(|| Record::Answer {
        key: format!("a:{}", hash(&text)),
        text,
        at: None,
    })
}

fn tool_result(line: &Line, out: &mut Vec<Record>) {
    let body = string_of(line.content);
    let Some(id) = line.tool_call_id.as_deref() else {
        return;
    };
    out.push(Record::Detail {
        key: format!("r:{id}"),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some(id.to_string()),
        body,
        // The chat file does not say whether a tool failed.
        is_error: false,
        at: None,
    });
    for (i, image) in line.images.iter().enumerate() {
        out.push(image_detail(format!("i:{id}:{i}"), image.url.as_deref()));
    }
}

fn reasoning(line: &Line, out: &mut Vec<Record>) {
    let text = texts(&line.summary);
    if text.is_empty() {
        return;
    }
    let key = match line.id.as_deref() {
        Some(id) => format!("th:{id}"),
        None => format!("th:{}", hash(&text)),
    };
    out.push(Record::Detail {
        key,
        kind: DetailKind::Thinking,
        name: None,
        tool_use_id: None,
        body: text,
        is_error: false,
        at: None,
    });
}

fn backend_call(line: &Line, out: &mut Vec<Record>) {
    #[derive(Deserialize)]
    struct Kind<'a> {
        #[serde(default, borrow)]
        tool_type: Option<Cow<'a, str>>,
    }
    let Some(raw) = line.backend else {
        return;
    };
    let name = serde_json::from_str::<Kind>(raw.get())
        .ok()
        .and_then(|k| k.tool_type.map(Cow::into_owned));
    out.push(Record::Detail {
        key: format!("b:{}", hash(raw.get())),
        kind: DetailKind::ToolCall,
        name,
        tool_use_id: None,
        body: raw.get().to_string(),
        is_error: false,
        at: None,
    });
}

/// `content` as a list of parts (a bare string is one text part).
fn parts_of(raw: Option<&RawValue>) -> Vec<Part<'_>> {
    let Some(raw) = raw else {
        return Vec::new();
    };
    if let Ok(text) = serde_json::from_str::<Cow<str>>(raw.get()) {
        return vec![Part {
            kind: Cow::Borrowed("text"),
            text: Some(text),
            url: None,
        }];
    }
    serde_json::from_str(raw.get()).unwrap_or_default()
}

fn string_of(raw: Option<&RawValue>) -> String {
    texts(&parts_of(raw))
}

fn texts(parts: &[Part]) -> String {
    let texts: Vec<&str> = parts.iter().filter_map(|p| p.text.as_deref()).collect();
    texts.join("\n")
}

fn image_detail(key: String, url: Option<&str>) -> Record {
    let url = url.unwrap_or_default();
    let body = match url
        .strip_prefix("data:")
        .and_then(|u| u.split_once(";base64,"))
    {
        // Base64: four characters carry three bytes, less one for each `=` of padding.
        Some((mime, data)) => {
            let padding = data.bytes().rev().take_while(|&b| b == b'=').count();
            let bytes = (data.len() / 4 * 3).saturating_sub(padding);
            format!("[image {mime}, {bytes} bytes]")
        }
        None => format!("[image {url}]"),
    };
    detail(key, DetailKind::Image, "image", body)
}

fn detail(key: String, kind: DetailKind, name: &str, body: String) -> Record {
    Record::Detail {
        key,
        kind,
        name: Some(name.to_string()),
        tool_use_id: None,
        body,
        is_error: false,
        at: None,
    }
}

fn hash(text: &str) -> String {
    format!("{:016x}", xxh3_64(text.as_bytes()))
}

#[cfg(test)]
mod tests;
