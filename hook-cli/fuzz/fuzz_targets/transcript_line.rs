//! Transcript lines of each host through its line parser, as ingest feeds them: one parser
//! per transcript, line after line (its state carries over), then every stored text through
//! the redactor. The first byte picks the host.
#![no_main]

use libfuzzer_sys::fuzz_target;
use throughline_engine::record::Record;
use throughline_engine::redact::{Counts, Redactor};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let table = throughline_engine::hosts::HOSTS;
    let host = table[usize::from(pick) % table.len()].spec().host;
    let mut parser = throughline_engine::hosts::line_parser(host, std::path::Path::new("/nonexistent/s.jsonl"));
    let text = String::from_utf8_lossy(rest);
    let mut records = Vec::new();
    for line in text.split('\n') {
        let _ = parser.parse_line(line, &mut records);
    }
    let mut counts = Counts::new();
    for record in &records {
        let text = match record {
            Record::Prompt { text, .. } | Record::Answer { text, .. } => text,
            Record::Detail { body, .. } => body,
            Record::Summary { text } => text,
            _ => continue,
        };
        let out = Redactor::builtin().redact(text, &mut counts);
        // A placeholder stands in for a secret; what is not a secret is never lost.
        if counts.is_empty() {
            assert_eq!(out.as_ref(), text.as_str());
        }
    }
});
