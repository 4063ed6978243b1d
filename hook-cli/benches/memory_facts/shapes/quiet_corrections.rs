//! Decisions changed without a word that says so: no "actually", no "instead", no "no wait".
//! The later sentence simply states the new value, often with why the old one failed. The
//! fact is the later word; the memory should not present the earlier one as if it held.

use fastrand::Rng;

use crate::filler::{corrected_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "fernway",
    name: "fernway-shop",
    dir: "",
    modules: &[
        "orders", "importer", "prices", "uploads", "checkout", "banner", "api", "queue",
    ],
    nouns: &["order", "price", "upload", "item"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("aws-sdk-s3", "1.65.0"),
        ("lapin", "2.5.0"),
    ],
};

const STANDING: [Said; 4] = [
    (
        Person,
        "orders over 500 euros need a manual fraud check before they ship, the insurer requires it",
    ),
    (
        Assistant,
        "Prices are stored in cents as i64 in every table, the API formats them only at the edge.",
    ),
    (
        Person,
        "the shop closes checkout for maintenance every Sunday from 02:00 to 03:00 CET",
    ),
    (
        Assistant,
        "Product images are resized by the uploads worker to 320, 800 and 1600 pixels wide.",
    ),
];

/// Each later word, and the decision it takes back.
const CORRECTIONS: [(Said, Said); 8] = [
    (
        (Person, "use 4 workers for the importer, 16 starved the database connections during the day"),
        (Person, "run the importer with 16 workers so the nightly feed finishes before 6"),
    ),
    (
        (Assistant, "The price cache TTL is 10 minutes now; with 1 hour customers saw stale prices after a sale started."),
        (Assistant, "I set the price cache TTL to 1 hour, prices change only a few times a day."),
    ),
    (
        (Person, "keep the API at v1 and just add the status field, a v2 is overkill for one field"),
        (Person, "we'll need a /v2 of the orders API for the new status field"),
    ),
    (
        (Person, "put the cookie banner at the bottom of the page, legal wants the top free for the price notice"),
        (Person, "the cookie banner goes at the top of every page, above the navigation"),
    ),
    (
        (Assistant, "Failed orders now go to the dead-letter queue orders-dlq and are retried from there every 15 minutes."),
        (Assistant, "Failed orders are retried in an in-process loop, 5 times with a 2 second pause."),
    ),
    (
        (Person, "Ana Ruiz owns the schema migration from today, Ben Okafor is on leave until March"),
        (Person, "Ben Okafor owns the schema migration, send him the diff before you run it"),
    ),
    (
        (Assistant, "Uploads go to the eu-west-1 bucket fernway-uploads-eu, since us-east-1 breaks the data residency terms."),
        (Assistant, "Uploads go to the us-east-1 bucket fernway-uploads, next to the CDN origin."),
    ),
    (
        (Person, "the order list shows 100 per page, 25 meant endless clicking for the warehouse staff"),
        (Person, "paginate the order list at 25 per page"),
    ),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    corrected_session(n, rng, &PROJECT, &STANDING, &CORRECTIONS)
}
