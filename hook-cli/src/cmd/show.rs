//! `throughline show [session]`: every turn of a session, the conversation verbatim and one
//! line listing the detail that `throughline detail <turn>` can pull.

use serde::Serialize;
use throughline::model::{Session, Turn};
use throughline::render::{self, Pointer};

#[derive(clap::Args)]
pub struct Args {
    /// Session id or a unique prefix of it; default: the latest session of this project
    session: Option<String>,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Shown {
    session: Session,
    turns: Vec<Turn>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let session = super::session_or_latest(&store, args.session.as_deref())?;
    let turns = store.turns(&session)?;
    if args.json {
        return super::print_json(&Shown { session, turns });
    }
    let paint = args.color.paint();
    let heading = format!(
        "session {}  {}  {}",
        session.session_id,
        session.project.as_deref().unwrap_or(""),
        session.model.as_deref().unwrap_or("")
    );
    out_painted!("{}\n", paint.bold(&paint.text(&heading)))?;
    for turn in &turns {
        out_painted!("\n{}", render::turn(turn, Pointer::Cli, paint))?;
    }
    Ok(())
}
