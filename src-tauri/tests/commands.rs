//! What the app's commands do, against a store built from real Claude Code transcripts
//! imported the way `throughline import` does it.

mod support;

use std::path::Path;

use support::{capture, session_id, transcripts, SOON_AFTER};
use throughline::home::Home;
use throughline::store::Store;
use throughline_app::handoff;
use throughline_app::meter::{self, Level};

const HOURS_LATER: &str = "2026-11-30T12:00:00.000Z";

fn imported_store() -> (tempfile::TempDir, Home) {
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
        assert_eq!(m.window, 200_000);
        assert_eq!(m.percent as u64, (used * 100 + 100_000) / 200_000);
        assert_eq!(m.level, Level::of(m.percent));
        assert_eq!(m.model.as_deref(), Some("claude-opus-4-8"));
        assert!(m.turns > 0);
    }
    // Most recently active first: the session after `/clear` is the newer one.
    assert_eq!(meters[0].session_id, "0f1b393e-f41a-4e1e-9a85-60441f844f13");
}

#[test]
fn sessions_quiet_for_longer_than_the_live_window_drop_out() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    assert!(meter::read(&store, HOURS_LATER).unwrap().is_empty());
}

#[test]
fn without_a_store_the_snapshot_says_how_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = meter::snapshot(&Home::at(dir.path()));
    assert!(snapshot.sessions.is_empty());
    let problem = snapshot.problem.unwrap();
    assert!(problem.contains("throughline import"), "{problem}");
    assert!(
        !dir.path().join("throughline.db").exists(),
        "the app never creates the store"
    );
}

#[test]
fn the_busiest_session_drives_the_tray() {
    let (_dir, home) = imported_store();
    let store = Store::open_read_only(&home).unwrap();
    let snapshot = meter::Snapshot {
        sessions: meter::read(&store, SOON_AFTER).unwrap(),
        problem: None,
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
