//! `throughline sessions`: recent sessions with their first prompt, grouped by project.

use throughline::render;
use throughline::store::SessionFilter;

#[derive(clap::Args)]
pub struct Args {
    /// Sessions of every project, not only the current one
    #[arg(long)]
    all: bool,
    /// Sessions of this project (its git root or folder)
    #[arg(long, conflicts_with = "all")]
    project: Option<String>,
    /// How many sessions at most
    #[arg(long, default_value_t = 20)]
    limit: u32,
    /// Also list sessions with no prompted turn (a client opened and closed without a word)
    #[arg(long)]
    empty: bool,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let project = match (args.all, args.project) {
        (true, _) => None,
        (false, Some(p)) => Some(p),
        (false, None) => super::current_project(),
    };
    // One more than shown tells whether the list was cut.
    let mut sessions = store.sessions(&SessionFilter {
        project: project.clone(),
        limit: Some(args.limit.saturating_add(1)),
        // Nothing to show of a session never prompted, unless asked; JSON lists every one.
        with_turns: !args.json && !args.empty,
    })?;
    let cut = sessions.len() > args.limit as usize;
    sessions.truncate(args.limit as usize);
    if sessions.is_empty() && project.is_some() && !args.json {
        outln!(
            "no sessions recorded in {}; `throughline sessions --all` lists every project",
            project.unwrap_or_default()
        )?;
        return Ok(());
    }
    if args.json {
        return super::print_json(&sessions);
    }
    // Group by project, keeping the most recently active project first.
    sessions.sort_by_key(|s| s.project.clone());
    let mut order: Vec<String> = Vec::new();
    for s in &sessions {
        let p = s
            .project
            .clone()
            .unwrap_or_else(|| "(unknown project)".into());
        if !order.contains(&p) {
            order.push(p);
        }
    }
    let paint = args.color.paint();
    for project in order {
        out_painted!("{}\n", paint.bold(&paint.text(&project)))?;
        for s in sessions
            .iter()
            .filter(|s| s.project.as_deref().unwrap_or("(unknown project)") == project)
        {
            let title = store.first_prompt(s)?;
            let line = format!("  {}", render::session_line(s, title.as_deref(), paint));
            out_painted!("{}\n", super::fitted(&line))?;
        }
    }
    if cut {
        outln!(
            "(the {} most recently active shown; --limit N shows more)",
            args.limit
        )?;
    }
    Ok(())
}
