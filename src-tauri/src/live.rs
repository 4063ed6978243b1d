//! Keeps the tray and the window up to date. A background thread rereads the store when a hook
//! writes to it (a file change in Throughline's home, seen with `notify`) or a live session's
//! transcript grows (its latest usage is read from the file's tail), and every few seconds
//! anyway, since sessions also stop being live with time. It only ever reads, through a
//! read-only connection, so a hook is never kept waiting.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use notify::event::{EventKind, ModifyKind};
use notify::{RecursiveMode, Watcher};
use tauri::{AppHandle, Emitter, Manager};
use throughline_engine::home::Home;

use crate::meter::{self, Snapshot};
use crate::tray::Tray;
use crate::warn::Warnings;

/// The event the window listens to; its payload is a [`Snapshot`].
pub const EVENT: &str = "live-sessions";
/// Reread at least this often, to drop sessions that went quiet.
const POLL: Duration = Duration::from_secs(5);
/// Hooks write in bursts: wait this long after a change so a burst costs one reread, and the
/// tray changes at most about once a second.
const SETTLE: Duration = Duration::from_secs(1);

pub fn spawn(app: AppHandle, home: Home) -> std::io::Result<()> {
    thread::Builder::new()
        .name("live-sessions".into())
        .spawn(move || watch(app, home))
        .map(|_| ())
}

fn watch(app: AppHandle, home: Home) {
    let (changed, changes) = mpsc::channel();
    let watched_home = home.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| matters(&e, &watched_home)) {
            let _ = changed.send(());
        }
    });
    let mut watching = false;
    let mut transcripts: HashSet<PathBuf> = HashSet::new();
    let mut last: Option<Snapshot> = None;
    loop {
        // The home folder appears with the first hook call; until then, polling finds it.
        if !watching {
            if let Ok(watcher) = watcher.as_mut() {
                watching = watcher
                    .watch(home.dir(), RecursiveMode::NonRecursive)
                    .is_ok();
            }
        }
        let snapshot = meter::snapshot(&home);
        if let Ok(watcher) = watcher.as_mut() {
            follow_transcripts(watcher, &mut transcripts, &snapshot);
        }
        app.state::<Tray>().show(&app, &snapshot);
        app.state::<Warnings>().update(&snapshot);
        if last.as_ref() != Some(&snapshot) {
            let _ = app.emit(EVENT, &snapshot);
            last = Some(snapshot);
        }
        match changes.recv_timeout(POLL) {
            Ok(()) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => thread::sleep(POLL),
        }
        thread::sleep(SETTLE);
        while changes.try_recv().is_ok() {}
    }
}

/// Whether a file event says something the window shows may have changed. Opening the store
/// is an access, not a change; and the app's own read-only opens touch the store's `-shm`
/// index and the WAL's metadata in the same folder, so a change there (or to the log) must not wake the app, or it
/// rereads forever. In Throughline's home only the database, its WAL (every hook's write),
/// the settings and the plan usage the statusline records count; a file elsewhere is a watched transcript.
pub fn matters(event: &notify::Event, home: &Home) -> bool {
    // SQLite sets the WAL's mode and owner on every open, read-only ones too: metadata
    // changes say nothing.
    let content = match event.kind {
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        kind => kind.is_create() || kind.is_modify() || kind.is_remove(),
    };
    if !content {
        return false;
    }
    let db = home.db_path();
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    let settings = throughline_engine::config::path(home);
    let plan = throughline_engine::plan::path(home);
    event.paths.iter().any(|path| {
        path.parent() != Some(home.dir())
            || *path == db
            || path.as_os_str() == wal
            || *path == settings
            || *path == plan
    })
}

/// Watches the transcripts of the live sessions, and only those.
fn follow_transcripts(
    watcher: &mut impl Watcher,
    watched: &mut HashSet<PathBuf>,
    snapshot: &Snapshot,
) {
    let live: HashSet<PathBuf> = snapshot
        .sessions
        .iter()
        .filter_map(|s| s.transcript.clone())
        .collect();
    for gone in watched.difference(&live) {
        let _ = watcher.unwatch(gone);
    }
    // A transcript the host has not created yet is picked up by a later pass.
    watched.retain(|path| live.contains(path));
    for path in live {
        if !watched.contains(&path) && watcher.watch(&path, RecursiveMode::NonRecursive).is_ok() {
            watched.insert(path);
        }
    }
}
