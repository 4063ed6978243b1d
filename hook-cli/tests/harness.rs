//! Self-test of the test harness: the real Claude Code CLI against the scripted model server.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and, for the
//! interactive test, `tmux`.

mod support;

use serde_json::{json, Value};
use std::time::Instant;
use support::transcript;
use support::{event_name, ClaudeEnv, ModelServer, Script, Step, Tmux};

fn path_in(env: &ClaudeEnv, rel: &str) -> String {
    env.project.join(rel).to_string_lossy().into_owned()
}

#[test]
fn headless_run_fires_every_hook_and_runs_tools_for_real() {
    let started = Instant::now();
    let server = ModelServer::start(Script::new());
    let env = ClaudeEnv::new(&server);
    let prompt = "Look at the greeter, try it, and tidy it up.";
    let final_text = "Tidied: greeting extended, notes written. 決定: keep it POSIX sh.";
    server.set_script(Script::new().on_prompt(
        prompt,
        vec![
            Step::new()
                .thinking("Start by reading the script.")
                .tool("Read", json!({ "file_path": path_in(&env, "greet.sh") })),
            Step::new()
                .text("Running it with a name.")
                .tool("Bash", json!({ "command": "sh greet.sh World", "description": "Run the greeter" })),
            Step::new().tool("Bash", json!({ "command": "sh greet.sh", "description": "Run without a name" })),
            Step::new().tool(
                "Edit",
                json!({
                    "file_path": path_in(&env, "greet.sh"),
                    "old_string": "echo \"Hello, $1!\"",
                    "new_string": "echo \"Hello, $1! Welcome.\"",
                }),
            ),
            Step::new().tool(
                "Write",
                json!({ "file_path": path_in(&env, "NOTES.md"), "content": "# Notes\n\n- greet.sh needs a name.\n" }),
            ),
            Step::new().thinking("All done.").text(final_text),
        ],
    ));

    let out = env.run_print(prompt);
    out.expect_ok(&env.debug_context());
    assert!(out.stdout.contains(final_text), "stdout: {}", out.stdout);

    // Hooks: every lifecycle event, one failure among the tool calls.
    let events = env.hook_events();
    let count = |e: &str| events.iter().filter(|x| *x == e).count();
    for e in ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"] {
        assert_eq!(count(e), 1, "{e} in {events:?}");
    }
    assert_eq!(count("PreToolUse"), 5, "{events:?}");
    assert_eq!(count("PostToolUse"), 4, "{events:?}");
    assert_eq!(count("PostToolUseFailure"), 1, "{events:?}");
    let payloads = env.hook_payloads();
    let session_id = payloads[0]["session_id"]
        .as_str()
        .expect("session_id")
        .to_string();
    assert!(
        payloads
            .iter()
            .all(|p| p["session_id"] == session_id.as_str()),
        "one session"
    );
    let ups = &env.payloads_of("UserPromptSubmit")[0];
    assert_eq!(ups["prompt"], prompt);
    let failure = &env.payloads_of("PostToolUseFailure")[0];
    assert_eq!(failure["tool_name"], "Bash");
    assert!(
        failure["error"]
            .as_str()
            .unwrap_or("")
            .contains("usage: greet.sh NAME"),
        "{failure}"
    );
    let bash_ok = env
        .payloads_of("PostToolUse")
        .into_iter()
        .find(|p| p["tool_name"] == "Bash")
        .expect("PostToolUse(Bash)");
    assert_eq!(bash_ok["tool_response"]["stdout"], "Hello, World!");
    assert_eq!(
        env.payloads_of("Stop")[0]["last_assistant_message"],
        final_text
    );

    // The tools really ran.
    let greet = std::fs::read_to_string(env.project.join("greet.sh")).unwrap();
    assert!(greet.contains("Hello, $1! Welcome."), "{greet}");
    assert!(env.project.join("NOTES.md").exists());

    // The transcript holds the prompt, thinking, texts and every tool output.
    let tpath = env.transcript_path(&session_id).expect("transcript_path");
    let entries = transcript::read_jsonl(&tpath);
    assert_eq!(transcript::user_prompts(&entries), vec![prompt.to_string()]);
    let texts = transcript::assistant_texts(&entries);
    assert_eq!(
        texts,
        vec![
            "Running it with a name.".to_string(),
            final_text.to_string()
        ]
    );
    let blocks = transcript::assistant_blocks(&entries);
    assert!(blocks
        .iter()
        .any(|(_, b)| b["type"] == "thinking" && b["thinking"] == "Start by reading the script."));
    let results = transcript::tool_results(&entries);
    assert_eq!(results.len(), 5, "{results:#?}");
    assert!(
        results[0].1.contains("Prints a greeting"),
        "{:?}",
        results[0]
    );
    assert_eq!(results[1].1, "Hello, World!");
    assert!(
        results[2].2 && results[2].1.contains("usage: greet.sh NAME"),
        "{:?}",
        results[2]
    );

    // The server got the same tool results back, with the ids it handed out.
    let last = server
        .main_requests()
        .last()
        .cloned()
        .expect("a main request");
    let sent = last.tool_results();
    assert_eq!(sent.len(), 5, "{sent:#?}");
    let ids: Vec<String> = server
        .main_requests()
        .iter()
        .filter_map(|r| r.answer.clone())
        .flat_map(|a| a.blocks.into_iter().filter_map(|(_, id)| id))
        .collect();
    assert_eq!(sent.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), ids);
    for (i, (id, text, is_error)) in sent.iter().enumerate() {
        assert_eq!(
            (id, text, is_error),
            (&results[i].0, &results[i].1, &results[i].2)
        );
    }
    assert_eq!(server.end_turns(), 1);

    // Usage in the transcript comes from the server and reflects the request size.
    let usage = entries
        .iter()
        .filter(|e| e["type"] == "assistant")
        .filter_map(|e| {
            e.pointer("/message/usage/input_tokens")
                .and_then(Value::as_u64)
        })
        .max()
        .unwrap_or(0);
    assert!(usage > 1000, "input_tokens {usage}");
    eprintln!("headless harness run took {:?}", started.elapsed());
}

#[test]
fn interactive_clear_links_sessions_and_drops_history() {
    let started = Instant::now();
    let p1 = "First: greet Ada.";
    let p2 = "Second: count the data lines.";
    let p3 = "Third: where were we?";
    let server = ModelServer::start(
        Script::new()
            .on_prompt(
                p1,
                vec![
                    Step::new().tool(
                        "Bash",
                        json!({ "command": "sh greet.sh Ada", "description": "Greet Ada" }),
                    ),
                    Step::new().text("Greeted Ada."),
                ],
            )
            .on_prompt(
                p2,
                vec![
                    Step::new().tool(
                        "Bash",
                        json!({ "command": "wc -l < data.txt", "description": "Count lines" }),
                    ),
                    Step::new().text("data.txt has 4 lines."),
                ],
            )
            .on_prompt(
                p3,
                vec![Step::new().text("I have no earlier context in this session.")],
            ),
    );
    let env = ClaudeEnv::new(&server);
    let mut ui = Tmux::start(&env);

    ui.prompt(p1);
    ui.prompt(p2);
    let start_clear = ui.clear();
    ui.prompt(p3);
    let end = ui.exit();

    let ctx = || format!("{}\n{}", ui.screen(), env.debug_context());
    let ends: Vec<Value> = env.payloads_of("SessionEnd");
    let end_clear = ends
        .iter()
        .find(|p| p["reason"] == "clear")
        .unwrap_or_else(|| panic!("no SessionEnd(clear)\n{}", ctx()));
    assert_eq!(start_clear["source"], "clear");
    assert!(end_clear["prompt_id"].is_string(), "{end_clear}");
    if support::claude::client_at_least("2.1.332") {
        // Only the client process is shared (the link Throughline follows: decision 0023).
        assert_eq!(start_clear.get("prompt_id"), None, "{start_clear}");
    } else {
        assert_eq!(
            end_clear["prompt_id"], start_clear["prompt_id"],
            "the /clear pair shares its prompt_id"
        );
    }
    assert_ne!(end_clear["session_id"], start_clear["session_id"]);
    assert_eq!(end["session_id"], start_clear["session_id"]);
    assert_eq!(end["reason"], "prompt_input_exit");

    // Before /clear the model saw the earlier prompt; after it, none of the old conversation.
    let mains = server.main_requests();
    let first_of = |p: &str| {
        mains
            .iter()
            .find(|r| r.prompt_texts().iter().any(|t| t == p))
            .cloned()
            .unwrap_or_else(|| panic!("no request for {p:?}\n{}", server.log()))
    };
    assert!(
        first_of(p2).messages_contain(p1),
        "the second prompt's request carries the first"
    );
    let after = first_of(p3);
    for old in [p1, p2, "Hello, Ada!", "Greeted Ada."] {
        assert!(
            !after.messages_contain(old),
            "request after /clear still holds {old:?}"
        );
    }
    let prompts: Vec<String> = env
        .payloads_of("UserPromptSubmit")
        .iter()
        .map(|p| p["prompt"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        prompts,
        vec![p1, p2, p3],
        "/clear fires no UserPromptSubmit"
    );
    let starts: Vec<String> = env
        .payloads_of("SessionStart")
        .iter()
        .map(|p| p["source"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(starts, vec!["startup", "clear"]);
    assert!(env.hook_events().iter().any(|e| e == "Stop"));
    assert!(env
        .hook_payloads()
        .iter()
        .all(|p| !event_name(p).is_empty()));
    eprintln!("interactive harness run took {:?}", started.elapsed());
}

#[test]
fn the_pinned_clients_are_the_range_doctor_calls_tested() {
    use throughline::model::Host;
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let tested = |host: Host| {
        let releases = throughline::hosts::agent(host)
            .spec()
            .tested_releases
            .unwrap();
        (releases.oldest.to_string(), releases.newest.to_string())
    };
    assert_eq!(
        (
            support::claude::pinned_version(&tests.join("claude-code"), "oldest"),
            support::claude::pinned_version(&tests.join("claude-code"), "current")
        ),
        tested(throughline::hosts::claude::HOST),
        "hook-cli/tests/claude-code/package.json and Claude Code's host table name the same releases"
    );
    // One release pinned for each of the others.
    for (host, folder, package) in [
        (throughline::hosts::codex::HOST, "codex", "@openai/codex"),
        (
            throughline::hosts::gemini::HOST,
            "gemini",
            "@google/gemini-cli",
        ),
    ] {
        let manifest: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(tests.join(folder).join("package.json")).unwrap(),
        )
        .unwrap();
        let pinned = manifest["dependencies"][package]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            (pinned.clone(), pinned),
            tested(host),
            "{folder}/package.json"
        );
    }
}
