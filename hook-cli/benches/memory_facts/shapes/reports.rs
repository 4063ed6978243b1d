//! Answers written as Markdown reports (headings, bold lead-ins, bullets), as agents often
//! close a turn, with each fact one bullet among routine ones; the person lists what they
//! want as bullets too.

use fastrand::Rng;

use crate::filler::{coding_turn, pick, Codebase, Project};
use crate::session::{fact_turns, Planted, Session, Speaker, Speaker::*, Turn};

const PROJECT: Project = Project {
    repo: "relay",
    name: "relay-gateway",
    dir: "",
    modules: &[
        "router", "limits", "tls", "cache", "upstream", "metrics", "config", "health",
    ],
    nouns: &["route", "upstream", "limit", "cert"],
    dependencies: &[
        ("hyper", "1.5.1"),
        ("rustls", "0.23.19"),
        ("moka", "0.12.8"),
        ("prometheus", "0.13.4"),
    ],
};

const FACTS: [(Speaker, &str); 12] = [
    (Person, "the health endpoint has to stay at /healthz without auth, the load balancer probes it every 5 seconds"),
    (Assistant, "**Root cause:** the cache key left out the Accept-Language header, so French visitors were served the German pages."),
    (Person, "rate limits are per API key, not per IP address, because all of our mobile traffic comes through one carrier NAT"),
    (Assistant, "**Decision:** upstream timeouts are 2 seconds for reads and 10 seconds for uploads, with one retry on reads only."),
    (Person, "don't enable HTTP/3 yet, the ops team has no way to debug QUIC on the edge boxes until they get new tooling"),
    (Assistant, "**Found:** certificates reload from /etc/relay/certs on SIGHUP, and a reload never drops open connections."),
    (Person, "Kenji Watanabe owns the routing table format, so any change to routes.yaml goes through his review first"),
    (Assistant, "**Changed:** the route cache now holds at most 50,000 entries and evicts by least-recent use after 10 minutes."),
    (Person, "metrics must not carry user ids as labels, Prometheus fell over last time with a million series"),
    (Assistant, "**Open question:** should a failed upstream be taken out of rotation after 3 errors, or only after 5 in a minute?"),
    (Person, "we go live behind the old nginx on 2027-01-12 and keep nginx as the fallback for two weeks after that"),
    (Assistant, "**Next:** load-test the limiter at 20,000 requests per second, then tune the token bucket refill if p99 goes over 15 ms."),
];

/// Routine bullets of a report, about what the turn did.
fn routine_bullets(rng: &mut Rng, name: &str, path: &str) -> Vec<String> {
    let all = [
        format!("- Read `{name}` in {path} and followed its callers."),
        format!(
            "- **Tests:** all {} pass, none skipped.",
            180 + rng.usize(..300)
        ),
        format!(
            "- **Clippy:** clean, {} warnings left in code we did not touch.",
            rng.usize(..4)
        ),
        format!("- No change to the public API of {path}."),
        "- Formatting checked with `cargo fmt --check`.".to_string(),
        format!("- Renamed a local in `{name}` for clarity; behaviour is the same."),
    ];
    let n = 2 + rng.usize(..3);
    (0..n).map(|_| pick(rng, &all).clone()).collect()
}

/// `turn`'s answer, rewritten as a report of its own words plus bullets; `fact` one of them.
fn as_report(turn: &mut Turn, rng: &mut Rng, name: &str, path: &str, fact: Option<&str>) {
    let said = turn.answer.join(" ");
    let mut bullets = routine_bullets(rng, name, path);
    if let Some(fact) = fact {
        let at = rng.usize(..=bullets.len());
        bullets.insert(at, format!("- {fact}"));
    }
    turn.answer = vec![
        "## Summary".to_string(),
        said,
        "### What I did".to_string(),
        bullets.join("\n"),
    ];
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let at = fact_turns(n, &mut Vec::new());
    let mut facts = Vec::new();
    let turns = (0..n)
        .map(|i| {
            let mut turn = coding_turn(rng, &code);
            let (module, f) = code.function(rng);
            let planted = at.iter().position(|&t| t == i).map(|k| FACTS[k]);
            match planted {
                Some((Person, fact)) => {
                    turn.prompt = format!(
                        "{}\nA few things first:\n- {fact}\n- then carry on",
                        turn.prompt
                    );
                    as_report(&mut turn, rng, &f.name, &module.path, None);
                }
                Some((Assistant, fact)) => {
                    as_report(&mut turn, rng, &f.name, &module.path, Some(fact))
                }
                None if rng.bool() => as_report(&mut turn, rng, &f.name, &module.path, None),
                None => {}
            }
            if let Some((by, sentence)) = planted {
                facts.push(Planted::new(i, by, sentence));
            }
            turn
        })
        .collect();
    Session {
        cwd: code.root.clone(),
        turns,
        facts,
        superseded: Vec::new(),
    }
}
