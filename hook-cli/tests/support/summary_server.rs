//! A scripted stand-in for the two HTTP APIs a summary backend talks to: the Anthropic
//! Messages API (`POST /v1/messages`) and OpenAI-compatible chat completions
//! (`POST /.../chat/completions`). It answers a summary request with one line per
//! `<turn id="...">` it finds in the prompt, or misbehaves as told ([`Behaviour`]), and records
//! every request.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How the server answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Behaviour {
    /// `<id>: <line(id)>` for every turn asked for.
    Lines,
    /// Like [`Behaviour::Lines`] but every other turn's line runs over two lines, and one id
    /// the prompt did not name is added.
    HalfBroken,
    /// This HTTP status with an error body.
    Status(u16),
    /// Waits this long before answering (past the client's timeout).
    Hang(Duration),
    /// 200 with a body that is not JSON.
    Garbage,
}

/// The line the server writes for a turn: names and numbers a test can find again.
pub fn line(id: &str) -> String {
    format!("Model line for {id}: port 8443 kept, decision recorded.")
}

/// One request as received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text of every message and the system prompt, as sent.
    pub fn prompt(&self) -> String {
        let mut text = self.body["system"].as_str().unwrap_or_default().to_string();
        for m in self.body["messages"].as_array().into_iter().flatten() {
            text.push('\n');
            text.push_str(m["content"].as_str().unwrap_or_default());
        }
        text
    }

    /// The turn ids the request asks for, in order.
    pub fn turn_ids(&self) -> Vec<String> {
        turn_ids(&self.prompt())
    }
}

pub fn turn_ids(prompt: &str) -> Vec<String> {
    prompt
        .split("<turn id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(String::from)
        .collect()
}

#[derive(Clone)]
pub struct SummaryServer {
    port: u16,
    behaviour: Arc<Mutex<Behaviour>>,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl SummaryServer {
    pub fn start(behaviour: Behaviour) -> SummaryServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let server = SummaryServer {
            port: listener.local_addr().unwrap().port(),
            behaviour: Arc::new(Mutex::new(behaviour)),
            requests: Arc::new(Mutex::new(Vec::new())),
        };
        let shared = server.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = shared.clone();
                thread::spawn(move || shared.serve(stream));
            }
        });
        server
    }

    /// `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn set(&self, behaviour: Behaviour) {
        *self.behaviour.lock().unwrap() = behaviour;
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    fn serve(&self, stream: TcpStream) {
        let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).is_err() {
            return;
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let recorded = Recorded {
            path,
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        };
        self.requests.lock().unwrap().push(recorded.clone());
        let behaviour = self.behaviour.lock().unwrap().clone();
        let (status, body) = match behaviour {
            Behaviour::Status(code) => (
                code,
                json!({"error": {"type": "overloaded_error", "message": "scripted failure"}})
                    .to_string(),
            ),
            Behaviour::Hang(time) => {
                thread::sleep(time);
                (200, answer(&recorded, &lines(&recorded, false)))
            }
            Behaviour::Garbage => (200, "<html>not an API</html>".to_string()),
            Behaviour::Lines => (200, answer(&recorded, &lines(&recorded, false))),
            Behaviour::HalfBroken => (200, answer(&recorded, &lines(&recorded, true))),
        };
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 {status} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.flush();
    }
}

fn lines(request: &Recorded, broken: bool) -> String {
    let mut out = String::new();
    for (i, id) in request.turn_ids().iter().enumerate() {
        if broken && i % 2 == 1 {
            out.push_str(&format!("{id}: a line that\nruns on\n"));
        } else {
            out.push_str(&format!("{id}: {}\n", line(id)));
        }
    }
    if broken {
        out.push_str("zzzzzzz: a turn nobody asked for\n");
    }
    out
}

/// The answer in the shape of the API the request came to, with usage: a token per four
/// characters of the request and of the answer.
fn answer(request: &Recorded, text: &str) -> String {
    let input = (request.prompt().len() as u64).div_ceil(4);
    let output = (text.len() as u64).div_ceil(4);
    if request.path.ends_with("/v1/messages") {
        json!({
            "id": "msg_scripted", "type": "message", "role": "assistant",
            "model": request.body["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": input, "output_tokens": output},
        })
        .to_string()
    } else {
        json!({
            "id": "chatcmpl-scripted", "object": "chat.completion",
            "model": request.body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": input, "completion_tokens": output,
                      "total_tokens": input + output},
        })
        .to_string()
    }
}
