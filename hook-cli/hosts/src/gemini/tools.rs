//! What Gemini CLI's tool calls did, for the working state. The sample chats hold only
//! `run_shell_command`; the other shapes are the CLI's own declarations
//! (`packages/core/src/tools/definitions/base-declarations.ts`, `write-todos.ts`):
//! `write_file {file_path, content}`, `replace {file_path, old_string, new_string, ...}`,
//! `write_todos {todos: [{description, status}]}`.

use crate::tool_input::{replacements, string_field, todo_items};
use throughline_core::model::{Call, Todo};

const WRITE_TODOS: &str = "write_todos";

/// The tools that change files; each names it in `file_path`.
const EDITS: &[&str] = &["write_file", "replace"];

pub const STATE_TOOLS: &[&str] = &["write_file", "replace", WRITE_TODOS];

/// This host's tools, to the shared code.
pub const TOOLS: crate::Tools = crate::Tools {
    state_tools: STATE_TOOLS,
    file_changes,
    todo_list,
    call,
};

pub fn file_changes(tool: &str, input: &str) -> Vec<(String, bool)> {
    if !EDITS.contains(&tool) {
        return Vec::new();
    }
    string_field(input, "file_path")
        .map(|path| vec![(path, false)])
        .unwrap_or_default()
}

/// The whole list, each call; a `cancelled` item is no longer part of the work.
pub fn todo_list(tool: &str, input: &str) -> Option<Vec<Todo>> {
    if tool != WRITE_TODOS {
        return None;
    }
    todo_items(input, "todos", "description")
}

/// What a call did: `read_file` by its path only (how it numbers a part's lines is not in the
/// sample chats).
pub fn call(tool: &str, input: &str) -> Option<Call> {
    let field = |key| string_field(input, key);
    Some(match tool {
        "run_shell_command" => Call::Command(field("command")?),
        "read_file" => Call::Read {
            path: field("file_path")?,
            from: None,
            count: None,
        },
        "write_file" => Call::Write {
            path: field("file_path")?,
            content: field("content"),
        },
        "replace" => Call::Edit {
            path: field("file_path")?,
            edits: replacements(input, None, "old_string", "new_string"),
            every_occurrence: false,
        },
        "grep_search" | "glob" => Call::Search {
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
    fn write_file_and_replace_name_the_file_they_changed() {
        let write = r##"{"file_path":"/home/dev/proj/notes.md","content":"# Notes\n"}"##;
        let replace = r#"{"file_path":"/home/dev/proj/app.py","instruction":"print the total","old_string":"print(x)","new_string":"print(total)"}"#;
        assert_eq!(
            file_changes("write_file", write),
            [("/home/dev/proj/notes.md".into(), false)]
        );
        assert_eq!(
            file_changes("replace", replace),
            [("/home/dev/proj/app.py".into(), false)]
        );
        assert!(file_changes("read_file", r#"{"file_path":"/home/dev/proj/app.py"}"#).is_empty());
    }

    #[test]
    fn write_todos_is_the_whole_list_without_cancelled_items() {
        let input = r#"{"todos":[{"description":"Read the parser","status":"completed"},{"description":"Try regex","status":"cancelled"},{"description":"Fix the empty input","status":"in_progress"},{"description":"Run the tests","status":"pending"}]}"#;
        let texts: Vec<(String, TodoStatus)> = todo_list("write_todos", input)
            .unwrap()
            .into_iter()
            .map(|t| (t.text, t.status))
            .collect();
        assert_eq!(
            texts,
            [
                ("Read the parser".into(), TodoStatus::Completed),
                ("Fix the empty input".into(), TodoStatus::InProgress),
                ("Run the tests".into(), TodoStatus::Pending)
            ]
        );
    }

    #[test]
    fn a_call_is_read_as_what_it_did() {
        // As 0.61.0 wrote it (the sample chat).
        let shell = r#"{"command":"ls -1"}"#;
        assert_eq!(
            call("run_shell_command", shell),
            Some(Call::Command("ls -1".into()))
        );
        let replace = r#"{"file_path":"/home/dev/proj/app.py","instruction":"print the total","old_string":"print(x)","new_string":"print(total)"}"#;
        assert_eq!(
            call("replace", replace),
            Some(Call::Edit {
                path: "/home/dev/proj/app.py".into(),
                edits: vec![Replacement {
                    old: "print(x)".into(),
                    new: "print(total)".into()
                }],
                every_occurrence: false
            })
        );
        let write = r##"{"file_path":"/home/dev/proj/notes.md","content":"# Notes\n"}"##;
        assert_eq!(
            call("write_file", write),
            Some(Call::Write {
                path: "/home/dev/proj/notes.md".into(),
                content: Some("# Notes\n".into())
            })
        );
        assert_eq!(
            call("grep_search", r#"{"pattern":"TODO"}"#),
            Some(Call::Search {
                pattern: "TODO".into()
            })
        );
        assert_eq!(call("web_fetch", r#"{"prompt":"x"}"#), None);
    }
}
