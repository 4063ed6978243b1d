//! Reading a transcript from its end, without reading it whole: where its last complete line
//! ends (pausing capture passes over everything before it), and the context use of its latest
//! request (the tray app's gauges move as soon as the host writes, not at the next hook).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::model::Usage;
use crate::record::{LineParser, Record};

/// How far back [`latest_usage`] looks. An assistant line is rarely longer; past it the caller
/// falls back to what the store holds.
const USAGE_WINDOW: u64 = 2 * 1024 * 1024;

/// The offset just past the last newline in `from..len`, or `from` when there is none.
pub fn end_of_last_line(file: &mut File, from: u64, len: u64) -> io::Result<u64> {
    const CHUNK: u64 = 64 * 1024;
    let mut buf = vec![0; CHUNK as usize];
    let mut end = len;
    while end > from {
        let start = end.saturating_sub(CHUNK).max(from);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(from)
}

/// Whether a record marks a compaction: what came before it no longer fills the window.
fn compaction(record: &Record) -> bool {
    matches!(record, Record::Detail { name: Some(name), .. }
        if name == "compact_boundary" || name == "compact_summary")
}

/// What the transcript's end says of the latest request.
#[derive(Debug, Clone, PartialEq)]
pub struct Latest {
    pub usage: Usage,
    pub model: Option<String>,
    /// The client release that wrote the line, where the line says: until a hook stores it,
    /// the store cannot tell how the client runs a bare model id (its window).
    pub client_version: Option<String>,
}

/// The usage and model of the latest main-chain API call among the transcript's last complete
/// lines; `None` when there is none in reach or the file cannot be read. After a compaction
/// with no request since, the context is empty as far as anyone knows: zero usage.
pub fn latest_usage(path: &Path, parser: &mut dyn LineParser) -> Option<Latest> {
    let mut file = crate::regular_file::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let mut records = Vec::new();
    let mut found = None;
    let mut client_version = None;
    // Most lines are tool output or host entries: only parse those that can hold usage
    // (`"usage"`, Codex's `"last_token_usage"`) or mark a compaction.
    let usage_key = memchr::memmem::Finder::new(b"usage\"");
    let compact_key = memchr::memmem::Finder::new(b"compact");
    lines_backwards(&mut file, len, USAGE_WINDOW, |line| {
        if usage_key.find(line).is_none() && compact_key.find(line).is_none() {
            return false;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            return false;
        };
        records.clear();
        if parser.parse_line(text, &mut records).is_err() {
            return false;
        }
        // The parser says which release wrote the transcript once, at the first line it
        // parses that names its folder: remember it across lines.
        if let Some(version) = records.iter().find_map(|record| match record {
            Record::Meta { client_version, .. } => client_version.clone(),
            _ => None,
        }) {
            client_version = Some(version);
        }
        found = records.iter().rev().find_map(|record| match record {
            Record::ApiCall {
                usage,
                model,
                sidechain: false,
                ..
            } => Some(Latest {
                usage: *usage,
                model: model.clone(),
                client_version: client_version.clone(),
            }),
            record if compaction(record) => Some(Latest {
                usage: Usage::default(),
                model: None,
                client_version: client_version.clone(),
            }),
            _ => None,
        });
        found.is_some()
    })
    .ok()?;
    found
}

/// Hands `visit` the complete lines of the file's last `limit` bytes, newest first, reading
/// backwards a chunk at a time, until it returns true. The line still being written and a line
/// cut by the limit are left out.
fn lines_backwards(
    file: &mut File,
    len: u64,
    limit: u64,
    mut visit: impl FnMut(&[u8]) -> bool,
) -> io::Result<()> {
    const CHUNK: u64 = 64 * 1024;
    let floor = len.saturating_sub(limit);
    let mut pos = len;
    // Bytes from `pos` up to the newest line not yet handed over.
    let mut pending: Vec<u8> = Vec::new();
    let mut last_line_found = false;
    while pos > floor {
        // Chunks grow with what is pending, so a long line costs linear time, not quadratic.
        let step = CHUNK.max(pending.len() as u64);
        let start = pos.saturating_sub(step).max(floor);
        let mut chunk = vec![0; (pos - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut chunk)?;
        chunk.extend_from_slice(&pending);
        pending = chunk;
        pos = start;
        if !last_line_found {
            let Some(end) = pending.iter().rposition(|&b| b == b'\n') else {
                continue;
            };
            pending.truncate(end);
            last_line_found = true;
        }
        while let Some(newline) = pending.iter().rposition(|&b| b == b'\n') {
            if visit(&pending[newline + 1..]) {
                return Ok(());
            }
            pending.truncate(newline);
        }
    }
    if pos == 0 && last_line_found {
        visit(&pending);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    use crate::hosts::claude::TranscriptParser;

    fn assistant(id: &str, input: u64, sidechain: bool) -> String {
        format!(
            r#"{{"type":"assistant","isSidechain":{sidechain},"uuid":"u-{id}","timestamp":"2026-11-30T08:00:00Z","message":{{"id":"{id}","model":"claude-opus-4-8","role":"assistant","content":[{{"type":"text","text":"ok"}}],"usage":{{"input_tokens":{input},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}}}}"#
        )
    }

    #[test]
    fn the_latest_main_chain_usage_is_read_from_the_end_of_the_file() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let big = format!(
            r#"{{"type":"user","message":{{"role":"user","content":"{}"}}}}"#,
            "x".repeat(3 * 1024 * 1024)
        );
        for line in [
            assistant("m1", 100, false),
            big,
            assistant("m2", 200, false),
            assistant("m3", 999, true),
        ] {
            writeln!(file, "{line}").unwrap();
        }
        // A line still being written does not count.
        write!(file, "{}", &assistant("m4", 400, false)[..40]).unwrap();
        let latest = latest_usage(file.path(), &mut TranscriptParser::default()).unwrap();
        assert_eq!(
            (latest.usage.input, latest.model.as_deref()),
            (200, Some("claude-opus-4-8"))
        );

        // Out of reach behind a line longer than the window: the store answers instead.
        let mut far = tempfile::NamedTempFile::new().unwrap();
        writeln!(far, "{}", assistant("m1", 100, false)).unwrap();
        writeln!(far, "{}", "y".repeat(3 * 1024 * 1024)).unwrap();
        assert_eq!(
            latest_usage(far.path(), &mut TranscriptParser::default()),
            None
        );
        assert_eq!(
            latest_usage(Path::new("/nonexistent"), &mut TranscriptParser::default()),
            None
        );
    }

    #[test]
    fn a_codex_rollout_s_latest_usage_is_its_last_token_count() {
        let rollout = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/codex-0.171.0/rollout.jsonl"
        );
        let mut parser = crate::hosts::codex::RolloutParser::default();
        let usage = latest_usage(Path::new(rollout), &mut parser).unwrap().usage;
        assert_eq!((usage.context(), usage.output), (10_319, 5));
    }

    #[test]
    fn lines_come_newest_first_whole_and_within_the_limit() {
        let mut file = tempfile::tempfile().unwrap();
        let long = "z".repeat(150_000);
        write!(file, "first\n{long}\nthird\nhalf").unwrap();
        let len = file.metadata().unwrap().len();
        let mut lines_within = |limit| {
            let mut seen = Vec::new();
            lines_backwards(&mut file, len, limit, |line| {
                seen.push(String::from_utf8(line.to_vec()).unwrap());
                false
            })
            .unwrap();
            seen
        };
        assert_eq!(lines_within(u64::MAX), ["third", long.as_str(), "first"]);
        assert_eq!(
            lines_within(100_000),
            ["third"],
            "the long line is cut by the limit"
        );
    }

    #[test]
    fn a_pause_passes_over_whole_lines_only_across_read_chunks() {
        let mut file = tempfile::tempfile().unwrap();
        let long = "x".repeat(200_000);
        write!(file, "a\n{long}\nhalf-writ").unwrap();
        let len = file.metadata().unwrap().len();
        let whole = 2 + long.len() as u64 + 1;
        assert_eq!(end_of_last_line(&mut file, 0, len).unwrap(), whole);
        assert_eq!(end_of_last_line(&mut file, whole, len).unwrap(), whole);
        assert_eq!(end_of_last_line(&mut file, 1, 2).unwrap(), 2);
    }

    #[test]
    fn a_compaction_empties_the_context_until_the_next_request() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(file, "{}", assistant("m1", 176_000, false)).unwrap();
        writeln!(
            file,
            r#"{{"type":"system","subtype":"compact_boundary","uuid":"b1","timestamp":"2026-11-30T08:01:00Z","content":"Conversation compacted","compactMetadata":{{"trigger":"manual","preTokens":176000}}}}"#
        )
        .unwrap();
        let usage = latest_usage(file.path(), &mut TranscriptParser::default())
            .unwrap()
            .usage;
        assert_eq!(usage.context(), 0);
        writeln!(file, "{}", assistant("m2", 9_000, false)).unwrap();
        let usage = latest_usage(file.path(), &mut TranscriptParser::default())
            .unwrap()
            .usage;
        assert_eq!(usage.input, 9_000);
    }

    #[test]
    fn the_latest_request_comes_with_the_client_release_that_wrote_it() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let line = assistant("m1", 14_000, false).replacen(
            r#""type":"assistant","#,
            r#""type":"assistant","cwd":"/home/dev/toy","version":"2.1.332","#,
            1,
        );
        writeln!(file, "{line}").unwrap();
        // A later line that names the folder and mentions usage, with no request in it.
        writeln!(
            file,
            r#"{{"type":"attachment","cwd":"/home/dev/toy","version":"2.1.332","uuid":"a1","timestamp":"2026-11-30T08:00:01Z","attachment":{{"type":"note","usage":null}}}}"#
        )
        .unwrap();
        let latest = latest_usage(file.path(), &mut TranscriptParser::default()).unwrap();
        assert_eq!(latest.client_version.as_deref(), Some("2.1.332"));
        assert_eq!(latest.usage.input, 14_000);
    }
}
