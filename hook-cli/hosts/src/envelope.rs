//! The snake_case hook payload Claude Code sends, and Codex and Gemini CLI after it, each
//! host with its own event names. Only the fields Throughline uses
//! are decoded; unknown events and fields are accepted, so a newer client never breaks the
//! hook.

use serde::Deserialize;
use serde_json::value::RawValue;

use throughline_core::model::Host;
use throughline_core::record::{EventKind, HookEvent, SubagentRef};

#[derive(Deserialize)]
pub(crate) struct Envelope<'a> {
    pub session_id: String,
    /// The session's transcript (Codex's rollout, Gemini CLI's chat file).
    #[serde(default)]
    pub transcript_path: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub hook_event_name: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub prompt_id: Option<String>,
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    /// Claude Code, Codex: set in hooks that run inside a subagent, and in
    /// SubagentStart/SubagentStop.
    #[serde(default)]
    pub agent_id: Option<String>,
    /// SubagentStop (Claude Code, Codex): the subagent's transcript.
    #[serde(default)]
    pub agent_transcript_path: Option<String>,
    #[serde(default)]
    pub tool_name: Option<String>,
    /// PreCompact: `auto` or `manual`.
    #[serde(default)]
    pub trigger: Option<String>,
    /// Left raw: only the answer of a subagent call is read (for its `agentId`), and tool
    /// output can be large and of any shape.
    #[serde(default, borrow)]
    pub tool_response: Option<&'a RawValue>,
}

impl Envelope<'_> {
    /// The payload in `bytes` as `host` sends it; one without a session id is refused.
    pub fn parse(bytes: &[u8], host: Host) -> Result<Envelope<'_>, String> {
        let p: Envelope = super::payload_json(bytes, super::agent(host).spec().name)?;
        if p.session_id.is_empty() {
            return Err("hook payload has an empty session_id".into());
        }
        Ok(p)
    }

    /// The event the shared code reads, as `kind`; empty names count as none.
    pub fn event(self, host: Host, kind: EventKind, subagent: Option<SubagentRef>) -> HookEvent {
        HookEvent {
            host,
            kind,
            session_id: self.session_id,
            transcript_path: self.transcript_path.filter(|p| !p.is_empty()),
            cwd: self.cwd.filter(|c| !c.is_empty()),
            source: self.source,
            reason: self.reason,
            prompt_id: self.prompt_id,
            prompt: self.prompt,
            model: self.model.filter(|m| !m.is_empty()),
            subagent,
            trigger: self.trigger.filter(|t| !t.is_empty()),
            answer: None,
        }
    }
}
