//! Secrets in a real transcript's prompt, tool output and answer never reach the store: not
//! `show`, `detail`, `search`, the memory handed on, nor the database file; `doctor` counts them.

use crate::support;

use std::fs;
use std::path::Path;

use support::redaction_corpus::{clean_texts, leak, secret_vectors, Letters, BASE64URL};
use support::store_env::StoreEnv;
use throughline::redact::{Counts, Redactor};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-2.1.197");
const SESSION: &str = "f839b538-b1ae-45df-beaa-8b044d1f240c";

const AWS_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const GITHUB: &str = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY";
const ANTHROPIC: &str = "sk-ant-api03-Zx8vQ2mN4pL6rT0yU1wE3sD5fG7hJ9kA-bC_dE2fG4hJ6kL8mN0pQ";
const PRIVATE: &str = "tulip-is-the-staging-password";

/// The fixture session with a secret put into its first prompt, a tool output and an answer.
fn with_secrets() -> String {
    let text = fs::read_to_string(Path::new(FIXTURES).join(format!("transcripts/{SESSION}.jsonl")))
        .unwrap();
    let text = text.replacen(
        "Read app.py and tell me what it does.",
        &format!("Read app.py and tell me what it does. My key is {ANTHROPIC} <private>{PRIVATE}</private>"),
        1,
    );
    let text = text.replacen(
        "\"content\":\"34.6\"",
        &format!("\"content\":\"34.6\\naws_access_key_id = {AWS_ID}\\naws_secret_access_key = {AWS_SECRET}\""),
        1,
    );
    let text = text.replacen(
        "It prints 35.6.",
        &format!("It prints 35.6 (token {GITHUB})."),
        1,
    );
    assert_eq!(text.matches(ANTHROPIC).count(), 1, "the fixture changed");
    assert_eq!(text.matches(AWS_SECRET).count(), 1, "the fixture changed");
    assert_eq!(text.matches(GITHUB).count(), 1, "the fixture changed");
    text
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in [AWS_ID, AWS_SECRET, GITHUB, ANTHROPIC, PRIVATE] {
        assert!(!text.contains(secret), "{what} holds {secret}");
    }
}

#[test]
fn imported_secrets_are_placeholders_in_every_view_and_counted_by_doctor() {
    let env = StoreEnv::new();
    env.append_to(&format!("{SESSION}.jsonl"), with_secrets().as_bytes());
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(out.status.success(), "{out:?}");

    let show = env.throughline(&["show", SESSION, "--json"], b"");
    let shown = String::from_utf8_lossy(&show.stdout);
    assert_no_secret("show", &shown);
    assert!(shown.contains("[REDACTED:anthropic-key]"), "{shown}");
    assert!(shown.contains("[REDACTED:private]"));
    assert!(shown.contains("[REDACTED:github-token]"));

    let sessions = env.json(&["show", SESSION, "--json"]);
    let turns = sessions["turns"].as_array().unwrap();
    let second = turns[1]["code"].as_str().unwrap();
    let detail = env.throughline(&["detail", second, "--json"], b"");
    let detail = String::from_utf8_lossy(&detail.stdout);
    assert_no_secret("detail", &detail);
    assert!(detail.contains("[REDACTED:aws-secret]"), "{detail}");
    assert!(detail.contains("[REDACTED:aws-key-id]"));

    for word in [
        "AKIAIOSFODNN7",
        "wJalrXUtnFEMI",
        "R4nd0mT0k3n",
        "tulip",
        "REDACTED",
    ] {
        let found = env.throughline(&["search", word, "--all", "--json"], b"");
        let found = String::from_utf8_lossy(&found.stdout);
        assert_no_secret("search", &found);
        if word == "REDACTED" {
            assert!(
                found.contains("[REDACTED:"),
                "placeholders are searchable: {found}"
            );
        } else {
            assert_eq!(found.trim(), "[]", "{word}: {found}");
        }
    }

    let recall = env.throughline(&["recall", SESSION, "--json"], b"");
    assert_no_secret("recall", &String::from_utf8_lossy(&recall.stdout));

    let db = fs::read(env.home.join("throughline.db")).unwrap();
    let mut wal = env.home.join("throughline.db").into_os_string();
    wal.push("-wal");
    let wal = fs::read(wal).unwrap_or_default();
    assert_no_secret("the database", &String::from_utf8_lossy(&db));
    assert_no_secret("the WAL", &String::from_utf8_lossy(&wal));

    let doctor = env.throughline(&["doctor", "--json"], b"");
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("5 secret(s) replaced by a placeholder before storage"),
        "{report}"
    );
}

#[test]
fn a_secret_quoted_by_a_parse_error_is_not_printed_by_import() {
    let env = StoreEnv::new();
    let secret = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    // A message that is a string, not an object: the parse error quotes it.
    let broken = serde_json::json!({"type": "user", "message": format!("key {secret}")});
    env.append_to(
        &format!("{SESSION}.jsonl"),
        format!("{}{broken}\n", with_secrets()).as_bytes(),
    );
    for json in [false, true] {
        let mut args = vec!["import", "--from"];
        let projects = env.projects();
        args.push(&projects);
        if json {
            args.push("--json");
        }
        let out = env.throughline(&args, b"");
        assert!(out.status.success(), "{out:?}");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("[REDACTED:stripe-key]"), "{said}");
        assert!(!said.contains(&secret), "{said}");
        // The second import reads nothing new: start again.
        fs::remove_dir_all(&env.home).unwrap();
    }
}

#[test]
fn a_pattern_the_person_adds_is_redacted_too_and_a_bad_one_stops_capture_with_a_reason() {
    let env = StoreEnv::new();
    fs::create_dir_all(&env.home).unwrap();
    fs::write(
        env.home.join("config.json"),
        r#"{"redact_patterns": ["inventory service"]}"#,
    )
    .unwrap();
    env.append_to(&format!("{SESSION}.jsonl"), with_secrets().as_bytes());
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(out.status.success(), "{out:?}");
    let found = env.throughline(&["search", "inventory", "--all", "--json"], b"");
    assert_eq!(String::from_utf8_lossy(&found.stdout).trim(), "[]");

    fs::write(
        env.home.join("config.json"),
        r#"{"redact_patterns": ["(unclosed"]}"#,
    )
    .unwrap();
    let out = env.throughline(&["import", "--from", &env.projects()], b"");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("(unclosed") && said.contains("nothing is stored"),
        "{said}"
    );
}

#[test]
fn every_secret_shape_in_every_place_is_redacted_whole() {
    let vectors = secret_vectors();
    assert!(vectors.len() > 500, "{} vectors", vectors.len());
    let mut missed = Vec::new();
    for (text, secret) in &vectors {
        let output = Redactor::builtin().redact(text, &mut Counts::new());
        if let Some(piece) = leak(text, secret, &output) {
            missed.push(format!("{text:?} -> {output:?} (shows {piece:?})"));
        }
    }
    assert!(
        missed.is_empty(),
        "{} of {} vectors leak:\n{}",
        missed.len(),
        vectors.len(),
        missed.join("\n")
    );
}

/// A key pasted as the whole prompt (asked for, then given) or printed alone by a tool has no
/// name or prefix to go by: it is judged by how random it looks. Most draws of a key's alphabet
/// are caught; a short one that happens to read like words is not (the rate is the bar).
#[test]
fn most_keys_given_alone_are_redacted() {
    let mut letters = Letters(5);
    for (len, bar) in [(16, 80), (22, 90), (32, 95), (40, 95)] {
        let keys: Vec<String> = (0..200).map(|_| letters.take(len, BASE64URL)).collect();
        let caught = keys
            .iter()
            .filter(|key| {
                let text = format!("{key}\n");
                let out = Redactor::builtin().redact(&text, &mut Counts::new());
                leak(&text, key, &out).is_none()
            })
            .count();
        assert!(
            caught * 100 >= bar * keys.len(),
            "{len} characters: {caught} of 200"
        );
    }
}

#[test]
fn clean_text_stays_as_it_is() {
    let texts = clean_texts();
    assert!(texts.len() >= 400, "{} clean texts", texts.len());
    let changed: Vec<String> = texts
        .iter()
        .filter_map(|text| {
            let output = Redactor::builtin().redact(text, &mut Counts::new());
            (output != text.as_str()).then(|| format!("{text:?} -> {output:?}"))
        })
        .collect();
    // At most one in a hundred may be touched; none is today.
    assert!(
        changed.len() * 100 <= texts.len() && changed.is_empty(),
        "{} of {} clean texts changed:\n{}",
        changed.len(),
        texts.len(),
        changed.join("\n")
    );
}
