//! The injection log: every memory Throughline handed to a session, newest first, read
//! through the library's read API.

use throughline::home::Home;
use throughline::store::{Injection, InjectionFilter, Store};

use crate::meter::explain;

/// How many injections the window lists.
const SHOWN: u32 = 50;

pub fn recent(home: &Home) -> Result<Vec<Injection>, String> {
    let store = Store::open_read_only(home).map_err(|e| explain(&e))?;
    store
        .injections(&InjectionFilter {
            limit: Some(SHOWN),
            ..InjectionFilter::default()
        })
        .map_err(|e| explain(&e))
}
