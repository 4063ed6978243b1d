//! Plain-text renderings shared by the CLI verbs and the MCP server, so a person and a model
//! read the same thing. Each rendering says how to get more: a `throughline ...` command for a
//! person, a tool call for a model.

use crate::clock;
use crate::model::{Message, Role, Session, Step, ToolExchange, Turn, TurnDetail};
pub use crate::plural::count;
use crate::search::{excerpt, Excerpt, Hit};
use crate::summary;
use std::borrow::Cow;

/// Lines on each side of a match that a hit's `--lines` pointer reads.
const LINES_AROUND: usize = 10;

/// How a rendering points at more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// `throughline ...` commands.
    Cli,
    /// Calls of the MCP tools.
    Mcp,
}

impl Pointer {
    /// How to see one turn in full, or one part of it (`("tool", 2)`, `("item", 5)`).
    pub fn detail(self, turn: &str, part: Option<(&str, u32)>) -> String {
        self.detail_lines(turn, part, None)
    }

    /// The same, for only lines `from..=to` of the part's output or body.
    pub fn detail_lines(
        self,
        turn: &str,
        part: Option<(&str, u32)>,
        lines: Option<(usize, usize)>,
    ) -> String {
        match self {
            Pointer::Cli => {
                let mut out = format!("throughline detail {turn}");
                if let Some((flag, n)) = part {
                    out.push_str(&format!(" --{flag} {n}"));
                    if let Some((from, to)) = lines {
                        out.push_str(&format!(" --lines {from}-{to}"));
                    }
                }
                out
            }
            Pointer::Mcp => {
                let mut args = detail_arguments(turn, part);
                if let (Some(_), Some((from, to))) = (part, lines) {
                    args["lines"] = format!("{from}-{to}").into();
                }
                format!("detail {args}")
            }
        }
    }
}

/// How stored text is shown: exactly for a program or a model (`Plain`); for a person at a
/// terminal with its control characters escaped (`Terminal`), and with a few restrained
/// colours as well (`Color`, as git, ripgrep and jj do): headings bold, ids and times dim,
/// speakers, matches, line numbers and outcomes in colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Plain,
    Terminal,
    Color,
}

/// How a state reads at a glance: green, yellow, red.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Good,
    Warning,
    Bad,
}

impl Paint {
    fn styled(self, style: anstyle::Style, text: &str) -> String {
        match self {
            Paint::Plain | Paint::Terminal => text.to_string(),
            Paint::Color => format!("{}{text}{}", style.render(), style.render_reset()),
        }
    }

    /// Stored text as this paint shows it (see [`visible`]).
    pub fn text<'t>(self, text: &'t str) -> Cow<'t, str> {
        match self {
            Paint::Plain => Cow::Borrowed(text),
            Paint::Terminal | Paint::Color => visible(text),
        }
    }

    /// A match inside a line.
    pub fn matched(self, text: &str) -> String {
        let red = anstyle::Style::new()
            .bold()
            .fg_color(Some(anstyle::AnsiColor::Red.into()));
        self.styled(red, text)
    }

    /// A line number, `400:` as `grep -n` prints it.
    pub fn line_number(self, number: usize) -> String {
        let green = anstyle::Style::new().fg_color(Some(anstyle::AnsiColor::Green.into()));
        format!("{}:", self.styled(green, &number.to_string()))
    }

    /// The heading of a hit.
    pub fn heading(self, text: &str) -> String {
        let magenta = anstyle::Style::new().fg_color(Some(anstyle::AnsiColor::Magenta.into()));
        self.styled(magenta, text)
    }

    /// A heading: a session, a turn, a section of a turn, a table's columns.
    pub fn bold(self, text: &str) -> String {
        self.styled(anstyle::Style::new().bold(), text)
    }

    /// What is there to be copied or glanced at, not read: ids, times, pointers.
    pub fn dim(self, text: &str) -> String {
        self.styled(anstyle::Style::new().dimmed(), text)
    }

    /// Who speaks: the person in cyan, the assistant in green.
    pub fn speaker(self, role: Role, text: &str) -> String {
        let color = match role {
            Role::User => anstyle::AnsiColor::Cyan,
            Role::Assistant => anstyle::AnsiColor::Green,
        };
        self.styled(anstyle::Style::new().fg_color(Some(color.into())), text)
    }

    /// A state: a check passed or failed, a gauge filling up, a tool call's error.
    pub fn tone(self, tone: Tone, text: &str) -> String {
        let color = match tone {
            Tone::Good => anstyle::AnsiColor::Green,
            Tone::Warning => anstyle::AnsiColor::Yellow,
            Tone::Bad => anstyle::AnsiColor::Red,
        };
        self.styled(anstyle::Style::new().fg_color(Some(color.into())), text)
    }
}

/// `text` safe to print on a terminal: control characters a program wrote into it (escape
/// sequences that set the title, clear the screen, write the clipboard; carriage returns
/// that overwrite a line) are shown as `\x1b`, `\r`, `\u{9b}`, and so are the marks that
/// reorder text around them (U+202E shows what follows backwards); line ends and tabs stay.
pub fn visible(text: &str) -> Cow<'_, str> {
    let shown = |c: char| c == '\n' || c == '\t' || !(c.is_control() || reorders(c));
    if text.chars().all(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if shown(c) => out.push(c),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// The bidirectional marks, embeddings, overrides and isolates of Unicode.
fn reorders(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The arguments of the MCP `detail` call for a turn or one part of it.
pub fn detail_arguments(turn: &str, part: Option<(&str, u32)>) -> serde_json::Value {
    let mut args = serde_json::json!({ "turn": turn });
    if let Some((field, n)) = part {
        args[field] = n.into();
    }
    args
}

/// `(number, line)` pairs as `grep -n` prints them, one a line.
pub fn numbered_lines(lines: &[(usize, &str)], paint: Paint) -> String {
    lines
        .iter()
        .map(|(n, line)| format!("{}{}\n", paint.line_number(*n), paint.text(line)))
        .collect()
}

/// Up to `max` characters of `text` from character `offset`, and where the next part starts
/// when some is left.
pub fn page(text: &str, offset: usize, max: usize) -> (String, Option<usize>) {
    let part: String = text.chars().skip(offset).take(max).collect();
    let end = offset + part.chars().count();
    let more = text.chars().nth(end).is_some();
    (part, more.then_some(end))
}

/// Who said it, in the memory's words: an agent reads these after a handoff, and to it "you"
/// is itself.
fn speaker(role: Role) -> &'static str {
    match role {
        Role::User => "person",
        Role::Assistant => "assistant",
    }
}

/// A turn's conversation verbatim, headed by its number and id, with its detail at a glance.
pub fn turn(turn: &Turn, pointer: Pointer, paint: Paint) -> String {
    let heading = if turn.seq == 0 {
        "before the first prompt".to_string()
    } else {
        format!("turn {}", turn.seq)
    };
    let mut out = format!(
        "{} {}\n",
        paint.bold(&format!("── {heading}")),
        paint.dim(&format!(
            "[{}] {}",
            paint.text(&turn.code),
            turn.started_at
                .as_deref()
                .map(clock::local)
                .unwrap_or_default()
        ))
    );
    push_messages(&mut out, &turn.messages, "", paint);
    if !turn.detail_summary.is_empty() {
        out.push_str(&format!(
            "   detail: {}  {}\n",
            paint.text(&turn.detail_summary),
            paint.dim(&format!("({})", pointer.detail(&turn.code, None)))
        ));
    }
    out
}

/// Each message on its own line, `person: …` or `assistant: …`, after `before`.
fn push_messages(out: &mut String, messages: &[Message], before: &str, paint: Paint) {
    for m in messages {
        out.push_str(&format!(
            "{before}{} {}\n",
            paint.speaker(m.role, &format!("{}:", speaker(m.role))),
            paint.text(&m.text)
        ));
    }
}

/// `[code] asked → answered`: a turn as `recall --oneline` lists it, in its L1 one-liner (a
/// model's, when one wrote it).
pub fn turn_one_line(turn: &Turn, by_model: Option<&str>, paint: Paint) -> String {
    let line = match by_model {
        Some(line) => line.to_string(),
        None => summary::one_liner(turn, summary::MAX_CHARS),
    };
    format!(
        "{} {}",
        paint.dim(&format!("[{}]", paint.text(&turn.code))),
        paint.text(&line)
    )
}

/// A turn in full: the conversation (unless only some entries were picked), then what was
/// done in order, each tool call with its input as names and values and its output below it.
pub fn turn_detail(detail: &TurnDetail, with_conversation: bool, paint: Paint) -> String {
    let turn = &detail.turn;
    let when = turn
        .started_at
        .as_deref()
        .map(|at| format!(", {}", clock::local(at)))
        .unwrap_or_default();
    let mut out = format!(
        "{} {}\n",
        paint.bold(&format!("turn {}", paint.text(&turn.code))),
        paint.dim(&paint.text(&format!(
            "(#{} of session {}{when})",
            turn.seq, turn.session_id
        )))
    );
    if with_conversation {
        push_messages(&mut out, &turn.messages, "\n", paint);
    }
    let entry = |n: u32| detail.details.iter().find(|d| d.index == n);
    // A section's heading, its stored names escaped.
    let heading = |text: String| format!("\n{}\n", paint.bold(&paint.text(&text)));
    for step in &detail.steps {
        let Some(d) = entry(step.item) else {
            continue;
        };
        match step.tool {
            Some(tool) => {
                out.push_str(&heading(format!("── tool {tool} · {}", step.title)));
                out.push_str(&paint.text(step.input.as_deref().unwrap_or_default()));
                match step.result.and_then(entry) {
                    Some(result) => {
                        let size = format!("→ {}:", output_size(step));
                        let size = match step.failed {
                            true => paint.tone(Tone::Bad, &size),
                            false => paint.dim(&size),
                        };
                        out.push_str(&format!("{size}\n"));
                        push_body(&mut out, &paint.text(&result.body));
                    }
                    None => out.push_str(&format!(
                        "{}\n",
                        paint.dim("→ no output recorded: still running, or the client kept none")
                    )),
                }
            }
            // The host's bookkeeping (hook runs, durations, the context it attaches at each
            // request: a dozen entries at a time): named, opened on request.
            None if with_conversation && d.kind.is_clients_own() => {
                out.push_str(&heading(format!(
                    "── item {} · {} ({} chars: --item {} shows it)",
                    step.item, step.title, step.chars, step.item
                )))
            }
            None => {
                let size = match step.lines {
                    0 => String::new(),
                    _ => format!(", {}", count(step.lines as u64, "line")),
                };
                out.push_str(&heading(format!(
                    "── item {} · {}{size}",
                    step.item, step.title
                )));
                push_body(
                    &mut out,
                    &paint.text(step.readable.as_deref().unwrap_or(&d.body)),
                );
            }
        }
    }
    out
}

/// `output, 7 lines (312 chars)`, or `error, 1 line`.
fn output_size(step: &Step) -> String {
    let what = if step.failed { "error" } else { "output" };
    match step.lines {
        0 => format!("{what}, empty"),
        1 => format!("{what}, 1 line"),
        n => format!("{what}, {n} lines ({} chars)", step.chars),
    }
}

fn push_body(out: &mut String, body: &str) {
    if body.is_empty() {
        return;
    }
    out.push_str(body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
}

/// One tool call with its input and its whole output.
pub fn tool_exchange(turn: &str, exchange: &ToolExchange, paint: Paint) -> String {
    let mut out = format!(
        "{}\n\n{}\n{}",
        paint.bold(&paint.text(&format!(
            "turn {turn}, tool call {}: {}",
            exchange.number, exchange.title
        ))),
        paint.bold("input:"),
        paint.text(&exchange.input)
    );
    let (label, body) = match &exchange.result {
        Some(r) if r.is_error => (paint.tone(Tone::Bad, "output (error):"), &r.body),
        Some(r) => (paint.bold("output:"), &r.body),
        None => {
            out.push_str(&format!("\n{}\n", paint.dim("no output recorded")));
            return out;
        }
    };
    out.push_str(&format!("\n{label}\n{}\n", paint.text(body)));
    out
}

/// Which lines of one tool output (or one entry) to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    /// Lines `from..=to`, numbered from 1.
    Range(usize, usize),
    /// The lines holding any of these words (ignoring case), like `grep -n`.
    Grep(Vec<String>),
}

impl Lines {
    /// `400-420`, `400-` (to the end) or `400` (one line).
    pub fn parse_range(s: &str) -> Result<Lines, String> {
        let bad = || format!("lines {s:?}: give a range of line numbers such as 400-420 or 400-");
        let number = |n: &str| n.trim().parse::<usize>().ok().filter(|n| *n > 0);
        let (from, to) = match s.split_once('-') {
            Some((from, "")) => (number(from).ok_or_else(bad)?, usize::MAX),
            Some((from, to)) => (number(from).ok_or_else(bad)?, number(to).ok_or_else(bad)?),
            None => {
                let n = number(s).ok_or_else(bad)?;
                (n, n)
            }
        };
        if to < from {
            return Err(bad());
        }
        Ok(Lines::Range(from, to))
    }

    /// The words of a `--grep`, split as a search query is.
    pub fn grep(words: &str) -> Result<Lines, String> {
        let terms = crate::search::terms(words);
        if terms.is_empty() {
            return Err("--grep needs one or more words".into());
        }
        Ok(Lines::Grep(terms))
    }

    /// The chosen lines of `text`, as `(number, line)`.
    pub fn of<'t>(&self, text: &'t str) -> Vec<(usize, &'t str)> {
        match self {
            Lines::Range(from, to) => excerpt::lines(text, *from, *to),
            Lines::Grep(terms) => excerpt::Finder::new(terms).grep(text),
        }
    }
}

/// What `--lines` and `--grep` read: the N-th tool call's output or the N-th entry's body, with
/// the words that name it (`turn k3f9a2c, tool call 2, output`).
pub fn part_body(
    detail: &TurnDetail,
    tool: Option<u32>,
    item: Option<u32>,
) -> Result<(String, String), String> {
    let code = &detail.turn.code;
    match (tool, item) {
        (Some(n), _) => {
            let exchange = detail.tool_exchange(n).map_err(|e| e.to_string())?;
            let body = exchange
                .result
                .map(|r| r.body)
                .ok_or_else(|| format!("turn {code}, tool call {n} has no output recorded"))?;
            Ok((format!("turn {code}, tool call {n}, output"), body))
        }
        (None, Some(n)) => {
            let entry = detail.item(n).map_err(|e| e.to_string())?;
            Ok((format!("turn {code}, entry {n}"), entry.body.clone()))
        }
        (None, None) => Err(format!(
            "lines are read from one tool output or entry: give the tool call's or the entry's \
             number (`detail {code}` lists them)"
        )),
    }
}

/// Some lines of `text` (the output or body that `what` names), numbered like `grep -n`,
/// under a heading that says which and out of how many.
pub fn some_lines(what: &str, text: &str, lines: &Lines, paint: Paint) -> String {
    let chosen = lines.of(text);
    let total = excerpt::line_count(text);
    let which = match lines {
        Lines::Range(..) if chosen.is_empty() => {
            return format!("{what} has {total} lines: none in that range\n")
        }
        Lines::Range(..) => format!(
            "lines {}-{}",
            chosen[0].0,
            chosen.last().map_or(0, |(n, _)| *n)
        ),
        Lines::Grep(terms) => format!("{} lines holding {}", chosen.len(), terms.join(" or ")),
    };
    format!(
        "{}, {which} of {total}:\n{}",
        paint.text(what),
        numbered_lines(&chosen, paint)
    )
}

/// `0f1b393e    12 turns  3m ago      live                claude-opus-4`
pub fn session_line(s: &Session, title: Option<&str>, paint: Paint) -> String {
    let when = s
        .last_activity
        .as_deref()
        .or(s.started_at.as_deref())
        .unwrap_or("");
    let state = match (&s.ended_at, &s.end_reason) {
        (Some(_), Some(reason)) => format!("{:<18}", format!("ended: {}", paint.text(reason))),
        (Some(_), None) => format!("{:<18}", "ended"),
        // A host that crashed never says the session ended: quiet for long, it is not live.
        _ if s.is_live(&clock::now()) => paint.tone(Tone::Good, &format!("{:<18}", "live")),
        _ => format!("{:<18}", "idle"),
    };
    let title = title.map_or_else(|| s.model.clone().unwrap_or_default(), self::title);
    format!(
        "{}  {:>9}  {}  {state}  {}",
        paint.dim(&paint.text(&s.session_id[..s.session_id.len().min(8)])),
        count(s.turns, "turn"),
        paint.dim(&format!("{:<10}", clock::ago(when))),
        paint.text(&title)
    )
}

/// Longest title of a session, in characters.
const TITLE_CHARS: usize = 80;

/// A session's title: the first line of its first prompt, cut at [`TITLE_CHARS`] characters.
pub fn title(first_prompt: &str) -> String {
    let line = first_prompt.trim().lines().next().unwrap_or_default();
    match line.char_indices().nth(TITLE_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// Where to get the whole entry of a search hit.
pub fn hit_pointer(hit: &Hit, style: Pointer) -> String {
    style.detail(&hit.entry.turn, hit.part())
}

/// Where a search hit is, its lines, and how to get them with the lines around, or all of it.
pub fn hit(hit: &Hit, pointer: Pointer, paint: Paint) -> String {
    let e = &hit.entry;
    let who = match (e.role.as_str(), &e.tool) {
        ("user", _) => speaker(Role::User).to_string(),
        ("tool_call", Some(tool)) => format!("{tool} call"),
        ("tool_result", Some(tool)) => format!("{tool} output"),
        ("tool_result", None) => "tool output".to_string(),
        (role, Some(tool)) => format!("{} {tool}", role.replace('_', " ")),
        (role, None) => role.replace('_', " "),
    };
    let at = e.at.as_deref().map(clock::local).unwrap_or_default();
    // The project by its folder's name: `search --all` mixes them.
    let project = e
        .project
        .as_deref()
        .and_then(project_name)
        .map(|name| format!("{name} · "))
        .unwrap_or_default();
    let mut out = paint.heading(&paint.text(&format!(
        "turn {}  {}  {project}session {}  {}",
        e.turn,
        at,
        e.session_id.get(..8).unwrap_or(&e.session_id),
        who
    )));
    for x in &hit.excerpts {
        out.push_str("\n  ");
        if hit.lines > 1 {
            out.push_str(&paint.line_number(x.line));
        }
        if x.column > 0 {
            out.push('…');
        }
        out.push_str(&painted(x, paint));
        if x.more {
            out.push('…');
        }
    }
    if hit.copies > 0 {
        out.push_str(&paint.dim(&paint.text(&format!("\n  ({})", copies(hit)))));
    }
    let part = hit.part();
    // `--lines` reads a call's output, not its input: a call's hit points at the whole call.
    let call = e.role == "tool_call";
    match hit.excerpts.first() {
        Some(x) if part.is_some() && !call && hit.lines > 2 * LINES_AROUND + 1 => {
            let around = (
                x.line.saturating_sub(LINES_AROUND).max(1),
                (x.line + LINES_AROUND).min(hit.lines),
            );
            out.push_str(&format!(
                "\n  around it: {}\n  all {} lines ({} chars): {}",
                pointer.detail_lines(&e.turn, part, Some(around)),
                hit.lines,
                hit.chars,
                hit_pointer(hit, pointer)
            ));
        }
        _ => out.push_str(&format!(
            "\n  more ({} chars): {}",
            hit.chars,
            hit_pointer(hit, pointer)
        )),
    }
    if let Some(more) = more_in_turn(hit) {
        // Where to read them, unless the hit's own pointer is already the whole turn.
        let turn = pointer.detail(&e.turn, None);
        let more = match turn == hit_pointer(hit, pointer) {
            true => more,
            false => format!("{more}: {turn}"),
        };
        out.push_str(&format!("\n  {}", paint.dim(&paint.text(&more))));
    }
    out
}

/// What else of a hit's turn holds the words: "and 3 more lines in this turn"; None when
/// nothing does. The search shows a turn once, by its best entry.
pub fn more_in_turn(hit: &Hit) -> Option<String> {
    (hit.more_lines > 0).then(|| {
        format!(
            "and {} in this turn",
            count(hit.more_lines as u64, "more line")
        )
    })
}

/// Where else a hit's text is stored: "the same in 3 more entries: turn abc of session
/// 1f0e2c4a (2025-11-30 12:00, the first), turn def, turn ghi". The turn where it first
/// appeared (an error, a line of a file) comes first, with its time.
fn copies(hit: &Hit) -> String {
    let mut places: Vec<String> = Vec::new();
    for place in &hit.copied_in {
        let mut named = format!("turn {}", place.turn);
        if place.session_id != hit.entry.session_id {
            let session = place.session_id.get(..8).unwrap_or(&place.session_id);
            named.push_str(&format!(" of session {session}"));
        }
        match &hit.first_copy {
            Some(first) if places.is_empty() && first.turn == place.turn => {
                let at = first.at.as_deref().map(clock::local);
                match at {
                    Some(at) => named.push_str(&format!(" ({at}, the first)")),
                    None => named.push_str(" (the first)"),
                }
            }
            _ => {}
        }
        places.push(named);
    }
    let entries = count(hit.copies as u64, "more entry");
    match places.is_empty() {
        true => format!("the same in {entries} of this turn"),
        false => format!("the same in {entries}: {}", places.join(", ")),
    }
}

/// An excerpt's text with its matches painted.
fn painted(x: &Excerpt, paint: Paint) -> String {
    if paint != Paint::Color {
        return paint.text(&x.text).into_owned();
    }
    // Escaped piece by piece: the match offsets count the stored characters.
    let chars: Vec<char> = x.text.chars().collect();
    let piece = |from: usize, to: usize| -> String {
        paint
            .text(&chars[from..to].iter().collect::<String>())
            .into_owned()
    };
    let mut out = String::new();
    let mut at = 0;
    for [start, end] in &x.matches {
        out.push_str(&piece(at, *start));
        out.push_str(&paint.matched(&piece(*start, *end)));
        at = *end;
    }
    out.push_str(&piece(at, chars.len()));
    out
}

/// A project by its folder's name, as people call it: `/home/dev/toy` → `toy`.
pub fn project_name(project: &str) -> Option<&str> {
    project.rsplit(['/', '\\']).find(|part| !part.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_in_full_names_the_clients_own_entries_and_shows_the_rest() {
        use crate::model::DetailKind;
        let entry = |index: u32, kind: DetailKind, name: &str, body: &str| crate::model::Detail {
            index,
            kind,
            name: Some(name.into()),
            tool_use_id: None,
            body: body.into(),
            is_error: false,
            at: None,
        };
        let details = vec![
            entry(
                1,
                DetailKind::Attachment,
                "skill_listing",
                &"- a skill\n".repeat(40),
            ),
            entry(
                2,
                DetailKind::System,
                "turn_duration",
                "{\"durationMs\":4000}",
            ),
            entry(3, DetailKind::Thinking, "", "Read the config first."),
        ];
        let detail = TurnDetail {
            turn: Turn {
                code: "k3m9x2a".into(),
                session_id: "s".into(),
                seq: 1,
                started_at: None,
                messages: Vec::new(),
                detail_summary: String::new(),
            },
            steps: crate::model::steps(&details, &|_, _| None),
            details,
        };
        let shown = turn_detail(&detail, true, Paint::Plain);
        assert!(
            shown.contains("── item 1 · attachment: skill_listing (400 chars: --item 1 shows it)"),
            "{shown}"
        );
        assert!(!shown.contains("a skill"), "{shown}");
        assert!(
            shown.contains("── item 2 · host note: turn_duration ("),
            "{shown}"
        );
        assert!(shown.contains("Read the config first."), "{shown}");
        // Asked for by number, an entry is shown whole.
        assert!(turn_detail(&detail, false, Paint::Plain).contains("- a skill"));
    }

    #[test]
    fn a_title_is_the_first_line_cut_short() {
        assert_eq!(title("  fix the build\nthen more"), "fix the build");
        let long = "é".repeat(100);
        assert_eq!(title(&long).chars().count(), TITLE_CHARS + 1);
    }

    #[test]
    fn pages_cut_on_characters_and_say_where_to_go_on() {
        let text = "日本語のテキスト".repeat(3);
        assert_eq!(page(&text, 0, 100), (text.clone(), None));
        let (first, next) = page(&text, 0, 10);
        assert_eq!((first.chars().count(), next), (10, Some(10)));
        let (rest, next) = page(&text, 16, 10);
        assert_eq!((rest, next), ("日本語のテキスト".to_string(), None));
        assert_eq!(page(&text, 99, 10), (String::new(), None));
    }

    #[test]
    fn line_ranges_and_greps_say_what_they_show() {
        assert_eq!(Lines::parse_range("400-420"), Ok(Lines::Range(400, 420)));
        assert_eq!(Lines::parse_range("7"), Ok(Lines::Range(7, 7)));
        assert_eq!(Lines::parse_range("5-"), Ok(Lines::Range(5, usize::MAX)));
        for bad in ["", "0-3", "9-2", "a-b", "-4", "1-2-3"] {
            let err = Lines::parse_range(bad).unwrap_err();
            assert!(err.contains("such as 400-420"), "{bad:?}: {err}");
        }
        assert!(Lines::grep("  ").is_err());
        let text = "alpha\nbeta\ngamma\nBETA max";
        let plain = Paint::Plain;
        assert_eq!(
            some_lines("output", text, &Lines::Range(2, 3), plain),
            "output, lines 2-3 of 4:\n2:beta\n3:gamma\n"
        );
        assert_eq!(
            some_lines("output", text, &Lines::grep("beta").unwrap(), plain),
            "output, 2 lines holding beta of 4:\n2:beta\n4:BETA max\n"
        );
        assert_eq!(
            some_lines("output", text, &Lines::Range(9, 10), plain),
            "output has 4 lines: none in that range\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_for_a_terminal_and_left_for_a_program() {
        let hostile = "a\x1b]0;title\x07b\rc\u{9b}2Jd\te\nf";
        assert_eq!(visible(hostile), "a\\x1b]0;title\\x07b\\rc\\u{9b}2Jd\te\nf");
        assert!(matches!(visible("plain\ttext\n"), Cow::Borrowed(_)));
        assert_eq!(visible("x\u{202e}gnp.exe"), "x\\u{202e}gnp.exe");
        assert_eq!(visible("\u{2067}a\u{2069}"), "\\u{2067}a\\u{2069}");
        assert_eq!(Paint::Plain.text(hostile), hostile);
        assert_eq!(Paint::Terminal.text(hostile), visible(hostile));
        assert_eq!(
            numbered_lines(&[(1, "x\x1b[2Jy")], Paint::Terminal),
            "1:x\\x1b[2Jy\n"
        );
    }

    #[test]
    fn plain_paint_leaves_the_text_as_it_is() {
        assert_eq!(Paint::Plain.matched("«x»"), "«x»");
        assert_eq!(Paint::Plain.line_number(400), "400:");
        let red = Paint::Color.matched("x");
        assert!(red.starts_with("\u{1b}[") && red.contains('x') && red.ends_with("\u{1b}[0m"));
        assert_eq!(
            numbered_lines(&[(3, "a"), (9, "b c")], Paint::Plain),
            "3:a\n9:b c\n"
        );
    }

    #[test]
    fn pointers_for_a_person_and_for_a_model() {
        assert_eq!(
            Pointer::Cli.detail("abc1234", None),
            "throughline detail abc1234"
        );
        assert_eq!(
            Pointer::Cli.detail("abc1234", Some(("tool", 2))),
            "throughline detail abc1234 --tool 2"
        );
        assert_eq!(
            Pointer::Mcp.detail("abc1234", Some(("item", 5))),
            r#"detail {"turn":"abc1234","item":5}"#
        );
        assert_eq!(
            Pointer::Cli.detail_lines("abc1234", Some(("tool", 1)), Some((390, 410))),
            "throughline detail abc1234 --tool 1 --lines 390-410"
        );
        assert_eq!(
            Pointer::Mcp.detail_lines("abc1234", Some(("tool", 1)), Some((390, 410))),
            r#"detail {"turn":"abc1234","tool":1,"lines":"390-410"}"#
        );
        assert_eq!(
            Pointer::Cli.detail_lines("abc1234", None, Some((1, 2))),
            "throughline detail abc1234",
            "lines belong to one entry"
        );
    }

    #[test]
    fn a_session_quiet_for_longer_than_the_live_window_is_idle_not_live() {
        let session = |last: &str| Session {
            id: 1,
            host: crate::hosts::claude::HOST,
            session_id: "f839b538-b1ae".into(),
            project: None,
            cwd: None,
            transcript_path: None,
            model: None,
            started_at: None,
            last_activity: Some(last.into()),
            ended_at: None,
            end_reason: None,
            start_source: None,
            turns: 3,
            start_model: None,
            client_version: None,
            context_window: None,
            branch: None,
        };
        std::env::set_var(crate::clock::NOW_ENV, "2026-11-30T10:00:00.000Z");
        let recent = session_line(&session("2026-11-30T09:45:00.000Z"), None, Paint::Plain);
        let old = session_line(&session("2025-07-20T10:00:00.000Z"), None, Paint::Plain);
        std::env::remove_var(crate::clock::NOW_ENV);
        assert!(recent.contains("live"), "{recent}");
        assert!(old.contains("idle") && !old.contains("live"), "{old}");
    }
}
