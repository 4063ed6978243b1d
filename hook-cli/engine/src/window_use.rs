//! Which projects and sessions used the plan's current window: each Claude Code session's
//! requests since the window began, weighted as their tokens are priced, so a person sees
//! where a five-hour limit went.

use serde::Serialize;

use crate::clock;
use crate::render;
use crate::store::{Result, Store, UsageSince};

/// One session's part of the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionUse {
    pub session_id: String,
    pub title: Option<String>,
    /// Its weighted tokens (see [`weighted`]).
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

/// Tokens weighted by their price relative to a fresh input token: a cache write costs 1.25
/// of one, a cache read a tenth, an output token five (the same ratios for every current Claude
/// model). Counting cache reads whole would hand the window to whichever session re-sent the
/// longest context, though reads are the cheapest part of a request.
pub fn weighted(u: &UsageSince) -> f64 {
    u.input as f64
        + 1.25 * u.cache_creation as f64
        + 0.1 * u.cache_read as f64
        + 5.0 * u.output as f64
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
        let title = store.first_prompt(&u.session)?.map(|p| render::title(&p));
        let session = SessionUse {
            session_id: u.session.session_id.clone(),
            title,
            weight: weighted(u),
        };
        let share = 100.0 * session.weight / total;
        match projects.iter_mut().find(|p| p.project == u.session.project) {
            Some(project) => {
                project.share += share;
                project.sessions.push(session);
            }
            None => projects.push(ProjectUse {
                project: u.session.project.clone(),
                share,
                sessions: vec![session],
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
