//! One file per verb. Each parses its own flags and calls the library.

/// `print!` for every verb: stored text shown as [`for_terminal`] shows it, and the write's
/// failure returned instead of a panic, so a reader that went away (`throughline show | head`)
/// ends the verb as an `io::Error` that `main` recognises.
macro_rules! out {
    ($($arg:tt)*) => {
        crate::cmd::write_shown(format_args!($($arg)*))
    };
}

/// `println!` for every verb (see `out!`).
macro_rules! outln {
    () => {
        crate::cmd::write_shown(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        crate::cmd::write_shown(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `out!` for text a [`throughline::render::Paint`] made safe already: its colours are
/// escape sequences meant for the terminal.
macro_rules! out_painted {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod config;
mod demo;
mod detail;
mod doctor;
mod forget;
mod handoff;
mod hook;
mod import;
mod injections;
mod install;
#[cfg(feature = "mcp")]
mod mcp;
mod monitor;
mod pager;
mod recall;
mod search;
mod sessions;
mod show;
mod stats;
mod status;
mod statusline;
mod summarize;
mod uninstall;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde::Serialize;
use throughline::home::Home;
use throughline::model::Session;
use throughline::store::Store;

#[derive(Parser)]
#[command(
    name = "throughline",
    version,
    about = "Layered, lossless memory for AI coding agents"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print long output directly instead of through a pager (`less -FRX`, or $PAGER)
    #[arg(long, global = true)]
    no_pager: bool,
}

impl Cli {
    /// Runs the verb, its output through a pager when it is long and meant for a terminal;
    /// the pager is quit before any error is printed.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let terminal = stdout_is_terminal();
        // Read before a pager takes stdout over.
        terminal_width();
        let pager = (terminal && !self.no_pager && self.command.pages())
            .then(pager::start)
            .flatten();
        let result = self.command.run();
        if let Some(pager) = pager {
            pager.finish();
        }
        result
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// Run by the agent on every hook event (reads the payload on stdin); never fails the host
    Hook(hook::Args),
    /// What is stored, where, and how big
    Status(status::Args),
    /// Recent sessions, per project
    Sessions(sessions::Args),
    /// A session's turns: the conversation verbatim and one line of detail per turn
    Show(show::Args),
    /// One turn in full: the conversation and every tool call, output and thought
    Detail(detail::Args),
    /// Backfill every existing transcript
    Import(import::Args),
    /// Hand this session's memory to the next new chat in its project (what /tl does)
    Handoff(handoff::Args),
    /// Every memory handed to a session: when, from where, how big, what went in
    Injections(injections::Args),
    /// The settings in force and where each comes from
    Config(config::Args),
    /// Register Throughline with an agent: hooks, the /tl command, the MCP server, a statusline
    Install(install::Args),
    /// Remove exactly what `install` added (`--purge` also deletes the memory)
    Uninstall(uninstall::Args),
    /// Remove a turn, a session, a project or everything before a date from the memory (asks first)
    Forget(forget::Args),
    /// Check the setup: hooks, database, captures, hook failures; says how to fix each problem
    Doctor(doctor::Args),
    /// One line for Claude Code's statusLine (reads its JSON on stdin): context used, turns kept
    Statusline(statusline::Args),
    /// The live sessions' context gauges and the plan usage, redrawn as sessions grow
    Monitor(monitor::Args),
    /// How each session's context was spent, and what a /clear with handoff would keep
    Stats(stats::Args),
    /// Replay a recorded session into a temporary memory and show what Throughline keeps
    Demo(demo::Args),
    /// Find words in every prompt, answer, tool call, tool output and thought
    Search(search::Args),
    /// Earlier turns of a session, verbatim or one line each
    Recall(recall::Args),
    /// Ask the summary backend (summary_backend in `config`) for the one-liners of older turns
    Summarize(summarize::Args),
    /// Serve search, recall, detail and sessions to an agent over MCP (stdio)
    #[cfg(feature = "mcp")]
    Mcp(mcp::Args),
}

impl Command {
    /// Verbs whose output can run past a screen. Not those that ask, draw live, show
    /// progress, or talk to a host.
    fn pages(&self) -> bool {
        match self {
            Command::Status(_)
            | Command::Sessions(_)
            | Command::Show(_)
            | Command::Detail(_)
            | Command::Injections(_)
            | Command::Config(_)
            | Command::Doctor(_)
            | Command::Stats(_)
            | Command::Demo(_)
            | Command::Search(_)
            | Command::Recall(_) => true,
            Command::Handoff(args) => args.preview,
            _ => false,
        }
    }

    fn run(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Hook(a) => Ok(hook::run(a)),
            Command::Status(a) => status::run(a).map(|_| ExitCode::SUCCESS),
            Command::Sessions(a) => sessions::run(a).map(|_| ExitCode::SUCCESS),
            Command::Show(a) => show::run(a).map(|_| ExitCode::SUCCESS),
            Command::Detail(a) => detail::run(a).map(|_| ExitCode::SUCCESS),
            Command::Import(a) => import::run(a).map(|_| ExitCode::SUCCESS),
            Command::Handoff(a) => handoff::run(a).map(|_| ExitCode::SUCCESS),
            Command::Injections(a) => injections::run(a).map(|_| ExitCode::SUCCESS),
            Command::Config(a) => config::run(a).map(|_| ExitCode::SUCCESS),
            Command::Install(a) => install::run(a).map(|_| ExitCode::SUCCESS),
            Command::Uninstall(a) => uninstall::run(a).map(|_| ExitCode::SUCCESS),
            Command::Forget(a) => forget::run(a).map(|_| ExitCode::SUCCESS),
            Command::Doctor(a) => doctor::run(a),
            Command::Statusline(a) => statusline::run(a).map(|_| ExitCode::SUCCESS),
            Command::Monitor(a) => monitor::run(a).map(|_| ExitCode::SUCCESS),
            Command::Stats(a) => stats::run(a).map(|_| ExitCode::SUCCESS),
            Command::Demo(a) => demo::run(a).map(|_| ExitCode::SUCCESS),
            Command::Search(a) => search::run(a),
            Command::Recall(a) => recall::run(a).map(|_| ExitCode::SUCCESS),
            Command::Summarize(a) => summarize::run(a).map(|_| ExitCode::SUCCESS),
            #[cfg(feature = "mcp")]
            Command::Mcp(a) => mcp::run(a).map(|_| ExitCode::SUCCESS),
        }
    }
}

/// `--color`, the same on every verb that colours what it prints.
#[derive(clap::Args)]
struct Color {
    /// Colour the output: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long = "color", value_enum, default_value_t, value_name = "WHEN")]
    when: ColorWhen,
}

/// When the output is coloured, as ripgrep's `--color`: `auto` colours only a terminal (and
/// not with `NO_COLOR` set or `TERM=dumb`), so a pipe, a file or a program reading the output
/// gets the stored text exactly.
#[derive(clap::ValueEnum, Clone, Copy, Default, Debug)]
enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

impl Color {
    fn paint(&self) -> throughline::render::Paint {
        use throughline::render::Paint;
        let auto = || {
            stdout_is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        };
        match self.when {
            ColorWhen::Always => Paint::Color,
            ColorWhen::Auto if auto() => Paint::Color,
            _ if stdout_is_terminal() => Paint::Terminal,
            _ => Paint::Plain,
        }
    }
}

/// Stored text as the person sees it: control characters escaped on a terminal, exactly as
/// stored anywhere else (a pipe, a file, `--json`).
fn for_terminal(text: &str) -> std::borrow::Cow<'_, str> {
    if stdout_is_terminal() {
        throughline::render::visible(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Whether the person reads stdout on a terminal, as it was before a pager took it over: the
/// pager passes colours through and shows the text as it would be shown.
fn stdout_is_terminal() -> bool {
    use std::io::IsTerminal;
    static TERMINAL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TERMINAL.get_or_init(|| std::io::stdout().is_terminal())
}

/// Columns of the terminal the person reads stdout on, as it was before a pager took it over;
/// None for a pipe or a file, or a terminal that does not say.
fn terminal_width() -> Option<usize> {
    static WIDTH: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| {
        if !stdout_is_terminal() {
            return None;
        }
        // SAFETY: TIOCGWINSZ fills a winsize and touches nothing else.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let asked = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
        (asked == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
    })
}

/// A listing's line cut to the terminal's width with an ellipsis (wide characters count
/// twice), so a long title does not wrap; whole anywhere else. The line's colours take no
/// room: its stored text was escaped (see [`throughline::render::Paint`]), so every escape
/// sequence left in it is a colour.
fn fitted(line: &str) -> std::borrow::Cow<'_, str> {
    use unicode_width::UnicodeWidthChar;
    let Some(width) = terminal_width() else {
        return line.into();
    };
    // The line's pieces with their widths: a colour (`ESC [ … m`) or one character.
    let pieces = || {
        let mut rest = line;
        std::iter::from_fn(move || {
            let c = rest.chars().next()?;
            let (len, width) = match c {
                '\u{1b}' => (rest.find('m').map_or(rest.len(), |m| m + 1), 0),
                c => (c.len_utf8(), c.width().unwrap_or(0)),
            };
            let (piece, after) = rest.split_at(len);
            rest = after;
            Some((piece, width))
        })
    };
    if pieces().map(|(_, w)| w).sum::<usize>() <= width {
        return line.into();
    }
    let mut kept = String::new();
    let mut used = 0;
    for (piece, w) in pieces() {
        if used + w + 1 > width {
            break;
        }
        kept.push_str(piece);
        used += w;
    }
    kept.push('…');
    if kept.contains('\u{1b}') {
        kept.push_str("\u{1b}[0m");
    }
    kept.into()
}

/// What `out!` and `outln!` write.
fn write_shown(text: std::fmt::Arguments) -> std::io::Result<()> {
    let text = text.to_string();
    std::io::stdout()
        .lock()
        .write_all(for_terminal(&text).as_bytes())
}

/// The store for reading verbs; says how to get one when there is none yet.
/// The names of the hosts this build knows, as `--host` takes them.
fn host_names() -> Vec<&'static str> {
    throughline::hosts::all()
        .map(throughline::model::Host::as_str)
        .collect()
}

/// The hosts this build knows, for a help text: `claude, codex, gemini, cursor or grok`.
fn known_hosts() -> String {
    let names = host_names();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    }
}

fn open_for_reading() -> anyhow::Result<Store> {
    Ok(Store::open_read_only(&Home::locate()?)?)
}

fn print_json<T: Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    // As an `io::Error`, so that a closed pipe is recognised as one.
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// The session named by `id` (or a unique prefix), else the latest of this project.
fn session_or_latest(store: &Store, id: Option<&str>) -> anyhow::Result<Session> {
    Ok(store.session_or_latest(id, current_project().as_deref())?)
}

/// The project the current directory belongs to, as sessions record it.
fn current_project() -> Option<String> {
    throughline::project::current()
}
