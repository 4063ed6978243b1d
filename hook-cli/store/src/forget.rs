//! Forgetting part of the memory: what a [`Scope`] covers ([`Store::forget_preview`]) and
//! removing it ([`Store::forget`]): its turns in every layer, their search index entries, the
//! injections that carried their text, and the bytes those rows held in the file
//! (docs/decisions/0045).
//!
//! Removal runs in short transactions, each followed by a pause in which a waiting hook takes
//! the lock, as bulk writers do (docs/decisions/0029). A scope is a condition on rows, not a
//! list taken up front, so a forget that stops halfway (killed, out of time) is finished by
//! running it again, and what it already removed stays removed.

use std::time::{Duration, Instant};

use rusqlite::{types::Value, Connection};
use serde::Serialize;

use super::{Result, Store, HOLD_LOCK_FOR};

/// What to forget. Sessions and turns are named as the CLI names them (a session id or a
/// unique prefix, a turn code or a unique prefix); a project is a folder as sessions record it
/// (its git root); a time is stored-format text (RFC 3339, UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Turn(String),
    Session(String),
    Project(String),
    /// Every turn that started before this time, and every session last active before it.
    Before(String),
    /// These sessions (store row ids): what a size limit drops, oldest first; their turns
    /// from `kept_from` on when the age limit goes first (nothing older is left to count).
    Sessions {
        ids: Vec<i64>,
        kept_from: Option<String>,
    },
}

/// What a scope covers (before [`Store::forget`]) or covered (after).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// Sessions that go as a whole (their row, usage, links and handoffs with them).
    pub sessions: u64,
    /// Turns that go, those of whole sessions included, counted as a session's listing counts
    /// them: its preamble is no turn, though its entries go with it.
    pub turns: u64,
    /// L2 entries and L3 entries.
    pub messages: u64,
    pub details: u64,
    /// Bytes of stored text (L2 and L3) that go.
    pub text_bytes: u64,
    /// Entries of the injection log that held some of this text or were made into a
    /// forgotten session.
    pub injections: u64,
    /// Projects the scope reaches into.
    pub projects: Vec<String>,
    /// When the first and the last of those turns started.
    pub earliest: Option<String>,
    pub latest: Option<String>,
}

impl Preview {
    pub fn is_empty(&self) -> bool {
        self.turns == 0
            && self.sessions == 0
            && self.injections == 0
            && self.messages == 0
            && self.details == 0
    }
}

/// What [`Store::forget`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Forgotten {
    /// What was removed.
    pub removed: Preview,
    /// Whether the write-ahead log, which may still hold copies of removed pages, was emptied.
    /// A reader holding an old snapshot (the app, a search) keeps it until the next forget or
    /// the next time a writer empties it.
    pub wal_emptied: bool,
}

/// A scope as conditions on rows: which turns (`t` is `turns`) and which whole sessions (`s`
/// is `sessions`) it covers, with the one parameter both use.
struct Conditions {
    turns: String,
    sessions: String,
    param: Value,
}

/// Turns removed per transaction at most; each transaction also ends after [`HOLD_LOCK_FOR`].
const TURNS_PER_TRANSACTION: i64 = 64;

/// How often emptying the WAL is tried when a reader is in the way, and how long apart.
const WAL_TRIES: u32 = 20;
const WAL_RETRY: Duration = Duration::from_millis(50);

impl Store {
    fn conditions(&self, scope: &Scope) -> Result<Conditions> {
        let (turns, sessions, param): (&str, &str, Value) = match scope {
            // A turn never takes its session along (`?1` is there for the statements' sake).
            Scope::Turn(code) => (
                "t.id = ?1",
                "0 AND ?1",
                Value::Integer(self.find_turn(code)?.0),
            ),
            Scope::Session(id) => (
                "t.session = ?1",
                "s.id = ?1",
                Value::Integer(self.session(id)?.id),
            ),
            Scope::Project(project) => (
                "t.session IN (SELECT id FROM sessions WHERE project = ?1)",
                "s.project = ?1",
                Value::Text(project.clone()),
            ),
            Scope::Before(at) => (
                "(t.started_at < ?1 OR t.session IN (SELECT id FROM sessions
                    WHERE coalesce(last_activity, started_at) < ?1))",
                "coalesce(s.last_activity, s.started_at) < ?1",
                Value::Text(at.clone()),
            ),
            Scope::Sessions { ids, kept_from } => (
                "t.session IN (SELECT value FROM json_each(?1, '$.ids'))
                 AND NOT coalesce(t.started_at < json_extract(?1, '$.kept_from'), 0)",
                "s.id IN (SELECT value FROM json_each(?1, '$.ids'))",
                Value::Text(serde_json::json!({ "ids": ids, "kept_from": kept_from }).to_string()),
            ),
        };
        Ok(Conditions {
            turns: turns.into(),
            sessions: sessions.into(),
            param,
        })
    }

    /// What forgetting `scope` would remove. A read: safe beside hooks, on a read-only store.
    pub fn forget_preview(&self, scope: &Scope) -> Result<Preview> {
        let c = self.conditions(scope)?;
        preview(&self.conn, &c)
    }

    /// Forgets `scope`: removes its turns with their L2, L3 and L1, their search index entries
    /// and the injections that held their text; sessions that go as a whole take their row,
    /// usage, links, handoffs and the injections made into them. Their transcripts' cursors
    /// stay (without the turn they pointed at), so a hook does not read those lines back
    /// in. Deleted content is overwritten in the file (`secure_delete`, on for every writer,
    /// and FTS5's own secure-delete, set by the schema; a store written before is rewritten
    /// once) and the WAL is emptied when no reader holds it.
    pub fn forget(&mut self, scope: &Scope) -> Result<Forgotten> {
        let c = self.conditions(scope)?;
        let removed = preview(&self.conn, &c)?;
        self.forget_in_steps(&c)?;
        if !removed.is_empty() {
            self.wipe_old_free_space()?;
        }
        let wal_emptied = self.empty_wal()?;
        Ok(Forgotten {
            removed,
            wal_emptied,
        })
    }

    fn forget_in_steps(&mut self, c: &Conditions) -> Result<()> {
        // A memory's part waiting for a first prompt holds text of any turn and lives
        // only until that prompt: every forget drops it.
        self.conn.execute("DELETE FROM waiting_parts", [])?;
        // Injections first: they are found through the codes of turns still stored.
        self.in_steps(|tx| {
            let sql = format!(
                "DELETE FROM injections WHERE id IN (SELECT i.id FROM injections i
                 WHERE {} LIMIT {TURNS_PER_TRANSACTION})",
                injection_condition(c)
            );
            Ok(tx.execute(&sql, [&c.param])? > 0)
        })?;
        let select = format!(
            "SELECT t.id FROM turns t WHERE {} ORDER BY t.id LIMIT {TURNS_PER_TRANSACTION}",
            c.turns
        );
        self.in_steps(|tx| {
            let turns: Vec<i64> = tx
                .prepare(&select)?
                .query_map([&c.param], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let began = Instant::now();
            for turn in &turns {
                remove_turn(tx, *turn)?;
                if began.elapsed() >= HOLD_LOCK_FOR {
                    break;
                }
            }
            super::search::index_after_removal(tx)?;
            Ok(!turns.is_empty())
        })?;
        // What is left of whole sessions: the rows that point at them, then the sessions.
        let sessions = format!("SELECT s.id FROM sessions s WHERE {}", c.sessions);
        self.in_steps(|tx| {
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS forgotten_sessions (id INTEGER PRIMARY KEY);
                 DELETE FROM forgotten_sessions;",
            )?;
            tx.execute(
                &format!("INSERT INTO forgotten_sessions {sessions}"),
                [&c.param],
            )?;
            tx.execute_batch(
                "DELETE FROM api_calls WHERE session IN forgotten_sessions;
                 DELETE FROM injections WHERE session IN forgotten_sessions;
                 DELETE FROM handoffs WHERE session IN forgotten_sessions;
                 UPDATE handoffs SET taken_by = NULL WHERE taken_by IN forgotten_sessions;
                 DELETE FROM links WHERE successor IN forgotten_sessions
                                      OR predecessor IN forgotten_sessions;
                 DELETE FROM pending_clears WHERE session IN forgotten_sessions;
                 -- Held lines are transcript text: they go; the offset stays.
                 UPDATE cursors SET turn = NULL, line_order = NULL
                 WHERE session IN forgotten_sessions;
                 DELETE FROM sessions WHERE id IN forgotten_sessions;
                 DROP TABLE forgotten_sessions;",
            )?;
            Ok(false)
        })
    }

    /// Runs `step` in transactions of its own until it returns false, letting a waiting hook
    /// take the lock after each.
    pub(super) fn in_steps(
        &mut self,
        mut step: impl FnMut(&rusqlite::Transaction) -> Result<bool>,
    ) -> Result<()> {
        loop {
            let tx = rusqlite::Transaction::new_unchecked(
                &self.conn,
                rusqlite::TransactionBehavior::Immediate,
            )?;
            let more = step(&tx)?;
            tx.commit()?;
            self.waiters.let_go_first();
            if !more {
                return Ok(());
            }
        }
    }

    /// Rewrites the file once (`VACUUM`) when it was written before every writer zeroed what
    /// it deleted: its free space may still hold copies of anything stored then. Holds the
    /// write lock for the whole rewrite, so it is done once per store, not per forget.
    fn wipe_old_free_space(&self) -> Result<()> {
        let unwiped: bool = self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM unwiped_free_space)",
            [],
            |r| r.get(0),
        )?;
        if unwiped {
            self.conn
                .execute_batch("VACUUM; DELETE FROM unwiped_free_space;")?;
        }
        Ok(())
    }

    /// Copies the WAL into the database and truncates it, trying again for a while when a
    /// reader holds it; never waits on a lock a hook needs. True once it is empty.
    pub(super) fn empty_wal(&self) -> Result<bool> {
        for attempt in 0..WAL_TRIES {
            if attempt > 0 {
                std::thread::sleep(WAL_RETRY);
            }
            super::checkpoint_as(&self.conn, super::EMPTY_WAL)?;
            if self.wal_bytes() == 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Injections that held text of a covered turn (given verbatim or as a one-liner), or were
/// made into a session that goes as a whole. `i` is `injections`.
fn injection_condition(c: &Conditions) -> String {
    let turns = &c.turns;
    let sessions = &c.sessions;
    format!(
        "(i.session IN (SELECT s.id FROM sessions s WHERE {sessions})
          OR EXISTS (SELECT 1 FROM json_each(i.verbatim) j JOIN turns t ON t.code = j.value
                     WHERE {turns})
          OR EXISTS (SELECT 1 FROM json_each(i.one_liners) j JOIN turns t ON t.code = j.value
                     WHERE {turns}))"
    )
}

fn preview(conn: &Connection, c: &Conditions) -> Result<Preview> {
    let turns = &c.turns;
    let covered = format!("SELECT t.id FROM turns t WHERE {turns}");
    let one = |sql: &str| -> Result<(u64, u64)> {
        Ok(conn.query_row(sql, [&c.param], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
        })?)
    };
    let (messages, message_bytes) = one(&format!(
        "SELECT count(*), coalesce(sum(octet_length(text)), 0) FROM messages
         WHERE turn IN ({covered})"
    ))?;
    let (details, detail_bytes) = one(&format!(
        "SELECT count(*), coalesce(sum(octet_length(body)), 0) FROM details
         WHERE turn IN ({covered})"
    ))?;
    let (sessions, injections) = one(&format!(
        "SELECT (SELECT count(*) FROM sessions s WHERE {}),
                (SELECT count(*) FROM injections i WHERE {})",
        c.sessions,
        injection_condition(c)
    ))?;
    let (count, earliest, latest): (i64, Option<String>, Option<String>) = conn.query_row(
        &format!(
            "SELECT count(*) FILTER (WHERE {}), min(t.started_at), max(t.started_at)
             FROM turns t WHERE {turns}",
            prompted_turn!()
        ),
        [&c.param],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let projects = conn
        .prepare(&format!(
            "SELECT DISTINCT project FROM sessions WHERE project IS NOT NULL
               AND (id IN (SELECT t.session FROM turns t WHERE {turns})
                    OR id IN (SELECT s.id FROM sessions s WHERE {}))
             ORDER BY project",
            c.sessions
        ))?
        .query_map([&c.param], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Preview {
        sessions,
        turns: count as u64,
        messages,
        details,
        text_bytes: message_bytes + detail_bytes,
        injections,
        projects,
        earliest,
        latest,
    })
}

/// Removes one turn with everything it holds, its index entries first (an external-content
/// index cannot find them once the rows are gone). Its usage stays, detached: tokens were
/// spent. Shared by forgetting and by a host's rollback.
pub(super) fn remove_turn(tx: &rusqlite::Transaction, turn: i64) -> Result<()> {
    super::search::unindex_turn(tx, turn)?;
    tx.execute_batch(&format!(
        "DELETE FROM summaries WHERE turn = {turn};
         DELETE FROM model_summaries WHERE turn = {turn};
         DELETE FROM messages WHERE turn = {turn};
         DELETE FROM details WHERE turn = {turn};
         UPDATE api_calls SET turn = NULL WHERE turn = {turn};
         UPDATE cursors SET turn = NULL WHERE turn = {turn};
         DELETE FROM turns WHERE id = {turn};"
    ))?;
    Ok(())
}

/// Sessions of a store, oldest activity first, with the bytes of text each holds: what a size
/// limit drops first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSize {
    pub id: i64,
    pub last_activity: Option<String>,
    pub text_bytes: u64,
}

impl Store {
    /// Every session with the bytes of text it holds, least recently active first. With
    /// `kept_from`, as the age limit leaves them: sessions last active before it are left out,
    /// and only turns from it on (or of no known time) count.
    pub fn sessions_by_age(&self, kept_from: Option<&str>) -> Result<Vec<SessionSize>> {
        let mut stmt = self.conn.prepare(
            "WITH kept AS (SELECT id, session FROM turns
                            WHERE NOT coalesce(started_at < ?1, 0))
             SELECT s.id, coalesce(s.last_activity, s.started_at),
                    coalesce((SELECT sum(octet_length(text)) FROM messages
                              WHERE turn IN (SELECT id FROM kept WHERE session = s.id)), 0)
                  + coalesce((SELECT sum(octet_length(body)) FROM details
                              WHERE turn IN (SELECT id FROM kept WHERE session = s.id)), 0)
             FROM sessions s
             WHERE NOT coalesce(coalesce(s.last_activity, s.started_at) < ?1, 0)
             ORDER BY coalesce(s.last_activity, s.started_at) IS NOT NULL,
                      coalesce(s.last_activity, s.started_at), s.id",
        )?;
        let rows = stmt.query_map([kept_from], |r| {
            Ok(SessionSize {
                id: r.get(0)?,
                last_activity: r.get(1)?,
                text_bytes: r.get::<_, i64>(2)? as u64,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Whether the store can be written (forget needs it).
    pub fn is_writable(&self) -> bool {
        self.writable
    }
}

#[cfg(test)]
mod tests;
