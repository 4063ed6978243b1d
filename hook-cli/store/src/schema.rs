//! Versioned migrations, tracked in `PRAGMA user_version`. A hook call reads the version
//! once and does nothing more when it is current.
//!
//! Rows are never moved or rewritten by later features: chains of sessions, summaries and
//! full-text indexes are added as new tables that point at these ones.

use std::path::Path;

use rusqlite::Connection;

use super::{Result, StoreError};

const MIGRATIONS: &[&str] = &[
    // 1: sessions, ingest cursors, turns and their layers.
    "CREATE TABLE sessions (
        id              INTEGER PRIMARY KEY,
        host            TEXT NOT NULL,
        session_id      TEXT NOT NULL,
        project         TEXT,
        cwd             TEXT,
        transcript_path TEXT,
        model           TEXT,
        started_at      TEXT,
        last_activity   TEXT,
        ended_at        TEXT,
        end_reason      TEXT,
        start_source    TEXT,
        UNIQUE (host, session_id)
    );
    CREATE INDEX sessions_by_project ON sessions (project, last_activity);
    CREATE INDEX sessions_by_activity ON sessions (last_activity);

    -- How far each transcript has been read: only complete lines before `offset` are stored.
    CREATE TABLE cursors (
        path     TEXT PRIMARY KEY,
        session  INTEGER NOT NULL REFERENCES sessions (id),
        offset   INTEGER NOT NULL,
        file_id  TEXT NOT NULL,
        turn     INTEGER REFERENCES turns (id)
    );

    CREATE TABLE turns (
        id          INTEGER PRIMARY KEY,
        session     INTEGER NOT NULL REFERENCES sessions (id),
        seq         INTEGER NOT NULL,
        code        TEXT NOT NULL UNIQUE,
        key         TEXT NOT NULL,
        started_at  TEXT,
        UNIQUE (session, seq),
        UNIQUE (session, key)
    );

    -- `key` in messages and details is a 64-bit hash of the entry's source identity (its
    -- transcript uuid, message id and content...): re-reading a line stores nothing new, as a
    -- line always falls in the same turn. The unique index also serves lookups by turn.

    -- L2: the prompt and every assistant text, verbatim.
    CREATE TABLE messages (
        id       INTEGER PRIMARY KEY,
        session  INTEGER NOT NULL REFERENCES sessions (id),
        turn     INTEGER NOT NULL REFERENCES turns (id),
        role     TEXT NOT NULL,
        text     TEXT NOT NULL,
        at       TEXT,
        key      INTEGER NOT NULL,
        UNIQUE (turn, key)
    );

    -- L3: tool calls and results, thinking, attachments, system and host entries.
    CREATE TABLE details (
        id           INTEGER PRIMARY KEY,
        session      INTEGER NOT NULL REFERENCES sessions (id),
        turn         INTEGER NOT NULL REFERENCES turns (id),
        kind         TEXT NOT NULL,
        name         TEXT,
        tool_use_id  TEXT,
        body         TEXT NOT NULL,
        is_error     INTEGER NOT NULL DEFAULT 0,
        at           TEXT,
        key          INTEGER NOT NULL,
        UNIQUE (turn, key)
    );

    -- Usage per assistant API message (the host splits one message over several lines).
    CREATE TABLE api_calls (
        id              INTEGER PRIMARY KEY,
        session         INTEGER NOT NULL REFERENCES sessions (id),
        turn            INTEGER REFERENCES turns (id),
        message_id      TEXT NOT NULL,
        model           TEXT,
        input           INTEGER NOT NULL,
        cache_creation  INTEGER NOT NULL,
        cache_read      INTEGER NOT NULL,
        output          INTEGER NOT NULL,
        sidechain       INTEGER NOT NULL,
        at              TEXT,
        UNIQUE (session, message_id)
    );",
    // 2: chains of sessions, handoffs, the injection log and one-line summaries (L1).
    "-- successor <- predecessor: the session whose memory the successor received.
    CREATE TABLE links (
        successor    INTEGER PRIMARY KEY REFERENCES sessions (id),
        predecessor  INTEGER NOT NULL REFERENCES sessions (id),
        trigger      TEXT NOT NULL,
        at           TEXT NOT NULL
    );
    CREATE INDEX links_by_predecessor ON links (predecessor);

    -- A /clear seen at SessionEnd, waiting for the SessionStart that shares its key
    -- (`prompt:<id>`, or `pid:<host process>` for clients that send no prompt id).
    CREATE TABLE pending_clears (
        key      TEXT PRIMARY KEY,
        session  INTEGER NOT NULL REFERENCES sessions (id),
        at       TEXT NOT NULL
    );

    -- /tl and one-click handoffs: the next new session of the project takes it.
    CREATE TABLE handoffs (
        id           INTEGER PRIMARY KEY,
        session      INTEGER NOT NULL REFERENCES sessions (id),
        project      TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        expires_at   TEXT NOT NULL,
        taken_by     INTEGER REFERENCES sessions (id),
        closed_at    TEXT,
        closed_how   TEXT
    );
    CREATE INDEX handoffs_open ON handoffs (project, closed_at);

    CREATE TABLE injections (
        id         INTEGER PRIMARY KEY,
        session    INTEGER NOT NULL REFERENCES sessions (id),
        trigger    TEXT NOT NULL,
        at         TEXT NOT NULL,
        chain      TEXT NOT NULL,
        budget     INTEGER NOT NULL,
        size       INTEGER NOT NULL,
        verbatim   TEXT NOT NULL,
        one_liners TEXT NOT NULL,
        left_out   INTEGER NOT NULL,
        text       TEXT NOT NULL
    );
    CREATE INDEX injections_by_session ON injections (session);

    -- L1: one line per turn, made by the local summarizer once the turn is complete.
    CREATE TABLE summaries (
        turn    INTEGER PRIMARY KEY REFERENCES turns (id),
        text    TEXT NOT NULL
    );",
    // 3: full-text search over L2 and the searchable part of L3 (docs/decisions/0010).
    // Trigram tokens match any substring of three or more characters, so words need no
    // spaces around them (Japanese, Chinese) and identifiers match in part. The indexes are
    // filled by searches, not by hooks (docs/decisions/0012): `search_progress` holds the
    // last row of each layer already indexed.
    "CREATE VIRTUAL TABLE messages_fts USING fts5 (
        text, content = 'messages', content_rowid = 'id', tokenize = 'trigram'
    );
    -- Tool calls and output, thinking and subagent text; host context (attachments, system
    -- entries) stays out. Bodies are indexed up to 64 KiB characters each.
    CREATE VIRTUAL TABLE details_fts USING fts5 (
        body, content = 'details', content_rowid = 'id', tokenize = 'trigram'
    );
    CREATE TABLE search_progress (
        layer  TEXT PRIMARY KEY,
        upto   INTEGER NOT NULL
    );
    INSERT INTO search_progress (layer, upto) VALUES ('messages', 0), ('details', 0);",
    // 4: the model a session started with, as the host named it (it alone tells 1M-context
    // variants apart; `model` keeps what the transcript says).
    "ALTER TABLE sessions ADD COLUMN start_model TEXT;",
    // 5: sessions by the host's id alone. Hooks, verbs and the app name a session by it; the
    // (host, session_id) index cannot serve that, so each lookup scanned every session.
    "CREATE INDEX sessions_by_session_id ON sessions (session_id);",
    // 6: lines held until their parent is read, and the ids of the latest lines read, so the
    // next call keeps the host's chain order (docs/decisions/0022).
    "ALTER TABLE cursors ADD COLUMN line_order TEXT;",
    // 7: L2 messages by their source within a session. A host may append copies of earlier
    // entries later in a transcript; each is stored once, where it first was
    // (docs/decisions/0027).
    "CREATE INDEX messages_by_source ON messages (session, key);",
    // 8: the client release writing the session: what a model's window is depends on it.
    "ALTER TABLE sessions ADD COLUMN client_version TEXT;",
    // 9: FTS5 merges index segments after a write, sometimes all of a level at once (hundreds
    // of milliseconds with the write lock held); searches merge in bounded steps instead
    // (`Store::index_pending`, docs/decisions/0029).
    "INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 0);
    INSERT INTO messages_fts (messages_fts, rank) VALUES ('crisismerge', 1000);
    INSERT INTO details_fts (details_fts, rank) VALUES ('automerge', 0);
    INSERT INTO details_fts (details_fts, rank) VALUES ('crisismerge', 1000);",
    // 10: the context window a host reports for a session's model (Codex's token counts).
    "ALTER TABLE sessions ADD COLUMN context_window INTEGER;",
    // 11: the short-word index beside each trigram index: words of one or two characters and
    // the character pairs of CJK text (`store/words.rs`), filled by searches like the others
    // (an existing memory on its next search); nothing but row ids and words is kept.
    "CREATE VIRTUAL TABLE messages_words USING fts5 (words, content = '', contentless_delete = 1);
    CREATE VIRTUAL TABLE details_words USING fts5 (words, content = '', contentless_delete = 1);
    INSERT INTO messages_words (messages_words, rank) VALUES ('automerge', 0);
    INSERT INTO messages_words (messages_words, rank) VALUES ('crisismerge', 1000);
    INSERT INTO details_words (details_words, rank) VALUES ('automerge', 0);
    INSERT INTO details_words (details_words, rank) VALUES ('crisismerge', 1000);
    INSERT INTO search_progress (layer, upto) VALUES ('messages_words', 0), ('details_words', 0);",
    // 12: one-liners written by a model, beside the local ones (docs/decisions/0055). Every
    // request is logged, failed ones too, with what it cost; a turn once tried is not tried
    // again (`text` NULL: its local line stands). The injection log names who wrote each line.
    "CREATE TABLE summary_calls (
        id             INTEGER PRIMARY KEY,
        at             TEXT NOT NULL,
        backend        TEXT NOT NULL,
        model          TEXT NOT NULL,
        turns          INTEGER NOT NULL,
        lines          INTEGER NOT NULL,
        input_tokens   INTEGER NOT NULL,
        output_tokens  INTEGER NOT NULL,
        error          TEXT
    );
    CREATE INDEX summary_calls_by_time ON summary_calls (at);
    CREATE TABLE model_summaries (
        turn     INTEGER PRIMARY KEY REFERENCES turns (id),
        call     INTEGER NOT NULL REFERENCES summary_calls (id),
        text     TEXT
    );
    ALTER TABLE injections ADD COLUMN one_liners_by TEXT;",
    // 13: an entry taken out of a search index (a forgotten or rolled-back turn) leaves the
    // index's pages, not only a delete marker beside its tokens (docs/decisions/0045).
    "INSERT INTO messages_fts (messages_fts, rank) VALUES ('secure-delete', 1);
    INSERT INTO details_fts (details_fts, rank) VALUES ('secure-delete', 1);
    INSERT INTO messages_words (messages_words, rank) VALUES ('secure-delete', 1);
    INSERT INTO details_words (details_words, rank) VALUES ('secure-delete', 1);",
    // 14: how many secrets of each kind were replaced by a placeholder before storage
    // (docs/decisions/0047), for `doctor`.
    "CREATE TABLE redactions (
        kind   TEXT PRIMARY KEY,
        count  INTEGER NOT NULL
    );",
    // 15: the git branch a session works on, as its transcript last said: the memory handed
    // to the next session says where the work stands.
    "ALTER TABLE sessions ADD COLUMN branch TEXT;",
    // 16: tool calls by session and tool name. The working state a memory hands on reads a
    // chain's latest calls of the few tools that change files or write the todo list; with
    // no index on details by session, that read every detail of the chain. Only calls are
    // in it, so a hook storing other entries does no more work.
    "CREATE INDEX details_tool_calls ON details (session, name) WHERE kind = 'tool_call';",
    // 17: the second part of a memory, waiting for the first prompt of the session that
    // received the first (docs/decisions/0076).
    "CREATE TABLE waiting_parts (
        session  INTEGER PRIMARY KEY REFERENCES sessions (id),
        trigger  TEXT NOT NULL,
        chain    TEXT NOT NULL,
        budget   INTEGER NOT NULL,
        size     INTEGER NOT NULL,
        text     TEXT NOT NULL
    );",
    // 18: every writer zeroes what it deletes (`secure_delete`, docs/decisions/0079). A store
    // written before may hold old copies of text in free space: one row here says so, and
    // the first forget that removes something rewrites the file once and deletes the row.
    "CREATE TABLE unwiped_free_space (noted_at TEXT NOT NULL);
    INSERT INTO unwiped_free_space SELECT strftime('%Y-%m-%dT%H:%M:%fZ')
    WHERE EXISTS (SELECT 1 FROM sessions);",
    // 19: a mark of the bytes just before a cursor's offset, so a transcript cut short and
    // written past the old offset again is read from its start (docs/decisions/0084).
    "ALTER TABLE cursors ADD COLUMN tail_mark INTEGER;",
    // 20: when the client's own compaction of a session was stopped, until the person is told
    // at the end of that turn (docs/decisions/0095).
    "ALTER TABLE sessions ADD COLUMN compaction_stopped_at TEXT;",
    // 21: a mark (a hash, never the value) of each long secret replaced before storage, so
    // the same secret is replaced wherever it comes again (docs/decisions/0108).
    "CREATE TABLE secret_marks (mark INTEGER PRIMARY KEY);",
    // 22: a handoff's first part given at the start of a session that has not prompted yet,
    // logged (and the handoff taken) only once it does (docs/decisions/0144).
    "ALTER TABLE waiting_parts ADD COLUMN unconfirmed_first TEXT;",
    // 23: whether a run of its own has looked for a secret found late in the whole store, not
    // only in the chain of the session it was found in (docs/decisions/0150). Marks kept
    // before are looked for once more.
    "ALTER TABLE secret_marks ADD COLUMN everywhere INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX secret_marks_to_scrub ON secret_marks (mark) WHERE everywhere = 0;",
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

fn version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

pub fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let found = version(conn)?;
    if found == VERSION {
        return Ok(());
    }
    if found > VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: VERSION,
        });
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Another process may have migrated while this one waited for the lock.
    let current = version(&tx)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
    }
    tx.commit()?;
    Ok(())
}

/// Whether the database's schema is older than this build's (a read needs it migrated).
pub fn is_older(conn: &Connection) -> Result<bool> {
    Ok(version(conn)? < VERSION)
}

/// A reader can use any database whose schema it knows.
pub fn check_readable(conn: &Connection, path: &Path) -> Result<()> {
    let found = version(conn)?;
    if found > VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: VERSION,
        });
    }
    Ok(())
}
