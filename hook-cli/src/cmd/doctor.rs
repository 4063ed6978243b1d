//! `throughline doctor`: is everything in place? Each problem comes with the command that
//! fixes it; the exit code is 1 when something is wrong. The checks are the library's
//! (`throughline::doctor`), shared with the tray app.

use std::process::ExitCode;

use throughline::doctor::{self, Fixes, Status};
use throughline::home::Home;
use throughline::install::{self, Scope};
use throughline::render::Tone;

use super::install::Target;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    #[command(flatten)]
    color: super::Color,
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
        wrap_statusline:
            "`throughline install --wrap-statusline` records them and shows your line as before"
                .into(),
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
        let paint = args.color.paint();
        // Names in one column, and each fix under its message.
        let names = checks
            .iter()
            .map(|c| c.name.len())
            .max()
            .unwrap_or_default();
        let under = " ".repeat("FAIL  ".len() + names + 1);
        for check in &checks {
            let mark = match check.status {
                Status::Ok => paint.tone(Tone::Good, "ok  "),
                Status::Note => paint.tone(Tone::Warning, "note"),
                Status::Problem => paint.tone(Tone::Bad, "FAIL"),
            };
            let said = format!("{:<names$} {}", check.name, check.message);
            out_painted!("{mark}  {}\n", paint.text(&said))?;
            if let Some(fix) = &check.fix {
                out_painted!("{under}fix: {}\n", paint.text(fix))?;
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
