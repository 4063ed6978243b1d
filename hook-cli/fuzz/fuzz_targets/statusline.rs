//! The JSON Claude Code pipes to a statusLine command.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(input) = throughline_engine::hosts::claude::decode_status(data) {
        // What the statusline prints from it must be a number it can format.
        if let Some(window) = input.window {
            let _ = throughline_engine::model::short_tokens(window);
        }
        if let Some(used) = input.used_percentage {
            assert!(used.is_finite(), "{used}");
        }
    }
});
