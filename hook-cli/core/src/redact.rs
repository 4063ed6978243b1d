//! Secrets never reach the store: every text is passed through a [`Redactor`] before it is
//! written (`store/write.rs`), so the layers, the index, one-liners and injections built from
//! them hold a typed placeholder (`[REDACTED:aws-secret]`) instead (docs/decisions/0047).
//!
//! Cost on text without secrets is one Aho-Corasick pass over literal anchors that every
//! secret shape contains; a rule's regex is compiled, and run, only once one of its anchors is
//! found, so a hook that stores ordinary text never compiles one. A value after a secret's
//! name is judged by what it is: placeholders and code stay (docs/decisions/0078).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::bytes::{Captures, Regex};

/// How the placeholder of a redacted secret opens: `[REDACTED:<kind>]`.
pub const PLACEHOLDER: &str = "[REDACTED:";

/// One kind of secret: literals its text contains (`anchors` without regard to ASCII case,
/// `exact` as written), its shape, and which part of a match is the secret.
struct Rule {
    kind: &'static str,
    anchors: &'static [&'static str],
    exact: &'static [&'static str],
    pattern: &'static str,
    /// The secret in a match of `pattern` (given the whole text), or None when the match is
    /// not one: after `password=` comes a secret, a placeholder or code.
    secret: fn(&Captures, &str) -> Option<Range<usize>>,
}

/// The shapes recognised out of the box. Each pattern ends at a character that cannot be part
/// of the secret, so text around it stays. Rules apply in this order, each to what the ones
/// before left: a typed placeholder is never matched again.
const RULES: &[Rule] = &[
    Rule {
        kind: "private",
        exact: &[],
        anchors: &["<private>"],
        // Unclosed: everything after the tag is private.
        pattern: r"(?is)<private>.*?(?:</private>|\z)",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "private-key",
        exact: &[],
        anchors: &["PRIVATE KEY"],
        // Cut short (a truncated output): the key's lines that are there.
        pattern: r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "anthropic-key",
        exact: &[],
        anchors: &["sk-ant-"],
        pattern: r"\bsk-ant-[A-Za-z0-9_-]{20,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "openrouter-key",
        exact: &[],
        anchors: &["sk-or-"],
        pattern: r"\bsk-or-v[0-9]+-[A-Za-z0-9]{8,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "openai-key",
        exact: &[],
        anchors: &["sk-"],
        pattern: r"\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}\b)",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "stripe-key",
        exact: &[],
        anchors: &["sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"],
        // Publishable keys (`pk_`) are meant to be public. The prefix is distinctive enough
        // that a key's first characters are caught alone (a key cut in two).
        pattern: r"\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{4,}|whsec_[A-Za-z0-9+/=]{16,})",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "sendgrid-key",
        exact: &["SG."],
        anchors: &[],
        pattern: r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "pypi-token",
        exact: &["pypi-AgE"],
        anchors: &[],
        // Every PyPI token is a macaroon whose base64 starts `AgE`.
        pattern: r"\bpypi-AgE[A-Za-z0-9_-]{16,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "digitalocean-token",
        exact: &["dop_v1_", "doo_v1_", "dor_v1_"],
        anchors: &[],
        pattern: r"\bdo[por]_v1_[A-Za-z0-9]{16,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "shopify-token",
        exact: &["shpat_", "shpss_", "shpca_", "shppa_"],
        anchors: &[],
        pattern: r"\bshp(?:at|ss|ca|pa)_[A-Fa-f0-9]{16,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "gitlab-token",
        exact: &["glpat-", "gldt-", "glrt-", "glptt-", "glsoat-"],
        anchors: &[],
        pattern: r"\bgl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_-]{16,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "npm-token",
        exact: &["npm_"],
        anchors: &[],
        pattern: r"\bnpm_[A-Za-z0-9]{30,}\b",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "huggingface-token",
        exact: &["hf_"],
        anchors: &[],
        pattern: r"\bhf_[A-Za-z0-9]{30,}\b",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "aws-key-id",
        exact: &[],
        anchors: &["AKIA", "ASIA", "ABIA", "ACCA"],
        pattern: r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "aws-secret",
        exact: &[],
        anchors: &["aws_secret", "awssecret", "aws secret", "secretaccesskey"],
        pattern: r#"(?i)(?:aws[ _]?secret[ _]?access[ _]?key|SecretAccessKey)["']?\s*[:=]\s*["']?(?P<s>[A-Za-z0-9/+]{40})\b"#,
        secret: group_s_or_whole,
    },
    Rule {
        kind: "azure-key",
        exact: &[],
        anchors: &["accountkey=", "sharedaccesskey="],
        // Storage and Service Bus connection strings.
        pattern: r"(?i)\b(?:AccountKey|SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{16,}=*)",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "github-token",
        exact: &[],
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "slack-token",
        exact: &[],
        anchors: &[
            "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xapp-",
        ],
        pattern: r"\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "slack-webhook",
        exact: &[],
        anchors: &["hooks.slack.com"],
        pattern: r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "google-key",
        exact: &[],
        anchors: &["AIza", "GOCSPX-", "ya29."],
        pattern: r"\b(?:AIza[0-9A-Za-z_-]{35}|GOCSPX-[0-9A-Za-z_-]{28}|ya29\.[0-9A-Za-z_-]{20,})",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "jwt",
        exact: &[],
        anchors: &["eyJ"],
        pattern: r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "bearer-token",
        exact: &[],
        anchors: &["bearer"],
        // A variable (`$TOKEN`, `{token}`) or a placeholder (`<token>`) is not a secret.
        pattern: r"(?i)authorization[\x22']?\s*[:=]\s*[\x22']?bearer\s+(?P<s>[^\s\x22'`$<{\[\\]{8,})",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "authorization",
        exact: &[],
        anchors: &["authorization"],
        // The other schemes: `Basic` (a user and password in base64), `token`, `Digest`...
        pattern: r"(?i)authorization[\x22']?\s*[:=]\s*[\x22']?(?:basic|token|digest|apikey|sso-key)\s+(?P<s>[A-Za-z0-9._~+/:=-]{8,})",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "connection-password",
        exact: &[],
        anchors: &["://"],
        // scheme://user:password@host: the password goes, the user and host stay.
        pattern: r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@\x22'<>\[\]]+:(?P<s>[^\s@/\x22'<>$\[\]]{3,})@",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "url-secret",
        exact: &[],
        anchors: &[
            "code=",
            "key=",
            "token=",
            "secret=",
            "sig=",
            "signature=",
            "password=",
        ],
        // Query parameters that carry a credential: an OAuth callback's `code`, an API `key`,
        // a signed URL's `sig`. `state`, `page` and the like stay.
        pattern: r"(?i)[?&](?:code|key|api_?key|[a-z_]*token|[a-z_]*secret|sig|signature|password)=(?P<s>[^&#\s\x22'`<>\\]+)",
        secret: url_value,
    },
    Rule {
        kind: "mysql-password",
        exact: &[],
        anchors: &["mysql"],
        // `mysql -pPASS` (a space after `-p` means "ask"; `-P` is the port).
        pattern: r"(?i:\bmysql(?:dump|admin|import|sh)?)\b[^\n;|&]*?\s-p[\x22']?(?P<s>[^\s\x22'`-][^\s\x22'`]*)",
        secret: group_s_or_whole,
    },
    Rule {
        kind: "password",
        exact: &[],
        anchors: &[
            "password",
            "passwd",
            "passphrase",
            "secret",
            "token",
            "apikey",
            "api_key",
            "api-key",
            "access_key",
            "accesskey",
            "access-key",
            "private_key",
            "privatekey",
            "private-key",
            "auth_key",
            "authkey",
            "auth-key",
            "account_key",
            "accountkey",
            "account-key",
            "pass=",
            "pass:",
            "pass ",
            "pass\"",
            "pass'",
            "pwd",
        ],
        // ("secret" covers `secret_key`.)
        // A value given to a name that says it is secret: `.env` and shell (`API_KEY=`),
        // JSON (`"password": "…"`), YAML (`password: …`), code (`token = "…"`), headers
        // (`x-api-key: …`) and flags (`--password=…`). What the value is decides
        // ([`keyed_value`]): code and placeholders stay.
        pattern: r#"(?i)\b(?:[a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|secret[_-]?key|access[_-]?key|private[_-]?key|account[_-]?key|auth[_-]?key)|(?:[a-z0-9_.-]*[_.-])?(?:pass|pwd))\\?["']?(?P<sep>[ \t]*(?::=|=>|[:=])[ \t]*)(?:\\?"(?P<quoted>[^"\\\n]*)|'(?P<squoted>[^'\n]*)|(?P<bare>[^\s"'`,;&)\]}>\\]+))"#,
        secret: keyed_value,
    },
    Rule {
        kind: "password",
        exact: &[],
        anchors: &[
            "--pass",
            "--token",
            "--secret",
            "--api-key",
            "--client-secret",
        ],
        // `--password PASS` (with `=`, the rule above has it).
        pattern: r"(?i)(?:^|\s)--(?:[a-z0-9]+-)*(?:password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key)[ \t]+(?:\x22(?P<quoted>[^\x22\\\n]*)\x22|'(?P<squoted>[^'\n]*)'|(?P<bare>[^\s\x22'`;&|)\\]+))",
        secret: flag_value,
    },
    Rule {
        kind: "keyed-token",
        exact: &[],
        anchors: &["key:", "key :", "key=", "key ="],
        // "this is the ne wkey: lY-_TNHK…" (a typo that no name rule knows).
        pattern: r#"(?i)[a-z0-9_.-]*key[ \t]*[:=][ \t]*["'`]?(?P<s>[A-Za-z0-9_+=-]{16,256})"#,
        secret: random_value,
    },
    Rule {
        kind: "secret-in-prose",
        exact: &[],
        anchors: &[
            "token",
            "secret",
            "password",
            "passphrase",
            "passwd",
            "api key",
            "new key",
            "my key",
            "the key",
            "this key",
            "access key",
            "license key",
            "auth key",
            "app key",
        ],
        // "the password is hunter2-Xy9", `token it's "fe07a9…"`, "this is the new key:
        // lY-_TNHK…": a few linking words, then a word that is random enough to be a
        // credential ([`strong`]); "token budget", "the key is to cache" stay.
        pattern: r"(?i)(?:\b(?:token|secret|password|passphrase|passwd)|\b(?:api|new|my|the|this|access|license|auth|app)[ \t]+key)\b(?:[ \t]*[:=]|[ \t]+(?:is|was|it's|its|it is|are|here|here's|now|reads|set to|to use|of|for this|value))*(?:[ \t]+[\x22'`]?|[\x22'`])(?P<s>[A-Za-z0-9_+=!@#%^*.~-]{8,})",
        secret: prose_value,
    },
];

/// The group named `s` when there is one, else the whole match: the pattern's shape is enough.
fn group_s_or_whole(caps: &Captures, _text: &str) -> Option<Range<usize>> {
    let found = caps.name("s").or_else(|| caps.get(0))?;
    Some(found.range())
}

/// The value after a secret's name, unless it is empty, a placeholder or code.
fn keyed_value(caps: &Captures, text: &str) -> Option<Range<usize>> {
    if let Some(quoted) = caps.name("quoted").or_else(|| caps.name("squoted")) {
        let value = text.get(quoted.range())?;
        return (value.len() >= 4 && !placeholder(value)).then(|| quoted.range());
    }
    let bare = caps.name("bare")?;
    let value = text.get(bare.range())?;
    if value.len() < 4 || placeholder(value) || code(value) {
        return None;
    }
    // A lone word ends its line (`password: hunter`); one that goes on is a sentence
    // ("Password: Must be 8 characters") or code (`token: Token,`), and one given with ` = `
    // names a variable (`let key = provider`), unless it is random.
    let sep = caps
        .name("sep")
        .and_then(|sep| text.get(sep.range()))
        .unwrap_or("");
    let after = text.get(bare.end()..)?;
    // `NAME: Type = value` declares; the type is no value.
    if !sep.contains('=') && after.trim_start().starts_with('=') {
        return None;
    }
    let spaced_equals = sep.contains(" =");
    if value.bytes().all(|b| b.is_ascii_alphabetic())
        && !random_letters(value)
        && (spaced_equals || !ends_line(after))
    {
        return None;
    }
    Some(bare.range())
}

/// A flag's value, judged as a keyed value; `--secret id=x,src=file` (docker) names a file.
fn flag_value(caps: &Captures, text: &str) -> Option<Range<usize>> {
    let range = keyed_value(caps, text)?;
    let value = text.get(range.clone())?;
    (!value.starts_with('-') && !value.contains('=')).then_some(range)
}

/// A query parameter's value: long and random enough (`?code=print` is a word).
fn url_value(caps: &Captures, text: &str) -> Option<Range<usize>> {
    let found = caps.name("s")?;
    let value = text.get(found.range())?;
    let random = value.bytes().any(|b| b.is_ascii_digit())
        || (value.bytes().any(|b| b.is_ascii_uppercase())
            && value.bytes().any(|b| b.is_ascii_lowercase()));
    (value.len() >= 8 && random && !placeholder(value)).then(|| found.range())
}

/// A word after "token", "secret" or "password" in a sentence, when it is [`strong`].
fn prose_value(caps: &Captures, text: &str) -> Option<Range<usize>> {
    let found = caps.name("s")?;
    let value = text.get(found.range())?.trim_end_matches('.');
    let lower = value.to_ascii_lowercase();
    (strong(value) && !lower.starts_with("0x") && !placeholder(value))
        .then(|| found.start()..found.start() + value.len())
}

/// Random enough to be a credential rather than a word, a number or a name: eight characters
/// or more, with letters and digits, or both cases and a symbol, or [`random_letters`].
fn strong(value: &str) -> bool {
    let has = |f: fn(&u8) -> bool| value.as_bytes().iter().any(f);
    let symbol = has(|b| !b.is_ascii_alphanumeric() && *b != b'.' && *b != b'_');
    value.len() >= 8
        && has(u8::is_ascii_alphabetic)
        && (has(u8::is_ascii_digit)
            || (has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase) && symbol)
            || random_letters(value))
}

/// Letters drawn at random rather than a word or a name in camel case: long, both cases, and
/// few vowels (a fifth of a random draw, two fifths of English).
fn random_letters(value: &str) -> bool {
    let has = |f: fn(&u8) -> bool| value.as_bytes().iter().any(f);
    let vowels = value.bytes().filter(|b| b"aeiouAEIOU".contains(b)).count();
    value.len() >= 12
        && value.bytes().all(|b| b.is_ascii_alphabetic())
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && vowels * 4 < value.len()
}

/// Stands for a value rather than being one: a variable (`$X`, `${X}`, `{{ x }}`, `%(x)s`),
/// a template (`<your-password>`), an example (`your_api_key`, `changeme`, `xxxx`), a
/// literal (`null`, `true`), or a placeholder this redactor left.
fn placeholder(value: &str) -> bool {
    const WORDS: &[&str] = &[
        "changeme",
        "change_me",
        "change-me",
        "changeit",
        "password",
        "passwd",
        "secret",
        "token",
        "null",
        "none",
        "nil",
        "undefined",
        "true",
        "false",
        "empty",
        "required",
        "optional",
        "example",
        "placeholder",
        "redacted",
        "hidden",
        "masked",
        "string",
        "str",
    ];
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    let first = value.as_bytes().first().copied().unwrap_or(b' ');
    matches!(first, b'$' | b'<' | b'[' | b'{' | b'%' | b'@')
        || lower.contains("${")
        || lower.contains("{{")
        || lower.starts_with("your")
        || lower.starts_with("my-")
        || lower.starts_with("my_")
        || lower.contains("example")
        || lower.contains("placeholder")
        || WORDS.contains(&lower.as_str())
        || value.bytes().all(|b| b == first)
        || value.ends_with("...")
        || value.ends_with('…')
}

/// Code rather than a literal: a call or index (`getpass()`, `os.environ["X"]`), a path of
/// names (`settings.SECRET_KEY`, `env::var`), a file path, a type (`u32`, `*const`, `&str`),
/// a short number, or a name that is itself about secrets (`password=db_password`).
fn code(value: &str) -> bool {
    const TYPES: &[&str] = &[
        "bytes",
        "int",
        "integer",
        "number",
        "bool",
        "boolean",
        "object",
        "any",
        "text",
        "secretstr",
        "secretstring",
        "varchar",
        "await",
        "char",
        "c_char",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
    ];
    let lower = value.to_ascii_lowercase();
    let identifier = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
            && !part.as_bytes()[0].is_ascii_digit()
    };
    value.contains(['(', '[', '{', '<'])
        || value.contains("::")
        || value.starts_with(['/', '~', '.', ':', '*', '&', '_'])
        || (value.contains('.') && value.split('.').all(identifier))
        || TYPES.contains(&lower.as_str())
        || (value.len() <= 6 && value.bytes().all(|b| b.is_ascii_digit()))
        || (identifier(value)
            && ["password", "passwd", "secret", "token", "key"]
                .iter()
                .any(|word| lower.contains(word)))
}

/// Nothing but a comment follows on this line: the end of the text, a newline (also escaped,
/// in JSON), the quote that closes the string the line sits in, or `#`.
fn ends_line(after: &str) -> bool {
    let rest = after.trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with(['\n', '\r', '#', '"', '\'']) || rest.starts_with("\\n")
}

/// The kind of a text that is nothing but one random token: a key pasted as the whole prompt
/// ("here it is" being the question before it), a token file printed by a tool.
const LONE_TOKEN: &str = "lone-token";

/// The span of `text` that is its only word when that word looks drawn at random: 16 to 256
/// characters of a token's alphabet with upper case, lower case and digits, changing between
/// them at a third of its characters or more (a random draw changes at about three in five),
/// and less than half of it in words (`User`, `Profile`: a capital or not, two lower-case
/// letters or more, a vowel), which names in code are made of. Hex alone (commits, digests)
/// and words with dots or slashes (files, versions, hosts) are never one. Of random draws of
/// a key's alphabet this takes 87% at 16 characters, 93% at 22 and 97% at 32.
fn lone_token(text: &str) -> Option<Range<usize>> {
    if text.len() > 300 {
        return None;
    }
    let token = text.trim();
    looks_random(token).then(|| {
        let start = text.len() - text.trim_start().len();
        start..start + token.len()
    })
}

/// Whether `token` is drawn at random by the measure of [`lone_token`].
fn looks_random(token: &str) -> bool {
    let bytes = token.as_bytes();
    let alphabet = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'=');
    if !(16..=256).contains(&bytes.len()) || !bytes.iter().all(alphabet) {
        return false;
    }
    let class = |b: u8| match b {
        b'A'..=b'Z' => 0,
        b'a'..=b'z' => 1,
        b'0'..=b'9' => 2,
        _ => 3,
    };
    let mut seen = [false; 4];
    bytes.iter().for_each(|b| seen[class(*b)] = true);
    let changes = bytes
        .windows(2)
        .filter(|w| class(w[0]) != class(w[1]))
        .count();
    let alphanumeric = bytes.iter().filter(|b| b.is_ascii_alphanumeric()).count();
    let hex = bytes.iter().all(|b| b.is_ascii_hexdigit() || *b == b'-');
    let random = seen[0] && seen[1] && seen[2] && changes * 3 >= bytes.len();
    random && !hex && in_words(bytes) * 2 < alphanumeric && !placeholder(token)
}

/// A value given to any word that ends in "key" (`wkey:`, `licensekey=`), when it
/// [`looks_random`]: the name alone is too common to go by.
fn random_value(caps: &Captures, text: &str) -> Option<Range<usize>> {
    let found = caps.name("s")?;
    looks_random(text.get(found.range())?).then(|| found.range())
}

/// How many of `bytes` are in words: a capital or not, then two lower-case letters or more,
/// with a vowel among them.
fn in_words(bytes: &[u8]) -> usize {
    let vowel = |b: &u8| b"aeiouyAEIOUY".contains(b);
    let mut total = 0;
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i].is_ascii_uppercase() {
            i += 1;
        }
        let lower = i;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        if i - lower >= 2 && bytes[start..i].iter().any(vowel) {
            total += i - start;
        }
        if i == start {
            i += 1;
        }
    }
    total
}

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

    /// The built-in rules and the person's `redact_patterns`: the built-in set is shared when
    /// there are none.
    pub fn with_patterns(patterns: &[String]) -> Result<Arc<Redactor>, String> {
        if patterns.is_empty() {
            Ok(Redactor::shared_builtin())
        } else {
            Redactor::new(patterns).map(Arc::new)
        }
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
        self.redact_finding(text, counts, &mut Vec::new())
    }

    /// [`Redactor::redact`], adding each secret replaced to `found`, as it stood.
    pub fn redact_finding<'t>(
        &self,
        text: &'t str,
        counts: &mut Counts,
        found: &mut Vec<String>,
    ) -> Cow<'t, str> {
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
            return lone_token_redacted(Cow::Borrowed(text), counts, found);
        }
        let mut out = Cow::Borrowed(text);
        for (rule, _) in wanted.iter().enumerate().filter(|(_, on)| **on) {
            let kind = RULES[rule].kind;
            let secret = RULES[rule].secret;
            if let Some(replaced) = replace(self.regex(rule), secret, &out, kind, counts, found) {
                out = Cow::Owned(replaced);
            }
        }
        for custom in &self.custom {
            if let Some(replaced) = replace(
                &custom.regex,
                group_s_or_whole,
                &out,
                "custom",
                counts,
                found,
            ) {
                out = Cow::Owned(replaced);
            }
        }
        // Last: a token a rule above knew is already a placeholder of its kind.
        lone_token_redacted(out, counts, found)
    }
}

/// The characters a secret's rest may begin a text with: a key's alphabet, base64's and a
/// JWT's dots.
fn in_a_key(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/' | b'=' | b'.' | b'~')
}

/// Where `text` may begin with the rest of a secret that the text before it was cut inside
/// (docs/decisions/0101): right at its start, four or more characters of a key's alphabet
/// holding letters and digits and mostly not words (`Compiling`, `README.md`, `v2` stay), or
/// letters drawn at random. Cheap, so a writer asks for the text before only when this holds.
pub fn may_continue_a_secret(text: &str) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .position(|b| !in_a_key(*b))
        .unwrap_or(bytes.len());
    let run = &bytes[..end];
    let has = |f: fn(&u8) -> bool| run.iter().any(f);
    let alphanumeric = run.iter().filter(|b| b.is_ascii_alphanumeric()).count();
    let keyish = end >= 4
        && has(u8::is_ascii_digit)
        && has(u8::is_ascii_alphabetic)
        && in_words(run) * 2 < alphanumeric;
    (keyish || random_letters(&text[..end])).then_some(0..end)
}

/// `text` with the rest of a cut secret replaced by the placeholder of the secret's first part,
/// when `before` (the end of the text stored just before it) ends in that placeholder and
/// `text` begins as [`may_continue_a_secret`] says. A secret printed in two outputs (`head
/// -c`, then `tail -c`) leaves neither half in the store; the texts are never joined, so no
/// other word of one moves into the other.
pub fn rest_of_cut_secret(before: &str, text: &str, counts: &mut Counts) -> Option<String> {
    let run = may_continue_a_secret(text)?;
    let open = before.rfind(PLACEHOLDER)?;
    let kind = before[open + PLACEHOLDER.len()..].strip_suffix(']')?;
    if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
        return None;
    }
    *counts.entry(kind.to_string()).or_default() += 1;
    let mut out = String::with_capacity(text.len());
    push_placeholder(&mut out, kind);
    out.push_str(&text[run.end..]);
    Some(out)
}

/// `text` with its one word replaced when it is a [`lone_token`].
fn lone_token_redacted<'t>(
    text: Cow<'t, str>,
    counts: &mut Counts,
    found: &mut Vec<String>,
) -> Cow<'t, str> {
    let Some(token) = lone_token(&text) else {
        return text;
    };
    *counts.entry(LONE_TOKEN.to_string()).or_default() += 1;
    found.push(text[token.clone()].to_string());
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..token.start]);
    push_placeholder(&mut out, LONE_TOKEN);
    out.push_str(&text[token.end..]);
    Cow::Owned(out)
}

/// Writes the placeholder that stands for a secret of `kind`: `[REDACTED:<kind>]`.
fn push_placeholder(out: &mut String, kind: &str) {
    out.push_str(PLACEHOLDER);
    out.push_str(kind);
    out.push(']');
}

/// `pattern` with ASCII classes (`\\s`, `\\b`, `\\w`), matched on the text's bytes. The
/// regex crate is built without its Unicode tables: with them the hook binary was 1.3 MB
/// larger and each start paid for relocating them. Every shape here is ASCII, and literals
/// outside it still match as their UTF-8 bytes.
fn ascii_regex(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&format!("(?-u){pattern}"))
}

/// The placeholder kind of a secret found again where no rule sees it (decision 0108).
const REMEMBERED: &str = "secret-seen-before";

/// Shortest secret remembered: with letters and digits besides, too many to try.
const REMEMBERED_LEN: usize = 16;

/// The mark a secret found once is remembered by, so that it is redacted wherever it comes
/// again: a hash of it, never the secret. Only a secret of [`REMEMBERED_LEN`] characters or
/// more with letters and digits gets one, so its mark cannot be turned back by trying words.
pub fn mark(secret: &str) -> Option<i64> {
    let secret = secret.trim_end_matches(['.', ',']);
    let bytes = secret.as_bytes();
    let remembered = bytes.len() >= REMEMBERED_LEN
        && bytes.iter().any(u8::is_ascii_digit)
        && bytes.iter().any(u8::is_ascii_alphabetic);
    remembered.then(|| xxhash_rust::xxh3::xxh3_64(bytes) as i64)
}

/// `text` with each run of a key's characters whose [`mark`] is `remembered` replaced by the
/// placeholder of a secret seen before, each counted; None when there is none.
pub fn redact_remembered(
    text: &str,
    remembered: impl Fn(i64) -> bool,
    counts: &mut Counts,
) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let (mut last, mut i, mut found) = (0, 0, 0);
    while i < bytes.len() {
        if !in_a_key(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && in_a_key(bytes[i]) {
            i += 1;
        }
        // A sentence's full stop is not the key's.
        let end = start + text[start..i].trim_end_matches(['.', ',']).len();
        // The run, or its value after a name (`KEY=value`; base64's `=` only ends a key).
        let value = text[start..end]
            .find('=')
            .filter(|eq| start + eq + 1 < end)
            .map(|eq| start + eq + 1);
        let secret = [Some(start), value].into_iter().flatten().find(|&from| {
            end - from >= REMEMBERED_LEN && mark(&text[from..end]).is_some_and(&remembered)
        });
        if let Some(from) = secret {
            out.push_str(&text[last..from]);
            push_placeholder(&mut out, REMEMBERED);
            last = end;
            found += 1;
        }
    }
    if found == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    *counts.entry(REMEMBERED.to_string()).or_default() += found;
    Some(out)
}

/// Replaces the secret in each match of `regex` (as `secret` finds it) with the placeholder
/// of `kind`; None when nothing was replaced.
fn replace(
    regex: &Regex,
    secret: fn(&Captures, &str) -> Option<Range<usize>>,
    text: &str,
    kind: &str,
    counts: &mut Counts,
    found_secrets: &mut Vec<String>,
) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut found = 0;
    for caps in regex.captures_iter(text.as_bytes()) {
        let Some(secret) = secret(&caps, text) else {
            continue;
        };
        // Matched on bytes: a match that would split a character (a person's pattern can
        // end inside one) is left alone.
        if !text.is_char_boundary(secret.start) || !text.is_char_boundary(secret.end) {
            continue;
        }
        out.push_str(&text[last..secret.start]);
        push_placeholder(&mut out, kind);
        found_secrets.push(text[secret.clone()].to_string());
        last = secret.end;
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
