//! A realistic coding session for handoff tests and benchmarks: a project with big files, and
//! a script of N turns whose tools produce real output (Read of large files, `seq`, grep over a
//! generated tree, Edit, Write), with facts planted early, in the middle and late.

use super::claude::ClaudeEnv;
use super::model_server::{RecordedRequest, Script, Step};
use super::throughline::World;
use super::tmux::Tmux;
use serde_json::{json, Value};

/// A fact planted in one turn: its sentence is what must reach the memory ([`super::facts`]).
#[derive(Clone, Debug)]
pub struct Fact {
    /// Turn index (0-based) it is planted in.
    pub turn: usize,
    /// Whether the person says it (else the model does).
    pub in_prompt: bool,
    pub sentence: &'static str,
}

/// One scripted turn.
#[derive(Clone, Debug)]
pub struct ScenarioTurn {
    pub prompt: String,
    pub steps: Vec<Step>,
    /// The texts of the final answer, in order (what the model says last).
    pub answer: String,
}

/// The facts, with their position as a fraction of the session (early, middle, late).
const FACTS: &[(f32, bool, &str)] = &[
    (
        0.04,
        true,
        "Note for later: the staging API listens on port 8443.",
    ),
    (
        0.10,
        false,
        "Decision: the settings file is config/ledger.toml, nothing else is read.",
    ),
    (
        0.16,
        true,
        "We decided to keep SQLite in WAL mode instead of moving to Postgres.",
    ),
    (
        0.22,
        false,
        "Remember that the on-call owner for the ledger is Marguerite Okafor.",
    ),
    (
        0.40,
        true,
        "The nightly batch size must be 1750 rows, the bank rejects bigger files.",
    ),
    (
        0.46,
        false,
        "Found it: the flaky test is tests/reconcile_test.rs::handles_leap_day.",
    ),
    (
        0.52,
        true,
        "Set the retry backoff cap to 32 seconds, never more.",
    ),
    (
        0.58,
        false,
        "Decision: the feature flag LEDGER_FAST_PATH stays off in production.",
    ),
    (
        0.76,
        true,
        "If anything breaks, release tag v3.14.2 is the rollback target.",
    ),
    (
        0.82,
        false,
        "The error budget is 0.7 percent per month, so this change must ship behind the flag.",
    ),
    (
        0.88,
        true,
        "The migration script is scripts/migrate_0042.sql, run it before deploying.",
    ),
    (
        0.94,
        false,
        "Fixed: the cache TTL is now 900 seconds, as agreed with Marguerite.",
    ),
];

/// The facts planted in an `n`-turn session (each in a distinct turn).
pub fn facts(n: usize) -> Vec<Fact> {
    let mut out: Vec<Fact> = Vec::new();
    for &(at, in_prompt, sentence) in FACTS {
        let mut turn = ((at * n as f32) as usize).min(n.saturating_sub(1));
        while out.iter().any(|f| f.turn == turn) {
            turn += 1;
        }
        out.push(Fact {
            turn,
            in_prompt,
            sentence,
        });
    }
    out
}

/// Functions per module.
const CASES: usize = 40;

const MODULES: &[&str] = &[
    "ledger",
    "reconcile",
    "import",
    "export",
    "accounts",
    "journal",
    "audit",
    "schedule",
];

/// Project files: source modules of a few hundred lines, a long build log, a tree to grep.
pub fn project_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (m, module) in MODULES.iter().enumerate() {
        let mut text = format!("//! The {module} module.\n\nuse crate::prelude::*;\n\n");
        for i in 0..CASES {
            text.push_str(&format!(
                "/// Handles case {i} of {module}: amounts in cents, rounding half-even.\n\
                 pub fn {module}_step_{i}(input: &Entry, ctx: &mut Context) -> Result<Amount> {{\n    \
                 let limit = ctx.limit({m}{i:03});\n    \
                 if input.cents > limit {{ return Err(Error::OverLimit {{ at: \"{module}:{i}\", limit }}); }}\n    \
                 // TODO({module}-{i}): check the currency before adding\n    \
                 Ok(Amount::cents(input.cents + {m}{i:02}))\n}}\n\n"
            ));
        }
        files.push((format!("src/{module}.rs"), text));
    }
    let mut log = String::new();
    for i in 0..300 {
        log.push_str(&format!(
            "[build {i:05}] Compiling ledger-part-{} v0.{}.{} (target/debug/deps/part_{i}.rlib) in {}ms\n",
            i % 97,
            i % 7,
            i % 13,
            (i * 37) % 1000
        ));
    }
    files.push(("logs/build.log".to_string(), log));
    for d in 0..12 {
        for f in 0..6 {
            let mut text = String::new();
            for l in 0..20 {
                text.push_str(&format!(
                    "fixture {d}/{f} line {l}: account=AC{d:02}{f:02}{l:02} balance={} status={}\n",
                    (d * 1000 + f * 100 + l) * 7,
                    if l % 9 == 0 { "FROZEN" } else { "open" }
                ));
            }
            files.push((format!("data/region{d}/accounts{f}.txt"), text));
        }
    }
    files
}

/// `n` turns of work on the project in `env`, facts planted as [`facts`] says.
pub fn turns(env: &ClaudeEnv, n: usize) -> Vec<ScenarioTurn> {
    let path = |rel: &str| env.project.join(rel).to_string_lossy().into_owned();
    let planted = facts(n);
    (0..n)
        .map(|i| {
            let module = MODULES[i % MODULES.len()];
            // A function of that module with a TODO no earlier turn has fixed.
            let case = i % CASES;
            let fact = planted.iter().find(|f| f.turn == i);
            let mut prompt = match i % 6 {
                0 => format!("Step {}: read src/{module}.rs and tell me where the over-limit errors come from.", i + 1),
                1 => format!("Step {}: run the numbers check (seq 1 3000) and make sure the tail is intact.", i + 1),
                2 => format!("Step {}: grep the data tree for frozen accounts and tell me how many there are.", i + 1),
                3 => format!("Step {}: look at logs/build.log and tell me what the slowest part was.", i + 1),
                4 => format!("Step {}: fix the TODO in {module}_step_{case} and show me the change.", i + 1),
                _ => format!("Step {}: write down what we did to {module} in notes/{module}-{}.md.", i + 1, i),
            };
            let (tools, mut answer): (Vec<Step>, String) = match i % 6 {
                0 => (
                    vec![Step::new().text(format!("Reading src/{module}.rs.")).tool("Read", json!({"file_path": path(&format!("src/{module}.rs"))}))],
                    format!(
                        "Every {module}_step_N returns Error::OverLimit when input.cents exceeds ctx.limit(...). \
                         The limit key is built from the module number and the case, so case {i} of {module} uses \
                         a distinct key. There are {CASES} such functions and each carries a TODO about the currency check."
                    ),
                ),
                1 => (
                    vec![Step::new().tool("Bash", json!({"command": "seq 1 3000", "description": "Print the numbers"}))],
                    format!("The sequence runs from 1 to 3000 without gaps; the tail ends at 3000 as expected (check {}).", i + 1),
                ),
                2 => (
                    vec![
                        Step::new().tool("Bash", json!({"command": "grep -rn FROZEN data", "description": "Find frozen accounts"})),
                        Step::new().tool("Bash", json!({"command": "grep -rn FROZEN data | wc -l", "description": "Count frozen accounts"})),
                    ],
                    format!("There are 216 frozen accounts across 12 regions (3 per file, every ninth line). Run {} agrees with the earlier count.", i + 1),
                ),
                3 => (
                    vec![
                        Step::new().tool("Read", json!({"file_path": path("logs/build.log")})),
                        Step::new().tool("Bash", json!({"command": "sort -t' ' -k9 -n logs/build.log | tail -n 40", "description": "Slowest build steps"})),
                    ],
                    "The slowest step in logs/build.log took 999ms (ledger-part-26); most parts compile in well under a second, so the build is not the bottleneck.".to_string(),
                ),
                4 => (
                    vec![
                        // The client edits only files read in this session.
                        Step::new().tool("Read", json!({"file_path": path(&format!("src/{module}.rs"))})),
                        Step::new().tool("Edit", json!({
                            "file_path": path(&format!("src/{module}.rs")),
                            "old_string": format!("    // TODO({module}-{case}): check the currency before adding\n"),
                            "new_string": format!("    ctx.check_currency(input)?; // was TODO({module}-{case})\n"),
                        })),
                    ],
                    format!("Replaced the TODO in {module}_step_{case} with a call to ctx.check_currency(input)?, so a wrong currency now fails before the amounts are added."),
                ),
                _ => (
                    vec![Step::new().tool("Write", json!({
                        "file_path": path(&format!("notes/{module}-{i}.md")),
                        "content": format!("# {module}, step {}\n\n- Read the module, checked limits.\n- Currency check added where a TODO was.\n", i + 1),
                    }))],
                    format!("Wrote notes/{module}-{i}.md with a two-line summary of the {module} work so far."),
                ),
            };
            if let Some(f) = fact {
                if f.in_prompt {
                    prompt = format!("{prompt} {}", f.sentence);
                } else {
                    answer = format!("{answer} {}", f.sentence);
                }
            }
            let mut steps = tools;
            steps.push(Step::new().text(answer.clone()));
            ScenarioTurn {
                prompt,
                steps,
                answer,
            }
        })
        .collect()
}

/// The script that answers `turns` (each prompt matched exactly).
pub fn script(turns: &[ScenarioTurn]) -> Script {
    turns.iter().fold(Script::new(), |s, t| {
        s.on_prompt(t.prompt.clone(), t.steps.clone())
    })
}

/// What a session of scripted turns, `/clear` and one more prompt left behind.
pub struct Cleared {
    pub old_session: String,
    pub new_session: String,
    /// The last request of the old session: the whole conversation, tool output included.
    pub last_before: RecordedRequest,
    /// The first request of the new session, the one the memory must reach.
    pub first_after: RecordedRequest,
    /// The injection logged for the new session, if any.
    pub injection: Option<Value>,
}

/// Plays `turns` in one interactive window, runs `/clear`, then asks `next` (answered with
/// `next_answer`).
pub fn work_then_clear(
    world: &World,
    turns: &[ScenarioTurn],
    next: &str,
    next_answer: &str,
) -> Cleared {
    world
        .server
        .set_script(script(turns).on_prompt(next, vec![Step::new().text(next_answer)]));
    let mut ui = Tmux::start(&world.env);
    for t in turns {
        world.ask(&mut ui, &t.prompt);
    }
    let old_session = world.env.session_ids()[0].clone();
    let mains = world.server.main_requests();
    let last_before = mains.last().cloned().expect("main requests");
    let new_session = ui.clear()["session_id"]
        .as_str()
        .expect("session_id")
        .to_string();
    world.ask(&mut ui, next);
    let injection = world
        .injections()
        .into_iter()
        .find(|i| i["session_id"] == new_session.as_str());
    Cleared {
        old_session,
        new_session,
        last_before,
        first_after: world.first_request_for(mains.len(), next),
        injection,
    }
}

/// A long answer to "Review module N.": a few of them make a memory take two parts.
pub fn review(module: usize) -> String {
    (0..24)
        .map(|n| format!("Module {module}, check {n}: the ledger totals match the bank feed."))
        .collect::<Vec<_>>()
        .join(" ")
}
