use super::*;
use crate::home::Home;
use crate::model::Usage;
use crate::record::Record;

/// A five-hour window that began at 10:00 on 2026-12-02.
const STARTS: u64 = 1_796_205_600;

fn call(id: &str, at: &str, usage: Usage) -> Record {
    call_to("claude-opus-5-5", id, at, usage)
}

fn call_to(model: &str, id: &str, at: &str, usage: Usage) -> Record {
    Record::ApiCall {
        message_id: id.into(),
        model: Some(model.into()),
        usage,
        sidechain: false,
        at: Some(at.into()),
    }
}

/// Stores each `(session, project, first prompt, requests)` in a new store.
fn stored(sessions: &[(&str, &str, &str, Vec<Record>)]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path());
    let mut store = Store::open(&home, &[]).unwrap();
    for (id, project, prompt, calls) in sessions {
        let w = store.write().unwrap();
        let mut s = w
            .session(crate::hosts::claude::HOST, id, Some(project), None)
            .unwrap();
        let mut turn = None;
        let first = Record::Prompt {
            key: format!("u:{id}"),
            text: prompt.to_string(),
            at: Some("2026-12-02T09:00:00Z".into()),
        };
        for record in std::iter::once(&first).chain(calls) {
            w.apply(&mut s, &mut turn, record).unwrap();
        }
        // As ingest does: the session's span covers its records' times.
        let latest = calls.iter().filter_map(Record::at).max();
        w.touch_session(s.id, first.at(), latest).unwrap();
        w.commit().unwrap();
    }
    (dir, store)
}

fn usage(input: u64, cache_read: u64, output: u64) -> Usage {
    Usage {
        input,
        cache_creation: 0,
        cache_read,
        output,
    }
}

#[test]
fn the_window_is_shared_by_project_and_session_as_tokens_are_priced() {
    let sessions: [(&str, &str, &str, Vec<Record>); 4] = [
        // Before the window began: not counted.
        (
            "old",
            "/work/api",
            "an old chat",
            vec![call("m0", "2026-12-02T09:59:00Z", usage(9_000_000, 0, 0))],
        ),
        // 1,000 input and 1,000 output tokens: 6,000 priced as input.
        (
            "a",
            "/work/api",
            "fix the flaky build",
            vec![call("m1", "2026-12-02T10:30:00Z", usage(1_000, 0, 1_000))],
        ),
        // A context of 100,000 read twice from the cache, at a tenth: 2 × (1,000 + 10,000).
        (
            "b",
            "/work/toy",
            "add the retry",
            vec![
                call("m2", "2026-12-02T11:00:00Z", usage(1_000, 100_000, 0)),
                call("m3", "2026-12-02T11:05:00Z", usage(1_000, 100_000, 0)),
            ],
        ),
        (
            "c",
            "/work/api",
            "write the notes",
            vec![call("m4", "2026-12-02T12:00:00Z", usage(0, 0, 1_200))],
        ),
    ];
    let (_dir, store) = stored(&sessions);
    let used = since(&store, STARTS).unwrap();
    let shares: Vec<(Option<&str>, String)> = used
        .iter()
        .map(|p| (p.project.as_deref(), format!("{:.1}", p.share)))
        .collect();
    // toy: 22,000 of 34,000; api: 6,000 + 6,000.
    assert_eq!(
        shares,
        [
            (Some("/work/toy"), "64.7".into()),
            (Some("/work/api"), "35.3".into())
        ]
    );
    let api: Vec<&str> = used[1]
        .sessions
        .iter()
        .map(|s| s.session_id.as_str())
        .collect();
    assert_eq!(
        api.len(),
        2,
        "the session before the window is left out: {api:?}"
    );
    assert_eq!(used[0].sessions[0].title.as_deref(), Some("add the retry"));
    assert!(since(&store, STARTS + 86_400).unwrap().is_empty());
}

/// The same tokens from Opus 5.5 ($4 a million input tokens) and Haiku 4.5 ($1): four parts to
/// one. A session that ran both is one session.
#[test]
fn a_cheaper_model_takes_a_smaller_part_of_the_window() {
    let tokens = || usage(1_000, 0, 1_000);
    let (_dir, store) = stored(&[
        (
            "opus",
            "/work/api",
            "plan the migration",
            vec![call_to(
                "claude-opus-5-5",
                "m1",
                "2026-12-02T10:30:00Z",
                tokens(),
            )],
        ),
        (
            "both",
            "/work/toy",
            "triage the logs",
            vec![
                call_to(
                    "claude-haiku-4-5-20251001",
                    "m2",
                    "2026-12-02T10:40:00Z",
                    tokens(),
                ),
                call_to(
                    "claude-haiku-4-5-20251001",
                    "m3",
                    "2026-12-02T10:41:00Z",
                    tokens(),
                ),
                call_to("claude-opus-5-5", "m4", "2026-12-02T10:50:00Z", tokens()),
            ],
        ),
    ]);
    let used = since(&store, STARTS).unwrap();
    let shares: Vec<(Option<&str>, String, usize)> = used
        .iter()
        .map(|p| {
            (
                p.project.as_deref(),
                format!("{:.1}", p.share),
                p.sessions.len(),
            )
        })
        .collect();
    // toy: 2 × 1 + 4 = 6 parts of 10; api: 4.
    assert_eq!(
        shares,
        [
            (Some("/work/toy"), "60.0".into(), 1),
            (Some("/work/api"), "40.0".into(), 1)
        ]
    );
}
