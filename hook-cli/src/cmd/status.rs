//! `throughline status`: what is stored, where, and how big.

use serde::Serialize;
use throughline::home::Home;
use throughline::render;
use throughline::store::{Store, StoreStats};

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Status {
    home: String,
    store: Option<StoreStats>,
    recent_problems: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    let store = match Store::open_read_only(&home) {
        Ok(store) => Some(store.stats()?),
        Err(throughline::store::StoreError::Missing(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let status = Status {
        home: home.dir().display().to_string(),
        store,
        recent_problems: throughline::log::tail(&home, 5),
    };
    if args.json {
        return super::print_json(&status);
    }
    outln!("home      {}", status.home)?;
    match &status.store {
        None => {
            outln!("store     none yet (created by the first hook call or `throughline import`)")?
        }
        Some(s) => {
            outln!(
                "database  {} ({}, schema v{})",
                s.path,
                human_bytes(s.bytes),
                s.schema_version
            )?;
            outln!(
                "memory    {} in {}, {}",
                render::count(s.sessions, "session"),
                render::count(s.projects, "project"),
                render::count(s.turns, "turn")
            )?;
            outln!(
                "layers    {} (L2), {} (L3), {}",
                render::count(s.messages, "message"),
                render::count(s.details, "detail entry"),
                render::count(s.api_calls, "API call")
            )?;
            if let Some(at) = &s.last_activity {
                outln!(
                    "last      {} ({})",
                    throughline::clock::local(at),
                    throughline::clock::ago(at)
                )?;
            }
        }
    }
    if !status.recent_problems.is_empty() {
        outln!("\nrecent problems (from {}):", home.log_path().display())?;
        for line in &status.recent_problems {
            outln!("  {line}")?;
        }
    }
    Ok(())
}

pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
