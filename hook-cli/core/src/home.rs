//! Where Throughline keeps its files: `$THROUGHLINE_HOME`, else the platform data dir.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const HOME_ENV: &str = "THROUGHLINE_HOME";

/// The folder holding the database, the log and the config. Created owner-only.
#[derive(Debug, Clone)]
pub struct Home {
    dir: PathBuf,
}

impl Home {
    /// `$THROUGHLINE_HOME` if set, else e.g. `~/.local/share/throughline`.
    pub fn locate() -> io::Result<Home> {
        if let Some(dir) = std::env::var_os(HOME_ENV).filter(|v| !v.is_empty()) {
            return Ok(Home::at(dir));
        }
        let base = dirs::data_dir().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no data directory for this user; set {HOME_ENV} to a folder"),
            )
        })?;
        Ok(Home::at(base.join("throughline")))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Home {
        Home { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn db_path(&self) -> PathBuf {
        self.dir.join("throughline.db")
    }

    pub fn log_path(&self) -> PathBuf {
        self.dir.join("throughline.log")
    }

    /// Creates the folder readable by the owner only (the memory holds whole conversations),
    /// and takes away what others may do in one that exists.
    pub fn ensure(&self) -> io::Result<()> {
        if let Ok(meta) = fs::metadata(&self.dir) {
            if meta.is_dir() {
                return owner_only(&self.dir, &meta);
            }
        }
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)?;
        fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700))
    }

    /// Deletes the stored memory (the database and its log) and the folder when nothing else
    /// is in it. Returns what was deleted.
    pub fn purge(&self) -> io::Result<Vec<PathBuf>> {
        let db = self.db_path();
        let log = self.log_path();
        let mut deleted = Vec::new();
        for path in [
            db.with_extension("db-wal"),
            db.with_extension("db-shm"),
            // Where a hook says it waits for the lock, and bulk work that it is at work
            // (store/bulk.rs).
            db.with_extension("db-waiting"),
            db.with_extension("db-bulk"),
            db,
            log.with_extension("log.1"),
            log,
        ] {
            match fs::remove_file(&path) {
                Ok(()) => deleted.push(path),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        if fs::remove_dir(&self.dir).is_ok() {
            deleted.push(self.dir.clone());
        }
        Ok(deleted)
    }
}

/// Mode bits that let others than the owner in.
const OTHERS: u32 = 0o077;

/// Takes group and other permissions off `path` (whose metadata is `meta`), if it has any.
pub fn owner_only(path: &Path, meta: &fs::Metadata) -> io::Result<()> {
    let mode = meta.permissions().mode();
    if mode & OTHERS == 0 {
        return Ok(());
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode & !OTHERS & 0o7777))
}
