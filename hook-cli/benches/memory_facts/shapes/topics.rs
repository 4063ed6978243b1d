//! Work that moves across six unrelated subsystems of one repository, a few turns on each at a
//! time and back again; every subsystem has facts of its own.

use fastrand::Rng;

use crate::filler::{coding_turn, pick, Codebase, Project};
use crate::session::{fact_turns, Planted, Said, Session, Speaker::*};

struct Subsystem {
    project: Project,
    /// How the person names it when the work moves there.
    called: &'static str,
    facts: [Said; 2],
}

const SUBSYSTEMS: [Subsystem; 6] = [
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-billing",
            dir: "crates/billing/",
            modules: &["invoice", "tax", "ledger", "dunning"],
            nouns: &["invoice", "line_item", "payment"],
            dependencies: &[("rust_decimal", "1.36.0"), ("sqlx", "0.8.2")],
        },
        called: "billing",
        facts: [
            (Person, "Invoices must be rounded per line item with banker's rounding, the finance team reconciles against line totals."),
            (Assistant, "Decision: invoice numbers run per legal entity, so ACME-DE and ACME-FR each start again at 1 every January."),
        ],
    },
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-auth",
            dir: "crates/auth/",
            modules: &["sso", "sessions", "tokens", "mfa"],
            nouns: &["session", "token", "tenant"],
            dependencies: &[("openidconnect", "3.5.0"), ("cookie", "0.18.1")],
        },
        called: "auth",
        facts: [
            (Assistant, "Root cause: SSO logins fail for Okta tenants because the id_token clock skew allowance is 0 seconds instead of 120."),
            (Person, "Session cookies must stay SameSite=Lax, the partner portal embeds us in an iframe and Strict breaks its login."),
        ],
    },
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-search",
            dir: "crates/search/",
            modules: &["indexer", "analyzers", "query", "rebuild"],
            nouns: &["document", "analyzer", "shard"],
            dependencies: &[("tantivy", "0.22.0"), ("rayon", "1.10.0")],
        },
        called: "search",
        facts: [
            (Person, "The search index is rebuilt every night at 02:30 UTC, and the rebuild must be done by 05:00 or morning traffic sees stale results."),
            (Assistant, "Decision: German and French product names get their own stemming analyzers, every other language uses the standard one."),
        ],
    },
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-push",
            dir: "crates/push/",
            modules: &["apns", "fcm", "campaigns", "devices"],
            nouns: &["device", "campaign", "notification"],
            dependencies: &[("a2", "0.10.0"), ("tokio", "1.41.1")],
        },
        called: "push notifications",
        facts: [
            (Assistant, "An APNs token is dead after a 410 response, so the push worker deletes the device row instead of retrying it."),
            (Person, "Marketing pushes are capped at 2 per user per day, and never sent between 22:00 and 08:00 in the user's own time zone."),
        ],
    },
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-ci",
            dir: "tools/ci/",
            modules: &["pipeline", "cache", "runners", "report"],
            nouns: &["job", "artifact", "runner"],
            dependencies: &[("octocrab", "0.41.2"), ("serde_yaml", "0.9.34")],
        },
        called: "the CI pipeline",
        facts: [
            (Person, "The CI cache key must include the Rust toolchain version; last week a stale cache shipped a binary with the old TLS library."),
            (Assistant, "Decision: integration tests run only in the merge queue, pull requests run unit tests and clippy to stay under 12 minutes."),
        ],
    },
    Subsystem {
        project: Project {
            repo: "atlas",
            name: "atlas-export",
            dir: "crates/export/",
            modules: &["parquet", "csv", "schedule", "buckets"],
            nouns: &["export", "row_group", "bucket"],
            dependencies: &[("parquet", "53.3.0"), ("aws-sdk-s3", "1.65.0")],
        },
        called: "the data export",
        facts: [
            (Assistant, "Parquet exports use snappy compression and row groups of 128 MiB, because the data team's Spark jobs read them that way."),
            (Person, "Exports for EU customers are written to the eu-central-1 bucket only, legal has signed off on nothing else."),
        ],
    },
];

/// Which subsystem each turn works on: runs of 3 to 8 turns, never the same twice in a row.
fn schedule(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut on = Vec::with_capacity(n);
    let mut current = rng.usize(..SUBSYSTEMS.len());
    while on.len() < n {
        for _ in 0..rng.usize(3..9) {
            on.push(current);
        }
        let before = current;
        while current == before {
            current = rng.usize(..SUBSYSTEMS.len());
        }
    }
    on.truncate(n);
    on
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let codebases: Vec<Codebase> = SUBSYSTEMS
        .iter()
        .map(|s| Codebase::new(rng, &s.project))
        .collect();
    let mut on = schedule(n, rng);
    let mut left: Vec<Vec<Said>> = SUBSYSTEMS.iter().map(|s| s.facts.to_vec()).collect();
    let mut facts = Vec::new();
    for turn in fact_turns(n, &mut Vec::new()) {
        // A fact belongs to the subsystem worked on: when that one has said all of its facts,
        // the run around this turn moves to one that has not.
        if left[on[turn]].is_empty() {
            let other = (0..SUBSYSTEMS.len())
                .max_by_key(|&s| left[s].len())
                .expect("subsystems");
            let was = on[turn];
            let mut at = turn;
            while at > 0 && on[at - 1] == was {
                at -= 1;
            }
            while at < n && on[at] == was {
                on[at] = other;
                at += 1;
            }
        }
        let (by, sentence) = left[on[turn]].remove(0);
        facts.push(Planted::new(turn, by, sentence));
    }
    let turns = (0..n)
        .map(|i| {
            let mut turn = coding_turn(rng, &codebases[on[i]]);
            if i > 0 && on[i - 1] != on[i] {
                let called = SUBSYSTEMS[on[i]].called;
                let switch = match rng.usize(..4) {
                    0 => format!("Let's switch to {called} for a while."),
                    1 => format!("Back to {called}."),
                    2 => format!("Enough of that, {called} needs attention."),
                    _ => format!("Different topic: {called}."),
                };
                turn.prompt = format!("{switch} {}", turn.prompt);
                if rng.bool() {
                    turn.answer.insert(
                        0,
                        format!(
                            "Switching over to {}.",
                            pick(rng, &[called, SUBSYSTEMS[on[i]].project.dir])
                        ),
                    );
                }
            }
            turn
        })
        .collect();
    Session::new(&codebases[0].root, turns, facts, Vec::new(), rng)
}
