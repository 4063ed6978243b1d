//! `throughline config`: the settings in force and where each comes from.

use throughline::config;
use throughline::home::Home;

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let effective = config::load(&Home::locate()?);
    if args.json {
        return super::print_json(&effective);
    }
    println!("file: {}", effective.file.display());
    for s in &effective.settings {
        println!(
            "{:<18} {:<6} from {:<8} (env {})",
            s.key,
            s.value,
            format!("{:?}", s.source).to_lowercase(),
            s.env
        );
    }
    for p in &effective.problems {
        println!("problem: {p}");
    }
    Ok(())
}
