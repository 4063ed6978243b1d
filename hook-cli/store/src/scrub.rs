//! A secret found late, replaced wherever the store holds it (docs/decisions/0150). The writer
//! that finds it replaces it at once in its session and the sessions that session continues
//! (0110, 0116); the rest of the store is read by a run of its own, started outside the hook,
//! so a hook never reads the whole store. The run reads without the write lock and takes it
//! only to rewrite the rows that hold a secret.

use std::collections::HashSet;

use rusqlite::OptionalExtension;
use serde::Serialize;
use throughline_core::redact;

use super::stored_text::{count_redactions, TEXT_TABLES};
use super::{Result, Store};

/// Text read in one batch, so a store of large tool outputs is never all in memory.
const BYTES_PER_STEP: usize = 8 << 20;

/// What [`Store::scrub_secrets`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Scrubbed {
    /// Secrets found late that it looked for.
    pub secrets: u64,
    /// Rows that held one and were rewritten.
    pub rows: u64,
    /// Whether the WAL, whose older frames held the rows as they were, is empty.
    pub wal_emptied: bool,
}

impl Store {
    /// How many secrets found late are still to be looked for in the rest of the store (a
    /// read of a partial index of those alone).
    pub fn secrets_waiting(&self) -> Result<u64> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM secret_marks WHERE everywhere = 0")?
            .query_row([], |r| r.get::<_, i64>(0))? as u64)
    }

    /// Replaces each secret found late, and not looked for everywhere yet, in every stored
    /// text, then marks it done. Stopped halfway, the next run starts again and finds less.
    pub fn scrub_secrets(&mut self) -> Result<Scrubbed> {
        let marks: HashSet<i64> = self
            .conn
            .prepare("SELECT mark FROM secret_marks WHERE everywhere = 0")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut done = Scrubbed {
            secrets: marks.len() as u64,
            wal_emptied: true,
            ..Scrubbed::default()
        };
        if marks.is_empty() {
            return Ok(done);
        }
        let mut counts = redact::Counts::new();
        let holds = |text: &str| {
            redact::redact_remembered(text, |m| marks.contains(&m), &mut redact::Counts::new())
                .is_some()
        };
        for table in &TEXT_TABLES {
            let read = table.read_where(&format!("{key} > ?1 ORDER BY {key}", key = table.key));
            let reread = table.read_where(&format!("{} = ?1", table.key));
            let mut after = i64::MIN;
            loop {
                // Read without the write lock, a bounded batch at a time: most rows hold no
                // secret, and hooks write meanwhile.
                let (holding, last) = {
                    let mut stmt = self.conn.prepare_cached(&read)?;
                    let mut rows = stmt.query([after])?;
                    let (mut holding, mut last, mut bytes) = (Vec::new(), None, 0);
                    while let Some(row) = rows.next()? {
                        let key: i64 = row.get(0)?;
                        let text: String = row.get(1)?;
                        if holds(&text) {
                            holding.push(key);
                        }
                        last = Some(key);
                        bytes += text.len();
                        if bytes >= BYTES_PER_STEP {
                            break;
                        }
                    }
                    (holding, last)
                };
                let Some(last) = last else { break };
                after = last;
                if holding.is_empty() {
                    continue;
                }
                // Under the lock, read again: a row may have changed since.
                self.in_steps(|tx| {
                    let mut rewritten = Vec::new();
                    for &key in &holding {
                        let text: Option<String> = tx
                            .prepare_cached(&reread)?
                            .query_row([key], |r| r.get(1))
                            .optional()?;
                        let again = text.and_then(|text| {
                            redact::redact_remembered(&text, |m| marks.contains(&m), &mut counts)
                        });
                        if let Some(text) = again {
                            rewritten.push((key, text));
                        }
                    }
                    table.rewrite(tx, &rewritten)?;
                    done.rows += rewritten.len() as u64;
                    Ok(false)
                })?;
            }
        }
        let mut counts = Some(counts);
        self.in_steps(|tx| {
            if let Some(counts) = counts.take() {
                count_redactions(tx, counts)?;
            }
            let mut stmt = tx.prepare("UPDATE secret_marks SET everywhere = 1 WHERE mark = ?1")?;
            for mark in &marks {
                stmt.execute([mark])?;
            }
            Ok(false)
        })?;
        if done.rows > 0 {
            done.wal_emptied = self.empty_wal()?;
        }
        Ok(done)
    }
}
