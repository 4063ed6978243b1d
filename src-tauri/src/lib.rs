//! Throughline's tray app: a live token meter per session, over the same store the `throughline`
//! hook CLI writes. Everything about the store comes from the `throughline` library.

mod commands;
pub mod desktop;
pub mod gauge;
pub mod handoff;
pub mod injections;
pub mod installer;
pub mod live;
pub mod memory;
pub mod meter;
pub mod settings;
pub mod tray;
pub mod warn;

use std::sync::Mutex;

use tauri::{AppHandle, Emitter, Manager, RunEvent, WebviewWindow, WebviewWindowBuilder};
use tauri_plugin_autostart::MacosLauncher;
use throughline_engine::home::Home;

use crate::tray::Tray;

/// Passed when started at login: start in the tray, without the window.
const HIDDEN_FLAG: &str = "--hidden";
const MAIN_WINDOW: &str = "main";

/// Throughline's home (store, log), found once at start-up.
pub struct AppHome(pub Home);

/// A problem reported while no window was open: the window shows it when it opens.
#[derive(Default)]
pub struct PendingProblem(Mutex<Option<String>>);

impl PendingProblem {
    /// The problem waiting, if any; it is shown once.
    pub fn take(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn set(&self, message: &str) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(message.to_string());
    }
}

pub fn run() {
    let app = tauri::Builder::default()
        // First: a second launch only brings the running app's window forward, then exits.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            show_window(app)
        }))
        .plugin(tauri_plugin_autostart::init(
            MacosLauncher::LaunchAgent,
            Some(vec![HIDDEN_FLAG]),
        ))
        .invoke_handler(tauri::generate_handler![
            commands::live_sessions,
            commands::pending_problem,
            commands::offer_handoff,
            commands::cancel_handoff,
            commands::injections,
            commands::memory_savings,
            commands::settings,
            commands::save_settings,
            commands::projects,
            commands::autocompact,
            // Memory
            commands::stored_sessions,
            commands::session_turns,
            commands::session_context,
            commands::plan_history,
            commands::plan_window_use,
            commands::turn_detail,
            commands::search,
            commands::handoff_preview,
            commands::forget_preview,
            commands::forget,
            commands::import_past_sessions,
            commands::set_autocompact,
            // Installer
            commands::installation,
            commands::install_hooks,
            commands::uninstall_hooks,
        ])
        .setup(|app| {
            let home = Home::locate()?;
            let tray = Tray::build(app.handle());
            // Started at login into a desktop with no tray host, a hidden app could never
            // be reached: it starts with its window.
            let hidden = std::env::args().any(|a| a == HIDDEN_FLAG);
            let lives_in_tray = tray.is_shown() && desktop::tray_host();
            app.manage(tray);
            app.manage(warn::Warnings::default());
            app.manage(PendingProblem::default());
            warn::listen(app.handle());
            app.manage(AppHome(home.clone()));
            live::spawn(app.handle().clone(), home)?;
            // The window is made here, not from the configuration, so that an app started in
            // the tray runs no web view until the person opens it.
            if !(hidden && lives_in_tray) {
                open_window(app.handle())?;
            }
            Ok(())
        })
        .build(tauri::generate_context!());
    let app = match app {
        Ok(app) => app,
        Err(err) => {
            report_problem("app", &err.to_string());
            std::process::exit(1);
        }
    };
    app.run(|app, event| {
        // Closing the window frees its web view (about 230 MiB of WebKit processes); a tray
        // app lives on without it, unless no tray shows its icon to reopen it (asked now: the
        // panel may have started or stopped since). Quitting from the menu still quits.
        if let RunEvent::ExitRequested {
            code: None, api, ..
        } = event
        {
            if app.try_state::<Tray>().is_some_and(|tray| tray.is_shown()) && desktop::tray_host() {
                api.prevent_exit();
            }
        }
    });
}

/// Makes the main window from its configuration, with a fresh web view.
fn open_window(app: &AppHandle) -> tauri::Result<WebviewWindow> {
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|window| window.label == MAIN_WINDOW)
        .ok_or_else(|| tauri::Error::WindowNotFound)?;
    WebviewWindowBuilder::from_config(app, config)?.build()
}

/// Shows, restores and focuses the main window, opening it when it was closed.
pub fn show_window(app: &AppHandle) {
    match app.get_webview_window(MAIN_WINDOW) {
        Some(window) => {
            let _ = window.show();
            let _ = window.unminimize();
            let _ = window.set_focus();
        }
        None => {
            if let Err(err) = open_window(app) {
                report_problem("app", &format!("cannot open the window: {err}"));
            }
        }
    }
}

/// The event that puts a problem in front of the person, in the window.
pub const PROBLEM_EVENT: &str = "problem";

/// Reports a failure of something the person asked for outside the window (the tray): logs
/// it, opens the window and shows it there. A window opened for it asks for it once loaded.
pub fn show_problem(app: &AppHandle, message: &str) {
    report_problem("app", message);
    if app.get_webview_window(MAIN_WINDOW).is_none() {
        app.state::<PendingProblem>().set(message);
    }
    show_window(app);
    let _ = app.emit(PROBLEM_EVENT, message);
}

/// One line in Throughline's log (where `throughline status` shows recent problems).
pub fn report_problem(context: &str, message: &str) {
    match Home::locate() {
        Ok(home) => throughline_engine::log::line(&home, context, message),
        Err(_) => eprintln!("throughline-app: {context}: {message}"),
    }
}
