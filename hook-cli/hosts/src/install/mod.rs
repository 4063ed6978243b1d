//! Registering Throughline with a host: its hooks, its slash command, its MCP server and a
//! statusline. The CLI (`install`, `uninstall`, `doctor`) and the tray app call this same
//! code. Each host's `install.rs` does it for that host; the pieces they share are here
//! (`json_file`, `hook_groups`, `mcp_json`, `toml_file`, `skill`, `slash_command`).
//!
//! Throughline's own entries are recognised by their command (the word `throughline` and
//! ` hook `), not by an exact path, so a binary that moved is repaired instead of duplicated.

pub(crate) mod hook_groups;
pub(crate) mod json_file;
pub(crate) mod mcp_json;
pub(crate) mod skill;
pub(crate) mod slash_command;
pub(crate) mod toml_file;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use json_file::backup_path;

use throughline_core::model::Host;

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(
        "{0} has comments (JSONC); Throughline only edits plain JSON, so nothing was changed. \
         Remove the comments, or add the hooks by hand (`throughline install --print` shows them)"
    )]
    Commented(PathBuf),
    #[error(
        "{path} is not valid JSON ({reason}); nothing was changed. Fix the file and run again"
    )]
    NotJson { path: PathBuf, reason: String },
    #[error("{0} is read-only; nothing was changed. Make it writable (chmod u+w) and run again")]
    ReadOnly(PathBuf),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "{path} is not valid TOML ({reason}); nothing was changed. Fix the file and run again"
    )]
    NotToml { path: PathBuf, reason: String },
    #[error("{0} reads its hooks for the user only; install without --project")]
    UserOnly(&'static str),
    #[error("no home folder for this user; set HOME")]
    NoHome,
    #[error("an auto-compact threshold of {0}% is not one Claude Code accepts; choose a whole percent from 1 to 100")]
    Threshold(u8),
}

/// Where to register: for every project of this user, or for one project only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    User,
    Project(PathBuf),
}

#[derive(Debug, Clone)]
pub struct Options {
    pub scope: Scope,
    /// The absolute path hooks run (see [`current_binary`]).
    pub binary: PathBuf,
    /// Set Throughline's statusline when the person has none.
    pub statusline: bool,
    /// Wrap the person's own statusline: Throughline records the plan usage Claude Code gives
    /// it, then runs theirs with the same input and shows its line as before.
    pub wrap_statusline: bool,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Unchanged,
    Created,
    Updated,
    Removed,
    /// Left alone because it belongs to the person (e.g. their own statusline).
    Kept,
}

#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub path: PathBuf,
    pub action: Action,
    /// What was added, repaired, removed or kept, one short phrase each.
    pub details: Vec<String>,
    /// The previous version of the file, when it was changed.
    pub backup: Option<PathBuf>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub host: Host,
    pub changes: Vec<Change>,
}

impl Report {
    pub fn changed(&self) -> bool {
        self.changes
            .iter()
            .any(|c| !matches!(c.action, Action::Unchanged | Action::Kept))
    }
}

/// One hook found in a host's settings that runs Throughline.
#[derive(Debug, Clone, Serialize)]
pub struct RegisteredHook {
    pub event: String,
    pub command: String,
    /// The binary the command runs, when it can be read from the command.
    pub binary: Option<PathBuf>,
}

/// What a host's settings hold of Throughline (for `doctor`).
#[derive(Debug, Clone, Serialize)]
pub struct Registration {
    pub settings: PathBuf,
    pub hooks: Vec<RegisteredHook>,
    /// Events Throughline needs that have no Throughline hook.
    pub missing: Vec<String>,
    /// Events whose Throughline hook the host will not run until the person trusts it.
    pub untrusted: Vec<String>,
    /// Events whose Throughline hook changed since the person trusted it: the host skips it
    /// until it is trusted again.
    pub changed: Vec<String>,
    /// Throughline's slash command file, when it is in place.
    pub slash_command: Option<PathBuf>,
    /// The program the host starts as Throughline's MCP server, when it is registered.
    pub mcp_server: Option<PathBuf>,
    /// Claude Code: the person's own statusLine, which install keeps or, on request, wraps.
    pub own_statusline: Option<OwnStatusline>,
}

/// A statusLine of the person's own in Claude Code's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OwnStatusline {
    /// Their command, as they wrote it.
    pub command: String,
    /// Whether Throughline's statusline runs around it, recording the plan limits Claude Code
    /// gives the statusline (uninstall puts theirs back). Unwrapped, those go unrecorded.
    pub wrapped: bool,
}

/// How a host is registered, as its `install.rs` does it: the host's [`Spec`](crate::Spec)
/// holds one.
pub struct Installer {
    pub install: fn(&Options) -> Result<Report, InstallError>,
    pub uninstall: fn(&Scope) -> Result<Report, InstallError>,
    pub inspect: fn(&Scope) -> Result<Registration, InstallError>,
    /// The folder the host keeps its user settings in (`~/.claude`, `~/.codex`).
    pub config_dir: fn() -> Option<PathBuf>,
    /// The `hooks` object the host's settings get, for adding by hand.
    pub hooks_object: fn(program: &str) -> serde_json::Map<String, serde_json::Value>,
    /// Whether Throughline's hooks are in the host's own hook file for the user, where
    /// [`inspect`] finding hooks does not say so (it also reads other hosts' files).
    pub registered: Option<fn() -> bool>,
}

fn installer(host: Host) -> &'static Installer {
    &crate::agent(host).spec().installer
}

pub fn install(host: Host, options: &Options) -> Result<Report, InstallError> {
    (installer(host).install)(options)
}

pub fn uninstall(host: Host, scope: &Scope) -> Result<Report, InstallError> {
    (installer(host).uninstall)(scope)
}

pub fn inspect(host: Host, scope: &Scope) -> Result<Registration, InstallError> {
    (installer(host).inspect)(scope)
}

/// Whether Throughline's hooks are in `host`'s own hook file for the user: a host that also
/// runs other hosts' hook files (Cursor runs Claude Code's; Grok runs Claude Code's and
/// Cursor's) then reaches Throughline through its own, and the others' calls are left to it.
/// A cheap read.
pub fn registered(host: Host) -> bool {
    match installer(host).registered {
        Some(registered) => registered(),
        None => inspect(host, &Scope::User).is_ok_and(|r| !r.hooks.is_empty()),
    }
}

/// The folder a host keeps its user settings in (`~/.claude`, `~/.codex`).
pub fn config_dir(host: Host) -> Option<PathBuf> {
    (installer(host).config_dir)()
}

/// The `hooks` object a host's settings get, for adding by hand.
pub fn hooks_object(host: Host, program: &str) -> serde_json::Map<String, serde_json::Value> {
    (installer(host).hooks_object)(program)
}

/// The running binary, absolute and with links resolved: what hooks must call.
pub fn current_binary() -> io::Result<PathBuf> {
    std::env::current_exe()?.canonicalize()
}

/// A hook command that runs Throughline, whichever binary and host it names.
pub fn is_throughline_hook(command: &str) -> bool {
    command.contains("throughline") && command.contains(" hook ")
}

/// The binary as one shell word, quoted when it needs it.
pub fn shell_word(binary: &Path) -> String {
    shell_words::quote(&binary.to_string_lossy()).into_owned()
}

/// `<binary> <args>` for a shell.
pub fn command_line(binary: &Path, args: &str) -> String {
    format!("{} {args}", shell_word(binary))
}

/// The program a command line runs.
pub fn program_of(command: &str) -> Option<PathBuf> {
    shell_words::split(command)
        .ok()?
        .into_iter()
        .next()
        .map(PathBuf::from)
}

pub(crate) fn change(path: &Path, action: Action, details: Vec<String>) -> Change {
    Change {
        path: path.to_path_buf(),
        action,
        details,
        backup: None,
    }
}

pub(crate) fn remove(path: &Path) -> Result<(), InstallError> {
    fs::remove_file(path).map_err(|source| InstallError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_quote_paths_that_need_it_and_read_back() {
        let plain = command_line(Path::new("/usr/bin/throughline"), "hook claude");
        assert_eq!(plain, "/usr/bin/throughline hook claude");
        let spaced = command_line(Path::new("/opt/my tools/throughline"), "hook claude");
        assert_eq!(spaced, "'/opt/my tools/throughline' hook claude");
        assert_eq!(
            program_of(&spaced).unwrap(),
            Path::new("/opt/my tools/throughline")
        );
        assert!(is_throughline_hook(&spaced));
        assert!(!is_throughline_hook("/usr/bin/throughline statusline"));
        assert!(!is_throughline_hook("my-hook.sh"));
    }
}
