//! Reading a transcript from its end, without reading it whole: where its last complete line
//! ends (pausing capture passes over everything before it), and the context use of its latest
//! request (the tray app's gauges move as soon as the host writes, not at the next hook).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::ingest::{LineParser, Record};
use crate::model::Usage;

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

/// The usage and model of the latest main-chain API call among the transcript's last complete
/// lines; `None` when there is none in reach or the file cannot be read.
pub fn latest_usage(path: &Path, parser: &mut dyn LineParser) -> Option<(Usage, Option<String>)> {
    let mut file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(USAGE_WINDOW);
    let mut window = Vec::with_capacity((len - start) as usize);
    file.seek(SeekFrom::Start(start)).ok()?;
    file.take(len - start).read_to_end(&mut window).ok()?;
    // Only whole lines: not the one being written, nor the one the window cut into.
    let first = match start {
        0 => 0,
        _ => window.iter().position(|&b| b == b'\n')? + 1,
    };
    let end = window.iter().rposition(|&b| b == b'\n')?;
    let mut records = Vec::new();
    for line in window.get(first..end)?.rsplit(|&b| b == b'\n') {
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        records.clear();
        if parser.parse_line(text, &mut records).is_err() {
            continue;
        }
        let latest = records.iter().rev().find_map(|record| match record {
            Record::ApiCall {
                usage,
                model,
                sidechain: false,
                ..
            } => Some((*usage, model.clone())),
            _ => None,
        });
        if latest.is_some() {
            return latest;
        }
    }
    None
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
        let (usage, model) = latest_usage(file.path(), &mut TranscriptParser::default()).unwrap();
        assert_eq!(
            (usage.input, model.as_deref()),
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
}
