//! The Memory view: every stored session, the library's search, a turn in full, and a
//! preview of what a handoff would give the next chat. Reads go through the library's read
//! API; a search indexes what hooks stored since the last one first (a library write).

use serde::{Deserialize, Serialize};
use throughline_engine::config;
use throughline_engine::forget::{self, Forgotten, Preview, Scope};
use throughline_engine::gauge::{self, ContextHistory};
use throughline_engine::handoff;
use throughline_engine::home::Home;
use throughline_engine::hosts;
use throughline_engine::import::{self, ImportError, Imported, Progress};
use throughline_engine::model::{Turn, TurnDetail};
use throughline_engine::render;
use throughline_engine::search::{self, Hit, Request};
use throughline_engine::store::{SessionFilter, Store, StoreError, Trigger};

use crate::meter::{self, explain};

/// One stored session, as the Memory view lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredSession {
    pub session_id: String,
    pub host: &'static str,
    pub project: Option<String>,
    /// The first prompt: which chat this was.
    pub title: Option<String>,
    pub started_at: Option<String>,
    pub last_activity: Option<String>,
    pub ended_at: Option<String>,
    pub turns: u64,
}

/// How many hits a search in the window shows.
const HITS: u32 = 30;

fn reading(home: &Home) -> Result<Option<Store>, String> {
    match meter::open(home) {
        Ok(store) => Ok(Some(store)),
        Err(StoreError::Missing(_)) => Ok(None),
        Err(e) => Err(explain(&e)),
    }
}

/// Every stored session with a prompted turn, most recently active first (the view groups
/// them by project).
pub fn sessions(home: &Home) -> Result<Vec<StoredSession>, String> {
    let Some(store) = reading(home)? else {
        return Ok(Vec::new());
    };
    // A session without a prompted turn has nothing to open or hand on.
    let with_turns = SessionFilter {
        with_turns: true,
        ..SessionFilter::default()
    };
    let all = store.sessions(&with_turns).map_err(|e| explain(&e))?;
    all.into_iter()
        .map(|s| {
            Ok(StoredSession {
                title: store.first_prompt(&s).map_err(|e| explain(&e))?,
                host: hosts::label(s.host),
                session_id: s.session_id,
                project: s.project,
                started_at: s.started_at,
                last_activity: s.last_activity,
                ended_at: s.ended_at,
                turns: s.turns,
            })
        })
        .collect()
}

/// A session's turns in order, the conversation verbatim with a line of detail each.
pub fn turns(home: &Home, session_id: &str) -> Result<Vec<Turn>, String> {
    let Some(store) = reading(home)? else {
        return Ok(Vec::new());
    };
    let session = store.session(session_id).map_err(|e| explain(&e))?;
    store.turns(&session).map_err(|e| explain(&e))
}

/// A session's context over its requests, against where its client compacts it.
pub fn context(home: &Home, session_id: &str) -> Result<Option<ContextHistory>, String> {
    let Some(store) = reading(home)? else {
        return Ok(None);
    };
    let session = store.session(session_id).map_err(|e| explain(&e))?;
    gauge::history(&store, &session, gauge::claude_threshold())
        .map(Some)
        .map_err(|e| explain(&e))
}

/// One turn in full: every tool call with its output, thinking and host entries.
pub fn turn(home: &Home, code: &str) -> Result<TurnDetail, String> {
    let store = meter::open(home).map_err(|e| explain(&e))?;
    store.turn_detail(code).map_err(|e| explain(&e))
}

/// A search hit as the window shows it: the library's hit (a turn, by its best entry) and what
/// else of its turn holds the words, said as the CLI and the MCP tool say it.
#[derive(Debug, Clone, Serialize)]
pub struct ShownHit {
    #[serde(flatten)]
    pub hit: Hit,
    /// "and 3 more lines in this turn"; None when nothing else of it does.
    pub more: Option<String>,
}

/// The library's search over every project (or one), best first, a turn once.
pub fn search(home: &Home, query: &str, project: Option<String>) -> Result<Vec<ShownHit>, String> {
    if reading(home)?.is_none() {
        return Ok(Vec::new());
    }
    // Writable: a search indexes what was captured since the last one.
    let store = throughline_engine::open_store(home).map_err(|e| explain(&e))?;
    let request = Request {
        query: query.to_string(),
        project,
        limit: HITS,
        ..Request::default()
    };
    match search::search(&store, &request) {
        Ok(found) => Ok(found
            .hits
            .into_iter()
            .map(|hit| ShownHit {
                more: render::more_in_turn(&hit),
                hit,
            })
            .collect()),
        Err(search::SearchError::Store(e)) => Err(explain(&e)),
        Err(e) => Err(format!("{e}.")),
    }
}

/// The exact text the next new chat would receive if `session_id` were handed off now: at
/// its start, and where the host takes a second part, with its first prompt.
pub fn preview(home: &Home, session_id: &str) -> Result<Option<String>, String> {
    let store = meter::open(home).map_err(|e| explain(&e))?;
    let config = config::load(home).config;
    handoff::preview(&store, session_id, Trigger::Handoff, &config)
        .map(|built| {
            built.map(|injection| match injection.more {
                Some(more) => format!(
                    "{}\n\n── part 2, given with the first prompt ──\n\n{more}",
                    injection.text
                ),
                None => injection.text,
            })
        })
        .map_err(|e| explain(&e))
}

/// What the person asked to forget, as the window names it.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "lowercase")]
pub enum Forget {
    Turn(String),
    Session(String),
    Project(String),
}

impl Forget {
    fn scope(&self) -> Scope {
        match self {
            Forget::Turn(code) => Scope::Turn(code.clone()),
            Forget::Session(id) => Scope::Session(id.clone()),
            Forget::Project(folder) => Scope::Project(folder.clone()),
        }
    }
}

/// What forgetting `what` would remove, for the window to ask first.
pub fn forget_preview(home: &Home, what: &Forget) -> Result<Preview, String> {
    forget::preview(home, &what.scope()).map_err(|e| explain(&e))
}

/// Removes `what` from the store and the search index: the library's forget, as
/// `throughline forget` runs it.
pub fn forget(home: &Home, what: &Forget) -> Result<Forgotten, String> {
    forget::apply(home, &what.scope()).map_err(|e| explain(&e))
}

/// Reads every transcript of every host already on disk into the memory, as
/// `throughline import` does, telling `progress` how far it is.
pub fn import_past(home: &Home, progress: &mut dyn FnMut(Progress)) -> Result<Imported, String> {
    let mut all = Imported::default();
    for host in hosts::all() {
        // A host that was never used has no transcripts folder: nothing to import from it.
        if !hosts::agent(host)
            .transcripts_dir()
            .is_some_and(|dir| dir.is_dir())
        {
            continue;
        }
        let done = import::import(home, host, None, true, progress).map_err(|e| match e {
            ImportError::Store(e) => explain(&e),
            other => format!(
                "Could not import past sessions: {other}. `throughline doctor` says what is wrong."
            ),
        })?;
        all.transcripts += done.transcripts;
        all.left_alone += done.left_alone;
        all.bytes_read += done.bytes_read;
        all.records += done.records;
        all.problems.extend(done.problems);
    }
    Ok(all)
}
