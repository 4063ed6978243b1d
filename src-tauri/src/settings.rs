//! Settings: Throughline's own, kept by the library (`config.json`, each value overridable from
//! the environment; the window shows where each value comes from), the projects whose capture
//! can be switched, and Claude Code's auto-compact threshold in its `settings.json`.

use serde::Serialize;
use throughline_engine::config::{self, Config, Effective};
use throughline_engine::home::Home;
use throughline_engine::hosts::claude::install::{self as claude, AutoCompact};
use throughline_engine::install::Scope;
use throughline_engine::store::StoreError;

use crate::meter::explain;

pub fn current(home: &Home) -> Effective {
    config::load(home)
}

fn cannot_save(home: &Home, e: std::io::Error) -> String {
    format!(
        "Cannot save the settings in {}: {e}. Check that the folder exists and is writable.",
        home.dir().display()
    )
}

/// Saves what `config` changes and returns the settings now in force.
pub fn save(home: &Home, config: &Config) -> Result<Effective, String> {
    config::save_changes(home, config).map_err(|e| cannot_save(home, e))
}

/// Pauses or resumes capture (the tray's *Pause capture*).
pub fn set_paused(home: &Home, paused: bool) -> Result<Effective, String> {
    config::update(home, |c| c.pause_capture = paused).map_err(|e| cannot_save(home, e))
}

/// A project folder and whether hooks capture its sessions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProjectCapture {
    pub project: String,
    /// Sessions stored so far.
    pub sessions: u64,
    /// The folder with capture off that holds the project (the project itself, or a folder it
    /// is in); `None` while it is captured.
    pub off_by: Option<String>,
}

/// The projects in the store and the folders with capture off, most recently active first.
pub fn projects(home: &Home) -> Result<Vec<ProjectCapture>, String> {
    let config = config::load(home).config;
    let stored = match crate::meter::open(home) {
        Ok(store) => store.projects().map_err(|e| explain(&e))?,
        Err(StoreError::Missing(_)) => Vec::new(),
        Err(e) => return Err(explain(&e)),
    };
    let mut projects: Vec<ProjectCapture> = stored
        .into_iter()
        .map(|p| ProjectCapture {
            off_by: config.capture_off_by(&p.project).map(String::from),
            project: p.project,
            sessions: p.sessions,
        })
        .collect();
    for folder in &config.capture_off {
        if !projects.iter().any(|p| &p.project == folder) {
            projects.push(ProjectCapture {
                project: folder.clone(),
                sessions: 0,
                off_by: Some(folder.clone()),
            });
        }
    }
    Ok(projects)
}

/// The threshold Claude Code compacts at, as its user settings say.
pub fn autocompact() -> Result<AutoCompact, String> {
    claude::autocompact(&Scope::User).map_err(|e| e.to_string())
}

/// Writes the threshold (or with `None` removes it) and returns it as now set.
pub fn set_autocompact(percent: Option<u8>) -> Result<AutoCompact, String> {
    claude::set_autocompact(&Scope::User, percent).map_err(|e| e.to_string())?;
    autocompact()
}
