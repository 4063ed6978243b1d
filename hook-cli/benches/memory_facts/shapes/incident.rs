//! An on-call session: the person reports alerts and sets limits in the heat of an incident,
//! the assistant finds causes, applies mitigations and lists follow-ups, between everyday
//! turns of work on the service's code.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "checkout",
    name: "checkout",
    dir: "",
    modules: &[
        "cart", "payment", "retry", "pricing", "session", "webhook", "receipt", "fraud",
    ],
    nouns: &["cart", "payment", "receipt", "attempt"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("tokio", "1.41.1"),
        ("reqwest", "0.12.9"),
        ("metrics", "0.24.1"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "PagerDuty fired at 02:14 UTC: checkout p99 latency above 2 s for ten minutes, it's the third time this week."),
    (Assistant, "The checkout pods are CPU-throttled: their limit is 500m and they spike to 1.8 cores during the payment retry storm."),
    (Person, "do not restart the payments-db primary, a failover takes 40 minutes to resync the replica and we'd lose the morning batch."),
    (Assistant, "Mitigation applied: raised the checkout CPU limit to 2 cores with kubectl set resources, p99 is back under 300 ms."),
    (Person, "the status page is owned by Rafael, post updates there only through him, legal reviews every public word."),
    (Assistant, "The retry storm comes from the payment SDK retrying every 100 ms without jitter whenever the provider answers 429."),
    (Person, "we're in a change freeze until Friday 18:00, only rollbacks and config changes approved in #incident-312 go out."),
    (Assistant, "Follow-up: add jitter and a cap of 3 retries to PaymentClient, tracked as INC-312-1."),
    (Person, "the on-call handover is at 09:00 CET to Mei, leave her a summary in the incident doc, not in Slack DMs."),
    (Assistant, "The alert fired on p99 above 2 s over 10 minutes; 800 ms over 5 minutes would have caught this 40 minutes earlier."),
    (Person, "keep the old deployment around as checkout-v41 until the postmortem on Tuesday, we may need to diff its config."),
    (Assistant, "Still open: the payments dashboard in Grafana shows no data since 01:50 because the Prometheus scrape target was renamed."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
