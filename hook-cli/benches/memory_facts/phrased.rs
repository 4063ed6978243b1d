//! Everyday turns of coding work said in a language of the shape's choosing: the phrases
//! of each language are the shape's, the turns they fill are built here.

use fastrand::Rng;

use crate::filler::{clippy, git_log, pick, Codebase};
use crate::session::Turn;

/// What a language says in the everyday turns; `{name}`, `{path}`, `{noun}`, `{m}`, `{n}` and
/// `{test}` are filled in.
pub struct Phrases {
    pub explain: [&'static str; 2],
    pub explained: &'static str,
    pub callers: &'static str,
    pub called: &'static str,
    pub run_tests: &'static str,
    pub passed: &'static str,
    pub failing: &'static str,
    pub fixed: &'static str,
    pub add_log: &'static str,
    pub logged: &'static str,
    pub lint: &'static str,
    pub lint_clean: &'static str,
    pub lint_warnings: &'static str,
    pub commits: &'static str,
    pub committed: &'static str,
    pub threads: &'static str,
    pub threads_answer: &'static str,
    /// Routine results and remarks, said again and again.
    pub remarks: [&'static str; 6],
}

/// `template` with its placeholders filled in.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_string(), |text, (key, value)| {
            text.replace(&format!("{{{key}}}"), value)
        })
}

/// `text`, and sometimes a routine remark after it.
fn with_remark(rng: &mut Rng, said: &Phrases, text: String) -> String {
    if rng.usize(..3) == 0 {
        format!("{text} {}", pick::<&str>(rng, &said.remarks))
    } else {
        text
    }
}

/// One everyday turn of work on `code`, said in `said`'s language.
pub fn phrased_turn(rng: &mut Rng, code: &Codebase, said: &Phrases) -> Turn {
    let (module, f) = code.function(rng);
    let (m, name, path, noun) = (module.name, f.name.as_str(), module.path.as_str(), f.noun);
    let base = [("name", name), ("path", path), ("noun", noun), ("m", m)];
    match rng.usize(..8) {
        0 => {
            let ask = fill(pick::<&str>(rng, &said.explain), &base);
            let answer = with_remark(rng, said, fill(said.explained, &base));
            Turn::new(ask).run(code.read(module)).answer(answer)
        }
        1 => {
            let grep = code.grep(rng, name);
            let callers = grep.output.lines().count().saturating_sub(1).to_string();
            let mut values = base.to_vec();
            values.push(("n", &callers));
            Turn::new(fill(said.callers, &base))
                .run(grep)
                .answer(fill(said.called, &values))
        }
        2 => {
            let tests = module.tests.len().to_string();
            let mut values = base.to_vec();
            values.push(("n", &tests));
            let answer = with_remark(rng, said, fill(said.passed, &values));
            Turn::new(fill(said.run_tests, &base))
                .run(code.cargo_test(rng, module, None))
                .answer(answer)
        }
        3 => {
            let test = pick(rng, &module.tests).clone();
            let mut values = base.to_vec();
            values.push(("test", &test));
            let (ask, answer) = (fill(said.failing, &values), fill(said.fixed, &values));
            code.fix_test(rng, Turn::new(ask), module, f, &test)
                .answer(answer)
        }
        4 => Turn::new(fill(said.add_log, &base))
            .run(code.read(module))
            .run(code.edit(
                path,
                "    Ok(())",
                &format!("    tracing::debug!(\"{name} done\");\n    Ok(())"),
            ))
            .answer(fill(said.logged, &base)),
        5 => {
            let (run, warnings) = clippy(rng, code);
            let answer = match warnings {
                0 => said.lint_clean.to_string(),
                k => fill(said.lint_warnings, &[("n", &k.to_string())]),
            };
            Turn::new(said.lint).run(run).answer(answer)
        }
        6 => {
            let answer = with_remark(rng, said, said.committed.to_string());
            Turn::new(said.commits)
                .run(git_log(rng, code))
                .answer(answer)
        }
        _ => Turn::new(fill(said.threads, &base)).answer(fill(said.threads_answer, &base)),
    }
}
