//! Bulk work (an import, a search indexing a backlog) goes after hooks, for the write lock and
//! for the CPU. A connection that finds the database busy outside bulk work — a hook — holds a
//! shared `flock` on `<database>-waiting` until it has the lock. A bulk writer tries that file
//! every millisecond of its work; on finding a waiter it commits at once and lets the waiter
//! take the lock before it goes on, and without one it never pauses. SQLite gives a waiting
//! connection no way to be seen, and a bulk writer that only paused at fixed points (every
//! 25 ms) made each hook beside an import wait about that long.

use std::cell::{Cell, RefCell};
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// How often a bulk writer looks for a waiting hook.
const LOOK_EVERY: Duration = Duration::from_millis(1);

/// How long a bulk writer lets waiting hooks go first, at most, before it goes on (and waits
/// for the lock like any writer).
const LET_GO_FOR: Duration = Duration::from_millis(200);

/// How often a bulk writer that lets hooks go first looks whether they have the lock.
const LET_GO_POLL: Duration = Duration::from_micros(100);

thread_local! {
    /// Set while this thread does bulk work: its own waits are not announced.
    static IN_BULK: Cell<bool> = const { Cell::new(false) };
    /// This thread's announced wait, released once it has the lock.
    static ANNOUNCED: RefCell<Option<File>> = const { RefCell::new(None) };
}

/// `<database>-waiting`: hooks waiting for the lock hold a shared `flock` on it.
const WAITING: &str = "-waiting";

/// `<database>-bulk`: bulk writers at work hold a shared `flock` on it, so a hook that waited
/// long can tell a writer that lets it go first from one that may never let go.
const AT_WORK: &str = "-bulk";

fn open(db: &Path, suffix: &str) -> std::io::Result<File> {
    let mut path = db.to_path_buf().into_os_string();
    path.push(suffix);
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
}

/// `flock` without blocking; false when another process holds a conflicting lock.
fn try_flock(file: &File, how: libc::c_int) -> bool {
    // SAFETY: flock on a descriptor this `File` owns; no memory is passed.
    unsafe { libc::flock(file.as_raw_fd(), how | libc::LOCK_NB) == 0 }
}

/// From the busy handler, on each failed try of a connection: outside bulk work, says that
/// this thread waits for the lock (once; a try that cannot announce is repeated next time).
pub(super) fn announce_wait(db: &Path) {
    if IN_BULK.get() {
        return;
    }
    ANNOUNCED.with_borrow_mut(|announced| {
        if announced.is_none() {
            *announced = open(db, WAITING)
                .ok()
                .filter(|f| try_flock(f, libc::LOCK_SH));
        }
    });
}

/// Once this thread has the lock (or gave up on it): its wait is over. A store dropped while
/// the thread ends may find the announcement gone already, closed with its thread.
pub(super) fn wait_ended() {
    let _ = ANNOUNCED.try_with(|announced| *announced.borrow_mut() = None);
}

/// Marks the calling thread as doing bulk work for the rest of its life: below hooks for the
/// CPU (nice 10; threads it starts inherit that), and it does not announce its waits. An
/// unprivileged process cannot raise its priority again, so the caller is a thread or a
/// process that only does bulk work.
pub fn become_bulk() {
    IN_BULK.set(true);
    // SAFETY: plain syscalls on the calling thread; Linux applies the nice value per thread.
    #[cfg(target_os = "linux")]
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 10);
    }
}

/// Whether a bulk writer is at work on `db` now (`marker` keeps the file open between calls).
pub(super) fn bulk_at_work(db: &Path, marker: &mut Option<File>) -> bool {
    if marker.is_none() {
        *marker = open(db, AT_WORK).ok();
    }
    match marker.as_ref() {
        Some(f) if try_flock(f, libc::LOCK_EX) => {
            try_flock(f, libc::LOCK_UN);
            false
        }
        Some(_) => true,
        None => false,
    }
}

/// A bulk writer's view of hooks waiting for the lock.
pub(super) struct Waiters {
    db: PathBuf,
    file: RefCell<Option<File>>,
    looked: Cell<Instant>,
    /// While this is a bulk writer's: its shared lock on `<database>-bulk`.
    at_work: RefCell<Option<File>>,
}

impl Waiters {
    pub(super) fn new(db: &Path) -> Waiters {
        Waiters {
            db: db.to_path_buf(),
            file: RefCell::new(None),
            looked: Cell::new(Instant::now()),
            at_work: RefCell::new(None),
        }
    }

    /// On a bulk thread, says that a bulk writer is at work until this is dropped.
    fn mark_at_work(&self) {
        if !IN_BULK.get() {
            return;
        }
        let mut at_work = self.at_work.borrow_mut();
        if at_work.is_none() {
            *at_work = open(&self.db, AT_WORK)
                .ok()
                .filter(|f| try_flock(f, libc::LOCK_SH));
        }
    }

    /// Whether a hook waits for the lock now.
    fn waiting_now(&self) -> bool {
        self.mark_at_work();
        let mut file = self.file.borrow_mut();
        if file.is_none() {
            *file = open(&self.db, WAITING).ok();
        }
        match file.as_ref() {
            Some(f) if try_flock(f, libc::LOCK_EX) => {
                try_flock(f, libc::LOCK_UN);
                false
            }
            Some(_) => true,
            // Without the file no hook can announce itself either.
            None => false,
        }
    }

    /// [`Waiters::waiting_now`], looked at no more often than every [`LOOK_EVERY`]: cheap
    /// enough to ask after every record stored.
    pub(super) fn waiting(&self) -> bool {
        if self.looked.get().elapsed() < LOOK_EVERY {
            return false;
        }
        self.looked.set(Instant::now());
        self.waiting_now()
    }

    /// After a commit: while hooks wait, until they have taken the lock (at most
    /// [`LET_GO_FOR`]); at once when none waits.
    pub(super) fn let_go_first(&self) {
        let since = Instant::now();
        while self.waiting_now() && since.elapsed() < LET_GO_FOR {
            thread::sleep(LET_GO_POLL);
        }
        self.looked.set(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bulk_writer_sees_a_waiting_thread_until_its_wait_ends() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let waiters = Waiters::new(&db);
        assert!(!waiters.waiting_now());
        // flock is per open file, so a thread of this process shows as another process does.
        let (announced, go_on) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        thread::scope(|s| {
            s.spawn(|| {
                announce_wait(&db);
                announce_wait(&db);
                announced.wait();
                go_on.wait();
                wait_ended();
                announced.wait();
            });
            announced.wait();
            assert!(waiters.waiting_now());
            go_on.wait();
            announced.wait();
            assert!(!waiters.waiting_now());
        });
    }

    #[test]
    fn bulk_threads_do_not_announce_their_waits() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        thread::scope(|s| {
            s.spawn(|| {
                become_bulk();
                announce_wait(&db);
                assert!(!Waiters::new(&db).waiting_now());
            });
        });
    }
}
