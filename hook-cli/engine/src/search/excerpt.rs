//! Where a query's terms occur in an entry, and the lines that show them exactly as stored:
//! what a search hit carries, and what `detail --grep` and `--lines` print.
//!
//! The excerpt is taken where the terms occur closest together, not at the first occurrence
//! of one of them: in a long tool output the common words of a query are everywhere, and the
//! fact is where all of them meet.

use aho_corasick::AhoCorasick;
use serde::Serialize;

/// Most characters of one excerpt line; a long line is cut to a third of that on each side of
/// its matches.
const MAX_LINE_CHARS: usize = 360;
/// Lines one hit shows at most.
const MAX_EXCERPT_LINES: usize = 4;
/// Other lines where every term meets, shown after the closest place, and their width: each
/// is a guess at the line asked for, kept short.
const OTHER_PLACES: usize = 2;
const OTHER_LINE_CHARS: usize = 180;
/// Occurrences looked at in one entry: a 1 MB log of one word is not read through.
const MAX_OCCURRENCES: usize = 20_000;

/// Part of one line of an entry, verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// The line's number in the entry, from 1.
    pub line: usize,
    /// Characters of the line before `text` (0: `text` starts the line).
    pub column: usize,
    /// The line, or the part of it around the matches, exactly as stored.
    pub text: String,
    /// Whether the line goes on after `text`.
    pub more: bool,
    /// Where the query's terms occur in `text`: character ranges, start inclusive, end
    /// exclusive.
    pub matches: Vec<[usize; 2]>,
}

/// A term's occurrence: byte range in the text, and which term.
#[derive(Debug, Clone, Copy)]
struct Occurrence {
    start: usize,
    end: usize,
    term: usize,
}

/// A query's terms made ready to be found in many texts, once per search: one automaton finds
/// every term whose case folds as ASCII folds it (CJK, digits, punctuation), in one pass; the
/// few others (`Ä`, `Σ`) are looked for one by one. What a search does with a text (how many
/// terms it holds, its excerpt, its lines holding a term) reads its occurrences once.
pub struct Finder {
    terms: Vec<String>,
    automaton: Option<AhoCorasick>,
    /// Which term each pattern of the automaton is.
    simple: Vec<usize>,
    folded: Vec<usize>,
}

/// Where a finder's terms occur in one text.
pub struct Occurrences<'t> {
    text: &'t str,
    /// By start, the longest first.
    occurrences: Vec<Occurrence>,
    terms: usize,
}

impl Finder {
    pub fn new(terms: &[String]) -> Finder {
        let (simple, folded): (Vec<usize>, Vec<usize>) =
            (0..terms.len()).partition(|&i| terms[i].chars().all(caseless_beyond_ascii));
        let automaton = (!simple.is_empty()).then(|| {
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(simple.iter().map(|&i| &terms[i]))
                .expect("plain string patterns build")
        });
        Finder {
            terms: terms.to_vec(),
            automaton,
            simple,
            folded,
        }
    }

    /// The lines of `text` holding any of the terms (ignoring case), as `(number, line)`, like
    /// `grep -n`: every one, however many occurrences the text holds.
    pub fn grep<'t>(&self, text: &'t str) -> Vec<(usize, &'t str)> {
        // Where each line starts; a line holds an occurrence that starts and ends on it.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        let mut holding = vec![false; starts.len()];
        let mut mark = |start: usize, end: usize| {
            let line = starts.partition_point(|&s| s <= start) - 1;
            let line_end = starts.get(line + 1).map_or(text.len(), |next| next - 1);
            if end <= line_end {
                holding[line] = true;
            }
        };
        if let Some(automaton) = &self.automaton {
            for m in automaton.find_overlapping_iter(text) {
                mark(m.start(), m.end());
            }
        }
        for &term in &self.folded {
            let mut from = 0;
            while let Some((start, end)) = find_ignoring_case(text, &self.terms[term], from) {
                mark(start, end);
                from = text[start..]
                    .chars()
                    .next()
                    .map_or(text.len(), |c| start + c.len_utf8());
            }
        }
        (1..)
            .zip(text.split('\n'))
            .zip(holding)
            .filter(|(_, held)| *held)
            .map(|((number, line), _)| (number, line.strip_suffix('\r').unwrap_or(line)))
            .collect()
    }

    /// Every occurrence of every term in `text`, ignoring case.
    pub fn find<'t>(&self, text: &'t str) -> Occurrences<'t> {
        let mut out = Vec::new();
        if let Some(automaton) = &self.automaton {
            out.extend(
                automaton
                    .find_overlapping_iter(text)
                    .take(MAX_OCCURRENCES)
                    .map(|m| Occurrence {
                        start: m.start(),
                        end: m.end(),
                        term: self.simple[m.pattern().as_usize()],
                    }),
            );
        }
        for &term in &self.folded {
            let mut from = 0;
            while let Some((start, end)) = find_ignoring_case(text, &self.terms[term], from) {
                out.push(Occurrence { start, end, term });
                if out.len() >= MAX_OCCURRENCES {
                    break;
                }
                from = text[start..]
                    .chars()
                    .next()
                    .map_or(text.len(), |c| start + c.len_utf8());
            }
        }
        out.sort_by_key(|o| (o.start, std::cmp::Reverse(o.end)));
        Occurrences {
            text,
            occurrences: out,
            terms: self.terms.len(),
        }
    }
}

fn caseless_beyond_ascii(c: char) -> bool {
    c.is_ascii() || (!c.is_lowercase() && !c.is_uppercase())
}

/// Where `needle` first occurs in `hay` at or after byte `from`, ignoring case (Unicode).
fn find_ignoring_case(hay: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    let needle: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    let first = *needle.first()?;
    for (start, c) in hay[from..].char_indices() {
        if !c.to_lowercase().any(|l| l == first) {
            continue;
        }
        let start = from + start;
        let mut want = needle.iter();
        'chars: for (i, c) in hay[start..].char_indices() {
            for l in c.to_lowercase() {
                match want.next() {
                    Some(w) if *w == l => {}
                    _ => break 'chars,
                }
            }
            if want.len() == 0 {
                return Some((start, start + i + c.len_utf8()));
            }
        }
    }
    None
}

/// The shortest span holding an occurrence of every term that occurs in `found`, as byte
/// range; the earliest of equally short ones. `counts` has a zero for every term, and is left
/// so: the work is that of the occurrences, not of the terms.
fn closest(found: &[Occurrence], counts: &mut [usize]) -> Option<(usize, usize)> {
    let mut wanted = 0;
    for o in found {
        if counts[o.term] == 0 {
            wanted += 1;
            counts[o.term] = 1;
        }
    }
    for o in found {
        counts[o.term] = 0;
    }
    let mut have = 0;
    let mut best: Option<(usize, usize)> = None;
    let mut left = 0;
    let mut right_end = 0;
    for o in found {
        if counts[o.term] == 0 {
            have += 1;
        }
        counts[o.term] += 1;
        right_end = right_end.max(o.end);
        while have == wanted {
            let span = (found[left].start, right_end);
            if best.is_none_or(|(s, e)| span.1 - span.0 < e - s) {
                best = Some(span);
            }
            let gone = found[left].term;
            counts[gone] -= 1;
            if counts[gone] == 0 {
                have -= 1;
            }
            left += 1;
        }
    }
    for o in &found[left..] {
        counts[o.term] = 0;
    }
    best
}

impl<'t> Occurrences<'t> {
    /// The lines that show the terms where they occur closest together, then other lines
    /// each holding every term that occurs, each line cut around its matches when long.
    /// Without any occurrence, the text's first line.
    pub fn excerpts(&self) -> Vec<Excerpt> {
        let (text, found) = (self.text, &self.occurrences[..]);
        let mut counts = vec![0; self.terms];
        let Some((start, end)) = closest(found, &mut counts) else {
            let first = text.split('\n').next().unwrap_or("");
            return vec![cut(first, 1, (0, 0), &[], MAX_LINE_CHARS)];
        };
        let mut out = closest_lines(text, found, (start, end));
        // The closest place is only the first of the places where the terms meet: in a file of
        // similar lines or a list, the line asked for may be another one holding them all. The
        // closest of those come next.
        let mut others: Vec<((usize, usize), Meeting)> = meeting_lines(text, found, self.terms)
            .into_iter()
            .filter(|m| !out.iter().any(|x| x.line == m.number))
            .filter_map(|m| Some((closest(m.found, &mut counts)?, m)))
            .collect();
        others.sort_by_key(|((s, e), m)| (e - s, m.number));
        let room = MAX_EXCERPT_LINES
            .saturating_sub(out.len())
            .min(OTHER_PLACES);
        for ((s, e), m) in others.into_iter().take(room) {
            let (from, to) = m.line;
            let here: Vec<(usize, usize)> = m
                .found
                .iter()
                .filter(|o| o.end <= to)
                .map(|o| (o.start - from, o.end - from))
                .collect();
            let focus = (s - from, e - from);
            out.push(cut(
                &text[from..to],
                m.number,
                focus,
                &here,
                OTHER_LINE_CHARS,
            ));
        }
        out
    }

    /// How many of the terms occur, and how many of them at least once as a word of their
    /// own: not running on into a longer ASCII word (`Quasar-4` in `Quasar-47` does not count;
    /// scripts written without spaces always do).
    pub fn terms_held(&self) -> (usize, usize) {
        let text = self.text;
        let continues = |a: Option<char>, b: Option<char>| matches!((a, b), (Some(a), Some(b)) if a.is_ascii_alphanumeric() && b.is_ascii_alphanumeric());
        let mut held = vec![false; self.terms];
        let mut whole = vec![false; self.terms];
        for o in &self.occurrences {
            held[o.term] = true;
            let (matched, before, after) =
                (&text[o.start..o.end], &text[..o.start], &text[o.end..]);
            if !continues(before.chars().next_back(), matched.chars().next())
                && !continues(matched.chars().next_back(), after.chars().next())
            {
                whole[o.term] = true;
            }
        }
        let count = |flags: Vec<bool>| flags.into_iter().filter(|f| *f).count();
        (count(held), count(whole))
    }
}

/// The lines of the span `(start, end)`, each cut around the part of the span on it.
fn closest_lines(text: &str, found: &[Occurrence], (start, end): (usize, usize)) -> Vec<Excerpt> {
    let first_line = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let last_line = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let first_number = 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..first_line]).count();
    let mut at = first_line;
    let mut out = Vec::new();
    for (number, line) in (first_number..).zip(text[first_line..last_line].split('\n')) {
        let (from, to) = (at, at + line.len());
        let on_line = found.partition_point(|o| o.start < from);
        let here: Vec<(usize, usize)> = found[on_line..]
            .iter()
            .take_while(|o| o.start <= to)
            .filter(|o| o.end <= to)
            .map(|o| (o.start - from, o.end - from))
            .collect();
        // The part of the closest span on this line is what a cut line keeps.
        let focus = here
            .iter()
            .filter(|(s, e)| from + s >= start && from + e <= end)
            .fold(None, |span: Option<(usize, usize)>, &(s, e)| {
                Some(span.map_or((s, e), |(a, b)| (a.min(s), b.max(e))))
            });
        if let Some(focus) = focus {
            out.push(cut(line, number, focus, &here, MAX_LINE_CHARS));
            if out.len() == MAX_EXCERPT_LINES {
                break;
            }
        }
        at = to + 1;
    }
    out
}

/// A line holding an occurrence of every term that occurs in the text.
struct Meeting<'f> {
    number: usize,
    /// The line's byte range.
    line: (usize, usize),
    /// The occurrences starting on it.
    found: &'f [Occurrence],
}

/// The lines where every term that occurs in the text meets, in order, when there are two or
/// more such terms (one term meets itself on every line it is on).
fn meeting_lines<'f>(text: &str, found: &'f [Occurrence], terms: usize) -> Vec<Meeting<'f>> {
    // The line each term was last seen on (0: none yet): nothing to clear from line to line.
    let mut seen_on = vec![0usize; terms];
    let mut wanted = 0;
    for o in found {
        if seen_on[o.term] == 0 {
            seen_on[o.term] = 1;
            wanted += 1;
        }
    }
    let mut out = Vec::new();
    if wanted < 2 {
        return out;
    }
    for o in found {
        seen_on[o.term] = 0;
    }
    let bytes = text.as_bytes();
    let (mut number, mut from, mut to) =
        (1, 0, memchr::memchr(b'\n', bytes).unwrap_or(bytes.len()));
    let (mut first, mut have) = (0, 0);
    for (i, o) in found.iter().enumerate() {
        if o.start > to {
            // On to the line holding this occurrence.
            let gap = &bytes[to + 1..o.start];
            number += 1 + memchr::memchr_iter(b'\n', gap).count();
            from = memchr::memrchr(b'\n', gap).map_or(to + 1, |i| to + 1 + i + 1);
            to = memchr::memchr(b'\n', &bytes[o.start..]).map_or(bytes.len(), |i| o.start + i);
            (first, have) = (i, 0);
        }
        if o.end <= to && seen_on[o.term] != number {
            seen_on[o.term] = number;
            have += 1;
            if have == wanted {
                let last = found[i..].iter().take_while(|o| o.start <= to).count();
                out.push(Meeting {
                    number,
                    line: (from, to),
                    found: &found[first..i + last],
                });
            }
        }
    }
    out
}

/// `line` (number `number`), cut to `width` characters around `focus` (a byte range in it)
/// when longer, with the `matches` (byte ranges in it, by start) that the cut keeps.
fn cut(
    line: &str,
    number: usize,
    focus: (usize, usize),
    matches: &[(usize, usize)],
    width: usize,
) -> Excerpt {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let first = focus.0.min(line.len());
    let last = focus.1.min(line.len());
    let context = width / 3;
    let (from, to) = if line.chars().count() <= width {
        (0, line.len())
    } else {
        let from = chars_back(line, first, context);
        let to = chars_forward(line, last, context);
        if line[from..to].chars().count() > width {
            // A focus wider than a cut line: keep its start.
            let from = chars_back(line, first, context);
            (from, chars_forward(line, from, width))
        } else {
            (from, to)
        }
    };
    let text = &line[from..to];
    let offset = |byte: usize| text[..byte].chars().count();
    let mut ranges: Vec<[usize; 2]> = Vec::new();
    for &(s, e) in matches {
        if s < from || e > to {
            continue;
        }
        let (s, e) = (offset(s - from), offset(e - from));
        match ranges.last_mut() {
            Some(last) if s <= last[1] => last[1] = last[1].max(e),
            _ => ranges.push([s, e]),
        }
    }
    Excerpt {
        line: number,
        column: line[..from].chars().count(),
        text: text.to_string(),
        more: to < line.len(),
        matches: ranges,
    }
}

/// The byte `chars` characters before `byte` (or 0).
fn chars_back(text: &str, byte: usize, chars: usize) -> usize {
    if chars == 0 {
        return byte;
    }
    text[..byte]
        .char_indices()
        .rev()
        .nth(chars - 1)
        .map_or(0, |(i, _)| i)
}

/// The byte `chars` characters after `byte` (or the end).
fn chars_forward(text: &str, byte: usize, chars: usize) -> usize {
    text[byte..]
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| byte + i)
}

/// Lines `from..=to` of `text` (numbered from 1), as `(number, line)`; `to` past the end stops
/// at the last line.
pub fn lines(text: &str, from: usize, to: usize) -> Vec<(usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .skip(from.saturating_sub(1))
        .take(to.saturating_sub(from.max(1)) + 1)
        .collect()
}

/// How many lines `text` has.
pub fn line_count(text: &str) -> usize {
    1 + memchr::memchr_iter(b'\n', text.as_bytes()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    fn excerpts(text: &str, terms: &[String]) -> Vec<Excerpt> {
        Finder::new(terms).find(text).excerpts()
    }

    fn terms_held(text: &str, terms: &[String]) -> (usize, usize) {
        Finder::new(terms).find(text).terms_held()
    }

    fn grep<'t>(text: &'t str, terms: &[String]) -> Vec<(usize, &'t str)> {
        Finder::new(terms).grep(text)
    }

    /// What a reader sees: the excerpt texts with their matches between brackets.
    fn shown(excerpts: &[Excerpt]) -> Vec<String> {
        excerpts
            .iter()
            .map(|e| {
                let chars: Vec<char> = e.text.chars().collect();
                let mut out = String::new();
                let mut at = 0;
                for [s, end] in &e.matches {
                    out.extend(&chars[at..*s]);
                    out.push('[');
                    out.extend(&chars[*s..*end]);
                    out.push(']');
                    at = *end;
                }
                out.extend(&chars[at..]);
                format!("{}:{}", e.line, out)
            })
            .collect()
    }

    #[test]
    fn the_excerpt_is_where_the_terms_meet_not_the_first_occurrence() {
        let mut lines: Vec<String> = (1..=600)
            .map(|i| format!("line {i}: deploy the key service"))
            .collect();
        lines[399] = "deploy key for Quasar-47 is in vault path secret/ops/1234".into();
        let text = lines.join("\n");
        let found = excerpts(&text, &terms(&["Quasar-47", "deploy", "key"]));
        assert_eq!(
            shown(&found),
            ["400:[deploy] [key] for [Quasar-47] is in vault path secret/ops/1234"]
        );
        assert_eq!(found[0].column, 0);
        assert!(!found[0].more);
    }

    #[test]
    fn other_lines_where_every_term_meets_follow_the_closest_one() {
        let text = [
            "<div className=\"bg-white/95 backdrop-blur-sm border\">",
            "<div className=\"w-12 h-12 bg-white/20 backdrop-blur-sm rounded-xl\">",
            "<span className=\"text-white\">backdrop-blur-sm</span>",
            "<div className=\"w-10 h-10 bg-white/20 backdrop-blur-sm rounded-lg\">",
            "<div className=\"p-4 mt-2 mb-2 w-full h-auto bg-white/20 backdrop-blur-sm\">",
        ]
        .join("\n");
        let found = excerpts(
            &text,
            &terms(&["className", "bg-white", "backdrop-blur-sm"]),
        );
        // The closest first, then the next closest of the lines holding all three; line 3
        // lacks bg-white.
        assert_eq!(found.iter().map(|x| x.line).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(
            shown(&found[1..2]),
            ["2:<div [className]=\"w-12 h-12 [bg-white]/20 [backdrop-blur-sm] rounded-xl\">"]
        );
        // One term meets itself everywhere: its first place is enough.
        assert_eq!(excerpts(&text, &terms(&["backdrop-blur-sm"])).len(), 1);
    }

    #[test]
    fn other_places_are_cut_shorter() {
        let line = format!("{} deploy key here {}", "x".repeat(400), "y".repeat(400));
        let text = format!("deploy key\n{line}");
        let found = excerpts(&text, &terms(&["deploy", "key"]));
        assert_eq!(found.len(), 2);
        assert!(found[1].text.chars().count() <= OTHER_LINE_CHARS);
        assert!(found[1].text.contains("deploy key here"), "{found:?}");
    }

    #[test]
    fn the_stored_text_comes_back_exactly() {
        let text = "a\tb   c\nsecond  line with\ttabs and the Needle  here\r\nthird";
        let found = excerpts(text, &terms(&["needle"]));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].text,
            "second  line with\ttabs and the Needle  here"
        );
        assert_eq!(found[0].line, 2);
        assert_eq!(found[0].matches, [[31, 37]]);
    }

    #[test]
    fn a_long_line_is_cut_around_its_matches_with_exact_offsets() {
        let line = format!("{}日本語のneedle{}", "x".repeat(1000), "y".repeat(1000));
        let found = excerpts(&line, &terms(&["needle"]));
        let e = &found[0];
        assert!(e.more && e.column > 0, "{e:?}");
        assert!(e.text.chars().count() <= MAX_LINE_CHARS);
        let chars: Vec<char> = e.text.chars().collect();
        let [s, end] = e.matches[0];
        assert_eq!(chars[s..end].iter().collect::<String>(), "needle");
        assert_eq!(
            &line.chars().skip(e.column).collect::<String>()[..e.text.len()],
            e.text
        );
    }

    #[test]
    fn a_long_line_is_cut_where_the_terms_meet() {
        let line = format!(
            "deploy {} key {} The deploy key for Marigold-69 lives in vault.",
            "filler ".repeat(60),
            "more ".repeat(60)
        );
        let found = excerpts(&line, &terms(&["Marigold-69", "deploy", "key"]));
        assert!(
            found[0]
                .text
                .contains("The deploy key for Marigold-69 lives in vault."),
            "{found:?}"
        );
    }

    #[test]
    fn case_is_ignored_in_any_script_and_overlaps_merge() {
        assert_eq!(
            shown(&excerpts("ÄBC äbc", &terms(&["äb"]))),
            ["1:[ÄB]C [äb]c"]
        );
        assert_eq!(
            shown(&excerpts(
                "the Retry Policy here",
                &terms(&["retry policy", "policy"])
            )),
            ["1:the [Retry Policy] here"]
        );
        assert_eq!(
            shown(&excerpts(
                "移行スクリプトは db/migrate",
                &terms(&["移行", "DB"])
            )),
            ["1:[移行]スクリプトは [db]/migrate"]
        );
    }

    #[test]
    fn terms_on_neighbouring_lines_show_each_line() {
        let text = "header\nfoo = 1\nbar = 2\nfooter";
        assert_eq!(
            shown(&excerpts(text, &terms(&["foo =", "bar"]))),
            ["2:[foo =] 1", "3:[bar] = 2"]
        );
        assert_eq!(shown(&excerpts(text, &terms(&["absent"]))), ["1:header"]);
        assert_eq!(shown(&excerpts("", &terms(&["x"]))), ["1:"]);
    }

    #[test]
    fn whole_terms_do_not_run_on_into_longer_ascii_words() {
        let t = terms(&["Quasar-4", "key"]);
        assert_eq!(terms_held("Quasar-47 key", &t), (2, 1));
        assert_eq!(terms_held("Quasar-4 keys; the Quasar-4: key", &t), (2, 2));
        assert_eq!(terms_held("the keys", &t), (1, 0));
        assert_eq!(
            terms_held("キキョウ96号の設定", &terms(&["キキョウ96号"])),
            (1, 1)
        );
        assert_eq!(terms_held("nothing here", &t), (0, 0));
    }

    #[test]
    fn lines_and_grep_number_lines_like_grep() {
        let text = "one\ntwo\r\nthree\nfour";
        assert_eq!(lines(text, 2, 3), [(2, "two"), (3, "three")]);
        assert_eq!(lines(text, 3, 99), [(3, "three"), (4, "four")]);
        assert_eq!(lines(text, 0, 1), [(1, "one")]);
        assert!(lines(text, 9, 12).is_empty());
        assert_eq!(
            grep(text, &terms(&["T", "our"])),
            [(2, "two"), (3, "three"), (4, "four")]
        );
        assert!(grep(text, &terms(&["zzz"])).is_empty());
        // Every line, however many occurrences the text holds (more than an excerpt reads).
        let many = "x x\n".repeat(MAX_OCCURRENCES);
        assert_eq!(grep(&many, &terms(&["x"])).len(), MAX_OCCURRENCES);
        assert_eq!(line_count(text), 4);
    }
}
