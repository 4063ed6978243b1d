//! One module per host. Each decodes its hook payloads into a [`HookEvent`], parses its
//! transcript lines into [`Record`](crate::record::Record)s and knows where its transcripts live.

pub mod claude;

use std::path::PathBuf;

use crate::model::Host;
pub use crate::record::{EventKind, FoundTranscript, HookEvent, HostProcess};
use crate::record::{LineParser, Reply};

pub fn decode_hook(host: Host, payload: &[u8]) -> Result<HookEvent, String> {
    match host {
        Host::Claude => claude::decode_hook(payload),
    }
}

/// The host's stdout form of a reply, if the event can carry one.
pub fn encode_reply(host: Host, event: EventKind, reply: &Reply) -> Option<String> {
    match host {
        Host::Claude => claude::encode_reply(event, reply),
    }
}

/// The host process a hook runs under, when the host registers its processes.
pub fn owner_process(host: Host) -> Option<HostProcess> {
    match host {
        Host::Claude => claude::process::owner(),
    }
}

/// The session of the host process this command runs under (e.g. `/tl` from the host).
pub fn owner_session(host: Host) -> Option<String> {
    match host {
        Host::Claude => claude::process::owner_session(),
    }
}

pub fn line_parser(host: Host) -> Box<dyn LineParser> {
    match host {
        Host::Claude => Box::new(claude::TranscriptParser::default()),
    }
}

pub fn find_transcripts(
    host: Host,
    root: Option<PathBuf>,
) -> std::io::Result<Vec<FoundTranscript>> {
    match host {
        Host::Claude => claude::find_transcripts(root),
    }
}
