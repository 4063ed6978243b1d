//! The context window of Claude models: which ids run in 1M tokens, since which release of
//! Claude Code a bare id of a native 1M model does, and the smaller window the client
//! compacts a 1M session against by itself since 2.1.334.

/// The standard context window of Claude models, in tokens.
pub const STANDARD_WINDOW: u64 = 200_000;
/// The window of the 1M-context variants (model ids ending in `[1m]`).
pub const LONG_WINDOW: u64 = 1_000_000;

/// Models whose own window is 1M tokens without the `[1m]` suffix, as Claude Code's model
/// catalog lists them: Opus 4.7 and 4.8, and every model of generation 5
/// (`claude-opus-5-5`, `claude-sonnet-5`, `claude-haiku-5-5`, ...).
const NATIVE_1M: &[&str] = &["claude-opus-4-7", "claude-opus-4-8"];

/// The first client release seen to run those models in 1M without the suffix: 2.1.197
/// gives a bare `claude-opus-4-8` or `claude-sonnet-5` 200k (its statusline says so), 2.1.332
/// gives them 1M. Releases in between are taken to be like 2.1.197, so a gauge errs full.
const NATIVE_1M_SINCE: [u64; 3] = [2, 1, 332];

/// With no threshold set, 2.1.334 compacts a 1M session against a window of its own choosing,
/// not the whole million: the scripted model reporting 1,000 more tokens a turn, it compacted
/// when the context reached 367,000 and not at 366,000, that is 400,000 less its 33,000
/// (docs/hosts/claude-code.md, "Compaction"). 2.1.333 compacted at 967,000.
const OWN_WINDOW_OF_1M: u64 = 400_000;
const OWN_WINDOW_OF_1M_SINCE: [u64; 3] = [2, 1, 334];

/// Whether `model` (any spelling: a provider prefix, a date, `-fast`) is a native 1M model.
fn native_1m(model: &str) -> bool {
    let Some(at) = model.find("claude-") else {
        return false;
    };
    let id = &model[at..];
    if NATIVE_1M.iter().any(|m| {
        id.strip_prefix(m)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    }) {
        return true;
    }
    // claude-<family>-<major>[-<minor>...]; the old naming puts the version first
    // (claude-3-7-sonnet).
    let mut parts = id.split('-').skip(1);
    let family_first = parts
        .next()
        .is_some_and(|f| f.starts_with(|c: char| c.is_ascii_alphabetic()));
    let major = parts.next().and_then(|m| m.parse::<u32>().ok());
    family_first && major.is_some_and(|m| (5..1000).contains(&m))
}

/// Whether `version` (`2.1.332`) is `since` or a later release; an unknown one is not.
fn release_at_least(version: Option<&str>, since: [u64; 3]) -> bool {
    let parts: Option<Vec<u64>> =
        version.and_then(|v| v.split('.').map(|p| p.parse().ok()).collect());
    parts.is_some_and(|v| v.as_slice() >= since.as_slice())
}

/// Whether `version` is a release that runs native 1M models in 1M.
fn runs_native_1m(version: Option<&str>) -> bool {
    release_at_least(version, NATIVE_1M_SINCE)
}

/// The window the client compacts a session of `window` tokens against when no threshold is
/// set: its own smaller one for a 1M session since 2.1.334, else the window itself. An
/// unknown release is taken to be the newest, so a gauge errs early rather than late.
pub fn own_compaction_window(window: u64, client_version: Option<&str>) -> u64 {
    let older = client_version.is_some_and(|v| !release_at_least(Some(v), OWN_WINDOW_OF_1M_SINCE));
    if window >= LONG_WINDOW && !older {
        OWN_WINDOW_OF_1M
    } else {
        window
    }
}

/// The context window a session works in: 1M when the model id carries the `[1m]` suffix, or
/// names a native 1M model and `client_version` runs those in 1M, or when the context already
/// exceeds the standard window (the id does not always carry the suffix).
pub fn context_window(model: Option<&str>, client_version: Option<&str>, used: u64) -> u64 {
    let long_model = model.is_some_and(|m| {
        let m = m.to_ascii_lowercase();
        m.ends_with("[1m]") || (native_1m(&m) && runs_native_1m(client_version))
    });
    if long_model || used > STANDARD_WINDOW {
        LONG_WINDOW
    } else {
        STANDARD_WINDOW
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session_window;
    use throughline_core::model::Session;

    #[test]
    fn a_session_started_on_a_1m_model_keeps_its_window_until_it_switches_model() {
        let session = |start: Option<&str>| Session {
            id: 1,
            host: crate::claude::HOST,
            session_id: "s".into(),
            project: None,
            cwd: None,
            transcript_path: None,
            model: None,
            started_at: None,
            last_activity: None,
            ended_at: None,
            end_reason: None,
            start_source: None,
            turns: 0,
            start_model: start.map(Into::into),
            client_version: Some("2.1.332".into()),
            context_window: None,
            branch: None,
        };
        let long = session(Some("claude-sonnet-4-6[1m]"));
        assert_eq!(
            session_window(&long, Some("claude-sonnet-4-6"), 10),
            LONG_WINDOW
        );
        assert_eq!(session_window(&long, None, 0), LONG_WINDOW);
        assert_eq!(
            session_window(&long, Some("claude-haiku-4-5"), 10),
            STANDARD_WINDOW
        );
        let standard = session(Some("claude-sonnet-4-6"));
        assert_eq!(
            session_window(&standard, Some("claude-sonnet-4-6"), 10),
            STANDARD_WINDOW
        );
        assert_eq!(
            session_window(&session(None), Some("claude-sonnet-4-6"), 10),
            STANDARD_WINDOW
        );
        assert_eq!(
            session_window(
                &session(Some("claude-opus-5-5")),
                Some("claude-opus-5-5"),
                10
            ),
            LONG_WINDOW
        );
        // A window the host reports is the window.
        let reported = Session {
            context_window: Some(258_400),
            ..session(Some("gpt-5.5"))
        };
        assert_eq!(session_window(&reported, Some("gpt-5.5"), 300_000), 258_400);
    }

    #[test]
    fn the_window_is_200k_unless_the_model_or_the_usage_says_1m() {
        assert_eq!(
            context_window(Some("claude-sonnet-4-5"), None, 150_000),
            200_000
        );
        assert_eq!(context_window(None, None, 0), 200_000);
        assert_eq!(
            context_window(Some("claude-sonnet-4-5"), None, 200_000),
            200_000
        );
        assert_eq!(
            context_window(Some("claude-sonnet-4-5[1m]"), None, 10),
            1_000_000
        );
        assert_eq!(
            context_window(Some("claude-opus-4-1[1M]"), None, 10),
            1_000_000
        );
        assert_eq!(
            context_window(Some("claude-sonnet-4-5"), None, 200_001),
            1_000_000
        );
    }

    #[test]
    fn native_1m_models_are_known_in_every_spelling_on_the_clients_that_run_them_so() {
        let context_window = |model, used| context_window(model, Some("2.1.332"), used);
        for long in [
            "claude-opus-5-5",
            "claude-opus-4-8",
            "claude-opus-4-7-20260101",
            "us.anthropic.claude-opus-5-5",
            "claude-sonnet-5",
            "claude-haiku-5-5",
            "claude-opus-6",
        ] {
            assert_eq!(context_window(Some(long), 10), LONG_WINDOW, "{long}");
        }
        for standard in [
            "claude-opus-4-6",
            "claude-opus-4-5",
            "claude-sonnet-4-6",
            "claude-haiku-4-5-20251001",
            "claude-3-7-sonnet",
            "claude-opus-4-80",
            "gpt-5",
        ] {
            assert_eq!(
                context_window(Some(standard), 10),
                STANDARD_WINDOW,
                "{standard}"
            );
        }
        // 2.1.197 runs them in 200k unless the id says [1m]; an unknown client likewise.
        for older in [Some("2.1.197"), Some("2.1.331"), Some("next"), None] {
            let window = |m| super::context_window(Some(m), older, 10);
            assert_eq!(window("claude-opus-4-8"), STANDARD_WINDOW, "{older:?}");
            assert_eq!(window("claude-opus-4-8[1m]"), LONG_WINDOW, "{older:?}");
        }
        assert_eq!(
            super::context_window(Some("claude-opus-5-5"), Some("2.1.400"), 10),
            LONG_WINDOW
        );
    }

    #[test]
    fn since_2_1_334_the_client_compacts_a_1m_session_against_400k_by_itself() {
        assert_eq!(own_compaction_window(1_000_000, Some("2.1.333")), 1_000_000);
        assert_eq!(own_compaction_window(1_000_000, Some("2.1.334")), 400_000);
        assert_eq!(own_compaction_window(1_000_000, Some("2.2.0")), 400_000);
        // Not knowing the release, the earlier point.
        assert_eq!(own_compaction_window(1_000_000, None), 400_000);
        assert_eq!(own_compaction_window(200_000, Some("2.1.334")), 200_000);
    }
}
