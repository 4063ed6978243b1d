//! Facts said half by the person and half by the assistant, in the forms a session carries
//! them: constraints, root causes, decisions, names and numbers inside sentences, a question
//! the person never answered, next steps.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "quill",
    name: "quill-sync",
    dir: "",
    modules: &[
        "merge", "clock", "ops", "trash", "protocol", "storage", "devices", "auth",
    ],
    nouns: &["document", "op", "device", "snapshot"],
    dependencies: &[
        ("tokio", "1.41.1"),
        ("prost", "0.13.3"),
        ("rustls", "0.23.19"),
        ("sqlx", "0.8.2"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "Hard constraint: never use port 8080 here, the corporate firewall blocks it; the dev server runs on port 8443."),
    (Assistant, "Root cause found: the flaky test test_merge_chain fails because created_at was written in local time instead of UTC."),
    (Person, "Decision: conflicts are resolved last-writer-wins per field, not per document, the editors complained about lost titles."),
    (Assistant, "Lena Fischer from the mobile team needs the sync protocol frozen by 2026-12-18 for the 4.2 app release."),
    (Person, "Hard limit: a single sync batch carries at most 500 operations and 2 MiB, the proxy in front drops bigger bodies."),
    (Assistant, "Open question for you: should deleted documents stay in the trash for 30 days, or be purged at the next compaction?"),
    (Person, "Ask Omar Haddad before touching the CRDT code in src/merge.rs, he is rewriting the tombstone handling this month."),
    (Assistant, "I went with a per-device vector clock stored as a compact map, which keeps the header under 64 bytes for 10 devices."),
    (Person, "The outage on Tuesday was the certificate on sync.quill.dev expiring; renewals now run from the cert-renew cron at 03:00."),
    (Assistant, "Next step: add a regression test that runs test_merge_chain with TZ=Asia/Tokyo, so the UTC bug cannot come back."),
    (Person, "We will ship the new sync protocol behind the header X-Quill-Sync: 3, and old clients keep using version 2."),
    (Assistant, "Next steps after this: benchmark the merge on the 40 MB sample document, then profile apply_ops if it takes over 200 ms."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
