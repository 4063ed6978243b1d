//! Any OpenAI-compatible chat completions endpoint: a local model server (Ollama, llama.cpp's
//! server, LM Studio) or a hosted one. The key is optional.

use std::time::Duration;

use reqwest::blocking::Client;
use serde_json::json;

use super::{http, Backend, Completion, Prompt};

/// Ollama's OpenAI-compatible endpoint on this machine.
const DEFAULT_URL: &str = "http://localhost:11434/v1";

pub struct OpenAi {
    url: String,
    model: String,
    key: String,
    client: Client,
}

impl OpenAi {
    pub fn new(base: &str, model: String, key: String, timeout: Duration) -> Result<Self, String> {
        let base = if base.is_empty() { DEFAULT_URL } else { base };
        Ok(OpenAi {
            url: http::join(base, "chat/completions"),
            model,
            key,
            client: http::client(timeout)?,
        })
    }
}

impl Backend for OpenAi {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, prompt: &Prompt) -> Result<Completion, String> {
        let body = json!({
            "model": self.model,
            "max_tokens": prompt.max_output_tokens(),
            "temperature": 0,
            "stream": false,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        });
        let mut request = self.client.post(&self.url).json(&body);
        if !self.key.is_empty() {
            request = request.bearer_auth(&self.key);
        }
        let answer = http::post_json(request, &self.url)?;
        let text = answer["choices"][0]["message"]["content"]
            .as_str()
            .ok_or_else(|| format!("{}: the answer has no choices[0].message.content", self.url))?
            .to_string();
        let usage = &answer["usage"];
        Ok(Completion {
            text,
            input_tokens: usage["prompt_tokens"].as_u64().unwrap_or(0),
            output_tokens: usage["completion_tokens"].as_u64().unwrap_or(0),
        })
    }
}
