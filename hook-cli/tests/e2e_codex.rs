//! The real Codex CLI (`codex exec`, then `codex exec resume`) against a scripted Responses API
//! server, every hook running the real `throughline hook codex`: what the store keeps is
//! exactly what was typed, said and run.

mod support;

use std::collections::HashMap;

use serde_json::Value;
use support::codex::CodexEnv;
use support::responses_server::{message_text, Reply, ResponsesServer};
use support::scenario;
use throughline::home::Home;
use throughline::model::DetailKind;

#[test]
fn a_resumed_session_with_shell_calls_is_captured_exactly() {
    let first = "Count the files here and note them. 決定: UTF-8 only.";
    let second = "Now show what the note holds";
    let first_answer = "There are two files; notes.txt has 2 lines.\n\n決定 kept: UTF-8 only.";
    let second_answer = "notes.txt holds `alpha` and `beta`.";
    let server = ResponsesServer::start(vec![
        (
            "Count the files",
            vec![
                Reply::Shell("printf 'alpha\\nbeta\\n' > notes.txt && ls -a".into()),
                Reply::Shell("wc -l notes.txt; echo done >&2".into()),
                Reply::Text(first_answer.into()),
            ],
        ),
        (
            "Now show",
            vec![
                Reply::Shell("cat notes.txt".into()),
                Reply::Text(second_answer.into()),
            ],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    env.exec(&[first]);
    env.exec(&["resume", "--last", second]);

    let sessions = throughline::hosts::agent(throughline::hosts::codex::HOST)
        .find_transcripts(Some(env.home.path().join(".codex/sessions")))
        .unwrap();
    assert_eq!(sessions.len(), 1, "resume appends to the same rollout");
    let store = throughline::open_store(&Home::at(env.store.path())).unwrap();
    let session = store.session(&sessions[0].session_id).unwrap();
    assert_eq!(session.host, throughline::hosts::codex::HOST);
    let turns: Vec<_> = store
        .turns(&session)
        .unwrap()
        .into_iter()
        .filter(|t| t.seq > 0)
        .map(|t| store.turn_detail(&t.code).unwrap())
        .collect();
    let conversation: Vec<Vec<&str>> = turns
        .iter()
        .map(|t| t.turn.messages.iter().map(|m| m.text.as_str()).collect())
        .collect();
    assert_eq!(
        conversation,
        [vec![first, first_answer], vec![second, second_answer]]
    );

    // Every command the model asked for, and the output it was given, to the byte.
    let mut outputs: HashMap<String, String> = HashMap::new();
    let mut calls: Vec<(String, String)> = Vec::new();
    for request in server.requests() {
        for item in request["input"].as_array().unwrap() {
            match item["type"].as_str() {
                Some("function_call_output") => {
                    let output = match &item["output"] {
                        Value::String(s) => s.clone(),
                        other => message_text(&serde_json::json!({ "content": other })),
                    };
                    outputs.insert(item["call_id"].as_str().unwrap().into(), output);
                }
                Some("function_call") => {
                    let call = (
                        item["call_id"].as_str().unwrap().to_string(),
                        item["arguments"].as_str().unwrap().to_string(),
                    );
                    if !calls.contains(&call) {
                        calls.push(call);
                    }
                }
                _ => {}
            }
        }
    }
    assert_eq!(calls.len(), 3, "{calls:?}");
    let mut stored_calls = Vec::new();
    for turn in &turns {
        for d in turn
            .details
            .iter()
            .filter(|d| d.kind == DetailKind::ToolCall)
        {
            let id = d.tool_use_id.clone().unwrap();
            stored_calls.push((id.clone(), d.body.clone()));
            let result = turn
                .details
                .iter()
                .find(|r| r.kind == DetailKind::ToolResult && r.tool_use_id.as_ref() == Some(&id))
                .expect("every call has its result");
            assert_eq!(Some(&result.body), outputs.get(&id), "output of {id}");
        }
    }
    assert_eq!(stored_calls, calls);
    let listing = &outputs[&calls[0].0];
    assert!(listing.contains("notes.txt"), "{listing}");
    assert!(outputs[&calls[1].0].contains("2 notes.txt"));
    assert!(outputs[&calls[2].0].contains("alpha\nbeta\n"));
    assert_eq!(
        (turns[0].tool_calls().count(), turns[1].tool_calls().count()),
        (2, 1)
    );

    // A resumed session gets its history from Codex: nothing is injected.
    let injected = store
        .injections(&throughline::store::InjectionFilter {
            limit: Some(10),
            ..Default::default()
        })
        .unwrap();
    assert!(injected.is_empty(), "{injected:?}");
    assert!(server
        .requests()
        .iter()
        .all(|r| !request_text(r).contains("Throughline memory")));

    // Search, recall and show read Codex sessions like any other.
    let found = env.throughline(&bin, &["search", "決定", "--json"]);
    let text = String::from_utf8_lossy(&found.stdout);
    assert!(
        found.status.success() && text.contains(&turns[0].turn.code),
        "{text}"
    );
    let shown = env.throughline(&bin, &["detail", &turns[1].turn.code, "--tool", "1"]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("alpha"));
}

/// The injection log of the store the hooks of `env` write.
fn injections(env: &CodexEnv) -> Vec<throughline::store::Injection> {
    throughline::open_store(&Home::at(env.store.path()))
        .unwrap()
        .injections(&throughline::store::InjectionFilter {
            limit: Some(10),
            ..Default::default()
        })
        .unwrap()
}

/// The text of every message item of a request.
fn request_text(request: &Value) -> String {
    request["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["type"] == "message")
        .map(message_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The request that carried the prompt containing `needle` as its latest user message.
fn request_for(server: &ResponsesServer, needle: &str) -> Option<Value> {
    server.requests().into_iter().find(|r| {
        let input = r["input"].as_array().unwrap();
        input
            .iter()
            .rev()
            .find(|i| i["type"] == "message" && i["role"] == "user")
            .is_some_and(|i| message_text(i).contains(needle))
    })
}

#[test]
fn clear_in_the_tui_hands_on_the_recent_turns_and_a_second_window_never_gets_them() {
    use support::codex::CodexTui;
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(vec![
        (
            "port for the dev server",
            vec![Reply::Text(
                "Noted: the dev server listens on port 8731.".into(),
            )],
        ),
        (
            "parser in window B",
            vec![Reply::Text("Parser work noted.".into())],
        ),
        (
            "Which port did we pick",
            vec![Reply::Text("Port 8731.".into())],
        ),
        ("B again", vec![Reply::Text("Still on the parser.".into())]),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    // Launched as a person does: the hooks are reviewed and trusted, and run in each
    // window's own process (install turned the shared background server off).
    let a = CodexTui::start_reviewed(&env, "a", true);
    a.submit("Use 8731 as the port for the dev server");
    a.wait_screen("listens on port 8731");
    let b = CodexTui::start_reviewed(&env, "b", false);
    b.submit("I work on the parser in window B");
    b.wait_screen("Parser work noted");

    a.submit("/clear");
    // Codex starts the new session only at its first prompt: the memory comes with it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    a.submit("Which port did we pick?");
    a.wait_screen("Port 8731.");
    let after_clear = request_for(&server, "Which port did we pick").unwrap();
    let text = request_text(&after_clear);
    assert!(text.contains("# Throughline memory"), "{text}");
    assert!(
        text.contains("Use 8731 as the port for the dev server"),
        "{text}"
    );
    assert!(text.contains("listens on port 8731"), "{text}");
    assert!(!text.contains("parser in window B"), "{text}");

    b.submit("B again");
    b.wait_screen("Still on the parser");
    let in_b = request_text(&request_for(&server, "B again").unwrap());
    assert!(!in_b.contains("Throughline memory"), "{in_b}");
    assert!(!in_b.contains("8731"), "{in_b}");

    // The injection log says the same: one /clear handoff, from window A's first session.
    let injections = injections(&env);
    assert_eq!(injections.len(), 1, "{injections:?}");
    let memory = &injections[0];
    assert!(memory.text.len() <= 9_500, "{} bytes", memory.text.len());
}

#[test]
fn tl_is_blocked_before_any_request_and_the_next_new_session_takes_the_memory() {
    use support::codex::CodexTui;
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(vec![
        (
            "release checklist",
            vec![Reply::Text("Checklist: tag v2.4.1, then publish.".into())],
        ),
        (
            "carry on",
            vec![Reply::Text("Carrying on with v2.4.1.".into())],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    let tui = CodexTui::start(&env, "tl");
    tui.submit("Write the release checklist");
    tui.wait_screen("tag v2.4.1");
    // The turn is over (its Stop hook ran) once the TUI says how long it worked.
    tui.wait_screen("Worked for");
    // `$tl` names the skill install put in place; the hook blocks it.
    tui.submit_skill("$tl");
    tui.wait_screen("`$tl cancel` withdraws it");
    // Codex asks for a title of its own after a first turn: only the prompt is looked for.
    assert!(
        request_for(&server, "$tl").is_none(),
        "$tl reached the model"
    );
    drop(tui);

    env.exec(&["carry on from where we were"]);
    let text = request_text(&request_for(&server, "carry on").unwrap());
    assert!(text.contains("# Throughline memory"), "{text}");
    assert!(
        text.contains("Checklist: tag v2.4.1, then publish."),
        "{text}"
    );
}

#[test]
fn a_memory_comes_in_two_parts_both_in_the_next_sessions_first_request() {
    let bin = support::throughline::bin();
    let asks: Vec<String> = (1..=6).map(|m| format!("Review module {m}.")).collect();
    let mut replies = vec![
        (
            "staging port",
            vec![Reply::Text("Noted: staging listens on port 8443.".into())],
        ),
        (
            "What port does staging use",
            vec![Reply::Text("Port 8443.".into())],
        ),
    ];
    for (m, ask) in asks.iter().enumerate() {
        replies.push((ask.as_str(), vec![Reply::Text(scenario::review(m + 1))]));
    }
    let server = ResponsesServer::start(replies);
    let env = CodexEnv::new(&server, &bin);
    env.exec(&["Remember: the staging port is 8443."]);
    let sessions = throughline::hosts::agent(throughline::hosts::codex::HOST)
        .find_transcripts(Some(env.home.path().join(".codex/sessions")))
        .unwrap();
    let from = sessions[0].session_id.clone();
    for ask in &asks {
        env.exec(&["resume", &from, ask]);
    }
    let offered = env.throughline(&bin, &["handoff", "--session", &from, "--json"]);
    assert!(offered.status.success(), "{offered:?}");

    // A new session: its start gives the first part, its first prompt the second.
    env.exec(&["What port does staging use?"]);
    let first = request_for(&server, "What port does staging use").unwrap();
    let text = request_text(&first);
    assert_eq!(text.matches("# Throughline memory").count(), 2, "{text}");
    assert!(text.contains("# Throughline memory, part 2 of 2"), "{text}");
    assert!(
        text.contains("Remember: the staging port is 8443."),
        "{text}"
    );
    assert!(
        text.contains(&scenario::review(6)) && text.contains(&scenario::review(4)),
        "{text}"
    );

    let injections = injections(&env);
    assert_eq!(injections.len(), 2, "{injections:?}");
    for part in &injections {
        assert_eq!(part.chain, [from.as_str()]);
        assert!(part.text.len() <= 9_500, "{} bytes", part.text.len());
        assert!(
            text.contains(&part.text),
            "each part reached the model whole"
        );
    }
}

#[test]
fn compaction_brings_back_the_recent_turns_verbatim() {
    use support::codex::CodexTui;
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(vec![
        (
            "Pick a cache size",
            vec![Reply::Text("Use 64 MiB for the cache, 決定.".into())],
        ),
        (
            "CONTEXT CHECKPOINT",
            vec![Reply::Text("Summary: a cache was chosen.".into())],
        ),
        (
            "go on after compaction",
            vec![Reply::Text("Going on.".into())],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    let tui = CodexTui::start(&env, "compact");
    tui.submit("Pick a cache size for the index");
    tui.wait_screen("Use 64 MiB");
    tui.wait_screen("Worked for");
    tui.submit("/compact");
    tui.wait_screen("Context compacted");
    std::thread::sleep(std::time::Duration::from_millis(500));
    tui.submit("go on after compaction");
    tui.wait_screen("Going on.");
    let text = request_text(&request_for(&server, "go on after compaction").unwrap());
    // The summary is lossy; the memory holds the turn as it was.
    assert!(text.contains("# Throughline memory"), "{text}");
    assert!(text.contains("Pick a cache size for the index"), "{text}");
    assert!(text.contains("Use 64 MiB for the cache, 決定."), "{text}");
    assert!(
        !text.contains("You: Summary: a cache was chosen."),
        "{text}"
    );
}

/// With `fresh_instead_of_compact` on, Codex's own compaction is stopped at its threshold: the
/// turn stops there, unanswered, with the reason on the screen; no summary is asked for; and
/// `/clear` goes on from the memory, the stopped request included (decision 0190).
#[test]
fn a_fresh_session_from_the_memory_instead_of_codex_s_compaction() {
    use support::codex::CodexTui;
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(vec![
        (
            "Pick a cache size",
            vec![Reply::Text("Use 64 MiB for the cache.".into())],
        ),
        (
            "wire the cache into the index",
            vec![Reply::Text("Wired the cache in.".into())],
        ),
        (
            "CONTEXT CHECKPOINT",
            vec![Reply::Text("Summary: a cache was chosen.".into())],
        ),
        (
            "go on where we stopped",
            vec![Reply::Text("Going on with the wiring.".into())],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    // Past the first answer's context: the second prompt meets the threshold.
    env.compact_past(500);
    let on = env.throughline(&bin, &["config", "--set", "fresh_instead_of_compact=on"]);
    assert!(on.status.success(), "{on:?}");
    let tui = CodexTui::start(&env, "fresh");
    tui.submit("Pick a cache size for the index");
    tui.wait_screen("Use 64 MiB");
    tui.wait_screen("Worked for");

    let stopped_request = "Now wire the cache into the index";
    tui.submit(stopped_request);
    let ended = tui.shows_within(
        |s| s.contains("Conversation interrupted") || s.contains("Wired the cache in"),
        support::codex::TUI_TIMEOUT,
    );
    let screen = tui.screen();
    let summaries = server
        .requests()
        .iter()
        .filter(|r| request_text(r).contains("CONTEXT CHECKPOINT"))
        .count();
    assert!(
        ended && summaries == 0 && screen.contains("Conversation interrupted"),
        "the compaction was stopped, not run ({summaries} summary requests):\n{screen}"
    );
    assert!(
        screen.contains("Throughline stopped Codex's automatic compaction"),
        "{screen}"
    );
    assert!(
        request_for(&server, stopped_request).is_none(),
        "the stopped turn sent nothing"
    );

    tui.submit("/clear");
    // Codex starts the new session only at its first prompt: the memory comes with it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    tui.submit("go on where we stopped");
    tui.wait_screen("Going on with the wiring.");
    let text = request_text(&request_for(&server, "go on where we stopped").unwrap());
    assert!(text.contains("# Throughline memory"), "{text}");
    assert!(text.contains("Pick a cache size for the index"), "{text}");
    assert!(text.contains("Use 64 MiB for the cache."), "{text}");
    assert!(text.contains(stopped_request), "{text}");
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| request_text(r).contains("CONTEXT CHECKPOINT")),
        "no summary was asked for after /clear either"
    );
}

#[test]
fn under_the_shared_background_server_clear_hands_nothing_on_rather_than_the_wrong_window() {
    use support::codex::{CodexTui, DaemonGuard};
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(vec![
        (
            "port for the dev server",
            vec![Reply::Text("Noted: port 8731.".into())],
        ),
        (
            "parser in window B",
            vec![Reply::Text("Parser work noted.".into())],
        ),
        (
            "Which port did we pick",
            vec![Reply::Text("Not known here.".into())],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    // The person turned Codex's shared server back on: install leaves their setting alone.
    let config = env.home.path().join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let ours = text
        .lines()
        .find(|l| l.starts_with("daemon_auto_start"))
        .unwrap();
    std::fs::write(&config, text.replace(ours, "daemon_auto_start = true")).unwrap();
    let out = env.throughline(&bin, &["install", "--host", "codex"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("kept your [features] daemon_auto_start = true"),
        "{said}"
    );
    let _daemon = DaemonGuard::new(&env);

    let a = CodexTui::start_reviewed(&env, "da", true);
    a.submit("Use 8731 as the port for the dev server");
    a.wait_screen("Noted: port 8731.");
    let b = CodexTui::start_reviewed(&env, "db", false);
    b.submit("I work on the parser in window B");
    b.wait_screen("Parser work noted");
    a.submit("/clear");
    std::thread::sleep(std::time::Duration::from_millis(500));
    a.submit("Which port did we pick?");
    a.wait_screen("Not known here.");
    let text = request_text(&request_for(&server, "Which port did we pick").unwrap());
    assert!(!text.contains("Throughline memory"), "{text}");
    let log = std::fs::read_to_string(env.store.path().join("throughline.log")).unwrap_or_default();
    assert!(
        log.contains("was started by /clear") && log.contains("no Codex process"),
        "{log}"
    );
}

#[test]
fn handoff_run_inside_a_session_hands_on_that_session_not_the_latest() {
    let bin = support::throughline::bin();
    let server = ResponsesServer::start(vec![
        (
            "Plan the parser",
            vec![Reply::Text(
                "Plan: the tokenizer first, then the grammar.".into(),
            )],
        ),
        ("Unrelated chore", vec![Reply::Text("Chore done.".into())]),
        (
            "Hand this on",
            vec![
                Reply::Shell(format!("'{bin}' handoff --json")),
                Reply::Text("Handed on.".into()),
            ],
        ),
    ]);
    let env = CodexEnv::new(&server, &bin);
    let sessions = || {
        throughline::hosts::agent(throughline::hosts::codex::HOST)
            .find_transcripts(Some(env.home.path().join(".codex/sessions")))
            .unwrap()
    };
    env.exec(&["Plan the parser for the config format"]);
    let planned = sessions()[0].session_id.clone();
    // Another window, now the project's latest session.
    env.exec(&["Unrelated chore: bump the version"]);
    let both = sessions();
    assert_eq!(both.len(), 2);
    let latest = both.iter().find(|s| s.session_id != planned).unwrap();
    // Back in the first, the person asks for a handoff; the model runs the CLI.
    env.exec(&["resume", &planned, "Hand this on to the next chat"]);
    let answered = server
        .requests()
        .iter()
        .rev()
        .map(|r| r.to_string())
        .find(|r| r.contains("expires_at"))
        .expect("the command's output reached the model");
    assert!(answered.contains(&planned), "{answered}");
    assert!(!answered.contains(&latest.session_id), "{answered}");
}

/// The `hooks` check of `doctor --host codex`, as (status, message).
fn codex_hooks_check(env: &CodexEnv, bin: &str) -> (String, String) {
    let out = env.throughline(bin, &["doctor", "--host", "codex", "--json"]);
    let check = support::throughline::doctor_check(&out.stdout, "hooks");
    (
        check["status"].as_str().unwrap().to_string(),
        check["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn doctor_names_the_release_of_the_real_codex_on_path() {
    let server = ResponsesServer::start(Vec::new());
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    support::throughline::assert_doctor_names_the_client(
        env.command(&bin),
        "codex",
        "Codex",
        &support::codex::codex_bin(),
    );
}

#[test]
fn doctor_tells_a_hook_changed_since_codex_trusted_it() {
    use support::codex::CodexTui;
    let _tui = support::codex::one_tui_at_a_time();
    let server = ResponsesServer::start(Vec::new());
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    let (status, message) = codex_hooks_check(&env, &bin);
    assert!(message.contains("not trusted yet"), "{status}: {message}");

    // The person trusts the hooks in Codex's review: Codex records the hashes doctor computes.
    drop(CodexTui::start_reviewed(&env, "trust", true));
    let (status, message) = codex_hooks_check(&env, &bin);
    assert_eq!(status, "ok", "{message}");

    // A hook edited afterwards (here the Stop hook's timeout) is one Codex no longer runs.
    let hooks_path = env.home.path().join(".codex/hooks.json");
    let mut hooks: Value = serde_json::from_slice(&std::fs::read(&hooks_path).unwrap()).unwrap();
    hooks["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 31.into();
    std::fs::write(&hooks_path, serde_json::to_vec_pretty(&hooks).unwrap()).unwrap();
    let (status, message) = codex_hooks_check(&env, &bin);
    assert_eq!(status, "problem", "{message}");
    assert!(
        message.contains("changed since you trusted them") && message.contains("Stop"),
        "{message}"
    );
    // Codex agrees: it asks for a review again, and once trusted again all is well.
    drop(CodexTui::start_reviewed(&env, "again", true));
    let (status, message) = codex_hooks_check(&env, &bin);
    assert_eq!(status, "ok", "{message}");
}

/// Every turn of `session` in `store` (a THROUGHLINE_HOME), as `detail --json` shows it.
fn turn_details(env: &CodexEnv, bin: &str, store: &std::path::Path, session: &str) -> Vec<Value> {
    let run = |args: &[&str]| -> Value {
        let mut cmd = std::process::Command::new(bin);
        cmd.args(args)
            .current_dir(env.project.path())
            .env("HOME", env.home.path())
            .env("THROUGHLINE_HOME", store);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    run(&["show", session, "--json"])["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| run(&["detail", t["code"].as_str().unwrap(), "--json"]))
        .collect()
}

#[test]
fn a_subagent_s_work_is_detail_of_the_turn_that_spawned_it() {
    const ASK: &str = "Find the parser bug, have a sub-agent look at the lexer";
    const TASK: &str = "Investigate the lexer for the off-by-one";
    const FOUND: &str = "The off-by-one is in lexer.rs line 42: the loop stops a token early.";
    const THANKS: &str = "Thanks, that is all.";
    let server = ResponsesServer::start(vec![
        (
            ASK,
            vec![
                Reply::Call {
                    namespace: "multi_agent_v1",
                    name: "spawn_agent",
                    arguments: serde_json::json!({ "message": TASK }),
                },
                Reply::WaitForSpawned,
            ],
        ),
        // Codex tells the spawning model of the subagent's end in a message of its own.
        (
            "<subagent_notification>",
            vec![Reply::Text("The helper found it: lexer.rs line 42.".into())],
        ),
        (
            TASK,
            vec![
                Reply::Shell("echo lexer-checked".into()),
                Reply::Text(FOUND.into()),
            ],
        ),
        (THANKS, vec![Reply::Text("You are welcome.".into())]),
    ]);
    let bin = support::throughline::bin();
    let env = CodexEnv::new(&server, &bin);
    let out = env.exec(&[ASK]);
    assert!(out.status.success(), "{out:?}");
    let out = env.exec(&["resume", "--last", THANKS]);
    assert!(out.status.success(), "{out:?}");
    let store = throughline::open_store(&Home::at(env.store.path())).unwrap();
    let sessions = store
        .sessions(&throughline::store::SessionFilter::default())
        .unwrap();
    assert_eq!(sessions.len(), 1, "the subagent is no session of its own");
    let session = sessions[0].session_id.clone();

    let live = turn_details(&env, &bin, env.store.path(), &session);
    let prompts: Vec<&str> = live
        .iter()
        .flat_map(|t| t["messages"].as_array().unwrap())
        .filter(|m| m["role"] == "user")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        prompts,
        [ASK, THANKS],
        "only the person's words are a prompt"
    );
    let asked = live
        .iter()
        .find(|t| t["messages"][0]["text"] == ASK)
        .unwrap();
    let subagent: Vec<(&str, &str)> = asked["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "subagent")
        .map(|d| (d["name"].as_str().unwrap(), d["body"].as_str().unwrap()))
        .collect();
    assert!(subagent.contains(&("prompt", TASK)), "{asked:#}");
    assert!(subagent.contains(&("answer", FOUND)), "{asked:#}");
    let answers: Vec<&str> = asked["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(answers, ["The helper found it: lexer.rs line 42."]);

    // An import of the files Codex left stores the same, each entry in the same turn.
    let fresh = tempfile::tempdir().unwrap();
    let sessions_dir = env.home.path().join(".codex/sessions");
    let mut import = std::process::Command::new(&bin);
    import
        .args(["import", "--host", "codex", "--from"])
        .arg(&sessions_dir)
        .env("HOME", env.home.path())
        .env("THROUGHLINE_HOME", fresh.path());
    assert!(import.output().unwrap().status.success());
    let imported = turn_details(&env, &bin, fresh.path(), &session);
    let bodies = |turns: &[Value]| -> Vec<Vec<String>> {
        turns
            .iter()
            .map(|t| {
                let mut all: Vec<String> = t["details"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| format!("{} {} {}", d["kind"], d["name"], d["body"]))
                    .collect();
                all.sort();
                all
            })
            .collect()
    };
    assert_eq!(bodies(&imported), bodies(&live));
}
