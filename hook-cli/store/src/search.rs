//! Full-text search over L2 (`messages_fts`) and L3 (`details_fts`), both trigram FTS5 indexes
//! (schema migration 3). Hooks do not index: a search first indexes what was captured since
//! the last one ([`Store::index_pending`]). The query language is built by the engine's `search`;
//! this module only runs it.

use std::collections::HashMap;

use rusqlite::{params, params_from_iter, types::Value, Row};

use super::{Result, Store, StoreError};
use throughline_core::model::{EntryRef, Layer};

/// How many of the most recent entries of each layer a query without any indexed term
/// (every word shorter than three characters) scans.
pub const SCAN_ROWS: i64 = 5_000;

/// Recent sessions rank higher: a score is multiplied by `1 + 1 / (1 + age / 14 days)`, so a
/// session active today counts double and one a year old barely more than once.
const RECENCY: &str = "(1.0 + 1.0 / (1.0 + max(0.0, julianday(?6)
    - julianday(coalesce(s.last_activity, s.started_at, ?6))) / 14.0))";

/// How many of the newest matches of each layer are ranked (see `Store::plan`).
pub const RANK_WINDOW: i64 = 2_000;

/// What to search and where.
#[derive(Debug, Clone, Default)]
pub struct SearchFilter {
    /// Only sessions of this project.
    pub project: Option<String>,
    /// Only this session (store row id).
    pub session: Option<i64>,
    /// Only this layer.
    pub layer: Option<Layer>,
    /// Only calls and results of this tool (implies L3).
    pub tool: Option<String>,
    /// Only entries at or after this time (RFC 3339 text).
    pub since: Option<String>,
    /// The current time, for the recency weight.
    pub now: String,
    pub limit: u32,
    /// How many hits the answer shows: when no more entries match, none needs ranking.
    pub shown: u32,
}

/// Which index an FTS5 expression is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Index {
    /// Substrings of three characters or more.
    #[default]
    Trigram,
    /// Short words and CJK character pairs (`store/words.rs`).
    Words,
}

/// How the rows are found.
#[derive(Debug, Clone)]
pub struct Matcher<'a> {
    /// An FTS5 expression, or None to scan the most recent [`SCAN_ROWS`] entries.
    pub fts: Option<&'a str>,
    /// The index `fts` asks.
    pub index: Index,
    /// Lower-case (ASCII) strings every matching entry must contain as well.
    pub contains: &'a [String],
    /// The terms of `fts`, each an FTS5 string as written there, when `fts` requires every
    /// one of them (empty otherwise): the store may then rank on the rarer ones alone (see
    /// [`COMMON_ENTRIES`]).
    pub every_term: &'a [String],
    /// The same, when `fts` asks for any of them: only the entries holding the most of them
    /// are found, by counting each term's entries once (see [`Store::holding_most`]), and
    /// given newest first.
    pub any_term: &'a [String],
}

/// A term held by this many entries of a layer or more is left out of the ranking when rarer
/// terms are required with it. BM25 counts, for each term of its expression, the entries of
/// the whole index holding it: for a word that tens of thousands hold that costs more than the
/// search itself (`deploy key` beside a code name: 20–35 ms at 100,000 turns), and adds
/// almost nothing, as a word so common weighs little against a rare one that every match
/// holds as well. Counting up to this bound costs a fraction of a millisecond.
const COMMON_ENTRIES: i64 = 1_000;

/// Terms a BM25 ranking weighs at most, the rarest: for every entry it ranks, FTS5 lists the
/// occurrences of all the expression's terms by scanning every term for each occurrence, so
/// the cost grows with the square of the terms (a pasted page of 2,048 words: 35 times the
/// time of 256). The rarest terms carry nearly all of the weight.
pub(super) const RANKED_TERMS: usize = 32;

/// How to search one layer.
struct Plan {
    matches: i64,
    start: i64,
}

/// Characters of one L3 body that are indexed; the rest is still stored and shown by `detail`.
const INDEXED_BODY_CHARS: i64 = 65_536;

/// Bytes of text indexed per transaction: a few ms of FTS5 work and commit, so a hook waits
/// no longer than that for the lock while a backlog is indexed — also when the indexer, below
/// hooks for the CPU, gets little of it on a busy machine.
const INDEX_BATCH_BYTES: i64 = 32 << 10;
/// Index pages one merge step writes (FTS5 pages are about 4 KB): a step as short as a batch.
const MERGE_PAGES: i64 = 16;
/// Rows looked at per batch, however small.
const INDEX_BATCH_ROWS: i64 = 2_000;

/// What [`Store::index_pending`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Indexed {
    /// Entries added to the index.
    pub added: u64,
    /// Whether entries are left unindexed because another writer held the lock too long.
    pub behind: bool,
}

/// One layer's index: its FTS table, the table it indexes and what of a row goes in.
struct IndexOf {
    layer: &'static str,
    fts: &'static str,
    /// The FTS table's own name, for its commands.
    name: &'static str,
    table: &'static str,
    text: String,
    /// Bytes the row adds to a batch, read without its text.
    size: String,
    searchable: &'static str,
    /// Whether its additions count as entries indexed (the short-word index follows the
    /// trigram index of the same rows).
    counted: bool,
}

fn indexes() -> [IndexOf; 4] {
    let body = format!("substr(body, 1, {INDEXED_BODY_CHARS})");
    let body_size = format!("min(octet_length(body), {INDEXED_BODY_CHARS} * 3)");
    [
        IndexOf {
            layer: "messages",
            fts: "messages_fts (rowid, text)",
            name: "messages_fts",
            table: "messages",
            text: "text".into(),
            size: "octet_length(text)".into(),
            searchable: "1",
            counted: true,
        },
        IndexOf {
            layer: "details",
            fts: "details_fts (rowid, body)",
            name: "details_fts",
            table: "details",
            text: body.clone(),
            size: body_size.clone(),
            searchable: SEARCHABLE_KIND,
            counted: true,
        },
        IndexOf {
            layer: "messages_words",
            fts: "messages_words (rowid, words)",
            name: "messages_words",
            table: "messages",
            text: format!("{}(text)", super::words::FUNCTION),
            size: "octet_length(text)".into(),
            searchable: "1",
            counted: false,
        },
        IndexOf {
            layer: "details_words",
            fts: "details_words (rowid, words)",
            name: "details_words",
            table: "details",
            text: format!("{}({body})", super::words::FUNCTION),
            size: body_size,
            searchable: SEARCHABLE_KIND,
            counted: false,
        },
    ]
}

/// Whether a `details` row is indexed (and scanned by the short-word fallback).
const SEARCHABLE_KIND: &str = "kind IN ('tool_call', 'tool_result', 'thinking', 'subagent')";

impl Store {
    /// Indexes what capture stored since the last search, so every stored turn is searchable.
    /// Indexing costs about as much as storing: done here, not on the hook path, it is paid
    /// once per search instead of on every tool call. A backlog (the first search after an
    /// import) is indexed in small transactions, each taken with `BEGIN IMMEDIATE` (so a
    /// hook's commit can never make it fail) and followed by a pause in which a waiting hook
    /// takes the lock. Should another writer hold the lock past the busy timeout, the rest is
    /// left for the next search and `behind` says so. A store opened read-only is searched as
    /// it is.
    pub fn index_pending(&self) -> Result<Indexed> {
        if self.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) || !self.any_unindexed()? {
            return Ok(Indexed::default());
        }
        // On a thread below hooks for the CPU (an unprivileged thread cannot come back up, so
        // not this one: the search runs after it), through a connection of its own.
        let indexer = self.second_connection()?;
        std::thread::scope(|s| {
            s.spawn(move || {
                super::bulk::become_bulk();
                indexer.index_here()
            })
            .join()
            .expect("the indexing thread does not panic")
        })
    }

    fn index_here(&self) -> Result<Indexed> {
        let mut done = Indexed::default();
        let mut commits = 0;
        for index in indexes() {
            // What is stored now, not what an import goes on storing meanwhile: a search
            // beside one answers instead of following it to its end.
            let until: i64 = self
                .conn
                .prepare_cached(&format!("SELECT coalesce(max(id), 0) FROM {}", index.table))?
                .query_row([], |r| r.get(0))?;
            // Each batch adds a segment to the index; a merge step after each keeps their
            // number (and the cost of a query) down.
            loop {
                let step = self.index_batch(&index, until).and_then(|added| {
                    if index.counted {
                        done.added += added.unwrap_or(0);
                    }
                    self.waiters.let_go_first();
                    let more = added.is_some() | self.merge_step(&index)?;
                    commits += 2;
                    self.bulk_committed(commits)?;
                    Ok(more)
                });
                match step {
                    Ok(true) => self.waiters.let_go_first(),
                    Ok(false) => break,
                    Err(StoreError::Sql(e))
                        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) =>
                    {
                        done.behind = true;
                        return Ok(done);
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(done)
    }

    /// One bounded step of merging an index's segments, in its own transaction; false once
    /// there was nothing left to merge.
    fn merge_step(&self, index: &IndexOf) -> Result<bool> {
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        let before = self.conn.total_changes();
        tx.execute(
            &format!(
                "INSERT INTO {0} ({0}, rank) VALUES ('merge', ?1)",
                index.name
            ),
            [MERGE_PAGES],
        )?;
        // FTS5's own test: a step that merged nothing changed fewer than two rows.
        let merged = self.conn.total_changes() - before >= 2;
        tx.commit()?;
        Ok(merged)
    }

    /// Indexes the next rows of one layer, up to about [`INDEX_BATCH_BYTES`] and no further
    /// than row `until`, in one transaction. Returns how many entries it added; None when no
    /// row was left.
    fn index_batch(&self, index: &IndexOf, until: i64) -> Result<Option<u64>> {
        let IndexOf {
            layer,
            fts,
            table,
            text,
            size,
            searchable,
            ..
        } = index;
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        let from: i64 = tx
            .prepare_cached("SELECT upto FROM search_progress WHERE layer = ?1")?
            .query_row([layer], |r| r.get(0))?;
        // The batch ends where the text to index reaches the batch size; `octet_length` reads
        // a row's size without its text.
        let mut upto = from;
        let mut rows = 0u64;
        let mut bytes = 0i64;
        {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT id, CASE WHEN {searchable} THEN {size} ELSE 0 END FROM {table} WHERE id > ?1 AND id <= ?3 ORDER BY id LIMIT ?2"
            ))?;
            let mut found = stmt.query(params![from, INDEX_BATCH_ROWS, until])?;
            while let Some(row) = found.next()? {
                upto = row.get(0)?;
                rows += 1;
                bytes += row.get::<_, i64>(1)?;
                if bytes >= INDEX_BATCH_BYTES {
                    break;
                }
            }
        }
        if rows == 0 {
            return Ok(None);
        }
        let added = tx
            .prepare_cached(&format!(
                "INSERT INTO {fts} SELECT id, {text} FROM {table}
             WHERE id > ?1 AND id <= ?2 AND {searchable}"
            ))?
            .execute(params![from, upto])?;
        tx.prepare_cached("UPDATE search_progress SET upto = ?2 WHERE layer = ?1")?
            .execute(params![layer, upto])?;
        tx.commit()?;
        Ok(Some(added as u64))
    }

    /// Whether any entry is captured but not indexed yet (without counting them).
    fn any_unindexed(&self) -> Result<bool> {
        Ok(self.conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE id > (SELECT min(upto) FROM search_progress WHERE layer IN ('messages', 'messages_words')))
                 OR EXISTS (SELECT 1 FROM details WHERE id > (SELECT min(upto) FROM search_progress WHERE layer IN ('details', 'details_words')))",
        )?
        .query_row([], |r| r.get(0))?)
    }

    /// Entries captured but not indexed yet.
    pub fn unindexed(&self) -> Result<u64> {
        Ok(self.conn.prepare_cached(
            "SELECT (SELECT count(*) FROM messages WHERE id > (SELECT upto FROM search_progress WHERE layer = 'messages'))
                  + (SELECT count(*) FROM details WHERE id > (SELECT upto FROM search_progress WHERE layer = 'details'))",
        )?
        .query_row([], |r| r.get(0))?)
    }
}

/// What part of the memory a search looked at, when not all of it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Entries read by a scan (no term long enough for the index), and entries in all.
    pub scanned: Option<(i64, i64)>,
    /// More entries matched than are ranked ([`RANK_WINDOW`] per layer, the newest).
    pub windowed: bool,
}

/// Takes a turn's indexed entries out of the search indexes before the turn is removed
/// (an external-content index cannot find them once the rows are gone).
pub(super) fn unindex_turn(tx: &rusqlite::Transaction, turn: i64) -> Result<()> {
    tx.execute(
        "INSERT INTO messages_fts (messages_fts, rowid, text)
         SELECT 'delete', id, text FROM messages
         WHERE turn = ?1 AND id <= (SELECT upto FROM search_progress WHERE layer = 'messages')",
        [turn],
    )?;
    tx.execute(
        &format!(
            "INSERT INTO details_fts (details_fts, rowid, body)
             SELECT 'delete', id, substr(body, 1, {INDEXED_BODY_CHARS}) FROM details
             WHERE turn = ?1 AND {SEARCHABLE_KIND}
               AND id <= (SELECT upto FROM search_progress WHERE layer = 'details')"
        ),
        [turn],
    )?;
    // Contentless: rows go by id alone.
    tx.execute(
        "DELETE FROM messages_words WHERE rowid IN (SELECT id FROM messages WHERE turn = ?1)",
        [turn],
    )?;
    tx.execute(
        "DELETE FROM details_words WHERE rowid IN (SELECT id FROM details WHERE turn = ?1)",
        [turn],
    )?;
    Ok(())
}

/// Rewrites rows `ids` of `table` (`messages` or `details`; any other table has no index) with
/// `rewrite`, keeping each search index that already holds them right: their old text leaves
/// the index first (an external-content index needs it to find the entries), the new text
/// enters after. Rows not indexed yet are indexed later as they are then.
pub(super) fn rewrite_indexed(
    tx: &rusqlite::Connection,
    table: &str,
    ids: &[i64],
    rewrite: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let mut indexed = Vec::new();
    for index in indexes().into_iter().filter(|i| i.table == table) {
        let upto: i64 = tx
            .prepare_cached("SELECT upto FROM search_progress WHERE layer = ?1")?
            .query_row([index.layer], |r| r.get(0))?;
        let held: Vec<i64> = ids.iter().copied().filter(|&id| id <= upto).collect();
        if held.is_empty() {
            continue;
        }
        let IndexOf {
            name,
            fts,
            text,
            searchable,
            ..
        } = &index;
        let take_out = if index.counted {
            let columns = &fts[fts.find('(').unwrap_or(0)..];
            let columns = columns.trim_start_matches('(');
            format!(
                "INSERT INTO {name} ({name}, {columns} SELECT 'delete', id, {text} FROM {table}
                 WHERE id = ?1 AND {searchable}"
            )
        } else {
            // Contentless: entries go by row id alone.
            format!("DELETE FROM {name} WHERE rowid = ?1")
        };
        let mut stmt = tx.prepare(&take_out)?;
        for id in &held {
            stmt.execute([id])?;
        }
        indexed.push((index, held));
    }
    rewrite()?;
    for (
        IndexOf {
            fts,
            text,
            table,
            searchable,
            ..
        },
        held,
    ) in indexed
    {
        let mut stmt = tx.prepare(&format!(
            "INSERT INTO {fts} SELECT id, {text} FROM {table} WHERE id = ?1 AND {searchable}"
        ))?;
        for id in held {
            stmt.execute([id])?;
        }
    }
    Ok(())
}

/// After rows were removed: the next rows may reuse their ids, below what is marked as
/// indexed; the mark comes down to the rows that are left, so those are indexed too.
pub(super) fn index_after_removal(tx: &rusqlite::Transaction) -> Result<()> {
    tx.execute_batch(
        "UPDATE search_progress SET upto = min(upto, (SELECT coalesce(max(id), 0) FROM messages))
         WHERE layer IN ('messages', 'messages_words');
         UPDATE search_progress SET upto = min(upto, (SELECT coalesce(max(id), 0) FROM details))
         WHERE layer IN ('details', 'details_words');",
    )?;
    Ok(())
}

/// One matching entry, best first.
#[derive(Debug, Clone)]
pub struct Matched {
    pub entry: EntryRef,
    pub text: String,
    /// Lower is better (BM25 as FTS5 gives it, weighted by recency).
    pub score: f64,
}

fn matched(layer: Layer) -> impl Fn(&Row) -> rusqlite::Result<Matched> {
    move |r| {
        Ok(Matched {
            entry: EntryRef {
                turn: r.get(0)?,
                session_id: r.get(1)?,
                project: r.get(9)?,
                at: r.get(2)?,
                layer,
                role: r.get(3)?,
                tool: r.get(4)?,
                tool_index: r.get::<_, Option<u32>>(5)?.filter(|n| *n > 0),
                item: r.get(6)?,
            },
            text: r.get(7)?,
            score: r.get(8)?,
        })
    }
}

impl Store {
    /// Entries matching `matcher` within `filter`, best first, at most `filter.limit` of each
    /// layer, and what part of the memory was looked at.
    pub fn search(
        &self,
        matcher: &Matcher,
        filter: &SearchFilter,
    ) -> Result<(Vec<Matched>, Coverage)> {
        // Readers never migrate: a memory written by an older throughline gets its index from
        // the next writer.
        let indexed = self
            .conn
            .prepare_cached("SELECT 1 FROM sqlite_master WHERE name = 'details_fts'")?
            .exists([])?;
        if !indexed {
            return Err(StoreError::NotFound(
                "this memory has no search index yet: the next hook call or `throughline import` \
                 adds it"
                    .into(),
            ));
        }
        let plans = layers(filter)
            .into_iter()
            .map(|layer| Ok((layer, self.plan(layer, matcher, filter)?)))
            .collect::<Result<Vec<_>>>()?;
        // BM25 counts, for every term, the entries holding it in the whole index; when all
        // matches fit in the answer there is nothing to rank, so skip that cost.
        let matches = plans
            .iter()
            .fold(0i64, |n, (_, p)| n.saturating_add(p.matches));
        let ranked = matches > i64::from(filter.shown);
        let mut coverage = Coverage {
            windowed: plans.iter().any(|(_, p)| p.start > 0),
            ..Coverage::default()
        };
        if matcher.fts.is_none() {
            let total: i64 = self
                .conn
                .prepare_cached(
                    "SELECT (SELECT coalesce(max(id), 0) FROM messages)
                          + (SELECT coalesce(max(id), 0) FROM details)",
                )?
                .query_row([], |r| r.get(0))?;
            let read = SCAN_ROWS * plans.len() as i64;
            if total > read {
                coverage.scanned = Some((read, total));
            }
        }
        let mut found = Vec::new();
        // A layer where nothing matches has nothing to read.
        for (layer, plan) in plans.into_iter().filter(|(_, p)| p.matches > 0) {
            found.extend(self.search_layer(layer, matcher, filter, plan.start, ranked)?);
        }
        found.sort_by(|a, b| a.score.total_cmp(&b.score));
        Ok((found, coverage))
    }

    /// How many entries of a layer match (counting up to [`RANK_WINDOW`], before scoping) and
    /// the oldest row id worth ranking: a query matching more than the window is ranked among
    /// its newest matches only, so a frequent word stays fast. One session is small: all of it
    /// is ranked.
    fn plan(&self, layer: Layer, matcher: &Matcher, filter: &SearchFilter) -> Result<Plan> {
        let Some(query) = matcher.fts else {
            // A scan: no index to count with.
            return Ok(Plan {
                matches: i64::MAX,
                start: 0,
            });
        };
        let fts = fts_table(layer, matcher.index);
        let (matches, oldest): (i64, Option<i64>) = self
            .conn
            .prepare_cached(&format!(
                "SELECT count(*), min(rowid) FROM
                    (SELECT rowid FROM {fts} WHERE {fts} MATCH ?1 ORDER BY rowid DESC LIMIT ?2)"
            ))?
            .query_row(params![query, RANK_WINDOW], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let start = match (filter.session, oldest) {
            (None, Some(oldest)) if matches >= RANK_WINDOW => oldest,
            _ => 0,
        };
        Ok(Plan { matches, start })
    }

    fn search_layer(
        &self,
        layer: Layer,
        matcher: &Matcher,
        filter: &SearchFilter,
        window_start: i64,
        ranked: bool,
    ) -> Result<Vec<Matched>> {
        let of = Columns::of(layer);
        let Columns {
            table, row, text, ..
        } = of;
        let fts = fts_table(layer, matcher.index);
        // The entries holding the most of any-of terms, when there are such terms.
        let most = match matcher.any_term.is_empty() {
            true => None,
            false => match self.holding_most(layer, matcher, filter, window_start)? {
                ids if ids.is_empty() => return Ok(Vec::new()),
                ids => Some(ids),
            },
        };
        let rank_on = match (ranked, &most) {
            (true, None) => self.rarer_terms(fts, matcher)?,
            _ => None,
        };
        // Numbered after the eight below: the strings entries must contain, then the
        // ranking expression, then the entries holding the most terms.
        let rank_param = 9 + matcher.contains.len();
        let most_param = rank_param + usize::from(rank_on.is_some());
        // Unranked (a scan, or every match fits in the answer): newer is better.
        let newest_first = format!("-julianday(coalesce({row}.at, s.last_activity, ?6))");
        let (source, rowid, matches, score) = match (matcher.fts, &most) {
            // They hold as many of the terms: the newest first.
            (_, Some(_)) => (
                format!("json_each(?{most_param}) most"),
                "most.value".to_string(),
                "1".to_string(),
                newest_first,
            ),
            (Some(_), None) => (
                fts.to_string(),
                format!("{fts}.rowid"),
                match rank_on {
                    // Found by the rarer terms (BM25 ranks on them), kept when they hold all.
                    Some(_) => format!(
                        "{fts} MATCH ?{rank_param} AND {fts}.rowid IN
                            (SELECT rowid FROM {fts} WHERE {fts} MATCH ?7)"
                    ),
                    None => format!("{fts} MATCH ?7"),
                },
                if ranked {
                    format!("bm25({fts}) * {RECENCY}")
                } else {
                    newest_first
                },
            ),
            (None, None) => (
                format!("(SELECT id FROM {table} ORDER BY id DESC LIMIT ?7) recent"),
                "recent.id".to_string(),
                match layer {
                    Layer::L2 => "1".to_string(),
                    Layer::L3 => format!("d.{SEARCHABLE_KIND}"),
                },
                newest_first,
            ),
        };
        let scope = of.scope(matcher);
        let columns = &of.columns;
        // Rank on row ids and scores alone, then read the few best rows in full: a frequent
        // word must not load every matching tool output.
        // ?1 project, ?2 session, ?3 since, ?4 limit, ?5 tool, ?6 now, ?7 FTS query or scan
        // size, ?8 first row id to rank, ?9.. strings every entry must contain.
        let sql = format!(
            "WITH best AS (
                SELECT {row}.id AS id, {score} AS score
                FROM {source}
                JOIN {table} {row} ON {row}.id = {rowid}
                JOIN sessions s ON s.id = {row}.session
                WHERE {matches} AND {rowid} >= ?8 {scope}
                ORDER BY score LIMIT ?4
             )
             SELECT t.code, s.session_id, {row}.at, {columns}, {text}, best.score, s.project
             FROM best
             JOIN {table} {row} ON {row}.id = best.id
             JOIN turns t ON t.id = {row}.turn
             JOIN sessions s ON s.id = {row}.session
             ORDER BY best.score"
        );
        let mut values = scope_values(
            filter,
            match matcher.fts {
                Some(q) => q.to_string().into(),
                None => SCAN_ROWS.into(),
            },
            window_start,
        );
        values.extend(matcher.contains.iter().map(|c| Value::from(c.clone())));
        values.extend(rank_on.map(Value::from));
        values.extend(most.map(|ids| Value::from(json_ids(&ids))));
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params_from_iter(values), matched(layer))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The entries of a layer, within `filter` and from row `window_start` on, that hold the
    /// most of `matcher`'s any-of terms. Each term's entries are read from the index once and
    /// counted, then those counted are checked against the filter in one query: the work is
    /// that of the terms' entries. Ranking the any-of expression with BM25 instead costs the
    /// square of its terms, and counting each term's entries in the whole index besides; among
    /// entries holding as many of the words, the newest serve as well (the relevance set
    /// names the same turns either way).
    fn holding_most(
        &self,
        layer: Layer,
        matcher: &Matcher,
        filter: &SearchFilter,
        window_start: i64,
    ) -> Result<Vec<i64>> {
        let of = Columns::of(layer);
        let Columns { table, row, .. } = of;
        let fts = fts_table(layer, matcher.index);
        let mut held: HashMap<i64, u32> = HashMap::new();
        let mut entries = self.conn.prepare_cached(&format!(
            "SELECT rowid FROM {fts} WHERE {fts} MATCH ?1 AND rowid >= ?2"
        ))?;
        for term in matcher.any_term {
            let mut ids = entries.query(params![term, window_start])?;
            while let Some(id) = ids.next()? {
                *held.entry(id.get(0)?).or_default() += 1;
            }
        }
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let counted: Vec<i64> = held.keys().copied().collect();
        let scope = of.scope(matcher);
        // ?1 project, ?2 session, ?3 since, ?5 tool, ?7 the entries counted, ?8 the first row
        // id; ?9.. the strings every entry must contain.
        let mut in_scope = self.conn.prepare_cached(&format!(
            "SELECT {row}.id FROM json_each(?7) counted
             JOIN {table} {row} ON {row}.id = counted.value
             JOIN sessions s ON s.id = {row}.session
             WHERE counted.value >= ?8 {scope}"
        ))?;
        let mut values = scope_values(filter, json_ids(&counted).into(), window_start);
        values.extend(matcher.contains.iter().map(|c| Value::from(c.clone())));
        let shown: Vec<i64> = in_scope
            .query_map(params_from_iter(values), |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let most = shown.iter().map(|id| held[id]).max().unwrap_or(0);
        let mut ids: Vec<i64> = shown.into_iter().filter(|id| held[id] == most).collect();
        ids.sort_unstable();
        Ok(ids)
    }
}

/// The layers a search with `filter` looks at: a tool's calls and output are all in L3.
fn layers(filter: &SearchFilter) -> Vec<Layer> {
    let mut layers = Vec::new();
    if filter.layer != Some(Layer::L3) && filter.tool.is_none() {
        layers.push(Layer::L2);
    }
    if filter.layer != Some(Layer::L2) {
        layers.push(Layer::L3);
    }
    layers
}

impl Store {
    /// Every entry of turn `turn` a search with `filter` looks at (its layers, tool and time),
    /// in the order stored: what a search hit's turn holds beside it.
    pub fn turn_entries(&self, turn: &str, filter: &SearchFilter) -> Result<Vec<Matched>> {
        let mut out = Vec::new();
        for layer in layers(filter) {
            let Columns {
                table,
                row,
                text,
                tool,
                columns,
            } = Columns::of(layer);
            let searchable = match layer {
                Layer::L2 => "1".to_string(),
                Layer::L3 => format!("d.{SEARCHABLE_KIND}"),
            };
            let mut stmt = self.conn.prepare_cached(&format!(
                "SELECT t.code, s.session_id, {row}.at, {columns}, {text}, 0.0, s.project
                 FROM turns t
                 JOIN {table} {row} ON {row}.turn = t.id
                 JOIN sessions s ON s.id = {row}.session
                 WHERE t.code = ?1 AND {searchable}
                   AND (?2 IS NULL OR {row}.at >= ?2)
                   AND (?3 IS NULL OR {tool} = ?3)
                 ORDER BY {row}.id"
            ))?;
            let rows = stmt.query_map(params![turn, filter.since, filter.tool], matched(layer))?;
            out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
        }
        Ok(out)
    }
}

/// Row ids as a JSON array, for `json_each`.
fn json_ids(ids: &[i64]) -> String {
    let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
    format!("[{}]", ids.join(","))
}

/// The first eight values of a search's statements: ?1 project, ?2 session, ?3 since, ?4
/// limit, ?5 tool, ?6 now, ?7 what to match, ?8 the first row id to look at.
fn scope_values(filter: &SearchFilter, what: Value, window_start: i64) -> Vec<Value> {
    vec![
        filter.project.clone().into(),
        filter.session.into(),
        filter.since.clone().into(),
        i64::from(filter.limit).into(),
        filter.tool.clone().into(),
        filter.now.clone().into(),
        what,
        window_start.into(),
    ]
}

/// How a layer's rows are read by a search.
struct Columns {
    table: &'static str,
    /// The table's alias.
    row: &'static str,
    /// The searched text.
    text: &'static str,
    /// The tool a row belongs to, as SQL.
    tool: &'static str,
    /// An entry's role, tool, tool call number and item number.
    columns: String,
}

impl Columns {
    fn of(layer: Layer) -> Columns {
        match layer {
            Layer::L2 => Columns {
                table: "messages",
                row: "m",
                text: "m.text",
                tool: "NULL",
                columns: "m.role, NULL, NULL, NULL".into(),
            },
            Layer::L3 => Columns {
                table: "details",
                row: "d",
                text: "d.body",
                tool: TOOL_NAME,
                columns: format!(
                    "d.kind, {TOOL_NAME},
                     CASE WHEN d.kind IN ('tool_call', 'tool_result') THEN
                        (SELECT count(*) FROM details c WHERE c.turn = d.turn
                            AND c.kind = 'tool_call' AND c.id <= {CALL_ID}) END,
                     (SELECT count(*) FROM details c WHERE c.turn = d.turn AND c.id <= d.id)"
                ),
            },
        }
    }

    /// The conditions of a search's filter on a row (`AND …`): its project, session, time and
    /// tool (?1, ?2, ?3, ?5), and the strings it must contain (?9 on).
    fn scope(&self, matcher: &Matcher) -> String {
        let Columns {
            row, text, tool, ..
        } = self;
        let contains: String = (0..matcher.contains.len())
            .map(|i| format!(" AND instr(lower({text}), ?{}) > 0", i + 9))
            .collect();
        format!(
            "AND (?1 IS NULL OR s.project = ?1)
             AND (?2 IS NULL OR s.id = ?2)
             AND (?3 IS NULL OR {row}.at >= ?3)
             AND (?5 IS NULL OR {tool} = ?5)
             {contains}"
        )
    }
}

impl Store {
    /// The FTS5 expression of `matcher`'s terms that fewer than [`COMMON_ENTRIES`] entries of
    /// `fts` hold (of all of them when none is that rare), at most [`RANKED_TERMS`] of them,
    /// the rarest; None when that is every term: rank on the whole expression.
    pub(super) fn rarer_terms(&self, fts: &str, matcher: &Matcher) -> Result<Option<String>> {
        if matcher.every_term.len() < 2 {
            return Ok(None);
        }
        let mut count = self.conn.prepare_cached(&format!(
            "SELECT count(*) FROM (SELECT 1 FROM {fts} WHERE {fts} MATCH ?1 LIMIT ?2)"
        ))?;
        let mut held: Vec<(i64, &str)> = Vec::new();
        for term in matcher.every_term {
            held.push((
                count.query_row(params![term, COMMON_ENTRIES], |r| r.get(0))?,
                term.as_str(),
            ));
        }
        held.sort_by_key(|(entries, _)| *entries);
        let rarer = match held.iter().filter(|(n, _)| *n < COMMON_ENTRIES).count() {
            0 => held.len(),
            rarer => rarer,
        };
        let ranked = rarer.min(RANKED_TERMS);
        Ok((ranked < held.len()).then(|| {
            let terms: Vec<&str> = held[..ranked].iter().map(|(_, t)| *t).collect();
            terms.join(" ")
        }))
    }
}

pub(super) fn fts_table(layer: Layer, index: Index) -> &'static str {
    match (layer, index) {
        (Layer::L2, Index::Trigram) => "messages_fts",
        (Layer::L3, Index::Trigram) => "details_fts",
        (Layer::L2, Index::Words) => "messages_words",
        (Layer::L3, Index::Words) => "details_words",
    }
}

/// The row id of the tool call a detail belongs to (itself for a call).
const CALL_ID: &str = "CASE d.kind WHEN 'tool_call' THEN d.id ELSE
    (SELECT c2.id FROM details c2 WHERE c2.turn = d.turn AND c2.kind = 'tool_call'
        AND c2.tool_use_id = d.tool_use_id) END";

/// The tool a call or result belongs to: results name it through their call.
const TOOL_NAME: &str = "CASE d.kind WHEN 'tool_call' THEN d.name WHEN 'tool_result' THEN
    (SELECT c3.name FROM details c3 WHERE c3.turn = d.turn AND c3.kind = 'tool_call'
        AND c3.tool_use_id = d.tool_use_id) END";
