//! Incremental ingest: read what a transcript gained since the stored cursor, complete lines
//! only, and hand each line to the host's parser. The cost of a call follows what was
//! appended, never the length of the file or the size of the store.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{mpsc, Arc};

use crate::clock;
use crate::model::{Message, Role};
use crate::store::{self, SessionRow, Writer};
use crate::summary;
use crate::tail;

mod order;
mod subagent;

pub use crate::record::{LineParser, Link, Record};
use order::{Order, State};
pub use subagent::ingest_subagent;

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

impl Report {
    /// Adds what reading another transcript of the session (a subagent's) did.
    pub fn add(&mut self, other: Report) {
        self.bytes += other.bytes;
        self.lines += other.lines;
        self.records += other.records;
        self.problems.extend(other.problems);
    }
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

/// The longest transcript line stored, far above any a host writes (a tool's output in
/// full, a file read or written whole): past it the line is passed over once, with one log
/// line, and never read again (decision 0080).
const MAX_LINE_BYTES: u64 = 64 << 20;

/// Bytes read per system call. Small enough that a backlog's first lines reach the parser
/// at once: a 1 MiB buffer, fresh pages to fault in for every transcript, held up the writer.
const READ_BUFFER: usize = 64 << 10;

/// Brings `session`'s memory up to date with the transcript at `path`.
pub fn ingest(
    w: &Writer,
    session: &mut SessionRow,
    path: &Path,
    parser: &mut dyn LineParser,
) -> Result<Report, IngestError> {
    read(w, session, path, parser, &mut || Ok(None))
}

/// Reads the transcript at `path` from its cursor. Read from its start, its first records go
/// to the turn `first_turn` names; None leaves them to the transcript's own prompts (what
/// comes before the first one is the session's preamble).
fn read(
    w: &Writer,
    session: &mut SessionRow,
    path: &Path,
    parser: &mut dyn LineParser,
    first_turn: &mut dyn FnMut() -> Result<Option<i64>, IngestError>,
) -> Result<Report, IngestError> {
    let mut report = Report::default();
    let shown = path.display().to_string();
    let io_err = |source| IngestError::Io {
        path: shown.clone(),
        source,
    };
    let Resume {
        mut file,
        len,
        mut cursor,
        restarted,
    } = match resume(w, path, &shown)? {
        Opened::At(resume) => resume,
        Opened::Missing { was_read } => {
            report.missing = was_read;
            return Ok(report);
        }
    };
    report.restarted = restarted;
    let state = cursor.line_order.as_deref().and_then(State::from_json);
    let held = state.as_ref().map_or(&[][..], State::held_lines).to_vec();
    if len == cursor.offset && held.is_empty() {
        return Ok(report);
    }
    let order = Order::new(state.as_ref(), cursor.offset == 0);
    if cursor.offset == 0 && cursor.turn.is_none() {
        cursor.turn = first_turn()?;
    }

    // A second handle on the file, to mark where each commit leaves the cursor.
    let probe = file.try_clone().map_err(io_err)?;
    file.seek(SeekFrom::Start(cursor.offset)).map_err(io_err)?;
    // Read no further than the size seen now: a file that keeps growing is finished next call.
    let unread = len - cursor.offset;
    let reader = BufReader::with_capacity(READ_BUFFER.min(unread as usize), file.take(unread));
    let mut lines = Lines {
        reader,
        offset: cursor.offset,
        shown: &shown,
        parser,
        order,
        held,
        passing_long_line: state.as_ref().is_some_and(|s| s.passing_long_line),
        now: clock::now(),
        at_end: false,
        line: Vec::new(),
        parsed: Vec::new(),
        placed: Vec::new(),
        chunk_bytes: FIRST_CHUNK_BYTES,
    };
    let mut progress = Progress {
        file: probe,
        cursor,
        // Kept unless a chunk changes it (none does when only part of a line was written).
        order: state,
        earliest: None,
        latest: None,
    };
    let mut store_chunk = |chunk: Chunk| -> Result<(), IngestError> {
        progress.cursor.offset += chunk.bytes;
        report.bytes += chunk.bytes;
        report.lines += chunk.lines;
        report.problems.extend(chunk.problems);
        widen(&mut progress.earliest, chunk.earliest, |new, old| new < old);
        widen(&mut progress.latest, chunk.latest, |new, old| new > old);
        for record in &chunk.records {
            w.apply(session, &mut progress.cursor.turn, record)?;
        }
        report.records += chunk.records.len() as u64;
        if chunk.order.is_some() {
            progress.order = chunk.order;
        }
        // A chunk ends on a line boundary, or inside a line too long to store, which its
        // order state says is being passed over: with the cursor saved, what is stored is whole.
        if w.commit_due(chunk.bytes) {
            progress.save(w, &shown, session.id)?;
            w.commit_and_continue()?;
        }
        Ok(())
    };
    let mut turn = TurnSoFar::default();
    if unread < PARSE_APART_FROM {
        while let Some(mut chunk) = lines.next_chunk().map_err(io_err)? {
            turn.summarise(&mut chunk);
            store_chunk(chunk)?;
        }
    } else {
        // A backlog (import, a first hook on a long session): one thread parses, a second
        // summarises the turns it completes, and this one writes. Chunks pass in file order,
        // so the result is the same as on one thread.
        std::thread::scope(|scope| -> Result<(), IngestError> {
            let (send_parsed, parsed) = mpsc::sync_channel::<Chunk>(CHUNKS_IN_FLIGHT);
            let (send, receive) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
            let parsing = scope.spawn(move || -> io::Result<()> {
                while let Some(chunk) = lines.next_chunk()? {
                    if send_parsed.send(chunk).is_err() {
                        break;
                    }
                }
                Ok(())
            });
            scope.spawn(move || {
                for mut chunk in parsed {
                    turn.summarise(&mut chunk);
                    if send.send(chunk).is_err() {
                        return;
                    }
                }
                // The last turn's one-liner, made here while the writer catches up rather
                // than by the writer from what it stored (a later prompt redoes it).
                if let Some(text) = turn.summary() {
                    let records = vec![Record::Summary { text }];
                    let _ = send.send(Chunk {
                        records,
                        ..Chunk::default()
                    });
                }
            });
            for chunk in receive {
                store_chunk(chunk)?;
            }
            parsing
                .join()
                .expect("the transcript parser does not panic")
                .map_err(io_err)
        })?;
    }
    progress.save(w, &shown, session.id)?;
    report.problems = one_line_per_file(std::mem::take(&mut report.problems))
        .iter()
        .map(|problem| w.redact_problem(problem))
        .collect();
    Ok(report)
}

/// A file with many bad lines gives one log line per call, not one per line: the first
/// problem and how many more there were (a flood pushed the useful history out of the log).
fn one_line_per_file(mut problems: Vec<String>) -> Vec<String> {
    if problems.len() > 1 {
        let more = problems.len() - 1;
        problems.truncate(1);
        problems[0].push_str(&format!("; and {more} more problems in this file"));
    }
    problems
}

/// How far a transcript was read: the cursor, the line-ordering state there, and the time
/// span read so far. Saved with each commit, which it makes whole.
struct Progress {
    file: File,
    cursor: store::Cursor,
    order: Option<State>,
    earliest: Option<String>,
    latest: Option<String>,
}

impl Progress {
    fn save(&mut self, w: &Writer, path: &str, session: i64) -> Result<(), IngestError> {
        self.cursor.line_order = self.order.as_ref().map(State::to_json);
        self.cursor.tail_mark =
            tail_mark(&self.file, self.cursor.offset).map_err(|source| IngestError::Io {
                path: path.to_string(),
                source,
            })?;
        w.save_cursor(path, session, &self.cursor)?;
        w.touch_session(session, self.earliest.as_deref(), self.latest.as_deref())?;
        Ok(())
    }
}

/// A transcript opened where its reading stopped.
struct Resume {
    file: File,
    /// Its size now: reading stops there.
    len: u64,
    cursor: store::Cursor,
    /// It was read before, and is a new file at the same path or one cut short.
    restarted: bool,
}

enum Opened {
    At(Resume),
    /// No file at the path; `was_read` when one was read there before.
    Missing {
        was_read: bool,
    },
}

/// Opens `path` at its stored cursor. A new file at the same path, or one cut short, is read
/// whole again: every row is keyed by its source, so what is stored is neither lost nor
/// duplicated.
fn resume(w: &Writer, path: &Path, shown: &str) -> Result<Opened, IngestError> {
    let io_err = |source| IngestError::Io {
        path: shown.to_string(),
        source,
    };
    let stored = w.cursor(shown)?;
    let file = match crate::regular_file::open(path) {
        Ok(f) => f,
        // Hosts create the file lazily; it is only missing if it was read before.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Opened::Missing {
                was_read: stored.is_some(),
            })
        }
        Err(e) => return Err(io_err(e)),
    };
    let meta = file.metadata().map_err(io_err)?;
    let file_id = format!("{}:{}", meta.dev(), meta.ino());
    let len = meta.len();
    let mut cursor = stored.unwrap_or_default();
    let mut restarted = false;
    // Cut short and written again past the old offset, the same file no longer ends its
    // read part with the bytes it did.
    let rewritten = cursor.tail_mark.is_some()
        && len >= cursor.offset
        && tail_mark(&file, cursor.offset).ok().flatten() != cursor.tail_mark;
    if cursor.file_id != file_id || len < cursor.offset || rewritten {
        restarted = cursor.offset > 0;
        cursor = store::Cursor {
            file_id,
            ..Default::default()
        };
    }
    Ok(Opened::At(Resume {
        file,
        len,
        cursor,
        restarted,
    }))
}

/// Backlogs from this size are parsed on a thread of their own; a hook's few lines are not
/// worth a thread.
const PARSE_APART_FROM: u64 = 256 << 10;
/// Lines parsed ahead of the writer: bounds the memory a fast parser can fill.
const CHUNK_BYTES: u64 = 32 << 10;
/// The first chunk of a backlog is small and each next one twice as large, up to
/// [`CHUNK_BYTES`]: the writer waits for the first one, once per transcript.
const FIRST_CHUNK_BYTES: u64 = 4 << 10;
const CHUNKS_IN_FLIGHT: usize = 64;

/// The records of consecutive complete lines, and what reading them found.
#[derive(Default)]
struct Chunk {
    bytes: u64,
    lines: u64,
    records: Vec<Record>,
    problems: Vec<String>,
    earliest: Option<String>,
    latest: Option<String>,
    /// Where line ordering stands after this chunk's lines: what a cursor saved after it
    /// keeps. `None` for a chunk of no lines (the last turn's one-liner).
    order: Option<State>,
}

impl Chunk {
    /// Adds `record`. Hosts write one API message over several lines that each repeat its
    /// usage; a line repeating the message just before is folded into that record, keeping
    /// the largest output count, as the writer's upsert would. The writer, the bottleneck of a
    /// backlog, is spared one statement per repeated line.
    fn push(&mut self, record: Record) {
        if let Record::ApiCall {
            message_id,
            model,
            usage,
            sidechain,
            ..
        } = &record
        {
            let last = self
                .records
                .iter_mut()
                .rev()
                .find(|r| matches!(r, Record::ApiCall { .. }));
            if let Some(Record::ApiCall {
                message_id: last_id,
                model: last_model,
                usage: last_usage,
                sidechain: last_sidechain,
                ..
            }) = last
            {
                if *last_id == *message_id && *last_model == *model && *last_sidechain == *sidechain
                {
                    last_usage.output = last_usage.output.max(usage.output);
                    return;
                }
            }
        }
        self.records.push(record);
    }
}

/// Complete lines of a transcript from a byte offset, parsed a chunk at a time.
struct Lines<'a, R> {
    reader: R,
    /// Byte offset of the next line in the file (for messages).
    offset: u64,
    shown: &'a str,
    parser: &'a mut dyn LineParser,
    order: Order,
    /// Lines held by the last call, parsed again before the new ones.
    held: Vec<Arc<str>>,
    /// Whether the reader is passing over a line too long to store.
    passing_long_line: bool,
    /// The time held lines are let go by, at the end of what is read.
    now: String,
    at_end: bool,
    /// Buffers kept from line to line and chunk to chunk.
    line: Vec<u8>,
    parsed: Vec<Record>,
    placed: Vec<Record>,
    /// Size of the next chunk (see [`FIRST_CHUNK_BYTES`]).
    chunk_bytes: u64,
}

/// The conversation (L2) of the turn being read, when its prompt was read too.
#[derive(Default)]
struct TurnSoFar {
    prompt_key: Option<String>,
    messages: Vec<Message>,
    keys: HashSet<String>,
}

impl TurnSoFar {
    /// Follows `record`; at the prompt of the next turn, returns the one-liner of this one.
    fn follow(&mut self, record: &Record) -> Option<String> {
        match record {
            Record::Prompt { key, text, .. } if self.prompt_key.as_ref() != Some(key) => {
                let summary = self.summary();
                self.prompt_key = Some(key.clone());
                self.messages.clear();
                self.keys.clear();
                self.messages.push(message(Role::User, text));
                summary
            }
            // The turn read so far may be among those rolled back: it is not summarised, and
            // the turn before it already was.
            Record::Rollback(_) => {
                self.prompt_key = None;
                self.messages.clear();
                self.keys.clear();
                None
            }
            Record::Answer { key, text, .. }
                if self.prompt_key.is_some() && self.keys.insert(key.clone()) =>
            {
                self.messages.push(message(Role::Assistant, text));
                None
            }
            _ => None,
        }
    }

    /// Puts the one-liner of each turn `chunk` completes just before the prompt that
    /// completes it.
    fn summarise(&mut self, chunk: &mut Chunk) {
        let records = std::mem::take(&mut chunk.records);
        chunk.records.reserve(records.len());
        for record in records {
            if let Some(text) = self.follow(&record) {
                chunk.records.push(Record::Summary { text });
            }
            chunk.records.push(record);
        }
    }

    /// The one-liner of the turn so far, when its prompt was read.
    fn summary(&self) -> Option<String> {
        self.prompt_key
            .is_some()
            .then(|| summary::of_messages(&self.messages, summary::MAX_CHARS))
    }
}

fn message(role: Role, text: &str) -> Message {
    Message {
        role,
        text: text.to_string(),
        at: None,
    }
}

impl<R: BufRead> Lines<'_, R> {
    /// The next chunk of lines, or `None` at the end of the complete lines.
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut chunk = Chunk::default();
        for line in std::mem::take(&mut self.held) {
            self.take_line(&line, None, &mut chunk);
        }
        let limit = self.chunk_bytes;
        self.chunk_bytes = (limit * 2).min(CHUNK_BYTES);
        while chunk.bytes < limit && !self.at_end {
            if self.passing_long_line {
                let (passed, ended) = pass_line(&mut self.reader)?;
                self.offset += passed;
                chunk.bytes += passed;
                if ended {
                    self.passing_long_line = false;
                    continue;
                }
                self.at_end(&mut chunk);
                break;
            }
            let line = &mut self.line;
            line.clear();
            let n = self
                .reader
                .by_ref()
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', line)?;
            if n as u64 > MAX_LINE_BYTES && line.last() != Some(&b'\n') {
                chunk.problems.push(format!(
                    "{} at byte {}: a line longer than {} MB is not stored",
                    self.shown,
                    self.offset,
                    MAX_LINE_BYTES >> 20
                ));
                self.passing_long_line = true;
                self.offset += n as u64;
                chunk.bytes += n as u64;
                continue;
            }
            if n == 0 || line.last() != Some(&b'\n') {
                // End of data, or a last line still being written: leave it for the next call.
                self.at_end(&mut chunk);
                break;
            }
            let at_byte = self.offset;
            self.offset += n as u64;
            chunk.bytes += n as u64;
            chunk.lines += 1;
            let line = std::mem::take(&mut self.line);
            let mut body = trim_line_end(&line);
            if at_byte == 0 {
                // A file an editor saved may start with a byte order mark.
                body = crate::hosts::without_bom(body);
            }
            if !body.iter().all(u8::is_ascii_whitespace) {
                match std::str::from_utf8(body) {
                    Ok(text) => self.take_line(text, Some(at_byte), &mut chunk),
                    Err(_) => {
                        chunk.problems.push(format!(
                            "{} at byte {at_byte}: invalid UTF-8 replaced with U+FFFD",
                            self.shown
                        ));
                        self.take_line(&String::from_utf8_lossy(body), Some(at_byte), &mut chunk);
                    }
                }
            }
            self.line = line;
        }
        let mut state = self.order.state();
        state.passing_long_line = self.passing_long_line;
        chunk.order = Some(state);
        Ok((chunk.bytes > 0 || !chunk.records.is_empty()).then_some(chunk))
    }

    /// At the end of the complete lines: lines still waiting for a parent that will not come
    /// now are let go.
    fn at_end(&mut self, chunk: &mut Chunk) {
        self.at_end = true;
        let mut released = Vec::new();
        self.order.settle(&self.now, &mut released);
        self.add(released, chunk);
    }

    /// Parses one line and adds to `chunk` the records now in order. `at_byte` is `None` for
    /// a line held by the last call.
    fn take_line(&mut self, text: &str, at_byte: Option<u64>, chunk: &mut Chunk) {
        self.parsed.clear();
        let link = match self.parser.parse_line(text, &mut self.parsed) {
            Ok(link) => link,
            Err(e) => {
                let at = at_byte.map_or("a held line".to_string(), |b| format!("byte {b}"));
                chunk
                    .problems
                    .push(format!("{} at {at}: skipped line: {e}", self.shown));
                return;
            }
        };
        let mut placed = std::mem::take(&mut self.placed);
        self.order.place(link, text, &mut self.parsed, &mut placed);
        self.add(placed.drain(..), chunk);
        self.placed = placed;
    }

    fn add(&self, records: impl IntoIterator<Item = Record>, chunk: &mut Chunk) {
        for record in records {
            if let Some(at) = record.at() {
                widen(&mut chunk.earliest, Some(at), |new, old| new < old);
                widen(&mut chunk.latest, Some(at), |new, old| new > old);
            }
            chunk.push(record);
        }
    }
}

/// Reads past the end of the line `reader` is in; how many bytes that took, and whether the
/// line ended (else the data did).
fn pass_line(reader: &mut impl BufRead) -> io::Result<(u64, bool)> {
    let mut passed = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((passed, false));
        }
        match memchr::memchr(b'\n', buf) {
            Some(i) => {
                reader.consume(i + 1);
                return Ok((passed + i as u64 + 1, true));
            }
            None => {
                let n = buf.len();
                reader.consume(n);
                passed += n as u64;
            }
        }
    }
}

/// Replaces `bound` by `candidate` when there is none yet or `beyond(candidate, bound)`.
fn widen<S: AsRef<str>>(
    bound: &mut Option<String>,
    candidate: Option<S>,
    beyond: fn(&str, &str) -> bool,
) {
    if let Some(candidate) = candidate {
        let candidate = candidate.as_ref();
        if bound.as_deref().is_none_or(|b| beyond(candidate, b)) {
            *bound = Some(candidate.to_string());
        }
    }
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
    let Opened::At(Resume {
        mut file,
        len,
        mut cursor,
        ..
    }) = resume(w, path, &shown)?
    else {
        return Ok(0);
    };
    let end = tail::end_of_last_line(&mut file, cursor.offset, len).map_err(io_err)?;
    let skipped = end - cursor.offset;
    if skipped > 0 {
        cursor.offset = end;
        cursor.tail_mark = tail_mark(&file, end).map_err(io_err)?;
        // Lines passed over are not known: the next read takes unknown parents as theirs.
        cursor.line_order = None;
        w.save_cursor(&shown, session.id, &cursor)?;
    }
    Ok(skipped)
}

/// How many bytes before a cursor's offset [`tail_mark`] hashes: the end of the last line
/// read, which a rewritten file is all but sure to have changed.
const TAIL_MARK_BYTES: u64 = 64;

/// A hash (FNV-1a) of the bytes of `file` just before `offset`; None at the start. A hash,
/// not the bytes: they may hold what redaction took out of the stored text.
fn tail_mark(file: &File, offset: u64) -> io::Result<Option<i64>> {
    use std::os::unix::fs::FileExt;
    if offset == 0 {
        return Ok(None);
    }
    let from = offset.saturating_sub(TAIL_MARK_BYTES);
    let mut bytes = vec![0; (offset - from) as usize];
    file.read_exact_at(&mut bytes, from)?;
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Ok(Some(hash as i64))
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DetailKind, Usage};

    fn call(id: &str, output: u64, sidechain: bool) -> Record {
        Record::ApiCall {
            message_id: id.to_string(),
            model: Some("claude-opus-4-8".to_string()),
            usage: Usage {
                input: 10,
                cache_creation: 0,
                cache_read: 0,
                output,
            },
            sidechain,
            at: None,
        }
    }

    fn outputs(chunk: &Chunk) -> Vec<(String, u64)> {
        chunk
            .records
            .iter()
            .filter_map(|r| match r {
                Record::ApiCall {
                    message_id, usage, ..
                } => Some((message_id.clone(), usage.output)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn repeated_usage_of_one_message_folds_into_its_first_record() {
        let tool = Record::Detail {
            key: "t:1".into(),
            kind: DetailKind::ToolCall,
            name: Some("Bash".into()),
            tool_use_id: Some("1".into()),
            body: "{}".into(),
            is_error: false,
            at: None,
        };
        let mut chunk = Chunk::default();
        for record in [
            call("m1", 5, false),
            tool.clone(),
            call("m1", 40, false),
            call("m1", 12, false),
            call("m2", 1, false),
            call("m1", 99, false),
            call("m1", 7, true),
        ] {
            chunk.push(record);
        }
        // m1 folds while it is the last usage seen; once m2 came between, it is stored
        // again and the writer's upsert keeps the larger count; a subagent's line stays apart.
        assert_eq!(
            outputs(&chunk),
            [("m1", 40), ("m2", 1), ("m1", 99), ("m1", 7)].map(|(m, o)| (m.to_string(), o))
        );
        assert_eq!(chunk.records[1], tool);
    }

    /// Every turn of a stored session in full, as a reader sees it.
    fn memory(store: &crate::store::Store, session: &str) -> Vec<serde_json::Value> {
        let session = store.session(session).unwrap();
        let turns = store.turns(&session).unwrap();
        let full = turns.iter().map(|t| store.turn_detail(&t.code).unwrap());
        full.map(|d| serde_json::to_value(d).unwrap()).collect()
    }

    #[test]
    fn the_next_call_knows_the_lines_read_before() {
        // After a hook's few lines, a backlog read on threads, and a call that found only
        // part of a line: a line whose parent was read by an earlier call is stored at once.
        for (first_answer, split_next) in [
            ("hello".to_string(), false),
            ("hello ".repeat(60_000), false),
            ("hello".to_string(), true),
        ] {
            let turns = read_in_calls(&first_answer, split_next);
            let texts: Vec<&str> = turns[0]["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["text"].as_str().unwrap())
                .collect();
            assert_eq!(texts, ["hi", first_answer.as_str(), "again"]);
        }
    }

    /// Reads a prompt and `first_answer` in one call, then a reply to that answer in a second
    /// (in two, when `split_next`: the first finds half the line); returns the memory.
    fn read_in_calls(first_answer: &str, split_next: bool) -> Vec<serde_json::Value> {
        use crate::home::Home;

        use crate::store::Store;
        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("s1.jsonl");
        // Times far ahead: a line held by mistake would still be waiting at the end.
        let line = |kind: &str, uuid: &str, parent: Option<&str>, message: serde_json::Value| {
            serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent,
                "timestamp": "2999-01-01T00:00:00.000Z", "message": message})
            .to_string()
                + "\n"
        };
        let answer = |id: &str, text: &str| {
            serde_json::json!({"id": id, "role": "assistant",
                "content": [{"type": "text", "text": text}]})
        };
        let read = |store: &mut Store, text: &str| {
            std::fs::write(&transcript, text).unwrap();
            crate::capture::capture_transcript(
                store,
                crate::hosts::claude::HOST,
                "s1",
                &transcript,
            )
            .unwrap();
        };
        let mut store = crate::open_store(&Home::at(dir.path().join("home"))).unwrap();
        let mut text = line(
            "user",
            "u1",
            None,
            serde_json::json!({"role": "user", "content": "hi"}),
        );
        text += &line("assistant", "a1", Some("u1"), answer("m1", first_answer));
        read(&mut store, &text);
        let next = line("assistant", "a2", Some("a1"), answer("m2", "again"));
        if split_next {
            read(&mut store, &(text.clone() + &next[..next.len() / 2]));
        }
        read(&mut store, &(text + &next));
        memory(&store, "s1")
    }

    #[test]
    fn a_backlog_commits_partway_and_a_writer_stopped_after_that_loses_nothing() {
        use crate::home::Home;

        use crate::store::Store;
        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("s1.jsonl");
        let user = |uuid: &str, content: serde_json::Value| {
            serde_json::json!({"type": "user", "uuid": uuid, "cwd": "/p",
                "message": {"role": "user", "content": content}})
            .to_string()
                + "\n"
        };
        // A turn with more tool output than one transaction holds, then a second turn.
        let mut text = user("u1", "read them all".into());
        for i in 0..12 {
            let output = format!("{i}").repeat(1 << 20);
            let result = [serde_json::json!({"type": "tool_result",
                "tool_use_id": format!("t{i}"), "content": output})];
            text += &user(&format!("r{i}"), result.into());
        }
        text += &user("u2", "and now?".into());
        std::fs::write(&transcript, &text).unwrap();
        let capture = |store: &mut Store, commit: bool| {
            let w = store.write().unwrap();
            crate::capture::ingest_transcript(&w, crate::hosts::claude::HOST, "s1", &transcript)
                .unwrap();
            if commit {
                w.commit().unwrap();
            }
        };

        let mut store = crate::open_store(&Home::at(dir.path().join("stopped"))).unwrap();
        // The writer is dropped uncommitted, as if its process were killed at the end.
        capture(&mut store, false);
        let kept = memory(&store, "s1");
        let details = kept[0]["details"].as_array().unwrap().len();
        // Commits come every 8 MiB or sooner, once the lock was held long enough: how much
        // of the backlog was committed depends on the machine's speed, never nothing.
        assert!(details >= 1, "{details} tool results kept");
        assert!(
            kept.len() == 1 || details == 12,
            "the second turn only after the first"
        );
        // The next call goes on from the stored cursor to the same memory as one whole read.
        capture(&mut store, true);
        let mut whole = crate::open_store(&Home::at(dir.path().join("whole"))).unwrap();
        capture(&mut whole, true);
        assert_eq!(memory(&store, "s1"), memory(&whole, "s1"));
        assert_eq!(
            memory(&store, "s1")[0]["details"].as_array().unwrap().len(),
            12
        );
    }

    /// A Claude Code transcript of `turns` turns (prompt, tool call, its output, answer),
    /// chained by parent ids, with text of several byte widths so cuts fall inside characters.
    /// Each line is a second after the one before, as a host writes them: the same words sent
    /// twice are two prompts because they were sent at different times.
    fn chained_transcript(turns: &[(String, String)]) -> String {
        let mut text = String::new();
        let mut parent: Option<String> = None;
        let mut second = 0;
        let mut push = |kind: &str, uuid: String, message: serde_json::Value| {
            let at = format!("2026-11-30T10:{:02}:{:02}.000Z", second / 60, second % 60);
            second += 1;
            text += &(serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent,
                "cwd": "/p", "timestamp": at, "message": message})
            .to_string()
                + "\n");
            parent = Some(uuid);
        };
        for (i, (prompt, answer)) in turns.iter().enumerate() {
            push(
                "user",
                format!("u{i}"),
                serde_json::json!({"role": "user", "content": prompt}),
            );
            push(
                "assistant",
                format!("c{i}"),
                serde_json::json!({"id": format!("m{i}"),
                "role": "assistant", "content": [{"type": "tool_use", "id": format!("t{i}"),
                "name": "Bash", "input": {"command": "ls"}}]}),
            );
            push(
                "user",
                format!("r{i}"),
                serde_json::json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("t{i}"),
                 "content": format!("out {i} {prompt}")}]}),
            );
            push(
                "assistant",
                format!("a{i}"),
                serde_json::json!({"id": format!("n{i}"),
                "role": "assistant", "content": [{"type": "text", "text": answer}]}),
            );
        }
        text
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// However the host's appends and the hook calls interleave (a call may find part of
        /// a line, cut inside a character, or nothing new; a call may be a new process), each
        /// line is stored once, and the memory is the one a single read of the whole file gives.
        #[test]
        fn any_interleaving_of_appends_and_hook_calls_stores_each_line_once(
            turns in proptest::collection::vec(("[a-zé日 ]{1,12}", "[a-z本 ]{1,12}"), 1..5),
            cuts in proptest::collection::vec(0.0f64..1.0, 0..8),
            calls in proptest::collection::vec(0u8..3, 8),
        ) {
            use crate::home::Home;

            let text = chained_transcript(&turns);
            let dir = tempfile::tempdir().unwrap();
            let transcript = dir.path().join("s1.jsonl");
            let home = Home::at(dir.path().join("home"));
            let mut cut_at: Vec<usize> =
                cuts.iter().map(|f| (f * text.len() as f64) as usize).collect();
            cut_at.sort();
            cut_at.push(text.len());
            let mut store = crate::open_store(&home).unwrap();
            for (i, cut) in cut_at.iter().enumerate() {
                std::fs::write(&transcript, &text.as_bytes()[..*cut]).unwrap();
                // 0: one hook call; 1: two in a row; 2: a call by a new process.
                let times = if calls[i % calls.len()] == 1 { 2 } else { 1 };
                if calls[i % calls.len()] == 2 {
                    store = crate::open_store(&home).unwrap();
                }
                for _ in 0..times {
                    crate::capture::capture_transcript(&mut store, crate::hosts::claude::HOST, "s1", &transcript)
                        .unwrap();
                }
            }
            let whole_home = Home::at(dir.path().join("whole"));
            let mut whole = crate::open_store(&whole_home).unwrap();
            crate::capture::capture_transcript(&mut whole, crate::hosts::claude::HOST, "s1", &transcript)
                .unwrap();
            let stored = memory(&store, "s1");
            proptest::prop_assert_eq!(&stored, &memory(&whole, "s1"));
            let prompts: usize = stored.iter().map(|t| t["messages"].as_array().unwrap().len()).sum();
            let details: usize = stored.iter().map(|t| t["details"].as_array().unwrap().len()).sum();
            proptest::prop_assert_eq!(prompts, 2 * turns.len(), "a prompt and an answer a turn");
            proptest::prop_assert_eq!(details, 2 * turns.len(), "a call and its output a turn");
        }
    }
}
