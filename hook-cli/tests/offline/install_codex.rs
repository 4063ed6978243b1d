//! `install --host codex`, `uninstall` and `doctor` with the real binary in a temporary HOME
//! that holds a person's own Codex configuration.

use std::fs;

use serde_json::Value;

use crate::support::throughline::{files_under, in_home, ok_in_home};

const BIN: &str = env!("CARGO_BIN_EXE_throughline");

/// A person's config.toml: comments, their provider, an MCP server of their own.
const CONFIG: &str = r#"# my settings
model = "gpt-5"   # the default

[mcp_servers.docs]
command = "docs-server"
args = ["--stdio"]

[projects."/home/me/work"]
trust_level = "trusted"
"#;

const HOOKS: &str = r#"{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done"
          }
        ]
      }
    ]
  }
}
"#;

#[test]
fn install_keeps_the_person_s_files_a_second_run_changes_nothing_uninstall_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let codex = dir.path().join(".codex");
    fs::create_dir_all(&codex).unwrap();
    fs::write(codex.join("config.toml"), CONFIG).unwrap();
    fs::write(codex.join("hooks.json"), HOOKS).unwrap();
    let before = files_under(&codex);

    let text = ok_in_home(dir.path(), &["install", "--host", "codex"]);
    assert!(text.contains("registered with Codex"), "{text}");
    assert!(
        text.contains("/hooks"),
        "the person is told to trust the hooks: {text}"
    );
    let binary = fs::canonicalize(BIN).unwrap();
    let hooks: Value =
        serde_json::from_slice(&fs::read(codex.join("hooks.json")).unwrap()).unwrap();
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "Stop",
        "PreCompact",
        "SessionEnd",
    ] {
        let commands: Vec<&str> = hooks["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["hooks"].as_array().unwrap())
            .filter_map(|h| h["command"].as_str())
            .collect();
        assert!(
            commands.contains(&format!("{} hook codex", binary.display()).as_str()),
            "{event}: {commands:?}"
        );
    }
    assert_eq!(
        hooks["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    let config = fs::read_to_string(codex.join("config.toml")).unwrap();
    // The server goes beside the person's own; every other byte stays.
    let ours = format!(
        "[mcp_servers.throughline]\ncommand = \"{}\"\nargs = [\"mcp\"]\n\n",
        binary.display()
    );
    assert!(config.contains(&ours), "{config}");
    // Each window runs its own hooks, so /clear is told from a second window.
    let feature = "\n[features]\ndaemon_auto_start = false # set by throughline install: each \
                   window runs its own hooks\n";
    assert!(config.ends_with(feature), "{config}");
    assert_eq!(
        config.replacen(&ours, "", 1).replacen(feature, "", 1),
        CONFIG
    );
    let skill = fs::read_to_string(codex.join("skills/tl/SKILL.md")).unwrap();
    assert!(skill.contains("name: tl"), "{skill}");

    // Untrusted hooks are what doctor reports first.
    let doctor = in_home(dir.path(), &["doctor", "--host", "codex"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(report.contains("not trusted yet"), "{report}");
    assert!(!doctor.status.success());

    let installed = files_under(dir.path());
    let again = ok_in_home(dir.path(), &["install", "--host", "codex"]);
    assert!(again.contains("nothing changed"), "{again}");
    assert_eq!(
        files_under(dir.path()),
        installed,
        "a second install changed a byte"
    );

    ok_in_home(dir.path(), &["uninstall", "--host", "codex"]);
    assert_eq!(files_under(&codex), before);
    assert!(!codex.join("skills").exists());
}

#[test]
fn trusted_hooks_pass_the_doctor_and_a_fresh_home_is_left_empty() {
    let dir = tempfile::tempdir().unwrap();
    let codex = dir.path().join(".codex");
    fs::create_dir_all(&codex).unwrap();
    // `--host all` finds Codex by its folder.
    let text = ok_in_home(dir.path(), &["install"]);
    assert!(text.contains("registered with Codex"), "{text}");
    let hooks_json = fs::canonicalize(codex.join("hooks.json")).unwrap();
    let hooks: Value = serde_json::from_slice(&fs::read(&hooks_json).unwrap()).unwrap();
    // Trust as the TUI records it: one entry per handler, the event in snake case, with the
    // handler's hash.
    let mut config = fs::read_to_string(codex.join("config.toml")).unwrap();
    for (event, groups) in hooks["hooks"].as_object().unwrap() {
        let hash = throughline::hosts::codex::install::trust_hash(
            event,
            &groups[0],
            &groups[0]["hooks"][0],
        );
        let snake: String = event
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                sep.into_iter().chain([c.to_ascii_lowercase()])
            })
            .collect();
        config += &format!(
            "\n[hooks.state.\"{}:{snake}:0:0\"]\ntrusted_hash = \"{hash}\"\n",
            hooks_json.display()
        );
    }
    fs::write(codex.join("config.toml"), config).unwrap();
    let doctor = in_home(dir.path(), &["doctor", "--host", "codex"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("hooks in") && report.contains("run this binary"),
        "{report}"
    );
    assert!(!report.contains("not trusted"), "{report}");
    assert!(!report.contains("changed since"), "{report}");

    // Without the trust entries, the files Throughline created go again.
    let config = fs::read_to_string(codex.join("config.toml")).unwrap();
    let ours = config[..config.find("\n[hooks.state").unwrap()].to_string();
    fs::write(codex.join("config.toml"), ours).unwrap();
    ok_in_home(dir.path(), &["uninstall"]);
    assert_eq!(files_under(&codex), Vec::new());
}

#[test]
fn a_codex_folder_left_after_uninstall_is_a_note_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join(".claude")).unwrap();
    fs::create_dir_all(dir.path().join(".codex")).unwrap();
    ok_in_home(dir.path(), &["install"]);
    ok_in_home(dir.path(), &["uninstall", "--host", "codex"]);
    // Claude Code still has it; the empty ~/.codex is a client not set up.
    let report = ok_in_home(dir.path(), &["doctor"]);
    assert!(
        report.contains("note  hooks      Codex is not set up"),
        "{report}"
    );
    assert!(report.contains("Everything is in place."), "{report}");
    // Named, it is what the person asked about: a problem, with its fix.
    let named = in_home(dir.path(), &["doctor", "--host", "codex"], b"");
    assert!(!named.status.success());
    assert!(String::from_utf8_lossy(&named.stdout).contains("FAIL  hooks"));
    // With no client set up at all, nothing is in place.
    ok_in_home(dir.path(), &["uninstall"]);
    assert!(!in_home(dir.path(), &["doctor"], b"").status.success());
}

#[test]
fn a_config_toml_that_does_not_parse_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let codex = dir.path().join(".codex");
    fs::create_dir_all(&codex).unwrap();
    fs::write(codex.join("config.toml"), "model = \n[broken").unwrap();
    let before = files_under(&codex);
    let out = in_home(dir.path(), &["install", "--host", "codex"], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not valid TOML"), "{err}");
    assert_eq!(files_under(&codex), before);
}

#[test]
fn the_person_s_own_daemon_setting_is_kept_and_survives_uninstall() {
    for setting in ["true", "false"] {
        let dir = tempfile::tempdir().unwrap();
        let codex = dir.path().join(".codex");
        fs::create_dir_all(&codex).unwrap();
        let mine = format!("[features]\ndaemon_auto_start = {setting}\n");
        fs::write(codex.join("config.toml"), &mine).unwrap();
        let text = ok_in_home(dir.path(), &["install", "--host", "codex"]);
        assert_eq!(
            text.contains("kept your [features] daemon_auto_start = true"),
            setting == "true",
            "{text}"
        );
        let config = fs::read_to_string(codex.join("config.toml")).unwrap();
        assert!(config.starts_with(&mine), "{config}");
        ok_in_home(dir.path(), &["uninstall", "--host", "codex"]);
        assert_eq!(fs::read_to_string(codex.join("config.toml")).unwrap(), mine);
    }
}
