//! The injection log: every memory Throughline handed to a session, newest first, read
//! through the library's read API.

use std::time::Duration;

use throughline_engine::clock;
use throughline_engine::home::Home;
use throughline_engine::savings::{self, Savings};
use throughline_engine::store::{Injection, InjectionFilter, StoreError};

use crate::meter::{self, explain};

/// How many injections the window lists.
const SHOWN: u32 = 50;

pub fn recent(home: &Home) -> Result<Vec<Injection>, String> {
    let store = match meter::open(home) {
        Ok(store) => store,
        // Nothing recorded yet: nothing injected either.
        Err(StoreError::Missing(_)) => return Ok(Vec::new()),
        Err(e) => return Err(explain(&e)),
    };
    store
        .injections(&InjectionFilter {
            limit: Some(SHOWN),
            ..InjectionFilter::default()
        })
        .map_err(|e| explain(&e))
}

/// How far back the window's account of what the memory cost and saved reaches.
const SAVINGS_SPAN: Duration = Duration::from_secs(7 * 86_400);

/// What the memories handed on in the last week cost and saved.
pub fn savings(home: &Home) -> Result<Savings, String> {
    let since = clock::before(&clock::now(), SAVINGS_SPAN).unwrap_or_default();
    match meter::open(home) {
        Ok(store) => savings::since(&store, &since).map_err(|e| explain(&e)),
        Err(StoreError::Missing(_)) => Ok(Savings::default()),
        Err(e) => Err(explain(&e)),
    }
}
