//! The Claude Code process a hook runs under. Claude Code keeps `sessions/<pid>.json` in its
//! config folder while it runs, naming the session that process is in: it tells which
//! ancestor of a hook is the client (the `/clear` link, decision 0023), and how
//! `throughline handoff` finds "this session" when run from inside Claude Code.

use std::fs;

use crate::process::nearest_ancestor;
use throughline_core::record::HostProcess;

/// The nearest ancestor process that Claude Code registered in `sessions/`.
pub fn owner() -> Option<HostProcess> {
    let sessions = super::config_dir()?.join("sessions");
    nearest_ancestor(|pid| sessions.join(format!("{pid}.json")).is_file())
}

/// The session the enclosing Claude Code process is in now.
pub fn owner_session() -> Option<String> {
    let pid = owner()?.pid;
    let text = fs::read_to_string(
        super::config_dir()?
            .join("sessions")
            .join(format!("{pid}.json")),
    )
    .ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value
        .get("sessionId")
        .or_else(|| value.get("session_id"))?
        .as_str()
        .map(str::to_string)
}
