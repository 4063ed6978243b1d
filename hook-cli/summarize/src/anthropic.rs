//! The Anthropic Messages API with the person's key.

use std::time::Duration;

use serde_json::json;

use super::http::{self, Endpoint};
use super::{Backend, Completion, Prompt};

const DEFAULT_URL: &str = "https://api.anthropic.com";
const API_VERSION: &str = "2023-06-01";

pub struct Anthropic(Endpoint);

impl Anthropic {
    pub fn new(base: &str, model: String, key: String, timeout: Duration) -> Result<Self, String> {
        Endpoint::new(base, DEFAULT_URL, "v1/messages", model, key, timeout).map(Anthropic)
    }
}

impl Backend for Anthropic {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn model(&self) -> &str {
        &self.0.model
    }

    fn complete(&self, prompt: &Prompt) -> Result<Completion, String> {
        let body = json!({
            "model": self.0.model,
            "max_tokens": prompt.max_output_tokens(),
            "temperature": 0,
            "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}],
        });
        let request = self
            .0
            .client
            .post(&self.0.url)
            .header("x-api-key", &self.0.key)
            .header("anthropic-version", API_VERSION)
            .json(&body);
        let answer = http::post_json(request, &self.0.url)?;
        let text = answer["content"]
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter(|b| b["type"] == "text")
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("")
            })
            .ok_or_else(|| format!("{}: the answer has no content", self.0.url))?;
        let usage = &answer["usage"];
        let count = |key: &str| usage[key].as_u64().unwrap_or(0);
        Ok(Completion {
            text,
            input_tokens: count("input_tokens")
                + count("cache_creation_input_tokens")
                + count("cache_read_input_tokens"),
            output_tokens: count("output_tokens"),
        })
    }
}
