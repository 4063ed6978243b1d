//! Warns ahead: a desktop notification when a session's gauge turns red (90% of its window up
//! to the compaction threshold), with a "Hand off now" button that hands its memory to the
//! next new chat; and one when a plan window (five-hour, seven-day) reaches the percent the
//! person set (`plan_warn_percent`). Once per crossing: a session or a window warns again
//! only after it fell back (after a compaction or a reset, say), and its notification is then
//! withdrawn: a warning left on screen would hand off a session that no longer needs it.
//! Clicking either notification (its default action) opens the window.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use tauri::{AppHandle, Manager};
use throughline_engine::hosts::CompactRule;
use throughline_engine::plan::{countdown, Window};

use crate::meter::{Level, SessionMeter, Snapshot};

const HAND_OFF: &str = "hand-off";
/// What notification servers invoke when the notification itself is clicked.
const OPEN: (&str, &str) = ("default", "Open Throughline");

/// Which sessions warned, and which notification belongs to which session.
#[derive(Default)]
pub struct Warnings {
    warned: Mutex<HashSet<String>>,
    /// The plan windows at or past the person's percent.
    plan_warned: Mutex<HashSet<&'static str>>,
    /// The app's notifications by id (the bus sends every program's button presses), with
    /// what each warns of.
    notifications: Mutex<HashMap<u32, About>>,
}

/// What a notification warns of.
#[derive(Debug, Clone, PartialEq)]
enum About {
    /// A session near compaction: its "Hand off now" hands it off.
    Session(String),
    /// A plan window, by name.
    Plan(&'static str),
}

impl About {
    /// Whether the warning still holds: its session is still red, its window still over.
    fn holds(&self, warned: &HashSet<String>, plan_warned: &HashSet<&'static str>) -> bool {
        match self {
            About::Session(id) => warned.contains(id),
            About::Plan(name) => plan_warned.contains(name),
        }
    }
}

/// The sessions that turned red since `warned` was last updated; `warned` becomes the
/// sessions red now.
pub fn crossings<'a>(
    warned: &mut HashSet<String>,
    snapshot: &'a Snapshot,
) -> Vec<&'a SessionMeter> {
    let red: HashSet<String> = snapshot
        .sessions
        .iter()
        .filter(|s| s.level == Level::Full)
        .map(|s| s.session_id.clone())
        .collect();
    let new = snapshot
        .sessions
        .iter()
        .filter(|s| red.contains(&s.session_id) && !warned.contains(&s.session_id))
        .collect();
    *warned = red;
    new
}

/// The plan windows (by name) at or past the person's `plan_warn_percent` as of `now`
/// (seconds since the epoch) that were not last time; `warned` becomes the windows at or past
/// it now. A percent of 0 never warns, nor does a report of a window that has reset since.
pub fn plan_crossings(
    warned: &mut HashSet<&'static str>,
    snapshot: &Snapshot,
    now: u64,
) -> Vec<(&'static str, Window)> {
    let at = f64::from(snapshot.plan_warn_percent);
    let over: Vec<(&'static str, Window)> = match &snapshot.plan {
        Some(plan) if at > 0.0 => plan
            .windows()
            .into_iter()
            .filter_map(|(name, window)| Some((name, window?)))
            .filter(|(_, window)| window.used_percentage >= at)
            .filter(|(_, window)| window.is_current(now))
            .collect(),
        _ => Vec::new(),
    };
    let new = over
        .iter()
        .filter(|(name, _)| !warned.contains(name))
        .copied()
        .collect();
    *warned = over.iter().map(|(name, _)| *name).collect();
    new
}

/// A plan notification's words, as of `now` (seconds since the epoch).
pub fn plan_message(name: &str, window: &Window, warn_at: u32, now: u64) -> (String, String) {
    let resets = window
        .resets_at
        .map(|at| format!(" It resets in {}.", countdown(at, now)))
        .unwrap_or_default();
    (
        format!("{name} plan limit {:.0}% used", window.used_percentage),
        format!(
            "Claude Code's {name} window has passed the {warn_at}% you set in Throughline's \
             settings.{resets}"
        ),
    )
}

/// The notification's words; with `fresh` (`fresh_instead_of_compact` on) on a host whose
/// compaction Throughline stops, what to do instead.
pub fn message(session: &SessionMeter, fresh: bool) -> (String, String) {
    let which = session
        .title
        .clone()
        .unwrap_or_else(|| session.session_id.chars().take(8).collect());
    let until = match (session.compacts_by, session.compact_at) {
        (CompactRule::Threshold, Some(at)) => format!("auto-compact at {at}% of the window"),
        (CompactRule::Client, Some(at)) => format!(
            "{}'s own auto-compact at about {at}% of the window (no threshold set)",
            session.host
        ),
        _ => "the end of its window".to_string(),
    };
    let instead = if fresh && session.stops_compaction && session.compacts_by != CompactRule::Window
    {
        " Throughline will stop that compaction: type /clear there to go on from the memory."
    } else {
        ""
    };
    (
        format!("{}% of the way to compaction", session.percent),
        format!("{which} ({}) is close to {until}.{instead}", session.usage),
    )
}

impl Warnings {
    /// Notifies for each session that turned red in `snapshot` and each plan window that
    /// reached the person's percent; withdraws the notifications whose warning no longer holds.
    pub fn update(&self, snapshot: &Snapshot) {
        let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
        let crossed = crossings(&mut warned, snapshot);
        let mut plan_warned = self.plan_warned.lock().unwrap_or_else(|e| e.into_inner());
        let now = throughline_engine::clock::unix_now();
        let plan_crossed = plan_crossings(&mut plan_warned, snapshot, now);
        let mut sent = self.notifications.lock().unwrap_or_else(|e| e.into_inner());
        let withdrawn = stale(&sent, &warned, &plan_warned);
        if crossed.is_empty() && plan_crossed.is_empty() && withdrawn.is_empty() {
            return;
        }
        let Some(bus) = crate::desktop::session_bus() else {
            return;
        };
        for id in withdrawn {
            sent.remove(&id);
            crate::desktop::close(&bus, id);
        }
        for (name, window) in plan_crossed {
            let (summary, body) = plan_message(name, &window, snapshot.plan_warn_percent, now);
            if let Some(id) = crate::desktop::notify(&bus, 0, &summary, &body, &[OPEN]) {
                sent.insert(id, About::Plan(name));
            }
        }
        for session in crossed {
            let (summary, body) = message(session, snapshot.fresh_instead_of_compact);
            let actions = [OPEN, (HAND_OFF, "Hand off now")];
            if let Some(id) = crate::desktop::notify(&bus, 0, &summary, &body, &actions) {
                sent.insert(id, About::Session(session.session_id.clone()));
            }
        }
    }
}

/// The notifications in `sent` whose warning no longer holds.
fn stale(
    sent: &HashMap<u32, About>,
    warned: &HashSet<String>,
    plan_warned: &HashSet<&'static str>,
) -> Vec<u32> {
    sent.iter()
        .filter(|(_, about)| !about.holds(warned, plan_warned))
        .map(|(id, _)| *id)
        .collect()
}

/// Hands off the session whose notification's button was pressed, or opens the window when
/// one of the app's notifications was clicked. Call on the main thread: the signal arrives on
/// its main loop.
pub fn listen(app: &AppHandle) {
    let Some(bus) = crate::desktop::session_bus() else {
        return;
    };
    let app = app.clone();
    crate::desktop::on_action(&bus, move |id, action| {
        let warnings = app.state::<Warnings>();
        let mut sent = warnings
            .notifications
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if action == OPEN.0 && sent.contains_key(&id) {
            crate::show_window(&app);
        } else if action == HAND_OFF {
            if let Some(About::Session(session)) = sent.remove(&id) {
                drop(sent);
                let home = &app.state::<crate::AppHome>().0;
                if let Err(problem) = crate::handoff::offer(home, &session) {
                    crate::show_problem(&app, &problem);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gauge(id: &str, percent: u8) -> SessionMeter {
        SessionMeter {
            session_id: id.into(),
            host: "Claude Code",
            project: Some("/home/dev/toy".into()),
            title: Some("fix the flaky build".into()),
            model: None,
            used: 0,
            window: 200_000,
            usable: 140_000,
            compact_at: Some(70),
            compacts_by: CompactRule::Threshold,
            usage: "129k/140k".into(),
            measured: true,
            percent,
            level: Level::of(percent),
            turns: 1,
            started_at: None,
            last_activity: None,
            handoff_until: None,
            stops_compaction: true,
            transcript: None,
        }
    }

    fn at(gauges: Vec<SessionMeter>) -> Snapshot {
        Snapshot {
            sessions: gauges,
            ..Snapshot::default()
        }
    }

    #[test]
    fn a_session_warns_once_when_it_turns_red_and_again_only_after_falling_back() {
        let mut warned = HashSet::new();
        assert!(crossings(&mut warned, &at(vec![gauge("a", 80)])).is_empty());
        let full = at(vec![gauge("a", 92), gauge("b", 10)]);
        let crossed = crossings(&mut warned, &full);
        assert_eq!(
            crossed
                .iter()
                .map(|s| s.session_id.as_str())
                .collect::<Vec<_>>(),
            ["a"]
        );
        assert!(crossings(&mut warned, &at(vec![gauge("a", 95)])).is_empty());
        // Compacted, then full again.
        assert!(crossings(&mut warned, &at(vec![gauge("a", 0)])).is_empty());
        assert_eq!(crossings(&mut warned, &at(vec![gauge("a", 91)])).len(), 1);
    }

    #[test]
    fn a_notification_is_withdrawn_once_its_session_or_window_fell_back() {
        let mut warned = HashSet::new();
        let mut plan_warned = HashSet::new();
        crossings(&mut warned, &at(vec![gauge("a", 95), gauge("b", 96)]));
        plan_crossings(&mut plan_warned, &plan(85.0, 10.0, 80), 1_000);
        let sent = HashMap::from([
            (1, About::Session("a".into())),
            (2, About::Session("b".into())),
            (3, About::Plan("5-hour")),
        ]);
        assert!(stale(&sent, &warned, &plan_warned).is_empty());
        // `a` compacted, `b` is still red; the five-hour window reset.
        crossings(&mut warned, &at(vec![gauge("a", 10), gauge("b", 97)]));
        plan_crossings(&mut plan_warned, &plan(2.0, 10.0, 80), 1_000);
        let mut withdrawn = stale(&sent, &warned, &plan_warned);
        withdrawn.sort();
        assert_eq!(withdrawn, [1, 3]);
    }

    #[test]
    fn the_notification_says_which_session_and_how_close() {
        let (summary, body) = message(&gauge("a", 92), false);
        assert_eq!(summary, "92% of the way to compaction");
        assert_eq!(
            body,
            "fix the flaky build (129k/140k) is close to auto-compact at 70% of the window."
        );
    }

    #[test]
    fn without_a_threshold_the_notification_names_the_clients_own_point() {
        let session = SessionMeter {
            usable: 167_000,
            compact_at: Some(84),
            compacts_by: CompactRule::Client,
            usage: "151k/167k".into(),
            ..gauge("a", 90)
        };
        assert_eq!(
            message(&session, false).1,
            "fix the flaky build (151k/167k) is close to Claude Code's own auto-compact at about \
             84% of the window (no threshold set)."
        );
    }

    #[test]
    fn with_fresh_instead_of_compact_the_notification_says_to_clear_instead() {
        let session = SessionMeter {
            compacts_by: CompactRule::Threshold,
            ..gauge("a", 92)
        };
        assert!(message(&session, true).1.ends_with(
            "Throughline will stop that compaction: type /clear there to go on from the memory."
        ));
        // A host whose compaction no hook can stop is not promised it.
        let codex = SessionMeter {
            stops_compaction: false,
            ..session
        };
        assert!(!message(&codex, true).1.contains("/clear"));
    }

    fn plan(five: f64, seven: f64, warn_at: u32) -> Snapshot {
        use throughline_engine::plan::PlanUsage;
        let window = |used| {
            Some(Window {
                used_percentage: used,
                resets_at: Some(10_000),
            })
        };
        Snapshot {
            plan: Some(PlanUsage {
                five_hour: window(five),
                seven_day: window(seven),
            }),
            plan_warn_percent: warn_at,
            ..Snapshot::default()
        }
    }

    fn names(crossed: Vec<(&'static str, Window)>) -> Vec<&'static str> {
        crossed.into_iter().map(|(name, _)| name).collect()
    }

    #[test]
    fn a_plan_window_warns_once_at_the_persons_percent_and_again_after_its_reset() {
        let mut warned = HashSet::new();
        assert!(plan_crossings(&mut warned, &plan(79.9, 10.0, 80), 1_000).is_empty());
        assert_eq!(
            names(plan_crossings(&mut warned, &plan(80.0, 10.0, 80), 1_000)),
            ["5-hour"]
        );
        assert!(plan_crossings(&mut warned, &plan(95.0, 10.0, 80), 1_000).is_empty());
        assert_eq!(
            names(plan_crossings(&mut warned, &plan(96.0, 85.0, 80), 1_000)),
            ["7-day"]
        );
        // The five-hour window reset, then filled again.
        assert!(plan_crossings(&mut warned, &plan(3.0, 85.0, 80), 1_000).is_empty());
        assert_eq!(
            names(plan_crossings(&mut warned, &plan(81.0, 86.0, 80), 1_000)),
            ["5-hour"]
        );
    }

    #[test]
    fn a_plan_warning_follows_the_setting_and_zero_never_warns() {
        let mut warned = HashSet::new();
        assert!(plan_crossings(&mut warned, &plan(100.0, 100.0, 0), 1_000).is_empty());
        assert!(plan_crossings(&mut warned, &Snapshot::default(), 1_000).is_empty());
        // A report from before the window reset says nothing of it now.
        assert!(plan_crossings(&mut warned, &plan(90.0, 90.0, 80), 10_000).is_empty());
        // Lowered below what is used: both warn now.
        assert_eq!(
            names(plan_crossings(&mut warned, &plan(50.0, 60.0, 50), 1_000)),
            ["5-hour", "7-day"]
        );
    }

    #[test]
    fn the_plan_notification_says_which_window_the_setting_and_the_reset() {
        let window = Window {
            used_percentage: 84.6,
            resets_at: Some(1_000 + 2 * 3600 + 5 * 60),
        };
        let (summary, body) = plan_message("5-hour", &window, 80, 1_000);
        assert_eq!(summary, "5-hour plan limit 85% used");
        assert_eq!(
            body,
            "Claude Code's 5-hour window has passed the 80% you set in Throughline's settings. \
             It resets in 2h 05m."
        );
    }
}
