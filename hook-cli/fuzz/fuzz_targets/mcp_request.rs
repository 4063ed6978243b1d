//! One line from an MCP client, as the stdio layer in front of the server checks it: every
//! line is either passed on as a JSON-RPC message or answered with a JSON-RPC error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use throughline_engine::mcp_request::{check, Checked};

fuzz_target!(|data: &[u8]| {
    // The layer reads the client's input line by line, as rmcp does.
    for line in data.split(|&b| b == b'\n') {
        check_line(line);
    }
});

fn check_line(line: &[u8]) {
    match check(line) {
        Checked::Forward(text) => {
            // What rmcp gets is one JSON object, on one line.
            let message: Value = serde_json::from_str(&text).expect("forwarded text is JSON");
            assert!(message.is_object(), "{text}");
            assert!(!text.contains('\n'), "{text:?}");
        }
        Checked::Answer(answer) => {
            assert_eq!(answer["jsonrpc"], "2.0");
            let code = answer["error"]["code"].as_i64().expect("an error code");
            assert!((-32768..=-32000).contains(&code), "{code}");
            assert!(answer["error"]["message"].is_string());
            let id = &answer["id"];
            assert!(id.is_null() || id.is_string() || id.is_number(), "{id}");
        }
        Checked::Drop => {}
    }
}
