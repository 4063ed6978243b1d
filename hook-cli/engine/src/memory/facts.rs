//! The facts of the handoff chain: the sentences that state a decision, a constraint, a
//! correction, a root cause or a next step about something exact, chosen by what they state
//! rather than by how recent they are, each whole, as said. A later statement on the same
//! subject that changes it supersedes the earlier one, which is left out.

use std::collections::HashSet;

use crate::model::Turn;
use crate::record::Measure;
use crate::summary::{self, Gist, Statement};

/// A sentence scoring at least this much is a fact (see [`summary::FACT`]).
const FACT: i32 = summary::FACT;

/// What a sentence naming three exact things scores (see `summary::salience`).
const NAMES_SEVERAL: i32 = 6;

/// What a sentence naming two exact things scores.
const NAMES_TWO: i32 = 4;

/// What a rule the person sets weighs beyond a fact: more than any sentence of the
/// assistant's (see `summary::salience`).
const PERSONS_RULE: i32 = 6;

/// A fact shorter than this is given with the sentence after it.
const WITH_NEXT: usize = 60;

/// A sentence longer than this is cut (at a word, marked): one fact must not take the room
/// of three.
const LONGEST: usize = 320;

/// Items at most that a fact opening a list reads with.
const LIST_ITEMS: usize = 3;

/// A sentence shorter than this is a heading or a reply ("Yes, do it."), not a fact.
const SHORTEST: usize = 24;

/// One fact, as the memory prints it.
#[derive(Debug, Clone)]
pub struct Fact {
    /// Index of its turn in the turns passed to [`choose`].
    pub turn: usize,
    /// The turn's sentences it holds, as the turn's one-liner would say them.
    said: Vec<String>,
    /// What the memory prints: the sentence, with the next one when it is short.
    pub text: String,
    pub by_person: bool,
    score: i32,
}

impl Fact {
    /// The fact as the memory prints it, from the turn `code`. A question of yours names
    /// the turn whose prompt came after it, `reply`: it was put to the person, and what they
    /// said is there, not still to be asked.
    pub fn line(&self, code: &str, reply: &str) -> String {
        let who = if self.by_person { "person" } else { "you" };
        let text = summary::fit(&self.text, LONGEST);
        if self.asks() {
            format!("- {code}, {who}: {text} (the person's reply: turn {reply})\n")
        } else {
            format!("- {code}, {who}: {text}\n")
        }
    }

    /// Whether it is a question of the assistant's to the person.
    fn asks(&self) -> bool {
        !self.by_person && self.said.iter().any(|s| is_question(s))
    }
}

/// What [`choose`] found: the facts that fit `room`, oldest first, and every sentence the
/// memory should not repeat in a one-liner (listed, superseded, or the request said again).
pub struct Chosen {
    pub facts: Vec<Fact>,
    pub said: HashSet<String>,
}

/// The facts of `turns` (newest first, as the memory reads them) that fit `room` units in
/// `m`, the weightiest first, printed in the order they were said. `gists` are the turns'
/// sentences, weighed with repeats discounted; what `shown` already says is not a fact again.
/// Room the facts leave goes to sentences that name several exact things, the next most
/// telling. A change stated in `newer` (the turns shown verbatim) supersedes too.
pub fn choose(
    turns: &[Turn],
    gists: &[Gist],
    newer: &[Gist],
    room: usize,
    m: Measure,
    shown: &str,
) -> Chosen {
    let mut candidates: Vec<Fact> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut restated: Vec<String> = Vec::new();
    for (i, gist) in gists.iter().enumerate() {
        let asked: HashSet<String> = gist
            .statements()
            .filter(|s| s.by_person)
            .flat_map(|s| subject(s.text))
            .collect();
        for s in gist.statements() {
            // The assistant's plan that says the request again ("I'll use GitHub CLI to
            // create a repository for this project …") decides nothing the request did not.
            if !s.by_person && restates(s.text, &asked) {
                restated.push(s.text.to_string());
                continue;
            }
            // Said again (a constraint repeated) it still counts; said in many turns it is a
            // routine step's template, whatever fills it.
            let mut weight = s.score * s.said_in;
            // A rule the person sets is theirs to keep, whether or not it names anything
            // exact ("Invoices must be rounded per line item with banker's rounding"), and
            // it goes before what the assistant found: the next agent must not break it.
            let rule = s.by_person && sets_a_rule(s.text);
            if rule {
                weight = weight.max(FACT) + PERSONS_RULE;
            }
            // A decision taken back is worth the room of one that names several things,
            // whatever it names: the next agent must not follow the earlier word.
            if s.score > 0 && !is_question(s.text) && states_a_change(s.text) {
                weight = weight.max(NAMES_SEVERAL);
            }
            // How things are, in the person's words ("contacts are unique by email address
            // per workspace, …", "we bill per seat per month, …"): theirs to know, and no
            // tool output says it again.
            if s.by_person && !rule && tells_how_things_are(s.text, s.score >= NAMES_TWO) {
                weight = weight.max(NAMES_SEVERAL);
            }
            // What the assistant found, in plain words that name nothing exact: why something
            // failed ("The flaky checkout test was a race between …"), how the project does
            // things ("This repo stores every timestamp as UTC …"), or how a thing behaves and
            // when ("The FX rate is locked when the batch is created, not when it is sent").
            // Each is read only while the sentence weighs less: every answer's sentences
            // pass here.
            if !s.by_person
                && weight < NAMES_SEVERAL
                && (explains_a_failure(s.text)
                    || tells_a_convention(s.text)
                    || tells_how_it_works(s.text))
            {
                weight = NAMES_SEVERAL;
            }
            if weight >= NAMES_SEVERAL
                && s.said_in <= 2
                && is_said_whole(&s)
                && !(s.by_person && !rule && asks_for_work(s.text))
                && !shown.contains(s.text)
                // Of a report the assistant filled in twice ("One failure against 454
                // passes …"), the newer (met first) is the fact; the person's words are
                // theirs (two pasted errors alike but for their versions are two).
                && seen.insert(if s.by_person {
                    s.text.to_string()
                } else {
                    summary::template_key(s.text)
                })
            {
                // The person's question reads with what the answer said: alone it looks
                // open, and the next agent would take it up again.
                let answered = (s.by_person && is_question(s.text))
                    .then(|| gist.answered(answer_room(s.text)))
                    .flatten();
                let (text, said) = if let Some((answer, held)) = answered {
                    // A long question gives way to its answer.
                    let asked = LONGEST.saturating_sub(answer.chars().count() + 3);
                    let text = format!("{} → {answer}", summary::fit(s.text, asked));
                    (
                        text,
                        std::iter::once(s.text.to_string()).chain(held).collect(),
                    )
                } else {
                    // A short decision reads with the sentence after it, which says why (CJK
                    // sentences are short: `決定：…。…ためです。`), unless that sentence
                    // asks something after a statement, only announces the next step
                    // ("Let me fix that:"), opens a block left out ("when you open local
                    // host:") or hands over a task. One that opens a list ("…, should we:")
                    // reads with its items, while they fit.
                    let mut said = vec![s.text.to_string()];
                    if summary::opens_what_follows(s.text) {
                        let mut chars = s.text.chars().count();
                        // An item that opens a list of its own is the next question's.
                        let items = s.items().take_while(|i| !summary::opens_what_follows(i));
                        for item in items.take(LIST_ITEMS) {
                            chars += item.chars().count() + 1;
                            if chars > LONGEST {
                                break;
                            }
                            said.push(item.to_string());
                        }
                    } else if let Some(next) = s.next_in_paragraph().filter(|next| {
                        s.text.chars().count() < WITH_NEXT
                            && (is_question(s.text) || !is_question(next))
                            && !summary::announces_a_step(next)
                            && !summary::opens_what_follows(next)
                            && (!s.by_person || !asks_for_work(next))
                    }) {
                        said.push(next.to_string());
                    }
                    let parts: Vec<&str> = said.iter().map(String::as_str).collect();
                    (summary::joined(&parts), said)
                };
                // What the line cuts off is not said: it may still be a fact of its own.
                let line = summary::fit(&text, LONGEST);
                let said: Vec<String> = said
                    .into_iter()
                    .enumerate()
                    .filter(|(n, s)| *n == 0 || line.contains(s.as_str()))
                    .map(|(_, s)| s)
                    .collect();
                candidates.push(Fact {
                    turn: i,
                    text,
                    said,
                    by_person: s.by_person,
                    score: weight + i32::from(s.by_person),
                });
            }
        }
    }
    let mut said = superseded(&candidates, gists, newer);
    let mut ranked: Vec<usize> = (0..candidates.len())
        .filter(|&i| !candidates[i].said.iter().any(|s| said.contains(s)))
        .collect();
    // The weightiest first; on a tie the newer (a lower turn index).
    ranked.sort_by_key(|&i| (std::cmp::Reverse(candidates[i].score), candidates[i].turn));
    let mut used = 0;
    let mut kept: Vec<usize> = Vec::new();
    for i in ranked {
        // A reply's turn code is as long as any.
        let code = &turns[candidates[i].turn].code;
        let cost = m.len(&candidates[i].line(code, code));
        // A question's answer may be a fact of its own: a fact that says nothing a kept one
        // does not is left out.
        let again = || {
            candidates[i]
                .said
                .iter()
                .all(|s| kept.iter().any(|&k| candidates[k].said.contains(s)))
        };
        if used + cost > room || again() {
            continue;
        }
        used += cost;
        kept.push(i);
    }
    // A fact kept before a later one that prints it too (a question's answer) is left out,
    // the least weighty first.
    for at in (0..kept.len()).rev() {
        let others = || kept.iter().enumerate().filter(|&(o, _)| o != at);
        let covered = candidates[kept[at]]
            .said
            .iter()
            .all(|s| others().any(|(_, &k)| candidates[k].said.contains(s)));
        if covered {
            kept.remove(at);
        }
    }
    // In the order they were said: oldest turn first, in the turn as written.
    kept.sort_by_key(|&i| (std::cmp::Reverse(candidates[i].turn), i));
    let facts: Vec<Fact> = kept.into_iter().map(|i| candidates[i].clone()).collect();
    said.extend(facts.iter().flat_map(|f| f.said.clone()));
    said.extend(restated);
    Chosen { facts, said }
}

/// A question, by how it ends.
fn is_question(text: &str) -> bool {
    text.trim_end().ends_with(['?', '？'])
}

/// The room for the answer to a question of the person's: what [`LONGEST`] leaves beside the
/// question and the arrow, but never so little that the answer says nothing.
fn answer_room(question: &str) -> usize {
    LONGEST
        .saturating_sub(question.chars().count() + 3)
        .clamp(80, 200)
}

/// A sentence, not a heading or a label: long enough, and ended as a sentence when short.
pub(super) fn is_statement(text: &str) -> bool {
    let chars = text.chars().count();
    chars >= SHORTEST && (chars >= 60 || text.ends_with(['.', '!', '?', '。', '！', '？']))
}

/// [`is_statement`], where the end of the person's line ends their sentence: people type
/// short remarks with no stop ("node 20 only, the build box can't run 22"), and their
/// prompts hold no headings. A line that ends on anything but a word opens what follows
/// ("when you open local host:") or is pasted ("… paste the token here: [Image #1]"); a name
/// in a code span or quotes the line opened ends it too ("… open the PR against `develop`").
fn is_said_whole(s: &Statement) -> bool {
    is_statement(s.text)
        || (s.by_person && s.text.chars().count() >= SHORTEST && ends_on_a_word(s.text))
}

/// Whether `line` ends on a word, or on a word inside a code span or quotes it opened.
/// Brackets are left out: the person's lines that end in one are pasted labels and headings
/// ("Device name: TJ's MacBook Pro (2)", "Dropdown Component JSX (use inside your
/// component)"), and the client writes pastes as `[Image #1]`.
fn ends_on_a_word(line: &str) -> bool {
    const CLOSED_BY: [(char, char); 4] = [('`', '`'), ('"', '"'), ('“', '”'), ('「', '」')];
    let mut rest = line;
    while let Some(last) = rest.chars().next_back() {
        let Some(&(open, _)) = CLOSED_BY.iter().find(|(_, close)| *close == last) else {
            break;
        };
        let inner = &rest[..rest.len() - last.len_utf8()];
        if !inner.contains(open) {
            return false;
        }
        rest = inner;
    }
    rest.ends_with(char::is_alphanumeric)
}

/// Words that make a sentence a rule: what must, must not or may only be done, in the
/// languages people here write in. Letters are matched as whole words (`deve` is not
/// `develop`); CJK and Hangul as written.
const RULES: &[&str] = &[
    // English
    "must",
    "has to",
    "have to",
    "never",
    "always",
    "do not",
    "don't",
    "only",
    "at most",
    "at least",
    "required",
    "everywhere else",
    "before touching",
    "before you",
    // The right value set against a wrong one ("the logo is 32px in the header, not 40",
    // "use pnpm, not npm"): the person corrects what the agent would assume.
    ", not ",
    // A preference or a habit said as the person's own: a rule by their taste ("I'd like
    // you to …" asks for work instead).
    "i'd like the",
    "i would like the",
    "i want the",
    "i'd rather",
    "i would rather",
    "i prefer",
    "i'd prefer",
    "i would prefer",
    "rule of thumb",
    "personally i",
    // Spanish, Portuguese, Italian, French, German
    "debe",
    "debes",
    "deben",
    "tiene que",
    "tienes que",
    "hay que",
    "nunca",
    "siempre",
    "no uses",
    "no hagas",
    "no toques",
    "solo",
    "sólo",
    "você deve",
    "não use",
    "sempre",
    "deve",
    "devi",
    "non usare",
    "il faut",
    "doit",
    "jamais",
    "toujours",
    "muss",
    "musst",
    "darf nicht",
    "nie",
    "niemals",
    "immer",
    "debemos",
    "no se puede",
    "prohibido",
    "precisa",
    "precisam",
    "precisamos",
    "tem que",
    "têm que",
    "temos que",
    "não pode",
    "proibido",
    "bisogna",
    "devono",
    "dobbiamo",
    "non deve",
    "mai più",
    "vietato",
    "doivent",
    "devons",
    "ne doit",
    "plus jamais",
    "interdit",
    "müssen",
    "müsst",
    "dürfen",
    "darf kein",
    "verboten",
    "keinesfalls",
    "höchstens",
    "mindestens",
    "como máximo",
    "al menos",
    "no máximo",
    "pelo menos",
    "al massimo",
    "almeno",
    "au plus",
    "au moins",
    // Chinese, Japanese, Korean
    "必须",
    "不要",
    "不能",
    "不得",
    "禁止",
    "只能",
    "一律",
    "必ず",
    "しないで",
    "してはいけない",
    "ようにして",
    "반드시",
    "절대",
    "해야",
    "하지 마",
    "하지 말",
    "지 마세요",
    "지 말고",
    "지 말아",
    "지 마라",
    "않도록",
    "금지",
    "에만",
    "두세요",
    "유지해",
    "유지하세요",
    "안 됩니다",
];

/// How a standing instruction opens, as the person gives it ("Keep the log level at INFO in
/// production", "Leave the public API as it is"): what to keep doing, not a task ("Ask more
/// clarifying questions" is one, for now).
const STANDING_ORDERS: &[&str] = &[
    "keep ",
    "leave ",
    "avoid ",
    "make sure ",
    "stick to ",
    "stick with ",
    "remember ",
    "ask me before ",
    "check with ",
];

/// Words at most in a task the person hands over: a longer sentence says more than the task
/// (people run sentences together: "grep for load_batch and tell me who uses it Note for
/// later: staging listens on port 8443 …").
const TASK_WORDS: usize = 12;

/// A lower-case sentence of the person's from its order on: after a reply to a question
/// ("yes, keep the old endpoint …", "fine, …") and a "please".
fn order_of(lower: &str) -> &str {
    let after_reply = REPLYING
        .iter()
        .find_map(|r| lower.strip_prefix(r))
        .unwrap_or(lower);
    after_reply.strip_prefix("please ").unwrap_or(after_reply)
}

/// How a reply to a question opens before what it says.
const REPLYING: &[&str] = &[
    "yes, ", "yes ", "no, ", "nope, ", "nah, ", "yeah, ", "yep, ", "ok, ", "ok so ", "okay, ",
    "okay so ", "fine, ", "sure, ", "right, ", "sí, ", "oui, ", "ja, ",
];

/// Whether the person's sentence only hands over a task (see [`summary::TASKS`]).
fn asks_for_work(text: &str) -> bool {
    if text.split_whitespace().count() > TASK_WORDS {
        return false;
    }
    let lower = text.to_lowercase();
    let order = order_of(&lower);
    // "DEBUG にすると、…" names a log level in a sentence of another script.
    summary::TASKS.iter().any(|t| {
        order
            .strip_prefix(t)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_graphic()))
    })
}

/// Whether the person's sentence states how things are, at some length (less when it
/// `names_exact` things: "the CI image stays pinned to `python:3.11-slim`"): it opens on who
/// or what it is about ("we …", "the client …"), says what something is or does in its first
/// words ("contacts are unique …"), what they saw ("I checked …") or what to do when
/// something happens ("if the import fails, …"), and asks nothing.
fn tells_how_things_are(text: &str, names_exact: bool) -> bool {
    let shortest = if names_exact { TELLING_EXACT } else { TELLING };
    if text.chars().count() < shortest || is_question(text) {
        return false;
    }
    let words = super::plain_words(&text.replace('’', "'"));
    let word = |at: usize| words.get(at).map_or("", String::as_str);
    let opens_on_who = ABOUT.contains(&word(0));
    // Its verb may come later after a longer subject, up to the sixth word ("webhooks from
    // Stripe are …", "Ines from the harbour office is …"), unless the sentence opens on a
    // request ("Tell me what are …").
    let reach = if REQUESTING.contains(&word(0))
        || summary::TASKS.iter().any(|t| t.trim_end() == word(0))
    {
        3
    } else {
        6
    };
    let says_what_is = (1..reach).any(|at| BEING.contains(&word(at)));
    // "I checked the queue table and there are 2,300 jobs stuck …": what they saw.
    let saw = word(0) == "i" && OBSERVING.contains(&word(1));
    // "if the nightly import fails, restart it with --resume": what to do when it happens.
    let sets_out_when = CONDITIONS.contains(&word(0)) && !OF_THE_MOMENT.contains(&word(1));
    opens_on_who || says_what_is || saw || sets_out_when
}

/// Whether the assistant's sentence plans what was `asked` (the subject of the person's
/// words in its turn) and little else: two thirds of its subject words or more.
fn restates(text: &str, asked: &HashSet<String>) -> bool {
    let lower = text.to_lowercase();
    let plans = PLANS.iter().any(|p| lower.starts_with(p));
    // "Let's deploy to Cloudflare Pages instead." chooses.
    if !plans || asked.is_empty() || summary::makes_a_choice(&lower) {
        return false;
    }
    let about = subject(text);
    let shared = about.iter().filter(|word| asked.contains(*word)).count();
    !about.is_empty() && shared * 3 >= about.len() * 2
}

/// How the assistant opens what it is about to do.
const PLANS: &[&str] = &[
    "i'll ", "i’ll ", "i will ", "let me ", "let's ", "let’s ", "we'll ",
];

/// Whether the sentence says what a failure came from: it opens on the failure ("The flaky
/// checkout test", "The 500 error", "The issue") and says its cause ("was a race …", "came
/// from …", "was that …"), not that it is gone ("The issue is fixed").
fn explains_a_failure(text: &str) -> bool {
    if text.chars().count() < TELLING_EXACT || is_question(text) {
        return false;
    }
    // After a label of its own ("Tests: The flaky …").
    let said =
        summary::label_of(text).map_or(text, |(_, said)| said.trim_start_matches([':', ' ']));
    let lower = said.to_lowercase();
    let Some(subject) = lower.strip_prefix("the ") else {
        return false;
    };
    let Some(at) = CAUSES.iter().filter_map(|c| subject.find(c)).min() else {
        return false;
    };
    let failure = &subject[..at];
    failure.split_whitespace().count() <= FAILURE_WORDS
        && failure
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| FAILURES.contains(&word))
}

/// Whether the assistant's sentence says how a thing behaves and under what condition: it
/// opens on the thing ("The FX rate …", "Payouts in the same currency …"), not on itself, a
/// pronoun or a step; says what the thing is or does within its first words ("is locked",
/// "are netted", "reads from", "can arrive"), not what was just changed in it ("The page now
/// uses …") or what it is doing ("is running"); and qualifies it ("when …", ", so …", "not
/// …", "; …"). A plain description ("The list is a grid of three columns.") is no fact.
fn tells_how_it_works(text: &str) -> bool {
    if text.chars().count() < TELLING || is_question(text) {
        return false;
    }
    // Its first words are all it is read by, up to the qualifier.
    let head: Vec<&str> = text.split_whitespace().take(10).collect();
    let words = super::plain_words(&head.join(" ").replace('’', "'"));
    let word = |at: usize| words.get(at).map_or("", String::as_str);
    let plural_noun = text.starts_with(|c: char| c.is_uppercase())
        && word(0).len() > 3
        && word(0).ends_with('s')
        && !word(0).ends_with("ss")
        && !NOT_THINGS.contains(&word(0));
    if !(THINGS.contains(&word(0)) || plural_noun) {
        return false;
    }
    let verb = (1..6).find(|&at| {
        BEING.contains(&word(at)) || WORKING.contains(&word(at)) || MODALS.contains(&word(at))
    });
    let Some(verb) = verb else {
        return false;
    };
    // "The server is running in the background …", "The search is working now …": how
    // things stand at the moment, not how they work ("The audit log was missing …" found why).
    let doing = matches!(word(verb), "is" | "are") && word(verb + 1).ends_with("ing");
    if (1..verb + 2).any(|at| word(at) == "now") || doing {
        return false;
    }
    let lower = text.to_lowercase();
    QUALIFIED.iter().any(|q| lower.contains(q))
}

/// How the assistant opens a sentence on a thing (see [`tells_how_it_works`]).
const THINGS: &[&str] = &["the", "every", "each", "all", "no", "both", "any", "only"];

/// Capitalised words ending in "s" that open a sentence without being the thing it is about.
const NOT_THINGS: &[&str] = &[
    "this", "thanks", "yes", "perhaps", "unless", "always", "besides", "tests", "results",
    "changes", "updates", "details", "steps", "options", "notes", "items", "files",
];

/// Verbs that say what a thing does by itself, beside the verbs of being (see
/// [`tells_how_it_works`]).
const WORKING: &[&str] = &[
    "reads", "read", "writes", "write", "stores", "store", "returns", "return", "sends", "send",
    "accepts", "accept", "rejects", "reject", "allows", "allow", "expects", "expect", "expires",
    "expire", "applies", "apply", "sorts", "sort", "retries", "retry", "counts", "count", "skips",
    "skip", "lags", "lag", "resets", "reset", "holds", "hold", "fires", "fire", "blocks", "block",
    "caches", "cache", "arrives", "arrive", "starts", "start", "ends",
];

/// Words that say what a thing can or will do.
const MODALS: &[&str] = &[
    "can", "cannot", "can't", "may", "might", "will", "won't", "would", "should", "must",
];

/// What qualifies a statement of how a thing works: a condition, a reason, a limit, or a
/// contrast.
const QUALIFIED: &[&str] = &[
    ", so ",
    " so that ",
    " because ",
    " since ",
    " when ",
    " whenever ",
    " before ",
    " after ",
    " until ",
    " unless ",
    ", which ",
    " not ",
    " only ",
    " without ",
    " instead ",
    "; ",
    ": ",
];

/// Whether the assistant's sentence says how the project does something: it opens on the
/// project itself ("This repo stores …", "In this codebase every handler …") and asks
/// nothing.
fn tells_a_convention(text: &str) -> bool {
    let lower = text.to_lowercase();
    text.chars().count() >= TELLING_EXACT
        && !is_question(text)
        && CONVENTIONS.iter().any(|c| lower.starts_with(c))
}

/// How a sentence opens on the project as a whole.
const CONVENTIONS: &[&str] = &[
    "this repo ",
    "this repository ",
    "this codebase ",
    "this project ",
    "the codebase ",
    "in this repo",
    "in this codebase",
    "in this project",
    "across the codebase",
    "throughout the codebase",
];

/// The most words that name a failure before its cause ("The crash on launch in 4.1.3 came
/// from …"); past them the sentence is about something else.
const FAILURE_WORDS: usize = 6;

/// What names a failure at the start of a sentence.
const FAILURES: &[&str] = &[
    "issue",
    "problem",
    "bug",
    "error",
    "failure",
    "crash",
    "flaky",
    "failing",
    "timeout",
    "leak",
    "regression",
    "slowdown",
    "500",
    "404",
    "panic",
    "hang",
    "deadlock",
    // What a thing did that it should not have.
    "failed",
    "fails",
    "crashed",
    "crashes",
    "hung",
    "froze",
    "stalled",
    "leaked",
    "flickered",
    "flickers",
    "looked",
    "broke",
];

/// How a cause is said after the failure.
const CAUSES: &[&str] = &[
    " was a ",
    " is a ",
    " was that ",
    " is that ",
    " was caused by ",
    " is caused by ",
    " came from ",
    " comes from ",
    " was due to ",
    " is due to ",
    " happened because ",
    " persisted because ",
    " because ",
];

/// First words of a request or a question, after which "is" or "are" is not what the
/// sentence states.
const REQUESTING: &[&str] = &[
    "please", "can", "could", "would", "should", "what", "how", "why", "where", "which", "who",
    "when", "do", "does", "did", "is", "are", "i", "you", "let's", "lets", "let", "make", "run",
    "use", "open", "put", "set", "move", "remove", "delete", "give", "try",
];

/// How the person says what they saw on their side, after "I".
const OBSERVING: &[&str] = &[
    "checked", "noticed", "see", "saw", "found", "tried", "ran", "looked", "get", "got",
];

/// Characters at least in a statement of how things are (see [`tells_how_things_are`]).
const TELLING: usize = 60;

/// The same, for a statement that names two exact things.
const TELLING_EXACT: usize = 40;

/// First words of a statement about someone or something.
const ABOUT: &[&str] = &[
    "we", "we're", "we've", "our", "the", "all", "every", "each", "no", "they", "their", "there",
    "any", "both", "some", "most", "only", "new", "old", "these", "those",
    // Spanish, Portuguese, Italian, French, German ("a", "as" and "i" read as English).
    "el", "la", "los", "las", "nosotros", "nuestro", "nuestra", "todos", "todas", "cada", "o", "os",
    "nós", "nosso", "nossa", "il", "lo", "gli", "noi", "nostro", "nostra", "tutti", "ogni", "le",
    "les", "nous", "notre", "nos", "tous", "chaque", "der", "die", "das", "wir", "unser", "unsere",
    "alle", "jeder", "jede",
];

/// Verbs that say what something is or does, early in a statement.
const BEING: &[&str] = &[
    // English: what something is or does, who does what ("Dana … signs off every change"),
    // what someone else said ("Ana from finance says …").
    "is", "are", "was", "were", "has", "have", "stays", "stay", "runs", "run", "lives", "goes",
    "get", "gets", "go", "follows", "uses", "keeps", "takes", "shows", "belongs", "depends",
    "means", "owns", "signs", "approves", "reviews", "decides", "handles", "answers", "says",
    "said", "wrote", "writes",
    // Spanish, Portuguese, Italian, French and German: the same verbs in their own words.
    "es", "son", "está", "están", "queda", "quedan", "sigue", "tiene", "tienen", "é", "são",
    "estão", "fica", "ficam", "tem", "têm", "roda", "è", "sono", "resta", "restano", "rimane",
    "ha", "hanno", "est", "sont", "reste", "restent", "tourne", "ist", "sind", "bleibt", "bleiben",
    "hat", "haben", "läuft", "laufen",
];

/// How a sentence that sets out what happens when something does opens: "if the import
/// fails again, …", "se qualcosa va storto in produzione, …" (see [`tells_how_things_are`]).
const CONDITIONS: &[&str] = &["if", "whenever", "si", "se", "wenn", "falls"];

/// Words after a condition's first that make it a request of the moment instead ("if you
/// can, …", "if possible, …").
const OF_THE_MOMENT: &[&str] = &[
    "you",
    "you're",
    "possible",
    "needed",
    "necessary",
    "so",
    "not",
    "puedes",
    "usted",
    "você",
    "vous",
    "tu",
    "du",
    "sie",
    "puoi",
];

/// How a person says what they think or know with a rule's words ("No, I don't really like
/// that."): no rule.
const OPINIONS: &[&str] = &[
    "i don't like",
    "i don't really",
    "i don't know",
    "i don't see",
    "i don't think",
    "i don't understand",
    "i don't get",
    "i don't care",
    "i do not know",
    "i do not see",
    "i do not understand",
];

/// Whether `text` says what must or must not be done.
fn sets_a_rule(text: &str) -> bool {
    let mut lower = text.to_lowercase().replace('’', "'");
    if lower.contains("i do") {
        for opinion in OPINIONS {
            lower = lower.replace(opinion, " ");
        }
    }
    if STANDING_ORDERS
        .iter()
        .any(|o| order_of(&lower).starts_with(o))
    {
        return true;
    }
    // A letter of an alphabet with spaces between words: CJK and Hangul words stand bare.
    let latin = |c: char| c.is_alphabetic() && (c as u32) < 0x2E80;
    // A Latin word needs its ends free of letters; a CJK or Hangul one stands as written,
    // beside Latin letters too ("不能push").
    RULES.iter().any(|w| {
        let bounded = w.starts_with(latin);
        lower.match_indices(w).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + w.len()..].chars().next();
            !bounded || (!before.is_some_and(latin) && !after.is_some_and(latin))
        })
    })
}

/// Words that say a statement changes an earlier one wherever they stand.
const CHANGES: &[&str] = &[
    "no longer",
    "not anymore",
    "anymore",
    "after all",
    "change of plan",
    "changed our mind",
    "rather than",
    "supersede",
    "from now on",
    "scratch that",
    "no wait",
    "on second thought",
    "second thoughts",
    "i was wrong",
    "we were wrong",
    "turns out",
    "turned out",
    "in the end",
    "scrap the",
    "scrap that",
    "takes over",
    "took over",
    // "capped at 60 s (was a flat 5 s)"
    "(was ",
    "(previously ",
    "不再",
    "改为",
    "改成",
    "やめ",
];

/// Words that say so as the statement's first word or in its label ("Correction: …",
/// "Actually, …", "Ownership changed: …").
const OPENS_A_CHANGE: &[&str] = &[
    "correction",
    "actually",
    "revised",
    "scratch",
    "scrap",
    "instead",
    "changed",
    "replace",
    "訂正",
    "変更",
    "更正",
    "修改",
];

/// Words that say so only in a label ("Update: …"); as a first word they ask for work
/// ("Update the README …").
const LABELS_A_CHANGE: &[&str] = &["update", "change"];

/// Whether `text` takes back something said before: a change word anywhere, one of
/// [`OPENS_A_CHANGE`] opening it, or "instead" beside a "not".
fn states_a_change(text: &str) -> bool {
    let lower = text.to_lowercase();
    let (label, labelled) = match summary::label_of(&lower) {
        Some((label, _)) => (label, true),
        None => (lower.split_whitespace().next().unwrap_or(""), false),
    };
    let opens = if label.is_ascii() {
        // A word, not an identifier that holds one (`apply_batch_changes`).
        label
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '`'))
            .any(|word| {
                OPENS_A_CHANGE.contains(&word) || (labelled && LABELS_A_CHANGE.contains(&word))
            })
    } else {
        let opening: String = lower.chars().take(6).collect();
        OPENS_A_CHANGE.iter().any(|w| opening.contains(w))
    };
    opens
        || CHANGES.iter().any(|w| lower.contains(w))
        || (lower.contains("instead") && (lower.contains(" not ") || lower.contains("n't ")))
}

/// The sentences of older turns that a statement of a change (see [`states_a_change`])
/// takes back: a fact of `candidates`, or any sentence of the newer turns `newer` (shown
/// verbatim), changes those on the same subject in the turns before it, facts or not (the
/// earlier plan may have named nothing exact). The same subject is three shared subject
/// words, or two that are a third of the shorter sentence's (of five or more).
fn superseded(candidates: &[Fact], gists: &[Gist], newer: &[Gist]) -> HashSet<String> {
    let from_newer = newer
        .iter()
        .flat_map(Gist::statements)
        .filter(is_said_whole)
        .map(|s| (s.text, 0));
    // Turns are newest first: the earlier ones have the higher indices.
    let from_facts = candidates.iter().map(|f| (f.said[0].as_str(), f.turn + 1));
    let changes: Vec<(&str, usize)> = from_newer
        .chain(from_facts)
        .filter(|(text, _)| states_a_change(text))
        .collect();
    let mut out = HashSet::new();
    if changes.is_empty() {
        return out;
    }
    // Each sentence's subject once, however many changes it is held against.
    let earlier: Vec<Vec<(&str, HashSet<String>)>> = gists
        .iter()
        .map(|gist| {
            gist.statements()
                .filter(is_said_whole)
                .map(|s| (s.text, subject(s.text)))
                .collect()
        })
        .collect();
    for (change, earlier_from) in changes {
        let about = subject(change);
        let named = dropped(change);
        for (text, other) in earlier.iter().skip(earlier_from).flatten() {
            let shared = about.intersection(other).count();
            let shorter = about.len().min(other.len());
            if shared >= 3
                || (shared == 2 && shorter >= 5 && shared * 3 >= shorter)
                || named.as_ref().is_some_and(|name| other.contains(name))
            {
                out.insert(text.to_string());
            }
        }
    }
    out
}

/// The name a change drops by name ("no wait, forget Elasticsearch, …", "scrap the_v2_api"):
/// whatever was said of it before is taken back, on however few words it shares. A name
/// is a word with a capital, a digit or an underscore, as [`subject`] keeps it.
fn dropped(change: &str) -> Option<String> {
    // ASCII case only: the verbs are ASCII, and an offset in it is one in `change` (a full
    // lower case may change a letter's length: "İ").
    let lower = change.to_ascii_lowercase();
    DROPPING.iter().find_map(|verb| {
        let at = lower.find(verb)? + verb.len();
        let word = change[at..]
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '.' | '!'))
            .next()?;
        let named = word.chars().next().is_some_and(char::is_uppercase)
            || word.contains(|c: char| c.is_ascii_digit() || c == '_');
        // The whole name, not one of its halves ("parcel-routing", not "routing").
        let whole = |a: &String, b: &String| a.len().cmp(&b.len()).then(b.cmp(a));
        (named && word.len() >= 3)
            .then(|| subject(word).into_iter().max_by(whole))
            .flatten()
    })
}

/// How a change drops something by name, before the name.
const DROPPING: &[&str] = &["forget ", "scrap ", "ditch ", "drop ", "no more "];

/// Words too common to name a subject.
const COMMON: &[&str] = &[
    "that",
    "this",
    "with",
    "from",
    "have",
    "will",
    "would",
    "should",
    "must",
    "never",
    "always",
    "instead",
    "actually",
    "because",
    "after",
    "before",
    "into",
    "than",
    "then",
    "them",
    "they",
    "their",
    "there",
    "here",
    "what",
    "when",
    "which",
    "where",
    "while",
    "only",
    "also",
    "just",
    "been",
    "were",
    "does",
    "done",
    "make",
    "made",
    "use",
    "using",
    "used",
    "keep",
    "need",
    "needs",
    "still",
    "more",
    "less",
    "some",
    "each",
    "every",
    "correction",
    "since",
    "already",
    "call",
    "name",
    "take",
    "order",
    "safe",
    "thing",
    "please",
    "decided",
    "decision",
    "rather",
    "changed",
    "switch",
    "now",
    "all",
    "the",
    "and",
    "for",
    "not",
    "but",
    "are",
    "was",
    "our",
    "you",
    "your",
];

/// The words a sentence is about: lower-case words of four letters or more, common ones
/// aside, and every word with a digit; CJK text by its character pairs.
fn subject(text: &str) -> HashSet<String> {
    let mut words = HashSet::new();
    let lower = text.to_lowercase();
    // A hyphen joins a name (`sea-orm`), which its halves do not say; halves long enough to
    // count (`parcel`, `routing`) are words of the subject too.
    let split = lower
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')))
        .map(|word| word.trim_matches(['.', '-']));
    let with_halves = split.flat_map(|word| {
        let halves = word.contains('-').then(|| word.split('-'));
        std::iter::once(word).chain(halves.into_iter().flatten())
    });
    for word in with_halves {
        let wide = !word.is_ascii();
        if wide {
            // Kana-only pairs are grammar (ます, てい), not a subject.
            let chars: Vec<char> = word.chars().collect();
            for pair in chars.windows(2) {
                if !pair.iter().all(|c| ('\u{3040}'..='\u{309f}').contains(c)) {
                    words.insert(pair.iter().collect());
                }
            }
        } else if (word.len() >= 4 || word.chars().any(|c| c.is_ascii_digit()))
            && !COMMON.contains(&word)
        {
            // "webhooks" and "webhook", "deploys" and "deploy" are one subject.
            let stem = match word.strip_suffix('s') {
                Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem,
                _ => word,
            };
            if !COMMON.contains(&stem) {
                words.insert(stem.to_string());
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_memory::turn;

    fn gists(turns: &[Turn]) -> Vec<Gist> {
        let mut gists: Vec<Gist> = turns.iter().map(|t| Gist::of(&t.messages)).collect();
        Gist::discount_repeats(&mut gists);
        gists
    }

    /// The facts of `turns` within `room` UTF-16 units, with `newer` shown verbatim.
    fn facts_of(turns: &[Turn], newer: &[Turn], room: usize) -> Chosen {
        choose(
            turns,
            &gists(turns),
            &gists(newer),
            room,
            Measure::Utf16,
            "",
        )
    }

    #[test]
    fn facts_are_whole_sentences_in_the_order_they_were_said() {
        let turns = vec![
            turn("c", "Run the tests again.", &["Tests pass."]),
            turn(
                "b",
                "Root cause found: the flaky test test_merge_chain fails because created_at was written in local time instead of UTC.",
                &["Understood."],
            ),
            turn(
                "a",
                "Set things up.",
                &["Hard constraint: never use port 8080 here, the corporate firewall blocks it; the dev server runs on port 8443."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[0].starts_with("Hard constraint: never use port 8080"));
        assert!(texts[1].starts_with("Root cause found"));
        assert!(chosen.facts[1].by_person && !chosen.facts[0].by_person);
    }

    #[test]
    fn a_cause_said_plainly_explains_a_failure_and_a_fix_does_not() {
        for cause in [
            "The flaky checkout test was a race between the cart reset and the price fetch.",
            "Tests: The flaky checkout test was a race between the cart reset and the fetch.",
            "The 500 error came from the auth middleware calling headers() outside a request.",
            "The issue persisted because there were two separate problems at once.",
            "The chart flickered because every filter change recreated the canvas.",
            "The cohort chart looked flat because signups were counted by invoice date.",
            "The crash on launch in 4.1.3 came from reading the keychain before first unlock.",
        ] {
            assert!(explains_a_failure(cause), "{cause}");
        }
        for other in [
            "The issue is fixed now and the tests pass again on every platform.",
            "The tests pass again now and the login bug is fixed because the token is read later.",
            "The new endpoint was a request from the sales team for the quarterly export.",
            "Was the error a timeout or a refused connection when you ran it last?",
        ] {
            assert!(!explains_a_failure(other), "{other}");
        }
    }

    #[test]
    fn what_the_person_says_of_how_things_are_is_told_and_a_request_is_not() {
        for told in [
            "contacts are unique by email address per workspace, two workspaces may hold the same person twice",
            "we bill per seat per month, and a seat deactivated mid-month is billed to the end of it",
            "What I have there is an environmental variable of token set, nothing in a file.",
            "I checked the queue table and there are 2,300 jobs stuck in state running since yesterday",
            "webhooks from Stripe are verified with the signing secret before anything in them is parsed",
            "batch size for ingest is 500 rows, anything bigger times out on the small plan",
            "Ines from the harbour office is the one who decides berth pricing, so ask her first.",
            "dark mode follows the system setting, no toggle in the UI, design vetoed the toggle",
            "Lars in finance owns the revenue numbers, anything we publish about revenue he reads",
            "Dana from the security team signs off every change to auth before it is merged",
            "new screens ship dark behind a LaunchDarkly flag and we turn them on for 5% first",
            "only admins can export the ledger, the auditors asked for that in the last review",
            "Ana from finance says the books close on the 3rd working day, no re-runs after that",
            // In the languages of Europe, and what to do when something happens.
            "La flag FAST_CHECKOUT se queda apagada en producción hasta que pasemos una semana en staging",
            "Der Import läuft jede Nacht um zwei und braucht etwa vierzig Minuten für alle Mandanten.",
            "if the nightly import fails again, restart it with --resume from the last batch",
        ] {
            assert!(tells_how_things_are(told, false), "{told}");
        }
        // Shorter, it tells only when it names exact things.
        let short = "the CI image stays pinned to `python:3.11-slim`";
        assert!(tells_how_things_are(short, true) && !tells_how_things_are(short, false));
        let reply = "nope, too much padding, cards get 12px inside and 16px between them";
        assert!(tells_how_things_are(reply, true));
        let contingency = "Se qualcosa va storto in produzione, torniamo al tag v3.14.2.";
        assert!(tells_how_things_are(contingency, true));
        for asked in [
            "can you run the whole test suite again and tell me which of the tests fail now?",
            "Add a retry to the upload client and make the backoff start at two hundred ms.",
            "we are ok.",
            "I would like the export to run every night at two and mail the report to finance.",
            "Tell me what are the things I need to set in environment variables for the deploy",
            "can you check why the numbers are off in the monthly report for the second tenant",
            "if you can, also add a test for the empty batch in the importer module please",
        ] {
            assert!(!tells_how_things_are(asked, true), "{asked}");
        }
        let turns = vec![
            turn("b", "Run the tests.", &["All 12 pass."]),
            turn(
                "a",
                "we bill per seat per month, and a seat deactivated mid-month is billed to the end of it",
                &["Noted."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(chosen
            .facts
            .iter()
            .any(|f| f.text.starts_with("we bill per seat")));
    }

    #[test]
    fn a_decision_taken_back_in_passing_is_a_fact_and_supersedes() {
        let turns = vec![
            turn(
                "b",
                "Bump sea-orm to 1.1.1.",
                &["We keep sea-orm in the end: the sqlx rewrite would touch 140 queries for no measured gain."],
            ),
            turn(
                "a",
                "What slows the entities down?",
                &["Plan: we replace sea-orm with plain sqlx queries, the generated entities are getting in the way."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(chosen
            .facts
            .iter()
            .any(|f| f.text.starts_with("We keep sea-orm in the end")));
        assert!(chosen.facts.iter().all(|f| !f.text.starts_with("Plan:")));
        assert!(states_a_change(
            "On second thought the deal stages should be a table, not an enum."
        ));
        assert!(states_a_change(
            "no wait, forget Elasticsearch, we stay with tantivy in-process"
        ));
        assert!(!states_a_change("The scraper reads the sitemap first."));
    }

    #[test]
    fn a_change_that_drops_a_name_takes_back_what_was_said_of_it() {
        let plan = "let's move search over to Elasticsearch 8 so the sales team gets fuzzy matching on company names";
        let turns = vec![
            turn(
                "b",
                "no wait, forget Elasticsearch, we stay with tantivy in-process, nobody here wants to run a JVM cluster",
                &["Noted."],
            ),
            turn("a", plan, &["Noted."]),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(chosen.said.contains(plan), "{:?}", chosen.facts);
        assert_eq!(
            dropped("no wait, forget Elasticsearch, we stay with tantivy").as_deref(),
            Some("elasticsearch")
        );
        // A letter whose lower case is longer does not move the name ("İ"); the name is
        // kept as the subject keeps it, stem and all.
        assert_eq!(
            dropped("İlkay said forget Redis, the queue stays in Postgres").as_deref(),
            Some("redi")
        );
        assert_eq!(
            dropped("no wait, forget Parcel-Routing, we keep the old rules").as_deref(),
            Some("parcel-routing")
        );
        // "forget the …" names nothing: the shared subject decides, as before.
        assert_eq!(dropped("forget the old plan, we keep the queue"), None);
    }

    #[test]
    fn the_persons_short_line_without_a_stop_is_a_sentence() {
        let turns = vec![turn(
            "a",
            "node 20 only, the build box can't run 22",
            &["Pinned node to 20 in .nvmrc."],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(chosen
            .facts
            .iter()
            .any(|f| f.text == "node 20 only, the build box can't run 22"));
        // The assistant's line without a stop is a heading.
        assert!(!is_statement("Quick Fix (Manual, Fastest)"));
        // A line of the person's that opens what follows, or ends on what they pasted, is no
        // sentence of theirs.
        let turns = vec![turn(
            "a",
            "you must open the page to see the errors\nwhen you open local host on port 3001:\nlog in and paste the token from port 3001 here: [Image #1]",
            &["Opened it."],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, ["you must open the page to see the errors"]);
    }

    #[test]
    fn a_line_ending_on_a_quoted_name_is_said_whole() {
        for line in [
            "never push to main directly, open the PR against `develop`",
            "keep the wording legal approved: \"Delivery could not be confirmed\"",
            "deploy with the tag 「v2 リリース」",
        ] {
            assert!(ends_on_a_word(line), "{line}");
        }
        for line in [
            "paste the token from port 3001 here: [Image #1]",
            "Device name: TJ's MacBook Pro (2)",
            "then run this: `",
            "a quote that closes what it never opened”",
            "it ends on an empty span ``",
        ] {
            assert!(!ends_on_a_word(line), "{line}");
        }
    }

    #[test]
    fn a_later_correction_supersedes_the_earlier_decision() {
        let turns = vec![
            turn(
                "b",
                "Correction: we will not use Redis for the session cache after all; use the in-process LRU cache instead.",
                &["Switched the session cache to the in-process LRU in src/cache.rs."],
            ),
            turn(
                "a",
                "Plan the caching.",
                &["Decision: the session cache goes into Redis 7, so every worker shares it."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(chosen
            .facts
            .iter()
            .all(|f| !f.text.contains("goes into Redis 7")));
        assert!(chosen
            .facts
            .iter()
            .any(|f| f.text.starts_with("Correction:")));
        assert!(chosen
            .said
            .contains("Decision: the session cache goes into Redis 7, so every worker shares it."));
    }

    #[test]
    fn a_correction_shown_verbatim_takes_back_a_plan_that_named_nothing_exact() {
        let older = vec![
            turn("b", "Run the tests.", &["All tests pass."]),
            turn(
                "a",
                "Let's store the route geometry as GeoJSON text in the routes table, it is the simplest thing for now.",
                &["Done."],
            ),
        ];
        let newer = vec![turn(
            "c",
            "Change of plan: route geometry goes into a PostGIS column instead of GeoJSON text, the distance queries need an index.",
            &["Moved it."],
        )];
        let chosen = facts_of(&older, &newer, 2_000);
        assert!(chosen
            .said
            .iter()
            .any(|s| s.starts_with("Let's store the route geometry")));
    }

    #[test]
    fn a_change_word_inside_a_name_or_after_the_opening_is_no_correction() {
        assert!(!states_a_change(
            "apply_batch_changes is failing, can you look?"
        ));
        assert!(!states_a_change(
            "Don't change anything yet, just tell me what you think."
        ));
        assert!(!states_a_change(
            "Recovery replays the whole WAL instead of starting from the checkpoint."
        ));
        assert!(states_a_change(
            "Ownership changed: Aisha Bello owns the routing work."
        ));
        assert!(states_a_change("Actually, call the crate parcel-routing."));
        assert!(states_a_change(
            "We will NOT use Redis; use the in-process LRU instead."
        ));
        assert!(states_a_change("Update: the pod needs 1 GiB, not 512 MiB."));
        assert!(!states_a_change("Update the README to name the new port."));
    }

    #[test]
    fn a_rule_the_person_sets_is_a_fact_without_names() {
        let turns = vec![turn(
            "a",
            "Invoices must be rounded per line item with banker's rounding, the finance team reconciles against line totals.",
            &["Understood, I will round per line."],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        assert_eq!(chosen.facts.len(), 1);
        assert!(chosen.facts[0].by_person);
    }

    #[test]
    fn the_persons_rule_takes_the_room_before_the_assistants_findings() {
        let turns = vec![
            turn(
                "b",
                "Looks good. All the copy must be written in English, the audience is global.",
                &["Decision: the hero uses HeroForm.tsx with waitlist.ts and 3 fields."],
            ),
            turn(
                "a",
                "Start with the hero.",
                &["Decided: src/app/page.tsx renders Hero.tsx at 1200px, 4 blocks."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 110);
        assert_eq!(chosen.facts.len(), 1, "{:?}", chosen.facts);
        assert!(chosen.facts[0].by_person, "{:?}", chosen.facts);
    }

    #[test]
    fn rules_are_found_in_the_persons_language_as_whole_words() {
        for rule in [
            "los textos debes hacerlos en inglés, todos.",
            "Nunca toques la rama main sin preguntarme antes.",
            "Il faut garder l'API publique telle quelle.",
            "Die Tests müssen grün sein, und du musst vorher fragen.",
            "배포 전에 반드시 테스트를 실행해야 합니다.",
            "生产环境的配置只能通过环境变量传入。",
            "支付回调的日志里不能出现完整的卡号，只能保留后四位。",
            "チェックアウトから30日を過ぎたら投稿できないようにしてください。",
            "Die Migration darf nie ohne Backup laufen.",
            "the health endpoint has to stay at /healthz without auth",
            "Keep the log level at INFO in production; DEBUG doubled the bill.",
            "Please leave the CRDT code in src/merge.rs to Omar, he is rewriting it.",
            "I don't want the sidebar to scroll, ever.",
            "We don't need them to be that tall; they can be more compact.",
            "改完之后不能push到main，先开PR。",
            "本番にはdeployしないでください。",
            "As migrações do banco precisam rodar primeiro no staging.",
            "Temos que manter a API v1 até março.",
            "Le tabelle di produzione non si toccano a mano, bisogna passare da una migrazione.",
            "Les montants doivent être stockés en centimes entiers.",
            "Zugangsdaten dürfen nicht ins Repository.",
            "No debemos tocar la tabla de pagos sin backup.",
            "I'd rather we keep the axum handlers thin and put the logic in src/services.",
            "I prefer integration tests against the real Postgres over mocks.",
            "personally I like error messages that tell the staff what to do next.",
            "my rule of thumb here: a PR stays under 400 changed lines.",
            "explain each new concept in two sentences before you write code for it.",
            "I'd like the output to look like grep's: file name, line number and the line.",
            "금액은 정수 센트로 저장하고 float는 쓰지 마세요.",
            "DBA가 확인한 뒤에만 운영에 적용해 주세요.",
            "FAST_CHECKOUT 플래그는 운영에서는 꺼 둔 채로 두세요.",
            "the logo is 32px in the header, not 40",
        ] {
            assert!(sets_a_rule(rule), "{rule}");
        }
        for free in [
            "Let me develop the device driver first.",
            "The simmering bug was in the immersive view.",
            "배포가 끝났습니다.",
            "We keep the log level at INFO.",
            "I'd like you to fix the login page first.",
            "Check your inbox before your next meeting.",
            "Fix the flaky test in tests/merge.rs.",
            "Ask more clarifying questions so I am sure that you understand this.",
            "No, I don't really like that. Not the text.",
            "I don’t know why the header moved.",
            "Die Tests liefen niemand weiß warum so langsam.",
            "The build is not green yet.",
        ] {
            assert!(!sets_a_rule(free), "{free}");
        }
    }

    #[test]
    fn a_short_fact_reads_with_its_reason_not_with_the_next_step() {
        let turns = vec![turn(
            "a",
            "Why does the build fail?",
            &[
                "Decided: pin serde to 1.0.210. Newer releases break our MSRV of 1.70.",
                "The Db struct needs Clone in src/db.rs. Let me fix that:",
            ],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert!(
            texts
                .contains(&"Decided: pin serde to 1.0.210. Newer releases break our MSRV of 1.70."),
            "{texts:?}"
        );
        assert!(
            texts.contains(&"The Db struct needs Clone in src/db.rs."),
            "{texts:?}"
        );
    }

    #[test]
    fn a_short_fact_reads_with_no_sentence_of_the_next_paragraph() {
        let fact = "Fixed: removed the --bun flag from package.json.";
        let next = "I'll analyze the Convex deployment error systematically.";
        // After a blank line; in the answer's next message, after a tool call.
        let in_one = format!("{fact}\n\n{next}");
        for answers in [vec![in_one.as_str()], vec![fact, next]] {
            let turns = vec![turn("a", "Deploy it.", &answers)];
            let chosen = facts_of(&turns, &[], 2_000);
            let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
            assert_eq!(texts, [fact], "{answers:?}");
        }
    }

    #[test]
    fn how_a_thing_works_and_when_is_told_and_how_it_stands_is_not() {
        for works in [
            "The FX rate is locked when the batch is created, not when it is sent; a late batch keeps it.",
            "Payouts in the same currency are netted per account before they go out, so one account gets one transfer a day.",
            "The monthly payout report reads from the replica, which lags about 30 seconds behind the primary.",
            "Webhooks can arrive out of order: the API sorts them by the carrier's scan time.",
        ] {
            assert!(tells_how_it_works(works), "{works}");
        }
        for other in [
            "The server is running in the background (process ID: bash_5) with: Host: 0.0.0.0.",
            "The search page now shows only the players whose name matches what you typed.",
            "The list is a grid of three columns with the newest booking first in each.",
            "I moved the rate lookup into the batch, so it is locked when the batch is created.",
            "Thanks, the export is fine now, so we can move on to the reports when you are ready.",
            "Is the FX rate locked when the batch is created, or only when it is finally sent?",
        ] {
            assert!(!tells_how_it_works(other), "{other}");
        }
    }

    #[test]
    fn a_convention_of_the_project_the_assistant_found_is_told() {
        assert!(tells_a_convention(
            "This repo stores every timestamp as UTC and converts only in the templates."
        ));
        assert!(tells_a_convention(
            "In this codebase every handler returns an AppError, never a bare anyhow::Error."
        ));
        assert!(!tells_a_convention("This repo is ready to push?"));
        assert!(!tells_a_convention(
            "The repository for this project already exists on GitHub."
        ));
    }

    #[test]
    fn a_short_fact_reads_with_no_question_after_it() {
        let fact = "Decision: the dev server uses port 8443.";
        let question = "What does load_price do with an empty price?";
        let turns = vec![turn("a", &format!("{fact} {question}"), &["Noted."])];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, [fact]);
    }

    #[test]
    fn a_question_of_yours_names_the_turn_that_replied() {
        let turns = vec![turn(
            "a",
            "Add the MCAO export.",
            &["Should MCAO_Complete.xlsx use the same timestamp as APN_Complete.xlsx, or a new one?"],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        assert_eq!(
            chosen.facts[0].line("a", "b"),
            "- a, you: Should MCAO_Complete.xlsx use the same timestamp as APN_Complete.xlsx, or a new one? (the person's reply: turn b)\n"
        );
        let turns = vec![turn(
            "a",
            "Should MCAO_Complete.xlsx use the same timestamp as APN_Complete.xlsx?",
            &[] as &[&str],
        )];
        let chosen = facts_of(&turns, &[], 2_000);
        assert!(!chosen.facts[0].line("a", "b").contains("reply"));
    }

    #[test]
    fn a_report_filled_in_again_is_one_fact_with_the_newer_numbers() {
        let report = |n: u32| {
            format!("Root cause: {n} of the 2000 imports fail because orders.csv has a BOM in its header.")
        };
        let turns = vec![
            turn("b", "Run the import again.", &[&report(454)]),
            turn("a", "Run the import.", &[&report(432)]),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, [report(454).as_str()]);
    }

    #[test]
    fn a_question_of_the_persons_reads_with_its_answer_and_says_nothing_twice() {
        let turns = vec![
            turn(
                "b",
                "Should merge_couriers in src/couriers.rs take a slice instead of a Vec?",
                &["It holds no state of its own; I would leave its signature as it is."],
            ),
            turn(
                "a",
                "Should replay_journal run twice on one file?",
                &["Decision: replay_journal takes the WAL lock first, so a second run waits for 30 seconds and then exits."],
            ),
        ];
        let chosen = facts_of(&turns, &[], 2_000);
        let texts: Vec<&str> = chosen.facts.iter().map(|f| f.text.as_str()).collect();
        assert!(
            texts.contains(
                &"Should merge_couriers in src/couriers.rs take a slice instead of a Vec? → It holds no state of its own; I would leave its signature as it is."
            ),
            "{texts:?}"
        );
        // The decision, weightier than the question, was kept first; the question prints it.
        assert!(
            texts.contains(
                &"Should replay_journal run twice on one file? → Decision: replay_journal takes the WAL lock first, so a second run waits for 30 seconds and then exits."
            ),
            "{texts:?}"
        );
        let lock = texts
            .iter()
            .filter(|t| t.contains("takes the WAL lock"))
            .count();
        assert_eq!(lock, 1, "{texts:?}");
    }

    #[test]
    fn a_plan_that_says_the_request_again_is_no_fact() {
        let asked = subject("can you use github cli to create a repository for this project?");
        assert!(restates(
            "I'll use GitHub CLI to create a repository for this project and push the code!",
            &asked
        ));
        // A plan that chooses what the request left open is one.
        assert!(!restates(
            "I'll set up the repository with Next.js 15, Supabase and Cloudflare Pages deploys.",
            &asked
        ));
        assert!(!restates(
            "Let's create the repository with the GitHub CLI instead.",
            &asked
        ));
        // What was found is no plan, whatever words it shares.
        assert!(!restates(
            "The repository for this project already exists on GitHub under your account.",
            &asked
        ));
    }

    #[test]
    fn a_reply_opens_before_its_order() {
        assert!(sets_a_rule(
            "yes, keep the old endpoint alive until the mobile app 3.2 is out, then delete it"
        ));
        assert!(sets_a_rule(
            "fine, leave the timeout where it is until the load test"
        ));
        assert!(asks_for_work("ok, fix the flaky test then"));
        assert!(!sets_a_rule("yes, that looks right to me"));
    }

    #[test]
    fn a_task_the_person_hands_over_is_no_fact_and_a_rule_said_as_one_is() {
        // Newest first.
        let turns = [
            turn(
                "c3",
                "Update orders_v2 but never write more than 500 rows at once.",
                &["Done."],
            ),
            turn(
                "c2",
                "Add a debug log line when validate_block fails.",
                &["Added a `tracing::debug!` line in validate_block."],
            ),
            turn(
                "c1",
                "Fix render_checkpoint_keeps_the_order, it broke after the last change.",
                &["Fixed: the sort in render_checkpoint was unstable."],
            ),
        ];
        let facts: Vec<String> = facts_of(&turns, &[], 10_000)
            .facts
            .into_iter()
            .map(|f| f.text)
            .collect();
        assert_eq!(
            facts,
            [
                "Fixed: the sort in render_checkpoint was unstable.",
                "Update orders_v2 but never write more than 500 rows at once."
            ]
        );
    }

    #[test]
    fn a_fact_that_opens_a_list_reads_with_its_items() {
        let turns = [turn(
            "c1",
            "Go on.",
            &["Two things before I start.\n\
               - For MCAO_Complete, if we need several endpoints per APN (5 × N calls), should we:\n  \
               - Keep the same 5 req/sec total?\n  \
               - Or 5 req/sec per endpoint type?\n\
               - Is the Logs folder under /MCAO/Logs/?"],
        )];
        let chosen = facts_of(&turns, &[], 10_000);
        let lines: Vec<String> = chosen.facts.iter().map(|f| f.line("c1", "c2")).collect();
        assert_eq!(
            lines[0],
            "- c1, you: For MCAO_Complete, if we need several endpoints per APN (5 × N calls), \
             should we: Keep the same 5 req/sec total? Or 5 req/sec per endpoint type? Is the \
             Logs folder under /MCAO/Logs/? (the person's reply: turn c2)\n"
        );
    }

    #[test]
    fn grammar_kana_is_no_subject() {
        let words = subject("変更しています");
        assert!(
            words.contains("変更") && !words.contains("てい"),
            "{words:?}"
        );
    }

    #[test]
    fn headings_and_labels_are_no_facts() {
        assert!(!is_statement("Quick Fix (Manual, Fastest)"));
        assert!(!is_statement("Exact Fix (Copy-Paste Ready)"));
        assert!(is_statement("Decision: use port 8443."));
    }

    #[test]
    fn the_weightiest_facts_take_the_room() {
        let turns = vec![
            turn(
                "b",
                "Note: the staging API listens on port 8443, never on 8080.",
                &["Noted."],
            ),
            turn("a", "Maybe look at src/a.rs later.", &["Found src/a.rs."]),
        ];
        let chosen = facts_of(&turns, &[], 80);
        assert_eq!(chosen.facts.len(), 1);
        assert!(chosen.facts[0].text.contains("8443"));
    }
}
