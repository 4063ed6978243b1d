//! Acceptance tests of the capture switches with the real Claude Code CLI: while capture is
//! paused nothing the session says is stored, not even after it resumes; a project with
//! capture off is left alone entirely.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`).

mod support;

use std::fs;

use support::throughline::World;
use support::Script;

/// Every byte of the store (database and write-ahead log), to prove a phrase is not in it.
fn store_bytes(world: &World) -> Vec<u8> {
    let status = world.throughline_json(&["status", "--json"]);
    let db = status["store"]["path"]
        .as_str()
        .expect("database path")
        .to_string();
    let mut bytes = fs::read(&db).expect("read the database");
    bytes.extend(fs::read(format!("{db}-wal")).unwrap_or_default());
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[test]
fn what_a_session_says_while_capture_is_paused_is_never_stored() {
    let world = World::new(Script::new().fallback_text("Noted."));
    let env = &world.env;
    env.run_print("Remember the colour teal.")
        .expect_ok(&env.debug_context());
    let session = env.session_ids()[0].clone();

    world.throughline(&["config", "--pause"]);
    env.resume_print(&session, "The door code is 7391-PAUSED.")
        .expect_ok(&env.debug_context());
    world.throughline(&["config", "--resume"]);
    env.resume_print(&session, "Which colour was it?")
        .expect_ok(&env.debug_context());

    let shown = world.throughline_json(&["show", &session, "--json"]);
    let prompts: Vec<&str> = shown["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .filter_map(|t| {
            t["messages"]
                .as_array()?
                .iter()
                .find(|m| m["role"] == "user")?["text"]
                .as_str()
        })
        .collect();
    assert_eq!(
        prompts,
        ["Remember the colour teal.", "Which colour was it?"],
        "{shown:#}"
    );
    let transcript = env.transcript_path(&session).expect("transcript");
    assert!(
        fs::read_to_string(transcript)
            .unwrap()
            .contains("7391-PAUSED"),
        "the client itself kept it"
    );
    assert!(
        !contains(&store_bytes(&world), "7391-PAUSED"),
        "the paused turn reached the store"
    );
}

#[test]
fn a_project_with_capture_off_is_left_alone() {
    let world = World::new(Script::new().fallback_text("Noted."));
    let env = &world.env;
    let project = env.project.to_string_lossy().into_owned();
    world.throughline(&["config", "--capture-off", &project]);
    env.run_print("Nothing here should be kept.")
        .expect_ok(&env.debug_context());
    assert!(!env.payloads_of("Stop").is_empty(), "the hooks ran");
    let status = world.throughline_json(&["status", "--json"]);
    assert!(status["store"].is_null(), "nothing was stored: {status:#}");

    world.throughline(&["config", "--capture-on", &project]);
    env.run_print("Keep this one.")
        .expect_ok(&env.debug_context());
    let sessions = world.throughline_json(&["sessions", "--all", "--json"]);
    assert_eq!(sessions.as_array().map(Vec::len), Some(1), "{sessions:#}");
}
