//! `throughline mcp`: an MCP server on stdio, so the agent itself can search its memory, recall
//! earlier turns and pull any tool output in full. Each tool is a thin layer over the library
//! and answers in the same text the CLI prints, cut to a size a model can take in, with a
//! pointer to the rest.
//!
//! Only this verb starts an async runtime; hooks never touch it.

mod lines;

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{schemars, tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use serde::Deserialize;
use throughline::home::Home;
use throughline::model::Layer;
use throughline::recall;
use throughline::render::{self, Lines, Paint, Pointer};
use throughline::search;
use throughline::store::{SessionFilter, Store};

/// Most characters one tool result carries; longer ones end with where to get the rest.
const MAX_RESULT_CHARS: usize = 8_000;
const DEFAULT_HITS: u32 = 5;
const MAX_HITS: u32 = 20;
const DEFAULT_TURNS: u32 = 5;
const MAX_TURNS: u32 = 50;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(lines::on_stdio(|input, output| async move {
        let service = Memory::new().serve((input, output)).await?;
        service.waiting().await?;
        anyhow::Ok(())
    }))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// Words to find, in any language (Japanese and Chinese need no spaces). Entries holding
    /// the words as written come first, then those holding every word apart; "double quotes"
    /// keep a phrase together.
    query: String,
    /// Search every project instead of only the current one.
    #[serde(default)]
    all_projects: bool,
    /// Only this session (id or unique prefix), whatever its project.
    session: Option<String>,
    /// "l2": only prompts and assistant text; "l3": only tool calls, tool output and thinking.
    layer: Option<String>,
    /// Only calls and output of this tool, e.g. "Bash".
    tool: Option<String>,
    /// Only entries newer than a duration ("7d", "12h") or a date ("2026-11-30").
    since: Option<String>,
    /// How many hits (default 5, at most 20).
    limit: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct DetailArgs {
    /// Turn id, as search and recall show it (e.g. "k3f9a2c").
    turn: String,
    /// Only the N-th tool call of the turn (1-based), with its full output.
    tool: Option<u32>,
    /// Only the N-th detail entry of the turn (1-based).
    item: Option<u32>,
    /// With `tool` or `item`: only these lines of the output or entry, e.g. "390-410" or "400-".
    lines: Option<String>,
    /// With `tool` or `item`: only the lines holding any of these words, numbered.
    grep: Option<String>,
    /// Start at this character, to read on where a previous answer stopped.
    #[serde(default)]
    offset: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct RecallArgs {
    /// Only turns before this turn id; its session is recalled.
    before: Option<String>,
    /// How many turns, the latest ones (default 5, at most 50).
    last: Option<u32>,
    /// One line per turn instead of the conversation verbatim.
    #[serde(default)]
    oneline: bool,
    /// Session id or unique prefix; default: the latest session of the current project.
    session: Option<String>,
    /// Start at this character, to read on where a previous answer stopped.
    #[serde(default)]
    offset: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct SessionsArgs {
    /// Sessions of every project instead of only the current one.
    #[serde(default)]
    all_projects: bool,
    /// How many sessions (default 10).
    limit: Option<u32>,
}

#[derive(Debug, Clone)]
struct Memory {
    tool_router: ToolRouter<Memory>,
}

fn open_store() -> Result<Store, String> {
    let home = Home::locate().map_err(|e| e.to_string())?;
    // Writable: a search first indexes what hooks captured since the last one.
    throughline::open_store(&home).map_err(|e| e.to_string())
}

/// `text` from character `offset`, at most [`MAX_RESULT_CHARS`], ending with how to read on.
fn page(text: &str, offset: usize, read_on: impl Fn(usize) -> String) -> String {
    let (part, next) = render::page(text, offset, MAX_RESULT_CHARS);
    match next {
        Some(next) => format!(
            "{part}\n[… {} more characters: {}]",
            text.chars().count() - next,
            read_on(next)
        ),
        None => part,
    }
}

#[tool_router]
impl Memory {
    fn new() -> Memory {
        Memory {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Search the memory of past coding sessions (prompts, answers, tool calls, tool output, thinking) for words. Returns the best turns, each once: its best entry's lines, the `detail` call that shows the whole entry, and how many more lines of the turn hold the words."
    )]
    fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<String, String> {
        let store = open_store()?;
        let layer = match args.layer.as_deref() {
            Some(l) => Some(Layer::parse(l).ok_or(format!("layer {l:?}: use \"l2\" or \"l3\""))?),
            None => None,
        };
        let project = if args.all_projects || args.session.is_some() {
            None
        } else {
            super::current_project()
        };
        let request = search::Request {
            query: args.query,
            project: project.clone(),
            session: args.session,
            layer,
            tool: args.tool,
            since: args.since,
            limit: args.limit.unwrap_or(DEFAULT_HITS).clamp(1, MAX_HITS),
        };
        let found = search::search(&store, &request).map_err(|e| e.to_string())?;
        let mut shown: Vec<String> = found
            .hits
            .iter()
            .map(|h| render::hit(h, Pointer::Mcp, Paint::Plain))
            .collect();
        if shown.is_empty() {
            shown.push(match project {
                Some(p) => format!("no matches in {p}; search again with all_projects: true"),
                None => "no matches".to_string(),
            });
        }
        shown.extend(found.partial.iter().map(|limit| format!("note: {limit}")));
        Ok(page(&shown.join("\n\n"), 0, |_| {
            "ask for fewer hits (limit) or narrow the search".to_string()
        }))
    }

    #[tool(
        description = "One turn of a past session in full: the conversation and every tool call, output and thought. With `tool`, just that tool call and its complete output; with `item`, one entry; add `lines` (\"390-410\") or `grep` (words) to read only some lines of it, numbered. Long answers are paged: pass `offset` to read on."
    )]
    fn detail(&self, Parameters(args): Parameters<DetailArgs>) -> Result<String, String> {
        let store = open_store()?;
        let detail = store.turn_detail(&args.turn).map_err(|e| e.to_string())?;
        let code = detail.turn.code.clone();
        let lines = match (&args.lines, &args.grep) {
            (Some(range), _) => Some(Lines::parse_range(range)?),
            (None, Some(words)) => Some(Lines::grep(words)?),
            (None, None) => None,
        };
        let (text, part) = match (args.tool, args.item, lines) {
            (tool, item, Some(lines)) => {
                let (what, body) = render::part_body(&detail, tool, item)?;
                let part = tool.map(|n| ("tool", n)).or(item.map(|n| ("item", n)));
                (render::some_lines(&what, &body, &lines, Paint::Plain), part)
            }
            (Some(n), _, None) => {
                let exchange = detail.tool_exchange(n).map_err(|e| e.to_string())?;
                (
                    render::tool_exchange(&code, &exchange, Paint::Plain),
                    Some(("tool", n)),
                )
            }
            (None, Some(n), None) => {
                let item = detail.only_item(n).map_err(|e| e.to_string())?;
                (
                    render::turn_detail(&item, false, Paint::Plain),
                    Some(("item", n)),
                )
            }
            (None, None, None) => (render::turn_detail(&detail, true, Paint::Plain), None),
        };
        Ok(page(&text, args.offset, |next| {
            let mut call = render::detail_arguments(&code, part);
            for (field, value) in [("lines", &args.lines), ("grep", &args.grep)] {
                if let Some(value) = value {
                    call[field] = value.as_str().into();
                }
            }
            call["offset"] = next.into();
            format!("detail {call}")
        }))
    }

    #[tool(
        description = "Earlier turns of a session, verbatim or one line each (oneline). By default the latest turns of the current project's latest session; `before` recalls the turns before a given turn."
    )]
    fn recall(&self, Parameters(args): Parameters<RecallArgs>) -> Result<String, String> {
        let store = open_store()?;
        let request = recall::Request {
            session: args.session.clone(),
            project: super::current_project(),
            before: args.before.clone(),
            last: args.last.unwrap_or(DEFAULT_TURNS).clamp(1, MAX_TURNS),
        };
        let recalled = recall::recall(&store, &request).map_err(|e| e.to_string())?;
        let text = recall::render(&recalled, args.oneline, Pointer::Mcp, Paint::Plain);
        Ok(page(&text, args.offset, |next| {
            format!("call recall again with the same arguments and offset {next}")
        }))
    }

    #[tool(
        description = "Recorded sessions, most recent first: id, turns, last activity, state, the first prompt and the project."
    )]
    fn sessions(&self, Parameters(args): Parameters<SessionsArgs>) -> Result<String, String> {
        let store = open_store()?;
        let project = (!args.all_projects).then(super::current_project).flatten();
        let sessions = store
            .sessions(&SessionFilter {
                project: project.clone(),
                limit: Some(args.limit.unwrap_or(10).clamp(1, 100)),
                with_turns: true,
            })
            .map_err(|e| e.to_string())?;
        if sessions.is_empty() {
            return Ok(format!(
                "no sessions recorded in {}",
                project.as_deref().unwrap_or("any project")
            ));
        }
        let mut lines = Vec::new();
        for s in &sessions {
            let title = store.first_prompt(s).map_err(|e| e.to_string())?;
            lines.push(format!(
                "{}  {}",
                render::session_line(s, title.as_deref(), Paint::Plain),
                s.project.as_deref().unwrap_or("")
            ));
        }
        Ok(page(&lines.join("\n"), 0, |_| {
            "ask for fewer (limit)".to_string()
        }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Memory {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "throughline",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Throughline keeps every turn of past coding sessions verbatim: prompts, answers, \
                 tool calls with their full output, and thinking. Use `search` to find something \
                 said or seen before, `detail` to read a turn or one tool output in full, \
                 `recall` for the turns before a point, and `sessions` to list sessions.",
            )
    }
}
