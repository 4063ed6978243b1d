//! The sample agent reads its hooks from `~/.sample-agent/hooks.json` (Claude Code's `hooks`
//! object), for the user only.

use std::path::PathBuf;

use crate::install::hook_groups::{self, spec, HookSpec};
use crate::install::json_file::{saved_json, JsonFile};
use crate::install::{InstallError, Installer, Options, Registration, Report, Scope};
use crate::sample as host;

/// What registering Throughline with this host takes, for its spec.
pub const INSTALLER: Installer = Installer {
    install,
    uninstall,
    inspect,
    config_dir: host::home,
    hooks_object,
    registered: None,
};

pub const HOOKS: &[HookSpec] = &[
    spec("start", false, 10, false),
    spec("prompt", false, 10, false),
    spec("stop", false, 30, false),
    spec("end", false, 5, false),
];

fn hook_file(scope: &Scope) -> Result<PathBuf, InstallError> {
    match scope {
        Scope::User => Ok(host::home().ok_or(InstallError::NoHome)?.join("hooks.json")),
        Scope::Project(_) => Err(InstallError::UserOnly(super::SPEC.name)),
    }
}

pub fn hooks_object(program: &str) -> serde_json::Map<String, serde_json::Value> {
    hook_groups::object(HOOKS, host::HOST, program)
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let mut hooks = JsonFile::load_for_edit(&hook_file(&options.scope)?)?;
    let program = crate::install::shell_word(&options.binary);
    let details = hook_groups::add(&mut hooks, HOOKS, host::HOST, &program)?;
    Ok(Report {
        host: host::HOST,
        changes: vec![saved_json(&hooks, details)?],
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let mut hooks = JsonFile::load_for_edit(&hook_file(scope)?)?;
    let details = hook_groups::remove(&mut hooks);
    Ok(Report {
        host: host::HOST,
        changes: vec![saved_json(&hooks, details)?],
    })
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let hooks = JsonFile::load(&hook_file(scope)?)?;
    let (registered, missing) = hook_groups::registered(&hooks, HOOKS);
    Ok(Registration {
        settings: hooks.path().to_path_buf(),
        hooks: registered,
        missing,
        untrusted: Vec::new(),
        changed: Vec::new(),
        slash_command: None,
        mcp_server: None,
        own_statusline: None,
    })
}
