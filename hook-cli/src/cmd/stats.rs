//! `throughline stats`: how each session's context was spent (conversation, tool I/O,
//! thinking), the tokens the host recorded, and what a `/clear` with handoff would keep.

use serde::Serialize;
use throughline::model::{short_tokens, Usage};
use throughline::render;
use throughline::store::{ContextSpend, SessionFilter};
use throughline::summarize;

#[derive(clap::Args)]
pub struct Args {
    /// One session (its id or a unique prefix)
    #[arg(long)]
    session: Option<String>,
    /// Sessions of this project (its git root or folder); default: the current project
    #[arg(long, conflicts_with = "session")]
    project: Option<String>,
    /// Sessions of every project
    #[arg(long, conflicts_with_all = ["session", "project"])]
    all: bool,
    /// How many sessions at most
    #[arg(long, default_value_t = 20)]
    limit: u32,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

#[derive(Serialize, Default)]
struct Totals {
    sessions: u64,
    turns: u64,
    conversation_chars: u64,
    tool_io_chars: u64,
    thinking_chars: u64,
    other_chars: u64,
    api_calls: u64,
    usage: Usage,
}

impl Totals {
    fn add(&mut self, s: &ContextSpend) {
        self.sessions += 1;
        self.turns += s.turns;
        self.conversation_chars += s.conversation_chars;
        self.tool_io_chars += s.tool_io_chars;
        self.thinking_chars += s.thinking_chars;
        self.other_chars += s.other_chars;
        self.api_calls += s.api_calls;
        self.usage.input += s.usage.input;
        self.usage.cache_creation += s.usage.cache_creation;
        self.usage.cache_read += s.usage.cache_read;
        self.usage.output += s.usage.output;
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let sessions = match &args.session {
        Some(id) => vec![store.session(id)?],
        None => store.sessions(&SessionFilter {
            project: if args.all {
                None
            } else {
                args.project.clone().or_else(super::current_project)
            },
            limit: Some(args.limit),
            with_turns: true,
        })?,
    };
    let spends = sessions
        .iter()
        .map(|s| store.context_spend(s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut totals = Totals::default();
    spends.iter().for_each(|s| totals.add(s));
    let home = throughline::home::Home::locate()?;
    let summaries = summarize::status(&home, &throughline::config::load(&home).config);
    if args.json {
        return super::print_json(&serde_json::json!({
            "sessions": spends,
            "totals": totals,
            "summaries": summaries,
        }));
    }
    if spends.is_empty() {
        outln!("no sessions here; `throughline stats --all` covers every project")?;
        return Ok(());
    }
    let paint = args.color.paint();
    let columns = format!(
        "{:<10} {:>5} {:>13} {:>10} {:>9} {:>9} {:>13} {:>16}",
        "session",
        "turns",
        "conversation",
        "tool I/O",
        "thinking",
        "other",
        "last context",
        "after /clear"
    );
    out_painted!("{}\n", paint.bold(&columns))?;
    for s in &spends {
        let after = match s.last_context {
            Some(tokens) => format!("~{} tok", short_tokens(s.handoff_tokens.min(tokens))),
            None => "-".into(),
        };
        let session = format!("{:<10}", &s.session_id[..s.session_id.len().min(8)]);
        out_painted!(
            "{} {:>5} {:>13} {:>10} {:>9} {:>9} {:>13} {:>16}\n",
            paint.dim(&paint.text(&session)),
            s.turns,
            chars(s.conversation_chars),
            chars(s.tool_io_chars),
            chars(s.thinking_chars),
            chars(s.other_chars),
            s.last_context
                .map_or("-".into(), |t| format!("{} tok", short_tokens(t))),
            after
        )?;
    }
    let u = &totals.usage;
    outln!(
        "\n{}, {}, {}: {} input + {} cache write + {} cache read tokens in, {} out",
        render::count(totals.sessions, "session"),
        render::count(totals.turns, "turn"),
        render::count(totals.api_calls, "API call"),
        short_tokens(u.input),
        short_tokens(u.cache_creation),
        short_tokens(u.cache_read),
        short_tokens(u.output)
    )?;
    outln!(
        "characters stored: conversation {}, tool I/O {}, thinking {}, other {}",
        chars(totals.conversation_chars),
        chars(totals.tool_io_chars),
        chars(totals.thinking_chars),
        chars(totals.other_chars)
    )?;
    outln!(
        "after /clear: the recent conversation up to {} characters (tokens estimated from the \
         text: about four characters a token in English, one a character in Chinese or \
         Japanese) instead of the last context",
        throughline::config::MAX_BUDGET
    )?;
    outln!("{}", summaries_line(&summaries))?;
    Ok(())
}

/// What the summary backend cost, over every project (it is not per session).
fn summaries_line(status: &summarize::Status) -> String {
    let s = &status.spend;
    if s.calls == 0 {
        return format!(
            "one-liners: local; no summary requests made (summary_backend {})",
            status.backend.as_str()
        );
    }
    format!(
        "one-liners by a model: {} ({} failed, {} today of {}), {} of {} turns got a line; \
         {} tokens in, {} out",
        render::count(s.calls, "request"),
        s.failed_calls,
        s.calls_today,
        status.daily_calls,
        s.lines,
        s.turns,
        short_tokens(s.input_tokens),
        short_tokens(s.output_tokens)
    )
}

/// `21k ch`: characters as people read a count.
fn chars(n: u64) -> String {
    format!("{} ch", short_tokens(n))
}
