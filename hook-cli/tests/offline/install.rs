//! `install`, `uninstall` and `doctor` as a person runs them: the real binary in a temporary
//! HOME, against settings files of every kind a person may have.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_throughline");

/// The settings a person already has: their own hook and statusline, keys in their order.
const PERSONAL_SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo stopped >> /tmp/my-log"
          }
        ]
      }
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "my-statusline"
  },
  "env": {
    "FOO": "bar"
  }
}"#;

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn settings(&self) -> PathBuf {
        self.path().join(".claude/settings.json")
    }

    fn write_settings(&self, text: &str) {
        fs::create_dir_all(self.settings().parent().unwrap()).unwrap();
        fs::write(self.settings(), text).unwrap();
    }

    fn run_with(&self, bin: &Path, args: &[&str]) -> Output {
        let mut command = Command::new(bin);
        command
            .args(args)
            .env("HOME", self.path())
            .env("THROUGHLINE_HOME", self.path().join("memory"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .current_dir(self.path());
        // A binary copied a moment ago can still be open for writing in a child another test
        // thread forked meanwhile ("text file busy"); that passes within milliseconds.
        for _ in 0..50 {
            match command.output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                result => return result.unwrap(),
            }
        }
        panic!("{} stayed busy", bin.display())
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(Path::new(BIN), args)
    }

    /// `throughline hook claude` with `payload` on stdin and the clock at `now`.
    fn hook(&self, payload: &[u8], now: &str) {
        use std::io::Write;
        let mut hook = Command::new(BIN)
            .args(["hook", "claude"])
            .env("HOME", self.path())
            .env("THROUGHLINE_HOME", self.path().join("memory"))
            .env("THROUGHLINE_NOW", now)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        hook.stdin.take().unwrap().write_all(payload).unwrap();
        assert!(hook.wait().unwrap().success());
    }

    /// Every file under HOME with its bytes, to prove a refusal changed nothing.
    fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut dirs = vec![self.path().to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push((path.clone(), fs::read(&path).unwrap()));
                }
            }
        }
        files.sort();
        files
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", text(&out));
    out
}

fn json_of(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// Commands of Throughline's hooks, per event.
fn our_hooks(settings: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (event, groups) in settings["hooks"].as_object().into_iter().flatten() {
        for group in groups.as_array().into_iter().flatten() {
            for handler in group["hooks"].as_array().into_iter().flatten() {
                let command = handler["command"].as_str().unwrap_or("");
                if command.contains(" hook claude") {
                    found.push((event.clone(), command.to_string()));
                }
            }
        }
    }
    found
}

const EVENTS: [&str; 8] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "PreCompact",
    "SessionEnd",
];

#[test]
fn install_is_idempotent_and_uninstall_restores_the_very_file() {
    let home = Home::new();
    home.write_settings(PERSONAL_SETTINGS);
    fs::write(
        home.path().join(".claude.json"),
        "{\n  \"numStartups\": 3,\n  \"projects\": {}\n}",
    )
    .unwrap();
    let before = home.snapshot();

    let out = ok(home.run(&["install"]));
    assert!(text(&out).contains("added hooks"), "{}", text(&out));
    let settings = json_of(&home.settings());
    let binary = fs::canonicalize(BIN).unwrap();
    let hooks = our_hooks(&settings);
    assert_eq!(
        hooks
            .iter()
            .map(|(e, _)| e.as_str())
            .collect::<Vec<_>>()
            .len(),
        EVENTS.len()
    );
    for event in EVENTS {
        let commands: Vec<_> = hooks.iter().filter(|(e, _)| e == event).collect();
        assert_eq!(commands.len(), 1, "{event}: {hooks:?}");
        assert_eq!(commands[0].1, format!("{} hook claude", binary.display()));
    }
    // The person's own hook, statusline and key order are untouched.
    let keys: Vec<&str> = settings
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["model", "hooks", "statusLine", "env"]);
    assert_eq!(
        settings["hooks"]["Stop"][0]["hooks"][0]["command"],
        "echo stopped >> /tmp/my-log"
    );
    assert_eq!(settings["statusLine"]["command"], "my-statusline");
    assert!(text(&out).contains("kept your own statusLine"));
    // And doctor says what keeping it costs.
    let report: Value = serde_json::from_slice(&home.run(&["doctor", "--json"]).stdout).unwrap();
    let note = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "statusline")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(note["status"], "note");
    assert!(
        note["message"].as_str().unwrap().contains("my-statusline"),
        "{note}"
    );
    // Capture-only events run in the background; the injecting ones do not.
    assert_eq!(
        settings["hooks"]["PostToolUse"][0]["hooks"][0]["async"],
        true
    );
    assert!(settings["hooks"]["SessionStart"][0]["hooks"][0]
        .get("async")
        .is_none());
    let backup = home.path().join(".claude/settings.json.throughline-backup");
    assert_eq!(fs::read_to_string(backup).unwrap(), PERSONAL_SETTINGS);
    let state = json_of(&home.path().join(".claude.json"));
    assert_eq!(state["numStartups"], 3);
    assert_eq!(state["mcpServers"]["throughline"]["args"][0], "mcp");
    assert_eq!(state["mcpServers"]["throughline"]["type"], "stdio");
    let slash = fs::read_to_string(home.path().join(".claude/commands/tl.md")).unwrap();
    assert!(
        slash.contains(&format!("{} handoff", binary.display())),
        "{slash}"
    );

    // A second run changes no byte.
    let installed = home.snapshot();
    let out = ok(home.run(&["install", "--json"]));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["action"] == "unchanged" || c["action"] == "kept"));
    assert_eq!(home.snapshot(), installed);

    // Uninstall gives back the very files the person had, and takes its backups along.
    ok(home.run(&["uninstall"]));
    assert_eq!(home.snapshot(), before);
    assert!(!home.path().join(".claude/commands").exists());
}

#[test]
fn installs_into_a_home_without_claude_settings_and_uninstalls_cleanly() {
    let home = Home::new();
    let before = home.snapshot();
    ok(home.run(&["install", "--no-statusline"]));
    let settings = json_of(&home.settings());
    assert_eq!(our_hooks(&settings).len(), EVENTS.len());
    assert!(settings.get("statusLine").is_none());
    ok(home.run(&["uninstall"]));
    // The files install created go whole: no `{}` left, no backup of what it wrote.
    assert_eq!(home.snapshot(), before);
}

#[test]
fn install_sets_the_statusline_only_when_there_is_none() {
    let home = Home::new();
    home.write_settings("{\n  \"model\": \"opus\"\n}\n");
    ok(home.run(&["install"]));
    let settings = json_of(&home.settings());
    let binary = fs::canonicalize(BIN).unwrap();
    assert_eq!(
        settings["statusLine"]["command"],
        format!("{} statusline", binary.display())
    );
    ok(home.run(&["uninstall"]));
    assert_eq!(
        fs::read_to_string(home.settings()).unwrap(),
        "{\n  \"model\": \"opus\"\n}\n"
    );
}

#[test]
fn a_wrapped_statusline_shows_the_persons_line_records_the_plan_and_is_given_back() {
    let home = Home::new();
    let theirs = r#"{
  "statusLine": {
    "type": "command",
    "command": "read -r input; echo \"my line: ${#input}\"",
    "padding": 0
  }
}"#;
    home.write_settings(theirs);
    let out = ok(home.run(&["install", "--wrap-statusline"]));
    assert!(
        text(&out).contains("wrapped your own statusLine"),
        "{}",
        text(&out)
    );
    let settings = json_of(&home.settings());
    let command = settings["statusLine"]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(command.contains(" statusline --then "), "{command}");
    assert_eq!(settings["statusLine"]["padding"], 0);

    // Claude Code runs the command with its JSON on stdin.
    let payload = r#"{"session_id":"s","rate_limits":{"five_hour":{"used_percentage":42,"resets_at":4102444800}}}"#;
    let shown = Command::new("sh")
        .args(["-c", &command])
        .env("HOME", home.path())
        .env("THROUGHLINE_HOME", home.path().join("memory"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(payload.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&shown.stdout),
        format!("my line: {}\n", payload.len())
    );
    let plan = json_of(&home.path().join("memory/plan-usage.json"));
    assert_eq!(plan["five_hour"]["used_percentage"], 42.0);
    // Doctor has nothing to say about it any more; install again changes nothing.
    let report: Value = serde_json::from_slice(&home.run(&["doctor", "--json"]).stdout).unwrap();
    let checks = report["checks"].as_array().unwrap();
    assert!(
        checks.iter().all(|c| c["name"] != "statusline"),
        "{report:#}"
    );
    let installed = home.snapshot();
    ok(home.run(&["install", "--wrap-statusline"]));
    ok(home.run(&["install"]));
    assert_eq!(home.snapshot(), installed);

    ok(home.run(&["uninstall"]));
    assert_eq!(fs::read_to_string(home.settings()).unwrap(), theirs);
}

fn assert_refused(settings: &str, expected: &str) {
    let home = Home::new();
    home.write_settings(settings);
    let before = home.snapshot();
    let out = home.run(&["install"]);
    assert!(!out.status.success(), "install accepted {settings:?}");
    let said = text(&out);
    assert!(said.contains(expected), "{said}");
    assert!(said.contains("nothing was changed"), "{said}");
    assert_eq!(home.snapshot(), before, "a refused install changed files");
    home.run(&["uninstall"]);
    assert_eq!(
        home.snapshot(),
        before,
        "uninstall changed a file it cannot read"
    );
}

#[test]
fn refuses_settings_with_comments() {
    assert_refused(
        "{\n  // my model\n  \"model\": \"opus\",\n}\n",
        "has comments (JSONC)",
    );
}

#[test]
fn refuses_invalid_settings() {
    assert_refused("{\"model\": \"opus\"", "is not valid JSON");
    assert_refused("[\"hooks\"]", "not a JSON object");
    assert_refused(
        "{\"hooks\": [1]}",
        "`hooks` is not what Claude Code expects",
    );
}

#[test]
fn refuses_read_only_settings() {
    let home = Home::new();
    home.write_settings(PERSONAL_SETTINGS);
    fs::set_permissions(home.settings(), fs::Permissions::from_mode(0o444)).unwrap();
    let before = home.snapshot();
    let out = home.run(&["install"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("is read-only"), "{}", text(&out));
    assert_eq!(home.snapshot(), before);
}

#[test]
fn install_for_one_project_writes_its_settings_only() {
    let home = Home::new();
    let project = home.path().join("proj");
    fs::create_dir_all(&project).unwrap();
    ok(home.run(&["install", "--project", project.to_str().unwrap()]));
    assert_eq!(
        our_hooks(&json_of(&project.join(".claude/settings.json"))).len(),
        EVENTS.len()
    );
    assert!(project.join(".mcp.json").exists());
    assert!(project.join(".claude/commands/tl.md").exists());
    assert!(!home.settings().exists());
    ok(home.run(&["uninstall", "--project", project.to_str().unwrap()]));
    assert!(
        !project.join(".claude/settings.json").exists(),
        "created, so removed"
    );
    assert!(!project.join(".mcp.json").exists(), "created, so removed");
}

#[test]
fn doctor_finds_a_moved_binary_and_install_repairs_it_without_duplicates() {
    let home = Home::new();
    home.write_settings(PERSONAL_SETTINGS);
    let old = home.path().join("old/throughline");
    let new = home.path().join("new/throughline");
    fs::create_dir_all(old.parent().unwrap()).unwrap();
    fs::create_dir_all(new.parent().unwrap()).unwrap();
    fs::copy(BIN, &old).unwrap();
    ok(home.run_with(&old, &["install"]));
    ok(home.run_with(&old, &["doctor"]));

    fs::rename(&old, &new).unwrap();
    let out = home.run_with(&new, &["doctor"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains(&format!("run {}", old.display())), "{said}");
    assert!(said.contains("does not exist any more"), "{said}");
    assert!(said.contains("the MCP server (it runs"), "{said}");
    assert!(
        said.contains(&format!("fix: {} install", new.display())),
        "{said}"
    );
    let report: Value = serde_json::from_slice(&home.run_with(&new, &["doctor", "--json"]).stdout)
        .expect("doctor --json");
    assert_eq!(report["healthy"], false);
    assert_eq!(report["checks"][0]["status"], "problem");

    let out = ok(home.run_with(&new, &["install"]));
    assert!(text(&out).contains("repointed hooks"), "{}", text(&out));
    let hooks = our_hooks(&json_of(&home.settings()));
    assert_eq!(hooks.len(), EVENTS.len(), "{hooks:?}");
    assert!(hooks
        .iter()
        .all(|(_, c)| *c == format!("{} hook claude", new.display())));
    let out = ok(home.run_with(&new, &["doctor"]));
    assert!(
        text(&out).contains("/tl and the MCP server are in place"),
        "{}",
        text(&out)
    );
}

#[test]
fn doctor_checks_the_database_and_reports_hook_failures() {
    let home = Home::new();
    ok(home.run(&["install"]));
    // A hook call with a broken payload is logged, and doctor reports it with the log's path.
    home.hook(b"not json", "2030-01-01T00:00:00.000Z");
    let out = home.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("hook failure"), "{}", text(&out));
    assert!(text(&out).contains("throughline.log"), "{}", text(&out));

    // A real capture after the failure: the hook works now, the database is healthy.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude-2.1.197");
    let payload = fs::read(fixtures.join("hooks/01-SessionStart.json")).unwrap();
    home.hook(&payload, "2030-01-01T00:01:00.000Z");
    let out = ok(home.run(&["doctor", "--json"]));
    let database = crate::support::throughline::doctor_check(&out.stdout, "database");
    assert_eq!(database["status"], "ok", "{database}");
    assert!(database["message"].as_str().unwrap().contains("intact"));
}

#[test]
fn purge_deletes_the_memory_only_when_confirmed() {
    let home = Home::new();
    ok(home.run(&["install"]));
    let memory = home.path().join("memory");
    fs::create_dir_all(&memory).unwrap();
    fs::write(memory.join("throughline.db"), "x").unwrap();
    let out = home.run(&["uninstall", "--purge"]);
    assert!(!out.status.success(), "purged without confirmation");
    assert!(memory.join("throughline.db").exists());
    assert!(our_hooks(&json_of(&home.settings())).len() == EVENTS.len());
    ok(home.run(&["uninstall", "--purge", "--yes"]));
    assert!(!memory.exists());
    assert!(!home.settings().exists(), "created by install, so removed");
}

#[test]
fn the_plugin_registers_what_install_registers_with_throughline_from_path() {
    use throughline::hosts::claude::install::{hooks_object, slash_command};
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let hooks = json_of(&repo.join("plugin/hooks/hooks.json"));
    assert_eq!(hooks["hooks"], Value::Object(hooks_object("throughline")));
    assert_eq!(
        fs::read_to_string(repo.join("plugin/commands/tl.md")).unwrap(),
        slash_command("throughline")
    );
    let manifest = json_of(&repo.join("plugin/.claude-plugin/plugin.json"));
    assert_eq!(manifest["hooks"], "./hooks/hooks.json");
    assert_eq!(manifest["commands"][0], "./commands/tl.md");
    assert_eq!(manifest["mcpServers"]["throughline"]["args"][0], "mcp");
    let marketplace = json_of(&repo.join(".claude-plugin/marketplace.json"));
    assert_eq!(marketplace["plugins"][0]["name"], manifest["name"]);
    // Claude Code copies the plugin's folder into its cache: that folder, not the repository
    // with its build output.
    assert_eq!(marketplace["plugins"][0]["source"], "./plugin");
}

#[test]
fn a_linked_settings_file_stays_a_link() {
    // Dotfile managers keep settings.json as a link into a repository.
    let home = Home::new();
    let dotfiles = home.path().join("dotfiles/settings.json");
    fs::create_dir_all(dotfiles.parent().unwrap()).unwrap();
    fs::write(&dotfiles, PERSONAL_SETTINGS).unwrap();
    fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&dotfiles, home.settings()).unwrap();
    ok(home.run(&["install"]));
    assert!(fs::symlink_metadata(home.settings())
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(our_hooks(&json_of(&dotfiles)).len(), EVENTS.len());
    ok(home.run(&["uninstall"]));
    assert_eq!(fs::read_to_string(&dotfiles).unwrap(), PERSONAL_SETTINGS);
}

/// The mode of `path`'s permissions.
fn mode(path: &Path) -> u32 {
    fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn backups_are_as_private_as_their_files_and_go_with_uninstall() {
    let home = Home::new();
    home.write_settings(PERSONAL_SETTINGS);
    let private = [
        (".claude/settings.json", PERSONAL_SETTINGS),
        (".claude.json", "{\n  \"numStartups\": 3\n}\n"),
        (
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}",
        ),
        (".codex/config.toml", "model = \"o3\"\n"),
        (".gemini/settings.json", "{\n  \"theme\": \"dark\"\n}\n"),
    ];
    for (file, text) in private {
        let path = home.path().join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    }
    let before = home.snapshot();

    ok(home.run(&["install"]));
    for (file, _) in private {
        let backup = home.path().join(format!("{file}.throughline-backup"));
        assert_eq!(mode(&backup), 0o600, "{}", backup.display());
    }

    ok(home.run(&["uninstall"]));
    assert_eq!(
        home.snapshot(),
        before,
        "every file as it was, no backup left"
    );
    for (file, _) in private {
        assert_eq!(mode(&home.path().join(file)), 0o600, "{file}");
    }
}

#[test]
fn uninstall_gives_back_an_empty_hooks_object_byte_for_byte() {
    let home = Home::new();
    home.write_settings("{\"hooks\":{}}");
    ok(home.run(&["install"]));
    assert_eq!(our_hooks(&json_of(&home.settings())).len(), EVENTS.len());
    ok(home.run(&["uninstall"]));
    assert_eq!(
        fs::read_to_string(home.settings()).unwrap(),
        "{\"hooks\":{}}"
    );
    assert!(!home
        .path()
        .join(".claude/settings.json.throughline-backup")
        .exists());
}

#[test]
fn folders_install_makes_are_owner_only_whatever_the_umask() {
    let home = Home::new();
    // Codex is found by its folder; install makes its skill's folders.
    fs::create_dir(home.path().join(".codex")).unwrap();
    // The umask is the process's: set in a child, so other tests' threads keep theirs.
    let script =
        format!("umask 000; '{BIN}' install --host claude && '{BIN}' install --host codex");
    let shell = Path::new("/bin/sh");
    ok(home.run_with(shell, &["-c", &script]));
    for folder in [
        ".claude",
        ".claude/commands",
        ".codex/skills",
        ".codex/skills/tl",
    ] {
        assert_eq!(mode(&home.path().join(folder)), 0o700, "{folder}");
    }
}
