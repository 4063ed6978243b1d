//! A session that opens on a pasted spec: headings, prose, numbered requirements and notes,
//! half the facts among them beside requirements of no weight; the other half said later
//! in the everyday work the spec started.

use fastrand::Rng;

use crate::filler::{coding_turn, Codebase, Project};
use crate::session::{free_turn, plant, Planted, Said, Session, Speaker::*, Turn};

const PROJECT: Project = Project {
    repo: "pantry",
    name: "pantry",
    dir: "",
    modules: &[
        "household",
        "invite",
        "list",
        "item",
        "realtime",
        "auth",
        "purge",
        "notify",
    ],
    nouns: &["household", "invite", "item", "member"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("tokio-tungstenite", "0.24.0"),
        ("uuid", "1.11.0"),
    ],
};

/// The facts the spec states, in its order.
const IN_THE_SPEC: [&str; 6] = [
    "Invite links expire after 72 hours and can be used once; a used or expired link shows a page that asks the owner for a new one.",
    "Sync goes through the existing WebSocket gateway in src/realtime, we are not adding a second channel for this milestone.",
    "A household holds at most 8 members, the pricing page already promises that number.",
    "Deleting a household is soft for 30 days so support can restore it, then a nightly job purges it for good.",
    "Push notifications stay out of this milestone, the Apple developer account is still in legal review.",
    "Every new endpoint needs an integration test against the real Postgres in docker-compose, mocks of the database are not accepted in review.",
];

/// The facts said later, in order.
const LATER: [Said; 6] = [
    (Assistant, "The flaky share test failed because the invite token was compared with == instead of in constant time; it now uses subtle::ConstantTimeEq."),
    (Person, "one more thing, household names are limited to 40 characters because the iOS widget cuts anything longer."),
    (Assistant, "I put the live updates behind the feature flag household_sync, off by default, so the release can go out before the gateway is load tested."),
    (Person, "Priya owns the WebSocket gateway, ask her before changing anything in src/realtime/gateway.rs."),
    (Assistant, "Next step: the migration for the households and memberships tables, then the invite endpoints with their integration tests."),
    (Person, "the staging push for milestone 2 is on Thursday the 18th, anything not merged by Wednesday evening waits for milestone 3."),
];

/// Where the later facts go, as a fraction of the session.
const LATER_AT: [f32; 6] = [0.2, 0.35, 0.5, 0.65, 0.8, 0.92];

/// The first prompt: the spec pasted whole, with a line of the person's before it.
fn spec() -> String {
    let [invites, sync, members, deleting, push, tests] = IN_THE_SPEC;
    format!(
        "Here's the spec for the next milestone, please read all of it and start with the data model.\n\n\
         # Pantry: shared shopping lists, milestone 2\n\n\
         ## Background\n\
         Pantry is a small app for households that share groceries. Milestone 1 shipped lists for one person; \
         people kept asking to share a list with their flatmates, so milestone 2 is about sharing. The app \
         should feel quick and friendly, and nothing here should make the first screen slower than it is today.\n\n\
         ## Users\n\
         - A household has one owner and a few members.\n\
         - Members see the same lists and can tick items off.\n\
         - Guests can be invited by link.\n\n\
         ## Requirements\n\
         1. {invites}\n\
         2. Lists update live for everyone in the household when an item is added or ticked off.\n\
         3. {sync}\n\
         4. Items keep their order when two people edit a list at the same time.\n\
         5. {members}\n\
         6. The list shows who ticked an item off, with their avatar.\n\
         7. Edits made offline are kept and sent when the phone is back online.\n\
         8. {deleting}\n\n\
         ## Out of scope\n\
         - Payments and plans.\n\
         - A web version: the mobile app only.\n\
         - {push}\n\n\
         ## Notes\n\
         - The designs are in Figma, on the page \"M2 sharing\".\n\
         - {tests}\n\
         - Questions about the spec go to me."
    )
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let mut taken = vec![0];
    let slots: Vec<usize> = LATER_AT
        .iter()
        .map(|&at| free_turn(n, at, &mut taken))
        .collect();
    let first = Turn::new(spec())
        .run(code.read(&code.modules[0]))
        .answer("I read the whole spec. I'll start with the data model: households, memberships and invites, each with its own table.");
    let turns = std::iter::once(first)
        .chain((1..n).map(|_| coding_turn(rng, &code)))
        .collect();
    let later = Session::new(&code.root, turns, plant(&slots, &LATER), Vec::new(), rng);
    let mut facts: Vec<Planted> = IN_THE_SPEC
        .iter()
        .map(|&sentence| Planted::new(0, Person, sentence))
        .chain(later.facts)
        .collect();
    facts.sort_by_key(|f| f.turn);
    Session::said(&later.cwd, later.turns, facts, Vec::new())
}
