//! Grok: the hooks in a file of Throughline's own (`hooks/throughline.json`, beside the
//! person's), the MCP server in `config.toml` (`[mcp_servers.throughline]`, as Codex), and the
//! `/tl` handoff as a skill (`skills/tl/SKILL.md`). Per project, `<project>/.grok/` holds the
//! hook file and the skill; Grok runs a project's hooks once the folder is trusted.

use std::path::PathBuf;

use crate::grok as host;
use crate::install::hook_groups::{self, spec, HookSpec};
use crate::install::json_file::saved_json;
use crate::install::json_file::JsonFile;
use crate::install::skill::{install_skill, our_skill, uninstall_skill, SKILL};
use crate::install::toml_file::{add_mcp_server, our_mcp_program, remove_mcp_server, TomlFile};
use crate::install::{
    shell_word, Action, InstallError, Installer, Options, Registration, Report, Scope,
};

/// What registering Throughline with this host takes, for its spec.
pub const INSTALLER: Installer = Installer {
    install,
    uninstall,
    inspect,
    config_dir: host::home,
    hooks_object,
    registered: None,
};

/// Timeouts in seconds (Grok's default is 5). A matcher is a regular expression there, and
/// none matches every tool, so no hook has one. Stop is the only event whose answer reaches
/// the model (the memory, once); the others capture.
pub const HOOKS: &[HookSpec] = &[
    spec("SessionStart", false, 10, false),
    spec("UserPromptSubmit", false, 10, false),
    spec("PostToolUse", false, 30, false),
    spec("PostToolUseFailure", false, 30, false),
    spec("Stop", false, 30, false),
    spec("PreCompact", false, 10, false),
    spec("SessionEnd", false, 5, false),
];

/// Throughline's hook file: Grok reads every `*.json` in `hooks/`.
pub const HOOK_FILE: &str = "throughline.json";

/// How the skill is run in Grok.
const COMMAND: &str = "/tl";

struct Files {
    hooks: PathBuf,
    /// Only the user's config.toml registers MCP servers for every project.
    config: Option<PathBuf>,
    skill: PathBuf,
}

fn files(scope: &Scope) -> Result<Files, InstallError> {
    let (dir, user) = match scope {
        Scope::User => (host::home().ok_or(InstallError::NoHome)?, true),
        Scope::Project(root) => (root.join(".grok"), false),
    };
    Ok(Files {
        hooks: dir.join("hooks").join(HOOK_FILE),
        config: user.then(|| dir.join("config.toml")),
        skill: dir.join("skills").join(SKILL).join("SKILL.md"),
    })
}

pub fn hooks_object(program: &str) -> serde_json::Map<String, serde_json::Value> {
    hook_groups::object(HOOKS, host::HOST, program)
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    // Read and check every file before writing any, so a refusal changes nothing.
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let mut config = match &files.config {
        Some(path) => Some(TomlFile::load_for_edit(path, "Grok")?),
        None => None,
    };
    let details = hook_groups::add(&mut hooks, HOOKS, host::HOST, &program)?;
    let mut changes = vec![saved_json(&hooks, details)?];
    changes.push(install_skill(&files.skill, &program, COMMAND)?);
    if let Some(config) = &mut config {
        let details = add_mcp_server(config, &options.binary)?;
        changes.push(config.save(details)?);
    }
    Ok(Report {
        host: host::HOST,
        changes,
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let mut config = match &files.config {
        Some(path) => Some(TomlFile::load_for_edit(path, "Grok")?),
        None => None,
    };
    let details = hook_groups::remove(&mut hooks);
    let mut changes = vec![saved_json(&hooks, details)?];
    changes.push(uninstall_skill(&files.skill, COMMAND)?);
    if let Some(config) = &mut config {
        let details = remove_mcp_server(config);
        changes.push(config.save(details)?);
    }
    // The `hooks/` folder goes when Throughline's file was all it held.
    if changes[0].action == Action::Removed {
        if let Some(dir) = files.hooks.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
    Ok(Report {
        host: host::HOST,
        changes,
    })
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let files = files(scope)?;
    let hooks = JsonFile::load(&files.hooks)?;
    let (registered, missing) = hook_groups::registered(&hooks, HOOKS);
    let mcp_server = match &files.config {
        Some(path) => our_mcp_program(&TomlFile::load(path, "Grok")?),
        None => None,
    };
    Ok(Registration {
        settings: hooks.path().to_path_buf(),
        hooks: registered,
        missing,
        // Grok runs its user hooks always; a project's once the folder is trusted, which it
        // keeps in its own store.
        untrusted: Vec::new(),
        changed: Vec::new(),
        slash_command: our_skill(files.skill),
        mcp_server,
        own_statusline: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_hook_has_a_matcher_grok_would_read_as_a_regular_expression() {
        let object = hooks_object("/usr/bin/throughline");
        for (event, groups) in &object {
            for group in groups.as_array().unwrap() {
                assert!(group.get("matcher").is_none(), "{event}");
                assert_eq!(
                    group["hooks"][0]["command"],
                    "/usr/bin/throughline hook grok"
                );
            }
        }
    }
}
