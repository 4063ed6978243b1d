//! What the reader of a memory gets: generated sessions of several shapes, 12 facts planted
//! in each (early, in the middle and late), and how many of those facts reach the memory the
//! next session would receive as sentences (`tests/support/facts.rs`: the sentence whole, or
//! 40 consecutive characters of it). No client runs: each session is written as the transcript
//! Claude Code writes, into a temp HOME's `~/.claude/projects`, and stored by the library's
//! import, as `throughline import` does; the memory is what `/clear` would hand on
//! (`handoff::preview` with `Trigger::Clear`: both parts; `THROUGHLINE_MEMORY_TOTAL=9500` for
//! one).
//!
//!     cargo bench -p throughline --bench memory_facts [-- --turns 30,50 --shape logs --verbose]
//!
//! Shapes: routine, long-answers, logs, topics, cjk, corrections, mixed-voice, plain, spoken,
//! reports, second-thoughts, debugging, terse, quiet-corrections, asides, lists, replies,
//! european, spec, korean, preferences, incident, tutoring, frontend, data, integration,
//! infra, security, ml, performance, mobile, migration, midway, forwarded, narrative (all by
//! default), each at 30, 50, 100 and 200 turns. Prints Markdown; `--verbose` lists the facts lost. Each memory is kept
//! in `bench/out/memory-<shape>-<turns>.md`. A measurement: it always exits 0.

#[path = "memory_facts/shapes/asides.rs"]
mod asides;
#[path = "memory_facts/shapes/cjk.rs"]
mod cjk;
#[path = "memory_facts/shapes/corrections.rs"]
mod corrections;
#[path = "memory_facts/shapes/data.rs"]
mod data;
#[path = "memory_facts/shapes/debugging.rs"]
mod debugging;
#[path = "memory_facts/shapes/european.rs"]
mod european;
#[path = "../tests/support/facts.rs"]
mod facts;
#[path = "memory_facts/filler.rs"]
mod filler;
#[path = "memory_facts/shapes/forwarded.rs"]
mod forwarded;
#[path = "memory_facts/shapes/frontend.rs"]
mod frontend;
#[path = "memory_facts/shapes/incident.rs"]
mod incident;
#[path = "memory_facts/shapes/infra.rs"]
mod infra;
#[path = "memory_facts/shapes/integration.rs"]
mod integration;
#[path = "memory_facts/shapes/korean.rs"]
mod korean;
#[path = "memory_facts/shapes/lists.rs"]
mod lists;
#[path = "memory_facts/shapes/logs.rs"]
mod logs;
#[path = "memory_facts/shapes/long_answers.rs"]
mod long_answers;
#[path = "memory_facts/shapes/midway.rs"]
mod midway;
#[path = "memory_facts/shapes/migration.rs"]
mod migration;
#[path = "memory_facts/shapes/mixed_voice.rs"]
mod mixed_voice;
#[path = "memory_facts/shapes/ml.rs"]
mod ml;
#[path = "memory_facts/shapes/mobile.rs"]
mod mobile;
#[path = "memory_facts/shapes/narrative.rs"]
mod narrative;
#[path = "memory_facts/shapes/performance.rs"]
mod performance;
#[path = "memory_facts/phrased.rs"]
mod phrased;
#[path = "memory_facts/shapes/plain.rs"]
mod plain;
#[path = "memory_facts/shapes/preferences.rs"]
mod preferences;
#[path = "memory_facts/shapes/quiet_corrections.rs"]
mod quiet_corrections;
#[path = "memory_facts/shapes/replies.rs"]
mod replies;
#[path = "memory_facts/shapes/reports.rs"]
mod reports;
#[path = "memory_facts/shapes/routine.rs"]
mod routine;
#[path = "memory_facts/shapes/second_thoughts.rs"]
mod second_thoughts;
#[path = "memory_facts/shapes/security.rs"]
mod security;
#[path = "memory_facts/session.rs"]
mod session;
#[path = "memory_facts/shapes/spec.rs"]
mod spec;
#[path = "memory_facts/shapes/spoken.rs"]
mod spoken;
#[path = "memory_facts/shapes/terse.rs"]
mod terse;
#[path = "memory_facts/shapes/topics.rs"]
mod topics;
#[path = "memory_facts/shapes/tutoring.rs"]
mod tutoring;

use std::path::Path;

use session::{Planted, Session, Speaker};
use throughline::home::Home;
use throughline::store::Trigger;
use throughline::{config, handoff, import};

struct Shape {
    name: &'static str,
    generate: fn(usize, &mut fastrand::Rng) -> Session,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "routine",
        generate: routine::session,
    },
    Shape {
        name: "long-answers",
        generate: long_answers::session,
    },
    Shape {
        name: "logs",
        generate: logs::session,
    },
    Shape {
        name: "topics",
        generate: topics::session,
    },
    Shape {
        name: "cjk",
        generate: cjk::session,
    },
    Shape {
        name: "corrections",
        generate: corrections::session,
    },
    Shape {
        name: "mixed-voice",
        generate: mixed_voice::session,
    },
    Shape {
        name: "plain",
        generate: plain::session,
    },
    Shape {
        name: "spoken",
        generate: spoken::session,
    },
    Shape {
        name: "reports",
        generate: reports::session,
    },
    Shape {
        name: "second-thoughts",
        generate: second_thoughts::session,
    },
    Shape {
        name: "debugging",
        generate: debugging::session,
    },
    Shape {
        name: "terse",
        generate: terse::session,
    },
    Shape {
        name: "quiet-corrections",
        generate: quiet_corrections::session,
    },
    Shape {
        name: "asides",
        generate: asides::session,
    },
    Shape {
        name: "lists",
        generate: lists::session,
    },
    Shape {
        name: "replies",
        generate: replies::session,
    },
    Shape {
        name: "european",
        generate: european::session,
    },
    Shape {
        name: "spec",
        generate: spec::session,
    },
    Shape {
        name: "korean",
        generate: korean::session,
    },
    Shape {
        name: "preferences",
        generate: preferences::session,
    },
    Shape {
        name: "incident",
        generate: incident::session,
    },
    Shape {
        name: "tutoring",
        generate: tutoring::session,
    },
    Shape {
        name: "frontend",
        generate: frontend::session,
    },
    Shape {
        name: "data",
        generate: data::session,
    },
    Shape {
        name: "integration",
        generate: integration::session,
    },
    Shape {
        name: "infra",
        generate: infra::session,
    },
    Shape {
        name: "security",
        generate: security::session,
    },
    Shape {
        name: "ml",
        generate: ml::session,
    },
    Shape {
        name: "performance",
        generate: performance::session,
    },
    Shape {
        name: "mobile",
        generate: mobile::session,
    },
    Shape {
        name: "migration",
        generate: migration::session,
    },
    Shape {
        name: "midway",
        generate: midway::session,
    },
    Shape {
        name: "forwarded",
        generate: forwarded::session,
    },
    Shape {
        name: "narrative",
        generate: narrative::session,
    },
];

const SIZES: [usize; 4] = [30, 50, 100, 200];

/// Fixed, so every run measures the same sessions.
const SEED: u64 = 20_261_130;

/// Words that mark a decision as taken back, on its lines or in the heading above them.
const TAKEN_BACK: &[&str] = &[
    "supersed",
    "replaced",
    "overrid",
    "obsolete",
    "outdated",
    "no longer",
    "reverted",
    "withdrawn",
    "corrected",
    "~~",
];

struct Measured {
    turns: usize,
    /// UTF-16 code units, as Claude Code counts the memory.
    size: usize,
    /// Each fact, whether it was kept, and its longest part in the memory.
    facts: Vec<(Planted, bool, usize)>,
    /// Superseded decisions the memory still presents as if they held.
    unmarked: Vec<Planted>,
    superseded: usize,
}

/// Stores `session` as `throughline import` would and returns the memory a next session gets.
fn memory_of(session: &Session, rng: &mut fastrand::Rng) -> String {
    let dir = tempfile::tempdir().expect("a temp dir");
    let session_id = session::uuid(rng);
    let projects = dir.path().join("home/.claude/projects");
    let folder = projects.join(
        session
            .cwd
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-"),
    );
    std::fs::create_dir_all(&folder).expect("create the projects folder");
    std::fs::write(
        folder.join(format!("{session_id}.jsonl")),
        session::transcript(session, &session_id, rng),
    )
    .expect("write the transcript");
    let home = Home::at(dir.path().join("throughline"));
    let imported = import::import(
        &home,
        throughline::hosts::claude::HOST,
        Some(projects),
        false,
        &mut |_| {},
    )
    .expect("import the transcript");
    assert!(
        imported.problems.is_empty() && imported.records > 0,
        "the transcript reads cleanly: {:?}",
        imported.problems
    );
    let store = throughline::open_store(&home).expect("open the store");
    let memory = handoff::preview(
        &store,
        &session_id,
        Trigger::Clear,
        &config::load(&home).config,
    )
    .expect("build the memory")
    .expect("a memory of a session with turns");
    // After /clear Claude Code passes both parts into the first request.
    match memory.more {
        Some(more) => format!("{}\n{more}", memory.text),
        None => memory.text,
    }
}

fn measure(shape_index: usize, turns: usize) -> Measured {
    let shape = &SHAPES[shape_index];
    let mut rng = fastrand::Rng::with_seed(SEED + 1000 * shape_index as u64 + turns as u64);
    let session = (shape.generate)(turns, &mut rng);
    let memory = memory_of(&session, &mut rng);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    std::fs::create_dir_all(&out).expect("create bench/out");
    std::fs::write(
        out.join(format!("memory-{}-{turns}.md", shape.name)),
        &memory,
    )
    .expect("keep the memory");
    let superseded = session.superseded.len();
    Measured {
        turns,
        size: memory.encode_utf16().count(),
        unmarked: session
            .superseded
            .into_iter()
            .filter(|p| shown_unmarked(p.sentence, &memory))
            .collect(),
        superseded,
        facts: session
            .facts
            .into_iter()
            .map(|f| {
                let kept = facts::kept(f.sentence, &memory);
                let part = facts::longest_part(f.sentence, &memory);
                (f, kept, part)
            })
            .collect(),
    }
}

/// Whether `memory` shows the decision `stale` (kept by the same rule as a fact) somewhere
/// without marking it taken back.
fn shown_unmarked(stale: &str, memory: &str) -> bool {
    let lines: Vec<&str> = memory.lines().collect();
    let carries = |from: usize, to: usize| facts::kept(stale, &lines[from..to].join("\n"));
    (0..lines.len()).any(|start| {
        // The fewest lines from `start` that carry it: a memory may wrap a sentence.
        let Some(end) = (start + 1..=lines.len().min(start + 4)).find(|&end| carries(start, end))
        else {
            return false;
        };
        if carries(start + 1, end) {
            // Counted from its first line only.
            return false;
        }
        let heading = lines[..start]
            .iter()
            .rev()
            .find(|l| l.starts_with('#'))
            .unwrap_or(&"");
        let around = format!("{heading}\n{}", lines[start..end].join("\n")).to_lowercase();
        !TAKEN_BACK.iter().any(|mark| around.contains(mark))
    })
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn kept(m: &Measured) -> usize {
    m.facts.iter().filter(|(_, kept, _)| *kept).count()
}

fn print_shape(name: &str, rows: &[Measured], verbose: bool) {
    let corrections = rows.iter().any(|m| m.superseded > 0);
    println!("\n### {name}\n");
    if corrections {
        println!("| turns | facts kept | memory (UTF-16) | superseded decisions shown unmarked |");
        println!("|---:|---:|---:|---:|");
    } else {
        println!("| turns | facts kept | memory (UTF-16) |");
        println!("|---:|---:|---:|");
    }
    for m in rows {
        let unmarked = if corrections {
            format!(" {}/{} |", m.unmarked.len(), m.superseded)
        } else {
            String::new()
        };
        println!(
            "| {} | {}/{} | {} |{unmarked}",
            m.turns,
            kept(m),
            m.facts.len(),
            thousands(m.size)
        );
    }
    let total: usize = rows.iter().map(kept).sum();
    let planted: usize = rows.iter().map(|m| m.facts.len()).sum();
    let unmarked = if corrections {
        let shown: usize = rows.iter().map(|m| m.unmarked.len()).sum();
        let of: usize = rows.iter().map(|m| m.superseded).sum();
        format!(" **{shown}/{of}** |")
    } else {
        String::new()
    };
    println!("| **total** | **{total}/{planted}** | |{unmarked}");
    if !verbose {
        return;
    }
    for m in rows {
        let lost: Vec<_> = m.facts.iter().filter(|(_, kept, _)| !kept).collect();
        if !lost.is_empty() {
            println!("\nLost at {} turns:", m.turns);
            for (f, _, part) in lost {
                println!(
                    "- turn {} ({}; longest part {part} chars): {}",
                    f.turn + 1,
                    who(f.by),
                    f.sentence
                );
            }
        }
        if !m.unmarked.is_empty() {
            println!(
                "\nSuperseded but shown as if it held, at {} turns:",
                m.turns
            );
            for p in &m.unmarked {
                println!("- turn {} ({}): {}", p.turn + 1, who(p.by), p.sentence);
            }
        }
    }
}

fn who(by: Speaker) -> &'static str {
    match by {
        Speaker::Person => "person",
        Speaker::Assistant => "assistant",
    }
}

fn value_of<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == flag)?;
    Some(args.get(at + 1).map(String::as_str).unwrap_or_else(|| {
        eprintln!("{flag} needs a value");
        std::process::exit(2)
    }))
}

/// `cargo test --benches` runs this file without `--bench`: it then checks the rule it
/// scores by, and nothing else.
fn check_the_rule() {
    let fact = "Hard constraint: never use port 8080 here, the corporate firewall blocks it.";
    assert!(
        !facts::kept(fact, "- turn 12: port 8080, firewall"),
        "a key token alone"
    );
    assert!(
        facts::kept(
            fact,
            "… never use port 8080 here, the\n  corporate firewall …"
        ),
        "40 characters in a row, rewrapped"
    );
    assert!(
        !facts::kept(fact, "never use port 8080 here, the corporate"),
        "39 characters"
    );
    let short = "决定：前端只用 8443 端口。";
    assert!(facts::kept(short, &format!("- {short}")));
    assert!(!facts::kept(short, "决定：前端只用 8443"));
    let stale = "Decision: we will use Redis for the cache, since it is already deployed.";
    assert!(shown_unmarked(
        stale,
        &format!("## Earlier turns\n- 3: {stale}")
    ));
    assert!(!shown_unmarked(
        stale,
        &format!("- 3 (superseded by turn 9): {stale}")
    ));
    assert!(!shown_unmarked(
        stale,
        &format!("## Superseded decisions\n\n- {stale}")
    ));
    assert!(!shown_unmarked(stale, "- 3: Redis for the cache"));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        check_the_rule();
        return;
    }
    let sizes: Vec<usize> = value_of(&args, "--turns").map_or(SIZES.to_vec(), |list| {
        list.split(',')
            .map(|n| {
                n.trim().parse().unwrap_or_else(|_| {
                    eprintln!("--turns takes numbers, e.g. 30,50");
                    std::process::exit(2)
                })
            })
            .collect()
    });
    let shapes: Vec<usize> =
        value_of(&args, "--shape").map_or((0..SHAPES.len()).collect(), |list| {
            list.split(',')
                .map(|name| {
                    SHAPES
                        .iter()
                        .position(|s| s.name == name.trim())
                        .unwrap_or_else(|| {
                            let names: Vec<&str> = SHAPES.iter().map(|s| s.name).collect();
                            eprintln!("no shape {name:?}; shapes: {}", names.join(", "));
                            std::process::exit(2)
                        })
                })
                .collect()
        });
    let verbose = args.iter().any(|a| a == "--verbose");
    println!("## Facts kept as sentences (memory_facts)");
    println!(
        "\nA fact is kept when its sentence, or {} consecutive characters of it, reaches the memory \
         (white space collapsed); 12 facts per session. Memories are in bench/out/memory-<shape>-<turns>.md.",
        facts::MIN_PART
    );
    let mut summary = Vec::new();
    for &s in &shapes {
        let rows: Vec<Measured> = sizes.iter().map(|&n| measure(s, n)).collect();
        print_shape(SHAPES[s].name, &rows, verbose);
        summary.push((
            SHAPES[s].name,
            rows.iter()
                .map(|m| (kept(m), m.facts.len()))
                .collect::<Vec<_>>(),
        ));
    }
    println!("\n### All shapes: facts kept\n");
    let header: Vec<String> = sizes.iter().map(|n| format!("{n} turns")).collect();
    println!("| shape | {} | total |", header.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(sizes.len()));
    let ratio = |cells: &[(usize, usize)]| {
        let (kept, of) = cells.iter().fold((0, 0), |(k, of), c| (k + c.0, of + c.1));
        format!("{kept}/{of}")
    };
    for (name, cells) in &summary {
        let each: Vec<String> = cells.iter().map(|c| ratio(&[*c])).collect();
        println!("| {name} | {} | {} |", each.join(" | "), ratio(cells));
    }
    let by_size: Vec<Vec<(usize, usize)>> = (0..sizes.len())
        .map(|i| summary.iter().map(|(_, cells)| cells[i]).collect())
        .collect();
    let each: Vec<String> = by_size
        .iter()
        .map(|cells| format!("**{}**", ratio(cells)))
        .collect();
    println!(
        "| **all** | {} | **{}** |",
        each.join(" | "),
        ratio(&by_size.concat())
    );
}
