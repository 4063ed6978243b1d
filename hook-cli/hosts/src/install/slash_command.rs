//! The `/tl` command file of Claude Code and Cursor (`commands/tl.md`) and Gemini CLI
//! (`commands/tl.toml`): installed unless the person has their own there, removed only when it
//! is Throughline's.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::json_file::write_atomically;
use super::{Action, Change, InstallError};

/// The command's name: `/tl`.
pub const SLASH_COMMAND: &str = "tl";

pub(crate) fn is_our_slash_command(text: &str) -> bool {
    text.contains("throughline") && text.contains(" handoff")
}

/// The slash command file at `path`, when it is ours.
pub(crate) fn our_slash_command(path: PathBuf) -> Option<PathBuf> {
    fs::read_to_string(&path)
        .is_ok_and(|text| is_our_slash_command(&text))
        .then_some(path)
}

/// Puts the `/tl` command file `wanted` at `path`, unless the person has their own there.
pub(crate) fn install_slash_command(path: &Path, wanted: String) -> Result<Change, InstallError> {
    let change = |action, details: &[&str]| Change {
        path: path.to_path_buf(),
        action,
        details: details.iter().map(|d| d.to_string()).collect(),
        backup: None,
    };
    let io_err = |source| InstallError::Io {
        path: path.to_path_buf(),
        source,
    };
    match fs::read_to_string(path) {
        Ok(text) if text == wanted => Ok(change(Action::Unchanged, &[])),
        Ok(text) if !is_our_slash_command(&text) => Ok(change(
            Action::Kept,
            &["kept your own /tl command; Throughline's handoff is `throughline handoff`"],
        )),
        Ok(_) => {
            write_atomically(path, wanted.as_bytes())?;
            Ok(change(Action::Updated, &["repointed /tl at this binary"]))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            write_atomically(path, wanted.as_bytes())?;
            Ok(change(Action::Created, &["added the /tl handoff command"]))
        }
        Err(e) => Err(io_err(e)),
    }
}

pub(crate) fn uninstall_slash_command(path: &Path) -> Result<Change, InstallError> {
    let mut change = Change {
        path: path.to_path_buf(),
        action: Action::Unchanged,
        details: Vec::new(),
        backup: None,
    };
    match fs::read_to_string(path) {
        Ok(text) if is_our_slash_command(&text) => {
            fs::remove_file(path).map_err(|source| InstallError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            // The commands folder goes too when /tl was all it held.
            if let Some(dir) = path.parent() {
                let _ = fs::remove_dir(dir);
            }
            change.action = Action::Removed;
            change.details.push("removed the /tl command".into());
        }
        _ => {}
    }
    Ok(change)
}
