//! Facts whose last word sits inside something: a name in backticks, an aside in brackets, a
//! phrase in quotes, as people end a remark they type ("… use the replica (port 5434)").

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "lanternfish",
    name: "lanternfish",
    dir: "",
    modules: &[
        "ingest",
        "alerts",
        "tenants",
        "reports",
        "scheduler",
        "storage",
        "api",
        "audit",
    ],
    nouns: &["alert", "tenant", "report", "job"],
    dependencies: &[
        ("fastapi", "0.115.5"),
        ("sqlalchemy", "2.0.36"),
        ("celery", "5.4.0"),
        ("pydantic", "2.10.2"),
    ],
};

const FACTS: [Said; 12] = [
    (
        Person,
        "the prod database is off limits, run migrations against the copy (port 5434)",
    ),
    (
        Person,
        "never push to main directly, open the PR against `develop`",
    ),
    (
        Assistant,
        "Done: retries now back off exponentially, capped at 60 s (was a flat 5 s).",
    ),
    (Person, "the CI image stays pinned to `python:3.11-slim`"),
    (
        Person,
        "keep the alert wording exactly as legal approved it: \"Delivery could not be confirmed\"",
    ),
    (
        Assistant,
        "Root cause: the scheduler read tenant time zones from the cache before it was warmed.",
    ),
    (
        Person,
        "secrets go in vault, not in .env files (ask Tomasz Wojcik for access)",
    ),
    (
        Person,
        "we're dropping the v1 reports endpoint at the end of March (finally)",
    ),
    (
        Assistant,
        "Should the audit export include deleted tenants, or only active ones?",
    ),
    (
        Person,
        "name the new queue `alerts-high` so the on-call dashboards pick it up",
    ),
    (
        Person,
        "batch size for ingest is 500 rows, anything bigger times out on the small plan (see INC-2291)",
    ),
    (
        Assistant,
        "Tests pass: 214 passed, 3 skipped because they need the S3 emulator.",
    ),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
