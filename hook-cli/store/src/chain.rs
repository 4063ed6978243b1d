//! SQL for what links sessions: `/clear` pairs, handoffs, the injection log and the cached
//! one-line summaries. Rows of the captured sessions are never moved or rewritten.

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::{Result, Store, Writer};
use throughline_core::model::{Session, Turn};

/// How a session came to receive another's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Trigger {
    /// `/clear`: the host ended one session and started the next in the same window.
    Clear,
    /// `/tl` or the app's button: the next new session of the project takes over.
    Handoff,
    /// The host compacted the session; its own recent turns come back verbatim.
    Compact,
}

impl Trigger {
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::Clear => "clear",
            Trigger::Handoff => "handoff",
            Trigger::Compact => "compact",
        }
    }

    fn parse(s: &str) -> Trigger {
        match s {
            "clear" => Trigger::Clear,
            "handoff" => Trigger::Handoff,
            _ => Trigger::Compact,
        }
    }
}

/// A handoff waiting for (or taken by) the next new session of its project.
#[derive(Debug, Clone, Serialize)]
pub struct Handoff {
    pub session_id: String,
    pub project: String,
    pub created_at: String,
    pub expires_at: String,
}

/// A memory's second part waiting for a session's first prompt.
#[derive(Debug, Clone)]
pub struct WaitingPart {
    /// None when the memory came whole in its first part.
    pub part: Option<Injection>,
    /// The first part, when a handoff gave it at the start of a session that had not taken
    /// the handoff yet: logged, and the handoff taken, only once the session prompts.
    pub unconfirmed_first: Option<Injection>,
}

/// One row of the injection log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Injection {
    pub id: i64,
    pub session_id: String,
    pub project: Option<String>,
    pub trigger: Trigger,
    pub at: String,
    /// Host session ids of the predecessors, nearest first.
    pub chain: Vec<String>,
    pub budget: u32,
    /// UTF-16 code units, as the host counts.
    pub size: u32,
    /// Turn codes given verbatim, and as one-liners.
    pub verbatim: Vec<String>,
    pub one_liners: Vec<String>,
    /// Who wrote each one-liner: `local`, or a model's `backend:model` (docs/decisions/0055).
    pub one_liners_by: Vec<String>,
    /// Older turns of the chain that did not fit.
    pub left_out: u32,
    pub text: String,
    /// The memory's second part, for the first prompt's hook (docs/decisions/0076); not
    /// logged with this injection, but as one of its own when it is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

/// Which injections to list.
#[derive(Debug, Clone, Default)]
pub struct InjectionFilter {
    pub project: Option<String>,
    pub session_id: Option<String>,
    pub limit: Option<u32>,
}

impl Writer<'_> {
    /// Records that `/clear` of `session` may be asked for under `key`: a prompt id
    /// (`prompt:<id>`) or a host process (`proc:<pid>:<start>`, refreshed at every
    /// SessionStart in that process).
    pub fn record_clear(&self, key: &str, session: i64, at: &str) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO pending_clears (key, session, at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![key, session, at])?;
        Ok(())
    }

    /// The session a `/clear` with this key ended, consumed.
    pub fn take_clear(&self, key: &str) -> Result<Option<i64>> {
        let found = self
            .tx
            .prepare_cached("DELETE FROM pending_clears WHERE key = ?1 RETURNING session")?
            .query_row([key], |r| r.get(0))
            .optional()?;
        Ok(found)
    }

    /// Drops every name a `/clear` of `session` was recorded under, once it is taken.
    pub fn forget_clears(&self, session: i64) -> Result<()> {
        self.tx
            .prepare_cached("DELETE FROM pending_clears WHERE session = ?1")?
            .execute([session])?;
        Ok(())
    }

    /// Drops the records of host processes not heard from since `before`.
    pub fn forget_clears_before(&self, before: &str) -> Result<()> {
        self.tx
            .prepare_cached("DELETE FROM pending_clears WHERE at < ?1")?
            .execute([before])?;
        Ok(())
    }

    /// Links `successor` to its predecessor; a session keeps its first link.
    pub fn link(
        &self,
        successor: i64,
        predecessor: i64,
        trigger: Trigger,
        at: &str,
    ) -> Result<bool> {
        if successor == predecessor {
            return Ok(false);
        }
        let n = self
            .tx
            .prepare_cached(
                "INSERT OR IGNORE INTO links (successor, predecessor, trigger, at)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![successor, predecessor, trigger.as_str(), at])?;
        Ok(n == 1)
    }

    /// A session that has neither a predecessor nor a turn yet can take a handoff.
    pub fn is_fresh(&self, session_id: &str) -> Result<bool> {
        fresh(&self.tx, session_id, 0)
    }

    /// [`Writer::is_fresh`], but for a session that may hold its first turn already (on hosts
    /// that write the prompt before its hook runs).
    pub fn is_in_first_turn(&self, session_id: &str) -> Result<bool> {
        fresh(&self.tx, session_id, 1)
    }

    /// Offers `session`'s memory to the next new session of its project, replacing any
    /// earlier open offer there.
    pub fn offer_handoff(&self, session: i64, at: &str, expires_at: &str) -> Result<Handoff> {
        let (session_id, project): (String, Option<String>) = self
            .tx
            .prepare_cached("SELECT session_id, project FROM sessions WHERE id = ?1")?
            .query_row([session], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let project = project.unwrap_or_default();
        self.close_handoffs(&project, at, "replaced")?;
        self.tx
            .prepare_cached(
                "INSERT INTO handoffs (session, project, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![session, project, at, expires_at])?;
        Ok(Handoff {
            session_id,
            project,
            created_at: at.to_string(),
            expires_at: expires_at.to_string(),
        })
    }

    /// Closes the project's open handoffs; how many there were.
    pub fn close_handoffs(&self, project: &str, at: &str, how: &str) -> Result<usize> {
        Ok(self
            .tx
            .prepare_cached(
                "UPDATE handoffs SET closed_at = ?2, closed_how = ?3
                 WHERE project = ?1 AND closed_at IS NULL",
            )?
            .execute(params![project, at, how])?)
    }

    /// Takes the project's open, unexpired handoff for `successor`: its predecessor.
    pub fn take_handoff(&self, project: &str, successor: i64, now: &str) -> Result<Option<i64>> {
        let found: Option<(i64, i64)> = self
            .tx
            .prepare_cached(
                "SELECT id, session FROM handoffs
                 WHERE project = ?1 AND closed_at IS NULL AND expires_at > ?3 AND session != ?2
                 ORDER BY created_at DESC LIMIT 1",
            )?
            .query_row(params![project, successor, now], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        self.close_taken(found, successor, now)
    }

    /// Keeps the memory's second part (`injection.more`, of `size`) for the session's first
    /// prompt. `unconfirmed`: the first part was given at the start of a session that has not
    /// taken the handoff yet (decision 0144), so it waits too, second part or not, to be
    /// logged only once the session prompts.
    pub fn wait_with_part(
        &self,
        session: i64,
        injection: &Injection,
        size: u32,
        unconfirmed: bool,
    ) -> Result<()> {
        let text = match &injection.more {
            Some(text) => text.as_str(),
            None if unconfirmed => "",
            None => return Ok(()),
        };
        let chain = serde_json::to_string(&injection.chain).expect("strings serialise");
        let first = unconfirmed.then(|| {
            let first = Injection {
                more: None,
                ..injection.clone()
            };
            serde_json::to_string(&first).expect("an injection serialises")
        });
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO waiting_parts
                    (session, trigger, chain, budget, size, text, unconfirmed_first)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                session,
                injection.trigger.as_str(),
                chain,
                injection.budget,
                size,
                text,
                first
            ])?;
        Ok(())
    }

    /// The part waiting for `session`'s first prompt, taken, as an injection made `at`.
    pub fn take_waiting_part(&self, session: i64, at: &str) -> Result<Option<WaitingPart>> {
        let part = self
            .tx
            .prepare_cached(
                "DELETE FROM waiting_parts WHERE session = ?1
                 RETURNING trigger, chain, budget, size, text, unconfirmed_first",
            )?
            .query_row([session], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, u32>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            })
            .optional()?;
        Ok(
            part.map(|(trigger, chain, budget, size, text, first)| WaitingPart {
                part: (!text.is_empty()).then(|| Injection {
                    id: 0,
                    session_id: String::new(),
                    project: None,
                    trigger: Trigger::parse(&trigger),
                    at: at.to_string(),
                    chain: serde_json::from_str(&chain).unwrap_or_default(),
                    budget,
                    size,
                    verbatim: Vec::new(),
                    one_liners: Vec::new(),
                    one_liners_by: Vec::new(),
                    left_out: 0,
                    text,
                    more: None,
                }),
                // Written by this code above; a row it cannot read gives no first part to log.
                unconfirmed_first: first.and_then(|json| serde_json::from_str(&json).ok()),
            }),
        )
    }

    /// Takes `project`'s open handoff of `predecessor` for `successor`, expired or not: the
    /// successor was given its first part while it was open (decision 0144).
    pub fn take_handoff_of(
        &self,
        project: &str,
        predecessor: &str,
        successor: i64,
        now: &str,
    ) -> Result<Option<i64>> {
        let found: Option<(i64, i64)> = self
            .tx
            .prepare_cached(
                "SELECT h.id, h.session FROM handoffs h JOIN sessions s ON s.id = h.session
                 WHERE h.project = ?1 AND h.closed_at IS NULL AND s.session_id = ?2
                 ORDER BY h.created_at DESC LIMIT 1",
            )?
            .query_row(params![project, predecessor], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        self.close_taken(found, successor, now)
    }

    /// Closes the handoff `found` (its id and predecessor) as taken by `successor`: its
    /// predecessor.
    fn close_taken(
        &self,
        found: Option<(i64, i64)>,
        successor: i64,
        now: &str,
    ) -> Result<Option<i64>> {
        let Some((id, predecessor)) = found else {
            return Ok(None);
        };
        self.tx
            .prepare_cached(
                "UPDATE handoffs SET taken_by = ?2, closed_at = ?3, closed_how = 'taken' WHERE id = ?1",
            )?
            .execute(params![id, successor, now])?;
        Ok(Some(predecessor))
    }

    pub fn record_injection(&self, session: i64, injection: &Injection) -> Result<()> {
        let json = |v: &Vec<String>| serde_json::to_string(v).expect("strings serialise");
        self.tx
            .prepare_cached(
                "INSERT INTO injections (session, trigger, at, chain, budget, size, verbatim,
                    one_liners, left_out, text, one_liners_by)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                session,
                injection.trigger.as_str(),
                injection.at,
                json(&injection.chain),
                injection.budget,
                injection.size,
                json(&injection.verbatim),
                json(&injection.one_liners),
                injection.left_out,
                injection.text,
                json(&injection.one_liners_by)
            ])?;
        Ok(())
    }
}

/// Whether a session is unlinked and holds at most `turns` turns with a prompt.
fn fresh(conn: &rusqlite::Connection, session_id: &str, turns: u32) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT NOT (EXISTS (SELECT 1 FROM links WHERE successor = s.id)
                      OR EXISTS (SELECT 1 FROM turns WHERE session = s.id AND seq > ?2))
             FROM sessions s WHERE s.session_id = ?1",
        )?
        .query_row(params![session_id, turns], |r| r.get::<_, bool>(0))
        .optional()?
        .unwrap_or(false))
}

/// Predecessors are followed at most this deep (a chain of /clears in one long day).
pub(super) const MAX_CHAIN: usize = 32;

impl Store {
    /// [`Writer::is_fresh`] without taking the write lock: most prompts are not a session's first.
    pub fn is_fresh(&self, session_id: &str) -> Result<bool> {
        fresh(&self.conn, session_id, 0)
    }

    /// [`Writer::is_in_first_turn`] without taking the write lock.
    pub fn is_in_first_turn(&self, session_id: &str) -> Result<bool> {
        fresh(&self.conn, session_id, 1)
    }

    /// Whether a session started by `/clear` still waits for the memory of the one it cleared:
    /// it is linked, has no prompt yet and was given nothing. For hosts that take the memory
    /// with the first prompt rather than at SessionStart.
    pub fn awaits_clear_memory(&self, session_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM links WHERE successor = s.id AND trigger = 'clear')
                    AND NOT EXISTS (SELECT 1 FROM turns WHERE session = s.id AND seq > 0)
                    AND NOT EXISTS (SELECT 1 FROM injections WHERE session = s.id)
                 FROM sessions s WHERE s.session_id = ?1",
            )?
            .query_row([session_id], |r| r.get::<_, bool>(0))
            .optional()?
            .unwrap_or(false))
    }

    /// How a session was linked to its predecessor, when it was given nothing yet: for hosts
    /// that take the memory when the first turn ends, whatever was stored of it.
    pub fn awaits_memory(&self, session_id: &str) -> Result<Option<Trigger>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT l.trigger FROM sessions s JOIN links l ON l.successor = s.id
                 WHERE s.session_id = ?1
                   AND NOT EXISTS (SELECT 1 FROM injections WHERE session = s.id)",
            )?
            .query_row([session_id], |r| r.get::<_, String>(0))
            .optional()?
            .map(|t| Trigger::parse(&t)))
    }

    /// `session`'s predecessors, nearest first.
    pub fn predecessors(&self, session: &Session) -> Result<Vec<(Session, Trigger)>> {
        let mut chain: Vec<(Session, Trigger)> = Vec::new();
        let mut current = session.id;
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.session_id, l.trigger FROM links l JOIN sessions s ON s.id = l.predecessor
             WHERE l.successor = ?1",
        )?;
        while chain.len() < MAX_CHAIN {
            let Some((id, trigger)) = stmt
                .query_row([current], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })
                .optional()?
            else {
                break;
            };
            let previous = self.session(&id)?;
            if previous.id == session.id || chain.iter().any(|(s, _)| s.id == previous.id) {
                break;
            }
            current = previous.id;
            chain.push((previous, Trigger::parse(&trigger)));
        }
        Ok(chain)
    }

    /// The newest `limit` turns (with a prompt) of these sessions, newest first. Only the
    /// newest `detailed` carry their L3 line (`detail_summary`, empty on the others): a memory
    /// shows it for the turns it gives verbatim, and reading it for every turn cost more than
    /// the rest of the rendering.
    pub fn recent_turns(
        &self,
        sessions: &[&Session],
        limit: u32,
        detailed: usize,
    ) -> Result<Vec<Turn>> {
        let mut out = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, code, seq, started_at FROM turns
             WHERE session = ?1 AND seq > 0 ORDER BY seq DESC LIMIT ?2",
        )?;
        for session in sessions {
            let left = (limit as usize).saturating_sub(out.len());
            if left == 0 {
                break;
            }
            let rows: Vec<(i64, String, u32, Option<String>)> = stmt
                .query_map(params![session.id, left as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            for (id, code, seq, started_at) in rows {
                let detail_summary = if out.len() < detailed {
                    self.detail_summary(id)?
                } else {
                    String::new()
                };
                out.push(Turn {
                    code,
                    session_id: session.session_id.clone(),
                    seq,
                    started_at,
                    messages: self.turn_messages(id)?,
                    detail_summary,
                });
            }
        }
        Ok(out)
    }

    /// The first `n` prompts of `session`, in order, with their turn codes: where the person
    /// says what the work is for.
    pub fn opening_prompts(&self, session: &Session, n: u32) -> Result<Vec<(String, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT t.code, (SELECT m.text FROM messages m
                              WHERE m.turn = t.id AND m.role = 'user' ORDER BY m.id LIMIT 1)
             FROM turns t WHERE t.session = ?1 AND t.seq > 0 ORDER BY t.seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![session.id, n], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            if let (code, Some(text)) = row? {
                out.push((code, text));
            }
        }
        Ok(out)
    }

    /// Turns with a prompt in these sessions.
    pub fn count_turns(&self, sessions: &[&Session]) -> Result<u64> {
        Ok(sessions.iter().map(|s| s.turns).sum())
    }

    /// Whether the second part of a memory waits for this session's first prompt: asked at
    /// every prompt, so one indexed look-up.
    pub fn has_waiting_part(&self, session_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM waiting_parts w JOIN sessions s ON s.id = w.session
                                WHERE s.session_id = ?1)",
            )?
            .query_row([session_id], |r| r.get(0))?)
    }

    /// Whether a handoff not its own waits in the project of `session_id`: asked at every
    /// session's start on a host that passes that start's context on, so one indexed look-up.
    pub fn handoff_waits_for(&self, session_id: &str, now: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM sessions s JOIN handoffs h ON h.project = s.project
                                WHERE s.session_id = ?1 AND h.closed_at IS NULL
                                  AND h.expires_at > ?2 AND h.session != s.id)",
            )?
            .query_row(params![session_id, now], |r| r.get(0))?)
    }

    /// Whether the client's compaction of this session was stopped and the person not told
    /// yet: asked at every turn's end when stopping is on, so one indexed look-up.
    pub fn compaction_stopped(&self, session_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM sessions
                                WHERE session_id = ?1 AND compaction_stopped_at IS NOT NULL)",
            )?
            .query_row([session_id], |r| r.get(0))?)
    }

    /// The project's open, unexpired handoff.
    pub fn open_handoff(&self, project: &str, now: &str) -> Result<Option<Handoff>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT s.session_id, h.project, h.created_at, h.expires_at
                 FROM handoffs h JOIN sessions s ON s.id = h.session
                 WHERE h.project = ?1 AND h.closed_at IS NULL AND h.expires_at > ?2
                 ORDER BY h.created_at DESC LIMIT 1",
            )?
            .query_row(params![project, now], |r| {
                Ok(Handoff {
                    session_id: r.get(0)?,
                    project: r.get(1)?,
                    created_at: r.get(2)?,
                    expires_at: r.get(3)?,
                })
            })
            .optional()?)
    }

    /// The injection log, newest first.
    pub fn injections(&self, filter: &InjectionFilter) -> Result<Vec<Injection>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT i.id, s.session_id, s.project, i.trigger, i.at, i.chain, i.budget, i.size,
                    i.verbatim, i.one_liners, i.left_out, i.text, i.one_liners_by
             FROM injections i JOIN sessions s ON s.id = i.session
             WHERE (?1 IS NULL OR s.project = ?1) AND (?2 IS NULL OR s.session_id = ?2)
             ORDER BY i.id DESC LIMIT ?3",
        )?;
        let list = |text: String| serde_json::from_str::<Vec<String>>(&text).unwrap_or_default();
        let rows = stmt.query_map(
            params![
                filter.project,
                filter.session_id,
                filter.limit.map(i64::from).unwrap_or(-1)
            ],
            |r| {
                let one_liners = list(r.get(9)?);
                let one_liners_len = one_liners.len();
                Ok(Injection {
                    id: r.get(0)?,
                    session_id: r.get(1)?,
                    project: r.get(2)?,
                    trigger: Trigger::parse(&r.get::<_, String>(3)?),
                    at: r.get(4)?,
                    chain: list(r.get(5)?),
                    budget: r.get(6)?,
                    size: r.get(7)?,
                    verbatim: list(r.get(8)?),
                    one_liners,
                    left_out: r.get(10)?,
                    text: r.get(11)?,
                    // Logged before models wrote lines: every line was local.
                    one_liners_by: match r.get::<_, Option<String>>(12)? {
                        Some(by) => list(by),
                        None => vec![throughline_core::summary::LOCAL.to_string(); one_liners_len],
                    },
                    more: None,
                })
            },
        )?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
