//! Registering Throughline from the window: the library's install code, run with the
//! `throughline` CLI bundled with the app for Claude Code and every other host installed here,
//! and the doctor's findings for that CLI.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;
use throughline_engine::doctor::{self, Check, Fixes};
use throughline_engine::home::Home;
use throughline_engine::install::{self, Options, Registration, Report, Scope};
use throughline_engine::model::Host;

/// The name Tauri gives the bundled CLI (`bundle.externalBin`) next to the app's executable: the
/// file in `src-tauri/binaries/` without its target-triple suffix.
const BUNDLED_CLI: &str = "throughline";

/// What the Installer view shows.
#[derive(Debug, Serialize)]
pub struct Installation {
    /// The bundled CLI the hooks should run.
    pub binary: PathBuf,
    /// Why the bundled CLI cannot be registered, when it cannot.
    pub binary_problem: Option<String>,
    /// What Claude Code's user settings hold of Throughline; `None` when they cannot be read
    /// (the first finding says why).
    pub registration: Option<Registration>,
    /// Programs other than the bundled CLI that registered hooks run.
    pub hooks_elsewhere: Vec<PathBuf>,
    /// The doctor's findings for the bundled CLI, each problem with its fix.
    pub checks: Vec<Check>,
    pub healthy: bool,
    /// The person's home folder: the view shows paths under it as `~/…`.
    pub person_home: Option<PathBuf>,
}

/// The bundled CLI: `throughline` in the folder of the running app.
pub fn bundled_binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .and_then(|exe| exe.canonicalize())
        .map_err(|e| format!("Cannot tell where Throughline runs from ({e}), so its bundled CLI cannot be found. Reinstall Throughline."))?;
    Ok(exe.with_file_name(BUNDLED_CLI))
}

/// Refuses a CLI hooks cannot run: missing, or the placeholder a plain `cargo build` of the app
/// carries (docs/decisions/0013), which exits 1 on every call.
pub fn verify(binary: &Path) -> Result<(), String> {
    if !binary.is_file() {
        return Err(format!(
            "The bundled throughline CLI is missing: there is no {}. Reinstall Throughline, or build the app with scripts/build-app.",
            binary.display()
        ));
    }
    let version = Command::new(binary).arg("--version").output();
    match version {
        Ok(out) if out.status.success() && out.stdout.starts_with(b"throughline ") => Ok(()),
        Ok(_) => Err(format!(
            "{} is not a working throughline CLI (this app was built without it), so hooks cannot run it. Build the app with scripts/build-app, or register another copy with `throughline install`.",
            binary.display()
        )),
        Err(e) => Err(format!(
            "{} cannot be run ({e}), so hooks cannot run it either. Make it executable (chmod +x) or reinstall Throughline.",
            binary.display()
        )),
    }
}

/// How fixes read in the window: the view's buttons.
fn fixes() -> Fixes {
    Fixes {
        install: "Press Install.".into(),
        repair: "Press Repair.".into(),
        threshold: "In Settings, enter the auto-compact threshold again:".into(),
        wrap_statusline: "Wrap it under Claude Code above: your line shows as before.".into(),
    }
}

/// The registration in Claude Code's user settings, checked against `binary`.
pub fn installation(home: &Home, binary: &Path) -> Installation {
    let binary_problem = verify(binary).err();
    // Compared as the hooks' programs are: canonical, when the file is there.
    let canonical = binary
        .canonicalize()
        .unwrap_or_else(|_| binary.to_path_buf());
    let registration = install::inspect(throughline_engine::hosts::claude::HOST, &Scope::User);
    let hosts: Vec<Host> = std::iter::once(throughline_engine::hosts::claude::HOST)
        .chain(other_hosts())
        .collect();
    let mut checks = doctor::hosts_checks(&hosts, &Scope::User, false, &canonical, &fixes());
    checks.extend(doctor::client_and_store_checks(home, &fixes()));
    let registration = registration.ok();
    Installation {
        binary: canonical.clone(),
        binary_problem,
        hooks_elsewhere: registration
            .as_ref()
            .map(|r| doctor::hooks_elsewhere(r, &canonical))
            .unwrap_or_default(),
        registration,
        healthy: doctor::healthy(&checks),
        checks,
        person_home: dirs::home_dir(),
    }
}

/// The hosts besides Claude Code whose settings folder exists.
fn other_hosts() -> Vec<Host> {
    throughline_engine::hosts::found_hosts()
        .into_iter()
        .filter(|&h| h != throughline_engine::hosts::claude::HOST)
        .collect()
}

/// Registers (or repairs) the hooks, `/tl`, the MCP server and the statusline for every
/// project, all running `binary`, with Claude Code and every other host installed; safe to
/// run again. One report holds every host's changes. A statusline of the person's own is kept
/// as it is, or with `wrap_statusline` (their choice in the view) run inside Throughline's.
pub fn install(binary: &Path, wrap_statusline: bool) -> Result<Report, String> {
    verify(binary)?;
    let binary = binary.canonicalize().map_err(|e| e.to_string())?;
    let options = Options {
        scope: Scope::User,
        binary,
        statusline: true,
        wrap_statusline,
    };
    every_host(|host| install::install(host, &options))
        .map_err(|e| format!("Throughline could not be registered: {e}"))
}

/// Removes exactly what `install` added; the stored memory stays.
pub fn uninstall() -> Result<Report, String> {
    every_host(|host| install::uninstall(host, &Scope::User))
        .map_err(|e| format!("Throughline could not be unregistered: {e}"))
}

fn every_host(
    mut each: impl FnMut(Host) -> Result<Report, install::InstallError>,
) -> Result<Report, install::InstallError> {
    let mut report = each(throughline_engine::hosts::claude::HOST)?;
    for host in other_hosts() {
        report.changes.extend(each(host)?.changes);
    }
    Ok(report)
}
