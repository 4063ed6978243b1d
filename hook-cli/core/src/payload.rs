//! What a host pipes into `hook` and `statusline`: a small JSON document, written at once.
//! Reading it is bounded in size and in time, so an endless stream (`< /dev/zero`) or a pipe
//! nobody closes costs a log line instead of the machine's memory or a host that waits.

use std::io::Read;
use std::sync::mpsc;
use std::time::Duration;

/// Far above any payload a host sends (a tool's output rides in some of them), far below
/// what would hurt: past it the event is dropped and the next hook reads the transcript.
pub const MAX_BYTES: usize = 16 << 20;

/// Hosts write the whole payload before they wait for the hook; two seconds is far more than
/// that takes on a busy machine, and short enough that a host never notices.
pub const DEADLINE: Duration = Duration::from_secs(2);

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PayloadError {
    #[error("the payload on stdin is larger than {} MB; event skipped (the next hook reads the transcript)", MAX_BYTES >> 20)]
    TooLarge,
    #[error("stdin was not closed within {} s; event skipped (the next hook reads the transcript)", DEADLINE.as_secs())]
    NoEnd,
    #[error("reading the payload from stdin: {0}")]
    Read(String),
}

/// Reads `input` to its end, at most [`MAX_BYTES`] and for at most [`DEADLINE`].
pub fn read(input: impl Read + Send + 'static) -> Result<Vec<u8>, PayloadError> {
    read_within(input, MAX_BYTES, DEADLINE)
}

fn read_within(
    input: impl Read + Send + 'static,
    max_bytes: usize,
    deadline: Duration,
) -> Result<Vec<u8>, PayloadError> {
    let (sent, received) = mpsc::channel();
    // A blocked read cannot be interrupted: it runs on a thread of its own, which the process
    // leaves behind when it gives up and exits.
    std::thread::spawn(move || {
        let mut payload = Vec::new();
        let read = match input.take(max_bytes as u64 + 1).read_to_end(&mut payload) {
            Err(e) => Err(PayloadError::Read(e.to_string())),
            Ok(_) if payload.len() > max_bytes => Err(PayloadError::TooLarge),
            Ok(_) => Ok(payload),
        };
        let _ = sent.send(read);
    });
    received
        .recv_timeout(deadline)
        .unwrap_or(Err(PayloadError::NoEnd))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_within_the_limit_is_read_whole() {
        let got = read_within(&b"{\"a\":1}"[..], 7, DEADLINE);
        assert_eq!(got, Ok(b"{\"a\":1}".to_vec()));
    }

    #[test]
    fn an_endless_stream_stops_at_the_limit() {
        let got = read_within(std::io::repeat(0), 1 << 10, DEADLINE);
        assert_eq!(got, Err(PayloadError::TooLarge));
    }

    #[test]
    fn a_stream_that_never_ends_is_given_up() {
        struct Silent;
        impl Read for Silent {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                std::thread::sleep(Duration::from_secs(60));
                Ok(0)
            }
        }
        let started = std::time::Instant::now();
        let got = read_within(Silent, 1 << 10, Duration::from_millis(50));
        assert_eq!(got, Err(PayloadError::NoEnd));
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
