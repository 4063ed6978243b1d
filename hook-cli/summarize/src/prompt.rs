//! What a backend is asked, and which lines of its answer are kept: the same for every
//! backend, so they differ only in transport.

use std::collections::HashMap;

use throughline_core::model::Role;
use throughline_core::summary;
use throughline_store::DueTurn;

/// The longest line a model may write. The memory gives an older turn 76 to 240 characters
/// (`memory::line_lengths`) and uses a model line only where it fits whole; most get about a
/// hundred, so a model line this long fits nearly everywhere.
pub const LINE_CHARS: usize = 160;

/// Of each turn, the start and the end of the prompt and of the answers go into the request:
/// the request and how it ended, at a bounded cost per turn.
const PROMPT_HEAD: usize = 900;
const PROMPT_TAIL: usize = 300;
const ANSWER_HEAD: usize = 700;
const ANSWER_TAIL: usize = 1_300;

/// One request: instructions and the turns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub system: String,
    pub user: String,
    /// Turns asked for: the answer has room for this many lines.
    pub turns: usize,
}

impl Prompt {
    /// Tokens the answer may take: a line per turn, with room to spare.
    pub fn max_output_tokens(&self) -> u32 {
        (self.turns as u32) * 120 + 100
    }
}

pub fn prompt_for(turns: &[DueTurn]) -> Prompt {
    let system = format!(
        "You write the memory of a coding session: one line per turn, read later by another \
         session that never saw the conversation and must recognise and continue the work.\n\
         For each turn: what the person wanted, and what came of it (the outcome, the decision \
         taken, or what was found).\n\
         Keep every name, number, path, identifier, version, setting and decision exactly as \
         written. Write each line in the language the turn is written in. No markdown, no \
         preamble, no commentary.\n\
         Each line at most {LINE_CHARS} characters.\n\
         Answer with exactly one line per turn, in the order given, each `<turn id>: <line>`, \
         and nothing else."
    );
    let mut user = String::new();
    for turn in turns {
        let part = |role: Role, head: usize, tail: usize| {
            let text = turn
                .messages
                .iter()
                .filter(|m| m.role == role)
                .map(|m| m.text.trim())
                .collect::<Vec<_>>()
                .join("\n");
            summary::head_and_tail(&text, head, tail).into_owned()
        };
        user.push_str(&format!(
            "<turn id=\"{}\">\n<prompt>\n{}\n</prompt>\n<answer>\n{}\n</answer>\n</turn>\n",
            turn.code,
            part(Role::User, PROMPT_HEAD, PROMPT_TAIL),
            part(Role::Assistant, ANSWER_HEAD, ANSWER_TAIL),
        ));
    }
    user.push_str(&format!(
        "\nNow the {} lines, `<turn id>: <line>`:",
        turns.len()
    ));
    Prompt {
        system,
        user,
        turns: turns.len(),
    }
}

/// The valid line of each turn in `answer`, by turn code: one line, not empty, at most
/// [`LINE_CHARS`], for a turn that was asked for and named once. A turn named twice, or whose
/// line runs on into the next, gets none (it keeps its local line).
pub fn parse_answer(answer: &str, turns: &[DueTurn]) -> HashMap<String, String> {
    let mut found: HashMap<String, Option<String>> = HashMap::new();
    let mut last: Option<String> = None;
    for raw in answer.lines() {
        let line = raw.trim();
        if line.is_empty() {
            last = None;
            continue;
        }
        match named_line(line, turns) {
            Some((code, text)) => {
                let valid = !text.is_empty() && text.chars().count() <= LINE_CHARS;
                let entry = found.entry(code.to_string());
                match entry {
                    std::collections::hash_map::Entry::Occupied(mut taken) => {
                        taken.insert(None);
                    }
                    std::collections::hash_map::Entry::Vacant(free) => {
                        free.insert(valid.then(|| text.to_string()));
                    }
                }
                last = Some(code.to_string());
            }
            None => {
                // A line that names no turn continues the one before: that one was not one line.
                if let Some(code) = last.take() {
                    found.insert(code, None);
                }
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(code, line)| Some((code, line?)))
        .collect()
}

/// `<code>: <text>` for a turn asked for, allowing the decorations models add (`- `, quotes
/// or brackets around the code).
fn named_line<'a, 't>(line: &'a str, turns: &'t [DueTurn]) -> Option<(&'t str, &'a str)> {
    let line = line.trim_start_matches(['-', '*', '•', ' ']);
    let (name, text) = line.split_once(':')?;
    let name = name.trim().trim_matches(['`', '"', '[', ']', '*', ' ']);
    let turn = turns.iter().find(|t| t.code == name)?;
    Some((turn.code.as_str(), text.trim()))
}
