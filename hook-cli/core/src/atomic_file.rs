//! Files other processes read while one is written (settings, the recorded plan usage, a
//! client's settings file): written whole to a temporary file beside the target, synced, then
//! renamed over it, so a reader sees the old file or the new one, never half of one. Each
//! writer gets a temporary file of its own, so concurrent writers never write into one file.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Replaces `path` with `bytes`, with permissions `mode`. The folder must exist.
pub fn write(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Created owner-only; widened (if at all) before anything is in it.
    let mut tmp = tempfile::Builder::new()
        .prefix(".throughline-")
        .tempfile_in(dir)?;
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode & 0o7777))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename itself is durable once the folder is synced.
    if let Ok(folder) = fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_with_its_mode_and_nothing_is_left_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, "old").unwrap();
        write(&path, b"new", 0o600).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn concurrent_writers_leave_one_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan-usage.json");
        let texts: Vec<String> = (0..8).map(|i| format!("{i}").repeat(4096)).collect();
        std::thread::scope(|scope| {
            for text in &texts {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..20 {
                        write(path, text.as_bytes(), 0o644).unwrap();
                    }
                });
            }
        });
        let read = fs::read_to_string(&path).unwrap();
        assert!(texts.contains(&read), "a mix of writers: {}", &read[..40]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
