//! What the memory cost and what it saved: each memory handed on (after `/clear`, a handoff
//! or a compaction) takes its tokens in every request of the session that got it, and spares
//! that session the context the one before it had reached.

use serde::Serialize;

use crate::store::{Handed, Result, Store};

/// One memory handed on, and the requests around it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandedOn {
    pub session_id: String,
    pub project: Option<String>,
    /// `clear`, `handoff` or `compact`.
    pub trigger: String,
    pub at: String,
    /// The memory's tokens.
    pub injected: u64,
    /// The context of the last request before it, when known.
    pub before: Option<u64>,
    /// The context of the first request after it, memory included, when there was one.
    pub after: Option<u64>,
    /// Requests after it that stayed below the context before it.
    pub requests: u64,
    /// Tokens those requests did not carry.
    pub saved: u64,
}

/// Every memory handed on since a moment, and the sums.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Savings {
    pub handed: Vec<HandedOn>,
    pub injected: u64,
    pub saved: u64,
}

/// Without the memory handed on, each request after it would have carried the context
/// before it plus what the session added since; with it, the memory and what was added. Each
/// request is thus `before − first` smaller, counted while the new session stays below the
/// old size: past it the old one would have been compacted about then, and nothing is
/// claimed.
fn handed_on(h: Handed) -> HandedOn {
    let first = h.after.first().copied();
    let (requests, saved) = match (h.before, first) {
        (Some(before), Some(first)) if before > first => {
            let requests = h.after.iter().take_while(|&&c| c < before).count() as u64;
            (requests, requests * (before - first))
        }
        _ => (0, 0),
    };
    HandedOn {
        session_id: h.session_id,
        project: h.project,
        trigger: h.trigger,
        at: h.at,
        injected: h.injected_tokens,
        before: h.before,
        after: first,
        requests,
        saved,
    }
}

/// The memories handed on at or after `since` (stored time), oldest first.
pub fn since(store: &Store, since: &str) -> Result<Savings> {
    let handed: Vec<HandedOn> = store
        .memories_handed(since)?
        .into_iter()
        .map(handed_on)
        .collect();
    Ok(Savings {
        injected: handed.iter().map(|h| h.injected).sum(),
        saved: handed.iter().map(|h| h.saved).sum(),
        handed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handed(before: Option<u64>, after: &[u64]) -> Handed {
        Handed {
            session_id: "s".into(),
            project: None,
            trigger: "clear".into(),
            at: "2026-12-02T10:00:00Z".into(),
            injected_tokens: 4_000,
            before,
            after: after.to_vec(),
        }
    }

    #[test]
    fn each_request_after_is_the_old_context_less_the_new_until_it_grows_back() {
        // 150k before; the new session starts at 20k (memory included) and grows.
        let h = handed_on(handed(
            Some(150_000),
            &[20_000, 60_000, 140_000, 160_000, 30_000],
        ));
        assert_eq!((h.after, h.requests), (Some(20_000), 3));
        assert_eq!(h.saved, 3 * 130_000);
        assert_eq!(h.injected, 4_000);
    }

    #[test]
    fn nothing_is_claimed_without_a_request_on_each_side_or_a_smaller_start() {
        assert_eq!(handed_on(handed(None, &[20_000])).saved, 0);
        assert_eq!(handed_on(handed(Some(150_000), &[])).saved, 0);
        let bigger = handed_on(handed(Some(10_000), &[20_000, 30_000]));
        assert_eq!((bigger.requests, bigger.saved), (0, 0));
    }
}
