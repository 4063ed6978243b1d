//! Claude Code's auto-compact threshold: `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` in the `env` of
//! `settings.json`, and the `autoCompactWindow` it is a share of.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};

use super::files;
use crate::install::hook_groups;
use crate::install::json_file::{saved_json, JsonFile};
use crate::install::{Change, InstallError, Scope};

/// The environment variable that sets the share of the context window at which Claude Code
/// compacts a session by itself. It can only lower the client's own threshold, which sits
/// 13,000 tokens short of the window: a higher value changes nothing.
pub const AUTOCOMPACT_ENV: &str = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE";

/// The setting that names the window Claude Code compacts against. While it finds no window for
/// the model (neither here nor from its own defaults), the client does not compact by itself
/// at all: 2.1.197 with its default model waits until the API refuses a request as too long,
/// whatever the threshold (docs/hosts/claude-code.md, "Compaction"; decision 0024).
pub const WINDOW_KEY: &str = "autoCompactWindow";

/// The largest window the client accepts. It caps the setting at the model's own window, so
/// this one means "the model's whole window" for every model.
pub const WHOLE_WINDOW: u64 = 1_000_000;

/// The auto-compact threshold the host's settings set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AutoCompact {
    pub settings: PathBuf,
    /// Percent of the context window, when set to a value the client accepts (above 0, at most 100).
    pub percent: Option<f64>,
    /// The value in the file when the client would ignore it.
    pub ignored: Option<String>,
    /// The window the threshold applies to (`autoCompactWindow`), when the file names one.
    pub window: Option<Value>,
}

impl AutoCompact {
    /// Whether the client applies the threshold whatever the model: it is set and a window is
    /// named for it in a form the client accepts.
    pub fn applies(&self) -> bool {
        self.percent.is_some() && self.window.as_ref().is_some_and(window_accepted)
    }
}

/// A window of 100,000 to 1,000,000 tokens, or (2.1.332) one per model; the client drops
/// anything else without a word.
fn window_accepted(window: &Value) -> bool {
    window.is_object()
        || window
            .as_u64()
            .is_some_and(|tokens| (100_000..=WHOLE_WINDOW).contains(&tokens))
}

/// Reads `env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` and `autoCompactWindow` from the scope's settings.
pub fn autocompact(scope: &Scope) -> Result<AutoCompact, InstallError> {
    let settings = JsonFile::load(&files(scope)?.settings)?;
    let raw = match settings
        .value
        .get("env")
        .and_then(|env| env.get(AUTOCOMPACT_ENV))
    {
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => Some(other.to_string()),
        None => None,
    };
    let percent = raw
        .as_deref()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|p| *p > 0.0 && *p <= 100.0);
    Ok(AutoCompact {
        settings: settings.path().to_path_buf(),
        ignored: raw.filter(|_| percent.is_none()),
        percent,
        window: settings.value.get(WINDOW_KEY).cloned(),
    })
}

/// Sets the threshold to `percent` (1 to 100), or with `None` removes it; everything else in
/// the file stays as it was, and the write is atomic.
///
/// With the threshold goes the window it needs: the model's whole window, unless the person
/// names one; removing the threshold removes that window only while it is still ours.
pub fn set_autocompact(scope: &Scope, percent: Option<u8>) -> Result<Change, InstallError> {
    let mut settings = JsonFile::load_for_edit(&files(scope)?.settings)?;
    let env = settings
        .value
        .entry("env")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(vars) = env else {
        return Err(hook_groups::malformed(&settings, "`env`", "Claude Code"));
    };
    let mut details = Vec::new();
    match percent {
        Some(p @ 1..=100) => {
            // Claude Code reads `env` values as strings.
            vars.insert(AUTOCOMPACT_ENV.into(), Value::String(p.to_string()));
            details.push(format!("set {AUTOCOMPACT_ENV} to {p}"));
            if !settings.value.contains_key(WINDOW_KEY) {
                settings
                    .value
                    .insert(WINDOW_KEY.into(), WHOLE_WINDOW.into());
                details.push(format!(
                    "set {WINDOW_KEY} to {WHOLE_WINDOW} (the model's whole window), so that \
                     the client applies the threshold"
                ));
            }
        }
        Some(p) => return Err(InstallError::Threshold(p)),
        None => {
            let had_threshold = vars.shift_remove(AUTOCOMPACT_ENV).is_some();
            if had_threshold {
                details.push(format!("removed {AUTOCOMPACT_ENV}"));
            }
            if vars.is_empty() {
                settings.value.shift_remove("env");
            }
            if had_threshold && settings.value.get(WINDOW_KEY) == Some(&Value::from(WHOLE_WINDOW)) {
                settings.value.shift_remove(WINDOW_KEY);
                details.push(format!("removed {WINDOW_KEY}"));
            }
        }
    }
    saved_json(&settings, details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::Action;
    use std::fs;

    fn project_with(settings: &str) -> (tempfile::TempDir, Scope, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude/settings.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, settings).unwrap();
        let scope = Scope::Project(dir.path().to_path_buf());
        (dir, scope, path)
    }

    #[test]
    fn the_threshold_is_written_into_env_keeping_everything_else() {
        let mine = "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"FOO\": \"1\"\n  },\n  \"theme\": \"dark\"\n}\n";
        let (_dir, scope, path) = project_with(mine);
        assert_eq!(autocompact(&scope).unwrap().percent, None);

        let change = set_autocompact(&scope, Some(70)).unwrap();
        assert_eq!(change.action, Action::Updated);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"FOO\": \"1\",\n    \"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE\": \"70\"\n  },\n  \"theme\": \"dark\",\n  \"autoCompactWindow\": 1000000\n}\n"
        );
        let read = autocompact(&scope).unwrap();
        assert_eq!((read.percent, read.applies()), (Some(70.0), true));
        assert_eq!(
            set_autocompact(&scope, Some(70)).unwrap().action,
            Action::Unchanged
        );

        set_autocompact(&scope, None).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            mine,
            "back to the very bytes"
        );
        let none = set_autocompact(&scope, None).unwrap();
        assert_eq!((none.action, none.details.len()), (Action::Unchanged, 0));
    }

    #[test]
    fn an_env_it_adds_goes_when_the_threshold_goes() {
        let (_dir, scope, path) = project_with("{\"theme\":\"dark\"}");
        set_autocompact(&scope, Some(55)).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"theme\":\"dark\",\"env\":{\"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE\":\"55\"},\"autoCompactWindow\":1000000}"
        );
        set_autocompact(&scope, None).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"theme\":\"dark\"}");
    }

    #[test]
    fn a_window_the_person_names_is_kept_and_used() {
        let mine = r#"{"autoCompactWindow": 400000}"#;
        let (_dir, scope, path) = project_with(mine);
        let change = set_autocompact(&scope, Some(40)).unwrap();
        assert_eq!(
            change.details,
            ["set CLAUDE_AUTOCOMPACT_PCT_OVERRIDE to 40"]
        );
        let read = autocompact(&scope).unwrap();
        assert_eq!(read.window, Some(Value::from(400_000)));
        assert!(read.applies());
        set_autocompact(&scope, None).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), mine);
    }

    #[test]
    fn a_whole_window_without_a_threshold_is_not_ours_to_remove() {
        let mine = r#"{"autoCompactWindow": 1000000}"#;
        let (_dir, scope, path) = project_with(mine);
        let read = autocompact(&scope).unwrap();
        assert_eq!((read.percent, read.applies()), (None, false));
        let change = set_autocompact(&scope, None).unwrap();
        assert_eq!(
            (change.action, change.details.len()),
            (Action::Unchanged, 0)
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), mine);
    }

    #[test]
    fn a_window_the_client_drops_does_not_make_the_threshold_apply() {
        for window in ["50000", "\"lots\"", "null", "2000000"] {
            let text = format!(
                r#"{{"env": {{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}}, "autoCompactWindow": {window}}}"#
            );
            let (_dir, scope, _) = project_with(&text);
            assert!(!autocompact(&scope).unwrap().applies(), "{window}");
        }
        let (_dir, scope, _) = project_with(
            r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}, "autoCompactWindow": {"default": 400000, "byModel": {}}}"#,
        );
        assert!(autocompact(&scope).unwrap().applies());
    }

    #[test]
    fn a_threshold_without_a_window_is_reported_as_not_applied() {
        let (_dir, scope, _) =
            project_with(r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "30"}}"#);
        let read = autocompact(&scope).unwrap();
        assert_eq!(
            (read.percent, read.window.as_ref(), read.applies()),
            (Some(30.0), None, false)
        );
    }

    #[test]
    fn values_the_client_would_ignore_are_reported_and_refused() {
        let (_dir, scope, path) =
            project_with(r#"{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "lots"}}"#);
        let read = autocompact(&scope).unwrap();
        assert_eq!(
            (read.percent, read.ignored.as_deref()),
            (None, Some("lots"))
        );
        let before = fs::read(&path).unwrap();
        for wrong in [0, 101] {
            let err = set_autocompact(&scope, Some(wrong)).unwrap_err();
            assert!(err.to_string().contains("1 to 100"), "{err}");
        }
        assert_eq!(fs::read(&path).unwrap(), before);
        let (_dir, scope, _) = project_with(r#"{"env": ["not", "an", "object"]}"#);
        assert!(matches!(
            set_autocompact(&scope, Some(50)),
            Err(InstallError::NotJson { .. })
        ));
    }
}
