//! Facts said as replies: the person answers the question the assistant ended its last turn
//! with, in a few words that carry the fact ("prod runs Postgres 15.4, staging is already on
//! 16"), and the assistant answers the person's question with one. A reply read alone looks
//! like chatter; read with its question it is the decision.

use fastrand::Rng;

use crate::filler::{coding_turn, Codebase, Project};
use crate::session::{fact_turns, plant, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "ledgerline",
    name: "ledgerline",
    dir: "",
    modules: &[
        "billing", "invoices", "imports", "exports", "tenants", "payments", "cache", "jobs",
    ],
    nouns: &["invoice", "payment", "tenant", "export"],
    dependencies: &[
        ("tokio", "1.41.1"),
        ("sqlx", "0.8.2"),
        ("reqwest", "0.12.9"),
        ("chrono", "0.4.38"),
    ],
};

/// Each fact, and the question it answers: the assistant's at the end of the turn before
/// (for the person's reply), or the person's prompt (for the assistant's answer).
const REPLIES: [((crate::session::Speaker, &str), &str); 12] = [
    (
        (Person, "prod runs Postgres 15.4, staging is already on 16 since last week"),
        "Which Postgres version does production run, and is staging the same?",
    ),
    (
        (Person, "yes, keep the old endpoint alive until the mobile app 3.2 is out, then delete it"),
        "Should I keep the v1 invoices endpoint for now, or remove it with this change?",
    ),
    (
        (Assistant, "The nightly job takes about 40 minutes, most of it in the currency conversion step."),
        "How long does the nightly job take these days?",
    ),
    (
        (Person, "no, the import job must stay single-threaded, the vendor API bans parallel sessions"),
        "Would it help to run the import job with several workers?",
    ),
    (
        (Person, "use the EU bucket ledgerline-eu-1 for all uploads, the US one is only for backups"),
        "Which bucket should the uploads go to?",
    ),
    (
        (Assistant, "The cache key holds the tenant id and the locale, so two locales never share an entry."),
        "Can two locales end up sharing a cached invoice?",
    ),
    (
        (Person, "both, but the CSV export is what finance actually opens every Monday"),
        "Do you want the export as CSV, as XLSX, or both?",
    ),
    (
        (Person, "Alicia Gomez signs off on anything touching payments, not me"),
        "Who should review the payments change before it merges?",
    ),
    (
        (Assistant, "There are 3 callers of charge_card, all in src/payments, and none of them retries on a timeout."),
        "Who calls charge_card, and does anything retry it?",
    ),
    (
        (Person, "ok so going forward every migration needs a down step, we got burned on Friday"),
        "Do you want a down step for this migration, or is up only fine?",
    ),
    (
        (Person, "fine, the timeout stays at 30 s for now, we revisit after the load test"),
        "Should I raise the HTTP timeout from 30 s, or leave it?",
    ),
    (
        (Assistant, "Invoices are generated at 02:00 UTC from now on, so the EU morning already sees them."),
        "When do the invoices get generated now?",
    ),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let said: Vec<_> = REPLIES.iter().map(|(fact, _)| *fact).collect();
    // The person replies to the turn before, so no fact opens the session.
    let mut taken = vec![0];
    let facts = plant(&fact_turns(n, &mut taken), &said);
    let mut turns: Vec<_> = (0..n).map(|_| coding_turn(rng, &code)).collect();
    for (fact, (_, question)) in facts.iter().zip(REPLIES) {
        match fact.by {
            Person => {
                turns[fact.turn - 1].answer.push(question.to_string());
                turns[fact.turn].prompt = fact.sentence.to_string();
            }
            Assistant => {
                let turn = &mut turns[fact.turn];
                turn.prompt = question.to_string();
                let at = rng.usize(..=turn.answer.len());
                turn.answer.insert(at, fact.sentence.to_string());
            }
        }
    }
    Session::said(&code.root, turns, facts, Vec::new())
}
