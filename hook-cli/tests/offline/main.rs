//! The suites that start no real client, in one test binary: one build of the support code
//! and one link instead of one a suite. The suites that drive a real client stay binaries of
//! their own (`tests/*.rs`), so scripts can run them by name against another client release.

#[path = "../support/mod.rs"]
mod support;

mod forget;
mod grok;
mod hardening;
mod import_codex;
mod import_cursor;
mod import_gemini;
mod install;
mod install_codex;
mod install_gemini;
mod mcp_requests;
mod redaction;
mod reports;
mod sample_host;
mod search;
mod snapshots;
mod subagent_capture;
mod summaries;
