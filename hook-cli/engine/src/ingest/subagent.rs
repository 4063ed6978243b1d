//! A subagent's transcript: read like the session's own, from its own cursor, into the turn
//! that started the subagent. Everything in it is the subagent's, never the person's words
//! or the session's context, whatever the host's lines say.

use std::path::Path;

use super::{read, IngestError, LineParser, Link, Record, Report};
use crate::model::DetailKind;
use crate::store::{SessionRow, Writer};

/// Brings the memory up to date with the subagent transcript at `path`. Its first read puts
/// it in the turn `first_turn` names (then the cursor keeps that turn).
pub fn ingest_subagent(
    w: &Writer,
    session: &mut SessionRow,
    path: &Path,
    parser: &mut dyn LineParser,
    first_turn: &mut dyn FnMut() -> Result<Option<i64>, IngestError>,
) -> Result<Report, IngestError> {
    read(w, session, path, &mut Subagent(parser), first_turn)
}

/// The host's parser, with every record it makes marked as the subagent's: a prompt or an
/// answer becomes subagent detail, usage counts as a sidechain's. Hosts mark subagent lines
/// themselves (Claude Code's `isSidechain`); this holds if one day a line does not.
struct Subagent<'a>(&'a mut dyn LineParser);

impl LineParser for Subagent<'_> {
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {
        let from = out.len();
        let link = self.0.parse_line(line, out)?;
        for record in &mut out[from..] {
            let (name, key, text, at) = match record {
                Record::Prompt { key, text, at } => ("prompt", key, text, at),
                Record::Answer { key, text, at } => ("answer", key, text, at),
                Record::ApiCall { sidechain, .. } => {
                    *sidechain = true;
                    continue;
                }
                _ => continue,
            };
            *record = Record::Detail {
                key: std::mem::take(key),
                kind: DetailKind::Subagent,
                name: Some(name.to_string()),
                tool_use_id: None,
                body: std::mem::take(text),
                is_error: false,
                at: at.take(),
            };
        }
        Ok(link)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Usage;

    /// A parser that takes every line for the person's words and the main chain's usage.
    struct Naive;

    impl LineParser for Naive {
        fn parse_line(
            &mut self,
            line: &str,
            out: &mut Vec<Record>,
        ) -> Result<Option<Link>, String> {
            if line == "bad" {
                return Err("not a line".into());
            }
            out.push(Record::Prompt {
                key: format!("u:{line}"),
                text: line.to_string(),
                at: None,
            });
            out.push(Record::Answer {
                key: format!("a:{line}"),
                text: "done".into(),
                at: Some("t".into()),
            });
            out.push(Record::ApiCall {
                message_id: "m".into(),
                model: None,
                usage: Usage::default(),
                sidechain: false,
                at: None,
            });
            Ok(None)
        }
    }

    #[test]
    fn nothing_a_subagent_wrote_opens_a_turn_or_counts_as_the_sessions_context() {
        let mut naive = Naive;
        let mut parser = Subagent(&mut naive);
        let mut out = vec![Record::Summary {
            text: "kept".into(),
        }];
        parser.parse_line("look around", &mut out).unwrap();
        assert_eq!(
            out[0],
            Record::Summary {
                text: "kept".into()
            }
        );
        let detail = |key: &str, name: &str, body: &str, at: Option<&str>| Record::Detail {
            key: key.into(),
            kind: DetailKind::Subagent,
            name: Some(name.into()),
            tool_use_id: None,
            body: body.into(),
            is_error: false,
            at: at.map(Into::into),
        };
        assert_eq!(
            out[1],
            detail("u:look around", "prompt", "look around", None)
        );
        assert_eq!(out[2], detail("a:look around", "answer", "done", Some("t")));
        assert!(matches!(
            out[3],
            Record::ApiCall {
                sidechain: true,
                ..
            }
        ));
        assert!(parser.parse_line("bad", &mut out).is_err());
    }
}
