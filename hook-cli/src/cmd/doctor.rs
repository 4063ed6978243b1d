//! `throughline doctor`: is everything in place? Each problem comes with the command that
//! fixes it; the exit code is 1 when something is wrong. The checks are the library's
//! (`throughline::doctor`), shared with the tray app.

use std::process::ExitCode;

use throughline::doctor::{self, Fixes, Status};
use throughline::home::Home;
use throughline::install::{self, Scope};

use super::install::Target;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let binary = install::current_binary()?;
    let home = Home::locate()?;
    let scope = args.target.scope();
    let install_cmd = install::command_line(
        &binary,
        match scope {
            Scope::User => "install",
            Scope::Project(_) => "install --project",
        },
    );
    let fixes = Fixes {
        install: install_cmd.clone(),
        repair: install_cmd,
        threshold: install::command_line(&binary, "config --autocompact"),
    };
    let mut checks = doctor::hosts_checks(
        &args.target.hosts(),
        &scope,
        args.target.names_a_host(),
        &binary,
        &fixes,
    );
    checks.extend(doctor::client_and_store_checks(&home, &fixes));

    let healthy = doctor::healthy(&checks);
    if args.json {
        super::print_json(&serde_json::json!({ "healthy": healthy, "checks": checks }))?;
    } else {
        for check in &checks {
            let mark = match check.status {
                Status::Ok => "ok  ",
                Status::Note => "note",
                Status::Problem => "FAIL",
            };
            outln!("{mark}  {:<9} {}", check.name, check.message)?;
            if let Some(fix) = &check.fix {
                outln!("                fix: {fix}")?;
            }
        }
        if healthy {
            outln!("\nEverything is in place.")?;
        }
    }
    Ok(if healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
