//! Acceptance test of capture: the real Claude Code CLI, driven by a scripted model, with every
//! hook pointing at the real `throughline hook claude`. Afterwards the store must hold every
//! turn, every prompt and assistant text verbatim, every tool output byte for byte as the
//! transcript has it, and replaying every hook payload must add nothing.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and `tmux`.

mod support;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::Stdio;
use std::time::Instant;
use support::claude::sh_quote;
use support::model_server::{without_paste_tags, Block};
use support::throughline::{bin, run_json as throughline_json};
use support::transcript;
use support::{ClaudeEnv, ModelServer, Script, Step, Tmux};

/// Everything the store says about one session: its turns and every turn's detail.
fn snapshot(env: &ClaudeEnv, session_id: &str) -> (Value, Vec<Value>) {
    let shown = throughline_json(env, &["show", session_id, "--json"]);
    let details = shown["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| {
            throughline_json(
                env,
                &["detail", t["code"].as_str().expect("turn code"), "--json"],
            )
        })
        .collect();
    (shown["turns"].clone(), details)
}

/// The counts that duplicates would inflate.
fn counts(env: &ClaudeEnv) -> Value {
    let status = throughline_json(env, &["status", "--json"]);
    let s = &status["store"];
    json!({
        "sessions": s["sessions"], "turns": s["turns"], "messages": s["messages"],
        "details": s["details"], "api_calls": s["api_calls"],
    })
}

/// The whole output a transcript's `<persisted-output>` preview stands for: the file the client
/// saved it to.
fn saved_output(preview: &str) -> Option<String> {
    let rest = preview.strip_prefix("<persisted-output>")?;
    let path = rest
        .lines()
        .find_map(|l| l.split_once("saved to: "))?
        .1
        .trim();
    let whole = std::fs::read_to_string(path).expect("the saved output");
    assert!(
        whole.ends_with("9000\n") || whole.ends_with("9000"),
        "{whole:.200}"
    );
    Some(whole)
}

fn path_in(env: &ClaudeEnv, rel: &str) -> String {
    env.project.join(rel).to_string_lossy().into_owned()
}

#[test]
fn a_real_session_is_captured_losslessly_and_replay_adds_nothing() {
    let started = Instant::now();
    let server = ModelServer::start(Script::new());
    let store_home = tempfile::tempdir().expect("tempdir");
    let env = ClaudeEnv::builder(&server)
        .hook_command(format!("{} hook claude", sh_quote(&bin())))
        .env("THROUGHLINE_HOME", store_home.path().to_string_lossy())
        .build();

    let prompts: Vec<String> = vec![
        "Read greet.sh and tell me what it does.".into(),
        "Run it twice:\n- once with the name Zoë\n- once without a name\nthen explain the difference.".into(),
        "Make the greeting warmer, write a CHANGELOG.md, and try it.".into(),
        "Show data.txt and look for notes.txt too. 決定: 出力は常に UTF-8。".into(),
        "One last check: list the files.".into(),
    ];
    let script = Script::new()
        .on_prompt(
            prompts[0].clone(),
            vec![
                Step::new()
                    .thinking("Start with the script itself.")
                    .tool("Read", json!({ "file_path": path_in(&env, "greet.sh") })),
                Step::new().text("greet.sh prints `Hello, NAME!` and exits 3 with a usage line when no name is given."),
            ],
        )
        .on_prompt(
            prompts[1].clone(),
            vec![
                Step::new()
                    .text("Running it with a name first.")
                    .tool("Bash", json!({ "command": "sh greet.sh Zoë", "description": "Greet Zoë" })),
                Step::new().tool("Bash", json!({ "command": "sh greet.sh", "description": "Run without a name" })),
                Step::new()
                    .thinking("The second run failed with exit 3, as the script intends.")
                    .text("With a name it prints “Hello, Zoë!”.")
                    .text("Without one it prints the usage line to stderr and exits 3."),
            ],
        )
        .on_prompt(
            prompts[2].clone(),
            vec![
                Step::new().tool(
                    "Edit",
                    json!({
                        "file_path": path_in(&env, "greet.sh"),
                        "old_string": "echo \"Hello, $1!\"",
                        "new_string": "echo \"Hello, $1! Lovely to see you.\"",
                    }),
                ),
                Step::new().tool(
                    "Write",
                    json!({
                        "file_path": path_in(&env, "CHANGELOG.md"),
                        "content": "# Changelog\n\n- Warmer greeting.\n\ttabbed line, trailing space \n",
                    }),
                ),
                Step::new().tool(
                    "Bash",
                    json!({ "command": "sh greet.sh Ada && cat -A CHANGELOG.md", "description": "Try it" }),
                ),
                Step::new().text("Done: the greeting is warmer and CHANGELOG.md records it."),
            ],
        )
        .on_prompt(
            prompts[3].clone(),
            vec![
                Step::new()
                    .thinking("Two reads; the second file may not exist.")
                    .tool("Read", json!({ "file_path": path_in(&env, "data.txt") })),
                Step::new().tool("Read", json!({ "file_path": path_in(&env, "notes.txt") })),
                Step::new().text("data.txt has four lines, one with “café ✓”; notes.txt does not exist. 決定を記録しました。"),
            ],
        )
        .on_prompt(
            prompts[4].clone(),
            vec![
                // Past the client's limit (about 30 KB): the transcript gets a preview, the
                // whole output goes to a file beside it.
                Step::new().tool("Bash", json!({ "command": "seq 1 9000", "description": "Count" })),
                Step::new().tool("Bash", json!({ "command": "ls -1", "description": "List files" })),
                Step::new().text("Files: CHANGELOG.md, README.md, data.txt, greet.sh."),
            ],
        );
    server.set_script(script.clone());

    // Four prompts in the interactive client, then /exit; a fifth through a headless resume.
    let first_session;
    {
        let mut ui = Tmux::start(&env);
        for p in &prompts[..4] {
            ui.prompt(p);
        }
        let end = ui.exit();
        first_session = end["session_id"].as_str().expect("session_id").to_string();
    }
    let interactive_done = started.elapsed();
    env.resume_print(&first_session, &prompts[4])
        .expect_ok(&env.debug_context());
    let resume_done = started.elapsed();
    let session_id = first_session;
    let ctx = env.debug_context();

    // What the client did, as its own records tell it.
    let tpath = env
        .transcript_path(&session_id)
        .expect("transcript_path in the hook payloads");
    let entries = transcript::read_jsonl(&tpath);
    let transcript_results: BTreeMap<String, (String, bool)> = transcript::tool_results(&entries)
        .into_iter()
        .map(|(id, text, err)| (id, (text, err)))
        .collect();
    let transcript_calls: BTreeMap<String, Value> = transcript::assistant_blocks(&entries)
        .into_iter()
        .filter(|(_, b)| b["type"] == "tool_use")
        .map(|(_, b)| {
            (
                b["id"].as_str().unwrap_or("").to_string(),
                b["input"].clone(),
            )
        })
        .collect();
    let submitted_raw: Vec<String> = env
        .payloads_of("UserPromptSubmit")
        .iter()
        .map(|p| p["prompt"].as_str().unwrap_or_default().to_string())
        .collect();
    let submitted: Vec<String> = submitted_raw
        .iter()
        .map(|p| without_paste_tags(p).trim().to_string())
        .collect();
    assert_eq!(
        submitted, prompts,
        "the client submitted the prompts as typed\n{ctx}"
    );

    // Every turn is stored, in order, with the prompt and each assistant text block verbatim.
    let sessions = throughline_json(&env, &["sessions", "--all", "--json"]);
    let sessions = sessions.as_array().expect("sessions array");
    assert_eq!(sessions.len(), 1, "one session: {sessions:#?}");
    assert_eq!(sessions[0]["session_id"], session_id.as_str());
    assert_eq!(sessions[0]["turns"], prompts.len(), "{:#}", sessions[0]);

    let (turns, details) = snapshot(&env, &session_id);
    let turns: Vec<(Value, Value)> = turns
        .as_array()
        .expect("turns")
        .iter()
        .cloned()
        .zip(details.iter().cloned())
        .filter(|(t, _)| t["seq"].as_u64().unwrap_or(0) > 0)
        .collect();
    assert_eq!(turns.len(), prompts.len(), "turns: {turns:#?}");

    let mut seen_tool_ids = Vec::new();
    let mut saved = 0;
    for (i, (turn, detail)) in turns.iter().enumerate() {
        let steps = &script.turns[i].steps;
        assert_eq!(turn["seq"], i as u64 + 1);

        let messages = turn["messages"].as_array().expect("messages");
        // Since 2.1.332 a multi-line paste comes wrapped in tags; it is stored marked.
        let prompt = if submitted_raw[i].contains("<pasted_content id=") {
            format!("[Pasted text]\n{}\n[End of pasted text]", prompts[i])
        } else {
            prompts[i].clone()
        };
        let mut expected = vec![("user".to_string(), prompt)];
        for s in steps {
            expected.extend(
                s.texts()
                    .into_iter()
                    .map(|t| ("assistant".to_string(), t.to_string())),
            );
        }
        let stored: Vec<(String, String)> = messages
            .iter()
            .map(|m| {
                (
                    m["role"].as_str().unwrap_or("").to_string(),
                    m["text"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        assert_eq!(stored, expected, "turn {} L2 is verbatim", i + 1);

        // L3: tool calls with the scripted input, thinking verbatim, results byte for byte.
        let entries = detail["details"].as_array().expect("details");
        let of_kind = |k: &'static str| entries.iter().filter(move |d| d["kind"] == k);
        // Stored calls are what the transcript holds (the client may normalise the input, e.g.
        // add `replace_all` to an Edit); each must carry every scripted field unchanged.
        let calls: Vec<(String, String, Value)> = of_kind("tool_call")
            .map(|d| {
                let body = d["body"].as_str().unwrap_or("");
                let input = serde_json::from_str(body)
                    .unwrap_or_else(|e| panic!("tool call body is not JSON ({e}): {body}"));
                let id = d["tool_use_id"].as_str().unwrap_or("").to_string();
                (id, d["name"].as_str().unwrap_or("").to_string(), input)
            })
            .collect();
        let scripted_calls: Vec<(String, Value)> = steps
            .iter()
            .flat_map(|s| s.blocks.iter())
            .filter_map(|b| match b {
                Block::ToolUse { name, input } => Some((name.clone(), input.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            calls.len(),
            scripted_calls.len(),
            "turn {} tool calls: {calls:#?}",
            i + 1
        );
        for ((id, name, input), (s_name, s_input)) in calls.iter().zip(&scripted_calls) {
            assert_eq!(name, s_name, "turn {} tool {id}", i + 1);
            assert_eq!(
                Some(input),
                transcript_calls.get(id),
                "tool call {id} as the transcript has it"
            );
            for (k, v) in s_input.as_object().expect("scripted input is an object") {
                assert_eq!(input.get(k), Some(v), "tool call {id} field {k}");
            }
        }

        let thinking: Vec<&str> = of_kind("thinking")
            .map(|d| d["body"].as_str().unwrap_or(""))
            .collect();
        let scripted_thinking: Vec<&str> = steps
            .iter()
            .flat_map(|s| s.blocks.iter())
            .filter_map(|b| match b {
                Block::Thinking(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(thinking, scripted_thinking, "turn {} thinking", i + 1);

        let results: Vec<&Value> = of_kind("tool_result").collect();
        assert_eq!(
            results.len(),
            scripted_calls.len(),
            "turn {} tool results: {results:#?}",
            i + 1
        );
        for r in results {
            let id = r["tool_use_id"].as_str().expect("tool_use_id").to_string();
            let (text, is_error) = transcript_results
                .get(&id)
                .unwrap_or_else(|| panic!("stored result {id} is not in the transcript"));
            // An output the client saved apart is stored whole, as the file holds it.
            let whole = saved_output(text);
            saved += usize::from(whole.is_some());
            assert_eq!(
                r["body"].as_str(),
                Some(whole.as_deref().unwrap_or(text)),
                "tool output {id} byte for byte"
            );
            assert_eq!(r["is_error"].as_bool(), Some(*is_error), "is_error of {id}");
            seen_tool_ids.push(id);
        }
    }
    assert_eq!(
        saved, 1,
        "the long output was saved apart and stored whole\n{ctx}"
    );
    // Every result the transcript holds is stored, and it is what the model was sent.
    let transcript_ids: Vec<String> = transcript_results.keys().cloned().collect();
    let mut stored_ids = seen_tool_ids.clone();
    stored_ids.sort();
    assert_eq!(stored_ids, transcript_ids);
    let sent: BTreeMap<String, String> = server
        .main_requests()
        .last()
        .expect("main requests")
        .tool_results()
        .into_iter()
        .map(|(id, text, _)| (id, text))
        .collect();
    for (id, (text, _)) in &transcript_results {
        assert_eq!(
            sent.get(id),
            Some(text),
            "the model was sent tool output {id} as stored"
        );
    }
    // The failing tools are recorded as failures.
    let failed: Vec<bool> = transcript_results.values().map(|(_, e)| *e).collect();
    assert_eq!(
        failed.iter().filter(|e| **e).count(),
        2,
        "one failing Bash, one failing Read"
    );
    // One API call per answer the client received on the main chain.
    let before = counts(&env);
    assert_eq!(
        before["api_calls"],
        server.main_requests().len(),
        "{before}"
    );

    // Nothing the hooks met is a problem (a transcript the client has not created yet is not).
    let status = throughline_json(&env, &["status", "--json"]);
    assert_eq!(
        status["recent_problems"],
        serde_json::json!([]),
        "the hooks logged problems"
    );

    // Replay every payload: nothing may be added or changed.
    let checks_done = started.elapsed();
    let snap_before = snapshot(&env, &session_id);
    let payloads = env.hook_lines();
    assert!(payloads.len() >= 20, "payloads: {}", payloads.len());
    for line in &payloads {
        let mut child = env
            .command(bin())
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn throughline hook");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(line.as_bytes())
            .expect("write payload");
        let out = child.wait_with_output().expect("wait throughline hook");
        assert!(
            out.status.success(),
            "hook replay failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.is_empty(),
            "the hook printed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert_eq!(
        counts(&env),
        before,
        "replaying {} payloads changed the counts",
        payloads.len()
    );
    assert_eq!(
        snapshot(&env, &session_id),
        snap_before,
        "replay changed the stored session"
    );
    eprintln!(
        "capture e2e: interactive {interactive_done:?}, resume {resume_done:?}, checks {checks_done:?}, \
         replay of {} payloads done at {:?}",
        payloads.len(),
        started.elapsed()
    );
}
