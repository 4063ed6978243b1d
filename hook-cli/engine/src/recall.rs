//! Recall: the turns before a point of a session, verbatim or one line each. The injection
//! names these commands for whatever it had no room for.

use std::collections::HashMap;

use serde::Serialize;

use crate::model::{Session, Turn};
use crate::render::{self, Paint, Pointer};
use crate::store::{ModelLine, Store, StoreError};

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
    /// The one-liners a model wrote for some of `turns`, by code (docs/decisions/0055).
    #[serde(skip)]
    pub model_lines: HashMap<String, ModelLine>,
}

pub fn recall(store: &Store, request: &Request) -> Result<Recalled, StoreError> {
    let before = request
        .before
        .as_deref()
        .map(|b| store.turn(b))
        .transpose()?;
    let session = match (&request.session, &before) {
        (None, Some(turn)) => store.session(&turn.session_id)?,
        (id, _) => store.session_or_latest(id.as_deref(), request.project.as_deref())?,
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
    let model_lines = store.model_lines(turns.iter().map(|t| t.code.as_str()))?;
    Ok(Recalled {
        session,
        turns,
        model_lines,
    })
}

/// The recalled turns, verbatim or one line each, under a line naming the session.
pub fn render(recalled: &Recalled, one_line: bool, pointer: Pointer, paint: Paint) -> String {
    let s = &recalled.session;
    let mut out = format!(
        "{}\n",
        paint.bold(&paint.text(&format!(
            "session {}  {}",
            s.session_id,
            s.project.as_deref().unwrap_or("")
        )))
    );
    if recalled.turns.is_empty() {
        out.push_str("no earlier turns\n");
    }
    for turn in &recalled.turns {
        if one_line {
            let by_model = recalled.model_lines.get(&turn.code);
            out.push_str(&render::turn_one_line(
                turn,
                by_model.map(|m| m.text.as_str()),
                paint,
            ));
            out.push('\n');
        } else {
            out.push('\n');
            out.push_str(&render::turn(turn, pointer, paint));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_memory::{store_with, Fixture};

    fn memory() -> (tempfile::TempDir, Store) {
        let turn = |p| (p, "ok", vec![("Bash", "{\"command\":\"ls\"}", "a\nb\n")]);
        store_with(&[
            Fixture {
                id: "older",
                project: "/p",
                at: "2026-11-28T10:00:00.000Z",
                turns: vec![turn("old one")],
            },
            Fixture {
                id: "latest",
                project: "/p",
                at: "2026-11-29T10:00:00.000Z",
                turns: vec![
                    turn("first\nsecond line"),
                    turn("two"),
                    turn("three"),
                    turn("four"),
                ],
            },
        ])
    }

    fn prompts(r: &Recalled) -> Vec<String> {
        r.turns.iter().map(|t| t.messages[0].text.clone()).collect()
    }

    #[test]
    fn the_last_turns_before_a_turn_in_its_own_session() {
        let (_dir, store) = memory();
        let latest = store.session("latest").unwrap();
        let four = store.recall(&latest, None, 1).unwrap().remove(0);
        let r = recall(
            &store,
            &Request {
                before: Some(four.code.clone()),
                last: 2,
                ..Request::default()
            },
        )
        .unwrap();
        assert_eq!(r.session.session_id, "latest");
        assert_eq!(prompts(&r), ["two", "three"]);
        let all = recall(
            &store,
            &Request {
                before: Some(four.code),
                last: 50,
                ..Request::default()
            },
        )
        .unwrap();
        assert_eq!(all.turns.len(), 3);
    }

    #[test]
    fn by_default_the_latest_session_of_the_project() {
        let (_dir, store) = memory();
        let request = Request {
            project: Some("/p".into()),
            last: 2,
            ..Request::default()
        };
        let r = recall(&store, &request).unwrap();
        assert_eq!(prompts(&r), ["three", "four"]);
        let other = Request {
            project: Some("/elsewhere".into()),
            ..request
        };
        let err = recall(&store, &other).unwrap_err().to_string();
        assert!(err.contains("no session recorded in /elsewhere"), "{err}");
    }

    #[test]
    fn a_turn_of_another_session_is_refused() {
        let (_dir, store) = memory();
        let old = store
            .recall(&store.session("older").unwrap(), None, 1)
            .unwrap();
        let err = recall(
            &store,
            &Request {
                session: Some("latest".into()),
                before: Some(old[0].code.clone()),
                last: 5,
                ..Request::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("belongs to session older"), "{err}");
    }

    #[test]
    fn one_line_per_turn_or_the_conversation_verbatim() {
        let (_dir, store) = memory();
        let r = recall(
            &store,
            &Request {
                session: Some("latest".into()),
                last: 4,
                ..Request::default()
            },
        )
        .unwrap();
        let short = render(&r, true, Pointer::Cli, Paint::Plain);
        let lines: Vec<&str> = short.lines().collect();
        assert_eq!(lines.len(), 5, "{short}");
        assert!(
            lines[1].starts_with(&format!("[{}] first", r.turns[0].code)),
            "{short}"
        );
        let full = render(&r, false, Pointer::Mcp, Paint::Plain);
        assert!(full.contains("person: first\nsecond line"), "{full}");
        assert!(
            full.contains(&format!("detail {{\"turn\":\"{}\"}}", r.turns[0].code)),
            "{full}"
        );
    }
}
