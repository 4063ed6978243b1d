//! Acceptance test of the `claude` summary backend with the real Claude Code CLI: a session's
//! Stop hook starts `throughline summarize`, which runs the real `claude -p` against our
//! scripted model server. The flags it passes are ones the client accepts, its JSON result is
//! read, and the hooks that `claude -p` fires (Throughline's own among them) store nothing of it.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`).

mod support;

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::claude::claude_bin;
use support::throughline::World;
use support::Script;

#[test]
fn the_stop_hook_gets_one_liners_from_claude_p_whose_own_hooks_capture_nothing() {
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(claude_bin(), bin_dir.path().join("claude")).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let world = World::build(
        Script::new().fallback_text("Noted; nothing else to do."),
        &[
            ("PATH", path.as_str()),
            ("THROUGHLINE_VERBATIM_TURNS", "2"),
            ("THROUGHLINE_SUMMARY_BATCH_TURNS", "3"),
        ],
        Vec::new(),
    );
    let env = &world.env;
    env.run_print("Step 1: set the port to 8443.")
        .expect_ok(&env.debug_context());
    let session = env.session_ids()[0].clone();
    for prompt in [
        "Step 2: the release tag v3.14.2 is the rollback target.",
        "Step 3: rename fetch_rows to load_rows.",
        "Step 4: keep SQLite in WAL mode.",
    ] {
        env.resume_print(&session, prompt)
            .expect_ok(&env.debug_context());
    }
    let shown = world.throughline_json(&["show", &session, "--json"]);
    let codes: Vec<String> = shown["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["seq"].as_u64() > Some(0))
        .map(|t| t["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes.len(), 4);

    // The model answers the summary request (no tools: a side request) with a line per turn.
    let lines = [
        "Port set to 8443.",
        "Rollback target: release tag v3.14.2.",
        "fetch_rows renamed to load_rows.",
    ];
    let answer: String = codes
        .iter()
        .zip(lines)
        .map(|(code, line)| format!("{code}: {line}\n"))
        .collect();
    let mut script = world.server.script();
    script.side_text = answer;
    world.server.set_script(script);
    let home = env.env_var("THROUGHLINE_HOME").unwrap().to_string();
    fs::write(
        format!("{home}/config.json"),
        r#"{"summary_backend": "claude"}"#,
    )
    .unwrap();

    // Turn 5 pushes turn 3 out of the two-turn window: a batch of three is due at its Stop.
    let requests_before = world.server.requests().len();
    env.resume_print(&session, "Step 5: run the tests.")
        .expect_ok(&env.debug_context());
    let deadline = Instant::now() + Duration::from_secs(90);
    let spend = loop {
        let stats = world.throughline_json(&["stats", "--all", "--json"]);
        let spend = stats["summaries"]["spend"].clone();
        if spend["calls"].as_u64() >= Some(1) {
            break spend;
        }
        assert!(
            Instant::now() < deadline,
            "no summary request was made\n{}\nlog: {}",
            env.debug_context(),
            fs::read_to_string(format!("{home}/throughline.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(spend["failed_calls"], 0, "{spend}");
    assert_eq!(spend["lines"], 3, "{spend}");
    assert!(spend["input_tokens"].as_u64().unwrap() > 0, "{spend}");
    assert_eq!(spend["last_call"]["backend"], "claude");

    // What `claude -p` sent: our instructions, the turns, a small model, no tools.
    let request = world.server.requests()[requests_before..]
        .iter()
        .find(|r| r.contains("exactly as written"))
        .cloned()
        .expect("the summary request reached the model server");
    assert!(request.contains(&format!("<turn id=\\\"{}\\\">", codes[0])));
    assert!(
        request.model().unwrap_or_default().contains("haiku"),
        "{:?}",
        request.model()
    );
    assert!(request.body["tools"]
        .as_array()
        .is_none_or(|tools| tools.is_empty()));

    // Its hooks fired in its own folder, and Throughline stored none of it.
    let own: Vec<Value> = env
        .hook_payloads()
        .into_iter()
        .filter(|p| {
            p["cwd"]
                .as_str()
                .is_some_and(|cwd| cwd.ends_with("/summarize"))
        })
        .collect();
    assert!(!own.is_empty(), "claude -p fired no hook");
    let sessions = world.throughline_json(&["sessions", "--all", "--json"]);
    let text = sessions.to_string();
    for payload in &own {
        let id = payload["session_id"].as_str().unwrap();
        assert!(!text.contains(id), "the summarizer's session was captured");
    }
    assert!(text.contains(&session));
}
