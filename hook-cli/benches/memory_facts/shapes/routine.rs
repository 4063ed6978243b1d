//! Everyday coding work with short answers: reads, searches, edits and test runs.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "tidepool",
    name: "tidepool",
    dir: "",
    modules: &[
        "lease", "claim", "queue", "worker", "schedule", "compact", "retry", "metrics",
    ],
    nouns: &["job", "lease", "worker", "batch"],
    dependencies: &[
        ("tokio", "1.41.1"),
        ("rusqlite", "0.32.1"),
        ("serde", "1.0.215"),
        ("tracing", "0.1.41"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "Note for later: the staging scheduler listens on port 8443, the corporate firewall blocks 8080 there."),
    (Assistant, "Decision: job leases expire after 45 seconds, and a worker renews its lease every 15 seconds while the job runs."),
    (Person, "We agreed to keep SQLite in WAL mode for the job queue instead of moving to Postgres this quarter."),
    (Assistant, "The on-call owner for tidepool is Marguerite Okafor, and incidents go to the #tidepool-oncall channel."),
    (Person, "The nightly compaction must never delete more than 5000 finished jobs per run, or the replica falls behind."),
    (Assistant, "Found it: the flaky test is tests/lease_test.rs::renews_before_expiry, it sleeps on the wall clock instead of the mock clock."),
    (Person, "Set the retry backoff cap to 32 seconds and give up after 9 attempts, never retry a job forever."),
    (Assistant, "Decision: the feature flag TIDEPOOL_FAST_CLAIM stays off in production until the lease bug is fixed."),
    (Person, "If the rollout goes wrong, release tag v3.14.2 is the rollback target, not v3.15.0."),
    (Assistant, "The queue's error budget is 0.7 percent of jobs per month, so this change has to ship behind the flag."),
    (Person, "Run scripts/migrate_0042.sql before deploying, it adds the lease_owner column that the new code reads."),
    (Assistant, "Fixed: the claim query now uses the index jobs_by_state_due, so claiming a job takes 3 ms instead of 180 ms."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
