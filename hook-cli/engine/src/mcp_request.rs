//! What the MCP server's stdio layer (`throughline mcp`) does with one line from the client:
//! a well-formed JSON-RPC 2.0 message goes on to the server; any other line gets the JSON-RPC
//! error it calls for, which rmcp does not give: it skips a line it cannot read without an
//! answer, and takes a `tools/call` whose `arguments` are not an object for an unknown method
//! (docs/decisions/0011, 0082).

use serde_json::{json, Value};

/// The longest request line read. Tool arguments are a few words; a longer line is skipped
/// unread and answered with an error that names this bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Checked {
    /// A well-formed message: the server's to answer.
    Forward(String),
    /// An error response to send back.
    Answer(Value),
    /// A notification with bad parameters: JSON-RPC answers no notification.
    Drop,
}

fn error(id: Value, code: i64, message: String) -> Checked {
    Checked::Answer(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    }))
}

/// The error for a line longer than [`MAX_LINE_BYTES`].
pub fn too_long() -> Checked {
    error(
        Value::Null,
        INVALID_REQUEST,
        format!(
            "Invalid Request: a request line is at most {MAX_LINE_BYTES} bytes (1 MiB); this one \
             was longer and was skipped"
        ),
    )
}

/// Checks one line (without its newline) as a JSON-RPC 2.0 message to an MCP server.
pub fn check(line: &[u8]) -> Checked {
    let parse_error = |why: String| error(Value::Null, PARSE_ERROR, format!("Parse error: {why}"));
    let Ok(text) = std::str::from_utf8(line) else {
        return parse_error("the line is not UTF-8".into());
    };
    let text = text.trim();
    if text.is_empty() {
        return parse_error("the line is empty; send one JSON-RPC message per line".into());
    }
    let message: Value = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => return parse_error(format!("the line is not JSON ({e})")),
    };
    let Value::Object(fields) = &message else {
        let what = if message.is_array() {
            "a batch; send one message per line"
        } else {
            "not a JSON object"
        };
        return error(
            Value::Null,
            INVALID_REQUEST,
            format!("Invalid Request: {what}"),
        );
    };
    let id = match fields.get("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id.clone()),
        Some(_) => {
            return error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: `id` must be a string or a number".into(),
            )
        }
    };
    let invalid_request = |why: &str| {
        let id = id.clone().unwrap_or(Value::Null);
        error(id, INVALID_REQUEST, format!("Invalid Request: {why}"))
    };
    if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid_request("`jsonrpc` must be \"2.0\"");
    }
    let method = match fields.get("method") {
        Some(Value::String(method)) => method,
        // The client's answer to a request of the server's own.
        None if id.is_some() && (fields.contains_key("result") || fields.contains_key("error")) => {
            return Checked::Forward(text.into())
        }
        None => return invalid_request("no `method`"),
        Some(_) => return invalid_request("`method` must be a string"),
    };
    let params = fields.get("params");
    let bad_params = match params {
        None | Some(Value::Object(_)) => tool_call_problem(method, params),
        Some(_) => Some("`params` must be an object".to_string()),
    };
    match (bad_params, id) {
        (None, _) => Checked::Forward(text.into()),
        (Some(why), Some(id)) => error(id, INVALID_PARAMS, format!("Invalid params: {why}")),
        (Some(_), None) => Checked::Drop,
    }
}

/// What is wrong with the parameters of a `tools/call`, the one method whose parameters rmcp
/// takes for another method's when they do not fit.
fn tool_call_problem(method: &str, params: Option<&Value>) -> Option<String> {
    if method != "tools/call" {
        return None;
    }
    let params = params.unwrap_or(&Value::Null);
    if !params.get("name").is_some_and(Value::is_string) {
        return Some("tools/call needs `name`, the tool's name as a string".into());
    }
    match params.get("arguments") {
        None | Some(Value::Object(_)) => None,
        Some(other) => Some(format!(
            "`arguments` must be an object of the tool's named arguments, not {}",
            kind(other)
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &[u8]) -> (Value, i64) {
        match check(line) {
            Checked::Answer(error) => (
                error["id"].clone(),
                error["error"]["code"].as_i64().unwrap(),
            ),
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(line)),
        }
    }

    #[test]
    fn lines_that_are_no_message_are_parse_errors_without_an_id() {
        for line in [&b"{not json"[..], b"\xff\xfe{}", b"", b"  \r"] {
            assert_eq!(answer(line), (Value::Null, PARSE_ERROR));
        }
    }

    #[test]
    fn messages_that_are_no_request_are_invalid_requests() {
        for (line, id) in [
            (&br#"[]"#[..], Value::Null),
            (
                br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                Value::Null,
            ),
            (br#"42"#, Value::Null),
            (
                br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
                Value::Null,
            ),
            (br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#, json!(3)),
            (br#"{"jsonrpc":"2.0","id":"x","method":7}"#, json!("x")),
            (br#"{"jsonrpc":"2.0","id":4}"#, json!(4)),
        ] {
            assert_eq!(
                answer(line),
                (id, INVALID_REQUEST),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn a_tool_call_with_arguments_that_are_no_object_is_invalid_params() {
        let call = |params: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{params}}}"#)
        };
        for params in [
            r#"{"name":"search","arguments":"query"}"#,
            r#"{"name":"search","arguments":[1]}"#,
            r#"{"arguments":{}}"#,
            r#""search""#,
        ] {
            assert_eq!(
                answer(call(params).as_bytes()),
                (json!(5), INVALID_PARAMS),
                "{params}"
            );
        }
        let good = call(r#"{"name":"search","arguments":{"query":"x"}}"#);
        assert_eq!(check(good.as_bytes()), Checked::Forward(good.clone()));
        let notification = r#"{"jsonrpc":"2.0","method":"tools/call","params":"x"}"#;
        assert_eq!(check(notification.as_bytes()), Checked::Drop);
        let response = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert_eq!(
            check(response.as_bytes()),
            Checked::Forward(response.into())
        );
    }
}
