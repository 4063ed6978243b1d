//! Gemini CLI: hooks and the MCP server in `settings.json` (Claude Code's `hooks` object and
//! `mcpServers` entry), and the `/tl` handoff as a custom command (`commands/tl.toml`).
//! Per project, `<project>/.gemini/` holds the same two files.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::gemini as host;
use crate::install::hook_groups::{self, spec, HookSpec};
use crate::install::json_file::saved_json;
use crate::install::json_file::JsonFile;
use crate::install::mcp_json::{add_mcp_server, our_mcp_program, remove_mcp_server};
use crate::install::slash_command::{
    install_slash_command, our_slash_command, uninstall_slash_command, SLASH_COMMAND,
};
use crate::install::{shell_word, InstallError, Installer, Options, Registration, Report, Scope};

/// What registering Throughline with this host takes, for its spec.
pub const INSTALLER: Installer = Installer {
    install,
    uninstall,
    inspect,
    config_dir: host::home,
    hooks_object,
    registered: None,
};

/// Timeouts are in milliseconds here (0.61.0 waits 60 s by default). BeforeAgent may inject
/// memory and block `/tl`; AfterTool and AfterAgent capture as the turn goes; SessionEnd sees
/// `/clear`. SessionStart only records the session and its source.
pub const HOOKS: &[HookSpec] = &[
    spec("SessionStart", false, 10_000, false),
    spec("BeforeAgent", false, 10_000, false),
    spec("AfterTool", false, 30_000, false),
    spec("AfterAgent", false, 30_000, false),
    spec("SessionEnd", false, 5_000, false),
];

/// `commands/tl.toml`. The command sends `/tl` (and its argument) as the prompt; the
/// BeforeAgent hook answers it and blocks it, so the model is not asked.
pub fn slash_command(program: &str) -> String {
    format!(
        "# Throughline: the BeforeAgent hook hands this session on and blocks the prompt.\n\
         # Without the hook, `{program} handoff` in the project does the same.\n\
         description = \"Hand this session to the next new chat in this project (Throughline)\"\n\
         prompt = \"/tl {{{{args}}}}\"\n"
    )
}

fn mcp_entry(binary: &std::path::Path) -> Value {
    json!({ "command": binary, "args": ["mcp"] })
}

struct Files {
    settings: PathBuf,
    slash_command: PathBuf,
}

fn files(scope: &Scope) -> Result<Files, InstallError> {
    let dir = match scope {
        Scope::User => host::home().ok_or(InstallError::NoHome)?,
        Scope::Project(root) => root.join(".gemini"),
    };
    Ok(Files {
        settings: dir.join("settings.json"),
        slash_command: dir.join("commands").join(format!("{SLASH_COMMAND}.toml")),
    })
}

pub fn hooks_object(program: &str) -> serde_json::Map<String, Value> {
    hook_groups::object(HOOKS, host::HOST, program)
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    let mut settings = JsonFile::load_for_edit(&files.settings)?;
    let mut details = hook_groups::add(&mut settings, HOOKS, host::HOST, &program)?;
    details.extend(add_mcp_server(
        &mut settings,
        mcp_entry(&options.binary),
        "Gemini CLI",
    )?);
    let mut changes = vec![saved_json(&settings, details)?];
    changes.push(install_slash_command(
        &files.slash_command,
        slash_command(&program),
    )?);
    Ok(Report {
        host: host::HOST,
        changes,
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut settings = JsonFile::load_for_edit(&files.settings)?;
    let mut details = hook_groups::remove(&mut settings);
    details.extend(remove_mcp_server(&mut settings));
    let changes = vec![
        saved_json(&settings, details)?,
        uninstall_slash_command(&files.slash_command)?,
    ];
    Ok(Report {
        host: host::HOST,
        changes,
    })
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let files = files(scope)?;
    let settings = JsonFile::load(&files.settings)?;
    let (hooks, missing) = hook_groups::registered(&settings, HOOKS);
    let slash_command = our_slash_command(files.slash_command);
    let mcp_server = our_mcp_program(&settings.value);
    Ok(Registration {
        settings: settings.path().to_path_buf(),
        hooks,
        missing,
        // Gemini CLI runs every hook in its settings once the folder is trusted.
        untrusted: Vec::new(),
        changed: Vec::new(),
        slash_command,
        mcp_server,
        own_statusline: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_file_sends_tl_with_its_argument() {
        let text = slash_command("/usr/bin/throughline");
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(doc["prompt"].as_str(), Some("/tl {{args}}"));
        assert!(doc["description"].as_str().unwrap().contains("Throughline"));
        assert!(crate::install::slash_command::is_our_slash_command(&text));
    }
}
