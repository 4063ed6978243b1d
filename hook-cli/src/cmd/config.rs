//! `throughline config`: the settings in force and where each comes from; with options, changes
//! them (Throughline's own in `config.json`, the auto-compact threshold in Claude Code's settings).

use std::path::PathBuf;

use anyhow::Context;
use throughline::config;
use throughline::forget;
use throughline::home::Home;
use throughline::hosts::claude::install as claude;
use throughline::install::Scope;

#[derive(clap::Args)]
pub struct Args {
    /// Pause capture: sessions are not recorded until `--resume` (memory is still handed over)
    #[arg(long, conflicts_with = "resume")]
    pause: bool,
    /// Resume capture after `--pause`
    #[arg(long)]
    resume: bool,
    /// Turn capture off for a project folder (and every folder in it)
    #[arg(long, value_name = "DIR")]
    capture_off: Option<PathBuf>,
    /// Turn capture back on for a project folder
    #[arg(long, value_name = "DIR")]
    capture_on: Option<PathBuf>,
    /// Days a turn is kept before it is forgotten (0: for ever); applied in the background
    #[arg(long, value_name = "DAYS")]
    keep_days: Option<u32>,
    /// Megabytes of stored text kept; past it the oldest sessions are forgotten (0: no limit)
    #[arg(long, value_name = "MB")]
    keep_mb: Option<u32>,
    /// Percent of the context window at which Claude Code compacts by itself (1-100), or `off`
    /// to leave it to the client. Written to env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE in
    /// ~/.claude/settings.json, with autoCompactWindow (the model's whole window, unless you
    /// set one), without which some clients ignore the threshold. It can only bring compaction
    /// earlier: above about 92 (200k-token windows) or 98 (1M) it changes nothing, the
    /// client's own threshold being lower. Sessions started afterwards use it.
    #[arg(long, value_name = "PERCENT|off")]
    autocompact: Option<String>,
    /// Set one setting in config.json, e.g. `--set summary_backend=claude` (repeatable; see
    /// the keys `config` lists)
    #[arg(long, value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    if let Some(value) = &args.autocompact {
        let percent = match value.as_str() {
            "off" => None,
            n => Some(n.parse::<u8>().with_context(|| {
                format!("--autocompact {n:?}: give a whole percent from 1 to 100, or `off`")
            })?),
        };
        let change = claude::set_autocompact(&Scope::User, percent)?;
        for detail in &change.details {
            eprintln!("{}: {detail}", change.path.display());
        }
    }
    let folder = |dir: &PathBuf| -> anyhow::Result<String> {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("{}: no such folder", dir.display()))?;
        Ok(dir.to_string_lossy().into_owned())
    };
    for setting in &args.set {
        let (key, value) = setting
            .split_once('=')
            .with_context(|| format!("--set {setting:?}: write KEY=VALUE"))?;
        config::set(&home, key.trim(), value)?;
    }
    let off = args.capture_off.as_ref().map(folder).transpose()?;
    let on = args.capture_on.as_ref().map(folder).transpose()?;
    let turned_off = off.clone();
    let changing = args.pause
        || args.resume
        || off.is_some()
        || on.is_some()
        || args.keep_days.is_some()
        || args.keep_mb.is_some();
    let effective = if changing {
        config::update(&home, |c| {
            if let Some(days) = args.keep_days {
                c.keep_days = days;
            }
            if let Some(mb) = args.keep_mb {
                c.keep_mb = mb;
            }
            if args.pause || args.resume {
                c.pause_capture = args.pause;
            }
            if let Some(off) = off {
                if !c.capture_off.contains(&off) {
                    c.capture_off.push(off);
                }
            }
            if let Some(on) = on {
                c.capture_off.retain(|dir| *dir != on);
            }
        })?
    } else {
        config::load(&home)
    };
    if let Some(folder) = &turned_off {
        offer_to_forget(&home, folder);
    }
    let threshold = claude::autocompact(&Scope::User)?;
    if args.json {
        return super::print_json(&serde_json::json!({
            "settings": effective.without_secrets(),
            "autocompact": threshold,
        }));
    }
    outln!("file: {}", effective.file.display())?;
    // One column of names, as wide as the longest (`autocompact` is listed last).
    let keys = effective
        .settings
        .iter()
        .map(|s| s.key.len())
        .chain(["autocompact".len()])
        .max()
        .unwrap_or_default();
    for s in &effective.settings {
        outln!(
            "{:<keys$} {:<6} from {:<8} (env {})",
            s.key,
            s.value,
            format!("{:?}", s.source).to_lowercase(),
            s.env
        )?;
    }
    let shown = match (threshold.percent, &threshold.ignored) {
        (Some(p), _) if !threshold.applies() => format!(
            "{p}% (ignored by clients that find no window for the model: no {} they accept in \
             the file; `throughline doctor` says what to do)",
            claude::WINDOW_KEY
        ),
        (Some(p), _) => format!("{p}%"),
        (None, Some(raw)) => format!("{raw:?} (not a percent; Claude Code ignores it)"),
        (None, None) => "the client's default".into(),
    };
    outln!(
        "{:<keys$} {shown} (env.{} in {})",
        "autocompact",
        claude::AUTOCOMPACT_ENV,
        threshold.settings.display()
    )?;
    for p in &effective.problems {
        outln!("problem: {p}")?;
    }
    Ok(())
}

/// Capture off keeps what is stored; says how much and how to forget it.
fn offer_to_forget(home: &Home, folder: &str) {
    let scope = forget::Scope::Project(folder.to_string());
    if let Ok(stored) = forget::preview(home, &scope) {
        if !stored.is_empty() {
            eprintln!(
                "{folder}: {} of it stay stored and searchable; \
                 `throughline forget --project {}` forgets them.",
                throughline::render::count(stored.turns, "turn"),
                shell_words::quote(folder)
            );
        }
    }
}
