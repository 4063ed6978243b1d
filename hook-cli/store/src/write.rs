//! The write side: one transaction per hook call, committed on the way through a long
//! backlog (see [`Writer::commit_due`]).

use std::borrow::Cow;
use std::cell::{Cell, OnceCell, Ref, RefCell, RefMut};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rusqlite::{params, Connection, OptionalExtension, Statement, Transaction};
use xxhash_rust::xxh3::xxh3_64;

use super::stored_text::{count_redactions, TEXT_TABLES};
use super::{Checkpointer, Result, HOLD_LOCK_FOR};
use throughline_core::model::{DetailKind, Host, Message, Role};
use throughline_core::project;
use throughline_core::record::{Back, Record};
use throughline_core::redact::{self, Redactor};
use throughline_core::summary;

/// The part of a session row the writer needs while ingesting.
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub id: i64,
    pub host: Host,
    pub session_id: String,
    pub has_cwd: bool,
    /// The model stored on the session row: assistant lines repeat it, and most need no update.
    model: Option<String>,
    /// Cached `max(seq) + 1` of the session's turns, valid in the transaction it was read in
    /// (numbered by `TRANSACTIONS`): another writer may add turns between two.
    next_seq: Option<(u64, i64)>,
}

/// Where reading of one transcript stopped.
#[derive(Debug, Clone, Default)]
pub struct Cursor {
    pub offset: u64,
    /// `device:inode` of the file the offset belongs to.
    pub file_id: String,
    /// The turn still open at `offset` (the next non-prompt entry belongs to it).
    pub turn: Option<i64>,
    /// The ingest's line-ordering state at `offset` (JSON; see `ingest::order`).
    pub line_order: Option<String>,
    /// A hash of the bytes just before `offset` (see `ingest::tail_mark`); None from stores
    /// older than schema 19.
    pub tail_mark: Option<i64>,
}

pub struct Writer<'c> {
    /// Declared before `tx`: statements are finalized before the transaction ends.
    hot: Hot<'c>,
    pub(super) tx: Transaction<'c>,
    conn: &'c Connection,
    copier: Option<&'c Checkpointer>,
    /// The turn whose one-liner came with the records (see [`Record::Summary`]).
    summarized: Cell<Option<i64>>,
    /// The open turn in which a copy of an earlier entry was left out: the reader's one-liner
    /// counts the copy, so the turn is summarised from what was stored.
    copies_in: Cell<Option<i64>>,
    /// The start of the open turn, read once while it stays open.
    turn_start: RefCell<Option<TurnStart>>,
    /// Transcript bytes stored since the last commit (see [`Writer::commit_due`]).
    pub(super) pending: Cell<u64>,
    /// Which transaction of this process the writer is in (see [`SessionRow::next_seq`]).
    transaction: Cell<u64>,
    /// When the current transaction began (see [`Writer::commit_due`]).
    began: Cell<Instant>,
    /// Hooks waiting for the lock (see [`Writer::commit_due`]).
    waiters: &'c super::bulk::Waiters,
    redactor: &'c Redactor,
    /// The marks of the secrets found so far ([`redact::mark`]), read once when first needed.
    secret_marks: RefCell<Option<HashSet<i64>>>,
    /// The marks first remembered by this writer: what the session stored before may hold
    /// their secrets where no rule saw them (see [`Writer::redact_earlier`]).
    new_marks: RefCell<Vec<i64>>,
    /// The session those secrets were found in, redacted in its earlier text once per
    /// transaction (or when the writer moves on to another session).
    marks_session: Cell<Option<i64>>,
    /// Whether earlier rows lost a secret found late: the WAL's older frames still hold it
    /// until the WAL is emptied, which [`Writer::commit`] then does.
    rewrote_earlier: Cell<bool>,
}

/// Numbers the write transactions of this process.
static TRANSACTIONS: AtomicU64 = AtomicU64::new(0);

fn next_transaction() -> u64 {
    TRANSACTIONS.fetch_add(1, Ordering::Relaxed)
}

/// Transcript bytes stored per transaction before [`Writer::commit_due`]: enough to amortise a
/// commit, few enough that a long backlog (an import, a first hook on a long session) lets
/// other hooks write in between, within their busy timeout, and that the WAL is copied while
/// reading goes on.
pub(super) const COMMIT_EVERY: u64 = 8 << 20;

/// The statements run once per record, each prepared on first use and kept for the
/// transaction: finding them in the statement cache (hashing and re-keying the SQL) cost
/// more than some of the inserts themselves.
#[derive(Default)]
struct Hot<'c> {
    detail: OnceCell<RefCell<Statement<'c>>>,
    message: OnceCell<RefCell<Statement<'c>>>,
    message_stored: OnceCell<RefCell<Statement<'c>>>,
    api_call: OnceCell<RefCell<Statement<'c>>>,
}

/// When a turn started, as stored, and what follows from it for entries read while it is open.
struct TurnStart {
    turn: i64,
    at: Option<String>,
    /// Entries older than this may be copies (see [`Writer::may_be_copy`]).
    copies_before: Option<String>,
}

/// Turns keyed by this hold what came before the first prompt of a session.
const PREAMBLE_KEY: &str = "preamble";

impl<'c> Writer<'c> {
    pub(super) fn new(
        conn: &'c Connection,
        tx: Transaction<'c>,
        copier: Option<&'c Checkpointer>,
        waiters: &'c super::bulk::Waiters,
        redactor: &'c Redactor,
    ) -> Writer<'c> {
        Writer {
            hot: Hot::default(),
            tx,
            conn,
            copier,
            summarized: Default::default(),
            copies_in: Default::default(),
            turn_start: Default::default(),
            pending: Cell::new(0),
            transaction: Cell::new(next_transaction()),
            began: Cell::new(Instant::now()),
            waiters,
            redactor,
            secret_marks: RefCell::new(None),
            new_marks: RefCell::new(Vec::new()),
            marks_session: Cell::new(None),
            rewrote_earlier: Cell::new(false),
        }
    }

    /// `text` as it may be stored: secrets replaced by their placeholder, each one counted in
    /// the store (what `doctor` reports).
    fn redacted<'t>(&self, text: &'t str) -> Result<Cow<'t, str>> {
        let mut counts = redact::Counts::new();
        let out = self.scrubbed(text, &mut counts)?;
        self.count_redactions(counts)?;
        Ok(out)
    }

    /// `text` with every secret the rules find replaced, and every long secret found before
    /// anywhere in the store, where no rule would see it again (an answer repeating a key
    /// given in a prompt, decision 0108); each counted in `counts`. The marks of the secrets
    /// found are remembered.
    fn scrubbed<'t>(&self, text: &'t str, counts: &mut redact::Counts) -> Result<Cow<'t, str>> {
        let mut found = Vec::new();
        let out = self.redactor.redact_finding(text, counts, &mut found);
        let mut cell = self.secret_marks.borrow_mut();
        let marks = match &mut *cell {
            Some(marks) => marks,
            None => {
                let known = self
                    .tx
                    .prepare_cached("SELECT mark FROM secret_marks")?
                    .query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<HashSet<i64>>>()?;
                cell.insert(known)
            }
        };
        for mark in found.iter().filter_map(|secret| redact::mark(secret)) {
            if marks.insert(mark) {
                self.tx
                    .prepare_cached("INSERT OR IGNORE INTO secret_marks (mark) VALUES (?1)")?
                    .execute([mark])?;
                self.new_marks.borrow_mut().push(mark);
            }
        }
        if marks.is_empty() {
            return Ok(out);
        }
        Ok(
            match redact::redact_remembered(&out, |m| marks.contains(&m), counts) {
                Some(again) => Cow::Owned(again),
                None => out,
            },
        )
    }

    /// Replaces the secrets first found since the last call wherever their session, and the
    /// sessions it continues (`/clear`, a handoff), stored them before, where no rule saw them
    /// (a key pasted in prose, then named in a `.env` line): their prompts, answers, detail,
    /// one-liners and the memories given since the first of them started (decision 0110).
    /// Work is done only when a secret was first found, which is rare, and reads the chain's
    /// text once for every secret found in the transaction. The rest of the store is read by
    /// a run of its own ([`Store::scrub_secrets`](super::Store::scrub_secrets), decision 0150).
    fn redact_earlier(&self) -> Result<()> {
        let Some(session) = self.marks_session.take() else {
            return Ok(());
        };
        let marks = std::mem::take(&mut *self.new_marks.borrow_mut());
        let mut counts = redact::Counts::new();
        let mut again =
            |text: &str| redact::redact_remembered(text, |m| marks.contains(&m), &mut counts);
        // The session and its predecessors, as `Store::predecessors` follows them.
        let chain = format!(
            "WITH RECURSIVE chain (id, depth) AS (
                 SELECT ?1, 0
                 UNION SELECT l.predecessor, c.depth + 1 FROM links l
                       JOIN chain c ON l.successor = c.id WHERE c.depth < {}
             )",
            super::chain::MAX_CHAIN
        );
        for table in &TEXT_TABLES {
            let rewritten: Vec<(i64, String)> = {
                let mut stmt = self
                    .tx
                    .prepare(&format!("{chain} {}", table.read_where(table.in_chain)))?;
                let mut rows = stmt.query([session])?;
                let mut rewritten = Vec::new();
                while let Some(row) = rows.next()? {
                    let text: String = row.get(1)?;
                    if let Some(text) = again(&text) {
                        rewritten.push((row.get(0)?, text));
                    }
                }
                rewritten
            };
            if rewritten.is_empty() {
                continue;
            }
            self.rewrote_earlier.set(true);
            table.rewrite(&self.tx, &rewritten)?;
        }
        self.count_redactions(counts)
    }

    fn count_redactions(&self, counts: redact::Counts) -> Result<()> {
        count_redactions(&self.tx, counts)
    }

    /// `body` with the rest of a secret replaced, when the tool output stored before it in
    /// `turn` ended inside that secret (see [`redact::rest_of_cut_secret`]).
    fn rest_of_cut_secret(&self, turn: i64, body: &str) -> Result<Option<String>> {
        let before: Option<String> = self
            .tx
            .prepare_cached(
                "SELECT substr(body, -64) FROM details
                 WHERE turn = ?1 AND kind = 'tool_result' ORDER BY id DESC LIMIT 1",
            )?
            .query_row([turn], |r| r.get(0))
            .optional()?;
        let mut counts = redact::Counts::new();
        let Some(rest) = before.and_then(|b| redact::rest_of_cut_secret(&b, body, &mut counts))
        else {
            return Ok(None);
        };
        self.count_redactions(counts)?;
        Ok(Some(rest))
    }

    /// A problem met while reading what is stored (a line that did not parse, quoted by its
    /// error) with its secrets replaced as they would be in the store; not counted, as
    /// nothing of it is stored.
    pub fn redact_problem(&self, problem: &str) -> String {
        self.redactor
            .redact(problem, &mut redact::Counts::new())
            .into_owned()
    }

    pub fn commit(self) -> Result<()> {
        self.redact_earlier()?;
        let Writer {
            hot,
            tx,
            conn,
            copier,
            ..
        } = self;
        drop(hot);
        tx.commit()?;
        if let Some(copier) = copier {
            copier.committed(conn)?;
        }
        if self.rewrote_earlier.get() {
            // Rare (a secret first seen in this transaction, said before), so the fsyncs of
            // a full copy are paid only then.
            super::empty_wal(conn, copier)?;
        }
        Ok(())
    }

    /// Counts `bytes` of transcript as stored; true once a commit is due: every
    /// [`COMMIT_EVERY`], after [`HOLD_LOCK_FOR`], or at once when a hook waits for the lock.
    /// The caller commits at a point where what it stored is whole.
    pub fn commit_due(&self, bytes: u64) -> bool {
        self.pending.set(self.pending.get() + bytes);
        self.pending.get() >= COMMIT_EVERY
            || self.began.get().elapsed() >= HOLD_LOCK_FOR
            || self.waiters.waiting()
    }

    /// Commits what was written and goes on in a new transaction on the same writer.
    pub fn commit_and_continue(&self) -> Result<()> {
        self.redact_earlier()?;
        self.conn.execute_batch("COMMIT")?;
        self.pending.set(0);
        self.transaction.set(next_transaction());
        if let Some(copier) = self.copier {
            copier.committed(self.conn)?;
        }
        // A hook waiting for the lock takes it now.
        self.waiters.let_go_first();
        // Should this fail, the connection is left outside a transaction and `tx` has
        // nothing to roll back; what was committed stays.
        let begun = self.conn.execute_batch("BEGIN IMMEDIATE");
        super::bulk::wait_ended();
        begun?;
        self.began.set(Instant::now());
        Ok(())
    }

    /// One of the [`Hot`] statements, prepared on first use.
    fn hot<'s>(
        &'s self,
        slot: &'s OnceCell<RefCell<Statement<'c>>>,
        sql: &str,
    ) -> Result<RefMut<'s, Statement<'c>>> {
        if slot.get().is_none() {
            let _ = slot.set(RefCell::new(self.conn.prepare(sql)?));
        }
        Ok(slot.get().expect("prepared above").borrow_mut())
    }

    /// Finds or creates the session. The project (git root) is worked out once, on creation.
    pub fn session(
        &self,
        host: Host,
        session_id: &str,
        cwd: Option<&str>,
        transcript_path: Option<&str>,
    ) -> Result<SessionRow> {
        let found = self
            .tx
            .prepare_cached(
                "SELECT id, cwd IS NOT NULL, transcript_path, model FROM sessions
                 WHERE host = ?1 AND session_id = ?2",
            )?
            .query_row(params![host.as_str(), session_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, bool>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            })
            .optional()?;
        let row = match found {
            Some((id, has_cwd, stored_path, model)) => {
                let mut row = SessionRow {
                    id,
                    host,
                    session_id: session_id.to_string(),
                    has_cwd,
                    model,
                    next_seq: None,
                };
                if !has_cwd {
                    if let Some(cwd) = cwd {
                        self.set_cwd(&mut row, cwd)?;
                    }
                }
                if transcript_path.is_some() && stored_path.as_deref() != transcript_path {
                    self.tx
                        .prepare_cached("UPDATE sessions SET transcript_path = ?2 WHERE id = ?1")?
                        .execute(params![id, transcript_path])?;
                }
                row
            }
            None => {
                let project = cwd.map(project::root_of);
                let id = self
                    .tx
                    .prepare_cached(
                        "INSERT INTO sessions (host, session_id, cwd, project, transcript_path)
                         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                    )?
                    .query_row(
                        params![host.as_str(), session_id, cwd, project, transcript_path],
                        |r| r.get(0),
                    )?;
                SessionRow {
                    id,
                    host,
                    session_id: session_id.to_string(),
                    has_cwd: cwd.is_some(),
                    model: None,
                    next_seq: None,
                }
            }
        };
        Ok(row)
    }

    /// The row id of a session already stored (hook events create it in capture first).
    pub fn session_of(&self, session_id: &str) -> Result<i64> {
        self.tx
            .prepare_cached("SELECT id FROM sessions WHERE session_id = ?1")?
            .query_row([session_id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| super::StoreError::NotFound(format!("no session {session_id:?}")))
    }

    /// The turn of `session` holding the detail keyed `key` (e.g. the call that started a
    /// subagent). Newest turns are looked at first, where such a call nearly always is.
    pub fn turn_with_detail(&self, session: i64, key: &str) -> Result<Option<i64>> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT d.turn FROM turns t JOIN details d ON d.turn = t.id AND d.key = ?2
                 WHERE t.session = ?1 ORDER BY t.seq DESC LIMIT 1",
            )?
            .query_row(params![session, source_key(key)], |r| r.get(0))
            .optional()?)
    }

    /// The turn of `session` open at `at` (an RFC 3339 time, as the transcript has it): the
    /// latest to have started by then.
    pub fn turn_open_at(&self, session: i64, at: &str) -> Result<Option<i64>> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT id FROM turns WHERE session = ?1 AND started_at <= ?2
                 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![session, at], |r| r.get(0))
            .optional()?)
    }

    pub fn project_of(&self, session: i64) -> Result<Option<String>> {
        Ok(self
            .tx
            .prepare_cached("SELECT project FROM sessions WHERE id = ?1")?
            .query_row([session], |r| r.get(0))?)
    }

    fn set_cwd(&self, session: &mut SessionRow, cwd: &str) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE sessions SET cwd = ?2, project = ?3 WHERE id = ?1")?
            .execute(params![session.id, cwd, project::root_of(cwd)])?;
        session.has_cwd = true;
        Ok(())
    }

    /// The client release now writing the session (a resumed session may run a newer one).
    fn set_client_version(&self, session: i64, version: &str) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE sessions SET client_version = ?2
                 WHERE id = ?1 AND client_version IS NOT ?2",
            )?
            .execute(params![session, version])?;
        Ok(())
    }

    /// The context window the host reports for the session's model.
    fn set_context_window(&self, session: i64, window: u64) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE sessions SET context_window = ?2
                 WHERE id = ?1 AND context_window IS NOT ?2",
            )?
            .execute(params![session, window as i64])?;
        Ok(())
    }

    /// The git branch the session works on now.
    fn set_branch(&self, session: i64, branch: &str) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE sessions SET branch = ?2 WHERE id = ?1 AND branch IS NOT ?2")?
            .execute(params![session, branch])?;
        Ok(())
    }

    pub fn session_started(
        &self,
        session: i64,
        source: Option<&str>,
        model: Option<&str>,
        at: &str,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE sessions SET start_source = coalesce(?2, start_source),
                        start_model = coalesce(?3, start_model),
                        started_at = coalesce(started_at, ?4),
                        ended_at = NULL, end_reason = NULL
                 WHERE id = ?1",
            )?
            .execute(params![session, source, model, at])?;
        Ok(())
    }

    /// Notes that `session` ended. A session that ends without a prompt (started, or cleared
    /// into, and closed) takes no memory part that waited for its first prompt: that part goes.
    pub fn session_ended(&self, session: i64, reason: Option<&str>, at: &str) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE sessions SET ended_at = ?3, end_reason = ?2 WHERE id = ?1")?
            .execute(params![session, reason, at])?;
        self.tx
            .prepare_cached("DELETE FROM waiting_parts WHERE session = ?1")?
            .execute([session])?;
        Ok(())
    }

    /// Notes that the client's own compaction of `session` was stopped at `at`, for the end of
    /// the turn to tell the person.
    pub fn note_compaction_stopped(&self, session: i64, at: &str) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE sessions SET compaction_stopped_at = ?2 WHERE id = ?1")?
            .execute(params![session, at])?;
        Ok(())
    }

    /// Whether a stopped compaction of `session` waits to be told; asking clears it.
    pub fn take_compaction_stopped(&self, session: i64) -> Result<bool> {
        let told = self
            .tx
            .prepare_cached(
                "UPDATE sessions SET compaction_stopped_at = NULL
                 WHERE id = ?1 AND compaction_stopped_at IS NOT NULL",
            )?
            .execute(params![session])?;
        Ok(told > 0)
    }

    /// Widens the session's known time span to include `earliest..=latest`.
    pub fn touch_session(
        &self,
        session: i64,
        earliest: Option<&str>,
        latest: Option<&str>,
    ) -> Result<()> {
        if earliest.is_none() && latest.is_none() {
            return Ok(());
        }
        self.tx
            .prepare_cached(
                "UPDATE sessions SET
                    started_at = CASE WHEN ?2 IS NOT NULL AND (started_at IS NULL OR started_at > ?2)
                                      THEN ?2 ELSE started_at END,
                    last_activity = CASE WHEN ?3 IS NOT NULL AND (last_activity IS NULL OR last_activity < ?3)
                                      THEN ?3 ELSE last_activity END
                 WHERE id = ?1",
            )?
            .execute(params![session, earliest, latest])?;
        Ok(())
    }

    pub fn cursor(&self, path: &str) -> Result<Option<Cursor>> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT offset, file_id, turn, line_order, tail_mark FROM cursors WHERE path = ?1",
            )?
            .query_row([path], |r| {
                Ok(Cursor {
                    offset: r.get(0)?,
                    file_id: r.get(1)?,
                    turn: r.get(2)?,
                    line_order: r.get(3)?,
                    tail_mark: r.get(4)?,
                })
            })
            .optional()?)
    }

    pub fn save_cursor(&self, path: &str, session: i64, cursor: &Cursor) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO cursors (path, session, offset, file_id, turn, line_order, tail_mark)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (path) DO UPDATE SET session = excluded.session,
                    offset = excluded.offset, file_id = excluded.file_id, turn = excluded.turn,
                    line_order = excluded.line_order, tail_mark = excluded.tail_mark",
            )?
            .execute(params![
                path,
                session,
                cursor.offset,
                cursor.file_id,
                cursor.turn,
                cursor.line_order,
                cursor.tail_mark
            ])?;
        Ok(())
    }

    /// Stores one record. `turn` is the turn open in this transcript; a prompt opens a new one.
    pub fn apply(
        &self,
        session: &mut SessionRow,
        turn: &mut Option<i64>,
        record: &Record,
    ) -> Result<()> {
        if self.marks_session.get().is_some_and(|s| s != session.id) {
            self.redact_earlier()?;
        }
        match record {
            Record::Summary { text } => {
                if let Some(id) = *turn {
                    if self.copies_in.get() == Some(id) {
                        self.summarize(id)?;
                    } else {
                        // Made from the turn's own text: its secrets are counted there.
                        let text = self.scrubbed(text, &mut redact::Counts::new())?;
                        self.store_summary(id, &text)?;
                    }
                    self.summarized.set(Some(id));
                }
            }
            Record::Meta {
                cwd,
                client_version,
                context_window,
                branch,
            } => {
                if let (false, Some(cwd)) = (session.has_cwd, cwd) {
                    self.set_cwd(session, cwd)?;
                }
                if let Some(version) = client_version {
                    self.set_client_version(session.id, version)?;
                }
                if let Some(window) = context_window {
                    self.set_context_window(session.id, *window)?;
                }
                if let Some(branch) = branch {
                    self.set_branch(session.id, branch)?;
                }
            }
            Record::Prompt { key, text, at } => {
                // Written again under a new id (a resumed session): the open turn goes on.
                if let Some(open) = *turn {
                    if self.prompt_sent_before(session.id, open, key, text, at.as_deref())? {
                        self.copies_in.set(Some(open));
                        return Ok(());
                    }
                }
                let (id, existed) = self.open_turn(session, key, at.as_deref())?;
                // A turn opened before the open one is a copy the host appended again: the
                // open turn goes on. (A transcript read again from its start reopens its
                // turns in their order, each after the one before.)
                if let Some(open) = turn.filter(|&open| existed && id < open) {
                    self.copies_in.set(Some(open));
                    return Ok(());
                }
                // The turn before is complete now: give it its one-line summary (L1), unless
                // the reader already sent it.
                if let Some(previous) = turn.filter(|&t| t != id) {
                    if self.summarized.get() != Some(previous) {
                        self.summarize(previous)?;
                    }
                }
                *turn = Some(id);
                let text = self.redacted(text)?;
                self.insert_message(session.id, id, "user", &text, at.as_deref(), key)?;
            }
            Record::Rollback(back) => *turn = self.roll_back(session, back)?,
            Record::Answer { key, text, at } => {
                let id = self.current_turn(session, turn, at.as_deref())?;
                let text = self.redacted(text)?;
                match self.insert_message(session.id, id, "assistant", &text, at.as_deref(), key)? {
                    Some(first) if first != id => self.copies_in.set(Some(id)),
                    _ => {}
                }
            }
            Record::Detail {
                key,
                kind,
                name,
                tool_use_id,
                body,
                is_error,
                at,
            } => {
                let id = self.current_turn(session, turn, at.as_deref())?;
                // Stored once per session: a later copy of the entry adds nothing.
                let key = source_key(key);
                if self.may_be_copy(id, at.as_deref())?
                    && self.detail_in_another_turn(session.id, id, key)?
                {
                    self.copies_in.set(Some(id));
                    return Ok(());
                }
                let mut body = self.redacted(body)?;
                if *kind == DetailKind::ToolResult && redact::may_continue_a_secret(&body).is_some()
                {
                    if let Some(rest) = self.rest_of_cut_secret(id, &body)? {
                        body = Cow::Owned(rest);
                    }
                }
                self.hot(
                    &self.hot.detail,
                    "INSERT OR IGNORE INTO details
                        (session, turn, kind, name, tool_use_id, body, is_error, at, key)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )?
                .execute(params![
                    session.id,
                    id,
                    kind.as_str(),
                    name,
                    tool_use_id,
                    body.as_ref(),
                    is_error,
                    at,
                    key
                ])?;
            }
            Record::ApiCall {
                message_id,
                model,
                usage,
                sidechain,
                at,
            } => {
                // One API message is written over several lines that repeat its usage; the
                // last line has the final output count.
                self.hot(
                    &self.hot.api_call,
                    "INSERT INTO api_calls (session, turn, message_id, model, input,
                        cache_creation, cache_read, output, sidechain, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                     ON CONFLICT (session, message_id) DO UPDATE SET
                        output = max(output, excluded.output)",
                )?
                .execute(params![
                    session.id,
                    *turn,
                    message_id,
                    model,
                    usage.input,
                    usage.cache_creation,
                    usage.cache_read,
                    usage.output,
                    sidechain,
                    at
                ])?;
                if let (false, Some(model)) = (*sidechain, model) {
                    if session.model.as_ref() != Some(model) {
                        self.tx
                            .prepare_cached("UPDATE sessions SET model = ?2 WHERE id = ?1")?
                            .execute(params![session.id, model])?;
                        session.model = Some(model.clone());
                    }
                }
            }
        }
        if !self.new_marks.borrow().is_empty() {
            self.marks_session.set(Some(session.id));
        }
        Ok(())
    }

    /// Removes the session's last `count` turns with everything they hold (their usage stays,
    /// tokens were spent), and returns the turn now open: the last one left.
    fn roll_back(&self, session: &mut SessionRow, back: &Back) -> Result<Option<i64>> {
        let gone: Vec<i64> = match back {
            Back::Turns(count) => self
                .tx
                .prepare_cached(
                    "SELECT id FROM turns WHERE session = ?1 AND seq > 0 ORDER BY seq DESC LIMIT ?2",
                )?
                .query_map(params![session.id, count], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?,
            Back::ToPrompt(key) => self
                .tx
                .prepare_cached(
                    "SELECT id FROM turns WHERE session = ?1 AND seq > 0
                       AND seq >= (SELECT seq FROM turns WHERE session = ?1 AND key = ?2)",
                )?
                .query_map(params![session.id, key], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?,
        };
        for turn in gone {
            super::forget::remove_turn(&self.tx, turn)?;
        }
        super::search::index_after_removal(&self.tx)?;
        session.next_seq = None;
        // A new turn may take the id of one removed.
        self.turn_start.take();
        self.summarized.set(None);
        Ok(self
            .tx
            .prepare_cached("SELECT id FROM turns WHERE session = ?1 ORDER BY seq DESC LIMIT 1")?
            .query_row([session.id], |r| r.get(0))
            .optional()?)
    }

    /// Stores (or refreshes) a turn's one-line summary from its L2.
    pub fn summarize(&self, turn: i64) -> Result<()> {
        let messages: Vec<Message> = self
            .tx
            .prepare_cached("SELECT role, text FROM messages WHERE turn = ?1 ORDER BY id")?
            .query_map([turn], |r| {
                Ok(Message {
                    role: Role::parse(&r.get::<_, String>(0)?),
                    text: r.get(1)?,
                    at: None,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        if messages.is_empty() {
            return Ok(());
        }
        self.store_summary(turn, &summary::of_messages(&messages, summary::MAX_CHARS))
    }

    fn store_summary(&self, turn: i64, text: &str) -> Result<()> {
        self.tx
            .prepare_cached("INSERT OR REPLACE INTO summaries (turn, text) VALUES (?1, ?2)")?
            .execute(params![turn, text])?;
        Ok(())
    }

    /// Summarises the session's turns that have no L1 yet (its last one, when it ends).
    pub fn summarize_unsummarized(&self, session: i64) -> Result<()> {
        let turns: Vec<i64> = self
            .tx
            .prepare_cached(
                "SELECT t.id FROM turns t LEFT JOIN summaries m ON m.turn = t.id
                 WHERE t.session = ?1 AND t.seq > 0 AND m.turn IS NULL",
            )?
            .query_map([session], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for turn in turns {
            self.summarize(turn)?;
        }
        Ok(())
    }

    /// Whether a detail of the open turn `turn` may be a copy of an earlier entry: the turn
    /// already holds one, or the entry is older than the turn by more than lines of one
    /// turn are ever apart. Only then is the session searched for it: an index of every
    /// detail by session, its keys in random order, halved the speed of `import`.
    fn may_be_copy(&self, turn: i64, at: Option<&str>) -> Result<bool> {
        if self.copies_in.get() == Some(turn) {
            return Ok(true);
        }
        let Some(at) = at else {
            return Ok(false);
        };
        Ok(self
            .turn_start(turn)?
            .copies_before
            .as_deref()
            .is_some_and(|before| at < before))
    }

    /// Whether the session holds this prompt under another key already: the same words sent
    /// at the same moment are one prompt, which a resumed Claude Code 2.0.x writes again under
    /// a new uuid (decision 0075). Looked for only when the prompt is not newer than the open
    /// turn `open`, as a copy is and a prompt sent now is not.
    fn prompt_sent_before(
        &self,
        session: i64,
        open: i64,
        key: &str,
        text: &str,
        at: Option<&str>,
    ) -> Result<bool> {
        let Some(at) = at else {
            return Ok(false);
        };
        let not_newer = self
            .turn_start(open)?
            .at
            .as_deref()
            .is_some_and(|start| at <= start);
        if !not_newer {
            return Ok(false);
        }
        // Compared as stored; its secrets were counted when the first one was.
        let text = self.scrubbed(text, &mut redact::Counts::new())?;
        Ok(self
            .tx
            .prepare_cached(
                "SELECT 1 FROM turns t JOIN messages m ON m.turn = t.id
                 WHERE t.session = ?1 AND t.started_at = ?2
                   AND m.role = 'user' AND m.at = ?2 AND m.text = ?3 AND m.key <> ?4",
            )?
            .exists(params![session, at, text.as_ref(), source_key(key)])?)
    }

    /// When `turn` started, read once while it stays open.
    fn turn_start(&self, turn: i64) -> Result<Ref<'_, TurnStart>> {
        if self
            .turn_start
            .borrow()
            .as_ref()
            .is_none_or(|s| s.turn != turn)
        {
            let at: Option<String> = self
                .tx
                .prepare_cached("SELECT started_at FROM turns WHERE id = ?1")?
                .query_row([turn], |r| r.get(0))?;
            let copies_before = at
                .as_deref()
                .and_then(|s| throughline_core::clock::before(s, throughline_core::record::HOLD));
            *self.turn_start.borrow_mut() = Some(TurnStart {
                turn,
                at,
                copies_before,
            });
        }
        Ok(Ref::map(self.turn_start.borrow(), |s| {
            s.as_ref().expect("read above")
        }))
    }

    /// Whether the session holds detail `key` in a turn other than `turn`: a probe of the
    /// (turn, key) index per turn of the session.
    fn detail_in_another_turn(&self, session: i64, turn: i64, key: i64) -> Result<bool> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT 1 FROM details WHERE key = ?2
                   AND turn IN (SELECT id FROM turns WHERE session = ?1 AND id <> ?3)",
            )?
            .exists(params![session, key, turn])?)
    }

    /// Stores an L2 message once per session; returns the turn it was stored in before, if
    /// it was.
    fn insert_message(
        &self,
        session: i64,
        turn: i64,
        role: &str,
        text: &str,
        at: Option<&str>,
        key: &str,
    ) -> Result<Option<i64>> {
        let key = source_key(key);
        let stored = self
            .hot(
                &self.hot.message_stored,
                "SELECT turn FROM messages WHERE session = ?1 AND key = ?2",
            )?
            .query_row(params![session, key], |r| r.get(0))
            .optional()?;
        if stored.is_none() {
            self.hot(
                &self.hot.message,
                "INSERT OR IGNORE INTO messages (session, turn, role, text, at, key)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![session, turn, role, text, at, key])?;
        }
        Ok(stored)
    }

    /// The open turn, or the session's preamble turn when no prompt came yet.
    fn current_turn(
        &self,
        session: &mut SessionRow,
        turn: &mut Option<i64>,
        at: Option<&str>,
    ) -> Result<i64> {
        if let Some(id) = *turn {
            return Ok(id);
        }
        let (id, _) = self.open_turn(session, PREAMBLE_KEY, at)?;
        *turn = Some(id);
        Ok(id)
    }

    /// Finds the turn keyed `key` (true: it existed), or creates it after the session's last
    /// turn.
    fn open_turn(
        &self,
        session: &mut SessionRow,
        key: &str,
        at: Option<&str>,
    ) -> Result<(i64, bool)> {
        let seq = if key == PREAMBLE_KEY {
            0
        } else {
            self.next_seq(session)?
        };
        // The full code's prefixes, shortest first: a collision only lengthens the newer code.
        let full = turn_code(session.host, &session.session_id, key);
        // `OR IGNORE` rather than `ON CONFLICT DO NOTHING ... RETURNING`: a statement that
        // cannot abort needs no statement journal, and RETURNING buffers its rows in a
        // temporary table; both cost more than the insert itself.
        let mut insert = self.tx.prepare_cached(
            "INSERT OR IGNORE INTO turns (session, seq, code, key, started_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut existing = self
            .tx
            .prepare_cached("SELECT id FROM turns WHERE session = ?1 AND key = ?2")?;
        for len in SHORT_CODE..=full.len() {
            if insert.execute(params![session.id, seq, &full[..len], key, at])? == 1 {
                let id = self.conn.last_insert_rowid();
                if seq > 0 {
                    session.next_seq = Some((self.transaction.get(), seq + 1));
                }
                return Ok((id, false));
            }
            // Nothing inserted: either the turn exists (a re-read) or the code is taken.
            if let Some(id) = existing
                .query_row(params![session.id, key], |r| r.get(0))
                .optional()?
            {
                return Ok((id, true));
            }
        }
        Err(rusqlite::Error::StatementChangedRows(0).into())
    }

    /// The seq the session's next turn gets; read once per write transaction.
    fn next_seq(&self, session: &mut SessionRow) -> Result<i64> {
        let transaction = self.transaction.get();
        if let Some((read_in, seq)) = session.next_seq {
            if read_in == transaction {
                return Ok(seq);
            }
        }
        let seq = self
            .tx
            .prepare_cached("SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session = ?1")?
            .query_row([session.id], |r| r.get(0))?;
        session.next_seq = Some((transaction, seq));
        Ok(seq)
    }
}

/// Messages and details are keyed by a hash of their source identity: a small integer index
/// instead of one over long strings.
fn source_key(key: &str) -> i64 {
    xxh3_64(key.as_bytes()) as i64
}

/// Length of a turn code: 7 base-32 characters (35 bits) keep collisions rare at millions of
/// turns, and a collision only lengthens the newer code.
const SHORT_CODE: usize = 7;

/// Lower-case base 32 without the letters easily misread (i, l, o, u).
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// The full (13-character) code of a turn; stored codes are its shortest free prefix.
pub fn turn_code(host: Host, session_id: &str, key: &str) -> String {
    let mut h = xxh3_64(format!("{}\0{session_id}\0{key}", host.as_str()).as_bytes());
    let mut out = String::with_capacity(13);
    for _ in 0..13 {
        out.push(ALPHABET[(h & 31) as usize] as char);
        h >>= 5;
    }
    out
}
