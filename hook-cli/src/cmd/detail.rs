//! `throughline detail <turn>`: one turn in full — the conversation and every L3 entry — or one
//! entry of it (`--item N`), or one tool call with its whole output (`--tool N`).

use throughline::render;

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
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let mut detail = store.turn_detail(&args.turn)?;
    if let Some(n) = args.tool {
        let exchange = detail.tool_exchange(n)?;
        if args.json {
            return super::print_json(&exchange);
        }
        print!("{}", render::tool_exchange(&detail.turn.code, &exchange));
        return Ok(());
    }
    if let Some(n) = args.item {
        detail = detail.only_item(n)?;
    }
    if args.json {
        return super::print_json(&detail);
    }
    print!("{}", render::turn_detail(&detail, args.item.is_none()));
    Ok(())
}
