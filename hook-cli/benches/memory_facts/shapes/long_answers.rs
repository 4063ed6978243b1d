//! Explanations, comparisons and plans: answers of several paragraphs with lists and code,
//! each fact said somewhere inside one of them.

use fastrand::Rng;

use crate::filler::{coding_turn, pick, plural, routine_remark, Codebase, Project};
use crate::session::{fact_turns, plant, Said, Session, Speaker::*, Turn};

const PROJECT: Project = Project {
    repo: "harbor",
    name: "harbor",
    dir: "",
    modules: &[
        "wal",
        "segment",
        "compaction",
        "manifest",
        "cache",
        "recovery",
        "replica",
        "bloom",
    ],
    nouns: &["segment", "block", "record", "checkpoint"],
    dependencies: &[
        ("crc32fast", "1.4.2"),
        ("xxhash-rust", "0.8.12"),
        ("memmap2", "0.9.5"),
        ("zstd", "0.13.2"),
    ],
};

const FACTS: [Said; 12] = [
    (Assistant, "The compaction thread must run at most 2 merges at once, a third one starves the write path on the 4-core nodes."),
    (Assistant, "We keep segment files at 64 MiB because the backup tool uploads them in one part, and S3 multipart starts above that."),
    (Assistant, "Decision: checksums move from CRC32 to xxh3 in format version 7, and readers keep accepting CRC32 until version 9."),
    (Assistant, "The write-ahead log is fsynced every 20 ms or every 256 KiB, whichever comes first, as agreed with the storage team."),
    (Assistant, "Bloom filters use 10 bits per key, which keeps the false positive rate near 1 percent at the sizes we see in production."),
    (Assistant, "The root cause of the slow restarts is that recovery replays the whole WAL instead of starting from the last checkpoint."),
    (Assistant, "Decision: the legacy v1 manifest reader is removed in release 2.8, and 2.7 logs a warning whenever it reads one."),
    (Assistant, "Tombstones are kept for 72 hours before compaction may drop them, so replicas that were offline can still catch up."),
    (Assistant, "The block cache gets 30 percent of the container memory limit, read from cgroup memory.max at startup, never a fixed size."),
    (Assistant, "Iris Nakamura owns the on-disk format, and any change to the segment header needs her review before it merges."),
    (Assistant, "Benchmarks must run on the c6i.2xlarge runner pool, because the shared runners vary by 25 percent between runs."),
    (Assistant, "Next step: add a fuzz target for the manifest parser, since the crash in issue 1184 came from a truncated manifest."),
];

const TOPICS: &[&str] = &[
    "compaction",
    "recovery",
    "write path",
    "read path",
    "segment upload",
    "block cache",
    "replication",
];

const EVENTS: &[&str] = &[
    "a crash in the middle of a compaction",
    "a replica coming back after a day offline",
    "a checkpoint while writes keep coming",
    "a manifest update racing a reader",
    "the disk filling up during a merge",
];

const OPTIONS: &[(&str, &str)] = &[
    ("one WAL per shard", "one shared WAL"),
    ("mmap for reads", "pread with our own cache"),
    ("zstd for cold segments", "lz4 everywhere"),
    ("leveled compaction", "tiered compaction"),
];

const PLANS: &[&str] = &[
    "splitting the manifest into one file per shard",
    "moving the block cache into its own crate",
    "the format version 7 rollout",
    "read-your-writes on replicas",
];

/// The vocabulary one answer is written from.
struct Subject<'a> {
    topic: &'a str,
    name: &'a str,
    does: &'a str,
    module: &'a str,
    noun: &'a str,
    other: &'a str,
}

/// How many sentences [`prose_sentence`] knows.
const PROSE: usize = 18;

fn prose_sentence(rng: &mut Rng, s: &Subject, which: usize) -> String {
    let (topic, name, does, module, noun, other) =
        (s.topic, s.name, s.does, s.module, s.noun, s.other);
    let nouns = plural(noun);
    match which {
        0 => format!("The {topic} starts in `{name}`, which {does}."),
        1 => format!("Everything after that runs on the {module} thread, so nothing here blocks a writer."),
        2 => "The expensive part is not the work itself but the fsync that follows it.".to_string(),
        3 => format!("In last week's traces the {topic} spent {} percent of its time in `{name}`.", rng.u32(12..70)),
        4 => format!("That is why the number of {nouns} matters more than their bytes: each one costs a lookup in the manifest."),
        5 => format!("A crash in the middle is safe, because nothing is visible until the manifest points at the new {noun}."),
        6 => format!("When two {nouns} overlap, the newer sequence number wins and the older one goes at the next merge."),
        7 => format!("Most of this is covered by the tests in `{module}`, but not the case where the disk fills up halfway."),
        8 => "The numbers here come from the 40 GB fixture, which is close to the biggest shard we run.".to_string(),
        9 => "Reads never take the lock; they pin the current version and release it when the iterator is dropped.".to_string(),
        10 => format!("Memory stays flat because {nouns} are streamed in blocks of {} KiB instead of being loaded whole.", pick(rng, &[16, 32, 64])),
        11 => format!("The retries in `{other}` cover transient I/O errors only; a checksum mismatch stops the shard."),
        12 => "I would not change the on-disk layout for this, the gain is too small to justify a format bump.".to_string(),
        13 => format!("The simplest improvement is to make the {topic} aware of {noun} sizes and skip the small ones."),
        14 => format!("Under load this runs about {} times per second per shard, so an allocation here shows up in profiles.", rng.u32(200..5000)),
        15 => format!("What makes it confusing is that `{name}` is called from two places that expect different things."),
        16 => "None of this changes what we promise clients: an acknowledged write survives a crash.".to_string(),
        _ => format!("One subtle case is a {noun} deleted while the {topic} is still reading it."),
    }
}

/// A paragraph of sentences drawn from `unsaid`, so that an answer says each once.
fn paragraph(
    rng: &mut Rng,
    s: &Subject,
    unsaid: &mut Vec<usize>,
    sentences: std::ops::Range<usize>,
) -> String {
    (0..rng.usize(sentences))
        .filter_map(|_| unsaid.pop())
        .map(|which| prose_sentence(rng, s, which))
        .collect::<Vec<_>>()
        .join(" ")
}

fn bullets(rng: &mut Rng, s: &Subject) -> String {
    let (topic, noun, nouns) = (s.topic, s.noun, plural(s.noun));
    let mut items = vec![
        format!("- `{}`: {}", s.name, s.does),
        format!("- the {topic} takes a snapshot of the manifest first, so it sees a stable set of {nouns}"),
        format!("- errors are reported per {noun}; the shard keeps serving reads"),
        format!("- progress is written to the manifest every {} {nouns}", rng.u32(50..500)),
        format!("- nothing is deleted until the new {noun} is fsynced and referenced"),
        format!("- metrics: `harbor_{}_seconds` and `harbor_{}_bytes_total`", topic.replace(' ', "_"), topic.replace(' ', "_")),
        format!("- the work is bounded by `max_{nouns}_in_flight` (default {})", rng.u32(2..16)),
        format!("- `{}` is the only place that touches the files directly", s.other),
    ];
    rng.shuffle(&mut items);
    items.truncate(rng.usize(3..6));
    items.join("\n")
}

fn steps(rng: &mut Rng, s: &Subject) -> String {
    let mut steps = [
        format!("write the new {} next to the old one", s.noun),
        "fsync it and its directory".to_string(),
        "swap the manifest entry in one atomic rename".to_string(),
        format!(
            "let `{}` drop the old files once no reader pins them",
            s.other
        ),
        "record the step in the metrics so a stall is visible".to_string(),
    ];
    let keep = rng.usize(3..6);
    steps[..keep]
        .iter_mut()
        .enumerate()
        .map(|(i, step)| format!("{}. {step}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

fn long_turn(rng: &mut Rng, code: &Codebase) -> Turn {
    let (module, f) = code.function(rng);
    let (_, other) = code.function(rng);
    let topic = *pick(rng, TOPICS);
    let s = Subject {
        topic,
        name: &f.name,
        does: &f.does,
        module: module.name,
        noun: f.noun,
        other: &other.name,
    };
    let prompt = match rng.usize(..6) {
        0 => format!(
            "Explain how {} in {} fits into the {topic}, I need to present it tomorrow.",
            f.name, module.path
        ),
        1 => format!(
            "Walk me through what happens on {}, step by step.",
            pick(rng, EVENTS)
        ),
        2 => {
            let (a, b) = pick(rng, OPTIONS);
            format!("Compare {a} with {b} for us. Pros and cons, and what you would pick.")
        }
        3 => format!("Write up a plan for {}.", pick(rng, PLANS)),
        4 => format!("Review {} and tell me what you would change.", f.name),
        _ => format!("Why is the {topic} so slow on large shards? Give me the full picture."),
    };
    let mut turn = Turn::new(prompt);
    if rng.bool() {
        turn = turn.run(code.read(module));
    }
    let mut unsaid: Vec<usize> = (0..PROSE).collect();
    rng.shuffle(&mut unsaid);
    turn = turn
        .answer(paragraph(rng, &s, &mut unsaid, 2..4))
        .answer(bullets(rng, &s))
        .answer(paragraph(rng, &s, &mut unsaid, 3..5));
    if rng.bool() {
        turn = turn.answer(format!("```rust\n{}```", f.body));
    }
    turn = turn.answer(paragraph(rng, &s, &mut unsaid, 2..5));
    if rng.bool() {
        turn = turn
            .answer("The order that keeps it safe:".to_string())
            .answer(steps(rng, &s));
    }
    let closing = match rng.usize(..5) {
        0 => {
            "If you want, I can turn this into a short design note for the repository.".to_string()
        }
        1 => "Happy to go deeper into any of these.".to_string(),
        2 => "For the presentation I would show the middle part only; the rest is plumbing."
            .to_string(),
        3 => "Tell me which way you prefer and I will start with the tests.".to_string(),
        _ => routine_remark(rng),
    };
    turn.answer(closing)
}

pub fn session(n: usize, rng: &mut Rng) -> Session {
    let code = Codebase::new(rng, &PROJECT);
    let slots = fact_turns(n, &mut Vec::new());
    let facts = plant(&slots, &FACTS);
    let turns = (0..n)
        .map(|i| {
            if slots.contains(&i) || rng.usize(..5) < 3 {
                long_turn(rng, &code)
            } else {
                coding_turn(rng, &code)
            }
        })
        .collect();
    Session::new(&code.root, turns, facts, Vec::new(), rng)
}
