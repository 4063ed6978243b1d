//! The token meter: each live session's context use against its model's window, read from the
//! shared store through the library (the app holds no SQL of its own).

use serde::Serialize;
use std::path::PathBuf;

use throughline::clock;
use throughline::config;
use throughline::home::Home;
use throughline::hosts;
use throughline::model::{short_tokens, Session};
use throughline::store::{Store, StoreError, LIVE_WINDOW};
use throughline::tail;

/// How close a session is to auto-compaction: the colour of its gauge in the tray and window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Calm,
    Filling,
    Full,
}

impl Level {
    pub fn of(percent: u8) -> Level {
        match percent {
            0..=59 => Level::Calm,
            60..=79 => Level::Filling,
            _ => Level::Full,
        }
    }
}

/// One live session as the tray and the Sessions view show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionMeter {
    pub session_id: String,
    /// The agent the session runs in (`Claude Code`, `Codex`).
    pub host: &'static str,
    /// The project folder (git root or working directory), when known.
    pub project: Option<String>,
    pub model: Option<String>,
    /// Tokens of context the latest request occupied; 0 before the first answer.
    pub used: u64,
    pub window: u64,
    /// `used/window` as people say it, e.g. `52k/200k`.
    pub usage: String,
    /// `used` as a whole percent of `window`.
    pub percent: u8,
    pub level: Level,
    /// Turns held in memory.
    pub turns: u64,
    pub last_activity: Option<String>,
    /// When this session's memory waits for the next new chat of its project: until then.
    pub handoff_until: Option<String>,
    /// The transcript the host writes: watched, so the gauge moves as soon as it grows.
    #[serde(skip)]
    pub transcript: Option<PathBuf>,
}

/// What the app knows right now: the live sessions, or a problem in words a person can act on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Snapshot {
    pub sessions: Vec<SessionMeter>,
    pub problem: Option<String>,
    /// Capture is paused: hooks store nothing until it resumes.
    pub paused: bool,
}

impl Snapshot {
    /// The session closest to auto-compaction: the tray icon shows this one.
    pub fn busiest(&self) -> Option<&SessionMeter> {
        self.sessions.iter().max_by_key(|s| (s.percent, s.used))
    }
}

/// Reads the live sessions as of `now` (a stored timestamp) from an open store.
pub fn read(store: &Store, now: &str) -> Result<Vec<SessionMeter>, StoreError> {
    let since = clock::before(now, LIVE_WINDOW).unwrap_or_default();
    store
        .live_sessions(&since)?
        .into_iter()
        .map(|session| meter(store, session, now))
        .collect()
}

fn meter(store: &Store, session: Session, now: &str) -> Result<SessionMeter, StoreError> {
    let handoff_until = match &session.project {
        Some(project) => store
            .open_handoff(project, now)?
            .filter(|h| h.session_id == session.session_id)
            .map(|h| h.expires_at),
        None => None,
    };
    // The transcript's own tail is ahead of the store until the next hook reads it.
    let transcript = session.transcript_path.as_ref().map(PathBuf::from);
    let latest = match &transcript {
        Some(path) => tail::latest_usage(path, hosts::line_parser(session.host).as_mut()),
        None => None,
    };
    let latest = match latest {
        Some(found) => Some(found),
        None => store.context_usage(&session)?,
    };
    let (used, model) = match latest {
        Some((usage, model)) => (usage.context(), model.or(session.model.clone())),
        None => (0, session.model.clone()),
    };
    let window = session.window(model.as_deref(), used);
    let percent = ((used * 100 + window / 2) / window).min(100) as u8;
    Ok(SessionMeter {
        usage: format!("{}/{}", short_tokens(used), short_tokens(window)),
        percent,
        level: Level::of(percent),
        session_id: session.session_id,
        host: session.host.label(),
        project: session.project,
        model,
        used,
        window,
        turns: session.turns,
        last_activity: session.last_activity,
        handoff_until,
        transcript,
    })
}

/// Opens the store read-only and takes a snapshot; never creates or writes anything.
pub fn snapshot(home: &Home) -> Snapshot {
    let paused = config::load(home).config.pause_capture;
    match Store::open_read_only(home).and_then(|store| read(&store, &clock::now())) {
        Ok(sessions) => Snapshot {
            sessions,
            problem: None,
            paused,
        },
        Err(err) => Snapshot {
            sessions: Vec::new(),
            problem: Some(explain(&err)),
            paused,
        },
    }
}

/// Store errors in words for the window: what happened and what to do next.
pub fn explain(err: &StoreError) -> String {
    match err {
        StoreError::Missing(path) => format!(
            "No memory yet: nothing has been recorded at {}. Throughline's hooks record \
             sessions as they run; `throughline import` reads the transcripts already on disk.",
            path.display()
        ),
        StoreError::NotFound(what) => what.clone(),
        StoreError::TooNew { .. } => format!("{err}. Install the matching Throughline app."),
        other => format!(
            "Cannot read the memory store: {other}. `throughline status` shows where it is \
             and recent problems."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_warn_as_compaction_nears() {
        assert_eq!(Level::of(10), Level::Calm);
        assert_eq!(Level::of(65), Level::Filling);
        assert_eq!(Level::of(92), Level::Full);
    }
}
