//! Search over the memory: turns what a person or a model typed into a safe full-text query,
//! runs it through the store and cuts each hit down to the lines that show the match, exactly
//! as stored, with a pointer to the whole entry. The `search` verb and the MCP `search` tool
//! are thin layers over [`search`].

pub mod excerpt;

use std::collections::hash_map::{Entry, HashMap};

use serde::Serialize;
use xxhash_rust::xxh3::xxh3_64;

use crate::clock;
use crate::model::{DetailKind, EntryRef, Layer};
use crate::store::{
    short_words_query, Index, Matched, Matcher, SearchFilter, Store, StoreError, RANK_WINDOW,
    SCAN_ROWS,
};
pub use excerpt::Excerpt;

/// Trigram index terms need at least this many characters; shorter words go to the short-word
/// index (`store/words.rs`).
const MIN_INDEXED_CHARS: usize = 3;
/// Different terms of a query that are searched. Each costs about as much as the others (the
/// work is linear in their number), so this only bounds what a paste of a whole file costs.
const MAX_TERMS: usize = 1_024;
/// Characters of a term that are searched: longer ones are cut (the cut term still matches
/// where the whole one would, and more).
const MAX_TERM_CHARS: usize = 200;

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
    /// The lines where the query's terms occur closest together, verbatim, with where each
    /// match is.
    pub excerpts: Vec<Excerpt>,
    /// Characters of the whole entry.
    pub chars: usize,
    /// Lines of the whole entry.
    pub lines: usize,
    /// Other entries that show the same (the same text stored twice, a file read again),
    /// left out of the answer.
    pub copies: usize,
    /// The earliest of those, when it is older than the entry shown: where the text (an
    /// error, a line of a file) first appeared.
    pub first_copy: Option<EntryRef>,
    /// The other turns holding those copies, the earliest first, at most [`PLACES_NAMED`].
    pub copied_in: Vec<CopyPlace>,
    /// Lines of the hit's turn holding a word of the query besides those shown: the rest of
    /// this entry and the turn's other entries the search looks at (its layers, tool and
    /// time), each text once. A turn is one hit; this says what else it holds.
    pub more_lines: usize,
    /// Lower is better.
    pub score: f64,
}

/// A turn holding a copy of a hit's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopyPlace {
    pub turn: String,
    pub session_id: String,
}

/// Turns named for the copies of one hit: where an error came back, without a list as long as
/// the answer.
pub const PLACES_NAMED: usize = 4;

/// The hits of a search, and, said plainly, what part of the memory it could not look at.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// One sentence per limit the search ran into; empty when it looked at everything.
    pub partial: Vec<String>,
}

/// The user's words as search terms: whitespace separates terms, a `"quoted phrase"` is one
/// term, and every other character (quotes included) is literal. Control characters separate
/// too: no one searches for them, and SQLite ends an FTS5 string at a NUL.
pub fn terms(query: &str) -> Vec<String> {
    let query: String = query
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
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

/// The terms once each (ignoring case, as every match does), at most [`MAX_TERMS`] of them,
/// each of at most [`MAX_TERM_CHARS`] characters, and what was cut.
fn bounded(mut terms: Vec<String>) -> (Vec<String>, Option<String>) {
    let mut cut = Vec::new();
    let long = terms
        .iter()
        .filter(|t| t.chars().count() > MAX_TERM_CHARS)
        .count();
    if long > 0 {
        let (were, their) = if long == 1 {
            ("was", "its")
        } else {
            ("were", "their")
        };
        cut.push(format!(
            "{} longer than {MAX_TERM_CHARS} characters {were} searched by {their} first \
             {MAX_TERM_CHARS}",
            crate::plural::count(long as u64, "term")
        ));
        for term in &mut terms {
            if let Some((end, _)) = term.char_indices().nth(MAX_TERM_CHARS) {
                term.truncate(end);
            }
        }
    }
    let mut terms = distinct(terms);
    if terms.len() > MAX_TERMS {
        cut.insert(
            0,
            format!(
                "only the first {MAX_TERMS} of the query's {} different terms were searched",
                terms.len()
            ),
        );
        terms.truncate(MAX_TERMS);
    }
    (terms, (!cut.is_empty()).then(|| cut.join("; ")))
}

/// Each term once, the first spelling of it kept: a word a paste says a hundred times is
/// searched, ranked and marked once.
fn distinct(mut terms: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    terms.retain(|t| seen.insert(t.to_lowercase()));
    terms
}

/// The FTS5 expression for the terms the index can answer: each one a quoted string (so no
/// word of the user's is read as an operator), all of them required. None when every term is
/// too short for the trigram index.
pub fn fts_expression(terms: &[String]) -> Option<String> {
    let quoted = quoted(terms);
    (!quoted.is_empty()).then(|| quoted.join(" "))
}

/// The FTS5 expression for entries holding any of the terms the index can answer.
fn fts_any(terms: &[String]) -> Option<String> {
    let quoted = quoted(terms);
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

fn quoted(terms: &[String]) -> Vec<String> {
    terms
        .iter()
        .filter(|t| is_indexed(t))
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect()
}

fn is_indexed(term: &str) -> bool {
    term.chars().count() >= MIN_INDEXED_CHARS
}

/// A term's parts, for a second try when the term as written matches nothing: split at
/// separators (`parse_header`, `config/retry.toml`, `hook-cli::store`), where a lower-case
/// letter meets an upper-case one (`parseHeader`) and where the script changes
/// (`データベース移行` → `データベース`, `移行`). Single letters and short runs of
/// hiragana (particles such as の) are left out; numbers are kept.
pub fn parts(term: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut part = String::new();
    let mut last: Option<char> = None;
    let flush = |part: &mut String, out: &mut Vec<String>| {
        let chars = part.chars().count();
        let particle = part.chars().all(|c| script(c) == Script::Hiragana) && chars < 3;
        let number = part.chars().all(|c| c.is_ascii_digit());
        if chars > 0 && (chars > 1 || number) && !particle {
            out.push(std::mem::take(part));
        }
        part.clear();
    };
    for c in term.chars() {
        if !c.is_alphanumeric() {
            flush(&mut part, &mut out);
            last = None;
            continue;
        }
        if let Some(l) = last {
            if script(l) != script(c) || (l.is_lowercase() && c.is_uppercase()) {
                flush(&mut part, &mut out);
            }
        }
        part.push(c);
        last = Some(c);
    }
    flush(&mut part, &mut out);
    out
}

#[derive(PartialEq, Clone, Copy)]
enum Script {
    Other,
    Hiragana,
    Katakana,
    Han,
    Hangul,
}

fn script(c: char) -> Script {
    match c {
        '\u{3040}'..='\u{309f}' => Script::Hiragana,
        '\u{30a0}'..='\u{30ff}' | '\u{31f0}'..='\u{31ff}' => Script::Katakana,
        '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' => Script::Han,
        '\u{ac00}'..='\u{d7af}' => Script::Hangul,
        _ => Script::Other,
    }
}

/// A run of Chinese, Japanese or Korean longer than an index piece, as its overlapping pieces
/// (`键盘挡住输入框` → `键盘挡`, `盘挡住`, …): written without spaces, a phrase a person
/// remembers differs from the one stored by a particle or a character (`键盘会挡住输入框`),
/// and most of its pieces still meet. Other terms are kept whole.
fn cjk_pieces(term: &str) -> Vec<String> {
    let chars: Vec<char> = term.chars().collect();
    let cjk = chars.iter().all(|c| script(*c) != Script::Other);
    if !cjk || chars.len() <= MIN_INDEXED_CHARS {
        return vec![term.to_string()];
    }
    chars
        .windows(MIN_INDEXED_CHARS)
        .map(|piece| piece.iter().collect())
        .collect()
}

/// Terms shorter than this are not respelled: too many words lie one letter from them.
const MIN_RESPELLED_CHARS: usize = 5;

/// The terms with each misspelt one replaced by the nearest word the memory holds
/// (`kubernetis` → `kubernetes`), or None when no term was respelt. A term's nearest word is
/// found among the entries holding most of its three-character pieces, and counts when it is
/// at most one edit away per four characters of the term.
fn respelled(
    store: &Store,
    terms: &[String],
    filter: &SearchFilter,
) -> Result<Option<Vec<String>>, SearchError> {
    let mut changed = false;
    let mut spelled = Vec::new();
    for term in terms {
        let lower = term.to_lowercase();
        let chars: Vec<char> = lower.chars().collect();
        let spaced = chars.iter().all(|c| script(*c) == Script::Other);
        if !spaced
            || chars.len() < MIN_RESPELLED_CHARS
            || chars.iter().any(|c| !c.is_alphanumeric())
        {
            spelled.push(term.clone());
            continue;
        }
        let pieces: Vec<String> = chars
            .windows(MIN_INDEXED_CHARS)
            .map(|piece| piece.iter().collect())
            .collect();
        let most = search_terms(store, &pieces, filter, 5, Need::Most)?;
        let budget = chars.len() / 4;
        let nearest = most
            .hits
            .iter()
            .flat_map(|hit| hit.excerpts.iter())
            .flat_map(|x| x.text.split(|c: char| !c.is_alphanumeric()))
            .map(str::to_lowercase)
            .filter(|word| *word != lower)
            .map(|word| (edits(&lower, &word), word))
            .filter(|(edits, _)| *edits <= budget)
            .min();
        match nearest {
            Some((_, word)) => {
                changed = true;
                spelled.push(word);
            }
            None => spelled.push(term.clone()),
        }
    }
    Ok(changed.then(|| distinct(spelled)))
}

/// Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Entries asked of the store per hit shown: copies of the same text are shown once, and a
/// file read many times must not take every place.
const CANDIDATES_PER_HIT: u32 = 4;

/// Which entries one try of a search finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Those holding every term.
    Every,
    /// Those holding the most terms, at least half of them: for when none holds every one.
    Most,
}

/// Runs a search: indexed terms through FTS5 (BM25 weighted by recency), shorter terms as
/// substring filters, or, when no term is long enough, a scan of the most recent entries.
/// A query that finds nothing as written is tried again with its terms split into parts, then
/// for the entries holding most of its terms. Entries showing the same lines (the same text
/// stored twice, a file read again) are shown once, the best ranked; a turn is one hit, its
/// best entry, with how many more of its lines hold the words.
pub fn search(store: &Store, request: &Request) -> Result<Found, SearchError> {
    let words = terms(&request.query);
    let phrase = as_phrase(&request.query, &words);
    let (terms, cut) = bounded(words);
    if terms.is_empty() {
        return Err(SearchError::Empty);
    }
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
        limit: request
            .limit
            .saturating_mul(CANDIDATES_PER_HIT)
            .saturating_add(10),
        shown: request.limit,
    };
    let indexed = store.index_pending()?;
    let mut found = match phrase {
        Some(phrase) => phrase_first(store, &phrase, &terms, &filter, request.limit)?,
        None => search_terms(store, &terms, &filter, request.limit, Need::Every)?,
    };
    // The words the hits hold: those of the try that found them.
    let mut searched = terms.clone();
    if found.hits.is_empty() {
        let split = distinct(terms.iter().flat_map(|t| parts(t)).collect());
        if !split.is_empty() && split != terms {
            let parts = search_terms(store, &split, &filter, request.limit, Need::Every)?;
            found = noted(parts, || {
                format!(
                    "nothing holds {} as written; these hold its parts: {}",
                    request.query.trim(),
                    split.join(" ")
                )
            });
            searched = split;
        }
    }
    if found.hits.is_empty() && terms.len() > 1 {
        // A word misremembered or said otherwise must not hide where the rest of them meet.
        found = search_terms(store, &terms, &filter, request.limit, Need::Most)?;
        searched = terms.clone();
    }
    if found.hits.is_empty() {
        if let Some(spelled) = respelled(store, &terms, &filter)? {
            let nearest = search_terms(store, &spelled, &filter, request.limit, Need::Every)?;
            found = noted(nearest, || {
                format!(
                    "nothing holds {}; these hold {}, the nearest words stored",
                    request.query.trim(),
                    spelled.join(" ")
                )
            });
            searched = spelled;
        }
    }
    if found.hits.is_empty() {
        let pieces = distinct(terms.iter().flat_map(|t| cjk_pieces(t)).collect());
        if pieces != terms {
            found = search_terms(store, &pieces, &filter, request.limit, Need::Most)?;
            if !found.hits.is_empty() {
                found.partial[0] = format!(
                    "nothing holds {} as written; these hold most of its pieces",
                    request.query.trim()
                );
            }
            searched = pieces;
        }
    }
    let finder = excerpt::Finder::new(&searched);
    for hit in &mut found.hits {
        hit.more_lines = more_lines(store, hit, &finder, &filter)?;
    }
    found.partial.extend(cut);
    if indexed.behind {
        let waiting = store.unindexed()?;
        found.partial.push(format!(
            "{} stored moments ago {} not searchable yet (another process was writing the \
             memory); search again to include them",
            crate::plural::count(waiting, "entry"),
            if waiting == 1 { "is" } else { "are" }
        ));
    }
    Ok(found)
}

/// `found`, when it found something, with `note` (what was searched instead) first.
fn noted(mut found: Found, note: impl FnOnce() -> String) -> Found {
    if !found.hits.is_empty() {
        found.partial.insert(0, note());
    }
    found
}

/// Several words, none of them quoted, as one phrase: a person who types (or pastes) a line
/// means it as written, as `grep` would read it. None for one word, for a query that quotes
/// its own phrases, and for a phrase too long to search whole.
fn as_phrase(query: &str, words: &[String]) -> Option<String> {
    let phrase = words.join(" ");
    (words.len() > 1 && !query.contains('"') && phrase.chars().count() <= MAX_TERM_CHARS)
        .then_some(phrase)
}

/// The entries holding `phrase` as written first; then, up to `limit`, those holding all its
/// words apart, as a search of the words alone ranks them.
fn phrase_first(
    store: &Store,
    phrase: &str,
    words: &[String],
    filter: &SearchFilter,
    limit: u32,
) -> Result<Found, SearchError> {
    let mut found = search_terms(store, &[phrase.to_string()], filter, limit, Need::Every)?;
    if found.hits.len() >= limit as usize {
        return Ok(found);
    }
    let apart = search_terms(store, words, filter, limit, Need::Every)?;
    // A turn the phrase found already is one hit: what else of it holds the words is counted.
    let more: Vec<Hit> = apart
        .hits
        .into_iter()
        .filter(|hit| {
            !found
                .hits
                .iter()
                .any(|shown| shown.entry.turn == hit.entry.turn)
        })
        .collect();
    let room = limit as usize - found.hits.len();
    found.hits.extend(more.into_iter().take(room));
    for note in apart.partial {
        if !found.partial.contains(&note) {
            found.partial.push(note);
        }
    }
    Ok(found)
}

/// Whether two references name the same stored entry.
fn same_entry(a: &EntryRef, b: &EntryRef) -> bool {
    (&a.turn, a.layer, &a.role, a.tool_index, a.item)
        == (&b.turn, b.layer, &b.role, b.tool_index, b.item)
}

/// Lines of `hit`'s turn holding one of `finder`'s words, besides those the hit shows (see
/// [`Hit::more_lines`]).
fn more_lines(
    store: &Store,
    hit: &Hit,
    finder: &excerpt::Finder,
    filter: &SearchFilter,
) -> Result<usize, SearchError> {
    let mut entries = store.turn_entries(&hit.entry.turn, filter)?;
    // The hit's own entry first: a copy of it in the turn is then left out as the same text.
    entries.sort_by_key(|m| !same_entry(&m.entry, &hit.entry));
    let shown: Vec<usize> = hit.excerpts.iter().map(|x| x.line).collect();
    let mut texts = std::collections::HashSet::new();
    let mut more = 0;
    for m in entries {
        let own = same_entry(&m.entry, &hit.entry);
        let text = shown_text(&m.entry, m.text);
        if texts.insert(xxh3_64(text.as_bytes())) {
            more += finder
                .grep(&text)
                .iter()
                .filter(|(line, _)| !own || !shown.contains(line))
                .count();
        }
    }
    Ok(more)
}

/// One try of a search with these terms.
fn search_terms(
    store: &Store,
    terms: &[String],
    filter: &SearchFilter,
    limit: u32,
    need: Need,
) -> Result<Found, SearchError> {
    let mut fts = match need {
        Need::Every => fts_expression(terms),
        Need::Most => fts_any(terms),
    };
    let mut index = Index::Trigram;
    let mut contains: Vec<String> = terms
        .iter()
        .filter(|t| need == Need::Every && !is_indexed(t))
        .map(|t| t.to_ascii_lowercase())
        .collect();
    if fts.is_none() {
        if need == Need::Most {
            return Ok(Found::default());
        }
        // Every term is short: the short-word index finds the entries holding their pieces,
        // and each whole term is checked in the text.
        let pieces: Option<Vec<String>> = terms.iter().map(|t| short_words_query(t)).collect();
        if let Some(pieces) = pieces {
            fts = Some(pieces.join(" "));
            index = Index::Words;
            contains = terms.iter().map(|t| t.to_ascii_lowercase()).collect();
        }
    }
    let (every_term, any_term) = match (need, index) {
        (Need::Every, Index::Trigram) => (quoted(terms), Vec::new()),
        (Need::Most, Index::Trigram) => (Vec::new(), quoted(terms)),
        _ => (Vec::new(), Vec::new()),
    };
    let matcher = Matcher {
        fts: fts.as_deref(),
        index,
        contains: &contains,
        every_term: &every_term,
        any_term: &any_term,
    };
    let (found, coverage) = store.search(&matcher, filter)?;
    let mut partial = Vec::new();
    if let Some((read, total)) = coverage.scanned {
        partial.push(format!(
            "terms without a letter or digit ({}) cannot use an index: only the newest \
             {SCAN_ROWS} entries of each layer were read ({read} of about {total}); add a word \
             to search the whole memory",
            contains.join(" ")
        ));
    }
    if coverage.windowed {
        partial.push(format!(
            "more than {RANK_WINDOW} entries match: only the newest {RANK_WINDOW} of each layer \
             were ranked; add words, --since or --session to narrow the search"
        ));
    }
    let (hits, held) = shown_once(found, terms, limit as usize, need);
    if need == Need::Most && !hits.is_empty() {
        partial.insert(
            0,
            format!(
                "nothing holds all {} words; these hold {held} of them",
                terms.len()
            ),
        );
    }
    Ok(Found { hits, partial })
}

/// The best `limit` hits, one per turn and each text shown once, and how many terms the first
/// one holds. Entries holding more of the terms come first, then those holding more of them as words of
/// their own (`Quasar-4` asked for: `Quasar-47` holds it only in part), then by score; an
/// entry whose text, or whose lines shown, an earlier hit already has counts as a copy of it.
/// When not every term is needed, only the entries holding the most terms are shown, and
/// only if they hold at least half of them.
fn shown_once(
    found: Vec<Matched>,
    terms: &[String],
    limit: usize,
    need: Need,
) -> (Vec<Hit>, usize) {
    let finder = excerpt::Finder::new(terms);
    let mut texts: HashMap<u64, usize> = HashMap::new();
    // ((terms held, of them whole), the entry, the entries holding the same text)
    type Candidate = ((usize, usize), Matched, Vec<EntryRef>);
    let mut candidates: Vec<Candidate> = Vec::new();
    for m in found {
        match texts.entry(xxh3_64(m.text.as_bytes())) {
            Entry::Occupied(first) => candidates[*first.get()].2.push(m.entry),
            Entry::Vacant(slot) => {
                slot.insert(candidates.len());
                candidates.push((finder.find(&m.text).terms_held(), m, Vec::new()));
            }
        }
    }
    // Stable: entries holding as much keep their score order. Among them, what the person and
    // the assistant said comes first (prompts and answers by score: a long prompt that names a
    // word once is not more about it than a short answer), then what tools and the host
    // answered (a file read names a library far more often than the prompt that decides about
    // it), then the inputs the model wrote for its tool calls: JSON that repeats its words.
    candidates.sort_by_key(|(held, m, ..)| {
        let told = match m.entry.layer {
            Layer::L2 => 0,
            Layer::L3 if m.entry.role == DetailKind::ToolCall.as_str() => 2,
            Layer::L3 => 1,
        };
        (std::cmp::Reverse(*held), told)
    });
    let most = candidates.first().map_or(0, |((held, _), ..)| *held);
    if need == Need::Most {
        if 2 * most < terms.len() {
            candidates.clear();
        }
        candidates.retain(|((held, _), ..)| *held == most);
    }
    let mut shown: HashMap<u64, usize> = HashMap::new();
    let mut hits: Vec<Hit> = Vec::new();
    // A turn is one hit, its best entry: a turn whose prompt, answer and tool calls all hold
    // the words would fill the answer alone. What else it holds is counted (`more_lines`).
    let mut turns: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Every copy of a shown hit's text or lines, to be named once the answer is complete.
    let mut copies_of: Vec<Vec<EntryRef>> = Vec::new();
    for (_, m, copies) in candidates {
        if hits.len() == limit {
            // Excerpts are the costly part: none for entries that cannot be shown.
            break;
        }
        if turns.contains(&m.entry.turn) {
            continue;
        }
        let hit = hit(m, &finder);
        let lines: Vec<&str> = hit.excerpts.iter().map(|x| x.text.as_str()).collect();
        match shown.entry(xxh3_64(lines.join("\n").as_bytes())) {
            Entry::Occupied(first) => {
                let held = &mut copies_of[*first.get()];
                held.push(hit.entry);
                held.extend(copies);
            }
            Entry::Vacant(slot) => {
                slot.insert(hits.len());
                turns.insert(hit.entry.turn.clone());
                hits.push(hit);
                copies_of.push(copies);
            }
        }
    }
    for (hit, copies) in hits.iter_mut().zip(copies_of) {
        name_copies(hit, copies);
    }
    (hits, most)
}

/// Says how many other entries hold `hit`'s text, where it first appeared when that is
/// earlier, and the other turns that hold it, the earliest first.
fn name_copies(hit: &mut Hit, mut copies: Vec<EntryRef>) {
    hit.copies = copies.len();
    // By time, those without one last (as `is_earlier` has them).
    copies.sort_by(|a, b| (a.at.is_none(), &a.at).cmp(&(b.at.is_none(), &b.at)));
    hit.first_copy = copies
        .first()
        .filter(|e| is_earlier(e, &hit.entry))
        .cloned();
    for copy in copies {
        let place = CopyPlace {
            turn: copy.turn,
            session_id: copy.session_id,
        };
        if place.turn != hit.entry.turn && !hit.copied_in.contains(&place) {
            hit.copied_in.push(place);
            if hit.copied_in.len() == PLACES_NAMED {
                break;
            }
        }
    }
}

/// Whether `a` was stored before `b` (an entry without a time is never earlier).
fn is_earlier(a: &EntryRef, b: &EntryRef) -> bool {
    match (&a.at, &b.at) {
        (Some(a), Some(b)) => a < b,
        (Some(_), None) => true,
        _ => false,
    }
}

/// An entry's text as a hit shows it: a tool call as what it was given (`command: cargo
/// test`), not as JSON.
fn shown_text(entry: &EntryRef, text: String) -> String {
    match entry.role == DetailKind::ToolCall.as_str() {
        true => crate::model::readable_input(&text),
        false => text,
    }
}

fn hit(m: Matched, finder: &excerpt::Finder) -> Hit {
    let text = shown_text(&m.entry, m.text);
    Hit {
        copies: 0,
        first_copy: None,
        copied_in: Vec::new(),
        more_lines: 0,
        excerpts: finder.find(&text).excerpts(),
        chars: text.chars().count(),
        lines: excerpt::line_count(&text),
        entry: m.entry,
        score: m.score,
    }
}

/// `7d`, `12h`, `30min` back from `now`, or a date or time given as is.
fn since_time(since: &str, now: &str) -> Result<String, SearchError> {
    let bad = || SearchError::Since(since.to_string());
    if let Ok(ago) = humantime::parse_duration(since) {
        return clock::before(now, ago).ok_or_else(bad);
    }
    let as_time = if since.len() == 10 {
        format!("{since}T00:00:00")
    } else {
        since.trim_end_matches('Z').to_string()
    };
    humantime::parse_rfc3339_weak(&as_time).map_err(|_| bad())?;
    Ok(since.to_string())
}

impl Hit {
    /// Which part of the turn holds the hit: `("tool", N)`, `("item", N)` or the conversation.
    pub fn part(&self) -> Option<(&'static str, u32)> {
        let e = &self.entry;
        match (e.tool_index, e.item, e.layer) {
            (Some(n), _, _) => Some(("tool", n)),
            (None, Some(n), Layer::L3) => Some(("item", n)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod relevance;
#[cfg(test)]
mod tests;
