//! Secrets never reach the store: every text is passed through a [`Redactor`] before it is
//! written (`store/write.rs`), so the layers, the index, one-liners and injections built from
//! them hold a typed placeholder (`[REDACTED:aws-secret]`) instead (docs/decisions/0047).
//!
//! Cost on text without secrets is one Aho-Corasick pass over literal anchors that every
//! secret shape contains; a rule's regex is compiled, and run, only once one of its anchors is
//! found, so a hook that stores ordinary text never compiles one.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::bytes::Regex;

/// One kind of secret: literals its text contains (`anchors` without regard to ASCII case,
/// `exact` as written) and its exact shape. When the pattern has a group named `s`, only that
/// part is replaced (the secret after a header name, a user name), else the whole match.
struct Rule {
    kind: &'static str,
    anchors: &'static [&'static str],
    exact: &'static [&'static str],
    pattern: &'static str,
}

/// The shapes recognised out of the box. Each pattern ends at a character that cannot be part
/// of the secret, so text around it stays.
const RULES: &[Rule] = &[
    Rule {
        kind: "private",
        exact: &[],
        anchors: &["<private>"],
        // Unclosed: everything after the tag is private.
        pattern: r"(?is)<private>.*?(?:</private>|\z)",
    },
    Rule {
        kind: "private-key",
        exact: &[],
        anchors: &["PRIVATE KEY"],
        // Cut short (a truncated output): the key's lines that are there.
        pattern: r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)",
    },
    Rule {
        kind: "anthropic-key",
        exact: &[],
        anchors: &["sk-ant-"],
        pattern: r"\bsk-ant-[A-Za-z0-9_-]{20,}",
    },
    Rule {
        kind: "openai-key",
        exact: &[],
        anchors: &["sk-"],
        pattern: r"\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}\b)",
    },
    Rule {
        kind: "aws-key-id",
        exact: &[],
        anchors: &["AKIA", "ASIA", "ABIA", "ACCA"],
        pattern: r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
    },
    Rule {
        kind: "aws-secret",
        exact: &[],
        anchors: &["aws_secret", "awssecret", "aws secret", "secretaccesskey"],
        pattern: r#"(?i)(?:aws[ _]?secret[ _]?access[ _]?key|SecretAccessKey)["']?\s*[:=]\s*["']?(?P<s>[A-Za-z0-9/+]{40})\b"#,
    },
    Rule {
        kind: "github-token",
        exact: &[],
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b",
    },
    Rule {
        kind: "slack-token",
        exact: &[],
        anchors: &[
            "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xapp-",
        ],
        pattern: r"\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}",
    },
    Rule {
        kind: "slack-webhook",
        exact: &[],
        anchors: &["hooks.slack.com"],
        pattern: r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}",
    },
    Rule {
        kind: "google-key",
        exact: &[],
        anchors: &["AIza", "GOCSPX-", "ya29."],
        pattern: r"\b(?:AIza[0-9A-Za-z_-]{35}|GOCSPX-[0-9A-Za-z_-]{28}|ya29\.[0-9A-Za-z_-]{20,})",
    },
    Rule {
        kind: "jwt",
        exact: &[],
        anchors: &["eyJ"],
        pattern: r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    },
    Rule {
        kind: "bearer-token",
        exact: &[],
        anchors: &["bearer"],
        // A variable (`$TOKEN`) or a placeholder (`<token>`) is not a secret.
        pattern: r"(?i)authorization[\x22']?\s*[:=]\s*[\x22']?bearer\s+(?P<s>[A-Za-z0-9._~+/-]{8,}=*)",
    },
    Rule {
        kind: "password",
        // Prose is full of "token" and "secret"; the shapes are upper-case names and JSON keys.
        exact: &["PASSWORD", "PASSWD", "SECRET", "TOKEN", "API_KEY", "APIKEY"],
        anchors: &[
            "\"password\"",
            "\"passwd\"",
            "\"secret\"",
            "\"api_key\"",
            "\"apikey\"",
            "\"access_token\"",
            "\"accesstoken\"",
            "\"client_secret\"",
            "\"clientsecret\"",
        ],
        // `NAME_PASSWORD=value` as in .env files and shell exports (upper case, `=`), and
        // `"password": "value"` in JSON; a value that names a variable (`$X`, `${X}`) stays.
        pattern: r#"\b[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY)\s*=\s*["']?(?P<s>[^\s"'$][^\s"']{3,})|(?i)"(?:password|passwd|secret|api_?key|access_?token|client_?secret)"\s*:\s*"(?P<s2>[^"$\\][^"\\]{3,})""#,
    },
    Rule {
        kind: "connection-password",
        exact: &[],
        anchors: &["://"],
        // scheme://user:password@host: the password goes, the user and host stay.
        pattern: r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@\x22'<>\[\]]+:(?P<s>[^\s@/\x22'<>$\[\]]{3,})@",
    },
];

/// What [`Redactor::redact`] replaced, by kind.
pub type Counts = BTreeMap<String, u64>;

/// A pattern the person added (config `redact_patterns`): a regex, its matches replaced by
/// `[REDACTED:custom]`.
struct Custom {
    regex: Regex,
}

pub struct Redactor {
    /// Built on first use: a hook that stores nothing never pays for it.
    anchors: OnceLock<Anchors>,
    compiled: Vec<OnceLock<Regex>>,
    custom: Vec<Custom>,
}

/// Every rule's anchors in one automaton, matched without regard to case; an `exact` anchor
/// counts only when the text has it as written.
struct Anchors {
    automaton: AhoCorasick,
    /// Per anchor: its rule, and the exact bytes it must match (for `exact` anchors).
    of: Vec<(usize, Option<&'static str>)>,
}

impl Anchors {
    fn new() -> Anchors {
        let mut literals = Vec::new();
        let mut of = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            for anchor in rule.anchors {
                literals.push(*anchor);
                of.push((i, None));
            }
            for anchor in rule.exact {
                literals.push(*anchor);
                of.push((i, Some(*anchor)));
            }
        }
        // An NFA: a DFA of these literals took longer to build than a hook's whole ingest.
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&literals)
            .expect("anchors are plain literals");
        Anchors { automaton, of }
    }
}

impl Redactor {
    /// The built-in rules and the person's own patterns; a pattern that is not a valid regex is
    /// an error naming it.
    pub fn new(extra: &[String]) -> Result<Redactor, String> {
        let custom = extra
            .iter()
            .map(|p| {
                ascii_regex(p)
                    .map(|regex| Custom { regex })
                    .map_err(|e| format!("redact pattern {p:?} is not a valid regex: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Redactor {
            anchors: OnceLock::new(),
            compiled: RULES.iter().map(|_| OnceLock::new()).collect(),
            custom,
        })
    }

    /// The built-in rules alone.
    pub fn builtin() -> &'static Redactor {
        Redactor::shared()
    }

    /// The built-in rules alone, shared by every store of the process (their regexes are
    /// compiled once).
    pub fn shared_builtin() -> Arc<Redactor> {
        Arc::clone(Redactor::shared())
    }

    fn shared() -> &'static Arc<Redactor> {
        static BUILTIN: OnceLock<Arc<Redactor>> = OnceLock::new();
        BUILTIN.get_or_init(|| Arc::new(Redactor::new(&[]).expect("no custom patterns")))
    }

    fn regex(&self, rule: usize) -> &Regex {
        self.compiled[rule]
            .get_or_init(|| ascii_regex(RULES[rule].pattern).expect("built-in rules are valid"))
    }

    /// `text` with every secret replaced by `[REDACTED:<kind>]`, counting each in `counts`.
    /// Borrowed, untouched, when there is none.
    pub fn redact<'t>(&self, text: &'t str, counts: &mut Counts) -> Cow<'t, str> {
        let anchors = self.anchors.get_or_init(Anchors::new);
        let mut wanted = [false; RULES.len()];
        let mut any = false;
        for m in anchors.automaton.find_overlapping_iter(text) {
            let (rule, exact) = anchors.of[m.pattern().as_usize()];
            if exact.is_none_or(|exact| &text[m.range()] == exact) {
                wanted[rule] = true;
                any = true;
            }
        }
        if !any && self.custom.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = Cow::Borrowed(text);
        for (rule, _) in wanted.iter().enumerate().filter(|(_, on)| **on) {
            let kind = RULES[rule].kind;
            if let Some(replaced) = replace(self.regex(rule), &out, kind, counts) {
                out = Cow::Owned(replaced);
            }
        }
        for custom in &self.custom {
            if let Some(replaced) = replace(&custom.regex, &out, "custom", counts) {
                out = Cow::Owned(replaced);
            }
        }
        out
    }
}

/// `pattern` with ASCII classes (`\\s`, `\\b`, `\\w`), matched on the text's bytes. The
/// regex crate is built without its Unicode tables: with them the hook binary was 1.3 MB
/// larger and each start paid for relocating them. Every shape here is ASCII, and literals
/// outside it still match as their UTF-8 bytes.
fn ascii_regex(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&format!("(?-u){pattern}"))
}

/// Replaces each match of `regex` in `text` (its group `s` or `s2` when it has one) with the
/// placeholder of `kind`; None when nothing matched.
fn replace(regex: &Regex, text: &str, kind: &str, counts: &mut Counts) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut found = 0;
    for caps in regex.captures_iter(text.as_bytes()) {
        let secret = caps
            .name("s")
            .or_else(|| caps.name("s2"))
            .or_else(|| caps.get(0))
            .expect("group 0 always matches");
        // Matched on bytes: a match that would split a character (a person's pattern can
        // end inside one) is left alone.
        if !text.is_char_boundary(secret.start()) || !text.is_char_boundary(secret.end()) {
            continue;
        }
        out.push_str(&text[last..secret.start()]);
        out.push_str("[REDACTED:");
        out.push_str(kind);
        out.push(']');
        last = secret.end();
        found += 1;
    }
    if found == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    *counts.entry(kind.to_string()).or_default() += found;
    Some(out)
}

#[cfg(test)]
mod tests;
