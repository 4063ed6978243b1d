//! The `hooks` object Claude Code and Codex share (`{"Event": [{"matcher"?, "hooks": [handler]}]}`):
//! Throughline's handlers added beside the person's own, repaired in place, removed exactly.

use serde_json::{json, Map, Value};

use super::json_file::JsonFile;
use super::{is_throughline_hook, program_of, InstallError, RegisteredHook};

use throughline_core::model::Host;

/// One hook Throughline registers.
pub struct HookSpec {
    pub event: &'static str,
    /// Tool events take a matcher; `*` is every tool.
    pub tool_event: bool,
    /// Seconds the host waits before giving up on the hook.
    pub timeout: u32,
    /// Capture-only events run in the background, so they never slow the agent down.
    pub run_async: bool,
}

pub const fn spec(
    event: &'static str,
    tool_event: bool,
    timeout: u32,
    run_async: bool,
) -> HookSpec {
    HookSpec {
        event,
        tool_event,
        timeout,
        run_async,
    }
}

fn handler(spec: &HookSpec, host: Host, program: &str) -> Value {
    let mut handler = json!({
        "type": "command",
        "command": format!("{program} hook {}", host.as_str()),
        "timeout": spec.timeout,
    });
    if spec.run_async {
        handler["async"] = Value::Bool(true);
    }
    handler
}

/// The `hooks` object of `specs` alone.
pub fn object(specs: &[HookSpec], host: Host, program: &str) -> Map<String, Value> {
    specs
        .iter()
        .map(|spec| (spec.event.to_string(), json!([group(spec, host, program)])))
        .collect()
}

pub fn group(spec: &HookSpec, host: Host, program: &str) -> Value {
    if spec.tool_event {
        json!({ "matcher": "*", "hooks": [handler(spec, host, program)] })
    } else {
        json!({ "hooks": [handler(spec, host, program)] })
    }
}

pub fn malformed(file: &JsonFile, what: &str, program: &str) -> InstallError {
    InstallError::NotJson {
        path: file.path().to_path_buf(),
        reason: format!("{what} is not what {program} expects"),
    }
}

/// Adds each missing hook, and repairs Throughline hooks that differ (a moved binary, older
/// settings) in place, keeping one per event.
pub fn add(
    file: &mut JsonFile,
    specs: &[HookSpec],
    host: Host,
    program: &str,
) -> Result<Vec<String>, InstallError> {
    let mut added = Vec::new();
    let mut repaired = Vec::new();
    let hooks = file
        .value
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(events) = hooks else {
        return Err(malformed(file, "`hooks`", crate::agent(host).spec().name));
    };
    let mut bad_event = None;
    for spec in specs {
        let groups = events
            .entry(spec.event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            bad_event = Some(spec.event);
            break;
        };
        let wanted = handler(spec, host, program);
        let ours = our_handlers(groups);
        match ours.first() {
            None => {
                groups.push(group(spec, host, program));
                added.push(spec.event);
            }
            Some(&(g, h)) => {
                if ours.len() == 1 && groups[g]["hooks"][h] == wanted {
                    continue;
                }
                groups[g]["hooks"][h] = wanted;
                let mut first = true;
                retain_handlers(groups, |handler| {
                    let keep = !is_ours(handler) || first;
                    first &= !is_ours(handler);
                    keep
                });
                repaired.push(spec.event);
            }
        }
    }
    if let Some(event) = bad_event {
        return Err(malformed(
            file,
            &format!("`hooks.{event}`"),
            crate::agent(host).spec().name,
        ));
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

/// Removes every Throughline hook, and the lists and the `hooks` object that this leaves empty.
pub fn remove(file: &mut JsonFile) -> Vec<String> {
    let Some(Value::Object(events)) = file.value.get_mut("hooks") else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    let names: Vec<String> = events.keys().cloned().collect();
    for event in names {
        let Some(Value::Array(groups)) = events.get_mut(&event) else {
            continue;
        };
        if retain_handlers(groups, |h| !is_ours(h)) == 0 {
            continue;
        }
        if groups.is_empty() {
            events.shift_remove(&event);
        }
        removed.push(event);
    }
    if events.is_empty() && !removed.is_empty() {
        file.value.shift_remove("hooks");
    }
    if removed.is_empty() {
        Vec::new()
    } else {
        vec![format!("removed hooks: {}", removed.join(", "))]
    }
}

fn is_ours(handler: &Value) -> bool {
    handler["command"].as_str().is_some_and(is_throughline_hook)
}

/// (group, handler) positions of Throughline's handlers in an event's groups.
fn our_handlers(groups: &[Value]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        if let Some(handlers) = group["hooks"].as_array() {
            for (h, handler) in handlers.iter().enumerate() {
                if is_ours(handler) {
                    found.push((g, h));
                }
            }
        }
    }
    found
}

/// Throughline's handlers of an event: (group, handler, command).
pub fn our_handlers_in(groups: &Value) -> Vec<(usize, usize, String)> {
    let groups = groups.as_array().map(Vec::as_slice).unwrap_or_default();
    our_handlers(groups)
        .into_iter()
        .filter_map(|(g, h)| {
            let command = groups[g]["hooks"][h]["command"].as_str()?;
            Some((g, h, command.to_string()))
        })
        .collect()
}

pub fn our_commands(groups: &Value) -> Vec<String> {
    let groups = groups.as_array().map(Vec::as_slice).unwrap_or_default();
    our_handlers(groups)
        .into_iter()
        .filter_map(|(g, h)| groups[g]["hooks"][h]["command"].as_str().map(String::from))
        .collect()
}

/// Keeps the handlers `keep` accepts; a group left with no handler goes too. Returns how
/// many handlers were removed.
fn retain_handlers(groups: &mut Vec<Value>, mut keep: impl FnMut(&Value) -> bool) -> usize {
    let mut removed = 0;
    groups.retain_mut(|group| {
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = handlers.len();
        handlers.retain(&mut keep);
        removed += before - handlers.len();
        !(handlers.is_empty() && before > 0)
    });
    removed
}

/// Throughline's hooks in `file`'s `hooks` object, and the events of `specs` that have none.
pub fn registered(file: &JsonFile, specs: &[HookSpec]) -> (Vec<RegisteredHook>, Vec<String>) {
    let mut hooks = Vec::new();
    if let Some(Value::Object(events)) = file.value.get("hooks") {
        for (event, groups) in events {
            for command in our_commands(groups) {
                hooks.push(RegisteredHook {
                    event: event.clone(),
                    binary: program_of(&command),
                    command,
                });
            }
        }
    }
    let missing = specs
        .iter()
        .filter(|spec| !hooks.iter().any(|h| h.event == spec.event))
        .map(|spec| spec.event.to_string())
        .collect();
    (hooks, missing)
}
