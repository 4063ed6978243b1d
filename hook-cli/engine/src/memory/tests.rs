use proptest::prelude::*;

use super::*;
use crate::model::{Todo, TodoStatus};

fn turn(code: &str, session: &str, prompt: &str, answers: &[String]) -> Turn {
    Turn {
        session_id: session.into(),
        detail_summary: "Read ×2, Bash".into(),
        ..crate::test_memory::turn(code, prompt, answers)
    }
}

fn entries(n: usize, text: impl Fn(usize) -> (String, Vec<String>)) -> Vec<Turn> {
    (0..n)
        .map(|i| {
            let (prompt, answers) = text(i);
            turn(&format!("t{i:06}"), "sess-aaaa", &prompt, &answers)
        })
        .collect()
}

/// `ctx` as a host that takes the memory in two parts sees it.
fn in_two_parts(ctx: Context) -> Context {
    Context { parts: 2, ..ctx }
}

fn ctx(total: usize, budget: usize) -> Context {
    Context {
        trigger: Trigger::Clear,
        project: "/home/dev/toy".into(),
        chain: vec!["sess-aaaa-bbbb".into()],
        total_turns: total as u64,
        budget,
        measure: Measure::Utf16,
        verbatim_turns: 6,
        model_lines: HashMap::new(),
        goal: None,
        state: WorkingState::default(),
        about: About::default(),
        parts: 1,
        together: false,
    }
}

#[test]
fn a_short_session_goes_in_whole_and_in_order() {
    let e = entries(4, |i| (format!("prompt {i}"), vec![format!("answer {i}")]));
    let r = render(&ctx(4, 9_500), &e);
    assert_eq!(r.verbatim, ["t000000", "t000001", "t000002", "t000003"]);
    assert!(r.one_liners.is_empty());
    assert_eq!(r.left_out, 0);
    // Printed oldest first, the latest exchange last.
    let pos = |s: &str| r.text.find(s).unwrap();
    assert!(pos("prompt 3") < pos("prompt 2") && pos("prompt 2") < pos("prompt 1"));
    assert!(pos("prompt 1") < pos("Latest exchange (turn t000000)"));
    assert!(r.text.contains("Detail: Read ×2, Bash"));
}

#[test]
fn a_long_session_keeps_recent_turns_verbatim_and_older_ones_as_one_liners() {
    let e = entries(300, |i| {
        (
            format!("Step {i}: update the parser for case {i}."),
            vec![format!(
                "Updated src/parser_{i}.rs; {} tests pass. {}",
                i * 3,
                "More narration here. ".repeat(10)
            )],
        )
    });
    let r = render(&ctx(1_000, 9_500), &e);
    assert!(units(&r.text) <= 9_500);
    assert_eq!(
        r.verbatim.len(),
        6,
        "latest exchange and five more turns verbatim"
    );
    assert!(r.one_liners.len() > 20, "{}", r.one_liners.len());
    assert_eq!(r.left_out, 1_000 - 6 - r.one_liners.len() as u64);
    assert!(r
        .text
        .contains(&format!("{} older turns not shown", r.left_out)));
    let oldest = r.one_liners.last().unwrap();
    assert!(r
        .text
        .contains(&format!("throughline recall --before {oldest} --oneline")));
    assert!(r.text.contains("src/parser_20.rs"), "one-liners keep paths");
}

#[test]
fn turns_from_an_earlier_session_are_marked() {
    let mut e = entries(12, |i| (format!("prompt {i}"), vec![format!("answer {i}")]));
    for turn in e.iter_mut().skip(9) {
        turn.session_id = "older-session-id".into();
    }
    let r = render(
        &Context {
            verbatim_turns: 3,
            ..ctx(12, 9_500)
        },
        &e,
    );
    assert!(r.text.contains("(earlier session older-se)"), "{}", r.text);
}

#[test]
fn one_huge_prompt_is_cut_with_a_marker_and_the_answer_survives() {
    let huge = "x".repeat(200_000);
    let e = entries(3, |i| {
        if i == 0 {
            (huge.clone(), vec!["the end".into()])
        } else {
            ("p".into(), vec!["a".into()])
        }
    });
    let r = render(&ctx(3, 9_500), &e);
    assert!(units(&r.text) <= 9_500);
    assert!(r
        .text
        .contains("characters cut: throughline detail t000000"));
    assert!(r.text.contains("You: the end"));
}

#[test]
fn the_framing_names_the_trigger() {
    let e = entries(1, |_| ("p".into(), vec!["a".into()]));
    for (trigger, words) in [
        (Trigger::Clear, "ran /clear"),
        (Trigger::Handoff, "handed this work over"),
        (Trigger::Compact, "just compacted"),
    ] {
        let r = render(
            &Context {
                trigger,
                ..ctx(1, 9_500)
            },
            &e,
        );
        assert!(r.text.contains(words), "{trigger:?}");
    }
}

#[test]
fn a_turn_that_states_facts_gets_a_longer_line_and_short_lines_leave_room() {
    let mut e = entries(40, |i| {
        (
            format!("Step {i}: run the numbers check (seq 1 3000) and make sure the tail is intact."),
            vec![format!("The sequence runs from 1 to 3000 without gaps; the tail ends at 3000 as expected (check {i}).")],
        )
    });
    e[20] = turn(
        "t000020",
        "sess-aaaa",
        "Step 20: grep the data tree for frozen accounts. Set the retry backoff cap to 32 seconds, never more.",
        &["There are 216 frozen accounts across 12 regions (3 per file, every ninth line).".into()],
    );
    e[30] = turn("t000030", "sess-aaaa", "ok", &["done".into()]);
    let mut gists: Vec<summary::Gist> = e.iter().map(|t| summary::Gist::of(&t.messages)).collect();
    summary::Gist::discount_repeats(&mut gists);
    let whole: Vec<usize> = gists.iter().map(|g| whole_line(g, None)).collect();
    let shares: Vec<usize> = gists.iter().map(summary::Gist::shares).collect();
    // Short of room, the fact gets three shares.
    let lengths = line_lengths(&whole, &shares, 40 * 100);
    assert!(lengths[20] > 2 * lengths[0], "{lengths:?}");
    // With room for every line whole, every line is whole: the short one leaves its share to
    // the others.
    let wants: Vec<usize> = e
        .iter()
        .map(|t| summary::one_liner(t, summary::MAX_CHARS).chars().count())
        .collect();
    let room = wants.iter().map(|w| w + LINE_OVERHEAD).sum();
    let lengths = line_lengths(&whole, &shares, room);
    for (i, (length, want)) in lengths.iter().zip(&wants).enumerate() {
        assert!(length >= want, "line {i}: {lengths:?} {wants:?}");
    }
    let r = render(&ctx(40, 6_000), &e);
    assert!(r.text.contains("32 seconds, never more"), "{}", r.text);
    assert!(units(&r.text) <= 6_000);
}

#[test]
fn a_sentence_said_once_beats_one_said_every_turn() {
    // The 2026 shape of the lost fact: a rollback tag added to a routine prompt, whose answer
    // repeats word for word (but its numbers) in every other turn.
    let mut e = entries(40, |i| {
        (
            format!("Step {i}: run the numbers check (seq 1 3000) and make sure the tail is intact."),
            vec![format!("The sequence runs from 1 to 3000 without gaps; the tail ends at 3000 as expected (check {i}).")],
        )
    });
    e[25] = turn(
        "t000025",
        "sess-aaaa",
        "Step 25: run the numbers check (seq 1 3000) and make sure the tail is intact. If anything breaks, release tag v3.14.2 is the rollback target.",
        &["The sequence runs from 1 to 3000 without gaps; the tail ends at 3000 as expected (check 25).".into()],
    );
    let r = render(&ctx(40, 4_000), &e);
    assert!(r.text.contains("v3.14.2"), "{}", r.text);
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,200}",
        "\\PC{0,400}",
        "[日本語のテキスト漢字かな]{0,3000}",
        "[😀🎉🚀a]{0,3000}",
        (0usize..60_000).prop_map(|n| "y".repeat(n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_budget_holds_and_the_newest_turn_is_always_there(
        turns in prop::collection::vec((any_text(), prop::collection::vec(any_text(), 0..4)), 1..40),
        budget in 1_500usize..=9_500,
        verbatim in 1usize..10,
        extra in 0u64..5_000,
    ) {
        let e: Vec<Turn> = turns
            .iter()
            .enumerate()
            .map(|(i, (p, a))| turn(&format!("c{i:06}"), "sess", p, a))
            .collect();
        let c = Context { verbatim_turns: verbatim, ..ctx(e.len() + extra as usize, budget) };
        let r = render(&c, &e);
        prop_assert!(units(&r.text) <= budget, "{} > {budget}", units(&r.text));
        prop_assert!(r.text.contains("Latest exchange (turn c000000"));
        prop_assert_eq!(r.verbatim.first().map(String::as_str), Some("c000000"));
        prop_assert_eq!(
            r.left_out,
            (e.len() as u64 + extra) - (r.verbatim.len() + r.one_liners.len()) as u64
        );
    }
}

#[test]
fn a_host_that_counts_bytes_gets_a_memory_within_its_bytes() {
    // Japanese text takes three bytes a character: within 9,500 UTF-16 units, 9,500 such
    // characters would be 28,500 bytes, far past Codex's 10,000.
    let e = entries(30, |i| {
        (
            format!("{i}番目の質問: 設定ファイルの読み込みを直してください。"),
            vec!["決定: 設定は UTF-8 で読む。エラーは一行で記録する。".repeat(20)],
        )
    });
    let c = Context {
        measure: Measure::Utf8,
        ..ctx(30, 9_500)
    };
    let r = render(&c, &e);
    assert!(r.text.len() <= 9_500, "{} bytes", r.text.len());
    assert!(
        r.text.len() > 8_000,
        "the room is used: {} bytes",
        r.text.len()
    );
    assert!(r.text.contains("Latest exchange (turn t000000)"));
    assert!(r.text.contains("決定"));
    // The same turns counted in UTF-16 units fill more bytes than Codex takes.
    let wide = render(&ctx(30, 9_500), &e);
    assert!(wide.text.len() > 12_000, "{} bytes", wide.text.len());
}

#[test]
fn a_model_line_is_used_whole_where_it_fits_and_the_log_says_who_wrote_each_line() {
    let e = entries(40, |i| {
        (
            format!("Step {i}: look at part {i} of the ledger and report."),
            vec![format!("Part {i} holds {} rows; nothing to fix.", i * 7)],
        )
    });
    let model = |text: &str| ModelLine {
        text: text.into(),
        by: "openai:qwen3".into(),
    };
    let mut c = ctx(40, 9_500);
    c.model_lines.insert(
        "t000010".into(),
        model("Ledger part 10: 70 rows checked, release tag v3.14.2 is the rollback target."),
    );
    // Longer than any line the memory gives: the local line stands in.
    c.model_lines.insert(
        "t000011".into(),
        model(&"z".repeat(summary::LONGEST_LINE + 1)),
    );
    let r = render(&c, &e);
    let by = |code: &str| {
        let i = r.one_liners.iter().position(|c| c == code).unwrap();
        r.one_liners_by[i].as_str()
    };
    assert_eq!(r.one_liners.len(), r.one_liners_by.len());
    assert_eq!(by("t000010"), "openai:qwen3");
    assert!(r.text.contains(
        "- t000010: Ledger part 10: 70 rows checked, release tag v3.14.2 is the rollback target.\n"
    ));
    assert_eq!(by("t000011"), LOCAL);
    assert!(!r.text.contains("zzz"));
    assert_eq!(by("t000012"), LOCAL);
    assert!(r.text.contains("- t000012: Step 12: look at part 12"));
}

#[test]
fn turns_of_one_shape_share_a_line_and_leave_the_room_to_the_others() {
    // Six routine steps done again and again; a few turns that said something once.
    let mut e = entries(120, |i| match i % 3 {
        0 => (
            format!(
                "Step {i}: run the numbers check (seq 1 3000) and make sure the tail is intact."
            ),
            vec![format!(
                "The sequence runs from 1 to 3000 without gaps (check {i})."
            )],
        ),
        1 => (
            format!("Step {i}: fix the TODO in ledger_step_{i} and show me the change."),
            vec![format!(
                "Replaced the TODO in ledger_step_{i} with a call to ctx.check_currency(input)?."
            )],
        ),
        _ => (
            format!("Step {i}: grep the data tree for frozen accounts."),
            vec![format!(
                "There are 216 frozen accounts. Run {i} agrees with the earlier count."
            )],
        ),
    });
    let facts = [
        (
            30,
            "The nightly batch size must be 1750 rows, the bank rejects bigger files.",
        ),
        (
            60,
            "Decision: the feature flag LEDGER_FAST_PATH stays off in production.",
        ),
        (
            90,
            "If anything breaks, release tag v3.14.2 is the rollback target.",
        ),
        (
            110,
            "Found it: the flaky test is tests/reconcile_test.rs::handles_leap_day.",
        ),
    ];
    for (at, fact) in facts {
        let prompt = format!("Step {at}: look at the ledger again. {fact}");
        e[at] = turn(
            &format!("t{at:06}"),
            "sess-aaaa",
            &prompt,
            &["Done.".into()],
        );
    }
    let r = render(&ctx(120, 6_000), &e);
    assert!(units(&r.text) <= 6_000);
    for (_, fact) in facts {
        assert!(r.text.contains(fact), "{fact} is missing:\n{}", r.text);
    }
    // Every turn is named, and a routine step done again is named on the newest line of its
    // shape with what fills its numbered places.
    assert_eq!(r.left_out, 0, "{}", r.text);
    assert!(r.text.contains(" (alike: "), "{}", r.text);
    assert!(r.text.contains("t000100 (ledger_step_100)"), "{}", r.text);
    let lines = r.text.lines().filter(|l| l.starts_with("- t")).count();
    assert!(lines < 20, "{lines} lines:\n{}", r.text);
}

/// A long answer cut to fit keeps, between its beginning and its end, the sentences of the
/// middle that state what it found; code in the middle and lines cut in part are not facts.
#[test]
fn a_cut_answer_keeps_the_facts_of_its_middle() {
    let filler =
        "We looked at the next part of the pipeline and it behaved as before.\n".repeat(30);
    let answer = format!(
        "Here is what I did.\n{filler}```python\n# The cache returns 404 for keys with `/` in them, 3 times.\nprint(1)\n```\n\
         Root cause: the `fetch_rows` query filtered on created_at in local time instead of UTC.\n\
         {filler}Everything passes now."
    );
    let m = Measure::Utf16;
    let plain = cut(m, &answer, 1_500, "t1", &[]);
    assert!(!plain.contains("Root cause"));
    let kept = cut_keeping_facts(m, &answer, 1_500, "t1", &[]);
    assert!(m.len(&kept) <= 1_500, "{}", m.len(&kept));
    assert!(kept.starts_with("Here is what I did."));
    assert!(kept.ends_with("Everything passes now."));
    assert!(
        kept.contains("; what they state:]\n- Root cause: the `fetch_rows` query filtered on created_at in local time instead of UTC.\n[…] "),
        "{kept}"
    );
    assert!(!kept.contains("404"), "code is not a fact: {kept}");
    // An answer whose middle states nothing exact is cut as before.
    let routine = format!("Here is what I did.\n{filler}{filler}Everything passes now.");
    assert_eq!(
        cut_keeping_facts(m, &routine, 1_500, "t1", &[]),
        cut(m, &routine, 1_500, "t1", &[])
    );
}

/// An agent's answer over several messages is cut keeping its last message, the report of
/// what came of the turn, whole; so is a single answer's closing section under a heading. The
/// beginning and the end are cut at line breaks.
#[test]
fn a_cut_answer_keeps_its_closing_report_whole() {
    let plan = "Looking deeper, here is the plan.\n".to_string()
        + &"- Try the next guess about the response format and see whether it holds.\n".repeat(20);
    let narration = (0..15).map(|i| format!("Now let me check step {i}:"));
    let findings = "The API returns `Owner.OwnerID` not `owner.id`; the mapping now uses \
                  the real names.\n- 45 of 84 fields are filled.\n- Run `scripts/check.py` to \
                  see them.\n- The 6 endpoints share one client in `mcao_client.py`.\n- Empty \
                  fields are residential properties' missing data, not a mapping error.\n- The \
                  public GIS endpoints need no key; the parcel API reads `MCAO_API_KEY`.\n- \
                  Files older than March still hold the old column names and need a rerun.\n- \
                  The discovery script `scripts/discover_api.py` prints a raw response.\n- The \
                  validation step keeps a record when at least the APN and the owner are set.\n\
                  - Next: rerun the three months of March to May with `--force`.";
    let report = format!("## Done\n{findings}");
    let answers: Vec<String> = std::iter::once(plan.clone())
        .chain(narration.clone())
        .chain(std::iter::once(report.clone()))
        .collect();
    let m = Measure::Utf16;
    let block_of = |answers: &[String]| {
        let t = turn("t1", "sess-aaaa", "Make the mapping work.", answers);
        let block = turn_block(m, "## Latest exchange\n", &t, 1_500, None);
        assert!(m.len(&block) <= 1_500, "{}", m.len(&block));
        block
    };
    let guesses = |block: &str| block.matches("- Try the next guess").count();
    let messages = block_of(&answers);
    assert!(messages.contains(&report), "{messages}");
    let beginning = messages.split(" […").next().unwrap();
    assert!(
        beginning.ends_with('\n'),
        "cut inside a line: {beginning:?}"
    );
    // One message: its closing section, under a heading, is kept whole too.
    let one = block_of(&[answers.join("\n")]);
    assert!(one.contains(&report), "{one}");
    // One message with no heading keeps more of its beginning, as before.
    let plain: Vec<String> = std::iter::once(plan)
        .chain(narration)
        .chain(std::iter::once(findings.to_string()))
        .collect();
    let plain = block_of(&[plain.join("\n")]);
    assert!(!plain.contains(findings), "{plain}");
    assert!(guesses(&plain) > guesses(&messages), "{plain}\n{messages}");
}

/// A section opens at a heading or a bold line alone, never at a comment inside code.
#[test]
fn sections_open_at_headings_outside_code() {
    let text = "Intro.\n```python\n# a comment\n```\n## Summary\nDone.\n**What changed:**\n- x\n#hashtag\n";
    let starts: Vec<&str> = section_starts(text)
        .into_iter()
        .map(|at| text[at..].lines().next().unwrap())
        .collect();
    assert_eq!(starts, ["## Summary", "**What changed:**"]);
}

/// A short session's older turns go verbatim too when the recent ones leave room, whole,
/// while the one-liners of the turns before them still fit.
#[test]
fn spare_room_gives_older_turns_verbatim() {
    let e = entries(12, |i| {
        (
            format!("Step {i}: look at the parser again."),
            vec![format!(
                "The parser in src/parser_{i}.rs is fine; nothing to change."
            )],
        )
    });
    let r = render(&ctx(12, 9_500), &e);
    assert_eq!(r.verbatim.len(), 12, "{}", r.text);
    assert!(r.one_liners.is_empty(), "{}", r.text);
    assert!(r.text.contains("src/parser_0.rs is fine"), "{}", r.text);
    // With room for a few only, the oldest stay one-liners.
    let r = render(&ctx(12, 2_000), &e);
    assert!(r.verbatim.len() < 12, "{}", r.text);
    assert_eq!(r.verbatim.len() + r.one_liners.len(), 12, "{}", r.text);
}

/// Split in two, the first part holds the briefing, the older turns one line each and the
/// latest exchange; the second is all recent turns, verbatim. No turn is in both.
#[test]
fn split_the_second_part_is_all_recent_turns_verbatim() {
    let e = entries(60, |i| {
        (
            format!("Step {i}: update the parser for case {i}."),
            vec![format!(
                "Updated src/parser_{i}.rs; {} tests pass. {}",
                i * 3,
                "More narration here. ".repeat(20)
            )],
        )
    });
    let one_part = render(&ctx(60, 9_500), &e);
    let r = render(&in_two_parts(ctx(60, 9_500)), &e);
    let second = r.more.as_deref().expect("a second part");
    assert!(units(&r.text) <= 9_500 && units(second) <= 9_500);
    assert!(r.verbatim.len() > one_part.verbatim.len(), "{second}");
    assert!(second.contains("## Recent turns, verbatim"));
    assert!(!second.contains("## Earlier turns"), "{second}");
    let first = &r.text;
    let pos = |s: &str| first.find(s).unwrap();
    assert!(pos("## Earlier turns, one line each") < pos("## Latest exchange (turn t000000)"));
    for code in &r.verbatim[1..] {
        assert!(second.contains(&format!("### Turn {code}")), "{code}");
        assert!(!first.contains(&format!("- {code}:")), "{code}");
    }
    for code in &r.one_liners {
        assert!(first.contains(&format!("- {code}:")), "{code}");
        assert!(!second.contains(code.as_str()), "{code}");
    }
    assert_eq!(r.verbatim.len() + r.one_liners.len(), 60, "{first}");
}

#[test]
fn split_a_turn_too_long_for_what_is_left_of_part_two_fills_it_cut() {
    // Newest first: the recent turns wanted, short, then one whose answer alone is longer
    // than part 2.
    let e = entries(12, |i| {
        let answer = if i == 7 {
            format!(
                "Findings for case 7. {}",
                "A long report line.\n".repeat(900)
            )
        } else {
            format!("Case {i} is done.")
        };
        (format!("Step {i}: check case {i}."), vec![answer])
    });
    let r = render(&in_two_parts(ctx(12, 9_500)), &e);
    let second = r.more.as_deref().expect("a second part");
    assert!(units(second) <= 9_500);
    assert!(second.contains("### Turn t000007"), "{second}");
    assert!(second.contains("Findings for case 7."), "{second}");
    assert!(units(second) > 9_500 * 5 / 6, "{}", units(second));
}

#[test]
fn a_finished_turn_points_at_open_todos_only_where_there_are_some() {
    let e = entries(3, |i| (format!("prompt {i}"), vec![format!("answer {i}")]));
    let none = render(&ctx(3, 9_500), &e);
    assert!(
        none.text
            .contains("what it did is done; carry on from there, not from the start."),
        "{}",
        none.text
    );
    let todo = |text: &str, status| Todo {
        text: text.into(),
        status,
    };
    let mut with_todos = ctx(3, 9_500);
    with_todos.state.todos = vec![
        todo("Write the migration", TodoStatus::Completed),
        todo("Run it on staging", TodoStatus::Pending),
    ];
    let open = render(&with_todos, &e);
    assert!(
        open.text
            .contains("carry on from the todos still open (below), not from the start."),
        "{}",
        open.text
    );
    assert!(
        open.text.contains("  - [ ] Run it on staging"),
        "{}",
        open.text
    );
}

#[test]
fn an_answer_of_empty_messages_shows_as_no_answer() {
    let e = vec![
        turn(
            "t2",
            "sess-aaaa",
            "Is it fixed now?",
            &["Yes: the build is green.".into()],
        ),
        turn(
            "t1",
            "sess-aaaa",
            "Deploy it to staging.",
            &[String::new(), " \n".into()],
        ),
        turn(
            "t0",
            "sess-aaaa",
            "Read the deploy script.",
            &["It pushes to staging.".into()],
        ),
    ];
    let r = render(&ctx(3, 9_500), &e);
    assert!(
        r.text
            .contains("Person: Deploy it to staging.\nYou: (no answer)\n"),
        "{}",
        r.text
    );
}

/// The code of the goal among opening prompts `texts`, coded `t0`, `t1`, ….
fn goal(texts: &[&str]) -> Option<String> {
    let prompts = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("t{i}"), t.to_string()))
        .collect();
    goal_of(prompts).map(|g| g.code)
}

#[test]
fn the_goal_is_the_first_prompt_that_says_something_in_any_script() {
    assert_eq!(
        goal(&["hi", "继续", "帮我修复登录页面的样式问题"]).as_deref(),
        Some("t2")
    );
    assert_eq!(
        goal(&["帮我修复登录页面的样式问题", "把 README 改一下 好吗"]).as_deref(),
        Some("t0")
    );
    assert_eq!(
        goal(&["hi there 🙂 !", "how do I run the dev site?"]).as_deref(),
        Some("t1")
    );
    assert_eq!(goal(&["continue", "ok"]).as_deref(), Some("t0"));
}

#[test]
fn a_short_check_is_no_goal_when_a_later_opening_prompt_sets_out_a_task() {
    let task = "I want to migrate to using bun. Read docs/specs/bunmigration.md and make a plan";
    for (opening, goal_code) in [
        (["do we use bun?", "are we updated on github", task], "t2"),
        (["Is the build green?", task, "hi"], "t1"),
        // A question that states a problem is the task.
        (
            ["does the export crash when the file is empty?", task, "hi"],
            "t0",
        ),
        // Asking for work is no check.
        (["can you use bun here?", task, "hi"], "t0"),
        // With no other, the check is what the person set out with.
        (["do we use bun?", "ok", "yes"], "t0"),
        // In the other languages people here write in.
        (["¿usamos bun?", task, "hi"], "t1"),
        (["Ist der Build grün?", task, "hi"], "t1"),
        (["我们用 bun 吗？", task, "hi"], "t1"),
        (
            ["この プロジェクトは bun を使っていますか？", task, "hi"],
            "t1",
        ),
        (["github 에 올라가 있나요?", task, "hi"], "t1"),
        // A question word asks for more than yes or no.
        (["¿por qué falla el build?", task, "hi"], "t0"),
        (["为什么构建失败了吗？", task, "hi"], "t0"),
        (["빌드가 왜 실패했나요?", task, "hi"], "t0"),
        // Asking for work is no check, in any of them.
        (["¿puedes usar bun aquí?", task, "hi"], "t0"),
        (["你能修复登录页面吗？", task, "hi"], "t0"),
        (["ログインを直してくれますか？", task, "hi"], "t0"),
        (["로그인 고쳐 줄 수 있나요?", task, "hi"], "t0"),
    ] {
        assert_eq!(goal(&opening).as_deref(), Some(goal_code), "{opening:?}");
    }
}

#[test]
fn a_go_ahead_is_no_goal_when_a_later_opening_prompt_names_the_task() {
    let task = "The export pod keeps restarting with OOMKilled, find out why.";
    for (opening, goal_code) in [
        (["OK, go ahead and fix it.", task], "t1"),
        (["Run the tests again please.", task], "t1"),
        // Something exact makes a short prompt a task of its own.
        (["Fix it in src/export.rs", task], "t0"),
        (["Add dark mode to the settings page", task], "t0"),
        // With no other, a go-ahead is still what the person said first.
        (["OK, go ahead and fix it.", "yes"], "t0"),
    ] {
        assert_eq!(goal(&opening).as_deref(), Some(goal_code), "{opening:?}");
    }
}

#[test]
fn the_goal_is_said_once_however_its_spaces_fell() {
    let goal = "Make the CSV export stream its rows.  It must finish under 2 seconds because \
                the  API gateway at gw.internal times out at 3 s.";
    let e = entries(30, |i| {
        let prompt = if i == 29 {
            goal.to_string()
        } else {
            format!("Look at step {i} of the export.")
        };
        (
            prompt,
            vec![format!("Step {i} writes its rows in batches of 500.")],
        )
    });
    let ctx = Context {
        goal: Some(Goal {
            code: "t000029".into(),
            text: goal.into(),
        }),
        ..ctx(30, 9_500)
    };
    let r = render(&ctx, &e);
    assert_eq!(
        r.text.matches("API gateway at gw.internal").count(),
        1,
        "{}",
        r.text
    );
}

#[test]
fn the_goals_pasted_log_is_named_by_its_first_and_last_lines() {
    let log: Vec<String> = (0..40)
        .map(|i| format!("[2026-11-30 09:00:{i:02} +0000] [49] [ERROR] too many clients already"))
        .collect();
    let goal = format!(
        "Postgres is refusing connections, here's what I see:\n\n[Pasted text]\n{}\n\
         [End of pasted text]\n\nCan you find the cause?",
        log.join("\n")
    );
    let e = entries(30, |i| {
        (
            format!("Look at step {i}."),
            vec![format!("Step {i} is fine.")],
        )
    });
    let ctx = Context {
        goal: Some(Goal {
            code: "t000029".into(),
            text: goal,
        }),
        ..ctx(30, 9_500)
    };
    let r = render(&ctx, &e);
    let expected = format!(
        "Postgres is refusing connections, here's what I see:\n\n[Pasted text]\n{}\n\
         [… 38 lines cut: throughline detail t000029]\n{}\n[End of pasted text]\n\n\
         Can you find the cause?\n",
        log[0], log[39]
    );
    assert!(r.text.contains(&expected), "{}", r.text);
}

#[test]
fn a_cut_without_a_line_break_near_keeps_whole_words() {
    let words: Vec<String> = (0..300).map(|i| format!("integrate{i}")).collect();
    let text = words.join(" ");
    for max in [200, 301, 457] {
        let out = cut(Measure::Utf16, &text, max, "t1", &[]);
        let (head, rest) = out.split_once(" […").expect("a marker");
        let tail = rest.split_once("] ").expect("a marker's end").1;
        let last = head.rsplit(' ').next().unwrap();
        let first = tail.split(' ').next().unwrap();
        assert!(words.contains(&last.to_string()), "{max}: ends in {last:?}");
        assert!(
            words.contains(&first.to_string()),
            "{max}: starts at {first:?}"
        );
        assert!(Measure::Utf16.len(&out) <= max, "{max}: {out}");
    }
}

/// A pasted spec of `lines` requirements with `fact` as the middle one.
fn spec_with(fact: &str, lines: usize) -> String {
    let requirement = |i: usize| {
        if i == lines / 2 {
            format!("{i}. {fact}")
        } else {
            format!(
                "{i}. The list view shows item {i} with its name, its owner and when it changed."
            )
        }
    };
    let body: Vec<String> = (1..=lines).map(requirement).collect();
    format!(
        "Here is the spec, start with the data model.\n\n## Requirements\n{}",
        body.join("\n")
    )
}

#[test]
fn what_a_cut_goal_leaves_out_can_still_be_a_fact_or_shown_in_its_turn() {
    let fact =
        "A household holds at most 8 members, the pricing page already promises that number.";
    let spec = spec_with(fact, 40);
    // A session of `n` turns that opens on the spec (the oldest turn is the last).
    let opening_on_spec = |n: usize| {
        entries(n, |i| {
            if i == n - 1 {
                (spec.clone(), vec!["I read the spec.".to_string()])
            } else {
                (
                    format!("Look at step {i}."),
                    vec![format!("Step {i} is fine.")],
                )
            }
        })
    };
    // The goal's turn among the older ones: its cut middle is no longer taken as shown.
    let e = opening_on_spec(30);
    let goal = Goal {
        code: "t000029".into(),
        text: spec.clone(),
    };
    let older = Context {
        goal: Some(goal.clone()),
        ..ctx(30, 9_500)
    };
    let r = render(&older, &e);
    let facts = &r.text[r.text.find("## Facts").expect("a facts section")..];
    assert!(facts.contains(fact), "{}", r.text);
    // The goal's turn shown verbatim says the part the goal cut, as room allows.
    let e = opening_on_spec(3);
    let recent = Context {
        goal: Some(Goal {
            code: "t000002".into(),
            ..goal
        }),
        ..ctx(3, 9_500)
    };
    let r = render(&recent, &e);
    let turn = &r.text[r.text.find("### Turn t000002").expect("the goal's turn")..];
    assert!(
        turn.starts_with("### Turn t000002 (Read ×2, Bash)\nPerson: (the goal above; the part of it cut there:) "),
        "{turn}"
    );
    assert!(turn.contains(fact), "{turn}");
}
