//! Warns ahead: a desktop notification when a session's gauge turns red (90% of its window up
//! to the compaction threshold), with a "Hand off now" button that hands its memory to the
//! next new chat. Once per crossing: a session warns again only after it fell back (after a
//! compaction, say).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use tauri::{AppHandle, Manager};

use crate::meter::{Level, SessionMeter, Snapshot};

const HAND_OFF: &str = "hand-off";

/// Which sessions warned, and which notification belongs to which session.
#[derive(Default)]
pub struct Warnings {
    warned: Mutex<HashSet<String>>,
    notifications: Mutex<HashMap<u32, String>>,
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

/// The notification's words.
pub fn message(session: &SessionMeter) -> (String, String) {
    let which = session
        .title
        .clone()
        .unwrap_or_else(|| session.session_id.chars().take(8).collect());
    let until = match session.compact_at {
        Some(at) => format!("auto-compact at {at}% of the window"),
        None => "the end of its window".to_string(),
    };
    (
        format!("{}% of the way to compaction", session.percent),
        format!("{which} ({}) is close to {until}.", session.usage),
    )
}

impl Warnings {
    /// Notifies for each session that turned red in `snapshot`.
    pub fn update(&self, snapshot: &Snapshot) {
        let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
        let crossed = crossings(&mut warned, snapshot);
        if crossed.is_empty() {
            return;
        }
        let Some(bus) = crate::desktop::session_bus() else {
            return;
        };
        for session in crossed {
            let (summary, body) = message(session);
            if let Some(id) =
                crate::desktop::notify(&bus, 0, &summary, &body, &[(HAND_OFF, "Hand off now")])
            {
                self.notifications
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id, session.session_id.clone());
            }
        }
    }
}

/// Hands off the session whose notification's button was pressed. Call on the main thread:
/// the signal arrives on its main loop.
pub fn listen(app: &AppHandle) {
    let Some(bus) = crate::desktop::session_bus() else {
        return;
    };
    let app = app.clone();
    crate::desktop::on_action(&bus, move |id, action| {
        if action != HAND_OFF {
            return;
        }
        let session = app
            .state::<Warnings>()
            .notifications
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if let Some(session) = session {
            let home = &app.state::<crate::AppHome>().0;
            if let Err(problem) = crate::handoff::offer(home, &session) {
                crate::show_problem(&app, &problem);
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
            usage: "129k/140k".into(),
            measured: true,
            percent,
            level: Level::of(percent),
            turns: 1,
            started_at: None,
            last_activity: None,
            handoff_until: None,
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
    fn the_notification_says_which_session_and_how_close() {
        let (summary, body) = message(&gauge("a", 92));
        assert_eq!(summary, "92% of the way to compaction");
        assert_eq!(
            body,
            "fix the flaky build (129k/140k) is close to auto-compact at 70% of the window."
        );
    }
}
