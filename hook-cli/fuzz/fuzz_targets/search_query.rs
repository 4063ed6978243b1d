//! A search as a person or a model types it, against a memory with the sample session in it:
//! any query and `since` either finds something, finds nothing, or is refused with a reason,
//! never a failed statement or a panic.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use throughline_engine::search::{self, Request, SearchError};
use throughline_engine::store::Store;

thread_local! {
    static STORE: RefCell<Option<Store>> = const { RefCell::new(None) };
}

/// The scratch folders are named by process: the fuzzer ends a run with `exit`, which runs no
/// destructor, so each run removes those of runs that are over.
const SCRATCH: &str = "tl-fuzz-search-";

fn sample_store() -> Store {
    let tmp = std::env::temp_dir();
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix(SCRATCH));
        if pid.is_some_and(|pid| !std::path::Path::new("/proc").join(pid).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = tmp.join(format!("{SCRATCH}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let replay = throughline_engine::demo::replay(&dir).expect("the sample session replays");
    throughline_engine::open_store(&replay.home).expect("the sample memory opens")
}

fuzz_target!(|data: &[u8]| {
    // The first byte splits the input into the query and `since`.
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let at = usize::from(split).min(rest.len());
    let (since, query) = rest.split_at(at);
    let request = Request {
        query: String::from_utf8_lossy(query).into_owned(),
        since: (!since.is_empty()).then(|| String::from_utf8_lossy(since).into_owned()),
        limit: 10,
        ..Default::default()
    };
    STORE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let store = cell.get_or_insert_with(sample_store);
        match search::search(store, &request) {
            Ok(_) | Err(SearchError::Empty | SearchError::Since(_)) => {}
            Err(e) => panic!("{:?} (since {:?}): {e}", request.query, request.since),
        }
    });
});
