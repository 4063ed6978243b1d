//! Hook payloads of each host, as a hook reads them from stdin; the first byte picks the
//! hook file it came through. A payload that decodes is answered the way the hook would
//! answer it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    let table = throughline_engine::hosts::HOSTS;
    let host = table[usize::from(pick) % table.len()].spec().host;
    // Whichever host's hook file ran it, the payload is answered as its sender's.
    let host = throughline_engine::hosts::calling_host(host, payload);
    if let Ok(event) = throughline_engine::hosts::decode_hook(host, payload) {
        let text = event.prompt.clone().unwrap_or_default();
        for reply in [
            throughline_engine::record::Reply::Inject(text.clone()),
            throughline_engine::record::Reply::Block(text),
        ] {
            if let Some(out) = throughline_engine::hosts::encode_reply(host, event.kind, &reply) {
                // What the host reads must be JSON.
                serde_json::from_str::<serde_json::Value>(&out).expect("a reply is JSON");
            }
        }
    }
});
