//! What the next session receives: one text within the host's injection limit, counted the
//! way the host counts (UTF-16 code units for Claude Code, bytes for Codex). In order: a short framing, the latest exchange,
//! recent turns verbatim, older turns as one-liners (L1), and how to pull more. Never any
//! tool output, thinking or host entries — only their one-line list per turn.

use crate::hosts;
use crate::model::{Role, Session, Turn};
use crate::record::Measure;
use std::collections::HashMap;

use crate::store::{Injection, ModelLine, Result, Store, Trigger};
use crate::summary;

/// What the renderer needs to know besides the turns.
#[derive(Debug, Clone)]
pub struct Context {
    pub trigger: Trigger,
    pub project: String,
    /// Host session ids of the sessions the turns come from, nearest first.
    pub chain: Vec<String>,
    /// Turns with a prompt in the whole chain (more than are passed in, usually).
    pub total_turns: u64,
    pub budget: usize,
    /// How the receiving host counts `budget`.
    pub measure: Measure,
    /// The latest exchange plus this many minus one earlier turns, verbatim.
    pub verbatim_turns: usize,
    /// One-liners a model wrote, by turn code: used where they fit (docs/decisions/0055).
    pub model_lines: HashMap<String, ModelLine>,
}

#[derive(Debug, Clone)]
pub struct Rendered {
    pub text: String,
    pub verbatim: Vec<String>,
    pub one_liners: Vec<String>,
    /// Who wrote each of `one_liners`: `local`, or the model's `backend:model`.
    pub one_liners_by: Vec<String>,
    pub left_out: u64,
}

/// Who wrote a one-liner that the local summarizer made.
pub const LOCAL: &str = "local";

/// How Claude Code counts characters.
pub fn units(s: &str) -> usize {
    Measure::Utf16.len(s)
}

/// The smallest budget the renderer works with: framing, one turn and the pull commands.
pub const MIN_BUDGET: usize = 1_500;

/// Turns read for one rendering: more than any budget can show as one-liners.
const TURNS_READ: u32 = 400;

/// Renders `entries` (newest first) into at most `ctx.budget`, counted in `ctx.measure`.
pub fn render(ctx: &Context, turns: &[Turn]) -> Rendered {
    let m = ctx.measure;
    let budget = ctx.budget.max(MIN_BUDGET);
    let Some((latest, older)) = turns.split_first() else {
        return Rendered {
            text: String::new(),
            verbatim: Vec::new(),
            one_liners: Vec::new(),
            one_liners_by: Vec::new(),
            left_out: 0,
        };
    };
    let head = framing(ctx);
    let foot = pull_more(ctx, turns);
    let mut left = budget.saturating_sub(m.len(&head) + m.len(&foot));

    let latest_block = turn_block(
        m,
        &format!("## Latest exchange (turn {})\n", latest.code),
        latest,
        left * 45 / 100,
    );
    left = left.saturating_sub(m.len(&latest_block));
    let mut verbatim = vec![latest.code.clone()];

    // Recent turns verbatim, packed newest first, printed oldest first.
    let wanted = ctx.verbatim_turns.saturating_sub(1);
    let verbatim_budget = if older.len() > wanted {
        left * 3 / 5
    } else {
        left
    };
    let heading = "## Recent turns, verbatim (oldest first)\n";
    let mut blocks: Vec<String> = Vec::new();
    let mut used = m.len(heading);
    for entry in older.iter().take(wanted) {
        let title = format!("### Turn {}{}\n", entry.code, detail_note(entry));
        let whole = turn_block(m, &title, entry, usize::MAX);
        let block = if used + m.len(&whole) <= verbatim_budget {
            whole
        } else {
            // A long turn is cut (and marked) rather than pushing out all the others.
            let cut = turn_block(m, &title, entry, verbatim_budget / 3);
            if used + m.len(&cut) > verbatim_budget {
                break;
            }
            cut
        };
        used += m.len(&block);
        blocks.push(block);
        verbatim.push(entry.code.clone());
    }
    let mut recent = String::new();
    if !blocks.is_empty() {
        recent.push_str(heading);
        for block in blocks.iter().rev() {
            recent.push_str(block);
        }
        recent.push('\n');
        left = left.saturating_sub(m.len(&recent));
    }

    // Older turns as one-liners, newest first, while room lasts.
    let rest = &older[verbatim.len() - 1..];
    let mut lines = String::new();
    let mut one_liners = Vec::new();
    let mut index_room = 0;
    let mut one_liners_by = Vec::new();
    if !rest.is_empty() {
        let heading = "## Earlier turns, one line each (newest first)\n";
        // Room for the "not shown" line, so it always fits.
        let reserve = 160 + ctx.chain.first().map_or(0, String::len);
        let mut room = left.saturating_sub(m.len(heading) + reserve);
        let mut gists: Vec<summary::Gist> = rest
            .iter()
            .map(|t| summary::Gist::of(&t.messages))
            .collect();
        summary::Gist::discount_repeats(&mut gists);
        let models: Vec<Option<&ModelLine>> =
            rest.iter().map(|t| ctx.model_lines.get(&t.code)).collect();
        let model_chars: Vec<Option<usize>> = models
            .iter()
            .map(|m| m.map(|m| m.text.chars().count()))
            .collect();
        let mut lengths = line_lengths(&gists, &model_chars, room);
        if lengths.iter().map(|l| l + LINE_OVERHEAD).sum::<usize>() > room {
            // Not every turn gets a line: some room goes to the names and numbers of those
            // that do not, which say more per character than the shortest lines.
            index_room = room / INDEX_SHARE;
            room -= index_room;
            lengths = line_lengths(&gists, &model_chars, room);
        }
        let mut session = ctx.chain.first().cloned().unwrap_or_default();
        let mut body = String::new();
        for (((entry, gist), model), &per_line) in
            rest.iter().zip(&gists).zip(&models).zip(&lengths)
        {
            let mut line = String::new();
            if entry.session_id != session {
                session = entry.session_id.clone();
                line.push_str(&format!("(earlier session {})\n", short(&session)));
            }
            // A model line is used whole or not at all: cut, it would lose its outcome.
            let (text, by) = match model {
                Some(model) if model.text.chars().count() <= per_line => {
                    (model.text.clone(), model.by.as_str())
                }
                _ => (gist.one_liner(per_line), LOCAL),
            };
            line.push_str(&format!("- {}: {text}\n", entry.code));
            if m.len(&body) + m.len(&line) > room {
                break;
            }
            body.push_str(&line);
            one_liners.push(entry.code.clone());
            one_liners_by.push(by.to_string());
        }
        if !body.is_empty() {
            lines.push_str(heading);
            lines.push_str(&body);
        }
        index_room += room.saturating_sub(m.len(&body));
        let said = format!("{latest_block}{recent}{lines}");
        lines.push_str(&exact_index(
            m,
            &rest[one_liners.len()..],
            &gists[one_liners.len()..],
            &said,
            index_room,
        ));
    }
    let shown = (verbatim.len() + one_liners.len()) as u64;
    let left_out = ctx.total_turns.saturating_sub(shown);
    if left_out > 0 {
        let oldest = one_liners
            .last()
            .or(verbatim.last())
            .expect("the latest turn is shown");
        lines.push_str(&format!(
            "({left_out} older turns not shown: `throughline recall --before {oldest} --oneline`)\n"
        ));
    }
    if !lines.is_empty() {
        lines.push('\n');
    }

    let mut text = format!("{head}{latest_block}\n{recent}{lines}{foot}");
    if m.len(&text) > budget {
        // The accounting above keeps within budget; this only guards against a mistake in it.
        text = cut(m, &text, budget, &latest.code);
    }
    Rendered {
        text,
        verbatim,
        one_liners,
        one_liners_by,
        left_out,
    }
}

/// Of the room for one-liners, the part kept for [`exact_index`] when not all turns get one.
const INDEX_SHARE: usize = 5;

/// Exact things a turn states that its entry in [`exact_index`] names, at most.
const INDEX_WORDS: usize = 4;

/// The names and numbers (see [`summary::Gist::exact_words`]) of turns without a line of
/// their own, newest first, within `room`: what the next session can search for. Those
/// already in `said` are not repeated.
fn exact_index(
    m: Measure,
    turns: &[Turn],
    gists: &[summary::Gist],
    said: &str,
    room: usize,
) -> String {
    let heading = "## Names and numbers in older turns (`throughline search` them)\n";
    let mut body = String::new();
    let mut named: Vec<String> = Vec::new();
    for (turn, gist) in turns.iter().zip(gists) {
        let words: Vec<String> = gist
            .exact_words(INDEX_WORDS * 2)
            .into_iter()
            .filter(|w| !said.contains(w.as_str()) && !named.contains(w))
            .take(INDEX_WORDS)
            .collect();
        if words.is_empty() {
            continue;
        }
        let line = format!("- {}: {}\n", turn.code, words.join(", "));
        if m.len(heading) + m.len(&body) + m.len(&line) > room {
            break;
        }
        body.push_str(&line);
        named.extend(words);
    }
    if body.is_empty() {
        body
    } else {
        format!("{heading}{body}")
    }
}

/// What a one-liner costs besides its text: `- <code>: ` and the newline.
const LINE_OVERHEAD: usize = 14;

/// The shortest one-liner worth printing, overhead included.
const MIN_LINE: usize = 90;

/// How many characters each turn's one-liner may take within `room`: each turn gets its
/// [`summary::Gist::shares`] of it, and a line that needs less than its share leaves the
/// rest to the others. A turn with a model line (its length in `model_chars`) wants that
/// line's length.
fn line_lengths(turns: &[summary::Gist], model_chars: &[Option<usize>], room: usize) -> Vec<usize> {
    let wants: Vec<usize> = turns
        .iter()
        .zip(model_chars)
        .map(|(t, model)| {
            model.unwrap_or_else(|| t.one_liner(summary::MAX_CHARS).chars().count()) + LINE_OVERHEAD
        })
        .collect();
    let shares: Vec<usize> = turns.iter().map(summary::Gist::shares).collect();
    let mut given: Vec<Option<usize>> = vec![None; turns.len()];
    let mut left = room;
    loop {
        let open: usize = (0..turns.len())
            .filter(|&i| given[i].is_none())
            .map(|i| shares[i])
            .sum();
        if open == 0 {
            break;
        }
        let unit = left / open;
        let mut settled = false;
        for i in 0..turns.len() {
            if given[i].is_none() && wants[i] <= unit * shares[i] {
                given[i] = Some(wants[i]);
                left -= wants[i];
                settled = true;
            }
        }
        if !settled {
            for (g, share) in given.iter_mut().zip(&shares) {
                g.get_or_insert(unit * share);
            }
            break;
        }
    }
    given
        .into_iter()
        .map(|g| {
            g.unwrap_or(0)
                .clamp(MIN_LINE, summary::MAX_CHARS + LINE_OVERHEAD)
                - LINE_OVERHEAD
        })
        .collect()
}

fn short(session_id: &str) -> &str {
    &session_id[..session_id.len().min(8)]
}

fn framing(ctx: &Context) -> String {
    let from = match ctx.chain.as_slice() {
        [] => String::new(),
        [one] => format!("session {}", short(one)),
        [one, rest @ ..] => format!(
            "session {} (and before it {})",
            short(one),
            rest.iter().map(|s| short(s)).collect::<Vec<_>>().join(", ")
        ),
    };
    let why = match ctx.trigger {
        Trigger::Clear => format!(
            "The person ran /clear. This is your own interrupted work in {}, from {from}: the \
             person's next prompt continues it, so pick up where it stopped.",
            ctx.project
        ),
        Trigger::Handoff => format!(
            "The person handed this work over from another chat ({from}). This is your own \
             earlier work in {}: the person's prompt continues it.",
            ctx.project
        ),
        Trigger::Compact => format!(
            "The conversation was just compacted and its summary is lossy. These are your most \
             recent turns in {}, verbatim.",
            ctx.project
        ),
    };
    format!(
        "# Throughline memory\n{why} Tool output, thinking and host messages are left out: \
         each turn lists what it holds, and the commands at the end pull anything back.\n\n"
    )
}

fn pull_more(ctx: &Context, turns: &[Turn]) -> String {
    let session = ctx.chain.first().map(|s| short(s)).unwrap_or_default();
    let example = turns.first().map_or("<turn>", |t| t.code.as_str());
    format!(
        "## Pull more\n\
         - `throughline detail {example}`: a turn in full, with every tool call, its output and thinking\n\
         - `throughline detail {example} --tool 1`: one tool call and its whole output\n\
         - `throughline recall --session {session} --before {example} --last 5`: older turns verbatim\n\
         - `throughline search \"<words>\"`: every prompt, answer and tool output of this project\n"
    )
}

fn detail_note(turn: &Turn) -> String {
    if turn.detail_summary.is_empty() {
        String::new()
    } else {
        format!(" ({})", turn.detail_summary)
    }
}

/// A turn's conversation within `cap` units: the prompt gets up to two fifths, the answers the
/// rest; a cut keeps the beginning and the end and says how to read the whole.
fn turn_block(m: Measure, title: &str, turn: &Turn, cap: usize) -> String {
    let prompt: Vec<&str> = turn
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.text.as_str())
        .collect();
    let answer: Vec<&str> = turn
        .messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .map(|m| m.text.as_str())
        .collect();
    let prompt = prompt.join("\n");
    let answer = if answer.is_empty() {
        "(no answer)".to_string()
    } else {
        answer.join("\n\n")
    };
    let mut block = title.to_string();
    let detail = if title.starts_with("## ") && !turn.detail_summary.is_empty() {
        format!("Detail: {}\n", turn.detail_summary)
    } else {
        String::new()
    };
    let fixed = m.len(title) + m.len("Person: \nYou: \n") + m.len(&detail);
    let room = cap.saturating_sub(fixed);
    let prompt_room = (room / 5 * 2).max(room.saturating_sub(m.len(&answer)));
    let prompt = cut(m, &prompt, prompt_room, &turn.code);
    let answer = cut(m, &answer, room.saturating_sub(m.len(&prompt)), &turn.code);
    block.push_str(&format!("Person: {prompt}\nYou: {answer}\n{detail}"));
    block
}

/// `text` within `max` units: its beginning and its end around a marker naming what is cut.
fn cut(m: Measure, text: &str, max: usize, code: &str) -> String {
    let total = m.len(text);
    if total <= max {
        return text.to_string();
    }
    let marker = |n: usize| format!(" […{n} characters cut: throughline detail {code}] ");
    let room = max.saturating_sub(m.len(&marker(total)));
    let head_room = room * 2 / 3;
    let head = take_units(m, text, head_room);
    let tail = take_units_from_end(m, text, room - m.len(&head));
    let removed = total - m.len(&head) - m.len(&tail);
    format!("{head}{}{tail}", marker(removed))
}

fn take_units(m: Measure, text: &str, max: usize) -> String {
    let mut used = 0;
    text.chars()
        .take_while(|c| {
            used += m.of_char(*c);
            used <= max
        })
        .collect()
}

fn take_units_from_end(m: Measure, text: &str, max: usize) -> String {
    let mut used = 0;
    let mut tail: Vec<char> = text
        .chars()
        .rev()
        .take_while(|c| {
            used += m.of_char(*c);
            used <= max
        })
        .collect();
    tail.reverse();
    tail.into_iter().collect()
}

/// Builds the memory `receiver` gets from `chain` (nearest first; for a compaction, the
/// session itself), ready to inject and log. `None` when the chain holds no turn.
pub fn build(
    store: &Store,
    receiver: &Session,
    trigger: Trigger,
    chain: &[&Session],
    config: &crate::config::Config,
    at: &str,
) -> Result<Option<Injection>> {
    let verbatim_turns = config.verbatim_turns.max(1) as usize;
    let limit = hosts::agent(receiver.host).injection_limit();
    let turns = store.recent_turns(chain, TURNS_READ, verbatim_turns)?;
    if turns.is_empty() {
        return Ok(None);
    }
    let model_lines =
        store.model_lines(turns.iter().skip(verbatim_turns).map(|t| t.code.as_str()))?;
    let ctx = Context {
        trigger,
        project: receiver
            .project
            .clone()
            .or_else(|| chain.first().and_then(|s| s.project.clone()))
            .unwrap_or_else(|| "this project".into()),
        chain: chain.iter().map(|s| s.session_id.clone()).collect(),
        total_turns: store.count_turns(chain)?,
        budget: (config.budget as usize).min(limit.max),
        measure: limit.measure,
        verbatim_turns,
        model_lines,
    };
    let rendered = render(&ctx, &turns);
    Ok(Some(Injection {
        id: 0,
        session_id: receiver.session_id.clone(),
        project: receiver.project.clone(),
        trigger,
        at: at.to_string(),
        chain: ctx.chain,
        budget: ctx.budget.max(MIN_BUDGET) as u32,
        size: limit.measure.len(&rendered.text) as u32,
        verbatim: rendered.verbatim,
        one_liners: rendered.one_liners,
        one_liners_by: rendered.one_liners_by,
        left_out: rendered.left_out as u32,
        text: rendered.text,
    }))
}

#[cfg(test)]
mod tests;
