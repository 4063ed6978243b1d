//! The top of the memory: what happened (why this session gets it, whether the last turn
//! finished, when, on which client and model), the goal the person set, and where the work
//! stands (branch, files changed, the open todos, what was running when it stopped).

use crate::blocks;
use crate::model::{Role, TodoStatus, Turn, WorkingState};
use crate::record::Measure;
use crate::store::Trigger;
use crate::summary;

use super::Context;

/// How the newest turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The model answered and nothing was left running.
    Finished,
    /// No answer after the last tool call, or a call still running: the work stopped mid-turn.
    Interrupted,
}

impl Ending {
    pub fn of(latest: &Turn, state: &WorkingState) -> Ending {
        let answered = latest.messages.iter().any(|m| m.role == Role::Assistant);
        if answered && !state.stopped {
            Ending::Finished
        } else {
            Ending::Interrupted
        }
    }
}

/// `# Throughline memory` and the paragraph that says what this is and how the last turn
/// ended.
pub fn framing(ctx: &Context, latest: &Turn, ending: Ending) -> String {
    let from = match ctx.chain.as_slice() {
        [] => String::new(),
        [one] => format!("session {}", super::short(one)),
        [one, rest @ ..] => format!(
            "session {} (and before it {})",
            super::short(one),
            rest.iter()
                .map(|s| super::short(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let project = &ctx.project;
    let why = match ctx.trigger {
        Trigger::Clear => format!(
            "The person ran /clear. Below is your own earlier work in {project}, from {from}; \
             the person's next prompt continues it."
        ),
        Trigger::Handoff => format!(
            "The person handed this work over from another chat ({from}). Below is your own \
             earlier work in {project}; the person's prompt continues it."
        ),
        Trigger::Compact => format!(
            "The conversation was just compacted and its summary is lossy. Below are your \
             most recent turns in {project}, verbatim, and what came before."
        ),
    };
    let on = match (&ctx.about.client, &ctx.about.model) {
        (Some(client), Some(model)) => format!(" ({client}, {model})"),
        (Some(one), None) | (None, Some(one)) => format!(" ({one})"),
        (None, None) => String::new(),
    };
    let when = last_said(latest).map_or(String::new(), |at| format!(" at {}", readable(at)));
    // Point at open todos only where the memory lists some.
    let open_todos = ctx
        .state
        .todos
        .iter()
        .any(|t| t.status != TodoStatus::Completed);
    let carry_on = if open_todos {
        "the todos still open (below)"
    } else {
        "there"
    };
    let status = match (ctx.trigger, ending) {
        (Trigger::Compact, _) => format!("The turn in progress is {}{on}.", latest.code),
        (_, Ending::Finished) => format!(
            "The last turn ({}) finished{when}{on}: what it did is done; carry on from \
             {carry_on}, not from the start.",
            latest.code
        ),
        (_, Ending::Interrupted) => format!(
            "The last turn ({}) stopped before it was done{when}{on}: check what it left \
             half-way (below) before you redo anything.",
            latest.code
        ),
    };
    format!(
        "# Throughline memory\n{why} {status} Tool output and thinking are left out; the \
         commands at the end pull anything back.\n\n"
    )
}

/// The time of the turn's last message.
fn last_said(turn: &Turn) -> Option<&str> {
    turn.messages
        .iter()
        .rev()
        .find_map(|m| m.at.as_deref())
        .or(turn.started_at.as_deref())
}

/// `2026-12-01T23:05:11.123Z` as `2026-12-01 23:05 UTC`; anything else as it is.
fn readable(at: &str) -> String {
    match (at.get(..10), at.get(11..16)) {
        (Some(day), Some(time)) if at.as_bytes().get(10) == Some(&b'T') => {
            let zone = if at.ends_with('Z') { " UTC" } else { "" };
            format!("{day} {time}{zone}")
        }
        _ => at.to_string(),
    }
}

/// `## Goal`: the person's task statement (the chain's first prompt that says something),
/// its long blocks cut, within `cap` units: its opening and its closing sentences. With it,
/// the middle those leave out, if any.
pub fn goal(ctx: &Context, m: Measure, cap: usize) -> (String, Option<String>) {
    let Some(goal) = &ctx.goal else {
        return (String::new(), None);
    };
    let heading = format!("## Goal (the person's words, turn {})\n", goal.code);
    let text = blocks::compact(
        blocks::without_paste_marks(goal.text.trim()),
        &goal.code,
        blocks::Keep::STATEMENT,
    );
    let room = cap.saturating_sub(m.len(&heading) + 1);
    let (shown, left_out) = opening_and_closing(m, &text, room, &goal.code);
    if shown.is_empty() {
        return (String::new(), None);
    }
    (
        format!("{heading}{shown}\n\n"),
        left_out.map(str::to_string),
    )
}

/// Share of a long goal's room its closing sentences get, in percent.
const CLOSING_SHARE: usize = 40;

/// `text` within `room` units as whole sentences from its start and from its end, the middle
/// named by a marker, and the part of `text` left out. A long request often closes with what
/// to do first or what not to do ("PLAN FIRST, CHANGE NOTHING UNTIL I SAY SO"), so the end is
/// kept as well as the start.
fn opening_and_closing<'t>(
    m: Measure,
    text: &'t str,
    room: usize,
    code: &str,
) -> (String, Option<&'t str>) {
    let total = m.len(text);
    if total <= room {
        return (text.to_string(), None);
    }
    let marker = |n: usize| super::cut_marker(n, code);
    let inner = room.saturating_sub(m.len(&marker(total)));
    let closing = closing_sentences(m, text, inner * CLOSING_SHARE / 100);
    let opening = within_sentences(m, text, inner.saturating_sub(m.len(closing)));
    let opening = opening.trim_end_matches('…');
    if closing.is_empty() || opening.is_empty() {
        let shown = within_sentences(m, text, room);
        let kept = shown.trim_end_matches('…');
        let left_out = text.strip_prefix(kept).unwrap_or(text);
        return (shown, Some(left_out));
    }
    let cut = total.saturating_sub(m.len(opening) + m.len(closing));
    // The opening is whole lines and sentences from the start: a prefix but where a line
    // ending was trimmed, when all of the text stands for the middle.
    let middle = text
        .strip_prefix(opening)
        .and_then(|rest| rest.strip_suffix(closing))
        .unwrap_or(text);
    (format!("{opening}{}{closing}", marker(cut)), Some(middle))
}

/// The longest run of whole sentences (or lines) that ends `text` and fits in `room` units;
/// when even the last sentence is longer, its last words.
fn closing_sentences(m: Measure, text: &str, room: usize) -> &str {
    let fitting = |starts: Vec<usize>| {
        let mut best = "";
        for start in starts.into_iter().rev() {
            let tail = text[start..].trim_start();
            if m.len(tail) > room {
                break;
            }
            best = tail;
        }
        best
    };
    match fitting(sentence_starts(text)) {
        "" => fitting(word_starts(text)),
        whole => whole,
    }
}

/// Byte offsets where a word of `text` starts, after the first.
fn word_starts(text: &str) -> Vec<usize> {
    text.char_indices()
        .filter(|&(_, c)| c.is_whitespace())
        .map(|(i, c)| i + c.len_utf8())
        .filter(|&i| i < text.len())
        .collect()
}

/// Byte offsets where a sentence or a line of `text` starts, after the first.
fn sentence_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let ends = c == '\n' || summary::ends_sentence(&text[..i], c, &text[end..]);
        if ends && end < text.len() {
            starts.push(end);
        }
    }
    starts
}

/// `text` within `room` units: whole lines, then whole sentences of the line that does not
/// fit, then its words, marked.
fn within_sentences(m: Measure, text: &str, room: usize) -> String {
    if m.len(text) <= room {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.lines() {
        let more = if out.is_empty() {
            line.to_string()
        } else {
            format!("\n{line}")
        };
        if m.len(&out) + m.len(&more) < room {
            out.push_str(&more);
            continue;
        }
        // The sentences of this line that still fit.
        let left = room.saturating_sub(m.len(&out) + 2);
        let mut part = String::new();
        for sentence in line.split_inclusive(['.', '!', '?', '。']) {
            if m.len(&part) + m.len(sentence) > left {
                break;
            }
            part.push_str(sentence);
        }
        // A list item's number alone ("3.") says nothing of the item.
        if part
            .trim()
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            part.clear();
        }
        if part.trim().is_empty() && out.is_empty() {
            part = summary::fit(line, left.max(1));
            part.pop();
        }
        if !part.trim().is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(part.trim_end());
        }
        out.push('…');
        break;
    }
    out
}

/// Files named in the state, at most; the rest are counted.
const FILES_SHOWN: usize = 12;
/// Todo items shown whole, at most.
const TODOS_SHOWN: usize = 10;

/// `## Where the work stands`: branch, files changed, the latest todo list, and for a turn
/// that stopped half-way the call that was running and the last thing the agent thought,
/// within `cap` units. Empty when there is nothing to say.
pub fn state(state: &WorkingState, ending: Ending, m: Measure, cap: usize) -> String {
    let heading = "## Where the work stands\n";
    let mut lines: Vec<String> = Vec::new();
    if let Some(branch) = &state.branch {
        lines.push(format!("- Git branch: {branch}\n"));
    }
    if !state.files_changed.is_empty() {
        let mut named: Vec<String> = state
            .files_changed
            .iter()
            .take(FILES_SHOWN)
            .map(|f| {
                let how = if f.deleted {
                    " (deleted)".to_string()
                } else if f.changes > 1 {
                    format!(" ({} changes)", f.changes)
                } else {
                    String::new()
                };
                format!("{}{how}", f.path)
            })
            .collect();
        let more = state.files_changed.len().saturating_sub(FILES_SHOWN);
        if more > 0 {
            named.push(format!("and {more} more"));
        }
        lines.push(format!(
            "- Files this work changed, latest first: {}\n",
            named.join(", ")
        ));
    }
    if !state.todos.is_empty() {
        let done = state
            .todos
            .iter()
            .filter(|t| t.status == TodoStatus::Completed)
            .count();
        let open: Vec<String> = state
            .todos
            .iter()
            .filter(|t| t.status != TodoStatus::Completed)
            .take(TODOS_SHOWN)
            .map(|t| match t.status {
                TodoStatus::InProgress => format!("  - [in progress] {}\n", t.text),
                _ => format!("  - [ ] {}\n", t.text),
            })
            .collect();
        if open.is_empty() {
            lines.push(format!("- Todo list: all {done} items done.\n"));
        } else {
            lines.push(format!(
                "- Todo list ({done} of {} done), still open:\n{}",
                state.todos.len(),
                open.concat()
            ));
        }
    }
    if ending == Ending::Interrupted {
        for call in &state.running {
            lines.push(format!(
                "- Stopped before it returned (interrupted, refused or cut off): {} `{}` (turn {})\n",
                call.tool, call.what, call.turn
            ));
        }
        if let Some(thinking) = &state.last_thinking {
            let thought = thinking.split_whitespace().collect::<Vec<_>>().join(" ");
            lines.push(format!(
                "- Your last thinking, what you were about to do: {thought}\n"
            ));
        }
    }
    let mut out = String::new();
    for line in lines {
        if m.len(heading) + m.len(&out) + m.len(&line) + 1 > cap {
            break;
        }
        out.push_str(&line);
    }
    if out.is_empty() {
        return out;
    }
    format!("{heading}{out}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_people_write_them() {
        assert_eq!(readable("2026-12-01T23:05:11.123Z"), "2026-12-01 23:05 UTC");
        assert_eq!(readable("yesterday"), "yesterday");
    }

    #[test]
    fn a_long_goal_keeps_its_opening_and_its_closing_sentences() {
        const ROOM_FOR_WHOLE: usize = 270;
        const ROOM_FOR_WORDS: usize = 230;
        let text = "Move the billing tables from MySQL to Postgres so the reports run on one \
                    database. Keep the nightly invoices running. Check every foreign key, the \
                    triggers and the views that read them, then write the plan. Work on a \
                    branch of your own. RUN THE DRY RUN FIRST and put its log in ops/; drop \
                    no table before I say OK.";
        let (out, left_out) = opening_and_closing(Measure::Utf16, text, ROOM_FOR_WHOLE, "t1");
        assert!(Measure::Utf16.len(&out) <= ROOM_FOR_WHOLE, "{out}");
        // What the marker stands for is said, for the goal's turn to show.
        let left_out = left_out.expect("a middle left out");
        assert!(
            left_out.contains("Work on a branch of your own.") && !out.contains(left_out),
            "{left_out}"
        );
        assert!(
            out.starts_with("Move the billing tables from MySQL to Postgres"),
            "{out}"
        );
        assert!(
            out.ends_with(
                "] RUN THE DRY RUN FIRST and put its log in ops/; drop no table before I say OK."
            ),
            "{out}"
        );
        assert!(
            out.contains(" characters cut: throughline detail t1] "),
            "{out}"
        );
        // A closing sentence longer than its share keeps its last words.
        let (out, _) = opening_and_closing(Measure::Utf16, text, ROOM_FOR_WORDS, "t1");
        assert!(
            out.ends_with(
                "] THE DRY RUN FIRST and put its log in ops/; drop no table before I say OK."
            ),
            "{out}"
        );
        // A dot inside a file name ends no sentence.
        assert_eq!(
            sentence_starts("Read docs/setup-notes.md first. Then plan."),
            vec![31]
        );
    }

    #[test]
    fn a_goal_that_fits_is_whole() {
        let text = "Fix the flaky test. Do not touch the schema.";
        assert_eq!(
            opening_and_closing(Measure::Utf16, text, 100, "t1"),
            (text.to_string(), None)
        );
    }

    #[test]
    fn a_cut_goal_ends_on_no_bare_item_number() {
        let text = "Start with the data model.\n1. Invites expire after 72 hours.\n2. A household holds at most 8 members.";
        let out = within_sentences(Measure::Utf16, text, 70);
        assert_eq!(
            out,
            "Start with the data model.\n1. Invites expire after 72 hours.…"
        );
    }

    #[test]
    fn a_long_goal_keeps_whole_sentences() {
        let text = "Port the importer to the new API. Keep the old one working until March. \
                    Then remove it and every flag that guards it.";
        let out = within_sentences(Measure::Utf16, text, 75);
        assert_eq!(
            out,
            "Port the importer to the new API. Keep the old one working until March.…"
        );
    }
}
