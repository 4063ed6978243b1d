//! End to end against the real Claude Code CLI: one session is captured by the hook, and in a
//! later session the model finds it again through `throughline mcp`, configured with
//! `claude mcp add`, by calling the `search` and `detail` tools.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`).
#![cfg(feature = "mcp")]

mod support;

use std::process::{Command, Stdio};

use serde_json::{json, Value};
use support::{ClaudeEnv, ModelServer, Script, Step};

const THROUGHLINE: &str = env!("CARGO_BIN_EXE_throughline");

/// A fact only the first session's tool output holds, and the last line of that output, which
/// a search snippet does not reach but `detail` must return.
const FACT: &str = "staging database password rotates on QUASAR-4417";
const OUTPUT_END: &str = "end of inventory: 64 lines";

fn throughline(env: &ClaudeEnv, home: &str, args: &[&str]) -> String {
    let out = Command::new(THROUGHLINE)
        .args(args)
        .env("THROUGHLINE_HOME", home)
        .current_dir(&env.project)
        .stdin(Stdio::null())
        .output()
        .expect("run throughline");
    assert!(
        out.status.success(),
        "throughline {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_model_finds_an_earlier_session_through_the_mcp_server() {
    let memory = tempfile::tempdir().unwrap();
    let home = memory.path().join("throughline");
    let home = home.to_str().unwrap();
    let server = ModelServer::start(Script::new());
    let env = ClaudeEnv::builder(&server)
        .hook_command(format!("{THROUGHLINE} hook claude"))
        .env("THROUGHLINE_HOME", home)
        .file(
            "inventory.txt",
            format!(
                "{FACT}\n{}{OUTPUT_END}\n",
                (1..63)
                    .map(|i| format!("item {i}: spare part\n"))
                    .collect::<String>()
            ),
        )
        .build();

    // The way a person sets it up: `claude mcp add`, in the test's own HOME.
    let added = env
        .command(env.bin())
        .args(["mcp", "add", "--scope", "user", "throughline"])
        .args(["-e", &format!("THROUGHLINE_HOME={home}")])
        .args(["--", THROUGHLINE, "mcp"])
        .stdin(Stdio::null())
        .output()
        .expect("claude mcp add");
    assert!(
        added.status.success(),
        "claude mcp add: {}",
        String::from_utf8_lossy(&added.stderr)
    );

    // Session 1: the fact appears only inside a tool's output.
    let first = "Read the inventory file.";
    server.set_script(Script::new().on_prompt(
        first,
        vec![
            Step::new().tool(
                "Bash",
                json!({ "command": "cat inventory.txt", "description": "Show the inventory" }),
            ),
            Step::new().text("The inventory lists 62 spare parts."),
        ],
    ));
    env.run_print(first).expect_ok(&env.debug_context());

    // The hook has stored it: the CLI finds it, and says which turn and tool call hold it.
    let hits: Value = serde_json::from_str(&throughline(
        &env,
        home,
        &["search", "QUASAR-4417", "--json"],
    ))
    .unwrap();
    let hit = &hits[0];
    assert_eq!(hit["role"], "tool_result", "{hits:#}");
    assert_eq!(hit["tool_index"], 1, "{hits:#}");
    let turn = hit["turn"].as_str().unwrap().to_string();

    // Session 2: the model asks its memory.
    let second = "What rotates the staging database password?";
    server.set_script(Script::new().on_prompt(
        second,
        vec![
            Step::new().tool(
                "mcp__throughline__search",
                json!({ "query": "QUASAR-4417" }),
            ),
            Step::new().tool(
                "mcp__throughline__detail",
                json!({ "turn": turn, "tool": 1 }),
            ),
            Step::new().tool(
                "mcp__throughline__detail",
                json!({ "turn": turn, "tool": 1, "grep": "quasar" }),
            ),
            Step::new().text("It rotates on QUASAR-4417."),
        ],
    ));
    env.run_print(second).expect_ok(&env.debug_context());

    let last = server
        .main_requests()
        .last()
        .cloned()
        .expect("a main request");
    let results = last.tool_results();
    assert_eq!(results.len(), 3, "{results:#?}\n{}", env.debug_context());
    let (_, found, failed) = &results[0];
    assert!(!failed, "search failed: {found}");
    assert!(
        found.contains(FACT),
        "the line comes back as stored: {found}"
    );
    assert!(
        found.contains(&format!("\"turn\":\"{turn}\"")),
        "points at the turn: {found}"
    );
    assert!(
        !found.contains(OUTPUT_END),
        "a hit is a snippet, not the whole output"
    );
    let (_, detail, failed) = &results[1];
    assert!(!failed, "detail failed: {detail}");
    assert!(
        detail.contains(FACT) && detail.contains(OUTPUT_END),
        "{detail}"
    );
    assert!(
        detail.contains("cat inventory.txt"),
        "the call's input too: {detail}"
    );
    // Only the lines holding a word, numbered, without the rest of the output.
    let (_, lines, failed) = &results[2];
    assert!(!failed, "detail with grep failed: {lines}");
    assert!(lines.contains(&format!("\n1:{FACT}\n")), "{lines}");
    assert!(!lines.contains(OUTPUT_END), "{lines}");
}
