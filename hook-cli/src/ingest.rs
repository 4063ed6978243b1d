//! Incremental ingest: read what a transcript gained since the stored cursor, complete lines
//! only, and hand each line to the host's parser. The cost of a call follows what was
//! appended, never the length of the file or the size of the store.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::model::{DetailKind, Usage};
use crate::store::{self, SessionRow, Writer};
use crate::tail;

/// What one transcript line means for the memory. Hosts turn their own lines into these.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// Facts about the session the transcript carries (used when no hook payload has them).
    Meta { cwd: Option<String> },
    /// The person's words: starts a new turn. `key` is stable across re-reads.
    Prompt {
        key: String,
        text: String,
        at: Option<String>,
    },
    /// One assistant text block (L2).
    Answer {
        key: String,
        text: String,
        at: Option<String>,
    },
    /// One L3 entry.
    Detail {
        key: String,
        kind: DetailKind,
        name: Option<String>,
        tool_use_id: Option<String>,
        body: String,
        is_error: bool,
        at: Option<String>,
    },
    /// Usage of one assistant API message.
    ApiCall {
        message_id: String,
        model: Option<String>,
        usage: Usage,
        sidechain: bool,
        at: Option<String>,
    },
}

impl Record {
    pub fn at(&self) -> Option<&str> {
        match self {
            Record::Meta { .. } => None,
            Record::Prompt { at, .. }
            | Record::Answer { at, .. }
            | Record::Detail { at, .. }
            | Record::ApiCall { at, .. } => at.as_deref(),
        }
    }
}

/// Turns one line of a host's transcript into records.
pub trait LineParser {
    /// `line` is one complete line without its newline. An `Err` names what is wrong with it.
    fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<(), String>;
}

/// What an ingest call did, and what it had to skip (each skip is one short message).
#[derive(Debug, Default)]
pub struct Report {
    pub bytes: u64,
    pub lines: u64,
    pub records: u64,
    /// The transcript was replaced or truncated and was read again from the start.
    pub restarted: bool,
    /// The transcript was read before and is gone now (deleted or moved).
    pub missing: bool,
    pub problems: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("reading {path}: {source}")]
    Io { path: String, source: io::Error },
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<rusqlite::Error> for IngestError {
    fn from(e: rusqlite::Error) -> Self {
        IngestError::Store(e.into())
    }
}

const READ_BUFFER: usize = 1 << 20;

/// Brings `session`'s memory up to date with the transcript at `path`.
pub fn ingest(
    w: &Writer,
    session: &mut SessionRow,
    path: &Path,
    parser: &mut dyn LineParser,
) -> Result<Report, IngestError> {
    let mut report = Report::default();
    let shown = path.display().to_string();
    let io_err = |source| IngestError::Io {
        path: shown.clone(),
        source,
    };
    let stored = w.cursor(&shown)?;
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Hosts create the file lazily; it is only missing if it was read before.
            report.missing = stored.is_some();
            return Ok(report);
        }
        Err(e) => return Err(io_err(e)),
    };
    let meta = file.metadata().map_err(io_err)?;
    let file_id = format!("{}:{}", meta.dev(), meta.ino());
    let len = meta.len();

    let mut cursor = stored.unwrap_or_default();
    if cursor.file_id != file_id || len < cursor.offset {
        // A new file at the same path, or one cut short: read it whole again. Every row is
        // keyed by its source, so what is already stored is neither lost nor duplicated.
        report.restarted = cursor.offset > 0;
        cursor.offset = 0;
        cursor.turn = None;
        cursor.file_id = file_id;
    }
    if len == cursor.offset {
        return Ok(report);
    }

    file.seek(SeekFrom::Start(cursor.offset)).map_err(io_err)?;
    // Read no further than the size seen now: a file that keeps growing is finished next call.
    let mut reader = BufReader::with_capacity(READ_BUFFER, file.take(len - cursor.offset));
    let mut line = Vec::new();
    let mut records = Vec::new();
    let mut earliest: Option<String> = None;
    let mut latest: Option<String> = None;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(io_err)?;
        if n == 0 || line.last() != Some(&b'\n') {
            // End of data, or a last line still being written: leave it for the next call.
            break;
        }
        let at_byte = cursor.offset;
        cursor.offset += n as u64;
        report.bytes += n as u64;
        report.lines += 1;
        let body = trim_line_end(&line);
        if body.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = match std::str::from_utf8(body) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                report.problems.push(format!(
                    "{shown} at byte {at_byte}: invalid UTF-8 replaced with U+FFFD"
                ));
                String::from_utf8_lossy(body)
            }
        };
        records.clear();
        if let Err(e) = parser.parse_line(&text, &mut records) {
            report
                .problems
                .push(format!("{shown} at byte {at_byte}: skipped line: {e}"));
            continue;
        }
        for record in &records {
            if let Some(at) = record.at() {
                if earliest.as_deref().is_none_or(|e| at < e) {
                    earliest = Some(at.to_string());
                }
                if latest.as_deref().is_none_or(|l| at > l) {
                    latest = Some(at.to_string());
                }
            }
            w.apply(session, &mut cursor.turn, record)?;
            report.records += 1;
        }
    }
    w.save_cursor(&shown, session.id, &cursor)?;
    w.touch_session(session.id, earliest.as_deref(), latest.as_deref())?;
    Ok(report)
}

/// While capture is paused: moves the cursor past every complete line the transcript holds
/// now without storing them, so what was said during the pause never enters the memory.
/// Returns the bytes passed over.
pub fn skip(w: &Writer, session: &SessionRow, path: &Path) -> Result<u64, IngestError> {
    let shown = path.display().to_string();
    let io_err = |source| IngestError::Io {
        path: shown.clone(),
        source,
    };
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io_err(e)),
    };
    let meta = file.metadata().map_err(io_err)?;
    let file_id = format!("{}:{}", meta.dev(), meta.ino());
    let mut cursor = w.cursor(&shown)?.unwrap_or_default();
    if cursor.file_id != file_id || meta.len() < cursor.offset {
        cursor = store::Cursor {
            file_id,
            ..Default::default()
        };
    }
    let end = tail::end_of_last_line(&mut file, cursor.offset, meta.len()).map_err(io_err)?;
    let skipped = end - cursor.offset;
    if skipped > 0 {
        cursor.offset = end;
        w.save_cursor(&shown, session.id, &cursor)?;
    }
    Ok(skipped)
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
