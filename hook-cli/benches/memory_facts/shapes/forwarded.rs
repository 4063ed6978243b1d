//! Facts the person passes on from someone else: a chat message quoted under a request, an
//! email pasted whole, a ticket's line, a colleague's words reported ("Ana says …"), and the
//! assistant's findings beside them in its answers.

use fastrand::Rng;

use crate::filler::{pick, said_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "payouts-service",
    name: "payouts",
    dir: "",
    modules: &[
        "batches", "ledger", "fx", "webhooks", "reports", "limits", "retries", "accounts",
    ],
    nouns: &["payout", "batch", "transfer", "account"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("rust_decimal", "1.36.0"),
        ("reqwest", "0.12.9"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "the bank's payout API rejects batches over 500 transfers since Monday, split them on our side"),
    (Assistant, "Payouts in the same currency are netted per account before they go out, so one account gets one transfer a day."),
    (Person, "finance closes the books on the 3rd working day, no payout may be re-run after that without their written OK"),
    (Assistant, "The FX rate is locked when the batch is created, not when it is sent; a batch sent a day late still uses the old rate."),
    (Person, "the sandbox of the bank resets every Sunday at 02:00 UTC, any test account you create there is gone after that"),
    (Assistant, "A webhook with status RETURNED can arrive up to 10 days after a transfer settled, so the ledger entry has to stay reversible."),
    (Person, "accounts in Brazil need the CPF number on every transfer, the bank returns them otherwise"),
    (Assistant, "Retries use the batch id as the idempotency key, so sending the same batch twice creates no second transfer."),
    (Person, "from now on every payout above 50,000 EUR needs a second approver in the admin panel"),
    (Assistant, "The monthly payout report reads from the replica, which lags about 30 seconds behind the primary."),
    (Person, "the old CSV upload for payouts is switched off on January 15, customers have been told"),
    (Assistant, "Open question for you: should a returned transfer be retried automatically, or wait for someone in support to look at it?"),
];

/// How a fact from someone else reaches the prompt, around the request it stands beside.
fn passed_on(rng: &mut Rng, request: &str, fact: &str) -> String {
    let who = pick(rng, &["Ana", "Rahul", "Mei", "Jonas"]);
    match rng.usize(..4) {
        0 => format!("{request}\n\n{who} wrote this in #payments, keep it in mind:\n> {fact}"),
        1 => format!(
            "this came in from the bank's integration team, fyi:\n\nFrom: {who}\nSubject: payouts\n\nHi,\n\n{fact}\n\nBest regards,\n{who}\n\n{request}"
        ),
        2 => format!("{request}\n\nalso PAY-{}: {fact}", rng.u16(1000..9999)),
        _ => format!("{who} from finance says {fact}. {request}"),
    }
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    said_session(n, rng, &PROJECT, &FACTS, |rng, _, fact, turn| {
        match fact.by {
            Person => turn.prompt = passed_on(rng, &turn.prompt, fact.sentence),
            Assistant => {
                let at = rng.usize(..=turn.answer.len());
                turn.answer.insert(at, fact.sentence.to_string());
            }
        }
    })
}
