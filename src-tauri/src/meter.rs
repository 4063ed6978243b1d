//! The token meter: the library's live gauges (`throughline_engine::gauge`, shared with
//! `throughline monitor`), with what the window and the tray need around them.

use std::time::Duration;

use serde::Serialize;

use throughline_engine::clock;
use throughline_engine::config;
use throughline_engine::gauge;
use throughline_engine::home::Home;
use throughline_engine::plan::{self, PlanUsage};
use throughline_engine::store::{Store, StoreError};
use throughline_engine::window_use::{self, ProjectUse};

pub use throughline_engine::gauge::{Gauge as SessionMeter, Level};

/// How long a read waits for a lock another program holds: the window and the tray must stay
/// responsive, and the next pass tries again.
const READ_WAIT: Duration = Duration::from_millis(200);

/// What the app knows right now: the live sessions, or a problem in words a person can act on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Snapshot {
    pub sessions: Vec<SessionMeter>,
    pub problem: Option<String>,
    /// Nothing has been recorded yet (no store): a first run, not a problem.
    pub first_run: bool,
    /// Capture is paused: hooks store nothing until it resumes.
    pub paused: bool,
    /// The plan limits Claude Code reported last, for subscribers.
    pub plan: Option<PlanUsage>,
    /// Percent of a plan window at which the person is warned (0: never).
    pub plan_warn_percent: u32,
    /// The client's own compaction is stopped where a hook can (decision 0095).
    pub fresh_instead_of_compact: bool,
}

impl Snapshot {
    /// The session closest to compaction: the tray icon shows this one.
    pub fn busiest(&self) -> Option<&SessionMeter> {
        gauge::busiest(&self.sessions)
    }
}

/// Opens the store read-only for the window, waiting at most [`READ_WAIT`] for a lock.
pub fn open(home: &Home) -> Result<Store, StoreError> {
    Store::open_read_only_waiting(home, READ_WAIT)
}

/// Reads the live sessions as of `now` (a stored timestamp) from an open store, against
/// Claude Code's auto-compact threshold as the person's settings hold it.
pub fn read(store: &Store, now: &str) -> Result<Vec<SessionMeter>, StoreError> {
    gauge::read(store, now, gauge::claude_threshold())
}

/// Opens the store read-only and takes a snapshot; never creates or writes anything.
pub fn snapshot(home: &Home) -> Snapshot {
    Snapshot {
        plan: plan::load(home),
        ..sessions(home)
    }
}

fn sessions(home: &Home) -> Snapshot {
    let config = config::load(home).config;
    let settled = Snapshot {
        paused: config.pause_capture,
        plan_warn_percent: config.plan_warn_percent,
        fresh_instead_of_compact: config.fresh_instead_of_compact,
        ..Snapshot::default()
    };
    match open(home).and_then(|store| read(&store, &clock::now())) {
        Ok(sessions) => Snapshot {
            sessions,
            ..settled
        },
        Err(StoreError::Missing(_)) => Snapshot {
            first_run: true,
            ..settled
        },
        Err(err) => Snapshot {
            problem: Some(explain(&err)),
            ..settled
        },
    }
}

/// Which projects used the plan's current five-hour window, largest first; none before the
/// client reported one, after it reset, or before the store exists.
pub fn window_use(home: &Home) -> Result<Vec<ProjectUse>, String> {
    let now = clock::unix_now();
    let Some(resets_at) = plan::load(home)
        .and_then(|p| p.five_hour)
        .and_then(|w| w.resets_at)
        .filter(|&at| at > now)
    else {
        return Ok(Vec::new());
    };
    let starts_at = resets_at.saturating_sub(plan::history::FIVE_HOURS);
    match open(home).and_then(|store| window_use::since(&store, starts_at)) {
        Ok(used) => Ok(used),
        Err(StoreError::Missing(_)) => Ok(Vec::new()),
        Err(err) => Err(explain(&err)),
    }
}

/// Store errors in words for the window: what happened and what to do next, as one or more
/// sentences that end with their own full stop.
pub fn explain(err: &StoreError) -> String {
    match err {
        StoreError::Missing(path) => format!(
            "No memory yet: nothing has been recorded at {}. Sessions are recorded as they run \
             once Throughline is installed (Installer); Import past sessions reads the ones \
             already on disk.",
            path.display()
        ),
        StoreError::NotFound(what) | StoreError::Declined(what) => sentence(what),
        StoreError::TooNew { .. } => format!(
            "{}. Install the matching Throughline app.",
            sentence_body(&err.to_string())
        ),
        e if e.is_busy() => "The memory store is locked by another program (an import, a \
             backup, an sqlite3 shell). Throughline tries again in a few seconds; if this stays, \
             close that program."
            .to_string(),
        e if e.is_damaged() => format!(
            "The memory store is damaged ({}). Move it aside and rebuild it from the \
             transcripts: `throughline doctor` gives the exact commands.",
            sentence_body(&e.to_string())
        ),
        other => format!(
            "Cannot read the memory store: {}. `throughline doctor` says what is wrong and how \
             to fix it.",
            sentence_body(&other.to_string())
        ),
    }
}

/// `text` without the full stop it may end with, to go inside another sentence.
fn sentence_body(text: &str) -> &str {
    text.trim_end().trim_end_matches('.')
}

/// `text` as a sentence: capitalised, ending with one full stop.
fn sentence(text: &str) -> String {
    let body = sentence_body(text);
    let mut chars = body.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_end_with_one_full_stop() {
        assert_eq!(
            sentence("no session \"x\"; look."),
            "No session \"x\"; look."
        );
        assert_eq!(sentence_body("damaged."), "damaged");
    }
}
