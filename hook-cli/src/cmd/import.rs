//! `throughline import`: backfill every transcript already on disk.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use throughline::capture;
use throughline::config::{self, Capture};
use throughline::home::Home;
use throughline::hosts;
use throughline::model::Host;
use throughline::store::{self, Store};

#[derive(clap::Args)]
pub struct Args {
    /// Which agent's transcripts: claude, codex or gemini
    #[arg(long, default_value = "claude")]
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

#[derive(Serialize, Default)]
struct Imported {
    transcripts: u64,
    /// Transcripts of projects with capture off (`config --capture-off`), not read.
    left_alone: u64,
    bytes_read: u64,
    records: u64,
    problems: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let host = Host::parse(&args.host).ok_or_else(|| {
        anyhow::anyhow!("unknown host {:?}; known: claude, codex, gemini", args.host)
    })?;
    let agent = hosts::agent(host);
    let found = agent.find_transcripts(args.from.clone()).map_err(|e| {
        let folder = args.from.clone().or_else(|| agent.transcripts_dir());
        anyhow::anyhow!(
            "cannot list {} transcripts in {}: {e}",
            agent.name(),
            folder.map_or_else(|| "the home folder".into(), |p| p.display().to_string())
        )
    })?;
    let home = Home::locate()?;
    let config = config::load(&home).config;
    // Only a project with capture off makes it worth opening each transcript first.
    let (found, left_alone): (Vec<_>, Vec<_>) = found.into_iter().partition(|t| {
        config.capture_off.is_empty() || {
            let cwd = capture::transcript_cwd(host, &t.path);
            config.capture_in(cwd.as_deref()) != Capture::Off
        }
    });
    keep_freed_memory();
    // All of it is bulk work: hooks go first, for the CPU and for the lock.
    store::become_bulk();
    let mut store = Store::open(&home)?;
    let total: u64 = found.iter().map(|t| t.bytes).sum();
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
            .expect("valid template"),
    );
    let mut done = Imported {
        left_alone: left_alone.len() as u64,
        ..Imported::default()
    };
    // One writer for the whole backfill: it commits every 8 MiB of transcript
    // (`Writer::commit_due`), many small transcripts or part of a large one at a time, and
    // each commit is copied into the database while the next is written.
    store.copy_in_background()?;
    let w = store.write()?;
    for t in &found {
        bar.set_message(t.session_id.chars().take(8).collect::<String>());
        let report = capture::ingest_transcript(&w, host, &t.session_id, &t.path)?;
        done.transcripts += 1;
        done.bytes_read += report.bytes;
        done.records += report.records;
        done.problems.extend(report.problems);
        bar.inc(t.bytes);
    }
    w.commit()?;
    bar.finish_and_clear();
    // Index in bulk now, so the first search does not pay for the whole backfill.
    if !args.no_index {
        store.index_pending()?;
    }
    store.checkpoint()?;
    if args.json {
        return super::print_json(&done);
    }
    println!(
        "imported {} transcripts: {} new bytes read, {} records stored in {}",
        done.transcripts,
        done.bytes_read,
        done.records,
        store.path().display()
    );
    if done.left_alone > 0 {
        println!(
            "  left alone: {} transcripts of projects with capture off",
            done.left_alone
        );
    }
    for p in &done.problems {
        println!("  skipped: {p}");
    }
    Ok(())
}
