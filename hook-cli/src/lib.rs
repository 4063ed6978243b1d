//! Throughline: a layered, lossless memory of AI coding sessions.
//!
//! Hooks of each host (`hosts`) feed transcripts through `ingest` into the `store`, which
//! keeps every turn in three layers: L2 the conversation verbatim, L3 the detail (tool calls
//! and output, thinking, host entries) and L1 one-line summaries. The CLI and the tray app
//! are thin layers over this library.

pub mod blocks;
pub mod capture;
pub mod clock;
pub mod config;
pub mod demo;
pub mod doctor;
pub mod forget;
pub mod gauge;
pub mod handoff;
pub mod home;
pub mod hosts;
pub mod import;
pub mod ingest;
pub mod install;
pub mod log;
pub mod mcp_request;
pub mod memory;
pub mod model;
pub mod payload;
pub mod plan;
pub mod project;
pub mod recall;
pub mod record;
pub mod redact;
pub mod regular_file;
pub mod render;
pub mod search;
pub mod store;
pub mod summarize;
pub mod summary;
pub mod tail;
#[cfg(test)]
mod test_memory;

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
