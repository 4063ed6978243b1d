//! What Claude Code's tool calls did, for the working state: the files its edit tools
//! changed and the todo list `TodoWrite` wrote. Releases since 2.1.142 plan with the Task
//! tools (`TaskCreate`, `TaskUpdate`) instead, whose list only their results complete: not
//! read here.

use serde::Deserialize;

use crate::hosts::tool_input::string_field;
use crate::model::{Todo, TodoStatus};

/// The tools that change files, with the input field naming the file.
const EDITS: &[(&str, &str)] = &[
    ("Edit", "file_path"),
    ("Write", "file_path"),
    ("MultiEdit", "file_path"),
    ("NotebookEdit", "notebook_path"),
];

const TODO_WRITE: &str = "TodoWrite";

pub const STATE_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit", TODO_WRITE];

pub fn file_changes(tool: &str, input: &str) -> Vec<(String, bool)> {
    EDITS
        .iter()
        .find(|(name, _)| *name == tool)
        .and_then(|(_, field)| string_field(input, field))
        .map(|path| vec![(path, false)])
        .unwrap_or_default()
}

/// `TodoWrite {todos: [{content, status, activeForm}]}`: the whole list, each call.
pub fn todo_list(tool: &str, input: &str) -> Option<Vec<Todo>> {
    #[derive(Deserialize)]
    struct Input {
        todos: Vec<Item>,
    }
    #[derive(Deserialize)]
    struct Item {
        content: String,
        status: String,
    }
    if tool != TODO_WRITE {
        return None;
    }
    let input: Input = serde_json::from_str(input).ok()?;
    Some(
        input
            .todos
            .into_iter()
            .filter_map(|item| {
                Some(Todo {
                    status: TodoStatus::parse(&item.status)?,
                    text: item.content,
                })
            })
            .collect(),
    )
}

pub fn call_subject(tool: &str, input: &str) -> Option<String> {
    let field = match tool {
        "Bash" => "command",
        "Read" => "file_path",
        "Grep" | "Glob" => "pattern",
        _ => EDITS.iter().find(|(name, _)| *name == tool)?.1,
    };
    string_field(input, field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_tools_name_the_file_they_changed() {
        // As 2.1.332 wrote them (the sample session), and the other edit tools' shapes.
        let edit = r#"{"replace_all":false,"file_path":"/home/dev/toy/app.py","old_string":"    print(total_value(load(sys.argv[1])))","new_string":"    value = total_value(load(sys.argv[1]))"}"#;
        let write = r#"{"file_path":"/home/dev/toy/test_app.py","content":"from app import total_value\n"}"#;
        let multi = r#"{"file_path":"/p/lib.rs","edits":[{"old_string":"a","new_string":"b"}]}"#;
        let notebook = r#"{"notebook_path":"/p/n.ipynb","cell_id":"c1","new_source":"x = 1","edit_mode":"replace"}"#;
        let changed = |tool, input| file_changes(tool, input);
        assert_eq!(
            changed("Edit", edit),
            [("/home/dev/toy/app.py".into(), false)]
        );
        assert_eq!(
            changed("Write", write),
            [("/home/dev/toy/test_app.py".into(), false)]
        );
        assert_eq!(changed("MultiEdit", multi), [("/p/lib.rs".into(), false)]);
        assert_eq!(
            changed("NotebookEdit", notebook),
            [("/p/n.ipynb".into(), false)]
        );
        assert!(changed("Read", r#"{"file_path":"/home/dev/toy/app.py"}"#).is_empty());
        // A long Write read bounded still names its file.
        let long = format!(
            r#"{{"file_path":"/p/big.rs","content":"{}"#,
            "x".repeat(100)
        );
        assert_eq!(changed("Write", &long), [("/p/big.rs".into(), false)]);
    }

    #[test]
    fn todo_write_is_the_whole_list_in_its_order() {
        let input = r#"{"todos":[{"content":"Read app.py","status":"completed","activeForm":"Reading app.py"},{"content":"Add --json","status":"in_progress","activeForm":"Adding --json"},{"content":"Write a test","status":"pending","activeForm":"Writing a test"}]}"#;
        let todo = |text: &str, status| Todo {
            text: text.into(),
            status,
        };
        assert_eq!(
            todo_list("TodoWrite", input).unwrap(),
            [
                todo("Read app.py", TodoStatus::Completed),
                todo("Add --json", TodoStatus::InProgress),
                todo("Write a test", TodoStatus::Pending)
            ]
        );
        assert_eq!(todo_list("TodoWrite", r#"{"todos":[]}"#), Some(vec![]));
        assert_eq!(todo_list("TodoWrite", &input[..60]), None);
        assert_eq!(todo_list("Write", input), None);
    }

    #[test]
    fn a_call_is_about_its_command_path_or_pattern() {
        let bash = r#"{"command":"python3 app.py items.json","description":"Run the app"}"#;
        assert_eq!(
            call_subject("Bash", bash).as_deref(),
            Some("python3 app.py items.json")
        );
        assert_eq!(
            call_subject("Read", r#"{"file_path":"/home/dev/toy/app.py"}"#).as_deref(),
            Some("/home/dev/toy/app.py")
        );
        assert_eq!(
            call_subject("Grep", r#"{"pattern":"fn main","path":"src"}"#).as_deref(),
            Some("fn main")
        );
        assert_eq!(call_subject("WebFetch", r#"{"url":"https://x"}"#), None);
    }
}
