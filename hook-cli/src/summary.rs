//! L1: a one-line summary of a turn, made locally and deterministically (no network, no
//! model). It keeps what a later reader needs to recognise and find the turn: what was asked,
//! what was decided or found, and the exact identifiers, numbers and paths involved.

use crate::model::{Message, Role, Turn};

/// The longest one-liner stored; rendering may cut it shorter (see [`fit`]).
pub const MAX_CHARS: usize = 240;

/// Words that mark a sentence as a decision, a finding or an outcome.
const DECISIVE: &[&str] = &[
    "decid",
    "decision",
    "chose",
    "choose",
    "use ",
    "using",
    "switch",
    "instead",
    "because",
    "root cause",
    "caused",
    "fixed",
    "fix ",
    "found",
    "result",
    "fails",
    "failed",
    "passes",
    "works",
    "must",
    "should",
    "never",
    "always",
    "next step",
    "todo",
    "remember",
    "note",
    "important",
    "決定",
    "決め",
    "原因",
    "修正",
    "必ず",
    "注意",
];

/// The one-liner of a turn: `asked → answered`, at most `max` characters (at most
/// [`MAX_CHARS`]).
pub fn one_liner(turn: &Turn, max: usize) -> String {
    of_messages(&turn.messages, max)
}

/// [`one_liner`] of a turn's L2 messages.
pub fn of_messages(messages: &[Message], max: usize) -> String {
    let max = max.min(MAX_CHARS);
    let prompt: String = messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let answer: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .map(|m| m.text.as_str())
        .collect();
    let asked = gist(&prompt, max * 2 / 5, true);
    let room = max.saturating_sub(asked.chars().count() + 3);
    let answered = gist(&answer.join("\n"), room, false);
    match (asked.is_empty(), answered.is_empty()) {
        (_, true) => asked,
        (true, false) => answered,
        _ => format!("{asked} → {answered}"),
    }
}

/// Cuts a one-liner to `max` characters, marking the cut.
pub fn fit(line: &str, max: usize) -> String {
    if line.chars().count() <= max {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The most telling sentences of `text` within `max` characters, in their original order.
/// For a prompt the first sentence always leads (it says what was asked).
fn gist(text: &str, max: usize, keep_first: bool) -> String {
    let sentences = sentences(&bounded(text));
    if sentences.is_empty() || max == 0 {
        return String::new();
    }
    let last = sentences.len() - 1;
    let mut ranked: Vec<(usize, i32)> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut score = salience(s);
            if i == 0 && keep_first {
                score += 1000;
            }
            // An answer's closing sentence usually carries its conclusion.
            if i == last && !keep_first {
                score += 2;
            }
            (i, score)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen = Vec::new();
    let mut used = 0;
    for (i, score) in ranked {
        // In an answer, sentences that carry nothing checkable ("Let me look.") are dropped.
        if score == 0 && !keep_first && !chosen.is_empty() {
            break;
        }
        let len = sentences[i].chars().count() + usize::from(!chosen.is_empty());
        if used + len <= max {
            chosen.push(i);
            used += len;
        } else if chosen.is_empty() || (score >= 4 && used + 20 < max) {
            // Too long to take whole: take its head, so a key sentence is never lost entirely.
            chosen.push(i);
            break;
        }
    }
    chosen.sort_unstable();
    let joined = chosen
        .iter()
        .map(|&i| sentences[i].as_str())
        .collect::<Vec<_>>()
        .join(" ");
    fit(&joined, max)
}

/// The start and the end of a long text: where a turn states its request and its outcome.
/// Bounds the work per turn, whatever a turn holds.
fn bounded(text: &str) -> std::borrow::Cow<'_, str> {
    const HEAD: usize = 6_000;
    const TAIL: usize = 2_000;
    if text.len() <= HEAD + TAIL {
        return text.into();
    }
    let head_end = (0..=HEAD)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let tail_start = (text.len() - TAIL..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    format!("{}\n{}", &text[..head_end], &text[tail_start..]).into()
}

/// Sentences with markdown noise and runs of white space removed.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line
            .trim()
            .trim_start_matches(['#', '>', '-', '*', '+', '|'])
            .trim()
            .replace("**", "");
        if line.is_empty() || line.starts_with("```") {
            continue;
        }
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            let ends = matches!(c, '。' | '！' | '？')
                || (matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()));
            if ends {
                push_sentence(&mut out, &current);
                current.clear();
            }
        }
        push_sentence(&mut out, &current);
    }
    out
}

fn push_sentence(out: &mut Vec<String>, s: &str) {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if !s.is_empty() {
        out.push(s);
    }
}

/// How much a sentence carries that a reader could not guess: numbers, paths, identifiers,
/// quoted names, and decisions.
fn salience(sentence: &str) -> i32 {
    let lower = sentence.to_lowercase();
    let mut score = 0;
    if DECISIVE.iter().any(|w| lower.contains(w)) {
        score += 3;
    }
    for word in sentence.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')')) {
        let word = word.trim_matches(|c: char| matches!(c, '.' | ':' | '!' | '?' | '"' | '\''));
        if word.is_empty() {
            continue;
        }
        let has_digit = word.chars().any(|c| c.is_ascii_digit());
        let path_like = word.contains('/') || (word.contains('.') && word.len() > 3);
        let code_like = word.starts_with('`')
            || word.contains('_')
            || word.contains("::")
            || word.starts_with("--")
            || (word.chars().skip(1).any(char::is_uppercase)
                && word.chars().any(char::is_lowercase));
        if has_digit || path_like || code_like {
            score += 2;
        }
    }
    if !sentence.is_ascii() {
        // CJK text has no spaces to split on: weigh it by the facts it states.
        score += sentence
            .chars()
            .filter(|c| c.is_ascii_digit())
            .count()
            .min(3) as i32;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(prompt: &str, answers: &[&str]) -> Turn {
        let mut messages = vec![Message {
            role: Role::User,
            text: prompt.into(),
            at: None,
        }];
        messages.extend(answers.iter().map(|a| Message {
            role: Role::Assistant,
            text: a.to_string(),
            at: None,
        }));
        Turn {
            code: "abcdefg".into(),
            session_id: "s".into(),
            seq: 1,
            started_at: None,
            messages,
            detail_summary: String::new(),
        }
    }

    #[test]
    fn keeps_the_question_and_the_decisive_facts() {
        let t = turn(
            "Why does the nightly import fail? It started last week.",
            &[
                "Let me look at the logs first.",
                "Reading the config now.",
                "Found it: the cron job runs as user `etl` which cannot read /var/lib/imports/2026.csv.",
                "I changed the owner and re-ran it; 14,203 rows imported.",
            ],
        );
        let line = one_liner(&t, MAX_CHARS);
        assert!(
            line.starts_with("Why does the nightly import fail?"),
            "{line}"
        );
        assert!(line.contains("/var/lib/imports/2026.csv"), "{line}");
        assert!(line.contains("14,203"), "{line}");
        assert!(!line.contains("Let me look"), "{line}");
        assert!(line.chars().count() <= MAX_CHARS);
    }

    #[test]
    fn is_deterministic_and_bounded_for_huge_or_cjk_text() {
        let huge = "word ".repeat(50_000);
        let t = turn(&huge, &[&huge]);
        assert_eq!(one_liner(&t, MAX_CHARS), one_liner(&t, MAX_CHARS));
        assert!(one_liner(&t, MAX_CHARS).chars().count() <= MAX_CHARS);
        let t = turn(
            "決定: 出力は常に UTF-8。ポートは 8443 に変更する。",
            &["了解しました。ポート 8443 を設定しました。"],
        );
        let line = one_liner(&t, MAX_CHARS);
        assert!(line.contains("8443"), "{line}");
    }

    #[test]
    fn fit_marks_the_cut() {
        assert_eq!(fit("short", 10), "short");
        assert_eq!(fit("abcdefghijkl", 5), "abcd…");
    }
}
