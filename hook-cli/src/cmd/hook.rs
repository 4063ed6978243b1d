//! `throughline hook <host>`: called by the agent on every event with the payload on stdin.
//! Whatever happens it exits 0 and prints nothing to stdout; failures go to the log.

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Duration;

use throughline::capture;
use throughline::config::{self, Capture};
use throughline::forget;
use throughline::handoff;
use throughline::home::Home;
use throughline::hosts;
use throughline::ingest::IngestError;
use throughline::install;
use throughline::model::Host;
use throughline::payload;
use throughline::store::{Store, StoreError};
use throughline::summarize;

/// How long a hook waits for the memory's write lock. Writers hold it for milliseconds (bulk
/// work lets a waiting hook go first), so past this another program holds it for long: the
/// host is not kept waiting for it, and the next hook reads what this one left.
const LOCK_WAIT: Duration = Duration::from_millis(500);

#[derive(clap::Args)]
pub struct Args {
    #[arg(help = format!("Which agent's hook file runs this: {}", super::known_hosts()))]
    host: String,
}

pub fn run(args: Args) -> ExitCode {
    if std::env::var_os(throughline::GUARD_ENV).is_some() {
        return ExitCode::SUCCESS;
    }
    let home = match Home::locate() {
        Ok(home) => home,
        Err(e) => {
            eprintln!("throughline: hook: {e}");
            return ExitCode::SUCCESS;
        }
    };
    // A bug must never break the host: a panic becomes one log line.
    panic::set_hook(Box::new(|_| {}));
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| handle(&home, &args.host)));
    let context = format!("hook {}", args.host);
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(message)) => throughline::log::line(&home, &context, &message),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            throughline::log::line(&home, &context, &format!("internal error: {what}"));
        }
    }
    ExitCode::SUCCESS
}

fn handle(home: &Home, host_name: &str) -> Result<(), String> {
    let named = hosts::parse(host_name).ok_or_else(|| {
        let known: Vec<&str> = hosts::all().map(Host::as_str).collect();
        format!("unknown host {host_name:?}; known: {}", known.join(", "))
    })?;
    let payload = payload::read(std::io::stdin()).map_err(|e| e.to_string())?;
    // Some hosts run other hosts' hook files too (Cursor runs Claude Code's; Grok runs Claude
    // Code's and Cursor's): one event starts this command once per file. The host's own file
    // answers it, so each turn is stored once and the memory given once.
    let host = hosts::calling_host(named, &payload);
    if host != named && install::registered(host) {
        return Ok(());
    }
    let event = hosts::decode_hook(host, &payload)?;
    let config = config::load(home).config;
    let paused = match config.capture_in(event.cwd.as_deref()) {
        Capture::Off => return Ok(()),
        Capture::Paused => true,
        Capture::On => false,
    };
    let mut store = Store::open(home, &config.redact_patterns).map_err(|e| e.to_string())?;
    store.wait_at_most(LOCK_WAIT).map_err(|e| e.to_string())?;
    let event = with_own_transcript(home, &store, host, event);
    let (session, report) =
        capture::capture_event(&mut store, host, &event, paused).map_err(|e| match e {
            IngestError::Store(e) => format!("session {}: {}", event.session_id, store_failure(&e)),
            e => format!("session {}: {e}", event.session_id),
        })?;
    for problem in &report.problems {
        throughline::log::line(home, &format!("hook {}", host.as_str()), problem);
    }
    if let (true, Some(path)) = (report.missing, &event.transcript_path) {
        throughline::log::line(
            home,
            &format!("hook {}", host.as_str()),
            &format!(
                "session {}: transcript {path} was read before and is gone; what was stored is kept",
                event.session_id
            ),
        );
    }
    let reply = handoff::respond(&mut store, home, &config, &event, || {
        hosts::owner_process(host)
    })
    .map_err(|e| {
        format!(
            "session {}: handoff: {}",
            event.session_id,
            store_failure(&e)
        )
    })?;
    // At most a few indexed reads and a detached start: the summarizer never holds up the host.
    if let Err(e) = summarize::start_if_due(&store, home, &config, session.id, event.kind) {
        throughline::log::line(home, &format!("hook {}", host.as_str()), &e);
    }
    if let Some(out) = reply.and_then(|r| hosts::encode_reply(host, event.kind, &r)) {
        // The only thing a hook ever prints: what the host should act on.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{out}");
    }
    // A secret first found in this store is looked for in all of it by a process of its own.
    match forget::scrub_due(home, &store) {
        Ok(true) => forget::start_scrub(home).map_err(|e| format!("starting the scrub: {e}"))?,
        Ok(false) => {}
        Err(e) => throughline::log::line(home, &format!("hook {}", host.as_str()), &e.to_string()),
    }
    drop(store);
    // Retention runs in a process of its own, a few times a day; the hook only looks whether
    // it is due (one stat, when retention is set).
    if forget::retention_due(home, &config) {
        forget::start_retention(home).map_err(|e| format!("starting retention: {e}"))?;
    }
    Ok(())
}

/// `event` with its transcript path only when the host keeps its transcripts there, or the
/// session was stored with that path: a payload cannot make a hook read, and remember, any
/// file the person can read. A path left out is logged; the event is captured without it.
fn with_own_transcript(
    home: &Home,
    store: &Store,
    host: Host,
    mut event: throughline::record::HookEvent,
) -> throughline::record::HookEvent {
    let Some(path) = event.transcript_path.as_deref() else {
        return event;
    };
    if hosts::keeps_transcript(host, std::path::Path::new(path)) {
        return event;
    }
    let stored = store.session(&event.session_id).ok();
    if stored.and_then(|s| s.transcript_path).as_deref() == Some(path) {
        return event;
    }
    throughline::log::line(
        home,
        &format!("hook {}", host.as_str()),
        &format!(
            "session {}: transcript {path} is outside {}'s folder; not read",
            event.session_id,
            hosts::agent(host).spec().name
        ),
    );
    event.transcript_path = None;
    event
}

/// What the log says when a write failed; a lock held past [`LOCK_WAIT`] loses nothing.
fn store_failure(e: &StoreError) -> String {
    if e.is_busy() {
        return format!(
            "another program held the memory's write lock for more than \
             {} ms; this event is left to the next hook, which reads the transcript from where \
             the memory stands",
            LOCK_WAIT.as_millis()
        );
    }
    e.to_string()
}
