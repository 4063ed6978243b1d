//! The sample agent's hook payload: one flat object, its own field and event names.

use serde::Deserialize;

use throughline_core::record::{EventKind, HookEvent, Reply};

#[derive(Deserialize)]
struct Payload {
    event: String,
    session: String,
    #[serde(default)]
    transcript: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    /// `start`: how the session began (`new`, `resume`).
    #[serde(default)]
    source: Option<String>,
}

pub fn decode_hook(bytes: &[u8]) -> Result<HookEvent, String> {
    let p: Payload = crate::payload_json(bytes, super::SPEC.name)?;
    if p.session.is_empty() {
        return Err("hook payload has an empty session".into());
    }
    let kind = match p.event.as_str() {
        "start" => EventKind::SessionStart,
        "prompt" => EventKind::UserPrompt,
        "stop" => EventKind::Stop,
        "end" => EventKind::SessionEnd,
        _ => EventKind::Other,
    };
    Ok(HookEvent {
        host: super::HOST,
        kind,
        session_id: p.session,
        transcript_path: p.transcript,
        cwd: p.cwd,
        source: p.source,
        reason: None,
        prompt_id: None,
        prompt: p.prompt,
        model: None,
        subagent: None,
        trigger: None,
        answer: None,
    })
}

/// `{"context": …}` adds text for the model at a session's start or with a prompt;
/// `{"block": …}` stops a prompt and shows the person why.
pub fn encode_reply(event: EventKind, reply: &Reply) -> Option<String> {
    let value = match (event, reply) {
        (EventKind::SessionStart | EventKind::UserPrompt, Reply::Inject(text)) => {
            serde_json::json!({ "context": text })
        }
        (EventKind::UserPrompt, Reply::Block(reason)) => serde_json::json!({ "block": reason }),
        (_, Reply::Notice(text)) => serde_json::json!({ "notice": text }),
        _ => return None,
    };
    Some(value.to_string())
}
