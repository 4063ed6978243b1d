//! The redaction corpus: every secret shape in every place a session holds one, and the clean
//! texts beside it that must come out unchanged. Generated from a fixed seed, so the same corpus
//! every run and no literal credential in the repository. The redaction tests hold the redactor
//! to it; the redaction bench reports how much of it is caught.

use std::fs;

/// A deterministic stream of characters for made-up secrets: the same corpus every run, and
/// no literal credential in the repository.
pub struct Letters(pub u64);

impl Letters {
    pub fn take(&mut self, n: usize, alphabet: &str) -> String {
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
pub const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
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
pub fn secret_vectors() -> Vec<(String, String)> {
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
pub fn leak(text: &str, secret: &str, output: &str) -> Option<String> {
    let around = text.replace(secret, " ");
    let chars: Vec<char> = secret.chars().collect();
    chars
        .windows(6.min(chars.len()))
        .map(|w| w.iter().collect::<String>())
        .find(|piece| output.contains(piece.as_str()) && !around.contains(piece.as_str()))
}

/// The clean corpus and generated identifiers a session is full of: commits, UUIDs, digests,
/// base64 images.
pub fn clean_texts() -> Vec<String> {
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
