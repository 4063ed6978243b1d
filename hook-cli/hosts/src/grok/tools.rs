//! What Grok's tool calls did, for the working state, as Grok 1.0.6 offers its tools:
//! `write` `{file_path, content}` and `search_replace` `{file_path, old_string, new_string,
//! replace_all?}` change a file; `todo_write` `{merge?, todos: [{id, content?, status?}]}`
//! writes the todo list, whole only with `merge: false` (the default merges by id);
//! `run_terminal_command` `{command, description, timeout?}` runs a command.

use crate::tool_input::{flag_field, replacements, string_field, todo_items};
use throughline_core::model::{Call, Todo};

const WRITE: &str = "write";
const SEARCH_REPLACE: &str = "search_replace";
const TODO_WRITE: &str = "todo_write";

pub const STATE_TOOLS: &[&str] = &[WRITE, SEARCH_REPLACE, TODO_WRITE];

/// This host's tools, to the shared code.
pub const TOOLS: crate::Tools = crate::Tools {
    state_tools: STATE_TOOLS,
    file_changes,
    todo_list,
    call,
};

pub fn file_changes(tool: &str, input: &str) -> Vec<(String, bool)> {
    match tool {
        WRITE | SEARCH_REPLACE => string_field(input, "file_path")
            .map(|path| vec![(path, false)])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The list a `todo_write` call wrote, when it replaced the whole list.
pub fn todo_list(tool: &str, input: &str) -> Option<Vec<Todo>> {
    if tool != TODO_WRITE {
        return None;
    }
    let replaces = serde_json::from_str::<serde_json::Value>(input)
        .ok()?
        .get("merge")
        .and_then(serde_json::Value::as_bool)
        == Some(false);
    replaces.then(|| todo_items(input, "todos", "content"))?
}

pub fn call(tool: &str, input: &str) -> Option<Call> {
    let field = |key| string_field(input, key);
    Some(match tool {
        "run_terminal_command" => Call::Command(field("command")?),
        WRITE => Call::Write {
            path: field("file_path")?,
            content: field("content"),
        },
        SEARCH_REPLACE => Call::Edit {
            path: field("file_path")?,
            edits: replacements(input, None, "old_string", "new_string"),
            every_occurrence: flag_field(input, "replace_all"),
        },
        "read_file" => Call::Read {
            path: field("target_file")?,
            from: None,
            count: None,
        },
        "list_dir" => Call::About(field("target_directory")?),
        "grep" => Call::Search {
            pattern: field("pattern")?,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_core::model::{Replacement, TodoStatus};

    #[test]
    fn writes_and_replacements_change_their_file() {
        let write = r##"{"file_path":"/home/dev/proj/PLAN.md","content":"# Plan\n"}"##;
        assert_eq!(
            file_changes("write", write),
            [("/home/dev/proj/PLAN.md".to_string(), false)]
        );
        let edit = r#"{"file_path":"src/main.rs","old_string":"a","new_string":"b"}"#;
        assert_eq!(
            file_changes("search_replace", edit),
            [("src/main.rs".to_string(), false)]
        );
        assert!(file_changes("run_terminal_command", r#"{"command":"rm a"}"#).is_empty());
    }

    #[test]
    fn only_a_todo_write_that_replaces_the_list_is_the_whole_list() {
        let whole = r#"{"merge":false,"todos":[{"id":"1","content":"Write PLAN.md","status":"in_progress"},{"id":"2","content":"Run the tests","status":"pending"}]}"#;
        let todos: Vec<(String, TodoStatus)> = todo_list("todo_write", whole)
            .unwrap()
            .into_iter()
            .map(|t| (t.text, t.status))
            .collect();
        assert_eq!(
            todos,
            [
                ("Write PLAN.md".to_string(), TodoStatus::InProgress),
                ("Run the tests".to_string(), TodoStatus::Pending)
            ]
        );
        let merged = r#"{"todos":[{"id":"1","status":"completed"}]}"#;
        assert_eq!(todo_list("todo_write", merged), None);
        assert_eq!(todo_list("write", whole), None);
    }

    #[test]
    fn a_call_is_read_as_what_it_did() {
        let cases = [
            (
                "run_terminal_command",
                r#"{"command":"ls -a","description":"List."}"#,
                Call::Command("ls -a".into()),
            ),
            (
                "write",
                r#"{"file_path":"PLAN.md","content":""}"#,
                Call::Write {
                    path: "PLAN.md".into(),
                    content: Some(String::new()),
                },
            ),
            (
                "search_replace",
                r#"{"file_path":"src/main.rs","old_string":"a","new_string":"b","replace_all":true}"#,
                Call::Edit {
                    path: "src/main.rs".into(),
                    edits: vec![Replacement {
                        old: "a".into(),
                        new: "b".into(),
                    }],
                    every_occurrence: true,
                },
            ),
            (
                "read_file",
                r#"{"target_file":"src/lib.rs"}"#,
                Call::Read {
                    path: "src/lib.rs".into(),
                    from: None,
                    count: None,
                },
            ),
            (
                "grep",
                r#"{"pattern":"fn main"}"#,
                Call::Search {
                    pattern: "fn main".into(),
                },
            ),
        ];
        for (tool, input, what) in cases {
            assert_eq!(call(tool, input), Some(what), "{tool}");
        }
        assert_eq!(call("spawn_subagent", r#"{"prompt":"x"}"#), None);
    }
}
