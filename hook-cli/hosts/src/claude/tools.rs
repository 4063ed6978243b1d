//! What Claude Code's tool calls did, for the working state: the files its edit tools
//! changed, the todo list `TodoWrite` wrote and the changes of the Task tools (`TaskCreate`,
//! `TaskUpdate`), which releases since 2.1.142 plan with instead, a task at a time.

use crate::tool_input::{flag_field, number_field, replacements, string_field, todo_items};
use throughline_core::model::{Call, TaskChange, Todo, TodoStatus};

/// The tools that change files, with the input field naming the file.
const EDITS: &[(&str, &str)] = &[
    ("Edit", "file_path"),
    ("Write", "file_path"),
    ("MultiEdit", "file_path"),
    ("NotebookEdit", "notebook_path"),
];

const TODO_WRITE: &str = "TodoWrite";
const TASK_CREATE: &str = "TaskCreate";
const TASK_UPDATE: &str = "TaskUpdate";

pub const TASK_TOOLS: &[&str] = &[TASK_CREATE, TASK_UPDATE];

pub const STATE_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    TODO_WRITE,
    TASK_CREATE,
    TASK_UPDATE,
];

/// This host's tools, to the shared code.
pub const TOOLS: crate::Tools = crate::Tools {
    state_tools: STATE_TOOLS,
    file_changes,
    todo_list,
    call,
};

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
    if tool != TODO_WRITE {
        return None;
    }
    todo_items(input, "todos", "content")
}

/// `TaskCreate {subject, description, activeForm?}` and `TaskUpdate {taskId, status?,
/// subject?, ...}`, read through the first line of their results: a call whose result does not
/// say it succeeded (an error, a hook refusing a completion, a call cut off) changed nothing.
pub fn task_change(tool: &str, input: &str, result: Option<&str>) -> Option<TaskChange> {
    let outcome = result?.lines().next()?;
    match tool {
        // `Task #<id> created successfully: <subject>`: the id is only here, and the subject
        // is as the client kept it, after taking a `title` or `name` for it.
        TASK_CREATE => {
            let (id, rest) = outcome.strip_prefix("Task #")?.split_once(' ')?;
            let text = rest.strip_prefix("created successfully: ")?;
            (!id.is_empty()).then(|| TaskChange::Created {
                id: id.into(),
                text: text.into(),
            })
        }
        // `Updated task #<id> <fields>`, the fields it changed joined by ", " (`deleted` alone
        // for a deletion); their new values are in the input.
        TASK_UPDATE => {
            let rest = outcome.strip_prefix("Updated task #")?;
            let (id, fields) = rest.split_once(' ').unwrap_or((rest, ""));
            let changed = |field| fields.split(", ").any(|f| f == field);
            let id = id.to_string();
            if changed("deleted") {
                return Some(TaskChange::Deleted { id });
            }
            let new_value = |field| changed(field).then(|| string_field(input, field)).flatten();
            Some(TaskChange::Updated {
                id,
                status: new_value("status").and_then(|s| TodoStatus::parse(&s)),
                text: new_value("subject"),
            })
        }
        _ => None,
    }
}

/// What a call did, read from its input: the shapes are the tools' own declarations as
/// 2.1.332 sends them (the sample's recorded request), and the sample sessions' calls.
pub fn call(tool: &str, input: &str) -> Option<Call> {
    let field = |key| string_field(input, key);
    Some(match tool {
        "Bash" => Call::Command(field("command")?),
        // `offset` is the number of the first line read; 0 reads from the start, as none does.
        "Read" => Call::Read {
            path: field("file_path")?,
            from: number_field(input, "offset").filter(|n| *n > 0),
            count: number_field(input, "limit"),
        },
        "Write" => Call::Write {
            path: field("file_path")?,
            content: field("content"),
        },
        // `MultiEdit {file_path, edits: [{old_string, new_string}]}`.
        "Edit" | "MultiEdit" => Call::Edit {
            path: field("file_path")?,
            edits: replacements(
                input,
                (tool == "MultiEdit").then_some("edits"),
                "old_string",
                "new_string",
            ),
            every_occurrence: flag_field(input, "replace_all"),
        },
        "Grep" | "Glob" => Call::Search {
            pattern: field("pattern")?,
        },
        // A subagent, by the few words the model gave its task.
        "Agent" | "Task" => Call::About(field("description")?),
        "WebFetch" => Call::About(field("url")?),
        "WebSearch" => Call::About(field("query")?),
        "NotebookEdit" => Call::About(field("notebook_path")?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_core::model::Replacement;

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
    fn task_calls_change_the_task_their_result_names() {
        // Inputs as the model writes them and results as 2.1.332 words them.
        let create = r#"{"subject":"Add --json","description":"Print the totals as JSON","activeForm":"Adding --json"}"#;
        assert_eq!(
            task_change(
                "TaskCreate",
                create,
                Some("Task #3 created successfully: Add --json")
            ),
            Some(TaskChange::Created {
                id: "3".into(),
                text: "Add --json".into()
            })
        );
        // The subject comes from the result, with the note some sessions get after it.
        let noted = "Task #4 created successfully: Write a test\nThe app marks these items in progress and checks them off by itself as the work gets done, so you don't need to call TaskUpdate to change their status.";
        assert_eq!(
            task_change("TaskCreate", r#"{"title":"Write a test"}"#, Some(noted)),
            Some(TaskChange::Created {
                id: "4".into(),
                text: "Write a test".into()
            })
        );
        let failed = "<tool_use_error>InputValidationError: TaskCreate failed due to the following issue:\nThe required parameter `subject` is missing</tool_use_error>";
        assert_eq!(task_change("TaskCreate", create, Some(failed)), None);
        assert_eq!(task_change("TaskCreate", create, None), None);

        let update = |input, result| task_change("TaskUpdate", input, Some(result));
        let started = r#"{"taskId":"3","status":"in_progress"}"#;
        assert_eq!(
            update(started, "Updated task #3 status"),
            Some(TaskChange::Updated {
                id: "3".into(),
                status: Some(TodoStatus::InProgress),
                text: None
            })
        );
        let done = r#"{"taskId":"3","subject":"Add --json and --csv","status":"completed"}"#;
        let reminder = "Updated task #3 subject, status\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.";
        assert_eq!(
            update(done, reminder),
            Some(TaskChange::Updated {
                id: "3".into(),
                status: Some(TodoStatus::Completed),
                text: Some("Add --json and --csv".into())
            })
        );
        // A status the task had already is no change.
        assert_eq!(
            update(started, "Updated task #3 "),
            Some(TaskChange::Updated {
                id: "3".into(),
                status: None,
                text: None
            })
        );
        assert_eq!(
            update(
                r#"{"taskId":"4","status":"deleted"}"#,
                "Updated task #4 deleted"
            ),
            Some(TaskChange::Deleted { id: "4".into() })
        );
        assert_eq!(update(started, "Task #3 not found"), None);
        assert_eq!(task_change("TaskUpdate", started, None), None);
        assert_eq!(
            task_change("TaskList", "{}", Some("#3 [pending] Add --json")),
            None
        );
    }

    #[test]
    fn a_call_is_read_as_what_it_did() {
        let bash = r#"{"command":"python3 app.py items.json","description":"Run the app"}"#;
        assert_eq!(
            call("Bash", bash),
            Some(Call::Command("python3 app.py items.json".into()))
        );
        let read = |input| call("Read", input);
        assert_eq!(
            read(r#"{"file_path":"/home/dev/toy/app.py"}"#),
            Some(Call::Read {
                path: "/home/dev/toy/app.py".into(),
                from: None,
                count: None
            })
        );
        assert_eq!(
            read(r#"{"file_path":"/p/big.rs","offset":400,"limit":40}"#),
            Some(Call::Read {
                path: "/p/big.rs".into(),
                from: Some(400),
                count: Some(40)
            })
        );
        assert_eq!(
            read(r#"{"file_path":"/p/big.rs","offset":0,"limit":40}"#),
            Some(Call::Read {
                path: "/p/big.rs".into(),
                from: None,
                count: Some(40)
            })
        );
        // As 2.1.197 wrote them (the sample session).
        let write = r#"{"file_path": "/home/dev/toy/test_app.py", "content": "from app import total_value\n"}"#;
        assert_eq!(
            call("Write", write),
            Some(Call::Write {
                path: "/home/dev/toy/test_app.py".into(),
                content: Some("from app import total_value\n".into())
            })
        );
        let edit = r#"{"replace_all": false, "file_path": "/home/dev/toy/app.py", "old_string": "print(x)", "new_string": "print(total)"}"#;
        let replaced = |old: &str, new: &str| Replacement {
            old: old.into(),
            new: new.into(),
        };
        assert_eq!(
            call("Edit", edit),
            Some(Call::Edit {
                path: "/home/dev/toy/app.py".into(),
                edits: vec![replaced("print(x)", "print(total)")],
                every_occurrence: false
            })
        );
        let multi = r#"{"file_path":"/p/lib.rs","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}"#;
        assert_eq!(
            call("MultiEdit", multi),
            Some(Call::Edit {
                path: "/p/lib.rs".into(),
                edits: vec![replaced("a", "b"), replaced("c", "d")],
                every_occurrence: false
            })
        );
        // Cut short, an edit still names its file.
        let cut = &edit[..edit.find("new_string").unwrap()];
        assert_eq!(call("Edit", cut).unwrap().subject(), "/home/dev/toy/app.py");
        assert_eq!(
            call("Grep", r#"{"pattern":"fn main","path":"src"}"#),
            Some(Call::Search {
                pattern: "fn main".into()
            })
        );
        assert_eq!(
            call("Agent", r#"{"description":"Count lines","prompt":"Count…"}"#),
            Some(Call::About("Count lines".into()))
        );
        assert_eq!(call("TodoWrite", r#"{"todos":[]}"#), None);
    }
}
