//! Throughline's settings, kept by the library (`config.json`, each value overridable from
//! the environment); the window shows where each value comes from.

use throughline::config::{self, Config, Effective};
use throughline::home::Home;

pub fn current(home: &Home) -> Effective {
    config::load(home)
}

/// Saves `config` and returns the settings now in force.
pub fn save(home: &Home, config: &Config) -> Result<Effective, String> {
    config::save_changes(home, config).map_err(|e| {
        format!(
            "Cannot save the settings in {}: {e}. Check that the folder exists and is writable.",
            home.dir().display()
        )
    })
}
