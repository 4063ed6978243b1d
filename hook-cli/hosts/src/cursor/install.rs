//! Cursor: hooks in `hooks.json` (`{"version": 1, "hooks": {"event": [{"command", "timeout"}]}}`,
//! one flat list of handlers per event), the MCP server in `mcp.json` (`mcpServers`) and the
//! `/tl` handoff as a command (`commands/tl.md`). User scope is `~/.cursor/`, a project's is
//! `<project>/.cursor/`.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use crate::cursor as host;
use crate::install::hook_groups::malformed;
use crate::install::json_file::saved_json;
use crate::install::json_file::{backup_path, JsonFile};
use crate::install::mcp_json::{add_mcp_server, our_mcp_program, remove_mcp_server};
use crate::install::slash_command::{
    install_slash_command, our_slash_command, uninstall_slash_command, SLASH_COMMAND,
};
use crate::install::{
    is_throughline_hook, program_of, shell_word, InstallError, Installer, Options, RegisteredHook,
    Registration, Report, Scope,
};

/// What registering Throughline with this host takes, for its spec.
pub const INSTALLER: Installer = Installer {
    install,
    uninstall,
    inspect,
    config_dir: host::home,
    hooks_object,
    registered: Some(registered),
};

/// Timeouts are in seconds. sessionStart records the chat and hands a waiting handoff on;
/// beforeSubmitPrompt stops `/tl`; postToolUse and stop capture as the turn goes, and
/// subagentStop reads the subagent's transcript into it; sessionEnd catches up at the end.
pub const HOOKS: &[(&str, u32)] = &[
    ("sessionStart", 10),
    ("beforeSubmitPrompt", 10),
    ("postToolUse", 30),
    ("subagentStop", 30),
    ("stop", 30),
    ("sessionEnd", 5),
];

/// `commands/tl.md`: Cursor puts the file's text in the prompt box, so it starts with `/tl`,
/// which the beforeSubmitPrompt hook answers and stops before the model is asked.
pub fn slash_command(program: &str) -> String {
    format!(
        "/tl\n\nThroughline hands this chat's memory to the next new chat in this project. \
         Without its hooks, `{program} handoff` in the project does the same.\n"
    )
}

fn handler(timeout: u32, program: &str) -> Value {
    json!({ "command": format!("{program} hook cursor"), "timeout": timeout })
}

struct Files {
    hooks: PathBuf,
    mcp: PathBuf,
    slash_command: PathBuf,
}

fn files(scope: &Scope) -> Result<Files, InstallError> {
    let dir = match scope {
        Scope::User => host::home().ok_or(InstallError::NoHome)?,
        Scope::Project(root) => root.join(".cursor"),
    };
    Ok(Files {
        hooks: dir.join("hooks.json"),
        mcp: dir.join("mcp.json"),
        slash_command: dir.join("commands").join(format!("{SLASH_COMMAND}.md")),
    })
}

/// The `hooks` object of Throughline's hooks alone, for adding by hand.
pub fn hooks_object(program: &str) -> Map<String, Value> {
    HOOKS
        .iter()
        .map(|&(event, timeout)| (event.to_string(), json!([handler(timeout, program)])))
        .collect()
}

fn is_ours(handler: &Value) -> bool {
    handler["command"].as_str().is_some_and(is_throughline_hook)
}

/// Adds each missing hook and repairs a Throughline hook that differs (a moved binary) in
/// place, keeping one per event and every hook of the person's.
fn add_hooks(file: &mut JsonFile, program: &str) -> Result<Vec<String>, InstallError> {
    if !file.value.contains_key("version") {
        file.value.insert("version".into(), json!(1));
    }
    let hooks = file
        .value
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(events) = hooks else {
        return Err(malformed(file, "`hooks`", "Cursor"));
    };
    let (mut added, mut repaired, mut bad) = (Vec::new(), Vec::new(), None);
    for &(event, timeout) in HOOKS {
        let wanted = handler(timeout, program);
        let Value::Array(list) = events
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()))
        else {
            bad = Some(event);
            break;
        };
        let ours: Vec<usize> = (0..list.len()).filter(|&i| is_ours(&list[i])).collect();
        match ours.first() {
            None => {
                list.push(wanted);
                added.push(event);
            }
            Some(_) if ours.len() == 1 && list[ours[0]] == wanted => {}
            Some(&first) => {
                list[first] = wanted;
                let mut i = 0;
                list.retain(|h| {
                    i += 1;
                    i - 1 == first || !is_ours(h)
                });
                repaired.push(event);
            }
        }
    }
    if let Some(event) = bad {
        return Err(malformed(file, &format!("`hooks.{event}`"), "Cursor"));
    }
    let mut details = Vec::new();
    if !added.is_empty() {
        details.push(format!("added hooks: {}", added.join(", ")));
    }
    if !repaired.is_empty() {
        details.push(format!(
            "repointed hooks at this binary: {}",
            repaired.join(", ")
        ));
    }
    Ok(details)
}

/// Removes every Throughline hook, the lists this leaves empty, and what install alone added
/// to a file it created (`hooks`, `version`).
fn remove_hooks(file: &mut JsonFile) -> Vec<String> {
    let Some(Value::Object(events)) = file.value.get_mut("hooks") else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    let names: Vec<String> = events.keys().cloned().collect();
    for event in names {
        let Some(Value::Array(list)) = events.get_mut(&event) else {
            continue;
        };
        let before = list.len();
        list.retain(|h| !is_ours(h));
        if list.len() == before {
            continue;
        }
        if list.is_empty() {
            events.shift_remove(&event);
        }
        removed.push(event);
    }
    if removed.is_empty() {
        return Vec::new();
    }
    if events.is_empty() {
        file.value.shift_remove("hooks");
        // No backup means install created the file, `version` with it.
        if file.value.len() == 1
            && file.value.get("version") == Some(&json!(1))
            && !backup_path(file.path()).exists()
        {
            file.value.shift_remove("version");
        }
    }
    vec![format!("removed hooks: {}", removed.join(", "))]
}

pub fn install(options: &Options) -> Result<Report, InstallError> {
    let files = files(&options.scope)?;
    let program = shell_word(&options.binary);
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let details = add_hooks(&mut hooks, &program)?;
    let mut mcp = JsonFile::load_for_edit(&files.mcp)?;
    let mcp_details = add_mcp_server(
        &mut mcp,
        json!({ "command": options.binary, "args": ["mcp"] }),
        "Cursor",
    )?;
    Ok(Report {
        host: host::HOST,
        changes: vec![
            saved_json(&hooks, details)?,
            saved_json(&mcp, mcp_details)?,
            install_slash_command(&files.slash_command, slash_command(&program))?,
        ],
    })
}

pub fn uninstall(scope: &Scope) -> Result<Report, InstallError> {
    let files = files(scope)?;
    let mut hooks = JsonFile::load_for_edit(&files.hooks)?;
    let details = remove_hooks(&mut hooks);
    let mut mcp = JsonFile::load_for_edit(&files.mcp)?;
    let mcp_details = remove_mcp_server(&mut mcp);
    Ok(Report {
        host: host::HOST,
        changes: vec![
            saved_json(&hooks, details)?,
            saved_json(&mcp, mcp_details)?,
            uninstall_slash_command(&files.slash_command)?,
        ],
    })
}

/// Throughline's hooks in `file`, and the events that have none.
fn registered_hooks(file: &JsonFile) -> (Vec<RegisteredHook>, Vec<String>) {
    let mut hooks = Vec::new();
    if let Some(Value::Object(events)) = file.value.get("hooks") {
        for (event, list) in events {
            for command in list
                .as_array()
                .into_iter()
                .flatten()
                .filter(|h| is_ours(h))
                .filter_map(|h| h["command"].as_str())
            {
                hooks.push(RegisteredHook {
                    event: event.clone(),
                    binary: program_of(command),
                    command: command.to_string(),
                });
            }
        }
    }
    let missing = HOOKS
        .iter()
        .filter(|(event, _)| !hooks.iter().any(|h| h.event == *event))
        .map(|(event, _)| event.to_string())
        .collect();
    (hooks, missing)
}

pub fn inspect(scope: &Scope) -> Result<Registration, InstallError> {
    let files = files(scope)?;
    let hooks_file = JsonFile::load(&files.hooks)?;
    let (hooks, missing) = registered_hooks(&hooks_file);
    let mcp = JsonFile::load(&files.mcp)?;
    Ok(Registration {
        settings: hooks_file.path().to_path_buf(),
        hooks,
        missing,
        // Project hooks need a trusted workspace, which Cursor asks about itself.
        untrusted: Vec::new(),
        changed: Vec::new(),
        slash_command: our_slash_command(files.slash_command),
        mcp_server: our_mcp_program(&mcp.value),
        own_statusline: None,
    })
}

/// Whether the user's `hooks.json` runs Throughline: one small file read.
pub fn registered() -> bool {
    files(&Scope::User)
        .and_then(|f| JsonFile::load(&f.hooks))
        .is_ok_and(|file| !registered_hooks(&file).0.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const BIN: &str = "/opt/tl/throughline";

    fn options(root: &std::path::Path) -> Options {
        Options {
            scope: Scope::Project(root.to_path_buf()),
            binary: BIN.into(),
            statusline: false,
            wrap_statusline: false,
        }
    }

    fn read(path: &std::path::Path) -> Value {
        serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
    }

    #[test]
    fn install_writes_cursors_shape_and_uninstall_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let report = install(&options(dir.path())).unwrap();
        assert!(report.changed());
        let hooks = read(&dir.path().join(".cursor/hooks.json"));
        assert_eq!(hooks["version"], 1);
        assert_eq!(
            hooks["hooks"]["sessionStart"],
            json!([{ "command": "/opt/tl/throughline hook cursor", "timeout": 10 }])
        );
        assert_eq!(hooks["hooks"].as_object().unwrap().len(), HOOKS.len());
        assert_eq!(
            read(&dir.path().join(".cursor/mcp.json"))["mcpServers"]["throughline"]["args"],
            json!(["mcp"])
        );
        let command = fs::read_to_string(dir.path().join(".cursor/commands/tl.md")).unwrap();
        assert!(command.starts_with("/tl\n"));
        let scope = Scope::Project(dir.path().into());
        let found = inspect(&scope).unwrap();
        assert!(found.missing.is_empty());
        assert_eq!(found.hooks.len(), HOOKS.len());
        assert!(found.slash_command.is_some() && found.mcp_server.is_some());
        // Again: nothing to do.
        assert!(!install(&options(dir.path())).unwrap().changed());
        uninstall(&scope).unwrap();
        let left: Vec<_> = walk(dir.path());
        assert!(left.is_empty(), "left behind: {left:?}");
    }

    fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(walk(&path));
            } else {
                files.push(path);
            }
        }
        files
    }

    #[test]
    fn the_persons_hooks_stay_and_a_moved_binary_is_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/hooks.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let theirs = r#"{
  "version": 1,
  "hooks": {
    "stop": [{ "command": "./hooks/audit.sh", "loop_limit": 10 }],
    "afterFileEdit": [{ "command": "./hooks/format.sh" }]
  }
}
"#;
        fs::write(&path, theirs).unwrap();
        install(&options(dir.path())).unwrap();
        let mut moved = options(dir.path());
        moved.binary = "/usr/local/bin/throughline".into();
        let report = install(&moved).unwrap();
        assert!(report.changes[0]
            .details
            .iter()
            .any(|d| d.starts_with("repointed hooks")));
        let hooks = read(&path);
        assert_eq!(
            hooks["hooks"]["stop"],
            json!([
                { "command": "./hooks/audit.sh", "loop_limit": 10 },
                { "command": "/usr/local/bin/throughline hook cursor", "timeout": 30 }
            ])
        );
        uninstall(&Scope::Project(dir.path().into())).unwrap();
        let back: Value = serde_json::from_str(theirs).unwrap();
        assert_eq!(read(&path), back);
    }

    #[test]
    fn a_file_cursor_would_not_read_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/hooks.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, r#"{"version":1,"hooks":{"stop":{"command":"x"}}}"#).unwrap();
        let err = install(&options(dir.path())).unwrap_err().to_string();
        assert!(err.contains("hooks.stop"), "{err}");
        fs::write(&path, "// hooks\n{}").unwrap();
        assert!(matches!(
            install(&options(dir.path())),
            Err(InstallError::Commented(_))
        ));
    }
}
