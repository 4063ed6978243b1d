//! Facts said as one item of a list, as people and agents write them down: the person's
//! ground rules in bullets or numbers before a task, the assistant's summary of what changed
//! with a bold label before an item, open questions in a list of their own. The items beside
//! a fact say nothing to keep.

use fastrand::Rng;

use crate::filler::{coding_turn, pick, Codebase, Project};
use crate::session::{fact_turns, plant, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "kestrel",
    name: "kestrel-shop",
    dir: "",
    modules: &[
        "checkout", "cart", "ledger", "uploads", "webhooks", "sessions", "catalog", "gateway",
    ],
    nouns: &["order", "refund", "upload", "price"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("stripe-rust", "0.26.1"),
        ("tower", "0.5.1"),
    ],
};

const FACTS: [(crate::session::Speaker, &str); 12] = [
    (Person, "all money amounts are integers in cents, never floats, and the ledger rounds nothing"),
    (Person, "the staging API is https://staging.kestrel.dev/api and only CI deploys to production"),
    (Assistant, "Sessions now expire after 12 hours of inactivity instead of 24, as the security review asked."),
    (Person, "webhooks from Stripe are verified with the signing secret before anything in them is parsed"),
    (Assistant, "The flaky checkout test was a race between the cart reset and the price fetch, now awaited in order."),
    (Person, "uploads larger than 25 MB go straight to S3 with a presigned URL, never through the API"),
    (Assistant, "Should refunds older than 90 days go through support instead of the refunds endpoint?"),
    (Person, "the design team owns the colour tokens in tokens.json, ask Mirela Popescu before changing them"),
    (Assistant, "Migration 0042 adds a unique index on (tenant_id, email) and backfills the duplicates first."),
    (Person, "we support Safari 16 and newer, nothing older, so no polyfill for structuredClone"),
    (Assistant, "The public API allows 600 requests per minute per key, counted in the gateway, not per instance."),
    (Person, "the release train leaves every Tuesday at 14:00 CET, anything merged later waits a week"),
];

/// How the person opens a list before the task.
const PERSON_LEADS: &[&str] = &[
    "A few things for the record:",
    "Before the next task, some notes:",
    "Quick list from the standup:",
    "Context for this one:",
];

/// Items beside the person's fact that say nothing to keep.
const PERSON_ITEMS: &[&str] = &[
    "I merged the branch from yesterday",
    "no rush on this one",
    "Dana already reviewed the last PR",
    "the ticket is in the sprint board",
    "thanks for the quick fix this morning",
    "I'm around until five today",
];

/// How the assistant opens a list in its answer.
const ASSISTANT_LEADS: &[&str] = &["Summary:", "What changed:", "Notes:", "Where things are:"];

/// Items beside the assistant's fact that say nothing to keep.
const ASSISTANT_ITEMS: &[&str] = &[
    "All tests pass.",
    "Clippy is clean.",
    "No other file changed.",
    "The docs are updated.",
    "Formatting is unchanged.",
];

/// Bold labels the assistant may put before an item.
const LABELS: &[&str] = &[
    "**Sessions:**",
    "**Tests:**",
    "**Database:**",
    "**API:**",
    "**Open:**",
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let facts = plant(&fact_turns(n, &mut Vec::new()), &FACTS);
    let mut turns: Vec<_> = (0..n).map(|_| coding_turn(rng, &code)).collect();
    for (i, fact) in facts.iter().enumerate() {
        let turn = &mut turns[fact.turn];
        match fact.by {
            Person => {
                // Bullets, stars or numbers; the fact first, in the middle or last.
                let mut items: Vec<String> = (0..2)
                    .map(|_| pick(rng, PERSON_ITEMS).to_string())
                    .collect();
                items.dedup();
                items.insert(rng.usize(..=items.len()), fact.sentence.to_string());
                let list: Vec<String> = items
                    .iter()
                    .enumerate()
                    .map(|(at, item)| match i % 3 {
                        0 => format!("- {item}"),
                        1 => format!("* {item}"),
                        _ => format!("{}. {item}", at + 1),
                    })
                    .collect();
                let lead = pick(rng, PERSON_LEADS);
                turn.prompt = format!("{lead}\n{}\n\n{}", list.join("\n"), turn.prompt);
            }
            Assistant => {
                let mut items: Vec<String> = (0..2)
                    .map(|_| pick(rng, ASSISTANT_ITEMS).to_string())
                    .collect();
                items.dedup();
                // Every other fact of the assistant's carries a bold label.
                let said = if i % 2 == 0 {
                    format!("{} {}", pick(rng, LABELS), fact.sentence)
                } else {
                    fact.sentence.to_string()
                };
                items.insert(rng.usize(..=items.len()), said);
                let list: Vec<String> = items.iter().map(|item| format!("- {item}")).collect();
                let lead = pick(rng, ASSISTANT_LEADS);
                let at = rng.usize(..=turn.answer.len());
                turn.answer
                    .insert(at, format!("{lead}\n{}", list.join("\n")));
            }
        }
    }
    Session::said(&code.root, turns, facts, Vec::new())
}
