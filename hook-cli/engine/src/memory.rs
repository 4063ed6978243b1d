//! What the next session receives: a briefing within the host's injection limit, counted the
//! way the host counts (UTF-16 code units for Claude Code, bytes for Codex). In order: what
//! happened and how the last turn ended, the goal, where the work stands (branch, files
//! changed, open todos, what was running), the facts of the whole chain as whole sentences,
//! older turns as one-liners (L1), recent turns and the latest exchange verbatim with long
//! pasted or generated blocks cut, and how to pull more. Never any tool output or thinking
//! beyond the working state's last thought.

mod briefing;
mod facts;

use crate::blocks;
use crate::hosts;
use crate::model::{Role, Session, Turn, WorkingState};
use crate::record::Measure;
use crate::summary::LOCAL;
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
    /// What the person set out to do: the chain's first prompt that says something.
    pub goal: Option<Goal>,
    /// Branch, files changed, todos and what was running (see [`Store::working_state`]).
    pub state: WorkingState,
    /// The client and model of the newest session, as the framing names them.
    pub about: About,
    /// Parts the memory is spread over, each within `budget`: 2 where the host passes both
    /// the start's and the first prompt's context into the first request, or one output that
    /// takes both.
    pub parts: usize,
    /// Whether the parts go in together, in one hook output (`Agent::memory_parts_in_one_output`).
    pub together: bool,
}

/// The person's task statement and the turn it opens.
#[derive(Debug, Clone)]
pub struct Goal {
    pub code: String,
    pub text: String,
}

/// Which client and model wrote the newest session (`Claude Code 2.1.332`, `claude-opus-5-5`).
#[derive(Debug, Clone, Default)]
pub struct About {
    pub client: Option<String>,
    pub model: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Rendered {
    /// What the first hook gives.
    pub text: String,
    /// What the first prompt's hook gives, when the memory comes in two parts.
    pub more: Option<String>,
    pub verbatim: Vec<String>,
    pub one_liners: Vec<String>,
    /// Who wrote each of `one_liners`: `local`, or the model's `backend:model`.
    pub one_liners_by: Vec<String>,
    pub left_out: u64,
}

/// How Claude Code counts characters.
pub fn units(s: &str) -> usize {
    Measure::Utf16.len(s)
}

/// The smallest budget the renderer works with: framing, one turn and the pull commands.
pub const MIN_BUDGET: usize = 1_500;

/// Turns read for one rendering: more than any budget can show as one-liners.
const TURNS_READ: u32 = 400;

/// Units a turn given verbatim takes at the least in practice (its title, a line of prompt,
/// one of answer, its detail line): a part shows at most its budget over this many turns.
const SMALLEST_TURN_BLOCK: usize = 80;

/// Renders `turns` (newest first) into at most `ctx.budget` per part, counted in
/// `ctx.measure`. In one part: the briefing, facts, one-liners, recent turns and the latest
/// exchange. In two (a host that passes two hooks' context into the first request): the
/// briefing, facts, one-liners and latest exchange first; the recent turns verbatim second,
/// in all of its room.
pub fn render(ctx: &Context, turns: &[Turn]) -> Rendered {
    let m = ctx.measure;
    let budget = ctx.budget.max(MIN_BUDGET);
    let split = ctx.parts > 1;
    let Some((latest, older)) = turns.split_first() else {
        return Rendered {
            text: String::new(),
            more: None,
            verbatim: Vec::new(),
            one_liners: Vec::new(),
            one_liners_by: Vec::new(),
            left_out: 0,
        };
    };
    let ending = briefing::Ending::of(latest, &ctx.state);
    let head = briefing::framing(ctx, latest, ending);
    // The goal is the latest turn's own prompt in a one-turn chain: said there, not twice.
    let goal_code = ctx
        .goal
        .as_ref()
        .filter(|g| g.code != latest.code)
        .map(|g| g.code.as_str());
    let (goal, goal_left_out) = if goal_code.is_some() {
        briefing::goal(ctx, m, budget / 6)
    } else {
        (String::new(), None)
    };
    // The goal's turn shown verbatim points at the goal, and says what a cut goal left out
    // (a pasted spec's requirements).
    let points_at_goal = goal_code.map(|code| GoalShown {
        code,
        left_out: goal_left_out.as_deref(),
    });
    let state = briefing::state(&ctx.state, ending, m, budget / 6);
    let foot = pull_more(ctx, turns);
    let second_head = format!(
        "# Throughline memory, part 2 of 2\nThe rest of the memory of your earlier work in {}: \
         the turns just before the latest exchange, verbatim (part 1 holds the goal, the facts, \
         the older turns one line each, and the latest exchange).\n\n",
        ctx.project
    );
    // Room for the "not shown" line, so it always fits.
    let left_out_line = 160 + ctx.chain.first().map_or(0, String::len);
    let fixed = m.len(&head) + m.len(&goal) + m.len(&state) + m.len(&foot);
    // What the latest exchange, the facts and the one-liners share; then what the recent
    // turns have (the same room in one part).
    let mut first = budget.saturating_sub(fixed + left_out_line);
    let mut second = if split {
        budget.saturating_sub(m.len(&second_head))
    } else {
        0
    };

    let latest_title = match ending {
        briefing::Ending::Finished => format!("## Latest exchange (turn {})\n", latest.code),
        briefing::Ending::Interrupted => format!(
            "## Latest exchange (turn {}, stopped before it was done)\n",
            latest.code
        ),
    };
    // Shares of the latest exchange and the recent turns: after a compaction the session goes
    // on, and its recent turns verbatim are what it lost.
    let (latest_share, recent_share) = match (split, ctx.trigger) {
        (true, _) => (45, 100),
        (false, Trigger::Compact) => (45, 60),
        (false, _) => (30, 40),
    };
    let latest_block = turn_block(
        m,
        &latest_title,
        latest,
        first * latest_share / 100,
        points_at_goal,
    );
    first = first.saturating_sub(m.len(&latest_block) + 1);
    let mut verbatim = vec![latest.code.clone()];

    // Recent turns verbatim, packed newest first, printed oldest first.
    let pool = if split { &mut second } else { &mut first };
    let wanted = ctx.verbatim_turns.saturating_sub(1);
    let verbatim_budget = if older.len() > wanted {
        *pool * recent_share / 100
    } else {
        *pool
    };
    let heading = "## Recent turns, verbatim (oldest first)\n";
    let mut blocks: Vec<String> = Vec::new();
    let mut used = m.len(heading);
    for (i, entry) in older.iter().enumerate() {
        let from = if entry.session_id == latest.session_id {
            String::new()
        } else {
            format!(" (earlier session {})", short(&entry.session_id))
        };
        let title = format!("### Turn {}{from}{}\n", entry.code, detail_note(entry));
        let whole = turn_block(m, &title, entry, usize::MAX, points_at_goal);
        let left = verbatim_budget.saturating_sub(used);
        let block = if i >= wanted {
            // Room the recent turns leave (a short session) gives older turns verbatim too,
            // whole, while the one-liners of the turns before them still fit (in part 1 when
            // the memory is split).
            let lines_left = if split {
                0
            } else {
                (older.len() - i - 1) * ONE_LINER_ROOM
            };
            (m.len(&whole) + lines_left <= left).then_some(whole)
        } else if m.len(&whole) <= left {
            Some(whole)
        } else {
            // A long turn is cut (and marked) rather than pushing out all the others.
            let cut = turn_block(m, &title, entry, verbatim_budget / 3, points_at_goal);
            (m.len(&cut) <= left).then_some(cut)
        };
        // Part 2 holds nothing else: the first turn that does not fit takes the room left,
        // cut, when that is room enough to say something.
        let block = block.or_else(|| {
            (split && left >= verbatim_budget / 6)
                .then(|| turn_block(m, &title, entry, left, points_at_goal))
                .filter(|cut| m.len(cut) <= left)
        });
        let Some(block) = block else {
            break;
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
        *pool = pool.saturating_sub(m.len(&recent));
    }

    // The facts of the older turns, then the turns themselves as one-liners, newest first,
    // while room lasts.
    let rest = &older[verbatim.len() - 1..];
    let mut facts_text = String::new();
    let mut lines = String::new();
    let mut one_liners = Vec::new();
    let mut one_liners_by = Vec::new();
    if !rest.is_empty() {
        let mut gists: Vec<summary::Gist> = rest
            .iter()
            .map(|t| summary::Gist::of(&t.messages))
            .collect();
        summary::Gist::discount_repeats(&mut gists);
        // What the goal shows, not all it said: a long goal's cut middle (a pasted spec's
        // requirements) may hold facts.
        let goal_text = summary::as_said(&goal);
        let goal_text = goal_text.as_str();
        // Split, the facts leave the one-liners their room, up to 40% of the part.
        let facts_room = if split {
            first.saturating_sub((rest.len() * ONE_LINER_ROOM).min(first * 40 / 100))
        } else {
            first * 45 / 100
        };
        // A correction shown verbatim still takes back what it corrects in older turns.
        let newer: Vec<summary::Gist> = std::iter::once(latest)
            .chain(&older[..verbatim.len() - 1])
            .map(|t| summary::Gist::of(&t.messages))
            .collect();
        let chosen = facts::choose(rest, &gists, &newer, facts_room, m, goal_text);
        if !chosen.facts.is_empty() {
            facts_text.push_str(
                "## Facts from earlier turns (in the order they were said; later ones win)\n",
            );
            // The turn after each: the older turns are newest first, and the verbatim ones
            // (the latest exchange first) come after all of them.
            let after = |i: usize| match i.checked_sub(1) {
                Some(newer) => &rest[newer].code,
                None => verbatim.last().expect("the latest turn is shown"),
            };
            for fact in &chosen.facts {
                facts_text.push_str(&fact.line(&rest[fact.turn].code, after(fact.turn)));
            }
            facts_text.push('\n');
            first = first.saturating_sub(m.len(&facts_text));
        }
        for gist in &mut gists {
            gist.drop_sentences(&|s| chosen.said.contains(s) || goal_text.contains(s));
        }
        let (text, codes, by) = one_liner_lines(ctx, rest, &gists, first);
        lines = text;
        one_liners = codes;
        one_liners_by = by;
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

    let (text, more) = if split {
        let part2 = format!("{second_head}{recent}");
        let more = (m.len(&part2) > m.len(&second_head)).then_some(part2);
        let note = if more.is_some() && !ctx.together {
            "(Part 2 of this memory, the recent turns verbatim, comes with the person's first prompt.)\n\n"
        } else {
            ""
        };
        (
            format!("{head}{goal}{state}{facts_text}{lines}{latest_block}\n{note}{foot}"),
            more,
        )
    } else {
        (
            format!("{head}{goal}{state}{facts_text}{lines}{recent}{latest_block}\n{foot}"),
            None,
        )
    };
    // The accounting above keeps within budget; this only guards against a mistake in it.
    let guard = |text: String| {
        if m.len(&text) > budget {
            cut(m, &text, budget, &latest.code, &[])
        } else {
            text
        }
    };
    Rendered {
        text: guard(text),
        more: more.map(guard),
        verbatim,
        one_liners,
        one_liners_by,
        left_out,
    }
}

/// The one-liners of `rest` (newest first) within `left` units, each turn of a routine shape
/// named on a newer line of its shape when not all fit: the text, the codes of the turns it
/// shows and who wrote each line.
fn one_liner_lines(
    ctx: &Context,
    rest: &[Turn],
    gists: &[summary::Gist],
    left: usize,
) -> (String, Vec<String>, Vec<String>) {
    let m = ctx.measure;
    let mut lines = String::new();
    let mut one_liners = Vec::new();
    let mut one_liners_by = Vec::new();
    let heading = "## Earlier turns, one line each (newest first)\n";
    let room = left.saturating_sub(m.len(heading));
    let models: Vec<Option<&ModelLine>> =
        rest.iter().map(|t| ctx.model_lines.get(&t.code)).collect();
    let mut alike_of = same_shape(rest, gists, &models);
    let alike_names: Vec<String> = (0..rest.len())
        .map(|i| {
            alike_of[i].map_or(String::new(), |first| {
                alike_name(&rest[i], &gists[i], &gists[first])
            })
        })
        .collect();
    let mut named_on: Vec<usize> = Vec::new();
    let mut alike_cost = 0;
    for (name, first) in alike_names.iter().zip(&alike_of) {
        if let Some(first) = *first {
            alike_cost += m.len(name) + alike_overhead(named_on.contains(&first));
            named_on.push(first);
        }
    }
    let wants: Vec<usize> = gists
        .iter()
        .zip(&models)
        .map(|(g, model)| whole_line(g, model.map(|m| m.text.chars().count())))
        .collect();
    let shares: Vec<usize> = gists.iter().map(summary::Gist::shares).collect();
    let own_lines = |alike_of: &[Option<usize>], room: usize| {
        let own: Vec<usize> = (0..rest.len()).filter(|&i| alike_of[i].is_none()).collect();
        let pick = |of: &[usize]| own.iter().map(|&i| of[i]).collect::<Vec<_>>();
        let lengths = line_lengths(&pick(&wants), &pick(&shares), room);
        let mut all = vec![0; rest.len()];
        for (&i, &length) in own.iter().zip(&lengths) {
            all[i] = length;
        }
        all
    };
    let mut lengths = own_lines(&vec![None; rest.len()], room);
    if lengths.iter().map(|l| l + LINE_OVERHEAD).sum::<usize>() <= room {
        // Every turn gets a line of its own.
        alike_of.fill(None);
    } else {
        lengths = own_lines(&alike_of, room.saturating_sub(alike_cost));
    }
    // Lines in order, each with the turns named on it; printed once all are laid out.
    let mut laid: Vec<Line> = Vec::new();
    let mut line_of: HashMap<usize, usize> = HashMap::new();
    let mut used = 0;
    let mut session = ctx.chain.first().cloned().unwrap_or_default();
    for (i, entry) in rest.iter().enumerate() {
        if let Some(&line) = alike_of[i].and_then(|first| line_of.get(&first)) {
            let cost = m.len(&alike_names[i]) + alike_overhead(!laid[line].alike.is_empty());
            if used + cost > room {
                break;
            }
            used += cost;
            laid[line].alike.push(alike_names[i].clone());
            one_liners.push(entry.code.clone());
            one_liners_by.push(LOCAL.to_string());
            continue;
        }
        let mut head = String::new();
        if entry.session_id != session {
            session = entry.session_id.clone();
            head = format!("(earlier session {})\n", short(&session));
        }
        let per_line = lengths[i];
        // A model line is used whole or not at all: cut, it would lose its outcome.
        let (text, by) = match models[i] {
            Some(model) if model.text.chars().count() <= per_line => {
                (model.text.clone(), model.by.as_str())
            }
            _ => (gists[i].one_liner(per_line), LOCAL),
        };
        if text.is_empty() {
            // Every sentence of the turn is said above (a fact, the goal).
            one_liners.push(entry.code.clone());
            one_liners_by.push(LOCAL.to_string());
            continue;
        }
        let line = Line {
            head,
            code: entry.code.clone(),
            text,
            alike: Vec::new(),
        };
        let cost = m.len(&line.render());
        if used + cost > room {
            break;
        }
        used += cost;
        line_of.insert(i, laid.len());
        laid.push(line);
        one_liners.push(entry.code.clone());
        one_liners_by.push(by.to_string());
    }
    let body: String = laid.iter().map(Line::render).collect();
    if !body.is_empty() {
        lines.push_str(heading);
        lines.push_str(&body);
    }
    (lines, one_liners, one_liners_by)
}

/// For each turn, the newer turn of its session whose line names it, when both have the same
/// [`summary::Gist::shape`]: the same routine step done again. A turn with a model line keeps
/// its own: the model's line says what the shape does not.
fn same_shape(
    turns: &[Turn],
    gists: &[summary::Gist],
    models: &[Option<&ModelLine>],
) -> Vec<Option<usize>> {
    let mut first_of_shape: HashMap<(&str, String), usize> = HashMap::new();
    (0..turns.len())
        .map(|i| {
            let shape = gists[i].shape();
            if shape.is_empty() || models[i].is_some() {
                return None;
            }
            let first = *first_of_shape
                .entry((turns[i].session_id.as_str(), shape))
                .or_insert(i);
            (first != i).then_some(first)
        })
        .collect()
}

/// How a turn is named on the line of a turn of its shape (`first`): its code, and what fills
/// its numbered places where that line says something else (`24tev5b (ledger_step_8)`).
fn alike_name(turn: &Turn, gist: &summary::Gist, first: &summary::Gist) -> String {
    let theirs = first.numbered_names();
    let names: Vec<&str> = gist
        .numbered_names()
        .into_iter()
        .filter(|n| !theirs.contains(n))
        .take(ALIKE_NAMES)
        .collect();
    if names.is_empty() {
        turn.code.clone()
    } else {
        format!("{} ({})", turn.code, names.join(", "))
    }
}

/// One line of the earlier turns, with the turns of the same shape it names.
struct Line {
    /// The mark of a new session before it, if any.
    head: String,
    code: String,
    text: String,
    alike: Vec<String>,
}

impl Line {
    fn render(&self) -> String {
        let alike = if self.alike.is_empty() {
            String::new()
        } else {
            format!(" (alike: {})", self.alike.join(", "))
        };
        format!("{}- {}: {}{alike}\n", self.head, self.code, self.text)
    }
}

/// Names a turn named on another's line carries, at most (see [`summary::Gist::numbered_names`]).
const ALIKE_NAMES: usize = 2;

/// What naming a turn on another's line costs besides its code: ` (alike: )` for the first,
/// `, ` for the others.
fn alike_overhead(more: bool) -> usize {
    if more {
        2
    } else {
        10
    }
}

/// What a one-liner costs besides its text: `- <code>: ` and the newline.
const LINE_OVERHEAD: usize = 14;

/// The shortest one-liner worth printing, overhead included.
const MIN_LINE: usize = 90;

/// What a turn's one-liner would take whole, overhead included: its model line if it has one
/// (`model_chars` long), else its local line at its longest.
fn whole_line(gist: &summary::Gist, model_chars: Option<usize>) -> usize {
    model_chars.unwrap_or_else(|| gist.one_liner(summary::LONGEST_LINE).chars().count())
        + LINE_OVERHEAD
}

/// How many characters each turn's one-liner may take within `room`, given what each
/// [`whole_line`]: each turn gets its [`summary::Gist::shares`] of the room, and a line that needs
/// less than its share leaves the rest to the others.
fn line_lengths(wants: &[usize], shares: &[usize], room: usize) -> Vec<usize> {
    let mut given: Vec<Option<usize>> = vec![None; wants.len()];
    let mut left = room;
    loop {
        let open: usize = (0..wants.len())
            .filter(|&i| given[i].is_none())
            .map(|i| shares[i])
            .sum();
        if open == 0 {
            break;
        }
        let unit = left / open;
        let mut settled = false;
        for i in 0..wants.len() {
            if given[i].is_none() && wants[i] <= unit * shares[i] {
                given[i] = Some(wants[i]);
                left -= wants[i];
                settled = true;
            }
        }
        if !settled {
            for (g, share) in given.iter_mut().zip(shares) {
                g.get_or_insert(unit * share);
            }
            break;
        }
    }
    given
        .into_iter()
        .map(|g| {
            g.unwrap_or(0)
                .clamp(MIN_LINE, summary::LONGEST_LINE + LINE_OVERHEAD)
                - LINE_OVERHEAD
        })
        .collect()
}

fn short(session_id: &str) -> &str {
    &session_id[..session_id.len().min(8)]
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

/// Units at least for what a cut goal left out, in its turn shown verbatim.
const GOAL_MIDDLE_LEAST: usize = 300;

/// The goal as the memory shows it: its turn, and the middle a cut left out of it.
#[derive(Clone, Copy)]
struct GoalShown<'a> {
    code: &'a str,
    left_out: Option<&'a str>,
}

/// A turn's conversation within `cap` units: the prompt gets up to two fifths, the answers the
/// rest; long pasted or generated blocks are cut first, then a cut keeps the beginning and the
/// end and says how to read the whole. The goal's turn points at the goal instead of saying
/// it again, with what the goal's cut left out.
fn turn_block(m: Measure, title: &str, turn: &Turn, cap: usize, goal: Option<GoalShown>) -> String {
    // A message with no words (a model's empty reply between tool calls) says nothing: it
    // must not show as a blank answer.
    let said = |role: Role| -> Vec<std::borrow::Cow<str>> {
        turn.messages
            .iter()
            .filter(|m| m.role == role && !m.text.trim().is_empty())
            .map(|m| blocks::compact(&m.text, &turn.code, blocks::Keep::TURN))
            .collect()
    };
    let answers = said(Role::Assistant);
    let answer = answers.join("\n\n");
    // An answer ends with what came of the turn: an agent's last message, or its closing
    // sections. A cut keeps them whole when it can.
    let mut reports = section_starts(&answer);
    if let [_, .., last] = answers.as_slice() {
        reports.push(answer.len() - last.len());
    }
    let answer = if answer.is_empty() {
        "(no answer)".to_string()
    } else {
        answer
    };
    let mut block = title.to_string();
    let detail = if title.starts_with("## ") && !turn.detail_summary.is_empty() {
        format!("Detail: {}\n", turn.detail_summary)
    } else {
        String::new()
    };
    let fixed = m.len(title) + m.len("Person: \nYou: \n") + m.len(&detail);
    let room = cap.saturating_sub(fixed);
    let most = room / 5 * 2;
    let after_answer = room.saturating_sub(m.len(&answer));
    let spare = after_answer.min(most);
    let prompt = match goal.filter(|g| g.code == turn.code) {
        None => {
            let prompt = said(Role::User).join("\n");
            cut(m, &prompt, most.max(after_answer), &turn.code, &[])
        }
        // What the goal's cut left out takes the room the answer leaves, when that is
        // enough to say something: what the turn did comes first.
        Some(GoalShown {
            left_out: Some(middle),
            ..
        }) if spare >= GOAL_MIDDLE_LEAST => {
            let left_out = format!(
                "(the goal above; the part of it cut there:) {}",
                middle.trim()
            );
            cut(m, &left_out, spare, &turn.code, &[])
        }
        Some(_) => "(the goal above)".to_string(),
    };
    let answer = cut_keeping_facts(
        m,
        &answer,
        room.saturating_sub(m.len(&prompt)),
        &turn.code,
        &reports,
    );
    block.push_str(&format!("Person: {prompt}\nYou: {answer}\n{detail}"));
    block
}

/// Room kept for each older turn's one-liner when spare room gives older turns verbatim.
const ONE_LINER_ROOM: usize = 240;

/// What stands for `n` characters cut from the middle of a text of turn `code`: the command
/// that shows them.
fn cut_marker(n: usize, code: &str) -> String {
    format!(" […{n} characters cut: throughline detail {code}] ")
}

/// `text` within `max` units: its beginning and its end around a marker naming what is cut,
/// the end holding a report whole when it can (see [`ends`]).
fn cut(m: Measure, text: &str, max: usize, code: &str, reports: &[usize]) -> String {
    let total = m.len(text);
    if total <= max {
        return text.to_string();
    }
    let room = max.saturating_sub(m.len(&cut_marker(total, code)));
    let (head, tail) = ends(m, text, room, reports);
    let removed = total - m.len(head) - m.len(tail);
    format!("{head}{}{tail}", cut_marker(removed, code))
}

/// Share of a cut answer's room the facts of its middle may take, in percent.
const MIDDLE_FACTS_SHARE: usize = 35;

/// `text` within `max` units as [`cut`] makes it, keeping the sentences of the middle it
/// drops that state a fact (a decision, finding or correction about something exact,
/// [`summary::FACT`]), in the order they were said: a long answer says what it found between
/// its opening and its closing summary. With no such sentence, the same as [`cut`].
fn cut_keeping_facts(m: Measure, text: &str, max: usize, code: &str, reports: &[usize]) -> String {
    let total = m.len(text);
    if total <= max {
        return text.to_string();
    }
    let markers = m.len(&middle_facts_marker(total, code)) + m.len(MIDDLE_FACTS_END);
    let facts_room = max * MIDDLE_FACTS_SHARE / 100;
    let (head, tail) = ends(m, text, max.saturating_sub(facts_room + markers), reports);
    let mut used = 0;
    let chosen: Vec<String> = middle_facts(text, head, tail)
        .into_iter()
        .filter(|fact| {
            let cost = m.len(fact) + m.len("- \n");
            let fits = used + cost <= facts_room;
            used += if fits { cost } else { 0 };
            fits
        })
        .collect();
    // The room the facts left goes back to the beginning and the end; a fact they now hold is
    // shown there.
    let (head, tail) = ends(m, text, max.saturating_sub(used + markers), reports);
    let facts: String = middle_facts(text, head, tail)
        .into_iter()
        .filter(|fact| chosen.contains(fact))
        .map(|fact| format!("- {fact}\n"))
        .collect();
    if facts.is_empty() {
        return cut(m, text, max, code, reports);
    }
    let removed = total - m.len(head) - m.len(tail);
    format!(
        "{head}{}{facts}{MIDDLE_FACTS_END}{tail}",
        middle_facts_marker(removed, code)
    )
}

/// The sentences of `text` between its `head` and `tail` that state a fact, outside code
/// blocks and lines cut in part.
fn middle_facts(text: &str, head: &str, tail: &str) -> Vec<String> {
    let middle = &text[head.len()..text.len() - tail.len()];
    let fence = |line: &str| line.trim_start().starts_with("```");
    let mut in_code = head.lines().filter(|l| fence(l)).count() % 2 == 1;
    let mut lines: Vec<&str> = middle.split('\n').collect();
    // A line the beginning or the end holds part of is not whole here.
    if !head.is_empty() && !head.ends_with('\n') {
        lines.remove(0);
    }
    if !tail.is_empty() && !middle.ends_with('\n') {
        lines.pop();
    }
    let mut prose = String::new();
    for line in lines {
        if fence(line) {
            in_code = !in_code;
        } else if !in_code {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let said = summary::Gist::of(&[crate::model::Message {
        role: Role::Assistant,
        text: prose,
        at: None,
    }]);
    said.statements()
        // An announced step weighs nothing (see `summary::announces_a_step`).
        .filter(|s| s.score >= summary::FACT && facts::is_statement(s.text))
        .map(|s| s.text.to_string())
        .collect()
}

/// What stands for the middle [`cut_keeping_facts`] drops, before the facts it keeps.
fn middle_facts_marker(n: usize, code: &str) -> String {
    format!(" […{n} characters cut: throughline detail {code}; what they state:]\n")
}

/// What ends the facts kept of a cut middle, before the text's end.
const MIDDLE_FACTS_END: &str = "[…] ";

/// The beginning and the end of `text` that fit `room` units together, each cut at a line
/// break where one is near. The end gets a third, or up to two thirds to hold whole the
/// longest report that fits: the text from one of the offsets `reports` to its end.
fn ends<'t>(m: Measure, text: &'t str, room: usize, reports: &[usize]) -> (&'t str, &'t str) {
    let most = room * 2 / 3;
    let end_room = reports
        .iter()
        .map(|&start| m.len(&text[start..]))
        .filter(|&len| len <= most)
        .max()
        .unwrap_or(0)
        .max(room / 3);
    let head = prefix_within(m, text, room - end_room);
    let head = match text[head.len()..].chars().next() {
        Some('\n') | None => head,
        Some(next) => end_at_break(head, next.is_whitespace()),
    };
    let rest = &text[head.len()..];
    let tail = suffix_within(m, rest, room - m.len(head));
    let tail = match rest[..rest.len() - tail.len()].chars().next_back() {
        Some('\n') | None => tail,
        Some(before) => start_at_break(tail, before.is_whitespace()),
    };
    (head, tail)
}

/// Where a section of `text` opens, outside code: a markdown heading (`## Summary`) or a line
/// in bold alone (`**What changed:**`). A long answer's closing sections say what came of it.
fn section_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut in_code = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && blocks::is_heading(trimmed) {
            starts.push(at);
        }
        at += line.len();
    }
    starts
}

/// How much of a beginning or an end a cut at a line break may give up, in percent.
const LINE_SNAP: usize = 30;

/// Bytes at most a cut gives up to end or start at a word, where no line break is near:
/// "[…] ntegrate a proper model" reads as debris.
const WORD_SNAP: usize = 24;

/// `head` up to its last line break, when that keeps most of it; else, unless it already
/// ends a word (`at_word_end`), up to its last word's end.
fn end_at_break(head: &str, at_word_end: bool) -> &str {
    match head.rfind('\n') {
        Some(at) if (at + 1) * 100 >= head.len() * (100 - LINE_SNAP) => &head[..=at],
        _ if at_word_end => head,
        _ => match head.rfind(char::is_whitespace) {
            Some(at) if head.len() - at <= WORD_SNAP => &head[..at],
            _ => head,
        },
    }
}

/// `tail` from its first whole line, when that keeps most of it; else, unless it already
/// starts a word (`at_word_start`), from its first whole word.
fn start_at_break(tail: &str, at_word_start: bool) -> &str {
    match tail.find('\n') {
        Some(at) if (tail.len() - at - 1) * 100 >= tail.len() * (100 - LINE_SNAP) => {
            &tail[at + 1..]
        }
        _ if at_word_start => tail,
        _ => match tail.char_indices().find(|&(_, c)| c.is_whitespace()) {
            Some((at, c)) if at < WORD_SNAP => &tail[at + c.len_utf8()..],
            _ => tail,
        },
    }
}

fn prefix_within(m: Measure, text: &str, max: usize) -> &str {
    let mut used = 0;
    let end = text
        .char_indices()
        .find(|&(_, c)| {
            used += m.of_char(c);
            used > max
        })
        .map_or(text.len(), |(i, _)| i);
    &text[..end]
}

fn suffix_within(m: Measure, text: &str, max: usize) -> &str {
    let mut used = 0;
    let start = text
        .char_indices()
        .rev()
        .find(|&(_, c)| {
            used += m.of_char(c);
            used > max
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    &text[start..]
}

/// Builds the memory `receiver` gets from `chain` (nearest first; for a compaction, the
/// session itself), ready to inject and log, spread over at most `host_parts` hook outputs
/// (see `Agent::memory_parts`). `None` when the chain holds no turn.
pub fn build(
    store: &Store,
    receiver: &Session,
    trigger: Trigger,
    chain: &[&Session],
    host_parts: usize,
    config: &crate::config::Config,
    at: &str,
) -> Result<Option<Injection>> {
    let verbatim_turns = config.verbatim_turns.max(1) as usize;
    let spec = hosts::agent(receiver.host).spec();
    let limit = spec.injection_limit;
    let newest = chain.first().copied().unwrap_or(receiver);
    let (parts, budget) = parts_and_budget(config, limit.max, host_parts);
    // Spare room may give older turns verbatim too, a whole part of them (see `render`):
    // their titles name their tool calls as the recent turns' do.
    let detailed = (budget / SMALLEST_TURN_BLOCK).max(verbatim_turns);
    let mut turns = store.recent_turns(chain, TURNS_READ, detailed)?;
    // A host that cannot block a prompt (Grok) lets its handoff command through as a turn of
    // its own: that turn is the handoff, not work to carry on from.
    let command = hosts::agent(newest.host).spec().handoff_command;
    let read = turns.len();
    turns.retain(|turn| !asks_for_handoff(turn, command));
    let handoff_turns = (read - turns.len()) as u64;
    if turns.is_empty() {
        return Ok(None);
    }
    let model_lines =
        store.model_lines(turns.iter().skip(verbatim_turns).map(|t| t.code.as_str()))?;
    let goal = match chain.last() {
        Some(first) => goal_of(store.opening_prompts(first, GOAL_CANDIDATES)?),
        None => None,
    };
    let about = About {
        client: Some(match &newest.client_version {
            Some(version) => format!("{} {version}", hosts::agent(newest.host).spec().name),
            None => hosts::agent(newest.host).spec().name.to_string(),
        }),
        model: newest.model.clone().or_else(|| newest.start_model.clone()),
    };
    let state = store.working_state(chain, newest.project.as_deref())?;
    let ctx = Context {
        trigger,
        project: receiver
            .project
            .clone()
            .or_else(|| chain.first().and_then(|s| s.project.clone()))
            .unwrap_or_else(|| "this project".into()),
        chain: chain.iter().map(|s| s.session_id.clone()).collect(),
        total_turns: store.count_turns(chain)?.saturating_sub(handoff_turns),
        budget,
        measure: limit.measure,
        verbatim_turns,
        model_lines,
        goal,
        state,
        about,
        parts,
        together: parts > 1 && spec.memory_parts_in_one_output,
    };
    let rendered = render(&ctx, &turns);
    // A host whose one output takes every part gets them joined, in the order they would come.
    let (text, more, room) = match rendered.more {
        Some(more) if ctx.together => (
            format!("{}\n{more}", rendered.text),
            None,
            budget.max(MIN_BUDGET) * parts,
        ),
        more => (rendered.text, more, budget.max(MIN_BUDGET)),
    };
    Ok(Some(Injection {
        id: 0,
        session_id: receiver.session_id.clone(),
        project: receiver.project.clone(),
        trigger,
        at: at.to_string(),
        chain: ctx.chain,
        budget: room as u32,
        size: limit.measure.len(&text) as u32,
        verbatim: rendered.verbatim,
        one_liners: rendered.one_liners,
        one_liners_by: rendered.one_liners_by,
        left_out: rendered.left_out as u32,
        text,
        more,
    }))
}

/// Whether `turn`'s prompt is the handoff command `command` (with its arguments, if any).
fn asks_for_handoff(turn: &Turn, command: &str) -> bool {
    let prompt = turn
        .messages
        .iter()
        .find(|m| m.role == Role::User)
        .map(|m| m.text.trim())
        .unwrap_or_default();
    prompt
        .strip_prefix(command)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// How many parts a memory takes and the budget of each: `memory_total` spread over at most
/// `host_parts` injections, none over `budget` or the host's `limit`.
fn parts_and_budget(
    config: &crate::config::Config,
    limit: usize,
    host_parts: usize,
) -> (usize, usize) {
    let per_part = (config.budget as usize).min(limit).max(MIN_BUDGET);
    let total = (config.memory_total as usize).max(MIN_BUDGET);
    let parts = total.div_ceil(per_part).clamp(1, host_parts.max(1));
    (parts, per_part.min(total / parts).max(MIN_BUDGET))
}

/// Opening prompts looked at for the goal.
const GOAL_CANDIDATES: u32 = 3;

/// The goal among a session's opening prompts: the first that [says something](says_something)
/// (not "hi" or "continue") of its own (not a [go-ahead](goes_on)) and sets out to do more
/// than [check how things stand](only_checks); else the first that says something of its own;
/// else the first that says something; else the first.
fn goal_of(prompts: Vec<(String, String)>) -> Option<Goal> {
    let first = |wanted: &dyn Fn(&str) -> bool| prompts.iter().position(|(_, text)| wanted(text));
    let own = |text: &str| says_something(text) && !goes_on(text);
    let pick = first(&|text| own(text) && !only_checks(text))
        .or_else(|| first(&own))
        .or_else(|| first(&says_something))
        .unwrap_or(0);
    prompts
        .into_iter()
        .nth(pick)
        .map(|(code, text)| Goal { code, text })
}

/// Whether a prompt says more than a greeting or a nudge: three words of letters, or six
/// letters of a script written without spaces (`修复登录页面的样式`).
fn says_something(text: &str) -> bool {
    let words = text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    let unspaced = text
        .chars()
        .filter(|&c| c.is_alphabetic() && summary::is_cjk(c))
        .count();
    words >= 3 || unspaced >= 6
}

/// Whether a short prompt only goes on with what came before it ("OK, go ahead and fix it.",
/// "Run the tests again please."): a session opened after `/clear` often starts so, and the
/// task it continues is named elsewhere. A prompt naming something exact (`src/auth.rs`,
/// `v2`) names its own task.
fn goes_on(text: &str) -> bool {
    let words = plain_words(text);
    words.len() <= GO_AHEAD_WORDS
        && !words.iter().any(|w| summary::names_exactly(w))
        && words.iter().any(|w| POINTING_BACK.contains(&w.as_str()))
}

/// A prompt's words in lower case, without the punctuation around them.
fn plain_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether a prompt only checks how things stand with a short yes-or-no question ("do we use
/// bun?", "are we updated on github", "¿usamos bun?", "我们用 bun 吗？", "bun を使っていますか？",
/// "bun 쓰고 있나요?"): it is answered in its own turn, and what the session sets out to do
/// comes after it. A longer question ("does the export crash when the file is empty?") states
/// a problem of its own, and one with a question word asks for more than yes or no.
fn only_checks(text: &str) -> bool {
    let words = plain_words(text);
    let unspaced = text.chars().filter(|&c| summary::is_cjk(c)).count();
    if words.len() > CHECK_WORDS || unspaced > CHECK_CHARS {
        return false;
    }
    let first = words.first().map_or("", String::as_str);
    let asked = text.trim_end().ends_with(['?', '？']);
    let question = text.trim_end().trim_end_matches(['?', '？']);
    let holds = |list: &[&str]| {
        list.iter().any(|w| {
            if w.is_ascii() {
                words.iter().any(|word| word == w)
            } else {
                text.contains(w)
            }
        })
    };
    let asks_what = holds(ASKING_WHAT) || holds(ASKING_FOR_WORK);
    // Spanish opens a question with its mark; Chinese, Japanese and Korean close a yes-or-no
    // question with a particle (Korean, written with spaces, also with the mark).
    let marked = text.trim_start().starts_with('¿');
    let closed = (unspaced > 0 || asked) && CLOSING_YES_OR_NO.iter().any(|p| question.ends_with(p));
    YES_OR_NO.contains(&first) || ((marked || closed) && !asks_what)
}

/// The most words a check takes (see [`only_checks`]).
const CHECK_WORDS: usize = 6;

/// The most characters of a script written without spaces a check takes.
const CHECK_CHARS: usize = 20;

/// Words that open a yes-or-no question: English, and German's verbs that do so. "Can you …",
/// "could you …", "kannst du …" ask for work.
const YES_OR_NO: &[&str] = &[
    "do",
    "does",
    "did",
    "is",
    "are",
    "was",
    "were",
    "am",
    "have",
    "has",
    "ist",
    "sind",
    "hat",
    "haben",
    "gibt",
    "läuft",
    "funktioniert",
];

/// How a Chinese, Japanese or Korean yes-or-no question ends, its question mark aside.
const CLOSING_YES_OR_NO: &[&str] = &["吗", "嗎", "了没", "か", "까", "나요", "니", "죠"];

/// How a question asks for work ("¿puedes …?", "能…吗？", "…てくれますか？", "…할 수 있나요?"),
/// as "can you …" does.
const ASKING_FOR_WORK: &[&str] = &[
    "puedes",
    "puede",
    "podrías",
    "podría",
    "podemos",
    "能",
    "可以",
    "帮",
    "請",
    "请",
    "てくれ",
    "てもらえ",
    "できます",
    "ください",
    "주세요",
    "줄래",
    "줄 수",
    "할 수",
];

/// Question words: a question that holds one asks for more than yes or no.
const ASKING_WHAT: &[&str] = &[
    "qué",
    "que",
    "cómo",
    "como",
    "dónde",
    "donde",
    "cuándo",
    "cuando",
    "cuál",
    "cuáles",
    "quién",
    "quiénes",
    "por",
    "cuánto",
    "cuántos",
    "什么",
    "怎么",
    "为什么",
    "為什麼",
    "哪",
    "谁",
    "誰",
    "多少",
    "几",
    "如何",
    "何",
    "どう",
    "なぜ",
    "どこ",
    "いつ",
    "どれ",
    "どの",
    "뭐",
    "무엇",
    "무슨",
    "어떻게",
    "왜",
    "어디",
    "누구",
    "언제",
    "몇",
    "어느",
];

/// The most words a go-ahead takes (see [`goes_on`]).
const GO_AHEAD_WORDS: usize = 7;

/// Words by which a short prompt points at what came before it.
const POINTING_BACK: &[&str] = &[
    "it", "that", "this", "these", "those", "them", "again", "same", "ahead", "proceed",
];

#[cfg(test)]
mod tests;
