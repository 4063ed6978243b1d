//! The library behind the `throughline` CLI, as its tests and benches name it: the engine
//! and, through it, every crate below.

pub use throughline_engine::*;
