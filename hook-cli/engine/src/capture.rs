//! Capture: bring a session's memory up to date, from a hook event or from a transcript found
//! on disk. Both paths share the same code, so live capture and `import` store the same memory.

use std::path::{Path, PathBuf};

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
            let main = Path::new(path);
            ingest::skip(&w, &session, main)?;
            for subagent in subagents_of(host, event, main) {
                ingest::skip(&w, &session, &subagent)?;
            }
            Report::default()
        }
        Some(path) => {
            let main = Path::new(path);
            let mut report = ingest::ingest(
                &w,
                &mut session,
                main,
                hosts::line_parser(host, main).as_mut(),
            )?;
            for subagent in subagents_of(host, event, main) {
                read_subagent(&w, host, &mut session, main, &subagent, &mut report)?;
            }
            if let Some(answer) = &event.answer {
                record_answer(&w, &mut session, main, answer)?;
            }
            report
        }
        None => Report::default(),
    };
    if event.kind == EventKind::SessionEnd {
        w.summarize_unsummarized(session.id)?;
    }
    w.commit()?;
    Ok((session, report))
}

/// The turn's answer a Stop payload carries, into the turn open in the session's transcript:
/// stored there even if the host has not written it to the transcript yet, and once, since it
/// is keyed as the transcript's line is. With no turn read yet, nothing: an answer goes with
/// its prompt.
fn record_answer(
    w: &Writer,
    session: &mut SessionRow,
    main: &Path,
    answer: &ingest::Record,
) -> Result<(), IngestError> {
    let mut turn = w.cursor(&main.display().to_string())?.and_then(|c| c.turn);
    if turn.is_some() {
        w.apply(session, &mut turn, answer)?;
    }
    Ok(())
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
    // Where the path says it (Cursor's and Grok's folders); else the transcript's own lines do.
    let workspace = hosts::agent(host).workspace_of(path);
    let mut session = w.session(host, session_id, workspace.as_deref(), Some(&shown))?;
    let mut report = ingest::ingest(
        w,
        &mut session,
        path,
        hosts::line_parser(host, path).as_mut(),
    )?;
    for subagent in hosts::subagent_transcripts(host, path) {
        read_subagent(w, host, &mut session, path, &subagent, &mut report)?;
    }
    w.summarize_unsummarized(session.id)?;
    Ok(report)
}

/// The subagent transcripts an event gives cause to read: the one it names (the hook runs in
/// that subagent, it stopped, or its call returned), all of them when a subagent call
/// returned without naming one, and at SessionEnd, for what a subagent wrote after its last
/// hook.
fn subagents_of(host: Host, event: &HookEvent, main: &Path) -> Vec<PathBuf> {
    match &event.subagent {
        _ if event.kind == EventKind::SessionEnd => hosts::subagent_transcripts(host, main),
        Some(s) if s.agent_id.is_empty() => hosts::subagent_transcripts(host, main),
        Some(s) => hosts::subagent_transcript(host, main, s)
            .into_iter()
            .collect(),
        None => Vec::new(),
    }
}

/// Reads what a subagent transcript gained into the turn that started the subagent: the turn
/// holding the call its host names (decision 0025), else the turn open when it started, else
/// the turn open in the session's own transcript, where a subagent running now was started.
/// A subagent transcript that cannot be read becomes a problem of the report: the session's
/// own capture goes on.
fn read_subagent(
    w: &Writer,
    host: Host,
    session: &mut SessionRow,
    main: &Path,
    path: &Path,
    report: &mut Report,
) -> Result<(), IngestError> {
    let session_id = session.id;
    let mut first_turn = || -> Result<Option<i64>, IngestError> {
        if let Some(key) = hosts::spawning_call_key(host, path) {
            if let Some(turn) = w.turn_with_detail(session_id, &key)? {
                return Ok(Some(turn));
            }
        }
        if let Some(at) = hosts::spawned_at(host, path) {
            if let Some(turn) = w.turn_open_at(session_id, &at)? {
                return Ok(Some(turn));
            }
        }
        let main = main.display().to_string();
        Ok(w.cursor(&main)?.and_then(|c| c.turn))
    };
    let mut parser = hosts::line_parser(host, path);
    match ingest::ingest_subagent(w, session, path, parser.as_mut(), &mut first_turn) {
        Ok(read) => report.add(read),
        Err(e @ IngestError::Io { .. }) => report.problems.push(e.to_string()),
        Err(e) => return Err(e),
    }
    Ok(())
}

/// The working directory a transcript was recorded in, from its first lines (for `import`,
/// which has no hook payload to say it).
pub fn transcript_cwd(host: Host, path: &Path) -> Option<String> {
    use std::io::BufRead;
    if let Some(cwd) = hosts::agent(host).workspace_of(path) {
        return Some(cwd);
    }
    const LINES: usize = 50;
    let file = crate::regular_file::open(path).ok()?;
    let mut parser = hosts::line_parser(host, path);
    let mut records = Vec::new();
    for line in std::io::BufReader::new(file).lines().take(LINES) {
        records.clear();
        if parser.parse_line(&line.ok()?, &mut records).is_err() {
            continue;
        }
        let cwd = records.iter().find_map(|r| match r {
            ingest::Record::Meta { cwd, .. } => cwd.clone(),
            _ => None,
        });
        if cwd.is_some() {
            return cwd;
        }
    }
    None
}

#[cfg(test)]
mod tests;
