//! `throughline install`: registers Throughline with an agent (hooks, `/tl`, MCP server,
//! statusline). Safe to run again: it changes only what is missing or out of date.

use std::path::PathBuf;

use throughline::install::{self, Action, Options, Report, Scope};
use throughline::model::Host;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Leave the statusline alone even when none is set
    #[arg(long)]
    no_statusline: bool,
    /// Print the hooks to add by hand instead of changing anything
    #[arg(long)]
    print: bool,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

/// Which agent and where: shared by `install`, `uninstall` and `doctor`.
#[derive(clap::Args)]
pub struct Target {
    /// The agent to register with: claude
    #[arg(long, default_value = "claude", value_parser = parse_host)]
    pub host: Host,
    /// Register for one project only (its `.claude/settings.json`); default: this project
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub project: Option<PathBuf>,
}

impl Target {
    pub fn scope(&self) -> Scope {
        match &self.project {
            None => Scope::User,
            Some(dir) if dir.as_os_str().is_empty() => Scope::Project(
                super::current_project()
                    .unwrap_or_else(|| ".".into())
                    .into(),
            ),
            Some(dir) => Scope::Project(dir.clone()),
        }
    }
}

fn parse_host(name: &str) -> Result<Host, String> {
    Host::parse(name).ok_or_else(|| format!("unknown host {name:?}; known: claude"))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let binary = install::current_binary()?;
    if args.print {
        let hooks = install::claude::hooks_object(&install::shell_word(&binary));
        return super::print_json(&serde_json::json!({ "hooks": hooks }));
    }
    let report = install::install(
        args.target.host,
        &Options {
            scope: args.target.scope(),
            binary: binary.clone(),
            statusline: !args.no_statusline,
        },
    )?;
    if args.json {
        return super::print_json(&report);
    }
    if report.changed() {
        println!(
            "Throughline is registered with Claude Code; hooks run {}",
            binary.display()
        );
    } else {
        println!("Already installed: nothing changed.");
    }
    print_changes(&report);
    if report.changed() {
        println!(
            "\nEvery turn of new Claude Code sessions is now kept. `throughline doctor` checks \
             the setup; `throughline uninstall` removes exactly this."
        );
    }
    Ok(())
}

/// One line per file that changed or was deliberately left alone.
pub fn print_changes(report: &Report) {
    for change in &report.changes {
        let action = match change.action {
            Action::Unchanged => continue,
            Action::Created => "created",
            Action::Updated => "updated",
            Action::Removed => "removed",
            Action::Kept => "kept",
        };
        println!("  {action:<8} {}", change.path.display());
        for detail in &change.details {
            println!("           {detail}");
        }
        if let Some(backup) = &change.backup {
            println!("           previous version: {}", backup.display());
        }
    }
}
