//! What a host pipes into `hook` and `statusline`: a small JSON document, written at once.
//! Reading it is bounded in size and in time, so an endless stream (`< /dev/zero`) or a pipe
//! nobody closes costs a log line instead of the machine's memory or a host that waits, and
//! its fields are bounded in length before anything looks at them.

use std::io::Read;
use std::sync::mpsc;
use std::time::Duration;

use crate::record::HookEvent;

/// Far above any payload a host sends (a tool's output rides in some of them), far below
/// what would hurt: past it the event is dropped and the next hook reads the transcript.
pub const MAX_BYTES: usize = 16 << 20;

/// Hosts write the whole payload, then close the pipe, before they wait for the hook: a payload
/// of a few KB is in the pipe before the hook starts. Half a second is far more than that takes
/// on a busy machine, and short enough that a person does not notice a host that never closes.
pub const DEADLINE: Duration = Duration::from_millis(500);

/// Past `PATH_MAX` on Linux no path can be opened; a longer `cwd` held a hook for minutes
/// looking for its project's root, folder by folder.
pub const MAX_PATH_BYTES: usize = 4096;

/// Ids, event names, models and reasons are a few dozen bytes (a UUID is 36); a 15 MB
/// `session_id` was stored whole.
pub const MAX_NAME_BYTES: usize = 256;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PayloadError {
    #[error("the payload on stdin is larger than {} MB; event skipped (the next hook reads the transcript)", MAX_BYTES >> 20)]
    TooLarge,
    #[error("stdin was not closed within {} ms; event skipped (the next hook reads the transcript)", DEADLINE.as_millis())]
    NoEnd,
    #[error("reading the payload from stdin: {0}")]
    Read(String),
    #[error("the payload's {field} is {bytes} bytes, past the {limit} any host sends; event skipped (the next hook reads the transcript)")]
    FieldTooLong {
        field: &'static str,
        bytes: usize,
        limit: usize,
    },
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

/// Refuses `event` when one of its ids, names or paths is longer than any host sends: what
/// follows (finding the project's root, storing the session) is bounded by these lengths.
pub fn check_fields(event: &HookEvent) -> Result<(), PayloadError> {
    let subagent = event.subagent.as_ref();
    let fields = [
        ("session_id", Some(&event.session_id), MAX_NAME_BYTES),
        ("prompt_id", event.prompt_id.as_ref(), MAX_NAME_BYTES),
        ("source", event.source.as_ref(), MAX_NAME_BYTES),
        ("reason", event.reason.as_ref(), MAX_NAME_BYTES),
        ("model", event.model.as_ref(), MAX_NAME_BYTES),
        ("trigger", event.trigger.as_ref(), MAX_NAME_BYTES),
        ("agent_id", subagent.map(|s| &s.agent_id), MAX_NAME_BYTES),
        ("cwd", event.cwd.as_ref(), MAX_PATH_BYTES),
        (
            "transcript_path",
            event.transcript_path.as_ref(),
            MAX_PATH_BYTES,
        ),
        (
            "agent_transcript_path",
            subagent.and_then(|s| s.transcript_path.as_ref()),
            MAX_PATH_BYTES,
        ),
    ];
    for (field, value, limit) in fields {
        let bytes = value.map_or(0, String::len);
        if bytes > limit {
            return Err(PayloadError::FieldTooLong {
                field,
                bytes,
                limit,
            });
        }
    }
    Ok(())
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

    fn event(session_id: &str, cwd: &str) -> HookEvent {
        HookEvent {
            host: crate::model::Host::new("claude"),
            kind: crate::record::EventKind::SessionStart,
            session_id: session_id.into(),
            transcript_path: None,
            cwd: Some(cwd.into()),
            source: None,
            reason: None,
            prompt_id: None,
            prompt: Some("x".repeat(10 * MAX_PATH_BYTES)),
            model: None,
            subagent: None,
            trigger: None,
            answer: None,
        }
    }

    #[test]
    fn fields_as_hosts_send_them_pass_and_a_long_prompt_is_not_a_field() {
        let id = "1f0e2c4a-9b7d-4e3f-8a6b-5c2d1e0f9a8b";
        assert_eq!(check_fields(&event(id, "/home/ana/src/shop")), Ok(()));
        let deepest = "/d".repeat(MAX_PATH_BYTES / 2);
        assert_eq!(check_fields(&event(id, &deepest)), Ok(()));
    }

    #[test]
    fn a_path_or_an_id_longer_than_any_host_sends_is_refused_by_name() {
        let id = "1f0e2c4a-9b7d-4e3f-8a6b-5c2d1e0f9a8b";
        let deep = "/d".repeat(MAX_PATH_BYTES);
        assert_eq!(
            check_fields(&event(id, &deep)),
            Err(PayloadError::FieldTooLong {
                field: "cwd",
                bytes: 2 * MAX_PATH_BYTES,
                limit: MAX_PATH_BYTES,
            })
        );
        let long_id = "a".repeat(MAX_NAME_BYTES + 1);
        let refused = check_fields(&event(&long_id, "/home/ana")).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the payload's session_id is 257 bytes, past the 256 any host sends; event skipped \
             (the next hook reads the transcript)"
        );
    }
}
