//! A small memory built in a temp dir, for unit tests of the read side.

pub use throughline_core::testing::turn;

use crate::home::Home;
use crate::model::DetailKind;
use crate::record::Record;
use crate::store::Store;

/// One tool call of a fixture turn: `(tool, input, output)`.
pub type ToolRun<'a> = (&'a str, &'a str, &'a str);

/// One session to store: its project, when it was active, and its turns as
/// `(prompt, answer, tool runs)`.
pub struct Fixture<'a> {
    pub id: &'a str,
    pub project: &'a str,
    pub at: &'a str,
    pub turns: Vec<(&'a str, &'a str, Vec<ToolRun<'a>>)>,
}

pub fn store_with(sessions: &[Fixture]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = crate::open_store(&Home::at(dir.path().join("home"))).unwrap();
    let w = store.write().unwrap();
    for f in sessions {
        let mut s = w
            .session(crate::hosts::claude::HOST, f.id, Some(f.project), None)
            .unwrap();
        w.touch_session(s.id, Some(f.at), Some(f.at)).unwrap();
        let mut turn = None;
        let at = Some(f.at.to_string());
        for (i, (prompt, answer, tools)) in f.turns.iter().enumerate() {
            let mut records = vec![
                Record::Prompt {
                    key: format!("u:{i}"),
                    text: prompt.to_string(),
                    at: at.clone(),
                },
                Record::Answer {
                    key: format!("a:{i}"),
                    text: answer.to_string(),
                    at: at.clone(),
                },
            ];
            for (j, (tool, input, output)) in tools.iter().enumerate() {
                let id = format!("{}-{i}-{j}", f.id);
                records.push(Record::Detail {
                    key: format!("c:{id}"),
                    kind: DetailKind::ToolCall,
                    name: Some(tool.to_string()),
                    tool_use_id: Some(id.clone()),
                    body: input.to_string(),
                    is_error: false,
                    at: at.clone(),
                });
                records.push(Record::Detail {
                    key: format!("r:{id}"),
                    kind: DetailKind::ToolResult,
                    name: None,
                    tool_use_id: Some(id),
                    body: output.to_string(),
                    is_error: false,
                    at: at.clone(),
                });
            }
            for r in &records {
                w.apply(&mut s, &mut turn, r).unwrap();
            }
        }
    }
    w.commit().unwrap();
    (dir, store)
}
