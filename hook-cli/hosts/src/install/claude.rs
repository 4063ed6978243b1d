//! Claude Code: hooks and the statusline in `settings.json`, the `/tl` slash command in
//! `commands/tl.md`, and the MCP server in `~/.claude.json` (the same entry
//! `claude mcp add --scope user` writes) or, for one project, in its `.mcp.json`.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::hook_groups::{self, spec, HookSpec};
use super::json_file::{JsonFile, Saved};
use super::mcp_json::{add_mcp_server, our_mcp_program, remove_mcp_server};
use super::slash_command::{
    install_slash_command, our_slash_command, uninstall_slash_command, SLASH_COMMAND,
};
use super::{
    backup_path, shell_word, Action, Change, InstallError, Options, Registration, Report, Scope,
};
use crate::claude as host;
use throughline_core::model::Host;

mod autocompact;
pub use autocompact::{
    autocompact, set_autocompact, AutoCompact, AUTOCOMPACT_ENV, WHOLE_WINDOW, WINDOW_KEY,
};

/// SessionStart and UserPromptSubmit may inject memory, so the client must wait for them;
/// PreCompact captures everything before the client compacts; SessionEnd gets little time
/// from the client anyway; the rest only capture.
pub const HOOKS: &[HookSpec] = &[
    spec("SessionStart", false, 10, false),
    spec("UserPromptSubmit", false, 10, false),
    spec("PreToolUse", true, 30, true),
    spec("PostToolUse", true, 30, true),
    spec("PostToolUseFailure", true, 30, true),
    spec("Stop", false, 30, true),
    spec("PreCompact", false, 30, false),
    spec("SessionEnd", false, 5, false),
];

/// The `hooks` object for `program` (a shell word: an absolute path, or `throughline` on PATH).
pub fn hooks_object(program: &str) -> Map<String, Value> {
    hook_groups::object(HOOKS, Host::Claude, program)
}

/// `commands/tl.md`. The UserPromptSubmit hook answers `/tl` itself (and blocks the prompt, so
/// the model is not asked); the file makes the command known to Claude Code, and where the hook
/// is not installed (the plugin without hooks) its `!` line makes the same handoff.
pub fn slash_command(program: &str) -> String {
    format!(
        "---\n\
         description: Hand this session to the next new chat in this project (Throughline)\n\
         allowed-tools: Bash({program} handoff:*)\n\
         ---\n\
         !`{program} handoff --session ${{CLAUDE_SESSION_ID}}`\n\
         \n\
         Throughline prepared the handoff shown above. Tell the person in one sentence that the \
         next new chat in this project will start with this session's memory.\n"
    )
}

fn statusline_command(program: &str) -> String {
    format!("{program} statusline")
}

fn is_our_statusline(value: &Value) -> bool {
    value["command"]
        .as_str()
        .is_some_and(|c| c.contains("throughline") && c.ends_with(" statusline"))
}

fn mcp_entry(binary: &Path) -> Value {
    json!({ "type": "stdio", "command": binary, "args": ["mcp"], "env": {} })
}

struct Files {
    settings: PathBuf,
    slash_command: PathBuf,
    mcp: PathBuf,
}

fn files(scope: &Scope) -> Result<Files, InstallError> {
    Ok(match scope {
        Scope::User => {
            let dir = host::config_dir().ok_or(InstallError::NoHome)?;
            Files {
                settings: dir.join("settings.json"),
                slash_command: dir.join("commands").join(format!("{SLASH_COMMAND}.md")),
                mcp: host::state_file().ok_or(InstallError::NoHome)?,
            }
        }
        Scope::Project(root) => Files {
            settings: root.join(".claude/settings.json"),
            slash_command: root
                .join(".claude/commands")
                .join(format!("{SLASH_COMMAND}.md")),
            mcp: root.join(".mcp.json"),
        },
    })
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    // Read and check every file before writing any, so a refusal changes nothing.
    let mut settings = JsonFile::load_for_edit(&files.settings)?;
    let mut mcp = JsonFile::load_for_edit(&files.mcp)?;

    let mut settings_details = hook_groups::add(&mut settings, HOOKS, Host::Claude, &program)?;
    let mut kept = Vec::new();
    if options.statusline {
        add_statusline(&mut settings, &program, &mut settings_details, &mut kept);
    }
    let mut changes = vec![saved(&settings, settings_details)?];
    if !kept.is_empty() {
        changes.push(Change {
            path: settings.path().to_path_buf(),
            action: Action::Kept,
            details: kept,
            backup: None,
        });
    }
    changes.push(install_slash_command(
        &files.slash_command,
        slash_command(&program),
    )?);
    let mcp_details = add_mcp_server(&mut mcp, mcp_entry(&options.binary), "Claude Code")?;
    changes.push(saved(&mcp, mcp_details)?);
    Ok(Report {
        host: Host::Claude,
        changes,
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut settings = JsonFile::load_for_edit(&files.settings)?;
    let mut mcp = JsonFile::load_for_edit(&files.mcp)?;
    let mut details = hook_groups::remove(&mut settings);
    if settings
        .value
        .get("statusLine")
        .is_some_and(is_our_statusline)
    {
        settings.value.shift_remove("statusLine");
        details.push("removed the statusline".into());
    }
    let mut changes = vec![saved(&settings, details)?];
    changes.push(uninstall_slash_command(&files.slash_command)?);
    let mcp_details = remove_mcp_server(&mut mcp);
    changes.push(saved(&mcp, mcp_details)?);
    Ok(Report {
        host: Host::Claude,
        changes,
    })
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let files = files(scope)?;
    let settings = JsonFile::load(&files.settings)?;
    let (hooks, missing) = hook_groups::registered(&settings, HOOKS);
    let slash_command = our_slash_command(files.slash_command);
    let mcp_server = our_mcp_program(&JsonFile::load(&files.mcp)?.value);
    let own_statusline = settings
        .value
        .get("statusLine")
        .filter(|line| !is_our_statusline(line))
        .map(|line| match line["command"].as_str() {
            Some(command) => command.to_string(),
            None => line.to_string(),
        });
    Ok(Registration {
        settings: settings.path().to_path_buf(),
        hooks,
        missing,
        // Claude Code runs every hook in its settings.
        untrusted: Vec::new(),
        slash_command,
        mcp_server,
        own_statusline,
    })
}

/// The file's change, after writing it when its content changed.
pub(super) fn saved(file: &JsonFile, details: Vec<String>) -> Result<Change, InstallError> {
    let saved = file.save()?;
    let backup = (saved == Saved::Updated).then(|| backup_path(file.path()));
    Ok(Change {
        path: file.path().to_path_buf(),
        action: saved.into(),
        details,
        backup,
    })
}

/// Sets Throughline's statusline when the person has none; never replaces theirs.
fn add_statusline(
    file: &mut JsonFile,
    program: &str,
    details: &mut Vec<String>,
    kept: &mut Vec<String>,
) {
    let command = statusline_command(program);
    match file.value.get_mut("statusLine") {
        None => {
            file.value.insert(
                "statusLine".into(),
                json!({ "type": "command", "command": command }),
            );
            details.push("set the statusline".into());
        }
        Some(ours) if is_our_statusline(ours) => {
            if ours["command"] != command.as_str() {
                ours["command"] = Value::String(command);
                details.push("repointed the statusline at this binary".into());
            }
        }
        Some(_) => kept.push(format!(
            "kept your own statusLine (Throughline's would be: {command})"
        )),
    }
}
