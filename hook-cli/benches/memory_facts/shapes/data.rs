//! Data work: what the files and tables really hold, what to leave out and why, said as the
//! person and the assistant find out, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "churn-analysis",
    name: "churn",
    dir: "",
    modules: &[
        "load", "clean", "features", "model", "report", "cohort", "export", "plots",
    ],
    nouns: &["row", "cohort", "feature", "account"],
    dependencies: &[
        ("polars", "0.44.2"),
        ("csv", "1.3.1"),
        ("chrono", "0.4.38"),
        ("plotters", "0.3.7"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "the export from the CRM uses semicolons between fields and commas as decimal marks, it's a German system"),
    (Assistant, "Rows before March 2019 have no region column at all; the loader fills it with 'unknown' instead of dropping them."),
    (Person, "leave out test accounts, their emails end in @example.org or @acme-test.de, sales made hundreds of them"),
    (Assistant, "Churn here means no login for 60 days, which is the definition the board report uses, not a cancelled contract."),
    (Person, "amounts in the invoices table are net of VAT, the ones in payments are gross, don't mix them"),
    (Assistant, "The cohort chart looked flat because signups were counted by invoice date; counting by account creation fixes it."),
    (Person, "the March 2023 numbers are wrong in the source, a migration doubled every invoice that month, skip that month entirely"),
    (Assistant, "I dropped 1,284 duplicate rows where the same account_id and timestamp appear twice, all from the nightly re-import."),
    (Person, "Lars in finance owns the revenue numbers, anything we publish about revenue he reads first"),
    (Assistant, "The model's AUC is 0.81 on the holdout of the last two quarters; on a random split it was 0.88, which leaked the future."),
    (Person, "charts go to the board as PNG at 1600 px wide with our colours, no titles inside the image, they add their own"),
    (Assistant, "Still to do: the cohort table for enterprise accounts, which needs the contract tier that only the billing export has."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
