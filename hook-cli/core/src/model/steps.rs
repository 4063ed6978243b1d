//! A turn's detail as what was done, in order: each tool call with its result, named by what
//! it did, and every other entry on its own. `detail` and the app's turn view both read it.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::{first_line, Detail, DetailKind};

/// How much of what a call did its title holds.
const TITLE_CHARS: usize = 120;

/// One thing done in a turn. The entries themselves stay in [`super::TurnDetail::details`];
/// a step points at them by their number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// What it did, as people say it: `Bash: cargo test`, `Read: src/app.rs`, `thinking`.
    pub title: String,
    /// Its number among the turn's tool calls (`detail <turn> --tool N`); none for an entry
    /// that is no call.
    pub tool: Option<u32>,
    /// The call's entry, or the entry itself (`detail <turn> --item N`).
    pub item: u32,
    /// A call's input as a person reads it ([`readable_input`]).
    pub input: Option<String>,
    /// The entry of the call's result, when one was recorded.
    pub result: Option<u32>,
    /// The tool reported an error.
    pub failed: bool,
    /// A call with no result: it was still running, or the host recorded none.
    pub unanswered: bool,
    /// Lines and characters of what came back: the result's for a call, the entry's own
    /// otherwise.
    pub lines: usize,
    pub chars: usize,
}

/// The steps of a turn whose entries are `details`. `subject` says what a call of a tool was
/// about (its command, its path) when the host knows the tool; otherwise the input's first
/// line stands for it.
pub fn steps(details: &[Detail], subject: &dyn Fn(&str, &str) -> Option<String>) -> Vec<Step> {
    // Each id's first result, found once: a turn may hold hundreds of calls.
    let mut results: HashMap<&str, &Detail> = HashMap::new();
    for d in details.iter().filter(|d| d.kind == DetailKind::ToolResult) {
        if let Some(id) = d.tool_use_id.as_deref() {
            results.entry(id).or_insert(d);
        }
    }
    let result_of = |call: &Detail| results.get(call.tool_use_id.as_deref()?).copied();
    let paired: HashSet<u32> = details
        .iter()
        .filter(|d| d.kind == DetailKind::ToolCall)
        .filter_map(|call| result_of(call).map(|r| r.index))
        .collect();
    let mut calls = 0;
    let mut steps = Vec::new();
    for d in details {
        match d.kind {
            DetailKind::ToolCall => {
                calls += 1;
                let tool = d.name.as_deref().unwrap_or("tool");
                let what = subject(tool, &d.body).unwrap_or_else(|| input_gist(&d.body));
                let result = result_of(d);
                let (lines, chars) = result.map_or((0, 0), |r| size(&r.body));
                steps.push(Step {
                    title: first_line(&format!("{tool}: {what}"), TITLE_CHARS),
                    tool: Some(calls),
                    item: d.index,
                    input: Some(readable_input(&d.body)),
                    result: result.map(|r| r.index),
                    failed: result.is_some_and(|r| r.is_error),
                    unanswered: result.is_none(),
                    lines,
                    chars,
                });
            }
            // Shown with its call.
            DetailKind::ToolResult if paired.contains(&d.index) => {}
            kind => {
                let (lines, chars) = size(&d.body);
                let title = match (kind, d.name.as_deref()) {
                    (DetailKind::ToolResult, _) => "output of a call not in this turn".into(),
                    (DetailKind::System, Some(name)) => format!("host note: {name}"),
                    (_, Some(name)) if !name.is_empty() => format!("{}: {name}", kind.as_str()),
                    _ => kind.as_str().to_string(),
                };
                steps.push(Step {
                    title,
                    tool: None,
                    item: d.index,
                    input: None,
                    result: None,
                    failed: d.is_error,
                    unanswered: false,
                    lines,
                    chars,
                });
            }
        }
    }
    steps
}

/// A call's input as one line when the host does not say what it is about: the values of a
/// JSON object (not its quoted keys and escapes), else the text.
fn input_gist(input: &str) -> String {
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(input) {
        Ok(object) => object
            .values()
            .filter_map(|v| match v {
                serde_json::Value::String(s) => Some(first_line(s, TITLE_CHARS)),
                serde_json::Value::Null => None,
                other => Some(other.to_string()),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Err(_) => first_line(input, TITLE_CHARS),
    }
}

fn size(text: &str) -> (usize, usize) {
    let lines = match text.is_empty() {
        true => 0,
        false => text.lines().count(),
    };
    (lines, text.chars().count())
}

/// A call's input as a person reads it: a JSON object as `name: value` lines, a long or
/// multi-line value on the lines below its name; anything else as it is.
pub fn readable_input(input: &str) -> String {
    let Ok(object) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(input)
    else {
        return input.to_string();
    };
    let mut out = String::new();
    for (name, value) in &object {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        if text.contains('\n') {
            out.push_str(&format!("{name}:\n"));
            for line in text.lines() {
                out.push_str(&format!("  {line}\n"));
            }
        } else {
            out.push_str(&format!("{name}: {text}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(index: u32, kind: DetailKind, name: &str, id: &str, body: &str) -> Detail {
        Detail {
            index,
            kind,
            name: (!name.is_empty()).then(|| name.to_string()),
            tool_use_id: (!id.is_empty()).then(|| id.to_string()),
            body: body.to_string(),
            is_error: false,
            at: None,
        }
    }

    #[test]
    fn each_call_is_shown_with_its_result_by_what_it_did() {
        let mut failed = entry(5, DetailKind::ToolResult, "", "b", "ls: cannot access");
        failed.is_error = true;
        let details = [
            entry(1, DetailKind::Thinking, "", "", "Run it first."),
            entry(
                2,
                DetailKind::ToolCall,
                "Bash",
                "a",
                r#"{"command":"python3 app.py"}"#,
            ),
            entry(
                3,
                DetailKind::ToolCall,
                "Glob",
                "b",
                r#"{"pattern":"*.py","path":null}"#,
            ),
            entry(4, DetailKind::ToolResult, "", "a", "34.6\n"),
            failed,
            entry(
                6,
                DetailKind::ToolCall,
                "Read",
                "c",
                r#"{"file_path":"/w/app.py"}"#,
            ),
            entry(7, DetailKind::System, "turn_duration", "", "{}"),
        ];
        let subject = |tool: &str, _: &str| (tool == "Bash").then(|| "python3 app.py".into());
        let steps = steps(&details, &subject);
        let shown: Vec<(&str, Option<u32>, Option<u32>)> = steps
            .iter()
            .map(|s| (s.title.as_str(), s.tool, s.result))
            .collect();
        assert_eq!(
            shown,
            [
                ("thinking", None, None),
                ("Bash: python3 app.py", Some(1), Some(4)),
                ("Glob: *.py", Some(2), Some(5)),
                ("Read: /w/app.py", Some(3), None),
                ("host note: turn_duration", None, None),
            ]
        );
        assert_eq!((steps[1].lines, steps[1].chars), (1, 5));
        assert!(steps[2].failed && !steps[1].failed);
        assert!(steps[3].unanswered);
    }

    #[test]
    fn an_input_reads_as_names_and_values() {
        let input = r#"{"command":"cat <<EOF\nhello\nEOF","timeout":5}"#;
        assert_eq!(
            readable_input(input),
            "command:\n  cat <<EOF\n  hello\n  EOF\ntimeout: 5\n"
        );
        assert_eq!(readable_input("not json"), "not json");
    }
}
