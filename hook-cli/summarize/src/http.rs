//! The HTTP client the API backends share: blocking (the summarizer is a process of its own,
//! with nothing else to do meanwhile), rustls with the platform's roots, bounded in time.

use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder};

/// An API a backend posts to: where, which model, with which key.
pub struct Endpoint {
    pub url: String,
    pub model: String,
    pub key: String,
    pub client: Client,
}

impl Endpoint {
    /// `path` below `base` (else below `default`), bounded by `timeout`.
    pub fn new(
        base: &str,
        default: &str,
        path: &str,
        model: String,
        key: String,
        timeout: Duration,
    ) -> Result<Endpoint, String> {
        let base = if base.is_empty() { default } else { base };
        Ok(Endpoint {
            url: join(base, path),
            model,
            key,
            client: client(timeout)?,
        })
    }
}

/// Connecting may take this long of the request's whole time.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub fn client(timeout: Duration) -> Result<Client, String> {
    // rustls needs one process-wide crypto provider; a second install is refused, harmlessly.
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder()
        .timeout(timeout)
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
        .build()
        .map_err(|e| format!("setting up HTTPS: {e}"))
}

/// Sends `request` and reads its JSON answer; an HTTP error says what the server said.
pub fn post_json(request: RequestBuilder, url: &str) -> Result<serde_json::Value, String> {
    let response = request.send().map_err(|e| {
        if e.is_timeout() {
            format!("{url}: no answer within the time allowed (summary_timeout_secs)")
        } else if e.is_connect() {
            format!("{url}: cannot connect ({e}); is the server running, and summary_url right?")
        } else {
            format!("{url}: {e}")
        }
    })?;
    let status = response.status();
    let body = response
        .text()
        .map_err(|e| format!("{url}: reading the answer: {e}"))?;
    if !status.is_success() {
        let said: String = body.chars().take(300).collect();
        let hint = match status.as_u16() {
            401 | 403 => " (check summary_api_key)",
            404 => " (check summary_url and summary_model)",
            429 => " (rate limited; the next run tries again later)",
            _ => "",
        };
        return Err(format!("{url}: HTTP {status}{hint}: {said}"));
    }
    serde_json::from_str(&body).map_err(|e| {
        let head: String = body.chars().take(200).collect();
        format!("{url}: the answer is not JSON ({e}): {head:?}")
    })
}

/// `base` with `path` appended, one slash between them.
pub fn join(base: &str, path: &str) -> String {
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}
