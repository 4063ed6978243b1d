//! Search over the memory: turns what a person or a model typed into a safe full-text query,
//! runs it through the store and cuts each hit down to a marked snippet with a pointer to the
//! whole entry. The `search` verb and the MCP `search` tool are thin layers over [`search`].

use serde::Serialize;

use crate::clock;
use crate::model::{EntryRef, Layer};
use crate::render::Pointer;
use crate::store::{Matched, Matcher, SearchFilter, Store, StoreError};

/// Characters of context on each side of the first match in a snippet.
const SNIPPET_CONTEXT: usize = 120;
/// Marks around each match in a snippet.
pub const MARK_OPEN: &str = "«";
pub const MARK_CLOSE: &str = "»";
/// Trigram index terms need at least this many characters; shorter words are matched by scan.
const MIN_INDEXED_CHARS: usize = 3;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("nothing to search for: give one or more words (\"quotes\" keep a phrase together)")]
    Empty,
    #[error("--since {0:?} is neither a duration (7d, 12h) nor a date (2026-11-30)")]
    Since(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A search as a person or a model asks for it.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub query: String,
    /// Only this project; None searches every project.
    pub project: Option<String>,
    /// Only this session (id or unique prefix).
    pub session: Option<String>,
    pub layer: Option<Layer>,
    pub tool: Option<String>,
    /// A duration back from now (`7d`, `12h`) or a date / RFC 3339 time.
    pub since: Option<String>,
    pub limit: u32,
}

/// One search result.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    #[serde(flatten)]
    pub entry: EntryRef,
    /// The entry around its first match, matches between « and ».
    pub snippet: String,
    /// Characters of the whole entry.
    pub chars: usize,
    /// Lower is better.
    pub score: f64,
}

/// The user's words as search terms: whitespace separates terms, a `"quoted phrase"` is one
/// term, and every other character (quotes included) is literal.
pub fn terms(query: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = query.trim_start();
    while !rest.is_empty() {
        let phrase = rest.strip_prefix('"').and_then(|after| {
            after
                .find('"')
                .map(|end| (&after[..end], &after[end + 1..]))
        });
        let (term, next) = match phrase {
            Some(found) => found,
            None => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        if !term.trim().is_empty() {
            out.push(term.to_string());
        }
        rest = next.trim_start();
    }
    out
}

/// The FTS5 expression for the terms the index can answer: each one a quoted string (so no
/// word of the user's is read as an operator), all of them required. None when every term is
/// too short for the trigram index.
pub fn fts_expression(terms: &[String]) -> Option<String> {
    let quoted: Vec<String> = terms
        .iter()
        .filter(|t| is_indexed(t))
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" "))
}

fn is_indexed(term: &str) -> bool {
    term.chars().count() >= MIN_INDEXED_CHARS
}

/// Runs a search: indexed terms through FTS5 (BM25 weighted by recency), shorter terms as
/// substring filters, or, when no term is long enough, a scan of the most recent entries.
pub fn search(store: &Store, request: &Request) -> Result<Vec<Hit>, SearchError> {
    let terms = terms(&request.query);
    if terms.is_empty() {
        return Err(SearchError::Empty);
    }
    let fts = fts_expression(&terms);
    let contains: Vec<String> = terms
        .iter()
        .filter(|t| !is_indexed(t))
        .map(|t| t.to_ascii_lowercase())
        .collect();
    let session = match &request.session {
        Some(id) => Some(store.session(id)?.id),
        None => None,
    };
    let now = clock::now();
    let since = request
        .since
        .as_deref()
        .map(|s| since_time(s, &now))
        .transpose()?;
    let filter = SearchFilter {
        project: request.project.clone(),
        session,
        layer: request.layer,
        tool: request.tool.clone(),
        since,
        now,
        limit: request.limit,
    };
    let matcher = Matcher {
        fts: fts.as_deref(),
        contains: &contains,
    };
    store.index_pending()?;
    let found = store.search(&matcher, &filter)?;
    Ok(found.into_iter().map(|m| hit(m, &terms)).collect())
}

fn hit(m: Matched, terms: &[String]) -> Hit {
    Hit {
        snippet: snippet(&m.text, terms),
        chars: m.text.chars().count(),
        entry: m.entry,
        score: m.score,
    }
}

/// `7d`, `12h`, `30min` back from `now`, or a date or time given as is.
fn since_time(since: &str, now: &str) -> Result<String, SearchError> {
    let bad = || SearchError::Since(since.to_string());
    if let Ok(ago) = humantime::parse_duration(since) {
        let now = humantime::parse_rfc3339_weak(now.trim_end_matches('Z')).map_err(|_| bad())?;
        let then = now.checked_sub(ago).ok_or_else(bad)?;
        return Ok(humantime::format_rfc3339_millis(then).to_string());
    }
    let as_time = if since.len() == 10 {
        format!("{since}T00:00:00")
    } else {
        since.trim_end_matches('Z').to_string()
    };
    humantime::parse_rfc3339_weak(&as_time).map_err(|_| bad())?;
    Ok(since.to_string())
}

/// Where `needle` first occurs in `hay` at or after byte `from`, ignoring case.
fn find_ignoring_case(hay: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    let folded = |s: &str| {
        s.chars()
            .flat_map(char::to_lowercase)
            .collect::<Vec<char>>()
    };
    let needle = folded(needle);
    let first = *needle.first()?;
    for (start, c) in hay[from..].char_indices() {
        if !c.to_lowercase().any(|l| l == first) {
            continue;
        }
        let start = from + start;
        let mut want = needle.iter();
        let mut end = start;
        let mut matched = true;
        'chars: for (i, c) in hay[start..].char_indices() {
            for l in c.to_lowercase() {
                match want.next() {
                    Some(w) if *w == l => {}
                    Some(_) => {
                        matched = false;
                        break 'chars;
                    }
                    None => break 'chars,
                }
            }
            end = start + i + c.len_utf8();
            if want.len() == 0 {
                break;
            }
        }
        if matched && want.len() == 0 {
            return Some((start, end));
        }
    }
    None
}

/// The text around the first match of any term, on one line, each match marked.
pub fn snippet(text: &str, terms: &[String]) -> String {
    let first = terms
        .iter()
        .filter_map(|t| find_ignoring_case(text, t, 0))
        .min_by_key(|(start, _)| *start);
    let (start, end) = first.unwrap_or((0, 0));
    let from = floor_chars_back(text, start, SNIPPET_CONTEXT);
    let to = ceil_chars_forward(text, end, SNIPPET_CONTEXT);
    let window = &text[from..to];
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let mut at = 0;
    while at < window.len() {
        let next = terms
            .iter()
            .filter_map(|t| find_ignoring_case(window, t, at))
            .min_by_key(|(s, e)| (*s, std::cmp::Reverse(*e)));
        let Some((s, e)) = next else { break };
        out.push_str(&window[at..s]);
        out.push_str(MARK_OPEN);
        out.push_str(&window[s..e]);
        out.push_str(MARK_CLOSE);
        at = e;
    }
    out.push_str(&window[at..]);
    if to < text.len() {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn floor_chars_back(text: &str, byte: usize, chars: usize) -> usize {
    text[..byte]
        .char_indices()
        .rev()
        .nth(chars.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(0)
}

fn ceil_chars_forward(text: &str, byte: usize, chars: usize) -> usize {
    text[byte..]
        .char_indices()
        .nth(chars)
        .map(|(i, _)| byte + i)
        .unwrap_or(text.len())
}

impl Hit {
    /// Which part of the turn holds the hit: `("tool", N)`, `("item", N)` or the conversation.
    fn part(&self) -> Option<(&'static str, u32)> {
        let e = &self.entry;
        match (e.tool_index, e.item, e.layer) {
            (Some(n), _, _) => Some(("tool", n)),
            (None, Some(n), Layer::L3) => Some(("item", n)),
            _ => None,
        }
    }

    /// Where to get the whole entry.
    pub fn pointer(&self, style: Pointer) -> String {
        style.detail(&self.entry.turn, self.part())
    }

    /// Three lines: where the hit is, its snippet, and how to get the whole entry.
    pub fn render(&self, style: Pointer) -> String {
        let e = &self.entry;
        let who = match &e.tool {
            Some(tool) => format!("{} {tool}", e.role),
            None => e.role.clone(),
        };
        let at =
            e.at.as_deref()
                .map(|a| a.get(..16).unwrap_or(a).replace('T', " "))
                .unwrap_or_default();
        format!(
            "turn {}  {}  session {}  {}\n  {}\n  more ({} chars): {}",
            e.turn,
            at,
            e.session_id.get(..8).unwrap_or(&e.session_id),
            who,
            self.snippet,
            self.chars,
            self.pointer(style)
        )
    }
}

#[cfg(test)]
mod tests;
