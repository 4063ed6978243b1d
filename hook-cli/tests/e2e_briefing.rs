//! Acceptance tests of the memory as a briefing, on the real Claude Code CLI under tmux with
//! the real `throughline hook claude`: after `/clear` the first request of the next session
//! holds the goal, the files the work changed, the open todos, the call that was running
//! when the person stopped the last turn, how that turn ended, the facts of older turns as
//! whole sentences, every turn once, no list debris, and a long last answer's closing report
//! whole.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and `tmux`.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::claude::{client_at_least, event_name};
use support::throughline::World;
use support::{RecordedRequest, Script, Step, Tmux};

const GOAL: &str = "Add CSV export to the ledger report: write src/export.rs with a to_csv \
                    function, wire it into src/lib.rs, and cover it with tests.";
const CONSTRAINT: &str = "Hard constraint: never use port 8080 here, the corporate firewall \
                          blocks it; the dev server runs on port 8443.";
const LAST: &str = "Now run the whole test suite.";
const NEXT: &str = "Where were we?";

/// Routine turns between the constraint and the end, so that it leaves the verbatim window.
const ROUTINE: usize = 8;

/// The todo list as the client under test plans it: `TodoWrite` on older releases, the Task
/// tools on those since 2.1.142. `done` items of the three are completed.
fn plan(done: usize) -> Vec<Step> {
    let items = [
        "Write src/export.rs with to_csv",
        "Wire the export into src/lib.rs",
        "Add tests for to_csv",
    ];
    if !client_at_least("2.1.142") {
        let todos: Vec<Value> = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let status = if i < done { "completed" } else { "pending" };
                json!({"content": item, "status": status, "activeForm": item})
            })
            .collect();
        return vec![Step::new().tool("TodoWrite", json!({ "todos": todos }))];
    }
    if done == 0 {
        items
            .iter()
            .map(|item| {
                Step::new().tool(
                    "TaskCreate",
                    json!({"subject": item, "description": item, "activeForm": item}),
                )
            })
            .collect()
    } else {
        (1..=done)
            .map(|id| {
                Step::new().tool(
                    "TaskUpdate",
                    json!({"taskId": id.to_string(), "status": "completed"}),
                )
            })
            .collect()
    }
}

fn script(world: &World) -> Script {
    let path = |rel: &str| world.env.project.join(rel).to_string_lossy().into_owned();
    let mut first = plan(0);
    first.push(Step::new().tool(
        "Write",
        json!({"file_path": path("src/export.rs"), "content": "pub fn to_csv() -> String {\n    String::new()\n}\n"}),
    ));
    first.push(
        Step::new().text(
            "Created src/export.rs with a first to_csv; next I will wire it into src/lib.rs.",
        ),
    );
    let mut wire = plan(2);
    wire.insert(
        0,
        Step::new().tool("Read", json!({"file_path": path("src/lib.rs")})),
    );
    wire.insert(
        1,
        Step::new().tool(
            "Edit",
            json!({"file_path": path("src/lib.rs"), "old_string": "pub mod ledger;", "new_string": "pub mod ledger;\npub mod export;"}),
        ),
    );
    wire.push(Step::new().text("Wired: src/lib.rs now declares the export module."));
    let mut script = Script::new()
        .on_prompt(GOAL, first)
        .on_prompt(
            CONSTRAINT,
            vec![Step::new().text("Understood, the dev server stays on 8443.")],
        )
        .on_prompt("Wire it into src/lib.rs now.", wire)
        .on_prompt(
            LAST,
            vec![Step::new()
                .text("Running the whole suite; it takes a while.")
                .tool(
                    "Bash",
                    json!({"command": "tail -f src/ledger.rs", "description": "Run the whole test suite"}),
                )],
        )
        .on_prompt(NEXT, vec![Step::new().text("We were running the suite.")]);
    for i in 0..ROUTINE {
        script = script.on_prompt(
            routine(i),
            vec![
                Step::new().tool(
                    "Bash",
                    json!({"command": "wc -l src/ledger.rs", "description": "Count lines"}),
                ),
                Step::new().text(format!("Checked: src/ledger.rs is unchanged (check {i}).")),
            ],
        );
    }
    script
}

fn routine(i: usize) -> String {
    format!("Check {i}: is src/ledger.rs still unchanged?")
}

/// Every text block of a request's messages, as the model reads them.
fn texts(request: &RecordedRequest) -> String {
    let mut out = String::new();
    for message in request.messages() {
        match &message["content"] {
            Value::String(text) => out.push_str(text),
            Value::Array(blocks) => {
                for block in blocks {
                    out.push_str(block["text"].as_str().unwrap_or_default());
                    out.push('\n');
                }
            }
            _ => {}
        }
        out.push('\n');
    }
    out
}

fn files() -> Vec<(String, String)> {
    vec![
        ("src/lib.rs".into(), "pub mod ledger;\n".into()),
        (
            "src/ledger.rs".into(),
            "pub fn total(rows: &[i64]) -> i64 {\n    rows.iter().sum()\n}\n".into(),
        ),
    ]
}

#[test]
fn after_clear_the_briefing_says_what_the_work_is_for_where_it_stands_and_how_it_stopped() {
    // Claude Code offers its todo tools to some models only, or where this asks for them.
    let world = World::build(
        Script::new(),
        &[("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1")],
        files(),
    );
    world.server.set_script(script(&world));
    let mut ui = Tmux::start(&world.env);
    world.ask(&mut ui, GOAL);
    world.ask(&mut ui, CONSTRAINT);
    world.ask(&mut ui, "Wire it into src/lib.rs now.");
    for i in 0..ROUTINE {
        world.ask(&mut ui, &routine(i));
    }
    // The last turn stops half-way: the person interrupts the long command it runs.
    let sleeps = |ps: &[Value]| {
        ps.iter()
            .filter(|p| event_name(p) == "PreToolUse")
            .any(|p| p["tool_input"]["command"] == "tail -f src/ledger.rs")
    };
    ui.type_prompt(LAST);
    world
        .env
        .wait_for_hooks(Duration::from_secs(60), sleeps)
        .unwrap_or_else(|e| panic!("the suite never started: {e}\n{}", ui.context()));
    std::thread::sleep(Duration::from_millis(500));
    ui.keys(&["Escape"]);
    let mains = world.server.main_requests().len();
    ui.clear();
    world.ask(&mut ui, NEXT);
    let first = world.first_request_for(mains, NEXT);
    let memory = texts(&first);

    // What happened and the goal.
    assert!(
        memory.contains("stopped before it was done"),
        "the framing says the last turn stopped:\n{memory}"
    );
    assert!(!memory.contains("finished at"), "{memory}");
    let goal_at = memory.find("## Goal").expect("a goal section");
    assert!(memory[goal_at..].contains(GOAL), "{memory}");
    // Where the work stands.
    let branch = world.env.git(&["branch", "--show-current"]);
    assert!(
        memory.contains(&format!("- Git branch: {}", branch.trim())),
        "{memory}"
    );
    let files_line = memory
        .lines()
        .find(|l| l.starts_with("- Files this work changed"))
        .unwrap_or_else(|| panic!("no files line:\n{memory}"));
    assert!(
        files_line.contains("src/lib.rs") && files_line.contains("src/export.rs"),
        "{files_line}"
    );
    assert!(
        memory.contains("- Stopped before it returned (interrupted, refused or cut off): Bash `tail -f src/ledger.rs`"),
        "the interrupted call:\n{memory}"
    );
    assert!(
        memory.contains("(2 of 3 done), still open:\n  - [ ] Add tests for to_csv"),
        "the open todo:\n{memory}"
    );
    // The fact of an older turn, as its sentence.
    assert!(memory.contains(CONSTRAINT), "{memory}");
    // Every prompt once, and no line without words.
    for prompt in [CONSTRAINT, "Wire it into src/lib.rs now.", LAST] {
        assert_eq!(memory.matches(prompt).count(), 1, "{prompt:?} in\n{memory}");
    }
    for line in memory.lines() {
        let words = line.chars().filter(|c| c.is_alphabetic()).count();
        assert!(
            line.trim().is_empty() || words >= 2 || line.starts_with('#'),
            "debris line {line:?} in\n{memory}"
        );
    }
}

#[test]
fn after_a_finished_turn_the_briefing_says_it_finished() {
    let world = World::build(Script::new(), &[], files());
    world.server.set_script(script(&world));
    let mut ui = Tmux::start(&world.env);
    world.ask(&mut ui, GOAL);
    world.ask(&mut ui, CONSTRAINT);
    let mains = world.server.main_requests().len();
    ui.clear();
    world.ask(&mut ui, NEXT);
    let memory = texts(&world.first_request_for(mains, NEXT));
    assert!(
        memory.contains("finished at") && memory.contains("what it did is done"),
        "{memory}"
    );
    assert!(!memory.contains("stopped before it was done"), "{memory}");
}

const MAPPING: &str = "Make the parcel mapping work end to end.";

/// The report that closes the mapping turn, after its tool calls: longer than the third of
/// its room a cut used to keep of an answer's end.
fn report() -> String {
    let mut report = String::from(
        "## Mapping fixed\nThe parcel API returns `Owner.OwnerID` not `owner.id`, so every \
         nested lookup came back empty.\n",
    );
    for (i, county) in ["Maricopa", "Pima", "Pinal", "Yavapai", "Mohave", "Cochise"]
        .iter()
        .enumerate()
    {
        report.push_str(&format!(
            "- {county}: `map_to_max_headers()` reads the real field names; {} of 84 columns \
             are filled, the rest are fields its residential parcels do not have.\n\
             - {county}: files written before March keep the old names; rerun them with \
             `--county {} --force`.\n",
            40 + i,
            county.to_lowercase()
        ));
    }
    report.push_str("- `scripts/discover.py` prints one raw response when a field looks wrong.");
    report
}

/// A long opening plan, each line its own guess: the part of the answer a cut gives up.
/// Nothing in it is exact enough to be a fact.
fn opening_plan() -> String {
    let mut plan = String::from("Here is the plan before looking at a real response:\n");
    for first in 'a'..='j' {
        for second in 'a'..='l' {
            plan.push_str(&format!(
                "- Guess {first}{second}: perhaps the owner field sits one level deeper than we think.\n"
            ));
        }
    }
    plan
}

#[test]
fn a_long_last_answer_keeps_its_closing_report_whole() {
    let world = World::build(Script::new(), &[], files());
    let mut steps = vec![Step::new().text(opening_plan()).tool(
        "Bash",
        json!({"command": "wc -l src/ledger.rs", "description": "Count lines"}),
    )];
    for i in 0..6 {
        steps.push(
            Step::new()
                .text(format!("Now let me check response {i}:"))
                .tool(
                    "Bash",
                    json!({"command": "cat src/lib.rs", "description": "Show the module list"}),
                ),
        );
    }
    steps.push(Step::new().text(report()));
    world.server.set_script(
        Script::new()
            .on_prompt(MAPPING, steps)
            .on_prompt(NEXT, vec![Step::new().text("The mapping is fixed.")]),
    );
    let mut ui = Tmux::start(&world.env);
    world.ask(&mut ui, MAPPING);
    let mains = world.server.main_requests().len();
    ui.clear();
    world.ask(&mut ui, NEXT);
    let memory = texts(&world.first_request_for(mains, NEXT));
    assert!(
        memory.contains("characters cut"),
        "the answer fits whole:\n{memory}"
    );
    assert!(memory.contains(&report()), "the report is cut:\n{memory}");
    assert!(
        memory.contains("Here is the plan before looking at a real response:"),
        "{memory}"
    );
}
