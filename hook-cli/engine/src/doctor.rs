//! Is everything in place? The checks behind `throughline doctor` and the tray app's
//! Installer view: the host registration, the database, recent hook failures and the memory a
//! session would hand on. Each problem comes with its fix, phrased by the caller ([`Fixes`]):
//! a command line for the CLI, a button for the app.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::home::Home;
use crate::hosts::claude::install::{self as claude, AutoCompact};
use crate::hosts::release::{Installed, Tested, TestedReleases};
use crate::install::{self, InstallError, Registration, Scope};
use crate::model::{short_tokens, Host};
use crate::store::{Health, SessionFilter, Store, Trigger};
use crate::{clock, config, hosts, memory, render};

#[derive(Debug, Serialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// Worth knowing, nothing broken.
    Note,
    Problem,
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub message: String,
    /// The command (or step) that fixes a problem.
    pub fix: Option<String>,
}

impl Check {
    fn new(name: &'static str, status: Status, message: impl Into<String>) -> Check {
        Check {
            name,
            status,
            message: message.into(),
            fix: None,
        }
    }

    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
}

/// How the person registers Throughline, in the caller's words.
#[derive(Debug, Clone)]
pub struct Fixes {
    /// When nothing is registered yet.
    pub install: String,
    /// When something is registered but missing or out of date (install is idempotent, so
    /// the CLI says the same as for `install`).
    pub repair: String,
    /// How the person sets Claude Code's auto-compact threshold again; the percent follows.
    pub threshold: String,
    /// How the person has Throughline's statusline run around their own, so the plan limits
    /// Claude Code gives it are recorded.
    pub wrap_statusline: String,
}

/// True when no check found a problem.
pub fn healthy(checks: &[Check]) -> bool {
    checks.iter().all(|c| c.status != Status::Problem)
}

/// The checks that do not depend on a registration: Claude Code's auto-compact threshold, and
/// the store.
pub fn client_and_store_checks(home: &Home, fixes: &Fixes) -> Vec<Check> {
    let mut checks = Vec::new();
    checks.extend(autocompact_check(&claude::autocompact(&Scope::User), fixes));
    checks.extend(store_checks(home));
    checks
}

/// The release of `client` the person runs, against the releases the end-to-end suites test.
fn client_check(client: &str, releases: &TestedReleases, installed: Option<Installed>) -> Check {
    let range = releases.range();
    let Some(found) = installed else {
        return Check::new(
            "client",
            Status::Note,
            format!(
                "no `{}` found on PATH to check {client}'s version (tested: {range})",
                releases.program
            ),
        );
    };
    let what = format!("{client} {} ({})", found.version, found.path.display());
    match releases.tested(&found.version) {
        Some(Tested::Yes) => Check::new(
            "client",
            Status::Ok,
            format!("{what}, within the tested releases {range}"),
        ),
        Some(Tested::Older) => Check::new(
            "client",
            Status::Note,
            format!("{what} is older than every release Throughline is tested with ({range})"),
        )
        .fix(format!("update {client}: {}", releases.update)),
        _ => Check::new(
            "client",
            Status::Note,
            format!("{what} is newer than the releases Throughline is tested with ({range})"),
        )
        .fix("update Throughline: a newer one may be tested with this release"),
    }
}

/// Whether the auto-compact threshold in Claude Code's user settings takes effect; nothing to
/// say while none is set.
pub fn autocompact_check(
    threshold: &Result<AutoCompact, InstallError>,
    fixes: &Fixes,
) -> Option<Check> {
    let threshold = match threshold {
        Ok(t) => t,
        Err(e) => return Some(Check::new("compact", Status::Problem, e.to_string())),
    };
    let settings = threshold.settings.display();
    if let Some(raw) = &threshold.ignored {
        return Some(
            Check::new(
                "compact",
                Status::Problem,
                format!(
                    "{} in {settings} is {raw:?}, not a percent: Claude Code ignores it",
                    claude::AUTOCOMPACT_ENV
                ),
            )
            .fix(format!("{} <percent>", fixes.threshold)),
        );
    }
    let percent = threshold.percent?;
    if let Some(window) = threshold.window.as_ref().filter(|_| !threshold.applies()) {
        return Some(
            Check::new(
                "compact",
                Status::Problem,
                format!(
                    "{} in {settings} is {window}, which Claude Code drops: the threshold of \
                     {percent}% may never apply",
                    claude::WINDOW_KEY
                ),
            )
            .fix(format!(
                "make {} a number from 100000 to 1000000, or remove it and run: {} {percent}",
                claude::WINDOW_KEY,
                fixes.threshold
            )),
        );
    }
    if !threshold.applies() {
        return Some(
            Check::new(
                "compact",
                Status::Problem,
                format!(
                "the auto-compact threshold of {percent}% in {settings} has no {}: Claude Code \
                 2.1.197 (and any version, for a model it knows no window for) never applies it",
                claude::WINDOW_KEY
            ),
            )
            .fix(format!("{} {percent}", fixes.threshold)),
        );
    }
    Some(Check::new(
        "compact",
        Status::Ok,
        format!("Claude Code compacts sessions at {percent}% of the window ({settings})"),
    ))
}

/// The registration checks of each of `hosts` (see [`registration_checks`]). When the hosts
/// were found rather than named, a client Throughline was never set up for (or was removed
/// from) is a note while another client has it: a folder such as `~/.codex` left after
/// `uninstall` is no failure. With no client set up at all, each is the problem it is.
pub fn hosts_checks(
    hosts: &[Host],
    scope: &Scope,
    named: bool,
    binary: &Path,
    fixes: &Fixes,
) -> Vec<Check> {
    let registrations: Vec<(Host, Result<Registration, InstallError>)> = hosts
        .iter()
        .map(|&host| (host, install::inspect(host, scope)))
        .collect();
    let set_up = |r: &Registration| {
        !r.hooks.is_empty() || r.slash_command.is_some() || r.mcp_server.is_some()
    };
    let any_set_up = registrations
        .iter()
        .any(|(_, r)| r.as_ref().is_ok_and(set_up));
    let mut checks = Vec::new();
    for (host, registration) in &registrations {
        match registration {
            Ok(registration) if !named && any_set_up && !set_up(registration) => {
                checks.push(
                    Check::new(
                        "hooks",
                        Status::Note,
                        format!(
                            "{} is not set up: Throughline is not registered in {}",
                            hosts::label(*host),
                            registration.settings.display()
                        ),
                    )
                    .fix(format!("{}   (adds it)", fixes.install)),
                );
            }
            _ => checks.extend(registration_checks(registration, binary, fixes)),
        }
        // The client's release, for each client Throughline is set up for.
        let spec = crate::hosts::agent(*host).spec();
        if let (Ok(true), Some(releases)) =
            (registration.as_ref().map(set_up), spec.tested_releases)
        {
            checks.push(client_check(spec.name, &releases, releases.installed()));
        }
    }
    checks
}

/// Whether the hooks, `/tl` and the MCP server are in place and run `binary`.
pub fn registration_checks(
    registration: &Result<Registration, InstallError>,
    binary: &Path,
    fixes: &Fixes,
) -> Vec<Check> {
    match registration {
        Ok(registration) => {
            let mut checks = vec![
                hooks_check(registration, binary, fixes),
                extras_check(registration, binary, fixes),
            ];
            checks.extend(statusline_check(registration, fixes));
            checks
        }
        Err(e) => vec![Check::new("hooks", Status::Problem, e.to_string())],
    }
}

/// The database, hook failures since the last capture, and the memory a `/clear` would hand on.
pub fn store_checks(home: &Home) -> Vec<Check> {
    let health = Health::check(home);
    let mut checks = database_checks(&health);
    checks.push(failures_check(home, &health));
    checks.push(memory_check(home));
    checks.push(summaries_check(home));
    checks
}

/// The summary backend, when one is chosen: whether it can run, and whether its last request
/// failed (its turns then kept their local one-liner).
fn summaries_check(home: &Home) -> Check {
    let config = config::load(home).config;
    let status = crate::summarize::status(home, &config);
    let backend = status.backend.as_str();
    if status.backend == config::SummaryBackend::Off {
        return Check::new(
            "one-liners",
            Status::Ok,
            "written by the local summarizer (no summary_backend set)",
        );
    }
    let s = &status.spend;
    if let Some(problem) = status.problem {
        return Check::new(
            "one-liners",
            Status::Problem,
            format!("{backend}: {problem}"),
        )
        .fix(format!(
            "fix what it says in {} (or set summary_backend to off), then run \
             `throughline summarize` to try the next turns",
            config::load(home).file.display()
        ));
    }
    let today = format!("{} of {} requests today", s.calls_today, status.daily_calls);
    if s.calls_today >= u64::from(status.daily_calls) {
        return Check::new(
            "one-liners",
            Status::Note,
            format!(
                "{backend}:{}: the daily cap is reached ({today}); older turns keep their local \
                 line until tomorrow (UTC)",
                status.model
            ),
        );
    }
    Check::new(
        "one-liners",
        Status::Ok,
        format!(
            "{backend}:{}: {} by the model so far, {today}, {} tokens in, {} out",
            status.model,
            render::count(s.lines, "line"),
            short_tokens(s.input_tokens),
            short_tokens(s.output_tokens)
        ),
    )
}

/// Whether `binary` (canonical) is the file `path` names.
fn same_file(path: &Path, binary: &Path) -> bool {
    path.canonicalize().ok().as_deref() == Some(binary)
}

/// What `throughline --version` prints for this release.
fn this_release() -> String {
    format!("throughline {}", env!("CARGO_PKG_VERSION"))
}

/// Whether `program` is a working `throughline` of this very release: a copy installed in
/// another folder (`~/.cargo/bin`, beside the app) serves the hooks as well as this one.
fn same_release(program: &Path) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == this_release()
        })
}

/// Whether hooks running `program` run `binary` (canonical) or a working copy of its release.
fn serves_as(program: &Path, binary: &Path) -> bool {
    same_file(program, binary) || same_release(program)
}

/// The programs registered hooks run other than `binary` (canonical), each once.
pub fn hooks_elsewhere(registration: &Registration, binary: &Path) -> Vec<PathBuf> {
    let mut elsewhere: Vec<PathBuf> = Vec::new();
    for program in registration.hooks.iter().filter_map(|h| h.binary.as_ref()) {
        if !same_file(program, binary) && !elsewhere.contains(program) {
            elsewhere.push(program.clone());
        }
    }
    elsewhere
}

fn hooks_check(registration: &Registration, binary: &Path, fixes: &Fixes) -> Check {
    let settings = registration.settings.display();
    if registration.hooks.is_empty() {
        return Check::new(
            "hooks",
            Status::Problem,
            format!("Throughline is not registered in {settings}"),
        )
        .fix(&fixes.install);
    }
    let elsewhere = hooks_elsewhere(registration, binary);
    if let Some(other) = elsewhere.iter().find(|p| !same_release(p)) {
        let why = if other.exists() {
            format!(
                "not this binary ({}) nor a working copy of its release ({})",
                binary.display(),
                this_release()
            )
        } else {
            "which does not exist any more (moved or deleted?)".to_string()
        };
        return Check::new(
            "hooks",
            Status::Problem,
            format!("hooks in {settings} run {}, {why}", other.display()),
        )
        .fix(format!("{}   (repoints them at this binary)", fixes.repair));
    }
    if !registration.missing.is_empty() {
        return Check::new(
            "hooks",
            Status::Problem,
            format!(
                "hooks missing in {settings}: {}",
                registration.missing.join(", ")
            ),
        )
        .fix(&fixes.repair);
    }
    let untrusted = [
        (&registration.untrusted, "are not trusted yet"),
        (&registration.changed, "changed since you trusted them"),
    ];
    if let Some((events, state)) = untrusted.iter().find(|(events, _)| !events.is_empty()) {
        return Check::new(
            "hooks",
            Status::Problem,
            format!(
                "hooks in {settings} {state}, so they do not run: {}",
                events.join(", ")
            ),
        )
        .fix("trust them in Codex: answer its start-up review, or type /hooks and press t");
    }
    let runs = match elsewhere.as_slice() {
        [] => "this binary".to_string(),
        copies => format!(
            "{}, the same release as this binary",
            copies
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Check::new(
        "hooks",
        Status::Ok,
        format!(
            "{} in {settings} run {runs}",
            render::count(registration.hooks.len() as u64, "hook")
        ),
    )
}

/// The `/tl` command and the MCP server: useful, not needed for capture.
fn extras_check(registration: &Registration, binary: &Path, fixes: &Fixes) -> Check {
    let mut missing = Vec::new();
    if registration.slash_command.is_none() {
        missing.push("the /tl command".to_string());
    }
    match &registration.mcp_server {
        None => missing.push("the MCP server".to_string()),
        Some(program) if !serves_as(program, binary) => {
            missing.push(format!("the MCP server (it runs {})", program.display()))
        }
        Some(_) => {}
    }
    if missing.is_empty() {
        return Check::new("extras", Status::Ok, "/tl and the MCP server are in place");
    }
    Check::new(
        "extras",
        Status::Note,
        format!("not in place: {}", missing.join(", ")),
    )
    .fix(if registration.hooks.is_empty() {
        &fixes.install
    } else {
        &fixes.repair
    })
}

/// The person's own statusLine, which install keeps unless asked to wrap it: unwrapped, the
/// plan limits go unrecorded.
fn statusline_check(registration: &Registration, fixes: &Fixes) -> Option<Check> {
    let own = registration
        .own_statusline
        .as_ref()
        .filter(|s| !s.wrapped)?;
    let check = Check::new(
        "statusline",
        Status::Note,
        format!(
            "your own statusLine runs ({}), so the plan limits Claude Code reports \
             (5-hour, 7-day) are not recorded for the app and `throughline monitor`",
            own.command
        ),
    );
    Some(check.fix(&fixes.wrap_statusline))
}

fn database_checks(health: &Health) -> Vec<Check> {
    let path = &health.path;
    if !health.exists {
        return vec![Check::new(
            "database",
            Status::Note,
            format!("no database at {path} yet: the first hook call creates it"),
        )
        .fix("start a Claude Code session, or `throughline import` to backfill past ones")];
    }
    if let Some(e) = &health.read_error {
        let fix = if health.damaged {
            format!(
                "mv {path} {path}.damaged && throughline import   (rebuilds it from the transcripts)"
            )
        } else {
            format!("make it readable and writable by you: chmod u+rw {path}")
        };
        return vec![
            Check::new("database", Status::Problem, format!("cannot read it: {e}")).fix(fix),
        ];
    }
    let mut checks = Vec::new();
    let version = health.schema_version.unwrap_or(0);
    checks.push(if let Some(e) = &health.write_error {
        Check::new(
            "database",
            Status::Problem,
            format!("hooks cannot write {path}: {e}"),
        )
        .fix(format!("chmod u+rw {path} and its folder"))
    } else if health.integrity.as_deref() != Some("ok") {
        Check::new(
            "database",
            Status::Problem,
            format!(
                "{path} is damaged: {}",
                health.integrity.as_deref().unwrap_or("unknown")
            ),
        )
        .fix(format!(
            "mv {path} {path}.damaged && throughline import   (rebuilds it from the transcripts)"
        ))
    } else if version < health.current_schema {
        Check::new(
            "database",
            Status::Note,
            format!(
                "{path} has schema v{version}; the next hook call upgrades it to v{}",
                health.current_schema
            ),
        )
    } else {
        Check::new(
            "database",
            Status::Ok,
            format!("{path} (schema v{version}, intact, writable)"),
        )
    });
    let captures: Vec<String> = health
        .last_capture
        .iter()
        .map(|c| {
            let at = c.at.as_deref().unwrap_or("");
            format!("{} {}", c.host, clock::ago(at))
        })
        .collect();
    let redacted: u64 = health.redacted.iter().map(|(_, n)| n).sum();
    let kinds: Vec<String> = health
        .redacted
        .iter()
        .map(|(kind, n)| format!("{kind} {n}"))
        .collect();
    checks.push(Check::new(
        "redaction",
        Status::Ok,
        if redacted == 0 {
            "no secret met in what was stored".to_string()
        } else {
            format!(
                "{redacted} secret(s) replaced by a placeholder before storage: {}",
                kinds.join(", ")
            )
        },
    ));
    if health.secrets_waiting > 0 {
        checks.push(
            Check::new(
                "secrets",
                Status::Note,
                format!(
                    "{} found late may still be in sessions stored before; the next hook \
                     starts the run that replaces {} everywhere",
                    crate::render::count(health.secrets_waiting, "secret"),
                    if health.secrets_waiting == 1 {
                        "it"
                    } else {
                        "them"
                    }
                ),
            )
            .fix("throughline forget --secrets"),
        );
    }
    checks.push(if captures.is_empty() {
        Check::new("captures", Status::Note, "no session captured yet")
    } else {
        Check::new(
            "captures",
            Status::Ok,
            format!("last capture: {}", captures.join(", ")),
        )
    });
    checks
}

/// Renders the memory the latest session would hand on, to check it fits the budget.
fn memory_check(home: &Home) -> Check {
    let effective = config::load(home);
    if let Some(problem) = effective.problems.first() {
        return Check::new("memory", Status::Problem, problem.clone()).fix(format!(
            "edit {} or the variable it names",
            effective.file.display()
        ));
    }
    let Ok(store) = Store::open_read_only(home) else {
        return Check::new("memory", Status::Note, "nothing stored yet to hand on");
    };
    let latest = store.sessions(&SessionFilter {
        limit: Some(1),
        ..SessionFilter::default()
    });
    let Some(session) = latest.ok().and_then(|mut s| s.pop()) else {
        return Check::new("memory", Status::Note, "nothing stored yet to hand on");
    };
    let rendered = memory::build(
        &store,
        &session,
        Trigger::Clear,
        &[&session],
        hosts::agent(session.host).spec().memory_parts,
        &effective.config,
        &clock::now(),
    );
    match rendered {
        Ok(Some(m)) if m.size <= m.budget => Check::new(
            "memory",
            Status::Ok,
            format!(
                "a /clear now would hand on {} of {} characters ({} verbatim, {})",
                m.size,
                m.budget,
                render::count(m.verbatim.len() as u64, "turn"),
                render::count(m.one_liners.len() as u64, "one-liner")
            ),
        ),
        Ok(Some(m)) => Check::new(
            "memory",
            Status::Problem,
            format!(
                "the memory takes {} characters, over its budget of {}",
                m.size, m.budget
            ),
        )
        .fix("report this: the renderer must keep within the budget"),
        Ok(None) => Check::new(
            "memory",
            Status::Note,
            "the latest session has no turns yet",
        ),
        Err(e) => Check::new(
            "memory",
            Status::Problem,
            format!("cannot render the memory: {e}"),
        )
        .fix("throughline doctor --json, and report the error"),
    }
}

/// Hook failures logged since the last capture: a hook that fails now.
fn failures_check(home: &Home, health: &Health) -> Check {
    let last_capture = health
        .last_capture
        .iter()
        .filter_map(|c| c.at.clone())
        .max()
        .unwrap_or_default();
    let failures: Vec<String> = crate::log::tail(home, 50)
        .into_iter()
        .filter(|line| line.contains(" hook "))
        .collect();
    let log = home.log_path();
    let recent: Vec<&String> = failures
        .iter()
        .filter(|line| line.split(' ').next().unwrap_or("") > last_capture.as_str())
        .collect();
    if !recent.is_empty() {
        let shown: Vec<&str> = recent.iter().rev().take(3).map(|l| l.as_str()).collect();
        return Check::new(
            "hook log",
            Status::Problem,
            format!(
                "{} hook failure(s) since the last capture, latest: {}",
                recent.len(),
                shown.join(" | ")
            ),
        )
        .fix(format!(
            "read {} for the cause; each line says what failed",
            log.display()
        ));
    }
    match failures.last() {
        Some(line) => Check::new(
            "hook log",
            Status::Note,
            format!("no failure since the last capture; earlier: {line}"),
        ),
        None => Check::new("hook log", Status::Ok, "no hook failures logged"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::OwnStatusline;
    use serde_json::Value;

    fn releases(host: Host) -> TestedReleases {
        crate::hosts::agent(host).spec().tested_releases.unwrap()
    }

    fn client(host: Host, v: &str) -> Check {
        let installed = Installed {
            path: PathBuf::from("/usr/bin/client"),
            version: v.to_string(),
        };
        client_check(hosts::label(host), &releases(host), Some(installed))
    }

    #[test]
    fn the_client_check_names_the_version_and_warns_outside_the_tested_range() {
        let newest = releases(crate::hosts::claude::HOST).newest;
        let inside = client(crate::hosts::claude::HOST, newest);
        assert_eq!(inside.status, Status::Ok);
        assert!(inside.message.contains(newest), "{}", inside.message);
        let older = client(crate::hosts::claude::HOST, "2.0.1");
        assert_eq!((older.status, older.fix.is_some()), (Status::Note, true));
        assert!(older.message.contains("older"), "{}", older.message);
        assert_eq!(
            older.fix.as_deref(),
            Some("update Claude Code: claude update")
        );
        let newer = client(crate::hosts::claude::HOST, "9.0.0");
        assert_eq!((newer.status, newer.fix.is_some()), (Status::Note, true));
        assert!(newer.message.contains("newer"), "{}", newer.message);
        let missing = client_check("Claude Code", &releases(crate::hosts::claude::HOST), None);
        assert_eq!(missing.status, Status::Note);
        // The other clients installed from a registry have theirs.
        let codex = client(crate::hosts::codex::HOST, "0.160.0");
        assert!(codex.message.contains("Codex 0.160.0"), "{}", codex.message);
        assert!(codex.message.contains("(0.171.0)"), "{}", codex.message);
        assert_eq!(
            client(crate::hosts::gemini::HOST, "0.61.0").status,
            Status::Ok
        );
    }

    fn fixes() -> Fixes {
        Fixes {
            install: "install".into(),
            repair: "repair".into(),
            threshold: "throughline config --autocompact".into(),
            wrap_statusline: "wrap".into(),
        }
    }

    fn threshold(percent: Option<f64>, ignored: Option<&str>, window: Option<u64>) -> AutoCompact {
        AutoCompact {
            settings: PathBuf::from("/home/dev/.claude/settings.json"),
            percent,
            ignored: ignored.map(String::from),
            window: window.map(Value::from),
        }
    }

    #[test]
    fn no_threshold_is_nothing_to_report() {
        assert!(autocompact_check(&Ok(threshold(None, None, None)), &fixes()).is_none());
        assert!(autocompact_check(&Ok(threshold(None, None, Some(400_000))), &fixes()).is_none());
    }

    #[test]
    fn a_threshold_without_a_window_is_a_problem_with_its_fix() {
        let check = autocompact_check(&Ok(threshold(Some(30.0), None, None)), &fixes()).unwrap();
        assert_eq!(check.status, Status::Problem);
        assert!(
            check.message.contains("has no autoCompactWindow"),
            "{}",
            check.message
        );
        assert_eq!(
            check.fix.as_deref(),
            Some("throughline config --autocompact 30")
        );
    }

    #[test]
    fn a_window_the_client_drops_is_a_problem() {
        let check =
            autocompact_check(&Ok(threshold(Some(30.0), None, Some(5_000))), &fixes()).unwrap();
        assert_eq!(check.status, Status::Problem);
        assert!(
            check.message.contains("is 5000, which Claude Code drops"),
            "{}",
            check.message
        );
    }

    #[test]
    fn a_threshold_with_a_window_applies() {
        let check =
            autocompact_check(&Ok(threshold(Some(30.0), None, Some(1_000_000))), &fixes()).unwrap();
        assert_eq!((check.status, check.fix), (Status::Ok, None));
        assert!(
            check.message.contains("at 30% of the window"),
            "{}",
            check.message
        );
    }

    #[test]
    fn a_value_that_is_no_percent_is_a_problem() {
        let check = autocompact_check(&Ok(threshold(None, Some("lots"), None)), &fixes()).unwrap();
        assert_eq!(check.status, Status::Problem);
        assert!(check.message.contains("\"lots\""), "{}", check.message);
        let unreadable = InstallError::Commented(PathBuf::from("/x/settings.json"));
        let check = autocompact_check(&Err(unreadable), &fixes()).unwrap();
        assert_eq!(check.status, Status::Problem);
    }

    /// A program that answers `--version` with `version`, in `dir`.
    fn program(dir: &Path, name: &str, version: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.canonicalize().unwrap()
    }

    fn registered_to(program: &Path) -> Registration {
        Registration {
            settings: PathBuf::from("/home/dev/.claude/settings.json"),
            hooks: ["SessionStart", "Stop"]
                .map(|event| crate::install::RegisteredHook {
                    event: event.into(),
                    command: format!("{} hook claude", program.display()),
                    binary: Some(program.to_path_buf()),
                })
                .to_vec(),
            missing: Vec::new(),
            untrusted: Vec::new(),
            changed: Vec::new(),
            slash_command: Some(PathBuf::from("/home/dev/.claude/commands/tl.md")),
            mcp_server: Some(program.to_path_buf()),
            own_statusline: None,
        }
    }

    #[test]
    fn hooks_running_a_working_copy_of_this_release_are_fine() {
        let dir = tempfile::tempdir().unwrap();
        let this = program(dir.path(), "bundled", &this_release());
        let copy = program(dir.path(), "installed", &this_release());
        let [hooks, extras] = registration_checks(&Ok(registered_to(&copy)), &this, &fixes())
            .try_into()
            .unwrap();
        assert_eq!(hooks.status, Status::Ok, "{}", hooks.message);
        assert!(
            hooks.message.contains("the same release"),
            "{}",
            hooks.message
        );
        assert_eq!(extras.status, Status::Ok, "{}", extras.message);
    }

    #[test]
    fn a_statusline_of_the_persons_own_is_a_note_that_says_what_it_costs() {
        let dir = tempfile::tempdir().unwrap();
        let this = program(dir.path(), "bundled", &this_release());
        let theirs = |wrapped| Registration {
            own_statusline: Some(OwnStatusline {
                command: "npx -y ccstatusline@latest".into(),
                wrapped,
            }),
            ..registered_to(&this)
        };
        let checks = registration_checks(&Ok(theirs(false)), &this, &fixes());
        let note = checks.iter().find(|c| c.name == "statusline").unwrap();
        assert_eq!(note.status, Status::Note);
        assert!(note.message.contains("ccstatusline") && note.message.contains("plan limits"));
        assert_eq!(note.fix.as_deref(), Some("wrap"));
        // Wrapped, or none of theirs: the limits are recorded, nothing to say.
        for recorded in [theirs(true), registered_to(&this)] {
            let checks = registration_checks(&Ok(recorded), &this, &fixes());
            assert!(checks.iter().all(|c| c.name != "statusline"), "{checks:?}");
        }
    }

    #[test]
    fn hooks_running_another_release_or_another_program_are_a_problem() {
        let dir = tempfile::tempdir().unwrap();
        let this = program(dir.path(), "bundled", &this_release());
        for other in [
            program(dir.path(), "old", "throughline 0.0.1"),
            program(dir.path(), "placeholder", "something else"),
        ] {
            let checks = registration_checks(&Ok(registered_to(&other)), &this, &fixes());
            assert_eq!(checks[0].status, Status::Problem, "{}", checks[0].message);
            assert!(
                checks[0].message.contains("not this binary"),
                "{}",
                checks[0].message
            );
            assert_eq!(checks[1].status, Status::Note, "{}", checks[1].message);
        }
    }

    #[test]
    fn a_damaged_file_is_rebuilt_not_chmodded() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path().to_path_buf());
        std::fs::write(home.db_path(), vec![0x5a; 8192]).unwrap();
        let checks = database_checks(&Health::check(&home));
        assert_eq!(checks[0].status, Status::Problem);
        let fix = checks[0].fix.as_deref().unwrap();
        assert!(fix.contains("throughline import"), "{fix}");
        assert!(!fix.contains("chmod"), "{fix}");
    }

    #[test]
    fn a_secret_waiting_for_the_whole_store_is_named_with_the_command_that_runs_it() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path().to_path_buf());
        drop(crate::open_store(&home).unwrap());
        let waiting = |home: &Home| {
            database_checks(&Health::check(home))
                .into_iter()
                .find(|c| c.name == "secrets")
        };
        assert!(waiting(&home).is_none());
        let conn = rusqlite::Connection::open(home.db_path()).unwrap();
        conn.execute("INSERT INTO secret_marks (mark) VALUES (7)", [])
            .unwrap();
        let check = waiting(&home).unwrap();
        assert_eq!(check.status, Status::Note);
        assert!(
            check.message.starts_with("1 secret found late"),
            "{}",
            check.message
        );
        assert_eq!(check.fix.as_deref(), Some("throughline forget --secrets"));
        crate::open_store(&home).unwrap().scrub_secrets().unwrap();
        assert!(waiting(&home).is_none());
    }
}
