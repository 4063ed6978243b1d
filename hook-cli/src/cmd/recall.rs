//! `throughline recall`: earlier turns of a session, verbatim or one line each — what the
//! injection left out, one command away.

use serde::Serialize;
use throughline::recall::{self, Request};
use throughline::render::Pointer;
use throughline::summary;

#[derive(Serialize)]
struct OneLine<'a> {
    turn: &'a str,
    seq: u32,
    line: String,
}

#[derive(clap::Args)]
pub struct Args {
    /// Only turns before this one (turn id or unique prefix); its session is recalled
    #[arg(long)]
    before: Option<String>,
    /// How many turns (the latest ones)
    #[arg(long, default_value_t = 5)]
    last: u32,
    /// One line per turn instead of the conversation verbatim
    #[arg(long)]
    oneline: bool,
    /// Session id or unique prefix; default: the latest session of this project
    #[arg(long)]
    session: Option<String>,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let recalled = recall::recall(
        &store,
        &Request {
            session: args.session,
            project: super::current_project(),
            before: args.before,
            last: args.last,
        },
    )?;
    if args.json && args.oneline {
        let lines: Vec<OneLine> = recalled
            .turns
            .iter()
            .map(|t| OneLine {
                turn: &t.code,
                seq: t.seq,
                line: summary::one_liner(t, summary::MAX_CHARS),
            })
            .collect();
        return super::print_json(&lines);
    }
    if args.json {
        return super::print_json(&recalled);
    }
    let shown = recall::render(&recalled, args.oneline, Pointer::Cli, args.color.paint());
    out_painted!("{shown}")?;
    Ok(())
}
