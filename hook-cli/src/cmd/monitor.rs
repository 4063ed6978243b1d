//! `throughline monitor`: the tray app's live gauges in a terminal (over SSH, or on a machine
//! without a desktop), from the same library computation, redrawn as sessions grow.

use std::io::Write;
use std::time::Duration;

use throughline::clock;
use throughline::gauge::{self, Gauge, Level};
use throughline::home::Home;
use throughline::hosts::CompactRule;
use throughline::plan::{self, PlanUsage};
use throughline::render::{Paint, Tone};
use throughline::store::{Store, StoreError};

#[derive(clap::Args)]
pub struct Args {
    /// Print the gauges once and exit
    #[arg(long)]
    once: bool,
    /// Seconds between rereads
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: u64,
    #[command(flatten)]
    color: super::Color,
    /// Print JSON: one object a line, each time the gauges change (with --once, one object)
    #[arg(long)]
    json: bool,
}

/// What `--json` prints each time the gauges change.
#[derive(serde::Serialize)]
struct Snapshot {
    sessions: Vec<Gauge>,
    plan: Option<PlanUsage>,
    /// Why the memory store could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Cells of a gauge's bar.
const BAR: usize = 24;

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    let terminal = super::stdout_is_terminal() && !args.json;
    let paint = args.color.paint();
    let mut shown = String::new();
    loop {
        let screen = match args.json {
            true => serde_json::to_string(&snapshot(&home))? + "\n",
            false => screen(&home, paint),
        };
        if screen != shown {
            let mut out = std::io::stdout().lock();
            if terminal && !args.once {
                // Home the cursor and clear: one steady screen, no scrolling.
                write!(out, "\x1b[H\x1b[2J")?;
            }
            write!(out, "{screen}")?;
            out.flush()?;
            shown = screen;
        }
        if args.once {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(args.interval));
    }
}

fn snapshot(home: &Home) -> Snapshot {
    let (sessions, error) = match Store::open_read_only(home)
        .and_then(|store| gauge::read(&store, &clock::now(), gauge::claude_threshold()))
    {
        Ok(gauges) => (gauges, None),
        Err(StoreError::Missing(_)) => (Vec::new(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    Snapshot {
        sessions,
        plan: plan::load(home),
        error,
    }
}

/// Everything shown, as text.
fn screen(home: &Home, paint: Paint) -> String {
    let mut lines = vec!["throughline monitor · live sessions · Ctrl-C quits".to_string()];
    match Store::open_read_only(home)
        .and_then(|store| gauge::read(&store, &clock::now(), gauge::claude_threshold()))
    {
        Ok(gauges) if gauges.is_empty() => lines.push(
            "no live sessions: a session shows from its start until it ends or has been quiet for 30 minutes".into(),
        ),
        Ok(gauges) => lines.extend(gauges.iter().flat_map(|g| session_lines(g, paint))),
        Err(StoreError::Missing(_)) => lines.push(
            "nothing recorded yet: `throughline install` registers the hooks, `throughline import` reads past sessions".into(),
        ),
        Err(e) => lines.push(format!("cannot read the memory store: {e}; `throughline doctor` says how to fix it")),
    }
    lines.extend(plan_line(plan::load(home).as_ref()));
    lines.push(String::new());
    lines.join("\n")
}

fn session_lines(g: &Gauge, paint: Paint) -> [String; 2] {
    let project = g
        .project
        .as_deref()
        .and_then(throughline::render::project_name)
        .unwrap_or("(unknown project)");
    let which = g
        .title
        .clone()
        .unwrap_or_else(|| g.session_id.chars().take(8).collect());
    let filled = (usize::from(g.percent) * BAR + 50) / 100;
    let bar = format!("{}{}", "█".repeat(filled), "░".repeat(BAR - filled));
    let tone = match g.level {
        Level::Calm => Tone::Good,
        Level::Filling => Tone::Warning,
        Level::Full => Tone::Bad,
    };
    let bar = paint.tone(tone, &bar);
    let until = match (g.compacts_by, g.compact_at) {
        (CompactRule::Threshold, Some(at)) => format!(" (auto-compact at {at}%)"),
        (CompactRule::Client, Some(at)) => format!(" ({} compacts at about {at}%)", g.host),
        _ => String::new(),
    };
    let active = g
        .last_activity
        .as_deref()
        .map(|at| format!(" · active {}", clock::ago(at)))
        .unwrap_or_default();
    let usage = match g.measured {
        true => format!("  {bar} {:>3}%  {}{until}", g.percent, g.usage),
        false => format!("  context use not reported by {}", g.host),
    };
    let about = format!(
        "{project} · {which} · {} · {}",
        g.host,
        g.model.as_deref().unwrap_or("unknown model")
    );
    [
        // Stored names, on a terminal shown with their control characters escaped.
        paint.text(&about).into_owned(),
        format!(
            "{usage} · {}{active}",
            throughline::render::count(g.turns, "turn")
        ),
    ]
}

/// `plan: 5-hour 42% (resets in 2h 05m) · 7-day 13% (resets in 3d 4h)`
fn plan_line(plan: Option<&PlanUsage>) -> Option<String> {
    let windows: Vec<String> = plan?
        .in_use(clock::unix_now())
        .into_iter()
        .map(|(used, resets)| match resets {
            Some(resets) => format!("{used} (resets in {resets})"),
            None => used,
        })
        .collect();
    (!windows.is_empty()).then(|| format!("plan: {}", windows.join(" · ")))
}
