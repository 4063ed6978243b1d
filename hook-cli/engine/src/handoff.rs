//! Handing a session's memory to the next one: after `/clear` (linked exactly by the host's
//! prompt id or by the host process the window runs in), after an explicit handoff (`/tl`, `throughline handoff`, the app's button),
//! and after compaction. Decides, per hook event, what — if anything — the host receives.

use std::time::Duration;

use crate::capture;
use crate::clock;
use crate::config::Config;
use crate::home::Home;
use crate::hosts;
use crate::memory;
use crate::model::Session;
use crate::record::{EventKind, HookEvent, HostProcess};
use crate::store::{Handoff, Injection, Result, Store, StoreError, Trigger, Writer};

pub use crate::record::Reply;

/// How long a host process's record of its session is kept without a new SessionStart.
const STALE_CLEARS: Duration = Duration::from_secs(90 * 24 * 3600);

/// Works out the reply to a hook event whose capture is done. `owner` names the host
/// process the hook runs under, which a `/clear` never leaves (decision 0023).
pub fn respond(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
    owner: impl Fn() -> Option<HostProcess>,
) -> Result<Option<Reply>> {
    match event.kind {
        EventKind::SessionEnd if event.reason.as_deref() == Some("clear") => {
            let keys = clear_keys(event.prompt_id.as_deref(), owner());
            if !keys.is_empty() {
                let w = store.write()?;
                let session = w.session_of(&event.session_id)?;
                for key in &keys {
                    w.record_clear(key, session, &clock::now())?;
                }
                w.commit()?;
            }
            Ok(None)
        }
        EventKind::SessionStart => {
            let owner = owner();
            let linked = follow_host_process(store, event, owner)?;
            match event.source.as_deref() {
                _ if linked => {
                    if hosts::agent(event.host).spec().memory_at_session_start {
                        on_clear(store, home, config, event)
                    } else {
                        // It goes in with the first prompt (`on_prompt`).
                        Ok(None)
                    }
                }
                Some("clear") => {
                    crate::log::line(
                        home,
                        "handoff",
                        &format!(
                            "session {} was started by /clear, but the session it cleared is \
                             not known (no prompt id, no {} process found): nothing handed on",
                            event.session_id,
                            hosts::agent(event.host).spec().name
                        ),
                    );
                    Ok(None)
                }
                Some("compact") => on_compact(store, home, config, event),
                Some("startup")
                    if hosts::agent(event.host).spec().memory_at_session_start
                        && hosts::agent(event.host).spec().memory_parts > 1 =>
                {
                    handoff_at_start(store, home, config, event)
                }
                // A host whose prompt hooks cannot add context hands on at the start; it
                // sends no `source` (Cursor starts only new chats).
                None if !hosts::agent(event.host).spec().context_with_prompt
                    && hosts::agent(event.host).spec().memory_at_session_start =>
                {
                    handoff_memory(store, home, config, event)
                }
                // Resumed sessions get their history from the host; new ones wait for a prompt.
                _ => Ok(None),
            }
        }
        EventKind::UserPrompt => on_prompt(store, home, config, event),
        EventKind::PreCompact => instead_of_compaction(store, config, event),
        EventKind::Stop
            if !hosts::agent(event.host).spec().context_with_prompt
                && !hosts::agent(event.host).spec().memory_at_session_start =>
        {
            on_first_turn_end(store, home, config, event)
        }
        // The session's own turn end, not a subagent's.
        EventKind::Stop if config.fresh_instead_of_compact && event.subagent.is_none() => {
            compaction_stopped(store, event)
        }
        _ => Ok(None),
    }
}

/// The names a `/clear` is recorded under: the prompt id the host sends with it, and the host
/// process. Clients differ in which one the SessionStart that follows still carries.
fn clear_keys(prompt_id: Option<&str>, owner: Option<HostProcess>) -> Vec<String> {
    let prompt = prompt_id
        .filter(|id| !id.is_empty())
        .map(|id| format!("prompt:{id}"));
    prompt.into_iter().chain(owner.map(|p| p.key())).collect()
}

/// At a SessionStart: link a session started by `/clear` to the one it cleared (on a host
/// whose `/clear` starts a session as a launch does, a new session in a process that ran
/// another), then record that the host process is in this session now, so that the next `/clear` in the same
/// window finds it even if the host cancels the SessionEnd hook. True when linked.
fn follow_host_process(
    store: &mut Store,
    event: &HookEvent,
    owner: Option<HostProcess>,
) -> Result<bool> {
    let keys = clear_keys(event.prompt_id.as_deref(), owner);
    if keys.is_empty() {
        return Ok(false);
    }
    let now = clock::now();
    let w = store.write()?;
    let session = w.session_of(&event.session_id)?;
    let mut linked = false;
    let cleared = match event.source.as_deref() {
        Some("clear") => true,
        Some("startup") => hosts::agent(event.host).spec().clear_starts_as_new,
        _ => false,
    };
    if cleared {
        for key in &keys {
            if let Some(predecessor) = w.take_clear(key)? {
                w.link(session, predecessor, Trigger::Clear, &now)?;
                w.forget_clears(predecessor)?;
                linked = true;
                break;
            }
        }
    }
    if let Some(process) = owner {
        w.record_clear(&process.key(), session, &now)?;
        // One row per run of the host; a window untouched this long is not coming back.
        if let Some(stale) = clock::before(&now, STALE_CLEARS) {
            w.forget_clears_before(&stale)?;
        }
    }
    w.commit()?;
    Ok(linked)
}

fn on_clear(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    if !config.inject_on_clear {
        return Ok(None);
    }
    inject(store, home, &event.session_id, Trigger::Clear, config)
}

fn on_compact(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    if !config.inject_on_compact {
        return Ok(None);
    }
    inject(store, home, &event.session_id, Trigger::Compact, config)
}

/// At the client's own compaction point, with `fresh_instead_of_compact` on: the compaction
/// is stopped, to be told at the turn's end ([`compaction_stopped`]): `/clear` goes on from
/// the memory, which keeps every turn where a summary keeps a page (decision 0095). Where the
/// stop ends the turn (Codex), no turn's end follows: the stop itself tells (decision 0190).
/// `/compact` is the person's own wish and goes ahead; so does a compaction the host does not
/// let a hook stop.
fn instead_of_compaction(
    store: &mut Store,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    if !config.fresh_instead_of_compact
        || event.trigger.as_deref() != Some("auto")
        || !hosts::can_stop_compaction(event.host)
    {
        return Ok(None);
    }
    let spec = hosts::agent(event.host).spec();
    if spec.compaction_stop_ends_turn {
        return Ok(Some(Reply::Block(stopped_compaction_notice(spec))));
    }
    let w = store.write()?;
    let session = w.session_of(&event.session_id)?;
    w.note_compaction_stopped(session, &clock::now())?;
    w.commit()?;
    Ok(Some(Reply::Block(
        "Throughline: fresh_instead_of_compact is on; /clear goes on from the memory".into(),
    )))
}

/// The end of a turn in which the client's compaction was stopped: the person is told what
/// to do, once a stop.
fn compaction_stopped(store: &mut Store, event: &HookEvent) -> Result<Option<Reply>> {
    if !store.compaction_stopped(&event.session_id)? {
        return Ok(None);
    }
    let w = store.write()?;
    let session = w.session_of(&event.session_id)?;
    let told = w.take_compaction_stopped(session)?;
    w.commit()?;
    let spec = hosts::agent(event.host).spec();
    Ok(told.then(|| Reply::Notice(stopped_compaction_notice(spec))))
}

/// What the person is told when their client's compaction was stopped: what `/clear` gives
/// them, and what the client does next.
fn stopped_compaction_notice(spec: &hosts::Spec) -> String {
    let name = spec.name;
    if spec.compaction_stop_ends_turn {
        format!(
            "Throughline stopped {name}'s automatic compaction (fresh_instead_of_compact is \
             on): nothing was summarised away, and this turn stops here. Type /clear to go on \
             in a fresh session that starts from this session's memory, this turn's request \
             included: the latest turns verbatim, older ones a line each, every word \
             searchable. /compact summarises instead."
        )
    } else {
        format!(
            "Throughline stopped {name}'s automatic compaction (fresh_instead_of_compact is \
             on): nothing was summarised away. Type /clear to go on in a fresh session that \
             starts from this session's memory: the latest turns verbatim, older ones a line \
             each, every word searchable. Near the end of the window {name} compacts anyway."
        )
    }
}

fn on_prompt(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    let prompt = event.prompt.as_deref().unwrap_or_default().trim();
    let agent = hosts::agent(event.host);
    // The host's handoff command (`/tl`); `/tl cancel` withdraws the handoff.
    let name = agent.spec().handoff_command;
    if let Some(args) = prompt.strip_prefix(name) {
        if args.is_empty() || args.starts_with(char::is_whitespace) {
            return command(store, config, &event.session_id, name, args.trim()).map(Some);
        }
    }
    if !agent.spec().context_with_prompt {
        // Nothing said here reaches the model: the session's start (Cursor) or its first
        // turn's end (Grok) carries the memory.
        return Ok(None);
    }
    if store.has_waiting_part(&event.session_id)? {
        return second_part(store, home, &event.session_id);
    }
    if !agent.spec().memory_at_session_start && store.awaits_clear_memory(&event.session_id)? {
        return on_clear(store, home, config, event);
    }
    handoff_memory(store, home, config, event)
}

/// Gives a fresh session the memory its project's waiting handoff offers.
fn handoff_memory(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    // Checked before the write lock: most prompts are not a session's first.
    if !store.is_fresh(&event.session_id)? {
        return Ok(None);
    }
    if take_handoff(store, config, event, false)? {
        return inject(store, home, &event.session_id, Trigger::Handoff, config);
    }
    Ok(None)
}

/// The start of a new session while a handoff waits in its project, on a host that passes the
/// start's context and the first prompt's into the first request: the memory's first part
/// now, the second with the first prompt, which takes the handoff ([`second_part`]). A start
/// that never prompts (a "ghost") takes nothing and logs nothing (decision 0144).
fn handoff_at_start(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    // Checked before anything is read: most starts find no handoff waiting.
    if !config.inject_on_handoff || !store.handoff_waits_for(&event.session_id, &clock::now())? {
        return Ok(None);
    }
    let session = store.session(&event.session_id)?;
    let Some(project) = session.project.as_deref() else {
        return Ok(None);
    };
    let Some(offer) = pending(store, project)? else {
        return Ok(None);
    };
    if !store.is_fresh(&session.session_id)? {
        return Ok(None);
    }
    let predecessor = store.session(&offer.session_id)?;
    let mut chain = store
        .predecessors(&predecessor)?
        .into_iter()
        .map(|(s, _)| s)
        .collect::<Vec<_>>();
    chain.insert(0, predecessor);
    give(store, home, &session, chain, Moment::HandoffAtStart, config)
}

/// Links the session to the handoff waiting in its project when this is a new session's
/// first prompt (checked again under the write lock: two first prompts may race for one
/// handoff), `in_first_turn` when that prompt is stored already. The first real prompt takes
/// the handoff, so a session that never gets one (a "ghost" start) cannot; where only a start
/// can carry it (Cursor), the start takes it.
fn take_handoff(
    store: &mut Store,
    config: &Config,
    event: &HookEvent,
    in_first_turn: bool,
) -> Result<bool> {
    if !config.inject_on_handoff {
        return Ok(false);
    }
    let w = store.write()?;
    let session = w.session_of(&event.session_id)?;
    let first = match in_first_turn {
        true => w.is_in_first_turn(&event.session_id)?,
        false => w.is_fresh(&event.session_id)?,
    };
    if !first {
        return Ok(false);
    }
    let project = store_project(&w, session)?;
    let now = clock::now();
    let Some(predecessor) = w.take_handoff(&project, session, &now)? else {
        return Ok(false);
    };
    w.link(session, predecessor, Trigger::Handoff, &now)?;
    w.commit()?;
    Ok(true)
}

/// The end of a turn, on a host whose prompt hooks cannot reach the model (Grok): a session
/// linked to a predecessor that was given nothing yet gets the memory now, once, and a new
/// session's first turn takes the handoff waiting in its project (the host writes the prompt
/// before its hook runs, so the prompt cannot tell a first turn). The host feeds the memory to
/// the model, which goes on in the same turn (decision 0066).
fn on_first_turn_end(
    store: &mut Store,
    home: &Home,
    config: &Config,
    event: &HookEvent,
) -> Result<Option<Reply>> {
    let wanted = match store.awaits_memory(&event.session_id)? {
        Some(Trigger::Clear) => config.inject_on_clear.then_some(Trigger::Clear),
        Some(Trigger::Handoff) => config.inject_on_handoff.then_some(Trigger::Handoff),
        Some(Trigger::Compact) => None,
        None => (store.is_in_first_turn(&event.session_id)?
            && take_handoff(store, config, event, true)?)
        .then_some(Trigger::Handoff),
    };
    match wanted {
        Some(trigger) => inject(store, home, &event.session_id, trigger, config),
        None => Ok(None),
    }
}

fn store_project(w: &Writer, session: i64) -> Result<String> {
    Ok(w.project_of(session)?.unwrap_or_default())
}

/// `/tl` typed in a session: offer (or with `cancel`, withdraw) its handoff. The prompt is
/// blocked, so it costs the conversation nothing.
fn command(
    store: &mut Store,
    config: &Config,
    session_id: &str,
    name: &str,
    args: &str,
) -> Result<Reply> {
    let message = if args == "cancel" {
        let project = store.session(session_id)?.project.unwrap_or_default();
        match cancel(store, &project)? {
            0 => "Throughline: no handoff was waiting in this project.".to_string(),
            _ => "Throughline: handoff cancelled.".to_string(),
        }
    } else {
        let h = offer(store, session_id, config)?;
        // A span, not a clock time: stored times are UTC and the person's clock may not be.
        format!(
            "Throughline: handoff ready. The next new chat in {} within {} minutes starts with \
             this session's memory. `{name} cancel` withdraws it.",
            h.project, config.handoff_minutes
        )
    };
    Ok(Reply::Block(message))
}

/// Marks `session_id` as the predecessor of its project's next new session (the `/tl`
/// command, `throughline handoff` and the app's button all come here).
pub fn offer(store: &mut Store, session_id: &str, config: &Config) -> Result<Handoff> {
    let session = store.session(session_id)?;
    // The next chat's hooks end at once in such a project: nothing would ever take it.
    if let Some(off) = session
        .project
        .as_deref()
        .and_then(|project| config.capture_off_by(project))
    {
        return Err(StoreError::Declined(format!(
            "capture is off for {off}, so no new chat there could receive this session's \
             memory; turn capture on for it (Settings, or `throughline config`) first"
        )));
    }
    let now = clock::now();
    let expires = clock::later(
        &now,
        Duration::from_secs(u64::from(config.handoff_minutes) * 60),
    );
    let w = store.write()?;
    let handoff = w.offer_handoff(session.id, &now, &expires)?;
    w.commit()?;
    Ok(handoff)
}

/// Withdraws the project's waiting handoff; how many were open.
pub fn cancel(store: &mut Store, project: &str) -> Result<usize> {
    let w = store.write()?;
    let n = w.close_handoffs(project, &clock::now(), "cancelled")?;
    w.commit()?;
    Ok(n)
}

/// Exactly what the next new chat would receive if `session_id` were handed off now
/// (`Trigger::Handoff`), or cleared (`Trigger::Clear`: both parts where the host takes two):
/// the memory built by the same code from the same chain (the session and the ones it
/// continues), without recording anything. `None` when the chain holds no turn.
pub fn preview(
    store: &Store,
    session_id: &str,
    trigger: Trigger,
    config: &Config,
) -> Result<Option<Injection>> {
    let session = store.session(session_id)?;
    let mut chain = vec![session.clone()];
    chain.extend(store.predecessors(&session)?.into_iter().map(|(s, _)| s));
    let refs: Vec<&Session> = chain.iter().collect();
    // A handoff as a new chat started after the offer gets it; one already open when it was
    // made takes it with its first prompt, in one part where the host takes two outputs.
    let moment = match trigger {
        Trigger::Clear => Moment::Cleared,
        Trigger::Handoff => Moment::HandoffAtStart,
        Trigger::Compact => Moment::Compacted,
    };
    let parts = moment.parts(hosts::agent(session.host).spec());
    memory::build(
        store,
        &session,
        trigger,
        &refs,
        parts,
        config,
        &clock::now(),
    )
}

/// The handoff waiting in `project`, if any.
pub fn pending(store: &Store, project: &str) -> Result<Option<Handoff>> {
    store.open_handoff(project, &clock::now())
}

/// Renders and logs the memory `receiver` gets from the sessions it is linked to (itself,
/// after a compaction).
fn inject(
    store: &mut Store,
    home: &Home,
    receiver: &str,
    trigger: Trigger,
    config: &Config,
) -> Result<Option<Reply>> {
    let session = store.session(receiver)?;
    let chain: Vec<Session> = match trigger {
        Trigger::Compact => vec![session.clone()],
        _ => store
            .predecessors(&session)?
            .into_iter()
            .map(|(s, _)| s)
            .collect(),
    };
    let moment = match trigger {
        Trigger::Clear => Moment::Cleared,
        Trigger::Handoff => Moment::HandoffTaken,
        Trigger::Compact => Moment::Compacted,
    };
    give(store, home, &session, chain, moment, config)
}

/// When a memory is given, which decides its trigger, its parts and when it is logged.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moment {
    /// After `/clear`: as many parts as the host passes into the first request.
    Cleared,
    /// At the start of a session that has not taken the waiting handoff yet: as many parts,
    /// logged once the session prompts (decision 0144).
    HandoffAtStart,
    /// With the prompt that takes the handoff: one part, or all where one output takes them.
    HandoffTaken,
    /// After a compaction, to the session itself: one part.
    Compacted,
}

impl Moment {
    fn trigger(self) -> Trigger {
        match self {
            Moment::Cleared => Trigger::Clear,
            Moment::HandoffAtStart | Moment::HandoffTaken => Trigger::Handoff,
            Moment::Compacted => Trigger::Compact,
        }
    }

    /// How many parts the memory may take on the host of `spec`.
    fn parts(self, spec: &hosts::Spec) -> usize {
        match self {
            Moment::Cleared | Moment::HandoffAtStart => spec.memory_parts,
            Moment::HandoffTaken if spec.memory_parts_in_one_output => spec.memory_parts,
            Moment::HandoffTaken | Moment::Compacted => 1,
        }
    }
}

/// Renders the memory `session` gets from `chain` (nearest first), after catching up with
/// the nearest transcript (the host may have flushed its last lines only now), and logs it,
/// or keeps it until the session prompts; a second part waits for the first prompt.
fn give(
    store: &mut Store,
    home: &Home,
    session: &Session,
    chain: Vec<Session>,
    moment: Moment,
    config: &Config,
) -> Result<Option<Reply>> {
    let spec = hosts::agent(session.host).spec();
    let (trigger, parts) = (moment.trigger(), moment.parts(spec));
    let unconfirmed = moment == Moment::HandoffAtStart;
    if let Some(nearest) = chain.first() {
        if let Err(e) = capture::catch_up(store, nearest) {
            // What is stored is still worth injecting.
            crate::log::line(
                home,
                "handoff",
                &format!("catching up with {}: {e}", nearest.session_id),
            );
        }
    }
    // Re-read: catching up may have added turns.
    let chain: Vec<Session> = chain
        .iter()
        .map(|s| store.session(&s.session_id))
        .collect::<Result<_>>()?;
    let refs: Vec<&Session> = chain.iter().collect();
    let now = clock::now();
    let Some(injection) = memory::build(store, session, trigger, &refs, parts, config, &now)?
    else {
        return Ok(None);
    };
    let measure = spec.injection_limit.measure;
    let more_size = injection
        .more
        .as_deref()
        .map_or(0, |more| measure.len(more));
    let w = store.write()?;
    if !unconfirmed {
        w.record_injection(session.id, &injection)?;
    }
    w.wait_with_part(session.id, &injection, more_size as u32, unconfirmed)?;
    w.commit()?;
    Ok(Some(Reply::Inject(injection.text)))
}

/// The first prompt of a session whose memory came in two parts: the second, once
/// (docs/decisions/0076). A handoff whose first part the session's start was given is taken
/// now, and both parts logged (decision 0144).
fn second_part(store: &mut Store, home: &Home, session_id: &str) -> Result<Option<Reply>> {
    let now = clock::now();
    let w = store.write()?;
    let session = w.session_of(session_id)?;
    let Some(waiting) = w.take_waiting_part(session, &now)? else {
        return Ok(None);
    };
    if let Some(first) = &waiting.unconfirmed_first {
        let project = store_project(&w, session)?;
        let from = first.chain.first().map_or("", String::as_str);
        let Some(predecessor) = w.take_handoff_of(&project, from, session, &now)? else {
            w.commit()?;
            crate::log::line(
                home,
                "handoff",
                &format!(
                    "session {session_id} was given the first part of session {from}'s memory \
                     at its start, but that handoff was withdrawn or taken by another session \
                     before this one's first prompt: nothing more handed on"
                ),
            );
            return Ok(None);
        };
        w.link(session, predecessor, Trigger::Handoff, &now)?;
        w.record_injection(session, first)?;
    }
    if let Some(part) = &waiting.part {
        w.record_injection(session, part)?;
    }
    w.commit()?;
    Ok(waiting.part.map(|part| Reply::Inject(part.text)))
}

#[cfg(test)]
mod tests;
