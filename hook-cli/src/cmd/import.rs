//! `throughline import`: backfill every transcript already on disk.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use throughline::home::Home;
use throughline::hosts;
use throughline::import;
use throughline::model::Host;
use throughline::render;
use throughline::store;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "claude", help = format!("Which agent's transcripts: {}", super::known_hosts()))]
    host: String,
    /// Folder to read instead of the host's own (~/.claude/projects, ~/.codex/sessions)
    #[arg(long)]
    from: Option<PathBuf>,
    /// Leave the search index to the first search instead of building it now
    #[arg(long)]
    no_index: bool,
    /// Print JSON (no progress bar)
    #[arg(long)]
    json: bool,
}

/// glibc hands memory freed at the top of its heap back to the kernel past 128 KiB; the import's
/// writer kept shrinking the heap and faulting it back in, a tenth of its time. What an import
/// frees is kept for reuse instead: it is bounded by what the import holds at once.
fn keep_freed_memory() {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only sets an allocator parameter; no other thread runs yet.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let host = hosts::parse(&args.host).ok_or_else(|| {
        let known: Vec<&str> = hosts::all().map(Host::as_str).collect();
        anyhow::anyhow!("unknown host {:?}; known: {}", args.host, known.join(", "))
    })?;
    let home = Home::locate()?;
    keep_freed_memory();
    // All of it is bulk work: hooks go first, for the CPU and for the lock.
    store::become_bulk();
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
            .expect("valid template"),
    );
    let done = import::import(&home, host, args.from, !args.no_index, &mut |at| {
        bar.set_length(at.bytes);
        bar.set_position(at.bytes_done);
        bar.set_message(format!(
            "{}/{} transcripts",
            at.transcripts_done, at.transcripts
        ));
    })?;
    bar.finish_and_clear();
    if args.json {
        return super::print_json(&done);
    }
    outln!(
        "imported {}: {} new bytes read, {} stored in {}",
        render::count(done.transcripts, "transcript"),
        done.bytes_read,
        render::count(done.records, "record"),
        home.db_path().display()
    )?;
    if done.left_alone > 0 {
        outln!(
            "  left alone: {} of projects with capture off",
            render::count(done.left_alone, "transcript")
        )?;
    }
    for p in &done.problems {
        outln!("  skipped: {p}")?;
    }
    Ok(())
}
