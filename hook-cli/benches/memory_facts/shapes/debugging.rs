//! A debugging session as it goes: findings said on the way, in the middle of an answer
//! ("ah, …", "ok so …", "looks like …"), by the assistant mostly, and the person's
//! observations of what they see on their side.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "beacon",
    name: "beacon-worker",
    dir: "",
    modules: &[
        "queue", "fetch", "parse", "store", "notify", "auth", "retry", "config",
    ],
    nouns: &["job", "feed", "entry", "token"],
    dependencies: &[
        ("tokio", "1.41.1"),
        ("reqwest", "0.12.9"),
        ("feed-rs", "2.2.0"),
        ("sqlx", "0.8.2"),
    ],
};

const FACTS: [Said; 12] = [
    (Assistant, "Ah, that explains it: the worker never sees FEED_TOKEN because systemd starts it without the .env file, only the web process loads it."),
    (Person, "on my machine the import finishes in 20 seconds but on staging it takes over 4 minutes with the same feed"),
    (Assistant, "Looks like the slowdown comes from DNS: every fetch resolves the host again, and staging's resolver answers in about 300 ms."),
    (Person, "the duplicates only show up for feeds that put the same guid on every entry, like the city council one"),
    (Assistant, "Ok so the parser drops entries without a pubDate, which is why the council feed lost 14 items last night."),
    (Person, "I checked the queue table and there are 2,300 jobs stuck in state running with a heartbeat from yesterday"),
    (Assistant, "Those jobs were claimed by the worker that crashed at 02:10; nothing releases a claim when its heartbeat goes stale, so they wait forever."),
    (Person, "the notifier sends two emails per entry whenever the retry kicks in, the users have started to complain about it"),
    (Assistant, "Confirmed: the retry wraps the whole handler, so a timeout after the email went out sends it again; it should wrap only the fetch."),
    (Person, "staging runs Postgres 12 while production is on 15, so anything with MERGE will only fail on staging"),
    (Assistant, "With the resolver cache on, the staging import of the same feed now takes 24 seconds instead of 4 minutes."),
    (Assistant, "Still open: releasing stale claims needs a sweep every minute, and I have not written the test for the double email yet."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
