//! Acceptance: `throughline install` against the REAL Claude Code CLI, in a HOME that already
//! has the person's own hooks (the harness's recorder, which appends every payload to a file)
//! and their own statusline.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`).

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{ClaudeEnv, ModelServer, Script, Step};
use throughline::home::Home;
use throughline::store::{SessionFilter, Store};

const BIN: &str = env!("CARGO_BIN_EXE_throughline");

fn throughline(env: &ClaudeEnv, args: &[&str]) -> Output {
    let out = env
        .command(BIN)
        .args(args)
        .output()
        .expect("run throughline");
    assert!(
        out.status.success(),
        "throughline {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn settings_path(env: &ClaudeEnv) -> PathBuf {
    env.home.join(".claude/settings.json")
}

fn script(prompt: &str, answer: &str) -> Script {
    Script::new().on_prompt(
        prompt,
        vec![
            Step::new().tool(
                "Bash",
                json!({ "command": "sh greet.sh Ada", "description": "Greet Ada" }),
            ),
            Step::new().text(answer),
        ],
    )
}

/// [`stored`], once a session holds `answer`: capture-only hooks run in the background and
/// may finish after the client exits. On a loaded machine the client may also exit before
/// any hook read the answer: it cancels SessionEnd hooks that overrun their short budget,
/// and background hooks with it. The rest of the transcript then waits for the next read
/// of it, here `import`, which must store it whole and once.
fn stored_once_answered(env: &ClaudeEnv, dir: &Path, answer: &str) -> Vec<(String, u64, String)> {
    let answered =
        |sessions: &[(String, u64, String)]| sessions.iter().any(|s| s.2.contains(answer));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut sessions = stored(dir);
    while !answered(&sessions) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        sessions = stored(dir);
    }
    if !answered(&sessions) {
        eprintln!("the client exited before a hook read its answer; catching up with import");
        throughline(env, &["import"]);
        sessions = stored(dir);
    }
    sessions
}

/// Sessions stored in the memory at `dir`, with their L2 text.
fn stored(dir: &Path) -> Vec<(String, u64, String)> {
    let Ok(store) = Store::open_read_only(&Home::at(dir)) else {
        return Vec::new();
    };
    store
        .sessions(&SessionFilter::default())
        .unwrap()
        .into_iter()
        .map(|s| {
            let text = store
                .turns(&s)
                .unwrap()
                .iter()
                .flat_map(|t| t.messages.iter().map(|m| m.text.clone()))
                .collect::<Vec<_>>()
                .join("\n");
            (s.session_id.clone(), s.turns, text)
        })
        .collect()
}

#[test]
fn install_captures_real_sessions_keeps_the_persons_hooks_and_uninstalls_to_the_same_bytes() {
    let memory = tempfile::tempdir().unwrap();
    let prompt = "Greet Ada, please.";
    let answer = "Greeted Ada. 決定: keep greet.sh POSIX.";
    let server = ModelServer::start(script(prompt, answer));
    let env = ClaudeEnv::builder(&server)
        .env("THROUGHLINE_HOME", memory.path().to_string_lossy())
        .setting(
            "statusLine",
            json!({ "type": "command", "command": "echo my-own-status" }),
        )
        .build();
    let before = fs::read(settings_path(&env)).unwrap();

    let out = throughline(&env, &["install"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("added hooks"), "{said}");
    assert!(said.contains("kept your own statusLine"), "{said}");

    // A real session is captured, and the person's own hooks still ran.
    env.run_print(prompt).expect_ok(&env.debug_context());
    let sessions = stored_once_answered(&env, memory.path(), answer);
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let (session_id, turns, text) = &sessions[0];
    assert_eq!(*turns, 1);
    assert!(text.contains(prompt) && text.contains(answer), "{text}");
    // Not SessionEnd: the client may cancel it as it exits (see `stored_once_answered`).
    let events = env.hook_events();
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ] {
        assert!(
            events.iter().any(|e| e == event),
            "{event} missing from {events:?}"
        );
    }
    assert_eq!(env.session_ids(), vec![session_id.clone()]);

    // Installing again changes no byte of any file it manages.
    let managed = [
        settings_path(&env),
        env.home.join(".claude/commands/tl.md"),
        env.home.join(".claude.json"),
    ];
    let snapshot: Vec<Vec<u8>> = managed.iter().map(|p| fs::read(p).unwrap()).collect();
    let out = throughline(&env, &["install"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing changed"));
    let again: Vec<Vec<u8>> = managed.iter().map(|p| fs::read(p).unwrap()).collect();
    assert_eq!(snapshot, again);

    // Uninstall: settings.json is the person's file again, byte for byte, and Claude Code
    // still runs their hooks, no longer Throughline's.
    throughline(&env, &["uninstall"]);
    assert_eq!(fs::read(settings_path(&env)).unwrap(), before);
    let state: Value =
        serde_json::from_slice(&fs::read(env.home.join(".claude.json")).unwrap()).unwrap();
    assert!(state.get("mcpServers").is_none(), "{state}");
    let hooks_before = env.hook_events().len();
    env.run_print(prompt).expect_ok(&env.debug_context());
    assert_eq!(env.session_ids().len(), 2);
    assert!(env.hook_events().len() > hooks_before);
    assert_eq!(stored(memory.path()).len(), 1, "captured after uninstall");
}

#[test]
fn background_hooks_alone_still_capture_a_real_session() {
    let memory = tempfile::tempdir().unwrap();
    let prompt = "Greet Ada in the background.";
    let server = ModelServer::start(script(prompt, "Greeted Ada."));
    let env = ClaudeEnv::builder(&server)
        .env("THROUGHLINE_HOME", memory.path().to_string_lossy())
        .build();
    throughline(&env, &["install", "--no-statusline"]);

    // Keep only Throughline's `async` hooks, so whatever is stored came through them.
    let path = settings_path(&env);
    let mut settings: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let mut kept = 0;
    for groups in settings["hooks"].as_object_mut().unwrap().values_mut() {
        for group in groups.as_array_mut().unwrap() {
            group["hooks"].as_array_mut().unwrap().retain(|h| {
                let ours = h["command"].as_str().unwrap_or("").contains(" hook claude");
                let keep = !ours || h["async"] == true;
                kept += usize::from(ours && keep);
                keep
            });
        }
    }
    assert_eq!(kept, 4, "PreToolUse, PostToolUse, PostToolUseFailure, Stop");
    fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();

    env.run_print(prompt).expect_ok(&env.debug_context());
    // Background hooks may finish after the client exits: wait for them, not for a time.
    // They capture the prompt and the tool call; the final answer is caught by the next
    // synchronous hook (SessionEnd, or the next prompt), as the client may exit first.
    let deadline = Instant::now() + Duration::from_secs(30);
    let tool_calls = || -> Option<(String, String)> {
        let store = Store::open_read_only(&Home::at(memory.path())).ok()?;
        let session = store.sessions(&SessionFilter::default()).ok()?.pop()?;
        let turn = store
            .turns(&session)
            .ok()?
            .into_iter()
            .find(|t| t.seq == 1)?;
        let prompt = turn.messages.first()?.text.clone();
        Some((prompt, turn.detail_summary))
    };
    let mut found = tool_calls();
    while found
        .as_ref()
        .is_none_or(|(_, tools)| !tools.contains("Bash"))
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(100));
        found = tool_calls();
    }
    assert_eq!(found, Some((prompt.to_string(), "Bash".to_string())));
}

#[test]
fn the_plugin_captures_a_real_session_with_throughline_on_path() {
    let memory = tempfile::tempdir().unwrap();
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.path().join("throughline")).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let prompt = "Greet Ada through the plugin.";
    let answer = "Greeted Ada via the plugin.";
    let server = ModelServer::start(script(prompt, answer));
    let env = ClaudeEnv::builder(&server)
        .env("THROUGHLINE_HOME", memory.path().to_string_lossy())
        .env("PATH", path)
        .build();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let timeout = Duration::from_secs(60);
    env.run(
        &["plugin", "marketplace", "add", repo.to_str().unwrap()],
        timeout,
    )
    .expect_ok("plugin marketplace add");
    env.run(&["plugin", "install", "throughline@throughline"], timeout)
        .expect_ok("plugin install");

    env.run_print(prompt).expect_ok(&env.debug_context());
    let sessions = stored_once_answered(&env, memory.path(), answer);
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert!(
        sessions[0].2.contains(prompt) && sessions[0].2.contains(answer),
        "{sessions:?}"
    );
}

#[test]
fn slash_tl_is_answered_by_the_hook_without_asking_the_model() {
    let server = ModelServer::start(Script::new().fallback_text("Handoff noted."));
    let memory = tempfile::tempdir().unwrap();
    let env = ClaudeEnv::builder(&server)
        .env("THROUGHLINE_HOME", memory.path().to_string_lossy())
        .build();
    throughline(&env, &["install"]);
    let installed = fs::read_to_string(env.home.join(".claude/commands/tl.md")).unwrap();
    let program = fs::canonicalize(BIN).unwrap().display().to_string();
    assert_eq!(
        installed,
        throughline::hosts::claude::install::slash_command(&program)
    );

    env.run_print("/tl");
    let session = env.session_ids().pop().expect("a session");
    assert!(
        server.main_requests().is_empty(),
        "the UserPromptSubmit hook blocks /tl, so the model is not asked"
    );
    let store = Store::open_read_only(&Home::at(memory.path())).unwrap();
    let project = store.session(&session).unwrap().project.unwrap();
    let waiting = throughline::handoff::pending(&store, &project).unwrap();
    assert_eq!(waiting.map(|h| h.session_id), Some(session));
}
