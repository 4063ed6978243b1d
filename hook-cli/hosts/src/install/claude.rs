//! Claude Code: hooks and the statusline in `settings.json`, the `/tl` slash command in
//! `commands/tl.md`, and the MCP server in `~/.claude.json` (the same entry
//! `claude mcp add --scope user` writes) or, for one project, in its `.mcp.json`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::hook_groups::{self, spec, HookSpec};
use super::json_file::{write_atomically, JsonFile, Saved};
use super::{
    backup_path, shell_word, Action, Change, InstallError, Options, Registration, Report, Scope,
};
use crate::claude as host;
use throughline_core::model::Host;

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

/// The name of the MCP server and of the slash command (`/tl`).
pub const MCP_SERVER: &str = "throughline";
pub const SLASH_COMMAND: &str = "tl";

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

pub(super) fn is_our_slash_command(text: &str) -> bool {
    text.contains("throughline") && text.contains(" handoff")
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

pub(super) fn is_our_mcp_entry(value: &Value) -> bool {
    value["command"]
        .as_str()
        .is_some_and(|c| c.contains("throughline"))
}

/// The slash command file at `path`, when it is ours.
pub(super) fn our_slash_command(path: PathBuf) -> Option<PathBuf> {
    fs::read_to_string(&path)
        .is_ok_and(|text| is_our_slash_command(&text))
        .then_some(path)
}

/// The program our MCP server entry runs, in a JSON file's `mcpServers`.
pub(super) fn our_mcp_program(file: &serde_json::Map<String, Value>) -> Option<PathBuf> {
    file.get("mcpServers")
        .and_then(|servers| servers.get(MCP_SERVER))
        .filter(|entry| is_our_mcp_entry(entry))
        .and_then(|entry| entry["command"].as_str().map(PathBuf::from))
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
    Ok(Registration {
        settings: settings.path().to_path_buf(),
        hooks,
        missing,
        // Claude Code runs every hook in its settings.
        untrusted: Vec::new(),
        slash_command,
        mcp_server,
    })
}

/// The environment variable that sets the share of the context window at which Claude Code
/// compacts a session by itself. It can only lower the client's own threshold, which sits
/// 13,000 tokens short of the window: a higher value changes nothing.
pub const AUTOCOMPACT_ENV: &str = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE";

/// The setting that names the window Claude Code compacts against. While it finds no window for
/// the model (neither here nor from its own defaults), the client does not compact by itself
/// at all: 2.1.197 with its default model waits until the API refuses a request as too long,
/// whatever the threshold (docs/hosts/claude-code.md, "Compaction"; decision 0024).
pub const WINDOW_KEY: &str = "autoCompactWindow";

/// The largest window the client accepts. It caps the setting at the model's own window, so
/// this one means "the model's whole window" for every model.
pub const WHOLE_WINDOW: u64 = 1_000_000;

/// The auto-compact threshold the host's settings set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AutoCompact {
    pub settings: PathBuf,
    /// Percent of the context window, when set to a value the client accepts (above 0, at most 100).
    pub percent: Option<f64>,
    /// The value in the file when the client would ignore it.
    pub ignored: Option<String>,
    /// The window the threshold applies to (`autoCompactWindow`), when the file names one.
    pub window: Option<Value>,
}

impl AutoCompact {
    /// Whether the client applies the threshold whatever the model: it is set and a window is
    /// named for it in a form the client accepts.
    pub fn applies(&self) -> bool {
        self.percent.is_some() && self.window.as_ref().is_some_and(window_accepted)
    }
}

/// A window of 100,000 to 1,000,000 tokens, or (2.1.332) one per model; the client drops
/// anything else without a word.
fn window_accepted(window: &Value) -> bool {
    window.is_object()
        || window
            .as_u64()
            .is_some_and(|tokens| (100_000..=WHOLE_WINDOW).contains(&tokens))
}

/// Reads `env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` and `autoCompactWindow` from the scope's settings.
pub fn autocompact(scope: &Scope) -> Result<AutoCompact, InstallError> {
    let settings = JsonFile::load(&files(scope)?.settings)?;
    let raw = match settings
        .value
        .get("env")
        .and_then(|env| env.get(AUTOCOMPACT_ENV))
    {
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => Some(other.to_string()),
        None => None,
    };
    let percent = raw
        .as_deref()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|p| *p > 0.0 && *p <= 100.0);
    Ok(AutoCompact {
        settings: settings.path().to_path_buf(),
        ignored: raw.filter(|_| percent.is_none()),
        percent,
        window: settings.value.get(WINDOW_KEY).cloned(),
    })
}

/// Sets the threshold to `percent` (1 to 100), or with `None` removes it; everything else in
/// the file stays as it was, and the write is atomic.
///
/// With the threshold goes the window it needs: the model's whole window, unless the person
/// names one; removing the threshold removes that window only while it is still ours.
pub fn set_autocompact(scope: &Scope, percent: Option<u8>) -> Result<Change, InstallError> {
    let mut settings = JsonFile::load_for_edit(&files(scope)?.settings)?;
    let env = settings
        .value
        .entry("env")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(vars) = env else {
        return Err(hook_groups::malformed(&settings, "`env`", "Claude Code"));
    };
    let mut details = Vec::new();
    match percent {
        Some(p @ 1..=100) => {
            // Claude Code reads `env` values as strings.
            vars.insert(AUTOCOMPACT_ENV.into(), Value::String(p.to_string()));
            details.push(format!("set {AUTOCOMPACT_ENV} to {p}"));
            if !settings.value.contains_key(WINDOW_KEY) {
                settings
                    .value
                    .insert(WINDOW_KEY.into(), WHOLE_WINDOW.into());
                details.push(format!(
                    "set {WINDOW_KEY} to {WHOLE_WINDOW} (the model's whole window), so that \
                     the client applies the threshold"
                ));
            }
        }
        Some(p) => return Err(InstallError::Threshold(p)),
        None => {
            let had_threshold = vars.shift_remove(AUTOCOMPACT_ENV).is_some();
            if had_threshold {
                details.push(format!("removed {AUTOCOMPACT_ENV}"));
            }
            if vars.is_empty() {
                settings.value.shift_remove("env");
            }
            if had_threshold && settings.value.get(WINDOW_KEY) == Some(&Value::from(WHOLE_WINDOW)) {
                settings.value.shift_remove(WINDOW_KEY);
                details.push(format!("removed {WINDOW_KEY}"));
            }
        }
    }
    saved(&settings, details)
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

/// Removes the `mcpServers` entry named `throughline` if it runs Throughline.
pub(super) fn remove_mcp_server(file: &mut JsonFile) -> Vec<String> {
    let mut details = Vec::new();
    if let Some(Value::Object(servers)) = file.value.get_mut("mcpServers") {
        if servers.get(MCP_SERVER).is_some_and(is_our_mcp_entry) {
            servers.shift_remove(MCP_SERVER);
            details.push("removed the MCP server".into());
            if servers.is_empty() {
                file.value.shift_remove("mcpServers");
            }
        }
    }
    details
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

/// Registers `wanted` as the `mcpServers` entry named `throughline` (Claude Code's shape, which
/// Gemini CLI's settings share), unless the person's own server has the name.
pub(super) fn add_mcp_server(
    file: &mut JsonFile,
    wanted: Value,
    host: &str,
) -> Result<Vec<String>, InstallError> {
    let servers = file
        .value
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(servers) = servers else {
        return Err(hook_groups::malformed(file, "`mcpServers`", host));
    };
    Ok(match servers.get(MCP_SERVER) {
        Some(entry) if *entry == wanted => Vec::new(),
        Some(entry) if !is_our_mcp_entry(entry) => vec![format!(
            "kept the MCP server named {MCP_SERVER:?}: it does not run Throughline"
        )],
        found => {
            let verb = if found.is_some() {
                "repointed"
            } else {
                "registered"
            };
            servers.insert(MCP_SERVER.into(), wanted);
            vec![format!("{verb} the MCP server {MCP_SERVER:?}")]
        }
    })
}

/// Puts the `/tl` command file `wanted` at `path`, unless the person has their own there.
pub(super) fn install_slash_command(path: &Path, wanted: String) -> Result<Change, InstallError> {
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

pub(super) fn uninstall_slash_command(path: &Path) -> Result<Change, InstallError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn project_with(settings: &str) -> (tempfile::TempDir, Scope, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude/settings.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, settings).unwrap();
        let scope = Scope::Project(dir.path().to_path_buf());
        (dir, scope, path)
    }

    #[test]
    fn the_threshold_is_written_into_env_keeping_everything_else() {
        let mine = "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"FOO\": \"1\"\n  },\n  \"theme\": \"dark\"\n}\n";
        let (_dir, scope, path) = project_with(mine);
        assert_eq!(autocompact(&scope).unwrap().percent, None);

        let change = set_autocompact(&scope, Some(70)).unwrap();
        assert_eq!(change.action, Action::Updated);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"FOO\": \"1\",\n    \"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE\": \"70\"\n  },\n  \"theme\": \"dark\",\n  \"autoCompactWindow\": 1000000\n}\n"
        );
        let read = autocompact(&scope).unwrap();
        assert_eq!((read.percent, read.applies()), (Some(70.0), true));
        assert_eq!(
            set_autocompact(&scope, Some(70)).unwrap().action,
            Action::Unchanged
        );

        set_autocompact(&scope, None).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            mine,
            "back to the very bytes"
        );
        let none = set_autocompact(&scope, None).unwrap();
        assert_eq!((none.action, none.details.len()), (Action::Unchanged, 0));
    }

    #[test]
    fn an_env_it_adds_goes_when_the_threshold_goes() {
        let (_dir, scope, path) = project_with("{\"theme\":\"dark\"}");
        set_autocompact(&scope, Some(55)).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"theme\":\"dark\",\"env\":{\"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE\":\"55\"},\"autoCompactWindow\":1000000}"
        );
        set_autocompact(&scope, None).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"theme\":\"dark\"}");
    }

    #[test]
    fn a_window_the_person_names_is_kept_and_used() {
        let mine = r#"{"autoCompactWindow": 400000}"#;
        let (_dir, scope, path) = project_with(mine);
        let change = set_autocompact(&scope, Some(40)).unwrap();
        assert_eq!(
            change.details,
            ["set CLAUDE_AUTOCOMPACT_PCT_OVERRIDE to 40"]
        );
        let read = autocompact(&scope).unwrap();
        assert_eq!(read.window, Some(Value::from(400_000)));
        assert!(read.applies());
        set_autocompact(&scope, None).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), mine);
    }

    #[test]
    fn a_whole_window_without_a_threshold_is_not_ours_to_remove() {
        let mine = r#"{"autoCompactWindow": 1000000}"#;
        let (_dir, scope, path) = project_with(mine);
        let read = autocompact(&scope).unwrap();
        assert_eq!((read.percent, read.applies()), (None, false));
        let change = set_autocompact(&scope, None).unwrap();
        assert_eq!(
            (change.action, change.details.len()),
            (Action::Unchanged, 0)
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), mine);
    }

    #[test]
    fn a_window_the_client_drops_does_not_make_the_threshold_apply() {
        for window in ["50000", "\"lots\"", "null", "2000000"] {
            let text = format!(
                r#"{{"env": {{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}}, "autoCompactWindow": {window}}}"#
            );
            let (_dir, scope, _) = project_with(&text);
            assert!(!autocompact(&scope).unwrap().applies(), "{window}");
        }
        let (_dir, scope, _) = project_with(
            r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}, "autoCompactWindow": {"default": 400000, "byModel": {}}}"#,
        );
        assert!(autocompact(&scope).unwrap().applies());
    }

    #[test]
    fn a_threshold_without_a_window_is_reported_as_not_applied() {
        let (_dir, scope, _) =
            project_with(r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}}"#);
        let read = autocompact(&scope).unwrap();
        assert_eq!(
            (read.percent, read.window.as_ref(), read.applies()),
            (Some(30.0), None, false)
        );
    }

    #[test]
    fn values_the_client_would_ignore_are_reported_and_refused() {
        let (_dir, scope, path) =
            project_with(r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "lots"}}"#);
        let read = autocompact(&scope).unwrap();
        assert_eq!(
            (read.percent, read.ignored.as_deref()),
            (None, Some("lots"))
        );
        let before = fs::read(&path).unwrap();
        for wrong in [0, 101] {
            let err = set_autocompact(&scope, Some(wrong)).unwrap_err();
            assert!(err.to_string().contains("1 to 100"), "{err}");
        }
        assert_eq!(fs::read(&path).unwrap(), before);
        let (_dir, scope, _) = project_with(r#"{"env": ["not", "an", "object"]}"#);
        assert!(matches!(
            set_autocompact(&scope, Some(50)),
            Err(InstallError::NotJson { .. })
        ));
    }
}
