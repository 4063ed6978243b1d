//! A generated session: its turns, the sentences planted in them, and the transcript Claude
//! Code 2.1.332 would have written for it.

use fastrand::Rng;
use serde_json::{json, Value};
use std::fmt::Write as _;

use crate::facts;

#[derive(Clone, Copy)]
pub enum Speaker {
    Person,
    Assistant,
}

/// A tool call, what the tool returned, and the `toolUseResult` the client writes beside it.
pub struct ToolRun {
    pub name: &'static str,
    pub input: Value,
    pub output: String,
    pub is_error: bool,
    pub result: Value,
}

pub struct Turn {
    pub prompt: String,
    /// What the assistant said before each tool call (often nothing), and the call.
    pub steps: Vec<(String, ToolRun)>,
    /// The final answer, paragraph by paragraph.
    pub answer: Vec<String>,
}

impl Turn {
    pub fn new(prompt: impl Into<String>) -> Turn {
        Turn {
            prompt: prompt.into(),
            steps: Vec::new(),
            answer: Vec::new(),
        }
    }

    pub fn run(mut self, tool: ToolRun) -> Turn {
        self.steps.push((String::new(), tool));
        self
    }

    pub fn say_then_run(mut self, text: impl Into<String>, tool: ToolRun) -> Turn {
        self.steps.push((text.into(), tool));
        self
    }

    pub fn answer(mut self, paragraph: impl Into<String>) -> Turn {
        self.answer.push(paragraph.into());
        self
    }
}

/// A sentence said once, in one turn.
pub struct Planted {
    pub turn: usize,
    pub by: Speaker,
    pub sentence: &'static str,
}

impl Planted {
    pub fn new(turn: usize, by: Speaker, sentence: &'static str) -> Planted {
        Planted { turn, by, sentence }
    }
}

pub struct Session {
    /// Where the session ran: the project's checkout.
    pub cwd: String,
    pub turns: Vec<Turn>,
    pub facts: Vec<Planted>,
    /// Decisions that a later fact takes back, said earlier (the `corrections` shape).
    pub superseded: Vec<Planted>,
}

/// Where the facts go, as a fraction of the session: early, in the middle and late.
pub const FACT_AT: [f32; 12] = [
    0.04, 0.10, 0.16, 0.22, 0.40, 0.46, 0.52, 0.58, 0.76, 0.82, 0.88, 0.94,
];

/// A turn of an `n`-turn session near fraction `at`, none of `taken` (which it joins).
pub fn free_turn(n: usize, at: f32, taken: &mut Vec<usize>) -> usize {
    let mut turn = ((at * n as f32) as usize).min(n - 1);
    while taken.contains(&turn) {
        turn = (turn + 1) % n;
    }
    taken.push(turn);
    turn
}

/// A sentence and who says it.
pub type Said = (Speaker, &'static str);

/// `said[i]` planted in `turns[i]`.
pub fn plant(turns: &[usize], said: &[Said]) -> Vec<Planted> {
    turns
        .iter()
        .zip(said)
        .map(|(&turn, &(by, sentence))| Planted::new(turn, by, sentence))
        .collect()
}

/// The turns of [`FACT_AT`] in an `n`-turn session.
pub fn fact_turns(n: usize, taken: &mut Vec<usize>) -> Vec<usize> {
    FACT_AT.iter().map(|&at| free_turn(n, at, taken)).collect()
}

impl Session {
    /// `turns` with every planted sentence said where it belongs; checks what the benchmark
    /// promises about them.
    pub fn new(
        cwd: &str,
        mut turns: Vec<Turn>,
        facts: Vec<Planted>,
        superseded: Vec<Planted>,
        rng: &mut Rng,
    ) -> Session {
        for p in facts.iter().chain(&superseded) {
            let turn = &mut turns[p.turn];
            match p.by {
                Speaker::Person => turn.prompt = beside(&turn.prompt, p.sentence, rng.bool()),
                Speaker::Assistant => say_in_answer(&mut turn.answer, p.sentence, rng),
            }
        }
        Session::said(cwd, turns, facts, superseded)
    }

    /// `turns` in which every planted sentence is said already; checks what the benchmark
    /// promises about them.
    pub fn said(
        cwd: &str,
        turns: Vec<Turn>,
        facts: Vec<Planted>,
        superseded: Vec<Planted>,
    ) -> Session {
        let session = Session {
            cwd: cwd.to_string(),
            turns,
            facts,
            superseded,
        };
        session.check();
        session
    }

    fn check(&self) {
        let said: String = self
            .turns
            .iter()
            .flat_map(|t| {
                [t.prompt.clone()]
                    .into_iter()
                    .chain(t.steps.iter().map(|(text, _)| text.clone()))
                    .chain(t.answer.iter().cloned())
            })
            .collect::<Vec<_>>()
            .join("\n");
        let planted: Vec<&Planted> = self.facts.iter().chain(&self.superseded).collect();
        for p in &planted {
            let chars = p.sentence.chars().count();
            // A fact under 40 characters counts only whole, so terse ones are fair to plant.
            assert!(
                (30..=180).contains(&chars),
                "{chars} characters: {}",
                p.sentence
            );
            assert_eq!(
                said.matches(p.sentence).count(),
                1,
                "said once: {}",
                p.sentence
            );
        }
        // No other sentence may keep a fact for it (a correction and what it corrects).
        for fact in &self.facts {
            for other in planted.iter().filter(|p| p.sentence != fact.sentence) {
                assert!(
                    !facts::kept(fact.sentence, other.sentence),
                    "{:?} shares a part with {:?}",
                    fact.sentence,
                    other.sentence
                );
            }
        }
    }
}

/// `sentence` before or after `text`, as one more sentence of it.
pub fn beside(text: &str, sentence: &str, before: bool) -> String {
    match (text.is_empty(), before) {
        (true, _) => sentence.to_string(),
        (false, true) => format!("{sentence}{}{text}", space_between(sentence, text)),
        (false, false) => format!("{text}{}{sentence}", space_between(text, sentence)),
    }
}

/// Chinese and Japanese sentences follow each other without a space, and a text that ends
/// a line needs none.
fn space_between(first: &str, second: &str) -> &'static str {
    // Chinese and Japanese join sentences with no space; Korean puts one between them.
    let unspaced = |c: char| matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}');
    let joins_bare = |c: Option<char>| c.is_some_and(|c| unspaced(c) || c.is_whitespace());
    if joins_bare(first.chars().last()) || joins_bare(second.chars().next()) {
        ""
    } else {
        " "
    }
}

/// Says `sentence` inside the answer: within a paragraph of prose, away from its ends when
/// the answer is long, or as a paragraph of its own.
fn say_in_answer(answer: &mut Vec<String>, sentence: &str, rng: &mut Rng) {
    let prose: Vec<usize> = (0..answer.len())
        .filter(|&i| is_prose(&answer[i]))
        .collect();
    let inner: Vec<usize> = prose
        .iter()
        .copied()
        .filter(|&i| i > 0 && i + 1 < answer.len())
        .collect();
    let choices = if inner.is_empty() { &prose } else { &inner };
    if choices.is_empty() || rng.usize(..4) == 0 {
        let at = if answer.len() > 2 {
            rng.usize(1..answer.len())
        } else {
            answer.len()
        };
        answer.insert(at, sentence.to_string());
        return;
    }
    let i = choices[rng.usize(..choices.len())];
    answer[i] = beside(&answer[i], sentence, rng.bool());
}

fn is_prose(paragraph: &str) -> bool {
    !paragraph.contains('\n') && !paragraph.starts_with("```") && !paragraph.starts_with("- ")
}

/// A version 4 UUID from `rng`.
pub fn uuid(rng: &mut Rng) -> String {
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        rng.u32(..),
        rng.u16(..),
        rng.u16(..0x1000),
        rng.u16(0x8000..0xc000),
        rng.u64(..1 << 48)
    )
}

/// An id of the shape the API gives (`msg_01…`, `toolu_01…`).
fn api_id(rng: &mut Rng, prefix: &str) -> String {
    let tail: String = std::iter::repeat_with(|| rng.alphanumeric())
        .take(22)
        .collect();
    format!("{prefix}_01{tail}")
}

/// Writes the lines of one session, chained by `parentUuid`, with the fields 2.1.332 writes.
struct Writer<'a> {
    rng: &'a mut Rng,
    session_id: &'a str,
    cwd: &'a str,
    out: String,
    parent: Option<String>,
    /// Milliseconds since 08:00 on the session's day.
    clock: u64,
    context_tokens: u64,
}

impl Writer<'_> {
    fn line(&mut self, mut entry: Value, pause_ms: std::ops::Range<u64>) -> String {
        self.clock += self.rng.u64(pause_ms);
        let uuid = uuid(self.rng);
        let ms = 8 * 3_600_000 + self.clock;
        assert!(ms < 24 * 3_600_000, "a session fits in a day");
        let fields = json!({
            "parentUuid": self.parent,
            "isSidechain": false,
            "uuid": uuid,
            "timestamp": format!(
                "2026-11-30T{:02}:{:02}:{:02}.{:03}Z",
                ms / 3_600_000,
                ms / 60_000 % 60,
                ms / 1000 % 60,
                ms % 1000
            ),
            "userType": "external",
            "entrypoint": "cli",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": "2.1.332",
            "gitBranch": "main",
        });
        let map = entry.as_object_mut().expect("an entry is an object");
        for (k, v) in fields.as_object().expect("fields").clone() {
            map.insert(k, v);
        }
        writeln!(self.out, "{entry}").expect("write to a String");
        self.parent = Some(uuid.clone());
        uuid
    }

    /// One content block of an assistant message, on its own line as the client writes it.
    fn assistant_block(&mut self, message_id: &str, block: Value, stop_reason: &str) -> String {
        let output_tokens = (block.to_string().len() / 4).max(8) as u64;
        let entry = json!({
            "type": "assistant",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-opus-5-5",
                "content": [block],
                "stop_reason": stop_reason,
                "stop_sequence": null,
                "usage": {
                    "input_tokens": 6,
                    "cache_creation_input_tokens": self.rng.u64(200..2400),
                    "cache_read_input_tokens": self.context_tokens,
                    "output_tokens": output_tokens,
                    "service_tier": "standard",
                },
            },
            "requestRef": uuid(self.rng),
            "requestedModel": "claude-opus-5-5",
        });
        self.line(entry, 400..6000)
    }

    fn turn(&mut self, index: usize, turn: &Turn) {
        let prompt_id = uuid(self.rng);
        let started = self.clock;
        self.line(
            json!({
                "type": "user",
                "promptId": prompt_id,
                "message": {"role": "user", "content": turn.prompt},
                "permissionMode": "default",
                "origin": {"kind": "human"},
                "promptSource": "typed",
                "turnOrigin": "human",
                "turnPosition": {"promptIndex": index + 1, "turnIndex": index + 1},
            }),
            20_000..90_000,
        );
        let mut lines = 1;
        for (text, tool) in &turn.steps {
            let message_id = api_id(self.rng, "msg");
            if !text.is_empty() {
                self.assistant_block(
                    &message_id,
                    json!({"type": "text", "text": text}),
                    "tool_use",
                );
                lines += 1;
            }
            let tool_id = api_id(self.rng, "toolu");
            let call = self.assistant_block(
                &message_id,
                json!({"type": "tool_use", "id": tool_id, "name": tool.name, "input": tool.input}),
                "tool_use",
            );
            self.line(
                json!({
                    "type": "user",
                    "promptId": prompt_id,
                    "message": {"role": "user", "content": [{
                        "tool_use_id": tool_id,
                        "type": "tool_result",
                        "content": tool.output,
                        "is_error": tool.is_error,
                    }]},
                    "toolUseResult": tool.result,
                    "sourceToolAssistantUUID": call,
                }),
                80..4000,
            );
            lines += 2;
            self.context_tokens += (tool.output.len() / 4) as u64 + 120;
        }
        let message_id = api_id(self.rng, "msg");
        let answer = turn.answer.join("\n\n");
        self.assistant_block(
            &message_id,
            json!({"type": "text", "text": answer}),
            "end_turn",
        );
        self.context_tokens += ((turn.prompt.len() + answer.len()) / 4) as u64;
        self.line(
            json!({
                "type": "system",
                "subtype": "turn_duration",
                "durationMs": self.clock - started,
                "messageCount": lines + 1,
                "isMeta": false,
            }),
            5..60,
        );
    }
}

/// The session as the lines of `~/.claude/projects/<dir>/<session_id>.jsonl`.
pub fn transcript(session: &Session, session_id: &str, rng: &mut Rng) -> String {
    let mut writer = Writer {
        rng,
        session_id,
        cwd: &session.cwd,
        out: String::new(),
        parent: None,
        clock: 0,
        context_tokens: 14_000,
    };
    for (i, turn) in session.turns.iter().enumerate() {
        writer.turn(i, turn);
    }
    writer.out
}
