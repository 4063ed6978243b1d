//! Which projects and sessions used the plan's current window: each Claude Code session's
//! requests since the window began, weighted as their tokens and models are priced, so a person sees
//! where a five-hour limit went.

use serde::Serialize;

use crate::clock;
use crate::hosts::claude::pricing;
use crate::render;
use crate::store::{Result, Store, UsageSince};

/// One session's part of the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionUse {
    pub session_id: String,
    pub title: Option<String>,
    /// What its requests would cost at API prices (see [`weighted`]).
    pub weight: f64,
}

/// One project's part of the window, its sessions largest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProjectUse {
    pub project: Option<String>,
    /// Percent of everything the window's sessions used, 0–100.
    pub share: f64,
    pub sessions: Vec<SessionUse>,
}

/// What the requests would cost at the API's prices, in millionths of a dollar: each kind of
/// token at its multiple of a fresh input token (a cache write 1.25, a cache read a tenth, an
/// output token five, the same for every Claude model), times the model's input price
/// (`claude::pricing`). Counting cache reads whole would hand the window to whichever session
/// re-sent the longest context, though reads are the cheapest part of a request; counting a
/// Haiku subagent's tokens as an Opus session's would hand it to the cheaper model.
pub fn weighted(u: &UsageSince) -> f64 {
    let tokens = u.input as f64
        + 1.25 * u.cache_creation as f64
        + 0.1 * u.cache_read as f64
        + 5.0 * u.output as f64;
    tokens * pricing::input_price(u.model.as_deref())
}

/// The projects that used the window begun at `starts_at` (seconds since the epoch), largest
/// share first.
pub fn since(store: &Store, starts_at: u64) -> Result<Vec<ProjectUse>> {
    let since = clock::rfc3339(starts_at);
    let used = store.usage_since(crate::hosts::claude::HOST.as_str(), &since)?;
    let total: f64 = used.iter().map(weighted).sum();
    if total <= 0.0 {
        return Ok(Vec::new());
    }
    let mut projects: Vec<ProjectUse> = Vec::new();
    for u in &used {
        let weight = weighted(u);
        let project = match projects.iter_mut().find(|p| p.project == u.session.project) {
            Some(project) => project,
            None => {
                projects.push(ProjectUse {
                    project: u.session.project.clone(),
                    share: 0.0,
                    sessions: Vec::new(),
                });
                projects.last_mut().expect("just pushed")
            }
        };
        project.share += 100.0 * weight / total;
        // A session that ran several models comes once for each.
        let id = &u.session.session_id;
        match project.sessions.iter_mut().find(|s| &s.session_id == id) {
            Some(session) => session.weight += weight,
            None => project.sessions.push(SessionUse {
                session_id: id.clone(),
                title: store.first_prompt(&u.session)?.map(|p| render::title(&p)),
                weight,
            }),
        }
    }
    for project in &mut projects {
        project
            .sessions
            .sort_by(|a, b| b.weight.total_cmp(&a.weight));
    }
    projects.sort_by(|a, b| b.share.total_cmp(&a.share));
    Ok(projects)
}

#[cfg(test)]
mod tests;
