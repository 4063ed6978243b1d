//! The hook payload both Codex and Gemini CLI send: Claude Code's snake_case envelope without
//! its subagent fields, each host with its own event names. Only the fields Throughline uses
//! are decoded; unknown events and fields are accepted, so a newer client never breaks the
//! hook.

use serde::Deserialize;

use throughline_core::model::Host;
use throughline_core::record::{EventKind, HookEvent};

#[derive(Deserialize)]
struct Envelope {
    session_id: String,
    /// The session's transcript (Codex's rollout, Gemini CLI's chat file).
    #[serde(default)]
    transcript_path: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    hook_event_name: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    model: Option<String>,
}

/// Decodes `bytes` as `host` sends them, naming each event through `kind`. Neither host shares
/// an id between a cleared session and the next (their process links them), and neither runs
/// hooks inside a subagent.
pub fn decode(
    bytes: &[u8],
    host: Host,
    kind: impl Fn(&str) -> EventKind,
) -> Result<HookEvent, String> {
    let p: Envelope = super::payload_json(bytes, super::agent(host).name())?;
    if p.session_id.is_empty() {
        return Err("hook payload has an empty session_id".into());
    }
    Ok(HookEvent {
        host,
        kind: kind(&p.hook_event_name),
        session_id: p.session_id,
        transcript_path: p.transcript_path.filter(|p| !p.is_empty()),
        cwd: p.cwd.filter(|c| !c.is_empty()),
        source: p.source,
        reason: p.reason,
        prompt_id: None,
        prompt: p.prompt,
        model: p.model.filter(|m| !m.is_empty()),
        subagent: None,
    })
}
