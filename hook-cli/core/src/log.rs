//! One line per failure, in `<home>/throughline.log` and on stderr. Hooks never print to
//! stdout unless they mean to inject, so this is where trouble shows.
//!
//! A failure can quote what it failed on (a transcript line a parse error cites, a config
//! value), so each line passes through the same [`Redactor`] as what is stored.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::Arc;

use crate::clock;
use crate::config;
use crate::home::Home;
use crate::redact::{Counts, Redactor};

/// Past this size the log is moved to `throughline.log.1`, so it never grows without bound.
const ROTATE_AT: u64 = 1 << 20;

pub fn line(home: &Home, context: &str, message: &str) {
    let message = message.replace('\n', " ");
    let message = redactor(home)
        .redact(&message, &mut Counts::new())
        .into_owned();
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
    // A log written by an older version may hold a secret; it is not shown again.
    let redactor = redactor(home);
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| redactor.redact(l, &mut Counts::new()).into_owned())
        .collect()
}

/// The redactor of what is stored: the built-in rules and the person's patterns, or the
/// built-in rules alone when those do not compile (a problem the config reports).
fn redactor(home: &Home) -> Arc<Redactor> {
    let patterns = config::load(home).config.redact_patterns;
    Redactor::with_patterns(&patterns).unwrap_or_else(|_| Redactor::shared_builtin())
}
