//! Search benchmark (run by `bench/search.sh`): builds a memory of generated sessions with
//! planted facts — in prompts, in assistant text and inside tool output, in English and
//! Japanese, each next to decoys that share its code name — then reports
//!
//! * recall@3: how often the entry holding a fact is among the first three hits;
//! * characters returned per fact found (the hits as the MCP `search` tool renders them);
//! * query latency (p50 / p95) of the fact queries, of frequent words and of short words;
//! * what the index costs capture: one turn stored with the FTS triggers, with uncapped
//!   triggers and with none, as a ratio to none; and the index's share of the database.
//!
//! `BENCH_TURNS` sets the size (default 100,000 turns), `BENCH_DIR` keeps the database.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use throughline::home::Home;
use throughline::ingest::Record;
use throughline::model::{DetailKind, Host};
use throughline::render::{Paint, Pointer};
use throughline::search::{self, Request};
use throughline::store::Store;

const TURNS_PER_SESSION: usize = 50;
const PROJECTS: usize = 8;
const FACTS: usize = 300;
const DECOYS_PER_FACT: usize = 3;

const EN_WORDS: &[&str] = &[
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "for",
    "with",
    "on",
    "this",
    "that",
    "it",
    "we",
    "file",
    "function",
    "test",
    "error",
    "build",
    "deploy",
    "key",
    "config",
    "server",
    "database",
    "backup",
    "nightly",
    "rate",
    "limit",
    "request",
    "cache",
    "index",
    "query",
    "parser",
    "module",
    "refactor",
    "fix",
    "add",
    "remove",
    "update",
    "check",
    "run",
    "failing",
    "passes",
    "branch",
    "commit",
    "merge",
    "review",
    "log",
    "output",
    "input",
    "path",
    "value",
    "type",
    "struct",
    "trait",
    "async",
    "thread",
    "lock",
    "timeout",
    "retry",
    "policy",
    "vault",
    "secret",
    "host",
    "region",
    "minute",
    "hour",
    "schema",
    "migration",
    "column",
    "table",
    "row",
    "field",
    "json",
    "yaml",
    "toml",
    "env",
    "port",
    "socket",
    "client",
    "token",
    "user",
    "session",
    "turn",
];
const JA_WORDS: &[&str] = &[
    "設定",
    "ファイル",
    "テスト",
    "関数",
    "エラー",
    "修正",
    "確認",
    "追加",
    "削除",
    "本番",
    "データベース",
    "サーバー",
    "環境",
    "ログ",
    "出力",
    "入力",
    "変更",
    "実装",
    "処理",
    "結果",
    "バックアップ",
    "夜間",
    "レート",
    "制限",
    "リクエスト",
    "キャッシュ",
    "移行",
    "東京",
    "リージョン",
    "を",
    "に",
    "は",
    "が",
    "の",
    "で",
    "します",
    "しました",
    "ください",
];
const SYLLABLES_EN: &[&str] = &[
    "ka", "lo", "mi", "tra", "ven", "dor", "sil", "pax", "qu", "ri", "zen", "bel", "cor", "_",
    "ex", "ion", "ful", "st", "mo", "ne",
];
const SYLLABLES_JA: &[&str] = &[
    "カ", "キ", "ク", "サ", "シ", "ス", "タ", "チ", "ナ", "ニ", "ハ", "ヒ", "マ", "ミ", "ラ", "リ",
    "ロ", "ン", "ー", "ト",
];
const NAMES_EN: &[&str] = &[
    "Marigold", "Quasar", "Juniper", "Halcyon", "Tamarind", "Obsidian", "Kestrel", "Saffron",
    "Lumen", "Verbena",
];
const NAMES_JA: &[&str] = &[
    "ミモザ",
    "カエデ",
    "スズラン",
    "ツバキ",
    "アザミ",
    "ヒノキ",
    "ナデシコ",
    "キキョウ",
    "リンドウ",
    "ワサビ",
];

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Place {
    Prompt,
    Answer,
    ToolOutput,
}

struct Fact {
    text: String,
    query: String,
    decoy: String,
    session: usize,
    seq: usize,
    place: Place,
}

/// Words with a Zipf-like spread, as in real text: the vocabulary's first words (the short
/// common ones listed above) turn up everywhere, invented identifiers after them rarely.
struct Corpus {
    en: Vocabulary,
    ja: Vocabulary,
}

struct Vocabulary {
    words: Vec<String>,
}

impl Vocabulary {
    fn new(common: &[&str], syllables: &[&str], invented: usize, rng: &mut fastrand::Rng) -> Self {
        let mut words: Vec<String> = common.iter().map(|w| w.to_string()).collect();
        while words.len() < common.len() + invented {
            let parts = rng.usize(2..5);
            words.push(
                (0..parts)
                    .map(|_| syllables[rng.usize(..syllables.len())])
                    .collect(),
            );
        }
        Vocabulary { words }
    }

    fn word(&self, rng: &mut fastrand::Rng) -> &str {
        // Log-uniform rank: P(rank) ~ 1 / rank.
        let rank = (self.words.len() as f64).powf(rng.f64()) as usize - 1;
        &self.words[rank.min(self.words.len() - 1)]
    }

    fn text(&self, rng: &mut fastrand::Rng, n: std::ops::Range<usize>, sep: &str) -> String {
        let n = rng.usize(n);
        (0..n).map(|_| self.word(rng)).collect::<Vec<_>>().join(sep)
    }
}

/// A fact about a code name; code names share prefixes (`Quasar-4` / `Quasar-47`) and each
/// also turns up in decoy sentences elsewhere, so ranking has work to do.
fn make_facts(rng: &mut fastrand::Rng, sessions: usize) -> Vec<Fact> {
    let mut taken = std::collections::HashSet::new();
    let mut facts = Vec::new();
    while facts.len() < FACTS {
        let japanese = facts.len() % 2 == 1;
        let n = rng.u32(1..100);
        let names = if japanese { NAMES_JA } else { NAMES_EN };
        let code = if japanese {
            format!("{}{n}号", names[rng.usize(..names.len())])
        } else {
            format!("{}-{n}", names[rng.usize(..names.len())])
        };
        let (session, seq) = (rng.usize(..sessions), rng.usize(1..=TURNS_PER_SESSION));
        if !taken.insert(code.clone()) || !taken.insert(format!("{session}/{seq}")) {
            continue;
        }
        let v = rng.u32(100..10_000);
        let (text, query, decoy) = match (japanese, facts.len() / 2 % 3) {
            (false, 0) => (
                format!("The deploy key for {code} lives in vault path secret/ops/{v}."),
                format!("{code} deploy key"),
                format!("{code} build passed on CI."),
            ),
            (false, 1) => (
                format!(
                    "{code} nightly backup runs at 03:{:02} UTC on host bk{v}.",
                    v % 60
                ),
                format!("{code} nightly backup"),
                format!("Reviewed the {code} dashboard."),
            ),
            (false, _) => (
                format!("The {code} rate limit was raised to {v} requests per minute."),
                format!("{code} rate limit"),
                format!("{code} logs look clean."),
            ),
            (true, 0) => (
                format!("{code}の本番データベースは東京リージョン{v}にあります。"),
                format!("{code} 本番データベース"),
                format!("{code}のテストが通りました。"),
            ),
            (true, 1) => (
                format!("{code}の夜間バックアップは{}時に実行されます。", v % 24),
                format!("{code} 夜間バックアップ"),
                format!("{code}のログを確認しました。"),
            ),
            (true, _) => (
                format!("{code}のレート制限は毎分{v}リクエストに引き上げられました。"),
                format!("{code} レート制限"),
                format!("{code}の設定を変更しました。"),
            ),
        };
        let place = [Place::Prompt, Place::Answer, Place::ToolOutput][facts.len() / 6 % 3];
        facts.push(Fact {
            text,
            query,
            decoy,
            session,
            seq,
            place,
        });
    }
    facts
}

fn session_id(i: usize) -> String {
    format!("bench-{i:06}")
}

/// Days back from the bench's clock for session `i`: spread over a year.
fn session_time(i: usize, sessions: usize, seq: usize) -> String {
    let day = 365 - (i * 365 / sessions.max(1));
    let base = humantime::parse_rfc3339("2026-11-30T00:00:00Z").unwrap();
    let at = base - Duration::from_secs(day as u64 * 86_400) + Duration::from_secs(seq as u64 * 60);
    humantime::format_rfc3339_millis(at).to_string()
}

/// The records of one generated turn, with `extra` sentences placed where asked.
fn turn_records(
    rng: &mut fastrand::Rng,
    corpus: &Corpus,
    japanese: bool,
    key: &str,
    at: &str,
    extra: &[(Place, &str)],
) -> Vec<Record> {
    let (vocab, sep) = if japanese {
        (&corpus.ja, "")
    } else {
        (&corpus.en, " ")
    };
    let with = |mut text: String, place: Place| {
        for (p, s) in extra {
            if *p == place {
                text.push_str(sep);
                text.push_str(s);
            }
        }
        text
    };
    let prompt = with(vocab.text(rng, 6..30, sep), Place::Prompt);
    let answer = with(vocab.text(rng, 20..80, sep), Place::Answer);
    let at = Some(at.to_string());
    let mut out = vec![
        Record::Prompt {
            key: format!("u:{key}"),
            text: prompt,
            at: at.clone(),
        },
        Record::Answer {
            key: format!("a:{key}"),
            text: answer,
            at: at.clone(),
        },
    ];
    for call in 0..rng.usize(1..=3) {
        let id = format!("{key}:{call}");
        let lines = if rng.usize(..200) == 0 {
            4_000
        } else {
            rng.usize(5..60)
        };
        let mut output: Vec<String> = (0..lines)
            .map(|_| corpus.en.text(rng, 4..12, " "))
            .collect();
        if call == 0 {
            let middle = output.len() / 2;
            for (p, s) in extra {
                if *p == Place::ToolOutput {
                    output.insert(middle, s.to_string());
                }
            }
        }
        out.push(Record::Detail {
            key: format!("c:{id}"),
            kind: DetailKind::ToolCall,
            name: Some(["Bash", "Read", "Grep"][call % 3].to_string()),
            tool_use_id: Some(id.clone()),
            body: format!("{{\"command\":\"grep -rn {} src/\"}}", corpus.en.word(rng)),
            is_error: false,
            at: at.clone(),
        });
        out.push(Record::Detail {
            key: format!("r:{id}"),
            kind: DetailKind::ToolResult,
            name: None,
            tool_use_id: Some(id),
            body: output.join("\n"),
            is_error: false,
            at: at.clone(),
        });
    }
    out
}

fn build(
    store: &mut Store,
    corpus: &Corpus,
    turns: usize,
    facts: &[Fact],
    rng: &mut fastrand::Rng,
) {
    let sessions = turns.div_ceil(TURNS_PER_SESSION);
    let mut extras: HashMap<(usize, usize), Vec<(Place, &str)>> = HashMap::new();
    for f in facts {
        extras
            .entry((f.session, f.seq))
            .or_default()
            .push((f.place, &f.text));
        for _ in 0..DECOYS_PER_FACT {
            let at = (rng.usize(..sessions), rng.usize(1..=TURNS_PER_SESSION));
            extras
                .entry(at)
                .or_default()
                .push((Place::Answer, &f.decoy));
        }
    }
    for s in 0..sessions {
        let japanese = s % 5 == 0;
        let w = store.write().unwrap();
        let project = format!("/bench/project-{}", s % PROJECTS);
        let mut session = w
            .session(Host::Claude, &session_id(s), Some(&project), None)
            .unwrap();
        w.touch_session(
            session.id,
            Some(&session_time(s, sessions, 0)),
            Some(&session_time(s, sessions, TURNS_PER_SESSION)),
        )
        .unwrap();
        let mut turn = None;
        for seq in 1..=TURNS_PER_SESSION.min(turns - s * TURNS_PER_SESSION) {
            let extra = extras.get(&(s, seq)).cloned().unwrap_or_default();
            let at = session_time(s, sessions, seq);
            // Facts in Japanese sit in Japanese turns and the other way round, like real work.
            for r in turn_records(rng, corpus, japanese, &seq.to_string(), &at, &extra) {
                w.apply(&mut session, &mut turn, &r).unwrap();
            }
        }
        w.commit().unwrap();
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn timed(label: &str, store: &Store, queries: &[&str]) {
    let mut times = Vec::new();
    for q in queries {
        for _ in 0..3 {
            let start = Instant::now();
            let hits = search::search(store, &request(q)).unwrap().hits;
            times.push(start.elapsed());
            std::hint::black_box(hits);
        }
    }
    times.sort();
    println!(
        "{label:<28} p50 {:>7.1?}  p95 {:>7.1?}  max {:>7.1?}  ({} queries)",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times.last().unwrap(),
        times.len()
    );
}

fn request(query: &str) -> Request {
    Request {
        query: query.to_string(),
        limit: 3,
        ..Request::default()
    }
}

/// A typical turn's tool output, and a heavy one (a big log or file read among them).
const TYPICAL: &[usize] = &[2_000, 8_000];
const HEAVY: &[usize] = &[4_000, 40_000, 1_000_000];

/// Median time to store one turn (prompt, answer, tool calls with outputs of these sizes),
/// committed, as a hook would.
fn capture_cost(
    store: &mut Store,
    corpus: &Corpus,
    label: &str,
    sizes: &[usize],
    rounds: usize,
    rng: &mut fastrand::Rng,
) -> Duration {
    let mut times = Vec::new();
    for i in 0..rounds {
        let key = format!("{label}-{i}");
        let mut records = turn_records(rng, corpus, false, &key, "2026-11-30T00:00:00.000Z", &[]);
        records.retain(|r| !matches!(r, Record::Detail { .. }));
        for (n, &size) in sizes.iter().enumerate() {
            let id = format!("{key}:big{n}");
            records.push(Record::Detail {
                key: format!("c:{id}"),
                kind: DetailKind::ToolCall,
                name: Some("Bash".into()),
                tool_use_id: Some(id.clone()),
                body: "{\"command\":\"make\"}".into(),
                is_error: false,
                at: None,
            });
            let body = corpus.en.text(rng, size / 6..size / 6 + 1, " ");
            records.push(Record::Detail {
                key: format!("r:{id}"),
                kind: DetailKind::ToolResult,
                name: None,
                tool_use_id: Some(id),
                body,
                is_error: false,
                at: None,
            });
        }
        let start = Instant::now();
        let w = store.write().unwrap();
        let mut session = w
            .session(Host::Claude, "bench-capture", Some("/bench/capture"), None)
            .unwrap();
        let mut turn = None;
        for r in &records {
            w.apply(&mut session, &mut turn, r).unwrap();
        }
        w.commit().unwrap();
        times.push(start.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let turns: usize = std::env::var("BENCH_TURNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let keep = std::env::var_os("BENCH_DIR");
    let temp = tempfile::tempdir().unwrap();
    let dir = keep
        .map(Into::into)
        .unwrap_or_else(|| temp.path().to_path_buf());
    let home = Home::at(dir.join("home"));
    // BENCH_REUSE=1 queries a memory kept by an earlier run (its capture-cost part is skipped:
    // that run changed the triggers).
    let reuse = std::env::var_os("BENCH_REUSE").is_some() && home.db_path().exists();
    if !reuse {
        let _ = std::fs::remove_file(home.db_path());
    }
    let mut rng = fastrand::Rng::with_seed(20261130);
    let sessions = turns.div_ceil(TURNS_PER_SESSION);
    let facts = make_facts(&mut rng, sessions);
    let corpus = Corpus {
        en: Vocabulary::new(EN_WORDS, SYLLABLES_EN, 5_000, &mut rng),
        ja: Vocabulary::new(JA_WORDS, SYLLABLES_JA, 3_000, &mut rng),
    };

    let started = Instant::now();
    let mut store = Store::open(&home).unwrap();
    if !reuse {
        build(&mut store, &corpus, turns, &facts, &mut rng);
    }
    let bytes = store.stats().unwrap().bytes;
    println!(
        "memory: {turns} turns in {sessions} sessions, {} facts, built in {:.1?}, {:.0} MiB",
        facts.len(),
        started.elapsed(),
        bytes as f64 / 1048576.0
    );

    // Retrieval quality.
    let mut found = 0;
    let mut chars_returned = 0;
    let mut fact_times = Vec::new();
    let mut by_kind: HashMap<(Place, bool), (usize, usize)> = HashMap::new();
    for (i, f) in facts.iter().enumerate() {
        let start = Instant::now();
        let hits = search::search(&store, &request(&f.query)).unwrap().hits;
        fact_times.push(start.elapsed());
        let rendered: Vec<String> = hits
            .iter()
            .map(|h| h.render(Pointer::Mcp, Paint::Plain))
            .collect();
        chars_returned += rendered.join("\n\n").chars().count();
        let role = match f.place {
            Place::Prompt => "user",
            Place::Answer => "assistant",
            Place::ToolOutput => "tool_result",
        };
        let hit = hits.iter().any(|h| {
            h.entry.session_id == session_id(f.session)
                && h.entry.role == role
                && store.turn(&h.entry.turn).unwrap().seq as usize == f.seq
        });
        found += usize::from(hit);
        let entry = by_kind.entry((f.place, i % 2 == 1)).or_default();
        entry.0 += usize::from(hit);
        entry.1 += 1;
    }
    let mut slowest: Vec<(Duration, &str)> = fact_times
        .iter()
        .copied()
        .zip(facts.iter().map(|f| f.query.as_str()))
        .collect();
    slowest.sort();
    fact_times.sort();
    println!(
        "recall@3: {:.1}% ({found}/{})",
        100.0 * found as f64 / facts.len() as f64,
        facts.len()
    );
    let mut kinds: Vec<_> = by_kind.into_iter().collect();
    kinds.sort_by_key(|((p, ja), _)| (format!("{p:?}"), *ja));
    for ((place, ja), (hit, all)) in kinds {
        println!(
            "  {:<11} {}: {hit}/{all}",
            format!("{place:?}"),
            if ja { "Japanese" } else { "English" }
        );
    }
    println!(
        "characters returned per fact found: {:.0}",
        chars_returned as f64 / found.max(1) as f64
    );
    println!(
        "{:<28} p50 {:>7.1?}  p95 {:>7.1?}  max {:>7.1?}  ({} queries)",
        "fact queries (limit 3)",
        percentile(&fact_times, 0.5),
        percentile(&fact_times, 0.95),
        fact_times.last().unwrap(),
        fact_times.len()
    );
    let slow: Vec<String> = slowest
        .iter()
        .rev()
        .take(3)
        .map(|(t, q)| format!("{q:?} {t:.1?}"))
        .collect();
    println!("  slowest: {}", slow.join(", "));
    timed(
        "frequent words",
        &store,
        &[
            "error",
            "deploy key",
            "database migration",
            "テスト",
            "データベース 移行",
        ],
    );
    timed("short words (scan)", &store, &["CI", "号", "db"]);

    // What the index costs capture and disk.
    let raw = Connection::open(home.db_path()).unwrap();
    let index_bytes: i64 = raw
        .query_row(
            "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'messages_fts%' OR name LIKE 'details_fts%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let all_bytes: i64 = raw
        .query_row("SELECT sum(pgsize) FROM dbstat", [], |r| r.get(0))
        .unwrap();
    println!(
        "index: {:.0} MiB of {:.0} MiB ({:.0}%)",
        index_bytes as f64 / 1048576.0,
        all_bytes as f64 / 1048576.0,
        100.0 * index_bytes as f64 / all_bytes as f64
    );
    if reuse {
        return;
    }
    let rounds = 15;
    let cost = |label: &str, store: &mut Store, rng: &mut fastrand::Rng| {
        [TYPICAL, HEAVY].map(|sizes| capture_cost(store, &corpus, label, sizes, rounds, rng))
    };
    let capped = cost("capped", &mut store, &mut rng);
    raw.execute_batch(
        "DROP TRIGGER details_fts_insert;
         CREATE TRIGGER details_fts_insert AFTER INSERT ON details
         WHEN new.kind IN ('tool_call', 'tool_result', 'thinking', 'subagent') BEGIN
             INSERT INTO details_fts (rowid, body) VALUES (new.id, new.body);
         END;",
    )
    .unwrap();
    let uncapped = cost("uncapped", &mut store, &mut rng);
    raw.execute_batch("DROP TRIGGER details_fts_insert; DROP TRIGGER messages_fts_insert;")
        .unwrap();
    let none = cost("none", &mut store, &mut rng);
    for (i, shape) in ["2 KB + 8 KB", "4 KB + 40 KB + 1 MB"].iter().enumerate() {
        println!(
            "storing one turn ({shape} of tool output), median of {rounds}: no index {:.1?}, \
             index capped at 64 KiB {:.1?} ({:.2}x), uncapped {:.1?} ({:.2}x)",
            none[i],
            capped[i],
            capped[i].as_secs_f64() / none[i].as_secs_f64(),
            uncapped[i],
            uncapped[i].as_secs_f64() / none[i].as_secs_f64()
        );
    }
}
