//! `install --host gemini`, `uninstall` and `doctor` with the real binary in a temporary HOME
//! that holds a person's own Gemini CLI settings.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_throughline");

/// A person's settings.json: their theme, a hook and an MCP server of their own.
const SETTINGS: &str = r#"{
  "ui": {"theme": "GitHub"},
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "hooks": {
    "AfterAgent": [
      {"hooks": [{"type": "command", "command": "notify-send done", "timeout": 500}]}
    ]
  },
  "mcpServers": {"docs": {"command": "docs-server", "args": ["--stdio"]}}
}
"#;

fn run(home: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("HOME", home)
        .env_remove("GEMINI_CLI_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env("THROUGHLINE_HOME", home.join("memory"))
        .output()
        .unwrap()
}

fn ok(out: Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Every file under `dir` with its bytes, backups left out.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if !path.to_string_lossy().ends_with(".throughline-backup") {
                files.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn install_keeps_the_person_s_settings_a_second_run_changes_nothing_uninstall_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();
    fs::write(gemini.join("settings.json"), SETTINGS).unwrap();
    let before = snapshot(&gemini);

    let text = ok(run(dir.path(), &["install", "--host", "gemini"]));
    assert!(text.contains("registered with Gemini CLI"), "{text}");
    let binary = fs::canonicalize(BIN).unwrap();
    let settings: Value =
        serde_json::from_slice(&fs::read(gemini.join("settings.json")).unwrap()).unwrap();
    for event in [
        "SessionStart",
        "BeforeAgent",
        "AfterTool",
        "AfterAgent",
        "SessionEnd",
    ] {
        let handlers: Vec<&Value> = settings["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["hooks"].as_array().unwrap())
            .collect();
        let ours = handlers
            .iter()
            .find(|h| h["command"] == format!("{} hook gemini", binary.display()))
            .unwrap_or_else(|| panic!("{event}: {handlers:?}"));
        // Gemini CLI counts hook time-outs in milliseconds.
        assert!(ours["timeout"].as_u64().unwrap() >= 5_000, "{ours}");
    }
    assert_eq!(
        settings["hooks"]["AfterAgent"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    assert_eq!(settings["ui"]["theme"], "GitHub");
    assert_eq!(settings["mcpServers"]["docs"]["command"], "docs-server");
    assert_eq!(
        settings["mcpServers"]["throughline"],
        serde_json::json!({"command": binary, "args": ["mcp"]})
    );
    let command = fs::read_to_string(gemini.join("commands/tl.toml")).unwrap();
    assert!(command.contains("prompt = \"/tl {{args}}\""), "{command}");

    let doctor = run(dir.path(), &["doctor", "--host", "gemini"]);
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(report.contains("run this binary"), "{report}");

    let installed = snapshot(dir.path());
    let again = ok(run(dir.path(), &["install", "--host", "gemini"]));
    assert!(again.contains("nothing changed"), "{again}");
    assert_eq!(
        snapshot(dir.path()),
        installed,
        "a second install changed a byte"
    );

    ok(run(dir.path(), &["uninstall", "--host", "gemini"]));
    assert_eq!(snapshot(&gemini), before);
    assert!(!gemini.join("commands").exists());
}

#[test]
fn a_fresh_home_is_found_by_its_folder_and_left_empty() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();
    let text = ok(run(dir.path(), &["install"]));
    assert!(text.contains("registered with Gemini CLI"), "{text}");
    assert!(gemini.join("settings.json").exists());
    ok(run(dir.path(), &["uninstall"]));
    assert_eq!(snapshot(&gemini), Vec::new());
}

#[test]
fn settings_with_comments_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();
    fs::write(
        gemini.join("settings.json"),
        "{\n  // mine\n  \"ui\": {}\n}\n",
    )
    .unwrap();
    let before = snapshot(&gemini);
    let out = run(dir.path(), &["install", "--host", "gemini"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("comments"), "{err}");
    assert_eq!(snapshot(&gemini), before);
}
