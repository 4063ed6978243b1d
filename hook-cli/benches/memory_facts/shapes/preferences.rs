//! What the person wants said as a wish, a habit or a taste ("I'd rather …", "we usually
//! …", "my rule of thumb: …"), and what the assistant noticed about the project said as an
//! observation ("This repo …", "I noticed …"): no label, few rule words.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "tidewater",
    name: "tidewater",
    dir: "",
    modules: &[
        "booking", "harbour", "berth", "invoice", "weather", "crew", "notify", "report",
    ],
    nouns: &["booking", "berth", "vessel", "invoice"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("serde", "1.0.215"),
        ("reqwest", "0.12.9"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "I'd rather we keep the axum handlers thin and put the booking logic in src/services, the last project got messy the other way."),
    (Assistant, "I noticed the CI image still runs Rust 1.79, so let-else chains and the newer std APIs in this change would break the build there."),
    (Person, "we usually squash-merge into develop and only the release manager merges develop into main, on Thursdays."),
    (Assistant, "This repo stores every timestamp as UTC in the database and converts to the harbour's local time only in the templates."),
    (Person, "my rule of thumb here: a PR stays under 400 changed lines, split it otherwise, reviewers stop reading after that."),
    (Person, "I prefer integration tests that hit the real Postgres from docker-compose over mocks, the mocks hid two bugs last quarter."),
    (Assistant, "The weather client already retries twice inside reqwest-middleware, so wrapping it in our own retry would make five calls per failure."),
    (Person, "Ines from the harbour office is the one who decides berth pricing, so any change to the tariff table goes through her first."),
    (Assistant, "Berth numbers are strings, not integers: the old harbour uses codes like B12a and K3-north that the import must keep as written."),
    (Person, "personally I like error messages that tell the harbour staff what to do next, not stack traces, they are not developers."),
    (Assistant, "One thing I'd like you to decide: should cancelled bookings free the berth at once or only after the 24-hour grace period?"),
    (Person, "we're on the free tier of the SMS provider, 500 messages a month, so notifications go by email unless the booking is within 2 hours."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
