//! One-click baton handoff from the tray or the window: the same library calls as `/tl` and
//! `/tl cancel`, so the app and the CLI cannot disagree about what a handoff is.

use throughline_engine::config;
use throughline_engine::handoff;
use throughline_engine::home::Home;
use throughline_engine::store::Handoff;

use crate::meter::explain;

/// Offers `session_id`'s memory to the next new chat of its project.
pub fn offer(home: &Home, session_id: &str) -> Result<Handoff, String> {
    let mut store = throughline_engine::open_store(home).map_err(|e| explain(&e))?;
    let config = config::load(home).config;
    handoff::offer(&mut store, session_id, &config).map_err(|e| explain(&e))
}

/// Withdraws the handoff waiting in `session_id`'s project.
pub fn cancel(home: &Home, session_id: &str) -> Result<(), String> {
    let mut store = throughline_engine::open_store(home).map_err(|e| explain(&e))?;
    let session = store.session(session_id).map_err(|e| explain(&e))?;
    let project = session.project.unwrap_or_default();
    handoff::cancel(&mut store, &project)
        .map(|_| ())
        .map_err(|e| explain(&e))
}
