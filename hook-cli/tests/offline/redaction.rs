//! Secrets in a real transcript's prompt, tool output and answer never reach the store: not
//! `show`, `detail`, `search`, the memory handed on, nor the database file; `doctor` counts them.

use crate::support;

use std::fs;
use std::path::Path;

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

/// A deterministic stream of characters for made-up secrets: the same corpus every run, and
/// no literal credential in the repository.
struct Letters(u64);

impl Letters {
    fn take(&mut self, n: usize, alphabet: &str) -> String {
        let alphabet = alphabet.as_bytes();
        (0..n)
            .map(|_| {
                self.0 = self
                    .0
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                alphabet[(self.0 >> 33) as usize % alphabet.len()] as char
            })
            .collect()
    }
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &str = "0123456789abcdef";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Secrets whose own shape says what they are (a vendor's prefix), and the variable they sit
/// in: found in any place, prose without a keyword included.
fn prefixed(letters: &mut Letters) -> Vec<(&'static str, String)> {
    vec![
        (
            "STRIPE_SECRET_KEY",
            format!("sk_{}_{}", "live", letters.take(24, ALNUM)),
        ),
        (
            "STRIPE_RESTRICTED_KEY",
            format!("rk_{}_{}", "live", letters.take(24, ALNUM)),
        ),
        (
            "STRIPE_TEST_KEY",
            format!("sk_{}_{}", "test", letters.take(24, ALNUM)),
        ),
        (
            "SENDGRID_API_KEY",
            format!(
                "SG.{}.{}",
                letters.take(22, BASE64URL),
                letters.take(43, BASE64URL)
            ),
        ),
        (
            "OPENROUTER_API_KEY",
            format!("sk-or-v1-{}", letters.take(64, HEX)),
        ),
        (
            "PYPI_TOKEN",
            format!("pypi-AgEIcHlwaS5vcmc{}", letters.take(60, BASE64URL)),
        ),
        (
            "DIGITALOCEAN_TOKEN",
            format!("dop_v1_{}", letters.take(64, HEX)),
        ),
        (
            "SHOPIFY_ACCESS_TOKEN",
            format!("shpat_{}", letters.take(32, HEX)),
        ),
        (
            "GITLAB_TOKEN",
            format!("glpat-{}", letters.take(20, BASE64URL)),
        ),
        ("NPM_TOKEN", format!("npm_{}", letters.take(36, ALNUM))),
        ("HF_TOKEN", format!("hf_{}", letters.take(34, ALNUM))),
        (
            "ANTHROPIC_API_KEY",
            format!("sk-ant-api03-{}", letters.take(93, BASE64URL)),
        ),
        (
            "OPENAI_API_KEY",
            format!("sk-proj-{}", letters.take(48, BASE64URL)),
        ),
        (
            "AWS_ACCESS_KEY_ID",
            format!(
                "AKIA{}",
                letters.take(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
            ),
        ),
        ("GITHUB_TOKEN", format!("ghp_{}", letters.take(36, ALNUM))),
        (
            "SLACK_BOT_TOKEN",
            format!(
                "xoxb-{}-{}",
                letters.take(12, "0123456789"),
                letters.take(24, ALNUM)
            ),
        ),
        (
            "GOOGLE_API_KEY",
            format!("AIza{}", letters.take(35, BASE64URL)),
        ),
    ]
}

/// Secrets that look like any other word: only the name or the words before them say so.
fn contextual(letters: &mut Letters) -> Vec<String> {
    vec![
        "hunter2-Xy9".to_string(),
        "S3cr3t!Pass".to_string(),
        format!("p@ss{}", letters.take(10, ALNUM)),
        letters.take(16, ALNUM),
        letters.take(40, HEX),
    ]
}

/// Names a contextual secret is given, as written in `.env` files and in code.
const NAMES: &[&str] = &[
    "PASSWORD",
    "DB_PASSWORD",
    "SECRET_KEY",
    "API_KEY",
    "STRIPE_SECRET_KEY",
    "AUTH_TOKEN",
    "CLIENT_SECRET",
    "password",
];

/// Where a secret is met, `{NAME}`/`{name}` its variable in upper and lower case, `{v}` the
/// secret: a prompt, a `.env` file, JSON (also as a tool call holds it, escaped), YAML, TOML,
/// a shell command, a header, a URL, a log line and code.
const KEYED_PLACES: &[&str] = &[
    "{NAME}={v}",
    "export {NAME}=\"{v}\"",
    "{name}='{v}'",
    "{\"{name}\": \"{v}\", \"region\": \"eu-west-1\"}",
    "{\"command\":\"printf '{NAME}={v}\\n' >> .env\"}",
    "db:\n  {name}: {v}\n  timeout: 30",
    "{name} = \"{v}\"",
    "[client]\n{name} = {v}\nhost = db",
    "curl -s -X POST https://api.example.com/login -d {name}={v}",
    "x-api-key: {v}",
    "curl -H \"Authorization: Bearer {v}\" https://api.example.com/v1/me",
    "GET https://api.example.com/v1/items?page=2&access_token={v} HTTP/1.1",
    "https://app.example.com/oauth/callback?code={v}&state=af0ifjsldkj",
    "https://maps.example.com/api/geocode?address=Berlin&key={v}",
    "2026-03-04T05:06:07Z WARN client: request failed (401) token={v} retry=3",
    "client = Client(api_key=\"{v}\", timeout=30)",
    "the password is {v}",
    "use this token it's \"{v}\" and tell me why it fails",
    "my secret: {v} (rotate it later)",
    "this is the new key: {v}",
    "ok, my API key is {v}",
    "mysql -u root -p{v} app < dump.sql",
    "mongosh --username admin --password {v} --host db",
    "pg_dump --password={v} app",
];

/// Places that give no hint: only a shape of its own is caught there, or that it is all the
/// text there is.
const BARE_PLACES: &[&str] = &[
    "{v}",
    "Here is the key I use: {v} - why does it fail?",
    "it still says unauthorized with {v} after I rotated it",
    "[{\"type\":\"text\",\"text\":\"{v}\"}]",
];

fn place(template: &str, name: &str, secret: &str) -> String {
    template
        .replace("{NAME}", name)
        .replace("{name}", &name.to_lowercase())
        .replace("{v}", secret)
}

/// Every secret in every place, with the secret it holds.
fn secret_vectors() -> Vec<(String, String)> {
    let mut letters = Letters(47);
    let mut vectors = Vec::new();
    for (name, secret) in prefixed(&mut letters) {
        for template in KEYED_PLACES.iter().chain(BARE_PLACES) {
            vectors.push((place(template, name, &secret), secret.clone()));
        }
    }
    for secret in contextual(&mut letters) {
        for name in NAMES {
            for template in KEYED_PLACES {
                vectors.push((place(template, name, &secret), secret.clone()));
            }
        }
    }
    let basic = "YWRtaW46aHVudGVyMi1YeTk=";
    vectors.push((
        format!("curl -H 'Authorization: Basic {basic}' https://x.example.com"),
        basic.into(),
    ));
    let account_key = format!("{}==", letters.take(86, BASE64));
    vectors.push((
        format!("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={account_key};EndpointSuffix=core.windows.net"),
        account_key,
    ));
    vectors
}

/// Where `output` still shows part of `secret`: any six characters of it in a row that the
/// text around the secret does not hold itself. A secret cut short would leak its tail.
fn leak(text: &str, secret: &str, output: &str) -> Option<String> {
    let around = text.replace(secret, " ");
    let chars: Vec<char> = secret.chars().collect();
    chars
        .windows(6.min(chars.len()))
        .map(|w| w.iter().collect::<String>())
        .find(|piece| output.contains(piece.as_str()) && !around.contains(piece.as_str()))
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

/// The clean corpus and generated identifiers a session is full of: commits, UUIDs, digests,
/// base64 images.
fn clean_texts() -> Vec<String> {
    let file = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/redaction/clean.txt"
    ))
    .unwrap();
    let mut texts: Vec<String> = file
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    let mut letters = Letters(11);
    for _ in 0..40 {
        let sha = letters.take(40, HEX);
        texts.push(format!("commit {sha}\nAuthor: Ann <ann@example.com>"));
        texts.push(format!(
            "git checkout {} && git cherry-pick {}",
            &sha[..7],
            &sha[..12]
        ));
        let uuid = format!(
            "{}-{}-4{}-a{}-{}",
            letters.take(8, HEX),
            letters.take(4, HEX),
            letters.take(3, HEX),
            letters.take(3, HEX),
            letters.take(12, HEX)
        );
        texts.push(format!(
            "{{\"session_id\": \"{uuid}\", \"request_id\": \"req_{}\"}}",
            letters.take(24, ALNUM)
        ));
        texts.push(format!(
            "image: ghcr.io/acme/app@sha256:{}",
            letters.take(64, HEX)
        ));
        texts.push(format!(
            "![diagram](data:image/png;base64,iVBORw0KGgo{}=)",
            letters.take(400, BASE64)
        ));
    }
    texts
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
