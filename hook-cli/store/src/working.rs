//! SQL for the working state a memory hands on ([`WorkingState`]): the chain's latest calls
//! of the tools that change files or write the todo list (with the results of those that
//! change one task), and the newest turn's calls left without a result and its latest
//! thinking. Each read is bounded, so a handoff hook takes
//! milliseconds whatever the size of the chain or the store.

use std::collections::HashSet;

use rusqlite::{params, OptionalExtension};

use super::{Result, Store};
use throughline_core::model::{
    first_line, project_path, tail_from_boundary, FilesChanged, Session, TaskList, Todo,
    ToolCallBrief, WorkingState, BRIEF_CHARS, THINKING_CHARS,
};
use throughline_hosts::{self as hosts, Agent};

/// Calls read for the files changed and the todo list, over the whole chain.
const STATE_CALLS: usize = 2_000;

/// Characters of a call's input read: a patch's file headers or a whole todo list fit, the
/// rest of a long file written stays on disk.
const INPUT_CHARS: i64 = 16_384;

/// Characters of a task call's result read: its first line says what the call did.
const RESULT_CHARS: i64 = 1_024;

/// Thinking entries of the newest turn looked at for the latest readable one.
const THINKING_ENTRIES: i64 = 8;

/// A call of one of a host's state tools, as read.
struct StateCall {
    tool: String,
    input: String,
    /// The turn's code.
    turn: String,
    /// The turn's row id: the call's result is looked for among its entries.
    turn_id: i64,
    tool_use_id: Option<String>,
}

impl Store {
    /// Where the work of `chain` (newest session first, as a memory gets it) stands; paths
    /// under `project` are given relative to it. Files and the todo list come from the
    /// chain's latest 2,000 calls of the tools each host names
    /// ([`hosts::Agent::state_tools`]), the todo list from the newest session that wrote one,
    /// whole or a task at a time. The branch, the calls left running and the last thinking
    /// come from the newest session that holds a turn.
    pub fn working_state(&self, chain: &[&Session], project: Option<&str>) -> Result<WorkingState> {
        let mut files = FilesChanged::default();
        let mut todos = None;
        let mut left = STATE_CALLS;
        for session in chain {
            if left == 0 {
                break;
            }
            let agent = hosts::agent(session.host);
            let calls = self.state_calls(session.id, agent.state_tools(), left)?;
            left -= calls.len();
            if todos.is_none() {
                todos = self.latest_todos(agent, &calls)?;
            }
            for call in calls {
                for (path, deleted) in agent.file_changes(&call.tool, &call.input) {
                    let path = project_path(&path, session.cwd.as_deref(), project);
                    files.add(path, deleted, &call.turn);
                }
            }
        }
        let newest = chain.iter().find(|s| s.turns > 0).or(chain.first());
        let mut state = WorkingState {
            branch: newest.and_then(|s| s.branch.clone()),
            files_changed: files.into_list(),
            todos: todos.unwrap_or_default(),
            ..WorkingState::default()
        };
        if let Some(session) = newest {
            if let Some((turn, code)) = self.newest_turn(session.id)? {
                state.running = self.running_calls(session, turn, &code)?;
                state.stopped = !state.running.is_empty() || self.turn_stopped(turn)?;
                state.last_thinking = self.last_thinking(turn)?;
            }
        }
        Ok(state)
    }

    /// The latest todo list of one session's `calls` (newest first): the whole list of the
    /// newest call that writes one, unless a call of a task tool is newer: then the list the
    /// session's task calls built. None when no call writes one.
    fn latest_todos(&self, agent: &dyn Agent, calls: &[StateCall]) -> Result<Option<Vec<Todo>>> {
        for call in calls {
            if agent.task_tools().contains(&call.tool.as_str()) {
                return self.task_list(agent, calls).map(Some);
            }
            if let Some(todos) = agent.todo_list(&call.tool, &call.input) {
                return Ok(Some(todos));
            }
        }
        Ok(None)
    }

    /// The task list one session's `calls` (newest first) built: the change of each call of a
    /// task tool, read with its result, oldest first.
    fn task_list(&self, agent: &dyn Agent, calls: &[StateCall]) -> Result<Vec<Todo>> {
        let mut list = TaskList::default();
        for call in calls.iter().rev() {
            if !agent.task_tools().contains(&call.tool.as_str()) {
                continue;
            }
            let result = match &call.tool_use_id {
                Some(id) => self.call_result(call.turn_id, id)?,
                None => None,
            };
            if let Some(change) = agent.task_change(&call.tool, &call.input, result.as_deref()) {
                list.apply(change);
            }
        }
        Ok(list.into_todos())
    }

    /// The start of the result of call `tool_use_id` in `turn`: looked for among the turn's
    /// entries only, through the unique index on (turn, key).
    fn call_result(&self, turn: i64, tool_use_id: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT substr(body, 1, ?3) FROM details
                 WHERE turn = ?1 AND kind = 'tool_result' AND tool_use_id = ?2 LIMIT 1",
            )?
            .query_row(params![turn, tool_use_id, RESULT_CHARS], |r| r.get(0))
            .optional()?)
    }

    /// The session's latest `limit` calls of `tools`, newest first: each tool's through the
    /// index of calls by name, then merged.
    fn state_calls(&self, session: i64, tools: &[&str], limit: usize) -> Result<Vec<StateCall>> {
        let mut by_tool = self.conn.prepare_cached(
            "SELECT id FROM details
             WHERE session = ?1 AND kind = 'tool_call' AND name = ?2
             ORDER BY id DESC LIMIT ?3",
        )?;
        let mut ids: Vec<i64> = Vec::new();
        for tool in tools {
            let rows = by_tool.query_map(params![session, tool, limit as i64], |r| r.get(0))?;
            ids.extend(rows.collect::<rusqlite::Result<Vec<i64>>>()?);
        }
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.truncate(limit);
        let mut call = self.conn.prepare_cached(
            "SELECT d.name, substr(d.body, 1, ?2), t.code, d.turn, d.tool_use_id
             FROM details d JOIN turns t ON t.id = d.turn WHERE d.id = ?1",
        )?;
        let calls = ids.into_iter().map(|id| {
            call.query_row(params![id, INPUT_CHARS], |r| {
                Ok(StateCall {
                    tool: r.get(0)?,
                    input: r.get(1)?,
                    turn: r.get(2)?,
                    turn_id: r.get(3)?,
                    tool_use_id: r.get(4)?,
                })
            })
        });
        Ok(calls.collect::<rusqlite::Result<_>>()?)
    }

    /// Whether `turn` holds the host's mark of an interruption, or a tool result newer than
    /// the agent's last words.
    fn turn_stopped(&self, turn: i64) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM details
                                WHERE turn = ?1 AND kind = 'meta' AND name = 'interrupted')
                     OR coalesce((SELECT max(at) FROM details
                                  WHERE turn = ?1 AND kind = 'tool_result'), '')
                      > coalesce((SELECT max(at) FROM messages
                                  WHERE turn = ?1 AND role = 'assistant'), '')",
            )?
            .query_row([turn], |r| r.get(0))?)
    }

    /// The session's newest turn: its row id and code.
    fn newest_turn(&self, session: i64) -> Result<Option<(i64, String)>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id, code FROM turns WHERE session = ?1 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row([session], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    /// The calls of `turn` that no result answers, in the order they were made.
    fn running_calls(
        &self,
        session: &Session,
        turn: i64,
        code: &str,
    ) -> Result<Vec<ToolCallBrief>> {
        let agent = hosts::agent(session.host);
        let entries: Vec<(i64, String, Option<String>, String)> = self
            .conn
            .prepare_cached(
                "SELECT id, kind, tool_use_id, substr(body, 1, 200) FROM details
                 WHERE turn = ?1 AND kind IN ('tool_call', 'tool_result') ORDER BY id",
            )?
            .query_map([turn], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?;
        // A result that only says the person interrupted the call leaves it as it was.
        let answered: HashSet<&str> = entries
            .iter()
            .filter(|(_, kind, _, body)| kind == "tool_result" && !agent.is_interruption(body))
            .filter_map(|(_, _, id, _)| id.as_deref())
            .collect();
        let mut call = self.conn.prepare_cached(
            "SELECT coalesce(name, ''), substr(body, 1, ?2) FROM details WHERE id = ?1",
        )?;
        let mut running = Vec::new();
        for (id, kind, tool_use_id, _) in &entries {
            // A call without an id cannot be paired with its result: nothing says it ran on.
            let unanswered = tool_use_id
                .as_deref()
                .is_some_and(|use_id| !answered.contains(use_id));
            if kind != "tool_call" || !unanswered {
                continue;
            }
            let (tool, input): (String, String) =
                call.query_row(params![id, INPUT_CHARS], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let call = agent.call(&tool, &input);
            running.push(ToolCallBrief {
                what: first_line(call.as_ref().map_or(&input, |c| c.subject()), BRIEF_CHARS),
                tool,
                turn: code.to_string(),
            });
        }
        Ok(running)
    }

    /// The end of the latest thinking of `turn` that has words: a host writes a placeholder
    /// in brackets (`[redacted thinking]`, `[encrypted reasoning]`) for thinking it could not
    /// read. One character more than is kept is read, to tell a cut text from a whole one.
    fn last_thinking(&self, turn: i64) -> Result<Option<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT substr(body, -?2) FROM details
             WHERE turn = ?1 AND kind = 'thinking' ORDER BY id DESC LIMIT ?3",
        )?;
        let read = THINKING_CHARS as i64 + 1;
        let texts = stmt.query_map(params![turn, read, THINKING_ENTRIES], |r| {
            r.get::<_, String>(0)
        })?;
        for text in texts {
            let text = text?;
            let text = text.trim();
            if !text.is_empty() && !is_placeholder(text) {
                return Ok(Some(tail_from_boundary(text, THINKING_CHARS)));
            }
        }
        Ok(None)
    }
}

/// A host's short bracketed stand-in for text it could not read.
fn is_placeholder(text: &str) -> bool {
    text.len() < 64 && text.starts_with('[') && text.ends_with(']') && !text.contains('\n')
}

#[cfg(test)]
mod tests;
