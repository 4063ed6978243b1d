//! A scripted OpenAI Responses API server for the real Codex CLI: `POST /v1/responses` is
//! answered with server-sent events (`response.created`, `response.output_item.added` /
//! `response.output_text.delta` / `response.output_item.done`, `response.completed` with usage),
//! any `GET` with `{}`. What to answer: the latest `user` message of the request is the prompt,
//! and the function call outputs after it tell which step of that prompt's script comes next.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::http::{self, Answer, Request};

/// One model response.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Run a shell command (`exec_command` with `{"cmd": ...}`); Codex runs it for real.
    Shell(String),
    /// An assistant message; it ends the turn.
    Text(String),
    /// Call the tool `name` of the tool namespace `namespace` with these arguments.
    Call {
        namespace: &'static str,
        name: &'static str,
        arguments: Value,
    },
    /// Wait for the subagent the previous call spawned (`wait_agent` on the id its output
    /// names).
    WaitForSpawned,
}

#[derive(Clone, Default)]
struct Script {
    turns: Vec<(String, Vec<Reply>)>,
}

#[derive(Default)]
struct State {
    script: Script,
    requests: Vec<Value>,
    served: u64,
}

pub struct ResponsesServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

impl ResponsesServer {
    /// Serves on `127.0.0.1:0`; `turns` pairs a text the prompt contains with its replies.
    pub fn start(turns: Vec<(&str, Vec<Reply>)>) -> ResponsesServer {
        let state = Arc::new(Mutex::new(State {
            script: Script {
                turns: turns.into_iter().map(|(p, r)| (p.to_string(), r)).collect(),
            },
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        let addr = http::serve(move |request| answer(&shared, request));
        ResponsesServer { addr, state }
    }

    /// `http://127.0.0.1:PORT/v1`, the provider's `base_url`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every `POST /v1/responses` body received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }
}

fn answer(state: &Mutex<State>, request: &Request) -> Answer {
    if request.line.starts_with("POST") && request.line.contains("/responses") {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        ("text/event-stream", events(state, body))
    } else {
        ("application/json", "{}".to_string())
    }
}

/// The text of a message item's parts.
pub fn message_text(item: &Value) -> String {
    item["content"]
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

fn events(state: &Mutex<State>, request: Value) -> String {
    let mut state = state.lock().unwrap();
    let input = request["input"].as_array().cloned().unwrap_or_default();
    let last_user = input
        .iter()
        .rposition(|i| i["type"] == "message" && i["role"] == "user")
        .unwrap_or(0);
    let prompt = input.get(last_user).map(message_text).unwrap_or_default();
    let outputs = input[last_user..]
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .count();
    let replies = state
        .script
        .turns
        .iter()
        .find(|(needle, _)| prompt.contains(needle.as_str()))
        .map(|(_, r)| r.clone())
        .unwrap_or_default();
    let reply = replies
        .get(outputs)
        .cloned()
        .unwrap_or_else(|| Reply::Text("(no scripted reply)".into()));
    state.requests.push(request);
    state.served += 1;
    let n = state.served;
    let last_output = input
        .iter()
        .rev()
        .find(|i| i["type"] == "function_call_output")
        .map(|i| i["output"].clone())
        .unwrap_or_default();
    let call = |namespace: &str, name: &str, arguments: &Value| {
        json!({"type": "function_call", "id": format!("fc_{n}"),
            "call_id": format!("call_{n}"), "namespace": namespace, "name": name,
            "arguments": arguments.to_string(), "status": "completed"})
    };
    let item = match &reply {
        Reply::Call {
            namespace,
            name,
            arguments,
        } => call(namespace, name, arguments),
        Reply::WaitForSpawned => {
            let text = last_output.as_str().unwrap_or_default();
            let id = serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|v| v["agent_id"].as_str().map(String::from))
                .unwrap_or_default();
            call(
                "multi_agent_v1",
                "wait_agent",
                &json!({"targets": [id], "timeout_ms": 60000}),
            )
        }
        Reply::Shell(cmd) => json!({"type": "function_call", "id": format!("fc_{n}"),
            "call_id": format!("call_{n}"), "name": "exec_command",
            "arguments": json!({"cmd": cmd}).to_string(), "status": "completed"}),
        Reply::Text(text) => json!({"type": "message", "id": format!("msg_{n}"),
            "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}),
    };
    let mut out = vec![
        (
            "response.created",
            json!({"type": "response.created", "response": {"id": format!("resp_{n}")}}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
        ),
    ];
    if let Reply::Text(text) = &reply {
        out.push((
            "response.output_text.delta",
            json!({"type": "response.output_text.delta",
            "output_index": 0, "content_index": 0, "item_id": item["id"], "delta": text}),
        ));
    }
    out.push((
        "response.output_item.done",
        json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
    ));
    out.push((
        "response.completed",
        json!({"type": "response.completed", "response": {
        "id": format!("resp_{n}"),
        "usage": {"input_tokens": 1000 * n, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 7, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": 1000 * n + 7}}}),
    ));
    out.iter()
        .map(|(event, data)| format!("event: {event}\ndata: {data}\n\n"))
        .collect()
}
