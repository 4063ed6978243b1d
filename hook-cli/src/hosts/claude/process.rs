//! The Claude Code process a hook runs under. Claude Code keeps `sessions/<pid>.json` in its
//! config folder while it runs, naming the session that process is in: it tells which
//! ancestor of a hook is the client (the `/clear` link, decision 0023), and how
//! `throughline handoff` finds "this session" when run from inside Claude Code.

use std::fs;

use crate::record::HostProcess;

/// How far up the process tree to look (hook → shell → Claude Code, with room to spare).
const MAX_DEPTH: usize = 8;

/// Fields of `/proc/<pid>/stat` after the command name: the parent pid and the start time.
fn stat_of(pid: u32) -> Option<(u32, u64)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    // There the state is field 3 of the line, the parent field 4, the start time field 22.
    let mut rest = stat[stat.rfind(')')? + 2..].split(' ');
    let parent = rest.nth(1)?.parse().ok()?;
    let started = rest.nth(17)?.parse().ok()?;
    Some((parent, started))
}

/// The nearest ancestor process that Claude Code registered in `sessions/`.
pub fn owner() -> Option<HostProcess> {
    let sessions = super::config_dir()?.join("sessions");
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..MAX_DEPTH {
        if pid <= 1 {
            return None;
        }
        let (parent, started) = stat_of(pid)?;
        if sessions.join(format!("{pid}.json")).is_file() {
            return Some(HostProcess { pid, started });
        }
        pid = parent;
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_and_start_time_are_read_from_proc() {
        let me = std::process::id();
        let (parent, started) = stat_of(me).unwrap();
        assert_eq!(parent, std::os::unix::process::parent_id());
        let (_, parent_started) = stat_of(parent).unwrap();
        assert!(
            parent_started <= started,
            "a parent starts no later than its child"
        );
    }
}
