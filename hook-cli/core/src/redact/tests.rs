use super::*;

fn redacted(text: &str) -> (String, Counts) {
    let mut counts = Counts::new();
    let out = Redactor::builtin().redact(text, &mut counts).into_owned();
    (out, counts)
}

/// Made-up secrets of each shape (none is a live credential), in the context they are met in,
/// and what must be left of the text around them.
const SECRETS: &[(&str, &str, &str)] = &[
    (
        "anthropic-key",
        "export ANTHROPIC_KEY=sk-ant-api03-Zx8vQ2mN4pL6rT0yU1wE3sD5fG7hJ9kA-bC_dE2fG4hJ6kL8mN0pQ",
        "export ANTHROPIC_KEY=[REDACTED:anthropic-key]",
    ),
    (
        "openai-key",
        "client = OpenAI(api_key=\"sk-proj-Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5kL7\")",
        "client = OpenAI(api_key=\"[REDACTED:openai-key]\")",
    ),
    (
        "openai-key",
        "key sk-Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5kL7nP9 in the old format",
        "key [REDACTED:openai-key] in the old format",
    ),
    (
        "aws-key-id",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "aws_access_key_id = [REDACTED:aws-key-id]",
    ),
    (
        "aws-secret",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-west-1",
        "aws_secret_access_key = [REDACTED:aws-secret]\nregion = eu-west-1",
    ),
    (
        "aws-secret",
        r#"{"AccessKeyId": "x", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}"#,
        r#"{"AccessKeyId": "x", "SecretAccessKey": "[REDACTED:aws-secret]"}"#,
    ),
    (
        "github-token",
        "git clone https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY@github.com/o/r",
        "git clone https://[REDACTED:github-token]@github.com/o/r",
    ),
    (
        "github-token",
        "GH=github_pat_11ABCDEFG0abcdefghijkl_MNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789AB done",
        "GH=[REDACTED:github-token] done",
    ),
    (
        "slack-token",
        "SLACK_BOT=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "SLACK_BOT=[REDACTED:slack-token]",
    ),
    (
        "slack-webhook",
        "curl -X POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX -d @msg",
        "curl -X POST [REDACTED:slack-webhook] -d @msg",
    ),
    (
        "google-key",
        "maps?key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q&q=x",
        "maps?key=[REDACTED:google-key]&q=x",
    ),
    (
        "jwt",
        "token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "token: [REDACTED:jwt]",
    ),
    (
        "private-key",
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yB4=\n-----END RSA PRIVATE KEY-----\nthen",
        "key:\n[REDACTED:private-key]\nthen",
    ),
    (
        "private-key",
        // As a tool call's input holds it: JSON, its newlines escaped.
        r#"{"content":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"}"#,
        r#"{"content":"[REDACTED:private-key]\n"}"#,
    ),
    (
        "private-key",
        // An output cut short inside the key.
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
        "[REDACTED:private-key]",
    ),
    (
        "bearer-token",
        "curl -H 'Authorization: Bearer abc123DEF456ghi789.jkl' https://api.example.com",
        "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' https://api.example.com",
    ),
    (
        "password",
        "DB_PASSWORD=hunter2hunter2\nDEBUG=1",
        "DB_PASSWORD=[REDACTED:password]\nDEBUG=1",
    ),
    (
        "password",
        r#"{"user": "ann", "password": "correct horse battery"}"#,
        r#"{"user": "ann", "password": "[REDACTED:password]"}"#,
    ),
    (
        "password",
        "export SECRET_KEY='django-insecure-4f9a2'\nDEBUG=1",
        "export SECRET_KEY='[REDACTED:password]'\nDEBUG=1",
    ),
    (
        "password",
        "[client]\nuser = app\nDB_PASS = Zq8mLx2v\nhost = db",
        "[client]\nuser = app\nDB_PASS = [REDACTED:password]\nhost = db",
    ),
    (
        "password",
        "AZURE_ACCOUNT_KEY=c2VjcmV0a2V5MTIz",
        "AZURE_ACCOUNT_KEY=[REDACTED:password]",
    ),
    (
        "password",
        "db:\n  password: hunter\n  port: 5432",
        "db:\n  password: [REDACTED:password]\n  port: 5432",
    ),
    (
        "password",
        "curl -H 'x-api-key: 7f3kQ9zLm2' https://api.example.com",
        "curl -H 'x-api-key: [REDACTED:password]' https://api.example.com",
    ),
    (
        "password",
        "mongosh --username admin --password Tr0ub4dor3 --host db",
        "mongosh --username admin --password [REDACTED:password] --host db",
    ),
    (
        "secret-in-prose",
        "the password is hunter2-Xy9, use it for staging",
        "the password is [REDACTED:secret-in-prose], use it for staging",
    ),
    (
        "url-secret",
        "GET /callback?code=4a7Fq9ZkPm2x&state=af0ifjsldkj HTTP/1.1",
        "GET /callback?code=[REDACTED:url-secret]&state=af0ifjsldkj HTTP/1.1",
    ),
    (
        "mysql-password",
        "mysql -h db -P 3306 -u root -phunter2 app < dump.sql",
        "mysql -h db -P 3306 -u root -p[REDACTED:mysql-password] app < dump.sql",
    ),
    (
        "authorization",
        "curl -H 'Authorization: Basic YWRtaW46aHVudGVyMg==' https://x.example.com",
        "curl -H 'Authorization: Basic [REDACTED:authorization]' https://x.example.com",
    ),
    (
        "azure-key",
        "AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4cXV1eA==;EndpointSuffix=core.windows.net",
        "AccountName=acct;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net",
    ),
    (
        "connection-password",
        "DATABASE_URL postgres://app:s3cr3tP4ss@db.internal:5432/app",
        "DATABASE_URL postgres://app:[REDACTED:connection-password]@db.internal:5432/app",
    ),
    (
        "private",
        "deploy it <private>the staging password is tulip</private> and report",
        "deploy it [REDACTED:private] and report",
    ),
    (
        "private",
        "notes <PRIVATE>unclosed, to the end\nsecond line",
        "notes [REDACTED:private]",
    ),
];

#[test]
fn each_shape_is_replaced_by_its_typed_placeholder_and_the_rest_stays() {
    for (kind, text, expected) in SECRETS {
        let (out, counts) = redacted(text);
        assert_eq!(&out, expected, "{kind}");
        assert_eq!(counts.get(*kind), Some(&1), "{kind}: {counts:?}");
    }
}

/// Text that looks close to a secret and must stay as it is.
const NEAR_MISSES: &[&str] = &[
    "the task-force met; scikit-learn's sk-learn alias; risk-averse",
    "sk-ant-short",
    "AKIA is a prefix; AKIAIOSFODNN7EXAMPL (19 characters)",
    "ghp_tooShort and github_pat_ alone",
    "PASSWORD_MIN_LENGTH=12\nMAX_TOKENS=4096\nTOKEN_LIMIT=100",
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }} and API_TOKEN=$API_TOKEN",
    "password = getpass.getpass()",
    r#"{"password": "$DB_PASS"}"#,
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com",
    "Bearer tokens are described in RFC 6750",
    "https://user@example.com/path and git@github.com:org/repo.git",
    "http://localhost:8080/api and https://example.com:443/x@y",
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
    "eyJhbGciOiJIUzI1NiJ9 alone is only a header",
    "We spent 12,000 tokens; the secret to speed is caching.",
    "use <privacy> tags and the word private freely",
    "api_key = os.environ[\"API_KEY\"]\ntoken = lexer.next_token()",
    "PASSWORD=\npassword: <your-password>\nSECRET_KEY=changeme",
    "fn login(password: &str, token: Token) -> Session",
    "Password: Must be at least 8 characters long",
    "The token budget is 200k; secret-santa-2025 is a branch",
    "https://example.com/oauth/callback?code=&state=abc123xyz",
];

#[test]
fn a_text_that_is_one_random_token_is_a_secret_and_one_word_of_code_is_not() {
    for text in [
        "Pd5dB2-pH_7L6e_-jsdSXQ",
        "KDSbSDSTMaKKby6LoIN9oA\n",
        "  lY-_TNHKu1F1UAVEW5ZIEA  ",
    ] {
        let (out, counts) = redacted(text);
        assert_eq!(out.trim(), "[REDACTED:lone-token]", "{text}");
        assert_eq!(counts.get("lone-token"), Some(&1));
    }
    // A token a rule knows keeps its own kind.
    let (out, _) = redacted("ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY");
    assert_eq!(out, "[REDACTED:github-token]");
    for text in [
        "UserProfileCard2",
        "Vec3Matrix4Helper",
        "OAuth2TokenProvider",
        "Test_2024_Q3_Report_v2",
        "feature-add-login-2",
        "3f9a2c1b7d4e5f60718293a4b5c6d7e8f9012345",
        "0b9c6f1e-2a4d-4c3e-9f8a-1b2c3d4e5f60",
        "v2.1.333-linux-x64",
        "src/components/Button2.tsx",
        "HELLO_WORLD_2025_RELEASE",
        "Pd5dB2-pH_7L6e_-jsdSXQ and some words",
    ] {
        let (out, counts) = redacted(text);
        assert_eq!(&out, text, "{counts:?}");
    }
    let (out, _) = redacted("ok, my API key is lY-_TNHKu1F1UAVEW5ZIEA");
    assert_eq!(out, "ok, my API key is [REDACTED:secret-in-prose]");
    let (out, _) = redacted("this is the ne wkey: lY-_TNHKu1F1UAVEW5ZIEA");
    assert_eq!(out, "this is the ne wkey: [REDACTED:keyed-token]");
    let (out, _) = redacted("cache key: node-modules-Linux-9f8e7d6c and sort key: created_at_2");
    assert!(out.contains("node-modules-Linux-9f8e7d6c"), "{out}");
    let (out, _) = redacted("The key is to cache the lookups; my key insight: indexes2go");
    assert!(out.starts_with("The key is to cache"), "{out}");
}

#[test]
fn near_misses_stay_as_they_are() {
    for text in NEAR_MISSES {
        let (out, counts) = redacted(text);
        assert_eq!(&out, text, "{counts:?}");
        assert!(counts.is_empty(), "{text}: {counts:?}");
    }
}

#[test]
fn text_without_a_candidate_is_borrowed_and_no_rule_is_compiled() {
    let redactor = Redactor::new(&[]).unwrap();
    let mut counts = Counts::new();
    let text = "An ordinary answer about Rust lifetimes and borrowing.";
    assert!(matches!(
        redactor.redact(text, &mut counts),
        Cow::Borrowed(_)
    ));
    assert!(redactor.compiled.iter().all(|r| r.get().is_none()));
    redactor.redact("a JWT starts with eyJ", &mut counts);
    let compiled = redactor
        .compiled
        .iter()
        .filter(|r| r.get().is_some())
        .count();
    assert_eq!(compiled, 1, "only the rule whose anchor was seen");
}

#[test]
fn several_secrets_in_one_text_are_all_counted() {
    let text =
        "a=AKIAIOSFODNN7EXAMPLE b=AKIAI44QH8DHBEXAMPLE c=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY";
    let (out, counts) = redacted(text);
    assert_eq!(
        out,
        "a=[REDACTED:aws-key-id] b=[REDACTED:aws-key-id] c=[REDACTED:github-token]"
    );
    assert_eq!(counts["aws-key-id"], 2);
    assert_eq!(counts["github-token"], 1);
}

#[test]
fn patterns_the_person_adds_are_applied_and_a_bad_one_is_named() {
    let redactor = Redactor::new(&["ACME-[0-9]{6}".to_string()]).unwrap();
    let mut counts = Counts::new();
    let out = redactor.redact("ticket ACME-123456 and ACME-12", &mut counts);
    assert_eq!(out, "ticket [REDACTED:custom] and ACME-12");
    assert_eq!(counts["custom"], 1);
    let err = Redactor::new(&["(unclosed".to_string()]).err().unwrap();
    assert!(err.contains("(unclosed"), "{err}");
}

/// A secret cut in two by the end of an output: the first text ends inside it. Every cut is
/// caught in that first text once the name before it (`STRIPE_SECRET_KEY=`) or four characters
/// after its prefix are there; the second text is judged with the end of the first (below).
#[test]
fn the_first_part_of_a_secret_cut_in_two_is_caught_alone() {
    let key = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    let random = &key["sk_live_".len()..];
    for cut in "sk_l".len()..key.len() {
        let named = format!("STRIPE_SECRET_KEY={}", &key[..cut]);
        let (out, _) = redacted(&named);
        let placeholder = out.strip_prefix("STRIPE_SECRET_KEY=[REDACTED:");
        assert!(
            placeholder.is_some_and(|p| p.ends_with(']')),
            "{named} -> {out}"
        );
    }
    for cut in "sk_live_4eC3".len()..key.len() {
        let prose = format!("my key is {}", &key[..cut]);
        let (out, _) = redacted(&prose);
        assert_eq!(out, "my key is [REDACTED:stripe-key]", "{prose}");
        assert!(!out.contains(&random[..4]));
    }
}

/// The second text of a secret cut in two begins with its rest: redacted, as the first part's
/// kind, when the text before ended in that placeholder and the rest is four characters or
/// more of a key's alphabet that are not words. Every cut point of a real key's shape is caught.
#[test]
fn the_rest_of_a_cut_secret_is_redacted_after_its_first_part() {
    let key = format!("sk_{}_{}", "live", "4eC39HqLyjWDarjtT1zdp7dc");
    // Every cut that leaves four characters or more of the key to the second text.
    for cut in "sk_live_4eC3".len()..=key.len() - 4 {
        let (first, _) = redacted(&format!("STRIPE_SECRET_KEY={}", &key[..cut]));
        let second = format!("{}\nDEBUG=true", &key[cut..]);
        let mut counts = Counts::new();
        let out = rest_of_cut_secret(&first, &second, &mut counts);
        assert_eq!(
            out.as_deref(),
            Some("[REDACTED:stripe-key]\nDEBUG=true"),
            "{second:?}"
        );
        assert_eq!(counts["stripe-key"], 1);
    }
    let rest_of = |before: &str, text: &str| rest_of_cut_secret(before, text, &mut Counts::new());
    // Nothing was cut before: the end of the text before is no placeholder.
    assert_eq!(rest_of("all done", "a1b2c3d4e5 rest"), None);
    assert_eq!(rest_of("[REDACTED:stripe-key]\n", "a1b2c3d4e5"), None);
    // A text that begins with words, a space or a short number is no secret's rest.
    let listing = [
        "Compiling app v0.1.0",
        " 9HqLyjWD",
        "42 passed",
        "README.md",
        "ok",
        "Cargo.toml",
    ];
    for text in listing {
        assert_eq!(rest_of("KEY=[REDACTED:stripe-key]", text), None, "{text}");
    }
}

#[test]
fn a_remembered_secret_is_found_again_wherever_it_stands() {
    let key = "cc6f7947-2054-479b-ae49-f3fa1c57f3d8";
    let known = mark(key).unwrap();
    let remembered = |m: i64| m == known;
    let mut counts = Counts::new();
    let cases = [
        (
            format!("your key (`{key}`)."),
            "your key (`[REDACTED:secret-seen-before]`).".to_string(),
        ),
        (
            format!("is {key}. Done"),
            "is [REDACTED:secret-seen-before]. Done".to_string(),
        ),
        (
            format!("KEY={key}"),
            "KEY=[REDACTED:secret-seen-before]".to_string(),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            redact_remembered(&text, remembered, &mut counts),
            Some(expected)
        );
    }
    assert_eq!(counts.get("secret-seen-before"), Some(&3));
    // A longer run holding it, another id, and text around it without it stay.
    for text in [
        format!("{key}x"),
        "5d3b1c2e-8f4a-4b6c-9d7e-0a1b2c3d4e5f".to_string(),
        "日本語のテキスト and words".to_string(),
    ] {
        assert_eq!(
            redact_remembered(&text, remembered, &mut counts),
            None,
            "{text}"
        );
    }
}

#[test]
fn only_long_secrets_of_letters_and_digits_are_remembered() {
    assert!(mark("cc6f7947-2054-479b-ae49-f3fa1c57f3d8").is_some());
    assert_eq!(
        mark("cc6f7947-2054-479b-ae49-f3fa1c57f3d8."),
        mark("cc6f7947-2054-479b-ae49-f3fa1c57f3d8")
    );
    assert!(
        mark("hunter2").is_none(),
        "short: a list of words would find it"
    );
    assert!(mark("correcthorsebatterystaple").is_none(), "no digit");
    assert!(mark("1234567890123456789").is_none(), "no letter");
}

#[test]
fn the_redactor_tells_the_secrets_it_replaced() {
    let mut found = Vec::new();
    let out = Redactor::builtin().redact_finding(
        "the api key is cc6f7947-2054-479b-ae49-f3fa1c57f3d8 now",
        &mut Counts::new(),
        &mut found,
    );
    assert!(!out.contains("cc6f7947"), "{out}");
    assert_eq!(found, ["cc6f7947-2054-479b-ae49-f3fa1c57f3d8"]);
}
