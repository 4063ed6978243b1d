//! Any OpenAI-compatible chat completions endpoint: a local model server (Ollama, llama.cpp's
//! server, LM Studio) or a hosted one. The key is optional.

use std::time::Duration;

use serde_json::json;

use super::http::{self, Endpoint};
use super::{Backend, Completion, Prompt};

/// Ollama's OpenAI-compatible endpoint on this machine.
const DEFAULT_URL: &str = "http://localhost:11434/v1";

pub struct OpenAi(Endpoint);

impl OpenAi {
    pub fn new(base: &str, model: String, key: String, timeout: Duration) -> Result<Self, String> {
        Endpoint::new(base, DEFAULT_URL, "chat/completions", model, key, timeout).map(OpenAi)
    }
}

impl Backend for OpenAi {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn model(&self) -> &str {
        &self.0.model
    }

    fn complete(&self, prompt: &Prompt) -> Result<Completion, String> {
        let body = json!({
            "model": self.0.model,
            "max_tokens": prompt.max_output_tokens(),
            "temperature": 0,
            "stream": false,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        });
        let mut request = self.0.client.post(&self.0.url).json(&body);
        if !self.0.key.is_empty() {
            request = request.bearer_auth(&self.0.key);
        }
        let answer = http::post_json(request, &self.0.url)?;
        let text = answer["choices"][0]["message"]["content"]
            .as_str()
            .ok_or_else(|| {
                format!(
                    "{}: the answer has no choices[0].message.content",
                    self.0.url
                )
            })?
            .to_string();
        let usage = &answer["usage"];
        Ok(Completion {
            text,
            input_tokens: usage["prompt_tokens"].as_u64().unwrap_or(0),
            output_tokens: usage["completion_tokens"].as_u64().unwrap_or(0),
        })
    }
}
