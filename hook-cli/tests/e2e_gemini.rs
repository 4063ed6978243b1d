//! The real Gemini CLI (0.61.0) against a scripted Gemini API server, every hook running the
//! real `throughline hook gemini` as `throughline install` registered it: what the store
//! keeps is exactly what was typed, said and run, and `/clear` in the TUI hands the memory
//! on once, with the new session's first prompt.

mod support;

use std::collections::HashMap;

use serde_json::Value;
use support::gemini::{GeminiEnv, GeminiTui};
use support::gemini_server::{request_text, typed, GeminiServer, Reply};
use support::scenario;
use throughline::home::Home;
use throughline::model::DetailKind;
use throughline::store::{InjectionFilter, Store};

fn store(env: &GeminiEnv) -> Store {
    throughline::open_store(&Home::at(env.store.path())).unwrap()
}

/// The request whose latest prompt contains `needle`.
fn request_for(server: &GeminiServer, needle: &str) -> Option<Value> {
    server.requests().into_iter().find(|r| {
        r["contents"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|c| c["role"] == "user" && !typed(c).is_empty())
            .is_some_and(|c| typed(c).contains(needle))
    })
}

/// The prompts and answers of `session`'s turns once they are `wanted`, or as they stand when
/// the TUI's time is up: the hooks may still run while the TUI takes the next prompt.
fn conversation_settled(store: &Store, session: &str, wanted: &[Vec<&str>]) -> Vec<Vec<String>> {
    let conversation = || -> Vec<Vec<String>> {
        store
            .turns(&store.session(session).unwrap())
            .unwrap()
            .into_iter()
            .filter(|t| t.seq > 0)
            .map(|t| {
                let turn = store.turn_detail(&t.code).unwrap().turn;
                turn.messages.into_iter().map(|m| m.text).collect()
            })
            .collect()
    };
    let deadline = std::time::Instant::now() + support::gemini::TUI_TIMEOUT;
    while conversation() != wanted && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    conversation()
}

#[test]
fn doctor_names_the_release_of_the_real_gemini_cli_on_path() {
    let server = GeminiServer::start(Vec::new());
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    support::throughline::assert_doctor_names_the_client(
        env.command(&bin),
        "gemini",
        "Gemini CLI",
        &support::gemini::gemini_bin(),
    );
}

#[test]
fn a_headless_session_with_shell_calls_is_captured_exactly() {
    let prompt = "Count the files here and note them. 決定: UTF-8 only.";
    let answer = "There are two files; notes.txt has 2 lines.\n\n決定 kept: UTF-8 only.";
    let server = GeminiServer::start(vec![(
        "Count the files",
        vec![
            Reply::Shell("printf 'alpha\\nbeta\\n' > notes.txt && ls -a".into()),
            Reply::Shell("wc -l notes.txt; echo done >&2".into()),
            Reply::Text {
                thought: Some("**Counting lines**\n\nwc said two.".into()),
                text: answer.into(),
            },
        ],
    )]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    env.headless(prompt);

    let chats = env.chats();
    assert_eq!(chats.len(), 1, "{chats:?}");
    let store = store(&env);
    let session = store.session(&chats[0].session_id).unwrap();
    assert_eq!(session.host, throughline::hosts::gemini::HOST);
    assert_eq!(session.start_source.as_deref(), Some("startup"));
    assert_eq!(session.end_reason.as_deref(), Some("exit"));
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
    // The person's words and the model's, nothing of the CLI's own context.
    assert_eq!(conversation, [vec![prompt, answer]]);

    // Every command the model asked for, and the output the CLI gave it, to the byte.
    let mut outputs: HashMap<String, String> = HashMap::new();
    for request in server.requests() {
        for content in request["contents"].as_array().unwrap() {
            for part in content["parts"].as_array().into_iter().flatten() {
                let response = &part["functionResponse"];
                if let Some(id) = response["id"].as_str() {
                    let output = response["response"]["output"].as_str().unwrap();
                    outputs.insert(id.into(), output.into());
                }
            }
        }
    }
    assert_eq!(outputs.len(), 2, "{outputs:?}");
    let turn = &turns[0];
    let calls: Vec<_> = turn
        .details
        .iter()
        .filter(|d| d.kind == DetailKind::ToolCall)
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0].body,
        r#"{"command":"printf 'alpha\\nbeta\\n' > notes.txt && ls -a"}"#
    );
    assert_eq!(calls[0].name.as_deref(), Some("run_shell_command"));
    for call in &calls {
        let id = call.tool_use_id.clone().unwrap();
        let result = turn
            .details
            .iter()
            .find(|r| r.kind == DetailKind::ToolResult && r.tool_use_id.as_ref() == Some(&id))
            .expect("every call has its result");
        // The chat names a call `<tool>__<the API's id>`.
        let sent = outputs
            .iter()
            .find(|(api_id, _)| id == format!("run_shell_command__{api_id}"))
            .map(|(_, output)| output);
        assert_eq!(Some(&result.body), sent, "output of {id} in {outputs:?}");
    }
    let thinking: Vec<_> = turn
        .details
        .iter()
        .filter(|d| d.kind == DetailKind::Thinking)
        .map(|d| d.body.as_str())
        .collect();
    assert_eq!(thinking, ["Counting lines\nwc said two."]);
    // The CLI's session context is kept in L3 (before the first prompt).
    let opening = store
        .turn_detail(&store.turns(&session).unwrap()[0].code)
        .unwrap();
    let context: Vec<_> = opening
        .details
        .iter()
        .chain(&turn.details)
        .filter_map(|d| d.name.as_deref())
        .collect();
    assert!(context.contains(&"session_context"), "{context:?}");

    // Usage as the API reported it, one entry per model call, measured against the window
    // the CLI gives its models.
    let (usage, model) = store.context_usage(&session).unwrap().expect("usage");
    assert_eq!(
        (usage.input, usage.cache_read, usage.output),
        (2_700, 300, 10),
        "the third call's usage"
    );
    assert!(model.is_some_and(|m| m.starts_with("gemini")));
    assert_eq!(
        throughline::hosts::session_window(&session, None, usage.context()),
        1_048_576
    );

    // Search and detail read Gemini sessions like any other.
    let found = env.throughline(&bin, &["search", "決定", "--json"]);
    let text = String::from_utf8_lossy(&found.stdout);
    assert!(
        found.status.success() && text.contains(&turn.turn.code),
        "{text}"
    );
    let shown = env.throughline(&bin, &["detail", &turn.turn.code, "--tool", "2"]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("2 notes.txt"));
}

#[test]
fn clear_in_the_tui_hands_the_memory_on_once_with_the_first_prompt() {
    let _tui = support::gemini::one_tui_at_a_time();
    let server = GeminiServer::start(vec![
        (
            "port for the dev server",
            vec![Reply::text("Noted: the dev server listens on port 8731.")],
        ),
        ("Which port did we pick", vec![Reply::text("Port 8731.")]),
        ("And the host", vec![Reply::text("localhost.")]),
    ]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    let tui = GeminiTui::start(&env, "clear");
    tui.ask(&server, "Use 8731 as the port for the dev server");
    tui.wait_screen("listens on port 8731");
    tui.submit("/clear");
    tui.ask(&server, "Which port did we pick");
    tui.wait_screen("Port 8731.");
    tui.ask(&server, "And the host");

    let after_clear = request_text(&request_for(&server, "Which port did we pick").unwrap());
    // The memory follows the prompt, as BeforeAgent's context does.
    let memory = after_clear
        .find("<hook_context>")
        .unwrap_or_else(|| panic!("no memory after /clear:\n{after_clear}"));
    assert!(after_clear[..memory].contains("Which port did we pick"));
    assert!(
        after_clear[memory..].contains("Throughline memory"),
        "{after_clear}"
    );
    assert!(
        after_clear[memory..].contains("Use 8731 as the port for the dev server"),
        "{after_clear}"
    );
    assert!(after_clear[memory..].contains("listens on port 8731"));
    // The cleared conversation itself is gone from the request.
    assert_eq!(after_clear.matches("Use 8731 as the port").count(), 1);
    // Once: the next prompt carries it only as history.
    let next = request_text(&request_for(&server, "And the host").unwrap());
    assert_eq!(next.matches("Throughline memory").count(), 1, "{next}");

    let store = store(&env);
    let injections = store
        .injections(&InjectionFilter {
            limit: Some(10),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(injections.len(), 1, "{injections:?}");
    let chats = env.chats();
    assert_eq!(chats.len(), 2, "{chats:?}");
    let new = store.session(&chats[1].session_id).unwrap();
    assert_eq!(injections[0].session_id, new.session_id);
    assert_eq!(new.start_source.as_deref(), Some("clear"));
    let old = store.session(&chats[0].session_id).unwrap();
    assert_eq!(old.end_reason.as_deref(), Some("clear"));
    // The memory is not a prompt of the new session: its turns are what was typed and said,
    // stored by the hooks while the CLI runs (the TUI takes prompts again while the last
    // AfterAgent hook may still run).
    let wanted = [
        vec!["Which port did we pick", "Port 8731."],
        vec!["And the host", "localhost."],
    ];
    assert_eq!(
        conversation_settled(&store, &new.session_id, &wanted),
        wanted
    );
}

/// `/rewind` in the TUI, back to before the second prompt, which the person then sends again:
/// the third turn leaves the memory and the search, the second is stored once.
#[test]
fn a_rewind_in_the_tui_takes_the_rewound_turns_out_of_the_memory() {
    let _tui = support::gemini::one_tui_at_a_time();
    let server = GeminiServer::start(vec![
        ("first step alpha", vec![Reply::text("Alpha done.")]),
        ("second step beta", vec![Reply::text("Beta done.")]),
        (
            "third step gamma",
            vec![Reply::text("Gamma done with zetafactor.")],
        ),
    ]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    let tui = GeminiTui::start(&env, "rewind");
    for prompt in ["first step alpha", "second step beta", "third step gamma"] {
        tui.ask(&server, prompt);
    }
    // The dialog lists the prompts above "Stay at current position"; two up is the second.
    // The TUI takes keys only once it has drawn what came before (its command menu opens
    // under a typed `/`): each key waits a moment.
    let pause = || std::thread::sleep(std::time::Duration::from_millis(1500));
    tui.keys(&["/rewind"]);
    pause();
    tui.keys(&["Enter"]);
    tui.wait_screen("Stay at current position");
    for key in ["Up", "Up", "Enter"] {
        pause();
        tui.keys(&[key]);
    }
    tui.wait_screen("Rewind conversation");
    pause();
    tui.keys(&["Enter"]);
    // The rewound prompt comes back into the input; the person sends it again (an Enter
    // while the dialog still closes is lost: again until the request goes out).
    let served = server.served();
    for _ in 0..5 {
        pause();
        tui.keys(&["Enter"]);
        pause();
        if server.served() > served {
            break;
        }
    }
    assert!(
        server.served() > served,
        "never sent again:\n{}",
        tui.screen()
    );
    let store = store(&env);
    let wanted = [
        vec!["first step alpha", "Alpha done."],
        vec!["second step beta", "Beta done."],
    ];
    let stored = conversation_settled(&store, &env.chats()[0].session_id, &wanted);
    assert_eq!(stored, wanted, "{}", tui.screen());
    let found = env.throughline(&bin, &["search", "--all", "zetafactor"]);
    assert_eq!(
        found.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&found.stdout)
    );
}

#[test]
fn tl_is_blocked_before_any_request_and_the_next_new_session_takes_the_memory() {
    let _tui = support::gemini::one_tui_at_a_time();
    let server = GeminiServer::start(vec![
        (
            "schema migration",
            vec![Reply::text("The migration adds a context_window column.")],
        ),
        ("What did the migration add", vec![Reply::text("A column.")]),
    ]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    let first = GeminiTui::start(&env, "tl-a");
    first.ask(&server, "Explain the schema migration");
    let before = server.requests().len();
    first.submit("/tl");
    first.wait_screen("handoff ready");
    assert_eq!(server.requests().len(), before, "/tl reached the model");
    drop(first);

    let second = GeminiTui::start(&env, "tl-b");
    second.ask(&server, "What did the migration add");
    let text = request_text(&request_for(&server, "What did the migration add").unwrap());
    assert!(text.contains("Throughline memory"), "{text}");
    assert!(text.contains("adds a context_window column"), "{text}");
}

#[test]
fn a_handoff_gives_both_parts_of_the_memory_in_the_one_output_the_cli_takes() {
    let asks: Vec<String> = (1..=6).map(|m| format!("Review module {m}.")).collect();
    let reviews: Vec<String> = (1..=6).map(scenario::review).collect();
    let mut replies = vec![
        (
            "staging port",
            vec![Reply::text("Noted: staging listens on port 8443.")],
        ),
        (
            "What port does staging use",
            vec![Reply::text("Port 8443.")],
        ),
    ];
    for (ask, said) in asks.iter().zip(&reviews) {
        replies.push((ask.as_str(), vec![Reply::text(said)]));
    }
    let server = GeminiServer::start(replies);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    env.headless("Remember: the staging port is 8443.");
    for ask in &asks {
        env.headless_resumed(ask);
    }
    let from = env.chats()[0].session_id.clone();
    let offered = env.throughline(&bin, &["handoff", "--session", &from, "--json"]);
    assert!(offered.status.success(), "{offered:?}");

    env.headless("What port does staging use?");
    let text = request_text(&request_for(&server, "What port does staging use").unwrap());
    assert_eq!(text.matches("<hook_context>").count(), 1, "{text}");
    assert!(text.contains("# Throughline memory, part 2 of 2"), "{text}");
    assert!(
        text.contains("Remember: the staging port is 8443."),
        "{text}"
    );
    assert!(
        text.contains(&reviews[5]) && text.contains(&reviews[3]),
        "{text}"
    );

    let injections = store(&env)
        .injections(&InjectionFilter {
            limit: Some(10),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(injections.len(), 1, "{injections:?}");
    let memory = &injections[0];
    assert_eq!(memory.chain, [from.as_str()]);
    assert!(
        memory.size > 9_500 && memory.size <= memory.budget && memory.budget == 19_000,
        "{} of {} units",
        memory.size,
        memory.budget
    );
}

#[test]
fn uninstall_gives_back_the_settings_as_they_were_and_the_cli_runs_on_without_throughline() {
    let server = GeminiServer::start(vec![
        ("first run", vec![Reply::text("First.")]),
        ("second run", vec![Reply::text("Second.")]),
    ]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    let settings = env.home.path().join(".gemini/settings.json");
    let installed = std::fs::read(&settings).unwrap();
    env.headless("first run");
    // The CLI reads the hooks as installed and adds nothing of its own to the file.
    assert_eq!(std::fs::read(&settings).unwrap(), installed);
    let stored = || store(&env).sessions(&Default::default()).unwrap().len();
    assert_eq!(stored(), 1);

    let out = env.throughline(&bin, &["uninstall", "--host", "gemini"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}\n}\n"
    );
    assert!(!env.home.path().join(".gemini/commands").exists());
    let answer = env.headless("second run");
    assert!(String::from_utf8_lossy(&answer.stdout).contains("Second."));
    assert_eq!(stored(), 1, "a hook ran after uninstall");
}

/// Each turn of `session` in the store at `home`: its messages' texts and its details as
/// `kind name body`, sorted.
fn turns_at(home: &std::path::Path, session: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let store = throughline::open_store(&Home::at(home)).unwrap();
    store
        .turns(&store.session(session).unwrap())
        .unwrap()
        .into_iter()
        .filter(|t| t.seq > 0)
        .map(|t| {
            let turn = store.turn_detail(&t.code).unwrap();
            let messages = turn.turn.messages.into_iter().map(|m| m.text).collect();
            let mut details: Vec<String> = turn
                .details
                .iter()
                .map(|d| format!("{:?} {:?} {}", d.kind, d.name, d.body))
                .collect();
            details.sort();
            (messages, details)
        })
        .collect()
}

#[test]
fn a_subagent_s_work_is_detail_of_the_turn_that_called_it() {
    const ASK: &str = "Count the lines of data.txt with a helper";
    const TASK: &str = "Count the lines of data.txt and report the number.";
    const FOUND: &str = "data.txt has 4 lines.";
    const THANKS: &str = "Thanks, that is all";
    let server = GeminiServer::start(vec![
        (
            ASK,
            vec![
                Reply::Call {
                    name: "invoke_agent",
                    args: serde_json::json!({"agent_name": "generalist", "prompt": TASK}),
                },
                Reply::text("The helper counted 4 lines."),
            ],
        ),
        // The subagent's first request holds its task; it ends by calling complete_task.
        (
            TASK,
            vec![
                Reply::Shell("printf 'a\\nb\\nc\\nd\\n' > data.txt && wc -l < data.txt".into()),
                Reply::Call {
                    name: "complete_task",
                    args: serde_json::json!({"result": {"response": FOUND}}),
                },
            ],
        ),
        (THANKS, vec![Reply::text("You are welcome.")]),
    ]);
    let bin = support::throughline::bin();
    let env = GeminiEnv::new(&server, &bin);
    env.headless(ASK);
    // The resume starts a file of the current minute before it goes on in the session's own:
    // dated an hour back, the session's file is always another one, as after any real pause.
    let [first] = env.chats().try_into().unwrap();
    let name = first.path.file_name().unwrap().to_str().unwrap();
    let hour: u32 = name["session-YYYY-MM-DDT".len()..][..2].parse().unwrap();
    let earlier = format!(
        "{}{:02}{}",
        &name[.."session-YYYY-MM-DDT".len()],
        (hour + 23) % 24,
        &name["session-YYYY-MM-DDTHH".len()..]
    );
    std::fs::rename(&first.path, first.path.with_file_name(earlier)).unwrap();
    env.headless_resumed(THANKS);

    let chats = env.chats();
    assert_eq!(chats.len(), 1, "the subagent is no session: {chats:?}");
    let session = chats[0].session_id.clone();
    let live = turns_at(env.store.path(), &session);
    let prompts: Vec<&str> = live.iter().map(|(m, _)| m[0].as_str()).collect();
    assert_eq!(prompts, [ASK, THANKS]);
    let (messages, details) = &live[0];
    assert_eq!(messages, &[ASK, "The helper counted 4 lines."]);
    assert!(
        details.contains(&format!("Subagent Some(\"prompt\") {TASK}")),
        "{details:#?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("ToolResult") && d.contains("4")),
        "{details:#?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("ToolCall Some(\"complete_task\")") && d.contains(FOUND)),
        "{details:#?}"
    );
    assert!(
        live[1].1.iter().all(|d| !d.starts_with("Subagent")),
        "{live:#?}"
    );

    // An import of the files the CLI left stores the same, each entry in the same turn.
    let fresh = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(&bin)
        .args(["import", "--host", "gemini", "--from"])
        .arg(env.home.path().join(".gemini/tmp"))
        .env("HOME", env.home.path())
        .env("THROUGHLINE_HOME", fresh.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(turns_at(fresh.path(), &session), live);
}
