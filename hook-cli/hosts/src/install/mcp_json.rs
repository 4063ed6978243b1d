//! Throughline's MCP server in a JSON settings file (`mcpServers`): Claude Code's shape, which
//! Cursor's and Gemini CLI's settings share.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::hook_groups;
use super::json_file::JsonFile;
use super::InstallError;

/// The name Throughline's MCP server is registered under.
pub const MCP_SERVER: &str = "throughline";

pub(crate) fn is_our_mcp_entry(value: &Value) -> bool {
    value["command"]
        .as_str()
        .is_some_and(|c| c.contains("throughline"))
}

/// The program our MCP server entry runs, in a JSON file's `mcpServers`.
pub(crate) fn our_mcp_program(file: &serde_json::Map<String, Value>) -> Option<PathBuf> {
    file.get("mcpServers")
        .and_then(|servers| servers.get(MCP_SERVER))
        .filter(|entry| is_our_mcp_entry(entry))
        .and_then(|entry| entry["command"].as_str().map(PathBuf::from))
}

/// Removes the `mcpServers` entry named `throughline` if it runs Throughline.
pub(crate) fn remove_mcp_server(file: &mut JsonFile) -> Vec<String> {
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

/// Registers `wanted` as the `mcpServers` entry named `throughline` (Claude Code's shape, which
/// Gemini CLI's settings share), unless the person's own server has the name.
pub(crate) fn add_mcp_server(
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
