//! Plan usage: the share of a subscriber's five-hour and seven-day limits in use, as Claude
//! Code hands it to its statusline command (`rate_limits`). The statusline records it here
//! when it changes, with its history (`history`); the tray app and `throughline monitor` show
//! it. No credentials are read: the client says what it knows.

use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::home::Home;

pub mod history;

/// One limit window: how much of it is used and when it starts afresh.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Percent of the window's allowance used, 0–100.
    pub used_percentage: f64,
    /// When the window resets, in seconds since the Unix epoch.
    pub resets_at: Option<u64>,
}

impl Window {
    /// Whether the figure is still the current window's at `now` (seconds since the epoch):
    /// past its reset it was the old window's, and the client reports the new one's only with
    /// its next answer.
    pub fn is_current(&self, now: u64) -> bool {
        self.resets_at.is_none_or(|reset| reset > now)
    }
}

/// The windows the client reported last.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanUsage {
    pub five_hour: Option<Window>,
    pub seven_day: Option<Window>,
}

impl PlanUsage {
    pub fn is_empty(&self) -> bool {
        self.five_hour.is_none() && self.seven_day.is_none()
    }

    /// Each window with its name as people say it (`5-hour`, `7-day`), shortest first.
    pub fn windows(&self) -> [(&'static str, Option<Window>); 2] {
        [("5-hour", self.five_hour), ("7-day", self.seven_day)]
    }

    /// Each window the client reported: its name and the share in use (`5-hour 42%`), and how
    /// long until it starts afresh (`2h 05m`) when the client said when. A window past its
    /// reset has no figure yet: the last one reported was the old window's. `now` in seconds
    /// since the epoch.
    pub fn in_use(&self, now: u64) -> Vec<(String, Option<String>)> {
        self.windows()
            .into_iter()
            .filter_map(|(name, window)| {
                let window = window?;
                Some(if window.is_current(now) {
                    (
                        format!("{name} {:.0}%", window.used_percentage),
                        window.resets_at.map(|at| countdown(at, now)),
                    )
                } else {
                    (format!("{name} reset, no new figure yet"), None)
                })
            })
            .collect()
    }
}

/// The recorded plan usage, read by the app and `monitor`.
pub fn path(home: &Home) -> PathBuf {
    home.dir().join("plan-usage.json")
}

/// What the client reported last; `None` before any report (API-key sessions never send one).
pub fn load(home: &Home) -> Option<PlanUsage> {
    let text = fs::read(path(home)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// Records `usage` when it differs from what is recorded: the statusline runs on every
/// prompt render, and an unchanged file costs one small read and no write (nor a wake-up
/// of the app watching the folder).
pub fn record(home: &Home, usage: &PlanUsage) -> std::io::Result<bool> {
    if usage.is_empty() || load(home).as_ref() == Some(usage) {
        return Ok(false);
    }
    home.ensure()?;
    // Each statusline process writes a file of its own first: several run at once.
    crate::atomic_file::write(&path(home), serde_json::to_string(usage)?.as_bytes(), 0o600)?;
    history::append(home, usage, crate::clock::unix_now())?;
    Ok(true)
}

/// `2h 05m`, `3d 4h`, `now` until `resets_at` from `now` (both seconds since the epoch).
pub fn countdown(resets_at: u64, now: u64) -> String {
    let secs = resets_at.saturating_sub(now);
    match secs {
        0 => "now".into(),
        1..=3599 => format!("{}m", secs.div_ceil(60)),
        3600..=86_399 => format!("{}h {:02}m", secs / 3600, (secs % 3600) / 60),
        _ => format!("{}d {}h", secs / 86_400, (secs % 86_400) / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(five: f64) -> PlanUsage {
        PlanUsage {
            five_hour: Some(Window {
                used_percentage: five,
                resets_at: Some(1_764_590_400),
            }),
            seven_day: None,
        }
    }

    #[test]
    fn a_window_past_its_reset_shows_no_old_figure() {
        let reset = 1_764_590_400;
        assert_eq!(
            usage(97.0).in_use(reset - 300),
            [("5-hour 97%".to_string(), Some("5m".to_string()))]
        );
        assert_eq!(
            usage(97.0).in_use(reset),
            [("5-hour reset, no new figure yet".to_string(), None)]
        );
    }

    #[test]
    fn a_report_is_written_once_and_again_only_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        assert_eq!(load(&home), None);
        assert!(record(&home, &usage(42.0)).unwrap());
        assert!(!record(&home, &usage(42.0)).unwrap());
        assert_eq!(load(&home), Some(usage(42.0)));
        assert!(record(&home, &usage(43.0)).unwrap());
        assert!(!record(&home, &PlanUsage::default()).unwrap());
        assert_eq!(load(&home), Some(usage(43.0)));
        fs::write(path(&home), "not json").unwrap();
        assert_eq!(load(&home), None);
        // Each change is in the history too, in order.
        let kept: Vec<f64> = history::read(&home)
            .iter()
            .map(|r| r.usage.five_hour.unwrap().used_percentage)
            .collect();
        assert_eq!(kept, [42.0, 43.0]);
    }

    #[test]
    fn countdowns_read_as_people_say_them() {
        assert_eq!(countdown(100, 200), "now");
        assert_eq!(countdown(130, 100), "1m");
        assert_eq!(countdown(100 + 2 * 3600 + 5 * 60, 100), "2h 05m");
        assert_eq!(countdown(100 + 3 * 86_400 + 4 * 3600, 100), "3d 4h");
    }
}
