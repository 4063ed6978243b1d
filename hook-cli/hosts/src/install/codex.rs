//! Codex: hooks in `$CODEX_HOME/hooks.json` (Claude Code's `hooks` object), the MCP server in
//! `$CODEX_HOME/config.toml` (`[mcp_servers.throughline]`, edited with the person's layout and
//! comments kept), and the `$tl` handoff as a skill (`skills/tl/SKILL.md`). Codex runs a hook
//! only once the person trusted it; the trust is kept in config.toml (`[hooks.state]`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table};

use super::hook_groups::{self, spec, HookSpec};
use super::json_file::{create_folders, replace_keeping_backup, write_atomically, JsonFile, Saved};
use super::{
    backup_path, program_of, shell_word, Action, Change, InstallError, Options, RegisteredHook,
    Registration, Report, Scope,
};
use crate::codex as host;
use throughline_core::model::Host;

/// SessionStart and UserPromptSubmit may inject memory; the rest capture. Codex runs tool
/// events for every tool without a matcher, and clamps SessionEnd to 3 s (0.171.0).
pub const HOOKS: &[HookSpec] = &[
    spec("SessionStart", false, 10, false),
    spec("UserPromptSubmit", false, 10, false),
    spec("PostToolUse", false, 30, false),
    spec("Stop", false, 30, false),
    spec("PreCompact", false, 30, false),
    spec("SessionEnd", false, 3, false),
];

/// The name of the MCP server and of the handoff skill (`$tl`).
pub const MCP_SERVER: &str = "throughline";
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

struct Files {
    hooks: PathBuf,
    config: PathBuf,
    skill: PathBuf,
}

fn files(scope: &Scope) -> Result<Files, InstallError> {
    match scope {
        Scope::User => {
            let dir = host::home().ok_or(InstallError::NoHome)?;
            Ok(Files {
                hooks: dir.join("hooks.json"),
                config: dir.join("config.toml"),
                skill: dir.join("skills").join(SKILL).join("SKILL.md"),
            })
        }
        Scope::Project(_) => Err(InstallError::UserOnly("Codex")),
    }
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    // Read and check every file before writing any, so a refusal changes nothing.
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let mut config = TomlFile::load_for_edit(&files.config, "Codex")?;
    let mut details = hook_groups::add(&mut hooks, HOOKS, Host::Codex, &program)?;
    if !details.is_empty() {
        details.push(
            "trust them in Codex: it asks at start-up (\"Hooks need review\"), or type /hooks \
             and press t"
                .into(),
        );
    }
    let mut changes = vec![saved_json(&hooks, details)?];
    changes.push(install_skill(&files.skill, &program, "$tl")?);
    let mut config_details = add_mcp_server(&mut config, &options.binary)?;
    let kept = match own_process_hooks(&mut config)? {
        Setting::Added(detail) => {
            config_details.push(detail);
            None
        }
        Setting::Kept(detail) => Some(change(&config.path, Action::Kept, vec![detail])),
        Setting::InPlace => None,
    };
    changes.push(config.save(config_details)?);
    changes.extend(kept);
    Ok(Report {
        host: Host::Codex,
        changes,
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let mut config = TomlFile::load_for_edit(&files.config, "Codex")?;
    let details = hook_groups::remove(&mut hooks);
    let mut changes = vec![saved_json(&hooks, details)?];
    changes.push(uninstall_skill(&files.skill, "$tl")?);
    let mut mcp_details = remove_mcp_server(&mut config);
    mcp_details.extend(remove_own_process_hooks(&mut config));
    changes.push(config.save(mcp_details)?);
    Ok(Report {
        host: Host::Codex,
        changes,
    })
}

/// The feature that starts Codex's shared background server, whose hooks run under one
/// process for every window: with it off, each window runs its own, and `/clear` in one
/// window is told from another (decision 0032).
const DAEMON_FEATURE: &str = "daemon_auto_start";
/// Marks the setting as Throughline's, so that uninstall removes it and nothing else.
const SET_BY_US: &str = " # set by throughline install: each window runs its own hooks";

/// What became of a setting Throughline wants.
enum Setting {
    Added(String),
    /// The person set it otherwise; what that means, for them to read.
    Kept(String),
    InPlace,
}

fn own_process_hooks(config: &mut TomlFile) -> Result<Setting, InstallError> {
    let malformed = config.malformed("`features`");
    let features = config
        .doc
        .entry("features")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or(malformed)?;
    Ok(match features.get(DAEMON_FEATURE).and_then(Item::as_bool) {
        Some(false) => Setting::InPlace,
        Some(true) => Setting::Kept(format!(
            "kept your [features] {DAEMON_FEATURE} = true: while Codex runs hooks in its shared \
             background server, /clear hands nothing on (`$tl` still does)"
        )),
        None => {
            let mut off = toml_edit::Value::from(false);
            off.decor_mut().set_suffix(SET_BY_US);
            features.insert(DAEMON_FEATURE, Item::Value(off));
            Setting::Added(format!(
                "set [features] {DAEMON_FEATURE} = false, so each window runs its own hooks and \
                 /clear hands on the right session"
            ))
        }
    })
}

fn remove_own_process_hooks(config: &mut TomlFile) -> Vec<String> {
    let Some(features) = config
        .doc
        .get_mut("features")
        .and_then(Item::as_table_like_mut)
    else {
        return Vec::new();
    };
    let ours = features
        .get(DAEMON_FEATURE)
        .and_then(Item::as_value)
        .and_then(|v| v.decor().suffix())
        .and_then(|s| s.as_str())
        .is_some_and(|s| s == SET_BY_US);
    if !ours {
        return Vec::new();
    }
    features.remove(DAEMON_FEATURE);
    if features.is_empty() {
        config.doc.remove("features");
    }
    vec![format!("removed [features] {DAEMON_FEATURE}")]
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let files = files(scope)?;
    let hooks_file = JsonFile::load(&files.hooks)?;
    let config = TomlFile::load(&files.config, "Codex")?;
    let mut hooks = Vec::new();
    let mut untrusted = Vec::new();
    if let Some(Value::Object(events)) = hooks_file.value.get("hooks") {
        for (event, groups) in events {
            for (g, h, command) in hook_groups::our_handlers_in(groups) {
                if !trusted(&config.doc, hooks_file.path(), event, g, h) {
                    untrusted.push(event.clone());
                }
                hooks.push(RegisteredHook {
                    event: event.clone(),
                    binary: program_of(&command),
                    command,
                });
            }
        }
    }
    let missing = HOOKS
        .iter()
        .filter(|spec| !hooks.iter().any(|h| h.event == spec.event))
        .map(|spec| spec.event.to_string())
        .collect();
    let slash_command = our_skill(files.skill);
    let mcp_server = our_mcp_program(&config);
    Ok(Registration {
        settings: hooks_file.path().to_path_buf(),
        hooks,
        missing,
        untrusted,
        slash_command,
        mcp_server,
    })
}

/// Whether config.toml records the person's trust in the hook at `group`, `index` of
/// `event`. Codex names it `<hooks.json path>:<event in snake case>:<group>:<index>`; a hook
/// changed since it was trusted has a stale hash, which only Codex can tell.
fn trusted(config: &DocumentMut, hooks: &Path, event: &str, group: usize, index: usize) -> bool {
    let key = format!("{}:{}:{group}:{index}", hooks.display(), snake_case(event));
    config
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(&key))
        .and_then(|entry| entry.get("trusted_hash"))
        .and_then(Item::as_str)
        .is_some_and(|hash| !hash.is_empty())
}

/// `UserPromptSubmit` → `user_prompt_submit`.
fn snake_case(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The skill file at `path`, when it is Throughline's.
pub(super) fn our_skill(path: PathBuf) -> Option<PathBuf> {
    fs::read_to_string(&path)
        .is_ok_and(|text| is_our_skill(&text))
        .then_some(path)
}

/// The program `[mcp_servers.throughline]` starts, when it is Throughline.
pub(super) fn our_mcp_program(config: &TomlFile) -> Option<PathBuf> {
    config
        .doc
        .get("mcp_servers")
        .and_then(|s| s.get(MCP_SERVER))
        .filter(|entry| is_our_mcp_entry(entry))
        .and_then(|entry| entry.get("command")?.as_str().map(PathBuf::from))
}

pub(super) fn remove_mcp_server(config: &mut TomlFile) -> Vec<String> {
    let Some(servers) = config
        .doc
        .get_mut("mcp_servers")
        .and_then(Item::as_table_mut)
    else {
        return Vec::new();
    };
    if !servers.get(MCP_SERVER).is_some_and(is_our_mcp_entry) {
        return Vec::new();
    }
    servers.remove(MCP_SERVER);
    if servers.is_empty() {
        config.doc.remove("mcp_servers");
    }
    vec!["removed the MCP server".into()]
}

fn is_our_mcp_entry(entry: &Item) -> bool {
    entry
        .get("command")
        .and_then(Item::as_str)
        .is_some_and(|c| c.contains("throughline"))
}

pub(super) fn add_mcp_server(
    config: &mut TomlFile,
    binary: &Path,
) -> Result<Vec<String>, InstallError> {
    let command = binary.to_string_lossy().into_owned();
    let malformed = config.malformed("`mcp_servers`");
    let servers = config
        .doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            // Only `[mcp_servers.throughline]` is written, no empty `[mcp_servers]` above it.
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_mut()
        .ok_or(malformed)?;
    let current = servers.get(MCP_SERVER);
    let same = current.is_some_and(|entry| {
        entry.get("command").and_then(Item::as_str) == Some(command.as_str())
            && entry
                .get("args")
                .and_then(Item::as_array)
                .is_some_and(|a| a.len() == 1 && a.get(0).and_then(|v| v.as_str()) == Some("mcp"))
    });
    if same {
        return Ok(Vec::new());
    }
    if current.is_some_and(|entry| !is_our_mcp_entry(entry)) {
        return Ok(vec![format!(
            "kept the MCP server named {MCP_SERVER:?}: it does not run Throughline"
        )]);
    }
    let verb = if current.is_some() {
        "repointed"
    } else {
        "registered"
    };
    let mut entry = Table::new();
    entry["command"] = toml_edit::value(command);
    entry["args"] = toml_edit::value(toml_edit::Array::from_iter(["mcp"]));
    servers.insert(MCP_SERVER, Item::Table(entry));
    Ok(vec![format!("{verb} the MCP server {MCP_SERVER:?}")])
}

/// The file's change, after writing it when its content changed; a file Throughline created
/// and emptied again is removed.
pub(super) fn saved_json(file: &JsonFile, details: Vec<String>) -> Result<Change, InstallError> {
    if file.value.is_empty()
        && file.changed()
        && file.existed()
        && !backup_path(file.path()).exists()
    {
        remove(file.path())?;
        return Ok(change(file.path(), Action::Removed, details));
    }
    let saved = file.save()?;
    let mut change = change(file.path(), saved.into(), details);
    change.backup = (saved == Saved::Updated).then(|| backup_path(file.path()));
    Ok(change)
}

fn change(path: &Path, action: Action, details: Vec<String>) -> Change {
    Change {
        path: path.to_path_buf(),
        action,
        details,
        backup: None,
    }
}

fn remove(path: &Path) -> Result<(), InstallError> {
    fs::remove_file(path).map_err(|source| InstallError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A host's config.toml as read, edited in place: what Throughline does not touch keeps its
/// bytes.
pub(super) struct TomlFile {
    path: PathBuf,
    /// The host whose file it is, as people name it.
    owner: &'static str,
    original: Option<String>,
    doc: DocumentMut,
}

impl TomlFile {
    pub(super) fn load(path: &Path, owner: &'static str) -> Result<TomlFile, InstallError> {
        let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let original = match fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(source) => return Err(InstallError::Io { path, source }),
        };
        let doc = original
            .as_deref()
            .unwrap_or_default()
            .parse::<DocumentMut>()
            .map_err(|e| InstallError::NotToml {
                path: path.clone(),
                reason: e.message().to_string(),
            })?;
        Ok(TomlFile {
            path,
            owner,
            original,
            doc,
        })
    }

    pub(super) fn load_for_edit(
        path: &Path,
        owner: &'static str,
    ) -> Result<TomlFile, InstallError> {
        let file = TomlFile::load(path, owner)?;
        if fs::metadata(&file.path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(InstallError::ReadOnly(file.path));
        }
        Ok(file)
    }

    fn malformed(&self, what: &str) -> InstallError {
        InstallError::NotToml {
            path: self.path.clone(),
            reason: format!("{what} is not what {} expects", self.owner),
        }
    }

    /// Writes the document when it changed, keeping the previous file as the backup; a file
    /// Throughline created and emptied again is removed.
    pub(super) fn save(&self, details: Vec<String>) -> Result<Change, InstallError> {
        let text = self.doc.to_string();
        let path = &self.path;
        let Some(original) = &self.original else {
            if text.trim().is_empty() {
                return Ok(change(path, Action::Unchanged, details));
            }
            write_atomically(path, text.as_bytes())?;
            return Ok(change(path, Action::Created, details));
        };
        if text == *original {
            return Ok(change(path, Action::Unchanged, details));
        }
        let backup = backup_path(path);
        if text.trim().is_empty() && !backup.exists() {
            remove(path)?;
            return Ok(change(path, Action::Removed, details));
        }
        let mut change = change(path, Action::Updated, details);
        change.backup = replace_keeping_backup(path, original.as_bytes(), text.as_bytes())?;
        Ok(change)
    }
}

/// The handoff skill at `path`, run in the host as `command` (`$tl`, `/tl`).
pub(super) fn install_skill(
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

pub(super) fn uninstall_skill(path: &Path, command: &str) -> Result<Change, InstallError> {
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
