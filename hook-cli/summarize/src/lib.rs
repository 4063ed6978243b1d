//! One-liners by a model, off by default (docs/decisions/0055). The local summarizer
//! (`summary.rs`) writes every turn's line as it completes; where the person chose a backend,
//! `throughline summarize` ([`HELPER`]) later asks a model for better lines of the turns that left their
//! session's verbatim window, many turns per request, within a daily cap. A hook only starts
//! that process, detached, when a batch is due ([`start_if_due`]); it never waits for it.
//! Whatever fails, the turn keeps its local line, and nothing is asked again.

mod anthropic;
mod claude;
mod codex;
mod command;
mod http;
mod openai;
mod prompt;

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::Serialize;

use throughline_core::clock;
use throughline_core::config::{self, Config, SummaryBackend};
use throughline_core::home::Home;
use throughline_core::record::EventKind;
use throughline_store::{Store, SummaryCall, SummarySpend};

pub use prompt::{parse_answer, prompt_for, Prompt, LINE_CHARS};

/// What a backend answered to one prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A model that turns a prompt into text: one implementation per backend.
pub trait Backend {
    /// The backend's name in `config.json`, the call log and the injection log.
    fn name(&self) -> &'static str;
    fn model(&self) -> &str;
    /// One request. The error says what failed in words the person can act on.
    fn complete(&self, prompt: &Prompt) -> Result<Completion, String>;
}

/// The backend `config` chooses and the model it runs, checked without building anything:
/// what `doctor`, `stats` and the app show (they must not link the HTTP client, see
/// [`HELPER`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub backend: SummaryBackend,
    pub model: String,
    /// The key of an API backend.
    key: String,
}

/// The backend `config` chooses (`None`: off), or what is missing to use it.
pub fn choose(config: &Config) -> Result<Option<Choice>, String> {
    let model = |default: &str| {
        if config.summary_model.is_empty() {
            default.to_string()
        } else {
            config.summary_model.clone()
        }
    };
    let key = |variable: &str| {
        if config.summary_api_key.is_empty() {
            std::env::var(variable).unwrap_or_default()
        } else {
            config.summary_api_key.clone()
        }
    };
    let (model, key) = match config.summary_backend {
        SummaryBackend::Off => return Ok(None),
        SummaryBackend::Claude => (model(claude::DEFAULT_MODEL), String::new()),
        SummaryBackend::Codex => (model(""), String::new()),
        SummaryBackend::Anthropic => {
            let key = key("ANTHROPIC_API_KEY");
            if key.is_empty() {
                return Err(
                    "the anthropic summary backend needs a key: set summary_api_key \
                     (`throughline config --set summary_api_key=...`, or the app's Settings) \
                     or ANTHROPIC_API_KEY"
                        .into(),
                );
            }
            (model(ANTHROPIC_MODEL), key)
        }
        SummaryBackend::Openai => {
            if config.summary_model.is_empty() {
                return Err(
                    "the openai summary backend needs a model: set summary_model to \
                     one the server at summary_url serves (e.g. `ollama list`)"
                        .into(),
                );
            }
            (model(""), key("OPENAI_API_KEY"))
        }
    };
    Ok(Some(Choice {
        backend: config.summary_backend,
        model,
        key,
    }))
}

/// The Messages API backend's model unless `summary_model` names one.
pub const ANTHROPIC_MODEL: &str = "claude-haiku-4-5";

/// The backend `config` chooses, ready to ask (`None`: off).
pub fn backend(config: &Config, home: &Home) -> Result<Option<Box<dyn Backend>>, String> {
    let Some(choice) = choose(config)? else {
        return Ok(None);
    };
    let timeout = Duration::from_secs(u64::from(config.summary_timeout_secs.max(1)));
    let Choice { model, key, .. } = choice;
    Ok(Some(match choice.backend {
        SummaryBackend::Off => return Ok(None),
        SummaryBackend::Claude => Box::new(claude::Claude {
            model,
            workdir: workdir(home),
            timeout,
        }),
        SummaryBackend::Codex => Box::new(codex::Codex {
            model,
            workdir: workdir(home),
            timeout,
        }),
        SummaryBackend::Anthropic => Box::new(anthropic::Anthropic::new(
            &config.summary_url,
            model,
            key,
            timeout,
        )?),
        SummaryBackend::Openai => Box::new(openai::OpenAi::new(
            &config.summary_url,
            model,
            key,
            timeout,
        )?),
    }))
}

/// The program that runs the backends, next to `throughline`. The HTTP client and TLS are
/// linked into it alone: in the CLI every hook starts, they added a tenth to its start-up
/// (docs/decisions/0057).
pub const HELPER: &str = "throughline-summarize";

/// [`HELPER`] next to the running `throughline`.
pub fn helper() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("finding this program: {e}"))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let helper = exe.with_file_name(HELPER);
    if !helper.is_file() {
        return Err(format!(
            "{} is missing: the summary backends run in it; install it next to {} \
             (scripts/build-cli builds both)",
            helper.display(),
            exe.display()
        ));
    }
    Ok(helper)
}

/// An empty folder of its own, where `claude -p` and `codex exec` run: they find no project
/// there (no CLAUDE.md, no AGENTS.md, no repository) and write nothing into one.
fn workdir(home: &Home) -> PathBuf {
    home.dir().join("summarize")
}

fn lock_path(home: &Home) -> PathBuf {
    home.dir().join("summarize.lock")
}

/// The daily cap counts requests since midnight UTC.
fn start_of_day(now: &str) -> String {
    match now.get(..10) {
        Some(day) => format!("{day}T00:00:00.000Z"),
        None => now.to_string(),
    }
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// No backend is chosen.
    Off,
    /// Another `throughline summarize` holds the lock.
    Busy,
    /// Every due turn has a model line (or was tried).
    Done,
    /// `summary_daily_calls` requests were made today.
    Cap,
    /// A request failed or gave nothing usable; its turns keep their local lines.
    Failed,
}

/// What one run did.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub stop: Stop,
    pub calls: Vec<SummaryCall>,
}

/// Asks the configured backend for the one-liners of every due turn, a batch per request,
/// until none is due, the daily cap is reached or a request fails. One run at a time.
pub fn run(home: &Home) -> Result<Run, String> {
    let config = config::load(home).config;
    let Some(backend) = backend(&config, home)? else {
        return Ok(Run {
            stop: Stop::Off,
            calls: Vec::new(),
        });
    };
    home.ensure()
        .map_err(|e| format!("{}: {e}", home.dir().display()))?;
    let lock =
        File::create(lock_path(home)).map_err(|e| format!("{}: {e}", lock_path(home).display()))?;
    match try_lock(&lock) {
        Ok(true) => {}
        Ok(false) => {
            return Ok(Run {
                stop: Stop::Busy,
                calls: Vec::new(),
            })
        }
        Err(e) => return Err(format!("{}: {e}", lock_path(home).display())),
    }
    let mut store = Store::open(
        home,
        &throughline_core::config::load(home).config.redact_patterns,
    )
    .map_err(|e| e.to_string())?;
    let mut calls = Vec::new();
    let stop = loop {
        let now = clock::now();
        let made = store
            .summary_calls_since(&start_of_day(&now))
            .map_err(|e| e.to_string())?;
        if made >= u64::from(config.summary_daily_calls) {
            break Stop::Cap;
        }
        let due = store
            .due_turns(config.verbatim_turns, config.summary_batch_turns.max(1))
            .map_err(|e| e.to_string())?;
        if due.is_empty() {
            break Stop::Done;
        }
        let prompt = prompt_for(&due);
        let answer = backend.complete(&prompt);
        let mut call = SummaryCall {
            at: now,
            backend: backend.name().into(),
            model: backend.model().into(),
            turns: due.len() as u32,
            lines: 0,
            input_tokens: 0,
            output_tokens: 0,
            error: None,
        };
        let lines: Vec<(i64, Option<String>)> = match &answer {
            Ok(completion) => {
                call.input_tokens = completion.input_tokens;
                call.output_tokens = completion.output_tokens;
                let mut valid = parse_answer(&completion.text, &due);
                due.iter()
                    .map(|turn| (turn.id, valid.remove(&turn.code)))
                    .collect()
            }
            Err(e) => {
                call.error = Some(e.clone());
                due.iter().map(|turn| (turn.id, None)).collect()
            }
        };
        call.lines = lines.iter().filter(|(_, line)| line.is_some()).count() as u32;
        if call.error.is_none() && call.lines == 0 {
            let head: String = answer
                .as_ref()
                .map(|c| c.text.chars().take(120).collect())
                .unwrap_or_default();
            call.error = Some(format!("no usable line in the answer: {head:?}"));
        }
        let writer = store.write().map_err(|e| e.to_string())?;
        writer
            .record_summaries(&call, &lines)
            .map_err(|e| e.to_string())?;
        writer.commit().map_err(|e| e.to_string())?;
        let failed = call.error.is_some();
        calls.push(call);
        if failed {
            break Stop::Failed;
        }
    };
    Ok(Run { stop, calls })
}

/// Called by a hook after it stored an event: at the end of a turn, when the last
/// `summary_batch_turns` turns to leave this session's verbatim window all wait for a model
/// line (at the end of a session, when the last one does) and today's cap is not reached,
/// starts [`HELPER`] detached and returns at once. A few indexed reads; nothing when no
/// backend is chosen.
pub fn start_if_due(
    store: &Store,
    home: &Home,
    config: &Config,
    session: i64,
    kind: EventKind,
) -> Result<bool, String> {
    if config.summary_backend == SummaryBackend::Off
        || !matches!(kind, EventKind::Stop | EventKind::SessionEnd)
    {
        return Ok(false);
    }
    // A session that ended gets no more turns to fill a batch: what is due goes now.
    let batch = match kind {
        EventKind::SessionEnd => 1,
        _ => config.summary_batch_turns,
    };
    let due = store
        .batch_due(session, config.verbatim_turns, batch)
        .map_err(|e| e.to_string())?;
    if !due {
        return Ok(false);
    }
    let made = store
        .summary_calls_since(&start_of_day(&clock::now()))
        .map_err(|e| e.to_string())?;
    if made >= u64::from(config.summary_daily_calls) || running(home) {
        return Ok(false);
    }
    Command::new(helper()?)
        .arg("--background")
        .env(throughline_core::home::HOME_ENV, home.dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Its own process group: the host's Ctrl-C or a closing window does not stop it.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("starting the summarizer: {e}"))?;
    Ok(true)
}

/// Whether a `throughline summarize` holds the lock now.
fn running(home: &Home) -> bool {
    let Ok(lock) = File::options().write(true).open(lock_path(home)) else {
        return false;
    };
    matches!(try_lock(&lock), Ok(false))
}

/// Takes the lock on `file` without waiting: `false` when another process holds it. The lock
/// goes with the file's last descriptor, so a summarizer that dies leaves none behind.
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this File owns for the call's duration.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        _ => Err(e),
    }
}

/// The summary backend as `doctor` and the app show it.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub backend: SummaryBackend,
    pub model: String,
    pub daily_calls: u32,
    /// Why the chosen backend cannot run, or why its last request failed.
    pub problem: Option<String>,
    pub spend: SummarySpend,
    pub running: bool,
}

/// The backend in force, what it has cost and whether its last request failed.
pub fn status(home: &Home, config: &Config) -> Status {
    let (model, mut problem) = match choose(config) {
        Ok(Some(choice)) => (choice.model, None),
        Ok(None) => (String::new(), None),
        Err(e) => (config.summary_model.clone(), Some(e)),
    };
    let spend = Store::open_read_only(home)
        .and_then(|store| store.summary_spend(&start_of_day(&clock::now())))
        .unwrap_or_default();
    if problem.is_none() && config.summary_backend != SummaryBackend::Off {
        problem = helper().err();
    }
    if problem.is_none() && config.summary_backend != SummaryBackend::Off {
        if let Some(SummaryCall {
            at, error: Some(e), ..
        }) = &spend.last_call
        {
            problem = Some(format!(
                "the last request ({at}) failed, so its turns kept their local one-liner: {e}"
            ));
        }
    }
    Status {
        backend: config.summary_backend,
        model,
        daily_calls: config.summary_daily_calls,
        problem,
        spend,
        running: running(home),
    }
}

#[cfg(test)]
mod tests;
