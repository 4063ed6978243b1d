//! The short-word index: what the trigram index cannot find. A trigram index matches terms of
//! three characters or more; most Chinese, Japanese and Korean words are two characters, and
//! `CI`, `db` or `号` are one or two. For every entry the index holds its words of one or two
//! characters, and for each run of CJK text its overlapping pairs of characters (`数据库` →
//! `数据 据库`) plus the run's last character, so a pair or a single character is found
//! anywhere in the run. Both sides are made here: [`words_of`] for an entry (as the SQL
//! function `short_words`), [`query_of`] for a term.

use rusqlite::functions::FunctionFlags;
use rusqlite::Connection;

/// The SQL function that turns an entry's text into what the index holds.
pub const FUNCTION: &str = "short_words";

/// Scripts written without spaces between words.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{FF66}'..='\u{FF9F}' // Half-width Katakana
    )
}

/// Longest word, in characters, of a spaced script that goes in the index.
const SHORT: usize = 2;

/// What the index holds for `text`: its short words, lower case, and the pairs and last
/// characters of its CJK runs, separated by spaces (the index splits on them). A word is
/// listed once however often it occurs: the index answers "which entries", not "how often".
pub fn words_of(text: &str) -> String {
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |word: &str, out: &mut String| {
        if seen.insert(word.to_string()) {
            out.push_str(word);
            out.push(' ');
        }
    };
    let mut run: Vec<char> = Vec::new();
    let mut cjk = false;
    let mut flush = |run: &mut Vec<char>, cjk: bool, out: &mut String| {
        if cjk {
            for pair in run.windows(2) {
                push(&pair.iter().collect::<String>(), out);
            }
            if let Some(last) = run.last() {
                push(&last.to_string(), out);
            }
        } else if (1..=SHORT).contains(&run.len()) {
            let word: String = run.iter().flat_map(|c| c.to_lowercase()).collect();
            push(&word, out);
        }
        run.clear();
    };
    for c in text.chars() {
        if !c.is_alphanumeric() {
            flush(&mut run, cjk, &mut out);
            continue;
        }
        let is_cjk = unspaced(c);
        if !run.is_empty() && is_cjk != cjk {
            flush(&mut run, cjk, &mut out);
        }
        cjk = is_cjk;
        run.push(c);
    }
    flush(&mut run, cjk, &mut out);
    out.pop();
    out
}

/// The index query for one term of a search, or None when the index cannot answer it (a
/// word of a spaced script longer than [`SHORT`]: the trigram index does). Entries found
/// this way may hold the pieces apart; the caller checks the whole term in the text.
pub fn query_of(term: &str) -> Option<String> {
    let mut pieces: Vec<String> = Vec::new();
    let mut run: Vec<char> = Vec::new();
    let mut cjk = false;
    let mut flush = |run: &mut Vec<char>, cjk: bool| -> bool {
        let ok = if run.is_empty() {
            true
        } else if cjk {
            match run.as_slice() {
                // One character: a pair starting with it, or the end of a run.
                [one] => pieces.push(format!("\"{one}\"*")),
                pairs => pieces.extend(
                    pairs
                        .windows(2)
                        .map(|p| format!("\"{}\"", p.iter().collect::<String>())),
                ),
            }
            true
        } else if run.len() <= SHORT {
            let word: String = run.iter().flat_map(|c| c.to_lowercase()).collect();
            pieces.push(format!("\"{word}\""));
            true
        } else {
            false
        };
        run.clear();
        ok
    };
    for c in term.chars() {
        if !c.is_alphanumeric() {
            if !flush(&mut run, cjk) {
                return None;
            }
            continue;
        }
        let is_cjk = unspaced(c);
        if !run.is_empty() && is_cjk != cjk && !flush(&mut run, cjk) {
            return None;
        }
        cjk = is_cjk;
        run.push(c);
    }
    if !flush(&mut run, cjk) || pieces.is_empty() {
        return None;
    }
    Some(pieces.join(" "))
}

/// Makes [`FUNCTION`] callable on `conn`: indexing and removing entries use it.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        FUNCTION,
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            Ok(ctx
                .get_raw(0)
                .as_str_or_null()
                .map_err(|e| rusqlite::Error::UserFunctionError(e.into()))?
                .map(words_of))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_holds_its_short_words_and_the_pairs_of_its_cjk_runs() {
        assert_eq!(words_of("Run CI on db_2 now"), "ci on db 2");
        assert_eq!(words_of("数据库的变量"), "数据 据库 库的 的变 变量 量");
        assert_eq!(words_of("テストは OK, 号"), "テス スト トは は ok 号");
        // Each once, however often.
        assert_eq!(words_of("id id ID"), "id");
        assert_eq!(words_of(""), "");
    }

    #[test]
    fn a_term_asks_for_its_pieces() {
        assert_eq!(query_of("变量").as_deref(), Some("\"变量\""));
        assert_eq!(query_of("数据库").as_deref(), Some("\"数据\" \"据库\""));
        assert_eq!(query_of("号").as_deref(), Some("\"号\"*"));
        assert_eq!(query_of("CI").as_deref(), Some("\"ci\""));
        assert_eq!(query_of("db_2").as_deref(), Some("\"db\" \"2\""));
        // Words of three letters and more are the trigram index's.
        assert_eq!(query_of("deploy"), None);
        assert_eq!(query_of("db_name"), None);
        assert_eq!(query_of("--"), None);
    }

    #[test]
    fn whatever_an_entry_holds_its_own_terms_find_it() {
        for text in ["变量是否", "号", "a", "テスト", "x 是否 y"] {
            let words = words_of(text);
            let held: std::collections::HashSet<&str> = words.split(' ').collect();
            let query = query_of(text).unwrap();
            for piece in query.split(' ') {
                let piece = piece.trim_matches('"').trim_end_matches("\"*");
                assert!(
                    held.iter().any(|w| w.starts_with(piece)),
                    "{piece} of {text:?} in {held:?}"
                );
            }
        }
    }
}
