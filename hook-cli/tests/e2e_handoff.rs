//! Acceptance tests of the handoff: the real Claude Code CLI, interactive under tmux, with
//! every hook pointing at the real `throughline hook claude`, and the scripted model server
//! checking what the model receives in the first request of the next session.
//!
//! Needs the pinned client (`npm ci --prefix hook-cli/tests/claude-code`) and `tmux`.

mod support;

use serde_json::{json, Value};
use std::time::Instant;
use support::throughline::{messages_text, occurrences, units, World, MEMORY_HEADING};
use support::{scenario, RecordedRequest, Script, Step, Tmux};

/// The host drops one injected string over 10,000 UTF-16 units; ours stay within this.
const BUDGET: usize = 9_500;

/// Turns of scripted work before the `/clear` of the long acceptance test.
const TURNS: usize = 50;

fn answer(text: &str) -> Vec<Step> {
    vec![Step::new().text(text)]
}

/// The memory logged for `session_id`: its first injection, with the texts of every part
/// (after `/clear` the first prompt's hook gives the second part).
fn injection_for(world: &World, session_id: &str) -> Value {
    let log = world.injections();
    let mine: Vec<&Value> = log
        .iter()
        .filter(|i| i["session_id"] == session_id)
        .collect();
    assert!(
        (1..=2).contains(&mine.len()),
        "one memory, in one or two parts, into {session_id}; log: {log:#?}"
    );
    let mut first = mine[0].clone();
    first["parts"] = json!(mine.iter().map(|i| i["text"].clone()).collect::<Vec<_>>());
    first
}

/// Checks the first request of a session carries each part of `injection` exactly once,
/// each within budget, and returns the whole memory.
fn assert_carries_once(first: &RecordedRequest, injection: &Value) -> String {
    let parts: Vec<&str> = injection["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| p.as_str().expect("part text"))
        .collect();
    for (i, text) in parts.iter().enumerate() {
        assert!(
            text.starts_with(MEMORY_HEADING),
            "part {i} starts with its heading:\n{text}"
        );
        assert!(
            units(text) <= BUDGET,
            "part {i} of {} UTF-16 units is over the budget of {BUDGET}",
            units(text)
        );
        assert_eq!(
            occurrences(first, text),
            1,
            "the first request holds part {i} exactly once, as logged:\n{}",
            messages_text(first)
        );
    }
    assert_eq!(
        injection["size"],
        units(parts[0]),
        "the log counts UTF-16 units"
    );
    assert_eq!(
        occurrences(first, MEMORY_HEADING),
        parts.len(),
        "no memory but these parts:\n{}",
        messages_text(first)
    );
    parts.join("\n")
}

/// 40-character slices of `output` with some substance (not only white space or digits and
/// separators that any text could hold), one every 40 characters.
fn distinctive_slices(output: &str) -> Vec<String> {
    let chars: Vec<char> = output.chars().collect();
    chars
        .chunks(40)
        .filter(|c| c.len() == 40)
        .filter(|c| c.iter().filter(|ch| ch.is_alphanumeric()).count() >= 16)
        .map(|c| c.iter().collect())
        .collect()
}

const NEXT: &str = "Where were we? Carry on with the currency checks.";

#[test]
fn after_fifty_turns_clear_hands_over_the_memory_without_tool_output() {
    let started = Instant::now();
    let world = World::build(Script::new(), &[], scenario::project_files());
    let turns = scenario::turns(&world.env, TURNS);
    let cleared =
        scenario::work_then_clear(&world, &turns, NEXT, "Picking up the currency checks.");
    let (old_session, new_session) = (&cleared.old_session, &cleared.new_session);
    assert_ne!(new_session, old_session, "/clear starts a new session");
    let (last_before, first) = (&cleared.last_before, &cleared.first_after);
    let injection = injection_for(&world, new_session);
    assert_eq!(injection["trigger"], "clear");
    assert_eq!(injection["chain"], json!([old_session]));
    let text = assert_carries_once(first, &injection);

    // The latest exchange and the last turns, verbatim.
    let verbatim = injection["verbatim"].as_array().expect("verbatim").len();
    assert!(verbatim >= 6, "at least six turns verbatim: {injection:#}");
    for t in &turns[turns.len() - 6..] {
        assert!(
            text.contains(&t.prompt) && text.contains(&t.answer),
            "turn {:?} is not verbatim in the memory:\n{text}",
            t.prompt
        );
    }
    let latest = &turns[turns.len() - 1];
    let latest_at = text
        .find("## Latest exchange")
        .expect("latest exchange heading");
    assert!(
        text[latest_at..].contains(&latest.prompt),
        "the latest exchange is the last turn:\n{text}"
    );
    // Turns given verbatim say what their detail holds (every scripted turn ran a tool).
    let verbatim_codes = injection["verbatim"].as_array().expect("verbatim");
    assert!(
        text.contains(&format!(
            "## Latest exchange (turn {})\n",
            verbatim_codes[0].as_str().unwrap()
        )) && text[latest_at..].contains("\nDetail: "),
        "{text}"
    );
    for code in &verbatim_codes[1..] {
        let code = code.as_str().unwrap();
        assert!(
            text.contains(&format!("### Turn {code} (")),
            "{code}: {text}"
        );
    }
    // Every turn is there, verbatim or as a one-liner.
    let one_liners = injection["one_liners"].as_array().expect("one_liners");
    assert_eq!(
        (verbatim + one_liners.len(), injection["left_out"].as_u64()),
        (turns.len(), Some(0)),
        "{injection:#}"
    );

    // Not one byte of tool output: no distinctive slice of any result the old session sent.
    let results = last_before.tool_results();
    assert!(
        results.len() >= TURNS,
        "the old session ran tools: {} results",
        results.len()
    );
    let failed: Vec<&String> = results.iter().filter(|r| r.2).map(|r| &r.1).collect();
    assert!(failed.is_empty(), "the scripted tools failed: {failed:#?}");
    let output_chars: usize = results.iter().map(|(_, t, _)| t.chars().count()).sum();
    let mut checked = 0;
    for (id, output, _) in &results {
        for slice in distinctive_slices(output) {
            assert!(
                !first.messages_contain(&slice),
                "tool output {id} leaked into the new session: {slice:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} slices checked");

    // Every turn id in the memory resolves to its turn, tool output included.
    let codes: Vec<&str> = injection["verbatim"]
        .as_array()
        .unwrap()
        .iter()
        .chain(one_liners)
        .map(|c| c.as_str().expect("turn code"))
        .collect();
    for code in &codes {
        assert!(text.contains(code), "turn id {code} is not in the memory");
        let detail = world.throughline_json(&["detail", code, "--json"]);
        assert_eq!(detail["code"], *code);
        assert_eq!(detail["session_id"], old_session.as_str());
    }
    let detail = world.throughline_json(&["detail", codes[0], "--json"]);
    let latest_outputs: Vec<&str> = detail["details"]
        .as_array()
        .expect("details")
        .iter()
        .filter(|d| d["kind"] == "tool_result")
        .map(|d| d["body"].as_str().unwrap_or(""))
        .collect();
    assert!(
        !latest_outputs.is_empty()
            && latest_outputs
                .iter()
                .all(|o| results.iter().any(|(_, r, _)| r == o)),
        "`throughline detail {}` gives back the latest turn's tool output",
        codes[0]
    );
    eprintln!(
        "{TURNS} turns and /clear in {:?}. Last request before /clear: {} chars of \
         messages ({output_chars} of tool output); first after: {} chars, memory {} units; \
         {checked} slices checked",
        started.elapsed(),
        last_before.messages_chars(),
        first.messages_chars(),
        units(&text)
    );
}

#[test]
fn a_chain_of_clears_reaches_back_to_the_first_session() {
    let a = [
        "Chain step one: name the release Bluebird.",
        "Chain step two: the deadline is Friday 14:00.",
    ];
    let b = [
        "Chain step three: also bump the schema to version 12.",
        "Chain step four: list what is left.",
    ];
    let c = "Chain step five: what was the release called and when is it due?";
    let mut script = Script::new();
    for p in a.iter().chain(&b) {
        script = script.on_prompt(*p, answer(&format!("Done with: {p}")));
    }
    let world = World::new(script.on_prompt(c, answer("Bluebird, due Friday 14:00.")));
    let mut ui = Tmux::start(&world.env);
    for p in &a {
        world.ask(&mut ui, p);
    }
    let session_a = world.env.session_ids()[0].clone();
    let session_b = ui.clear()["session_id"].as_str().unwrap().to_string();
    for p in &b {
        world.ask(&mut ui, p);
    }
    let session_c = ui.clear()["session_id"].as_str().unwrap().to_string();
    let mains = world.server.main_requests().len();
    world.ask(&mut ui, c);
    let first = world.first_request_for(mains, c);

    let injection = injection_for(&world, &session_c);
    assert_eq!(injection["chain"], json!([session_b, session_a]));
    let text = assert_carries_once(&first, &injection);
    for p in a.iter().chain(&b) {
        assert!(text.contains(p), "{p:?} is not in C's memory:\n{text}");
    }
}

#[test]
fn two_windows_in_one_project_each_inherit_their_own_predecessor() {
    let one = "Window one: we are renaming the parser to Quill.";
    let two = "Window two: we are profiling the importer with perf.";
    let next_one = "Window one again: continue.";
    let next_two = "Window two again: continue.";
    let world = World::new(
        Script::new()
            .on_prompt(one, answer("Renaming the parser to Quill."))
            .on_prompt(two, answer("Profiling the importer with perf."))
            .on_prompt(next_one, answer("Continuing the rename."))
            .on_prompt(next_two, answer("Continuing the profile.")),
    );
    let mut first = Tmux::start(&world.env);
    let mut second = Tmux::start(&world.env);
    world.ask(&mut first, one);
    world.ask(&mut second, two);
    let old_one = session_of_prompt(&world, one);
    let old_two = session_of_prompt(&world, two);
    assert_ne!(old_one, old_two);
    let new_one = first.clear()["session_id"].as_str().unwrap().to_string();
    let new_two = second.clear()["session_id"].as_str().unwrap().to_string();
    let mains = world.server.main_requests().len();
    world.ask(&mut first, next_one);
    world.ask(&mut second, next_two);

    for (new, old, prompt, own, other) in [
        (&new_one, &old_one, next_one, one, two),
        (&new_two, &old_two, next_two, two, one),
    ] {
        let injection = injection_for(&world, new);
        assert_eq!(injection["chain"], json!([old]), "{prompt}");
        let request = world.first_request_for(mains, prompt);
        let text = assert_carries_once(&request, &injection);
        assert!(text.contains(own), "{prompt}: own history missing:\n{text}");
        assert!(
            !request.messages_contain(other),
            "{prompt}: the other window's history leaked in:\n{text}"
        );
    }
}

/// The session whose `UserPromptSubmit` carried `prompt`.
fn session_of_prompt(world: &World, prompt: &str) -> String {
    world
        .env
        .payloads_of("UserPromptSubmit")
        .iter()
        .find(|p| p["prompt"] == prompt)
        .and_then(|p| p["session_id"].as_str())
        .unwrap_or_else(|| panic!("no UserPromptSubmit for {prompt:?}"))
        .to_string()
}

/// Types `/tl` (or `/tl cancel`) and waits for the hook's notice; the model is not called.
fn tl(world: &World, ui: &mut Tmux, command: &str, notice: &str) -> Value {
    let mains = world.server.main_requests().len();
    let prompts = world.env.payloads_of("UserPromptSubmit").len();
    ui.type_prompt(command);
    let payloads = world
        .env
        .wait_for_event_count("UserPromptSubmit", prompts + 1, support::tmux::UI_TIMEOUT)
        .unwrap_or_else(|e| panic!("{command} never reached the hook: {e}\n{}", ui.context()));
    ui.wait_screen("the hook's notice", support::tmux::UI_TIMEOUT, |s| {
        s.contains(notice)
    });
    assert_eq!(
        world.server.main_requests().len(),
        mains,
        "{command} is blocked: the model never sees it"
    );
    payloads
        .into_iter()
        .filter(|p| support::event_name(p) == "UserPromptSubmit")
        .nth(prompts)
        .expect("the payload")
}

#[test]
fn tl_is_taken_by_the_next_real_prompt_not_by_a_ghost_start() {
    let remember = "Remember: the staging port is 8443.";
    let ask = "What port does staging use?";
    let unrelated = "Start something unrelated.";
    let again = "Anything new?";
    let reviews: Vec<String> = (1..=6).map(|m| format!("Review module {m}.")).collect();
    let mut script = Script::new()
        .on_prompt(remember, answer("Noted: staging listens on port 8443."))
        .on_prompt(ask, answer("Port 8443."))
        .on_prompt(unrelated, answer("Starting fresh."))
        .on_prompt(again, answer("Nothing new here."));
    for (m, prompt) in reviews.iter().enumerate() {
        script = script.on_prompt(prompt, answer(&scenario::review(m + 1)));
    }
    let world = World::new(script);
    let mut first = Tmux::start(&world.env);
    world.ask(&mut first, remember);
    for prompt in &reviews {
        world.ask(&mut first, prompt);
    }
    let from = session_of_prompt(&world, remember);

    // The client hands `/tl` to the hook as typed; the hook blocks it.
    let payload = tl(&world, &mut first, "/tl cancel", "no handoff was waiting");
    assert_eq!(payload["prompt"], "/tl cancel");
    let payload = tl(&world, &mut first, "/tl", "handoff ready");
    assert_eq!(payload["prompt"], "/tl");
    assert_eq!(payload["session_id"], from.as_str());
    first.exit();

    // A ghost: a client that starts and quits without a prompt. Its start is given the
    // memory's first part, but it takes and logs nothing.
    let mut ghost = Tmux::start(&world.env);
    ghost.exit();
    assert_eq!(
        world.injections(),
        Vec::<Value>::new(),
        "the ghost took nothing"
    );

    // The next real prompt in a new session takes it: the first part came with its start,
    // the second with that prompt, both in its first request.
    let mut taker = Tmux::start(&world.env);
    let mains = world.server.main_requests().len();
    world.ask(&mut taker, ask);
    let receiver = session_of_prompt(&world, ask);
    let injection = injection_for(&world, &receiver);
    assert_eq!(injection["trigger"], "handoff");
    assert_eq!(injection["chain"], json!([from]));
    assert_eq!(injection["parts"].as_array().map(Vec::len), Some(2));
    let text = assert_carries_once(&world.first_request_for(mains, ask), &injection);
    assert!(text.contains(remember), "{text}");
    assert!(
        text.contains(&scenario::review(6)) && text.contains(&scenario::review(4)),
        "{text}"
    );
    taker.exit();

    // Taken once: the next new session gets nothing, and neither does a resumed one.
    let mut later = Tmux::start(&world.env);
    let mains = world.server.main_requests().len();
    world.ask(&mut later, unrelated);
    let request = world.first_request_for(mains, unrelated);
    assert_eq!(
        occurrences(&request, MEMORY_HEADING),
        0,
        "a plain new session"
    );
    later.exit();
    let mains = world.server.main_requests().len();
    world
        .env
        .resume_print(&from, again)
        .expect_ok(&world.env.debug_context());
    let request = world.first_request_for(mains, again);
    assert!(
        request.messages_contain(remember),
        "the resumed session has its own history"
    );
    assert_eq!(
        occurrences(&request, MEMORY_HEADING),
        0,
        "a resumed session"
    );
    // The taker's two parts, and nothing else.
    assert_eq!(world.injections().len(), 2, "{:#?}", world.injections());
}

#[test]
fn a_stale_tl_is_ignored() {
    let remember = "Remember: the deploy window is 02:00 UTC.";
    let ask = "When is the deploy window?";
    // Offers expire the minute they are made.
    let world = World::build(
        Script::new()
            .on_prompt(remember, answer("Noted: deploys at 02:00 UTC."))
            .on_prompt(ask, answer("I have no record of that here.")),
        &[("THROUGHLINE_HANDOFF_MINUTES", "0")],
        Vec::new(),
    );
    let mut first = Tmux::start(&world.env);
    world.ask(&mut first, remember);
    tl(&world, &mut first, "/tl", "handoff ready");
    first.exit();
    let mut next = Tmux::start(&world.env);
    let mains = world.server.main_requests().len();
    world.ask(&mut next, ask);
    let request = world.first_request_for(mains, ask);
    assert_eq!(occurrences(&request, MEMORY_HEADING), 0, "a stale handoff");
    assert!(!request.messages_contain(remember));
    assert_eq!(world.injections(), Vec::<Value>::new());
}
