//! Where stored text lies, for the writers that replace a secret in it after it was stored
//! (the writer in its own chain, the scrub run in the rest of the store), and the count of
//! secrets replaced that `doctor` reports.

use rusqlite::{params, Connection};
use throughline_core::redact;

use super::Result;

/// A table that holds stored text a secret may be in.
pub(super) struct TextTable {
    pub name: &'static str,
    pub key: &'static str,
    pub text: &'static str,
    /// Its rows of the sessions in `chain`, a `WITH` table of session ids the caller defines.
    pub in_chain: &'static str,
}

pub(super) const TEXT_TABLES: [TextTable; 5] = [
    TextTable {
        name: "messages",
        key: "id",
        text: "text",
        in_chain: "session IN (SELECT id FROM chain)",
    },
    TextTable {
        name: "details",
        key: "id",
        text: "body",
        // By turn: details have no index by session of every kind.
        in_chain: "turn IN (SELECT t.id FROM turns t WHERE t.session IN (SELECT id FROM chain))",
    },
    TextTable {
        name: "summaries",
        key: "turn",
        text: "text",
        in_chain: "turn IN (SELECT t.id FROM turns t WHERE t.session IN (SELECT id FROM chain))",
    },
    TextTable {
        name: "model_summaries",
        key: "turn",
        text: "text",
        in_chain: "turn IN (SELECT t.id FROM turns t WHERE t.session IN (SELECT id FROM chain))",
    },
    // The memories logged since the first session of the chain started.
    TextTable {
        name: "injections",
        key: "id",
        text: "text",
        in_chain: "at >= (SELECT min(coalesce(started_at, '')) FROM sessions
                          WHERE id IN (SELECT id FROM chain))",
    },
];

impl TextTable {
    /// The statement reading (key, text) of the rows that have text and meet `condition`
    /// (which may end with an `ORDER BY`).
    pub(super) fn read_where(&self, condition: &str) -> String {
        format!(
            "SELECT {key}, {text} FROM {name} WHERE {text} IS NOT NULL AND {condition}",
            key = self.key,
            text = self.text,
            name = self.name,
        )
    }

    /// Writes `rows` (key, text) back, and their search index entries with them.
    pub(super) fn rewrite(&self, conn: &Connection, rows: &[(i64, String)]) -> Result<()> {
        let keys: Vec<i64> = rows.iter().map(|(key, _)| *key).collect();
        super::search::rewrite_indexed(conn, self.name, &keys, || {
            let mut stmt = conn.prepare(&format!(
                "UPDATE {} SET {} = ?2 WHERE {} = ?1",
                self.name, self.text, self.key
            ))?;
            for (key, text) in rows {
                stmt.execute(params![key, text])?;
            }
            Ok(())
        })
    }
}

/// Adds the secrets replaced to the store's counts (what `doctor` reports).
pub(super) fn count_redactions(conn: &Connection, counts: redact::Counts) -> Result<()> {
    for (kind, count) in counts {
        conn.prepare_cached(
            "INSERT INTO redactions (kind, count) VALUES (?1, ?2)
             ON CONFLICT (kind) DO UPDATE SET count = count + excluded.count",
        )?
        .execute(params![kind, count])?;
    }
    Ok(())
}
