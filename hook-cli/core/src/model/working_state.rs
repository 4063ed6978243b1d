//! Where the work of a chain of sessions stands when it is handed on: the branch, the files
//! changed, the todo list, the calls left running and what the agent was thinking last.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

/// The working state a memory carries to the next session ([`crate::store::Store::working_state`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WorkingState {
    /// The git branch the newest session worked on, as its transcript last said (None when
    /// unknown).
    pub branch: Option<String>,
    /// Files the chain's sessions changed (edited, written, created, deleted), most recently
    /// changed first, each once.
    pub files_changed: Vec<FileChange>,
    /// The latest todo/plan list the agent wrote in the chain (empty when none), in its order.
    pub todos: Vec<Todo>,
    /// The newest turn's tool calls that have no result, or only the host's word that the
    /// person interrupted them: they were running (or waiting for permission) when the
    /// session stopped.
    pub running: Vec<ToolCallBrief>,
    /// The newest turn stopped before the agent answered what its last tool returned: the
    /// person interrupted it, or the session ended mid-turn.
    pub stopped: bool,
    /// The newest turn's latest thinking text, if any (its last ~800 characters, from a
    /// sentence or line boundary): what the agent was about to do.
    pub last_thinking: Option<String>,
}

/// A file the chain changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    /// Relative to the project root when under it, else as the call named it.
    pub path: String,
    /// Calls that changed it (among the calls read).
    pub changes: u32,
    /// The turn (its code) of the latest change.
    pub last_turn: String,
    /// The latest change deleted it (or moved it away).
    pub deleted: bool,
}

/// One item of a todo/plan list the agent wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Todo {
    pub text: String,
    pub status: TodoStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

impl TodoStatus {
    /// `pending`, `in_progress` or `completed`: the words every host's todo tool uses.
    pub fn parse(s: &str) -> Option<TodoStatus> {
        match s {
            "pending" => Some(TodoStatus::Pending),
            "in_progress" => Some(TodoStatus::InProgress),
            "completed" => Some(TodoStatus::Completed),
            _ => None,
        }
    }
}

/// What one call did to a task list the agent builds a task at a time (Claude Code's Task
/// tools), as its host reads the call and its result: a session's changes, oldest first, make
/// its list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskChange {
    /// Task `id` was added, pending.
    Created {
        id: String,
        text: String,
    },
    /// Task `id` took a new status or text; None leaves it as it was.
    Updated {
        id: String,
        status: Option<TodoStatus>,
        text: Option<String>,
    },
    Deleted {
        id: String,
    },
}

/// A task list built from its changes: the tasks in the order they were added.
#[derive(Default)]
pub struct TaskList {
    tasks: Vec<(String, Todo)>,
}

impl TaskList {
    /// One change; changes come oldest first.
    pub fn apply(&mut self, change: TaskChange) {
        match change {
            // An id names one task: a second creation under it, as the client does, is ignored.
            TaskChange::Created { id, text } => {
                if self.position(&id).is_none() {
                    let status = TodoStatus::Pending;
                    self.tasks.push((id, Todo { text, status }));
                }
            }
            // A task whose creation was not read has no text to show: its update is dropped.
            TaskChange::Updated { id, status, text } => {
                if let Some(i) = self.position(&id) {
                    let todo = &mut self.tasks[i].1;
                    if let Some(status) = status {
                        todo.status = status;
                    }
                    if let Some(text) = text {
                        todo.text = text;
                    }
                }
            }
            TaskChange::Deleted { id } => {
                if let Some(i) = self.position(&id) {
                    self.tasks.remove(i);
                }
            }
        }
    }

    fn position(&self, id: &str) -> Option<usize> {
        self.tasks.iter().position(|(task, _)| task == id)
    }

    pub fn into_todos(self) -> Vec<Todo> {
        self.tasks.into_iter().map(|(_, todo)| todo).collect()
    }
}

/// A tool call in a few words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCallBrief {
    pub tool: String,
    /// What the call is about: a command's first line, a path, a pattern, else the start of
    /// its input; at most 200 characters.
    pub what: String,
    /// The turn (its code) the call is in.
    pub turn: String,
}

/// How long [`ToolCallBrief::what`] may be.
pub const BRIEF_CHARS: usize = 200;

/// How much of the latest thinking [`WorkingState::last_thinking`] keeps.
pub const THINKING_CHARS: usize = 800;

/// The first non-blank line of `text`, at most `max` characters (an ellipsis marks a cut).
pub fn first_line(text: &str, max: usize) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    match line.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// The end of `text`, at most `max` characters; when that cuts it, from after the first line
/// or sentence break (else the first space), so it does not open mid-sentence.
pub fn tail_from_boundary(text: &str, max: usize) -> String {
    let text = text.trim();
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let start = text.char_indices().nth(count - max).map_or(0, |(at, _)| at);
    let tail = &text[start..];
    let after_break = ["\n", ". ", "! ", "? ", "。"]
        .iter()
        .filter_map(|mark| tail.find(mark).map(|at| at + mark.len()))
        .min()
        .or_else(|| tail.find(' ').map(|at| at + 1))
        .unwrap_or(0);
    tail[after_break..].trim().to_string()
}

/// `path` as the working state names it: relative to `project` when under it (a relative
/// path is taken from `cwd`, where the call ran), else as it is.
pub fn project_path(path: &str, cwd: Option<&str>, project: Option<&str>) -> String {
    let path = Path::new(path);
    let absolute = match cwd {
        Some(cwd) if path.is_relative() => Path::new(cwd).join(path),
        _ => path.to_path_buf(),
    };
    match project.and_then(|root| absolute.strip_prefix(root).ok()) {
        Some(inside) if !inside.as_os_str().is_empty() => inside.to_string_lossy().into_owned(),
        _ => absolute.to_string_lossy().into_owned(),
    }
}

/// Files changed, gathered from calls newest first: each path once, where its latest change
/// put it.
#[derive(Default)]
pub struct FilesChanged {
    files: Vec<FileChange>,
    at: HashMap<String, usize>,
}

impl FilesChanged {
    /// One change of `path` by a call in `turn`; calls come newest first.
    pub fn add(&mut self, path: String, deleted: bool, turn: &str) {
        if let Some(&i) = self.at.get(&path) {
            self.files[i].changes += 1;
            return;
        }
        self.at.insert(path.clone(), self.files.len());
        self.files.push(FileChange {
            path,
            changes: 1,
            last_turn: turn.to_string(),
            deleted,
        });
    }

    pub fn into_list(self) -> Vec<FileChange> {
        self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_project_are_relative_to_it() {
        let project = Some("/home/dev/proj");
        let at = |path, cwd| project_path(path, cwd, project);
        assert_eq!(at("/home/dev/proj/src/a.rs", None), "src/a.rs");
        assert_eq!(at("src/a.rs", Some("/home/dev/proj/cli")), "cli/src/a.rs");
        assert_eq!(at("/etc/hosts", Some("/home/dev/proj")), "/etc/hosts");
        assert_eq!(
            at("/home/dev/project2/a.rs", None),
            "/home/dev/project2/a.rs"
        );
        assert_eq!(project_path("src/a.rs", None, None), "src/a.rs");
    }

    #[test]
    fn files_keep_their_newest_change_and_count_every_one() {
        let mut files = FilesChanged::default();
        files.add("a.rs".into(), true, "t3");
        files.add("b.rs".into(), false, "t2");
        files.add("a.rs".into(), false, "t1");
        assert_eq!(
            files.into_list(),
            [
                FileChange {
                    path: "a.rs".into(),
                    changes: 2,
                    last_turn: "t3".into(),
                    deleted: true
                },
                FileChange {
                    path: "b.rs".into(),
                    changes: 1,
                    last_turn: "t2".into(),
                    deleted: false
                }
            ]
        );
    }

    #[test]
    fn a_task_list_keeps_the_order_tasks_were_added_in() {
        let created = |id: &str, text: &str| TaskChange::Created {
            id: id.into(),
            text: text.into(),
        };
        let updated = |id: &str, status, text: Option<&str>| TaskChange::Updated {
            id: id.into(),
            status,
            text: text.map(str::to_string),
        };
        let mut list = TaskList::default();
        for change in [
            created("1", "Read the parser"),
            created("2", "Fix it"),
            created("3", "Run the tests"),
            updated(
                "2",
                Some(TodoStatus::InProgress),
                Some("Fix the empty input"),
            ),
            updated("1", Some(TodoStatus::Completed), None),
            TaskChange::Deleted { id: "3".into() },
            updated("9", Some(TodoStatus::Completed), Some("Never created")),
            created("2", "Created twice"),
            created("4", "Commit"),
        ] {
            list.apply(change);
        }
        let todo = |text: &str, status| Todo {
            text: text.into(),
            status,
        };
        assert_eq!(
            list.into_todos(),
            [
                todo("Read the parser", TodoStatus::Completed),
                todo("Fix the empty input", TodoStatus::InProgress),
                todo("Commit", TodoStatus::Pending)
            ]
        );
    }

    #[test]
    fn a_brief_is_the_first_line_cut_with_an_ellipsis() {
        assert_eq!(
            first_line("\n  cargo test -p x\n  && more", 200),
            "cargo test -p x"
        );
        assert_eq!(first_line("ééééé", 3), "ééé…");
        assert_eq!(first_line("", 3), "");
    }

    #[test]
    fn the_thinking_tail_starts_at_a_boundary() {
        assert_eq!(tail_from_boundary(" short ", 800), "short");
        let text = format!("{}. Next I run the tests. Then I commit.", "x".repeat(900));
        assert_eq!(
            tail_from_boundary(&text, 60),
            "Next I run the tests. Then I commit."
        );
        let lines = format!("{}\nfirst line\nsecond line", "y".repeat(900));
        assert_eq!(tail_from_boundary(&lines, 25), "first line\nsecond line");
        let words = "word ".repeat(400);
        let tail = tail_from_boundary(&words, 42);
        assert!(
            tail.starts_with("word") && tail.chars().count() <= 42,
            "{tail}"
        );
    }
}
