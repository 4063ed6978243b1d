//! What a tool call did, in terms every host shares: each host reads its own tools' inputs into
//! a [`Call`] (its `tools.rs`), and the turn view names and shows each kind of call one way
//! whichever host made it.

use std::time::Duration;

use similar::{ChangeTag, TextDiff};

use super::first_line;
use crate::plural::count;

/// A tool call, as far as its input says what it did. A host fills only the fields its input
/// is known to hold; an input cut short by a bounded read leaves the later ones out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// Ran a command line.
    Command(String),
    /// Read a file: from line `from` (numbered from 1), `count` lines, when only part of it.
    Read {
        path: String,
        from: Option<u64>,
        count: Option<u64>,
    },
    /// Wrote a whole file; its text when the input held it whole.
    Write {
        path: String,
        content: Option<String>,
    },
    /// Replaced text in a file, one or more times.
    Edit {
        path: String,
        edits: Vec<Replacement>,
        /// Every occurrence of each old text, not only the one.
        every_occurrence: bool,
    },
    /// Searched for a pattern (in files, or for file names).
    Search { pattern: String },
    /// Another call, by what it is about (a URL, a subagent's task, a patch's files).
    About(String),
}

/// One replacement of an edit: the text that was there and the text put in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    pub old: String,
    pub new: String,
}

/// Lines of unchanged text kept around each change of a diff.
const DIFF_CONTEXT: usize = 2;

/// How long a diff may take before the rest of it is shown as removed and added whole: a turn
/// may hold hundreds of edits.
const DIFF_TIME: Duration = Duration::from_millis(20);

impl Call {
    /// What the call was about in a few words: its command, its path, its pattern.
    pub fn subject(&self) -> &str {
        match self {
            Call::Command(text) | Call::About(text) => text,
            Call::Read { path, .. } | Call::Write { path, .. } | Call::Edit { path, .. } => path,
            Call::Search { pattern } => pattern,
        }
    }

    /// What the call did as one line, at most `max` characters of its subject: `src/app.rs,
    /// lines 10–29`, `notes.md (3 lines, 1.2 KB)`, `fn main (4 hits)`, `lib.rs (every
    /// occurrence)`. `result` is the text the call returned, when it returned without an error:
    /// a search's hits are counted there.
    pub fn title(&self, result: Option<&str>, max: usize) -> String {
        let subject = first_line(self.subject(), max);
        match self {
            Call::Read {
                from: Some(from),
                count: Some(count),
                ..
            } => format!("{subject}, lines {from}–{}", from + count.saturating_sub(1)),
            Call::Read {
                from: Some(from), ..
            } => format!("{subject}, from line {from}"),
            Call::Read {
                count: Some(count), ..
            } => format!("{subject}, lines 1–{count}"),
            Call::Write {
                content: Some(content),
                ..
            } => format!(
                "{subject} ({}, {})",
                count(content.lines().count() as u64, "line"),
                size(content.len())
            ),
            Call::Edit {
                every_occurrence: true,
                ..
            } => format!("{subject} (every occurrence)"),
            Call::Search { .. } => match result.map(hits) {
                Some(0) => format!("{subject} (no hits)"),
                Some(n) => format!("{subject} ({})", count(n as u64, "hit")),
                None => subject,
            },
            _ => subject,
        }
    }

    /// The call's input as a person reads it, when its kind has its own form: an edit as a
    /// diff of each replacement, under the title that names its file. None: the input reads
    /// as names and values.
    pub fn shown_input(&self) -> Option<String> {
        match self {
            Call::Edit { edits, .. } if !edits.is_empty() => Some(
                edits
                    .iter()
                    .map(|edit| diff(&edit.old, &edit.new))
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// `old` turned into `new` as a compact unified diff: each group of changed lines under a
/// `@@` line, removed lines with `-`, added ones with `+`, a few unchanged ones around with a
/// space.
pub fn diff(old: &str, new: &str) -> String {
    let diff = TextDiff::configure()
        .timeout(DIFF_TIME)
        .diff_lines(old, new);
    let mut out = String::new();
    for group in diff.grouped_ops(DIFF_CONTEXT) {
        out.push_str("@@\n");
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                out.push(sign);
                out.push_str(change.value().trim_end_matches(['\n', '\r']));
                out.push('\n');
            }
        }
    }
    out
}

/// What a search found, as its result shows it: the number its first line gives (`Found 3
/// files`), none when it says nothing was found (`No files found`), else a hit a line.
pub fn hits(result: &str) -> usize {
    let lines: Vec<&str> = result
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let Some(first) = lines.first() else {
        return 0;
    };
    let stated = first
        .strip_prefix("Found ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok());
    let says_none = first.starts_with("No ") && first.to_ascii_lowercase().contains(" found");
    match stated {
        Some(n) => n,
        None if says_none => 0,
        None => lines.len(),
    }
}

/// `120 bytes`, `3.4 KB`, `56 KB`.
fn size(bytes: usize) -> String {
    match bytes {
        0..1000 => count(bytes as u64, "byte"),
        1000..10_000 => format!("{:.1} KB", bytes as f64 / 1000.0),
        _ => format!("{} KB", (bytes as f64 / 1000.0).round()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str) -> Replacement {
        Replacement {
            old: old.into(),
            new: new.into(),
        }
    }

    #[test]
    fn a_read_names_the_lines_it_read() {
        let read = |from, count| Call::Read {
            path: "src/app.rs".into(),
            from,
            count,
        };
        assert_eq!(read(None, None).title(None, 80), "src/app.rs");
        assert_eq!(
            read(Some(10), Some(20)).title(None, 80),
            "src/app.rs, lines 10–29"
        );
        assert_eq!(
            read(Some(400), None).title(None, 80),
            "src/app.rs, from line 400"
        );
        assert_eq!(
            read(None, Some(50)).title(None, 80),
            "src/app.rs, lines 1–50"
        );
    }

    #[test]
    fn a_write_names_its_size() {
        let write = |content: Option<&str>| Call::Write {
            path: "notes.md".into(),
            content: content.map(String::from),
        };
        assert_eq!(
            write(Some("# Notes\n\nOne.\n")).title(None, 80),
            "notes.md (3 lines, 14 bytes)"
        );
        let long = "x".repeat(99) + "\n";
        assert_eq!(
            write(Some(&long.repeat(34))).title(None, 80),
            "notes.md (34 lines, 3.4 KB)"
        );
        assert_eq!(
            write(Some(&long.repeat(560))).title(None, 80),
            "notes.md (560 lines, 56 KB)"
        );
        // Cut short by a bounded read: no size to give.
        assert_eq!(write(None).title(None, 80), "notes.md");
    }

    #[test]
    fn a_search_counts_its_hits_as_its_result_shows_them() {
        let search = Call::Search {
            pattern: "fn main".into(),
        };
        let title = |result| search.title(Some(result), 80);
        assert_eq!(
            title("Found 3 files\nsrc/a.rs\nsrc/b.rs\nsrc/c.rs"),
            "fn main (3 hits)"
        );
        assert_eq!(
            title("src/a.rs:1:fn main() {\nsrc/b.rs:7:fn main() {\n"),
            "fn main (2 hits)"
        );
        assert_eq!(title("src/main.rs"), "fn main (1 hit)");
        assert_eq!(title("No files found"), "fn main (no hits)");
        assert_eq!(title(""), "fn main (no hits)");
        // Failed or still running: nothing was found, nor missed.
        assert_eq!(search.title(None, 80), "fn main");
    }

    #[test]
    fn an_edit_reads_as_its_file_and_a_diff_of_each_replacement() {
        let single = Call::Edit {
            path: "/home/dev/toy/app.py".into(),
            edits: vec![edit(
                "def load(path):\n    with open(path) as f:\n        return json.load(f)\n",
                "def load(path):\n    with open(path, encoding=\"utf-8\") as f:\n        return json.load(f)\n",
            )],
            every_occurrence: false,
        };
        assert_eq!(
            single.shown_input().unwrap(),
            "@@\n \
             def load(path):\n\
             -    with open(path) as f:\n\
             +    with open(path, encoding=\"utf-8\") as f:\n         \
             return json.load(f)\n"
        );
        assert_eq!(single.title(None, 80), "/home/dev/toy/app.py");
        let multi = Call::Edit {
            path: "lib.rs".into(),
            edits: vec![edit("a", "b"), edit("old()", "new()\nmore()")],
            every_occurrence: true,
        };
        assert_eq!(
            multi.shown_input().unwrap(),
            "@@\n-a\n+b\n@@\n-old()\n+new()\n+more()\n"
        );
        assert_eq!(multi.title(None, 80), "lib.rs (every occurrence)");
        // An edit whose replacements were cut off reads as names and values.
        let cut = Call::Edit {
            path: "lib.rs".into(),
            edits: vec![],
            every_occurrence: false,
        };
        assert_eq!(cut.shown_input(), None);
    }

    #[test]
    fn a_long_diff_keeps_two_unchanged_lines_around_each_change() {
        let old: String = (1..=12).map(|n| format!("line {n}\n")).collect();
        let new = old
            .replace("line 3\n", "line three\n")
            .replace("line 11\n", "");
        assert_eq!(
            diff(&old, &new),
            "@@\n line 1\n line 2\n-line 3\n+line three\n line 4\n line 5\n\
             @@\n line 9\n line 10\n-line 11\n line 12\n"
        );
    }
}
