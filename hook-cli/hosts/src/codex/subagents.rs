//! Codex's subagents (0.171.0: `spawn_agent` of the `multi_agent_v1` tools). Each runs as a
//! thread of its own whose rollout sits beside the session's, in the folder of the day it
//! started, named by its own id. The rollout's first line (`session_meta`) carries the
//! session's id as `session_id`, its own as `id`, and `parent_thread_id`; hooks run inside it
//! with the session's id, its `agent_id` and its rollout as `transcript_path`, and
//! `SubagentStop` names the rollout as `agent_transcript_path` (docs/hosts/codex.md).

use std::io::Read;
use std::path::{Path, PathBuf};

use throughline_core::record::SubagentRef;

use super::session_of;

/// Codex writes `session_meta` as compact JSON with the ids first, ahead of the instructions
/// that make the line tens of kilobytes long: this much of it names them.
const META_PREFIX: u64 = 4096;

/// The rollout of `subagent`, a subagent of the session whose rollout is `main`: the one its
/// hook names, else the one in `main`'s folder named by its id.
pub fn transcript_of(main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
    if let Some(path) = &subagent.transcript_path {
        return Some(PathBuf::from(path));
    }
    let id = &subagent.agent_id;
    let plain = |c: char| c.is_ascii_hexdigit() || c == '-';
    if id.is_empty() || !id.chars().all(plain) {
        return None;
    }
    let suffix = format!("-{id}.jsonl");
    std::fs::read_dir(main.parent()?)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_str().is_some_and(|name| name.ends_with(&suffix)))
}

/// Every subagent rollout of the session whose rollout is `main`, by name: those in its day's
/// folder and in the [`LATER_DAYS`] day folders after it (a subagent started after midnight
/// sits in the next day's).
pub fn transcripts_of(main: &Path) -> Vec<PathBuf> {
    let (Some(session), Some(day)) = (session_of(main), main.parent()) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = std::iter::once(day.to_path_buf())
        .chain(days_after(day).into_iter().take(LATER_DAYS))
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p != main && session_of(p).is_some())
        .filter(|p| meta(p).is_some_and(|m| m.session == session))
        .collect();
    found.sort();
    found
}

/// How many day folders after a session's own are searched for its subagents: each of their
/// rollouts has its first line read, and a session runs for days only rarely.
const LATER_DAYS: usize = 2;

/// The day folders (`sessions/YYYY/MM/DD`) after `day`, oldest first, as far as the first
/// [`LATER_DAYS`] of them.
fn days_after(day: &Path) -> Vec<PathBuf> {
    let Some(month) = day.parent() else {
        return Vec::new();
    };
    let Some(year) = month.parent() else {
        return Vec::new();
    };
    let Some(root) = year.parent() else {
        return Vec::new();
    };
    // Each level's folders after the one the session is in, in order of their names (Codex
    // names them with leading zeros).
    let later = |dir: &Path, after: Option<&Path>| -> Vec<PathBuf> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        names.retain(|p| p.is_dir() && after.is_none_or(|after| p.file_name() > after.file_name()));
        names.sort();
        names
    };
    let mut days = later(month, Some(day));
    for next_month in later(year, Some(month)) {
        days.extend(later(&next_month, None));
    }
    for next_year in later(root, Some(year)) {
        for next_month in later(&next_year, None) {
            days.extend(later(&next_month, None));
        }
        if days.len() >= LATER_DAYS {
            break;
        }
    }
    days.truncate(LATER_DAYS);
    days
}

/// What a subagent's rollout says of itself in its first line.
pub struct Meta {
    /// The session it belongs to.
    pub session: String,
    /// When it started (the line's `timestamp`).
    pub started: String,
}

/// The first line of the subagent rollout at `path`; None for a session's own rollout.
pub fn meta(path: &Path) -> Option<Meta> {
    let file = throughline_core::regular_file::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(META_PREFIX).read_to_end(&mut bytes).ok()?;
    // A character cut at the end is no matter: the ids come first.
    let head = String::from_utf8_lossy(&bytes);
    let line = head.lines().next()?;
    if !line.contains(r#""type":"session_meta""#) || !line.contains(r#""parent_thread_id":""#) {
        return None;
    }
    Some(Meta {
        session: string_field(line, "session_id")?,
        started: string_field(line, "timestamp")?,
    })
}

/// The first string value of `field` in compact JSON `line`.
fn string_field(line: &str, field: &str) -> Option<String> {
    let key = format!(r#""{field}":""#);
    let value = &line[line.find(&key)? + key.len()..];
    Some(value[..value.find('"')?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "01a23a4c-8c12-7782-91f8-1df7f1c25325";
    const CHILD: &str = "01a23a4c-8d1f-78b2-8b72-46fbd6fbb838";

    /// The first line of the rollout of thread `id`, a subagent's when it has a `parent`.
    fn first_line(id: &str, parent: Option<&str>) -> String {
        let session = parent.unwrap_or(id);
        let parent = parent
            .map(|p| format!(r#""parent_thread_id":"{p}","#))
            .unwrap_or_default();
        let instructions = "x".repeat(20_000);
        format!(
            r#"{{"timestamp":"2026-12-03T05:07:05.140Z","type":"session_meta","payload":{{"session_id":"{session}","id":"{id}",{parent}"base_instructions":"{instructions}"}}}}"#
        ) + "\n"
    }

    #[test]
    fn a_subagent_rollout_is_found_beside_the_session_s_and_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir
            .path()
            .join(format!("rollout-2026-12-03T05-07-04-{SESSION}.jsonl"));
        let child = dir
            .path()
            .join(format!("rollout-2026-12-03T05-07-05-{CHILD}.jsonl"));
        let other = "01a23a4c-9999-78b2-8b72-46fbd6fbb838";
        let other_path = dir
            .path()
            .join(format!("rollout-2026-12-03T06-00-00-{other}.jsonl"));
        std::fs::write(&main, first_line(SESSION, None)).unwrap();
        std::fs::write(&child, first_line(CHILD, Some(SESSION))).unwrap();
        std::fs::write(&other_path, first_line(other, None)).unwrap();

        let found = meta(&child).unwrap();
        assert_eq!(found.session, SESSION);
        assert_eq!(found.started, "2026-12-03T05:07:05.140Z");
        assert!(meta(&main).is_none());
        assert_eq!(transcripts_of(&main), vec![child.clone()]);
        assert!(transcripts_of(&other_path).is_empty());
        let by_id = SubagentRef {
            agent_id: CHILD.into(),
            transcript_path: None,
        };
        assert_eq!(transcript_of(&main, &by_id), Some(child));
        for bad in ["", "../x", "a/b"] {
            let bad = SubagentRef {
                agent_id: bad.into(),
                transcript_path: None,
            };
            assert_eq!(transcript_of(&main, &bad), None);
        }
    }

    #[test]
    fn a_subagent_started_after_midnight_is_found_in_the_next_day_s_folder() {
        let root = tempfile::tempdir().unwrap();
        let day = |date: &str| {
            let dir = root.path().join(date);
            std::fs::create_dir_all(&dir).unwrap();
            dir
        };
        let main = day("2026/12/31").join(format!("rollout-2026-12-31T23-50-00-{SESSION}.jsonl"));
        std::fs::write(&main, first_line(SESSION, None)).unwrap();
        let child = day("2027/01/01").join(format!("rollout-2027-01-01T00-10-00-{CHILD}.jsonl"));
        std::fs::write(&child, first_line(CHILD, Some(SESSION))).unwrap();
        // Days before the session's, and those past the bound, are not read.
        let before = day("2026/12/30").join(format!("rollout-2026-12-30T10-00-00-{CHILD}.jsonl"));
        std::fs::write(before, first_line(CHILD, Some(SESSION))).unwrap();
        day("2027/01/02");
        let late = day("2027/01/05").join(format!("rollout-2027-01-05T10-00-00-{CHILD}.jsonl"));
        std::fs::write(late, first_line(CHILD, Some(SESSION))).unwrap();

        assert_eq!(transcripts_of(&main), vec![child]);
    }
}
