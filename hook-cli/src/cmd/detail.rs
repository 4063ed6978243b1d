//! `throughline detail <turn>`: one turn in full — the conversation and every L3 entry — or one
//! entry of it (`--item N`), or one tool call with its whole output (`--tool N`); of those,
//! only some lines (`--lines A-B`, `--grep WORDS`), numbered like `grep -n`.

use serde::Serialize;
use throughline::render::{self, Lines};

#[derive(clap::Args)]
pub struct Args {
    /// Turn id (as printed by `show`), or a unique prefix of at least four characters
    turn: String,
    /// Only the N-th detail entry (1-based, as numbered in the full listing)
    #[arg(long, conflicts_with = "tool")]
    item: Option<u32>,
    /// Only the N-th tool call of the turn (1-based) with its full output
    #[arg(long)]
    tool: Option<u32>,
    /// Only these lines of the tool's output or the entry: 400-420, 400- or 400
    #[arg(long, value_name = "A-B", value_parser = Lines::parse_range, conflicts_with = "grep")]
    lines: Option<Lines>,
    /// Only the lines of the tool's output or the entry that hold any of these words
    #[arg(long, value_name = "WORDS")]
    grep: Option<String>,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

/// Some lines of one output or entry, for `--json`.
#[derive(Serialize)]
struct SomeLines<'a> {
    turn: &'a str,
    tool: Option<u32>,
    item: Option<u32>,
    total_lines: usize,
    lines: Vec<Line<'a>>,
}

#[derive(Serialize)]
struct Line<'a> {
    line: usize,
    text: &'a str,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let paint = args.color.paint();
    let mut detail = store.turn_detail(&args.turn)?;
    let lines = match (args.lines, &args.grep) {
        (Some(lines), _) => Some(lines),
        (None, Some(words)) => Some(Lines::grep(words).map_err(anyhow::Error::msg)?),
        (None, None) => None,
    };
    if let Some(lines) = lines {
        let code = detail.turn.code.clone();
        let (what, body) =
            render::part_body(&detail, args.tool, args.item).map_err(anyhow::Error::msg)?;
        if args.json {
            return super::print_json(&SomeLines {
                turn: &code,
                tool: args.tool,
                item: args.item,
                total_lines: throughline::search::excerpt::line_count(&body),
                lines: lines
                    .of(&body)
                    .into_iter()
                    .map(|(line, text)| Line { line, text })
                    .collect(),
            });
        }
        out_painted!("{}", render::some_lines(&what, &body, &lines, paint))?;
        return Ok(());
    }
    if let Some(n) = args.tool {
        let exchange = detail.tool_exchange(n)?;
        if args.json {
            return super::print_json(&exchange);
        }
        let shown = render::tool_exchange(&detail.turn.code, &exchange, paint);
        out_painted!("{shown}")?;
        return Ok(());
    }
    if let Some(n) = args.item {
        detail = detail.only_item(n)?;
    }
    if args.json {
        return super::print_json(&detail);
    }
    let shown = render::turn_detail(&detail, args.item.is_none(), paint);
    out_painted!("{shown}")?;
    Ok(())
}
