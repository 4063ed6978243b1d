//! What the window may ask the app. Each command is a thin call into the library, run off the
//! window's thread (`async`): one that waits for the store (a hook holds it, a search indexes
//! a backlog) or for the bundled CLI would otherwise freeze the window meanwhile.

use tauri::State;
use throughline_engine::config::{Config, Effective};
use throughline_engine::hosts::claude::install::AutoCompact;
use throughline_engine::install::Report;
use throughline_engine::store::{Handoff, Injection};

use throughline_engine::gauge::ContextHistory;
use throughline_engine::model::{Turn, TurnDetail};
use throughline_engine::plan::history::{self, PlanHistory};
use throughline_engine::savings::Savings;
use throughline_engine::window_use::ProjectUse;

use crate::installer::{self, Installation};
use crate::memory::{Forget, ShownHit, StoredSession};
use crate::meter::{self, Snapshot};
use crate::settings::ProjectCapture;
use crate::AppHome;
use throughline_engine::forget::{Forgotten, Preview};

/// The live sessions now; the window also gets every change as a `live-sessions` event.
#[tauri::command(async)]
pub fn live_sessions(home: State<'_, AppHome>) -> Snapshot {
    meter::snapshot(&home.0)
}

/// The plan windows over time: each one's use against its pace, when the recent burn rate
/// reaches the limit, and the limits reached before. Read on request, not with every live
/// update: the history is a file of its own.
#[tauri::command(async)]
pub fn plan_history(home: State<'_, AppHome>) -> PlanHistory {
    history::summary(&home.0, throughline_engine::clock::unix_now())
}

/// Which projects and sessions used the plan's current five-hour window.
#[tauri::command(async)]
pub fn plan_window_use(home: State<'_, AppHome>) -> Result<Vec<ProjectUse>, String> {
    meter::window_use(&home.0)
}

/// A problem reported from the tray while the window was closed, shown once.
#[tauri::command]
pub fn pending_problem(pending: State<'_, crate::PendingProblem>) -> Option<String> {
    pending.take()
}

/// Hands the session's memory to the next new chat of its project (what `/tl` does).
#[tauri::command(async)]
pub fn offer_handoff(home: State<'_, AppHome>, session_id: String) -> Result<Handoff, String> {
    crate::handoff::offer(&home.0, &session_id)
}

/// Withdraws the handoff waiting in the session's project (what `/tl cancel` does).
#[tauri::command(async)]
pub fn cancel_handoff(home: State<'_, AppHome>, session_id: String) -> Result<(), String> {
    crate::handoff::cancel(&home.0, &session_id)
}

/// The injection log, newest first.
#[tauri::command(async)]
pub fn injections(home: State<'_, AppHome>) -> Result<Vec<Injection>, String> {
    crate::injections::recent(&home.0)
}

/// What the memories handed on in the last week cost (their tokens) and saved (the context
/// the requests after them did not carry).
#[tauri::command(async)]
pub fn memory_savings(home: State<'_, AppHome>) -> Result<Savings, String> {
    crate::injections::savings(&home.0)
}

/// The settings in force and where each comes from.
#[tauri::command(async)]
pub fn settings(home: State<'_, AppHome>) -> Effective {
    crate::settings::current(&home.0)
}

/// Saves the settings; returns them as now in force.
#[tauri::command(async)]
pub fn save_settings(home: State<'_, AppHome>, config: Config) -> Result<Effective, String> {
    crate::settings::save(&home.0, &config)
}

/// The projects in the store and whether each is captured.
#[tauri::command(async)]
pub fn projects(home: State<'_, AppHome>) -> Result<Vec<ProjectCapture>, String> {
    crate::settings::projects(&home.0)
}

/// Claude Code's auto-compact threshold, from its settings.
#[tauri::command(async)]
pub fn autocompact() -> Result<AutoCompact, String> {
    crate::settings::autocompact()
}

/// Writes the auto-compact threshold into Claude Code's settings (`None`: the client's default).
#[tauri::command(async)]
pub fn set_autocompact(percent: Option<u8>) -> Result<AutoCompact, String> {
    crate::settings::set_autocompact(percent)
}

// Memory: every stored session, search, a turn in full, and what a handoff would give.

/// Every stored session, most recently active first.
#[tauri::command(async)]
pub fn stored_sessions(home: State<'_, AppHome>) -> Result<Vec<StoredSession>, String> {
    crate::memory::sessions(&home.0)
}

/// A session's turns, the conversation verbatim.
#[tauri::command(async)]
pub fn session_turns(home: State<'_, AppHome>, session_id: String) -> Result<Vec<Turn>, String> {
    crate::memory::turns(&home.0, &session_id)
}

/// A session's context over its requests, for its chart; none before the store exists.
#[tauri::command(async)]
pub fn session_context(
    home: State<'_, AppHome>,
    session_id: String,
) -> Result<Option<ContextHistory>, String> {
    crate::memory::context(&home.0, &session_id)
}

/// One turn in full, with its tool calls and their output.
#[tauri::command(async)]
pub fn turn_detail(home: State<'_, AppHome>, code: String) -> Result<TurnDetail, String> {
    crate::memory::turn(&home.0, &code)
}

/// The library's search; every project unless one is named.
#[tauri::command(async)]
pub fn search(
    home: State<'_, AppHome>,
    query: String,
    project: Option<String>,
) -> Result<Vec<ShownHit>, String> {
    crate::memory::search(&home.0, &query, project)
}

/// What the next new chat would receive if the session were handed off now.
#[tauri::command(async)]
pub fn handoff_preview(
    home: State<'_, AppHome>,
    session_id: String,
) -> Result<Option<String>, String> {
    crate::memory::preview(&home.0, &session_id)
}

/// What forgetting a turn, a session or a project would remove; the window asks first.
#[tauri::command(async)]
pub fn forget_preview(home: State<'_, AppHome>, what: Forget) -> Result<Preview, String> {
    crate::memory::forget_preview(&home.0, &what)
}

/// Forgets a turn, a session or a project, search index included. Async, so a large scope
/// runs off the window's thread.
#[tauri::command]
pub async fn forget(home: State<'_, AppHome>, what: Forget) -> Result<Forgotten, String> {
    crate::memory::forget(&home.0, &what)
}

/// The event an import sends as it goes; its payload is a `throughline_engine::import::Progress`.
pub const IMPORT_PROGRESS: &str = "import-progress";

/// Imports every past session on disk, sending `import-progress` as it goes. Async, so the
/// window stays responsive.
#[tauri::command]
pub async fn import_past_sessions(
    app: tauri::AppHandle,
    home: State<'_, AppHome>,
) -> Result<throughline_engine::import::Imported, String> {
    use tauri::Emitter;
    crate::memory::import_past(&home.0, &mut |at| {
        let _ = app.emit(IMPORT_PROGRESS, at);
    })
}

// Installer: the registration with Claude Code, run with the CLI bundled with the app.

/// Whether the hooks are registered and run the bundled CLI, and the doctor's findings.
#[tauri::command(async)]
pub fn installation(home: State<'_, AppHome>) -> Result<Installation, String> {
    Ok(installer::installation(
        &home.0,
        &installer::bundled_binary()?,
    ))
}

/// Install and Repair: registers the bundled CLI (idempotent), wrapping the person's own
/// statusline when they chose to; returns what changed.
#[tauri::command(async)]
pub fn install_hooks(wrap_statusline: bool) -> Result<Report, String> {
    installer::install(&installer::bundled_binary()?, wrap_statusline)
}

/// Removes exactly what Install added; returns what changed.
#[tauri::command(async)]
pub fn uninstall_hooks() -> Result<Report, String> {
    installer::uninstall()
}
