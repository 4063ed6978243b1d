//! Gemini CLI chat files (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`), as
//! 0.61.0 writes them: a header line (`sessionId`, `projectHash`, `startTime`, `kind`), then
//! one line per message (`type` `user`, `gemini`, `info`, `warning`, `error`) and `$set`
//! patch lines. A message is written again, whole, each time it changes (its tool calls run,
//! its token counts arrive), so each record is keyed by the message's id and a later copy
//! adds only what is new. `$set.messages` restates the whole history (compression) and
//! `$rewindTo` drops the messages from an id on (`/rewind`).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use throughline_core::model::{DetailKind, Usage};
use throughline_core::record::{Back, LineParser, Link, Record};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    /// What the person typed, when the CLI sent the model more (hook context, a command's
    /// expansion).
    #[serde(rename = "displayContent", default, borrow)]
    display_content: Option<&'a RawValue>,
    #[serde(default, borrow)]
    thoughts: Vec<Thought<'a>>,
    #[serde(default)]
    tokens: Option<Tokens>,
    #[serde(default, borrow)]
    model: Option<Cow<'a, str>>,
    #[serde(rename = "toolCalls", default, borrow)]
    tool_calls: Vec<ToolCall<'a>>,
    #[serde(rename = "$set", default, borrow)]
    set: Option<Set<'a>>,
    #[serde(rename = "$rewindTo", default, borrow)]
    rewind_to: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Set<'a> {
    #[serde(default, borrow)]
    messages: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct Thought<'a> {
    #[serde(default, borrow)]
    subject: Cow<'a, str>,
    #[serde(default, borrow)]
    description: Cow<'a, str>,
}

/// Usage of the model call that produced the message (`usageMetadata`, renamed).
#[derive(Deserialize, Clone, Copy)]
struct Tokens {
    #[serde(default)]
    input: u64,
    #[serde(default)]
    output: u64,
    #[serde(default)]
    cached: u64,
    #[serde(default)]
    thoughts: u64,
}

#[derive(Deserialize)]
struct ToolCall<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    args: Option<&'a RawValue>,
    /// `functionResponse` parts, once the tool ran.
    #[serde(default, borrow)]
    result: Option<Vec<Part<'a>>>,
    #[serde(default, borrow)]
    status: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    timestamp: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct Part<'a> {
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thought: bool,
    #[serde(rename = "functionResponse", default, borrow)]
    function_response: Option<FunctionResponse<'a>>,
    #[serde(rename = "inlineData", default, borrow)]
    inline_data: Option<InlineData<'a>>,
}

#[derive(Deserialize)]
struct FunctionResponse<'a> {
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    response: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct InlineData<'a> {
    #[serde(rename = "mimeType", default, borrow)]
    mime_type: Cow<'a, str>,
    #[serde(default, borrow)]
    data: Cow<'a, str>,
}

/// The CLI's own text in a `user` message: never the person's.
const HOST_TEXT: &[(&str, &str)] = &[
    ("<session_context>", "session_context"),
    ("<hook_context>", "hook_context"),
    // MCP servers' instructions, ahead of a subagent's task (0.61.0).
    ("<loaded_context>", "loaded_context"),
];

/// The window of every Gemini model the CLI knows, but Gemma's (0.61.0's `tokenLimit`).
const WINDOW: u64 = 1_048_576;
const GEMMA_WINDOW: u64 = 256_000;

#[derive(Default)]
pub struct ChatParser {
    cwd_seen: bool,
    window: Option<u64>,
}

impl LineParser for ChatParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let line: Line = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        self.line(line, out)?;
        // The CLI appends in order: no line waits for another.
        Ok(None)
    }
}

/// The key a prompt is stored under: its message's id, which a `$rewindTo` names too.
fn prompt_key(message_id: &str) -> String {
    format!("u:{message_id}")
}

impl ChatParser {
    fn line(&mut self, line: Line, out: &mut Vec<Record>) -> Result<(), String> {
        if let Some(set) = line.set {
            // A restated history: messages already stored keep their records.
            for raw in set.messages.unwrap_or_default() {
                let message: Line =
                    serde_json::from_str(raw.get()).map_err(|e| format!("$set message: {e}"))?;
                self.line(message, out)?;
            }
            return Ok(());
        }
        if let Some(to) = line.rewind_to {
            // Rewound to before a prompt: that turn and the later ones leave the memory. The
            // note goes to the turn the conversation continues.
            out.push(Record::Rollback(Back::ToPrompt(prompt_key(&to))));
            out.push(detail(
                format!("rw:{to}:{}", line.timestamp.as_deref().unwrap_or_default()),
                DetailKind::Meta,
                "rewind",
                format!("the conversation was rewound to before message {to}"),
                None,
            ));
            return Ok(());
        }
        let (Some(id), Some(kind)) = (line.id.as_deref(), line.kind.as_deref()) else {
            // The header: the session's id and project hash, nothing for the memory.
            return Ok(());
        };
        let at = line.timestamp.as_deref().map(str::to_string);
        match kind {
            "user" => self.user(id, &line, at, out),
            "gemini" => self.gemini(id, &line, at, out),
            // info, warning, error: what the CLI told the person.
            other => {
                let body = text_of(line.content);
                if !body.is_empty() {
                    out.push(detail(
                        format!("s:{id}"),
                        DetailKind::System,
                        other,
                        body,
                        at,
                    ));
                }
            }
        }
        Ok(())
    }

    fn user(&mut self, id: &str, line: &Line, at: Option<String>, out: &mut Vec<Record>) {
        let parts = parts_of(line.content);
        let mut prompt = String::new();
        for (i, part) in parts.iter().enumerate() {
            if let Some(response) = &part.function_response {
                out.push(tool_result(response, None, at.clone()));
                continue;
            }
            if let Some(image) = &part.inline_data {
                out.push(image_detail(format!("i:{id}:{i}"), image, at.clone()));
                continue;
            }
            let Some(text) = part.text.as_deref() else {
                continue;
            };
            let trimmed = text.trim_start();
            if let Some((_, name)) = HOST_TEXT.iter().find(|(tag, _)| trimmed.starts_with(tag)) {
                if *name == "session_context" {
                    self.workspace(text, out);
                }
                out.push(detail(
                    format!("e:{id}:{i}"),
                    DetailKind::Attachment,
                    name,
                    text.to_string(),
                    at.clone(),
                ));
                continue;
            }
            if !prompt.is_empty() {
                prompt.push('\n');
            }
            prompt.push_str(text);
        }
        // What the person typed, when the CLI shows it apart from what it sent.
        let shown = text_of(line.display_content);
        if !shown.is_empty() {
            prompt = shown;
        }
        if !prompt.is_empty() {
            out.push(Record::Prompt {
                key: prompt_key(id),
                text: prompt,
                at,
            });
        }
    }

    fn gemini(&mut self, id: &str, line: &Line, at: Option<String>, out: &mut Vec<Record>) {
        if let Some(model) = line.model.as_deref() {
            let window = if model.contains("gemma") {
                GEMMA_WINDOW
            } else {
                WINDOW
            };
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
        for (i, thought) in line.thoughts.iter().enumerate() {
            let text = match (thought.subject.trim(), thought.description.trim()) {
                ("", d) => d.to_string(),
                (s, "") => s.to_string(),
                (s, d) => format!("{s}\n{d}"),
            };
            out.push(Record::Detail {
                key: format!("th:{id}:{i}"),
                kind: DetailKind::Thinking,
                name: None,
                tool_use_id: None,
                body: text,
                is_error: false,
                at: at.clone(),
            });
        }
        let text = text_of(line.content);
        if !text.is_empty() {
            out.push(Record::Answer {
                key: format!("a:{id}"),
                text,
                at: at.clone(),
            });
        }
        for call in &line.tool_calls {
            let call_at = call.timestamp.as_deref().map(str::to_string).or(at.clone());
            out.push(Record::Detail {
                key: format!("c:{}", call.id),
                kind: DetailKind::ToolCall,
                name: call.name.as_deref().map(str::to_string),
                tool_use_id: Some(call.id.to_string()),
                body: call
                    .args
                    .map_or_else(|| "{}".into(), |a| a.get().to_string()),
                is_error: false,
                at: call_at.clone(),
            });
            let failed = matches!(call.status.as_deref(), Some("error" | "cancelled"));
            for part in call.result.iter().flatten() {
                if let Some(response) = &part.function_response {
                    let mut record = tool_result(response, Some(&call.id), call_at.clone());
                    if let Record::Detail { is_error, .. } = &mut record {
                        *is_error |= failed;
                    }
                    out.push(record);
                }
            }
        }
        if let Some(tokens) = line.tokens {
            out.push(Record::ApiCall {
                message_id: id.to_string(),
                model: line.model.as_deref().map(str::to_string),
                usage: Usage {
                    // The prompt count includes what was read from the cache.
                    input: tokens.input.saturating_sub(tokens.cached),
                    cache_creation: 0,
                    cache_read: tokens.cached,
                    output: tokens.output + tokens.thoughts,
                },
                sidechain: false,
                at,
            });
        }
    }

    /// The working directory, from the first workspace directory the session context lists
    /// (the header names none): for `import`, which has no hook payload to say it.
    fn workspace(&mut self, context: &str, out: &mut Vec<Record>) {
        if self.cwd_seen {
            return;
        }
        let mut lines = context
            .lines()
            .skip_while(|l| !l.contains("Workspace Directories"));
        let cwd = lines
            .nth(1)
            .and_then(|l| l.trim_start().strip_prefix("- "))
            .map(str::trim)
            .filter(|d| d.starts_with('/'));
        if let Some(cwd) = cwd {
            self.cwd_seen = true;
            out.push(Record::Meta {
                cwd: Some(cwd.to_string()),
                client_version: None,
                context_window: None,
                branch: None,
            });
        }
    }
}

/// A tool's answer as the model got it: its `output` (or `error`) text, else the JSON.
fn tool_result(response: &FunctionResponse, call: Option<&str>, at: Option<String>) -> Record {
    #[derive(Deserialize)]
    struct Body<'a> {
        #[serde(default, borrow)]
        output: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        error: Option<Cow<'a, str>>,
    }
    let id = response
        .id
        .as_deref()
        .or(call)
        .unwrap_or_default()
        .to_string();
    let raw = response.response.map_or("", RawValue::get);
    let (body, is_error) = match serde_json::from_str::<Body>(raw) {
        Ok(Body {
            error: Some(error), ..
        }) => (error.into_owned(), true),
        Ok(Body {
            output: Some(output),
            ..
        }) => (output.into_owned(), false),
        _ => (raw.to_string(), false),
    };
    Record::Detail {
        key: format!("r:{id}"),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some(id),
        body,
        is_error,
        at,
    }
}

fn image_detail(key: String, image: &InlineData, at: Option<String>) -> Record {
    // Base64: four characters carry three bytes.
    let bytes = image.data.len() / 4 * 3;
    detail(
        key,
        DetailKind::Image,
        "image",
        format!("[image {}, {bytes} bytes]", image.mime_type),
        at,
    )
}

/// `content` is a string or a list of parts.
fn parts_of(raw: Option<&RawValue>) -> Vec<Part<'_>> {
    let Some(raw) = raw else {
        return Vec::new();
    };
    if let Ok(text) = serde_json::from_str::<Cow<str>>(raw.get()) {
        return vec![Part {
            text: Some(text),
            ..Part::default()
        }];
    }
    serde_json::from_str(raw.get()).unwrap_or_default()
}

/// The text of `content` (a string, or the text parts that are not thoughts).
fn text_of(raw: Option<&RawValue>) -> String {
    let texts: Vec<String> = parts_of(raw)
        .into_iter()
        .filter(|p| !p.thought)
        .filter_map(|p| p.text.map(Cow::into_owned))
        .collect();
    texts.join("\n")
}

fn detail(key: String, kind: DetailKind, name: &str, body: String, at: Option<String>) -> Record {
    Record::Detail {
        key,
        kind,
        name: Some(name.to_string()),
        tool_use_id: None,
        body,
        is_error: false,
        at,
    }
}

#[cfg(test)]
mod tests;
