//! What Codex's tool calls did, for the working state. `apply_patch` edits files: its input
//! is the patch itself (a freeform tool), or `{"input": patch}` where it is a function tool;
//! `update_plan` writes the plan: `{explanation?, plan: [{step, status}]}` (Codex's
//! `codex-rs/core/src/tools/handlers/apply_patch.rs` and `protocol/src/plan_tool.rs`).

use crate::tool_input::{string_field, todo_items};
use throughline_core::model::{Call, Todo};

const APPLY_PATCH: &str = "apply_patch";
const UPDATE_PLAN: &str = "update_plan";

pub const STATE_TOOLS: &[&str] = &[APPLY_PATCH, UPDATE_PLAN];

/// This host's tools, to the shared code.
pub const TOOLS: crate::Tools = crate::Tools {
    state_tools: STATE_TOOLS,
    file_changes,
    todo_list,
    call,
};

pub fn file_changes(tool: &str, input: &str) -> Vec<(String, bool)> {
    if tool != APPLY_PATCH {
        return Vec::new();
    }
    let mut files: Vec<(String, bool)> = Vec::new();
    for line in patch_of(input).lines() {
        let header = |prefix: &str| line.strip_prefix(prefix).map(|p| p.trim().to_string());
        if let Some(path) = header("*** Add File: ").or_else(|| header("*** Update File: ")) {
            files.push((path, false));
        } else if let Some(path) = header("*** Delete File: ") {
            files.push((path, true));
        } else if let Some(path) = header("*** Move to: ") {
            // The file updated just above leaves its old name.
            if let Some(moved) = files.last_mut() {
                moved.1 = true;
            }
            files.push((path, false));
        }
    }
    files
}

/// The patch text of an `apply_patch` input, in either form.
fn patch_of(input: &str) -> std::borrow::Cow<'_, str> {
    if input.trim_start().starts_with('{') {
        string_field(input, "input").unwrap_or_default().into()
    } else {
        input.into()
    }
}

pub fn todo_list(tool: &str, input: &str) -> Option<Vec<Todo>> {
    if tool != UPDATE_PLAN {
        return None;
    }
    todo_items(input, "plan", "step")
}

pub fn call(tool: &str, input: &str) -> Option<Call> {
    match tool {
        // `{"cmd": "ls -la"}`, as 0.171.0 wrote it (the sample rollout).
        "exec_command" => string_field(input, "cmd").map(Call::Command),
        // The patch reads as it is: it is a diff already.
        APPLY_PATCH => {
            let files: Vec<String> = file_changes(tool, input).into_iter().map(|f| f.0).collect();
            (!files.is_empty()).then(|| Call::About(files.join(", ")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_core::model::TodoStatus;

    const PATCH: &str = "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello, world!\")\n*** Update File: README.md\n@@\n-*** Delete File: not/a/header.txt\n+x\n*** Delete File: obsolete.txt\n*** End Patch";

    #[test]
    fn a_patch_names_the_files_it_adds_updates_moves_and_deletes() {
        let expected: Vec<(String, bool)> = [
            ("hello.txt", false),
            ("src/app.py", true),
            ("src/main.py", false),
            ("README.md", false),
            ("obsolete.txt", true),
        ]
        .map(|(p, d)| (p.to_string(), d))
        .into();
        // The freeform tool's input is the patch; the function tool's is JSON around it.
        assert_eq!(file_changes("apply_patch", PATCH), expected);
        let function = serde_json::json!({ "input": PATCH }).to_string();
        assert_eq!(file_changes("apply_patch", &function), expected);
        assert!(file_changes("exec_command", r#"{"cmd":"rm a"}"#).is_empty());
        // Cut short, it names the files before the cut.
        let cut = &PATCH[..PATCH.find("@@").unwrap()];
        assert_eq!(file_changes("apply_patch", cut), expected[..3]);
    }

    #[test]
    fn update_plan_is_the_whole_plan_in_its_order() {
        let input = r#"{"explanation":"tests first","plan":[{"step":"Write the failing test","status":"completed"},{"step":"Fix the parser","status":"in_progress"},{"step":"Update the docs","status":"pending"}]}"#;
        let texts: Vec<(String, TodoStatus)> = todo_list("update_plan", input)
            .unwrap()
            .into_iter()
            .map(|t| (t.text, t.status))
            .collect();
        assert_eq!(
            texts,
            [
                ("Write the failing test".into(), TodoStatus::Completed),
                ("Fix the parser".into(), TodoStatus::InProgress),
                ("Update the docs".into(), TodoStatus::Pending)
            ]
        );
        assert_eq!(todo_list("apply_patch", input), None);
    }

    #[test]
    fn a_call_is_its_command_or_its_files() {
        assert_eq!(
            call("exec_command", r#"{"cmd": "ls -la"}"#),
            Some(Call::Command("ls -la".into()))
        );
        assert_eq!(
            call("apply_patch", PATCH),
            Some(Call::About(
                "hello.txt, src/app.py, src/main.py, README.md, obsolete.txt".into()
            ))
        );
        assert_eq!(call("view_image", r#"{"path":"a.png"}"#), None);
    }
}
