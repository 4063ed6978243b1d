//! Facts said in few words, as people type between other things: short prompts in lower case,
//! short answers, most of them under sixty characters. A short fact counts only whole.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "tidepool",
    name: "tidepool",
    dir: "",
    modules: &[
        "orders", "export", "billing", "webhook", "catalog", "search", "auth", "mail",
    ],
    nouns: &["order", "export", "product", "customer"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("serde", "1.0.215"),
        ("tokio", "1.41.1"),
    ],
};

const FACTS: [Said; 12] = [
    (
        Person,
        "prod db is read-only for us, use the replica on 5434",
    ),
    (Person, "deadline moved to friday the 12th"),
    (
        Assistant,
        "Done: the webhook secret now comes from WEBHOOK_SECRET, not config.toml.",
    ),
    (Person, "don't add moment.js, we're on date-fns"),
    (Person, "node 20 only, the build box can't run 22"),
    (
        Assistant,
        "Fixed: the export endpoint timed out at 5 s, it now allows 30 s.",
    ),
    (Person, "ask Priya Nair before touching the billing schema"),
    (
        Assistant,
        "Tests pass; 2 are skipped because they need a live Redis.",
    ),
    (Person, "tabs in the go files, spaces everywhere else"),
    (Assistant, "Should the CSV export include archived orders?"),
    (Person, "ship it behind the beta_export flag"),
    (Person, "the logo is 32px in the header, not 40"),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
