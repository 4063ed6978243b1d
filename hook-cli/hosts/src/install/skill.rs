//! The handoff skill (`skills/tl/SKILL.md`) of Codex and Grok: installed unless the person has
//! their own there, removed with its folder only when it is Throughline's.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::json_file::{create_folders, write_atomically};
use super::{change, remove, Action, Change, InstallError};

/// The skill's name: `$tl` in Codex, `/tl` in Grok.
pub const SKILL: &str = "tl";

/// The skill file. The UserPromptSubmit hook answers `$tl` itself and blocks the prompt, so
/// no request is made; without the hook, the model runs the handoff.
pub fn skill(program: &str) -> String {
    format!(
        "---\n\
         name: {SKILL}\n\
         description: Hand this session to the next new chat in this project (Throughline)\n\
         ---\n\
         Run `{program} handoff` in the project folder, then tell the person in one sentence \
         that the next new chat in this project will start with this session's memory.\n"
    )
}

fn is_our_skill(text: &str) -> bool {
    text.contains("throughline") && text.contains(" handoff")
}

/// The skill file at `path`, when it is Throughline's.
pub(crate) fn our_skill(path: PathBuf) -> Option<PathBuf> {
    fs::read_to_string(&path)
        .is_ok_and(|text| is_our_skill(&text))
        .then_some(path)
}

/// The handoff skill at `path`, run in the host as `command` (`$tl`, `/tl`).
pub(crate) fn install_skill(
    path: &Path,
    program: &str,
    command: &str,
) -> Result<Change, InstallError> {
    let wanted = skill(program);
    let io_err = |source| InstallError::Io {
        path: path.to_path_buf(),
        source,
    };
    let details = |d: &str| vec![d.to_string()];
    match fs::read_to_string(path) {
        Ok(text) if text == wanted => Ok(change(path, Action::Unchanged, Vec::new())),
        Ok(text) if !is_our_skill(&text) => Ok(change(
            path,
            Action::Kept,
            details("kept your own tl skill; Throughline's handoff is `throughline handoff`"),
        )),
        Ok(_) => {
            write_atomically(path, wanted.as_bytes())?;
            Ok(change(
                path,
                Action::Updated,
                vec![format!("repointed {command} at this binary")],
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            create_folders(path.parent().expect("a skill file has a folder")).map_err(io_err)?;
            write_atomically(path, wanted.as_bytes())?;
            Ok(change(
                path,
                Action::Created,
                vec![format!("added the {command} handoff skill")],
            ))
        }
        Err(e) => Err(io_err(e)),
    }
}

pub(crate) fn uninstall_skill(path: &Path, command: &str) -> Result<Change, InstallError> {
    match fs::read_to_string(path) {
        Ok(text) if is_our_skill(&text) => {
            remove(path)?;
            // The skill's folder goes, and `skills/` too when the skill was all it held.
            if let Some(dir) = path.parent() {
                let _ = fs::remove_dir(dir);
                if let Some(skills) = dir.parent() {
                    let _ = fs::remove_dir(skills);
                }
            }
            Ok(change(
                path,
                Action::Removed,
                vec![format!("removed the {command} skill")],
            ))
        }
        _ => Ok(change(path, Action::Unchanged, Vec::new())),
    }
}
