//! Reading Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`).

use super::model_server::tool_result_text;
use serde_json::Value;
use std::path::Path;

/// Every complete JSON line of a JSONL file (a torn last line is skipped).
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("read transcript {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn entry_type(e: &Value) -> &str {
    e.get("type").and_then(Value::as_str).unwrap_or("")
}

fn blocks(e: &Value) -> Vec<Value> {
    match e.pointer("/message/content") {
        Some(Value::Array(a)) => a.clone(),
        Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
        _ => Vec::new(),
    }
}

/// What the person typed: `user` entries with a `promptId` whose content is text, not tool
/// results, not meta entries and not local-command wrappers.
pub fn user_prompts(entries: &[Value]) -> Vec<String> {
    entries
        .iter()
        .filter(|e| entry_type(e) == "user" && e.get("promptId").is_some())
        .filter(|e| !e.get("isMeta").and_then(Value::as_bool).unwrap_or(false))
        .filter_map(|e| match e.pointer("/message/content") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(a))
                if a.iter()
                    .all(|b| b.get("type").and_then(Value::as_str) == Some("text")) =>
            {
                Some(
                    a.iter()
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n"),
                )
            }
            _ => None,
        })
        .filter(|s| !s.contains("<command-name>") && !s.contains("<local-command-"))
        .collect()
}

/// Assistant content blocks, in order, each with its `message.id`.
pub fn assistant_blocks(entries: &[Value]) -> Vec<(String, Value)> {
    entries
        .iter()
        .filter(|e| entry_type(e) == "assistant")
        .flat_map(|e| {
            let id = e
                .pointer("/message/id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            blocks(e).into_iter().map(move |b| (id.clone(), b))
        })
        .collect()
}

/// Texts of the assistant `text` blocks, in order.
pub fn assistant_texts(entries: &[Value]) -> Vec<String> {
    assistant_blocks(entries)
        .into_iter()
        .filter(|(_, b)| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|(_, b)| b.get("text").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// Every `tool_result` block: `(tool_use_id, content as text, is_error)`.
pub fn tool_results(entries: &[Value]) -> Vec<(String, String, bool)> {
    entries
        .iter()
        .filter(|e| entry_type(e) == "user")
        .flat_map(blocks)
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
        .map(|b| {
            (
                b.get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                tool_result_text(&b),
                b.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            )
        })
        .collect()
}
