//! Capture: bring a session's memory up to date, from a hook event or from a transcript found
//! on disk. Both paths share the same code, so live capture and `import` store the same memory.

use std::path::Path;

use crate::clock;
use crate::hosts::{self, EventKind, HookEvent};
use crate::ingest::{self, IngestError, Report};
use crate::model::{Host, Session};
use crate::store::{SessionRow, Store, Writer};

/// Records what the event says about the session, then reads what its transcript gained;
/// while capture is `paused`, passes over it instead (see [`ingest::skip`]).
pub fn capture_event(
    store: &mut Store,
    host: Host,
    event: &HookEvent,
    paused: bool,
) -> Result<(SessionRow, Report), IngestError> {
    let w = store.write()?;
    let mut session = w.session(
        host,
        &event.session_id,
        event.cwd.as_deref(),
        event.transcript_path.as_deref(),
    )?;
    match event.kind {
        EventKind::SessionStart => w.session_started(
            session.id,
            event.source.as_deref(),
            event.model.as_deref(),
            &clock::now(),
        )?,
        EventKind::SessionEnd => {
            w.session_ended(session.id, event.reason.as_deref(), &clock::now())?
        }
        _ => {}
    }
    let report = match &event.transcript_path {
        Some(path) if paused => {
            ingest::skip(&w, &session, Path::new(path))?;
            Report::default()
        }
        Some(path) => ingest::ingest(
            &w,
            &mut session,
            Path::new(path),
            hosts::line_parser(host).as_mut(),
        )?,
        None => Report::default(),
    };
    if event.kind == EventKind::SessionEnd {
        w.summarize_unsummarized(session.id)?;
    }
    w.commit()?;
    Ok((session, report))
}

/// Reads what a stored session's transcript gained since its last hook call.
pub fn catch_up(store: &mut Store, session: &Session) -> Result<Report, IngestError> {
    match &session.transcript_path {
        Some(path) => capture_transcript(store, session.host, &session.session_id, Path::new(path)),
        None => Ok(Report::default()),
    }
}

/// Reads a transcript into the session it belongs to, in a transaction of its own.
pub fn capture_transcript(
    store: &mut Store,
    host: Host,
    session_id: &str,
    path: &Path,
) -> Result<Report, IngestError> {
    let w = store.write()?;
    let report = ingest_transcript(&w, host, session_id, path)?;
    w.commit()?;
    Ok(report)
}

/// Reads a transcript into the session it belongs to, within the caller's transaction
/// (`import` puts many small transcripts in one).
pub fn ingest_transcript(
    w: &Writer,
    host: Host,
    session_id: &str,
    path: &Path,
) -> Result<Report, IngestError> {
    let shown = path.to_string_lossy();
    let mut session = w.session(host, session_id, None, Some(&shown))?;
    let report = ingest::ingest(w, &mut session, path, hosts::line_parser(host).as_mut())?;
    w.summarize_unsummarized(session.id)?;
    Ok(report)
}

/// The working directory a transcript was recorded in, from its first lines (for `import`,
/// which has no hook payload to say it).
pub fn transcript_cwd(host: Host, path: &Path) -> Option<String> {
    use std::io::BufRead;
    const LINES: usize = 50;
    let file = std::fs::File::open(path).ok()?;
    let mut parser = hosts::line_parser(host);
    let mut records = Vec::new();
    for line in std::io::BufReader::new(file).lines().take(LINES) {
        records.clear();
        if parser.parse_line(&line.ok()?, &mut records).is_err() {
            continue;
        }
        let cwd = records.iter().find_map(|r| match r {
            ingest::Record::Meta { cwd } => cwd.clone(),
            _ => None,
        });
        if cwd.is_some() {
            return cwd;
        }
    }
    None
}
