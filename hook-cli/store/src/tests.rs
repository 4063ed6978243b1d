use std::os::unix::fs::PermissionsExt;

use super::search::RANKED_TERMS;
use super::write::COMMIT_EVERY;
use super::*;
use throughline_core::model::DetailKind;
use throughline_core::record::Record;

fn temp_store() -> (tempfile::TempDir, Home, Store) {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::at(dir.path().join("home"));
    let store = Store::open(&home, &[]).unwrap();
    (dir, home, store)
}

#[test]
fn database_and_folder_are_owner_only() {
    let (_dir, home, _store) = temp_store();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(home.dir()), 0o700);
    assert_eq!(mode(&home.db_path()), 0o600);
}

#[test]
fn reopening_does_not_migrate_again() {
    let (_dir, home, store) = temp_store();
    drop(store);
    let store = Store::open(&home, &[]).unwrap();
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, schema::VERSION);
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn a_newer_schema_is_refused_with_advice() {
    let (_dir, home, store) = temp_store();
    store.conn.pragma_update(None, "user_version", 99).unwrap();
    drop(store);
    let err = Store::open(&home, &[]).err().unwrap().to_string();
    assert!(err.contains("upgrade throughline"), "{err}");
}

#[test]
fn read_only_open_of_a_missing_store_says_how_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let err = Store::open_read_only(&Home::at(dir.path()))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("first hook call"), "{err}");
}

#[test]
fn turn_codes_are_short_stable_and_distinct() {
    let a = write::turn_code(throughline_hosts::claude::HOST, "s1", "u:1");
    assert_eq!(
        a,
        write::turn_code(throughline_hosts::claude::HOST, "s1", "u:1")
    );
    assert_ne!(
        a,
        write::turn_code(throughline_hosts::claude::HOST, "s1", "u:2")
    );
    assert_ne!(
        a,
        write::turn_code(throughline_hosts::claude::HOST, "s2", "u:1")
    );
    assert!(a
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
}

#[test]
fn records_store_once_and_land_in_the_open_turn() {
    let (_dir, _home, mut store) = temp_store();
    let prompt = Record::Prompt {
        key: "u:1".into(),
        text: "hi".into(),
        at: None,
    };
    let answer = Record::Answer {
        key: "a:1".into(),
        text: "hello".into(),
        at: None,
    };
    let result = Record::Detail {
        key: "r:t1".into(),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some("t1".into()),
        body: "out".into(),
        is_error: false,
        at: None,
    };
    for _ in 0..2 {
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
            .unwrap();
        let mut turn = None;
        for r in [&prompt, &answer, &result] {
            w.apply(&mut s, &mut turn, r).unwrap();
        }
        w.commit().unwrap();
    }
    let session = store.session("s1").unwrap();
    let turns = store.turns(&session).unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].messages.len(), 2);
    let detail = store.turn_detail(&turns[0].code).unwrap();
    assert_eq!(detail.details.len(), 1);
    assert_eq!(detail.details[0].body, "out");
}

#[test]
fn entries_before_the_first_prompt_go_to_turn_zero() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", None, None)
        .unwrap();
    let mut turn = None;
    let caveat = Record::Detail {
        key: "e:1".into(),
        kind: DetailKind::Command,
        name: None,
        tool_use_id: None,
        body: "<command-name>/clear</command-name>".into(),
        is_error: false,
        at: None,
    };
    w.apply(&mut s, &mut turn, &caveat).unwrap();
    w.apply(
        &mut s,
        &mut turn,
        &Record::Prompt {
            key: "u:1".into(),
            text: "go".into(),
            at: None,
        },
    )
    .unwrap();
    w.commit().unwrap();
    let session = store.session("s1").unwrap();
    let turns = store.turns(&session).unwrap();
    assert_eq!(turns.iter().map(|t| t.seq).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(session.turns, 1, "turn zero is not counted as a turn");
}

#[test]
fn session_and_turn_lookups_by_prefix() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    for id in ["abc111", "abc222"] {
        let mut s = w
            .session(throughline_hosts::claude::HOST, id, None, None)
            .unwrap();
        w.apply(
            &mut s,
            &mut None,
            &Record::Prompt {
                key: "u:1".into(),
                text: "x".into(),
                at: None,
            },
        )
        .unwrap();
    }
    w.commit().unwrap();
    assert_eq!(store.session("abc1").unwrap().session_id, "abc111");
    assert!(store
        .session("abc")
        .unwrap_err()
        .to_string()
        .contains("several"));
    assert!(store
        .session("zzz")
        .unwrap_err()
        .to_string()
        .contains("throughline sessions"));
    let code = store.turns(&store.session("abc111").unwrap()).unwrap()[0]
        .code
        .clone();
    assert_eq!(store.turn_detail(&code[..5]).unwrap().turn.code, code);
    assert!(store
        .turn_detail("ab")
        .unwrap_err()
        .to_string()
        .contains("at least 4"));
}

#[test]
fn searching_a_memory_without_the_index_says_what_adds_it() {
    let (_dir, _home, store) = temp_store();
    store
        .conn
        .execute_batch("DROP TABLE messages_fts; DROP TABLE details_fts;")
        .unwrap();
    let filter = SearchFilter {
        limit: 5,
        ..SearchFilter::default()
    };
    let matcher = Matcher {
        fts: Some("\"word\""),
        index: Index::Trigram,
        contains: &[],
        every_term: &[],
        any_term: &[],
    };
    let err = store.search(&matcher, &filter).unwrap_err().to_string();
    assert!(
        err.contains("next hook call or `throughline import`"),
        "{err}"
    );
}

/// A code name searched beside a word that more than `COMMON_ENTRIES` entries hold: the
/// ranking leaves the common word out, yet every entry found holds both, in the order a
/// ranking on both gives.
#[test]
fn a_common_word_beside_a_rare_one_is_required_but_not_ranked_on() {
    let (_dir, _home, mut store) = temp_store();
    let mut texts: Vec<String> = (0..1_100).map(|n| format!("deploy notes {n}")).collect();
    texts.push("halcyon-58 deploy, and halcyon-58 again".into());
    texts.push("halcyon-58 deploy".into());
    texts.push("halcyon-58 without the other word".into());
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    for (n, text) in texts.iter().enumerate() {
        w.apply(&mut s, &mut None, &prompt(&format!("u:{n}"), text))
            .unwrap();
    }
    w.commit().unwrap();
    store.index_pending().unwrap();
    let filter = SearchFilter {
        limit: 10,
        shown: 1,
        now: "2026-12-01T00:00:00Z".into(),
        ..SearchFilter::default()
    };
    let terms = ["\"halcyon-58\"".to_string(), "\"deploy\"".to_string()];
    let fts = terms.join(" ");
    let matcher = Matcher {
        fts: Some(&fts),
        index: Index::Trigram,
        contains: &[],
        every_term: &terms,
        any_term: &[],
    };
    let fts_table = super::search::fts_table(throughline_core::model::Layer::L2, Index::Trigram);
    assert_eq!(
        store.rarer_terms(fts_table, &matcher).unwrap().as_deref(),
        Some("\"halcyon-58\""),
        "deploy is common"
    );
    let texts = |matcher: &Matcher| -> Vec<String> {
        let (found, _) = store.search(matcher, &filter).unwrap();
        found.into_iter().map(|m| m.text).collect()
    };
    let on_both = Matcher {
        every_term: &[],
        ..matcher.clone()
    };
    let mut found = texts(&matcher);
    assert_eq!(found, texts(&on_both));
    found.sort();
    assert_eq!(
        found,
        [
            "halcyon-58 deploy",
            "halcyon-58 deploy, and halcyon-58 again"
        ]
    );
}

/// A store of prompts, `(session, project, text)` each.
fn store_of_prompts(prompts: &[(&str, &str, &str)]) -> (tempfile::TempDir, Store) {
    let (dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    for (n, (session, project, text)) in prompts.iter().enumerate() {
        let mut s = w
            .session(
                throughline_hosts::claude::HOST,
                session,
                Some(project),
                None,
            )
            .unwrap();
        w.apply(&mut s, &mut None, &prompt(&format!("u:{n}"), text))
            .unwrap();
    }
    w.commit().unwrap();
    store.index_pending().unwrap();
    (dir, store)
}

/// Any of many terms: the entries of the search's scope holding the most of them, however many
/// terms there are (above `RANKED_TERMS`, the newest of them first, unranked).
#[test]
fn any_of_many_terms_finds_the_entries_holding_the_most_of_them() {
    let (_dir, store) = store_of_prompts(&[
        ("s1", "/p", "alpha beta gamma"),
        ("s1", "/p", "alpha beta"),
        ("s1", "/p", "gamma and more gamma"),
        ("s1", "/p", "delta"),
        ("s2", "/other", "alpha beta gamma delta"),
    ]);
    let filter = SearchFilter {
        project: Some("/p".into()),
        limit: 10,
        shown: 1,
        now: "2026-12-01T00:00:00Z".into(),
        ..SearchFilter::default()
    };
    let search = |terms: &[String]| -> Vec<String> {
        let fts = terms.join(" OR ");
        let matcher = Matcher {
            fts: Some(&fts),
            index: Index::Trigram,
            contains: &[],
            every_term: &[],
            any_term: terms,
        };
        let (found, _) = store.search(&matcher, &filter).unwrap();
        found.into_iter().map(|m| m.text).collect()
    };
    let quoted =
        |words: &[&str]| -> Vec<String> { words.iter().map(|w| format!("\"{w}\"")).collect() };
    let few = quoted(&["alpha", "beta", "gamma", "delta"]);
    assert_eq!(search(&few), ["alpha beta gamma"]);
    let absent: Vec<String> = (0..RANKED_TERMS)
        .map(|n| format!("\"absent{n}\""))
        .collect();
    let many: Vec<String> = few.iter().chain(&absent).cloned().collect();
    assert_eq!(search(&many), ["alpha beta gamma"]);
    assert!(search(&absent).is_empty());
}

/// However many terms are required, BM25 ranks on at most `RANKED_TERMS` of them, the rarest.
#[test]
fn a_ranking_weighs_at_most_the_rarest_terms() {
    let mut prompts: Vec<String> = (0..1_100).map(|n| format!("common words {n}")).collect();
    let rare: Vec<String> = (0..RANKED_TERMS + 3)
        .map(|n| format!("rare{n:02}"))
        .collect();
    prompts.push(format!("common {}", rare.join(" ")));
    let rows: Vec<(&str, &str, &str)> = prompts.iter().map(|p| ("s1", "/p", p.as_str())).collect();
    let (_dir, store) = store_of_prompts(&rows);
    let fts_table = super::search::fts_table(throughline_core::model::Layer::L2, Index::Trigram);
    let rank_on = |terms: &[String]| {
        let fts = terms.join(" ");
        let matcher = Matcher {
            fts: Some(&fts),
            index: Index::Trigram,
            contains: &[],
            every_term: terms,
            any_term: &[],
        };
        store.rarer_terms(fts_table, &matcher).unwrap()
    };
    let quoted: Vec<String> = rare.iter().map(|w| format!("\"{w}\"")).collect();
    let all = rank_on(&quoted).unwrap();
    assert_eq!(all.split(' ').count(), RANKED_TERMS);
    // The common word is left out first.
    let with_common: Vec<String> = std::iter::once("\"common\"".to_string())
        .chain(quoted[..3].iter().cloned())
        .collect();
    assert_eq!(
        rank_on(&with_common).as_deref(),
        Some(quoted[..3].join(" ").as_str())
    );
    assert_eq!(rank_on(&quoted[..3]), None);
}

#[test]
fn hooks_do_not_index_and_a_search_indexes_only_what_is_new() {
    let (_dir, _home, mut store) = temp_store();
    let add = |store: &mut Store, key: &str| {
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
            .unwrap();
        let prompt = Record::Prompt {
            key: key.into(),
            text: format!("needle {key}"),
            at: None,
        };
        w.apply(&mut s, &mut None, &prompt).unwrap();
        w.commit().unwrap();
    };
    let indexed = |store: &Store| -> i64 {
        store
            .conn
            .query_row(
                "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '\"needle\"'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    add(&mut store, "u:1");
    assert_eq!(indexed(&store), 0, "capture leaves indexing to searches");
    let added = |n| Indexed {
        added: n,
        behind: false,
    };
    assert_eq!(store.index_pending().unwrap(), added(1));
    assert_eq!(store.index_pending().unwrap(), added(0));
    add(&mut store, "u:2");
    assert_eq!(store.index_pending().unwrap(), added(1));
    assert_eq!(indexed(&store), 2);
}

#[test]
fn live_sessions_are_the_unended_ones_active_since_the_cutoff() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    for (id, last) in [
        ("recent", "2026-11-30T10:00:00.000Z"),
        ("older", "2026-11-30T09:45:00.000Z"),
        ("stale", "2026-11-30T08:00:00.000Z"),
        ("ended", "2026-11-30T10:05:00.000Z"),
    ] {
        let s = w
            .session(throughline_hosts::claude::HOST, id, None, None)
            .unwrap();
        w.touch_session(s.id, Some(last), Some(last)).unwrap();
        if id == "ended" {
            w.session_ended(s.id, Some("clear"), last).unwrap();
        }
    }
    w.commit().unwrap();
    let live: Vec<String> = store
        .live_sessions("2026-11-30T09:30:00.000Z")
        .unwrap()
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert_eq!(live, ["recent", "older"]);
}

#[test]
fn sessions_with_turns_leave_out_those_never_prompted() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    let mut said = w
        .session(throughline_hosts::claude::HOST, "said", None, None)
        .unwrap();
    w.session(throughline_hosts::claude::HOST, "silent", None, None)
        .unwrap();
    let mut turn = None;
    w.apply(&mut said, &mut turn, &prompt("u1", "hello"))
        .unwrap();
    w.commit().unwrap();
    let ids = |with_turns| -> Vec<String> {
        let filter = SessionFilter {
            with_turns,
            ..SessionFilter::default()
        };
        let mut ids: Vec<String> = store
            .sessions(&filter)
            .unwrap()
            .into_iter()
            .map(|s| s.session_id)
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(false), ["said", "silent"]);
    assert_eq!(ids(true), ["said"]);
}

fn prompt(key: &str, text: &str) -> Record {
    Record::Prompt {
        key: key.into(),
        text: text.into(),
        at: None,
    }
}

fn prompts_of(home: &Home, session: &str) -> Vec<String> {
    let store = Store::open_read_only(home).unwrap();
    let session = store.session(session).unwrap();
    let turns = store.turns(&session).unwrap();
    turns.iter().map(|t| t.messages[0].text.clone()).collect()
}

#[test]
fn a_bulk_writer_has_its_commits_copied_into_the_database_file_in_the_background() {
    let (_dir, home, mut store) = temp_store();
    let marker = "a-line-only-the-wal-holds-until-a-checkpoint";
    let in_database_file = || {
        let bytes = fs::read(home.db_path()).unwrap();
        bytes.windows(marker.len()).any(|w| w == marker.as_bytes())
    };
    let write_marker = |store: &mut Store, key: &str| {
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
            .unwrap();
        w.apply(&mut s, &mut None, &prompt(key, marker)).unwrap();
        w.commit().unwrap();
    };
    write_marker(&mut store, "u:1");
    assert!(!in_database_file(), "a hook's commit stays in the WAL");
    store.copy_in_background().unwrap();
    write_marker(&mut store, "u:2");
    // Dropping the store waits for the copy that commit started.
    drop(store);
    assert!(in_database_file());
    // The copy is passive: the WAL stays for the writer to empty, and the rows read back.
    let wal = fs::metadata(format!("{}-wal", home.db_path().display())).unwrap();
    assert!(wal.len() > 0);
    assert_eq!(prompts_of(&home, "s1"), [marker, marker]);
}

#[test]
fn a_writer_that_commits_partway_keeps_what_it_committed() {
    let (_dir, home, mut store) = temp_store();
    store.copy_in_background().unwrap();
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    let mut turn = None;
    w.apply(&mut s, &mut turn, &prompt("u:1", "first")).unwrap();
    // (A commit is also due once the lock was held long enough: not asserted, it is time.)
    w.commit_due(1 << 20);
    assert_eq!(w.pending.get(), 1 << 20);
    assert!(w.commit_due(COMMIT_EVERY));
    w.commit_and_continue().unwrap();
    w.commit_due(1 << 20);
    assert_eq!(
        w.pending.get(),
        1 << 20,
        "the count starts again after a commit"
    );
    // A reader sees the committed part while the writer goes on.
    assert_eq!(prompts_of(&home, "s1"), ["first"]);
    w.apply(&mut s, &mut turn, &prompt("u:2", "second"))
        .unwrap();
    w.commit_and_continue().unwrap();
    w.apply(&mut s, &mut turn, &prompt("u:3", "never committed"))
        .unwrap();
    drop(w);
    assert_eq!(prompts_of(&home, "s1"), ["first", "second"]);
    // Turn numbers went on across the commits, and start again from what is stored.
    let w = store.write().unwrap();
    w.apply(&mut s, &mut turn, &prompt("u:4", "fourth"))
        .unwrap();
    w.commit().unwrap();
    let session = store.session("s1").unwrap();
    let seqs: Vec<u32> = store
        .turns(&session)
        .unwrap()
        .iter()
        .map(|t| t.seq)
        .collect();
    assert_eq!(seqs, [1, 2, 3]);
}

#[test]
fn foreign_keys_are_not_checked_on_insert() {
    // The bundled SQLite turns them on by default; every insert would look up its parents.
    let (_dir, _home, store) = temp_store();
    let enforced: bool = store
        .conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert!(!enforced);
}

#[test]
fn a_session_is_found_by_its_id_through_an_index() {
    // Hooks, verbs and the app look sessions up by the host's id; a scan would make every
    // hook call slower as sessions accumulate.
    let (_dir, _home, store) = temp_store();
    let plan: String = store
        .conn
        .query_row(
            "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE session_id = 'x'",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.starts_with("SEARCH"), "{plan}");
}

/// A host may append copies of earlier entries (same uuid, same message id) later in a
/// transcript: they are stored once, in the turn they first came in, and the open turn goes
/// on with its own one-liner.
#[test]
fn copies_of_earlier_entries_are_stored_once_where_they_first_were() {
    let (_dir, _home, mut store) = temp_store();
    let prompt = |k: &str, text: &str| Record::Prompt {
        key: format!("u:{k}"),
        text: text.into(),
        at: None,
    };
    let answer = |k: &str, text: &str| Record::Answer {
        key: format!("a:{k}"),
        text: text.into(),
        at: None,
    };
    let result = Record::Detail {
        key: "r:t1".into(),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some("t1".into()),
        body: "out".into(),
        is_error: false,
        at: None,
    };
    // What a reader sends: each turn's one-liner before the prompt that ends it, worked out
    // from the lines it read (so the copies are in the second one).
    let summary = |text: &str| Record::Summary { text: text.into() };
    let records = [
        prompt("1", "Which fruit?"),
        answer("m1", "Decision: apples, stored in crate 7."),
        result.clone(),
        summary("Which fruit? → apples"),
        prompt("2", "And the next one?"),
        answer("m2", "Bananas come next."),
        // The copies, then what the open turn still says.
        prompt("1", "Which fruit?"),
        answer("m1", "Decision: apples, stored in crate 7."),
        result,
        answer("m3", "Then cherries, in crate 9."),
        summary("And the next one? → apples, crate 7, cherries"),
        prompt("3", "Done?"),
    ];
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    let mut turn = None;
    for r in &records {
        w.apply(&mut s, &mut turn, r).unwrap();
    }
    w.commit().unwrap();

    let session = store.session("s1").unwrap();
    let turns = store.turns(&session).unwrap();
    let texts = |t: &throughline_core::model::Turn| -> Vec<String> {
        t.messages.iter().map(|m| m.text.clone()).collect()
    };
    assert_eq!(turns.len(), 3);
    assert_eq!(
        texts(&turns[0]),
        ["Which fruit?", "Decision: apples, stored in crate 7."]
    );
    assert_eq!(
        texts(&turns[1]),
        [
            "And the next one?",
            "Bananas come next.",
            "Then cherries, in crate 9."
        ]
    );
    assert_eq!(store.turn_detail(&turns[0].code).unwrap().details.len(), 1);
    assert!(store
        .turn_detail(&turns[1].code)
        .unwrap()
        .details
        .is_empty());
    let one_liner: String = store
        .conn
        .query_row(
            "SELECT m.text FROM summaries m JOIN turns t ON t.id = m.turn WHERE t.code = ?1",
            [&turns[1].code],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        one_liner.contains("crate 9") && !one_liner.contains("crate 7"),
        "{one_liner}"
    );
}

/// A resumed Claude Code 2.0.x writes earlier prompts again under new uuids, with their words
/// and times: they add no turn, while the same words sent at another time do.
#[test]
fn a_prompt_written_again_under_a_new_id_is_stored_once() {
    let (_dir, _home, mut store) = temp_store();
    let prompt = |k: &str, text: &str, at: &str| Record::Prompt {
        key: format!("u:{k}"),
        text: text.into(),
        at: Some(at.into()),
    };
    let answer = |k: &str, text: &str| Record::Answer {
        key: format!("a:{k}"),
        text: text.into(),
        at: None,
    };
    let at = |minute: u32| format!("2026-11-30T08:{minute:02}:00.000Z");
    let records = [
        prompt("1", "Which fruit?", &at(1)),
        answer("m1", "Apples."),
        prompt("2", "Go on.", &at(2)),
        answer("m2", "Bananas."),
        prompt("3", "Go on.", &at(3)),
        answer("m3", "Cherries."),
        // The resume's copies, out of order, then a new prompt.
        prompt("1c", "Which fruit?", &at(1)),
        prompt("3c", "Go on.", &at(3)),
        prompt("2c", "Go on.", &at(2)),
        prompt("4", "Go on.", &at(9)),
        answer("m4", "Dates."),
    ];
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    let mut turn = None;
    for r in &records {
        w.apply(&mut s, &mut turn, r).unwrap();
    }
    // Read again from the start (a transcript replaced): nothing more.
    let mut turn = None;
    for r in &records {
        w.apply(&mut s, &mut turn, r).unwrap();
    }
    w.commit().unwrap();

    let session = store.session("s1").unwrap();
    let turns: Vec<Vec<String>> = store
        .turns(&session)
        .unwrap()
        .iter()
        .map(|t| t.messages.iter().map(|m| m.text.clone()).collect())
        .collect();
    assert_eq!(
        turns,
        [
            ["Which fruit?", "Apples."],
            ["Go on.", "Bananas."],
            ["Go on.", "Cherries."],
            ["Go on.", "Dates."],
        ]
    );
}

#[test]
fn a_cleared_session_awaits_its_memory_until_it_has_a_prompt_or_was_given_one() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    let old = w
        .session(throughline_hosts::gemini::HOST, "old", Some("/p"), None)
        .unwrap();
    let mut new = w
        .session(throughline_hosts::gemini::HOST, "new", Some("/p"), None)
        .unwrap();
    let handed = w
        .session(throughline_hosts::gemini::HOST, "handed", Some("/p"), None)
        .unwrap();
    let given = w
        .session(throughline_hosts::gemini::HOST, "given", Some("/p"), None)
        .unwrap();
    w.link(new.id, old.id, Trigger::Clear, "t").unwrap();
    w.link(handed.id, old.id, Trigger::Handoff, "t").unwrap();
    w.link(given.id, old.id, Trigger::Clear, "t").unwrap();
    w.record_injection(
        given.id,
        &Injection {
            id: 0,
            session_id: "given".into(),
            project: None,
            trigger: Trigger::Clear,
            at: "t".into(),
            chain: vec!["old".into()],
            budget: 9_500,
            size: 1,
            verbatim: Vec::new(),
            one_liners: Vec::new(),
            one_liners_by: Vec::new(),
            left_out: 0,
            text: "m".into(),
            more: None,
        },
    )
    .unwrap();
    w.commit().unwrap();
    let awaits = |store: &Store, id| store.awaits_clear_memory(id).unwrap();
    assert!(awaits(&store, "new"));
    // Not after /clear, given its memory already, not linked at all, not stored.
    assert!(!awaits(&store, "handed"));
    assert!(!awaits(&store, "given"));
    assert!(!awaits(&store, "old"));
    assert!(!awaits(&store, "unknown"));
    // The session context before the first prompt is no prompt; the prompt ends the wait.
    let w = store.write().unwrap();
    let mut turn = None;
    let context = Record::Detail {
        key: "e:0".into(),
        kind: DetailKind::Attachment,
        name: Some("session_context".into()),
        tool_use_id: None,
        body: "<session_context>".into(),
        is_error: false,
        at: None,
    };
    w.apply(&mut new, &mut turn, &context).unwrap();
    w.commit().unwrap();
    assert!(awaits(&store, "new"));
    let w = store.write().unwrap();
    let prompt = Record::Prompt {
        key: "u:1".into(),
        text: "go".into(),
        at: None,
    };
    w.apply(&mut new, &mut turn, &prompt).unwrap();
    w.commit().unwrap();
    assert!(!awaits(&store, "new"));
}

#[test]
fn a_session_of_a_client_this_build_does_not_know_is_left_out_not_read_as_another() {
    let (_dir, _home, mut store) = temp_store();
    for id in ["known", "newer"] {
        let w = store.write().unwrap();
        w.session(throughline_hosts::codex::HOST, id, Some("/p"), None)
            .unwrap();
        w.commit().unwrap();
    }
    // As a newer build would store a sixth client's session.
    store
        .conn
        .execute(
            "UPDATE sessions SET host = 'opencode' WHERE session_id = 'newer'",
            [],
        )
        .unwrap();
    let listed: Vec<String> = store
        .sessions(&SessionFilter::default())
        .unwrap()
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert_eq!(listed, ["known"]);
    assert_eq!(
        store.session("known").unwrap().host,
        throughline_hosts::codex::HOST
    );
    assert!(matches!(
        store.session("newer"),
        Err(StoreError::NotFound(_))
    ));
    assert!(store
        .live_sessions("")
        .unwrap()
        .iter()
        .all(|s| s.session_id == "known"));
}

/// A key printed in two tool outputs of one turn (`head -c`, then `tail -c`, each its own hook
/// call): the first ends inside it and is caught by its name; the second begins with the rest,
/// which is caught because the output before it ended in a placeholder. An output that begins
/// with a word after one that ended in a placeholder stays.
#[test]
fn the_rest_of_a_secret_cut_by_the_end_of_an_output_is_redacted_too() {
    let (_dir, _home, mut store) = temp_store();
    let first_part = "sk_live_4eC39HqLy";
    let rest = "jWDarjtT1zdp7dc";
    let result = |n: usize, body: &str| Record::Detail {
        key: format!("r:t{n}"),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some(format!("t{n}")),
        body: body.into(),
        is_error: false,
        at: None,
    };
    let calls = [
        vec![
            prompt("u:1", "print the env file in two parts"),
            result(1, &format!("STRIPE_SECRET_KEY={first_part}")),
        ],
        vec![result(2, &format!("{rest}\nDEBUG=true"))],
        vec![result(
            3,
            "token is gho_placeholder [see STRIPE_SECRET_KEY=sk_live_x9Y8z7W6v5]",
        )],
        vec![result(4, "Compiling app v0.1.0\nFinished")],
    ];
    // The turn stays open from one hook call to the next, as a reader's cursor keeps it.
    let mut turn = None;
    for records in &calls {
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
            .unwrap();
        for r in records {
            w.apply(&mut s, &mut turn, r).unwrap();
        }
        w.commit().unwrap();
    }
    let session = store.session("s1").unwrap();
    let turns = store.turns(&session).unwrap();
    let detail = store.turn_detail(&turns[0].code).unwrap();
    let bodies: Vec<&str> = detail.details.iter().map(|d| d.body.as_str()).collect();
    assert_eq!(bodies[0], "STRIPE_SECRET_KEY=[REDACTED:stripe-key]");
    assert_eq!(bodies[1], "[REDACTED:stripe-key]\nDEBUG=true");
    assert_eq!(bodies[3], "Compiling app v0.1.0\nFinished");
    assert!(bodies.iter().all(|b| !b.contains("jWDar")), "{bodies:?}");
    let counted: i64 = store
        .conn
        .query_row(
            "SELECT count FROM redactions WHERE kind = 'stripe-key'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(counted, 3, "each half and the third output's key");
}

/// A key given in a prompt, where a rule sees it, and repeated in a later answer, in backticks
/// where none would: the answer, its one-liner and the next session's copy of it are
/// redacted too, by the key's mark; a UUID never found as a secret stays.
#[test]
fn a_secret_found_once_is_redacted_wherever_it_comes_again() {
    let (_dir, _home, mut store) = temp_store();
    let key = "cc6f7947-2054-479b-ae49-f3fa1c57f3d8";
    let plain = "5d3b1c2e-8f4a-4b6c-9d7e-0a1b2c3d4e5f";
    let answer = |key: &str, text: &str| Record::Answer {
        key: key.into(),
        text: text.into(),
        at: None,
    };
    let calls = [
        (
            "s1",
            vec![prompt(
                "u:1",
                &format!("Add the api key {key} to a new .env"),
            )],
        ),
        (
            "s1",
            vec![
                answer(
                    "a:1",
                    &format!("I've created the `.env` file with your key (`{key}`)."),
                ),
                Record::Summary {
                    text: format!("saved {key} in .env, session {plain}"),
                },
            ],
        ),
        (
            "s2",
            vec![prompt(
                "u:2",
                &format!("is {key}. still in .env? see {plain}"),
            )],
        ),
    ];
    // A turn stays open from one hook call to the next, as a reader's cursor keeps it.
    let mut turns = std::collections::HashMap::new();
    for (session, records) in &calls {
        let turn = turns.entry(*session).or_insert(None);
        let w = store.write().unwrap();
        let mut s = w
            .session(throughline_hosts::claude::HOST, session, Some("/p"), None)
            .unwrap();
        for r in records {
            w.apply(&mut s, turn, r).unwrap();
        }
        w.commit().unwrap();
    }
    let texts: Vec<String> = ["s1", "s2"]
        .iter()
        .flat_map(|id| {
            let session = store.session(id).unwrap();
            store.turns(&session).unwrap()
        })
        .flat_map(|t| t.messages.into_iter().map(|m| m.text))
        .collect();
    assert_eq!(
        texts,
        [
            "Add the api key [REDACTED:secret-in-prose] to a new .env",
            "I've created the `.env` file with your key (`[REDACTED:secret-seen-before]`).",
            &format!("is [REDACTED:secret-seen-before]. still in .env? see {plain}"),
        ]
    );
    let lines: Vec<String> = store
        .conn
        .prepare("SELECT text FROM summaries")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        lines,
        [format!(
            "saved [REDACTED:secret-seen-before] in .env, session {plain}"
        )]
    );
    // The store keeps the key's mark, never the key.
    let kept: i64 = store
        .conn
        .query_row("SELECT count(*) FROM secret_marks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, 1);
}

/// A tool's output: `body`, as the call `t{n}` returned it.
fn tool_output(n: u32, body: String) -> Record {
    Record::Detail {
        key: format!("r:{n}"),
        kind: DetailKind::ToolResult,
        name: None,
        tool_use_id: Some(format!("t{n}")),
        body,
        is_error: false,
        at: None,
    }
}

/// Session `s2` prints the staging env and gets `STAGING_KEY=<key>` back: a rule finds the key
/// there. It continues session `continues` (after `/clear`) when one is given.
fn name_the_key(store: &mut Store, key: &str, continues: Option<i64>) {
    let mut turn = None;
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s2", Some("/p"), None)
        .unwrap();
    if let Some(old) = continues {
        w.link(s.id, old, Trigger::Clear, "t").unwrap();
    }
    let output = tool_output(1, format!("STAGING_KEY={key}"));
    for r in [prompt("u:2", "print the staging env"), output] {
        w.apply(&mut s, &mut turn, &r).unwrap();
    }
    w.commit().unwrap();
}

/// How many prompts and answers the trigram index finds for `query`.
fn prompts_matching(store: &Store, query: &str) -> i64 {
    store
        .conn
        .query_row(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?1",
            [query],
            |r| r.get(0),
        )
        .unwrap()
}

/// Neither the database file nor its WAL holds `key`.
fn assert_no_copy_in_files(store: &Store, key: &str) {
    for file in ["", "-wal"] {
        let mut path = store.path().as_os_str().to_owned();
        path.push(file);
        let bytes = std::fs::read(&path).unwrap_or_default();
        let copies = bytes
            .windows(key.len())
            .filter(|w| *w == key.as_bytes())
            .count();
        assert_eq!(copies, 0, "{copies} copies in {path:?}");
    }
}

/// A key pasted in prose, where no rule sees it, and named later (`STAGING_KEY=` in a tool's
/// output): the prompt, its one-liner and the search indexes that held them lose it then,
/// and the rest of their words stay searchable.
#[test]
fn a_secret_found_late_is_redacted_in_what_the_session_stored_before() {
    let (_dir, _home, mut store) = temp_store();
    let key = "q8XvT3mKz9Lw2RbN7cYp4HsD";
    let first = format!("the staging deploy uses {key} from now on");
    let output = tool_output(1, format!("STAGING_KEY={key}\nREGION=eu-west-1"));
    let mut turn = None;
    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    w.apply(&mut s, &mut turn, &prompt("u:1", &first)).unwrap();
    w.commit().unwrap();
    assert_eq!(
        store.turns(&store.session("s1").unwrap()).unwrap()[0].messages[0].text,
        first,
        "no rule sees it in prose"
    );
    store.index_pending().unwrap();

    let w = store.write().unwrap();
    let mut s = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    for r in [prompt("u:2", "print the staging env"), output] {
        w.apply(&mut s, &mut turn, &r).unwrap();
    }
    w.commit().unwrap();

    let turns = store.turns(&store.session("s1").unwrap()).unwrap();
    assert_eq!(
        turns[0].messages[0].text,
        "the staging deploy uses [REDACTED:secret-seen-before] from now on"
    );
    let stored: Vec<String> = store
        .conn
        .prepare("SELECT text FROM summaries UNION ALL SELECT body FROM details")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(stored.iter().all(|t| !t.contains(key)), "{stored:?}");
    let matches = |query: &str| prompts_matching(&store, query);
    assert_eq!(matches("\"q8XvT3mK\""), 0);
    assert_eq!(matches("\"staging deploy\""), 1);
    for index in ["messages_fts", "messages_words"] {
        store
            .conn
            .execute(
                &format!("INSERT INTO {index} ({index}) VALUES ('integrity-check')"),
                [],
            )
            .unwrap();
    }
    // Nor does the file keep a copy: not in the pages rewritten, not in the WAL's older frames.
    assert_no_copy_in_files(&store, key);
}

/// The same, across a `/clear`: the key pasted before it is lost from the session the new one
/// continues, and from the memory that session handed on.
#[test]
fn a_secret_found_late_is_redacted_in_the_sessions_this_one_continues() {
    let (_dir, _home, mut store) = temp_store();
    let key = "Hq7ZmR2xVb9TkW4nLc8PsY3d";
    let first = format!("the staging deploy uses {key} from now on");
    let mut turn = None;
    let w = store.write().unwrap();
    let mut old = w
        .session(throughline_hosts::claude::HOST, "s1", Some("/p"), None)
        .unwrap();
    w.apply(&mut old, &mut turn, &prompt("u:1", &first))
        .unwrap();
    w.commit().unwrap();

    name_the_key(&mut store, key, Some(old.id));

    let turns = store.turns(&store.session("s1").unwrap()).unwrap();
    assert_eq!(
        turns[0].messages[0].text,
        "the staging deploy uses [REDACTED:secret-seen-before] from now on"
    );
    assert_no_copy_in_files(&store, key);
}

/// And in a session of its own, by the run hooks start: the key pasted in prose in another
/// project is lost from its prompt, detail and search index once a later session
/// names it, and the file keeps no copy.
#[test]
fn a_secret_found_late_is_redacted_in_every_session_by_a_scrub() {
    let (_dir, _home, mut store) = temp_store();
    let key = "Vn4KpX8qRz2TbW7mYc3LsH9d";
    let first = format!("deploy with {key} tonight");
    let mut turn = None;
    let w = store.write().unwrap();
    let mut other = w
        .session(
            throughline_hosts::claude::HOST,
            "elsewhere",
            Some("/other"),
            None,
        )
        .unwrap();
    let echoed = tool_output(0, format!("using {key}"));
    for r in [prompt("u:1", &first), echoed] {
        w.apply(&mut other, &mut turn, &r).unwrap();
    }
    w.commit().unwrap();
    store.index_pending().unwrap();
    assert_eq!(store.secrets_waiting().unwrap(), 0);

    name_the_key(&mut store, key, None);
    // The hook's writer reads only the chain: the other session still holds the key.
    let stored = |store: &Store| -> Vec<String> {
        store
            .conn
            .prepare(
                "SELECT text FROM messages UNION ALL SELECT body FROM details
                 UNION ALL SELECT text FROM summaries",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    assert!(stored(&store).iter().any(|t| t.contains(key)));
    assert_eq!(store.secrets_waiting().unwrap(), 1);

    let done = store.scrub_secrets().unwrap();
    assert_eq!(
        (done.secrets, done.rows, done.wal_emptied),
        (1, 2, true),
        "the prompt and the output (the open turn has no one-liner yet)"
    );
    let texts = stored(&store);
    assert!(texts.iter().all(|t| !t.contains(key)), "{texts:?}");
    assert!(texts.contains(&"deploy with [REDACTED:secret-seen-before] tonight".to_string()));
    let matches = |query: &str| prompts_matching(&store, query);
    assert_eq!(matches("\"Vn4KpX8q\""), 0);
    assert_eq!(matches("\"tonight\""), 1);
    assert_no_copy_in_files(&store, key);
    // Done once: the next run has nothing to look for.
    assert_eq!(store.secrets_waiting().unwrap(), 0);
    assert_eq!(
        store.scrub_secrets().unwrap(),
        Scrubbed {
            secrets: 0,
            rows: 0,
            wal_emptied: true
        }
    );
}

/// A memory handed on after `/clear` (in two parts) is one, with the predecessor's last
/// request before it and the successor's requests from it on; a compaction's is measured
/// within its own session.
#[test]
fn each_memory_handed_on_comes_with_the_requests_around_it() {
    let (_dir, _home, mut store) = temp_store();
    let call = |id: &str, at: &str, context: u64| Record::ApiCall {
        message_id: id.into(),
        model: None,
        usage: throughline_core::model::Usage {
            input: 10,
            cache_creation: 0,
            cache_read: context - 10,
            output: 5,
        },
        sidechain: false,
        at: Some(at.into()),
    };
    let injection = |trigger: Trigger, at: &str, text: &str| Injection {
        id: 0,
        session_id: String::new(),
        project: None,
        trigger,
        at: at.into(),
        chain: Vec::new(),
        budget: 9_500,
        size: text.len() as u32,
        verbatim: Vec::new(),
        one_liners: Vec::new(),
        one_liners_by: Vec::new(),
        left_out: 0,
        text: text.into(),
        more: None,
    };
    let w = store.write().unwrap();
    let mut old = w
        .session(throughline_hosts::claude::HOST, "old", Some("/p"), None)
        .unwrap();
    let mut new = w
        .session(throughline_hosts::claude::HOST, "new", Some("/p"), None)
        .unwrap();
    let mut turn = None;
    for r in [
        prompt("u:1", "start"),
        call("m1", "2026-12-02T10:00:00Z", 90_000),
        call("m2", "2026-12-02T10:10:00Z", 150_000),
    ] {
        w.apply(&mut old, &mut turn, &r).unwrap();
    }
    w.link(new.id, old.id, Trigger::Clear, "2026-12-02T10:20:00Z")
        .unwrap();
    w.record_injection(
        new.id,
        &injection(Trigger::Clear, "2026-12-02T10:20:00Z", &"a".repeat(4_000)),
    )
    .unwrap();
    w.record_injection(
        new.id,
        &injection(Trigger::Clear, "2026-12-02T10:20:05Z", &"b".repeat(400)),
    )
    .unwrap();
    let mut turn = None;
    for r in [
        prompt("u:2", "go on"),
        call("m3", "2026-12-02T10:21:00Z", 21_000),
        call("m4", "2026-12-02T10:30:00Z", 40_000),
    ] {
        w.apply(&mut new, &mut turn, &r).unwrap();
    }
    // Later the new session compacts: measured against its own last request.
    w.record_injection(
        new.id,
        &injection(Trigger::Compact, "2026-12-02T10:40:00Z", "c"),
    )
    .unwrap();
    w.apply(
        &mut new,
        &mut turn,
        &call("m5", "2026-12-02T10:41:00Z", 12_000),
    )
    .unwrap();
    w.commit().unwrap();

    let handed = store.memories_handed("2026-12-02T00:00:00Z").unwrap();
    let seen: Vec<(&str, u64, Option<u64>, &[u64])> = handed
        .iter()
        .map(|h| {
            (
                h.trigger.as_str(),
                h.injected_tokens,
                h.before,
                h.after.as_slice(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("clear", 1_100, Some(150_000), &[21_000, 40_000, 12_000][..]),
            ("compact", 1, Some(40_000), &[12_000][..]),
        ]
    );
    assert!(store
        .memories_handed("2026-12-03T00:00:00Z")
        .unwrap()
        .is_empty());
}

#[test]
fn a_sessions_context_marks_the_clear_that_ended_it_once_however_it_is_known() {
    let (_dir, _home, mut store) = temp_store();
    let call = |id: &str, at: &str| Record::ApiCall {
        message_id: id.into(),
        model: None,
        usage: throughline_core::model::Usage {
            input: 10,
            cache_creation: 0,
            cache_read: 50_000,
            output: 5,
        },
        sidechain: false,
        at: Some(at.into()),
    };
    let w = store.write().unwrap();
    let mut made = Vec::new();
    for id in ["cleared", "successor", "unlinked", "exited"] {
        let mut session = w
            .session(throughline_hosts::claude::HOST, id, Some("/p"), None)
            .unwrap();
        let mut turn = None;
        for r in [
            prompt(&format!("u:{id}"), "start"),
            call(&format!("{id}1"), "2026-12-02T10:00:00Z"),
            call(&format!("{id}2"), "2026-12-02T10:10:00Z"),
        ] {
            w.apply(&mut session, &mut turn, &r).unwrap();
        }
        made.push(session.id);
    }
    let [cleared, successor, unlinked, exited] = made[..] else {
        unreachable!()
    };
    // /clear as Claude Code runs it: SessionEnd(clear), then the next session's start links it.
    w.session_ended(cleared, Some("clear"), "2026-12-02T10:15:00Z")
        .unwrap();
    w.link(successor, cleared, Trigger::Clear, "2026-12-02T10:15:01Z")
        .unwrap();
    // The next session's start found nothing to link: the SessionEnd alone says so.
    w.session_ended(unlinked, Some("clear"), "2026-12-02T10:16:00Z")
        .unwrap();
    w.session_ended(exited, Some("prompt_input_exit"), "2026-12-02T10:17:00Z")
        .unwrap();
    w.commit().unwrap();

    let marks = |id: &str| {
        let session = store.session(id).unwrap();
        let (points, marks) = store.context_history(&session).unwrap();
        assert_eq!(points.len(), 2);
        marks
            .into_iter()
            .map(|m| (m.kind, m.at, m.before_point))
            .collect::<Vec<_>>()
    };
    // After its last request, where the chart ends.
    assert_eq!(
        marks("cleared"),
        [(MarkKind::Clear, "2026-12-02T10:15:01Z".to_string(), 2)]
    );
    assert_eq!(
        marks("unlinked"),
        [(MarkKind::Clear, "2026-12-02T10:16:00Z".to_string(), 2)]
    );
    // The session /clear started, and one that ended otherwise, were not cleared.
    assert!(marks("successor").is_empty());
    assert!(marks("exited").is_empty());
}

#[test]
fn a_handoff_whose_first_part_was_given_is_taken_expired_but_never_closed() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    let host = throughline_hosts::claude::HOST;
    let from = w.session(host, "from", Some("/p"), None).unwrap().id;
    let to = w.session(host, "to", Some("/p"), None).unwrap().id;
    let (made, expires, later) = (
        "2026-11-30T10:00:00.000Z",
        "2026-11-30T11:00:00.000Z",
        "2026-11-30T12:00:00.000Z",
    );
    w.offer_handoff(from, made, expires).unwrap();
    assert_eq!(w.take_handoff("/p", to, later).unwrap(), None, "expired");
    assert_eq!(w.take_handoff_of("/p", "other", to, later).unwrap(), None);
    assert_eq!(
        w.take_handoff_of("/p", "from", to, later).unwrap(),
        Some(from)
    );
    assert_eq!(
        w.take_handoff_of("/p", "from", to, later).unwrap(),
        None,
        "taken"
    );
    w.offer_handoff(from, made, expires).unwrap();
    w.close_handoffs("/p", made, "cancelled").unwrap();
    assert_eq!(
        w.take_handoff_of("/p", "from", to, made).unwrap(),
        None,
        "cancelled"
    );
}

#[test]
fn a_waiting_part_keeps_an_unconfirmed_first_part_even_without_a_second() {
    let (_dir, _home, mut store) = temp_store();
    let w = store.write().unwrap();
    let to = w
        .session(throughline_hosts::claude::HOST, "to", Some("/p"), None)
        .unwrap()
        .id;
    let first = Injection {
        id: 0,
        session_id: "to".into(),
        project: Some("/p".into()),
        trigger: Trigger::Handoff,
        at: "2026-11-30T10:00:00.000Z".into(),
        chain: vec!["from".into()],
        budget: 9500,
        size: 12,
        verbatim: vec!["abc1234".into()],
        one_liners: Vec::new(),
        one_liners_by: Vec::new(),
        left_out: 0,
        text: "# the memory".into(),
        more: None,
    };
    // Whole in one part, and confirmed: nothing waits.
    w.wait_with_part(to, &first, 0, false).unwrap();
    assert!(w.take_waiting_part(to, "now").unwrap().is_none());
    w.wait_with_part(to, &first, 0, true).unwrap();
    let waiting = w.take_waiting_part(to, "now").unwrap().unwrap();
    assert!(waiting.part.is_none());
    let kept = waiting.unconfirmed_first.unwrap();
    assert_eq!(
        (kept.text, kept.at, kept.verbatim),
        (first.text.clone(), first.at.clone(), first.verbatim.clone())
    );
    let split = Injection {
        more: Some("# part 2".into()),
        ..first
    };
    w.wait_with_part(to, &split, 8, false).unwrap();
    let waiting = w.take_waiting_part(to, "now").unwrap().unwrap();
    assert!(waiting.unconfirmed_first.is_none());
    assert_eq!(
        waiting.part.map(|p| (p.text, p.size, p.at)),
        Some(("# part 2".to_string(), 8, "now".to_string()))
    );
    // A session that ends before its first prompt leaves nothing waiting.
    w.wait_with_part(to, &split, 8, true).unwrap();
    w.session_ended(to, Some("prompt_input_exit"), "later")
        .unwrap();
    assert!(w.take_waiting_part(to, "later").unwrap().is_none());
}
