//! One line per failure, in `<home>/throughline.log` and on stderr. Hooks never print to
//! stdout unless they mean to inject, so this is where trouble shows.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;

use crate::clock;
use crate::home::Home;

/// Past this size the log is moved to `throughline.log.1`, so it never grows without bound.
const ROTATE_AT: u64 = 1 << 20;

pub fn line(home: &Home, context: &str, message: &str) {
    let message = message.replace('\n', " ");
    let text = format!("{} {context}: {message}\n", clock::now());
    eprintln!("throughline: {context}: {message}");
    let path = home.log_path();
    if home.ensure().is_err() {
        return;
    }
    if fs::metadata(&path)
        .map(|m| m.len() > ROTATE_AT)
        .unwrap_or(false)
    {
        let _ = fs::rename(&path, path.with_extension("log.1"));
    }
    let opened = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path);
    if let Ok(mut file) = opened {
        // A log made before it was created owner-only (or under another umask) is fixed.
        if let Ok(meta) = file.metadata() {
            let _ = crate::home::owner_only(&path, &meta);
        }
        let _ = file.write_all(text.as_bytes());
    }
}

/// The last `n` lines of the log, oldest first (for `status` and, later, `doctor`).
pub fn tail(home: &Home, n: usize) -> Vec<String> {
    let Ok(text) = fs::read_to_string(home.log_path()) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}
