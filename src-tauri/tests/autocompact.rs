//! The auto-compact threshold the Settings view writes into Claude Code's user settings. Its
//! own test binary: it points the client's config folder (`CLAUDE_CONFIG_DIR`) at a temp dir,
//! and the environment is process-wide.

use std::fs;

use throughline_app::settings;

#[path = "support/ui_types.rs"]
mod ui_types;

#[test]
fn the_threshold_is_written_into_claude_codes_settings_and_taken_out_again() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("CLAUDE_CONFIG_DIR", dir.path());
    let file = dir.path().join("settings.json");
    let mine = "{\n  \"env\": {\n    \"HTTPS_PROXY\": \"http://proxy:3128\"\n  },\n  \"model\": \"opus\"\n}\n";
    fs::write(&file, mine).unwrap();

    let before = settings::autocompact().unwrap();
    assert_eq!(
        (before.percent, before.settings.clone()),
        (None, file.clone())
    );

    let now = settings::set_autocompact(Some(65)).unwrap();
    let types = ui_types::UiTypes::read();
    types.check("AutoCompact", &before);
    types.check("AutoCompact", &now);
    assert_eq!((now.percent, now.applies()), (Some(65.0), true));
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["env"]["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"], "65");
    assert_eq!(written["env"]["HTTPS_PROXY"], "http://proxy:3128");
    assert_eq!(written["model"], "opus");
    // Without a window some clients never apply the threshold (decision 0024).
    assert_eq!(written["autoCompactWindow"], 1_000_000);

    let refused = settings::set_autocompact(Some(0)).unwrap_err();
    assert!(refused.contains("from 1 to 100"), "{refused}");
    assert_eq!(settings::autocompact().unwrap().percent, Some(65.0));

    assert_eq!(settings::set_autocompact(None).unwrap().percent, None);
    assert_eq!(fs::read_to_string(&file).unwrap(), mine);

    fs::write(&file, "{ \"env\": { // mine\n } }").unwrap();
    let commented = settings::set_autocompact(Some(50)).unwrap_err();
    assert!(commented.contains("comments"), "{commented}");
}
