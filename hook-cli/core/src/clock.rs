//! Wall-clock time as RFC 3339 text, the format transcripts use, so stored times sort as text.
//! `THROUGHLINE_NOW` freezes the clock for tests.

use std::time::{Duration, SystemTime};

pub const NOW_ENV: &str = "THROUGHLINE_NOW";

/// Seconds since the epoch: the unit clients report reset times in.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

pub fn now() -> String {
    if let Ok(frozen) = std::env::var(NOW_ENV) {
        if !frozen.is_empty() {
            return frozen;
        }
    }
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

fn parse(at: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(at.trim_end_matches('Z')).ok()
}

/// `at` plus `after`, in the same format (used for expiry times).
pub fn later(at: &str, after: Duration) -> String {
    let base = parse(at).unwrap_or_else(SystemTime::now);
    humantime::format_rfc3339_millis(base + after).to_string()
}

/// A time in seconds since the epoch as a stored timestamp.
pub fn rfc3339(secs: u64) -> String {
    humantime::format_rfc3339_millis(SystemTime::UNIX_EPOCH + Duration::from_secs(secs)).to_string()
}

/// The stored timestamp `by` before `at` (for "active since" queries); `None` when `at` is
/// not a timestamp. An age reaching back past 1970 gives 1970: nothing is stored before it,
/// and the format has no earlier time.
pub fn before(at: &str, by: Duration) -> Option<String> {
    let then = parse(at)?
        .checked_sub(by)
        .filter(|then| *then >= SystemTime::UNIX_EPOCH)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    Some(humantime::format_rfc3339_millis(then).to_string())
}

/// A stored time as the person's clock shows it, to the minute: `2026-11-30 09:44` in the
/// system's time zone (`TZ`, else `/etc/localtime`); the stored text when it is not a time.
/// Stored times and `--json` stay UTC. The C library's own conversion: every hook starts this
/// binary, and a time-zone crate would only make it bigger.
pub fn local(at: &str) -> String {
    let Some(secs) = parse(at)
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .and_then(|d| libc::time_t::try_from(d.as_secs()).ok())
    else {
        return at.to_string();
    };
    extern "C" {
        // POSIX, in every C library; the libc crate does not declare it.
        fn tzset();
    }
    // SAFETY: `tzset` reads the environment; `localtime_r` writes only into `tm`.
    let tm = unsafe {
        tzset();
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&secs, &mut tm).is_null() {
            return at.to_string();
        }
        tm
    };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min
    )
}

/// "3m ago", "2h ago", "5d ago" for a stored timestamp; empty when it cannot be read.
pub fn ago(at: &str) -> String {
    let (Some(then), Some(now)) = (parse(at), parse(&now())) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times_are_read_in_the_time_zone_set() {
        // The only test that sets `TZ`; a POSIX rule, so no time zone database is needed.
        std::env::set_var("TZ", "JST-9");
        assert_eq!(local("2026-11-30T08:43:57.886Z"), "2026-11-30 17:43");
        assert_eq!(local("not a time"), "not a time");
    }

    #[test]
    fn before_subtracts_in_the_stored_format() {
        let at = "2026-11-30T10:00:00.000Z";
        let earlier = before(at, Duration::from_secs(90 * 60)).unwrap();
        assert_eq!(earlier, "2026-11-30T08:30:00.000Z");
        assert!(earlier.as_str() < at, "stored times sort as text");
        assert_eq!(before("yesterday", Duration::from_secs(1)), None);
    }

    #[test]
    fn an_age_older_than_1970_reaches_back_to_1970() {
        let at = "2026-11-30T10:00:00.000Z";
        let epoch = "1970-01-01T00:00:00.000Z";
        let century = Duration::from_secs(36_500 * 86_400);
        assert_eq!(before(at, century).as_deref(), Some(epoch));
        assert_eq!(before(at, Duration::MAX).as_deref(), Some(epoch));
    }
}
