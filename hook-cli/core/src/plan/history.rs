//! The plan windows over time: every report the statusline records is also appended to
//! `plan-history.jsonl`, so the app can draw each window's use against its pace, project when
//! the limit is reached at the recent burn rate, and list the limits reached before.

use std::fs::OpenOptions;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{PlanUsage, Window};
use crate::home::Home;

/// One report of the client, with when it was recorded (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub at: u64,
    #[serde(flatten)]
    pub usage: PlanUsage,
}

/// How long reports are kept: a seven-day window and a day before it.
const KEEP_SECS: u64 = 8 * 86_400;
/// The file is cut to [`KEEP_SECS`] and [`KEEP_REPORTS`] once it grows past this, so a reader
/// never reads more than about this much.
const MAX_BYTES: u64 = 512 << 10;
/// Reports kept when the file is cut: a report is about 130 bytes.
const KEEP_REPORTS: usize = 2_000;

pub fn path(home: &Home) -> PathBuf {
    home.dir().join("plan-history.jsonl")
}

/// Appends `usage` as reported at `now`. One line in one write to a file opened for appending,
/// so statusline processes running at once never interleave their lines; past [`MAX_BYTES`]
/// the file is rewritten with its recent reports (a report appended by another process during
/// that rewrite may be lost: a point of a chart, nothing more).
pub(super) fn append(home: &Home, usage: &PlanUsage, now: u64) -> io::Result<()> {
    let mut line = serde_json::to_string(&Report {
        at: now,
        usage: usage.clone(),
    })?;
    line.push('\n');
    let path = path(home);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path)?;
    file.write_all(line.as_bytes())?;
    if file.metadata()?.len() > MAX_BYTES {
        let kept = recent(read(home), now);
        let text: String = kept
            .iter()
            .filter_map(|r| serde_json::to_string(r).ok())
            .map(|l| l + "\n")
            .collect();
        crate::atomic_file::write(&path, text.as_bytes(), 0o600)?;
    }
    Ok(())
}

/// The reports of the last [`KEEP_SECS`] before `now`, at most the [`KEEP_REPORTS`] newest.
fn recent(mut reports: Vec<Report>, now: u64) -> Vec<Report> {
    reports.retain(|r| r.at + KEEP_SECS >= now);
    let extra = reports.len().saturating_sub(KEEP_REPORTS);
    reports.drain(..extra);
    reports
}

/// Every recorded report, oldest first; lines that do not parse (a write cut short) are left
/// out. Reads at most twice [`MAX_BYTES`], the newest part, whatever the file has become.
pub fn read(home: &Home) -> Vec<Report> {
    let Ok(bytes) = read_tail(&path(home), 2 * MAX_BYTES) else {
        return Vec::new();
    };
    let mut reports: Vec<Report> = bytes
        .split(|b| *b == b'\n')
        .filter_map(|line| serde_json::from_slice(line).ok())
        .collect();
    reports.sort_by_key(|r| r.at);
    reports
}

fn read_tail(path: &Path, most: u64) -> io::Result<Vec<u8>> {
    let mut file = crate::regular_file::open(path)?;
    let len = file.metadata()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(most)))?;
    let mut bytes = Vec::new();
    file.take(most).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How long the five-hour window runs, in seconds.
pub const FIVE_HOURS: u64 = 5 * 3600;

/// How long each window runs, by its name.
fn length_of(name: &str) -> u64 {
    match name {
        "5-hour" => FIVE_HOURS,
        _ => 7 * 86_400,
    }
}

/// Over how much of the recent past the burn rate is measured: long enough to smooth one
/// large request, short enough to follow a change of pace.
fn burn_span(name: &str) -> u64 {
    match name {
        "5-hour" => 3600,
        _ => 86_400,
    }
}

/// Reports a client makes of one window carry the same reset time, give or take a rounding.
const SAME_RESET_SECS: u64 = 120;

/// One plan window as it went so far, for a chart: its use over time, the even pace that
/// would last exactly until it resets, and where the recent burn rate takes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outlook {
    /// `5-hour` or `7-day`.
    pub name: &'static str,
    /// When the window began and when it resets (seconds since the epoch).
    pub starts_at: u64,
    pub resets_at: u64,
    /// Percent used now.
    pub used: f64,
    /// Percent an even pace would have used by now.
    pub pace: f64,
    /// Percent used at each report of this window, oldest first (seconds, percent).
    pub points: Vec<(u64, f64)>,
    /// Percent per hour over the recent past, when use grew.
    pub burn_per_hour: Option<f64>,
    /// When the limit is reached at that rate, if before the window resets.
    pub full_at: Option<u64>,
}

/// The outlook of each window the client reported last, as of `now`.
pub fn outlooks(latest: &PlanUsage, history: &[Report], now: u64) -> Vec<Outlook> {
    latest
        .windows()
        .into_iter()
        .filter_map(|(name, window)| outlook(name, window?, history, now))
        .collect()
}

fn outlook(name: &'static str, window: Window, history: &[Report], now: u64) -> Option<Outlook> {
    let resets_at = window.resets_at.filter(|&at| at > now)?;
    let length = length_of(name);
    let starts_at = resets_at.saturating_sub(length);
    let same = |w: &Window| {
        w.resets_at
            .is_some_and(|at| at.abs_diff(resets_at) <= SAME_RESET_SECS)
    };
    let mut points: Vec<(u64, f64)> = history
        .iter()
        .filter(|r| r.at >= starts_at && r.at <= now)
        .filter_map(|r| {
            let w = window_named(&r.usage, name)?;
            same(&w).then_some((r.at, w.used_percentage))
        })
        .collect();
    if points
        .last()
        .is_none_or(|&(_, used)| used != window.used_percentage)
    {
        points.push((now, window.used_percentage));
    }
    let elapsed = now.saturating_sub(starts_at).min(length);
    let pace = 100.0 * elapsed as f64 / length as f64;
    let burn_per_hour = burn_rate(&points, now, burn_span(name));
    let full_at = burn_per_hour.and_then(|rate| {
        let hours = (100.0 - window.used_percentage).max(0.0) / rate;
        let at = now + (hours * 3600.0) as u64;
        (at < resets_at).then_some(at)
    });
    Some(Outlook {
        name,
        starts_at,
        resets_at,
        used: window.used_percentage,
        pace,
        points,
        burn_per_hour,
        full_at,
    })
}

fn window_named(usage: &PlanUsage, name: &str) -> Option<Window> {
    usage
        .windows()
        .into_iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, w)| w)
}

/// Percent per hour from the earliest report within `span` before `now` to the latest, when
/// use grew over at least five minutes of it.
fn burn_rate(points: &[(u64, f64)], now: u64, span: u64) -> Option<f64> {
    let &(last_at, last) = points.last()?;
    let &(first_at, first) = points.iter().find(|(at, _)| at + span >= now)?;
    let hours = last_at.saturating_sub(first_at) as f64 / 3600.0;
    (hours * 3600.0 >= 300.0 && last > first).then(|| (last - first) / hours)
}

/// The plan windows over time, for the app's charts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PlanHistory {
    /// Each window the client reported last, as it went so far.
    pub outlooks: Vec<Outlook>,
    /// The windows that reached their limit, newest first.
    pub limit_hits: Vec<LimitHit>,
}

/// What the recorded reports say as of `now`; empty before any report.
pub fn summary(home: &Home, now: u64) -> PlanHistory {
    let Some(latest) = super::load(home) else {
        return PlanHistory::default();
    };
    let history = read(home);
    PlanHistory {
        outlooks: outlooks(&latest, &history, now),
        limit_hits: limit_hits(&history),
    }
}

/// A window that reached its limit: which, and when it was first reported full.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LimitHit {
    pub name: &'static str,
    pub at: u64,
    /// When that window reset, so the wait it caused is known.
    pub resets_at: Option<u64>,
}

/// Each time a window reached 100%, newest first: one hit per window that did.
pub fn limit_hits(history: &[Report]) -> Vec<LimitHit> {
    let mut hits: Vec<LimitHit> = Vec::new();
    for report in history {
        for (name, window) in report.usage.windows() {
            let Some(window) = window.filter(|w| w.used_percentage >= 100.0) else {
                continue;
            };
            let known = hits.iter().any(|h| {
                h.name == name
                    && match (h.resets_at, window.resets_at) {
                        (Some(a), Some(b)) => a.abs_diff(b) <= SAME_RESET_SECS,
                        _ => report.at.saturating_sub(h.at) < length_of(name),
                    }
            });
            if !known {
                hits.push(LimitHit {
                    name,
                    at: report.at,
                    resets_at: window.resets_at,
                });
            }
        }
    }
    hits.reverse();
    hits
}

#[cfg(test)]
mod tests;
