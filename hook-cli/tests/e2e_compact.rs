//! Acceptance tests of compaction: the real Claude Code CLI, interactive under tmux, with every
//! hook pointing at the real `throughline hook claude`. The scripted model server reports a
//! context that grows by a fixed step each turn, so the turn at which the client's threshold is
//! crossed is known in advance; it answers the client's summary request like a model would.
//!
//! Checked: the threshold `throughline config --autocompact` writes decides the turn the client
//! compacts at; after an automatic compaction and after `/compact` the next request carries the
//! session's recent turns verbatim within the budget; the store keeps every turn.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and `tmux`.

mod support;

use serde_json::Value;
use support::throughline::{messages_text, occurrences, units, World, MEMORY_HEADING};
use support::tmux::UI_TIMEOUT;
use support::{event_name, RecordedRequest, Script, Step, Tmux, Usage};

/// The host drops one injected string over 10,000 UTF-16 units; ours stay within this.
const BUDGET: usize = 9_500;

/// Tokens the model reports per prompt in the conversation: the context grows by this each turn.
const STEP: u64 = 90_000;

/// The window the client compacts against with its offline default model (a 1M-token window),
/// less the 20,000 tokens it keeps for the answer (docs/hosts/claude-code.md, "Compaction").
const EFFECTIVE_WINDOW: u64 = 980_000;

/// The client never compacts later than this many tokens short of the effective window.
const DEFAULT_MARGIN: u64 = 13_000;

/// The turn (1-based) before whose request the client compacts at `percent`: the first whose
/// context (the previous answer's usage, `STEP` per turn so far) reaches the threshold.
fn compacting_turn(percent: u64) -> usize {
    let threshold = (EFFECTIVE_WINDOW * percent / 100).min(EFFECTIVE_WINDOW - DEFAULT_MARGIN);
    threshold.div_ceil(STEP) as usize + 1
}

fn prompt(n: usize) -> String {
    format!("Step {n} of the ledger audit: check the postings of batch B-{n:03}.")
}

/// An answer long enough that the memory cannot hold every turn verbatim.
fn answer(n: usize) -> String {
    let mut text = format!("Batch B-{n:03} checked: {} postings balance.", 40 + n);
    while text.len() < 1_400 {
        text.push_str(&format!(
            " Posting {} of batch B-{n:03} matches its counterpart in the ledger.",
            text.len()
        ));
    }
    text
}

fn script(turns: usize) -> Script {
    (1..=turns)
        .fold(Script::new(), |s, n| {
            s.on_prompt(prompt(n), vec![Step::new().text(answer(n))])
        })
        .usage(Usage::PerPrompt(STEP))
}

/// Where the compaction came in the conversation, and what the requests around it carried.
struct Compacted {
    session_id: String,
    /// The last main request before the client compacted, and the first after.
    before: RecordedRequest,
    after: RecordedRequest,
    /// The injection logged for the compaction, and its text.
    injection: Value,
    text: String,
}

/// Index of the turn a main request answers (by its prompt), if it is one of ours.
fn turn_of(request: &RecordedRequest, turns: usize) -> Option<usize> {
    let texts = request.prompt_texts();
    (1..=turns).find(|&n| texts.iter().any(|t| t.trim() == prompt(n)))
}

/// Checks that exactly one compaction happened, between turn `turns_before` and the next, that
/// the first request after it carries the session's memory exactly once within budget, and that
/// the store kept every turn (the session has ended: its last answer is stored).
///
/// An automatic compaction comes after the person's prompt (`in_progress`): that turn is the
/// latest exchange, still without an answer, once the client has written its prompt line.
fn after_compaction(
    world: &World,
    turns_before: usize,
    turns: usize,
    in_progress: bool,
) -> Compacted {
    let requests = world.server.requests();
    let compactions: Vec<usize> = requests
        .iter()
        .filter(|r| r.is_compaction())
        .map(|r| r.seq)
        .collect();
    assert_eq!(
        compactions.len(),
        1,
        "the client compacted once\n{}",
        world.env.debug_context()
    );
    let at = compactions[0];
    let main = |r: &&RecordedRequest| r.is_main();
    let before = requests[..at].iter().rfind(main).expect("a request before");
    let after = requests[at..].iter().find(main).expect("a request after");
    assert_eq!(
        (turn_of(before, turns), turn_of(after, turns)),
        (Some(turns_before), Some(turns_before + 1)),
        "the client compacted between turn {turns_before} and the next\n{}",
        world.env.debug_context()
    );

    let summary = world.server.script().compaction_summary;
    let summary = summary
        .split("<summary>")
        .nth(1)
        .expect("a summary block")
        .trim_start();
    assert!(
        after.messages_contain(&summary[..40]),
        "the scripted summary replaced the conversation:\n{}",
        messages_text(after)
    );

    let starts = world.env.payloads_of("SessionStart");
    let compact = starts
        .iter()
        .find(|p| p["source"] == "compact")
        .unwrap_or_else(|| panic!("no SessionStart(compact): {starts:#?}"));
    let session_id = compact["session_id"]
        .as_str()
        .expect("session id")
        .to_string();
    let log = world.injections();
    let injection = log
        .iter()
        .find(|i| i["session_id"] == session_id.as_str() && i["trigger"] == "compact")
        .unwrap_or_else(|| panic!("no compact injection into {session_id}: {log:#?}"))
        .clone();
    let text = injection["text"].as_str().expect("text").to_string();
    assert!(text.starts_with(MEMORY_HEADING), "{text}");
    assert!(units(&text) <= BUDGET, "{} units: {text}", units(&text));
    assert_eq!(
        (
            occurrences(after, MEMORY_HEADING),
            occurrences(after, &text)
        ),
        (1, 1),
        "the first request after compaction holds the memory once, as logged:\n{}",
        messages_text(after)
    );

    // The latest turns come back verbatim, newest first until the budget is spent. The prompt
    // in progress is among them when the client had written it to the transcript by then
    // (it may write it late, decision 0022); the client sends it after the memory anyway.
    let written = in_progress && text.contains(&prompt(turns_before + 1));
    let latest = turns_before + usize::from(written);
    let verbatim = injection["verbatim"].as_array().expect("verbatim").len();
    assert!(
        verbatim >= 3,
        "at least three turns verbatim: {injection:#}"
    );
    for n in latest + 1 - verbatim..=latest {
        let said = if n > turns_before {
            text.contains(&prompt(n))
        } else {
            text.contains(&prompt(n)) && text.contains(&answer(n))
        };
        assert!(said, "turn {n} is not verbatim in the memory:\n{text}");
    }
    let one_liners = injection["one_liners"]
        .as_array()
        .expect("one_liners")
        .len();
    assert_eq!(
        (
            verbatim + one_liners,
            injection["left_out"].as_u64().unwrap_or(0)
        ),
        (latest, 0),
        "every turn so far is in the memory: {injection:#}"
    );

    // Nothing is lost from the store: every turn, prompt and answer as the model gave them.
    let shown = world.throughline_json(&["show", &session_id, "--json"]);
    let stored: Vec<(String, String)> = shown["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .filter(|t| t["seq"].as_u64() != Some(0))
        .map(|t| {
            let texts: Vec<&str> = t["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .filter_map(|m| m["text"].as_str())
                .collect();
            (texts[0].to_string(), texts[1..].join("\n"))
        })
        .collect();
    let missing: Vec<usize> = (1..=turns)
        .filter(|&n| stored.get(n - 1) != Some(&(prompt(n), answer(n))))
        .collect();
    assert!(
        stored.len() == turns && missing.is_empty(),
        "`throughline show` holds all {turns} turns verbatim; {} stored, turns {missing:?} differ",
        stored.len()
    );

    Compacted {
        session_id,
        before: before.clone(),
        after: after.clone(),
        injection,
        text,
    }
}

/// Sets the threshold the way a person does, then works until one turn past the compaction.
fn compacts_at(percent: u64) {
    let turns = compacting_turn(percent);
    let world = World::new(script(turns));
    world.throughline(&["config", "--autocompact", &percent.to_string()]);
    let mut ui = Tmux::start(&world.env);
    for n in 1..=turns {
        world.ask(&mut ui, &prompt(n));
    }
    ui.exit();
    let done = after_compaction(&world, turns - 1, turns, true);
    let reported = done.before.answer.as_ref().expect("answered").input_tokens;
    eprintln!(
        "compact at {percent}%: compacted before turn {turns}, last usage {reported} input tokens \
         (threshold {}); messages {} chars before, {} after; memory {} units ({} turns \
         verbatim), session {}",
        (EFFECTIVE_WINDOW * percent / 100).min(EFFECTIVE_WINDOW - DEFAULT_MARGIN),
        done.before.messages_chars(),
        done.after.messages_chars(),
        units(&done.text),
        done.injection["verbatim"].as_array().map_or(0, Vec::len),
        done.session_id
    );
}

#[test]
fn at_thirty_percent_the_client_compacts_once_the_threshold_is_crossed() {
    compacts_at(30);
}

#[test]
fn at_sixty_percent_the_client_compacts_later() {
    assert!(compacting_turn(60) > compacting_turn(30) + 1);
    compacts_at(60);
}

/// The most context the client is left with, no threshold set, before it compacts by itself:
/// 2.1.334 compacts a 1M session against a window of 400,000, so at 367,000
/// (docs/hosts/claude-code.md, "Compaction"); earlier releases later.
const OWN_POINT_OF_1M: u64 = 367_000;

#[test]
fn a_manual_compact_brings_back_the_recent_turns() {
    // As many turns as stay short of the client's own point, so only /compact compacts.
    const TURNS: usize = ((OWN_POINT_OF_1M - 1) / STEP) as usize;
    let world = World::new(script(TURNS + 1));
    let mut ui = Tmux::start(&world.env);
    for n in 1..=TURNS {
        world.ask(&mut ui, &prompt(n));
    }
    assert!(
        world.server.compaction_requests().is_empty(),
        "no compaction before /compact at the client's default threshold\n{}",
        world.env.debug_context()
    );
    ui.compact();
    world.ask(&mut ui, &prompt(TURNS + 1));
    ui.exit();
    let done = after_compaction(&world, TURNS, TURNS + 1, false);
    assert!(
        world.env.hook_events().iter().any(|e| e == "PreCompact"),
        "PreCompact fired"
    );
    let compact_starts = world
        .env
        .hook_payloads()
        .into_iter()
        .filter(|p| event_name(p) == "SessionStart" && p["source"] == "compact")
        .count();
    assert_eq!(compact_starts, 1);
    eprintln!(
        "/compact after {TURNS} turns: messages {} chars before, {} after; memory {} units \
         ({} turns verbatim)",
        done.before.messages_chars(),
        done.after.messages_chars(),
        units(&done.text),
        done.injection["verbatim"].as_array().map_or(0, Vec::len)
    );
}

/// With `fresh_instead_of_compact` on, the client's own compaction is stopped at its
/// threshold: no summary is asked for, the person is told why, and `/clear` goes on from the
/// memory, the latest exchange verbatim.
#[test]
fn a_fresh_session_from_the_memory_instead_of_the_clients_compaction() {
    let turns = compacting_turn(30);
    let world = World::new(script(turns + 1));
    world.throughline(&["config", "--autocompact", "30"]);
    world.throughline(&["config", "--set", "fresh_instead_of_compact=on"]);
    let mut ui = Tmux::start(&world.env);
    for n in 1..=turns {
        world.ask(&mut ui, &prompt(n));
    }
    let stopped: Vec<Value> = world
        .env
        .payloads_of("PreCompact")
        .into_iter()
        .filter(|p| p["trigger"] == "auto")
        .collect();
    assert!(
        !stopped.is_empty(),
        "the client reached its threshold and asked PreCompact\n{}",
        world.env.debug_context()
    );
    assert!(
        world.server.compaction_requests().is_empty(),
        "no summary was asked for\n{}",
        world.env.debug_context()
    );
    // Told at the end of that turn, under the answer.
    ui.wait_screen(
        "the notice of the stopped compaction",
        UI_TIMEOUT,
        |screen| screen.contains("Throughline stopped Claude Code's automatic compaction"),
    );
    let from = world.server.main_requests().len();
    ui.clear();
    world.ask(&mut ui, &prompt(turns + 1));
    ui.exit();
    assert!(world.server.compaction_requests().is_empty());
    let first = world.first_request_for(from, &prompt(turns + 1));
    assert!(
        first.messages_contain(MEMORY_HEADING),
        "{}",
        messages_text(&first)
    );
    assert!(
        first.messages_contain(&prompt(turns)) && first.messages_contain(&answer(turns)[..200]),
        "the latest exchange, verbatim, in the fresh session's first request:\n{}",
        messages_text(&first)
    );
    eprintln!(
        "fresh instead of compaction: threshold reached at turn {turns}, {} PreCompact(auto) \
         stopped, first request after /clear {} chars",
        stopped.len(),
        first.messages_chars()
    );
}
