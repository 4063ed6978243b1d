//! The JSON Claude Code pipes to a statusLine command on every prompt render.

use serde::Deserialize;

/// What a statusline needs from the host, whatever host sent it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusInput {
    pub session_id: String,
    /// Tokens the context window holds.
    pub window: Option<u64>,
    /// Share of the window in use, 0–100, as the host computed it.
    pub used_percentage: Option<f64>,
}

#[derive(Deserialize)]
struct Payload {
    session_id: String,
    #[serde(default)]
    context_window: Option<ContextWindow>,
}

#[derive(Deserialize)]
struct ContextWindow {
    #[serde(default)]
    context_window_size: Option<u64>,
    #[serde(default)]
    used_percentage: Option<f64>,
}

/// `None` for anything that is not a statusline payload.
pub fn decode_status(bytes: &[u8]) -> Option<StatusInput> {
    let payload: Payload = serde_json::from_slice(bytes).ok()?;
    if payload.session_id.is_empty() {
        return None;
    }
    let window = payload.context_window;
    Some(StatusInput {
        session_id: payload.session_id,
        window: window.as_ref().and_then(|w| w.context_window_size),
        used_percentage: window.and_then(|w| w.used_percentage),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_claude_code_sends() {
        let payload = br#"{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/p",
            "model":{"id":"claude-opus-4-5","display_name":"Opus"},
            "context_window":{"total_input_tokens":42000,"total_output_tokens":900,
              "context_window_size":200000,"current_usage":{"input_tokens":10},
              "used_percentage":21,"remaining_percentage":79}}"#;
        assert_eq!(
            decode_status(payload),
            Some(StatusInput {
                session_id: "abc".into(),
                window: Some(200_000),
                used_percentage: Some(21.0),
            })
        );
        // Before the first answer the client sends nulls.
        let early = br#"{"session_id":"abc","context_window":{"context_window_size":200000,
            "current_usage":null,"used_percentage":null}}"#;
        assert_eq!(decode_status(early).unwrap().used_percentage, None);
        assert_eq!(decode_status(b"garbage"), None);
        assert_eq!(decode_status(b"{\"session_id\":\"\"}"), None);
    }
}
