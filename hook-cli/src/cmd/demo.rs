//! `throughline demo`: replays a recorded session into a temporary memory and shows what each
//! layer holds, and what the next session would start from. No agent, no API key.

use serde::Serialize;
use throughline::demo;
use throughline::model::{Role, Turn};
use throughline::render::count;
use throughline::store::{ContextSpend, Store};

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Demo {
    hook_calls: Vec<&'static str>,
    turns: Vec<Turn>,
    spend: ContextSpend,
    transcript_bytes: usize,
    /// What the session after `/clear` received.
    next_session: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let dir = tempfile::Builder::new()
        .prefix("throughline-demo-")
        .tempdir()?;
    let replay = demo::replay(dir.path()).map_err(anyhow::Error::msg)?;
    let store = Store::open_read_only(&replay.home)?;
    let session = store.session(demo::SAMPLE_SESSION)?;
    let turns = store.turns(&session)?;
    let demo = Demo {
        hook_calls: replay.fired,
        spend: store.context_spend(&session)?,
        transcript_bytes: demo::SAMPLE_TRANSCRIPT.len(),
        next_session: replay.memory.unwrap_or_default(),
        turns,
    };
    if args.json {
        return super::print_json(&demo);
    }
    print(&demo)?;
    Ok(())
}

fn print(demo: &Demo) -> std::io::Result<()> {
    let s = &demo.spend;
    outln!(
        "Throughline demo: a recorded Claude Code session ({} prompts; Read, Bash, Edit, Write, a \
         failing command, thinking) replayed hook by hook into a temporary memory.\n",
        demo.turns.iter().filter(|t| t.seq > 0).count()
    )?;
    let mut calls: Vec<(&str, usize)> = Vec::new();
    for call in &demo.hook_calls {
        match calls.iter_mut().find(|(c, _)| c == call) {
            Some((_, n)) => *n += 1,
            None => calls.push((call, 1)),
        }
    }
    let calls: Vec<String> = calls.iter().map(|(c, n)| format!("{c} ×{n}")).collect();
    outln!(
        "Hook calls ({}): {}\n",
        demo.hook_calls.len(),
        calls.join(", ")
    )?;
    outln!("Stored, turn by turn (L2 = the conversation verbatim, L3 = everything else):")?;
    for turn in demo.turns.iter().filter(|t| t.seq > 0) {
        let prompt = turn
            .messages
            .iter()
            .find(|m| m.role == Role::User)
            .map(|m| m.text.lines().next().unwrap_or("").to_string())
            .unwrap_or_default();
        let l2: usize = turn.messages.iter().map(|m| m.text.chars().count()).sum();
        outln!("  turn {} [{}]  > {prompt}", turn.seq, turn.code)?;
        outln!(
            "      L2: {} messages, {l2} chars   L3: {}",
            turn.messages.len(),
            if turn.detail_summary.is_empty() {
                "-"
            } else {
                &turn.detail_summary
            }
        )?;
    }
    let l3 = s.tool_io_chars + s.thinking_chars + s.other_chars;
    outln!("\nLayers:")?;
    outln!("  L2 conversation  {:>7} chars", s.conversation_chars)?;
    outln!(
        "  L3 detail        {:>7} chars (tool I/O {}, thinking {}, host entries {})",
        l3,
        s.tool_io_chars,
        s.thinking_chars,
        s.other_chars
    )?;
    outln!("{}", usage_line(s.api_calls, s.last_context.unwrap_or(0)))?;
    let next = demo.next_session.chars().count();
    outln!(
        "\nThe transcript is {} bytes. The next session would start from {} characters \
         ({:.1}% of it), instead of the whole context:\n",
        demo.transcript_bytes,
        next,
        100.0 * next as f64 / demo.transcript_bytes as f64
    )?;
    for line in demo.next_session.lines() {
        outln!("  │ {line}")?;
    }
    outln!(
        "\nEverything else stays one command away (`throughline detail <turn>`). \
         Try it on your own sessions: `throughline install`, or `throughline import` for past ones."
    )
}

/// The usage row of the layers, its number aligned with the rows above it.
fn usage_line(api_calls: u64, last_context: u64) -> String {
    let calls = count(api_calls, "API call");
    let (number, noun) = calls.split_once(' ').unwrap_or((&calls, ""));
    format!(
        "  usage            {number:>7} {noun}; the last request held {last_context} tokens of \
         context"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_api_call_is_said_as_one() {
        assert_eq!(
            usage_line(1, 900),
            "  usage                  1 API call; the last request held 900 tokens of context"
        );
        assert!(usage_line(12, 0).contains("     12 API calls;"));
    }
}
