//! The injection log: every memory Throughline handed to a session, newest first, read
//! through the library's read API.

use throughline_engine::home::Home;
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
