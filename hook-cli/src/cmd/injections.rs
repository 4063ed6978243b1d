//! `throughline injections`: the log of every memory handed to a session.

use throughline::store::InjectionFilter;

#[derive(clap::Args)]
pub struct Args {
    /// Every project, not only the current one
    #[arg(long)]
    all: bool,
    /// Only injections into this session (id or prefix)
    #[arg(long)]
    session: Option<String>,
    /// Print each injected text in full
    #[arg(long)]
    full: bool,
    #[arg(long, default_value_t = 20)]
    limit: u32,
    /// Print JSON (texts included)
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let session_id = match &args.session {
        Some(id) => Some(store.session(id)?.session_id),
        None => None,
    };
    let project = if args.all || session_id.is_some() {
        None
    } else {
        super::current_project()
    };
    let log = store.injections(&InjectionFilter {
        project,
        session_id,
        limit: Some(args.limit),
    })?;
    if args.json {
        return super::print_json(&log);
    }
    if log.is_empty() {
        outln!("no injections recorded here yet; `--all` lists every project")?;
    }
    for i in &log {
        let chain: Vec<&str> = i.chain.iter().map(|s| &s[..s.len().min(8)]).collect();
        outln!(
            "{}  {:<7} {} ← {}  {}/{} chars  {} verbatim, {} one-liners{}, {} left out",
            throughline::clock::local(&i.at),
            i.trigger.as_str(),
            &i.session_id[..i.session_id.len().min(8)],
            chain.join(" ← "),
            i.size,
            i.budget,
            i.verbatim.len(),
            i.one_liners.len(),
            written_by(&i.one_liners_by),
            i.left_out
        )?;
        if args.full {
            for (code, by) in i.one_liners.iter().zip(&i.one_liners_by) {
                outln!("  {code}: {by}")?;
            }
            outln!("{}\n", i.text)?;
        }
    }
    Ok(())
}

/// ` (30 claude:haiku, 12 local)`: who wrote the one-liners, when a model wrote any.
fn written_by(by: &[String]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for who in by {
        match counts.iter_mut().find(|(w, _)| w == who) {
            Some((_, n)) => *n += 1,
            None => counts.push((who, 1)),
        }
    }
    if counts
        .iter()
        .all(|(who, _)| *who == throughline::summary::LOCAL)
    {
        return String::new();
    }
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let parts: Vec<String> = counts.iter().map(|(who, n)| format!("{n} {who}")).collect();
    format!(" ({})", parts.join(", "))
}
