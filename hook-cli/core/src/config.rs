//! Settings shared by the CLI, the hooks and the tray app: one JSON file in the data folder
//! (`config.json`), each value overridable from the environment. `throughline config` shows
//! the effective values and where each comes from.
//!
//! Every hook reads it (a small file, parsed in microseconds): capture can be paused, or off
//! for some projects.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::home::Home;

/// The host drops an injected string over 10,000 characters (UTF-16); stay clear of it.
pub const MAX_BUDGET: u32 = 9_500;

/// The most a memory may hold over the injections of one `/clear`: two of the most a host
/// takes in one (docs/decisions/0076).
pub const MAX_MEMORY_TOTAL: u32 = 2 * MAX_BUDGET;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Characters (UTF-16 code units, as the host counts) of one injection.
    pub budget: u32,
    /// Characters of the whole memory after `/clear`, over as many injections as the host
    /// passes into the first request (Claude Code: two), each within `budget`.
    pub memory_total: u32,
    /// Inject the memory into the session that follows a `/clear`.
    pub inject_on_clear: bool,
    /// After the host compacts a session, add its recent turns verbatim.
    pub inject_on_compact: bool,
    /// Stop the host's automatic compaction where a hook can (Claude Code) and tell the
    /// person to `/clear`: the fresh session starts from the memory, nothing summarised away.
    pub fresh_instead_of_compact: bool,
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
    /// Who writes the one-liners of turns that left the verbatim window: `off` (the local
    /// summarizer alone), `claude` (`claude -p` on the person's subscription), `anthropic`
    /// (the Messages API with a key), `openai` (any OpenAI-compatible endpoint, such as a
    /// local model server) or `codex` (`codex exec`). The local line stays the fallback.
    pub summary_backend: SummaryBackend,
    /// The model the backend runs; empty: the backend's small default (none for `openai`).
    pub summary_model: String,
    /// Base URL of the `anthropic` or `openai` backend; empty: the backend's default.
    pub summary_url: String,
    /// Key of the `anthropic` or `openai` backend; empty: `ANTHROPIC_API_KEY` or
    /// `OPENAI_API_KEY` from the environment (a local model server needs none).
    pub summary_api_key: String,
    /// Requests a day (UTC) the backend may get; 0 stops it.
    pub summary_daily_calls: u32,
    /// Turns summarised by one request.
    pub summary_batch_turns: u32,
    /// Seconds one request may take before its turns keep their local line.
    pub summary_timeout_secs: u32,
    /// Days a turn is kept; older ones are forgotten (0: kept for ever).
    pub keep_days: u32,
    /// Megabytes of stored text kept; past it the least recently active sessions are
    /// forgotten (0: no limit).
    pub keep_mb: u32,
    /// Regular expressions whose matches are stored as `[REDACTED:custom]`, beside the
    /// built-in secret shapes. In the environment: patterns separated by `:`.
    pub redact_patterns: Vec<String>,
    /// Percent of a plan window (five-hour, seven-day) at which the tray app notifies that
    /// the plan's limit is near; 0: never.
    pub plan_warn_percent: u32,
}

/// Who writes the one-liners (see [`Config::summary_backend`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SummaryBackend {
    #[default]
    Off,
    Claude,
    Anthropic,
    Openai,
    Codex,
}

impl SummaryBackend {
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryBackend::Off => "off",
            SummaryBackend::Claude => "claude",
            SummaryBackend::Anthropic => "anthropic",
            SummaryBackend::Openai => "openai",
            SummaryBackend::Codex => "codex",
        }
    }
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
            memory_total: MAX_MEMORY_TOTAL,
            inject_on_clear: true,
            inject_on_compact: true,
            fresh_instead_of_compact: false,
            inject_on_handoff: true,
            handoff_minutes: 60,
            verbatim_turns: 6,
            pause_capture: false,
            capture_off: Vec::new(),
            summary_backend: SummaryBackend::Off,
            summary_model: String::new(),
            summary_url: String::new(),
            summary_api_key: String::new(),
            summary_daily_calls: 50,
            summary_batch_turns: 20,
            summary_timeout_secs: 120,
            keep_days: 0,
            keep_mb: 0,
            redact_patterns: Vec::new(),
            plan_warn_percent: 80,
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

impl Effective {
    /// The same with the backend's key shown only as set or not: what may be printed.
    pub fn without_secrets(&self) -> Effective {
        let mut shown = self.clone();
        if !shown.config.summary_api_key.is_empty() {
            shown.config.summary_api_key = SECRET_SET.into();
        }
        shown
    }
}

/// How a secret that is set is shown.
const SECRET_SET: &str = "(set)";

/// The setting `throughline config` and the app never print.
const SECRET: &str = "summary_api_key";

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

/// `raw` (from the environment or the command line) as a value of the same type as `like`.
fn parse_like(like: &serde_json::Value, raw: &str) -> Option<serde_json::Value> {
    match like {
        serde_json::Value::Bool(_) => match raw.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Some(true.into()),
            "0" | "false" | "no" | "off" => Some(false.into()),
            _ => None,
        },
        serde_json::Value::Array(_) => Some(
            std::env::split_paths(raw)
                .filter(|p| !p.as_os_str().is_empty())
                .map(|p| p.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .into(),
        ),
        serde_json::Value::String(_) => Some(raw.trim().into()),
        _ => raw.trim().parse::<u32>().ok().map(Into::into),
    }
}

/// Sets one setting in the file from text, as its environment variable would
/// (`throughline config --set summary_backend=claude`).
pub fn set(home: &Home, key: &str, raw: &str) -> std::io::Result<Effective> {
    let invalid = |message: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, message);
    let defaults = serde_json::to_value(Config::default()).expect("config serialises");
    let Some(like) = defaults.get(key) else {
        let known: Vec<&String> = defaults.as_object().expect("object").keys().collect();
        return Err(invalid(format!("no setting {key:?}; known: {known:?}")));
    };
    let value = parse_like(like, raw)
        .ok_or_else(|| invalid(format!("{key}={raw:?} is not a valid value")))?;
    let mut checked = defaults.clone();
    checked[key] = value.clone();
    let mut candidate: Config =
        serde_json::from_value(checked).map_err(|e| invalid(format!("{key}={raw:?}: {e}")))?;
    if let Some((problem, _)) = out_of_range(&mut candidate).into_iter().next() {
        return Err(invalid(format!("{key}={raw:?} is refused: {problem}")));
    }
    update(home, |config| {
        let mut merged = serde_json::to_value(&*config).expect("config serialises");
        merged[key] = value;
        *config = serde_json::from_value(merged).expect("checked above");
    })
}

/// The values past what a setting allows, each put back in range: what was wrong, and what
/// is used meanwhile. `set` refuses them; a file or variable that holds one is reported.
fn out_of_range(config: &mut Config) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if config.budget > MAX_BUDGET {
        found.push((
            format!(
                "budget {} is over the host's limit of {MAX_BUDGET}",
                config.budget
            ),
            format!("using {MAX_BUDGET}"),
        ));
        config.budget = MAX_BUDGET;
    }
    if config.memory_total > MAX_MEMORY_TOTAL {
        found.push((
            format!(
                "memory_total {} is over {MAX_MEMORY_TOTAL}, two injections at the host's limit",
                config.memory_total
            ),
            format!("using {MAX_MEMORY_TOTAL}"),
        ));
        config.memory_total = MAX_MEMORY_TOTAL;
    }
    if config.plan_warn_percent > 100 {
        found.push((
            format!("plan_warn_percent {} is over 100", config.plan_warn_percent),
            "no plan notification until it is 0 to 100".to_string(),
        ));
        config.plan_warn_percent = 0;
    }
    found
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
        let value = parse_like(&merged[key], &raw);
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
    for (problem, meanwhile) in out_of_range(&mut config) {
        problems.push(format!("{problem}; {meanwhile}"));
    }
    let shown = serde_json::to_value(&config).expect("config serialises");
    let settings = keys
        .iter()
        .map(|key| Setting {
            key: key.clone(),
            value: match shown[key].as_str() {
                // A key is shown as set or not, never printed.
                Some(secret) if key == SECRET && !secret.is_empty() => format!("{SECRET_SET:?}"),
                _ => shown[key].to_string(),
            },
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
/// the settings now in force. The file keeps the keys it had and gains only those changed, so
/// a default not chosen stays a default (and follows a new release's). A file that cannot be
/// read as settings is not overwritten.
pub fn update(home: &Home, change: impl FnOnce(&mut Config)) -> std::io::Result<Effective> {
    let file = path(home);
    let unreadable = |e: serde_json::Error| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {e}; fix or delete the file first", file.display()),
        )
    };
    let mut written: serde_json::Map<String, serde_json::Value> = match fs::read_to_string(&file) {
        Ok(text) => serde_json::from_str(&text).map_err(unreadable)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => serde_json::Map::new(),
        Err(e) => return Err(e),
    };
    let mut merged = serde_json::to_value(Config::default())?;
    for (key, value) in &written {
        merged[key] = value.clone();
    }
    let before: Config = serde_json::from_value(merged).map_err(unreadable)?;
    let mut config = before.clone();
    change(&mut config);
    let (before, after) = (serde_json::to_value(before)?, serde_json::to_value(config)?);
    for (key, value) in after.as_object().expect("object") {
        if written.contains_key(key) || before.get(key) != Some(value) {
            written.insert(key.clone(), value.clone());
        }
    }
    save(home, &written)?;
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

/// Writes the file atomically, owner-only: it may hold the summary backend's key.
fn save(home: &Home, settings: &serde_json::Map<String, serde_json::Value>) -> std::io::Result<()> {
    home.ensure()?;
    let mut text = serde_json::to_string_pretty(settings)?;
    text.push('\n');
    crate::atomic_file::write(&path(home), text.as_bytes(), 0o600)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_warning_over_a_hundred_percent_is_a_problem_and_warns_never() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        assert_eq!(load(&home).config.plan_warn_percent, 80);
        fs::write(path(&home), r#"{"plan_warn_percent": 150}"#).unwrap();
        let effective = load(&home);
        assert_eq!(effective.config.plan_warn_percent, 0);
        // `any`: the environment test beside this one may add a problem meanwhile.
        assert!(
            effective
                .problems
                .iter()
                .any(|p| p.contains("plan_warn_percent 150 is over 100")),
            "{:?}",
            effective.problems
        );
    }

    #[test]
    fn the_file_holds_only_the_settings_chosen() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        set(&home, "verbatim_turns", "12").unwrap();
        set(&home, "pause_capture", "yes").unwrap();
        let written: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path(&home)).unwrap()).unwrap();
        assert_eq!(
            written,
            serde_json::json!({"verbatim_turns": 12, "pause_capture": true})
        );
        // Set back to its default, a chosen setting stays chosen. (The file, not `load`:
        // the environment test beside this one sets overrides.)
        let default_turns = Config::default().verbatim_turns.to_string();
        set(&home, "verbatim_turns", &default_turns).unwrap();
        let written: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path(&home)).unwrap()).unwrap();
        assert_eq!(written["verbatim_turns"], Config::default().verbatim_turns);
        assert_eq!(written.as_object().unwrap().len(), 2);
    }

    #[test]
    fn set_refuses_a_value_past_its_range_and_keeps_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::at(dir.path());
        set(&home, "plan_warn_percent", "90").unwrap();
        for (key, raw) in [("plan_warn_percent", "150"), ("budget", "20000")] {
            let e = set(&home, key, raw).unwrap_err();
            assert!(e.to_string().contains("is refused"), "{e}");
        }
        // The file, not `load`: the environment test beside this one sets overrides.
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path(&home)).unwrap()).unwrap();
        assert_eq!(file["plan_warn_percent"], 90);
        assert!(file.get("budget").is_none_or(|b| b != 20000), "{file}");
    }

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

        // A file with every setting, as earlier releases wrote it.
        let every = Config {
            handoff_minutes: 5,
            ..Config::default()
        };
        fs::write(path(&home), serde_json::to_string(&every).unwrap()).unwrap();
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
