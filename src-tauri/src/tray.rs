//! The tray: a gauge icon and a percent label for the busiest live session, and a menu listing
//! every live session. On Linux clicks on the icon never arrive, so everything is in the menu.
//! Every update is a no-op when no tray could be built (no appindicator library or tray host).

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem, Submenu};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Manager, Wry};

use throughline_engine::clock::unix_now;
use throughline_engine::plan::PlanUsage;

use crate::gauge::Face;
use crate::meter::{SessionMeter, Snapshot};

const ICON_SIZE: u32 = 32;
const OPEN: &str = "open";
const QUIT: &str = "quit";
const PAUSE: &str = "pause";
/// Item ids `handoff:<session id>` and `cancel:<session id>`.
const HANDOFF: &str = "handoff";
const CANCEL: &str = "cancel";

pub struct Tray {
    icon: Option<TrayIcon>,
    shown: Mutex<Shown>,
}

/// What the tray shows now, so it is redrawn only when the rounded numbers change (each icon
/// change writes a file and sends a D-Bus update).
#[derive(PartialEq)]
struct Shown {
    face: Face,
    /// The text beside the icon, where the tray shows one.
    label: Option<String>,
    /// The plan usage lines of the menu.
    plan: Vec<String>,
    /// Each session's label and whether its handoff is waiting.
    menu: Vec<(String, bool)>,
    paused: bool,
}

impl Tray {
    /// Builds the tray, or returns a tray-less handle when the platform cannot show one: the
    /// appindicator library panics when it is missing, and the window must stay usable.
    pub fn build(app: &AppHandle) -> Tray {
        let built = panic::catch_unwind(AssertUnwindSafe(|| {
            TrayIconBuilder::with_id("main")
                .icon(icon_image(Face::Idle))
                .menu(&menu(app, &Snapshot::default())?)
                .show_menu_on_left_click(true)
                .on_menu_event(|app, event| dispatch(app, event.id().as_ref()))
                .build(app)
        }));
        let icon = match built {
            Ok(Ok(icon)) => Some(icon),
            Ok(Err(err)) => {
                crate::report_problem("tray", &format!("no tray icon: {err}"));
                None
            }
            Err(_) => {
                crate::report_problem(
                    "tray",
                    "no tray icon: the appindicator library is missing \
                     (install libayatana-appindicator3-1); use the window instead",
                );
                None
            }
        };
        Tray {
            icon,
            shown: Mutex::new(Shown {
                face: Face::Idle,
                label: None,
                plan: Vec::new(),
                menu: Vec::new(),
                paused: false,
            }),
        }
    }

    pub fn is_shown(&self) -> bool {
        self.icon.is_some()
    }

    /// Brings the icon, its label and the menu up to date with `snapshot`.
    pub fn show(&self, app: &AppHandle, snapshot: &Snapshot) {
        let Some(icon) = &self.icon else { return };
        let next = Shown {
            face: face(snapshot),
            label: label(snapshot),
            plan: plan_lines(snapshot.plan.as_ref(), unix_now()),
            menu: snapshot
                .sessions
                .iter()
                .map(|s| (menu_label(s), s.handoff_until.is_some()))
                .collect(),
            paused: snapshot.paused,
        };
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        if next.face != shown.face {
            let _ = icon.set_icon(Some(icon_image(next.face)));
        }
        if next.label != shown.label {
            let _ = icon.set_title(next.label.as_deref());
        }
        if (&next.menu, next.paused, &next.plan) != (&shown.menu, shown.paused, &shown.plan) {
            if let Ok(menu) = menu(app, snapshot) {
                let _ = icon.set_menu(Some(menu));
            }
        }
        *shown = next;
    }
}

/// What the icon shows, in the label's order: a store problem, paused capture, the busiest
/// session's band, or no live session.
pub fn face(snapshot: &Snapshot) -> Face {
    if snapshot.problem.is_some() {
        Face::Problem
    } else if snapshot.paused {
        Face::Paused
    } else {
        snapshot
            .busiest()
            .map_or(Face::Idle, |s| Face::band(s.percent))
    }
}

/// What the tray shows beside the icon: that something is wrong, that capture is paused, or
/// the busiest session's percent.
fn label(snapshot: &Snapshot) -> Option<String> {
    if snapshot.problem.is_some() {
        Some("! store problem".into())
    } else if snapshot.paused {
        Some("paused".into())
    } else {
        snapshot.busiest().map(|s| format!("{}%", s.percent))
    }
}

/// `Plan: 5-hour 42% · resets in 2h 05m`, one line per window the client reported.
pub fn plan_lines(plan: Option<&PlanUsage>, now: u64) -> Vec<String> {
    let Some(plan) = plan else {
        return Vec::new();
    };
    plan.in_use(now)
        .into_iter()
        .map(|(used, resets)| match resets {
            Some(resets) => format!("Plan: {used} · resets in {resets}"),
            None => format!("Plan: {used}"),
        })
        .collect()
}

fn icon_image(face: Face) -> Image<'static> {
    Image::new_owned(crate::gauge::draw(face, ICON_SIZE), ICON_SIZE, ICON_SIZE)
}

/// The whole menu, rebuilt from the snapshot.
fn menu(app: &AppHandle, snapshot: &Snapshot) -> tauri::Result<Menu<Wry>> {
    let sessions = &snapshot.sessions;
    let menu = Menu::new(app)?;
    if sessions.is_empty() {
        menu.append(&MenuItem::with_id(
            app,
            "none",
            "No live sessions",
            false,
            None::<&str>,
        )?)?;
    }
    for session in sessions {
        let action = match session.handoff_until {
            None => MenuItem::with_id(
                app,
                format!("{HANDOFF}:{}", session.session_id),
                "Hand off to a new chat",
                true,
                None::<&str>,
            )?,
            Some(_) => MenuItem::with_id(
                app,
                format!("{CANCEL}:{}", session.session_id),
                "Cancel the waiting handoff",
                true,
                None::<&str>,
            )?,
        };
        menu.append(&Submenu::with_items(
            app,
            menu_label(session),
            true,
            &[&action],
        )?)?;
    }
    let plan = plan_lines(snapshot.plan.as_ref(), unix_now());
    if !plan.is_empty() {
        menu.append(&PredefinedMenuItem::separator(app)?)?;
    }
    for (n, line) in plan.iter().enumerate() {
        menu.append(&MenuItem::with_id(
            app,
            format!("plan-{n}"),
            line,
            false,
            None::<&str>,
        )?)?;
    }
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    menu.append(&CheckMenuItem::with_id(
        app,
        PAUSE,
        "Pause capture",
        true,
        snapshot.paused,
        None::<&str>,
    )?)?;
    menu.append(&MenuItem::with_id(
        app,
        OPEN,
        "Open Throughline",
        true,
        None::<&str>,
    )?)?;
    menu.append(&MenuItem::with_id(app, QUIT, "Quit", true, None::<&str>)?)?;
    Ok(menu)
}

/// The one place menu clicks are handled, by item id.
fn dispatch(app: &AppHandle, id: &str) {
    let state = app.state::<crate::AppHome>();
    let home = &state.0;
    // Success shows in the menu and the window once the store changes.
    let outcome = match (id, id.split_once(':')) {
        (_, Some((HANDOFF, session))) => crate::handoff::offer(home, session).map(drop),
        (_, Some((CANCEL, session))) => crate::handoff::cancel(home, session),
        (PAUSE, _) => {
            let paused = throughline_engine::config::load(home).config.pause_capture;
            crate::settings::set_paused(home, !paused).map(drop)
        }
        (OPEN, _) => {
            crate::show_window(app);
            Ok(())
        }
        (QUIT, _) => {
            app.exit(0);
            Ok(())
        }
        _ => Ok(()),
    };
    if let Err(problem) = outcome {
        crate::show_problem(app, &problem);
    }
}

/// `toy · fix the flaky build · Claude Code · 52k/200k · 26%`: the first prompt (or, before
/// one, the session id) tells two sessions of one project apart.
pub fn menu_label(session: &SessionMeter) -> String {
    let project = session
        .project
        .as_deref()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .filter(|p| !p.is_empty())
        .unwrap_or("(unknown project)");
    let which = match &session.title {
        Some(title) => title.chars().take(MENU_TITLE_CHARS).collect::<String>(),
        None => session.session_id.chars().take(8).collect(),
    };
    if !session.measured {
        return format!("{project} · {which} · {} · use not reported", session.host);
    }
    format!(
        "{project} · {which} · {} · {} · {}%",
        session.host, session.usage, session.percent
    )
}

/// How much of a session's first prompt fits in a menu item.
const MENU_TITLE_CHARS: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;
    use throughline_engine::model::short_tokens;

    fn meter(project: Option<&str>, used: u64, window: u64, percent: u8) -> SessionMeter {
        SessionMeter {
            session_id: "f839b538-b1ae-45df-beaa-8b044d1f240c".into(),
            host: "Claude Code",
            project: project.map(Into::into),
            title: Some("fix the flaky build".into()),
            model: Some("claude-opus-4-8".into()),
            used,
            window,
            usable: window,
            compact_at: None,
            compacts_by: throughline_engine::hosts::CompactRule::Window,
            usage: format!("{}/{}", short_tokens(used), short_tokens(window)),
            measured: true,
            percent,
            level: crate::meter::Level::of(percent),
            turns: 3,
            started_at: None,
            last_activity: None,
            handoff_until: None,
            stops_compaction: true,
            transcript: None,
        }
    }

    #[test]
    fn menu_labels_name_the_project_the_session_and_its_use() {
        assert_eq!(
            menu_label(&meter(Some("/home/dev/toy"), 52_300, 200_000, 26)),
            "toy · fix the flaky build · Claude Code · 52k/200k · 26%"
        );
        let untitled = SessionMeter {
            title: None,
            ..meter(None, 0, 1_000_000, 0)
        };
        assert_eq!(
            menu_label(&untitled),
            "(unknown project) · f839b538 · Claude Code · 0/1M · 0%"
        );
        let cursor = SessionMeter {
            host: "Cursor",
            measured: false,
            usage: "not reported".into(),
            ..meter(Some("/home/dev/toy"), 0, 200_000, 0)
        };
        assert_eq!(
            menu_label(&cursor),
            "toy · fix the flaky build · Cursor · use not reported"
        );
    }

    #[test]
    fn the_menu_shows_each_plan_window_with_its_countdown() {
        use throughline_engine::plan::Window;
        let plan = PlanUsage {
            five_hour: Some(Window {
                used_percentage: 42.4,
                resets_at: Some(1_000 + 2 * 3600 + 5 * 60),
            }),
            seven_day: Some(Window {
                used_percentage: 13.0,
                resets_at: None,
            }),
        };
        assert_eq!(
            plan_lines(Some(&plan), 1_000),
            ["Plan: 5-hour 42% · resets in 2h 05m", "Plan: 7-day 13%"]
        );
        assert!(plan_lines(None, 0).is_empty());
    }

    #[test]
    fn the_icon_shows_problem_then_paused_then_the_busiest_sessions_band() {
        assert_eq!(face(&Snapshot::default()), Face::Idle);
        let busy = Snapshot {
            sessions: vec![meter(None, 10, 100, 10), meter(None, 93, 100, 93)],
            ..Snapshot::default()
        };
        assert_eq!(face(&busy), Face::Band(90));
        let calm = Snapshot {
            sessions: vec![meter(None, 47, 100, 47)],
            ..Snapshot::default()
        };
        assert_eq!(face(&calm), Face::Band(40));
        let paused = Snapshot {
            paused: true,
            ..busy.clone()
        };
        assert_eq!(face(&paused), Face::Paused);
        let broken = Snapshot {
            problem: Some("damaged".into()),
            ..paused
        };
        assert_eq!(face(&broken), Face::Problem);
        let first_run = Snapshot {
            first_run: true,
            ..Snapshot::default()
        };
        assert_eq!(face(&first_run), Face::Idle, "a first run is no problem");
    }

    #[test]
    fn the_label_says_problem_then_paused_then_the_busiest_percent() {
        let busy = Snapshot {
            sessions: vec![meter(None, 10, 100, 10), meter(None, 90, 100, 90)],
            ..Snapshot::default()
        };
        assert_eq!(label(&busy).as_deref(), Some("90%"));
        // A session whose host reports no use is never the busiest.
        let unmeasured = Snapshot {
            sessions: vec![SessionMeter {
                measured: false,
                ..meter(None, 0, 100, 0)
            }],
            ..Snapshot::default()
        };
        assert_eq!(label(&unmeasured), None);
        let paused = Snapshot {
            paused: true,
            ..busy.clone()
        };
        assert_eq!(label(&paused).as_deref(), Some("paused"));
        let broken = Snapshot {
            problem: Some("damaged".into()),
            ..paused
        };
        assert_eq!(label(&broken).as_deref(), Some("! store problem"));
        assert_eq!(label(&Snapshot::default()), None);
    }
}
