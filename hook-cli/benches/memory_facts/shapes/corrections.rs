//! Decisions taken back: four early facts stand, and each of the eight later ones corrects a
//! decision said earlier in the session. The fact is the correction; the memory should not
//! present what it corrects as if it still held.

use fastrand::Rng;

use crate::filler::{corrected_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "parcel",
    name: "parcel",
    dir: "",
    modules: &[
        "routes", "depots", "couriers", "labels", "tracking", "webhooks", "assign", "billing",
    ],
    nouns: &["parcel", "route", "courier", "label"],
    dependencies: &[
        ("axum", "0.7.9"),
        ("sqlx", "0.8.2"),
        ("moka", "0.12.8"),
        ("reqwest", "0.12.9"),
    ],
};

const STANDING: [Said; 4] = [
    (Person, "The public API stays on the /v2 paths for the whole year, the mobile apps released in March cannot be updated quickly."),
    (Assistant, "Decision: delivery timestamps are stored in UTC and converted to the depot's time zone only when a page renders them."),
    (Person, "Keep request bodies under 1 MiB at the load balancer; scanner uploads are the only exception and go to /v2/scans."),
    (Assistant, "The integration tests need the fake courier server from tests/fake_courier.rs running on port 7711."),
];

/// Each correction, and the decision it takes back.
const CORRECTIONS: [(Said, Said); 8] = [
    (
        (Person, "Correction: we will NOT use Redis for the cache after all; use the in-process LRU (moka) instead, Redis adds an ops dependency."),
        (Assistant, "Decision: we will use Redis for the cache, since it is already deployed for the session store."),
    ),
    (
        (Person, "Change of plan: route geometry goes into a PostGIS geometry column instead of GeoJSON text, the distance queries need an index."),
        (Person, "Let's store the route geometry as GeoJSON text in the routes table, it is the simplest thing for now."),
    ),
    (
        (Assistant, "Update: the label printer pod needs 1 GiB, not 512 MiB, because the PDF renderer peaks at 700 MiB on multi-page labels."),
        (Assistant, "Plan: the label printer service gets its own pod with 512 MiB of memory, that is plenty for a PDF."),
    ),
    (
        (Person, "Scratch the courier v1 tracking API: it is sunset on 2027-01-31, build the status sync against their v3 webhooks instead."),
        (Person, "Use the courier's v1 tracking API for status updates, it has every field the tracking page shows."),
    ),
    (
        (Assistant, "Revised: failed webhooks are retried 8 times with exponential backoff from 30 seconds; three tries a minute apart lost events in outages."),
        (Assistant, "Decision: a failed webhook delivery is retried 3 times, one minute apart, then we give up and log it."),
    ),
    (
        (Person, "Actually, call the crate parcel-routing and not parcel-dispatch; dispatch is already the name of the ops team's internal tool."),
        (Person, "Name the new crate parcel-dispatch, it will hold the courier assignment logic and the depot rules."),
    ),
    (
        (Assistant, "Correction: the assignment service deploys on Tuesdays at 10:00, never on a Friday; the depots run their heaviest shift on Saturday morning."),
        (Assistant, "We will deploy the new assignment service on Friday evenings, after the depot shift has ended."),
    ),
    (
        (Person, "Ownership changed: Aisha Bello owns the routing work from now on, Tomasz Nowak moved to the payments team last week."),
        (Person, "The owner of the routing work is Tomasz Nowak, please send the design doc and every question to him."),
    ),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    corrected_session(n, rng, &PROJECT, &STANDING, &CORRECTIONS)
}
