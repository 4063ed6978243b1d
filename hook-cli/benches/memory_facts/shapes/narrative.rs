//! The person writes several sentences at a time, as after a call or a meeting: what
//! happened, the fact in the middle of it, a remark, then the request; the assistant's
//! findings within longer answers.

use fastrand::Rng;

use crate::filler::{pick, said_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "warehouse-sync",
    name: "whsync",
    dir: "",
    modules: &[
        "scanner",
        "import",
        "invoices",
        "reports",
        "pdf",
        "sync",
        "tenants",
        "numbering",
    ],
    nouns: &["scan", "invoice", "report", "shift"],
    dependencies: &[
        ("csv", "1.3.1"),
        ("printpdf", "0.7.0"),
        ("ureq", "2.10.1"),
        ("rusqlite", "0.32.1"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "The client wants the invoices in their own numbering, starting at INV-2027-0001 next year."),
    (Person, "Their IT only allows outbound traffic on 443, so the sync has to go over HTTPS, no SFTP."),
    (Assistant, "The scanners send their batches as one JSON array per shift, which is why the import sees 8,000 rows at once."),
    (Person, "Legal said we can keep the chat logs for 30 days and not a day longer."),
    (Person, "Turns out the warehouse scanners run Android 8, so whatever we ship there has to work on that."),
    (Assistant, "Your invoice numbers would collide with the old system's, because both start their sequence at 1 each year."),
    (Person, "I promised them the CSV import by the 20th, the rest can slip to January."),
    (Person, "Their accountant only reads PDFs, so every report needs a PDF version too."),
    (Assistant, "The PDF renderer needs fonts on the server; the Docker image has none, so reports come out with boxes instead of umlauts."),
    (Person, "Marco is the one to ask about the scanner firmware, he set them all up last spring."),
    (Person, "The pilot runs in the Hamburg warehouse first, Munich follows in February."),
    (Assistant, "Next up is the CSV import; after that the PDF export, unless you want them the other way round."),
];

/// What the person writes before the fact.
const OPENERS: &[&str] = &[
    "ok so I talked to the client this morning.",
    "Quick update from the call with the customer.",
    "So, news from the warehouse people.",
    "Had the weekly with their ops lead today.",
];

/// What the assistant says after a finding, in the same paragraph.
const NOTED: &[&str] = &[
    "Let me know if that changes anything.",
    "I noted it in the README.",
    "",
];

/// What the person writes after the fact, before the request.
const AFTER: &[&str] = &[
    "They were pretty happy with the demo otherwise.",
    "Anyway, not a big deal.",
    "Just so you know.",
    "No rush on that one.",
    "",
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    said_session(n, rng, &PROJECT, &FACTS, |rng, _, fact, turn| {
        match fact.by {
            Person => {
                let (opener, after) = (pick(rng, OPENERS), pick(rng, AFTER));
                let said = [*opener, fact.sentence, after]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" ");
                turn.prompt = format!("{said} {}", turn.prompt);
            }
            Assistant => {
                let at = rng.usize(..=turn.answer.len());
                let after = pick(rng, NOTED);
                let paragraph = format!("{} {after}", fact.sentence);
                turn.answer.insert(at, paragraph.trim_end().to_string());
            }
        }
    })
}
