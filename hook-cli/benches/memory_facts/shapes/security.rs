//! A security hardening pass: what a review found, how secrets and sessions are handled, and
//! what must not be said where, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "ledgerhub",
    name: "ledgerhub",
    dir: "",
    modules: &[
        "auth", "session", "tenant", "invoice", "audit", "upload", "admin", "webhook",
    ],
    nouns: &["tenant", "invoice", "token", "upload"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("argon2", "0.5.3"),
        ("tower-sessions", "0.13.0"),
        ("sqlx", "0.8.2"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "secrets come from Vault at startup, never from .env files in the repo, the last leak came from a committed .env"),
    (Assistant, "The pentest's IDOR on /api/invoices/{id} was real: the handler loaded the invoice by id without checking the caller's tenant."),
    (Person, "bug bounty report 4821 is embargoed until the fix ships, don't mention it in commit messages or the changelog"),
    (Assistant, "Session cookies are now HttpOnly, Secure and SameSite=Lax; Strict broke the return from the payment provider."),
    (Person, "login gets 5 attempts per 15 minutes per IP and per account, support unlocks accounts by hand after that"),
    (Assistant, "Passwords are hashed with argon2id at 64 MiB and 3 passes, which takes about 180 ms on the production instances."),
    (Person, "the CSP stays strict, no inline scripts, the analytics snippet has to be served from our own domain"),
    (Assistant, "Uploaded files are scanned by ClamAV before they leave quarantine; anything over 25 MB is refused before the scan."),
    (Person, "Dana from the security team signs off every change to auth or session handling before it is merged"),
    (Assistant, "The audit log was missing admin impersonation events because they went through a separate code path; both paths write to it now."),
    (Person, "API tokens expire after 90 days and customers get a warning email 14 days before, that's in the enterprise contracts"),
    (Assistant, "Still open: the webhook endpoint accepts requests without a timestamp, so a captured request could be replayed later."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
