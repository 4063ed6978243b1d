use super::*;
use crate::{Cursor, Injection, Trigger};
use throughline_core::home::Home;
use throughline_core::model::DetailKind;
use throughline_core::record::{Back, Record};

/// A word that is in the store only where a test put it.
const SECRET: &str = "zebracornsecret";

struct Memory {
    _dir: tempfile::TempDir,
    home: Home,
    store: Store,
}

/// Sessions of projects /p (s1: three turns, s2: two) and /q (s3: one turn), a day apart; the
/// second turn of s1 holds [`SECRET`] in its prompt, answer and tool output, and s2 received
/// it in an injection. Everything is indexed.
fn memory() -> Memory {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let mut store = Store::open(&home, &[]).unwrap();
    let sessions = [
        ("s1", "/p", "2026-11-01", 3),
        ("s2", "/p", "2026-11-02", 2),
        ("s3", "/q", "2026-11-03", 1),
    ];
    for (id, project, day, turns) in sessions {
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, id, Some(project), None)
            .unwrap();
        let mut turn = None;
        for n in 1..=turns {
            let at = Some(format!("{day}T1{n}:00:00.000Z"));
            let word = if (id, n) == ("s1", 2) {
                SECRET
            } else {
                "plain"
            };
            let records = [
                Record::Prompt {
                    key: format!("u:{n}"),
                    text: format!("prompt {n} of {id}: {word}"),
                    at: at.clone(),
                },
                Record::Answer {
                    key: format!("a:{n}"),
                    text: format!("answer {n} of {id}: {word}"),
                    at: at.clone(),
                },
                Record::Detail {
                    key: format!("r:{n}"),
                    kind: DetailKind::ToolResult,
                    name: None,
                    tool_use_id: Some(format!("t{n}")),
                    body: format!("output {n} of {id}: {word}"),
                    is_error: false,
                    at: at.clone(),
                },
            ];
            for r in &records {
                w.apply(&mut s, &mut turn, r).unwrap();
            }
            w.touch_session(s.id, at.as_deref(), at.as_deref()).unwrap();
        }
        w.save_cursor(
            &format!("/t/{id}.jsonl"),
            s.id,
            &Cursor {
                offset: 100,
                file_id: "1:1".into(),
                turn,
                line_order: Some("{}".into()),
                tail_mark: Some(7),
            },
        )
        .unwrap();
        w.commit().unwrap();
    }
    let secret_turn = code(&store, "s1", 2);
    let w = store.write().unwrap();
    let s2 = w.session_of("s2").unwrap();
    w.record_injection(
        s2,
        &Injection {
            id: 0,
            session_id: "s2".into(),
            project: Some("/p".into()),
            trigger: Trigger::Clear,
            at: "2026-11-02T10:00:00.000Z".into(),
            chain: vec!["s1".into()],
            budget: 9500,
            size: 100,
            verbatim: vec![secret_turn],
            one_liners: vec![],
            one_liners_by: vec![],
            left_out: 0,
            text: format!("memory: {SECRET}"),
            more: None,
        },
    )
    .unwrap();
    w.commit().unwrap();
    store.index_pending().unwrap();
    Memory {
        _dir: dir,
        home,
        store,
    }
}

fn code(store: &Store, session: &str, seq: u32) -> String {
    let s = store.session(session).unwrap();
    store
        .turns(&s)
        .unwrap()
        .into_iter()
        .find(|t| t.seq == seq)
        .unwrap()
        .code
}

fn count(store: &Store, sql: &str) -> i64 {
    store.conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn found_by_search(store: &Store, word: &str) -> i64 {
    count(
        store,
        &format!(
            "SELECT (SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '\"{word}\"')
                  + (SELECT count(*) FROM details_fts WHERE details_fts MATCH '\"{word}\"')"
        ),
    )
}

/// Whether the database file, its WAL included, holds `word` anywhere.
fn file_holds(home: &Home, word: &str) -> bool {
    let db = home.db_path();
    [db.clone(), db.with_extension("db-wal")].iter().any(|p| {
        std::fs::read(p)
            .map(|bytes| memchr::memmem::find(&bytes, word.as_bytes()).is_some())
            .unwrap_or(false)
    })
}

#[test]
fn a_turn_is_previewed_then_forgotten_from_every_layer_the_index_and_the_file() {
    let Memory {
        _dir,
        home,
        mut store,
    } = memory();
    store.checkpoint().unwrap();
    assert!(file_holds(&home, SECRET), "the test's word is stored first");
    assert_eq!(found_by_search(&store, SECRET), 3);

    let scope = Scope::Turn(code(&store, "s1", 2));
    let preview = store.forget_preview(&scope).unwrap();
    let expected = Preview {
        sessions: 0,
        turns: 1,
        messages: 2,
        details: 1,
        text_bytes: ("prompt 2 of s1: ".len()
            + "answer 2 of s1: ".len()
            + "output 2 of s1: ".len()
            + 3 * SECRET.len()) as u64,
        injections: 1,
        projects: vec!["/p".into()],
        earliest: Some("2026-11-01T12:00:00.000Z".into()),
        latest: Some("2026-11-01T12:00:00.000Z".into()),
    };
    assert_eq!(preview, expected);

    let forgotten = store.forget(&scope).unwrap();
    assert_eq!(forgotten.removed, expected);
    assert!(forgotten.wal_emptied);
    assert_eq!(found_by_search(&store, SECRET), 0);
    assert_eq!(found_by_search(&store, "plain"), 5 * 2 + 5);
    assert!(!file_holds(&home, SECRET), "the bytes are overwritten");
    let s1 = store.session("s1").unwrap();
    let seqs: Vec<u32> = store.turns(&s1).unwrap().iter().map(|t| t.seq).collect();
    assert_eq!(seqs, [1, 3], "the other turns stay");
    assert_eq!(count(&store, "SELECT count(*) FROM injections"), 0);
    // Complete turns have a one-liner: s1's first, s2's first (s1's second is forgotten).
    assert_eq!(count(&store, "SELECT count(*) FROM summaries"), 2);
    assert!(store.forget_preview(&scope).is_err(), "the turn is gone");
}

#[test]
fn a_session_goes_whole_and_its_transcript_is_not_read_back_in() {
    let Memory {
        _dir, mut store, ..
    } = memory();
    let scope = Scope::Session("s1".into());
    let preview = store.forget_preview(&scope).unwrap();
    assert_eq!((preview.sessions, preview.turns), (1, 3));
    assert_eq!((preview.messages, preview.details), (6, 3));
    store.forget(&scope).unwrap();
    assert!(store.session("s1").is_err());
    assert_eq!(
        count(
            &store,
            "SELECT count(*) FROM messages WHERE text LIKE '%of s1%'"
        ),
        0
    );
    assert_eq!(found_by_search(&store, "of s1"), 0);
    // The cursor keeps its offset, so the next hook goes on after what was forgotten, and
    // no longer points at a turn or holds lines.
    let (offset, turn, held): (i64, Option<i64>, Option<String>) = store
        .conn
        .query_row(
            "SELECT offset, turn, line_order FROM cursors WHERE path = '/t/s1.jsonl'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((offset, turn, held), (100, None, None));
    assert_eq!(count(&store, "SELECT count(*) FROM sessions"), 2);
    assert_eq!(
        count(&store, "SELECT count(*) FROM injections"),
        0,
        "s2's injection held s1's text"
    );

    // A session captured again after being forgotten starts afresh.
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    let mut turn = None;
    w.apply(
        &mut s,
        &mut turn,
        &Record::Prompt {
            key: "u:9".into(),
            text: "later".into(),
            at: None,
        },
    )
    .unwrap();
    w.commit().unwrap();
    assert_eq!(store.turns(&store.session("s1").unwrap()).unwrap().len(), 1);
}

#[test]
fn a_project_and_everything_before_a_time() {
    let Memory {
        _dir, mut store, ..
    } = memory();
    let before = Scope::Before("2026-11-02T11:30:00.000Z".into());
    let preview = store.forget_preview(&before).unwrap();
    // s1 entirely (last active on the 1st), and s2's first turn.
    assert_eq!((preview.sessions, preview.turns), (1, 4));
    store.forget(&before).unwrap();
    assert!(store.session("s1").is_err());
    let s2 = store.session("s2").unwrap();
    assert_eq!(store.turns(&s2).unwrap().len(), 1);

    let project = Scope::Project("/p".into());
    let preview = store.forget_preview(&project).unwrap();
    assert_eq!((preview.sessions, preview.turns), (1, 1));
    assert_eq!(preview.projects, ["/p"]);
    store.forget(&project).unwrap();
    assert!(store.projects().unwrap().iter().all(|p| p.project != "/p"));
    assert_eq!(store.session("s3").unwrap().turns, 1, "other projects stay");
    assert!(store.forget_preview(&project).unwrap().is_empty());
}

#[test]
fn a_session_counts_as_many_turns_to_forget_as_it_lists() {
    let Memory {
        _dir, mut store, ..
    } = memory();
    // What a client writes before the first prompt (a `/clear`) goes to the session's
    // preamble, which is no turn of its own.
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s4", Some("/q"), None)
        .unwrap();
    let mut turn = None;
    let records = [
        Record::Detail {
            key: "c:1".into(),
            kind: DetailKind::Command,
            name: None,
            tool_use_id: None,
            body: "<command-name>/clear</command-name>".into(),
            is_error: false,
            at: None,
        },
        Record::Prompt {
            key: "u:1".into(),
            text: "only prompt".into(),
            at: None,
        },
    ];
    for r in &records {
        w.apply(&mut s, &mut turn, r).unwrap();
    }
    w.commit().unwrap();

    let listed = store.session("s4").unwrap().turns;
    assert_eq!(listed, 1);
    let scope = Scope::Session("s4".into());
    let preview = store.forget_preview(&scope).unwrap();
    assert_eq!(preview.turns, listed, "{preview:?}");
    assert_eq!(
        (preview.messages, preview.details),
        (1, 1),
        "the preamble's entries go too"
    );
    assert_eq!(store.forget(&scope).unwrap().removed, preview);
}

#[test]
fn sessions_by_age_list_the_oldest_first_with_their_size() {
    let Memory {
        _dir, mut store, ..
    } = memory();
    let by_age = store.sessions_by_age(None).unwrap();
    let ids: Vec<i64> = by_age.iter().map(|s| s.id).collect();
    let s1 = store.session("s1").unwrap().id;
    assert_eq!(ids[0], s1);
    assert!(
        by_age[0].text_bytes > by_age[2].text_bytes,
        "three turns against one"
    );
    store
        .forget(&Scope::Sessions {
            ids: vec![s1],
            kept_from: None,
        })
        .unwrap();
    assert_eq!(store.sessions_by_age(None).unwrap().len(), 2);
}

#[test]
fn a_rolled_back_turn_leaves_the_index_pages_too() {
    let Memory {
        _dir, mut store, ..
    } = memory();
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s3", None, None)
        .unwrap();
    let mut turn = None;
    w.apply(
        &mut s,
        &mut turn,
        &Record::Prompt {
            key: "u:2".into(),
            text: format!("second {SECRET}"),
            at: None,
        },
    )
    .unwrap();
    w.commit().unwrap();
    store.index_pending().unwrap();
    assert_eq!(found_by_search(&store, SECRET), 4);
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s3", None, None)
        .unwrap();
    w.apply(&mut s, &mut None, &Record::Rollback(Back::Turns(1)))
        .unwrap();
    w.commit().unwrap();
    assert_eq!(found_by_search(&store, SECRET), 3);
    // The FTS5 option is on: a delete rewrote the index instead of adding a marker.
    let secure: i64 = count(
        &store,
        "SELECT count(*) FROM messages_fts_config WHERE k = 'secure-delete' AND v = 1",
    );
    assert_eq!(secure, 1);
}

#[test]
fn copies_left_in_free_space_by_an_older_version_go_at_the_first_forget() {
    let Memory {
        _dir,
        home,
        mut store,
    } = memory();
    assert_eq!(
        count(&store, "SELECT count(*) FROM unwiped_free_space"),
        0,
        "a store made by this version has nothing to wipe"
    );
    // As an older version left a deleted text: unlinked, not zeroed.
    const OLD_COPY: &str = "walrusoldcopy";
    store
        .conn
        .execute_batch(&format!(
            "PRAGMA secure_delete = OFF;
             CREATE TABLE scratch (text TEXT);
             INSERT INTO scratch VALUES ('{OLD_COPY}');
             DROP TABLE scratch;
             PRAGMA secure_delete = ON;
             INSERT INTO unwiped_free_space VALUES ('2026-11-30T10:00:00.000Z');"
        ))
        .unwrap();
    store.checkpoint().unwrap();
    assert!(file_holds(&home, OLD_COPY));

    store.forget(&Scope::Turn(code(&store, "s1", 2))).unwrap();
    assert!(!file_holds(&home, OLD_COPY), "the file was rewritten");
    assert!(!file_holds(&home, SECRET));
    assert_eq!(
        count(&store, "SELECT count(*) FROM unwiped_free_space"),
        0,
        "once"
    );
}
