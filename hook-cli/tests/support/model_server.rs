//! A scripted stand-in for the Anthropic Messages API.
//!
//! The real Claude Code client talks to it through `ANTHROPIC_BASE_URL`. Each user prompt is
//! matched against a [`Script`]; the scripted turn is a list of [`Step`]s, one assistant message
//! each. The client runs the requested tools for real and sends their results back, and the
//! server picks the next step from the conversation it receives:
//!
//! * the prompt is the last user message that holds no `tool_result` block;
//! * the number of assistant `tool_use` blocks after it says how far the turn has got.
//!
//! Every request is recorded (path, parsed body, main or side request, what was answered) so a
//! test can check exactly what the model was sent.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// One content block of a scripted assistant message.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Extended thinking, streamed as `thinking_delta` then `signature_delta`.
    Thinking(String),
    /// Visible text, streamed as `text_delta`s.
    Text(String),
    /// A tool call, its input streamed as `input_json_delta`s.
    ToolUse { name: String, input: Value },
}

/// One assistant message of a scripted turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    pub blocks: Vec<Block>,
}

impl Step {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn thinking(mut self, text: impl Into<String>) -> Self {
        self.blocks.push(Block::Thinking(text.into()));
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.blocks.push(Block::Text(text.into()));
        self
    }

    pub fn tool(mut self, name: impl Into<String>, input: Value) -> Self {
        self.blocks.push(Block::ToolUse {
            name: name.into(),
            input,
        });
        self
    }

    /// Number of `tool_use` blocks in this step.
    pub fn tool_uses(&self) -> usize {
        self.blocks
            .iter()
            .filter(|b| matches!(b, Block::ToolUse { .. }))
            .count()
    }

    /// The texts of the `Text` blocks, in order.
    pub fn texts(&self) -> Vec<&str> {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// How a scripted turn recognises its prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum PromptMatch {
    /// A text block of the prompt message equals this (ignoring surrounding whitespace).
    Exact(String),
    /// A text block of the prompt message contains this.
    Contains(String),
}

impl PromptMatch {
    fn matches(&self, texts: &[String]) -> bool {
        let texts = texts.iter().map(|t| without_paste_tags(t));
        match self {
            PromptMatch::Exact(p) => texts.into_iter().any(|t| t.trim() == p.trim()),
            PromptMatch::Contains(p) => texts.into_iter().any(|t| t.contains(p.as_str())),
        }
    }
}

/// The prompt as the person typed it: since 2.1.332 the client wraps pasted text in
/// `<pasted_content id="…">` tags, also in the request.
pub fn without_paste_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<pasted_content id=\"") {
        out.push_str(&rest[..at]);
        let tag = rest[at..].find('>').map_or(rest.len() - at, |end| end + 1);
        rest = &rest[at + tag..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
        if let Some(close) = rest.find("</pasted_content id=\"") {
            let pasted = &rest[..close];
            out.push_str(pasted.strip_suffix('\n').unwrap_or(pasted));
            let tag = rest[close..]
                .find('>')
                .map_or(rest.len() - close, |end| end + 1);
            rest = &rest[close + tag..];
        }
    }
    out.push_str(rest);
    out
}

/// The scripted answer to one prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedTurn {
    pub matcher: PromptMatch,
    pub steps: Vec<Step>,
}

/// The input tokens the server reports in a main request's `usage`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Usage {
    /// About four characters of the request body per token.
    Estimate,
    /// This many tokens per prompt in the conversation (user messages without a `tool_result`):
    /// the context grows by a fixed step each turn, so a test knows at which turn the client's
    /// auto-compact threshold is crossed.
    PerPrompt(u64),
}

/// What the client asks for when it compacts a conversation (auto-compaction and `/compact`
/// alike): the text of its summary request.
pub const COMPACTION_REQUEST: &str =
    "Your task is to create a detailed summary of the conversation so far";

/// What the fake model answers. Turns are tried in order; the first that matches wins.
#[derive(Clone, Debug)]
pub struct Script {
    pub turns: Vec<ScriptedTurn>,
    /// Answer to a main request whose prompt matches no turn, or whose turn has run out of steps.
    pub fallback_text: String,
    /// Answer to side requests (titles, summaries, requests without tools).
    pub side_text: String,
    /// Answer to the client's compaction request, in the shape it asks for.
    pub compaction_summary: String,
    pub usage: Usage,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            turns: Vec::new(),
            fallback_text: "Nothing scripted for that; stopping here.".to_string(),
            side_text: "Scripted session".to_string(),
            compaction_summary: "<analysis>The scripted conversation.</analysis>\n<summary>\n\
                                 1. Primary Request and Intent: the scripted turns.\n</summary>"
                .to_string(),
            usage: Usage::Estimate,
        }
    }
}

impl Script {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answer the prompt that equals `prompt` with `steps`.
    pub fn on_prompt(mut self, prompt: impl Into<String>, steps: Vec<Step>) -> Self {
        self.turns.push(ScriptedTurn {
            matcher: PromptMatch::Exact(prompt.into()),
            steps,
        });
        self
    }

    /// Answer any prompt containing `needle` with `steps`.
    pub fn on_prompt_containing(mut self, needle: impl Into<String>, steps: Vec<Step>) -> Self {
        self.turns.push(ScriptedTurn {
            matcher: PromptMatch::Contains(needle.into()),
            steps,
        });
        self
    }

    pub fn fallback_text(mut self, text: impl Into<String>) -> Self {
        self.fallback_text = text.into();
        self
    }

    pub fn side_text(mut self, text: impl Into<String>) -> Self {
        self.side_text = text.into();
        self
    }

    pub fn compaction_summary(mut self, text: impl Into<String>) -> Self {
        self.compaction_summary = text.into();
        self
    }

    pub fn usage(mut self, usage: Usage) -> Self {
        self.usage = usage;
        self
    }

    fn find(&self, prompt_texts: &[String]) -> Option<usize> {
        self.turns
            .iter()
            .position(|t| t.matcher.matches(prompt_texts))
    }
}

/// Which kind of request the client sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// A conversational `/v1/messages` request that offers tools: the agent loop.
    Main,
    /// Any other `/v1/messages` request (title generation, summaries, quota probes...).
    Side,
    /// A `/v1/messages` request asking for a summary of the conversation: the client compacts.
    Compaction,
    /// `/v1/messages/count_tokens`.
    CountTokens,
    /// Anything else (GETs, unknown paths).
    Other,
}

/// What the server sent back to a `/v1/messages` request.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Index of the matched [`ScriptedTurn`] and of the step within it, when scripted.
    pub scripted: Option<(usize, usize)>,
    /// The blocks sent, with their tool ids (`None` for non-tool blocks).
    pub blocks: Vec<(Block, Option<String>)>,
    pub stop_reason: String,
    pub message_id: String,
    pub streamed: bool,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// One request the server received.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Arrival order, from 0.
    pub seq: usize,
    pub method: String,
    /// Path including the query string, e.g. `/v1/messages?beta=true`.
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The raw body as text.
    pub raw_body: String,
    /// The parsed body (`Value::Null` when not JSON).
    pub body: Value,
    pub kind: RequestKind,
    pub answer: Option<Answer>,
    /// True once the whole response has been written.
    pub served: bool,
}

impl RecordedRequest {
    pub fn is_main(&self) -> bool {
        self.kind == RequestKind::Main
    }

    pub fn is_compaction(&self) -> bool {
        self.kind == RequestKind::Compaction
    }

    pub fn model(&self) -> Option<&str> {
        self.body.get("model").and_then(Value::as_str)
    }

    pub fn messages(&self) -> &[Value] {
        self.body
            .get("messages")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The texts of the prompt message (see the module docs), empty when there is none.
    pub fn prompt_texts(&self) -> Vec<String> {
        prompt_position(self.messages())
            .map(|i| message_texts(&self.messages()[i]))
            .unwrap_or_default()
    }

    /// Every `tool_result` block the client sent: `(tool_use_id, content as text, is_error)`.
    pub fn tool_results(&self) -> Vec<(String, String, bool)> {
        let mut out = Vec::new();
        for m in self.messages() {
            if m.get("role").and_then(Value::as_str) != Some("user") {
                continue;
            }
            for b in content_blocks(m) {
                if b.get("type").and_then(Value::as_str) == Some("tool_result") {
                    let id = b
                        .get("tool_use_id")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                    out.push((id, tool_result_text(&b), is_error));
                }
            }
        }
        out
    }

    /// Whether `needle` occurs anywhere in the request body (system prompt, messages, tools).
    pub fn contains(&self, needle: &str) -> bool {
        self.raw_body.contains(needle) || self.body.to_string().contains(needle)
    }

    /// Whether `needle` occurs in the conversation messages (not the system prompt or tools):
    /// in a text block, a tool input or a tool result.
    pub fn messages_contain(&self, needle: &str) -> bool {
        self.messages().iter().any(|m| {
            content_blocks(m).iter().any(|b| {
                b.get("text")
                    .and_then(Value::as_str)
                    .map(|t| t.contains(needle))
                    .unwrap_or(false)
                    || tool_result_text(b).contains(needle)
                    || b.get("input")
                        .map(|i| i.to_string().contains(needle))
                        .unwrap_or(false)
            })
        })
    }

    /// Total characters of the `messages` array as JSON: a rough measure of context size.
    pub fn messages_chars(&self) -> usize {
        self.body
            .get("messages")
            .map(|m| m.to_string().chars().count())
            .unwrap_or(0)
    }

    fn summary(&self) -> String {
        let prompt = self.prompt_texts().last().cloned().unwrap_or_default();
        let prompt: String = prompt.chars().take(60).collect();
        let answer = match &self.answer {
            Some(a) => format!("{} {:?}", a.stop_reason, a.scripted),
            None => "-".to_string(),
        };
        format!(
            "#{} {} {} {:?} model={} msgs={} served={} answer={} prompt={:?}",
            self.seq,
            self.method,
            self.path,
            self.kind,
            self.model().unwrap_or("-"),
            self.messages().len(),
            self.served,
            answer,
            prompt
        )
    }
}

/// The text of a `tool_result` block: its string content, or its text blocks joined by `\n`.
pub fn tool_result_text(block: &Value) -> String {
    match block.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn content_blocks(message: &Value) -> Vec<Value> {
    match message.get("content") {
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

fn message_texts(message: &Value) -> Vec<String> {
    content_blocks(message)
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// Whether the conversation ends with the client's request for a summary of it.
fn is_compaction(messages: &[Value]) -> bool {
    messages
        .iter()
        .rfind(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .is_some_and(|m| {
            message_texts(m)
                .iter()
                .any(|t| t.contains(COMPACTION_REQUEST))
        })
}

/// How many prompts the conversation holds: user messages without a `tool_result` block.
fn prompt_count(messages: &[Value]) -> usize {
    messages
        .iter()
        .filter(|m| {
            m.get("role").and_then(Value::as_str) == Some("user")
                && !content_blocks(m)
                    .iter()
                    .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
        })
        .count()
}

/// Index of the last user message without a `tool_result` block.
fn prompt_position(messages: &[Value]) -> Option<usize> {
    messages.iter().rposition(|m| {
        m.get("role").and_then(Value::as_str) == Some("user")
            && !content_blocks(m)
                .iter()
                .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
    })
}

struct State {
    script: Script,
    requests: Vec<RecordedRequest>,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    next_id: AtomicU64,
    stopping: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking connection thread must not take every later assertion down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn fresh_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }
}

/// The fake Messages API server. Clones share one server; it stops accepting connections when
/// the last clone is dropped.
#[derive(Clone)]
pub struct ModelServer {
    inner: Arc<Inner>,
}

struct Inner {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl ModelServer {
    /// Bind `127.0.0.1:0` and serve `script` on a background thread.
    pub fn start(script: Script) -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("model server: bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("model server: local_addr");
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                script,
                requests: Vec::new(),
            }),
            changed: Condvar::new(),
            next_id: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
        });
        let accept_shared = Arc::clone(&shared);
        thread::Builder::new()
            .name("model-server-accept".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if accept_shared.stopping.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let conn_shared = Arc::clone(&accept_shared);
                    let _ = thread::Builder::new()
                        .name("model-server-conn".into())
                        .spawn(move || serve_connection(stream, conn_shared));
                }
            })
            .expect("model server: spawn accept thread");
        ModelServer {
            inner: Arc::new(Inner { addr, shared }),
        }
    }

    fn shared(&self) -> &Shared {
        &self.inner.shared
    }

    /// `http://127.0.0.1:PORT`, the value for `ANTHROPIC_BASE_URL`.
    pub fn url(&self) -> String {
        format!("http://{}", self.inner.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.inner.addr
    }

    /// Replace the script (requests already recorded are kept).
    pub fn set_script(&self, script: Script) {
        self.shared().lock().script = script;
    }

    /// The current script.
    pub fn script(&self) -> Script {
        self.shared().lock().script.clone()
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared().lock().requests.clone()
    }

    /// The conversational requests (those that offered tools), in arrival order.
    pub fn main_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.is_main())
            .collect()
    }

    /// The client's compaction requests, in arrival order.
    pub fn compaction_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.is_compaction())
            .collect()
    }

    /// The side requests (titles, summaries, tool-less calls), in arrival order.
    pub fn side_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.kind == RequestKind::Side)
            .collect()
    }

    /// How many `end_turn` answers to main requests have been fully served.
    pub fn end_turns(&self) -> usize {
        count_end_turns(&self.shared().lock().requests)
    }

    /// Block until at least `n` `end_turn` answers to main requests have been served.
    pub fn wait_for_end_turns(&self, n: usize, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |reqs| count_end_turns(reqs) >= n)
            .map_err(|log| {
                format!("timed out after {timeout:?} waiting for {n} end_turn answer(s)\n{log}")
            })
    }

    /// Block until `pred` holds for the recorded requests; on timeout the error holds the log.
    pub fn wait_until(
        &self,
        timeout: Duration,
        mut pred: impl FnMut(&[RecordedRequest]) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared().lock();
        loop {
            if pred(&state.requests) {
                return Ok(());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(summarize(&state.requests));
            }
            state = self
                .shared()
                .changed
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// One line per request: for panic messages.
    pub fn log(&self) -> String {
        summarize(&self.shared().lock().requests)
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

fn count_end_turns(reqs: &[RecordedRequest]) -> usize {
    reqs.iter()
        .filter(|r| r.is_main() && r.served)
        .filter(|r| {
            r.answer
                .as_ref()
                .map(|a| a.stop_reason == "end_turn")
                .unwrap_or(false)
        })
        .count()
}

fn summarize(reqs: &[RecordedRequest]) -> String {
    let mut s = format!("model server log ({} requests):\n", reqs.len());
    for r in reqs {
        let _ = writeln!(s, "  {}", r.summary());
    }
    s
}

// ---------------------------------------------------------------------------------------------
// HTTP

struct HttpRequest {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl HttpRequest {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn serve_connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(120)));
    let _ = stream.set_nodelay(true);
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut writer = write_half;
    let mut reader = BufReader::new(stream);
    loop {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let req = match read_request(&mut reader) {
            Ok(Some(r)) => r,
            Ok(None) | Err(_) => return,
        };
        let close = req
            .header("connection")
            .map(|v| v.eq_ignore_ascii_case("close"))
            .unwrap_or(false);
        if handle(&req, &shared, &mut writer).is_err() || close {
            return;
        }
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<HttpRequest>> {
    let mut line = String::new();
    // Skip stray blank lines between pipelined requests.
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("/").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 {
            return Ok(None);
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut req = HttpRequest {
        method,
        path,
        headers,
        body: Vec::new(),
    };
    let chunked = req
        .header("transfer-encoding")
        .map(|v| v.to_ascii_lowercase().contains("chunked"))
        .unwrap_or(false);
    if chunked {
        loop {
            let mut size_line = String::new();
            if reader.read_line(&mut size_line)? == 0 {
                return Ok(None);
            }
            let size_hex = size_line.trim().split(';').next().unwrap_or("0");
            let size = usize::from_str_radix(size_hex, 16).unwrap_or(0);
            if size == 0 {
                // Trailers, up to the blank line.
                loop {
                    let mut t = String::new();
                    if reader.read_line(&mut t)? == 0 || t.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            let mut chunk = vec![0u8; size];
            reader.read_exact(&mut chunk)?;
            req.body.extend_from_slice(&chunk);
            let mut crlf = String::new();
            reader.read_line(&mut crlf)?;
        }
    } else if let Some(len) = req
        .header("content-length")
        .and_then(|v| v.parse::<usize>().ok())
    {
        let mut body = vec![0u8; len];
        reader.read_exact(&mut body)?;
        req.body = body;
    }
    Ok(Some(req))
}

fn write_response(
    w: &mut TcpStream,
    head_only: bool,
    status: &str,
    content_type: &str,
    body: &[u8],
    request_id: &str,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nConnection: keep-alive\r\nrequest-id: {request_id}\r\n\r\n",
        body.len()
    );
    w.write_all(head.as_bytes())?;
    if !head_only {
        w.write_all(body)?;
    }
    w.flush()
}

fn handle(req: &HttpRequest, shared: &Arc<Shared>, w: &mut TcpStream) -> std::io::Result<()> {
    let raw_body = String::from_utf8_lossy(&req.body).into_owned();
    let body: Value = serde_json::from_str(&raw_body).unwrap_or(Value::Null);
    let route = req.path.split('?').next().unwrap_or("");
    let is_post = req.method.eq_ignore_ascii_case("POST");
    let head_only = req.method.eq_ignore_ascii_case("HEAD");
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let kind = if is_post && route == "/v1/messages" && is_compaction(messages) {
        RequestKind::Compaction
    } else if is_post && route == "/v1/messages" {
        let has_tools = body
            .get("tools")
            .and_then(Value::as_array)
            .map(|t| !t.is_empty())
            .unwrap_or(false);
        if has_tools {
            RequestKind::Main
        } else {
            RequestKind::Side
        }
    } else if is_post && route == "/v1/messages/count_tokens" {
        RequestKind::CountTokens
    } else {
        RequestKind::Other
    };

    let request_id = format!("req_harness_{:06}", shared.fresh_id());
    let (seq, script) = {
        let mut st = shared.lock();
        let seq = st.requests.len();
        st.requests.push(RecordedRequest {
            seq,
            method: req.method.clone(),
            path: req.path.clone(),
            headers: req.headers.clone(),
            raw_body: raw_body.clone(),
            body: body.clone(),
            kind,
            answer: None,
            served: false,
        });
        (seq, st.script.clone())
    };
    shared.changed.notify_all();

    let input_tokens = match (kind, script.usage) {
        (RequestKind::Main, Usage::PerPrompt(step)) => step * prompt_count(messages) as u64,
        _ => estimate_tokens(&raw_body),
    };
    let result = match kind {
        RequestKind::Main | RequestKind::Side | RequestKind::Compaction => {
            let answer = decide(&script, &body, kind, shared, input_tokens);
            {
                let mut st = shared.lock();
                st.requests[seq].answer = Some(answer.clone());
            }
            let model = body
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or("claude-harness");
            if body.get("stream").and_then(Value::as_bool).unwrap_or(false) {
                let sse = render_sse(&answer, model);
                write_response(
                    w,
                    head_only,
                    "200 OK",
                    "text/event-stream; charset=utf-8",
                    sse.as_bytes(),
                    &request_id,
                )
            } else {
                let msg = render_message(&answer, model);
                write_response(
                    w,
                    head_only,
                    "200 OK",
                    "application/json",
                    msg.to_string().as_bytes(),
                    &request_id,
                )
            }
        }
        RequestKind::CountTokens => {
            let out = json!({ "input_tokens": input_tokens });
            write_response(
                w,
                head_only,
                "200 OK",
                "application/json",
                out.to_string().as_bytes(),
                &request_id,
            )
        }
        RequestKind::Other => write_response(
            w,
            head_only,
            "200 OK",
            "application/json",
            b"{}",
            &request_id,
        ),
    };
    {
        let mut st = shared.lock();
        st.requests[seq].served = result.is_ok();
    }
    shared.changed.notify_all();
    result
}

/// A plausible token count for a body: about four characters per token.
fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64 / 4).max(1)
}

fn decide(
    script: &Script,
    body: &Value,
    kind: RequestKind,
    shared: &Shared,
    input_tokens: u64,
) -> Answer {
    let schema = body
        .pointer("/output_config/format")
        .filter(|f| f["type"] == "json_schema")
        .map(|f| &f["schema"]);
    let (scripted, blocks): (Option<(usize, usize)>, Vec<Block>) = if let Some(schema) = schema {
        // Structured side requests (e.g. the session title) must get JSON of the asked shape.
        (
            None,
            vec![Block::Text(
                fill_schema(schema, &script.side_text).to_string(),
            )],
        )
    } else if kind == RequestKind::Compaction {
        (None, vec![Block::Text(script.compaction_summary.clone())])
    } else if kind == RequestKind::Side {
        (None, vec![Block::Text(script.side_text.clone())])
    } else {
        let messages = body
            .get("messages")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        match prompt_position(&messages) {
            None => (None, vec![Block::Text(script.fallback_text.clone())]),
            Some(p) => {
                let texts = message_texts(&messages[p]);
                let done: usize = messages[p + 1..]
                    .iter()
                    .filter(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
                    .flat_map(content_blocks)
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                    .count();
                match script.find(&texts) {
                    None => (None, vec![Block::Text(script.fallback_text.clone())]),
                    Some(t) => {
                        let steps = &script.turns[t].steps;
                        // Step i comes next once the tool calls of steps 0..i have all been made.
                        let mut before = 0;
                        let mut chosen = None;
                        for (i, s) in steps.iter().enumerate() {
                            if before == done {
                                chosen = Some(i);
                                break;
                            }
                            before += s.tool_uses();
                        }
                        match chosen {
                            Some(i) => (Some((t, i)), steps[i].blocks.clone()),
                            None => (None, vec![Block::Text(script.fallback_text.clone())]),
                        }
                    }
                }
            }
        }
    };
    let with_ids: Vec<(Block, Option<String>)> = blocks
        .into_iter()
        .map(|b| {
            let id = matches!(b, Block::ToolUse { .. })
                .then(|| format!("toolu_harness_{:06}", shared.fresh_id()));
            (b, id)
        })
        .collect();
    let any_tool = with_ids
        .iter()
        .any(|(b, _)| matches!(b, Block::ToolUse { .. }));
    let output_chars: usize = with_ids
        .iter()
        .map(|(b, _)| match b {
            Block::Thinking(t) | Block::Text(t) => t.chars().count(),
            Block::ToolUse { name, input } => name.len() + input.to_string().chars().count(),
        })
        .sum();
    Answer {
        scripted,
        blocks: with_ids,
        stop_reason: if any_tool { "tool_use" } else { "end_turn" }.to_string(),
        message_id: format!("msg_harness_{:06}", shared.fresh_id()),
        streamed: body.get("stream").and_then(Value::as_bool).unwrap_or(false),
        input_tokens,
        output_tokens: (output_chars as u64 / 4).max(1),
    }
}

/// A minimal value that satisfies a JSON schema, using `text` for strings.
fn fill_schema(schema: &Value, text: &str) -> Value {
    if let Some(v) = schema.get("const") {
        return v.clone();
    }
    if let Some(v) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return v.clone();
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    };
    match ty {
        "object" => {
            let mut obj = serde_json::Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    obj.insert(k.clone(), fill_schema(sub, text));
                }
            }
            Value::Object(obj)
        }
        "array" => json!([]),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        "null" => Value::Null,
        _ => json!(text),
    }
}

fn signature_for(text: &str) -> String {
    // Any opaque string will do; make it stable and base64-looking.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("c2lnLWhhcm5lc3M{h:016x}")
}

fn usage(a: &Answer, output_tokens: u64) -> Value {
    json!({
        "input_tokens": a.input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens,
    })
}

fn render_message(a: &Answer, model: &str) -> Value {
    let content: Vec<Value> = a
        .blocks
        .iter()
        .map(|(b, id)| match b {
            Block::Thinking(t) => {
                json!({"type": "thinking", "thinking": t, "signature": signature_for(t)})
            }
            Block::Text(t) => json!({"type": "text", "text": t}),
            Block::ToolUse { name, input } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            }
        })
        .collect();
    json!({
        "id": a.message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": a.stop_reason,
        "stop_sequence": null,
        "usage": usage(a, a.output_tokens),
    })
}

/// Split `s` into at most `n` non-empty pieces on character boundaries.
fn pieces(s: &str, n: usize) -> Vec<&str> {
    let chars: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
    if chars.len() <= 1 || n <= 1 {
        return vec![s];
    }
    let n = n.min(chars.len());
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..n {
        let cut = chars[k * chars.len() / n];
        if cut > start {
            out.push(&s[start..cut]);
            start = cut;
        }
    }
    out.push(&s[start..]);
    out
}

fn sse(out: &mut String, event: &str, data: Value) {
    let _ = write!(out, "event: {event}\ndata: {data}\n\n");
}

fn render_sse(a: &Answer, model: &str) -> String {
    let mut out = String::new();
    sse(
        &mut out,
        "message_start",
        json!({
            "type": "message_start",
            "message": {
                "id": a.message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": null,
                "stop_sequence": null,
                "usage": usage(a, 1),
            }
        }),
    );
    for (index, (b, id)) in a.blocks.iter().enumerate() {
        match b {
            Block::Thinking(t) => {
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
                );
                for p in pieces(t, 3) {
                    sse(
                        &mut out,
                        "content_block_delta",
                        json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "thinking_delta", "thinking": p}}),
                    );
                }
                sse(
                    &mut out,
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index,
                    "delta": {"type": "signature_delta", "signature": signature_for(t)}}),
                );
            }
            Block::Text(t) => {
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "text", "text": ""}}),
                );
                for p in pieces(t, 3) {
                    sse(
                        &mut out,
                        "content_block_delta",
                        json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "text_delta", "text": p}}),
                    );
                }
            }
            Block::ToolUse { name, input } => {
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
                );
                let json_text = input.to_string();
                for p in pieces(&json_text, 2) {
                    sse(
                        &mut out,
                        "content_block_delta",
                        json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": p}}),
                    );
                }
            }
        }
        sse(
            &mut out,
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        );
    }
    sse(
        &mut out,
        "message_delta",
        json!({
            "type": "message_delta",
            "delta": {"stop_reason": a.stop_reason, "stop_sequence": null},
            "usage": usage(a, a.output_tokens),
        }),
    );
    sse(&mut out, "message_stop", json!({"type": "message_stop"}));
    out
}

/// Collects the tool ids the server handed out, by tool name, in order: handy when a test needs
/// to find the hook payload or transcript entry of one scripted call.
pub fn tool_ids_by_name(reqs: &[RecordedRequest]) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for r in reqs {
        if let Some(a) = &r.answer {
            for (b, id) in &a.blocks {
                if let (Block::ToolUse { name, .. }, Some(id)) = (b, id) {
                    out.entry(name.clone()).or_default().push(id.clone());
                }
            }
        }
    }
    out
}
