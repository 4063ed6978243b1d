//! Acceptance test of subagent capture: the real Claude Code CLI, driven by a scripted model,
//! starts two subagents (the first as the client likes: in the background on 2.1.332, the
//! second waited for), every hook pointing at the real `throughline hook claude`. The store
//! must hold each subagent's conversation and real tool output as detail of the turn that
//! started it, as an import of the same files does, and replaying every hook adds nothing.
//!
//! Needs the client (`THROUGHLINE_CLAUDE_BIN`, or `npm ci --prefix hook-cli/tests/claude-code`).

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{json, Value};
use support::throughline::{bin, order_free, World};
use support::{Script, Step};

const FIRST: &str = "Have a helper check greet.sh for me.";
const FIRST_TASK: &str = "Run greet.sh with the name Helper and report what it prints.";
const SECOND: &str = "Now have a helper count the lines of data.txt, and wait for it.";
const SECOND_TASK: &str = "Count the lines of data.txt and report the number.";
const THIRD: &str = "Thanks, that is all.";

fn agent_call(description: &str, prompt: &str, wait: bool) -> Value {
    let mut input = json!({
        "description": description,
        "prompt": prompt,
        "subagent_type": "general-purpose",
    });
    if wait {
        input["run_in_background"] = false.into();
    }
    input
}

fn script() -> Script {
    // A subagent's requests reach the same server; its prompt is the call's `prompt`.
    Script::new()
        .on_prompt_containing(
            FIRST,
            vec![
                Step::new()
                    .text("I'll ask a helper.")
                    .tool("Agent", agent_call("Check greet.sh", FIRST_TASK, false)),
                Step::new().text("The helper is on it."),
            ],
        )
        .on_prompt_containing(
            FIRST_TASK,
            vec![
                Step::new().text("Running it.").tool(
                    "Bash",
                    json!({"command": "sh greet.sh Helper", "description": "Run greet.sh"}),
                ),
                Step::new().text("greet.sh prints: Hello, Helper! (exit 0)."),
            ],
        )
        .on_prompt_containing(
            SECOND,
            vec![
                Step::new().tool("Agent", agent_call("Count lines", SECOND_TASK, true)),
                Step::new().text("data.txt has four lines."),
            ],
        )
        .on_prompt_containing(
            SECOND_TASK,
            vec![
                Step::new().tool(
                    "Bash",
                    json!({"command": "wc -l < data.txt", "description": "Count lines"}),
                ),
                Step::new().text("data.txt has 4 lines."),
            ],
        )
        .on_prompt(THIRD, vec![Step::new().text("Glad to help.")])
        .fallback_text("Noted: the helper finished.")
}

/// `throughline ARGS --json` on the store at `home` (the hooks' unless told otherwise).
fn throughline_json(world: &World, home: Option<&Path>, args: &[&str]) -> Value {
    let mut command = world.env.command(bin());
    if let Some(home) = home {
        command.env("THROUGHLINE_HOME", home);
    }
    let out = command.args(args).stdin(Stdio::null()).output().unwrap();
    assert!(
        out.status.success(),
        "throughline {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every turn of the session in full, each turn's entries sorted and without positions
/// (live capture stores a subagent's lines as they come, `import` after the session's own).
fn memory(world: &World, home: Option<&Path>, session: &str) -> Vec<Value> {
    let shown = throughline_json(world, home, &["show", session, "--json"]);
    shown["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let code = t["code"].as_str().unwrap();
            let mut detail = throughline_json(world, home, &["detail", code, "--json"]);
            order_free(&mut detail);
            detail
        })
        .collect()
}

fn entries<'a>(turn: &'a Value, kind: &str) -> Vec<(&'a str, &'a str)> {
    let mut found: Vec<(&str, &str)> = turn["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == kind)
        .map(|d| {
            (
                d["name"].as_str().unwrap_or(""),
                d["body"].as_str().unwrap(),
            )
        })
        .collect();
    found.sort();
    found
}

fn counts(world: &World) -> Value {
    let s = &throughline_json(world, None, &["status", "--json"])["store"];
    json!([s["turns"], s["messages"], s["details"], s["api_calls"]])
}

#[test]
fn each_subagent_is_stored_in_the_turn_that_started_it() {
    let world = World::new(script());
    let env = &world.env;
    env.run_print(FIRST).expect_ok(&env.debug_context());
    let session = env.session_ids()[0].clone();
    env.resume_print(&session, SECOND)
        .expect_ok(&env.debug_context());
    env.resume_print(&session, THIRD)
        .expect_ok(&env.debug_context());
    let ctx = env.debug_context();

    // What the client does, checked so that docs/hosts/claude-code.md stays true: the tool is
    // `Agent`; hooks name each subagent, its SubagentStop gives its transcript beside the
    // session's, and the meta file there names the call that started it.
    let first_request = world.server.main_requests()[0].clone();
    let tools: Vec<&str> = first_request.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(tools.contains(&"Agent"), "{tools:?}");
    let main = env.transcript_path(&session).expect("transcript_path");
    let calls: Vec<String> = env
        .payloads_of("PreToolUse")
        .iter()
        .filter(|p| p["tool_name"] == "Agent")
        .map(|p| p["tool_use_id"].as_str().unwrap().to_string())
        .collect();
    let stops = env.payloads_of("SubagentStop");
    assert_eq!((calls.len(), stops.len()), (2, 2), "{ctx}");
    for (stop, call) in stops.iter().zip(&calls) {
        let agent = stop["agent_id"].as_str().expect("agent_id");
        let expected: PathBuf = main
            .with_file_name(main.file_stem().unwrap())
            .join(format!("subagents/agent-{agent}.jsonl"));
        assert_eq!(
            stop["agent_transcript_path"].as_str(),
            expected.to_str(),
            "{stop}"
        );
        assert_eq!(stop["agent_type"], "general-purpose");
        let meta: Value = serde_json::from_slice(
            &std::fs::read(expected.with_file_name(format!("agent-{agent}.meta.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(meta["toolUseId"], call.as_str(), "{meta}");
    }

    // Live capture alone: each subagent in its turn, with its real tool output.
    let live = memory(&world, None, &session);
    let turn = |seq: u64| live.iter().find(|t| t["seq"] == seq).unwrap();
    assert_eq!(
        entries(turn(1), "subagent"),
        [
            ("answer", "Running it."),
            ("answer", "greet.sh prints: Hello, Helper! (exit 0)."),
            ("prompt", FIRST_TASK),
        ],
        "{ctx}"
    );
    assert!(
        entries(turn(1), "tool_result").contains(&("", "Hello, Helper!")),
        "{:#}",
        turn(1)
    );
    assert_eq!(
        entries(turn(2), "subagent"),
        [("answer", "data.txt has 4 lines."), ("prompt", SECOND_TASK)],
        "{ctx}"
    );
    assert!(
        entries(turn(2), "tool_result").contains(&("", "4")),
        "{:#}",
        turn(2)
    );
    assert!(entries(turn(3), "subagent").is_empty(), "{:#}", turn(3));
    let prompts: Vec<&str> = live
        .iter()
        .flat_map(|t| t["messages"].as_array().unwrap())
        .filter(|m| m["role"] == "user")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(prompts, [FIRST, SECOND, THIRD]);
    let status = throughline_json(&world, None, &["status", "--json"]);
    assert_eq!(status["recent_problems"], json!([]), "{status}");
    let hits = throughline_json(
        &world,
        None,
        &["search", "\"Running it.\"", "--all", "--json"],
    );
    assert_eq!(hits[0]["role"], "subagent", "{hits:#}");
    assert_eq!(hits[0]["turn"], turn(1)["code"], "{hits:#}");

    // The same memory as an import of the files the client left.
    let fresh = tempfile::tempdir().unwrap();
    let projects = env.home.join(".claude/projects");
    throughline_json(
        &world,
        Some(fresh.path()),
        &["import", "--from", projects.to_str().unwrap(), "--json"],
    );
    assert_eq!(memory(&world, Some(fresh.path()), &session), live);

    // Replaying every payload adds nothing.
    let before = counts(&world);
    for line in env.hook_lines() {
        let mut child = env
            .command(bin())
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(line.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    }
    assert_eq!(counts(&world), before);
    assert_eq!(memory(&world, None, &session), live);
}
