//! Fixtures for unit tests here and in the crates above (feature `testing`).

use crate::model::{Message, Role, Turn};

/// A turn holding `prompt` and `answers` (L2 only), for tests of what is made from L2.
pub fn turn(code: &str, prompt: &str, answers: &[impl AsRef<str>]) -> Turn {
    let mut messages = vec![Message {
        role: Role::User,
        text: prompt.into(),
        at: None,
    }];
    messages.extend(answers.iter().map(|a| Message {
        role: Role::Assistant,
        text: a.as_ref().to_string(),
        at: None,
    }));
    Turn {
        code: code.into(),
        session_id: "s".into(),
        seq: 1,
        started_at: None,
        messages,
        detail_summary: String::new(),
    }
}
