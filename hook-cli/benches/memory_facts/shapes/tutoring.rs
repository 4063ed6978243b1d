//! A person learning as they go: they say what they may and may not use and how they want
//! to be taught; the assistant explains why things behave as they do and what the person
//! chose, between everyday turns of work.

use fastrand::Rng;

use crate::filler::{everyday_session, Project};
use crate::session::{Said, Session, Speaker::*};

const PROJECT: Project = Project {
    repo: "minigrep-course",
    name: "minigrep",
    dir: "",
    modules: &[
        "search", "config", "output", "files", "args", "errors", "stats", "cache",
    ],
    nouns: &["line", "pattern", "file", "match"],
    dependencies: &[
        ("clap", "4.5.21"),
        ("regex", "1.11.1"),
        ("anyhow", "1.0.93"),
        ("walkdir", "2.5.0"),
    ],
};

const FACTS: [Said; 12] = [
    (Person, "this is for my university course, the only crates allowed are clap, regex, anyhow and walkdir, the grader rejects anything else."),
    (Assistant, "The borrow checker refused the loop because search returned references into contents, which was dropped at the end of read_file."),
    (Person, "I'm on Windows with PowerShell, so please give me commands that work there, not bash one-liners."),
    (Assistant, "You chose to keep the lines as &str slices into one String instead of a Vec<String>, which saves a copy of every file."),
    (Person, "explain each new concept in two or three sentences before you write code for it, I want to understand it, not just pass."),
    (Assistant, "Case-insensitive search works by lowercasing both the pattern and each line, which is why the umlauts in the test file matched."),
    (Person, "the assignment is due on December 12 at 23:59, and the report has to describe every error type we define."),
    (Assistant, "Your MatchError enum has three variants now: BadPattern, Unreadable and NotUtf8, each with the path it failed on."),
    (Person, "my teaching assistant said unwrap() costs points in the grading, every error has to go through anyhow with context."),
    (Assistant, "The tests in tests/cli.rs run the built binary, so they only see your change after cargo builds it again."),
    (Person, "I'd like the output to look like grep's: file name, line number and the line, separated by colons."),
    (Assistant, "Next we add the --count flag: it prints how many lines matched per file, which the assignment lists as part 4."),
];

pub fn session(n: usize, rng: &mut Rng) -> Session {
    everyday_session(n, rng, &PROJECT, &FACTS)
}
