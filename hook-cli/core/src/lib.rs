//! What every layer of Throughline shares: the session model and the records hosts produce,
//! where things live (`home`), the configuration, redaction, the log, the clock and the local
//! one-line summary of a turn. Nothing here knows a host, SQL or a verb.

pub mod atomic_file;
pub mod blocks;
pub mod clock;
pub mod config;
pub mod home;
pub mod log;
pub mod model;
pub mod payload;
pub mod plan;
pub mod plural;
pub mod project;
pub mod record;
pub mod redact;
pub mod regular_file;
pub mod summary;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// Set in the environment of anything Throughline starts (e.g. a summarizer running
/// `claude -p`), so hooks fired by it do not capture Throughline's own work.
pub const GUARD_ENV: &str = "THROUGHLINE_GUARD";

/// Whether `err` is, or was caused by, a write to a reader that went away (`throughline show
/// | head`): a normal end for a command's output, not a failure.
pub fn reader_gone(err: &(dyn std::error::Error + 'static)) -> bool {
    std::iter::successors(Some(err), |e| e.source()).any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
