//! Search benchmark (run by `bench/search.py`): builds a memory of generated sessions with
//! planted facts — in prompts, in assistant text, inside tool output and on line 400 of a
//! 20 KB tool output, in English and Japanese, and about identifiers with separators
//! (`kestrel_pool.max-idle:47`), each next to decoys that share its code name, and for some
//! a file mentioning the code read ten times — then reports
//!
//! * verbatim@3: how often the fact's sentence comes back exactly as stored in the first three
//!   hits as the MCP `search` tool renders them, and the same through `throughline mcp` with
//!   the official MCP SDK's client (rmcp);
//! * recall@3: how often the entry holding a fact is among the first three hits;
//! * characters per answer (the three hits as the MCP `search` tool renders them);
//! * query latency (p50 / p95) of the fact queries, of frequent words and of short words;
//! * what a pasted query costs per word as it grows from 32 words to 2,048: the first words of
//!   a long stored tool output, and as many words no entry holds together;
//! * how long indexing the whole memory takes (the first search) and the index's share of
//!   the database.
//!
//! `BENCH_TURNS` sets the size (default 100,000 turns), `BENCH_DIR` keeps the database.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use throughline::home::Home;
use throughline::ingest::Record;
use throughline::model::DetailKind;
use throughline::render::{self, Paint, Pointer};
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
    /// Line 400 of a 20 KB tool output.
    DeepOutput,
}

/// What kind of fact, for the report.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Kind {
    English,
    Japanese,
    /// An identifier with separators, asked for as written.
    Identifier,
    /// The same, asked for with other separators: found by its parts.
    IdentifierParts,
}

/// Lines of a deep output, and the line holding the fact.
const DEEP_LINES: usize = 420;
const DEEP_LINE: usize = 400;
/// How often the file that mentions a fact's code is read, in as many sessions.
const READS_OF_A_FILE: usize = 10;
const IDENTIFIER_FACTS: usize = 60;

struct Fact {
    text: String,
    query: String,
    decoy: String,
    /// A file that names the code and the query's words without the fact, read many times.
    file: Option<String>,
    session: usize,
    seq: usize,
    place: Place,
    kind: Kind,
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
        let place = [
            Place::Prompt,
            Place::Answer,
            Place::ToolOutput,
            Place::DeepOutput,
        ][facts.len() / 6 % 4];
        // Every third fact's code is also all over a file that is read again and again.
        let file = (facts.len() % 3 == 0).then(|| {
            (0..40)
                .map(|i| format!("{i}: {} — {} notes, see the runbook", code, query))
                .collect::<Vec<_>>()
                .join("\n")
        });
        facts.push(Fact {
            text,
            query,
            decoy,
            file,
            session,
            seq,
            place,
            kind: if japanese {
                Kind::Japanese
            } else {
                Kind::English
            },
        });
    }
    while facts.len() < FACTS + IDENTIFIER_FACTS {
        let name = NAMES_EN[rng.usize(..NAMES_EN.len())].to_lowercase();
        let (n, v) = (rng.u32(1..100), rng.u32(100..10_000));
        let setting = ["max-idle", "retry-after", "queue-depth"][rng.usize(..3)];
        let ident = format!("{name}_pool.{setting}:{n}");
        let (session, seq) = (rng.usize(..sessions), rng.usize(1..=TURNS_PER_SESSION));
        if !taken.insert(ident.clone()) || !taken.insert(format!("{session}/{seq}")) {
            continue;
        }
        let by_parts = facts.len() % 2 == 0;
        // Asked for with the separators swapped, the identifier as written is nowhere.
        let query = if by_parts {
            format!("{name}-pool {} {n}", setting.replace('-', "_"))
        } else {
            ident.clone()
        };
        facts.push(Fact {
            text: format!("{ident} is set to {v} in config/{name}.toml for the deploy."),
            query,
            decoy: format!("{name}_pool.{setting} was logged at startup."),
            file: None,
            session,
            seq,
            place: [Place::Answer, Place::ToolOutput][facts.len() / 2 % 2],
            kind: if by_parts {
                Kind::IdentifierParts
            } else {
                Kind::Identifier
            },
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
    files: &[&str],
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
    let deep = extra.iter().any(|(p, _)| *p == Place::DeepOutput);
    let calls = rng.usize(1..=3);
    for call in 0..calls + files.len() {
        let id = format!("{key}:{call}");
        let lines = if call == 0 && deep {
            DEEP_LINES
        } else if rng.usize(..200) == 0 {
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
                match p {
                    Place::ToolOutput => output.insert(middle, s.to_string()),
                    Place::DeepOutput => output[DEEP_LINE - 1] = s.to_string(),
                    _ => {}
                }
            }
        }
        if let Some(file) = call.checked_sub(calls).map(|i| files[i]) {
            output = vec![file.to_string()];
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
    let mut reads: HashMap<(usize, usize), Vec<&str>> = HashMap::new();
    for f in facts {
        if let Some(file) = &f.file {
            for _ in 0..READS_OF_A_FILE {
                let at = (rng.usize(..sessions), rng.usize(1..=TURNS_PER_SESSION));
                reads.entry(at).or_default().push(file);
            }
        }
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
            .session(
                throughline::hosts::claude::HOST,
                &session_id(s),
                Some(&project),
                None,
            )
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
            let files = reads.get(&(s, seq)).cloned().unwrap_or_default();
            let at = session_time(s, sessions, seq);
            // Facts in Japanese sit in Japanese turns and the other way round, like real work.
            for r in turn_records(rng, corpus, japanese, &seq.to_string(), &at, &extra, &files) {
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

/// Words of a pasted query, the fewest first: the others' cost per word is told against it.
const PASTED_WORDS: &[usize] = &[32, 256, 2048];

/// Queries pasted whole: the first words of the longest stored tool output (its entry holds
/// them all) and as many words drawn from the vocabulary (no entry holds them all, so the
/// search goes on to parts, most words and spellings). For each size, the median of three
/// runs and its cost per word against the fewest words, measured in the same run: 1× is
/// linear.
fn pasted(store: &Store, home: &Home, corpus: &Corpus, rng: &mut fastrand::Rng) {
    let raw = Connection::open(home.db_path()).unwrap();
    let longest: String = raw
        .query_row(
            "SELECT body FROM details WHERE kind = 'tool_result' ORDER BY length(body) DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let stored: Vec<&str> = longest.split_whitespace().collect();
    let most = *PASTED_WORDS.last().unwrap();
    let made_up = corpus.en.text(rng, most..most + 1, " ");
    let made_up: Vec<&str> = made_up.split(' ').collect();
    for (label, words) in [
        ("pasted stored text", &stored),
        ("pasted made-up text", &made_up),
    ] {
        let mut shown = Vec::new();
        let mut per_word = Vec::new();
        for &n in PASTED_WORDS {
            let query = words[..n.min(words.len())].join(" ");
            let mut times: Vec<Duration> = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(search::search(store, &request(&query)).unwrap());
                    start.elapsed()
                })
                .collect();
            times.sort();
            let median = times[1];
            per_word.push(median.as_secs_f64() / n as f64);
            let different = search::terms(&query)
                .iter()
                .map(|t| t.to_lowercase())
                .collect::<std::collections::HashSet<_>>()
                .len();
            shown.push(format!("{n} words ({different} different) {median:.1?}"));
        }
        let ratios: Vec<String> = per_word
            .iter()
            .map(|t| format!("{:.2}×", t / per_word[0]))
            .collect();
        println!(
            "{label:<28} {}; per word against {} words: {}",
            shown.join(", "),
            PASTED_WORDS[0],
            ratios.join(" / ")
        );
    }
}

/// The answer as the MCP `search` tool gives it: the hits, then any note on what was not
/// looked at.
fn mcp_answer(found: &search::Found) -> String {
    let mut parts: Vec<String> = found
        .hits
        .iter()
        .map(|h| render::hit(h, Pointer::Mcp, Paint::Plain))
        .collect();
    parts.extend(found.partial.iter().map(|p| format!("note: {p}")));
    parts.join("\n\n")
}

/// The fact queries asked of `throughline mcp` on this memory through the official MCP SDK's
/// client, as a host asks them: how many answers hold the fact's sentence as stored.
fn through_mcp(home: &Home, facts: &[Fact]) -> (usize, usize) {
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
    use rmcp::ServiceExt;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let command =
            tokio::process::Command::new(env!("CARGO_BIN_EXE_throughline")).configure(|cmd| {
                cmd.arg("mcp").env("THROUGHLINE_HOME", home.dir());
            });
        let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
        let mut exact = 0;
        for f in facts {
            let arguments = serde_json::json!({"query": f.query, "all_projects": true, "limit": 3});
            let result = client
                .call_tool(
                    CallToolRequestParams::new("search")
                        .with_arguments(arguments.as_object().unwrap().clone()),
                )
                .await
                .unwrap();
            let text: String = result
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
                .collect();
            exact += usize::from(text.contains(&f.text));
        }
        client.cancel().await.unwrap();
        (exact, facts.len())
    })
}

fn request(query: &str) -> Request {
    Request {
        query: query.to_string(),
        limit: 3,
        ..Request::default()
    }
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
    // BENCH_REUSE=1 queries a memory kept by an earlier run.
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
    let mut store = throughline::open_store(&home).unwrap();
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

    // The first search indexes the whole memory; timed apart from the queries.
    let started = Instant::now();
    let indexed = store.index_pending().unwrap();
    println!(
        "indexing what was stored: {} entries in {:.1?}",
        indexed.added,
        started.elapsed()
    );

    // Retrieval quality.
    let mut found = 0;
    let mut verbatim = 0;
    let mut chars_returned = 0;
    let mut fact_times = Vec::new();
    let mut by_kind: HashMap<(Kind, Place), [usize; 3]> = HashMap::new();
    let mut missed = Vec::new();
    for f in &facts {
        let start = Instant::now();
        let answer = search::search(&store, &request(&f.query)).unwrap();
        fact_times.push(start.elapsed());
        let hits = &answer.hits;
        let shown = mcp_answer(&answer);
        chars_returned += shown.chars().count();
        let role = match f.place {
            Place::Prompt => "user",
            Place::Answer => "assistant",
            Place::ToolOutput | Place::DeepOutput => "tool_result",
        };
        let hit = hits.iter().any(|h| {
            h.entry.session_id == session_id(f.session)
                && h.entry.role == role
                && store.turn(&h.entry.turn).unwrap().seq as usize == f.seq
        });
        let exact = shown.contains(&f.text);
        if !exact && missed.len() < 3 {
            missed.push(format!("{:?}", f.query));
        }
        found += usize::from(hit);
        verbatim += usize::from(exact);
        let entry = by_kind.entry((f.kind, f.place)).or_default();
        entry[0] += usize::from(exact);
        entry[1] += usize::from(hit);
        entry[2] += 1;
    }
    let percent = |n: usize| 100.0 * n as f64 / facts.len() as f64;
    println!(
        "verbatim@3 (the fact's sentence as stored, in the first 3 hits): {:.1}% ({verbatim}/{})",
        percent(verbatim),
        facts.len()
    );
    println!(
        "recall@3 (the entry holding it among them): {:.1}% ({found}/{})",
        percent(found),
        facts.len()
    );
    let mut kinds: Vec<_> = by_kind.into_iter().collect();
    kinds.sort_by_key(|((kind, place), _)| (*kind, format!("{place:?}")));
    for ((kind, place), [exact, hit, all]) in kinds {
        println!(
            "  {:<16} {:<11} verbatim {exact}/{all}, entry {hit}/{all}",
            format!("{kind:?}"),
            format!("{place:?}")
        );
    }
    if !missed.is_empty() {
        println!("  not verbatim, e.g.: {}", missed.join(", "));
    }
    println!(
        "characters per answer (3 hits as the MCP tool renders them): {:.0}",
        chars_returned as f64 / facts.len() as f64
    );
    let mut slowest: Vec<(Duration, &str)> = fact_times
        .iter()
        .copied()
        .zip(facts.iter().map(|f| f.query.as_str()))
        .collect();
    slowest.sort();
    fact_times.sort();
    println!(
        "{:<28} p50 {:>7.1?}  p95 {:>7.1?}  max {:>7.1?}  ({} queries)",
        "fact queries (limit 3)",
        percentile(&fact_times, 0.5),
        percentile(&fact_times, 0.95),
        fact_times.iter().max().unwrap(),
        fact_times.len()
    );
    let (exact, asked) = through_mcp(&home, &facts);
    println!(
        "verbatim@3 through `throughline mcp` and the MCP SDK client: {:.1}% ({exact}/{asked})",
        100.0 * exact as f64 / asked as f64
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
    pasted(&store, &home, &corpus, &mut rng);

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
}
