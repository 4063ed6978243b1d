//! The live gauges: each live session's context use, measured against the part of its window
//! the person can use before the client compacts. One computation for the tray app and
//! `throughline monitor`.

use std::path::PathBuf;

use serde::Serialize;

use crate::clock;
use crate::hosts::claude::install::autocompact;
use crate::hosts::{self, CompactRule, CompactionPoint};
use crate::install::Scope;
use crate::model::{short_tokens, Session};
use crate::render;
use crate::store::{ContextMark, ContextPoint, Result, Store, LIVE_WINDOW};
use crate::tail;

/// How close a session is to compaction, as a share of its usable window: the gauge's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Calm,
    Filling,
    Full,
}

impl Level {
    /// `percent` is of the usable window: amber from 70%, red from 90% (the threshold close).
    pub fn of(percent: u8) -> Level {
        match percent {
            0..=69 => Level::Calm,
            70..=89 => Level::Filling,
            _ => Level::Full,
        }
    }
}

/// One live session's gauge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gauge {
    pub session_id: String,
    /// The agent the session runs in (`Claude Code`, `Codex`).
    pub host: &'static str,
    /// The project folder (git root or working directory), when known.
    pub project: Option<String>,
    /// The session's first prompt, cut to a line: which chat this is.
    pub title: Option<String>,
    pub model: Option<String>,
    /// Tokens of context the latest request occupied; 0 before the first answer and right
    /// after a compaction.
    pub used: u64,
    pub window: u64,
    /// The part of the window in use before the client compacts: `window` times the
    /// person's auto-compact threshold, or where the client compacts by itself without one.
    pub usable: u64,
    /// Where `usable` ends, as a whole percent of the window; `None` when it is the window's
    /// end.
    pub compact_at: Option<u8>,
    /// What puts the end of `usable` there.
    pub compacts_by: CompactRule,
    /// `used/usable` as people say it, e.g. `52k/140k`; `not reported` when `measured` is
    /// false.
    pub usage: String,
    /// Whether the host reports token counts: when it does not (Cursor, Grok), `used` and
    /// `percent` are 0 because nothing is known, not because the context is empty.
    pub measured: bool,
    /// `used` as a whole percent of `usable` (capped at 100): 100 is where compaction starts.
    pub percent: u8,
    pub level: Level,
    /// Turns held in memory.
    pub turns: u64,
    pub started_at: Option<String>,
    pub last_activity: Option<String>,
    /// Whether a hook of its host can stop the client's own compaction (Claude Code, Codex):
    /// with `fresh_instead_of_compact` on, Throughline does (decisions 0095, 0190).
    pub stops_compaction: bool,
    /// When this session's memory waits for the next new chat of its project: until then.
    pub handoff_until: Option<String>,
    /// The transcript the host writes: watched, so the gauge moves as soon as it grows.
    #[serde(skip)]
    pub transcript: Option<PathBuf>,
}

/// Claude Code's auto-compact threshold from the person's user settings, when set.
pub fn claude_threshold() -> Option<f64> {
    autocompact(&Scope::User).ok().and_then(|a| a.percent)
}

/// The live sessions as of `now` (a stored timestamp), newest started first, so a card
/// keeps its place while its session writes. `compact_at` is Claude Code's auto-compact
/// threshold (Codex compacts by its own rule: its whole window counts).
pub fn read(store: &Store, now: &str, compact_at: Option<f64>) -> Result<Vec<Gauge>> {
    let since = clock::before(now, LIVE_WINDOW).unwrap_or_default();
    let mut sessions = store.live_sessions(&since)?;
    sessions.sort_by(|a, b| (&b.started_at, b.id).cmp(&(&a.started_at, a.id)));
    sessions
        .into_iter()
        .map(|session| gauge(store, session, now, compact_at))
        .collect()
}

fn gauge(store: &Store, mut session: Session, now: &str, compact_at: Option<f64>) -> Result<Gauge> {
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
        Some(path) => tail::latest_usage(path, hosts::line_parser(session.host, path).as_mut()),
        None => None,
    };
    let latest = match latest {
        Some(found) => {
            // The first answer of a session comes before the hook that stores its release.
            if session.client_version.is_none() {
                session.client_version = found.client_version;
            }
            Some((found.usage, found.model))
        }
        None => store.context_usage(&session)?,
    };
    let (used, model) = match latest {
        Some((usage, model)) => (usage.context(), model.or(session.model.clone())),
        None => (0, session.model.clone()),
    };
    let window = hosts::session_window(&session, model.as_deref(), used);
    // The setting is Claude Code's: the other hosts' compaction points leave it aside.
    let threshold = threshold_percent(compact_at);
    let agent = hosts::agent(session.host);
    let CompactionPoint {
        tokens: usable,
        rule: compacts_by,
    } = agent.compaction_point(window, threshold, session.client_version.as_deref());
    let compact_at = match compacts_by {
        CompactRule::Window => None,
        CompactRule::Threshold => threshold,
        CompactRule::Client => Some(((usable * 100 + window / 2) / window.max(1)) as u8),
    };
    let measured = agent.spec().reports_usage;
    let percent = ((used * 100 + usable / 2) / usable).min(100) as u8;
    let usage = if measured {
        format!("{}/{}", short_tokens(used), short_tokens(usable))
    } else {
        "not reported".to_string()
    };
    let title = store.first_prompt(&session)?.map(|p| render::title(&p));
    Ok(Gauge {
        usage,
        measured,
        percent,
        level: Level::of(percent),
        session_id: session.session_id,
        host: hosts::label(session.host),
        project: session.project,
        title,
        model,
        used,
        window,
        usable,
        compact_at,
        compacts_by,
        turns: session.turns,
        stops_compaction: hosts::can_stop_compaction(session.host),
        started_at: session.started_at,
        last_activity: session.last_activity,
        handoff_until,
        transcript,
    })
}

/// A stored session's context over its requests, and where its client compacts it.
#[derive(Debug, Clone, Serialize)]
pub struct ContextHistory {
    pub points: Vec<ContextPoint>,
    pub marks: Vec<ContextMark>,
    /// Whether the host records token counts at all (no points otherwise).
    pub measured: bool,
    /// The session's context window, in tokens.
    pub window: u64,
    /// Where the client compacts: the threshold, or its own point with none set.
    pub compacts_at: u64,
    pub compacts_by: CompactRule,
}

/// `session`'s context over its requests, measured against its window as the gauges do;
/// `compact_at` is Claude Code's auto-compact threshold, as for [`read`].
pub fn history(
    store: &Store,
    session: &Session,
    compact_at: Option<f64>,
) -> Result<ContextHistory> {
    let (points, marks) = store.context_history(session)?;
    let peak = points.iter().map(|p| p.tokens).max().unwrap_or(0);
    let window = hosts::session_window(session, session.model.as_deref(), peak);
    let threshold = threshold_percent(compact_at);
    let agent = hosts::agent(session.host);
    let point = agent.compaction_point(window, threshold, session.client_version.as_deref());
    Ok(ContextHistory {
        points,
        marks,
        measured: agent.spec().reports_usage,
        window,
        compacts_at: point.tokens,
        compacts_by: point.rule,
    })
}

/// Claude Code's threshold as a whole percent, when it is one the client accepts.
fn threshold_percent(compact_at: Option<f64>) -> Option<u8> {
    compact_at
        .filter(|p| (1.0..=100.0).contains(p))
        .map(|p| p.round() as u8)
}

/// The session closest to compaction, of those whose use is known.
pub fn busiest(gauges: &[Gauge]) -> Option<&Gauge> {
    gauges
        .iter()
        .filter(|g| g.measured)
        .max_by_key(|g| (g.percent, g.used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_shares_of_the_usable_window() {
        assert_eq!(Level::of(10), Level::Calm);
        assert_eq!(Level::of(75), Level::Filling);
        assert_eq!(Level::of(95), Level::Full);
    }

    #[test]
    fn the_usable_window_ends_at_the_threshold_or_where_the_client_compacts_by_itself() {
        let claude = hosts::agent(crate::hosts::claude::HOST);
        let point = |window, threshold| {
            let p = claude.compaction_point(window, threshold, Some("2.1.333"));
            (p.tokens, p.rule)
        };
        assert_eq!(point(200_000, Some(70)), (140_000, CompactRule::Threshold));
        assert_eq!(point(0, Some(50)), (1, CompactRule::Threshold));
        // No threshold: Claude Code compacts 33k before the end (83.5% of 200k), not at it.
        assert_eq!(point(200_000, None), (167_000, CompactRule::Client));
        assert_eq!(point(1_000_000, None), (967_000, CompactRule::Client));
        // Since 2.1.334, a 1M session 33k before a window of 400k.
        let newer = claude.compaction_point(1_000_000, None, Some("2.1.334"));
        assert_eq!((newer.tokens, newer.rule), (367_000, CompactRule::Client));
        let set = claude.compaction_point(1_000_000, Some(30), Some("2.1.334"));
        assert_eq!((set.tokens, set.rule), (300_000, CompactRule::Threshold));
        // Codex compacts by a rule of its own that the gauge does not model.
        let codex = hosts::agent(crate::hosts::codex::HOST).compaction_point(272_000, None, None);
        assert_eq!((codex.tokens, codex.rule), (272_000, CompactRule::Window));
    }

    fn gauge(id: &str, percent: u8, measured: bool) -> Gauge {
        Gauge {
            session_id: id.into(),
            host: "Claude Code",
            project: None,
            title: None,
            model: None,
            used: u64::from(percent) * 2_000,
            window: 200_000,
            usable: 200_000,
            compact_at: None,
            compacts_by: CompactRule::Window,
            usage: String::new(),
            measured,
            percent,
            level: Level::of(percent),
            turns: 1,
            started_at: None,
            last_activity: None,
            handoff_until: None,
            stops_compaction: true,
            transcript: None,
        }
    }

    #[test]
    fn a_gauge_that_measures_nothing_is_never_the_busiest() {
        let gauges = [
            gauge("a", 30, true),
            gauge("grok", 0, false),
            gauge("b", 60, true),
        ];
        assert_eq!(busiest(&gauges).unwrap().session_id, "b");
        assert!(busiest(&[gauge("grok", 0, false)]).is_none());
    }
}
