//! Test support: drive the real Claude Code CLI against a scripted local model server.
//!
//! * [`model_server`]: a fake Anthropic Messages API that plays a [`Script`] and records requests.
//! * [`claude`]: an isolated HOME/project/environment and headless (`claude -p`) runs.
//! * [`tmux`]: the interactive UI inside tmux, for `/clear` and other slash commands.
//! * [`transcript`]: reading Claude Code's JSONL transcripts.
//! * [`throughline`]: the real `throughline` as every hook, on a temp store.
//! * [`responses_server`] and [`codex`]: the same for the real Codex CLI (`codex exec`).
//! * [`gemini_server`] and [`gemini`]: the same for the real Gemini CLI, headless and in its TUI.
//! * [`pane`]: a TUI in a tmux server of its own, for the Codex and Gemini drivers.
//! * [`http`]: the loopback HTTP/1.1 server those scripted APIs answer through.
//! * [`scenario`]: a long, realistic coding session with facts planted in it.
//! * [`facts`]: when a memory keeps a planted fact (its sentence, not a key token).
//! * [`store_env`]: a temp store and projects folder for recorded payloads and transcripts.
//! * [`redaction_corpus`]: secrets in every shape and place, and clean texts beside them.
//!
//! Use from an integration test with `mod support;`. The client is one of the two pinned by
//! `npm ci --prefix hook-cli/tests/claude-code`, chosen by `THROUGHLINE_CLAUDE=current|oldest`,
//! or any binary named by `THROUGHLINE_CLAUDE_BIN` (see [`claude::claude_bin`]); the
//! interactive driver needs `tmux`. `THROUGHLINE_KEEP_TEST_DIRS=1` keeps each test's temp HOME,
//! project and hook log for a post-mortem.
#![allow(dead_code, unused_imports)]

pub mod claude;
pub mod codex;
pub mod facts;
pub mod gemini;
pub mod gemini_server;
pub mod http;
pub mod model_server;
pub mod pane;
pub mod redaction_corpus;
pub mod responses_server;
pub mod scenario;
pub mod store_env;
pub mod summary_server;
pub mod throughline;
pub mod tmux;
pub mod transcript;

pub use claude::{event_name, ClaudeEnv, ClaudeEnvBuilder, RunOutput};
pub use model_server::{
    Block, ModelServer, PromptMatch, RecordedRequest, RequestKind, Script, Step, Usage,
};
pub use tmux::Tmux;
