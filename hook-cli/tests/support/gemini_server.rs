//! A scripted Gemini API server for the real Gemini CLI: `POST
//! /v1beta/models/<model>:streamGenerateContent?alt=sse` is answered with one server-sent
//! event holding the whole candidate and its `usageMetadata`; the CLI's side requests to
//! `:generateContent` (its model router) get the JSON they ask for, `:countTokens` a count,
//! any `GET` `{}`. What to answer: the latest `user` content with text the person typed is the
//! prompt, and the function responses after it tell which step of that prompt's script comes
//! next.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::http::{self, Answer, Request};

/// One model response.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Run a shell command (`run_shell_command` with `{"command": ...}`); the CLI runs it.
    Shell(String),
    /// Call the tool `name` with `args`.
    Call { name: &'static str, args: Value },
    /// Thinking, then an answer; it ends the turn.
    Text {
        thought: Option<String>,
        text: String,
    },
}

impl Reply {
    pub fn text(text: &str) -> Reply {
        Reply::Text {
            thought: None,
            text: text.into(),
        }
    }
}

#[derive(Default)]
struct State {
    turns: Vec<(String, Vec<Reply>)>,
    requests: Vec<Value>,
    served: u64,
}

pub struct GeminiServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

impl GeminiServer {
    /// Serves on `127.0.0.1:0`; `turns` pairs a text the prompt contains with its replies.
    pub fn start(turns: Vec<(&str, Vec<Reply>)>) -> GeminiServer {
        let state = Arc::new(Mutex::new(State {
            turns: turns.into_iter().map(|(p, r)| (p.to_string(), r)).collect(),
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        let addr = http::serve(move |request| answer(&shared, request));
        GeminiServer { addr, state }
    }

    /// `http://127.0.0.1:PORT`, for `GOOGLE_GEMINI_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every `streamGenerateContent` body received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }

    /// How many turns the server has ended (answered with text).
    pub fn served(&self) -> u64 {
        self.state.lock().unwrap().served
    }
}

fn answer(state: &Mutex<State>, request: &Request) -> Answer {
    let line = &request.line;
    if line.contains(":streamGenerateContent") {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        ("text/event-stream", stream_answer(state, body))
    } else if line.contains(":generateContent") {
        // The router asks how hard the prompt is, as JSON text.
        let verdict = json!({"complexity_reasoning": "scripted", "complexity_score": 10});
        let answer = json!({"candidates": [{"content": {"role": "model",
            "parts": [{"text": verdict.to_string()}]}, "finishReason": "STOP"}]});
        ("application/json", answer.to_string())
    } else if line.contains(":countTokens") {
        ("application/json", json!({"totalTokens": 100}).to_string())
    } else {
        ("application/json", "{}".to_string())
    }
}

/// The text parts of a content, joined.
pub fn content_text(content: &Value) -> String {
    content["parts"]
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Everything a request gave the model as text, in order.
pub fn request_text(request: &Value) -> String {
    request["contents"]
        .as_array()
        .map(|c| c.iter().map(content_text).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default()
}

/// The text parts of a `user` content that are not the CLI's own context (the session
/// context it opens with, the hook context it appends to a prompt).
pub fn typed(content: &Value) -> String {
    let parts = content["parts"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    parts
        .iter()
        .filter_map(|p| p["text"].as_str())
        .filter(|t| !t.starts_with("<session_context>") && !t.starts_with("<hook_context>"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn stream_answer(state: &Mutex<State>, request: Value) -> String {
    let mut state = state.lock().unwrap();
    let contents = request["contents"].as_array().cloned().unwrap_or_default();
    let last_user = contents
        .iter()
        .rposition(|c| c["role"] == "user" && !typed(c).is_empty())
        .unwrap_or(0);
    let prompt = contents.get(last_user).map(typed).unwrap_or_default();
    let responses = contents[last_user..]
        .iter()
        .filter(|c| {
            c["parts"]
                .as_array()
                .is_some_and(|p| p.iter().any(|p| p.get("functionResponse").is_some()))
        })
        .count();
    let replies = state
        .turns
        .iter()
        .find(|(needle, _)| prompt.contains(needle.as_str()))
        .map(|(_, r)| r.clone())
        .unwrap_or_default();
    let reply = replies
        .get(responses)
        .cloned()
        .unwrap_or_else(|| Reply::text("(no scripted reply)"));
    let n = state.requests.len() as u64 + 1;
    state.requests.push(request);
    let parts = match &reply {
        Reply::Shell(command) => {
            json!([{"functionCall": {"name": "run_shell_command", "args": {"command": command}}}])
        }
        Reply::Call { name, args } => json!([{"functionCall": {"name": name, "args": args}}]),
        Reply::Text { thought, text } => {
            state.served += 1;
            let mut parts = Vec::new();
            if let Some(thought) = thought {
                parts.push(json!({"text": thought, "thought": true}));
            }
            parts.push(json!({"text": text}));
            Value::Array(parts)
        }
    };
    let chunk = json!({
        "candidates": [{"content": {"role": "model", "parts": parts},
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1000 * n, "cachedContentTokenCount": 100 * n,
                          "candidatesTokenCount": 7, "thoughtsTokenCount": 3,
                          "totalTokenCount": 1000 * n + 10}
    });
    format!("data: {chunk}\r\n\r\n")
}
