//! A session's context over its requests, for the picture of where its tokens went: each
//! main-chain API call's context, with the moments the client compacted it, and the handoff or
//! `/clear` that ended it.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use throughline_core::model::Session;

use super::read::{session_from, SESSION_COLUMNS};
use super::{Result, Store};

/// Points drawn at most: a long session's calls are taken in runs, each run's largest.
pub const MAX_POINTS: usize = 400;

/// One request (or a run of them) and the context it occupied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextPoint {
    /// The turn the request belongs to, when known.
    pub turn: Option<String>,
    pub at: Option<String>,
    pub tokens: u64,
}

/// What happened to a session's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkKind {
    /// The client compacted it; the memory came back.
    Compact,
    /// The session was handed to a new chat.
    Handoff,
    /// The person ran `/clear`: the session ended and a new one started in its window.
    Clear,
}

/// Something that happened to the context between two points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextMark {
    pub kind: MarkKind,
    pub at: String,
    /// The first point at or after it; the number of points when it came after the last.
    pub before_point: usize,
}

impl Store {
    /// The context of each main-chain request of `session`, oldest first, at most
    /// [`MAX_POINTS`], and what happened in between.
    pub fn context_history(
        &self,
        session: &Session,
    ) -> Result<(Vec<ContextPoint>, Vec<ContextMark>)> {
        let mut calls = self.conn.prepare_cached(
            "SELECT t.code, a.at, a.input + a.cache_creation + a.cache_read
             FROM api_calls a LEFT JOIN turns t ON t.id = a.turn
             WHERE a.session = ?1 AND a.sidechain = 0 ORDER BY a.id",
        )?;
        let all = calls
            .query_map([session.id], |r| {
                Ok(ContextPoint {
                    turn: r.get(0)?,
                    at: r.get(1)?,
                    tokens: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let points = in_runs(all);

        // A /clear is known by the session it started (linked at that SessionStart), or, when
        // none was linked, by the SessionEnd that said so (a resume since clears `end_reason`).
        let mut events = self.conn.prepare_cached(
            "SELECT 'compact', at FROM injections WHERE session = ?1 AND trigger = 'compact'
             UNION ALL
             SELECT 'handoff', created_at FROM handoffs WHERE session = ?1 AND taken_by IS NOT NULL
             UNION ALL
             SELECT 'clear', at FROM links WHERE predecessor = ?1 AND trigger = 'clear'
             UNION ALL
             SELECT 'clear', s.ended_at FROM sessions s
             WHERE s.id = ?1 AND s.end_reason = 'clear' AND s.ended_at IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM links l WHERE l.predecessor = ?1
                               AND l.trigger = 'clear' AND l.at >= s.ended_at)
             ORDER BY 2",
        )?;
        let marks = events
            .query_map(params![session.id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?
            .into_iter()
            .map(|(kind, at)| ContextMark {
                kind: match kind.as_str() {
                    "compact" => MarkKind::Compact,
                    "handoff" => MarkKind::Handoff,
                    _ => MarkKind::Clear,
                },
                before_point: points
                    .iter()
                    .position(|p| p.at.as_deref().is_some_and(|t| t >= at.as_str()))
                    .unwrap_or(points.len()),
                at,
            })
            .collect();
        Ok((points, marks))
    }
}

/// `points` as at most [`MAX_POINTS`]: consecutive runs, each the largest of its run (the
/// peaks are what a reader looks for), with its first turn and its last time.
fn in_runs(points: Vec<ContextPoint>) -> Vec<ContextPoint> {
    if points.len() <= MAX_POINTS {
        return points;
    }
    let run = points.len().div_ceil(MAX_POINTS);
    points
        .chunks(run)
        .map(|chunk| ContextPoint {
            turn: chunk.iter().find_map(|p| p.turn.clone()),
            at: chunk.iter().rev().find_map(|p| p.at.clone()),
            tokens: chunk.iter().map(|p| p.tokens).max().unwrap_or(0),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_session_is_drawn_in_runs_that_keep_their_peaks() {
        let points: Vec<ContextPoint> = (0..1000u64)
            .map(|n| ContextPoint {
                turn: Some(format!("t{n}")),
                at: Some(format!(
                    "2026-12-02T10:{:02}:{:02}.000Z",
                    n / 60 % 60,
                    n % 60
                )),
                tokens: if n == 517 { 900_000 } else { n * 10 },
            })
            .collect();
        let runs = in_runs(points);
        assert!(runs.len() <= MAX_POINTS, "{}", runs.len());
        assert_eq!(runs.iter().map(|p| p.tokens).max(), Some(900_000));
        assert_eq!(runs[0].turn.as_deref(), Some("t0"));
        let few = vec![ContextPoint {
            turn: None,
            at: None,
            tokens: 5,
        }];
        assert_eq!(in_runs(few.clone()), few);
    }
}

/// What one session's requests since a moment took, by kind of token.
#[derive(Debug, Clone)]
pub struct UsageSince {
    pub session: Session,
    /// The model of these requests (a session's requests come one row per model).
    pub model: Option<String>,
    pub input: u64,
    pub cache_creation: u64,
    pub cache_read: u64,
    pub output: u64,
}

impl Store {
    /// The tokens each session of `host` took in its requests at or after `since` (stored
    /// time), subagents' requests included, one row per session and model. Sessions are found by their last activity (an
    /// index), then their requests by session, so an old store costs no more than a new one.
    pub fn usage_since(&self, host: &str, since: &str) -> Result<Vec<UsageSince>> {
        // The session's columns, then the sums: the first 17 columns are `session_from`'s.
        let sql = format!(
            "SELECT {SESSION_COLUMNS}, sum(a.input), sum(a.cache_creation), sum(a.cache_read),
                    sum(a.output), a.model
             FROM sessions s JOIN api_calls a ON a.session = s.id
             WHERE s.last_activity >= ?2 AND s.host = ?1 AND a.at >= ?2
             GROUP BY s.id, a.model"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let used = stmt.query_map(params![host, since], |r| {
            Ok(UsageSince {
                session: session_from(r)?,
                input: r.get(17)?,
                cache_creation: r.get(18)?,
                cache_read: r.get(19)?,
                output: r.get(20)?,
                model: r.get(21)?,
            })
        })?;
        Ok(used.collect::<rusqlite::Result<_>>()?)
    }
}

/// A memory handed to a session, and the context of the requests around it.
#[derive(Debug, Clone)]
pub struct Handed {
    pub session_id: String,
    pub project: Option<String>,
    /// `clear`, `handoff` or `compact`.
    pub trigger: String,
    pub at: String,
    /// The memory's tokens, estimated from its text (all its parts).
    pub injected_tokens: u64,
    /// The context of the last main-chain request before it: the predecessor's, or for a
    /// compaction the session's own.
    pub before: Option<u64>,
    /// The context of each main-chain request of the session from it on, oldest first.
    pub after: Vec<u64>,
}

impl Store {
    /// Every memory handed on at or after `since` (stored time), oldest first. The parts of
    /// one memory (after `/clear` it can come in two) count as one.
    pub fn memories_handed(&self, since: &str) -> Result<Vec<Handed>> {
        let mut injections = self.conn.prepare_cached(
            "SELECT i.session, i.trigger, min(i.at), group_concat(i.text, ''),
                    s.session_id, s.project, l.predecessor
             FROM injections i JOIN sessions s ON s.id = i.session
             LEFT JOIN links l ON l.successor = i.session AND i.trigger <> 'compact'
             WHERE i.at >= ?1
             GROUP BY i.session, i.trigger, CASE i.trigger WHEN 'compact' THEN i.id END
             ORDER BY min(i.at)",
        )?;
        type Row = (
            i64,
            String,
            String,
            String,
            String,
            Option<String>,
            Option<i64>,
        );
        let rows: Vec<Row> = injections
            .query_map([since], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        // A new session's requests all follow its memory, and its predecessor's all came
        // before; only a compaction splits one session's requests, by their time. (?2 NULL:
        // every request.)
        let mut before = self.conn.prepare_cached(
            "SELECT input + cache_creation + cache_read FROM api_calls
             WHERE session = ?1 AND sidechain = 0 AND (?2 IS NULL OR at < ?2)
             ORDER BY id DESC LIMIT 1",
        )?;
        let mut after = self.conn.prepare_cached(
            "SELECT input + cache_creation + cache_read FROM api_calls
             WHERE session = ?1 AND sidechain = 0 AND (?2 IS NULL OR at >= ?2) ORDER BY id",
        )?;
        let mut handed = Vec::with_capacity(rows.len());
        for (session, trigger, at, text, session_id, project, predecessor) in rows {
            let (previous, split) = match trigger.as_str() {
                "compact" => (Some(session), Some(at.as_str())),
                _ => (predecessor, None),
            };
            let before = match previous {
                Some(previous) => before
                    .query_row(params![previous, split], |r| r.get(0))
                    .optional()?,
                None => None,
            };
            let after = after
                .query_map(params![session, split], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            handed.push(Handed {
                session_id,
                project,
                trigger,
                at,
                injected_tokens: throughline_core::model::estimated_tokens(&text),
                before,
                after,
            });
        }
        Ok(handed)
    }
}
