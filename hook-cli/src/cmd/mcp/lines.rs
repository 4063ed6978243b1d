//! The stdio layer in front of the MCP server: reads the client's lines itself, at most
//! [`MAX_LINE_BYTES`] each, answers a line that is no well-formed request with the JSON-RPC
//! error it calls for (`throughline::mcp_request`), and hands the server only those that are.

use throughline::mcp_request::{check, too_long, Checked, MAX_LINE_BYTES};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// A line as read: its bytes, or that it was longer than [`MAX_LINE_BYTES`] (and skipped).
#[derive(Debug, PartialEq)]
enum Line {
    Read(Vec<u8>),
    TooLong,
}

/// The next line of `input` without its newline; None at the end. Never holds more than
/// [`MAX_LINE_BYTES`] of it: the rest of a longer line is read past.
async fn next_line(input: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Some(Line::TooLong),
                (false, true) => None,
                (false, false) => Some(Line::Read(line)),
            });
        }
        let newline = buffer.iter().position(|&b| b == b'\n');
        let part = &buffer[..newline.unwrap_or(buffer.len())];
        if !too_long && line.len() + part.len() > MAX_LINE_BYTES {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(part);
        }
        let used = newline.map_or(buffer.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Read(line)
            }));
        }
    }
}

/// Runs `serve` (the MCP server, on the pipes it is given) behind this layer, on stdin and
/// stdout, until the client closes stdin and the server is done.
pub async fn on_stdio<F>(
    serve: impl FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> F,
) -> anyhow::Result<()>
where
    F: std::future::Future<Output = anyhow::Result<()>>,
{
    const PIPE: usize = 1 << 16;
    let (mut to_server, server_input) = tokio::io::duplex(PIPE);
    let (server_output, from_server) = tokio::io::duplex(PIPE);
    // Whole lines to stdout, from the server and from this layer, never interleaved; a client
    // that does not read its answers stops being read.
    let (out, mut lines) = mpsc::channel::<Vec<u8>>(64);
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = lines.recv().await {
            stdout.write_all(&line).await?;
            stdout.flush().await?;
        }
        std::io::Result::Ok(())
    });
    let answers = out.clone();
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        while let Some(line) = next_line(&mut stdin).await? {
            let checked = match line {
                Line::Read(bytes) => check(&bytes),
                Line::TooLong => too_long(),
            };
            match checked {
                Checked::Forward(text) => {
                    to_server.write_all(text.as_bytes()).await?;
                    to_server.write_all(b"\n").await?;
                }
                Checked::Answer(error) => {
                    let mut line = error.to_string().into_bytes();
                    line.push(b'\n');
                    if answers.send(line).await.is_err() {
                        break;
                    }
                }
                Checked::Drop => {}
            }
        }
        // Dropping the pipe ends the server's input: it finishes and returns.
        std::io::Result::Ok(())
    });
    let relay = tokio::spawn(async move {
        let mut from_server = BufReader::new(from_server);
        loop {
            let mut line = Vec::new();
            if from_server.read_until(b'\n', &mut line).await? == 0 {
                return std::io::Result::Ok(());
            }
            if out.send(line).await.is_err() {
                return Ok(());
            }
        }
    });
    let served = serve(server_input, server_output).await;
    reader.abort();
    relay.await??;
    writer.await??;
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_bound_is_read_past_and_the_next_one_read() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{}\nlast");
        let mut exact = vec![b'y'; MAX_LINE_BYTES];
        exact.push(b'\n');
        input.extend_from_slice(b"\n");
        input.extend_from_slice(&exact);
        let mut reader = BufReader::new(&input[..]);
        let lines: Vec<Line> = runtime.block_on(async {
            let mut lines = Vec::new();
            while let Some(line) = next_line(&mut reader).await.unwrap() {
                lines.push(line);
            }
            lines
        });
        assert_eq!(
            lines,
            [
                Line::TooLong,
                Line::Read(b"{}".to_vec()),
                Line::Read(b"last".to_vec()),
                Line::Read(vec![b'y'; MAX_LINE_BYTES]),
            ]
        );
    }
}
