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

use tauri::{AppHandle, Emitter, Manager, WindowEvent};
use tauri_plugin_autostart::MacosLauncher;
use throughline_engine::home::Home;

use crate::tray::Tray;

/// Passed when started at login: start in the tray, without the window.
const HIDDEN_FLAG: &str = "--hidden";
const MAIN_WINDOW: &str = "main";

/// Throughline's home (store, log), found once at start-up.
pub struct AppHome(pub Home);

pub fn run() {
    let result = tauri::Builder::default()
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
            commands::offer_handoff,
            commands::cancel_handoff,
            commands::injections,
            commands::settings,
            commands::save_settings,
            commands::projects,
            commands::autocompact,
            // Memory
            commands::stored_sessions,
            commands::session_turns,
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
            if tray.is_shown() && desktop::tray_host() && std::env::args().any(|a| a == HIDDEN_FLAG)
            {
                if let Some(window) = app.get_webview_window(MAIN_WINDOW) {
                    window.hide()?;
                }
            }
            app.manage(tray);
            app.manage(warn::Warnings::default());
            warn::listen(app.handle());
            app.manage(AppHome(home.clone()));
            live::spawn(app.handle().clone(), home)?;
            Ok(())
        })
        .on_window_event(|window, event| {
            // A tray app lives on when its window closes, unless no tray shows its icon to
            // reopen it (asked now: the panel may have started or stopped since).
            if let WindowEvent::CloseRequested { api, .. } = event {
                if window
                    .try_state::<Tray>()
                    .is_some_and(|tray| tray.is_shown())
                    && desktop::tray_host()
                {
                    api.prevent_close();
                    let _ = window.hide();
                }
            }
        })
        .run(tauri::generate_context!());
    if let Err(err) = result {
        report_problem("app", &err.to_string());
        std::process::exit(1);
    }
}

/// Shows, restores and focuses the main window.
pub fn show_window(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN_WINDOW) {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// The event that puts a problem in front of the person, in the window.
pub const PROBLEM_EVENT: &str = "problem";

/// Reports a failure of something the person asked for outside the window (the tray): logs
/// it, opens the window and shows it there.
pub fn show_problem(app: &AppHandle, message: &str) {
    report_problem("app", message);
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
