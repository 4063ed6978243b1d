//! What surrounds the facts: a generated code base, the tools run on it with the output the
//! client writes back, and the routine turns of coding work. Wording is drawn at random, so no
//! two sessions, and few turns, read alike.

use fastrand::Rng;
use serde_json::json;

use crate::session::{
    fact_turns, free_turn, plant, Planted, Said, Session, ToolRun, Turn, FACT_AT,
};

pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.usize(..items.len())]
}

/// What a project is about: its crate, modules and the things its code handles.
pub struct Project {
    /// The repository, checked out at `/home/dev/<repo>`.
    pub repo: &'static str,
    /// The crate: its name and its folder in the repository (`""` at the root).
    pub name: &'static str,
    pub dir: &'static str,
    pub modules: &'static [&'static str],
    pub nouns: &'static [&'static str],
    pub dependencies: &'static [(&'static str, &'static str)],
}

impl Project {
    /// A shop's backend in Rust, checked out as `repo`: the codebase of the shapes held in
    /// languages other than English.
    pub const fn shop(repo: &'static str) -> Project {
        Project {
            repo,
            name: repo,
            dir: "",
            modules: &[
                "orders",
                "prices",
                "inventory",
                "import",
                "ledger",
                "checkout",
                "bank",
                "reports",
            ],
            nouns: &["order", "price", "entry", "batch"],
            dependencies: &[
                ("axum", "0.7.9"),
                ("sqlx", "0.8.2"),
                ("chrono", "0.4.38"),
                ("rust_decimal", "1.36.0"),
            ],
        }
    }
}

pub struct Function {
    pub name: String,
    /// What it does, as an answer says it ("rejects a job whose label is empty").
    pub does: String,
    pub noun: &'static str,
    pub body: String,
}

pub struct Module {
    pub name: &'static str,
    pub path: String,
    pub text: String,
    pub functions: Vec<Function>,
    pub tests: Vec<String>,
}

pub struct Codebase {
    pub project: &'static Project,
    /// The working directory of the session, a git checkout.
    pub root: String,
    pub modules: Vec<Module>,
}

const FIELDS: &[&str] = &["label", "reference", "owner", "note", "region", "source"];

pub fn plural(noun: &str) -> String {
    if noun.ends_with("ch") || noun.ends_with('s') || noun.ends_with('x') {
        format!("{noun}es")
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    }
}

fn camel(noun: &str) -> String {
    noun.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// One function of a module, from one of a few shapes real code takes.
fn function(rng: &mut Rng, noun: &'static str, shape: usize) -> Function {
    let ty = camel(noun);
    let nouns = plural(noun);
    let field = *pick(rng, FIELDS);
    let (name, does, body) = match shape {
        0 => (
            format!("load_{noun}"),
            format!("loads one {noun} by id and returns None for archived rows"),
            format!(
                "/// Loads the {noun} with `id`, skipping archived rows.\n\
                 pub fn load_{noun}(tx: &Tx, id: i64) -> Result<Option<{ty}>> {{\n    \
                 let row = tx.query_opt(\n        \
                 \"SELECT * FROM {nouns} WHERE id = $1 AND archived_at IS NULL\",\n        \
                 &[&id],\n    )?;\n    \
                 Ok(row.map(|r| {ty}::from_row(&r)))\n}}\n"
            ),
        ),
        1 => {
            let max = pick(rng, &[64, 128, 255, 512]);
            (
                format!("validate_{noun}"),
                format!("rejects a {noun} whose {field} is empty or longer than {max} bytes"),
                format!(
                    "/// Rejects a {noun} whose {field} is empty or longer than {max} bytes.\n\
                     pub fn validate_{noun}(item: &{ty}) -> Result<()> {{\n    \
                     if item.{field}.trim().is_empty() {{\n        \
                     return Err(Error::invalid(\"{noun}.{field} is empty\"));\n    }}\n    \
                     if item.{field}.len() > {max} {{\n        \
                     return Err(Error::invalid(format!(\"{noun}.{field} is {{}} bytes\", item.{field}.len())));\n    }}\n    \
                     Ok(())\n}}\n"
                ),
            )
        }
        2 => (
            format!("apply_{noun}_changes"),
            format!("applies a batch of {noun} state changes in one transaction and counts the rows it touched"),
            format!(
                "/// Applies `changes` in one transaction; returns how many {nouns} changed.\n\
                 pub fn apply_{noun}_changes(tx: &mut Tx, changes: &[{ty}Change]) -> Result<usize> {{\n    \
                 let mut changed = 0;\n    \
                 for change in changes {{\n        \
                 changed += tx.execute(\n            \
                 \"UPDATE {nouns} SET state = $2, updated_at = now() WHERE id = $1\",\n            \
                 &[&change.id, &change.state],\n        )?;\n    }}\n    \
                 Ok(changed)\n}}\n"
            ),
        ),
        3 => {
            let (times, ms) = (rng.u32(3..7), pick(rng, &[50, 100, 250]));
            (
                format!("with_{noun}_retry"),
                format!("retries a transient {noun} error up to {times} times, doubling the wait from {ms} ms"),
                format!(
                    "/// Runs `op` until it succeeds, at most {times} times, doubling the wait from {ms} ms.\n\
                     pub fn with_{noun}_retry<T>(mut op: impl FnMut() -> Result<T>) -> Result<T> {{\n    \
                     let mut wait = Duration::from_millis({ms});\n    \
                     for attempt in 1.. {{\n        \
                     match op() {{\n            \
                     Err(e) if attempt < {times} && e.is_transient() => {{\n                \
                     tracing::debug!(attempt, error = %e, \"{noun} operation failed, retrying\");\n                \
                     std::thread::sleep(wait);\n                \
                     wait *= 2;\n            }}\n            \
                     done => return done,\n        }}\n    }}\n    \
                     unreachable!()\n}}\n"
                ),
            )
        }
        4 => (
            format!("render_{noun}"),
            format!("formats a {noun} as one line of the admin listing, id first"),
            format!(
                "/// One line of the admin listing.\n\
                 pub fn render_{noun}(item: &{ty}) -> String {{\n    \
                 format!(\"{{:>8}} {{:<24}} {{}}\", item.id, item.{field}, item.state)\n}}\n"
            ),
        ),
        _ => (
            format!("merge_{nouns}"),
            format!("merges two lists of {nouns} by id and keeps the newer updated_at"),
            format!(
                "/// Merges two lists by id, keeping the newer `updated_at`.\n\
                 pub fn merge_{nouns}(a: Vec<{ty}>, b: Vec<{ty}>) -> Vec<{ty}> {{\n    \
                 let mut by_id: HashMap<i64, {ty}> = HashMap::new();\n    \
                 for item in a.into_iter().chain(b) {{\n        \
                 match by_id.get(&item.id) {{\n            \
                 Some(seen) if seen.updated_at >= item.updated_at => {{}}\n            \
                 _ => {{\n                \
                 by_id.insert(item.id, item);\n            }}\n        }}\n    }}\n    \
                 let mut merged: Vec<_> = by_id.into_values().collect();\n    \
                 merged.sort_by_key(|i| i.id);\n    \
                 merged\n}}\n"
            ),
        ),
    };
    Function {
        name,
        does,
        noun,
        body,
    }
}

const TEST_CASES: &[&str] = &[
    "handles_an_empty_input",
    "keeps_the_order",
    "rejects_a_bad_state",
    "round_trips",
    "skips_archived_rows",
    "survives_a_retry",
];

impl Codebase {
    pub fn new(rng: &mut Rng, project: &'static Project) -> Codebase {
        let modules = project
            .modules
            .iter()
            .map(|&name| {
                let mut shapes: Vec<(usize, &'static str)> = project
                    .nouns
                    .iter()
                    .flat_map(|&noun| (0..6).map(move |s| (s, noun)))
                    .collect();
                rng.shuffle(&mut shapes);
                let functions: Vec<Function> = shapes[..rng.usize(6..12)]
                    .iter()
                    .map(|&(shape, noun)| function(rng, noun, shape))
                    .collect();
                let mut tests: Vec<String> = functions
                    .iter()
                    .flat_map(|f| {
                        let cases = rng.usize(1..3);
                        (0..cases)
                            .map(|_| format!("{}_{}", f.name, pick(rng, TEST_CASES)))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                // As `cargo test` lists them: in order, each once.
                tests.sort();
                tests.dedup();
                let mut text = format!(
                    "//! {}: {} handling for {}.\n\nuse std::collections::HashMap;\nuse std::time::Duration;\n\n\
                     use crate::db::Tx;\nuse crate::error::{{Error, Result}};\nuse crate::model::*;\n\n",
                    name,
                    project.nouns.join(", "),
                    project.name
                );
                for f in &functions {
                    text.push_str(&f.body);
                    text.push('\n');
                }
                text.push_str("#[cfg(test)]\nmod tests {\n    use super::*;\n");
                for t in &tests {
                    text.push_str(&format!(
                        "\n    #[test]\n    fn {t}() {{\n        let fixture = Fixture::new();\n        assert!(fixture.check());\n    }}\n"
                    ));
                }
                text.push_str("}\n");
                Module {
                    name,
                    path: format!("{}src/{name}.rs", project.dir),
                    text,
                    functions,
                    tests,
                }
            })
            .collect();
        Codebase {
            project,
            root: format!("/home/dev/{}", project.repo),
            modules,
        }
    }

    pub fn abs(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root)
    }

    pub fn module<'a>(&'a self, rng: &mut Rng) -> &'a Module {
        pick(rng, &self.modules)
    }

    pub fn function<'a>(&'a self, rng: &mut Rng) -> (&'a Module, &'a Function) {
        let m = self.module(rng);
        (m, pick(rng, &m.functions))
    }

    pub fn read(&self, module: &Module) -> ToolRun {
        read_file(&self.abs(&module.path), &module.text)
    }

    /// Every line holding `word`, with callers in other modules as real code has them.
    pub fn grep(&self, rng: &mut Rng, word: &str) -> ToolRun {
        let mut hits = Vec::new();
        for m in &self.modules {
            for (i, line) in m.text.lines().enumerate() {
                if line.contains(word) {
                    hits.push(format!("{}:{}:{line}", m.path, i + 1));
                }
            }
        }
        for _ in 0..rng.usize(1..5) {
            let caller = self.module(rng);
            hits.push(format!(
                "{}:{}:        let outcome = {}::{word}(&mut tx, &input)?;",
                caller.path,
                rng.usize(20..400),
                caller.name
            ));
        }
        ToolRun {
            name: "Grep",
            input: json!({"pattern": word, "path": self.abs(&format!("{}src", self.project.dir)), "output_mode": "content", "-n": true}),
            output: hits.join("\n"),
            is_error: false,
            result: json!({"mode": "content", "numFiles": hits.len(), "numLines": hits.len()}),
        }
    }

    pub fn edit(&self, rel: &str, old: &str, new: &str) -> ToolRun {
        let path = self.abs(rel);
        ToolRun {
            name: "Edit",
            input: json!({"file_path": path, "old_string": old, "new_string": new, "replace_all": false}),
            output: format!(
                "The file {path} has been updated successfully. (file state is current in your context — no need to Read it back)"
            ),
            is_error: false,
            result: json!({"filePath": path, "oldString": old, "newString": new, "replaceAll": false, "userModified": false}),
        }
    }

    /// `cargo test` of one module, passing or with `failing` failing.
    pub fn cargo_test(&self, rng: &mut Rng, module: &Module, failing: Option<&str>) -> ToolRun {
        let mut out = format!(
            "   Compiling {name} v0.{} ({root})\n    Finished `test` profile [unoptimized + debuginfo] target(s) in {}.{:02}s\n     Running unittests src/lib.rs (target/debug/deps/{name}-{:016x})\n\nrunning {} tests\n",
            rng.u32(3..9),
            rng.u32(2..40),
            rng.u32(..100),
            rng.u64(..),
            module.tests.len(),
            name = self.project.name,
            root = self.root,
        );
        for t in &module.tests {
            let verdict = if Some(t.as_str()) == failing {
                "FAILED"
            } else {
                "ok"
            };
            out.push_str(&format!("test {}::tests::{t} ... {verdict}\n", module.name));
        }
        let filtered = rng.u32(80..400);
        let seconds = format!("{}.{:02}s", rng.u32(..3), rng.u32(..100));
        let passed = module.tests.len() - usize::from(failing.is_some());
        match failing {
            Some(t) => {
                out.push_str(&format!(
                    "\nfailures:\n\n---- {m}::tests::{t} stdout ----\n\nthread '{m}::tests::{t}' panicked at {p}:{}:9:\nassertion `left == right` failed\n  left: {}\n right: {}\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    {m}::tests::{t}\n\ntest result: FAILED. {passed} passed; 1 failed; 0 ignored; 0 measured; {filtered} filtered out; finished in {seconds}\n\nerror: test failed, to rerun pass `--lib`",
                    rng.usize(40..300),
                    rng.u32(2..9),
                    rng.u32(10..40),
                    m = module.name,
                    p = module.path,
                ));
                bash(
                    &format!("cargo test -p {} {}", self.project.name, module.name),
                    "Run the module's tests",
                    format!("Exit code 101\n{out}"),
                    true,
                )
            }
            None => {
                out.push_str(&format!(
                    "\ntest result: ok. {passed} passed; 0 failed; 0 ignored; 0 measured; {filtered} filtered out; finished in {seconds}\n"
                ));
                bash(
                    &format!("cargo test -p {} {}", self.project.name, module.name),
                    "Run the module's tests",
                    out,
                    false,
                )
            }
        }
    }

    /// The runs of fixing `test`: it fails, the file is read and edited, it passes.
    pub fn fix_test(
        &self,
        rng: &mut Rng,
        turn: Turn,
        module: &Module,
        f: &Function,
        test: &str,
    ) -> Turn {
        let ty = camel(f.noun);
        let old = format!("    Ok(row.map(|r| {ty}::from_row(&r)))");
        let new = format!(
            "    Ok(row.map(|r| {ty}::from_row(&r)).filter(|i| i.state != State::Archived))"
        );
        turn.run(self.cargo_test(rng, module, Some(test)))
            .say_then_run(format!("Reading {}.", module.path), self.read(module))
            .run(self.edit(&module.path, &old, &new))
            .run(self.cargo_test(rng, module, None))
    }
}

pub fn read_file(path: &str, text: &str) -> ToolRun {
    let numbered: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}\t{l}", i + 1))
        .collect();
    let lines = numbered.len();
    ToolRun {
        name: "Read",
        input: json!({"file_path": path}),
        output: numbered.join("\n"),
        is_error: false,
        result: json!({"type": "text", "file": {"filePath": path, "content": text, "numLines": lines, "startLine": 1, "totalLines": lines}}),
    }
}

pub fn bash(command: &str, description: &str, output: String, is_error: bool) -> ToolRun {
    ToolRun {
        name: "Bash",
        input: json!({"command": command, "description": description}),
        result: json!({"stdout": if is_error { "" } else { output.as_str() }, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}),
        output,
        is_error,
    }
}

pub fn write_file(path: &str, content: &str) -> ToolRun {
    ToolRun {
        name: "Write",
        input: json!({"file_path": path, "content": content}),
        output: format!(
            "File created successfully at: {path} (file state is current in your context — no need to Read it back)"
        ),
        is_error: false,
        result: json!({"type": "create", "filePath": path, "content": content, "structuredPatch": [], "originalFile": null}),
    }
}

/// A sentence that sounds like a result or a decision and is said again and again.
pub fn routine_remark(rng: &mut Rng) -> String {
    match rng.usize(..14) {
        0 => "Tests pass.".into(),
        1 => format!("All {} tests pass.", rng.u32(120..480)),
        2 => "Tests pass again.".into(),
        3 => "Decision: keep the current approach for now.".into(),
        4 => "Done, the build is green.".into(),
        5 => "Note: nothing else changed.".into(),
        6 => "Fixed.".into(),
        7 => "Clippy is clean, no new warnings.".into(),
        8 => "Confirmed: it works locally.".into(),
        9 => "Decided to leave the rest as it is.".into(),
        10 => format!("{} passed, 0 failed.", rng.u32(40..300)),
        11 => "Important: run the full suite before you push.".into(),
        12 => "Good, that part is settled.".into(),
        _ => "Nothing else needs to change for this.".into(),
    }
}

/// The remark, sometimes, after `text`.
pub fn maybe_remark(rng: &mut Rng, text: String) -> String {
    if rng.usize(..3) == 0 {
        format!("{text} {}", routine_remark(rng))
    } else {
        text
    }
}

pub fn git_log(rng: &mut Rng, code: &Codebase) -> ToolRun {
    const WHAT: &[&str] = &[
        "Fix off-by-one in",
        "Add tests for",
        "Rename helpers in",
        "Log errors from",
        "Speed up",
        "Document",
        "Simplify",
        "Handle empty input in",
    ];
    let lines: Vec<String> = (0..rng.usize(5..12))
        .map(|_| {
            let (m, f) = code.function(rng);
            format!(
                "{:07x} {} {}::{}",
                rng.u32(..0x1000_0000),
                pick(rng, WHAT),
                m.name,
                f.name
            )
        })
        .collect();
    bash(
        "git log --oneline -12",
        "Recent commits",
        lines.join("\n"),
        false,
    )
}

/// A clippy run, and how many warnings it printed.
pub fn clippy(rng: &mut Rng, code: &Codebase) -> (ToolRun, usize) {
    let warnings = rng.usize(0..4);
    let mut out = format!(
        "    Checking {} v0.{} ({})\n",
        code.project.name,
        rng.u32(3..9),
        code.root
    );
    for _ in 0..warnings {
        let (m, f) = code.function(rng);
        out.push_str(&format!(
            "warning: this `if` has identical blocks\n  --> {}:{}:13\n   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else\n   = note: in `{}`\n\n",
            m.path,
            rng.usize(10..300),
            f.name
        ));
    }
    out.push_str(&format!(
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in {}.{:02}s",
        rng.u32(3..30),
        rng.u32(..100)
    ));
    (
        bash(
            "cargo clippy --all-targets -- -D clippy::all",
            "Lint",
            out,
            false,
        ),
        warnings,
    )
}

/// One turn of everyday coding work on `code`: reading, searching, testing, editing.
pub fn coding_turn(rng: &mut Rng, code: &Codebase) -> Turn {
    let (module, f) = code.function(rng);
    let (m, name, path) = (module.name, f.name.as_str(), module.path.as_str());
    match rng.usize(..11) {
        0 => {
            let ask = match rng.usize(..3) {
                0 => format!("Read {path} and tell me what {name} does."),
                1 => format!("What does {name} in {path} do with an empty {}?", f.noun),
                _ => format!("Open {path}, I want to understand {name} before we touch it."),
            };
            Turn::new(ask)
                .run(code.read(module))
                .answer(maybe_remark(rng, format!("`{name}` {}.", f.does)))
        }
        1 => {
            let ask = match rng.usize(..3) {
                0 => format!("Where is {name} called?"),
                1 => format!("Find every caller of {name}."),
                _ => format!("grep for {name} and tell me who uses it"),
            };
            let grep = code.grep(rng, name);
            let callers = grep.output.lines().count().saturating_sub(1);
            Turn::new(ask).run(grep).answer(format!(
                "{callers} call sites besides the definition in {path}; none of them passes a {} that could be empty.",
                f.noun
            ))
        }
        2 => {
            let ask = match rng.usize(..3) {
                0 => format!("Run the {m} tests."),
                1 => format!("Can you run cargo test for {m}?"),
                _ => "Run the tests again please.".to_string(),
            };
            let run = code.cargo_test(rng, module, None);
            Turn::new(ask).run(run).answer(format!(
                "All {} tests in {m} pass. {}",
                module.tests.len(),
                routine_remark(rng)
            ))
        }
        3 => {
            let test = pick(rng, &module.tests).clone();
            let ask = match rng.usize(..2) {
                0 => format!("{test} is failing, can you look?"),
                _ => format!("Fix {test}, it broke after the last change."),
            };
            code.fix_test(rng, Turn::new(ask), module, f, &test)
                .answer(format!(
                    "The test expected archived {} to be skipped, but the row was mapped before the state was checked. Filtering on the state fixes it; {test} passes now.",
                    plural(f.noun)
                ))
        }
        4 => {
            let new_name = format!("{name}_checked");
            let ask = match rng.usize(..2) {
                0 => format!("Rename {name} to {new_name} everywhere."),
                _ => format!("{name} is a misleading name, call it {new_name}."),
            };
            let grep = code.grep(rng, name);
            let places = grep.output.lines().count();
            let mut turn = Turn::new(ask).run(grep);
            for _ in 0..places.min(3) {
                turn = turn.run(code.edit(path, name, &new_name));
            }
            turn.answer(maybe_remark(
                rng,
                format!("Renamed {name} to {new_name} in {places} places."),
            ))
        }
        5 => {
            let ask = match rng.usize(..2) {
                0 => format!("Add a debug log line when {name} fails."),
                _ => format!("Log something useful when {name} returns an error."),
            };
            Turn::new(ask)
                .run(code.read(module))
                .run(code.edit(
                    path,
                    "    Ok(())",
                    &format!("    tracing::debug!(\"{name} done\");\n    Ok(())"),
                ))
                .answer(format!(
                    "Added a `tracing::debug!` line in {name}; it only shows with RUST_LOG=debug."
                ))
        }
        6 => {
            let ask = *pick(
                rng,
                &[
                    "Run clippy.",
                    "Any lint warnings?",
                    "Does clippy still pass?",
                ],
            );
            let (run, warnings) = clippy(rng, code);
            let answer = match warnings {
                0 => "Clippy is clean.".to_string(),
                1 => "One `if_same_then_else` warning, in code we did not touch today; I left it.".to_string(),
                n => format!("{n} `if_same_then_else` warnings, all in code we did not touch today; I left them."),
            };
            Turn::new(ask).run(run).answer(answer)
        }
        7 => {
            let ask = *pick(
                rng,
                &[
                    "What changed since yesterday?",
                    "Show me the last few commits.",
                    "What did we commit so far?",
                ],
            );
            Turn::new(ask).run(git_log(rng, code)).answer(maybe_remark(
                rng,
                "Mostly small fixes and tests; nothing touches the schema.".to_string(),
            ))
        }
        8 => {
            let test = format!("{name}_{}", pick(rng, TEST_CASES));
            let ask = match rng.usize(..2) {
                0 => format!("Write a test for {name} with an empty {}.", f.noun),
                _ => format!("Add a unit test that covers {name}."),
            };
            Turn::new(ask)
                .run(code.read(module))
                .run(code.edit(
                    path,
                    "mod tests {\n    use super::*;\n",
                    &format!("mod tests {{\n    use super::*;\n\n    #[test]\n    fn {test}() {{\n        assert!(Fixture::new().check());\n    }}\n"),
                ))
                .run(code.cargo_test(rng, module, None))
                .answer(maybe_remark(rng, format!("Added {test}; it passes.")))
        }
        9 => {
            let (dep, version) = *pick(rng, code.project.dependencies);
            let ask = match rng.usize(..2) {
                0 => format!("Bump {dep} to {version}."),
                _ => format!("Update {dep} to {version} and check that it still builds."),
            };
            Turn::new(ask)
                .run(code.edit(&format!("{}Cargo.toml", code.project.dir), &format!("{dep} = \""), &format!("{dep} = \"{version}")))
                .run(bash(
                    "cargo build",
                    "Build",
                    format!(
                        "    Updating crates.io index\n     Locking 1 package to latest compatible version\n    Updating {dep} -> v{version}\n   Compiling {dep} v{version}\n   Compiling {} v0.5.0 ({})\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in {}.{:02}s",
                        code.project.name,
                        code.root,
                        rng.u32(8..60),
                        rng.u32(..100)
                    ),
                    false,
                ))
                .answer(maybe_remark(rng, format!("{dep} is at {version} now and everything builds.")))
        }
        _ => {
            let ask = match rng.usize(..3) {
                0 => format!("Is it safe to call {name} from two threads?"),
                1 => format!("Should {name} take a slice instead of a Vec?"),
                _ => format!("Do we still need {name}?"),
            };
            Turn::new(ask).answer(format!(
                "`{name}` {}. It holds no state of its own, so the question is only what the caller passes in; I would leave its signature as it is.",
                f.does
            ))
        }
    }
}

/// A session of everyday coding work on `project` with `facts` said in it.
pub fn everyday_session(
    n: usize,
    rng: &mut Rng,
    project: &'static Project,
    facts: &[Said],
) -> Session {
    let code = Codebase::new(rng, project);
    let facts = plant(&fact_turns(n, &mut Vec::new()), facts);
    let turns = (0..n).map(|_| coding_turn(rng, &code)).collect();
    Session::new(&code.root, turns, facts, Vec::new(), rng)
}

/// A session of everyday coding work on `project` where `say` puts each of `facts` into the
/// turn it is planted in, in the shape's own way.
pub fn said_session(
    n: usize,
    rng: &mut Rng,
    project: &'static Project,
    facts: &[Said],
    mut say: impl FnMut(&mut Rng, &Codebase, &Planted, &mut Turn),
) -> Session {
    let code = Codebase::new(rng, project);
    let facts = plant(&fact_turns(n, &mut Vec::new()), facts);
    let mut turns: Vec<Turn> = (0..n).map(|_| coding_turn(rng, &code)).collect();
    for fact in &facts {
        say(rng, &code, fact, &mut turns[fact.turn]);
    }
    Session::said(&code.root, turns, facts, Vec::new())
}

/// A session of everyday coding work on `project` where `standing` facts hold and each of
/// `corrections` (the fact, and the decision it takes back) is said after what it corrects:
/// each corrected decision at half the way to its correction.
pub fn corrected_session(
    n: usize,
    rng: &mut Rng,
    project: &'static Project,
    standing: &[Said],
    corrections: &[(Said, Said)],
) -> Session {
    let code = Codebase::new(rng, project);
    let mut taken = Vec::new();
    let slots = fact_turns(n, &mut taken);
    let said: Vec<Said> = standing
        .iter()
        .copied()
        .chain(corrections.iter().map(|(fact, _)| *fact))
        .collect();
    let facts = plant(&slots, &said);
    let earlier: Vec<usize> = FACT_AT[standing.len()..]
        .iter()
        .map(|&at| free_turn(n, at / 2.0, &mut taken))
        .collect();
    let before: Vec<Said> = corrections.iter().map(|(_, before)| *before).collect();
    let superseded = plant(&earlier, &before);
    let turns = (0..n).map(|_| coding_turn(rng, &code)).collect();
    Session::new(&code.root, turns, facts, superseded, rng)
}
