//! `install --host gemini`, `uninstall` and `doctor` with the real binary in a temporary HOME
//! that holds a person's own Gemini CLI settings.

use std::fs;

use serde_json::Value;

use crate::support::throughline::{files_under, in_home, ok_in_home};

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

#[test]
fn install_keeps_the_person_s_settings_a_second_run_changes_nothing_uninstall_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();
    fs::write(gemini.join("settings.json"), SETTINGS).unwrap();
    let before = files_under(&gemini);

    let text = ok_in_home(dir.path(), &["install", "--host", "gemini"]);
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

    let doctor = in_home(dir.path(), &["doctor", "--host", "gemini"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(report.contains("run this binary"), "{report}");

    let installed = files_under(dir.path());
    let again = ok_in_home(dir.path(), &["install", "--host", "gemini"]);
    assert!(again.contains("nothing changed"), "{again}");
    assert_eq!(
        files_under(dir.path()),
        installed,
        "a second install changed a byte"
    );

    ok_in_home(dir.path(), &["uninstall", "--host", "gemini"]);
    assert_eq!(files_under(&gemini), before);
    assert!(!gemini.join("commands").exists());
}

#[test]
fn a_fresh_home_is_found_by_its_folder_and_left_empty() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = dir.path().join(".gemini");
    fs::create_dir_all(&gemini).unwrap();
    let text = ok_in_home(dir.path(), &["install"]);
    assert!(text.contains("registered with Gemini CLI"), "{text}");
    assert!(gemini.join("settings.json").exists());
    ok_in_home(dir.path(), &["uninstall"]);
    assert_eq!(files_under(&gemini), Vec::new());
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
    let before = files_under(&gemini);
    let out = in_home(dir.path(), &["install", "--host", "gemini"], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("comments"), "{err}");
    assert_eq!(files_under(&gemini), before);
}
