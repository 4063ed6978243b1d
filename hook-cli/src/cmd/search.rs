//! `throughline search <words>`: full-text search over the conversation (L2) and the detail
//! (L3), best first, a turn once by its best entry, each hit with the command that shows all
//! of it and how many more lines of its turn hold the words.

use std::process::ExitCode;

use throughline::model::Layer;
use throughline::render::{self, Pointer};
use throughline::search::{self, Request};

#[derive(clap::Args)]
pub struct Args {
    /// Words to find, in any language: entries holding them as written come first, then those
    /// holding them all apart; "quotes" keep a phrase together
    #[arg(required = true, num_args = 1..)]
    query: Vec<String>,
    /// Search every project, not only the current one
    #[arg(long)]
    all: bool,
    /// Only this session (id or unique prefix), whatever its project
    #[arg(long, conflicts_with = "all")]
    session: Option<String>,
    /// Only the conversation (l2) or only tool calls, output and thinking (l3)
    #[arg(long, value_parser = parse_layer)]
    layer: Option<Layer>,
    /// Only calls and output of this tool (e.g. Bash)
    #[arg(long)]
    tool: Option<String>,
    /// Only entries newer than a duration (7d, 12h) or a date (2026-11-30)
    #[arg(long)]
    since: Option<String>,
    /// How many hits at most
    #[arg(long, default_value_t = 10)]
    limit: u32,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON: an array with one object per turn, as the text shows them: where its best
    /// entry is (turn, session_id, project, at, layer, role, tool, tool_index, item), its lines
    /// exactly as stored with the matches' character offsets (excerpts), its size (chars,
    /// lines), its copies, and more_lines: how many other lines of the turn hold a word
    #[arg(long)]
    json: bool,
}

fn parse_layer(s: &str) -> Result<Layer, String> {
    Layer::parse(s).ok_or_else(|| format!("{s:?} is not a layer; use l2 or l3"))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Writable: a search first indexes what hooks captured since the last one.
    let store = throughline::open_store(&throughline::home::Home::locate()?)?;
    let project = if args.all || args.session.is_some() {
        None
    } else {
        super::current_project()
    };
    let request = Request {
        query: args.query.join(" "),
        project: project.clone(),
        session: args.session,
        layer: args.layer,
        tool: args.tool,
        since: args.since,
        limit: args.limit,
    };
    let found = search::search(&store, &request)?;
    let hits = &found.hits;
    if args.json {
        super::print_json(hits)?;
        for limit in &found.partial {
            eprintln!("note: {limit}");
        }
    } else if hits.is_empty() {
        outln!("{}", no_matches(&request))?;
    } else {
        let paint = args.color.paint();
        let shown: Vec<String> = hits
            .iter()
            .map(|h| render::hit(h, Pointer::Cli, paint))
            .collect();
        out_painted!("{}\n", shown.join("\n\n"))?;
    }
    if !args.json {
        for limit in &found.partial {
            outln!("\nnote: {limit}")?;
        }
    }
    // Like grep: exit 1 when nothing matched, so scripts can tell.
    Ok(if hits.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What to try when nothing matched: each way the search was narrowed, said as how to widen it.
fn no_matches(request: &Request) -> String {
    let mut tries = Vec::new();
    if request.project.is_some() {
        tries.push("`--all` for every project".to_string());
    }
    let filters: Vec<&str> = [
        (request.session.is_some(), "--session"),
        (request.layer.is_some(), "--layer"),
        (request.tool.is_some(), "--tool"),
        (request.since.is_some(), "--since"),
    ]
    .into_iter()
    .filter_map(|(set, flag)| set.then_some(flag))
    .collect();
    if !filters.is_empty() {
        tries.push(format!("without {}", filters.join(", ")));
    }
    if search::terms(&request.query).len() > 1 {
        tries.push("fewer or other words".into());
    }
    let scope = match &request.project {
        Some(p) => format!(" in {p}"),
        None => String::new(),
    };
    match tries.is_empty() {
        true => format!("no matches{scope}"),
        false => format!("no matches{scope}; try {}", tries.join("; ")),
    }
}
