//! Claude Code: hooks and the statusline in `settings.json`, the `/tl` slash command in
//! `commands/tl.md`, and the MCP server in `~/.claude.json` (the same entry
//! `claude mcp add --scope user` writes) or, for one project, in its `.mcp.json`.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::claude as host;
use crate::install::hook_groups::{self, spec, HookSpec};
use crate::install::json_file::{saved_json, JsonFile};
use crate::install::mcp_json::{add_mcp_server, our_mcp_program, remove_mcp_server};
use crate::install::slash_command::{
    install_slash_command, our_slash_command, uninstall_slash_command, SLASH_COMMAND,
};
use crate::install::{
    shell_word, Action, Change, InstallError, Installer, Options, OwnStatusline, Registration,
    Report, Scope,
};

mod autocompact;
pub use autocompact::{
    autocompact, set_autocompact, AutoCompact, AUTOCOMPACT_ENV, WHOLE_WINDOW, WINDOW_KEY,
};

/// What registering Throughline with this host takes, for its spec.
pub const INSTALLER: Installer = Installer {
    install,
    uninstall,
    inspect,
    config_dir: host::config_dir,
    hooks_object,
    registered: None,
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
    hook_groups::object(HOOKS, host::HOST, program)
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

/// The flag of `throughline statusline` that names the person's own statusline command.
const WRAPS: &str = "--then";

fn statusline_command(program: &str) -> String {
    format!("{program} statusline")
}

/// Throughline's statusline around the person's own `theirs`.
fn wrapping_command(program: &str, theirs: &str) -> String {
    format!(
        "{} {WRAPS} {}",
        statusline_command(program),
        shell_words::quote(theirs)
    )
}

/// What a statusLine command of Throughline's is: `None` when it is not one, `Some(None)` for
/// Throughline's alone, `Some(Some(theirs))` for Throughline's around the person's own.
fn ours(command: &str) -> Option<Option<String>> {
    let words = shell_words::split(command).ok()?;
    let program = Path::new(words.first()?).file_name()?.to_string_lossy();
    if !program.contains("throughline") || words.get(1)? != "statusline" {
        return None;
    }
    match &words[2..] {
        [] => Some(None),
        [flag, theirs] if flag == WRAPS => Some(Some(theirs.clone())),
        _ => None,
    }
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

    let mut settings_details = hook_groups::add(&mut settings, HOOKS, host::HOST, &program)?;
    let mut kept = Vec::new();
    if options.statusline {
        add_statusline(
            &mut settings,
            &program,
            options.wrap_statusline,
            &mut settings_details,
            &mut kept,
        );
    }
    let mut changes = vec![saved_json(&settings, settings_details)?];
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
    changes.push(saved_json(&mcp, mcp_details)?);
    Ok(Report {
        host: host::HOST,
        changes,
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut settings = JsonFile::load_for_edit(&files.settings)?;
    let mut mcp = JsonFile::load_for_edit(&files.mcp)?;
    let mut details = hook_groups::remove(&mut settings);
    let statusline = settings.value.get("statusLine");
    match statusline.and_then(|line| line["command"].as_str().and_then(ours)) {
        Some(Some(theirs)) => {
            settings.value["statusLine"]["command"] = Value::String(theirs);
            details.push("gave your own statusLine back".into());
        }
        Some(None) => {
            settings.value.shift_remove("statusLine");
            details.push("removed the statusline".into());
        }
        None => {}
    }
    let mut changes = vec![saved_json(&settings, details)?];
    changes.push(uninstall_slash_command(&files.slash_command)?);
    let mcp_details = remove_mcp_server(&mut mcp);
    changes.push(saved_json(&mcp, mcp_details)?);
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
    let mcp_server = our_mcp_program(&JsonFile::load(&files.mcp)?.value);
    let own_statusline = settings
        .value
        .get("statusLine")
        .and_then(|line| match line["command"].as_str() {
            Some(command) => match ours(command) {
                Some(wrapped) => wrapped.map(|command| OwnStatusline {
                    command,
                    wrapped: true,
                }),
                None => Some(OwnStatusline {
                    command: command.to_string(),
                    wrapped: false,
                }),
            },
            None => Some(OwnStatusline {
                command: line.to_string(),
                wrapped: false,
            }),
        });
    Ok(Registration {
        settings: settings.path().to_path_buf(),
        hooks,
        missing,
        // Claude Code runs every hook in its settings.
        untrusted: Vec::new(),
        changed: Vec::new(),
        slash_command,
        mcp_server,
        own_statusline,
    })
}

/// Sets Throughline's statusline when the person has none. Theirs is never replaced: with
/// `wrap`, Throughline's runs around it (their line shows as before, and the plan usage is
/// recorded); without, it is kept as it is.
fn add_statusline(
    file: &mut JsonFile,
    program: &str,
    wrap: bool,
    details: &mut Vec<String>,
    kept: &mut Vec<String>,
) {
    let Some(line) = file.value.get_mut("statusLine") else {
        let command = statusline_command(program);
        file.value.insert(
            "statusLine".into(),
            json!({ "type": "command", "command": command }),
        );
        details.push("set the statusline".into());
        return;
    };
    let command = line["command"].as_str().map(str::to_string);
    match command.as_deref().map(|c| (c, ours(c))) {
        Some((current, Some(wrapped))) => {
            let wanted = match &wrapped {
                Some(theirs) => wrapping_command(program, theirs),
                None => statusline_command(program),
            };
            if current != wanted {
                line["command"] = Value::String(wanted);
                details.push("repointed the statusline at this binary".into());
            }
        }
        Some((theirs, None)) if wrap => {
            line["command"] = Value::String(wrapping_command(program, theirs));
            details.push(
                "wrapped your own statusLine: it shows as before, and the plan usage Claude \
                 Code gives it is recorded"
                    .into(),
            );
        }
        _ => kept.push(
            "kept your own statusLine; `throughline install --wrap-statusline` records the \
             plan usage Claude Code gives it and shows your line as before"
                .into(),
        ),
    }
}
