//! The store's health, for `doctor`: can it be read and written, is its schema current, is
//! it intact, and when did each host last capture.

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::{schema, Store};
use throughline_core::home::Home;

#[derive(Debug, Clone, Serialize)]
pub struct Health {
    pub path: String,
    pub exists: bool,
    /// Why the database cannot be read, if it cannot.
    pub read_error: Option<String>,
    /// The file is not a database or is damaged (rather than unreadable for its permissions).
    pub damaged: bool,
    /// Why hooks could not write to it, if they could not.
    pub write_error: Option<String>,
    pub schema_version: Option<i64>,
    /// The schema this build writes.
    pub current_schema: i64,
    /// `PRAGMA quick_check`: `ok`, or what is damaged.
    pub integrity: Option<String>,
    pub last_capture: Vec<HostCapture>,
    /// Secrets replaced by a placeholder before storage, per kind (docs/decisions/0047).
    pub redacted: Vec<(String, u64)>,
    /// Secrets found late not yet looked for in the whole store (docs/decisions/0150).
    pub secrets_waiting: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct HostCapture {
    pub host: String,
    pub at: Option<String>,
}

impl Health {
    pub fn check(home: &Home) -> Health {
        let path = home.db_path();
        let mut health = Health {
            path: path.display().to_string(),
            exists: path.exists(),
            read_error: None,
            damaged: false,
            write_error: None,
            schema_version: None,
            current_schema: schema::VERSION,
            integrity: None,
            last_capture: Vec::new(),
            redacted: Vec::new(),
            secrets_waiting: 0,
        };
        if !health.exists {
            return health;
        }
        match Store::open_read_only(home) {
            Ok(store) => {
                health.schema_version = store
                    .conn
                    .query_row("PRAGMA user_version", [], |r| r.get(0))
                    .ok();
                health.integrity = Some(quick_check(&store.conn));
                health.last_capture = last_capture(&store.conn).unwrap_or_default();
                // A store of an older schema has no count yet.
                health.redacted = redacted(&store.conn).unwrap_or_default();
                health.secrets_waiting = store.secrets_waiting().unwrap_or_default();
            }
            Err(e) => {
                health.damaged = e.is_damaged();
                health.read_error = Some(e.to_string());
            }
        }
        health.write_error = can_write(&path).err().map(|e| e.to_string());
        health
    }
}

/// How many of `quick_check`'s findings the doctor repeats.
const QUICK_CHECK_SHOWN: usize = 3;

fn quick_check(conn: &Connection) -> String {
    let rows = conn.prepare("PRAGMA quick_check").and_then(|mut stmt| {
        stmt.query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()
    });
    match rows {
        // A damaged file can list a problem per page: the first few say enough.
        Ok(rows) if rows.len() > QUICK_CHECK_SHOWN => format!(
            "{}; and {} more problems",
            rows[..QUICK_CHECK_SHOWN].join("; "),
            rows.len() - QUICK_CHECK_SHOWN
        ),
        Ok(rows) => rows.join("; "),
        Err(e) => e.to_string(),
    }
}

fn last_capture(conn: &Connection) -> rusqlite::Result<Vec<HostCapture>> {
    let mut stmt = conn.prepare(
        "SELECT host, max(coalesce(last_activity, started_at)) FROM sessions
         GROUP BY host ORDER BY host",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(HostCapture {
            host: r.get(0)?,
            at: r.get(1)?,
        })
    })?;
    rows.collect()
}

fn redacted(conn: &Connection) -> rusqlite::Result<Vec<(String, u64)>> {
    let mut stmt = conn.prepare("SELECT kind, count FROM redactions ORDER BY count DESC, kind")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
    rows.collect()
}

/// Takes and releases the write lock, as a hook would, without changing anything.
fn can_write(path: &std::path::Path) -> rusqlite::Result<()> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    conn.busy_timeout(super::BUSY_TIMEOUT)?;
    conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;")
}
