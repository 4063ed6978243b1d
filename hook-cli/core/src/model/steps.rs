//! A turn's detail as what was done, in order: each tool call with its result, named by what
//! it did, and every other entry on its own. `detail` and the app's turn view both read it.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value};

use super::{first_line, Call, Detail, DetailKind};

/// How much of what a call did its title holds.
const TITLE_CHARS: usize = 120;

/// One thing done in a turn. The entries themselves stay in [`super::TurnDetail::details`];
/// a step points at them by their number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// What it did, as people say it: `Bash: cargo test`, `Read: src/app.rs, lines 1–40`,
    /// `Grep: fn main (3 hits)`, `thinking`.
    pub title: String,
    /// Its number among the turn's tool calls (`detail <turn> --tool N`); none for an entry
    /// that is no call.
    pub tool: Option<u32>,
    /// The call's entry, or the entry itself (`detail <turn> --item N`).
    pub item: u32,
    /// A call's input as a person reads it: an edit as a diff ([`Call::shown_input`]), any
    /// other as names and values ([`readable_input`]).
    pub input: Option<String>,
    /// The input is a diff: under each `@@` line, `-` starts a removed line, `+` an added one.
    pub diff: bool,
    /// An entry stored as JSON (the client's own notes, mostly), as names and values; none
    /// when its text reads as it is, and for a call.
    pub readable: Option<String>,
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

/// The steps of a turn whose entries are `details`. `call` reads what a call of a tool did
/// (its command, its path, its edits) when the host knows the tool; otherwise the values of
/// its input stand for it.
pub fn steps(details: &[Detail], call: &dyn Fn(&str, &str) -> Option<Call>) -> Vec<Step> {
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
                let known = call(tool, &d.body);
                let result = result_of(d);
                // Only what a call returned without an error counts as what it found.
                let returned = result.filter(|r| !r.is_error).map(|r| r.body.as_str());
                let title = match &known {
                    Some(known) => format!("{tool}: {}", known.title(returned, TITLE_CHARS)),
                    None => first_line(&format!("{tool}: {}", input_gist(&d.body)), TITLE_CHARS),
                };
                let shown = known.as_ref().and_then(Call::shown_input);
                let (lines, chars) = result.map_or((0, 0), |r| size(&r.body));
                steps.push(Step {
                    title,
                    tool: Some(calls),
                    item: d.index,
                    diff: shown.is_some(),
                    input: Some(shown.unwrap_or_else(|| readable_input(&d.body))),
                    readable: None,
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
                    diff: false,
                    readable: json_object(&d.body).map(|object| readable_object(&object)),
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
    match json_object(input) {
        Some(object) => object
            .values()
            .filter_map(|v| match v {
                Value::String(s) => Some(first_line(s, TITLE_CHARS)),
                Value::Null => None,
                other => Some(other.to_string()),
            })
            .collect::<Vec<_>>()
            .join(" "),
        None => first_line(input, TITLE_CHARS),
    }
}

fn size(text: &str) -> (usize, usize) {
    let lines = match text.is_empty() {
        true => 0,
        false => text.lines().count(),
    };
    (lines, text.chars().count())
}

fn json_object(text: &str) -> Option<Map<String, Value>> {
    serde_json::from_str(text).ok()
}

/// A call's input as a person reads it: a JSON object as `name: value` lines, a multi-line
/// value on the lines below its name, and a nested list or object likewise, indented, its
/// items after `- `; anything else as it is.
pub fn readable_input(input: &str) -> String {
    match json_object(input) {
        Some(object) => readable_object(&object),
        None => input.to_string(),
    }
}

fn readable_object(object: &Map<String, Value>) -> String {
    let mut out = String::new();
    push_fields(&mut out, object, 0);
    out
}

/// Each field of `object` on its own lines, `indent` spaces in. A null field says nothing was
/// given: it is left out.
fn push_fields(out: &mut String, object: &Map<String, Value>, indent: usize) {
    let pad = " ".repeat(indent);
    for (name, value) in object {
        match (value, one_line(value)) {
            (Value::Null, _) => {}
            (_, Some(line)) => out.push_str(&format!("{pad}{name}: {line}\n")),
            (_, None) => {
                out.push_str(&format!("{pad}{name}:\n"));
                push_block(out, value, indent + 2);
            }
        }
    }
}

/// `value` on lines of its own, `indent` spaces in; a list's items each after `- `.
fn push_block(out: &mut String, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    if let Some(line) = one_line(value) {
        out.push_str(&format!("{pad}{line}\n"));
        return;
    }
    match value {
        Value::Object(object) => push_fields(out, object, indent),
        Value::Array(items) => {
            for item in items {
                // The item as a block two further in, its first line's indent made the dash.
                let mut block = String::new();
                push_block(&mut block, item, indent + 2);
                if let Some(rest) = block.strip_prefix(&format!("{pad}  ")) {
                    out.push_str(&format!("{pad}- {rest}"));
                }
            }
        }
        Value::String(text) => {
            for line in text.lines() {
                // A blank line stays blank: no indent left trailing.
                match line.is_empty() {
                    true => out.push('\n'),
                    false => out.push_str(&format!("{pad}{line}\n")),
                }
            }
        }
        _ => {}
    }
}

/// A value that reads on one line as it is: a number, a word, a line of text, or what stands
/// for an empty one. None for null, a text of several lines, and a list or object that holds
/// anything.
fn one_line(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.is_empty() => Some("(empty)".into()),
        Value::String(s) if !s.contains('\n') => Some(s.clone()),
        Value::Bool(_) | Value::Number(_) => Some(value.to_string()),
        Value::Array(a) if a.is_empty() => Some("(none)".into()),
        Value::Object(o) if o.is_empty() => Some("(none)".into()),
        _ => None,
    }
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
        let call =
            |tool: &str, _: &str| (tool == "Bash").then(|| Call::Command("python3 app.py".into()));
        let steps = steps(&details, &call);
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
    fn a_call_is_named_by_what_it_did_and_an_edit_shows_its_diff() {
        let details = [
            entry(
                1,
                DetailKind::ToolCall,
                "Grep",
                "a",
                r#"{"pattern":"fn main"}"#,
            ),
            entry(
                2,
                DetailKind::ToolResult,
                "",
                "a",
                "Found 2 files\na.rs\nb.rs",
            ),
            entry(
                3,
                DetailKind::ToolCall,
                "Edit",
                "b",
                r#"{"file_path":"a.rs","old_string":"x = 1","new_string":"x = 2"}"#,
            ),
            entry(
                4,
                DetailKind::ToolCall,
                "Read",
                "c",
                r#"{"file_path":"b.rs","offset":10,"limit":5}"#,
            ),
        ];
        // What a host's tools.rs reads from these inputs.
        let call = |tool: &str, _: &str| match tool {
            "Grep" => Some(Call::Search {
                pattern: "fn main".into(),
            }),
            "Edit" => Some(Call::Edit {
                path: "a.rs".into(),
                edits: vec![super::super::Replacement {
                    old: "x = 1".into(),
                    new: "x = 2".into(),
                }],
                every_occurrence: false,
            }),
            "Read" => Some(Call::Read {
                path: "b.rs".into(),
                from: Some(10),
                count: Some(5),
            }),
            _ => None,
        };
        let steps = steps(&details, &call);
        let titles: Vec<&str> = steps.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Grep: fn main (2 hits)",
                "Edit: a.rs",
                "Read: b.rs, lines 10–14"
            ]
        );
        assert_eq!(steps[1].input.as_deref(), Some("@@\n-x = 1\n+x = 2\n"));
        assert!(steps[1].diff && !steps[0].diff && !steps[2].diff);
        assert_eq!(steps[0].input.as_deref(), Some("pattern: fn main\n"));
    }

    #[test]
    fn an_input_reads_as_names_and_values() {
        let input = r#"{"command":"cat <<EOF\nhello\nEOF","timeout":5,"cwd":null}"#;
        assert_eq!(
            readable_input(input),
            "command:\n  cat <<EOF\n  hello\n  EOF\ntimeout: 5\n"
        );
        assert_eq!(readable_input("not json"), "not json");
    }

    #[test]
    fn nested_values_read_as_indented_names_and_values_never_as_json() {
        let todos = r#"{"todos":[{"content":"Read app.py","status":"completed"},{"content":"Add --json\nand --csv","status":"pending"}],"tags":["a","b"],"options":{"depth":2,"skip":[]},"note":""}"#;
        assert_eq!(
            readable_input(todos),
            "todos:\n\
             \x20 - content: Read app.py\n\
             \x20   status: completed\n\
             \x20 - content:\n\
             \x20     Add --json\n\
             \x20     and --csv\n\
             \x20   status: pending\n\
             tags:\n\
             \x20 - a\n\
             \x20 - b\n\
             options:\n\
             \x20 depth: 2\n\
             \x20 skip: (none)\n\
             note: (empty)\n"
        );
    }

    #[test]
    fn the_clients_own_entries_read_as_names_and_values() {
        let details = [
            entry(
                1,
                DetailKind::Attachment,
                "environment",
                "",
                r#"{"type":"environment"}"#,
            ),
            entry(
                2,
                DetailKind::System,
                "stop_hook_summary",
                "",
                r#"{"subtype":"stop_hook_summary","hookInfos":[{"command":"hook-dump Stop","durationMs":6}]}"#,
            ),
            entry(
                3,
                DetailKind::Thinking,
                "",
                "",
                "Plain words {stay} as they are.",
            ),
        ];
        let steps = steps(&details, &|_, _| None);
        let readable: Vec<Option<&str>> = steps.iter().map(|s| s.readable.as_deref()).collect();
        assert_eq!(
            readable,
            [
                Some("type: environment\n"),
                Some("subtype: stop_hook_summary\nhookInfos:\n  - command: hook-dump Stop\n    durationMs: 6\n"),
                None
            ]
        );
    }
}
