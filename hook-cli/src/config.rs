//! Settings shared by the CLI, the hooks and the tray app: one JSON file in the data folder
//! (`config.json`), each value overridable from the environment. `throughline config` shows
//! the effective values and where each comes from.
//!
//! Every hook reads it (a small file, parsed in microseconds): capture can be paused, or off
//! for some projects.

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::home::Home;

/// The host drops an injected string over 10,000 characters (UTF-16); stay clear of it.
pub const MAX_BUDGET: u32 = 9_500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Characters (UTF-16 code units, as the host counts) of one injection.
    pub budget: u32,
    /// Inject the memory into the session that follows a `/clear`.
    pub inject_on_clear: bool,
    /// After the host compacts a session, add its recent turns verbatim.
    pub inject_on_compact: bool,
    /// Honour `/tl` and one-click handoffs.
    pub inject_on_handoff: bool,
    /// Minutes a handoff waits for the next new session of its project.
    pub handoff_minutes: u32,
    /// Most recent turns shown verbatim (the latest exchange included).
    pub verbatim_turns: u32,
    /// Store nothing new until unpaused: what sessions say meanwhile is skipped for good.
    /// Memory already stored is still handed over.
    pub pause_capture: bool,
    /// Project folders Throughline leaves alone: nothing captured, nothing injected.
    /// In the environment: folders separated by `:`.
    pub capture_off: Vec<String>,
    /// Days a turn is kept; older ones are forgotten (0: kept for ever).
    pub keep_days: u32,
    /// Megabytes of stored text kept; past it the least recently active sessions are
    /// forgotten (0: no limit).
    pub keep_mb: u32,
    /// Regular expressions whose matches are stored as `[REDACTED:custom]`, beside the
    /// built-in secret shapes. In the environment: patterns separated by `:`.
    pub redact_patterns: Vec<String>,
}

/// What a hook may do in a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    On,
    Paused,
    /// The folder is in a project with capture off.
    Off,
}

impl Config {
    pub fn capture_in(&self, cwd: Option<&str>) -> Capture {
        if cwd.and_then(|cwd| self.capture_off_by(cwd)).is_some() {
            Capture::Off
        } else if self.pause_capture {
            Capture::Paused
        } else {
            Capture::On
        }
    }

    /// The folder with capture off that `folder` is in (or is), if any.
    pub fn capture_off_by(&self, folder: &str) -> Option<&str> {
        self.capture_off
            .iter()
            .find(|off| Path::new(folder).starts_with(off))
            .map(String::as_str)
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: MAX_BUDGET,
            inject_on_clear: true,
            inject_on_compact: true,
            inject_on_handoff: true,
            handoff_minutes: 60,
            verbatim_turns: 6,
            pause_capture: false,
            capture_off: Vec::new(),
            keep_days: 0,
            keep_mb: 0,
            redact_patterns: Vec::new(),
        }
    }
}

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Default,
    File,
    Env,
}

#[derive(Debug, Clone, Serialize)]
pub struct Setting {
    pub key: String,
    pub value: String,
    pub source: Source,
    /// The environment variable that overrides it.
    pub env: String,
}

/// The settings in force and, per key, where each came from.
#[derive(Debug, Clone, Serialize)]
pub struct Effective {
    pub config: Config,
    pub file: PathBuf,
    pub settings: Vec<Setting>,
    /// Values in the environment or the file that could not be used.
    pub problems: Vec<String>,
}

/// The settings file in `home` (the app watches it).
pub fn path(home: &Home) -> PathBuf {
    home.dir().join("config.json")
}

/// The file's text; a file others may read (written before it was made owner-only) is made
/// owner-only.
fn read_owner_only(file: &Path) -> std::io::Result<String> {
    let mut opened = fs::File::open(file)?;
    // Not the person's file to fix (another owner, a read-only disk): read it all the same.
    if let Ok(meta) = opened.metadata() {
        let _ = crate::home::owner_only(file, &meta);
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut opened, &mut text)?;
    Ok(text)
}

fn env_name(key: &str) -> String {
    format!("THROUGHLINE_{}", key.to_ascii_uppercase())
}

/// Reads the file (missing is fine), then applies environment overrides.
pub fn load(home: &Home) -> Effective {
    let file = path(home);
    let mut problems = Vec::new();
    let from_file: Option<serde_json::Map<String, serde_json::Value>> = match read_owner_only(&file)
    {
        Ok(text) => match serde_json::from_str(&text) {
            Ok(map) => Some(map),
            Err(e) => {
                problems.push(format!("{}: {e}; using defaults", file.display()));
                None
            }
        },
        Err(_) => None,
    };
    let mut merged = serde_json::to_value(Config::default()).expect("config serialises");
    let mut sources = std::collections::HashMap::new();
    if let Some(map) = &from_file {
        for (key, value) in map {
            if merged.get(key).is_some() {
                merged[key] = value.clone();
                sources.insert(key.clone(), Source::File);
            } else {
                problems.push(format!("{}: unknown setting {key:?}", file.display()));
            }
        }
    }
    let keys: Vec<String> = merged
        .as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect();
    for key in &keys {
        let Ok(raw) = std::env::var(env_name(key)) else {
            continue;
        };
        let value = match &merged[key] {
            serde_json::Value::Bool(_) => match raw.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Some(true.into()),
                "0" | "false" | "no" | "off" => Some(false.into()),
                _ => None,
            },
            serde_json::Value::Array(_) => Some(
                std::env::split_paths(&raw)
                    .filter(|p| !p.as_os_str().is_empty())
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .into(),
            ),
            _ => raw.trim().parse::<u32>().ok().map(Into::into),
        };
        match value {
            Some(v) => {
                merged[key] = v;
                sources.insert(key.clone(), Source::Env);
            }
            None => problems.push(format!(
                "{}={raw:?} is not a valid value; ignored",
                env_name(key)
            )),
        }
    }
    let mut config: Config = match serde_json::from_value(merged.clone()) {
        Ok(c) => c,
        Err(e) => {
            problems.push(format!("{}: {e}; using defaults", file.display()));
            Config::default()
        }
    };
    if !config.redact_patterns.is_empty() {
        if let Err(e) = crate::redact::Redactor::new(&config.redact_patterns) {
            problems.push(format!("{e}; nothing is stored until it is fixed"));
        }
    }
    if config.budget > MAX_BUDGET {
        problems.push(format!(
            "budget {} is over the host's limit; using {MAX_BUDGET}",
            config.budget
        ));
        config.budget = MAX_BUDGET;
    }
    let shown = serde_json::to_value(&config).expect("config serialises");
    let settings = keys
        .iter()
        .map(|key| Setting {
            key: key.clone(),
            value: shown[key].to_string(),
            source: sources.get(key).copied().unwrap_or(Source::Default),
            env: env_name(key),
        })
        .collect();
    Effective {
        config,
        file,
        settings,
        problems,
    }
}

/// Changes settings in the file, leaving the environment's overrides out of it, and returns
/// the settings now in force. A file that cannot be read as settings is not overwritten.
pub fn update(home: &Home, change: impl FnOnce(&mut Config)) -> std::io::Result<Effective> {
    let file = path(home);
    let mut config = match fs::read_to_string(&file) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: {e}; fix or delete the file first", file.display()),
            )
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
        Err(e) => return Err(e),
    };
    change(&mut config);
    save(home, &config)?;
    Ok(load(home))
}

/// Saves what `wanted` changes against the settings in force (the window sends every
/// setting, the ones the environment set included; those stay out of the file).
pub fn save_changes(home: &Home, wanted: &Config) -> std::io::Result<Effective> {
    let before = serde_json::to_value(load(home).config)?;
    let wanted = serde_json::to_value(wanted)?;
    update(home, |file| {
        let mut merged = serde_json::to_value(&*file).expect("config serialises");
        for (key, value) in wanted.as_object().expect("object") {
            if before.get(key) != Some(value) {
                merged[key] = value.clone();
            }
        }
        *file = serde_json::from_value(merged).expect("same shape as Config");
    })
}

/// Writes the file atomically (temp file, fsync, rename), owner-only.
pub fn save(home: &Home, config: &Config) -> std::io::Result<()> {
    home.ensure()?;
    let file = path(home);
    let tmp = file.with_extension("json.tmp");
    let mut out = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)?;
    // An old temp file keeps its mode through `open`.
    crate::home::owner_only(&tmp, &out.metadata()?)?;
    out.write_all(serde_json::to_string_pretty(config)?.as_bytes())?;
    out.write_all(b"\n")?;
    out.sync_all()?;
    fs::rename(&tmp, &file)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Environment variables are process-wide: the env cases run in one test.
    #[test]
    fn file_then_environment_with_sources_and_clear_problems() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        let effective = load(&home);
        assert_eq!(effective.config, Config::default());
        assert!(effective
            .settings
            .iter()
            .all(|s| s.source == Source::Default));

        save(
            &home,
            &Config {
                handoff_minutes: 5,
                ..Config::default()
            },
        )
        .unwrap();
        std::env::set_var("THROUGHLINE_BUDGET", "4000");
        std::env::set_var("THROUGHLINE_INJECT_ON_COMPACT", "off");
        std::env::set_var("THROUGHLINE_VERBATIM_TURNS", "many");
        let effective = load(&home);
        std::env::remove_var("THROUGHLINE_BUDGET");
        std::env::remove_var("THROUGHLINE_INJECT_ON_COMPACT");
        std::env::remove_var("THROUGHLINE_VERBATIM_TURNS");
        let c = &effective.config;
        assert_eq!(
            (c.budget, c.handoff_minutes, c.inject_on_compact),
            (4000, 5, false)
        );
        let source = |k: &str| {
            effective
                .settings
                .iter()
                .find(|s| s.key == k)
                .unwrap()
                .source
        };
        assert_eq!(source("budget"), Source::Env);
        assert_eq!(source("handoff_minutes"), Source::File);
        assert_eq!(
            source("verbatim_turns"),
            Source::File,
            "the file holds every setting"
        );
        assert!(effective.problems[0].contains("THROUGHLINE_VERBATIM_TURNS"));

        fs::write(path(&home), r#"{"budget": 20000, "colour": "red"}"#).unwrap();
        let effective = load(&home);
        assert_eq!(effective.config.budget, MAX_BUDGET);
        assert_eq!(effective.problems.len(), 2, "{:?}", effective.problems);

        std::env::set_var("THROUGHLINE_CAPTURE_OFF", "/work/secret:/tmp/scratch");
        std::env::set_var("THROUGHLINE_PAUSE_CAPTURE", "yes");
        let effective = load(&home);
        std::env::remove_var("THROUGHLINE_CAPTURE_OFF");
        std::env::remove_var("THROUGHLINE_PAUSE_CAPTURE");
        let c = &effective.config;
        assert_eq!(c.capture_off, ["/work/secret", "/tmp/scratch"]);
        assert!(c.pause_capture);
        assert_eq!(effective.problems.len(), 2, "{:?}", effective.problems);

        assert_eq!(c.capture_in(Some("/work/secret/src")), Capture::Off);
        assert_eq!(c.capture_in(Some("/work/secretive")), Capture::Paused);
        assert_eq!(Config::default().capture_in(None), Capture::On);

        fs::write(path(&home), "{ not json").unwrap();
        let effective = load(&home);
        assert_eq!(effective.config, Config::default());
        assert!(effective.problems[0].contains("using defaults"));
        assert!(update(&home, |c| c.pause_capture = true).is_err());
        assert_eq!(fs::read_to_string(path(&home)).unwrap(), "{ not json");

        // The environment's values stay out of the file.
        fs::write(path(&home), r#"{"handoff_minutes": 5}"#).unwrap();
        std::env::set_var("THROUGHLINE_BUDGET", "4000");
        let effective = update(&home, |c| c.pause_capture = true).unwrap();
        std::env::remove_var("THROUGHLINE_BUDGET");
        assert_eq!(effective.config.budget, 4000);
        let saved: Config =
            serde_json::from_str(&fs::read_to_string(path(&home)).unwrap()).unwrap();
        assert_eq!(
            (saved.budget, saved.handoff_minutes, saved.pause_capture),
            (MAX_BUDGET, 5, true)
        );

        std::env::set_var("THROUGHLINE_BUDGET", "4000");
        let wanted = Config {
            verbatim_turns: 3,
            ..load(&home).config
        };
        save_changes(&home, &wanted).unwrap();
        std::env::remove_var("THROUGHLINE_BUDGET");
        let saved: Config =
            serde_json::from_str(&fs::read_to_string(path(&home)).unwrap()).unwrap();
        assert_eq!(
            (saved.budget, saved.verbatim_turns, saved.handoff_minutes),
            (MAX_BUDGET, 3, 5)
        );
    }
}
