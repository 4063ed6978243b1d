//! One module per host. Each decodes its hook payloads into a [`HookEvent`], parses its
//! transcript lines into [`Record`](throughline_core::record::Record)s, knows where its transcripts live
//! and how it counts what a hook hands it: shared code asks these through [`Agent`], and a new
//! host is one more folder and one more line in the host table ([`HOSTS`]).

mod envelope;
pub mod install;
pub mod process;
pub mod release;
mod tool_input;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use throughline_core::model::{Call, Host, Session, TaskChange, Todo};
pub use throughline_core::record::{
    EventKind, FoundTranscript, HookEvent, HostProcess, SubagentRef,
};
use throughline_core::record::{InjectionLimit, LineParser, Reply};

/// Where a gauge's usable window ends, and what puts the end there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionPoint {
    pub tokens: u64,
    pub rule: CompactRule,
}

/// What decides where a session compacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CompactRule {
    /// The person's auto-compact threshold.
    Threshold,
    /// The client's own rule, with no threshold set.
    Client,
    /// No rule known: the end of the window.
    Window,
}

/// What a host is, as data: the facts the shared code reads about it, one table a host.
pub struct Spec {
    /// The name its sessions are stored under and `--host` takes (`claude`).
    pub host: Host,
    /// Other names `--host` and `hook <host>` take for it (`claude-code`).
    pub aliases: &'static [&'static str],
    /// The host's name as a person knows it (`Claude Code`).
    pub name: &'static str,
    /// The prompt that offers a handoff (`/tl`); the hook blocks it before the model sees it.
    pub handoff_command: &'static str,
    /// How much a hook's `additionalContext` may hold, counted the way the host counts.
    pub injection_limit: InjectionLimit,
    /// Whether a SessionStart hook's context reaches the model after `/clear`; a host where it
    /// does not gets the memory once, with the new session's first prompt.
    pub memory_at_session_start: bool,
    /// How many parts, each within `injection_limit`, a memory may take in a new session's
    /// first request. Claude Code and Codex pass two hook outputs into it, the SessionStart
    /// hook's context and the first prompt's, so a memory given at the start (after `/clear`,
    /// or a handoff waiting when the session starts) can come in two parts (decisions 0076,
    /// 0144, 0145); Gemini CLI and Grok pass one that takes both (`memory_parts_in_one_output`).
    pub memory_parts: usize,
    /// Whether the one hook output that carries the memory takes all of its `memory_parts`
    /// at once: Gemini CLI's BeforeAgent sets no cap on it (decision 0145); Grok's Stop answer
    /// has two fields, each within the cap (its encoder splits the text; decision 0149).
    pub memory_parts_in_one_output: bool,
    /// Whether a prompt hook's context reaches the model. A host where it does not gets the
    /// memory at the new session's start (Cursor), or, when that does not reach the model
    /// either, when the new session's first turn ends: its Stop hook's answer (Grok).
    pub context_with_prompt: bool,
    /// Whether the host records token counts a gauge can read.
    pub reports_usage: bool,
    /// What its tool calls did (its `tools.rs`); None where its tools are not known.
    pub tools: Option<Tools>,
    /// Whether the host starts the session that follows `/clear` as it starts any new one
    /// (Grok's `/new`: `source: new`, the session before left open): then a new session in a
    /// host process that already ran one was cleared into.
    pub clear_starts_as_new: bool,
    /// Whether a compaction its PreCompact hook stops ends the turn where it stands: Codex
    /// sends nothing more, leaves the prompt unanswered and runs no Stop hook, so the stop's
    /// own answer is all the person is told. Elsewhere the turn goes on uncompacted and its
    /// Stop tells them (Claude Code). Decisions 0095, 0190.
    pub compaction_stop_ends_turn: bool,
    /// How Throughline is registered with it (its `install.rs`).
    pub installer: install::Installer,
    pub decode_hook: fn(&[u8]) -> Result<HookEvent, String>,
    /// The host's stdout form of a reply, if the event can carry one.
    pub encode_reply: fn(EventKind, &Reply) -> Option<String>,
    /// A parser of the host's transcript lines, for the transcript at the path given.
    pub line_parser: fn(&Path) -> Box<dyn LineParser>,
    /// The client's releases the end-to-end suites run against, where it can be installed
    /// from a registry (`doctor` compares the person's with them).
    pub tested_releases: Option<release::TestedReleases>,
}

/// What a host's tool calls did, for the working state handed to the next session and for the
/// memory's lines: each host's `tools.rs` fills it.
pub struct Tools {
    /// The tools whose calls change files or write the todo list: the working state reads
    /// only calls of these (and of [`Agent::task_tools`]).
    pub state_tools: &'static [&'static str],
    /// The files a call of `tool` changed, each as `input` (the stored call, maybe cut short)
    /// names it, with whether the call deleted it (or moved it away).
    pub file_changes: fn(tool: &str, input: &str) -> Vec<(String, bool)>,
    /// The whole todo list a call of `tool` wrote, when `tool` writes one and `input` is whole.
    pub todo_list: fn(tool: &str, input: &str) -> Option<Vec<Todo>>,
    /// What a call of `tool` did (ran a command, read or edited a file, searched), read from
    /// `input` (maybe cut short), when the host knows the tool; the shared code falls back on
    /// the values of `input`.
    pub call: fn(tool: &str, input: &str) -> Option<Call>,
}

/// What the shared code asks a host: its [`Spec`], and what takes the host's code to answer.
pub trait Agent: Sync {
    fn spec(&self) -> &'static Spec;
    /// Where the client compacts a context of `window` tokens by itself, given the person's
    /// auto-compact threshold (percent of the window, Claude Code's setting) when they set
    /// one, and the client's release when known. By default the whole window counts and the
    /// threshold is left aside: a host whose own rule is not known is measured against all
    /// of it.
    fn compaction_point(
        &self,
        window: u64,
        _threshold: Option<u8>,
        _client_version: Option<&str>,
    ) -> CompactionPoint {
        CompactionPoint {
            tokens: window,
            rule: CompactRule::Window,
        }
    }
    /// The working directory of the session whose transcript is `path`, when the place the
    /// host keeps it says so and its lines do not (for `import`).
    fn workspace_of(&self, _path: &Path) -> Option<String> {
        None
    }
    /// Whether `payload`, handed to another host's hook command, was sent by this host.
    fn claims(&self, _payload: &[u8]) -> bool {
        false
    }
    /// Where the host keeps its transcripts, for `import`.
    fn transcripts_dir(&self) -> Option<PathBuf>;
    /// Every main transcript under `root` (else [`Agent::transcripts_dir`]), oldest first.
    fn find_transcripts(&self, root: Option<PathBuf>) -> std::io::Result<Vec<FoundTranscript>>;
    /// The host process a hook runs under: a `/clear` never leaves it (decision 0023).
    fn owner_process(&self) -> Option<HostProcess>;
    /// The session of the host process this command runs under (e.g. `/tl` from the host),
    /// when the host names one.
    fn owner_session(&self) -> Option<String> {
        None
    }
    /// The transcript of one subagent of the session whose transcript is `main`, for a host
    /// whose subagents are read.
    fn subagent_transcript(&self, _main: &Path, _subagent: &SubagentRef) -> Option<PathBuf> {
        None
    }
    /// Every subagent transcript of the session whose transcript is `main`.
    fn subagent_transcripts(&self, _main: &Path) -> Vec<PathBuf> {
        Vec::new()
    }
    /// The detail key of the tool call that started the subagent whose transcript is `path`.
    fn spawning_call_key(&self, _path: &Path) -> Option<String> {
        None
    }
    /// When the subagent whose transcript is `path` started, for a host whose subagent
    /// transcripts name no spawning call: the session's turn open then started it.
    fn spawned_at(&self, _path: &Path) -> Option<String> {
        None
    }
    /// [`Tools::state_tools`] of the host's spec.
    fn state_tools(&self) -> &'static [&'static str] {
        self.spec().tools.as_ref().map_or(&[], |t| t.state_tools)
    }
    /// [`Tools::file_changes`] of the host's spec.
    fn file_changes(&self, tool: &str, input: &str) -> Vec<(String, bool)> {
        self.spec()
            .tools
            .as_ref()
            .map_or_else(Vec::new, |t| (t.file_changes)(tool, input))
    }
    /// [`Tools::todo_list`] of the host's spec.
    fn todo_list(&self, tool: &str, input: &str) -> Option<Vec<Todo>> {
        (self.spec().tools.as_ref()?.todo_list)(tool, input)
    }
    /// Whether a tool result only says the person interrupted the call.
    fn is_interruption(&self, _result: &str) -> bool {
        false
    }
    /// The tools whose calls change one task of a task list the agent builds a task at a
    /// time: the working state reads each such call's result too.
    fn task_tools(&self) -> &'static [&'static str] {
        &[]
    }
    /// What a call of `tool` did to the task list, from `input` and the text of its result
    /// (None when it has none), when `tool` is one of [`Agent::task_tools`] and the call took
    /// effect.
    fn task_change(&self, _tool: &str, _input: &str, _result: Option<&str>) -> Option<TaskChange> {
        None
    }
    /// [`Tools::call`] of the host's spec.
    fn call(&self, tool: &str, input: &str) -> Option<Call> {
        (self.spec().tools.as_ref()?.call)(tool, input)
    }
}

/// Declares each host's module (its folder) and its line in [`HOSTS`] at once, so that a host
/// is registered by one line naming its folder and its [`Agent`].
macro_rules! host_table {
    ($($(#[$cfg:meta])* $module:ident :: $agent:ident,)*) => {
        $($(#[$cfg])* pub mod $module;)*

        /// Every host this build knows, one line each, in the order people are offered them.
        /// A host that also runs other hosts' hook files comes after them (see
        /// [`calling_host`]).
        pub static HOSTS: &[&dyn Agent] = &[$($(#[$cfg])* &$module::$agent,)*];
    };
}

host_table! {
    claude::ClaudeCode,
    codex::Codex,
    gemini::GeminiCli,
    cursor::Cursor,
    grok::Grok,
    #[cfg(feature = "sample-host")] sample::SampleAgent,
}

/// Every host this build knows, as [`HOSTS`] orders them.
pub fn all() -> impl DoubleEndedIterator<Item = Host> {
    HOSTS.iter().map(|agent| agent.spec().host)
}

/// The hosts installed on this machine: each whose settings folder exists, Claude Code when
/// none does.
pub fn found_hosts() -> Vec<Host> {
    let found: Vec<Host> = all()
        .filter(|&h| install::config_dir(h).is_some_and(|d| d.is_dir()))
        .collect();
    if found.is_empty() {
        vec![claude::HOST]
    } else {
        found
    }
}

/// The host `name` (or one of its aliases) names, when this build knows it.
pub fn parse(name: &str) -> Option<Host> {
    HOSTS
        .iter()
        .map(|agent| agent.spec())
        .find(|spec| spec.host.as_str() == name || spec.aliases.contains(&name))
        .map(|spec| spec.host)
}

/// The host's name as people know it (`Claude Code`).
pub fn label(host: Host) -> &'static str {
    agent(host).spec().name
}

/// The host's code. Every [`Host`] the workspace makes comes from [`parse`] or a host's own
/// `HOST`, so each is in the table.
pub fn agent(host: Host) -> &'static dyn Agent {
    HOSTS
        .iter()
        .copied()
        .find(|agent| agent.spec().host == host)
        .unwrap_or_else(|| panic!("host {:?} is not in the host table", host.as_str()))
}

/// Transcripts found while walking a host's folder, listed oldest first.
#[derive(Default)]
pub(crate) struct Found(Vec<(Option<SystemTime>, FoundTranscript)>);

impl Found {
    /// The transcript at `path` of the session `session_id`, when both are there.
    pub(crate) fn add(&mut self, session_id: Option<String>, path: PathBuf) {
        let (Some(session_id), Ok(meta)) = (session_id, std::fs::metadata(&path)) else {
            return;
        };
        let transcript = FoundTranscript {
            session_id,
            bytes: meta.len(),
            path,
        };
        self.0.push((meta.modified().ok(), transcript));
    }

    /// Oldest first; transcripts of the same time by path.
    pub(crate) fn oldest_first(mut self) -> Vec<FoundTranscript> {
        self.0
            .sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.path.cmp(&b.1.path)));
        self.0.into_iter().map(|(_, t)| t).collect()
    }
}

/// Where to look for `agent`'s transcripts: `root`, else its own folder, when that is a folder.
pub(crate) fn transcripts_root(agent: &dyn Agent, root: Option<PathBuf>) -> Option<PathBuf> {
    root.or_else(|| agent.transcripts_dir())
        .filter(|root| root.is_dir())
}

/// The window `session` works in, given the model of its latest request: the window its host
/// reported, else what the model's id says. The model the session started with decides the
/// 1M variant (transcripts drop the `[1m]` suffix) as long as the session still runs it. Only
/// Claude's ids name a window; the other hosts report theirs, or count as Claude's standard.
pub fn session_window(session: &Session, latest_model: Option<&str>, used: u64) -> u64 {
    if let Some(window) = session.context_window {
        return window;
    }
    let started = session.start_model.as_deref();
    let same_model = match (started, latest_model) {
        (Some(start), Some(latest)) => {
            let start = start.to_ascii_lowercase();
            let base = start.strip_suffix("[1m]").unwrap_or(&start);
            base == latest.to_ascii_lowercase()
        }
        _ => true,
    };
    let model = if same_model {
        started.or(latest_model)
    } else {
        latest_model
    };
    claude::window::context_window(model, session.client_version.as_deref(), used)
}

/// The host that really sent `payload`, whichever host's hook file ran us (`named`): some
/// hosts also run the hooks other hosts' settings hold (Cursor runs Claude Code's; Grok runs
/// Claude Code's and Cursor's, with its own payload). The hosts that run others' files are
/// asked first, newest first, so Grok is never taken for Cursor.
pub fn calling_host(named: Host, payload: &[u8]) -> Host {
    all()
        .rev()
        .find(|&host| host != named && agent(host).claims(payload))
        .unwrap_or(named)
}

/// `bytes` without a leading UTF-8 byte order mark. Some tools write one before JSON (a
/// payload piped through them, a transcript saved by an editor) and serde rejects it.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

/// A hook payload's JSON, as `host` (its name for people) sends it: a byte order mark before
/// it is ignored, and what cannot be read says what it starts with.
pub fn payload_json<'a, T: serde::Deserialize<'a>>(
    bytes: &'a [u8],
    host: &str,
) -> Result<T, String> {
    let bytes = without_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("empty hook payload on stdin".into());
    }
    serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "hook payload is not the JSON {host} sends ({e}); starts with {:?}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
        )
    })
}

pub fn decode_hook(host: Host, payload: &[u8]) -> Result<HookEvent, String> {
    let event = (agent(host).spec().decode_hook)(payload)?;
    throughline_core::payload::check_fields(&event).map_err(|e| e.to_string())?;
    Ok(event)
}

pub fn encode_reply(host: Host, event: EventKind, reply: &Reply) -> Option<String> {
    (agent(host).spec().encode_reply)(event, reply)
}

/// Whether `path` is where `host` keeps its transcripts (under its folder, also through a
/// symlinked home), so that a hook may read it. Unknown when the folder is (no home): yes.
pub fn keeps_transcript(host: Host, path: &Path) -> bool {
    let Some(folder) = agent(host).transcripts_dir() else {
        return true;
    };
    if path.starts_with(&folder)
        && !path
            .components()
            .any(|c| c == std::path::Component::ParentDir)
    {
        return true;
    }
    match (std::fs::canonicalize(path), std::fs::canonicalize(&folder)) {
        (Ok(path), Ok(folder)) => path.starts_with(folder),
        _ => false,
    }
}

/// Whether a hook of `host` can stop the client's own compaction: its PreCompact answer can
/// be a block.
pub fn can_stop_compaction(host: Host) -> bool {
    encode_reply(host, EventKind::PreCompact, &Reply::Block(String::new())).is_some()
}

pub fn owner_process(host: Host) -> Option<HostProcess> {
    agent(host).owner_process()
}

pub fn owner_session(host: Host) -> Option<String> {
    agent(host).owner_session()
}

pub fn line_parser(host: Host, transcript: &Path) -> Box<dyn LineParser> {
    (agent(host).spec().line_parser)(transcript)
}

pub fn subagent_transcript(host: Host, main: &Path, subagent: &SubagentRef) -> Option<PathBuf> {
    agent(host).subagent_transcript(main, subagent)
}

pub fn subagent_transcripts(host: Host, main: &Path) -> Vec<PathBuf> {
    agent(host).subagent_transcripts(main)
}

pub fn spawning_call_key(host: Host, path: &Path) -> Option<String> {
    agent(host).spawning_call_key(path)
}

pub fn spawned_at(host: Host, path: &Path) -> Option<String> {
    agent(host).spawned_at(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_is_its_senders_whichever_hook_file_ran() {
        let cursor = br#"{"conversation_id":"c","hook_event_name":"UserPromptSubmit","cursor_version":"2.1.46"}"#;
        let claude =
            br#"{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"cursor_version"}"#;
        assert_eq!(
            calling_host(crate::claude::HOST, cursor),
            crate::cursor::HOST
        );
        assert_eq!(
            calling_host(crate::cursor::HOST, cursor),
            crate::cursor::HOST
        );
        assert_eq!(
            calling_host(crate::claude::HOST, claude),
            crate::claude::HOST
        );
        assert_eq!(
            calling_host(crate::gemini::HOST, b"not json"),
            crate::gemini::HOST
        );
    }
}
