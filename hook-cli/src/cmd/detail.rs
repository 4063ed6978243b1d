//! `throughline detail <turn>`: one turn in full — the conversation and every L3 entry.

use throughline::model::{DetailKind, Role};

#[derive(clap::Args)]
pub struct Args {
    /// Turn id (as printed by `show`), or a unique prefix of at least four characters
    turn: String,
    /// Only the N-th detail entry (1-based, as numbered in the full listing)
    #[arg(long)]
    item: Option<u32>,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = super::open_for_reading()?;
    let mut detail = store.turn_detail(&args.turn)?;
    if let Some(n) = args.item {
        let count = detail.details.len();
        detail.details.retain(|d| d.index == n);
        if detail.details.is_empty() {
            anyhow::bail!(
                "turn {} has {count} detail entries; --item takes 1 to {count}",
                detail.turn.code
            );
        }
    }
    if args.json {
        return super::print_json(&detail);
    }
    let turn = &detail.turn;
    println!(
        "turn {} (#{} of session {})",
        turn.code, turn.seq, turn.session_id
    );
    if args.item.is_none() {
        for m in &turn.messages {
            let who = match m.role {
                Role::User => "you",
                Role::Assistant => "assistant",
            };
            println!("\n{who}: {}", m.text);
        }
    }
    for d in &detail.details {
        let name = d.name.as_deref().unwrap_or("");
        let label = match d.kind {
            DetailKind::ToolCall => format!("tool call {name}"),
            DetailKind::ToolResult if d.is_error => "tool result (error)".to_string(),
            kind => format!("{} {name}", kind.as_str()),
        };
        println!(
            "\n[{}] {} {}",
            d.index,
            label.trim_end(),
            d.tool_use_id.as_deref().unwrap_or("")
        );
        println!("{}", d.body);
    }
    Ok(())
}
