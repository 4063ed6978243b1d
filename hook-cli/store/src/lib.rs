//! The store owns all SQL. Hooks write through [`Writer`]; readers (the CLI verbs and the
//! tray app) use the read API in `read.rs`, which never blocks a writer thanks to WAL.

/// The condition that makes a `turns` row named `t` a turn as people count them: one a prompt
/// began. A session's preamble (seq 0) holds what came before its first prompt and is not one.
/// Every count of turns a person reads uses it, so that a list and a question about the same
/// session agree.
macro_rules! prompted_turn {
    () => {
        "t.seq > 0"
    };
}

mod bulk;
mod chain;
mod forget;
mod health;
mod history;
mod model_lines;
mod read;
mod schema;
mod scrub;
mod search;
mod stored_text;
mod words;
mod working;
mod write;

use std::cell::Cell;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

pub use bulk::become_bulk;
pub use chain::{Handoff, Injection, InjectionFilter, Trigger, WaitingPart};
pub use forget::{Forgotten, Preview, Scope, SessionSize};
pub use scrub::Scrubbed;

pub use health::{Health, HostCapture};
pub use history::{ContextMark, ContextPoint, Handed, MarkKind, UsageSince};
pub use model_lines::{DueTurn, ModelLine, SummaryCall, SummarySpend};
pub use read::{ContextSpend, ProjectSummary, SessionFilter, StoreStats};
pub use search::{
    Coverage, Index, Indexed, Matched, Matcher, SearchFilter, RANK_WINDOW, SCAN_ROWS,
};
pub use throughline_core::model::LIVE_WINDOW;
pub use words::query_of as short_words_query;
pub use write::{Cursor, SessionRow, Writer};

use throughline_core::home::Home;
use throughline_core::redact::Redactor;

/// How long a writer holds the write lock before [`Writer::commit_due`], whatever it stored:
/// a hook waits for the lock at most about this long beside an import or a long backlog.
const HOLD_LOCK_FOR: Duration = Duration::from_millis(25);

/// Past this WAL size a writing process empties the WAL when it is done.
const WAL_LIMIT: u64 = 1 << 20;

/// How long a writer waits for another writer (a concurrent hook) before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(3);

/// How often a connection waiting for the write lock tries again. SQLite's own busy handler
/// backs off to 100 ms between tries, so a hook waiting beside a bulk writer (an import, a
/// search indexing a backlog), which frees the lock only for a moment between its
/// transactions, kept missing it until it gave up.
const BUSY_POLL: Duration = Duration::from_millis(1);

thread_local! {
    /// Off while a checkpoint that must not wait runs on this thread (see [`checkpoint_as`]).
    static WAIT_WHEN_BUSY: Cell<bool> = const { Cell::new(true) };
}

/// Waits up to `wait` for a lock, trying again every [`BUSY_POLL`], and says that it waits,
/// so a bulk writer lets it go first (see [`bulk`]). Beside a bulk writer at work, which lets
/// go between its short transactions but may be slow to on a loaded machine, it waits up to
/// [`BUSY_TIMEOUT`] however short `wait` is.
fn wait_when_busy(conn: &mut Connection, db: &Path, wait: Duration) -> rusqlite::Result<()> {
    let mut waiting_since = None;
    let mut bulk_marker = None;
    let db = db.to_path_buf();
    conn.busy_handler(Some(move |tries: i32| {
        if !WAIT_WHEN_BUSY.get() {
            return false;
        }
        bulk::announce_wait(&db);
        let now = Instant::now();
        if tries == 0 {
            waiting_since = Some(now);
        }
        let waited = now - *waiting_since.get_or_insert(now);
        if waited >= BUSY_TIMEOUT || (waited >= wait && !bulk::bulk_at_work(&db, &mut bulk_marker))
        {
            return false;
        }
        thread::sleep(BUSY_POLL);
        true
    }))
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create {path}: {source}")]
    Create {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database {path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error(
        "database {path} has schema version {found}, newer than this throughline ({supported}); \
         upgrade throughline"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    #[error(
        "no database at {0} yet: it is created by the first hook call or `throughline import`"
    )]
    Missing(PathBuf),
    #[error("{0}")]
    NotFound(String),
    /// A request the settings rule out, with what to change.
    #[error("{0}")]
    Declined(String),
    #[error("{0}; nothing is stored until it is fixed (`throughline config` shows the file)")]
    Redaction(String),
    #[error("the background checkpoint thread stopped")]
    Checkpointer,
    #[error(transparent)]
    Sql(#[from] rusqlite::Error),
}

impl StoreError {
    fn sqlite_code(&self) -> Option<rusqlite::ErrorCode> {
        match self {
            StoreError::Sqlite { source, .. } | StoreError::Sql(source) => {
                source.sqlite_error_code()
            }
            _ => None,
        }
    }

    /// Another program holds a lock on the database longer than this call waited.
    pub fn is_busy(&self) -> bool {
        matches!(
            self.sqlite_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        )
    }

    /// The file is not an SQLite database, or its pages are damaged.
    pub fn is_damaged(&self) -> bool {
        matches!(
            self.sqlite_code(),
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
        )
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

pub struct Store {
    conn: Connection,
    path: PathBuf,
    writable: bool,
    /// Copies the WAL in the background while a bulk writer goes on (see
    /// [`Store::copy_in_background`]).
    copier: Option<Checkpointer>,
    /// Hooks waiting for the lock, which bulk work lets go first.
    waiters: bulk::Waiters,
    /// What every text passes through before it is written (docs/decisions/0047).
    redactor: Arc<Redactor>,
}

impl Drop for Store {
    fn drop(&mut self) {
        bulk::wait_ended();
        // Joined first: its last copy leaves less for the one below.
        drop(self.copier.take());
        if self.writable && self.wal_bytes() > WAL_LIMIT {
            let _ = self.checkpoint();
        }
    }
}

impl Store {
    /// Opens (creating and migrating when needed) the database in `home`. `own_patterns` are
    /// the person's redaction patterns (`redact_patterns` in their settings): every writer
    /// applies them, hooks, import and the app's catch-up alike.
    pub fn open(home: &Home, own_patterns: &[String]) -> Result<Store> {
        home.ensure().map_err(|source| StoreError::Create {
            path: home.dir().to_path_buf(),
            source,
        })?;
        let path = home.db_path();
        let fresh = !path.exists();
        let conn = Connection::open(&path).map_err(|source| StoreError::Sqlite {
            path: path.clone(),
            source,
        })?;
        // SQLite gives the -wal and -shm files the mode of the database file; one made
        // readable by others (by an older version, a copy) is made owner-only.
        if fresh {
            let _ = fs::set_permissions(&path, fs::Permissions::from_mode(0o600));
        } else if let Ok(meta) = fs::metadata(&path) {
            let _ = throughline_core::home::owner_only(&path, &meta);
        }
        let redactor = Redactor::with_patterns(own_patterns).map_err(StoreError::Redaction)?;
        let mut store = Store {
            conn,
            waiters: bulk::Waiters::new(&path),
            path,
            writable: true,
            copier: None,
            redactor,
        };
        store.configure()?;
        schema::migrate(&mut store.conn, &store.path)?;
        Ok(store)
    }

    /// Opens an existing database for reading only; never creates or migrates it.
    pub fn open_read_only(home: &Home) -> Result<Store> {
        Store::open_read_only_waiting(home, BUSY_TIMEOUT)
    }

    /// As [`Store::open_read_only`], waiting at most `wait` for a lock another program holds
    /// (a window must answer at once and try again later).
    pub fn open_read_only_waiting(home: &Home, wait: Duration) -> Result<Store> {
        let path = home.db_path();
        if !path.exists() {
            return Err(StoreError::Missing(path));
        }
        let open = || -> Result<Connection> {
            let conn = Connection::open_with_flags(
                &path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(|source| StoreError::Sqlite {
                path: path.clone(),
                source,
            })?;
            conn.busy_timeout(wait)?;
            schema::check_readable(&conn, &path)?;
            Ok(conn)
        };
        let mut conn = open()?;
        if schema::is_older(&conn)? {
            // The reads name the columns of this build's schema: a store no hook has opened
            // since an upgrade is migrated first.
            drop(conn);
            // Migrating writes nothing a pattern could apply to.
            drop(Store::open(home, &[])?);
            conn = open()?;
        }
        Ok(Store {
            conn,
            waiters: bulk::Waiters::new(&path),
            path,
            writable: false,
            copier: None,
            redactor: Redactor::shared_builtin(),
        })
    }

    /// Waits at most `wait` (instead of [`BUSY_TIMEOUT`]) for a lock another program holds;
    /// past it a write fails with an error that [`StoreError::is_busy`].
    pub fn wait_at_most(&mut self, wait: Duration) -> Result<()> {
        Ok(wait_when_busy(&mut self.conn, &self.path, wait)?)
    }

    /// Another connection to this (writable, migrated) database, for work on another thread.
    fn second_connection(&self) -> Result<Store> {
        let conn = Connection::open(&self.path).map_err(|source| StoreError::Sqlite {
            path: self.path.clone(),
            source,
        })?;
        let mut store = Store {
            conn,
            waiters: bulk::Waiters::new(&self.path),
            path: self.path.clone(),
            writable: true,
            copier: None,
            redactor: Arc::clone(&self.redactor),
        };
        store.configure()?;
        Ok(store)
    }

    fn configure(&mut self) -> Result<()> {
        wait_when_busy(&mut self.conn, &self.path, BUSY_TIMEOUT)?;
        // Every hook is its own process. By default the last connection to close checkpoints
        // the WAL with two fsyncs (10+ ms per hook), and a WAL left behind is re-read by the
        // next process to rebuild its index. So: no checkpoint on close, and the WAL is
        // emptied (`Drop`) only once it has grown past `WAL_LIMIT`, amortised over many calls.
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        // Without a fixed query plan, SQLite marks statements with `= ?` or `LIMIT ?` for
        // re-planning on every new binding, and clearing the bindings (as the statement cache
        // does) expires them: each reuse was parsed and planned again.
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        // WAL lets the app read while hooks write; NORMAL sync is durable across
        // process crashes, which is the failure hooks actually meet. Foreign keys are not
        // enforced: the writer alone links rows, and the checks would double the lookups of
        // every insert. SQLite leaves them off, but the bundled build turns them on.
        use_wal(&self.conn)?;
        self.conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             PRAGMA synchronous = NORMAL;
             PRAGMA wal_autocheckpoint = 0;
             -- What a write deletes or replaces (a row, an index entry, a page) is zeroed,
             -- not just unlinked: a forgotten text leaves no copy in free space
             -- (docs/decisions/0079).
             PRAGMA secure_delete = ON;
             -- Bulk ingest must not spill half-built pages; pages are allocated only as used.
             PRAGMA cache_size = -32768;",
        )?;
        // Ingest uses a couple of dozen statements; the default cache of 16 thrashes.
        self.conn.set_prepared_statement_cache_capacity(64);
        words::register(&self.conn)?;
        Ok(())
    }

    /// Moves everything in the WAL into the database and empties it. Never waits for another
    /// connection: with a reader in the way (the app) it is left for a later call.
    pub fn checkpoint(&self) -> Result<()> {
        empty_wal(&self.conn, self.copier.as_ref())
    }

    /// For a bulk writer (`import`): from now on each commit is copied from the WAL into the
    /// database on a thread and connection of their own, while writing goes on.
    pub fn copy_in_background(&mut self) -> Result<()> {
        if self.copier.is_none() {
            self.copier = Some(Checkpointer::spawn(&self.path)?);
        }
        Ok(())
    }

    /// After each commit of a bulk step (indexing a backlog): with a background copy, hands it
    /// the commit; without, copies the WAL into the database every few commits, passively
    /// (never blocking a writer), so that no large WAL is left for a copy that would.
    fn bulk_committed(&self, commits: u64) -> Result<()> {
        match &self.copier {
            Some(copier) => copier.committed(&self.conn),
            None if commits.is_multiple_of(COMMITS_PER_WAL) => {
                checkpoint_as(&self.conn, "PRAGMA wal_checkpoint(PASSIVE)")
            }
            None => Ok(()),
        }
    }

    fn wal_bytes(&self) -> u64 {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        fs::metadata(wal).map(|m| m.len()).unwrap_or(0)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a write transaction. `BEGIN IMMEDIATE` takes the write lock up front, so two
    /// hooks of one session serialise and the second sees the first one's cursor.
    pub fn write(&mut self) -> Result<Writer<'_>> {
        // `&mut self` keeps transactions from nesting; the writer's statements borrow the
        // connection for as long as the transaction.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        );
        bulk::wait_ended();
        Ok(Writer::new(
            &self.conn,
            tx?,
            self.copier.as_ref(),
            &self.waiters,
            &self.redactor,
        ))
    }
}

/// Puts the database in WAL mode (a no-op once it is). Switching a new database takes an
/// exclusive lock that SQLite does not wait for when another connection is switching it too
/// (both would hold a shared lock), so the first hooks on a new store wait for it here.
fn use_wal(conn: &Connection) -> Result<()> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())) {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && Instant::now() < deadline =>
            {
                thread::sleep(Duration::from_millis(2))
            }
            done => return Ok(done?),
        }
    }
}

/// Copies the whole WAL into the database and truncates it.
const EMPTY_WAL: &str = "PRAGMA wal_checkpoint(TRUNCATE)";

/// Copies the whole WAL into the database and truncates it, once a background copy running
/// on `copier` is done; a reader in the way leaves it for later.
fn empty_wal(conn: &Connection, copier: Option<&Checkpointer>) -> Result<()> {
    if let Some(copier) = copier {
        copier.wait()?;
    }
    checkpoint_as(conn, EMPTY_WAL)
}

/// Runs `pragma` (a `wal_checkpoint`) without waiting: a busy database is left for later.
fn checkpoint_as(conn: &Connection, pragma: &str) -> Result<()> {
    WAIT_WHEN_BUSY.set(false);
    let done = conn.query_row(pragma, [], |_| Ok(()));
    WAIT_WHEN_BUSY.set(true);
    match done {
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => Ok(()),
        other => Ok(other?),
    }
}

/// Commits between two emptyings of the WAL by a bulk writer (see [`Checkpointer::committed`]).
const COMMITS_PER_WAL: u64 = 16;

/// Copies the WAL into the database on a thread and connection of its own, so that a bulk
/// writer goes on writing while the copy and its fsyncs run. The copy is PASSIVE: it takes
/// no lock a writer needs, and it leaves the WAL in place for the writer to empty.
struct Checkpointer {
    ask: Option<mpsc::SyncSender<()>>,
    done: mpsc::Receiver<Result<()>>,
    thread: Option<thread::JoinHandle<()>>,
    running: Cell<bool>,
    commits: Cell<u64>,
}

impl Checkpointer {
    fn spawn(path: &Path) -> Result<Checkpointer> {
        let sqlite = |source| StoreError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        let mut conn = Connection::open(path).map_err(sqlite)?;
        wait_when_busy(&mut conn, path, BUSY_TIMEOUT).map_err(sqlite)?;
        let (ask, asked) = mpsc::sync_channel::<()>(1);
        let (report, done) = mpsc::channel();
        let thread = thread::spawn(move || {
            for () in asked {
                let copied = checkpoint_as(&conn, "PRAGMA wal_checkpoint(PASSIVE)");
                if report.send(copied).is_err() {
                    break;
                }
            }
        });
        Ok(Checkpointer {
            ask: Some(ask),
            done,
            thread: Some(thread),
            running: Cell::new(false),
            commits: Cell::new(0),
        })
    }

    /// Called by the writer after each commit, with the writer's connection. The commit is
    /// copied in the background while the next transaction is written; every few commits the
    /// writer waits for the copy and empties the WAL, so its pages are reused while still
    /// cached and no copy is left for the end.
    fn committed(&self, writer: &Connection) -> Result<()> {
        let commits = self.commits.get() + 1;
        self.commits.set(commits);
        if commits.is_multiple_of(COMMITS_PER_WAL) {
            self.wait()?;
            checkpoint_as(writer, EMPTY_WAL)
        } else {
            self.nudge()
        }
    }

    /// Starts copying what is committed now, unless a copy is still running (the next
    /// call takes it from there).
    fn nudge(&self) -> Result<()> {
        if self.running.get() {
            match self.done.try_recv() {
                Ok(copied) => copied?,
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
                Err(mpsc::TryRecvError::Disconnected) => return Err(StoreError::Checkpointer),
            }
        }
        let ask = self.ask.as_ref().ok_or(StoreError::Checkpointer)?;
        ask.send(()).map_err(|_| StoreError::Checkpointer)?;
        self.running.set(true);
        Ok(())
    }

    /// Waits for the copy that is running, if any.
    fn wait(&self) -> Result<()> {
        if self.running.replace(false) {
            self.done.recv().map_err(|_| StoreError::Checkpointer)??;
        }
        Ok(())
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        // Closing the channel ends the thread once its copy is done.
        drop(self.ask.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests;
