//! A migration off an old service layer: what must stay compatible and until when, how the
//! switch is staged, what the checks found and what is left, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "accounts-platform",
    name: "accounts",
    dir: "",
    modules: &[
        "users",
        "accounts",
        "billing",
        "reports",
        "backfill",
        "dualwrite",
        "admin",
        "export",
    ],
    nouns: &["account", "user", "report", "row"],
    dependencies: &[
        ("diesel", "2.2.5"),
        ("sqlx", "0.8.2"),
        ("chrono", "0.4.38"),
        ("insta", "1.41.1"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "the v1 API stays up until March 31, two enterprise customers still call it and their contracts say so"),
    (Assistant, "UserService is now a thin wrapper around AccountStore; every call site in billing/ still goes through the wrapper."),
    (Person, "do the migration one module at a time, one PR each, no big-bang PR, reviewers can't read 4,000 lines"),
    (Assistant, "The old ORM converted timestamps to local time on read, so the new repository layer converts explicitly to keep the API output identical."),
    (Person, "we're dropping Python 3.8 support with this release but keep 3.9, the ubuntu 20.04 boxes at the bank still run it"),
    (Assistant, "Snapshot tests of all 212 v1 responses pass against the new code, except /v1/reports which now sorts by id instead of by name."),
    (Person, "the sort order change in /v1/reports is not acceptable, customers parse those by position, keep sorting by name"),
    (Assistant, "I left the legacy_models package in place because the nightly export cron still imports it; removing it waits for the export rewrite."),
    (Person, "run the dual-write for two weeks, compare the tables every night, only then switch reads to the new schema"),
    (Assistant, "The backfill processed 18.4 million rows in 3 h 10 min; 212 rows failed because their email column holds two addresses."),
    (Person, "Marta signs off on anything touching the billing tables, she's on holiday until the 14th so billing waits"),
    (Assistant, "What is left: the admin panel still reads the old users table directly, so it must move to AccountStore before the old table can go."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
