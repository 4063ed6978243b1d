//! The Installer view's commands: the library's install code run with a real `throughline` CLI
//! placed where Tauri puts the bundled one, against a temporary HOME (Claude Code's settings).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::Value;
use throughline_app::installer::{self, Installation};
use throughline_engine::doctor::Status;
use throughline_engine::home::Home;
use throughline_engine::install::{self, Options, OwnStatusline, Scope};

#[path = "support/ui_types.rs"]
mod ui_types;

/// HOME is one per process and the install code reads it: one test at a time.
static HOME_ENV: Mutex<()> = Mutex::new(());

/// The CLI cargo built for the workspace, next to this test's `deps` folder.
fn built_cli() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let cli = exe.parent().unwrap().parent().unwrap().join("throughline");
    if let Err(problem) = installer::verify(&cli) {
        panic!("these tests need the workspace's CLI (`cargo build -p throughline`): {problem}");
    }
    cli
}

struct Machine {
    dir: tempfile::TempDir,
    home: Home,
    _env: std::sync::MutexGuard<'static, ()>,
}

impl Machine {
    /// A person's HOME with no Claude Code settings yet.
    fn new() -> Machine {
        let env = HOME_ENV.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        std::env::set_var("HOME", dir.path());
        std::env::remove_var("CLAUDE_CONFIG_DIR");
        std::env::remove_var("CODEX_HOME");
        std::env::remove_var("GEMINI_CLI_HOME");
        let home = Home::at(dir.path().join("memory"));
        Machine {
            dir,
            home,
            _env: env,
        }
    }

    /// A copy of the real CLI at `folder/throughline`, canonical.
    fn cli_in(&self, folder: &str) -> PathBuf {
        let path = self.dir.path().join(folder).join("throughline");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::copy(built_cli(), &path).unwrap();
        path.canonicalize().unwrap()
    }

    fn settings(&self) -> PathBuf {
        self.dir.path().join(".claude/settings.json")
    }

    /// Every Throughline hook command in Claude Code's settings.
    fn hook_commands(&self) -> Vec<String> {
        let Ok(text) = fs::read_to_string(self.settings()) else {
            return Vec::new();
        };
        let settings: Value = serde_json::from_str(&text).unwrap();
        let mut commands = Vec::new();
        for groups in settings["hooks"]
            .as_object()
            .into_iter()
            .flat_map(|e| e.values())
        {
            for group in groups.as_array().unwrap() {
                for hook in group["hooks"].as_array().unwrap() {
                    let command = hook["command"].as_str().unwrap();
                    if install::is_throughline_hook(command) {
                        commands.push(command.to_string());
                    }
                }
            }
        }
        commands
    }

    fn installation(&self, binary: &Path) -> Installation {
        installer::installation(&self.home, binary)
    }
}

fn check<'a>(installation: &'a Installation, name: &str) -> &'a throughline_engine::doctor::Check {
    installation
        .checks
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no {name} finding in {:?}", installation.checks))
}

#[test]
fn install_registers_the_bundled_cli_and_the_doctor_agrees() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");

    let before = machine.installation(&bundled);
    assert_eq!(before.binary_problem, None);
    assert!(before.registration.as_ref().unwrap().hooks.is_empty());
    let hooks = check(&before, "hooks");
    assert_eq!(hooks.status, Status::Problem);
    assert_eq!(hooks.fix.as_deref(), Some("Press Install."));
    assert!(!before.healthy);

    let report = installer::install(&bundled, false).unwrap();
    assert!(report.changed());
    let commands = machine.hook_commands();
    assert!(!commands.is_empty());
    let expected = install::command_line(&bundled, "hook claude");
    assert!(commands.iter().all(|c| *c == expected), "{commands:?}");

    let after = machine.installation(&bundled);
    let registration = after.registration.as_ref().unwrap();
    assert_eq!(registration.hooks.len(), commands.len());
    assert!(registration.missing.is_empty());
    assert!(after.hooks_elsewhere.is_empty());
    assert_eq!(registration.mcp_server.as_deref(), Some(bundled.as_path()));
    assert_eq!(check(&after, "hooks").status, Status::Ok);
    assert_eq!(check(&after, "extras").status, Status::Ok);

    // Install is safe to press again: nothing changes.
    assert!(!installer::install(&bundled, false).unwrap().changed());

    // What the Installer view reads is what these commands send.
    let types = ui_types::UiTypes::read();
    types.check("Installation", &before);
    types.check("Installation", &after);
    types.check("Report", &report);
}

#[test]
fn hooks_run_by_a_copy_of_the_same_release_satisfy_the_app_and_the_cli() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    // `throughline install` from ~/.cargo/bin, the app beside another copy.
    let installed = machine.cli_in(".cargo/bin");
    install::install(
        throughline_engine::hosts::claude::HOST,
        &Options {
            scope: Scope::User,
            binary: installed.clone(),
            statusline: true,
            wrap_statusline: false,
        },
    )
    .unwrap();
    let app = machine.installation(&bundled);
    assert_eq!(check(&app, "hooks").status, Status::Ok, "{:?}", app.checks);
    assert_eq!(check(&app, "extras").status, Status::Ok, "{:?}", app.checks);
    assert!(app.healthy);
    // And the other way round: the app's registration, checked by the installed CLI.
    installer::install(&bundled, false).unwrap();
    let cli = machine.installation(&installed);
    assert_eq!(check(&cli, "hooks").status, Status::Ok, "{:?}", cli.checks);
}

/// A `throughline` of another release in `folder`.
fn older_cli_in(machine: &Machine, folder: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = machine.dir.path().join(folder).join("throughline");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, "#!/bin/sh\necho 'throughline 0.0.1'\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path.canonicalize().unwrap()
}

#[test]
fn repair_repoints_hooks_that_run_another_cli() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    let other = older_cli_in(&machine, "old");
    install::install(
        throughline_engine::hosts::claude::HOST,
        &Options {
            scope: Scope::User,
            binary: other.clone(),
            statusline: true,
            wrap_statusline: false,
        },
    )
    .unwrap();

    let before = machine.installation(&bundled);
    assert_eq!(before.hooks_elsewhere, std::slice::from_ref(&other));
    let hooks = check(&before, "hooks");
    assert_eq!(hooks.status, Status::Problem);
    assert!(
        hooks.message.contains(&other.display().to_string()),
        "{}",
        hooks.message
    );
    assert!(hooks.fix.as_deref().unwrap().starts_with("Press Repair."));

    let report = installer::install(&bundled, false).unwrap();
    let details: Vec<&String> = report.changes.iter().flat_map(|c| &c.details).collect();
    assert!(
        details.iter().any(|d| d.contains("repointed hooks")),
        "{details:?}"
    );
    let after = machine.installation(&bundled);
    assert!(after.hooks_elsewhere.is_empty());
    assert_eq!(check(&after, "hooks").status, Status::Ok);
}

#[test]
fn uninstall_removes_what_install_added() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    installer::install(&bundled, false).unwrap();
    assert!(machine.dir.path().join(".claude/commands/tl.md").exists());

    assert!(installer::uninstall().unwrap().changed());
    assert!(machine.hook_commands().is_empty());
    assert!(!machine.dir.path().join(".claude/commands/tl.md").exists());
    let after = machine.installation(&bundled);
    assert!(after.registration.unwrap().hooks.is_empty());
    assert!(!installer::uninstall().unwrap().changed());
}

/// Runs a statusLine `command` as Claude Code does, with `input` on stdin; what it prints.
fn statusline_shows(machine: &Machine, command: &str, input: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .args(["-c", command])
        .env("THROUGHLINE_HOME", machine.home.dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

#[test]
fn install_wraps_the_persons_own_statusline_when_asked_and_uninstall_gives_it_back() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    let theirs = r#"read -r input; echo "my line: ${#input}""#;
    let personal = format!(
        "{{\n  \"model\": \"opus\",\n  \"statusLine\": {{\n    \"type\": \"command\",\n    \"command\": {},\n    \"padding\": 0\n  }}\n}}\n",
        serde_json::to_string(theirs).unwrap()
    );
    fs::create_dir_all(machine.settings().parent().unwrap()).unwrap();
    fs::write(machine.settings(), &personal).unwrap();

    // What the view offers to wrap, and the doctor's note on what keeping it costs.
    let before = machine.installation(&bundled);
    let own = |i: &Installation| i.registration.as_ref().unwrap().own_statusline.clone();
    assert_eq!(
        own(&before),
        Some(OwnStatusline {
            command: theirs.into(),
            wrapped: false
        })
    );
    let note = check(&before, "statusline");
    assert_eq!(note.status, Status::Note);
    assert!(
        note.fix.as_deref().unwrap().starts_with("Wrap it"),
        "{note:?}"
    );

    let report = installer::install(&bundled, true).unwrap();
    let details: Vec<&String> = report.changes.iter().flat_map(|c| &c.details).collect();
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("wrapped your own statusLine")),
        "{details:?}"
    );
    let settings: Value =
        serde_json::from_str(&fs::read_to_string(machine.settings()).unwrap()).unwrap();
    let command = settings["statusLine"]["command"].as_str().unwrap();
    // The bundled CLI's statusline, around theirs; their other fields stay.
    assert!(
        command.starts_with(&install::command_line(&bundled, "statusline --then ")),
        "{command}"
    );
    assert_eq!(settings["statusLine"]["padding"], 0);
    // Claude Code's JSON in: their line out, as before, and the plan usage recorded for the app.
    let input = r#"{"session_id":"s","rate_limits":{"five_hour":{"used_percentage":42,"resets_at":4102444800}}}"#;
    assert_eq!(
        statusline_shows(&machine, command, input),
        format!("my line: {}\n", input.len())
    );
    let plan = throughline_engine::plan::load(&machine.home).expect("the plan usage is recorded");
    assert_eq!(plan.five_hour.unwrap().used_percentage, 42.0);

    let after = machine.installation(&bundled);
    assert_eq!(
        own(&after),
        Some(OwnStatusline {
            command: theirs.into(),
            wrapped: true
        })
    );
    assert!(after.checks.iter().all(|c| c.name != "statusline"));
    // Install and Repair again keep it wrapped.
    assert!(!installer::install(&bundled, false).unwrap().changed());

    installer::uninstall().unwrap();
    assert_eq!(fs::read_to_string(machine.settings()).unwrap(), personal);
    assert!(!install::backup_path(&machine.settings()).exists());
}

#[test]
fn a_missing_or_broken_cli_is_refused_with_what_to_do() {
    let machine = Machine::new();
    let missing = machine.dir.path().join("app/throughline");
    let problem = installer::install(&missing, false).unwrap_err();
    assert!(problem.contains("is missing"), "{problem}");
    assert!(problem.contains("scripts/build-app"), "{problem}");
    assert!(machine
        .installation(&missing)
        .binary_problem
        .is_some_and(|p| p == problem));

    // What a plain `cargo build` of the app bundles: a script that fails (src-tauri/build.rs).
    let placeholder = machine.dir.path().join("placeholder/throughline");
    fs::create_dir_all(placeholder.parent().unwrap()).unwrap();
    fs::write(&placeholder, "#!/bin/sh\nexit 1\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&placeholder, fs::Permissions::from_mode(0o755)).unwrap();
    let problem = installer::install(&placeholder, false).unwrap_err();
    assert!(
        problem.contains("not a working throughline CLI"),
        "{problem}"
    );
    assert!(!machine.settings().exists(), "nothing is registered");
}

#[test]
fn settings_that_cannot_be_edited_say_so_and_stay_as_they_were() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    fs::create_dir_all(machine.settings().parent().unwrap()).unwrap();
    let commented = "{\n  // my settings\n  \"model\": \"opus\"\n}\n";
    fs::write(machine.settings(), commented).unwrap();

    let problem = installer::install(&bundled, false).unwrap_err();
    assert!(
        problem.starts_with("Throughline could not be registered:"),
        "{problem}"
    );
    assert!(problem.contains("comments"), "{problem}");
    assert_eq!(fs::read_to_string(machine.settings()).unwrap(), commented);
    let hooks = check(&machine.installation(&bundled), "hooks").clone();
    assert_eq!(hooks.status, Status::Problem);
    assert!(hooks.message.contains("comments"), "{}", hooks.message);
}

#[test]
fn every_host_installed_here_is_registered_checked_and_unregistered() {
    let machine = Machine::new();
    let bundled = machine.cli_in("app");
    let gemini = machine.dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();

    let report = installer::install(&bundled, false).unwrap();
    let settings = gemini.join("settings.json");
    assert!(
        report.changes.iter().any(|c| c.path == settings),
        "{report:?}"
    );
    let text = fs::read_to_string(&settings).unwrap();
    assert!(
        text.contains(&install::command_line(&bundled, "hook gemini")),
        "{text}"
    );
    let after = machine.installation(&bundled);
    let hooks: Vec<_> = after.checks.iter().filter(|c| c.name == "hooks").collect();
    assert_eq!(hooks.len(), 2, "{hooks:?}");
    assert!(hooks.iter().all(|c| c.status == Status::Ok), "{hooks:?}");
    assert!(hooks
        .iter()
        .any(|c| c.message.contains(&settings.display().to_string())));

    installer::uninstall().unwrap();
    assert!(!settings.exists());
    assert!(!gemini.join("commands").exists());
}

#[test]
fn the_bundle_carries_the_cli_and_the_program_it_runs_the_summary_backends_in() {
    // Beside the app's executable, where the Installer and the doctor look for them.
    let config: Value =
        serde_json::from_str(&fs::read_to_string("tauri.conf.json").unwrap()).unwrap();
    let bundled: Vec<&str> = config["bundle"]["externalBin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    let cli = installer::bundled_binary().unwrap();
    let cli = cli.file_name().unwrap().to_str().unwrap();
    for program in [cli, throughline_engine::summarize::HELPER] {
        assert!(
            bundled.contains(&format!("binaries/{program}").as_str()),
            "{program} is not bundled: {bundled:?}"
        );
    }
}
