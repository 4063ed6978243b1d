use super::*;
use throughline_core::model::{Message, Role};
use throughline_store::DueTurn;

fn due(code: &str, prompt: &str, answer: &str) -> DueTurn {
    let message = |role, text: &str| Message {
        role,
        text: text.into(),
        at: None,
    };
    DueTurn {
        id: 0,
        code: code.into(),
        messages: vec![
            message(Role::User, prompt),
            message(Role::Assistant, answer),
        ],
    }
}

#[test]
fn the_prompt_holds_every_turn_once_bounded_and_asks_for_short_verbatim_lines() {
    let long = "x".repeat(50_000);
    let turns = [
        due(
            "aaaaaaa",
            "Set the port to 8443.",
            "Done: port 8443 in config/app.toml.",
        ),
        due("bbbbbbb", &long, &long),
    ];
    let prompt = prompt_for(&turns);
    assert!(prompt.user.contains("<turn id=\"aaaaaaa\">"));
    assert!(prompt.user.contains("port 8443 in config/app.toml"));
    assert!(prompt.user.contains("<turn id=\"bbbbbbb\">"));
    assert!(
        prompt.user.len() < 8_000,
        "a huge turn is cut: {}",
        prompt.user.len()
    );
    assert!(prompt
        .system
        .contains(&format!("at most {LINE_CHARS} characters")));
    assert!(prompt.system.contains("exactly as written"));
    assert!(prompt.system.contains("language"));
    assert_eq!(prompt.turns, 2);
}

#[test]
fn each_turn_gets_its_line_or_none_when_the_answer_is_bad_for_it() {
    let turns = [
        due("aaaaaaa", "a", "a"),
        due("bbbbbbb", "b", "b"),
        due("ccccccc", "c", "c"),
        due("ddddddd", "d", "d"),
        due("eeeeeee", "e", "e"),
    ];
    let too_long = "y".repeat(LINE_CHARS + 1);
    let answer = format!(
        "Here are the lines:\n\
         - `aaaaaaa`: Port set to 8443 in config/app.toml.\n\
         bbbbbbb: first part\n\
         and it runs on\n\
         ccccccc: {too_long}\n\
         ddddddd: once\n\
         ddddddd: twice\n\
         zzzzzzz: a turn not asked for\n\
         eeeeeee:   \n"
    );
    let lines = parse_answer(&answer, &turns);
    assert_eq!(
        lines.get("aaaaaaa").map(String::as_str),
        Some("Port set to 8443 in config/app.toml.")
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(parse_answer("", &turns).is_empty());
    assert!(parse_answer("no lines at all\n\n", &turns).is_empty());
}

#[test]
fn the_day_starts_at_midnight_utc() {
    assert_eq!(
        start_of_day("2026-12-01T13:39:32.123Z"),
        "2026-12-01T00:00:00.000Z"
    );
    assert_eq!(start_of_day("odd"), "odd");
}

#[test]
fn a_backend_that_cannot_run_says_what_to_set() {
    let home = Home::at("/nonexistent");
    let config = |backend| Config {
        summary_backend: backend,
        ..Config::default()
    };
    assert!(backend(&config(SummaryBackend::Off), &home)
        .unwrap()
        .is_none());
    let err = backend(&config(SummaryBackend::Openai), &home)
        .err()
        .unwrap();
    assert!(err.contains("summary_model"), "{err}");
    let keyed = Config {
        summary_api_key: "sk-test".into(),
        ..config(SummaryBackend::Anthropic)
    };
    let b = backend(&keyed, &home).unwrap().unwrap();
    assert_eq!((b.name(), b.model()), ("anthropic", "claude-haiku-4-5"));
    let b = backend(&config(SummaryBackend::Claude), &home)
        .unwrap()
        .unwrap();
    assert_eq!((b.name(), b.model()), ("claude", "haiku"));
}
