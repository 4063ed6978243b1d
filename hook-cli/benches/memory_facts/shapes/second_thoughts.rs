//! Decisions taken back the way people do it mid-conversation: no label, a "no wait", an
//! "on second thought", a plain contradiction. The fact is the later word; the memory should
//! not present what it takes back as if it still held.

use fastrand::Rng;

use crate::filler::{corrected_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "orchard",
    name: "orchard-crm",
    dir: "",
    modules: &[
        "contacts", "deals", "import", "email", "search", "billing", "reports", "sync",
    ],
    nouns: &["contact", "deal", "import", "invoice"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sea-orm", "1.1.1"),
        ("tantivy", "0.22.0"),
        ("lettre", "0.11.10"),
    ],
};

const STANDING: [Said; 4] = [
    (Person, "contacts are unique by email address per workspace, two workspaces may hold the same person twice"),
    (Assistant, "The CSV importer reads at most 50,000 rows per file, larger files are split by the upload page first."),
    (Person, "we bill per seat per month, and a seat that is deactivated mid-month is still billed to the end of it"),
    (Assistant, "Search uses tantivy with one index per workspace, stored under data/index/<workspace id>."),
];

/// Each later word, and the decision it takes back.
const CORRECTIONS: [(Said, Said); 8] = [
    (
        (Person, "no wait, forget Elasticsearch, we stay with tantivy in-process, nobody here wants to run a JVM cluster"),
        (Person, "let's move search over to Elasticsearch 8 so the sales team gets fuzzy matching on company names"),
    ),
    (
        (Assistant, "On second thought the deal stages should be a table, not an enum: every workspace renames and reorders its stages."),
        (Assistant, "I modelled the deal stages as a Rust enum with six variants, which keeps the pipeline code simple."),
    ),
    (
        (Person, "hmm, make it 7 days for the trial, 30 days was way too generous, half the signups never came back"),
        (Person, "the free trial lasts 30 days and needs no credit card, that is what marketing announced"),
    ),
    (
        (Assistant, "I was wrong about the bounce handling: Postmark sends bounces to /hooks/postmark/bounce, not to the inbound address."),
        (Assistant, "Bounced emails come back to the inbound address bounces@orchard.example, so the mail worker parses them there."),
    ),
    (
        (Person, "scrap the nightly sync with HubSpot, they only want a one-time import at signup now"),
        (Person, "we need a nightly two-way sync with HubSpot at 01:00 UTC for the enterprise customers"),
    ),
    (
        (Assistant, "Turns out the slow reports come from the N+1 query in load_deal_owners, not from the missing index I blamed before."),
        (Assistant, "The reports page is slow because deals has no index on (workspace_id, closed_at), I will add one."),
    ),
    (
        (Person, "Leo Marchetti takes over billing after all, Hannah Schultz stays on the import work until it ships"),
        (Person, "Hannah Schultz owns billing from next week, send her every question about invoices"),
    ),
    (
        (Assistant, "We keep sea-orm in the end: the sqlx rewrite would touch 140 queries for a gain nobody measured."),
        (Assistant, "Plan: we replace sea-orm with plain sqlx queries, the generated entities are getting in the way."),
    ),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    corrected_session(n, rng, &PROJECT, &STANDING, &CORRECTIONS)
}
