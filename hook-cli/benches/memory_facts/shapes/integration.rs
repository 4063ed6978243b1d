//! Work against a third-party API: its limits, keys, sandboxes and quirks, as the docs and
//! the responses teach them, and the person's rules for using it.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "shipbridge",
    name: "shipbridge",
    dir: "",
    modules: &[
        "carrier", "label", "tracking", "rates", "webhook", "auth", "address", "queue",
    ],
    nouns: &["label", "parcel", "rate", "event"],
    dependencies: &[
        ("reqwest", "0.12.9"),
        ("tokio", "1.41.1"),
        ("serde", "1.0.215"),
        ("hmac", "0.12.1"),
    ],
};

const FACTS: [Said; 12] = [
    (Assistant, "The carrier API allows 100 requests per minute per key and answers 429 with a Retry-After header in seconds."),
    (Person, "sandbox and production have different base URLs and different keys, never point the sandbox key at production"),
    (Assistant, "Webhook signatures are HMAC-SHA256 of the raw body with the endpoint secret, so we must verify before parsing the JSON."),
    (Person, "the webhook secret rotates on the first of every month, ops pastes the new one into Vault under shipbridge/webhook"),
    (Assistant, "Labels come back as base64 PDF inside the JSON; a 4x6 label is about 60 kB, so we store them in S3, not in Postgres."),
    (Person, "we only ship to the EU and Switzerland, anything else has to be rejected before we call the rates endpoint"),
    (Assistant, "Tracking events can arrive out of order: the API sorts by the carrier's scan time, not by when it sends them."),
    (Person, "their support said the address validation endpoint is deprecated in June, don't build anything new on it"),
    (Assistant, "Rates are quoted in the account currency EUR even for Swiss parcels, so the checkout converts at the daily ECB rate."),
    (Person, "Tomasz is our contact at the carrier, he answers within a day on the partner Slack, email takes a week"),
    (Assistant, "A 409 on label creation means the idempotency key was already used, and the response carries the first label unchanged."),
    (Person, "keep the raw responses for 30 days in the audit bucket, the carrier disputes charges weeks later"),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
