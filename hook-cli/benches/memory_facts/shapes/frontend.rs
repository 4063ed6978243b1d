//! Work on a web front end: the person reacts to what they see and sets the look by eye
//! ("the header should be …", "make the buttons …"), often in short fragments; the assistant
//! reports what it changed and why, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "lumen-dashboard",
    name: "lumen",
    dir: "",
    modules: &[
        "layout", "theme", "charts", "table", "auth", "filters", "export", "toast",
    ],
    nouns: &["widget", "column", "filter", "chart"],
    dependencies: &[
        ("leptos", "0.7.0"),
        ("serde", "1.0.215"),
        ("chrono", "0.4.38"),
        ("gloo-net", "0.6.0"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "the header should be 56px tall, at 80 it eats half the screen on my laptop"),
    (Assistant, "Primary buttons now use the brand blue #1f6feb from the style guide; the old #2563eb was Tailwind's default."),
    (Person, "below 768px the sidebar collapses into a hamburger menu, our support team works on tablets"),
    (Assistant, "The chart flickered because every filter change recreated the canvas; it now keeps one and only redraws the series."),
    (Person, "dark mode follows the system setting, no toggle in the UI, design vetoed the toggle last sprint"),
    (Person, "numbers in the table are right-aligned with thin spaces between thousands, finance reads them in columns"),
    (Assistant, "Dates are shown in the viewer's time zone with the zone's short name, since the ops team sits in three countries."),
    (Person, "nope, too much padding, cards get 12px inside and 16px between them"),
    (Assistant, "I removed the toast library and wrote a 60-line component, the library alone was 41 kB gzipped."),
    (Person, "the export button is only for admins, everyone else shouldn't even see it greyed out"),
    (Assistant, "Empty states now say what to do next, for example 'No widgets yet: add one from the library on the left'."),
    (Person, "fonts stay Inter for text and JetBrains Mono for numbers in tables, nothing else gets loaded"),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
