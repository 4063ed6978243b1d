//! Throughline: a layered, lossless memory of AI coding sessions.
//!
//! Hooks of each host (`hosts`) feed transcripts through `ingest` into the `store`, which
//! keeps every turn in three layers: L2 the conversation verbatim, L3 the detail (tool calls
//! and output, thinking, host entries) and L1 one-line summaries. This crate holds what the
//! CLI and the tray app both do with it (capture, handoff, memory, search, doctor, import,
//! forget); both are thin layers over it. The crates below are re-exported under the names
//! their modules had, so one path names each piece whichever crate holds it.

pub use throughline_core::{
    blocks, clock, config, home, log, model, payload, plan, plural, project, reader_gone, record,
    redact, regular_file, summary, GUARD_ENV,
};
pub use throughline_hosts as hosts;
pub use throughline_hosts::install;
pub use throughline_store as store;
pub use throughline_summarize as summarize;

pub mod capture;
pub mod demo;
pub mod doctor;
pub mod forget;
pub mod gauge;
pub mod handoff;
pub mod import;
pub mod ingest;
pub mod mcp_request;
pub mod memory;
pub mod recall;
pub mod render;
pub mod savings;
pub mod search;
pub mod tail;
#[cfg(test)]
mod test_memory;
pub mod window_use;

/// The store in `home`, with the person's own redaction patterns from their settings: how
/// everything but a hook (which has read the settings already) opens it for writing.
pub fn open_store(home: &home::Home) -> store::Result<store::Store> {
    store::Store::open(home, &config::load(home).config.redact_patterns)
}
