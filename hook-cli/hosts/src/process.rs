//! The host process a hook runs under, found by walking up from the hook's parent: each host
//! says how it tells its own process (decision 0023).

use std::fs;

use throughline_core::record::HostProcess;

/// How far up the process tree to look (hook → shell → host, with room to spare).
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

/// The nearest ancestor of this process that `is_host` accepts (given its pid).
pub fn nearest_ancestor(is_host: impl Fn(u32) -> bool) -> Option<HostProcess> {
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..MAX_DEPTH {
        if pid <= 1 {
            return None;
        }
        let (parent, started) = stat_of(pid)?;
        if is_host(pid) {
            return Some(HostProcess { pid, started });
        }
        pid = parent;
    }
    None
}

/// The executable name of a process (`/proc/<pid>/comm`, at most 15 bytes).
pub fn command_name(pid: u32) -> Option<String> {
    let name = fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(name.trim_end_matches('\n').to_string())
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

    #[test]
    fn an_ancestor_is_found_by_its_name_and_none_when_no_name_fits() {
        let parent = std::os::unix::process::parent_id();
        let name = command_name(parent).unwrap();
        let found = nearest_ancestor(|pid| command_name(pid).as_deref() == Some(&name)).unwrap();
        assert_eq!(found.pid, parent);
        assert_eq!(nearest_ancestor(|_| false), None);
    }
}
