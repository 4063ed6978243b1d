use super::*;
use crate::render::{self, Paint, Pointer};
use crate::test_memory::{store_with, Fixture, ToolRun};

fn request(query: &str) -> Request {
    Request {
        query: query.to_string(),
        limit: 10,
        ..Request::default()
    }
}

fn found(store: &Store, req: &Request) -> Vec<Hit> {
    search(store, req).unwrap().hits
}

/// A hit's lines with their matches between brackets.
fn marked(hit: &Hit) -> String {
    hit.excerpts
        .iter()
        .map(|x| {
            let chars: Vec<char> = x.text.chars().collect();
            let mut out = String::new();
            let mut at = 0;
            for [s, e] in &x.matches {
                out.extend(&chars[at..*s]);
                out.push('[');
                out.extend(&chars[*s..*e]);
                out.push(']');
                at = *e;
            }
            out.extend(&chars[at..]);
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn corpus() -> (tempfile::TempDir, Store) {
    store_with(&[
        Fixture {
            id: "old-session",
            project: "/p/alpha",
            at: "2025-01-10T10:00:00.000Z",
            turns: vec![(
                "Where is the retry policy configured?",
                "The retry policy lives in config/retry.toml.",
                vec![(
                    "Bash",
                    r#"{"command":"cat config/retry.toml"}"#,
                    "max_attempts = 7\nbackoff = \"exponential\"\n",
                )],
            )],
        },
        Fixture {
            id: "new-session",
            project: "/p/alpha",
            at: "2026-11-29T10:00:00.000Z",
            turns: vec![
                (
                    "Tune the retry policy for the uploader.",
                    "Raised the retry policy cap to 9 attempts.",
                    vec![],
                ),
                (
                    "データベースの移行はどこですか？",
                    "移行スクリプトは db/migrate にあります。",
                    vec![(
                        "Read",
                        r#"{"file_path":"db/migrate/001.sql"}"#,
                        "CREATE TABLE 顧客 (id INTEGER);\n-- 数据库迁移完成\n",
                    )],
                ),
            ],
        },
        Fixture {
            id: "other-project",
            project: "/p/beta",
            at: "2026-11-29T11:00:00.000Z",
            turns: vec![(
                "Deploy checklist please",
                "Checklist: build, tag, push. The retry policy is unrelated here.",
                vec![("Bash", r#"{"command":"ls"}"#, "ok\n")],
            )],
        },
    ])
}

#[test]
fn terms_keep_quoted_phrases_and_literal_punctuation() {
    assert_eq!(terms("  retry   policy "), ["retry", "policy"]);
    assert_eq!(terms(r#""retry policy" toml"#), ["retry policy", "toml"]);
    assert_eq!(terms(r#"foo"bar"#), [r#"foo"bar"#]);
    assert_eq!(terms(r#""unbalanced quote"#), [r#""unbalanced"#, "quote"]);
    assert_eq!(terms(r#""""#), Vec::<String>::new());
    assert!(terms(" \t ").is_empty());
    assert_eq!(terms("retry\0policy\u{7}"), ["retry", "policy"]);
}

#[test]
fn every_term_becomes_a_quoted_fts_string() {
    let expr = |q: &str| fts_expression(&terms(q));
    assert_eq!(
        expr("retry AND policy"),
        Some(r#""retry" "AND" "policy""#.into())
    );
    assert_eq!(
        expr(r#"say "hi there" foo"bar"#),
        Some(r#""say" "hi there" "foo""bar""#.into())
    );
    assert_eq!(
        expr("a b c"),
        None,
        "terms under three characters go to the short-word index"
    );
    assert_eq!(expr("移行 データベース"), Some(r#""データベース""#.into()));
}

#[test]
fn operator_like_input_never_breaks_the_query() {
    let (_dir, store) = corpus();
    for query in [
        r#"foo"bar"#,
        "AND",
        "OR",
        "NOT retry",
        "*",
        "(",
        ")",
        "retry*",
        "NEAR(retry policy)",
        r#""unbalanced"#,
        r#"a"b"c""#,
        "col:umn",
        "^start",
        "-minus +plus",
        "{braces}",
        "'single'",
        // Found by the search_query fuzz target: a NUL ended the quoted FTS5 string.
        "11111111\"tb\" sr05 \0\0\0ma",
        "retry\0policy",
        "\u{1b}[2Jretry",
    ] {
        if let Err(e) = search(&store, &request(query)) {
            panic!("{query:?} failed: {e}");
        }
    }
    // Operators are searched for as words, not obeyed: no entry holds the word NOT, and the
    // answer says so.
    let not = search(&store, &request("NOT retry")).unwrap();
    assert!(!not.hits.is_empty());
    assert_eq!(
        not.partial,
        ["nothing holds all 2 words; these hold 1 of them"]
    );
    assert!(!found(&store, &request("retry policy")).is_empty());
}

#[test]
fn an_empty_query_says_what_to_give() {
    let (_dir, store) = corpus();
    let err = search(&store, &request("   ")).unwrap_err().to_string();
    assert!(err.contains("give one or more words"), "{err}");
}

#[test]
fn more_matches_rank_higher_and_recent_sessions_break_ties() {
    let (_dir, store) = corpus();
    let hits = found(&store, &request("retry policy"));
    // One hit per turn: three turns hold the words.
    assert_eq!(hits.len(), 3, "{hits:#?}");
    assert!(hits.windows(2).all(|w| w[0].score <= w[1].score));
    // The same sentences in an old and a new session: the new one first.
    let position = |session: &str| {
        hits.iter()
            .position(|h| h.entry.session_id == session)
            .unwrap()
    };
    assert!(position("new-session") < position("old-session"));
}

#[test]
fn bm25_ranks_the_entry_most_about_the_words_first() {
    let filler = "unrelated words about something else entirely. ".repeat(40);
    let long = format!("{filler} the kettle is here {filler}");
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![
            (long.as_str(), "", vec![]),
            ("kettle descaling: the kettle needs descaling", "", vec![]),
            (long.as_str(), "kettle", vec![]),
        ],
    }]);
    let mut req = request("kettle descaling");
    req.limit = 1;
    let hits = found(&store, &req);
    assert_eq!(hits.len(), 1);
    assert!(
        marked(&hits[0]).starts_with("[kettle descaling]"),
        "{hits:#?}"
    );
    // More matches than the answer holds: ranked by BM25 (negative, lower is better). The
    // third prompt says the first again, so its answer joins the second turn.
    let mut req = request("kettle");
    req.limit = 1;
    let hits = found(&store, &req);
    assert!(hits.iter().all(|h| h.score < 0.0), "{hits:#?}");
    assert!(
        hits[0].chars < 100,
        "the short entries are most about it: {hits:#?}"
    );
    assert_eq!(hits[0].more_lines, 1, "the answer of its turn: {hits:#?}");
}

#[test]
fn the_same_text_shows_once_from_its_most_recent_session() {
    // Same text, two sessions a year apart.
    let (_dir, store) = store_with(&[
        Fixture {
            id: "a-old",
            project: "/p",
            at: "2025-11-30T12:00:00.000Z",
            turns: vec![("kettle descaling schedule", "", vec![])],
        },
        Fixture {
            id: "b-new",
            project: "/p",
            at: "2026-11-30T11:00:00.000Z",
            turns: vec![("kettle descaling schedule", "", vec![])],
        },
    ]);
    let hits = found(&store, &request("descaling"));
    let sessions: Vec<(&str, usize)> = hits
        .iter()
        .filter(|h| h.entry.role == "user")
        .map(|h| (h.entry.session_id.as_str(), h.copies))
        .collect();
    assert_eq!(sessions, [("b-new", 1)]);
    // Where it first appeared is named: the older session's turn.
    let first = hits[0].first_copy.as_ref().unwrap();
    assert_eq!(first.session_id, "a-old");
    let shown = render::hit(&hits[0], Pointer::Cli, Paint::Plain);
    assert!(
        shown.contains(&format!(
            "(the same in 1 more entry: turn {} of session a-old (2025-11-30 12:00, the first))",
            first.turn
        )),
        "{shown}"
    );
}

#[test]
fn scope_by_project_session_layer_tool_and_time() {
    let (_dir, store) = corpus();
    let sessions = |req: &Request| {
        let mut s: Vec<String> = found(&store, req)
            .into_iter()
            .map(|h| h.entry.session_id)
            .collect();
        s.sort();
        s.dedup();
        s
    };
    let mut req = request("retry policy");
    assert_eq!(
        sessions(&req),
        ["new-session", "old-session", "other-project"]
    );
    req.project = Some("/p/alpha".into());
    assert_eq!(sessions(&req), ["new-session", "old-session"]);
    req.session = Some("old-".into());
    assert_eq!(sessions(&req), ["old-session"]);

    let mut req = request("retry");
    req.layer = Some(Layer::L3);
    let hits = found(&store, &req);
    assert!(hits.iter().all(|h| h.entry.layer == Layer::L3), "{hits:#?}");
    assert!(hits.iter().any(|h| h.entry.role == "tool_call"));

    let mut req = request("max_attempts");
    req.tool = Some("Bash".into());
    let hits = found(&store, &req);
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(
        (hits[0].entry.role.as_str(), hits[0].entry.tool.as_deref()),
        ("tool_result", Some("Bash"))
    );
    req.tool = Some("Read".into());
    assert!(found(&store, &req).is_empty());

    let mut req = request("retry policy");
    req.since = Some("2026-11-01".into());
    assert_eq!(sessions(&req), ["new-session", "other-project"]);
    req.since = Some("yesterday".into());
    assert!(search(&store, &req)
        .unwrap_err()
        .to_string()
        .contains("neither a duration"));
}

#[test]
fn japanese_and_chinese_match_without_spaces() {
    let (_dir, store) = corpus();
    let hits = found(&store, &request("データベース"));
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(hits[0].entry.role, "user");
    assert!(
        marked(&hits[0]).contains("[データベース]"),
        "{}",
        marked(&hits[0])
    );
    let hits = found(&store, &request("数据库迁移"));
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits[0].entry.role.as_str(), hits[0].entry.tool_index),
        ("tool_result", Some(1))
    );
    assert_eq!(
        render::hit_pointer(&hits[0], Pointer::Cli),
        format!("throughline detail {} --tool 1", hits[0].entry.turn)
    );
}

#[test]
fn short_terms_fall_back_to_a_scan_and_filter_long_ones() {
    let (_dir, store) = corpus();
    // Two characters: below the trigram size.
    let hits = found(&store, &request("移行"));
    // The prompt and the answer of one turn: one hit, and the other's line counted.
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(hits[0].more_lines, 1, "{hits:#?}");
    assert!(marked(&hits[0]).contains("[移行]"));
    // A long term through the index, a short one as a filter on top.
    let hits = found(&store, &request("policy 9"));
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert!(marked(&hits[0]).contains("[9]"));
    // Short ASCII ignores case like the index does.
    assert!(!found(&store, &request("OK")).is_empty());
}

#[test]
fn hits_carry_the_stored_text_exactly_and_colour_only_when_asked() {
    let output = (1..=800)
        .map(|i| match i {
            400 => "the deploy key for Quasar-47 lives in  vault\tsecret/ops/1234".to_string(),
            _ => format!("{i}: deploy notes, key rotation pending"),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![(
            "Show the notes",
            "Shown.",
            vec![("Bash", r#"{"command":"cat notes"}"#, output.as_str())],
        )],
    }]);
    let hits = found(&store, &request("Quasar-47 deploy key"));
    let hit = &hits[0];
    assert_eq!(hit.lines, 800);
    assert_eq!(hit.excerpts.len(), 1, "{hit:#?}");
    assert_eq!(hit.excerpts[0].line, 400);
    let plain = render::hit(hit, Pointer::Mcp, Paint::Plain);
    assert!(
        plain.contains("\n  400:the deploy key for Quasar-47 lives in  vault\tsecret/ops/1234\n"),
        "{plain}"
    );
    assert!(
        plain.contains(&format!(
            r#"around it: detail {{"turn":"{}","tool":1,"lines":"390-410"}}"#,
            hit.entry.turn
        )),
        "{plain}"
    );
    assert!(!plain.contains('\u{1b}'));
    let coloured = render::hit(hit, Pointer::Cli, Paint::Color);
    assert!(coloured.contains('\u{1b}') && coloured.contains("Quasar-47"));
    assert!(coloured.contains("--tool 1 --lines 390-410"), "{coloured}");
    assert!(
        plain.chars().count() < 600,
        "an 800-line output is not pulled: {}",
        plain.chars().count()
    );
}

#[test]
fn hits_point_at_the_whole_entry() {
    let (_dir, store) = corpus();
    let hits = found(&store, &request("max_attempts"));
    let hit = &hits[0];
    assert_eq!(hit.entry.tool_index, Some(1));
    assert_eq!(
        render::hit_pointer(hit, Pointer::Mcp),
        format!(r#"detail {{"turn":"{}","tool":1}}"#, hit.entry.turn)
    );
    let rendered = render::hit(hit, Pointer::Cli, Paint::Plain);
    assert!(
        rendered.contains(&format!("throughline detail {} --tool 1", hit.entry.turn)),
        "{rendered}"
    );
    assert!(rendered.contains("Bash output"), "{rendered}");
}

#[test]
fn terms_split_into_parts_at_separators_case_and_script() {
    assert_eq!(parts("parse_header"), ["parse", "header"]);
    assert_eq!(
        parts("hook-cli::store/search.rs"),
        ["hook", "cli", "store", "search", "rs"]
    );
    assert_eq!(parts("parseHeaderV2"), ["parse", "Header", "V2"]);
    assert_eq!(parts("データベース移行"), ["データベース", "移行"]);
    assert_eq!(parts("設定ファイルの変更"), ["設定", "ファイル", "変更"]);
    assert!(parts("a.b").is_empty());
}

#[test]
fn identifiers_and_cjk_compounds_are_found_by_their_parts() {
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![
            (
                "Where does indexing happen?",
                "In store::search, inside hook-cli, before each query.",
                vec![],
            ),
            ("データベースの移行は明日です。", "了解しました。", vec![]),
        ],
    }]);
    let found = search(&store, &request("hook_cli::store::search")).unwrap();
    assert_eq!(found.hits.len(), 1, "{found:#?}");
    assert_eq!(found.hits[0].entry.role, "assistant");
    assert!(
        found.partial[0].contains("these hold its parts: hook cli store search"),
        "{:?}",
        found.partial
    );
    let found = search(&store, &request("データベース移行")).unwrap();
    assert_eq!(found.hits.len(), 1, "{found:#?}");
    assert_eq!(marked(&found.hits[0]), "[データベース]の[移行]は明日です。");
    // Written as stored, no second try is needed or said.
    let found = search(&store, &request("store::search")).unwrap();
    assert!(found.partial.is_empty() && found.hits.len() == 1);
}

#[test]
fn a_file_read_many_times_does_not_crowd_out_where_a_fact_was_said() {
    let file = (1..=200)
        .map(|i| format!("{i}: retry policy for worker {i} uses the default backoff"))
        .collect::<Vec<_>>()
        .join("\n");
    let reads: Vec<(&str, &str, &str)> = (0..10)
        .map(|_| ("Read", r#"{"file_path":"src/retry.rs"}"#, file.as_str()))
        .collect();
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![
            (
                "Decision: the retry policy for uploads is 7 attempts, backoff doubling.",
                "Noted.",
                vec![],
            ),
            ("Read the retry code again", "Done.", reads),
        ],
    }]);
    let mut req = request("retry policy backoff");
    req.limit = 3;
    let hits = found(&store, &req);
    assert!(
        hits.iter()
            .any(|h| h.entry.role == "user" && marked(h).contains("7 attempts")),
        "{hits:#?}"
    );
    let reads: Vec<&Hit> = hits
        .iter()
        .filter(|h| h.entry.role == "tool_result")
        .collect();
    assert_eq!(reads.len(), 1, "ten reads of one file show once: {hits:#?}");
    assert_eq!(reads[0].copies, 9);
    // All in the turn shown: no other turn to name.
    assert!(reads[0].copied_in.is_empty(), "{:#?}", reads[0]);
    let shown = render::hit(reads[0], Pointer::Cli, Paint::Plain);
    assert!(
        shown.contains("(the same in 9 more entries of this turn)"),
        "{shown}"
    );
}

#[test]
fn short_and_cjk_words_are_found_in_the_whole_memory() {
    // More entries than a scan reads, the oldest holding the words looked for.
    let filler: Vec<(String, String)> = (0..SCAN_ROWS as usize / 2 + 10)
        .map(|i| {
            (
                format!("step {i} of the plan"),
                format!("done with step {i}"),
            )
        })
        .collect();
    let mut turns = vec![("这个变量是否需要改?", "CI 通过了, 号码不变.", vec![])];
    turns.extend(filler.iter().map(|(p, a)| (p.as_str(), a.as_str(), vec![])));
    let (_dir, store) = store_with(&[Fixture {
        id: "long",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns,
    }]);
    for query in ["变量", "是否", "号", "ci", "CI 号"] {
        let found = search(&store, &request(query)).unwrap();
        assert!(found.partial.is_empty(), "{query}: {:?}", found.partial);
        assert_eq!(found.hits.len(), 1, "{query}: {:#?}", found.hits);
    }
    // A short word inside a longer one is not that word.
    assert!(found(&store, &request("st")).is_empty());
}

#[test]
fn without_an_entry_holding_every_word_those_holding_most_of_them_answer() {
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![
            (
                "Which model does the scanner load?",
                "It loads deberta-v3-base from the hub, revision 9ea99275, with the tokenizer.",
                vec![],
            ),
            (
                "Where is the tokenizer cached?",
                "In the hub cache.",
                vec![],
            ),
        ],
    }]);
    // A word misremembered (`added_to` was never said): the entry holding the other two.
    let found = search(&store, &request("deberta-v3-base ea99275 added_to")).unwrap();
    assert_eq!(found.hits.len(), 1, "{found:#?}");
    assert_eq!(
        marked(&found.hits[0]),
        "It loads [deberta-v3-base] from the hub, revision 9[ea99275], with the tokenizer."
    );
    assert_eq!(
        found.partial,
        ["nothing holds all 3 words; these hold 2 of them"]
    );
    // Holding fewer than half the words is no answer.
    assert!(search(&store, &request("tokenizer pineapple mango"))
        .unwrap()
        .hits
        .is_empty());
}

#[test]
fn a_query_is_cut_to_its_first_terms_and_characters_and_says_so() {
    // A paste says its words again and again: each is searched once, the first spelling kept.
    let pasted: Vec<String> = ["Deploy", "key", "deploy", "KEY", "vault", "key"]
        .map(String::from)
        .into();
    assert_eq!(
        bounded(pasted),
        (["Deploy", "key", "vault"].map(String::from).into(), None)
    );

    let many: Vec<String> = (0..MAX_TERMS + 8).map(|i| format!("word{i}")).collect();
    let repeated: Vec<String> = many.iter().chain(&many).cloned().collect();
    let (terms, cut) = bounded(repeated);
    assert_eq!(terms, many[..MAX_TERMS]);
    assert_eq!(
        cut.as_deref(),
        Some("only the first 1024 of the query's 1032 different terms were searched")
    );

    let long = "é".repeat(MAX_TERM_CHARS + 5);
    let (terms, cut) = bounded(vec![long.clone(), "short".into()]);
    assert_eq!(terms[0], long[..MAX_TERM_CHARS * 'é'.len_utf8()]);
    assert_eq!(terms[1], "short");
    assert!(cut
        .unwrap()
        .contains("1 term longer than 200 characters was searched by its first 200"));

    assert_eq!(bounded(vec!["plain".into()]), (vec!["plain".into()], None));
}

#[test]
fn several_words_match_as_written_first_then_apart() {
    let (_dir, store) = store_with(&[
        Fixture {
            id: "the-error",
            project: "/p/alpha",
            at: "2025-06-01T10:00:00.000Z",
            turns: vec![(
                "claude --continue says something odd",
                "It printed: No conversation found to continue. The session file was moved.",
                vec![],
            )],
        },
        Fixture {
            id: "words-apart",
            project: "/p/alpha",
            at: "2026-11-29T10:00:00.000Z",
            turns: vec![(
                "Continue with the parser",
                "No change was needed; the conversation above found the bug, so we continue to step two.",
                vec![(
                    "Read",
                    r#"{"file_path":"notes.md"}"#,
                    "no: the conversation found nothing\ncontinue to the next file later\n",
                )],
            )],
        },
    ]);
    let hits = found(&store, &request("No conversation found to continue"));
    assert_eq!(hits[0].entry.session_id, "the-error", "{hits:?}");
    assert!(marked(&hits[0]).contains("[No conversation found to continue]"));
    // The turn holding the words apart follows, once: its answer, then the count of its other
    // lines holding one of the words (the prompt, the call's `notes.md`, two lines read).
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert_eq!(hits[1].entry.session_id, "words-apart");
    assert_eq!(hits[1].more_lines, 4, "{hits:?}");

    // Words no entry holds as written: those holding them all, as before.
    let apart = search(&store, &request("conversation bug step")).unwrap();
    assert_eq!(apart.hits.len(), 1);
    assert!(apart.partial.is_empty(), "{:?}", apart.partial);
    // A query that quotes its own phrase is searched as the person wrote it.
    let quoted = found(&store, &request("\"conversation above\" bug"));
    assert_eq!(quoted.len(), 1);
    assert!(
        marked(&quoted[0]).contains("[conversation above]"),
        "{quoted:?}"
    );
}

#[test]
fn a_turn_is_one_hit_saying_how_many_more_of_its_lines_hold_the_words() {
    let read = "import supabase;\n// cloudflare later\nconst unrelated = 1;\nsupabase.auth()";
    let (_dir, store) = store_with(&[Fixture {
        id: "s",
        project: "/p",
        at: "2026-11-29T10:00:00.000Z",
        turns: vec![
            (
                "can we replace supabase with cloudflare?",
                "Yes: supabase auth maps to cloudflare access, supabase storage to R2.",
                vec![
                    ("Read", r#"{"file_path":"supabase.ts"}"#, read),
                    // The same file read again: its lines are counted once.
                    ("Read", r#"{"file_path":"src/supabase.ts"}"#, read),
                    (
                        "Grep",
                        r#"{"pattern":"supabase"}"#,
                        "supabase.ts: cloudflare TODO",
                    ),
                ],
            ),
            (
                "move the queue off supabase to cloudflare queues",
                "Done.",
                vec![],
            ),
        ],
    }]);
    let mut req = request("supabase cloudflare");
    req.limit = 3;
    let hits = found(&store, &req);
    let turns: Vec<&str> = hits.iter().map(|h| h.entry.turn.as_str()).collect();
    assert_eq!(turns.len(), 2, "one hit per turn: {hits:#?}");
    assert_ne!(turns[0], turns[1]);
    let (first, other) = match marked(&hits[0]).contains("queue") {
        true => (&hits[1], &hits[0]),
        false => (&hits[0], &hits[1]),
    };
    // Besides the line shown: the prompt or the answer, three call inputs, the file's three
    // lines holding a word (once, though read twice) and the grep's output.
    assert_eq!(first.more_lines, 8, "{first:#?}");
    let shown = render::hit(first, Pointer::Cli, Paint::Plain);
    assert!(
        shown.ends_with(&format!(
            "chars): throughline detail {}\n  and 8 more lines in this turn",
            first.entry.turn
        )),
        "{shown}"
    );
    assert_eq!(other.more_lines, 0);
    assert!(!render::hit(other, Pointer::Cli, Paint::Plain).contains("in this turn"));

    // Only what the search looks at is counted: the conversation alone, one more line.
    req.layer = Some(Layer::L2);
    assert_eq!(found(&store, &req)[0].more_lines, 1);
    // A hit of a tool output points at the whole turn for the rest; one line is one line.
    req.layer = None;
    req.tool = Some("Grep".into());
    let grep = &found(&store, &req)[0];
    assert_eq!(grep.more_lines, 1, "the call's input: {grep:#?}");
    let shown = render::hit(grep, Pointer::Mcp, Paint::Plain);
    assert!(
        shown.ends_with(&format!(
            "and 1 more line in this turn: detail {{\"turn\":\"{}\"}}",
            grep.entry.turn
        )),
        "{shown}"
    );
}

#[test]
fn what_was_said_comes_before_the_tool_inputs_that_repeat_it() {
    let input = r#"{"command":"grep -rn ダークモード src/ | head -n 20"}"#;
    let (_dir, store) = store_with(&[
        Fixture {
            id: "asked",
            project: "/p",
            at: "2026-11-20T10:00:00.000Z",
            turns: vec![("設定画面にダークモードを追加してください", "はい。", vec![])],
        },
        Fixture {
            id: "worked",
            project: "/p",
            at: "2026-11-29T10:00:00.000Z",
            turns: vec![(
                "続けてください",
                "確認します。",
                vec![("Bash", input, "src/theme.ts:3: // TODO")],
            )],
        },
    ]);
    let hits = found(&store, &request("ダークモード"));
    let roles: Vec<&str> = hits.iter().map(|h| h.entry.role.as_str()).collect();
    assert_eq!(roles, ["user", "tool_call"]);
}

#[test]
fn a_misspelt_word_is_searched_as_the_nearest_word_stored() {
    let (_dir, store) = corpus();
    // A swap in the middle of a short word breaks most of its pieces: not found.
    assert!(search(&store, &request("uplaoder"))
        .unwrap()
        .hits
        .is_empty());
    let found = search(&store, &request("checklsit")).unwrap();
    assert_eq!(found.hits.len(), 1, "{:?}", found.partial);
    // The rest of its turn is counted by the word found, not the one asked for.
    assert_eq!(found.hits[0].more_lines, 1, "{:?}", found.hits);
    assert!(
        found.partial[0].contains("nothing holds checklsit; these hold checklist"),
        "{:?}",
        found.partial
    );
    // Two slips in a short word are no spelling of it.
    assert!(search(&store, &request("chacklsit"))
        .unwrap()
        .hits
        .is_empty());
    assert_eq!(edits("kubernetis", "kubernetes"), 1);
    assert_eq!(edits("", "abc"), 3);
    assert_eq!(edits("flaw", "lawn"), 2);
}

#[test]
fn copies_name_their_turns_and_sessions_the_first_with_its_time() {
    const ERROR: &str = "error[E0502]: cannot borrow `cache` as mutable";
    let prompts: Vec<String> = (0..7).map(|i| format!("Build it again, try {i}")).collect();
    let turns = |range: std::ops::Range<usize>| -> Vec<(&str, &str, Vec<ToolRun>)> {
        prompts[range]
            .iter()
            .map(|prompt| {
                (
                    prompt.as_str(),
                    "Still failing.",
                    vec![("Bash", r#"{"command":"cargo build"}"#, ERROR)],
                )
            })
            .collect()
    };
    let (_dir, store) = store_with(&[
        Fixture {
            id: "early-session",
            project: "/p",
            at: "2026-11-20T09:00:00.000Z",
            turns: turns(0..1),
        },
        Fixture {
            id: "late-session",
            project: "/p",
            at: "2026-11-29T10:00:00.000Z",
            turns: turns(1..7),
        },
    ]);
    let hits = found(&store, &request("cannot borrow cache"));
    let error = hits.iter().find(|h| h.entry.role == "tool_result").unwrap();
    assert_eq!(error.copies, 6, "{error:#?}");
    assert_eq!(error.copied_in.len(), PLACES_NAMED, "{error:#?}");
    let first = error.first_copy.as_ref().unwrap();
    assert_eq!(first.session_id, "early-session");
    assert_eq!(error.copied_in[0].turn, first.turn);
    let shown = render::hit(error, Pointer::Cli, Paint::Plain);
    assert!(
        shown.contains(&format!(
            "(the same in 6 more entries: turn {} of session early-se (2026-11-20 09:00, the \
             first), turn ",
            first.turn
        )),
        "{shown}"
    );
}
