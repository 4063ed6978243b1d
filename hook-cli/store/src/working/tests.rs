use super::*;
use throughline_core::home::Home;
use throughline_core::model::{DetailKind, FileChange, Host, Todo, TodoStatus};
use throughline_core::record::Record;

const PROJECT: &str = "/home/dev/proj";

fn prompt(key: &str) -> Record {
    Record::Prompt {
        key: key.into(),
        text: format!("prompt {key}"),
        at: None,
    }
}

fn entry(kind: DetailKind, name: Option<&str>, id: Option<&str>, body: &str) -> Record {
    Record::Detail {
        key: format!("{}:{}:{body}", kind.as_str(), id.unwrap_or_default()),
        kind,
        name: name.map(str::to_string),
        tool_use_id: id.map(str::to_string),
        body: body.into(),
        is_error: false,
        at: None,
    }
}

fn call(id: &str, tool: &str, input: &str) -> Record {
    entry(DetailKind::ToolCall, Some(tool), Some(id), input)
}

fn result(id: &str) -> Record {
    answer(id, "ok")
}

fn answer(id: &str, text: &str) -> Record {
    entry(DetailKind::ToolResult, None, Some(id), text)
}

fn thinking(text: &str) -> Record {
    entry(DetailKind::Thinking, None, None, text)
}

/// Stores `records` as session `id` of `host`, working in `cwd`.
fn store(store: &mut Store, host: Host, id: &str, cwd: &str, records: &[Record]) {
    let w = store.write().unwrap();
    let mut session = w.session(host, id, Some(cwd), None).unwrap();
    let mut turn = None;
    for record in records {
        w.apply(&mut session, &mut turn, record).unwrap();
    }
    w.commit().unwrap();
}

/// Turn codes of a session, oldest first.
fn codes(store: &Store, session: &Session) -> Vec<String> {
    let mut turns = store.recent_turns(&[session], 10, 0).unwrap();
    turns.reverse();
    turns.into_iter().map(|t| t.code).collect()
}

/// An older Codex session working in a subfolder of the project, then a Claude Code session
/// that continues it, on a branch its transcript names.
#[test]
fn the_working_state_of_a_chain_across_hosts() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = Store::open(&Home::at(dir.path().join("home")), &[]).unwrap();
    let patch = "*** Begin Patch\n*** Update File: src/main.rs\n@@\n-a\n+b\n*** Delete File: old.rs\n*** End Patch";
    let again = serde_json::json!({ "input": "*** Begin Patch\n*** Update File: src/main.rs\n@@\n-b\n+c\n*** End Patch" });
    store(
        &mut db,
        throughline_hosts::codex::HOST,
        "codex-1",
        "/home/dev/proj/cli",
        &[
            prompt("c1"),
            call(
                "p1",
                "update_plan",
                r#"{"plan":[{"step":"Port the CLI","status":"in_progress"}]}"#,
            ),
            result("p1"),
            call("e1", "apply_patch", patch),
            result("e1"),
            prompt("c2"),
            call("e2", "apply_patch", &again.to_string()),
            result("e2"),
        ],
    );
    // The Claude Code session's first line, as its transcript writes it.
    let mut first_line = Vec::new();
    hosts::line_parser(throughline_hosts::claude::HOST, std::path::Path::new("s.jsonl"))
        .parse_line(
            r#"{"type":"user","uuid":"u1","cwd":"/home/dev/proj","version":"2.1.332","gitBranch":"feature/json","message":{"role":"user","content":"add --json"}}"#,
            &mut first_line,
        )
        .unwrap();
    let todos = |second: &str| {
        format!(
            r#"{{"todos":[{{"content":"Add --json","status":"completed","activeForm":"Adding"}},{{"content":"Test it","status":"{second}","activeForm":"Testing"}}]}}"#
        )
    };
    let mut records = first_line;
    records.extend([
        call("t1", "TodoWrite", &todos("pending")),
        result("t1"),
        call("w1", "Write", r#"{"file_path":"/home/dev/proj/src/a.rs","content":"fn a() {}"}"#),
        result("w1"),
        call("w2", "Edit", r#"{"file_path":"/etc/hosts","old_string":"a","new_string":"b"}"#),
        result("w2"),
        prompt("u2"),
        thinking("Older thought."),
        call("t2", "TodoWrite", &todos("in_progress")),
        result("t2"),
        call("w3", "Edit", r#"{"replace_all":false,"file_path":"/home/dev/proj/src/a.rs","old_string":"a","new_string":"b"}"#),
        result("w3"),
        call("b1", "Bash", r#"{"command":"cargo build","description":"Build"}"#),
        result("b1"),
        thinking(&format!("{}. The build passes. Now the tests, then a commit.", "x".repeat(900))),
        thinking("[redacted thinking]"),
        call("b2", "Bash", r#"{"command":"cargo test -p throughline\n  --lib","description":"Test"}"#),
    ]);
    store(
        &mut db,
        throughline_hosts::claude::HOST,
        "claude-2",
        PROJECT,
        &records,
    );

    let codex = db.session("codex-1").unwrap();
    let claude = db.session("claude-2").unwrap();
    let (codex_turns, claude_turns) = (codes(&db, &codex), codes(&db, &claude));
    let state = db.working_state(&[&claude, &codex], Some(PROJECT)).unwrap();

    assert_eq!(state.branch.as_deref(), Some("feature/json"));
    let file = |path: &str, changes, turn: &String, deleted| FileChange {
        path: path.into(),
        changes,
        last_turn: turn.clone(),
        deleted,
    };
    assert_eq!(
        state.files_changed,
        [
            file("src/a.rs", 2, &claude_turns[1], false),
            file("/etc/hosts", 1, &claude_turns[0], false),
            file("cli/src/main.rs", 2, &codex_turns[1], false),
            file("cli/old.rs", 1, &codex_turns[0], true),
        ]
    );
    // The newest list of the newest session wins over its older one and Codex's plan.
    assert_eq!(
        state.todos,
        [
            Todo {
                text: "Add --json".into(),
                status: TodoStatus::Completed
            },
            Todo {
                text: "Test it".into(),
                status: TodoStatus::InProgress
            }
        ]
    );
    assert_eq!(
        state.running,
        [ToolCallBrief {
            tool: "Bash".into(),
            what: "cargo test -p throughline".into(),
            turn: claude_turns[1].clone(),
        }]
    );
    assert_eq!(
        state.last_thinking.as_deref(),
        Some("The build passes. Now the tests, then a commit.")
    );

    // Codex's session alone: its latest plan, its branch unknown, nothing left running.
    let alone = db.working_state(&[&codex], Some(PROJECT)).unwrap();
    assert_eq!(alone.branch, None);
    assert_eq!(
        alone.todos,
        [Todo {
            text: "Port the CLI".into(),
            status: TodoStatus::InProgress
        }]
    );
    assert!(alone.running.is_empty() && alone.last_thinking.is_none());
    assert_eq!(
        db.working_state(&[], None).unwrap(),
        WorkingState::default()
    );
}

/// A `TaskCreate` call and its result, as Claude Code 2.1.332 words it.
fn create_task(call_id: &str, task: u32, subject: &str) -> [Record; 2] {
    let input = serde_json::json!({ "subject": subject, "description": format!("{subject}, then test it") });
    let text = format!("Task #{task} created successfully: {subject}");
    [
        call(call_id, "TaskCreate", &input.to_string()),
        answer(call_id, &text),
    ]
}

/// A `TaskUpdate` call setting a task's status, and its result.
fn set_status(call_id: &str, task: u32, status: &str) -> [Record; 2] {
    let input = format!(r#"{{"taskId":"{task}","status":"{status}"}}"#);
    let fields = if status == "deleted" {
        "deleted"
    } else {
        "status"
    };
    let text = format!("Updated task #{task} {fields}");
    [call(call_id, "TaskUpdate", &input), answer(call_id, &text)]
}

fn todo_write(call_id: &str, text: &str) -> [Record; 2] {
    let input =
        format!(r#"{{"todos":[{{"content":"{text}","status":"pending","activeForm":"{text}"}}]}}"#);
    [call(call_id, "TodoWrite", &input), result(call_id)]
}

fn todo(text: &str, status: TodoStatus) -> Todo {
    Todo {
        text: text.into(),
        status,
    }
}

/// Stores `records` as a Claude Code session and reads its todo list.
fn claude_todos(db: &mut Store, id: &str, records: Vec<Record>) -> Vec<Todo> {
    store(db, throughline_hosts::claude::HOST, id, PROJECT, &records);
    let session = db.session(id).unwrap();
    db.working_state(&[&session], Some(PROJECT)).unwrap().todos
}

#[test]
fn the_task_tools_build_the_list_a_call_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = Store::open(&Home::at(dir.path().join("home")), &[]).unwrap();
    let records: Vec<Record> = [
        vec![prompt("p1")],
        create_task("c1", 1, "Read the parser").to_vec(),
        create_task("c2", 2, "Fix the empty input").to_vec(),
        create_task("c3", 3, "Rewrite the lexer").to_vec(),
        set_status("u1", 1, "in_progress").to_vec(),
        vec![prompt("p2")],
        set_status("u2", 1, "completed").to_vec(),
        set_status("u3", 2, "in_progress").to_vec(),
        set_status("u4", 3, "deleted").to_vec(),
        create_task("c4", 4, "Run the tests").to_vec(),
        // Refused: the task stays as it was.
        vec![
            call("u5", "TaskUpdate", r#"{"taskId":"4","status":"completed"}"#),
            answer("u5", "Task #4 not found"),
        ],
    ]
    .concat();
    assert_eq!(
        claude_todos(&mut db, "tasks", records),
        [
            todo("Read the parser", TodoStatus::Completed),
            todo("Fix the empty input", TodoStatus::InProgress),
            todo("Run the tests", TodoStatus::Pending),
        ]
    );
}

/// Whichever was written last, the whole list or a task, is where the list stands.
#[test]
fn the_newest_of_a_whole_list_and_the_task_calls_wins() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = Store::open(&Home::at(dir.path().join("home")), &[]).unwrap();
    let list_last = [
        vec![prompt("p1")],
        create_task("c1", 1, "Task first").to_vec(),
        todo_write("w1", "List last").to_vec(),
    ]
    .concat();
    assert_eq!(
        claude_todos(&mut db, "list-last", list_last),
        [todo("List last", TodoStatus::Pending)]
    );
    let tasks_last = [
        vec![prompt("p1")],
        todo_write("w1", "List first").to_vec(),
        create_task("c1", 1, "Task last").to_vec(),
        set_status("u1", 1, "in_progress").to_vec(),
    ]
    .concat();
    assert_eq!(
        claude_todos(&mut db, "tasks-last", tasks_last),
        [todo("Task last", TodoStatus::InProgress)]
    );
    // Across a chain, the newest session that wrote a list has it.
    let older = db.session("tasks-last").unwrap();
    store(
        &mut db,
        throughline_hosts::claude::HOST,
        "newer",
        PROJECT,
        &[prompt("p1")],
    );
    let newer = db.session("newer").unwrap();
    let state = db.working_state(&[&newer, &older], Some(PROJECT)).unwrap();
    assert_eq!(state.todos, [todo("Task last", TodoStatus::InProgress)]);
}

#[test]
fn the_calls_of_a_tool_are_read_through_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let db = Store::open(&Home::at(dir.path().join("home")), &[]).unwrap();
    let plan: String = db
        .conn
        .query_row(
            "EXPLAIN QUERY PLAN SELECT id FROM details
             WHERE session = 1 AND kind = 'tool_call' AND name = 'Edit'
             ORDER BY id DESC LIMIT 10",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("details_tool_calls"), "{plan}");
    assert!(!plan.contains("TEMP B-TREE"), "{plan}");
    // A call's result is looked for among its turn's entries alone.
    let plan: String = db
        .conn
        .query_row(
            "EXPLAIN QUERY PLAN SELECT body FROM details
             WHERE turn = 1 AND kind = 'tool_result' AND tool_use_id = 'c1' LIMIT 1",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(
        plan.contains("sqlite_autoindex_details_1 (turn=?)"),
        "{plan}"
    );
}

/// A database written before the branch and the index were added takes both on opening, and
/// its sessions read with no branch.
#[test]
fn an_older_database_gains_the_branch_and_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let db = Store::open(&home, &[]).unwrap();
    db.conn
        .execute_batch(
            "DROP TABLE secret_marks;
             ALTER TABLE sessions DROP COLUMN compaction_stopped_at;
             ALTER TABLE cursors DROP COLUMN tail_mark;
             DROP TABLE unwiped_free_space;
             DROP TABLE waiting_parts;
             DROP INDEX details_tool_calls;
             ALTER TABLE sessions DROP COLUMN branch;
             PRAGMA user_version = 14;
             INSERT INTO sessions (host, session_id, cwd, project) VALUES ('claude', 'old', '/p', '/p');",
        )
        .unwrap();
    drop(db);
    let db = Store::open(&home, &[]).unwrap();
    assert_eq!(db.session("old").unwrap().branch, None);
    let indexed: bool = db
        .conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'details_tool_calls')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(indexed);
}
