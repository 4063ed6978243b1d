//! What the window may ask the app. Each command is a thin call into the library.

use tauri::State;

use crate::meter::{self, Snapshot};
use crate::AppHome;

/// The live sessions now; the window also gets every change as a `live-sessions` event.
#[tauri::command]
pub fn live_sessions(home: State<'_, AppHome>) -> Snapshot {
    meter::snapshot(&home.0)
}
