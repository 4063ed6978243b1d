//! What the window may ask the app. Each command is a thin call into the library.

use tauri::State;
use throughline::store::Handoff;

use crate::meter::{self, Snapshot};
use crate::AppHome;

/// The live sessions now; the window also gets every change as a `live-sessions` event.
#[tauri::command]
pub fn live_sessions(home: State<'_, AppHome>) -> Snapshot {
    meter::snapshot(&home.0)
}

/// Hands the session's memory to the next new chat of its project (what `/tl` does).
#[tauri::command]
pub fn offer_handoff(home: State<'_, AppHome>, session_id: String) -> Result<Handoff, String> {
    crate::handoff::offer(&home.0, &session_id)
}

/// Withdraws the handoff waiting in the session's project (what `/tl cancel` does).
#[tauri::command]
pub fn cancel_handoff(home: State<'_, AppHome>, session_id: String) -> Result<(), String> {
    crate::handoff::cancel(&home.0, &session_id)
}
