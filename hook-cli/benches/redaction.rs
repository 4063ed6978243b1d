//! What redaction costs: the redactor over ordinary text, over text that names tokens and
//! passwords without holding any (the anchors fire, the rules' regexes run and find nothing),
//! and over text that holds secrets, as a ratio to the ordinary text.
//!
//!     cargo bench -p throughline --bench redaction [-- --mib 4]
//!
//! Two costs: warm, the redactor of a long-lived process (the app, an import) over `--mib`
//! MiB of each text; cold, one hook's first call, which builds the anchor automaton and
//! compiles the regexes the text needs. First, how much of the redaction corpus (every secret
//! shape in every place, and clean texts beside it) comes out as it should. Prints Markdown. A
//! measurement: it always exits 0; the redaction tests hold the bar.

use std::hint::black_box;
use std::time::{Duration, Instant};

use throughline::redact::{self, Counts, Redactor};

#[path = "../tests/support/redaction_corpus.rs"]
#[allow(dead_code)]
mod corpus;

/// An answer about code with no word any rule looks for.
const ORDINARY: &str = "The parser reads one line at a time and keeps the offset of the \
last complete line, so a file that grows while it is read is finished on the next call.\n\
fn parse_line(&mut self, line: &str, out: &mut Vec<Record>) -> Result<Option<Link>, String> {\n\
    let entry: Entry = serde_json::from_str(line).map_err(|e| format!(\"not JSON: {e}\"))?;\n\
2026-03-04T05:06:07Z INFO server: listening on 0.0.0.0:8080 (commit 3f2a1bc9)\n\
test result: ok. 285 passed; 0 failed; 0 ignored; finished in 0.37s\n";

/// The clean corpus of the redaction test: code, config and logs full of "token",
/// "password" and "secret", none of them a secret.
const NAMED: &str = include_str!("../tests/fixtures/redaction/clean.txt");

/// Lines that each hold a secret, put between the clean corpus' lines.
fn with_secrets() -> String {
    let stripe = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    let secrets = [
        format!("STRIPE_SECRET_KEY={stripe}"),
        "db:\n  password: hunter2-Xy9".to_string(),
        "curl -H 'x-api-key: 7f3kQ9zLm2pX' https://api.example.com".to_string(),
        "the password is S3cr3t!Pass".to_string(),
        "mysql -u root -phunter2 app".to_string(),
        "GET /callback?code=4a7Fq9ZkPm2x&state=af0 HTTP/1.1".to_string(),
    ];
    let mut out = String::new();
    for (i, line) in NAMED.lines().enumerate() {
        out.push_str(line);
        out.push('\n');
        if i % 8 == 0 {
            out.push_str(&secrets[i / 8 % secrets.len()]);
            out.push('\n');
        }
    }
    out
}

/// `unit` repeated to about `bytes`, cut into texts of about 4 KiB (a prompt, an answer, a
/// tool output).
fn texts(unit: &str, bytes: usize) -> Vec<String> {
    let mut texts = Vec::new();
    let mut total = 0;
    let mut text = String::new();
    while total < bytes {
        for line in unit.lines() {
            text.push_str(line);
            text.push('\n');
            if text.len() >= 4096 {
                total += text.len();
                texts.push(std::mem::take(&mut text));
            }
        }
    }
    texts
}

/// Time per MiB over `texts` with one redactor, after a first pass that compiles its rules.
fn warm(texts: &[String]) -> (Duration, u64) {
    let redactor = Redactor::new(&[]).unwrap();
    let mut counts = Counts::new();
    for text in texts {
        black_box(redactor.redact(text, &mut counts));
    }
    let mut counts = Counts::new();
    let started = Instant::now();
    for text in texts {
        black_box(redactor.redact(text, &mut counts));
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let per_mib = started.elapsed().mul_f64((1 << 20) as f64 / bytes as f64);
    (per_mib, counts.values().sum())
}

/// Time per MiB of the scan for secrets found before (decision 0108) over `texts`, with 50
/// remembered, and how many it replaced.
fn remembered(texts: &[String]) -> (Duration, u64) {
    let marks: std::collections::HashSet<i64> = (0..50)
        .filter_map(|i| redact::mark(&format!("k{i:02}x7Qm2vR9tL4pZ8wN3bY6")))
        .collect();
    let mut counts = Counts::new();
    let started = Instant::now();
    for text in texts {
        black_box(redact::redact_remembered(
            text,
            |m| marks.contains(&m),
            &mut counts,
        ));
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let per_mib = started.elapsed().mul_f64((1 << 20) as f64 / bytes as f64);
    (per_mib, counts.values().sum())
}

/// The median time of a hook's first call on one text: a new redactor each time.
fn cold(text: &str) -> Duration {
    let mut times: Vec<Duration> = (0..31)
        .map(|_| {
            let started = Instant::now();
            let redactor = Redactor::new(&[]).unwrap();
            black_box(redactor.redact(text, &mut Counts::new()));
            started.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// How many of the corpus' secrets are redacted whole, and how many clean texts are changed.
fn caught() {
    let redactor = Redactor::builtin();
    let vectors = corpus::secret_vectors();
    let whole = vectors
        .iter()
        .filter(|(text, secret)| {
            let output = redactor.redact(text, &mut Counts::new());
            corpus::leak(text, secret, &output).is_none()
        })
        .count();
    let clean = corpus::clean_texts();
    let changed = clean
        .iter()
        .filter(|text| redactor.redact(text, &mut Counts::new()) != text.as_str())
        .count();
    println!("| corpus | texts | as they should be | rate |");
    println!("|---|---|---|---|");
    println!(
        "| a secret in every shape and place | {} | {whole} redacted whole | {:.1}% |",
        vectors.len(),
        100.0 * whole as f64 / vectors.len() as f64
    );
    println!(
        "| clean texts (code, config, logs, ids) | {} | {changed} changed | {:.1}% false positives |",
        clean.len(),
        100.0 * changed as f64 / clean.len() as f64
    );
    println!();
}

fn main() {
    caught();
    let args: Vec<String> = std::env::args().collect();
    let mib: f64 = args
        .iter()
        .position(|a| a == "--mib")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("--mib takes a number"))
        .unwrap_or(4.0);
    let bytes = (mib * (1 << 20) as f64) as usize;
    let secrets = with_secrets();
    let cases = [
        ("ordinary text", ORDINARY),
        ("names tokens and passwords, no secret", NAMED),
        ("a secret every 8 lines", secrets.as_str()),
    ];
    println!("| text | warm, per MiB | ratio | replaced | cold, first 4 KiB | ratio |");
    println!("|---|---|---|---|---|---|");
    let mut base = None;
    let mut scans = Vec::new();
    for (name, unit) in cases {
        let texts = texts(unit, bytes);
        let (per_mib, replaced) = warm(&texts);
        let first = cold(&texts[0]);
        let (base_warm, base_cold) = *base.get_or_insert((per_mib, first));
        println!(
            "| {name} | {:.2} ms | {:.1}x | {replaced} | {:.2} ms | {:.1}x |",
            per_mib.as_secs_f64() * 1e3,
            per_mib.as_secs_f64() / base_warm.as_secs_f64(),
            first.as_secs_f64() * 1e3,
            first.as_secs_f64() / base_cold.as_secs_f64(),
        );
        scans.push((name, remembered(&texts), base_warm));
    }
    println!();
    println!("| text | scan for 50 remembered secrets, per MiB | ratio to redacting ordinary text | replaced |");
    println!("|---|---|---|---|");
    for (name, (per_mib, replaced), base_warm) in scans {
        println!(
            "| {name} | {:.2} ms | {:.2}x | {replaced} |",
            per_mib.as_secs_f64() * 1e3,
            per_mib.as_secs_f64() / base_warm.as_secs_f64(),
        );
    }
}
