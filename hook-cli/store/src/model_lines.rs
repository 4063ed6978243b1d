//! One-liners written by a model (docs/decisions/0055): which turns are due, the requests made
//! for them and what they cost, and the lines the memory uses in place of the local ones.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{Result, Store, Writer};
use throughline_core::model::Message;

/// A complete turn that left its session's verbatim window and has no model line yet.
#[derive(Debug, Clone)]
pub struct DueTurn {
    pub id: i64,
    pub code: String,
    pub messages: Vec<Message>,
}

/// One request to a summary backend, as logged.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SummaryCall {
    pub at: String,
    pub backend: String,
    pub model: String,
    /// Turns the request asked for, and the usable lines it returned.
    pub turns: u32,
    pub lines: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Why the request gave nothing usable, when it did not.
    pub error: Option<String>,
}

/// What the summary backends have cost, for `stats`, `doctor` and the app.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SummarySpend {
    pub calls: u64,
    pub failed_calls: u64,
    pub turns: u64,
    pub lines: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Requests since the start of `today` (the daily cap counts these).
    pub calls_today: u64,
    pub last_call: Option<SummaryCall>,
}

/// A model's one-liner of a turn, and who wrote it (`backend:model`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelLine {
    pub text: String,
    pub by: String,
}

/// Turns whose one-liner is due (see [`DueTurn`]): the newest sessions first, each session's
/// turns in order.
const DUE: &str = "SELECT t.id, t.code FROM turns t
     JOIN sessions s ON s.id = t.session
     JOIN summaries l ON l.turn = t.id
     LEFT JOIN model_summaries m ON m.turn = t.id
     WHERE t.seq > 0 AND m.turn IS NULL
       AND t.seq <= (SELECT max(seq) FROM turns WHERE session = t.session) - ?1
     ORDER BY s.last_activity DESC, s.id DESC, t.seq
     LIMIT ?2";

impl Store {
    /// Up to `limit` turns due for a model line, with their conversation; `verbatim` is the
    /// number of a session's newest turns the memory shows verbatim.
    pub fn due_turns(&self, verbatim: u32, limit: u32) -> Result<Vec<DueTurn>> {
        let rows: Vec<(i64, String)> = self
            .conn
            .prepare_cached(DUE)?
            .query_map(params![verbatim, limit], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        rows.into_iter()
            .map(|(id, code)| {
                Ok(DueTurn {
                    id,
                    code,
                    messages: self.turn_messages(id)?,
                })
            })
            .collect()
    }

    /// Whether the `batch` turns of `session` that left its verbatim window last are all due:
    /// what a hook asks before starting the summarizer. Reads at most `batch` turns, whatever
    /// the session's length.
    pub fn batch_due(&self, session: i64, verbatim: u32, batch: u32) -> Result<bool> {
        let Some(newest) = self
            .conn
            .prepare_cached("SELECT max(seq) FROM turns WHERE session = ?1")?
            .query_row([session], |r| r.get::<_, Option<i64>>(0))?
        else {
            return Ok(false);
        };
        let edge = newest - i64::from(verbatim);
        let first = edge - i64::from(batch) + 1;
        if batch == 0 || first < 1 {
            return Ok(false);
        }
        let due: i64 = self
            .conn
            .prepare_cached(
                "SELECT count(*) FROM turns t JOIN summaries l ON l.turn = t.id
                 WHERE t.session = ?1 AND t.seq BETWEEN ?2 AND ?3
                   AND NOT EXISTS (SELECT 1 FROM model_summaries m WHERE m.turn = t.id)",
            )?
            .query_row(params![session, first, edge], |r| r.get(0))?;
        Ok(due == i64::from(batch))
    }

    /// Requests made since `since` (a stored timestamp).
    pub fn summary_calls_since(&self, since: &str) -> Result<u64> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM summary_calls WHERE at >= ?1")?
            .query_row([since], |r| r.get(0))?)
    }

    /// Totals of every request, and the requests since `today`.
    pub fn summary_spend(&self, today: &str) -> Result<SummarySpend> {
        let mut spend = self
            .conn
            .prepare_cached(
                "SELECT count(*), count(error), coalesce(sum(turns), 0), coalesce(sum(lines), 0),
                        coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0)
                 FROM summary_calls",
            )?
            .query_row([], |r| {
                Ok(SummarySpend {
                    calls: r.get(0)?,
                    failed_calls: r.get(1)?,
                    turns: r.get(2)?,
                    lines: r.get(3)?,
                    input_tokens: r.get(4)?,
                    output_tokens: r.get(5)?,
                    ..SummarySpend::default()
                })
            })?;
        spend.calls_today = self.summary_calls_since(today)?;
        spend.last_call = self
            .conn
            .prepare_cached(
                "SELECT at, backend, model, turns, lines, input_tokens, output_tokens, error
                 FROM summary_calls ORDER BY id DESC LIMIT 1",
            )?
            .query_row([], |r| {
                Ok(SummaryCall {
                    at: r.get(0)?,
                    backend: r.get(1)?,
                    model: r.get(2)?,
                    turns: r.get(3)?,
                    lines: r.get(4)?,
                    input_tokens: r.get(5)?,
                    output_tokens: r.get(6)?,
                    error: r.get(7)?,
                })
            })
            .optional()?;
        Ok(spend)
    }

    /// The model lines of these turns (by code), where a model wrote one.
    pub fn model_lines<'a>(
        &self,
        codes: impl IntoIterator<Item = &'a str>,
    ) -> Result<HashMap<String, ModelLine>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.text, c.backend, c.model FROM turns t
             JOIN model_summaries m ON m.turn = t.id JOIN summary_calls c ON c.id = m.call
             WHERE t.code = ?1 AND m.text IS NOT NULL",
        )?;
        let mut lines = HashMap::new();
        for code in codes {
            let found = stmt
                .query_row([code], |r| {
                    Ok(ModelLine {
                        text: r.get(0)?,
                        by: format!("{}:{}", r.get::<_, String>(1)?, r.get::<_, String>(2)?),
                    })
                })
                .optional()?;
            if let Some(line) = found {
                lines.insert(code.to_string(), line);
            }
        }
        Ok(lines)
    }
}

impl Writer<'_> {
    /// Logs a request and what each of its turns got: a line, or `None` (tried; the local
    /// line stands and the turn is not asked for again).
    pub fn record_summaries(
        &self,
        call: &SummaryCall,
        lines: &[(i64, Option<String>)],
    ) -> Result<()> {
        let id: i64 = self
            .tx
            .prepare_cached(
                "INSERT INTO summary_calls (at, backend, model, turns, lines, input_tokens,
                    output_tokens, error)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
            )?
            .query_row(
                params![
                    call.at,
                    call.backend,
                    call.model,
                    call.turns,
                    call.lines,
                    call.input_tokens,
                    call.output_tokens,
                    call.error
                ],
                |r| r.get(0),
            )?;
        let mut insert = self.tx.prepare_cached(
            // A turn rolled back meanwhile is gone: nothing to keep for it.
            "INSERT OR REPLACE INTO model_summaries (turn, call, text)
             SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM turns WHERE id = ?1)",
        )?;
        for (turn, text) in lines {
            insert.execute(params![turn, id, text])?;
        }
        Ok(())
    }
}
