//! What the app's commands do, against a store built from real Claude Code transcripts
//! imported the way `throughline import` does it.

mod support;
#[path = "support/ui_types.rs"]
mod ui_types;

use std::path::Path;

use support::{
    capture, first_prompt_of_a_new_chat, hook, session_id, start_of_a_new_chat, transcripts,
    SOON_AFTER,
};
use throughline_app::meter::{self, Level};
use throughline_app::{handoff, injections, settings};
use throughline_engine::config::{Config, Source};
use throughline_engine::handoff::Reply;
use throughline_engine::home::Home;
use throughline_engine::store::Store;
use throughline_engine::store::Trigger;

const HOURS_LATER: &str = "2026-11-30T12:00:00.000Z";

fn imported_store() -> (tempfile::TempDir, Home) {
    // Gauges read Claude Code's auto-compact threshold from its user settings: none here,
    // whatever the machine's own settings say (every test sets the same value).
    std::env::set_var("CLAUDE_CONFIG_DIR", "/nonexistent/throughline-app-tests");
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    for path in transcripts() {
        capture(&home, &session_id(&path), &path);
    }
    (dir, home)
}

/// Context in use according to the transcript itself: input + cache tokens of the last
/// main-chain assistant entry.
fn context_in(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["type"] == "assistant" && e["isSidechain"] != true)
        .find_map(|e| e["message"]["usage"].as_object().cloned())
        .map(|u| {
            [
                "input_tokens",
                "cache_creation_input_tokens",
                "cache_read_input_tokens",
            ]
            .iter()
            .map(|k| u[*k].as_u64().unwrap_or(0))
            .sum()
        })
        .unwrap_or(0)
}

#[test]
fn imported_sessions_are_live_with_their_real_context_use() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    let meters = meter::read(&store, SOON_AFTER).unwrap();
    assert_eq!(meters.len(), transcripts().len());
    for path in transcripts() {
        let id = session_id(&path);
        let m = meters.iter().find(|m| m.session_id == id).unwrap();
        let used = context_in(&path);
        assert!(used > 0, "the fixture {id} has usage");
        assert_eq!(m.used, used, "{id}");
        // 2.1.197 wrote these: it runs a bare claude-opus-4-8 in 200k, which the client
        // compacts by itself 33k before the end when no threshold is set.
        assert_eq!((m.window, m.usable), (200_000, 167_000));
        assert_eq!(
            m.compacts_by,
            throughline_engine::hosts::CompactRule::Client
        );
        assert_eq!(m.percent as u64, (used * 100 + 83_500) / 167_000);
        assert_eq!(m.level, Level::of(m.percent));
        assert_eq!(m.model.as_deref(), Some("claude-opus-4-8"));
        assert!(m.turns > 0);
    }
    // Most recently active first: the session after `/clear` is the newer one.
    assert_eq!(meters[0].session_id, "0f1b393e-f41a-4e1e-9a85-60441f844f13");
}

#[test]
fn a_session_the_client_started_on_the_1m_model_is_measured_against_1m() {
    let (_dir, home) = imported_store();
    // Only the SessionStart payload names the 1M variant (`claude-opus-4-8[1m]`); the
    // transcript says `claude-opus-4-8`.
    let hooks = Path::new("../hook-cli/tests/fixtures/claude-2.1.197/hooks");
    let payload = std::fs::read(hooks.join("01-SessionStart.json")).unwrap();
    let event =
        throughline_engine::hosts::decode_hook(throughline_engine::hosts::claude::HOST, &payload)
            .unwrap();
    assert_eq!(event.model.as_deref(), Some("claude-opus-4-8[1m]"));
    let mut store = throughline_engine::open_store(&home).unwrap();
    throughline_engine::capture::capture_event(&mut store, event.host, &event, false).unwrap();

    let meters = meter::read(&store, SOON_AFTER).unwrap();
    let started = meters
        .iter()
        .find(|m| m.session_id == event.session_id)
        .unwrap();
    assert_eq!(
        (started.window, started.usage.ends_with("/967k")),
        (1_000_000, true)
    );
    let other = meters
        .iter()
        .find(|m| m.session_id != event.session_id)
        .unwrap();
    assert_eq!(other.window, 200_000, "no payload named its model");
}

#[test]
fn a_session_of_the_current_client_on_its_default_model_is_measured_against_1m() {
    // 2.1.332 runs claude-opus-5-5 in 1M without the suffix; the transcript names the release.
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let path = Path::new(
        "../hook-cli/tests/fixtures/claude-2.1.332/prompts/7934ba4f-0869-45fd-bf0f-7e833733f925.jsonl",
    );
    capture(&home, &session_id(path), path);
    let store = Store::open_read_only(&home).unwrap();
    let meters = meter::read(&store, "2026-12-01T10:45:00.000Z").unwrap();
    let m = meters
        .iter()
        .find(|m| m.session_id == session_id(path))
        .unwrap();
    assert_eq!(
        (m.model.as_deref(), m.window),
        (Some("claude-opus-5-5"), 1_000_000)
    );
    assert_eq!(
        store
            .session(&session_id(path))
            .unwrap()
            .client_version
            .as_deref(),
        Some("2.1.332")
    );
}

#[test]
fn a_new_session_s_first_answer_is_measured_against_1m_before_a_hook_stores_its_release() {
    // The client writes its first answer to the transcript before the hook that reads it: only
    // the line says which release runs claude-opus-5-5, and so in which window.
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let fixture = Path::new(
        "../hook-cli/tests/fixtures/claude-2.1.332/prompts/7934ba4f-0869-45fd-bf0f-7e833733f925.jsonl",
    );
    let transcript = dir.path().join("transcript.jsonl");
    let payload = serde_json::json!({
        "session_id": "b3f1c2d4-0000-4000-8000-000000000001",
        "transcript_path": transcript,
        "cwd": "/home/dev/toy",
        "hook_event_name": "SessionStart",
        "source": "startup",
        "model": "claude-opus-5-5",
    });
    let event = throughline_engine::hosts::decode_hook(
        throughline_engine::hosts::claude::HOST,
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let mut store = throughline_engine::open_store(&home).unwrap();
    throughline_engine::capture::capture_event(
        &mut store,
        throughline_engine::hosts::claude::HOST,
        &event,
        false,
    )
    .unwrap();
    drop(store);
    std::fs::copy(fixture, &transcript).unwrap();

    let store = Store::open_read_only(&home).unwrap();
    let session = store
        .session("b3f1c2d4-0000-4000-8000-000000000001")
        .unwrap();
    assert_eq!(
        session.client_version, None,
        "no hook has read the transcript"
    );
    let meters = meter::read(&store, "2026-12-01T10:45:00.000Z").unwrap();
    let m = meters
        .iter()
        .find(|m| m.session_id == session.session_id)
        .unwrap();
    assert!(m.used > 0, "the gauge reads the transcript's tail");
    assert_eq!(m.window, 1_000_000);
}

#[test]
fn a_codex_session_is_labelled_by_its_host_and_measured_against_the_window_codex_reports() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let rollout = Path::new("../hook-cli/tests/fixtures/codex-0.171.0/rollout.jsonl");
    let id = "01a22ba6-a25c-7110-8548-5c0daa3cbefe";
    let mut store = throughline_engine::open_store(&home).unwrap();
    throughline_engine::capture::capture_transcript(
        &mut store,
        throughline_engine::hosts::codex::HOST,
        id,
        rollout,
    )
    .unwrap();
    let meters = meter::read(&store, "2026-11-30T09:00:00.000Z").unwrap();
    let m = meters.iter().find(|m| m.session_id == id).unwrap();
    // Its token counts say `model_context_window: 258400`.
    assert_eq!(
        (m.host, m.model.as_deref(), m.window),
        ("Codex", Some("gpt-5"), 258_400)
    );
    assert!(m.used > 0, "{m:?}");
    assert!(m.usage.ends_with("/258k"), "{}", m.usage);
}

#[test]
fn sessions_quiet_for_longer_than_the_live_window_drop_out() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    assert!(meter::read(&store, HOURS_LATER).unwrap().is_empty());
}

#[test]
fn without_a_store_it_is_a_first_run_not_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    let snapshot = meter::snapshot(&home);
    assert!(snapshot.sessions.is_empty());
    assert_eq!((snapshot.first_run, snapshot.problem), (true, None));
    assert!(injections::recent(&home).unwrap().is_empty());
    assert!(settings::projects(&home).unwrap().is_empty());
    assert!(
        !dir.path().join("throughline.db").exists(),
        "the app never creates the store"
    );
}

#[test]
fn a_store_locked_by_another_program_answers_at_once_with_what_to_do() {
    let (_dir, home) = imported_store();
    // An exclusive lock in WAL mode keeps every other connection out.
    let holder = rusqlite::Connection::open(home.db_path()).unwrap();
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; DELETE FROM handoffs;")
        .unwrap();
    let started = std::time::Instant::now();
    let snapshot = meter::snapshot(&home);
    let waited = started.elapsed();
    let problem = snapshot.problem.expect("a locked store is a problem");
    assert!(problem.contains("locked by another program"), "{problem}");
    assert!(
        !problem.contains("Restart") && !problem.contains(".."),
        "{problem}"
    );
    // The window must not hang on it (the library's writers wait 3 s).
    assert!(waited < std::time::Duration::from_secs(2), "{waited:?}");
    drop(holder);
    assert!(meter::snapshot(&home).problem.is_none());
}

#[test]
fn a_damaged_store_says_so_and_how_to_rebuild_it() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    std::fs::write(home.db_path(), vec![0x5a; 8192]).unwrap();
    let problem = meter::snapshot(&home).problem.unwrap();
    assert!(problem.contains("damaged"), "{problem}");
    assert!(problem.contains("throughline doctor"), "{problem}");
    assert!(
        !problem.contains("chmod") && !problem.contains(".."),
        "{problem}"
    );
}

#[test]
fn the_gauge_is_a_share_of_the_window_up_to_the_threshold() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    let whole = throughline_engine::gauge::read(&store, SOON_AFTER, None).unwrap();
    let half = throughline_engine::gauge::read(&store, SOON_AFTER, Some(50.0)).unwrap();
    for (w, h) in whole.iter().zip(&half) {
        assert_eq!((h.usable, h.compact_at), (100_000, Some(50)));
        assert_eq!(
            h.percent as u64,
            ((h.used * 100 + 50_000) / 100_000).min(100)
        );
        assert_eq!(h.level, Level::of(h.percent));
        assert!(h.percent >= w.percent);
    }
    // Each card says which session it is.
    assert!(half.iter().all(|g| g.title.is_some()), "{half:?}");
}

#[test]
fn no_handoff_is_offered_for_a_project_with_capture_off() {
    let (_dir, home) = imported_store();
    let id = session_id(&transcripts()[1]);
    let project = Store::open_read_only(&home)
        .unwrap()
        .session(&id)
        .unwrap()
        .project
        .unwrap();
    throughline_engine::config::update(&home, |c| c.capture_off.push(project.clone())).unwrap();
    let refused = handoff::offer(&home, &id).unwrap_err();
    assert!(
        refused.to_lowercase().contains("capture is off"),
        "{refused}"
    );
}

#[test]
fn the_busiest_session_drives_the_tray() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    let snapshot = meter::Snapshot {
        sessions: meter::read(&store, SOON_AFTER).unwrap(),
        ..meter::Snapshot::default()
    };
    let busiest = snapshot.busiest().unwrap();
    let top = snapshot.sessions.iter().map(|s| s.used).max().unwrap();
    assert_eq!(busiest.used, top);
}

#[test]
fn a_one_click_handoff_waits_for_the_next_chat_until_cancelled() {
    let (_dir, home) = imported_store();
    let id = session_id(&transcripts()[1]);
    let waiting = |home: &Home| {
        let store = Store::open_read_only(home).unwrap();
        meter::read(&store, SOON_AFTER)
            .unwrap()
            .into_iter()
            .filter(|m| m.handoff_until.is_some())
            .map(|m| m.session_id)
            .collect::<Vec<_>>()
    };
    assert!(waiting(&home).is_empty());

    let offered = handoff::offer(&home, &id).unwrap();
    assert_eq!(offered.session_id, id);
    assert_eq!(waiting(&home), [id.as_str()]);

    handoff::cancel(&home, &id).unwrap();
    assert!(waiting(&home).is_empty());
}

#[test]
fn a_handoff_of_an_unknown_session_says_where_to_look() {
    let (_dir, home) = imported_store();
    let problem = handoff::offer(&home, "no-such-session").unwrap_err();
    assert!(problem.contains("throughline sessions"), "{problem}");
}

#[test]
fn the_injection_log_shows_what_the_next_chat_received() {
    let (dir, home) = imported_store();
    assert!(injections::recent(&home).unwrap().is_empty());
    let giver = session_id(&transcripts()[1]);
    handoff::offer(&home, &giver).unwrap();

    // The project's next new chat: its first prompt takes the handoff, as the hook does it.
    let reply =
        first_prompt_of_a_new_chat(&home, "next-chat", &dir.path().join("not-written.jsonl"));
    let Some(Reply::Inject(sent)) = reply else {
        panic!("the handoff was not injected: {reply:?}")
    };

    let log = injections::recent(&home).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].session_id, "next-chat");
    assert_eq!(log[0].trigger, Trigger::Handoff);
    assert_eq!(log[0].chain, [giver.as_str()]);
    assert_eq!(log[0].text, sent);
}

#[test]
fn settings_are_saved_through_the_library_and_read_back_with_their_source() {
    let (_dir, home) = imported_store();
    let changed = Config {
        handoff_minutes: 5,
        ..settings::current(&home).config
    };
    let now = settings::save(&home, &changed).unwrap();
    assert_eq!(now.config.handoff_minutes, 5);
    let minutes = now
        .settings
        .iter()
        .find(|s| s.key == "handoff_minutes")
        .unwrap();
    assert_eq!(minutes.source, Source::File);
    assert_eq!(settings::current(&home).config, changed);
}

#[test]
fn the_plan_warning_percent_is_saved_and_the_warnings_read_it_with_the_plan_usage() {
    use throughline_app::warn;
    use throughline_engine::plan::{self, PlanUsage, Window};
    let (_dir, home) = imported_store();
    assert_eq!(meter::snapshot(&home).plan_warn_percent, 80);
    let lowered = Config {
        plan_warn_percent: 40,
        ..settings::current(&home).config
    };
    settings::save(&home, &lowered).unwrap();
    let used = |five, seven| PlanUsage {
        five_hour: Some(Window {
            used_percentage: five,
            resets_at: None,
        }),
        seven_day: Some(Window {
            used_percentage: seven,
            resets_at: None,
        }),
    };
    plan::record(&home, &used(45.0, 20.0)).unwrap();
    let snapshot = meter::snapshot(&home);
    assert_eq!(snapshot.plan_warn_percent, 40);
    let mut warned = std::collections::HashSet::new();
    let crossed = warn::plan_crossings(&mut warned, &snapshot, 0);
    assert_eq!(crossed.len(), 1);
    assert_eq!(crossed[0].0, "5-hour");
    // Off: nothing warns, however full.
    settings::save(
        &home,
        &Config {
            plan_warn_percent: 0,
            ..lowered
        },
    )
    .unwrap();
    plan::record(&home, &used(99.0, 99.0)).unwrap();
    let mut warned = std::collections::HashSet::new();
    assert!(warn::plan_crossings(&mut warned, &meter::snapshot(&home), 0).is_empty());
}

#[test]
fn capture_is_paused_from_the_tray_and_switched_per_project_from_the_window() {
    let (_dir, home) = imported_store();
    assert!(!meter::snapshot(&home).paused);
    settings::set_paused(&home, true).unwrap();
    assert!(
        meter::snapshot(&home).paused,
        "the tray and the window see it"
    );

    let projects = settings::projects(&home).unwrap();
    assert_eq!(projects.len(), 1, "{projects:?}");
    assert_eq!(projects[0].project, "/home/dev/toy");
    assert_eq!(
        (projects[0].sessions, projects[0].off_by.is_none()),
        (2, true)
    );

    let off = Config {
        capture_off: vec!["/home/dev/toy".into(), "/srv/elsewhere".into()],
        ..settings::current(&home).config
    };
    settings::save(&home, &off).unwrap();
    let projects = settings::projects(&home).unwrap();
    let captured: Vec<(&str, bool)> = projects
        .iter()
        .map(|p| (p.project.as_str(), p.off_by.is_none()))
        .collect();
    assert_eq!(
        captured,
        [("/home/dev/toy", false), ("/srv/elsewhere", false)],
        "folders with capture off show even before they have sessions"
    );
    assert!(settings::current(&home).config.pause_capture, "kept");
}

#[test]
fn settings_that_cannot_be_saved_say_what_to_check() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "").unwrap();
    let problem =
        settings::save(&Home::at(not_a_folder.join("home")), &Config::default()).unwrap_err();
    assert!(problem.contains("Check that the folder"), "{problem}");
}

#[test]
fn the_apps_own_reads_never_wake_its_watcher_and_a_hooks_write_does() {
    use notify::Watcher;
    let (_dir, home) = imported_store();
    let (sender, events) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
        let _ = sender.send(e.unwrap());
    })
    .unwrap();
    watcher
        .watch(home.dir(), notify::RecursiveMode::NonRecursive)
        .unwrap();
    let woken = |events: &std::sync::mpsc::Receiver<notify::Event>| {
        std::thread::sleep(std::time::Duration::from_millis(300));
        events
            .try_iter()
            .filter(|e| throughline_app::live::matters(e, &home))
            .count()
    };
    for _ in 0..3 {
        let snapshot = meter::snapshot(&home);
        assert!(snapshot.problem.is_none(), "{:?}", snapshot.problem);
        injections::recent(&home).unwrap();
    }
    assert_eq!(woken(&events), 0, "the app's reads woke it");
    // A hook records a turn: that wakes it.
    capture(&home, "another-session", &transcripts()[0]);
    assert!(woken(&events) > 0, "a hook's write went unseen");
}

#[test]
fn a_sessions_context_history_is_its_requests_against_where_the_client_compacts() {
    let (_dir, home) = imported_store();
    for path in transcripts() {
        let history = throughline_app::memory::context(&home, &session_id(&path))
            .unwrap()
            .unwrap();
        assert!(history.measured);
        assert!(!history.points.is_empty(), "{}", path.display());
        // The latest request is what the transcript's last main-chain answer reports.
        assert_eq!(history.points.last().unwrap().tokens, context_in(&path));
        assert!(history
            .points
            .iter()
            .all(|p| p.tokens > 0 && p.at.is_some()));
        // No threshold set here: the client's own point, 33k short of its window.
        assert_eq!(history.compacts_at, history.window - 33_000, "{history:?}");
        assert!(history.marks.is_empty());
    }
    // Nothing stored yet: nothing to draw.
    let empty = tempfile::tempdir().unwrap();
    assert!(
        throughline_app::memory::context(&Home::at(empty.path().join("home")), "x")
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_session_ended_by_clear_is_marked_after_its_last_request() {
    use throughline_engine::store::MarkKind;
    let (dir, home) = imported_store();
    let cleared = transcripts()[0].clone();
    let (cleared_id, other_id) = (session_id(&cleared), session_id(&transcripts()[1]));
    // `/clear` as Claude Code 2.1.197 runs it: the session's SessionEnd, then the next one's
    // SessionStart in the same window, both with the prompt id of the /clear.
    hook(
        &home,
        &serde_json::json!({
            "session_id": cleared_id,
            "transcript_path": cleared,
            "cwd": "/home/dev/toy",
            "hook_event_name": "SessionEnd",
            "reason": "clear",
            "prompt_id": "clear-prompt",
        }),
    );
    hook(
        &home,
        &serde_json::json!({
            "session_id": "after-clear",
            "transcript_path": dir.path().join("after-clear.jsonl"),
            "cwd": "/home/dev/toy",
            "hook_event_name": "SessionStart",
            "source": "clear",
            "prompt_id": "clear-prompt",
        }),
    );

    let history = throughline_app::memory::context(&home, &cleared_id)
        .unwrap()
        .unwrap();
    let [mark] = &history.marks[..] else {
        panic!("one mark for the /clear: {:?}", history.marks)
    };
    assert_eq!(mark.kind, MarkKind::Clear);
    // It came after every request of the session: the chart draws it at the last.
    assert_eq!(mark.before_point, history.points.len());
    assert!(history
        .points
        .iter()
        .all(|p| p.at.as_deref() < Some(mark.at.as_str())));
    ui_types::UiTypes::read().check("ContextHistory", &history);
    // The session the fixture recorded beside it was not cleared.
    let other = throughline_app::memory::context(&home, &other_id)
        .unwrap()
        .unwrap();
    assert!(other.marks.is_empty(), "{:?}", other.marks);
}

#[test]
fn the_memory_lists_every_stored_session_finds_words_and_opens_the_turn() {
    let (_dir, home) = imported_store();
    let stored = throughline_app::memory::sessions(&home).unwrap();
    assert_eq!(stored.len(), transcripts().len());
    assert!(
        stored.iter().all(|s| s.title.is_some() && s.turns > 0),
        "{stored:?}"
    );
    let id = &stored[0].session_id;
    let turns = throughline_app::memory::turns(&home, id).unwrap();
    let prompted: Vec<_> = turns.iter().filter(|t| t.seq > 0).collect();
    assert_eq!(prompted.len() as u64, stored[0].turns);

    // A word of a stored prompt: its hit opens the turn it was said in.
    let word = prompted[0].messages[0]
        .text
        .split_whitespace()
        .find(|w| w.len() > 5 && w.chars().all(char::is_alphanumeric))
        .unwrap()
        .to_string();
    let hits = throughline_app::memory::search(&home, &word, None).unwrap();
    let hit = &hits.first().expect("the prompt's own word is found").hit;
    let detail = throughline_app::memory::turn(&home, &hit.entry.turn).unwrap();
    assert_eq!(detail.turn.code, hit.entry.turn);
    assert!(
        throughline_app::memory::search(&home, "zqxjvbnm-nowhere", None)
            .unwrap()
            .is_empty()
    );
    let empty = throughline_app::memory::search(&home, "  ", None).unwrap_err();
    assert!(empty.ends_with('.') && !empty.ends_with(".."), "{empty}");
}

#[test]
fn the_preview_is_what_the_next_chat_receives_after_the_handoff() {
    let (dir, home) = imported_store();
    let id = session_id(&transcripts()[1]);
    let preview = throughline_app::memory::preview(&home, &id)
        .unwrap()
        .unwrap();
    handoff::offer(&home, &id).unwrap();
    // Claude Code passes the start's context and the first prompt's into the first request.
    let transcript = dir.path().join("next.jsonl");
    let start = start_of_a_new_chat(&home, "next-chat", &transcript);
    let prompt = first_prompt_of_a_new_chat(&home, "next-chat", &transcript);
    match (start, prompt) {
        (Some(Reply::Inject(first)), Some(Reply::Inject(second))) => {
            assert!(preview.starts_with(&first), "{preview}\n---\n{first}");
            assert!(preview.ends_with(&second), "{preview}\n---\n{second}");
            assert!(first.len() + second.len() < preview.len());
        }
        other => panic!("the next chat got {other:?}"),
    }
}

#[test]
fn a_first_run_memory_is_empty_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    assert!(throughline_app::memory::sessions(&home).unwrap().is_empty());
    assert!(throughline_app::memory::search(&home, "deploy", None)
        .unwrap()
        .is_empty());
    assert!(!home.db_path().exists());
}

#[test]
fn forgetting_a_session_asks_with_what_goes_then_removes_it_from_the_memory_and_search() {
    use throughline_app::memory::{self, Forget};
    let (_dir, home) = imported_store();
    let stored = memory::sessions(&home).unwrap();
    let gone = stored[0].clone();
    let word = gone
        .title
        .as_deref()
        .unwrap()
        .split_whitespace()
        .find(|w| w.len() > 5 && w.chars().all(char::is_alphanumeric))
        .unwrap()
        .to_string();
    assert!(memory::search(&home, &word, None)
        .unwrap()
        .iter()
        .any(|h| h.hit.entry.session_id == gone.session_id));
    let what = Forget::Session(gone.session_id.clone());
    let asked = memory::forget_preview(&home, &what).unwrap();
    assert_eq!(asked.sessions, 1);
    // As many turns as its row in the list says: what came before its first prompt goes too,
    // among the stored entries.
    assert_eq!(asked.turns, gone.turns, "{asked:?}");
    // Asking removed nothing.
    assert_eq!(memory::sessions(&home).unwrap().len(), stored.len());
    memory::forget(&home, &what).unwrap();
    let left = memory::sessions(&home).unwrap();
    assert_eq!(left.len(), stored.len() - 1);
    assert!(left.iter().all(|s| s.session_id != gone.session_id));
    assert!(memory::search(&home, &word, None)
        .unwrap()
        .iter()
        .all(|h| h.hit.entry.session_id != gone.session_id));
    let unknown = memory::forget_preview(&home, &Forget::Turn("zzzz9".into())).unwrap_err();
    assert!(unknown.ends_with('.'), "{unknown}");
}

#[test]
fn the_window_s_types_are_what_the_commands_send() {
    use throughline_app::memory::{self, Forget};
    use throughline_engine::plan::{self, PlanUsage, Window};
    let types = ui_types::UiTypes::read();
    let (dir, home) = imported_store();
    let window = Window {
        used_percentage: 42.0,
        resets_at: Some(1_790_000_000),
    };
    let usage = PlanUsage {
        five_hour: Some(window),
        seven_day: None,
    };
    plan::record(&home, &usage).unwrap();
    let mut snapshot = meter::snapshot(&home);
    assert!(snapshot.plan.is_some());
    // The fixture sessions, live as they were when recorded.
    snapshot.sessions = meter::read(&Store::open_read_only(&home).unwrap(), SOON_AFTER).unwrap();
    assert!(!snapshot.sessions.is_empty());
    types.check("Snapshot", &snapshot);

    let giver = session_id(&transcripts()[1]);
    types.check("Handoff", &handoff::offer(&home, &giver).unwrap());
    first_prompt_of_a_new_chat(&home, "next-chat", &dir.path().join("next.jsonl"));
    let log = injections::recent(&home).unwrap();
    assert!(!log.is_empty());
    log.iter().for_each(|i| types.check("Injection", i));

    types.check("Effective", &settings::current(&home));
    for project in settings::projects(&home).unwrap() {
        types.check("ProjectCapture", &project);
    }

    let stored = memory::sessions(&home).unwrap();
    stored.iter().for_each(|s| types.check("StoredSession", s));
    let turns = memory::turns(&home, &stored[0].session_id).unwrap();
    turns.iter().for_each(|t| types.check("Turn", t));
    let context = memory::context(&home, &stored[0].session_id)
        .unwrap()
        .unwrap();
    types.check("ContextHistory", &context);
    types.check("ContextPoint", &context.points[0]);
    let said = turns.iter().find(|t| t.seq > 0).unwrap();
    types.check("TurnDetail", &memory::turn(&home, &said.code).unwrap());
    let word = said.messages[0]
        .text
        .split_whitespace()
        .find(|w| w.len() > 5 && w.chars().all(char::is_alphanumeric))
        .unwrap()
        .to_string();
    let hits = memory::search(&home, &word, None).unwrap();
    assert!(!hits.is_empty());
    hits.iter().for_each(|h| types.check("Hit", h));
    let what = Forget::Session(stored[0].session_id.clone());
    types.check(
        "ForgetPreview",
        &memory::forget_preview(&home, &what).unwrap(),
    );

    // The plan over time, as of a moment before the recorded window resets; a week at its
    // limit makes a limit hit.
    plan::record(
        &home,
        &PlanUsage {
            seven_day: Some(Window {
                used_percentage: 100.0,
                resets_at: Some(1_790_100_000),
            }),
            ..usage
        },
    )
    .unwrap();
    let history = plan::history::summary(&home, 1_789_990_000);
    assert!(!history.outlooks.is_empty() && !history.limit_hits.is_empty());
    types.check("PlanHistory", &history);
    // Who used a window that began before the fixture sessions.
    let used = throughline_engine::window_use::since(
        &Store::open_read_only(&home).unwrap(),
        1_700_000_000,
    )
    .unwrap();
    assert!(!used.is_empty());
    used.iter().for_each(|p| types.check("ProjectUse", p));
    let savings = injections::savings(&home).unwrap();
    types.check("Savings", &savings);
}
