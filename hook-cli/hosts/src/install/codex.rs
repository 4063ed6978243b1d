//! Codex: hooks in `$CODEX_HOME/hooks.json` (Claude Code's `hooks` object), the MCP server in
//! `$CODEX_HOME/config.toml` (`[mcp_servers.throughline]`, edited with the person's layout and
//! comments kept), and the `$tl` handoff as a skill (`skills/tl/SKILL.md`). Codex runs a hook
//! only once the person trusted it; the trust is kept in config.toml (`[hooks.state]`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table};

use super::change;
use super::hook_groups::{self, spec, HookSpec};
use super::json_file::saved_json;
use super::json_file::JsonFile;
use super::skill::{install_skill, our_skill, uninstall_skill, SKILL};
use super::toml_file::{add_mcp_server, our_mcp_program, remove_mcp_server, TomlFile};
use super::{
    program_of, shell_word, Action, InstallError, Options, RegisteredHook, Registration, Report,
    Scope,
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
        own_statusline: None,
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
