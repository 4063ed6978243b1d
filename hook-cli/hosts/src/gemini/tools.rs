//! What Gemini CLI's tool calls did, for the working state. The sample chats hold only
//! `run_shell_command`; the other shapes are the CLI's own declarations
//! (`packages/core/src/tools/definitions/base-declarations.ts`, `write-todos.ts`):
//! `write_file {file_path, content}`, `replace {file_path, old_string, new_string, ...}`,
//! `write_todos {todos: [{description, status}]}`.

use crate::tool_input::{string_field, todo_items};
use throughline_core::model::Todo;

const WRITE_TODOS: &str = "write_todos";

/// The tools that change files; each names it in `file_path`.
const EDITS: &[&str] = &["write_file", "replace"];

pub const STATE_TOOLS: &[&str] = &["write_file", "replace", WRITE_TODOS];

/// This host's tools, to the shared code.
pub const TOOLS: crate::Tools = crate::Tools {
    state_tools: STATE_TOOLS,
    file_changes,
    todo_list,
    call_subject,
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

pub fn call_subject(tool: &str, input: &str) -> Option<String> {
    let field = match tool {
        "run_shell_command" => "command",
        "read_file" | "write_file" | "replace" => "file_path",
        "grep_search" | "glob" => "pattern",
        _ => return None,
    };
    string_field(input, field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_core::model::TodoStatus;

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
    fn a_call_is_about_its_command_path_or_pattern() {
        // As 0.61.0 wrote it (the sample chat).
        let shell = r#"{"command":"ls -1"}"#;
        assert_eq!(
            call_subject("run_shell_command", shell).as_deref(),
            Some("ls -1")
        );
        assert_eq!(
            call_subject("grep_search", r#"{"pattern":"TODO"}"#).as_deref(),
            Some("TODO")
        );
        assert_eq!(call_subject("web_fetch", r#"{"prompt":"x"}"#), None);
    }
}
