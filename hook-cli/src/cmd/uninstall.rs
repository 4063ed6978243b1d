//! `throughline uninstall`: removes exactly what `install` added; `--purge` also deletes the
//! stored memory.

use std::io::{BufRead, IsTerminal, Write};

use throughline::home::Home;
use throughline::install;

use super::install::{print_changes, Target};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Also delete the stored memory (asks first unless --yes)
    #[arg(long)]
    purge: bool,
    /// Do not ask before --purge deletes
    #[arg(long, requires = "purge")]
    yes: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let home = Home::locate()?;
    if args.purge && !args.yes && !confirm(&home)? {
        anyhow::bail!("nothing was changed; `--purge --yes` deletes without asking");
    }
    let mut reports = Vec::new();
    for host in args.target.hosts() {
        reports.push(install::uninstall(host, &args.target.scope())?);
    }
    let purged = if args.purge {
        home.purge()?
    } else {
        Vec::new()
    };
    if args.json {
        let hosts: Vec<_> = reports
            .iter()
            .map(|r| serde_json::json!({ "host": r.host, "changes": r.changes }))
            .collect();
        return super::print_json(&match hosts.as_slice() {
            [one] => serde_json::json!({
                "host": one["host"], "changes": one["changes"], "purged": purged
            }),
            _ => serde_json::json!({ "hosts": hosts, "purged": purged }),
        });
    }
    for report in &reports {
        let name = throughline::hosts::agent(report.host).spec().name;
        if report.changed() {
            outln!("Throughline is no longer registered with {name}.")?;
        } else {
            outln!("Throughline was not registered with {name}: nothing to remove.")?;
        }
        print_changes(report)?;
    }
    for path in &purged {
        outln!("  deleted  {}", path.display())?;
    }
    if !args.purge {
        outln!(
            "\nThe stored memory is still in {}; `throughline uninstall --purge` deletes it.",
            home.dir().display()
        )?;
    }
    Ok(())
}

fn confirm(home: &Home) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "--purge deletes every stored session in {}; add --yes to confirm",
            home.dir().display()
        );
    }
    out!(
        "Delete every stored session in {}? This cannot be undone. [y/N] ",
        home.dir().display()
    )?;
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
