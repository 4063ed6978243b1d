//! `throughline install`: registers Throughline with an agent (hooks, `/tl`, MCP server,
//! statusline). Safe to run again: it changes only what is missing or out of date.

use std::path::PathBuf;

use throughline::hosts;
use throughline::install::{self, Action, Options, Report, Scope};
use throughline::model::Host;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Leave the statusline alone even when none is set
    #[arg(long, conflicts_with = "wrap_statusline")]
    no_statusline: bool,
    /// Run your own statusline inside Throughline's: it shows as before, and the plan usage
    /// Claude Code gives it (5-hour, 7-day limits) is recorded for the app and `monitor`
    #[arg(long)]
    wrap_statusline: bool,
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
    #[arg(long, default_value = "all", value_parser = parse_host, help = format!(
        "The agent to register with: {}, or all (every one found on this machine)",
        super::host_names().join(", ")
    ))]
    pub host: Hosts,
    /// Register for one project only (its `.claude/settings.json`); default: this project
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub project: Option<PathBuf>,
}

/// One agent, or every one found.
#[derive(Clone, Copy)]
pub enum Hosts {
    One(Host),
    All,
}

impl Target {
    /// The agents meant: for `all`, each whose folder exists (Claude Code when none does).
    pub fn hosts(&self) -> Vec<Host> {
        match self.host {
            Hosts::One(host) => vec![host],
            // Only Claude Code reads settings per project.
            Hosts::All if self.project.is_some() => vec![hosts::claude::HOST],
            Hosts::All => hosts::found_hosts(),
        }
    }

    /// Whether the person named the host, rather than leaving it to the folders found.
    pub fn names_a_host(&self) -> bool {
        matches!(self.host, Hosts::One(_))
    }

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

fn parse_host(name: &str) -> Result<Hosts, String> {
    if name == "all" {
        return Ok(Hosts::All);
    }
    hosts::parse(name).map(Hosts::One).ok_or_else(|| {
        let known: Vec<&str> = hosts::all().map(Host::as_str).collect();
        format!("unknown host {name:?}; known: {}, all", known.join(", "))
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let binary = install::current_binary()?;
    let hosts = args.target.hosts();
    if args.print {
        let program = install::shell_word(&binary);
        let settings = |host| serde_json::json!({ "hooks": install::hooks_object(host, &program) });
        return match hosts.as_slice() {
            [one] => super::print_json(&settings(*one)),
            many => super::print_json(
                &many
                    .iter()
                    .map(|&h| (h.as_str().to_string(), settings(h)))
                    .collect::<serde_json::Map<_, _>>(),
            ),
        };
    }
    let mut reports = Vec::new();
    for &host in &hosts {
        reports.push(install::install(
            host,
            &Options {
                scope: args.target.scope(),
                binary: binary.clone(),
                statusline: !args.no_statusline,
                wrap_statusline: args.wrap_statusline,
            },
        )?);
    }
    if args.json {
        return match reports.as_slice() {
            [one] => super::print_json(one),
            many => super::print_json(&many),
        };
    }
    for report in &reports {
        let name = throughline::hosts::agent(report.host).spec().name;
        if report.changed() {
            outln!(
                "Throughline is registered with {name}; hooks run {}",
                binary.display()
            )?;
        } else {
            outln!("Already installed for {name}: nothing changed.")?;
        }
        print_changes(report)?;
    }
    if reports.iter().any(Report::changed) {
        outln!(
            "\nEvery turn of new sessions is now kept. `throughline doctor` checks the setup; \
             `throughline uninstall` removes exactly this."
        )?;
    }
    Ok(())
}

/// One line per file that changed or was deliberately left alone.
pub fn print_changes(report: &Report) -> std::io::Result<()> {
    for change in &report.changes {
        let action = match change.action {
            Action::Unchanged => continue,
            Action::Created => "created",
            Action::Updated => "updated",
            Action::Removed => "removed",
            Action::Kept => "kept",
        };
        outln!("  {action:<8} {}", change.path.display())?;
        for detail in &change.details {
            outln!("           {detail}")?;
        }
        if let Some(backup) = &change.backup {
            outln!("           previous version: {}", backup.display())?;
        }
    }
    Ok(())
}
