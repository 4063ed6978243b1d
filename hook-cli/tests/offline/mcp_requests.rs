//! `throughline mcp` fed lines that are no well-formed request: each gets the JSON-RPC error
//! it calls for, and the server goes on answering the requests after it.
#![cfg(feature = "mcp")]

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

const THROUGHLINE: &str = env!("CARGO_BIN_EXE_throughline");

fn send(stdin: &mut ChildStdin, line: &[u8]) {
    stdin.write_all(line).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
}

#[test]
fn malformed_requests_get_their_errors_and_the_server_serves_on() {
    let memory = tempfile::tempdir().unwrap();
    let mut server = Command::new(THROUGHLINE)
        .arg("mcp")
        .env("THROUGHLINE_HOME", memory.path())
        .current_dir(memory.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    // Read on a thread of its own, so a line left unanswered fails the test instead of
    // hanging it.
    let (answered, answers) = mpsc::channel();
    let stdout = BufReader::new(server.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let answer: Value = serde_json::from_str(&line.unwrap()).unwrap();
            if answered.send(answer).is_err() {
                break;
            }
        }
    });
    let next = || -> Value {
        answers
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer within 30 s")
    };

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    send(&mut stdin, initialize.to_string().as_bytes());
    assert_eq!(next()["id"], 1);
    send(
        &mut stdin,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );

    let call_with_text = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "search", "arguments": "the query"}})
    .to_string();
    let fifty_mb = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(50 << 20)
    );
    let cases: [(&[u8], Value, i64); 6] = [
        (
            b"{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\"",
            Value::Null,
            -32700,
        ),
        (b"\xff\xfe\x00garbage", Value::Null, -32700),
        (b"", Value::Null, -32700),
        (br#"{"jsonrpc":"2.0","id":6}"#, json!(6), -32600),
        (call_with_text.as_bytes(), json!(7), -32602),
        (fifty_mb.as_bytes(), Value::Null, -32600),
    ];
    for (line, id, code) in cases {
        send(&mut stdin, line);
        let answer = next();
        let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
        assert_eq!(
            (&answer["id"], answer["error"]["code"].as_i64()),
            (&id, Some(code)),
            "{shown}: {answer}"
        );
        assert!(answer["error"]["message"].is_string(), "{answer}");
        if line.len() > 1 << 20 {
            let said = answer["error"]["message"].as_str().unwrap();
            assert!(said.contains("1048576 bytes"), "the bound is named: {said}");
        }
    }

    send(
        &mut stdin,
        br#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#,
    );
    let listed = next();
    assert_eq!(listed["id"], 9, "{listed}");
    let tools: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(tools.contains(&"search"), "{tools:?}");

    drop(stdin);
    assert!(server.wait().unwrap().success());
}
