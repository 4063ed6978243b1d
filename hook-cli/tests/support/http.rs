//! The HTTP side of the scripted model APIs: a loopback HTTP/1.1 server that hands each
//! request to the API's code and answers `200` with what it returns, on connections kept
//! alive, as the clients expect.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;

/// One request as the API's code sees it.
pub struct Request {
    /// `POST /v1/responses HTTP/1.1`.
    pub line: String,
    pub body: Vec<u8>,
}

/// What the API's code answers: the content type and the body.
pub type Answer = (&'static str, String);

/// Serves on `127.0.0.1:0` for as long as the test process runs.
pub fn serve(answer: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    let answer = Arc::new(answer);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let answer = Arc::clone(&answer);
            thread::spawn(move || connection(stream, &*answer));
        }
    });
    addr
}

/// Answers the requests of one connection until the client closes it.
fn connection(stream: TcpStream, answer: &dyn Fn(&Request) -> Answer) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut stream = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let (kind, answer) = answer(&Request { line, body });
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n",
            answer.len()
        );
        if stream.write_all(head.as_bytes()).is_err()
            || stream.write_all(answer.as_bytes()).is_err()
        {
            return;
        }
    }
}
