//! Findings said on the way, as the client writes them: in the assistant's text between two
//! tool calls ("The 502s come from … Let me fix that." and then the edit), with only a short
//! word of its own at the end; and the person's remarks on a line of their own under a
//! request.

use fastrand::Rng;

use crate::filler::{pick, said_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "harbor-booking",
    name: "harbor",
    dir: "",
    modules: &[
        "berths", "pricing", "invoices", "gateway", "calendar", "sync", "mailer", "auth",
    ],
    nouns: &["berth", "booking", "invoice", "slot"],
    dependencies: &[
        ("actix-web", "4.9.0"),
        ("sqlx", "0.8.2"),
        ("lettre", "0.11.10"),
        ("time", "0.3.36"),
    ],
};

const FACTS: [Said; 12] = [
    (Assistant, "The 502s come from the gateway's 30 second timeout: the invoice PDF takes 41 seconds for harbours with more than 300 berths."),
    (Person, "btw the harbour master's calendar is the source of truth for berth closures, our table only mirrors it every 15 minutes"),
    (Assistant, "Found it: sync_calendar compares dates in UTC while the calendar sends local times, so closures after 23:00 land on the next day."),
    (Person, "invoices must carry the VAT number of the harbour, not of the operator, the tax office sent two back last month"),
    (Assistant, "The lettre transport opens a new SMTP connection per email, and the relay allows only 20 connections a minute, which is why reminders stall."),
    (Person, "prices for the summer season are locked on March 1st, after that only Henrik can change them"),
    (Assistant, "This booking table has a unique index on (berth_id, night), so a double booking fails at insert instead of in our code."),
    (Person, "we never delete a booking, cancelled ones get status cancelled so the audit trail stays complete"),
    (Assistant, "The flaky calendar test depends on the machine's time zone; it passes in CI only because the runners are set to UTC."),
    (Person, "the staging SMTP relay is mailtrap, nothing sent from staging reaches a real inbox so test freely there"),
    (Assistant, "Bookings over 14 nights skip the nightly rate table because the weekly rate applies, and that branch had no test until now."),
    (Assistant, "One thing is left: the reminder job still reads the old berths view, which disappears with migration 0042."),
];

/// What the assistant says after a finding, before its next tool call.
const GOING_ON: &[&str] = &[
    "",
    " Let me fix that.",
    " Let me look at the test next.",
    " I'll change it and run the tests.",
];

/// What a person's remark on its own line stands under.
const ASIDE: &[&str] = &["", "also, ", "one more thing: "];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    said_session(
        n,
        rng,
        &PROJECT,
        &FACTS,
        |rng, code, fact, turn| match fact.by {
            Person => {
                let aside = pick(rng, ASIDE);
                turn.prompt = format!("{}\n\n{aside}{}", turn.prompt, fact.sentence);
            }
            Assistant => {
                if turn.steps.is_empty() {
                    let module = code.module(rng);
                    turn.steps.push((String::new(), code.read(module)));
                }
                let at = rng.usize(..turn.steps.len());
                let going_on = pick(rng, GOING_ON);
                turn.steps[at].0 = format!("{}{going_on}", fact.sentence);
            }
        },
    )
}
