//! Puts transcript lines in the order their host chained them. Claude Code links every entry
//! to the one before it (`parentUuid`), but does not always write them in that order: under
//! load it writes a prompt line after the model's first lines of its turn. Read in file
//! order, those lines would fall into the turn before. A line whose parent was not seen yet is
//! held until the parent comes, and is stored right after it.
//!
//! Held lines and the ids of the latest lines outlive a call: the cursor keeps them
//! ([`State`]), so a prompt written after the hook that read its turn's first lines still
//! gets them. A held line is let go in file order when its parent does not come within
//! [`HOLD`] of its own time, or before a prompt that follows it in the chain.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::record::{Link, Record, HOLD};

/// Ids of the latest lines kept across calls: parents are the line before, or a few lines
/// back (parallel tool calls).
const KNOWN: usize = 128;
/// Lines held at most; past this, the oldest is let go (a transcript whose chain is broken).
const MAX_HELD: usize = 1000;

/// What a cursor keeps between calls.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct State {
    /// Ids of the latest lines passed on, oldest first.
    known: VecDeque<u64>,
    /// Held lines as read, in file order: they are parsed again by the next call.
    held: Vec<Arc<str>>,
    /// Whether the reader is passing over a line too long to store: the call that finds its
    /// end goes on from there (see `ingest::MAX_LINE_BYTES`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub passing_long_line: bool,
}

impl State {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("ids and strings serialise")
    }

    /// `None` when `json` is not a state this version wrote: the call then reads as if
    /// nothing were known (see [`Order::new`]).
    pub fn from_json(json: &str) -> Option<State> {
        serde_json::from_str(json).ok()
    }

    /// The lines to parse again before the new ones.
    pub fn held_lines(&self) -> &[Arc<str>] {
        &self.held
    }
}

struct Held {
    link: Link,
    line: Arc<str>,
    records: Vec<Record>,
    /// The line's own time, as the host wrote it.
    at: Option<String>,
}

pub struct Order {
    known: VecDeque<u64>,
    held: Vec<Held>,
    /// No record of the lines before the cursor (it was saved by an older version, or the
    /// lines were passed over while paused): an unknown parent is taken as one of them.
    trust_unknown: bool,
}

impl Order {
    /// Resumes from a cursor's state; `state` is `None` for a cursor without one, where
    /// `from_start` tells whether reading begins at the start of the file.
    pub fn new(state: Option<&State>, from_start: bool) -> Order {
        Order {
            known: state.map(|s| s.known.clone()).unwrap_or_default(),
            held: Vec::new(),
            trust_unknown: state.is_none() && !from_start,
        }
    }

    /// What a cursor saved now would keep.
    pub fn state(&self) -> State {
        State {
            known: self.known.clone(),
            held: self.held.iter().map(|h| h.line.clone()).collect(),
            passing_long_line: false,
        }
    }

    /// Takes one parsed line and appends to `out` the records that are in order now: this
    /// line's and those of held lines it is the parent of, or none while it waits itself.
    pub fn place(
        &mut self,
        link: Option<Link>,
        line: &str,
        records: &mut Vec<Record>,
        out: &mut Vec<Record>,
    ) {
        let Some(link) = link else {
            out.append(records);
            return;
        };
        let is_prompt = records.iter().any(|r| matches!(r, Record::Prompt { .. }));
        let waits = !self.trust_unknown && link.parent.is_some_and(|p| !self.is_known(p));
        if is_prompt {
            // A prompt opens a turn whatever came before; held lines it follows belong to
            // the turn before it, so they go first.
            if let Some(parent) = link.parent.filter(|&p| self.is_held(p)) {
                self.let_go_chain_of(parent, out);
            }
        } else if waits {
            let at = records.iter().find_map(|r| r.at().map(str::to_string));
            self.held.push(Held {
                link,
                line: line.into(),
                records: std::mem::take(records),
                at,
            });
            if self.held.len() > MAX_HELD {
                let first = self.held[0].link.id;
                self.let_go_chain_of(first, out);
            }
            return;
        }
        out.append(records);
        self.passed_on(link.id, out);
    }

    /// At the end of what was read: lets go, in file order, the held lines that waited long
    /// enough by `now` (and those without a time); the others stay for the next call.
    pub fn settle(&mut self, now: &str, out: &mut Vec<Record>) {
        let due = crate::clock::before(now, HOLD);
        while let Some(first) = self.held.iter().find(|h| match (&h.at, &due) {
            (Some(at), Some(due)) => at.as_str() < due.as_str(),
            _ => true,
        }) {
            let id = first.link.id;
            self.let_go_chain_of(id, out);
        }
    }

    fn is_known(&self, id: u64) -> bool {
        self.known.contains(&id)
    }

    fn is_held(&self, id: u64) -> bool {
        self.held.iter().any(|h| h.link.id == id)
    }

    /// Lets go the held line `id` after its held ancestors, each followed by its held
    /// descendants.
    fn let_go_chain_of(&mut self, id: u64, out: &mut Vec<Record>) {
        let mut top = id;
        // Bounded: a broken transcript may chain its lines in a circle.
        for _ in 0..self.held.len() {
            match self
                .held
                .iter()
                .find(|h| h.link.id == top)
                .and_then(|h| h.link.parent)
            {
                Some(parent) if self.is_held(parent) => top = parent,
                _ => break,
            }
        }
        if let Some(i) = self.held.iter().position(|h| h.link.id == top) {
            let mut held = self.held.remove(i);
            out.append(&mut held.records);
            self.passed_on(held.link.id, out);
        }
    }

    /// Remembers the id of a line whose records were passed on, then lets go the held lines
    /// waiting for it, in file order.
    fn passed_on(&mut self, id: u64, out: &mut Vec<Record>) {
        if self.known.len() == KNOWN {
            self.known.pop_front();
        }
        self.known.push_back(id);
        while let Some(i) = self.held.iter().position(|h| h.link.parent == Some(id)) {
            let mut child = self.held.remove(i);
            out.append(&mut child.records);
            self.passed_on(child.link.id, out);
        }
    }
}

#[cfg(test)]
mod tests;
