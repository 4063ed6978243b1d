//! Editing another program's JSON settings without disturbing them: the key order and the
//! layout are kept, a run that changes nothing writes nothing, and a write is atomic
//! (temporary file in the same folder, fsync, rename) after a backup of the previous file.
//! A backup has its file's mode, and goes when a change is undone.

use std::fs;
use std::io::{self};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use super::{change, remove, Action, Change, InstallError};
use throughline_core::atomic_file;

/// The indentation a file was written with, so that it is written back the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Layout {
    /// Everything on one line.
    Compact,
    Indented(String),
}

/// A JSON object file as it was read, and the way it was laid out.
#[derive(Debug)]
pub struct JsonFile {
    /// Where the bytes go: the target of a symbolic link, so a linked dotfile stays linked.
    path: PathBuf,
    original: Option<Vec<u8>>,
    layout: Layout,
    trailing_newline: bool,
    /// The value as read, to tell a real change from a different layout.
    read: Map<String, Value>,
    pub value: Map<String, Value>,
}

impl JsonFile {
    /// Reads `path`; a missing file is an empty object. Refuses files it could not write
    /// back faithfully: comments (JSONC), invalid JSON, a top level that is not an object.
    pub fn load(path: &Path) -> Result<JsonFile, InstallError> {
        let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(JsonFile {
                    path,
                    original: None,
                    layout: Layout::Indented("  ".into()),
                    trailing_newline: true,
                    read: Map::new(),
                    value: Map::new(),
                })
            }
            Err(source) => return Err(InstallError::Io { path, source }),
        };
        let value = parse_object(&path, &bytes)?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(JsonFile {
            layout: layout_of(&text),
            trailing_newline: text.ends_with('\n'),
            original: Some(bytes),
            path,
            read: value.clone(),
            value,
        })
    }

    /// [`load`](Self::load), refusing also a file the person made read-only.
    pub fn load_for_edit(path: &Path) -> Result<JsonFile, InstallError> {
        let file = JsonFile::load(path)?;
        if fs::metadata(&file.path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(InstallError::ReadOnly(file.path));
        }
        Ok(file)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn existed(&self) -> bool {
        self.original.is_some()
    }

    /// Whether the value differs from what was read.
    pub fn changed(&self) -> bool {
        !same_in_order(&self.read, &self.value)
    }

    /// The bytes the current value would be written as.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let value = Value::Object(self.value.clone());
        match &self.layout {
            Layout::Compact => serde_json::to_writer(&mut out, &value),
            Layout::Indented(indent) => {
                let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
                let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
                value.serialize(&mut ser)
            }
        }
        .expect("a JSON value always serializes");
        if self.trailing_newline {
            out.push(b'\n');
        }
        out
    }

    /// Writes the value back when it differs from what was read, keeping the previous
    /// file as [`backup_path`] (see [`replace_keeping_backup`]).
    pub fn save(&self) -> Result<Saved, InstallError> {
        if !self.changed() {
            return Ok(Saved::Unchanged);
        }
        let bytes = self.restored().unwrap_or_else(|| self.render());
        let Some(original) = &self.original else {
            write_atomically(&self.path, &bytes)?;
            return Ok(Saved::Created);
        };
        if *original == bytes {
            return Ok(Saved::Unchanged);
        }
        Ok(
            match replace_keeping_backup(&self.path, original, &bytes)? {
                Some(_) => Saved::Updated,
                None => Saved::Restored,
            },
        )
    }
}

impl JsonFile {
    /// The backup's bytes when they hold this value in this key order, objects and lists
    /// left empty aside (`"hooks": {}` once Throughline's hooks are taken out): undoing a
    /// change then gives back the very file the person had, whatever its layout.
    fn restored(&self) -> Option<Vec<u8>> {
        let backup = fs::read(backup_path(&self.path)).ok()?;
        let Ok(Value::Object(previous)) = serde_json::from_slice::<Value>(&backup) else {
            return None;
        };
        let same = serde_json::to_string(&without_empty(previous)).ok()?
            == serde_json::to_string(&without_empty(self.value.clone())).ok()?;
        same.then_some(backup)
    }
}

/// `map` without the members that are (or, once emptied in turn, become) `{}` or `[]`.
fn without_empty(map: Map<String, Value>) -> Map<String, Value> {
    map.into_iter()
        .filter_map(|(key, value)| {
            let value = match value {
                Value::Object(inner) => Value::Object(without_empty(inner)),
                other => other,
            };
            let empty = match &value {
                Value::Object(inner) => inner.is_empty(),
                Value::Array(items) => items.is_empty(),
                _ => false,
            };
            (!empty).then_some((key, value))
        })
        .collect()
}

/// Equal values with their keys in the same order (map equality alone ignores the order).
fn same_in_order(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a == b && serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// What [`JsonFile::save`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Unchanged,
    Created,
    /// Changed, the previous file kept as its backup.
    Updated,
    /// Given back the bytes its backup held (a change undone); the backup went.
    Restored,
}

impl From<Saved> for super::Action {
    fn from(saved: Saved) -> Self {
        match saved {
            Saved::Unchanged => super::Action::Unchanged,
            Saved::Created => super::Action::Created,
            Saved::Updated | Saved::Restored => super::Action::Updated,
        }
    }
}

/// `settings.json` → `settings.json.throughline-backup`: the file as it was before the last change.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".throughline-backup");
    path.with_file_name(name)
}

fn parse_object(path: &Path, bytes: &[u8]) -> Result<Map<String, Value>, InstallError> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(InstallError::NotJson {
            path: path.to_path_buf(),
            reason: "its top level is not a JSON object".into(),
        }),
        Err(e) => {
            // Comments come out as blanks: if stripping them changed the text, it is JSONC.
            let mut stripped = Vec::with_capacity(bytes.len());
            let has_comments =
                io::Read::read_to_end(&mut json_comments::StripComments::new(bytes), &mut stripped)
                    .is_ok_and(|_| stripped != bytes);
            if has_comments {
                Err(InstallError::Commented(path.to_path_buf()))
            } else {
                Err(InstallError::NotJson {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                })
            }
        }
    }
}

/// The indentation of the first indented line; a file without one is compact.
fn layout_of(text: &str) -> Layout {
    text.trim_end()
        .lines()
        .skip(1)
        .map(|line| &line[..line.len() - line.trim_start().len()])
        .find(|indent| !indent.is_empty())
        .map(|indent| Layout::Indented(indent.to_string()))
        .unwrap_or(if text.trim_end().contains('\n') {
            Layout::Indented("  ".into())
        } else {
            Layout::Compact
        })
}

/// The mode of a file Throughline creates in a host's settings folder, as the hosts make
/// their own.
const NEW_FILE_MODE: u32 = 0o644;

/// The mode of a folder Throughline creates (`~/.claude`, `~/.codex/skills/tl`): owner only,
/// whatever the umask, as it holds a person's settings.
const NEW_FOLDER_MODE: u32 = 0o700;

/// Creates `dir` and the folders above it that are missing, with [`NEW_FOLDER_MODE`].
pub fn create_folders(dir: &Path) -> io::Result<()> {
    // The umask can only take permissions away from 0700, so none is given to others.
    fs::DirBuilder::new()
        .recursive(true)
        .mode(NEW_FOLDER_MODE)
        .create(dir)
}

/// Writes `bytes` over `path`, whose bytes were `original`, keeping `original` as the
/// backup, with the file's mode (a private file's backup is as private). When `bytes` are
/// the backup's own (a change undone, the person's file given back), the backup goes instead:
/// it holds nothing the file does not. Returns the backup when one is kept.
pub fn replace_keeping_backup(
    path: &Path,
    original: &[u8],
    bytes: &[u8],
) -> Result<Option<PathBuf>, InstallError> {
    let backup = backup_path(path);
    if fs::read(&backup).is_ok_and(|held| held == bytes) {
        write_atomically(path, bytes)?;
        fs::remove_file(&backup).map_err(|source| InstallError::Io {
            path: backup.clone(),
            source,
        })?;
        return Ok(None);
    }
    let mode = fs::metadata(path).map_or(0o600, |m| m.permissions().mode());
    write_with_mode(&backup, original, mode)?;
    write_atomically(path, bytes)?;
    Ok(Some(backup))
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`, so
/// a reader sees the old file or the new one, never half of one. Keeps the file's mode.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), InstallError> {
    let mode = fs::metadata(path).map_or(NEW_FILE_MODE, |m| m.permissions().mode());
    write_with_mode(path, bytes, mode)
}

fn write_with_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), InstallError> {
    let io_err = |source| InstallError::Io {
        path: path.to_path_buf(),
        source,
    };
    create_folders(path.parent().unwrap_or(Path::new("."))).map_err(io_err)?;
    atomic_file::write(path, bytes, mode).map_err(io_err)
}

/// The file's change, after writing it when its content changed; a file Throughline created
/// and emptied again is removed.
pub(crate) fn saved_json(file: &JsonFile, details: Vec<String>) -> Result<Change, InstallError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        fs::write(&path, text).unwrap();
        let file = JsonFile::load(&path).unwrap();
        String::from_utf8(file.render()).unwrap()
    }

    #[test]
    fn writes_back_the_layout_it_read() {
        for text in [
            "{\n  \"b\": 1,\n  \"a\": [\n    \"x\"\n  ]\n}",
            "{\n    \"b\": 1,\n    \"a\": {}\n}\n",
            "{\n\t\"z\": true,\n\t\"a\": null\n}\n",
            "{\"z\":1,\"a\":[1,2]}",
            "{}\n",
        ] {
            assert_eq!(roundtrip(text), text);
        }
    }

    #[test]
    fn refuses_comments_and_invalid_json_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        fs::write(&path, "{\n  // mine\n  \"a\": 1\n}\n").unwrap();
        assert!(matches!(
            JsonFile::load(&path),
            Err(InstallError::Commented(_))
        ));
        fs::write(&path, "{\"a\": 1,,}").unwrap();
        let err = JsonFile::load(&path).unwrap_err();
        assert!(matches!(err, InstallError::NotJson { .. }), "{err}");
        fs::write(&path, "[1]").unwrap();
        assert!(JsonFile::load(&path)
            .unwrap_err()
            .to_string()
            .contains("not a JSON object"));
    }

    #[test]
    fn saving_an_unchanged_file_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        fs::write(&path, "{\"a\": 1}").unwrap();
        let file = JsonFile::load(&path).unwrap();
        assert_eq!(file.save().unwrap(), Saved::Unchanged);
        assert!(!backup_path(&path).exists());
    }

    #[test]
    fn a_change_keeps_a_backup_and_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        fs::write(&path, "{\"a\": 1}").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let mut file = JsonFile::load(&path).unwrap();
        file.value.insert("b".into(), Value::Bool(true));
        assert_eq!(file.save().unwrap(), Saved::Updated);
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\":1,\"b\":true}");
        assert_eq!(
            fs::read_to_string(backup_path(&path)).unwrap(),
            "{\"a\": 1}"
        );
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(".throughline-"))
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    }

    #[test]
    fn undoing_a_change_gives_back_the_very_bytes_whatever_the_layout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        // A layout the serializer would not reproduce: spaces after colons on one line.
        let mine = "{\"a\": 1, \"z\": [1, 2]}";
        fs::write(&path, mine).unwrap();
        let mut file = JsonFile::load(&path).unwrap();
        file.value.insert("ours".into(), Value::Bool(true));
        assert_eq!(file.save().unwrap(), Saved::Updated);
        let mut file = JsonFile::load(&path).unwrap();
        file.value.shift_remove("ours");
        assert_eq!(file.save().unwrap(), Saved::Restored);
        assert_eq!(fs::read_to_string(&path).unwrap(), mine);
        assert!(!backup_path(&path).exists(), "it held nothing more");
    }
}
