//! Acceptance test of what counts as a prompt: the real Claude Code client, interactive under
//! tmux, with every hook running the real `throughline hook claude`. A command file with
//! arguments, a prompt typed while a tool runs and a long paste must each be a turn of their
//! own, holding the person's words and the answer they got.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and `tmux`.

mod support;

use serde_json::{json, Value};
use support::throughline::World;
use support::tmux::UI_TIMEOUT;
use support::{event_name, Script, Step, Tmux};

const COMMAND: &str = "/release-notes ship 2.4 to Marguerite";
const SLOW: &str = "Run the slow check, please.";
const QUEUED: &str = "Also mention the staging port 8443.";

fn pasted() -> String {
    (1..=40)
        .map(|i| format!("log line {i}: worker {i} finished batch {} in {i}ms", i * 7))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn commands_prompts_typed_while_a_tool_runs_and_pastes_are_turns() {
    let script = Script::new()
        .on_prompt_containing(
            "Write release notes.",
            vec![Step::new().text("Release notes for 2.4 drafted for Marguerite.")],
        )
        .on_prompt(
            SLOW,
            vec![
                Step::new().tool(
                    "Bash",
                    json!({"command": "sleep 8; echo checked", "description": "Slow check"}),
                ),
                Step::new().text("The check passed; staging listens on 8443."),
            ],
        )
        // 2.1.332 wraps a long paste in tags: match on the pasted text itself.
        .on_prompt_containing(
            "log line 40:",
            vec![Step::new().text("All 40 workers finished; worker 40 was the slowest.")],
        );
    let world = World::new(script);
    std::fs::write(
        world.env.home.join(".claude/commands/release-notes.md"),
        "Write release notes.\n\nWhat the person asked: $ARGUMENTS\n",
    )
    .expect("write the command file");

    let mut ui = Tmux::start(&world.env);
    world.ask(&mut ui, COMMAND);

    // Typed while Bash runs: the client hands it to the model within the running turn.
    let end_turns = world.server.end_turns();
    let stops = world.env.payloads_of("Stop").len();
    ui.type_prompt(SLOW);
    world
        .env
        .wait_for_hooks(UI_TIMEOUT, |ps| {
            ps.iter()
                .any(|p| event_name(p) == "PreToolUse" && p["tool_name"] == "Bash")
        })
        .unwrap_or_else(|e| panic!("Bash did not start: {e}\n{}", ui.context()));
    ui.type_text(QUEUED);
    ui.wait_screen("the queued prompt", UI_TIMEOUT, |s| s.contains(QUEUED));
    ui.keys(&["Enter"]);
    world
        .server
        .wait_for_end_turns(end_turns + 1, UI_TIMEOUT)
        .unwrap_or_else(|e| panic!("{e}\n{}", ui.context()));
    world
        .env
        .wait_for_event_count("Stop", stops + 1, UI_TIMEOUT)
        .unwrap_or_else(|e| panic!("{e}\n{}", ui.context()));
    let delivered = world
        .server
        .main_requests()
        .iter()
        .any(|r| r.messages_contain(QUEUED));
    assert!(delivered, "the queued prompt never reached the model");

    world.ask(
        &mut ui,
        &format!("Look at this log:\n{}\nwhat happened?", pasted()),
    );
    ui.exit();

    let session = world.env.session_ids()[0].clone();
    let shown = world.throughline_json(&["show", &session, "--json"]);
    // Turn zero holds what came before the first prompt, if anything did.
    let turns: Vec<&Value> = shown["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .filter(|t| t["seq"] != 0)
        .collect();
    let texts = |t: &Value| -> Vec<String> {
        t["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    let all: Vec<Vec<String>> = turns.iter().map(|t| texts(t)).collect();
    assert_eq!(all.len(), 4, "{all:#?}");
    assert_eq!(
        all[0],
        [COMMAND, "Release notes for 2.4 drafted for Marguerite."]
    );
    assert_eq!(all[1], [SLOW]);
    assert_eq!(
        all[2],
        [QUEUED, "The check passed; staging listens on 8443."]
    );
    let paste = &all[3];
    assert_eq!(
        paste[1],
        "All 40 workers finished; worker 40 was the slowest."
    );
    assert!(
        paste[0].contains(&pasted()) && !paste[0].contains("pasted_content"),
        "{:?}",
        paste[0]
    );

    // The command file as the model got it is in its turn's detail; the Bash call in the
    // turn it was made in.
    let code = |i: usize| turns[i]["code"].as_str().unwrap().to_string();
    let detail = world.throughline_json(&["detail", &code(0), "--json"]);
    assert!(
        detail["details"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["body"]
                .as_str()
                .unwrap()
                .contains("What the person asked: ship 2.4 to Marguerite")),
        "{detail:#}"
    );
    assert_eq!(turns[1]["detail_summary"], "Bash");
    // The person's words are found: their turn is one hit, by the prompt or by an answer that
    // repeats them.
    let found = world.throughline_json(&["search", "Marguerite", "--json"]);
    assert!(
        found.as_array().unwrap().iter().any(|h| {
            (h["role"] == "user" || h["role"] == "assistant") && h["turn"] == code(0).as_str()
        }),
        "{found:#}"
    );
}
