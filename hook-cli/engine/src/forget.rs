//! Forgetting, as the CLI (`throughline forget`) and the app call it: a preview of what a
//! scope covers, then removing it (the SQL is `store/forget.rs`), and the retention settings
//! (`keep_days`, `keep_mb`) applied away from the hook path (docs/decisions/0046), as is the
//! look for a secret found late in the whole store (docs/decisions/0150).

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use crate::clock;
use crate::config::Config;
use crate::home::Home;
use crate::store::{self, Store, LIVE_WINDOW};

pub use crate::store::{Forgotten, Preview, Scope, Scrubbed};

/// What a scope covers; reads a store that may be open for writing elsewhere (hooks).
pub fn preview(home: &Home, scope: &Scope) -> store::Result<Preview> {
    Store::open_read_only(home)?.forget_preview(scope)
}

/// Forgets `scope` (see [`Store::forget`]). Hooks go on meanwhile: it works in short
/// transactions and yields the lock between them.
pub fn apply(home: &Home, scope: &Scope) -> store::Result<Forgotten> {
    crate::open_store(home)?.forget(scope)
}

/// A time given by a person: a date (`2026-10-01`, midnight UTC), a timestamp (RFC 3339), or
/// an age (`30d`, `12h`, `2w`: that long before `now`). Returns it in the stored format.
pub fn parse_time(text: &str, now: &str) -> Result<String, String> {
    let text = text.trim();
    if let Ok(age) = humantime::parse_duration(text) {
        return clock::before(now, age).ok_or_else(|| format!("cannot read the time {now:?}"));
    }
    let full = if text.len() == 10 {
        format!("{text}T00:00:00Z")
    } else {
        text.to_string()
    };
    match humantime::parse_rfc3339_weak(full.trim_end_matches('Z')) {
        Ok(at) => Ok(humantime::format_rfc3339_millis(at).to_string()),
        Err(_) => Err(format!(
            "{text:?} is not a time: give a date (2026-10-01), a timestamp \
             (2026-10-01T12:00:00Z) or an age (30d, 12h, 2w)"
        )),
    }
}

/// What the retention settings removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Retained {
    /// Turns older than `keep_days`.
    pub by_age: Option<Forgotten>,
    /// The oldest sessions, until what is stored fits in `keep_mb`.
    pub by_size: Option<Forgotten>,
}

/// What the retention settings would remove now (`forget --retention --dry-run`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RetentionPreview {
    pub by_age: Option<Preview>,
    pub by_size: Option<Preview>,
}

/// The two steps of the retention settings as scopes of [`Store::forget`], each None when it
/// removes nothing.
struct RetentionSteps {
    by_age: Option<Scope>,
    by_size: Option<Scope>,
}

/// Turns older than `keep_days` go, then the least recently active sessions, sized as the
/// first step leaves them, until their text fits in `keep_mb`. Live sessions (active within
/// [`LIVE_WINDOW`]) are never dropped for size. Reads only: the same steps are applied or
/// previewed.
fn retention_steps(store: &Store, config: &Config, now: &str) -> store::Result<RetentionSteps> {
    let mut kept_from = None;
    let mut by_age = None;
    if config.keep_days > 0 {
        let age = Duration::from_secs(u64::from(config.keep_days) * 86_400);
        if let Some(before) = clock::before(now, age) {
            let scope = Scope::Before(before.clone());
            if !store.forget_preview(&scope)?.is_empty() {
                by_age = Some(scope);
            }
            kept_from = Some(before);
        }
    }
    let mut by_size = None;
    if config.keep_mb > 0 {
        let limit = u64::from(config.keep_mb) << 20;
        let live_since = clock::before(now, LIVE_WINDOW).unwrap_or_default();
        let sessions = store.sessions_by_age(kept_from.as_deref())?;
        let mut total: u64 = sessions.iter().map(|s| s.text_bytes).sum();
        let mut drop = Vec::new();
        for s in &sessions {
            if total <= limit {
                break;
            }
            if s.last_activity
                .as_deref()
                .is_some_and(|at| at >= &*live_since)
            {
                continue;
            }
            total -= s.text_bytes;
            drop.push(s.id);
        }
        if !drop.is_empty() {
            by_size = Some(Scope::Sessions {
                ids: drop,
                kept_from,
            });
        }
    }
    Ok(RetentionSteps { by_age, by_size })
}

/// Applies the retention settings (see [`retention_steps`]).
pub fn apply_retention(store: &mut Store, config: &Config, now: &str) -> store::Result<Retained> {
    let steps = retention_steps(store, config, now)?;
    Ok(Retained {
        by_age: steps.by_age.map(|s| store.forget(&s)).transpose()?,
        by_size: steps.by_size.map(|s| store.forget(&s)).transpose()?,
    })
}

/// What [`apply_retention`] would remove now; changes nothing.
pub fn preview_retention(
    home: &Home,
    config: &Config,
    now: &str,
) -> store::Result<RetentionPreview> {
    let store = Store::open_read_only(home)?;
    let steps = retention_steps(&store, config, now)?;
    Ok(RetentionPreview {
        by_age: steps.by_age.map(|s| store.forget_preview(&s)).transpose()?,
        by_size: steps
            .by_size
            .map(|s| store.forget_preview(&s))
            .transpose()?,
    })
}

/// How often hooks start applying the retention settings.
pub const RETENTION_EVERY: Duration = Duration::from_secs(6 * 3600);

fn stamp(home: &Home) -> PathBuf {
    home.dir().join("retention.checked")
}

/// Whether retention is set and was last applied more than [`RETENTION_EVERY`] ago: one
/// `stat` of a stamp file, cheap enough for a hook.
pub fn retention_due(home: &Home, config: &Config) -> bool {
    if config.keep_days == 0 && config.keep_mb == 0 {
        return false;
    }
    stale(&stamp(home), RETENTION_EVERY)
}

/// Whether the stamp file at `path` is missing or was written at least `age` ago.
fn stale(path: &std::path::Path, age: Duration) -> bool {
    match fs::metadata(path).and_then(|m| m.modified()) {
        Ok(at) => SystemTime::now()
            .duration_since(at)
            .is_ok_and(|since| since >= age),
        Err(_) => true,
    }
}

/// Starts `throughline forget --retention --yes` in the background and marks it done, so
/// the hooks that follow do not start another. The hook returns at once.
pub fn start_retention(home: &Home) -> std::io::Result<()> {
    fs::write(stamp(home), clock::now())?;
    start_detached(home, "--retention")
}

/// How long a started scrub is left to finish before a hook starts another.
const SCRUB_AGAIN_AFTER: Duration = Duration::from_secs(600);

fn scrub_stamp(home: &Home) -> PathBuf {
    home.dir().join("secrets.scrubbed")
}

/// How many secrets found late wait for [`scrub_secrets`]; reads a store that may be open for
/// writing elsewhere.
pub fn secrets_waiting(home: &Home) -> store::Result<u64> {
    Store::open_read_only(home)?.secrets_waiting()
}

/// Replaces each secret found late wherever the store holds it (decision 0150). Hooks go on
/// meanwhile, as with [`apply`].
pub fn scrub_secrets(home: &Home) -> store::Result<Scrubbed> {
    crate::open_store(home)?.scrub_secrets()
}

/// Whether a hook should start a scrub: a secret found late waits for one (one indexed read)
/// and none was started in the last [`SCRUB_AGAIN_AFTER`].
pub fn scrub_due(home: &Home, store: &Store) -> store::Result<bool> {
    if store.secrets_waiting()? == 0 {
        return Ok(false);
    }
    Ok(stale(&scrub_stamp(home), SCRUB_AGAIN_AFTER))
}

/// Starts `throughline forget --secrets --yes` in the background and notes when.
pub fn start_scrub(home: &Home) -> std::io::Result<()> {
    fs::write(scrub_stamp(home), clock::now())?;
    start_detached(home, "--secrets")
}

/// Starts `throughline forget <what> --yes --quiet` detached from the hook (its own session,
/// no terminal, no pipes the host waits on).
fn start_detached(home: &Home, what: &str) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    command
        .args(["forget", what, "--yes", "--quiet"])
        .env(crate::home::HOME_ENV, home.dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    command.spawn().map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_dates_timestamps_or_ages() {
        let now = "2026-11-30T10:00:00.000Z";
        assert_eq!(
            parse_time("2026-10-01", now).unwrap(),
            "2026-10-01T00:00:00.000Z"
        );
        assert_eq!(
            parse_time("2026-10-01T12:30:00Z", now).unwrap(),
            "2026-10-01T12:30:00.000Z"
        );
        assert_eq!(parse_time("30d", now).unwrap(), "2026-10-31T10:00:00.000Z");
        assert_eq!(parse_time("2w", now).unwrap(), "2026-11-16T10:00:00.000Z");
        let err = parse_time("last tuesday", now).unwrap_err();
        assert!(err.contains("30d"), "{err}");
    }

    #[test]
    fn retention_is_due_once_set_and_then_only_after_a_while() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        let mut config = Config::default();
        assert!(!retention_due(&home, &config), "nothing set, nothing due");
        config.keep_days = 30;
        assert!(retention_due(&home, &config));
        fs::write(stamp(&home), "now").unwrap();
        assert!(!retention_due(&home, &config));
        let old = SystemTime::now() - RETENTION_EVERY - Duration::from_secs(60);
        fs::File::options()
            .write(true)
            .open(stamp(&home))
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(retention_due(&home, &config));
    }

    #[test]
    fn retention_drops_old_turns_then_the_oldest_sessions_beyond_the_size() {
        use crate::record::Record;
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        let mut store = sessions_of_400_kib(
            &home,
            &[
                ("old", &["2026-09-01T10:00"]),
                ("mid", &["2026-11-20T10:00"]),
                ("new", &["2026-11-29T10:00"]),
            ],
        );
        let big = "x".repeat(400 << 10);
        let now = "2026-11-30T10:00:00.000Z";
        let config = Config {
            keep_days: 30,
            keep_mb: 0,
            ..Config::default()
        };
        let done = apply_retention(&mut store, &config, now).unwrap();
        assert_eq!(done.by_age.unwrap().removed.sessions, 1);
        assert!(store.session("old").is_err());
        let config = Config {
            keep_days: 30,
            keep_mb: 1,
            ..Config::default()
        };
        let done = apply_retention(&mut store, &config, now).unwrap();
        assert_eq!(done.by_age, None, "nothing older is left");
        assert_eq!(done.by_size, None, "800 KiB fit in 1 MiB");
        let w = store.write().unwrap();
        let mut s = w
            .session(crate::hosts::claude::HOST, "new", None, None)
            .unwrap();
        let prompt = Record::Prompt {
            key: "u:2".into(),
            text: big.clone(),
            at: Some("2026-11-30T09:59:00.000Z".into()),
        };
        w.apply(&mut s, &mut None, &prompt).unwrap();
        w.touch_session(s.id, None, Some("2026-11-30T09:59:00.000Z"))
            .unwrap();
        w.commit().unwrap();
        let done = apply_retention(&mut store, &config, now).unwrap();
        assert_eq!(done.by_size.unwrap().removed.sessions, 1);
        assert!(store.session("mid").is_err(), "the oldest went");
        assert_eq!(store.session("new").unwrap().turns, 2, "the live one stays");
    }

    /// A store in `home` holding, for each session, a prompt of 400 KiB at each of its times
    /// (`2026-11-30T09:59`), the session last active at the last.
    fn sessions_of_400_kib(home: &Home, sessions: &[(&str, &[&str])]) -> Store {
        use crate::record::Record;
        let mut store = crate::open_store(home).unwrap();
        let big = "x".repeat(400 << 10);
        for (id, times) in sessions {
            let w = store.write().unwrap();
            let mut s = w
                .session(crate::hosts::claude::HOST, id, Some("/p"), None)
                .unwrap();
            for (n, time) in times.iter().enumerate() {
                let at = format!("{time}:00.000Z");
                let prompt = Record::Prompt {
                    key: format!("u:{n}"),
                    text: big.clone(),
                    at: Some(at.clone()),
                };
                w.apply(&mut s, &mut None, &prompt).unwrap();
                w.touch_session(s.id, Some(&at), Some(&at)).unwrap();
            }
            w.commit().unwrap();
        }
        store
    }

    #[test]
    fn a_retention_preview_is_what_applying_it_removes() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        // `straddles` has a turn older than 30 days and one within them.
        let mut store = sessions_of_400_kib(
            &home,
            &[
                ("straddles", &["2026-09-01T10:00", "2026-11-20T10:00"]),
                ("mid", &["2026-11-25T10:00"]),
                ("live", &["2026-11-30T09:59"]),
            ],
        );
        let now = "2026-11-30T10:00:00.000Z";
        let config = Config {
            keep_days: 30,
            keep_mb: 1,
            ..Config::default()
        };
        let would = preview_retention(&home, &config, now).unwrap();
        let by_age = would.by_age.clone().unwrap();
        assert_eq!((by_age.sessions, by_age.turns), (0, 1));
        // 1,200 KiB left after the age step: the least recently active session goes, counted
        // by the one turn the age step leaves of it.
        let by_size = would.by_size.clone().unwrap();
        assert_eq!((by_size.sessions, by_size.turns), (1, 1));
        assert!(by_size.text_bytes < 500 << 10, "{by_size:?}");
        assert!(
            store.session("straddles").is_ok(),
            "a preview changes nothing"
        );

        let done = apply_retention(&mut store, &config, now).unwrap();
        assert_eq!(done.by_age.map(|f| f.removed), would.by_age);
        assert_eq!(done.by_size.map(|f| f.removed), would.by_size);
        assert!(store.session("straddles").is_err());
        assert!(store.session("mid").is_ok() && store.session("live").is_ok());
    }
}
