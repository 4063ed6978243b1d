//! Facts said in passing, as people say them: no label in front ("Decision:", "Note:"),
//! inside a longer prompt or answer, by the person and by the assistant.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "ledgerline",
    name: "ledgerline",
    dir: "",
    modules: &[
        "invoice", "tax", "export", "upload", "auth", "report", "currency", "audit",
    ],
    nouns: &["invoice", "line", "account", "report"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("rust_decimal", "1.36.0"),
        ("tower", "0.5.1"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "btw the staging database listens on 5433 because the legacy postgres on that box already took 5432."),
    (Assistant, "The upload hangs because nginx caps request bodies at 1 MB by default, so client_max_body_size has to go up to 25m for the PDF imports."),
    (Person, "ok let's go with pnpm and drop yarn, the yarn lockfile broke CI three times last week."),
    (Assistant, "I set the export retry limit to 3 attempts with backoff starting at 200 ms, since the tax service rate-limits bursts above 20 requests per second."),
    (Person, "heads up, Maria Lindqvist is away until the 14th, so nothing merges into release/2.8 without a review from Tom Becker."),
    (Assistant, "Invoices now round VAT per line item with banker's rounding, which is what the Dutch auditors asked for in their letter."),
    (Person, "the client said German invoices have to show the reverse-charge note on every page, not just on the first one."),
    (Assistant, "The report job was slow because it loaded every invoice line into memory; it now streams them in pages of 1000 and finishes in 40 seconds instead of 11 minutes."),
    (Person, "please don't touch src/currency/rates.rs this sprint, finance is auditing those conversion tables until January."),
    (Assistant, "One thing I could not settle: should credit notes reuse the original invoice number with a -CN suffix, or get numbers of their own?"),
    (Person, "we're moving the audit log out of Postgres into S3 with object lock, the retention rule is seven years for tax records."),
    (Assistant, "What is left is wiring the new exporter into the nightly cron and deleting the old CSV path once finance confirms the files match."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
