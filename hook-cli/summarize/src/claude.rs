//! `claude -p` on the person's subscription: no key, a small model, no tools, no MCP servers,
//! no session kept, Claude Code's long system prompt replaced by ours.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::{command, Backend, Completion, Prompt};

pub const DEFAULT_MODEL: &str = "haiku";

pub struct Claude {
    pub model: String,
    pub workdir: PathBuf,
    pub timeout: Duration,
}

/// The part of `--output-format json` read here.
#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    is_error: bool,
    #[serde(default)]
    result: String,
    #[serde(default)]
    usage: Usage,
}

#[derive(Deserialize, Default)]
struct Usage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: u64,
    #[serde(default)]
    cache_read_input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

impl Backend for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, prompt: &Prompt) -> Result<Completion, String> {
        let args: Vec<String> = [
            "-p",
            "--model",
            &self.model,
            "--output-format",
            "json",
            "--no-session-persistence",
            "--tools",
            "",
            "--strict-mcp-config",
            "--system-prompt",
            &prompt.system,
        ]
        .map(String::from)
        .to_vec();
        let out = command::run("claude", &args, &self.workdir, &prompt.user, self.timeout)?;
        let answer: Answer = serde_json::from_str(out.stdout.trim()).map_err(|e| {
            let head: String = out.stdout.chars().take(200).collect();
            format!("`claude -p` printed no JSON result ({e}): {head:?}")
        })?;
        if answer.is_error {
            return Err(format!("`claude -p` reported an error: {}", answer.result));
        }
        let u = answer.usage;
        Ok(Completion {
            text: answer.result,
            input_tokens: u.input_tokens
                + u.cache_creation_input_tokens
                + u.cache_read_input_tokens,
            output_tokens: u.output_tokens,
        })
    }
}
