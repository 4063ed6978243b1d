//! The Claude Code process a hook runs under. Claude Code keeps `sessions/<pid>.json` in its
//! config folder while it runs, naming the session that process is in: the fallback link for
//! clients that send no prompt id with `/clear`, and how `throughline handoff` finds "this
//! session" when run from inside Claude Code.

use std::fs;
use std::path::PathBuf;

/// How far up the process tree to look (hook → shell → Claude Code, with room to spare).
const MAX_DEPTH: usize = 8;

fn config_dir() -> Option<PathBuf> {
    std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".claude")))
}

fn parent_of(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(1)?.parse().ok()
}

/// The nearest ancestor process that Claude Code registered in `sessions/`.
pub fn owner_pid() -> Option<u32> {
    let sessions = config_dir()?.join("sessions");
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..MAX_DEPTH {
        if pid <= 1 {
            return None;
        }
        if sessions.join(format!("{pid}.json")).is_file() {
            return Some(pid);
        }
        pid = parent_of(pid)?;
    }
    None
}

/// The session the enclosing Claude Code process is in now.
pub fn owner_session() -> Option<String> {
    let pid = owner_pid()?;
    let text =
        fs::read_to_string(config_dir()?.join("sessions").join(format!("{pid}.json"))).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value
        .get("sessionId")
        .or_else(|| value.get("session_id"))?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_chain_is_read_from_proc() {
        let me = std::process::id();
        assert_eq!(parent_of(me), Some(std::os::unix::process::parent_id()));
    }
}
