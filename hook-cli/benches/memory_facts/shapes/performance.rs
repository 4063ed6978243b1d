//! A performance pass: the target, what the profiles showed, what each change bought, and
//! what must not be done for speed, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "checkout-service",
    name: "checkout",
    dir: "",
    modules: &[
        "cart",
        "pricing",
        "orders",
        "pool",
        "recommend",
        "render",
        "warmup",
        "metrics",
    ],
    nouns: &["cart", "price", "order", "query"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("tikv-jemallocator", "0.6.0"),
        ("serde_json", "1.0.133"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "the target is p99 under 200 ms for /checkout at 500 rps, that's what the SLO says and what we get paged on"),
    (Assistant, "The flamegraph shows 58% of CPU in serde_json::to_string inside the price loop; each cart line serialises the whole product."),
    (Person, "don't cache prices, they change every few minutes during flash sales and a stale price is a legal problem for us"),
    (Assistant, "Adding the composite index on orders(customer_id, created_at) took the order-history query from 1.9 s to 14 ms."),
    (Person, "load tests only against staging-perf, never prod, and tell #sre in slack before you start one"),
    (Assistant, "The connection pool was the real bottleneck: 10 connections for 64 worker threads, so I raised max_connections to 48 after checking Postgres allows 200."),
    (Person, "memory per pod can't go over 1 GiB, the nodes are packed and the OOM killer took checkout down twice last month"),
    (Assistant, "With jemalloc the RSS stays flat at 610 MiB under load, while glibc malloc grew to 930 MiB after an hour."),
    (Person, "please keep the old code path behind the legacy_pricing flag until we've seen a full week of production numbers"),
    (Assistant, "The N+1 in the recommendations widget made 41 queries per page; batching them into one IN query took it to 2."),
    (Person, "benchmarks need the CPU governor set to performance on the bench box, otherwise numbers swing by 30%"),
    (Assistant, "Remaining: the first request after a deploy still takes 2.4 s; warming the template cache at startup should fix it."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
