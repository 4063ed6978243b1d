//! What `/clear` with Throughline costs and keeps, measured on the real Claude Code CLI against
//! the scripted model server of the tests: characters of messages in the last request before
//! `/clear` and in the first one after it, whether the latest turns arrive verbatim, and how
//! many planted facts reach the memory as sentences (`support::facts`). Each memory is kept in
//! `bench/out/handoff-N-turns.md`.
//!
//!     cargo bench -p throughline --bench handoff_sizes [-- --turns 30,50]
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`, or
//! `THROUGHLINE_CLAUDE_BIN`) and `tmux`. Prints Markdown.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;
use support::throughline::{units, World};
use support::Script;
use support::{facts, scenario};

const NEXT: &str = "Where were we? Carry on with the currency checks.";

/// How many of the latest turns must arrive verbatim (the latest exchange included).
const VERBATIM: usize = 6;

struct Row {
    turns: usize,
    before: usize,
    after: usize,
    memory: usize,
    without_memory: usize,
    tool_output: usize,
    failed_tools: usize,
    verbatim_ok: bool,
    /// Turns given verbatim, as one-liners, and left out.
    shown: (usize, usize, u64),
    facts: Vec<(scenario::Fact, Option<&'static str>)>,
    seconds: f64,
}

fn measure(n: usize) -> Row {
    let started = Instant::now();
    let world = World::build(Script::new(), &[], scenario::project_files());
    let turns = scenario::turns(&world.env, n);
    let cleared = scenario::work_then_clear(&world, &turns, NEXT, "Picking it up.");
    let injection = cleared
        .injection
        .expect("an injection into the session after /clear");
    let text = injection["text"].as_str().expect("text").to_string();
    // Kept for reading: what the model got.
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    std::fs::create_dir_all(&out).expect("create bench/out");
    std::fs::write(out.join(format!("handoff-{n}-turns.md")), &text).expect("write the memory");
    let earlier = text.find("## Earlier turns").unwrap_or(text.len());
    let planted = scenario::facts(n)
        .into_iter()
        .map(|f| {
            let at = facts::kept(f.sentence, &text).then(|| {
                if facts::kept(f.sentence, &text[..earlier]) {
                    "verbatim"
                } else {
                    "one-liner"
                }
            });
            (f, at)
        })
        .collect();
    let results = cleared.last_before.tool_results();
    let after = cleared.first_after.messages_chars();
    Row {
        turns: n,
        before: cleared.last_before.messages_chars(),
        after,
        memory: units(&text),
        // The memory sits in the messages as a JSON string.
        without_memory: after - serde_json::to_string(&text).unwrap().chars().count(),
        tool_output: results.iter().map(|r| r.1.chars().count()).sum(),
        failed_tools: results.iter().filter(|r| r.2).count(),
        shown: (
            injection["verbatim"].as_array().map_or(0, Vec::len),
            injection["one_liners"].as_array().map_or(0, Vec::len),
            injection["left_out"].as_u64().unwrap_or(0),
        ),
        verbatim_ok: turns[n - VERBATIM..]
            .iter()
            .all(|t| text.contains(&t.prompt) && text.contains(&t.answer)),
        facts: planted,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --benches` runs this without `--bench`: nothing to check then.
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let sizes: Vec<usize> = args
        .iter()
        .position(|a| a == "--turns")
        .and_then(|i| args.get(i + 1))
        .map(|list| {
            list.split(',')
                .map(|n| n.trim().parse().expect("--turns takes numbers, e.g. 30,50"))
                .collect()
        })
        .unwrap_or_else(|| vec![30, 50]);
    let rows: Vec<Row> = sizes.into_iter().map(measure).collect();
    println!("| turns | last request before /clear | first request after | smaller by | memory (UTF-16) | first request without memory | latest + {} verbatim | turns verbatim / one-liners / left out | facts kept | tool errors | run |", VERBATIM - 1);
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for r in &rows {
        let kept = r.facts.iter().filter(|(_, at)| at.is_some()).count();
        println!(
            "| {} | {} chars ({} of tool output) | {} chars | **{:.1}%** | {} | {} chars | {} | {} / {} / {} | {kept}/{} | {} | {:.0} s |",
            r.turns,
            r.before,
            r.tool_output,
            r.after,
            100.0 * (1.0 - r.after as f64 / r.before as f64),
            r.memory,
            r.without_memory,
            if r.verbatim_ok { "yes" } else { "**no**" },
            r.shown.0,
            r.shown.1,
            r.shown.2,
            r.facts.len(),
            r.failed_tools,
            r.seconds
        );
    }
    for r in &rows {
        println!("\nFacts in the {}-turn session:\n", r.turns);
        for (f, at) in &r.facts {
            println!(
                "- turn {} ({}): {} → {}",
                f.turn + 1,
                if f.in_prompt { "prompt" } else { "answer" },
                f.sentence,
                at.unwrap_or("**lost**")
            );
        }
    }
}
