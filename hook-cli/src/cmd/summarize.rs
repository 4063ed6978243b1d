//! `throughline summarize`: runs `throughline-summarize`, the program next to this one that
//! holds the summary backends (docs/decisions/0057), with the same options.

use std::os::unix::process::CommandExt;
use std::process::Command;

#[derive(clap::Args)]
pub struct Args {
    /// Started by a hook: print nothing, log a failure to throughline.log
    #[arg(long, hide = true)]
    background: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let helper = throughline::summarize::helper().map_err(anyhow::Error::msg)?;
    let mut command = Command::new(&helper);
    if args.background {
        command.arg("--background");
    }
    if args.json {
        command.arg("--json");
    }
    // exec returns only when the program could not start.
    let e = command.exec();
    anyhow::bail!("running {}: {e}", helper.display())
}
