//! `codex exec` where Codex is installed: read-only sandbox, no session kept, its last message
//! the answer, the token counts from its JSON events.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::{command, Backend, Completion, Prompt};

pub struct Codex {
    /// Empty: the model Codex is configured with.
    pub model: String,
    pub workdir: PathBuf,
    pub timeout: Duration,
}

/// The events of `codex exec --json` read here.
#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    item: Option<Item>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

#[derive(Deserialize)]
struct Item {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    text: String,
}

impl Backend for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, prompt: &Prompt) -> Result<Completion, String> {
        let mut args: Vec<String> = [
            "exec",
            "--json",
            "--ephemeral",
            "--skip-git-repo-check",
            "--sandbox",
            "read-only",
        ]
        .map(String::from)
        .to_vec();
        if !self.model.is_empty() {
            args.extend(["--model".to_string(), self.model.clone()]);
        }
        // Codex has no system prompt option for exec: the instructions lead the prompt.
        args.push("-".into());
        let stdin = format!("{}\n\n{}", prompt.system, prompt.user);
        let out = command::run("codex", &args, &self.workdir, &stdin, self.timeout)?;
        let mut completion = Completion::default();
        for line in out.stdout.lines() {
            let Ok(event) = serde_json::from_str::<Event>(line) else {
                continue;
            };
            match event.kind.as_str() {
                "item.completed" => {
                    if let Some(item) = event.item.filter(|i| i.kind == "agent_message") {
                        completion.text = item.text;
                    }
                }
                "turn.completed" => {
                    if let Some(u) = event.usage {
                        completion.input_tokens += u.input_tokens;
                        completion.output_tokens += u.output_tokens;
                    }
                }
                "turn.failed" | "error" => {
                    let why = event
                        .message
                        .or(event.error.map(|e| e.to_string()))
                        .unwrap_or_else(|| line.to_string());
                    return Err(format!("`codex exec` failed: {why}"));
                }
                _ => {}
            }
        }
        if completion.text.is_empty() {
            return Err(
                "`codex exec` gave no answer (no agent message in its --json output)".into(),
            );
        }
        Ok(completion)
    }
}
