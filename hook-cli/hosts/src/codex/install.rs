//! Codex: hooks in `$CODEX_HOME/hooks.json` (Claude Code's `hooks` object), the MCP server in
//! `$CODEX_HOME/config.toml` (`[mcp_servers.throughline]`, edited with the person's layout and
//! comments kept), and the `$tl` handoff as a skill (`skills/tl/SKILL.md`). Codex runs a hook
//! only once the person trusted it; the trust is kept in config.toml (`[hooks.state]`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table};

use crate::codex as host;
use crate::install::change;
use crate::install::hook_groups::{self, spec, HookSpec};
use crate::install::json_file::saved_json;
use crate::install::json_file::JsonFile;
use crate::install::skill::{install_skill, our_skill, uninstall_skill, SKILL};
use crate::install::toml_file::{add_mcp_server, our_mcp_program, remove_mcp_server, TomlFile};
use crate::install::{
    program_of, shell_word, Action, InstallError, Installer, Options, RegisteredHook, Registration,
    Report, Scope,
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

/// SessionStart and UserPromptSubmit may inject memory; the rest capture (SubagentStop: the
/// subagent's rollout, whole). Codex runs tool events for every tool without a matcher, and
/// clamps SessionEnd to 3 s (0.171.0).
pub const HOOKS: &[HookSpec] = &[
    spec("SessionStart", false, 10, false),
    spec("UserPromptSubmit", false, 10, false),
    spec("PostToolUse", false, 30, false),
    spec("Stop", false, 30, false),
    spec("SubagentStop", false, 30, false),
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

/// The `hooks` table's entries as JSON, for adding by hand.
pub fn hooks_object(program: &str) -> serde_json::Map<String, Value> {
    hook_groups::object(HOOKS, host::HOST, program)
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    // Read and check every file before writing any, so a refusal changes nothing.
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let mut config = TomlFile::load_for_edit(&files.config, "Codex")?;
    let mut details = hook_groups::add(&mut hooks, HOOKS, host::HOST, &program)?;
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
        host: host::HOST,
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
        host: host::HOST,
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
    let mut changed = Vec::new();
    if let Some(Value::Object(events)) = hooks_file.value.get("hooks") {
        for (event, groups) in events {
            for (g, h, command) in hook_groups::our_handlers_in(groups) {
                match trust(&config.doc, hooks_file.path(), event, &groups[g], (g, h)) {
                    Trust::Trusted => {}
                    Trust::Untrusted => untrusted.push(event.clone()),
                    Trust::Changed => changed.push(event.clone()),
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
        changed,
        slash_command,
        mcp_server,
        own_statusline: None,
    })
}

/// What Codex makes of a hook: it runs one the person trusted as it is now.
#[derive(Debug, PartialEq, Eq)]
enum Trust {
    Trusted,
    Untrusted,
    /// Trusted once, changed since: Codex skips it until it is trusted again.
    Changed,
}

/// Codex keeps the person's trust in the hook at `(group, index)` under `event` in
/// config.toml, as `[hooks.state."<hooks.json path>:<event in snake case>:<group>:<index>"]`
/// with the hash of the hook as it was trusted.
fn trust(
    config: &DocumentMut,
    hooks: &Path,
    event: &str,
    group: &Value,
    (group_index, index): (usize, usize),
) -> Trust {
    let key = format!(
        "{}:{}:{group_index}:{index}",
        hooks.display(),
        snake_case(event)
    );
    let trusted = config
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(&key))
        .and_then(|entry| entry.get("trusted_hash"))
        .and_then(Item::as_str)
        .filter(|hash| !hash.is_empty());
    match trusted {
        None => Trust::Untrusted,
        Some(hash) if hash == trust_hash(event, group, &group["hooks"][index]) => Trust::Trusted,
        Some(_) => Trust::Changed,
    }
}

/// The hash Codex records when a hook is trusted, observed on 0.171.0 (its app-server's
/// `hooks/list` reports it as `currentHash`): SHA-256 of compact JSON with sorted keys holding
/// the event in snake case, the group's matcher and the handler with Codex's defaults filled
/// in (not async, a 600 s timeout). Keys are inserted in order, as the map keeps that order.
pub fn trust_hash(event: &str, group: &Value, handler: &Value) -> String {
    use serde_json::{json, Map};
    use sha2::{Digest, Sha256};
    let mut normalised = Map::new();
    normalised.insert(
        "async".into(),
        json!(handler["async"].as_bool().unwrap_or(false)),
    );
    normalised.insert("command".into(), handler["command"].clone());
    if let Some(message) = handler.get("statusMessage").filter(|m| !m.is_null()) {
        normalised.insert("statusMessage".into(), message.clone());
    }
    normalised.insert(
        "timeout".into(),
        json!(handler["timeout"].as_u64().unwrap_or(600)),
    );
    normalised.insert("type".into(), handler["type"].clone());
    let mut hook = Map::new();
    hook.insert("event_name".into(), json!(snake_case(event)));
    hook.insert("hooks".into(), json!([normalised]));
    if let Some(matcher) = group.get("matcher").filter(|m| !m.is_null()) {
        hook.insert("matcher".into(), matcher.clone());
    }
    let digest = Sha256::digest(Value::Object(hook).to_string());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Hashes Codex 0.171.0's app-server reported for these hooks.
    #[test]
    fn the_trust_hash_is_the_one_codex_computes() {
        let handler = json!({"type": "command", "command": "echo hi", "timeout": 5});
        let plain = json!({"hooks": [handler]});
        let cases = [
            (
                "SessionStart",
                plain.clone(),
                handler.clone(),
                "9e87c3ad0f08b294",
            ),
            ("Stop", plain.clone(), handler.clone(), "bfacd2ac32f50a02"),
            (
                "SessionStart",
                plain.clone(),
                json!({"type": "command", "command": "echo hi"}),
                "a245b9b8493f2be8",
            ),
            (
                "SessionStart",
                plain.clone(),
                json!({"type": "command", "command": "echo hi", "timeout": 5, "statusMessage": "x"}),
                "cf1143900125eedc",
            ),
            (
                "SessionStart",
                json!({"matcher": "startup", "hooks": [handler]}),
                handler.clone(),
                "70314a1b0abf995f",
            ),
            (
                "SessionStart",
                plain,
                json!({"type": "command", "command": "echo é/\u{2028} \"q\" <a>", "timeout": 5}),
                "195f4b8ba5089dfe",
            ),
        ];
        for (event, group, handler, hash) in cases {
            let computed = trust_hash(event, &group, &handler);
            assert!(
                computed.starts_with(&format!("sha256:{hash}")),
                "{event} {handler}: {computed}"
            );
        }
    }

    #[test]
    fn a_hook_is_trusted_untrusted_or_changed_since_trusted() {
        let hooks = Path::new("/home/dev/.codex/hooks.json");
        let group = json!({"hooks": [{"type": "command", "command": "echo hi", "timeout": 5}]});
        let config = |hash: &str| -> DocumentMut {
            format!(
                "[hooks.state.\"/home/dev/.codex/hooks.json:session_start:0:0\"]\n\
                 trusted_hash = \"{hash}\"\n"
            )
            .parse()
            .unwrap()
        };
        let current = trust_hash("SessionStart", &group, &group["hooks"][0]);
        let of = |doc: &DocumentMut| trust(doc, hooks, "SessionStart", &group, (0, 0));
        assert_eq!(of(&config(&current)), Trust::Trusted);
        assert_eq!(of(&config("sha256:00")), Trust::Changed);
        assert_eq!(of(&DocumentMut::new()), Trust::Untrusted);
        // The trust of another position is not this hook's.
        assert_eq!(
            trust(&config(&current), hooks, "SessionStart", &group, (1, 0)),
            Trust::Untrusted
        );
    }
}
