//! The read API shared by the CLI verbs and the tray app. Every call is one short read
//! transaction, safe to make while hooks write.

use std::sync::LazyLock;

use rusqlite::{params, OptionalExtension, Row};
use serde::Serialize;

use super::{Result, Store, StoreError};
use throughline_core::model::{
    Detail, DetailKind, Message, Role, Session, Turn, TurnDetail, Usage,
};
use throughline_hosts as hosts;

/// Which sessions to list.
#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    /// Only sessions of this project (git root or working directory).
    pub project: Option<String>,
    pub limit: Option<u32>,
    /// Only sessions with at least one prompted turn: a client opened and closed without a
    /// word, or a session whose turns were forgotten, has nothing to show.
    pub with_turns: bool,
}

/// What the store holds, for `status`.
#[derive(Debug, Clone, Serialize)]
pub struct StoreStats {
    pub path: String,
    pub bytes: u64,
    pub schema_version: i64,
    pub sessions: u64,
    pub projects: u64,
    pub turns: u64,
    pub messages: u64,
    pub details: u64,
    pub api_calls: u64,
    pub transcripts: u64,
    pub last_activity: Option<String>,
}

/// One project folder the store holds sessions of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProjectSummary {
    pub project: String,
    pub sessions: u64,
    pub last_activity: Option<String>,
}

/// How a session's context was spent, for `stats`: characters per layer as stored, and the
/// token usage the host recorded for each API call.
#[derive(Debug, Clone, Serialize)]
pub struct ContextSpend {
    pub session_id: String,
    pub project: Option<String>,
    pub turns: u64,
    /// L2: the prompts and every assistant text.
    pub conversation_chars: u64,
    /// Tool calls (their input) and tool results, as the model received them.
    pub tool_io_chars: u64,
    pub thinking_chars: u64,
    /// Attachments, host entries, commands and subagent text.
    pub other_chars: u64,
    pub api_calls: u64,
    /// Sums over every API call of the session.
    pub usage: Usage,
    /// Tokens the latest main-chain request occupied.
    pub last_context: Option<u64>,
    /// Characters a `/clear` with handoff would carry: the recent conversation, capped at
    /// what one injection can hold.
    pub handoff_chars: u64,
    /// Those characters as tokens, estimated from their text (a Japanese answer is several
    /// times the tokens of an English one of the same length).
    pub handoff_tokens: u64,
}

pub(super) const SESSION_COLUMNS: &str = concat!(
    "s.id, s.host, s.session_id, s.project, s.cwd, s.transcript_path,
    s.model, s.started_at, s.last_activity, s.ended_at, s.end_reason, s.start_source,
    (SELECT count(*) FROM turns t WHERE t.session = s.id AND ",
    prompted_turn!(),
    "), s.start_model,
    s.client_version, s.context_window, s.branch"
);

/// The session queries' condition that leaves out a session a newer build stored for a client
/// this one does not know: its transcript, payloads and limits are not this build's to read,
/// and read as another host's they would be read wrong.
static KNOWN_HOST: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<String> = hosts::all().map(|h| format!("'{}'", h.as_str())).collect();
    format!("s.host IN ({})", names.join(", "))
});

pub(super) fn session_from(r: &Row) -> rusqlite::Result<Session> {
    let host: String = r.get(1)?;
    let host = hosts::parse(&host).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            1,
            rusqlite::types::Type::Text,
            format!("a session of the client {host:?}, unknown to this build").into(),
        )
    })?;
    Ok(Session {
        id: r.get(0)?,
        host,
        session_id: r.get(2)?,
        project: r.get(3)?,
        cwd: r.get(4)?,
        transcript_path: r.get(5)?,
        model: r.get(6)?,
        started_at: r.get(7)?,
        last_activity: r.get(8)?,
        ended_at: r.get(9)?,
        end_reason: r.get(10)?,
        start_source: r.get(11)?,
        turns: r.get(12)?,
        start_model: r.get(13)?,
        client_version: r.get(14)?,
        context_window: r.get::<_, Option<i64>>(15)?.map(|w| w as u64),
        branch: r.get(16)?,
    })
}

impl Store {
    /// Sessions, most recently active first.
    pub fn sessions(&self, filter: &SessionFilter) -> Result<Vec<Session>> {
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s
             WHERE {known} AND (?1 IS NULL OR s.project = ?1)
               AND (NOT ?3 OR EXISTS (SELECT 1 FROM turns t WHERE t.session = s.id AND {prompted}))
             ORDER BY coalesce(s.last_activity, s.started_at) DESC, s.id DESC
             LIMIT ?2",
            known = *KNOWN_HOST,
            prompted = prompted_turn!()
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = filter.limit.map(i64::from).unwrap_or(-1);
        let rows = stmt.query_map(
            params![filter.project, limit, filter.with_turns],
            session_from,
        )?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Live sessions: not ended and active at or after `since` (a stored timestamp, e.g.
    /// `clock::before(&clock::now(), LIVE_WINDOW)`), most recently active first.
    pub fn live_sessions(&self, since: &str) -> Result<Vec<Session>> {
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s
             WHERE {known} AND s.ended_at IS NULL
               AND coalesce(s.last_activity, s.started_at) >= ?1
             ORDER BY coalesce(s.last_activity, s.started_at) DESC, s.id DESC",
            known = *KNOWN_HOST
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([since], session_from)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every project with stored sessions, most recently active first.
    pub fn projects(&self) -> Result<Vec<ProjectSummary>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT project, count(*), max(coalesce(last_activity, started_at)) AS latest
             FROM sessions WHERE project IS NOT NULL
             GROUP BY project ORDER BY latest DESC, project",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(ProjectSummary {
                project: r.get(0)?,
                sessions: r.get(1)?,
                last_activity: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A session by its host id, or by a unique prefix of it.
    pub fn session(&self, id_or_prefix: &str) -> Result<Session> {
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s
             WHERE {known} AND s.session_id >= ?1 AND s.session_id < ?1 || x'ff'
             ORDER BY s.session_id = ?1 DESC, s.session_id LIMIT 2",
            known = *KNOWN_HOST
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let found: Vec<Session> = stmt
            .query_map([id_or_prefix], session_from)?
            .collect::<rusqlite::Result<_>>()?;
        match found.as_slice() {
            [one] => Ok(one.clone()),
            [exact, ..] if exact.session_id == id_or_prefix => Ok(exact.clone()),
            [] => Err(StoreError::NotFound(format!(
                "no session {id_or_prefix:?}; `throughline sessions` lists them"
            ))),
            _ => Err(StoreError::NotFound(format!(
                "{id_or_prefix:?} matches several sessions; give more of the id"
            ))),
        }
    }

    /// The session named by `id` (or a unique prefix), else the latest of `project`.
    pub fn session_or_latest(&self, id: Option<&str>, project: Option<&str>) -> Result<Session> {
        if let Some(id) = id {
            return self.session(id);
        }
        self.sessions(&SessionFilter {
            project: project.map(str::to_string),
            limit: Some(1),
            ..SessionFilter::default()
        })?
        .pop()
        .ok_or_else(|| {
            StoreError::NotFound(format!(
                "no session recorded in {}; name one (`throughline sessions --all`)",
                project.unwrap_or("any project")
            ))
        })
    }

    /// The first prompt of `session`: which chat it is, for people choosing one.
    pub fn first_prompt(&self, session: &Session) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT text FROM messages WHERE role = 'user' AND turn =
                   (SELECT id FROM turns WHERE session = ?1 AND seq > 0 ORDER BY seq LIMIT 1)
                 ORDER BY id LIMIT 1",
            )?
            .query_row([session.id], |r| r.get(0))
            .optional()?)
    }

    /// The turns of a session in order, each with its L2 and an L3 summary line.
    pub fn turns(&self, session: &Session) -> Result<Vec<Turn>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, code, seq, started_at FROM turns WHERE session = ?1 ORDER BY seq",
        )?;
        let rows: Vec<(i64, String, u32, Option<String>)> = stmt
            .query_map([session.id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        rows.into_iter()
            .map(|(id, code, seq, started_at)| {
                self.assemble_turn(id, code, seq, started_at, &session.session_id)
            })
            .collect()
    }

    /// One turn in full, by its code or a unique prefix of it (at least four characters).
    pub fn turn_detail(&self, code: &str) -> Result<TurnDetail> {
        let (id, code, seq, started_at, session_id) = self.find_turn(code)?;
        let turn = self.assemble_turn(id, code, seq, started_at, &session_id)?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT kind, name, tool_use_id, body, is_error, at FROM details
             WHERE turn = ?1 ORDER BY id",
        )?;
        let details = stmt
            .query_map([id], |r| {
                let kind: String = r.get(0)?;
                Ok(Detail {
                    index: 0,
                    kind: DetailKind::parse(&kind).unwrap_or(DetailKind::System),
                    name: r.get(1)?,
                    tool_use_id: r.get(2)?,
                    body: r.get(3)?,
                    is_error: r.get(4)?,
                    at: r.get(5)?,
                })
            })?
            .enumerate()
            .map(|(i, d)| {
                d.map(|d| Detail {
                    index: i as u32 + 1,
                    ..d
                })
            })
            .collect::<rusqlite::Result<Vec<Detail>>>()?;
        let host: String = self.conn.query_row(
            "SELECT s.host FROM turns t JOIN sessions s ON s.id = t.session WHERE t.id = ?1",
            [id],
            |r| r.get(0),
        )?;
        // A client this build does not know: its calls keep their tool names, unexplained.
        let agent = hosts::parse(&host).map(hosts::agent);
        let steps = throughline_core::model::steps(&details, &|tool, input| {
            agent.and_then(|agent| agent.call(tool, input))
        });
        Ok(TurnDetail {
            turn,
            details,
            steps,
        })
    }

    /// One turn (L2 and its detail summary), by code or unique prefix.
    pub fn turn(&self, code: &str) -> Result<Turn> {
        let (id, code, seq, started_at, session_id) = self.find_turn(code)?;
        self.assemble_turn(id, code, seq, started_at, &session_id)
    }

    /// The last `count` turns of `session` before turn number `before_seq` (all turns when
    /// None), oldest first. What came before the first prompt is left out.
    pub fn recall(
        &self,
        session: &Session,
        before_seq: Option<u32>,
        count: u32,
    ) -> Result<Vec<Turn>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, code, seq, started_at FROM turns
             WHERE session = ?1 AND seq > 0 AND (?2 IS NULL OR seq < ?2)
             ORDER BY seq DESC LIMIT ?3",
        )?;
        let mut rows: Vec<(i64, String, u32, Option<String>)> = stmt
            .query_map(params![session.id, before_seq, count], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        rows.reverse();
        rows.into_iter()
            .map(|(id, code, seq, started_at)| {
                self.assemble_turn(id, code, seq, started_at, &session.session_id)
            })
            .collect()
    }

    pub(super) fn find_turn(
        &self,
        code: &str,
    ) -> Result<(i64, String, u32, Option<String>, String)> {
        let code = code.trim().to_ascii_lowercase();
        if code.len() < 4 {
            return Err(StoreError::NotFound(format!(
                "turn id {code:?} is too short; give at least 4 characters"
            )));
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT t.id, t.code, t.seq, t.started_at, s.session_id
             FROM turns t JOIN sessions s ON s.id = t.session
             WHERE t.code >= ?1 AND t.code < ?1 || x'ff'
             ORDER BY t.code = ?1 DESC LIMIT 2",
        )?;
        let found: Vec<_> = stmt
            .query_map([&code], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        match found.as_slice() {
            [one] => Ok(one.clone()),
            [exact, ..] if exact.1 == code => Ok(exact.clone()),
            [] => Err(StoreError::NotFound(format!(
                "no turn {code:?}; `throughline show <session>` lists turn ids"
            ))),
            _ => Err(StoreError::NotFound(format!(
                "{code:?} matches several turns; give the whole id"
            ))),
        }
    }

    pub(super) fn assemble_turn(
        &self,
        id: i64,
        code: String,
        seq: u32,
        started_at: Option<String>,
        session_id: &str,
    ) -> Result<Turn> {
        Ok(Turn {
            code,
            session_id: session_id.to_string(),
            seq,
            started_at,
            messages: self.turn_messages(id)?,
            detail_summary: self.detail_summary(id)?,
        })
    }

    /// A turn's L2: the prompt, then every assistant text block, in order.
    pub(super) fn turn_messages(&self, turn: i64) -> Result<Vec<Message>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT role, text, at FROM messages WHERE turn = ?1 ORDER BY id")?;
        let messages = stmt
            .query_map([turn], |r| {
                let role: String = r.get(0)?;
                Ok(Message {
                    role: Role::parse(&role),
                    text: r.get(1)?,
                    at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(messages)
    }

    /// `Read ×2, Bash ×3, 1 failed, thinking`: what `detail` can pull for a turn.
    pub(super) fn detail_summary(&self, turn: i64) -> Result<String> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT kind, coalesce(name, ''), count(*), sum(is_error), min(id) FROM details
             WHERE turn = ?1 AND kind IN ('tool_call', 'tool_result', 'thinking', 'image', 'subagent')
             GROUP BY kind, name ORDER BY min(id)",
        )?;
        let groups: Vec<(String, String, u64, u64)> = stmt
            .query_map([turn], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let counted = |label: &str, n: u64| {
            if n > 1 {
                format!("{label} ×{n}")
            } else {
                label.to_string()
            }
        };
        let mut parts = Vec::new();
        let mut failed = 0;
        let mut other: Vec<(&str, u64)> = Vec::new();
        for (kind, name, n, errors) in &groups {
            let label = match kind.as_str() {
                "tool_call" => {
                    parts.push(counted(name, *n));
                    continue;
                }
                "tool_result" => {
                    failed += errors;
                    continue;
                }
                "thinking" => "thinking",
                "image" => "image",
                _ => "subagent",
            };
            match other.iter_mut().find(|(l, _)| *l == label) {
                Some((_, total)) => *total += n,
                None => other.push((label, *n)),
            }
        }
        if failed > 0 {
            parts.push(format!("{failed} failed"));
        }
        parts.extend(other.into_iter().map(|(label, n)| counted(label, n)));
        Ok(parts.join(", "))
    }

    /// The context the session's latest main-chain request occupied, and its model.
    pub fn context_usage(&self, session: &Session) -> Result<Option<(Usage, Option<String>)>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT input, cache_creation, cache_read, output, model FROM api_calls
                 WHERE session = ?1 AND sidechain = 0 ORDER BY id DESC LIMIT 1",
            )?
            .query_row([session.id], |r| {
                Ok((
                    Usage {
                        input: r.get(0)?,
                        cache_creation: r.get(1)?,
                        cache_read: r.get(2)?,
                        output: r.get(3)?,
                    },
                    r.get(4)?,
                ))
            })
            .optional()?)
    }

    /// How `session`'s context was spent.
    pub fn context_spend(&self, session: &Session) -> Result<ContextSpend> {
        let (tool_io_chars, thinking_chars, other_chars) = self.conn.query_row(
            "SELECT coalesce(sum(CASE WHEN kind IN ('tool_call', 'tool_result') THEN length(body) END), 0),
                    coalesce(sum(CASE WHEN kind = 'thinking' THEN length(body) END), 0),
                    coalesce(sum(CASE WHEN kind NOT IN ('tool_call', 'tool_result', 'thinking')
                                      THEN length(body) END), 0)
             FROM details WHERE session = ?1",
            [session.id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let conversation_chars: u64 = self.conn.query_row(
            "SELECT coalesce(sum(length(text)), 0) FROM messages WHERE session = ?1",
            [session.id],
            |r| r.get(0),
        )?;
        let (api_calls, usage) = self.conn.query_row(
            "SELECT count(*), coalesce(sum(input), 0), coalesce(sum(cache_creation), 0),
                    coalesce(sum(cache_read), 0), coalesce(sum(output), 0)
             FROM api_calls WHERE session = ?1",
            [session.id],
            |r| {
                Ok((
                    r.get(0)?,
                    Usage {
                        input: r.get(1)?,
                        cache_creation: r.get(2)?,
                        cache_read: r.get(3)?,
                        output: r.get(4)?,
                    },
                ))
            },
        )?;
        let handoff_chars = conversation_chars.min(u64::from(throughline_core::config::MAX_BUDGET));
        let handoff_tokens = self.recent_conversation_tokens(session, handoff_chars)?;
        Ok(ContextSpend {
            session_id: session.session_id.clone(),
            project: session.project.clone(),
            turns: session.turns,
            conversation_chars,
            tool_io_chars,
            thinking_chars,
            other_chars,
            api_calls,
            usage,
            last_context: self.context_usage(session)?.map(|(u, _)| u.context()),
            handoff_chars,
            handoff_tokens,
        })
    }

    /// Estimated tokens of the session's latest `chars` characters of conversation.
    fn recent_conversation_tokens(&self, session: &Session, chars: u64) -> Result<u64> {
        let mut statement = self
            .conn
            .prepare("SELECT text FROM messages WHERE session = ?1 ORDER BY id DESC")?;
        let mut rows = statement.query([session.id])?;
        let (mut left, mut tokens) = (chars as usize, 0);
        while left > 0 {
            let Some(row) = rows.next()? else { break };
            let text: String = row.get(0)?;
            let taken: String = text.chars().rev().take(left).collect();
            left -= taken.chars().count();
            tokens += throughline_core::model::estimated_tokens(&taken);
        }
        Ok(tokens)
    }

    pub fn stats(&self) -> Result<StoreStats> {
        let count = |sql: &str| -> Result<u64> { Ok(self.conn.query_row(sql, [], |r| r.get(0))?) };
        let page_count = count("PRAGMA page_count")?;
        let page_size = count("PRAGMA page_size")?;
        let wal = std::fs::metadata(self.path.with_extension("db-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
        Ok(StoreStats {
            path: self.path.display().to_string(),
            bytes: page_count * page_size + wal,
            schema_version: self
                .conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))?,
            sessions: count("SELECT count(*) FROM sessions")?,
            projects: count("SELECT count(DISTINCT project) FROM sessions")?,
            turns: count(concat!(
                "SELECT count(*) FROM turns t WHERE ",
                prompted_turn!()
            ))?,
            messages: count("SELECT count(*) FROM messages")?,
            details: count("SELECT count(*) FROM details")?,
            api_calls: count("SELECT count(*) FROM api_calls")?,
            transcripts: count("SELECT count(*) FROM cursors")?,
            last_activity: self.conn.query_row(
                "SELECT max(last_activity) FROM sessions",
                [],
                |r| r.get(0),
            )?,
        })
    }
}
