//! Codex rollouts captured hook by hook, as the store keeps them.

use crate::home::Home;
use crate::store::Store;

const ROLLOUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/codex-0.171.0/rollout.jsonl"
);

fn user_line(text: &str) -> String {
    serde_json::json!({"timestamp": "2026-11-30T09:00:00.000Z", "type": "response_item",
        "payload": {"type": "message", "id": "msg_x", "role": "user",
            "content": [{"type": "input_text", "text": text}]}})
    .to_string()
}

fn memory(store: &Store, session: &str) -> Vec<serde_json::Value> {
    let session = store.session(session).unwrap();
    store
        .turns(&session)
        .unwrap()
        .iter()
        .map(|t| serde_json::to_value(store.turn_detail(&t.code).unwrap()).unwrap())
        .collect()
}

fn texts(turn: &serde_json::Value) -> Vec<String> {
    turn["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_rollout_read_hook_by_hook_is_stored_as_if_read_whole() {
    let text = std::fs::read_to_string(ROLLOUT).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rollout = dir.path().join("rollout.jsonl");
    let mut piecewise = crate::open_store(&Home::at(dir.path().join("piecewise"))).unwrap();
    // Every cut, even in the middle of a line: each call reads on from the stored cursor.
    let mut end = 0;
    while end < text.len() {
        end = (end + 997).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        std::fs::write(&rollout, &text[..end]).unwrap();
        super::capture_transcript(&mut piecewise, crate::hosts::codex::HOST, "s1", &rollout)
            .unwrap();
    }
    let mut whole = crate::open_store(&Home::at(dir.path().join("whole"))).unwrap();
    super::capture_transcript(&mut whole, crate::hosts::codex::HOST, "s1", &rollout).unwrap();
    let memory = memory(&whole, "s1");
    assert_eq!(memory, self::memory(&piecewise, "s1"));
    let turns: Vec<Vec<String>> = memory.iter().map(texts).collect();
    assert_eq!(
        turns,
        [
            vec![],
            vec!["please RUNLS in this folder".to_string(), "Reply 1.".into()],
            vec!["thanks, now summarize".into(), "Reply 2.".into()],
        ]
    );
    assert_eq!(memory[1]["detail_summary"], "exec_command");
}

#[test]
fn a_rollback_removes_the_turns_and_what_follows_continues_the_one_before() {
    let dir = tempfile::tempdir().unwrap();
    let rollout = dir.path().join("rollout.jsonl");
    let mut text = std::fs::read_to_string(ROLLOUT).unwrap();
    std::fs::write(&rollout, &text).unwrap();
    let mut store = crate::open_store(&Home::at(dir.path().join("home"))).unwrap();
    super::capture_transcript(&mut store, crate::hosts::codex::HOST, "s1", &rollout).unwrap();
    // Indexed first, so the rolled-back words must leave the index too.
    let found = |store: &Store, words: &str| {
        let request = crate::search::Request {
            query: words.to_string(),
            limit: 10,
            ..Default::default()
        };
        crate::search::search(store, &request).unwrap().hits.len()
    };
    assert_eq!(found(&store, "now summarize"), 1);

    text += r#"{"timestamp":"2026-11-30T09:00:00.000Z","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}"#;
    text.push('\n');
    std::fs::write(&rollout, &text).unwrap();
    super::capture_transcript(&mut store, crate::hosts::codex::HOST, "s1", &rollout).unwrap();
    let after: Vec<Vec<String>> = memory(&store, "s1").iter().map(texts).collect();
    assert_eq!(after.len(), 2, "{after:?}");
    assert_eq!(after[1][0], "please RUNLS in this folder");
    assert_eq!(found(&store, "now summarize"), 0);

    text += &user_line("summarize differently");
    text.push('\n');
    std::fs::write(&rollout, &text).unwrap();
    super::capture_transcript(&mut store, crate::hosts::codex::HOST, "s1", &rollout).unwrap();
    let turns = memory(&store, "s1");
    assert_eq!(texts(&turns[2]), ["summarize differently"]);
    assert_eq!(turns[2]["seq"], 2);
    assert_eq!(found(&store, "summarize differently"), 1);
}
