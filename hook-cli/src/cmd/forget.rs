//! `throughline forget`: removes a turn, a session, a project or everything before a time
//! from the memory, index and file included, after showing what goes and asking; or applies
//! the retention settings (`--retention`), or replaces the secrets found so far wherever they
//! are stored (`--secrets`): what hooks start in the background.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use throughline::clock;
use throughline::config;
use throughline::forget::{self, Forgotten, Preview, Scope};
use throughline::home::Home;
use throughline::render;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("scope").required(true).multiple(false)))]
pub struct Args {
    /// One turn, by its id (as `show` and `search` print it)
    #[arg(long, group = "scope", value_name = "TURN")]
    turn: Option<String>,
    /// One session, by its id or a unique prefix
    #[arg(long, group = "scope", value_name = "ID")]
    session: Option<String>,
    /// Every session of a project (default: the project of the current folder)
    #[arg(long, group = "scope", value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
    project: Option<PathBuf>,
    /// Every turn before a date (2026-10-01), a timestamp or an age (30d, 12h, 2w)
    #[arg(long, group = "scope", value_name = "WHEN")]
    before: Option<String>,
    /// Apply the retention settings (keep_days, keep_mb) now (with `--dry-run`, show what
    /// they would remove)
    #[arg(long, group = "scope")]
    retention: bool,
    /// Replace every secret found so far wherever it is stored (hooks start this in the
    /// background when one is first found)
    #[arg(long, group = "scope")]
    secrets: bool,
    /// Show what would go, change nothing
    #[arg(long)]
    dry_run: bool,
    /// Do not ask before forgetting
    #[arg(long)]
    yes: bool,
    /// Print nothing (for the background retention run; problems go to the log)
    #[arg(long)]
    quiet: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    if args.retention {
        return retention(&home, &args);
    }
    if args.secrets {
        return secrets(&home, &args);
    }
    let scope = scope(&args)?;
    let preview = forget::preview(&home, &scope)?;
    if preview.is_empty() || args.dry_run {
        return report(&args, &preview, None);
    }
    if !args.yes && !args.json {
        print_preview(&preview)?;
        if !confirm()? {
            anyhow::bail!("nothing was forgotten; `--yes` forgets without asking");
        }
    } else if !args.yes {
        anyhow::bail!("add --yes to forget with --json (or --dry-run to only see what goes)");
    }
    let forgotten = forget::apply(&home, &scope)?;
    report(&args, &forgotten.removed, Some(&forgotten))
}

fn scope(args: &Args) -> anyhow::Result<Scope> {
    if let Some(turn) = &args.turn {
        return Ok(Scope::Turn(turn.clone()));
    }
    if let Some(session) = &args.session {
        return Ok(Scope::Session(session.clone()));
    }
    if let Some(dir) = &args.project {
        // A folder that is gone is named as sessions recorded it.
        let folder = match dir.canonicalize() {
            Ok(dir) => throughline::project::root_of(&dir.to_string_lossy()),
            Err(_) => dir.to_string_lossy().into_owned(),
        };
        return Ok(Scope::Project(folder));
    }
    let before = args.before.as_deref().context("name what to forget")?;
    Ok(Scope::Before(
        forget::parse_time(before, &clock::now()).map_err(anyhow::Error::msg)?,
    ))
}

fn retention(home: &Home, args: &Args) -> anyhow::Result<()> {
    let config = config::load(home).config;
    if config.keep_days == 0 && config.keep_mb == 0 {
        if !args.quiet {
            outln!(
                "No retention is set: `throughline config --keep-days N` or `--keep-mb N` sets one."
            )?;
        }
        return Ok(());
    }
    if args.dry_run {
        let would = forget::preview_retention(home, &config, &clock::now())?;
        if args.json {
            return super::print_json(&would);
        }
        say_retention(&config, "Would forget", [&would.by_age, &would.by_size])?;
        outln!("(dry run: nothing was forgotten)")?;
        return Ok(());
    }
    let done = throughline::open_store(home)
        .and_then(|mut store| forget::apply_retention(&mut store, &config, &clock::now()));
    let Some(done) = background_run(home, args, "retention", done)? else {
        return Ok(());
    };
    let removed = |f: &Option<Forgotten>| f.as_ref().map(|f| f.removed.clone());
    say_retention(
        &config,
        "Forgot",
        [&removed(&done.by_age), &removed(&done.by_size)],
    )
}

/// What each step of the retention settings removed (or would, by `verb`), by age then by
/// size. A step whose setting is 0 is off: nothing is said of it.
fn say_retention(
    config: &config::Config,
    verb: &str,
    removed: [&Option<Preview>; 2],
) -> anyhow::Result<()> {
    let steps = [
        (
            config.keep_days > 0,
            format!("older than {}", render::count(config.keep_days, "day")),
        ),
        (config.keep_mb > 0, format!("beyond {} MB", config.keep_mb)),
    ];
    for ((on, why), removed) in steps.iter().zip(removed) {
        match removed {
            Some(p) => outln!("{verb} {} ({why}).", counts(p))?,
            None if *on => outln!("Nothing {why}.")?,
            None => {}
        }
    }
    Ok(())
}

/// What a run hooks start (`--retention`, `--secrets`) did, for the caller to print; a failure
/// is logged as `what` too, since no terminal sees a run a hook started. None when nothing more
/// is to be printed (`--quiet`, or `--json`, printed here).
fn background_run<T: serde::Serialize>(
    home: &Home,
    args: &Args,
    what: &str,
    done: throughline::store::Result<T>,
) -> anyhow::Result<Option<T>> {
    let done = done.inspect_err(|e| throughline::log::line(home, what, &e.to_string()))?;
    if args.quiet {
        return Ok(None);
    }
    if args.json {
        super::print_json(&done)?;
        return Ok(None);
    }
    Ok(Some(done))
}

fn secrets(home: &Home, args: &Args) -> anyhow::Result<()> {
    if args.dry_run {
        let waiting = forget::secrets_waiting(home)?;
        if args.json {
            return super::print_json(&serde_json::json!({ "secrets_waiting": waiting }));
        }
        outln!(
            "{} found late {} to be replaced in the whole store; nothing was changed.",
            render::count(waiting, "secret"),
            if waiting == 1 { "waits" } else { "wait" }
        )?;
        return Ok(());
    }
    let Some(done) = background_run(home, args, "secrets", forget::scrub_secrets(home))? else {
        return Ok(());
    };
    if done.secrets == 0 {
        outln!("Every secret found so far was already replaced everywhere.")?;
        return Ok(());
    }
    outln!(
        "Looked for {} found late in the whole store: {} rewritten.",
        render::count(done.secrets, "secret"),
        render::count(done.rows, "entry")
    )?;
    if !done.wal_emptied {
        outln!(
            "A reader held the write-ahead log, so older copies stay in it until the next \
             checkpoint; run this again to empty it."
        )?;
    }
    Ok(())
}

fn counts(p: &Preview) -> String {
    let mut parts = vec![render::count(p.turns, "turn")];
    if p.sessions > 0 {
        parts.insert(0, render::count(p.sessions, "session"));
    }
    parts.push(format!(
        "{} ({} KiB of text)",
        render::count(p.messages + p.details, "entry"),
        p.text_bytes.div_ceil(1024)
    ));
    if p.injections > 0 {
        parts.push(render::count(p.injections, "injection log entry"));
    }
    parts.join(", ")
}

fn print_preview(p: &Preview) -> std::io::Result<()> {
    outln!("This forgets {}.", counts(p))?;
    if let (Some(first), Some(last)) = (&p.earliest, &p.latest) {
        outln!(
            "  turns from {} to {}",
            throughline::clock::local(first),
            throughline::clock::local(last)
        )?;
    }
    for project in &p.projects {
        outln!("  in {project}")?;
    }
    Ok(())
}

fn report(args: &Args, preview: &Preview, done: Option<&Forgotten>) -> anyhow::Result<()> {
    if args.json {
        return super::print_json(&serde_json::json!({
            "preview": preview,
            "forgotten": done,
        }));
    }
    if args.quiet {
        return Ok(());
    }
    match done {
        None if preview.is_empty() => outln!("Nothing stored matches: nothing to forget.")?,
        None => {
            print_preview(preview)?;
            outln!("(dry run: nothing was forgotten)")?;
        }
        Some(done) => {
            outln!("Forgot {}.", counts(&done.removed))?;
            if !done.wal_emptied {
                outln!(
                    "A reader (the app, a search) still holds the write-ahead log, which may \
                     keep copies of what was removed until a writer empties it (hooks do once \
                     it passes 1 MiB)."
                )?;
            }
        }
    }
    Ok(())
}

fn confirm() -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        anyhow::bail!("add --yes to forget without a terminal to ask on");
    }
    out!("Forget this? It cannot be undone. [y/N] ")?;
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
