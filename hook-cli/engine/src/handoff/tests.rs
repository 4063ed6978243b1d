use std::io::Write;
use std::path::PathBuf;

use super::*;
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
        let store = crate::open_store(&home).unwrap();
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
        self.fire_in(None, session, cwd, kind, edit)
    }

    /// A hook event fired by the host process `process` (`None`: none could be found).
    fn fire_in(
        &mut self,
        process: Option<HostProcess>,
        session: &str,
        cwd: &str,
        kind: EventKind,
        edit: impl FnOnce(&mut HookEvent),
    ) -> Option<Reply> {
        let mut event = HookEvent {
            host: crate::hosts::claude::HOST,
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
            trigger: None,
            answer: None,
        };
        edit(&mut event);
        capture::capture_event(&mut self.store, crate::hosts::claude::HOST, &event, false).unwrap();
        let config = crate::config::load(&self.home).config;
        respond(&mut self.store, &self.home, &config, &event, || process).unwrap()
    }

    /// `/clear` in the window running `old`, as Claude Code 2.1.197 does it: the host ends
    /// it and starts `new`, both events carrying `prompt_id`.
    fn clear(&mut self, old: &str, new: &str, cwd: &str, prompt_id: Option<&str>) -> Option<Reply> {
        self.clear_in(WINDOW, old, new, cwd, prompt_id, prompt_id)
    }

    /// `/clear` in the window of host process `process`, with the prompt ids the host sends
    /// at SessionEnd and at SessionStart.
    fn clear_in(
        &mut self,
        process: HostProcess,
        old: &str,
        new: &str,
        cwd: &str,
        end_prompt_id: Option<&str>,
        start_prompt_id: Option<&str>,
    ) -> Option<Reply> {
        self.end_by_clear(process, old, cwd, end_prompt_id);
        self.start_by_clear(process, new, cwd, start_prompt_id)
    }

    fn end_by_clear(&mut self, process: HostProcess, old: &str, cwd: &str, id: Option<&str>) {
        self.fire_in(Some(process), old, cwd, EventKind::SessionEnd, |e| {
            e.reason = Some("clear".into());
            e.prompt_id = id.map(str::to_string);
        });
    }

    fn start_by_clear(
        &mut self,
        process: HostProcess,
        new: &str,
        cwd: &str,
        id: Option<&str>,
    ) -> Option<Reply> {
        self.fire_in(Some(process), new, cwd, EventKind::SessionStart, |e| {
            e.source = Some("clear".into());
            e.prompt_id = id.map(str::to_string);
        })
    }

    fn start_in(&mut self, process: HostProcess, session: &str, cwd: &str) -> Option<Reply> {
        self.fire_in(Some(process), session, cwd, EventKind::SessionStart, |e| {
            e.source = Some("startup".into())
        })
    }

    fn start(&mut self, session: &str, cwd: &str, source: &str) -> Option<Reply> {
        self.fire(session, cwd, EventKind::SessionStart, |e| {
            e.source = Some(source.into())
        })
    }
}

/// The Claude Code process of the window most tests run in.
const WINDOW: HostProcess = HostProcess {
    pid: 4242,
    started: 1_000,
};

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
fn a_session_start_without_the_prompt_id_of_its_session_end_is_linked_by_the_process() {
    // Claude Code 2.1.332: SessionEnd(clear) carries `prompt_id`, SessionStart(clear) none.
    let mut w = World::new();
    w.start_in(WINDOW, "A", "/p");
    w.turn("A", "/p", "Use port 8443 for staging.", "Noted.");
    let text = injected(w.clear_in(WINDOW, "A", "B", "/p", Some("end-only"), None));
    assert!(text.contains("Use port 8443 for staging."), "{text}");
    // The prompt-id record went with the link: nothing is left to take twice.
    assert_eq!(
        w.fire("Z", "/p", EventKind::SessionStart, |e| {
            e.source = Some("clear".into());
            e.prompt_id = Some("end-only".into());
        }),
        None
    );
}

#[test]
fn a_cancelled_session_end_still_links_by_the_process_the_session_started_in() {
    let mut w = World::new();
    w.start_in(WINDOW, "A", "/p");
    w.turn("A", "/p", "work in A", "done");
    // The host gave up on the SessionEnd hook: only SessionStart(clear) arrives.
    let text = injected(w.start_by_clear(WINDOW, "B", "/p", None));
    assert!(text.contains("work in A"), "{text}");
    w.turn("B", "/p", "work in B", "done");
    let text = injected(w.start_by_clear(WINDOW, "C", "/p", None));
    assert!(
        text.contains("work in B") && text.contains("work in A"),
        "{text}"
    );
}

#[test]
fn windows_of_one_project_never_cross_whatever_the_order() {
    let one = HostProcess {
        pid: 100,
        started: 7,
    };
    let two = HostProcess {
        pid: 200,
        started: 8,
    };
    let mut w = World::new();
    w.start_in(one, "W1", "/p");
    w.start_in(two, "W2", "/p");
    w.turn("W1", "/p", "window one work", "one");
    w.turn("W2", "/p", "window two work", "two");
    // Window two clears first, then window one; neither sends a prompt id at SessionStart.
    w.end_by_clear(two, "W2", "/p", Some("e2"));
    w.end_by_clear(one, "W1", "/p", Some("e1"));
    let first = injected(w.start_by_clear(one, "W1b", "/p", None));
    let second = injected(w.start_by_clear(two, "W2b", "/p", None));
    assert!(first.contains("window one work") && !first.contains("window two work"));
    assert!(second.contains("window two work") && !second.contains("window one work"));
}

#[test]
fn a_restart_never_looks_like_a_clear() {
    let mut w = World::new();
    w.start_in(WINDOW, "A", "/p");
    w.turn("A", "/p", "work in A", "done");
    w.fire_in(Some(WINDOW), "A", "/p", EventKind::SessionEnd, |e| {
        e.reason = Some("prompt_input_exit".into())
    });
    // A new run of the client, even one that got the same pid back from the system.
    let again = HostProcess {
        pid: WINDOW.pid,
        started: WINDOW.started + 50,
    };
    assert_eq!(w.start_in(again, "B", "/p"), None);
    assert_eq!(w.turn("B", "/p", "fresh start", "ok"), None);
    assert_eq!(
        w.start_by_clear(
            HostProcess {
                pid: 999,
                started: 1
            },
            "C",
            "/p",
            None
        ),
        None,
        "a process that never ran a session has nothing to hand on"
    );
    let log = std::fs::read_to_string(w.home.log_path()).unwrap_or_default();
    assert!(
        log.contains("session C was started by /clear, but the session it cleared is not known"),
        "the miss is logged: {log}"
    );
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
    // A ghost start is given the first part, but takes nothing and logs nothing; a session
    // in another project gets nothing.
    let ghost = injected(w.start("ghost", "/p", "startup"));
    assert!(ghost.contains("LRU with 64 entries."), "{ghost}");
    assert!(injections(&w).is_empty());
    assert!(pending(&w.store, "/p").unwrap().is_some());
    assert_eq!(w.turn("other", "/q", "elsewhere", "ok"), None);
    let text = injected(w.start("B", "/p", "startup"));
    assert!(text.contains("handed this work over") && text.contains("LRU with 64 entries."));
    // The whole memory fitted in the first part: the first prompt takes the handoff only.
    assert_eq!(w.turn("B", "/p", "continue", "ok"), None);
    assert!(pending(&w.store, "/p").unwrap().is_none());
    let log = injections(&w);
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].session_id.as_str(), log[0].text.as_str()),
        ("B", text.as_str())
    );
    // Taken once: the next new session gets nothing, nor does the ghost when it prompts.
    assert_eq!(w.start("C", "/p", "startup"), None);
    assert_eq!(w.turn("C", "/p", "another", "ok"), None);
    assert_eq!(w.turn("ghost", "/p", "late", "ok"), None);
    assert!(predecessors(&w, "ghost").is_empty());
    assert_eq!(injections(&w).len(), 1);
    assert_eq!(predecessors(&w, "B")[0].1, Trigger::Handoff);
}

fn injections(w: &World) -> Vec<crate::store::Injection> {
    w.store.injections(&InjectionFilter::default()).unwrap()
}

fn predecessors(w: &World, session: &str) -> Vec<(Session, Trigger)> {
    w.store
        .predecessors(&w.store.session(session).unwrap())
        .unwrap()
}

/// A session whose memory takes more than one part: 40 turns of 600-character answers.
fn long_session(w: &mut World, session: &str) {
    for n in 0..40 {
        let answer = format!(
            "Step {n} is done: {}",
            "the importer reads one more table. ".repeat(17)
        );
        w.turn(
            session,
            "/p",
            &format!("go on with step {n} of the importer"),
            &answer,
        );
    }
}

#[test]
fn a_handoff_comes_in_two_parts_to_a_session_started_after_it() {
    let mut w = World::new();
    long_session(&mut w, "A");
    w.turn("A", "/p", "/tl", "");
    let preview = preview(&w.store, "A", Trigger::Handoff, &Config::default())
        .unwrap()
        .unwrap();
    let first = injected(w.start("B", "/p", "startup"));
    assert_eq!(first, preview.text);
    let second = injected(w.turn("B", "/p", "carry on", "ok"));
    assert_eq!(Some(&second), preview.more.as_ref());
    assert!(second.contains("part 2 of 2"), "{second}");
    // Both logged, in order, once the session prompted.
    let mut log = injections(&w);
    log.reverse();
    let logged: Vec<_> = log
        .iter()
        .map(|i| (i.trigger, i.chain.clone(), i.text.as_str()))
        .collect();
    assert_eq!(
        logged,
        [
            (Trigger::Handoff, vec!["A".to_string()], first.as_str()),
            (Trigger::Handoff, vec!["A".to_string()], second.as_str())
        ]
    );
}

#[test]
fn a_session_open_before_the_handoff_takes_it_whole_with_its_first_prompt() {
    let mut w = World::new();
    long_session(&mut w, "A");
    assert_eq!(w.start("B", "/p", "startup"), None);
    w.turn("A", "/p", "/tl", "");
    let whole = injected(w.turn("B", "/p", "carry on", "ok"));
    assert!(
        !whole.contains("part 1 of 2") && whole.contains("Step 39 is done"),
        "{whole}"
    );
    assert_eq!(injections(&w).len(), 1);
}

#[test]
fn a_session_given_the_first_part_whose_handoff_went_elsewhere_gets_nothing_more() {
    let mut w = World::new();
    long_session(&mut w, "A");
    w.turn("A", "/p", "/tl", "");
    injected(w.start("B", "/p", "startup"));
    injected(w.start("C", "/p", "startup"));
    assert!(injected(w.turn("B", "/p", "carry on", "ok")).contains("part 2 of 2"));
    // C started too but prompted second: B took the handoff.
    assert_eq!(w.turn("C", "/p", "me too", "ok"), None);
    let log = std::fs::read_to_string(w.home.log_path()).unwrap();
    assert!(log.contains("taken by another session"), "{log}");

    w.turn("A", "/p", "/tl", "");
    injected(w.start("D", "/p", "startup"));
    w.turn("A", "/p", "/tl cancel", "");
    assert_eq!(w.turn("D", "/p", "hello", "ok"), None);
    assert!(predecessors(&w, "D").is_empty());
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

#[test]
fn no_handoff_is_offered_where_capture_is_off() {
    let mut w = World::new();
    w.turn("A", "/p", "work", "done");
    let off = Config {
        capture_off: vec!["/p".into()],
        ..Config::default()
    };
    let refused = offer(&mut w.store, "A", &off).unwrap_err();
    assert!(matches!(refused, StoreError::Declined(_)), "{refused}");
    assert!(
        refused.to_string().contains("capture is off for /p"),
        "{refused}"
    );
    assert!(pending(&w.store, "/p").unwrap().is_none());
    // Elsewhere it still is.
    assert!(offer(&mut w.store, "A", &Config::default()).is_ok());
}

#[test]
fn the_preview_is_the_memory_the_next_chat_receives() {
    let mut w = World::new();
    w.turn(
        "A",
        "/p",
        "the deploy key is at vault path secret/deploy-7731",
        "noted",
    );
    w.turn("A", "/p", "more work", "done");
    let preview = preview(&w.store, "A", Trigger::Handoff, &Config::default())
        .unwrap()
        .unwrap();
    assert!(
        preview.text.contains("secret/deploy-7731"),
        "{}",
        preview.text
    );
    // Nothing was recorded or offered by looking.
    assert!(pending(&w.store, "/p").unwrap().is_none());
    offer(&mut w.store, "A", &Config::default()).unwrap();
    let received = injected(w.start("B", "/p", "startup"));
    assert_eq!(received, preview.text);
}

#[test]
fn with_fresh_instead_of_compact_the_clients_own_compaction_is_stopped_and_told_once() {
    let mut w = World::new();
    w.turn("A", "/p", "first step", "done");
    let pre_compact = |w: &mut World, trigger: &str| {
        w.fire("A", "/p", EventKind::PreCompact, |e| {
            e.trigger = Some(trigger.into())
        })
    };
    // Off by default: the client compacts as always.
    assert_eq!(pre_compact(&mut w, "auto"), None);
    crate::config::set(&w.home, "fresh_instead_of_compact", "on").unwrap();
    assert!(matches!(pre_compact(&mut w, "auto"), Some(Reply::Block(_))));
    // `/compact` is the person's own wish.
    assert_eq!(pre_compact(&mut w, "manual"), None);
    // A subagent that ends meanwhile does not take the notice.
    let subagent_stop = w.fire("A", "/p", EventKind::Stop, |e| {
        e.subagent = Some(crate::record::SubagentRef {
            agent_id: "a1".into(),
            transcript_path: None,
        })
    });
    assert_eq!(subagent_stop, None);
    // The turn goes on uncompacted; at its end the person is told, once.
    let told = w.fire("A", "/p", EventKind::Stop, |_| {});
    match told {
        Some(Reply::Notice(text)) => assert!(text.contains("/clear"), "{text}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(w.fire("A", "/p", EventKind::Stop, |_| {}), None);
}

#[test]
fn where_the_stop_ends_the_turn_the_stop_tells_and_a_host_that_cannot_stop_is_left_alone() {
    let mut w = World::new();
    w.turn("A", "/p", "first step", "done");
    crate::config::set(&w.home, "fresh_instead_of_compact", "on").unwrap();
    let pre_compact = |w: &mut World, host| {
        w.fire("A", "/p", EventKind::PreCompact, |e| {
            e.host = host;
            e.trigger = Some("auto".into())
        })
    };
    // Codex ends the turn at the stop and runs no Stop hook: the stop's reason, shown in
    // the session, is the notice.
    match pre_compact(&mut w, crate::hosts::codex::HOST) {
        Some(Reply::Block(text)) => assert!(
            text.contains("this turn stops here") && text.contains("/clear"),
            "{text}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(w.fire("A", "/p", EventKind::Stop, |_| {}), None);
    // Grok's PreCompact answer stops nothing: no stop is claimed at the turn's end.
    assert_eq!(pre_compact(&mut w, crate::hosts::grok::HOST), None);
    assert_eq!(w.fire("A", "/p", EventKind::Stop, |_| {}), None);
}
