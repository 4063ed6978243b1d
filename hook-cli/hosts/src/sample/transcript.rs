//! The sample agent's transcript: one JSON object a line, each with an `id`:
//! `{"role": "user" | "assistant", "text": …}` or
//! `{"role": "tool", "name": …, "input": …, "output": …, "error": bool}`.

use serde::Deserialize;

use throughline_core::model::DetailKind;
use throughline_core::record::{LineParser, Link, Record};

#[derive(Deserialize)]
struct Line {
    id: String,
    role: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    input: String,
    #[serde(default)]
    output: String,
    #[serde(default)]
    error: bool,
    #[serde(default)]
    at: Option<String>,
}

pub struct TranscriptParser;

impl LineParser for TranscriptParser {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let line: Line = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let Line {
            id, role, text, at, ..
        } = line;
        match role.as_str() {
            "user" => out.push(Record::Prompt { key: id, text, at }),
            "assistant" => out.push(Record::Answer { key: id, text, at }),
            "tool" => {
                let detail = |suffix: &str, kind, body: &str, is_error| Record::Detail {
                    key: format!("{id}{suffix}"),
                    kind,
                    name: line.name.clone(),
                    tool_use_id: Some(id.clone()),
                    body: body.to_string(),
                    is_error,
                    at: at.clone(),
                };
                out.push(detail(":call", DetailKind::ToolCall, &line.input, false));
                out.push(detail(
                    ":result",
                    DetailKind::ToolResult,
                    &line.output,
                    line.error,
                ));
            }
            // A role it may add later is its own bookkeeping.
            _ => {}
        }
        // Lines are appended in order.
        Ok(None)
    }
}
