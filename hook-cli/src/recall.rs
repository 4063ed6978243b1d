//! Recall: the turns before a point of a session, verbatim or one line each. The injection
//! names these commands for whatever it had no room for.

use serde::Serialize;

use crate::model::{Session, Turn};
use crate::render::{self, Pointer};
use crate::store::{SessionFilter, Store, StoreError};

/// Which turns to bring back.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Session id or unique prefix; default: the session of `before`, else the latest session
    /// of `project`.
    pub session: Option<String>,
    pub project: Option<String>,
    /// Only turns before this one (turn id or unique prefix).
    pub before: Option<String>,
    /// How many turns at most (the latest ones).
    pub last: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Recalled {
    pub session: Session,
    pub turns: Vec<Turn>,
}

pub fn recall(store: &Store, request: &Request) -> Result<Recalled, StoreError> {
    let before = request
        .before
        .as_deref()
        .map(|b| store.turn(b))
        .transpose()?;
    let session = match (&request.session, &before) {
        (Some(id), _) => store.session(id)?,
        (None, Some(turn)) => store.session(&turn.session_id)?,
        (None, None) => store
            .sessions(&SessionFilter {
                project: request.project.clone(),
                limit: Some(1),
            })?
            .pop()
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "no session recorded in {}; name one (`throughline sessions --all`)",
                    request.project.as_deref().unwrap_or("any project")
                ))
            })?,
    };
    if let Some(turn) = &before {
        if turn.session_id != session.session_id {
            return Err(StoreError::NotFound(format!(
                "turn {} belongs to session {}, not {}",
                turn.code, turn.session_id, session.session_id
            )));
        }
    }
    let turns = store.recall(&session, before.map(|t| t.seq), request.last)?;
    Ok(Recalled { session, turns })
}

/// The recalled turns, verbatim or one line each, under a line naming the session.
pub fn render(recalled: &Recalled, one_line: bool, pointer: Pointer) -> String {
    let s = &recalled.session;
    let mut out = format!(
        "session {}  {}\n",
        s.session_id,
        s.project.as_deref().unwrap_or("")
    );
    if recalled.turns.is_empty() {
        out.push_str("no earlier turns\n");
    }
    for turn in &recalled.turns {
        if one_line {
            out.push_str(&render::turn_one_line(turn));
            out.push('\n');
        } else {
            out.push('\n');
            out.push_str(&render::turn(turn, pointer));
        }
    }
    out
}
