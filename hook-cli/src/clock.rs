//! Wall-clock time as RFC 3339 text, the format transcripts use, so stored times sort as text.
//! `THROUGHLINE_NOW` freezes the clock for tests.

use std::time::SystemTime;

pub const NOW_ENV: &str = "THROUGHLINE_NOW";

pub fn now() -> String {
    if let Ok(frozen) = std::env::var(NOW_ENV) {
        if !frozen.is_empty() {
            return frozen;
        }
    }
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// `at` plus `after`, in the same format (used for expiry times).
pub fn later(at: &str, after: std::time::Duration) -> String {
    let base = humantime::parse_rfc3339_weak(at.trim_end_matches('Z'))
        .unwrap_or_else(|_| SystemTime::now());
    humantime::format_rfc3339_millis(base + after).to_string()
}

/// "3m ago", "2h ago", "5d ago" for a stored timestamp; empty when it cannot be read.
pub fn ago(at: &str) -> String {
    let (Ok(then), Ok(now)) = (
        humantime::parse_rfc3339_weak(at.trim_end_matches('Z')),
        humantime::parse_rfc3339_weak(now().trim_end_matches('Z')),
    ) else {
        return String::new();
    };
    let secs = now.duration_since(then).map(|d| d.as_secs()).unwrap_or(0);
    match secs {
        0..=59 => format!("{secs}s ago"),
        60..=3599 => format!("{}m ago", secs / 60),
        3600..=86_399 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}
