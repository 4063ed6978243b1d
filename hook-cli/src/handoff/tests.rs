use std::io::Write;
use std::path::PathBuf;

use super::*;
use crate::model::Host;
use crate::store::InjectionFilter;

/// A temp store and transcripts, and a way to fire host events at them.
struct World {
    dir: tempfile::TempDir,
    home: Home,
    store: Store,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path().join("home"));
        let store = Store::open(&home).unwrap();
        World { dir, home, store }
    }

    fn transcript(&self, session: &str) -> PathBuf {
        self.dir.path().join(format!("{session}.jsonl"))
    }

    /// The person types `prompt` in `session` and the model answers `answer`.
    fn turn(&mut self, session: &str, cwd: &str, prompt: &str, answer: &str) -> Option<Reply> {
        let reply = self.fire(session, cwd, EventKind::UserPrompt, |e| {
            e.prompt = Some(prompt.into())
        });
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.transcript(session))
            .unwrap();
        let n = std::fs::read_to_string(self.transcript(session))
            .unwrap()
            .lines()
            .count();
        let user = serde_json::json!({"type": "user", "uuid": format!("{session}-{n}"), "cwd": cwd,
            "timestamp": format!("2026-11-30T10:{:02}:00.000Z", n % 60),
            "message": {"role": "user", "content": prompt}});
        let assistant = serde_json::json!({"type": "assistant", "uuid": format!("{session}-{n}a"),
            "timestamp": format!("2026-11-30T10:{:02}:01.000Z", n % 60),
            "message": {"id": format!("msg-{session}-{n}"), "model": "m", "content": [{"type": "text", "text": answer}],
                        "usage": {"input_tokens": 100, "output_tokens": 5}}});
        writeln!(f, "{user}\n{assistant}").unwrap();
        self.fire(session, cwd, EventKind::Stop, |_| {});
        reply
    }

    fn fire(
        &mut self,
        session: &str,
        cwd: &str,
        kind: EventKind,
        edit: impl FnOnce(&mut HookEvent),
    ) -> Option<Reply> {
        self.fire_with_pid(session, cwd, kind, None, edit)
    }

    fn fire_with_pid(
        &mut self,
        session: &str,
        cwd: &str,
        kind: EventKind,
        pid: Option<u32>,
        edit: impl FnOnce(&mut HookEvent),
    ) -> Option<Reply> {
        let mut event = HookEvent {
            host: Host::Claude,
            kind,
            session_id: session.into(),
            transcript_path: Some(self.transcript(session).to_string_lossy().into_owned()),
            cwd: Some(cwd.into()),
            source: None,
            reason: None,
            prompt_id: None,
            prompt: None,
            model: None,
            subagent: None,
        };
        edit(&mut event);
        capture::capture_event(&mut self.store, Host::Claude, &event, false).unwrap();
        let config = crate::config::load(&self.home).config;
        respond(&mut self.store, &self.home, &config, &event, || pid).unwrap()
    }

    /// `/clear` in the window running `old`: the host ends it and starts `new`.
    fn clear(&mut self, old: &str, new: &str, cwd: &str, prompt_id: Option<&str>) -> Option<Reply> {
        let id = prompt_id.map(str::to_string);
        let end_id = id.clone();
        self.fire_with_pid(old, cwd, EventKind::SessionEnd, Some(4242), |e| {
            e.reason = Some("clear".into());
            e.prompt_id = end_id;
        });
        self.fire_with_pid(new, cwd, EventKind::SessionStart, Some(4242), |e| {
            e.source = Some("clear".into());
            e.prompt_id = id;
        })
    }

    fn start(&mut self, session: &str, cwd: &str, source: &str) -> Option<Reply> {
        self.fire(session, cwd, EventKind::SessionStart, |e| {
            e.source = Some(source.into())
        })
    }
}

fn injected(reply: Option<Reply>) -> String {
    match reply {
        Some(Reply::Inject(text)) => text,
        other => panic!("expected an injection, got {other:?}"),
    }
}

#[test]
fn clear_links_by_prompt_id_and_injects_the_old_conversation() {
    let mut w = World::new();
    w.start("A", "/p", "startup");
    w.turn(
        "A",
        "/p",
        "Use port 8443 for staging.",
        "Noted: staging is on 8443.",
    );
    w.turn(
        "A",
        "/p",
        "Now fix the parser.",
        "Fixed src/parser.rs; 12 tests pass.",
    );
    let text = injected(w.clear("A", "B", "/p", Some("prompt-1")));
    assert!(text.contains("ran /clear"));
    assert!(
        text.contains("Now fix the parser.")
            && text.contains("Fixed src/parser.rs; 12 tests pass.")
    );
    assert!(text.contains("Use port 8443 for staging."));
    let log = w.store.injections(&InjectionFilter::default()).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].session_id.as_str(), log[0].chain.as_slice()),
        ("B", &["A".to_string()][..])
    );
    assert_eq!(log[0].verbatim.len(), 2);
}

#[test]
fn a_chain_reaches_back_through_every_clear_and_each_session_keeps_its_turns() {
    let mut w = World::new();
    w.turn("A", "/p", "first in A", "answer A");
    w.clear("A", "B", "/p", Some("c1"));
    w.turn("B", "/p", "first in B", "answer B");
    let text = injected(w.clear("B", "C", "/p", Some("c2")));
    assert!(
        text.contains("first in B") && text.contains("first in A"),
        "{text}"
    );
    let c = w.store.session("C").unwrap();
    let chain: Vec<String> = w
        .store
        .predecessors(&c)
        .unwrap()
        .into_iter()
        .map(|(s, _)| s.session_id)
        .collect();
    assert_eq!(chain, ["B", "A"]);
    assert_eq!(w.store.session("A").unwrap().turns, 1);
    assert_eq!(w.store.session("B").unwrap().turns, 1);
}

#[test]
fn two_windows_in_one_project_each_inherit_their_own_predecessor() {
    let mut w = World::new();
    w.turn("W1", "/p", "window one work", "one");
    w.turn("W2", "/p", "window two work", "two");
    let one = injected(w.clear("W1", "W1b", "/p", Some("x1")));
    let two = injected(w.clear("W2", "W2b", "/p", Some("x2")));
    assert!(one.contains("window one work") && !one.contains("window two work"));
    assert!(two.contains("window two work") && !two.contains("window one work"));
}

#[test]
fn without_a_prompt_id_the_host_process_links_the_pair() {
    let mut w = World::new();
    w.turn("A", "/p", "work before clear", "done");
    let text = injected(w.clear("A", "B", "/p", None));
    assert!(text.contains("work before clear"));
}

#[test]
fn resume_startup_and_unlinked_clears_get_nothing() {
    let mut w = World::new();
    w.turn("A", "/p", "some work", "done");
    assert_eq!(w.start("A", "/p", "resume"), None);
    assert_eq!(w.start("N", "/p", "startup"), None);
    assert_eq!(
        w.turn("N", "/p", "a new topic", "ok"),
        None,
        "no trigger, no memory"
    );
    // A SessionStart(clear) whose SessionEnd was never seen has no predecessor.
    assert_eq!(
        w.fire("Z", "/p", EventKind::SessionStart, |e| {
            e.source = Some("clear".into());
            e.prompt_id = Some("unknown".into());
        }),
        None
    );
}

#[test]
fn tl_is_blocked_taken_by_the_first_real_prompt_and_never_by_a_ghost() {
    let mut w = World::new();
    w.turn("A", "/p", "design the cache", "LRU with 64 entries.");
    match w.turn("A", "/p", "/tl", "unused") {
        Some(Reply::Block(msg)) => {
            assert!(msg.contains("handoff ready"), "{msg}");
            // The person reads it on their own clock: no UTC time, how long it waits.
            assert!(msg.contains("within 60 minutes"), "{msg}");
            let clock_time = msg
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_digit() && w[1] == b':');
            assert!(!clock_time, "{msg}");
        }
        other => panic!("{other:?}"),
    }
    // A ghost start and a session in another project take nothing.
    assert_eq!(w.start("ghost", "/p", "startup"), None);
    assert_eq!(w.turn("other", "/q", "elsewhere", "ok"), None);
    w.start("B", "/p", "startup");
    let text = injected(w.turn("B", "/p", "continue", "ok"));
    assert!(text.contains("handed this work over") && text.contains("LRU with 64 entries."));
    // Taken once: the next new session gets nothing.
    assert_eq!(w.turn("C", "/p", "another", "ok"), None);
    assert_eq!(
        w.store
            .predecessors(&w.store.session("B").unwrap())
            .unwrap()[0]
            .1,
        Trigger::Handoff
    );
}

#[test]
fn a_cancelled_or_stale_handoff_is_ignored() {
    let mut w = World::new();
    w.turn("A", "/p", "work", "done");
    w.turn("A", "/p", "/tl", "");
    assert!(
        matches!(w.turn("A", "/p", "/tl cancel", ""), Some(Reply::Block(m)) if m.contains("cancelled"))
    );
    assert_eq!(w.turn("B", "/p", "new", "ok"), None);

    w.turn("A", "/p", "/tl", "");
    // An hour and a minute later.
    std::env::set_var(
        crate::clock::NOW_ENV,
        crate::clock::later(&crate::clock::now(), Duration::from_secs(3660)),
    );
    let stale = w.turn("C", "/p", "much later", "ok");
    std::env::remove_var(crate::clock::NOW_ENV);
    assert_eq!(stale, None);
}

#[test]
fn compaction_brings_back_the_sessions_own_recent_turns() {
    let mut w = World::new();
    w.turn("A", "/p", "step one", "one done");
    w.turn("A", "/p", "step two", "two done");
    let text = injected(w.start("A", "/p", "compact"));
    assert!(
        text.contains("just compacted") && text.contains("step two") && text.contains("one done")
    );
}
