//! `throughline handoff`: hand this session's memory to the next new chat in its project
//! (what `/tl` does inside Claude Code, and the app's button), or `--cancel` it.

use throughline::config;
use throughline::handoff;
use throughline::home::Home;
use throughline::hosts;
use throughline::store::Trigger;

#[derive(clap::Args)]
pub struct Args {
    /// Session id or unique prefix; default: the Claude Code session this runs in, else the
    /// most recently active session of this project
    #[arg(long)]
    session: Option<String>,
    /// Withdraw the handoff waiting in this project
    #[arg(long)]
    cancel: bool,
    /// Print the memory the next chat would get, and hand nothing on: in as many parts as the
    /// host takes (two on Claude Code: the first at the chat's start, the second with its
    /// first prompt)
    #[arg(long, conflicts_with = "cancel")]
    pub(super) preview: bool,
    /// With --preview: the memory a `/clear` gives instead
    #[arg(long, requires = "preview")]
    clear: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    let mut store = throughline::open_store(&home)?;
    // Run from inside a host that names its session (Claude Code's /tl command, the model in
    // Claude Code, Gemini CLI or Grok), "this session" is known.
    let named = args
        .session
        .or_else(|| hosts::all().find_map(hosts::owner_session));
    let session = super::session_or_latest(&store, named.as_deref())?;
    let project = session.project.clone().unwrap_or_default();
    if args.cancel {
        let n = handoff::cancel(&mut store, &project)?;
        if args.json {
            return super::print_json(&serde_json::json!({"cancelled": n, "project": project}));
        }
        match n {
            0 => outln!("no handoff was waiting in {project}"),
            _ => outln!("handoff in {project} cancelled"),
        }?;
        return Ok(());
    }
    let effective = config::load(&home);
    if args.preview {
        let trigger = if args.clear {
            Trigger::Clear
        } else {
            Trigger::Handoff
        };
        let memory = handoff::preview(&store, &session.session_id, trigger, &effective.config)?;
        if args.json {
            return super::print_json(&memory);
        }
        let Some(memory) = memory else {
            outln!("session {} holds no turn to hand on", session.session_id)?;
            return Ok(());
        };
        let spec = hosts::agent(session.host).spec();
        let unit = match spec.injection_limit.measure {
            throughline::record::Measure::Utf16 => "characters (UTF-16 code units)",
            throughline::record::Measure::Utf8 => "bytes",
        };
        // Each part's size as the host measures it, for the person reading; a pipe gets the
        // text alone.
        let size_line = |size: usize| {
            format!(
                "\n── {size} of the {} {unit} a memory may take in {}",
                memory.budget, spec.name
            )
        };
        let terminal = super::stdout_is_terminal();
        out!("{}", memory.text)?;
        if terminal {
            outln!("{}", size_line(memory.size as usize))?;
        }
        if let Some(more) = &memory.more {
            outln!("\n── part 2, given with the person's first prompt ──\n")?;
            out!("{more}")?;
            if terminal {
                outln!("{}", size_line(spec.injection_limit.measure.len(more)))?;
            }
        }
        return Ok(());
    }
    let offered = handoff::offer(&mut store, &session.session_id, &effective.config)?;
    if args.json {
        return super::print_json(&offered);
    }
    outln!(
        "handoff ready: the next new chat in {} takes the memory of session {} (until {}); \
         `throughline handoff --cancel` withdraws it",
        offered.project,
        &offered.session_id[..offered.session_id.len().min(8)],
        throughline::clock::local(&offered.expires_at)
    )?;
    Ok(())
}
