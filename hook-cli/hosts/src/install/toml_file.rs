//! A host's `config.toml` edited in place (Codex, Grok), and Throughline's MCP server in it
//! (`[mcp_servers.throughline]`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Table};

use super::json_file::{replace_keeping_backup, write_atomically};
use super::{backup_path, change, remove, Action, Change, InstallError};

/// A host's config.toml as read, edited in place: what Throughline does not touch keeps its
/// bytes.
pub(crate) struct TomlFile {
    pub path: PathBuf,
    /// The host whose file it is, as people name it.
    owner: &'static str,
    original: Option<String>,
    pub doc: DocumentMut,
}

impl TomlFile {
    pub(crate) fn load(path: &Path, owner: &'static str) -> Result<TomlFile, InstallError> {
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

    pub(crate) fn load_for_edit(
        path: &Path,
        owner: &'static str,
    ) -> Result<TomlFile, InstallError> {
        let file = TomlFile::load(path, owner)?;
        if fs::metadata(&file.path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(InstallError::ReadOnly(file.path));
        }
        Ok(file)
    }

    pub fn malformed(&self, what: &str) -> InstallError {
        InstallError::NotToml {
            path: self.path.clone(),
            reason: format!("{what} is not what {} expects", self.owner),
        }
    }

    /// Writes the document when it changed, keeping the previous file as the backup; a file
    /// Throughline created and emptied again is removed.
    pub(crate) fn save(&self, details: Vec<String>) -> Result<Change, InstallError> {
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

/// The name Throughline's MCP server is registered under.
pub const MCP_SERVER: &str = "throughline";

/// The program `[mcp_servers.throughline]` starts, when it is Throughline.
pub(crate) fn our_mcp_program(config: &TomlFile) -> Option<PathBuf> {
    config
        .doc
        .get("mcp_servers")
        .and_then(|s| s.get(MCP_SERVER))
        .filter(|entry| is_our_mcp_entry(entry))
        .and_then(|entry| entry.get("command")?.as_str().map(PathBuf::from))
}

pub(crate) fn remove_mcp_server(config: &mut TomlFile) -> Vec<String> {
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

pub(crate) fn add_mcp_server(
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
