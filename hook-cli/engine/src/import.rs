//! Backfill: every transcript already on disk into the store, through the same capture as a
//! live hook, with progress for `throughline import` and the tray app's *Import past sessions*.

use std::path::PathBuf;

use serde::Serialize;

use crate::capture;
use crate::config::{self, Capture};
use crate::home::Home;
use crate::hosts;
use crate::model::Host;
use crate::store::StoreError;

#[derive(Debug, Clone, Serialize, Default)]
pub struct Imported {
    pub transcripts: u64,
    /// Transcripts of projects with capture off (`config --capture-off`), not read.
    pub left_alone: u64,
    pub bytes_read: u64,
    pub records: u64,
    pub problems: Vec<String>,
}

/// How far an import is: sent before each transcript and once at the end.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Progress {
    pub transcripts_done: u64,
    pub transcripts: u64,
    pub bytes_done: u64,
    pub bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot list {host} transcripts in {folder}: {source}")]
    List {
        host: &'static str,
        folder: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Ingest(#[from] crate::ingest::IngestError),
}

/// Reads every transcript of `host` under `from` (else the host's own folder) into the store
/// in `home`, and indexes it for search unless `index` is false.
pub fn import(
    home: &Home,
    host: Host,
    from: Option<PathBuf>,
    index: bool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Imported, ImportError> {
    let agent = hosts::agent(host);
    let found = agent
        .find_transcripts(from.clone())
        .map_err(|source| ImportError::List {
            host: agent.spec().name,
            folder: from
                .or_else(|| agent.transcripts_dir())
                .map_or_else(|| "the home folder".into(), |p| p.display().to_string()),
            source,
        })?;
    let config = config::load(home).config;
    // Only a project with capture off makes it worth opening each transcript first.
    let (found, left_alone): (Vec<_>, Vec<_>) = found.into_iter().partition(|t| {
        config.capture_off.is_empty() || {
            let cwd = capture::transcript_cwd(host, &t.path);
            config.capture_in(cwd.as_deref()) != Capture::Off
        }
    });
    let mut store = crate::open_store(home)?;
    let mut at = Progress {
        transcripts_done: 0,
        transcripts: found.len() as u64,
        bytes_done: 0,
        bytes: found.iter().map(|t| t.bytes).sum(),
    };
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
        progress(at);
        let report = capture::ingest_transcript(&w, host, &t.session_id, &t.path)?;
        done.transcripts += 1;
        done.bytes_read += report.bytes;
        done.records += report.records;
        done.problems.extend(report.problems);
        at.transcripts_done += 1;
        at.bytes_done += t.bytes;
    }
    w.commit()?;
    progress(at);
    // A secret first found here may be in any session stored before: no hook runs for an
    // import to start the look for it, so the import does it (decision 0150).
    if store.secrets_waiting()? > 0 {
        store.scrub_secrets()?;
    }
    // Index in bulk now, so the first search does not pay for the whole backfill.
    if index {
        store.index_pending()?;
    }
    store.checkpoint()?;
    Ok(done)
}
