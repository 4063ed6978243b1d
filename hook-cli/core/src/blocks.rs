//! Pasted or generated blocks in a turn's text (logs, stack traces, code, JSON, trees,
//! tables): found for the one-liners, which leave them out, and cut to their first and last
//! lines in a turn given verbatim, with the command that shows the whole. The next session
//! needs what was said about them, and forty lines of a log crowd out the conversation.

use std::borrow::Cow;

/// How much of a block a cut keeps.
#[derive(Clone, Copy)]
pub struct Keep {
    /// A block of more lines than this is cut.
    longest: usize,
    /// Lines a cut block keeps at its start and at its end.
    head: usize,
    tail: usize,
}

impl Keep {
    /// A turn given verbatim: enough of a block to see what it is and how it ended.
    pub const TURN: Keep = Keep {
        longest: 8,
        head: 3,
        tail: 2,
    };
    /// A task statement: the person's words are the point, a block they pasted is named by
    /// its first line and its last (where a log says what failed).
    pub const STATEMENT: Keep = Keep {
        longest: 3,
        head: 1,
        tail: 1,
    };
}

/// `text` with every block of more than `keep.longest` lines cut, pointing at `detail <code>`.
pub fn compact<'t>(text: &'t str, code: &str, keep: Keep) -> Cow<'t, str> {
    let Keep {
        longest,
        head,
        tail,
    } = keep;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= longest {
        return text.into();
    }
    // The paste marks around a block are no lines of it.
    let spans: Vec<(usize, usize)> = blocks(&lines, &in_messages(&lines))
        .into_iter()
        .map(|(start, end)| {
            let start = start + usize::from(lines[start].trim() == PASTE_START);
            let end = end - usize::from(end > start && lines[end - 1].trim() == PASTE_END);
            (start, end)
        })
        .collect();
    if spans.iter().all(|&(start, end)| end - start <= longest) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len().min(8 * 1024));
    let mut at = 0;
    for (start, end) in spans {
        if end - start <= longest {
            continue;
        }
        for line in &lines[at..start + head] {
            out.push_str(line);
            out.push('\n');
        }
        let cut = end - start - head - tail;
        out.push_str(&format!("[… {cut} lines cut: throughline detail {code}]\n"));
        at = end - tail;
    }
    for line in &lines[at..] {
        out.push_str(line);
        out.push('\n');
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out.into()
}

/// The marks stored around a block the person pasted, where the client wrapped it: the
/// person never sees the client's tags, only that a block was pasted.
pub const PASTE_START: &str = "[Pasted text]";
pub const PASTE_END: &str = "[End of pasted text]";

/// A prompt that is one paste and nothing else, without the marks around it: they say only
/// what the whole says.
pub fn without_paste_marks(text: &str) -> &str {
    text.strip_prefix(PASTE_START)
        .and_then(|inner| inner.strip_suffix(PASTE_END))
        .filter(|inner| !inner.contains(PASTE_START))
        .map_or(text, str::trim)
}

/// A markdown heading (`## Summary`), or a line in bold alone (`**What changed:**`): it names
/// a section; what the section says follows it.
pub fn is_heading(line: &str) -> bool {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    let bold = line.len() > 4
        && line.starts_with("**")
        && (line.ends_with("**") || line.ends_with("**:"))
        && !line[2..line.len() - 2].contains("**");
    ((1..=6).contains(&hashes) && line[hashes..].starts_with(' ')) || bold
}

/// A run of at least this many lines that are not prose is a paste, not a sentence's line.
const PASTED: usize = 3;

/// For each line of `text` (as [`str::lines`] splits it), whether it belongs to a fenced or
/// wrapped block, or to a run of at least [`PASTED`] lines that are not prose: a log or an
/// output the person pasted, whose lines are no sentences of theirs.
pub fn pasted_lines(text: &str) -> Vec<bool> {
    let lines: Vec<&str> = text.lines().collect();
    let mut pasted = vec![false; lines.len()];
    let in_message = in_messages(&lines);
    for (start, end) in blocks(&lines, &in_message) {
        let fenced = fence_close(lines[start].trim_start()).is_some();
        let written: Vec<&str> = lines[start..end]
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect();
        if fenced {
            pasted[start..end].fill(true);
        } else if written.len() >= PASTED {
            // A table's rows read as phrases (see `summary::sentences`), and so do a list's
            // items and lines of words: they stay.
            for at in start..end {
                let t = lines[at].trim();
                let phrases = t.starts_with('|') || is_list_item(t) || is_wordy(t);
                pasted[at] = in_message[at] || !phrases;
            }
        }
    }
    // A line of code alone between sentences (`using Gemm = device::Gemm<A,`) is no sentence
    // either; a line of words that ends in one (`… with this body {`) is.
    for (at, line) in lines.iter().enumerate() {
        let t = line.trim();
        if !pasted[at] && is_code(t) && has_code_marks(t) && !is_wordy(t) {
            pasted[at] = true;
        }
    }
    pasted
}

/// Marks that prose does not have: a path of names, an assignment, an arrow, a generic, a
/// statement's end.
fn has_code_marks(t: &str) -> bool {
    ["::", " = ", "=>", "->", "();", "<", ";", "{", "//"]
        .iter()
        .any(|m| t.contains(m))
}

/// A markdown list item (`- …`, `* …`, `1. …`) that is no log line.
pub fn is_list_item(t: &str) -> bool {
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let item = t.starts_with("- ")
        || t.starts_with("* ")
        || t.starts_with("• ")
        || (digits > 0 && digits < 4 && t[digits..].starts_with(['.', ')']));
    item && !is_log(t)
}

/// A line of eight words or more, most of them words of letters, that no program logged
/// and no script or code holds (a command, a comment): someone's sentence that ends in code
/// (`… POST with this body {`) or sits in JSON.
fn is_wordy(t: &str) -> bool {
    // A comment after code is the code's (`ElementOutput,  // <- data type of the output`).
    let t = code_before_comment(t).unwrap_or(t);
    if is_log(t)
        || starts_with_time(t)
        || is_shell_line(t)
        || t.starts_with("# ")
        || t.starts_with("//")
    {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let lettered = words
        .iter()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() * 2 > w.chars().count())
        .count();
    words.len() >= 8 && lettered * 10 >= words.len() * 7
}

/// The line ranges `[start, end)` that are blocks: a fenced block (its fences included), a
/// paste the client wrapped, or a run of lines that are not prose (blank lines inside a run
/// belong to it).
fn blocks(lines: &[&str], in_message: &[bool]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(close) = fence_close(line) {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_start().starts_with(close))
                .map_or(lines.len(), |j| j + 1);
            spans.push((i, end));
            i = end;
        } else if !is_prose(lines[i]) || is_comment_in_code(lines, i) {
            let mut end = i + 1;
            let mut last = i;
            while end < lines.len() && fence_close(lines[end].trim_start()).is_none() {
                if lines[end].trim().is_empty() {
                    end += 1;
                    continue;
                }
                if is_prose(lines[end]) && !in_message[end] && !is_comment_in_code(lines, end) {
                    break;
                }
                last = end;
                end += 1;
            }
            spans.push((i, last + 1));
            i = last + 1;
        } else {
            i += 1;
        }
    }
    spans
}

/// For each line, whether it goes on a compiler's message (see [`is_diagnostic`]) in words:
/// after its first line, up to a blank line or a line that ends as a sentence does
/// (`candidate versions found which didn't match: 2.0.0-rc.10, …`, `location searched: …`).
/// A sentence in lower case is the program's hint that closes the message (`perhaps a crate
/// was updated and forgotten to be re-vendored?`); a person's sentence opens in capitals.
fn in_messages(lines: &[&str]) -> Vec<bool> {
    let mut in_message = vec![false; lines.len()];
    let mut open = false;
    for at in 1..lines.len() {
        let line = lines[at];
        open = open || is_diagnostic(lines[at - 1]);
        if !open || line.trim().is_empty() {
            open = false;
            continue;
        }
        let closes = ends_a_sentence(line);
        in_message[at] = !closes || line.trim_start().starts_with(char::is_lowercase);
        open = !closes;
    }
    in_message
}

/// The first line of a compiler's or a package manager's message (`error: failed to select
/// a version …`, `error[E0308]: mismatched types`, `warning: unused import`).
fn is_diagnostic(line: &str) -> bool {
    let t = line.trim_start();
    ["error:", "error[", "warning:", "warning["]
        .iter()
        .any(|opening| t.starts_with(opening))
}

/// The first line of `text` that reports an error: a compiler's (see [`is_diagnostic`]), an
/// exception's (`TypeError: …`, `ModuleNotFoundError: …`), git's `fatal: …`.
pub fn first_error(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|t| {
        (is_diagnostic(t) && t.starts_with("error")) || is_exception(t) || t.starts_with("fatal: ")
    })
}

/// An exception as a runtime prints it: `TypeError: …`,
/// `django.db.utils.OperationalError: deadlock detected`.
fn is_exception(t: &str) -> bool {
    t.split_once(':').is_some_and(|(name, rest)| {
        !rest.trim().is_empty()
            && !name.contains(' ')
            && (name.ends_with("Error") || name.ends_with("Exception"))
    })
}

/// Whether a line ends as a sentence a person writes does (a list cut short, `2.0.0-rc.9,
/// ...`, does not).
fn ends_a_sentence(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with(['.', '!', '?', '。', '！', '？']) && !t.ends_with("..")
}

/// What closes a block that `line` opens: a code fence, or the client's paste wrapper.
fn fence_close(line: &str) -> Option<&'static str> {
    if line.starts_with("```") {
        Some("```")
    } else if line.starts_with("~~~") {
        Some("~~~")
    } else if line.starts_with("<pasted_content") {
        Some("</pasted_content")
    } else {
        None
    }
}

/// A line a person or the model wrote as text: not indented code, a log or stack line, a
/// table row, a drawing, or data with more symbols than letters.
fn is_prose(line: &str) -> bool {
    if line.trim().is_empty() {
        return true;
    }
    if line.starts_with("    ") || line.starts_with('\t') {
        return false;
    }
    let t = line.trim();
    if t.starts_with('|')
        || t.starts_with("at ")
        || t.starts_with("File \"")
        || t.starts_with('{')
        || t.starts_with('}')
        || t.starts_with('[') && !t.starts_with("[ ]") && !t.starts_with("[x]")
        || t.starts_with("Traceback")
        || starts_with_time(t)
        || t.chars().any(|c| matches!(c, '│' | '├' | '└' | '─'))
        || is_progress(t)
        || is_aligned_field(t)
        || is_output_in_columns(t)
        || is_bare_name(t)
    {
        return false;
    }
    if is_code(t) || is_log(t) || has_shell_marks(t) || is_exception(t) {
        return false;
    }
    let letters = t.chars().filter(|c| c.is_alphabetic() || *c == ' ').count();
    letters * 10 >= t.chars().count() * 6
}

/// Words at most in a line a program prints to say what it is doing.
const PROGRESS_WORDS: usize = 8;

/// A line a program prints while it works: a few words trailing off (`Starting the API
/// backend...`, `Waiting for the database…`). Inside a pasted log it would otherwise read as
/// a sentence and split the log into pieces too short to cut.
fn is_progress(t: &str) -> bool {
    (t.ends_with("...") || t.ends_with('…'))
        && t.split_whitespace().count() <= PROGRESS_WORDS
        && ![". ", "? ", "! "]
            .iter()
            .any(|stop| t.trim_end_matches(['.', '…']).contains(stop))
}

/// A field a program aligned in columns (`Dashboard:        http://localhost:9000`). A name and
/// an address with one space (`GitHub Repo: https://…`) is how people list what they made.
fn is_aligned_field(t: &str) -> bool {
    t.find(":  ")
        .is_some_and(|at| t[..at].split_whitespace().count() <= 3)
}

/// A line that is one name alone (`docker.io/kubeedge/cloudcore:v1.17.5`, a path, an
/// address): what a program prints between its log lines, no sentence.
fn is_bare_name(t: &str) -> bool {
    // Chinese and Japanese sentences have no spaces either.
    t.is_ascii() && !t.contains(' ') && t.contains(['/', ':', '_']) && !t.ends_with([':', '?', '!'])
}

/// A row a program printed in columns (`kube-system   etcd-node-1   1/1   Running   0   124m`):
/// fields apart by wide gaps, most of them no words, or all in capitals. A table of words
/// typed that way stays.
fn is_output_in_columns(t: &str) -> bool {
    if t.split("   ")
        .filter(|field| !field.trim().is_empty())
        .count()
        < 3
    {
        return false;
    }
    let fields: Vec<&str> = t.split_whitespace().collect();
    let words = fields
        .iter()
        .filter(|f| f.chars().all(char::is_alphabetic))
        .count();
    // A header in capitals (`NAMESPACE   NAME   READY`) is the program's too.
    words * 2 < fields.len() || !t.chars().any(char::is_lowercase)
}

/// A line of code: it ends as code does, holds an arrow or a call's end, or opens with a
/// keyword that starts a declaration, or as a shell script's line does.
fn is_code(t: &str) -> bool {
    if code_before_comment(t).is_some() {
        return true;
    }
    const OPENERS: &[&str] = &[
        "import ",
        "export ",
        "const ",
        "let ",
        "var ",
        "def ",
        "fn ",
        "pub ",
        "class ",
        "function ",
        "return ",
        "from ",
        "use ",
        "#include",
        "#define",
        "using ",
        "//",
        "/*",
        "package ",
        "async ",
        "await ",
        "if (",
        "for (",
        "while (",
        "} else",
        "@",
    ];
    t.ends_with(['{', '}', ';', ',', '(', '[', ']', '<'])
        || t.ends_with(')') && is_call(t)
        || t.contains("=>")
        || t.contains("();")
        || OPENERS.iter().any(|o| t.starts_with(o))
        || is_shell_line(t)
}

/// The code of a line of code that a comment ends (`ElementOutput,  // <- data type`): what
/// stands before ` //`, when it is code by itself.
fn code_before_comment(t: &str) -> Option<&str> {
    let at = t.find(" //")?;
    let code = t[..at].trim_end();
    (!code.is_empty() && is_code(code)).then_some(code)
}

/// A line of a shell script: a command that only scripts start a line with, a keyword, an
/// exit with its status or a sleep with its seconds, a variable set.
fn is_shell_line(t: &str) -> bool {
    /// What opens a line of a shell script (English words people start a line with, as "exit the
    /// app", are left to the rest of the line).
    const SHELL_OPENERS: &[&str] = &[
        "#!", "echo ", "printf ", "trap ", "if [", "if ! ", "elif ", "set -e",
    ];
    /// A shell script's lines that are one word.
    const SHELL_KEYWORDS: &[&str] = &["fi", "then", "else", "do", "done", "esac", "wait", "exit"];
    let number_after = |command: &str| {
        t.strip_prefix(command).is_some_and(|n| {
            n.bytes()
                .all(|b| b.is_ascii_digit() || b == b'$' || b == b'.')
        })
    };
    let exit_status = number_after("exit ") || number_after("sleep ");
    SHELL_OPENERS.iter().any(|o| t.starts_with(o))
        || SHELL_KEYWORDS.contains(&t)
        || exit_status
        || is_variable_set(t)
}

/// A shell or `.env` variable set: `SCRIPT_DIR="$( cd … )"`, `BACKEND_PID=$!`.
fn is_variable_set(t: &str) -> bool {
    t.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    })
}

/// A comment line (`# Start the backend`) with code after it: the code's, where a markdown
/// heading would be followed by prose.
fn is_comment_in_code(lines: &[&str], at: usize) -> bool {
    lines[at].trim_start().starts_with("# ")
        && lines[at + 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|next| !is_prose(next))
}

/// Whether a line holds what only a shell command holds: a variable (`"$ROOT/app"`, `${GREEN}`,
/// `$!`; a price, `$5`, is no variable), a pipe, a chain, a redirection, a job sent to the
/// background (`uv run python server.py &`).
fn has_shell_marks(t: &str) -> bool {
    let variable = t.match_indices('$').any(|(at, _)| {
        t[at + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || "_{(!?@#".contains(c))
    });
    variable || t.ends_with(" &") || [" | ", " && ", " 2>", " > /"].iter().any(|m| t.contains(m))
}

/// Whether the line's first parenthesis follows a name, as a call's does (`run(x)`, not
/// `see (x)`).
fn is_call(t: &str) -> bool {
    t.find('(').is_some_and(|at| {
        t[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// A line a program logged: a level, a status mark, a prompt of a tool's output, what
/// PostgreSQL adds under an error (`DETAIL:`, `HINT:`), or a command typed at a shell prompt
/// (`(base) ➜  ~ sudo ctr …`).
fn is_log(t: &str) -> bool {
    const MARKS: &[&str] = &[
        "INFO",
        "WARN",
        "ERROR",
        "DEBUG",
        "TRACE",
        "FATAL",
        "==>",
        "✓",
        "✔",
        "⨯",
        "✗",
        "✘",
        "○",
        "▲",
        "⚠",
        "➜",
        "❯",
        "$ ",
        "at ",
        "npm ",
        "sudo ",
        "kubectl ",
        "docker ",
        "error:",
        "warning:",
        "GET /",
        "POST /",
        "PUT /",
        "DELETE /",
        "DETAIL:",
        "HINT:",
        "CONTEXT:",
        "STATEMENT:",
    ];
    // A shell prompt after the name of an environment: `(base) ➜`, `(.venv) $`.
    let prompt = t
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(") "))
        .is_some_and(|(env, rest)| {
            !env.contains(' ') && (rest.starts_with('➜') || rest.starts_with("$ "))
        });
    prompt
        || is_prompt_after_path(t)
        || starts_with_address(t)
        || MARKS.iter().any(|m| t.starts_with(m))
}

/// A line opened by an IPv4 address, as an access log writes it (`10.2.3.4 - - [30/Nov/…`).
fn starts_with_address(t: &str) -> bool {
    if !t.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let first = t.split_whitespace().next().unwrap_or_default();
    let host = first.split_once(':').map_or(first, |(host, _)| host);
    let mut parts = 0;
    host.split('.').all(|p| {
        parts += 1;
        (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    }) && parts == 4
}

/// A shell prompt that shows where it is: `~/shop ❯ cargo run`, `dev@box:~/shop$ make`,
/// `/srv/app # ls`. The line a person copies with the output under it.
fn is_prompt_after_path(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let place = first.starts_with(['~', '/']) || first.contains('@') && first.contains(':');
    let marked = first.ends_with(['$', '#', '%'])
        || words
            .next()
            .is_some_and(|w| ["❯", "➜", "$", "#", "%", "λ", "»"].contains(&w));
    place && marked
}

/// `2026-12-01`, `2026/12/01` (nginx), `12:04:33`, `[12:04`: a log line's stamp.
fn starts_with_time(t: &str) -> bool {
    let b = t.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    (digits(0..4) && matches!(b.get(4), Some(b'-' | b'/')) && digits(5..7))
        || (digits(0..2) && b.get(2) == Some(&b':') && digits(3..5))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The indices of the lines of `text` that are pasted.
    fn pasted_at(text: &str) -> Vec<usize> {
        pasted_lines(text)
            .iter()
            .enumerate()
            .filter(|(_, &pasted)| pasted)
            .map(|(at, _)| at)
            .collect()
    }

    /// `n` lines of a log, each a worker timing out.
    fn timeouts(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("2026-11-30 12:00:{i:02} ERROR worker-{i} timed out after 30s"))
            .collect()
    }

    /// The lines of `text` that stay sentences.
    fn unpasted(text: &str) -> Vec<&str> {
        text.lines()
            .zip(pasted_lines(text))
            .filter(|(_, pasted)| !pasted)
            .map(|(line, _)| line)
            .collect()
    }

    #[test]
    fn runs_of_output_and_fences_are_pasted_and_prose_and_tables_are_not() {
        let text = "Here is what I see:\n\
                    INFO starting\n\
                    WARN slow disk\n\
                    ERROR gave up\n\
                    Why does it give up?\n\
                    | a | b |\n|---|---|\n| 1 | 2 |\n\
                    ```\nlet x = 1;\n```\n\
                    ERROR once";
        let pasted = pasted_at(text);
        // A single log line in prose is the person's to quote; a table reads as phrases.
        assert_eq!(pasted, [1, 2, 3, 8, 9, 10]);
    }

    #[test]
    fn a_log_with_progress_lines_is_cut_as_one_block() {
        let text = "the dev server still fails, look:\n\
                    $ ./scripts/dev.sh\n\
                    Starting the API backend...\n\
                    Waiting for the database to initialize...\n\
                    ✔ 09:12:01 API ready (1.2s)\n\
                    Starting the Vite frontend…\n\
                    ⚠ Port 5173 is in use, trying 5174 instead.\n\
                    Dashboard:        http://localhost:9000\n\
                    Press Ctrl+C to stop all services...\n\
                    ✓ Compiled /checkout in 412ms\n\
                    ⨯ [TypeError: cannot read properties of undefined (reading 'total')]\n\
                    GET /checkout 500 in 38ms\n\
                    What is wrong? I tried a restart...";
        let cut = compact(text, "t1", Keep::TURN);
        assert_eq!(
            cut,
            "the dev server still fails, look:\n\
             $ ./scripts/dev.sh\n\
             Starting the API backend...\n\
             Waiting for the database to initialize...\n\
             [… 6 lines cut: throughline detail t1]\n\
             ⨯ [TypeError: cannot read properties of undefined (reading 'total')]\n\
             GET /checkout 500 in 38ms\n\
             What is wrong? I tried a restart..."
        );
    }

    #[test]
    fn list_items_and_sentences_that_end_in_code_are_not_pasted() {
        let text = "Core fields:\n\
                    - Owner ID, Name, Mailing Address,\n\
                    - Deed Date, Sale Price (USD),\n\
                    - Lot Size, Zoning,\n\
                    Please call the endpoint /analyze POST with this exact body below {\n\
                    \"prompt\": \"Explain lifting state up in React to a new developer please.\",\n\
                    \"flags\": []\n\
                    }";
        let pasted: Vec<bool> = pasted_lines(text);
        assert_eq!(
            pasted,
            [false, false, false, false, false, false, true, true]
        );
    }

    #[test]
    fn code_pasted_around_a_question_is_pasted_and_the_question_is_not() {
        let text = "[Pasted text]\n\
                    // What does this part configure?\n\
                    using Epilogue = kernels::epilogue::Linear<\n    \
                    Output,     // <- element type\n    \
                    Compute>;   // <- scale type\n\
                    这里的归约在哪里定义？还是说在\n\
                    using Kernel = kernels::device::SplitK<InputA,\n\
                    这里指定了\n\
                    [End of pasted text]\n\
                    Please call it like this, with the options above,\n\
                    then tell me what x < 5 does.";
        let kept = unpasted(text);
        assert_eq!(
            kept,
            [
                "这里的归约在哪里定义？还是说在",
                "这里指定了",
                "[End of pasted text]",
                "Please call it like this, with the options above,",
                "then tell me what x < 5 does."
            ]
        );
    }

    #[test]
    fn output_in_columns_is_pasted_and_a_table_of_words_is_not() {
        let text = "The pods after the restart:\n\
                    (base) ➜  ~ sudo kubectl delete pod -n kubeedge --all\n\
                    docker.io/kubeedge/cloudcore:v1.17.5\n\
                    \x20 kubectl get pods -A\n\
                    NAMESPACE     NAME                         READY   STATUS    RESTARTS   AGE\n\
                    kube-system   etcd-node-1                  1/1     Running   0          124m\n\
                    kube-system   kube-scheduler-node-1        1/1     Running   0          124m\n\
                    kubeedge      cloudcore-857d998c64-47qck   1/1     Running   0          5s\n\
                    A3    Person detection    Add YOLOv8n with the person class only    allowed\n\
                    Why is cloudcore restarting?";
        let pasted = pasted_at(text);
        assert_eq!(pasted, [1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn a_pasted_log_is_cut_to_its_ends_and_the_words_around_it_stay() {
        let log = timeouts(40);
        let text = format!(
            "The import fails every night. Here is the log:\n{}\nWhat is wrong?",
            log.join("\n")
        );
        let out = compact(&text, "abc1234", Keep::TURN);
        assert!(
            out.starts_with("The import fails every night. Here is the log:\n2026-11-30 12:00:00")
        );
        assert!(
            out.contains("[… 35 lines cut: throughline detail abc1234]"),
            "{out}"
        );
        assert!(out.contains("worker-39 timed out"));
        assert!(!out.contains("worker-20 "));
        assert!(out.ends_with("What is wrong?"));
    }

    #[test]
    fn an_nginx_log_with_its_access_lines_is_one_block() {
        let log: Vec<String> = (0..12)
            .map(|i| {
                match i % 3 {
                    0 => format!("2026/11/30 09:00:{i:02} [error] 31#31: *2992{i} upstream prematurely closed connection while reading response header from upstream, client: 10.2.3.{i}, server: api.orders.internal, request: \"GET /api/v1/orders?page=8 HTTP/1.1\", upstream: \"http://10.2.9.17:8000/api/v1/orders\", host: \"api.orders.internal\""),
                    1 => format!("[2026-11-30 09:00:{i:02} +0000] [2] [INFO] Booting worker with pid: 1{i}"),
                    _ => format!("10.2.3.{i} - - [30/Nov/2026:09:00:{i:02} +0000] \"GET /healthz HTTP/1.1\" 502 150 \"-\" \"kube-probe/1.31\" 0.012"),
                }
            })
            .collect();
        let text = format!(
            "A bunch of 502s, look:\n{}\nWhat do you think?",
            log.join("\n")
        );
        assert_eq!(pasted_at(&text), (1..13).collect::<Vec<_>>());
        assert!(compact(&text, "c", Keep::TURN).contains("[… 7 lines cut"));
    }

    #[test]
    fn a_statement_names_a_pasted_block_by_its_first_and_last_lines() {
        let log = timeouts(40);
        let text = format!(
            "The import fails every night:\n{}\nFind the cause.",
            log.join("\n")
        );
        let out = compact(&text, "abc1234", Keep::STATEMENT);
        assert_eq!(
            out,
            "The import fails every night:\n\
             2026-11-30 12:00:00 ERROR worker-0 timed out after 30s\n\
             [… 38 lines cut: throughline detail abc1234]\n\
             2026-11-30 12:00:39 ERROR worker-39 timed out after 30s\n\
             Find the cause."
        );
        let list =
            "Build these:\n- a login page\n- a sign-up page\n- a reset page\n- a profile page";
        assert_eq!(compact(list, "c", Keep::STATEMENT), list);
    }

    #[test]
    fn pasted_code_and_logs_without_fences_are_blocks() {
        let code = "import {\n  convexAuthNextjsMiddleware,\n  createRouteMatcher,\n} from \"@convex-dev/auth/nextjs/server\";\n\
                    const isSignInPage = createRouteMatcher([\"/signin\"]);\n\
                    export default convexAuthNextjsMiddleware(async (request) => {\n  return next();\n});\n\
                    const a = 1;\nconst b = 2;";
        let text = format!("This middleware breaks the sign-in:\n{code}\nWhy?");
        let out = compact(&text, "c", Keep::TURN);
        assert!(out.contains("lines cut"), "{out}");
        assert!(out.starts_with("This middleware breaks the sign-in:"));
        let log = " ✓ Compiled /middleware in 336ms (225 modules)\n".repeat(12);
        assert!(compact(&log, "c", Keep::TURN).contains("lines cut"));
    }

    #[test]
    fn a_compilers_message_in_words_is_pasted_to_its_end() {
        let text = "I updated Rust and backed out the changes. Now I'm getting this error:\n\
                    error: failed to select a version for the requirement `ort = \"^2.0\"`\n\
                    candidate versions found which didn't match: 2.0.0-rc.10, 2.0.0-rc.9, ...\n\
                    location searched: crates.io index\n\
                    required by package `medianator v0.1.0 (/Users/me/medianator)`\n\
                    if you are looking for the prerelease package it needs to be specified explicitly\n\
                    \n\
                    the build worked yesterday\n\
                    error: could not compile `medianator`\n\
                    What should I change?";
        let kept = unpasted(text);
        // A line of the person's after a blank line is theirs; so is a sentence after the
        // message, and a lone error line amid sentences is theirs to quote.
        assert_eq!(
            kept,
            [
                "I updated Rust and backed out the changes. Now I'm getting this error:",
                "",
                "the build worked yesterday",
                "error: could not compile `medianator`",
                "What should I change?"
            ]
        );
    }

    #[test]
    fn a_shell_prompt_and_the_programs_closing_hint_are_pasted() {
        let text = "~/Projects/shop ❯ cargo run --release        main [ ~7 ?3] is 📦 v0.1.0\n\
                    error: failed to select a version for the requirement `ort = \"^2.0\"`\n\
                    location searched: crates.io index\n\
                    perhaps a crate was updated and forgotten to be re-vendored?\n\
                    Should I pin it?\n\
                    dev@box:~/shop$ make test\n\
                    /srv/app # tail app.log\n\
                    2026-12-04 16:40:01 listening on 8443\n\
                    ~/notes are where I keep the plan.";
        assert_eq!(
            unpasted(text),
            ["Should I pin it?", "~/notes are where I keep the plan."]
        );
    }

    #[test]
    fn code_with_a_comment_after_it_is_pasted() {
        let text = " // This code section describes ?\n\
                    using EpilogueOp = cutlass::epilogue::thread::LinearCombination<\n    \
                    ElementOutput,                     // <- data type of output matrix\n    \
                    128 / cutlass::sizeof_bits<ElementOutput>::value,  // <- elements per\n    \
                                                       // the vector width of math instructions in\n    \
                    ElementAccumulator,                // <- data type of accumulator\n    \
                    ElementComputeEpilogue>;  // <- data type for alpha/beta in linear combination function\n\
                    这里如何理解，没看到有说reduction的部分啊\n\
                    ElementComputeEpilogue>;  // <- data type for alpha/beta in linear combination function\n\
                    Why is there no reduction here? See the docs // they explain it";
        assert_eq!(
            unpasted(text),
            [
                "这里如何理解，没看到有说reduction的部分啊",
                "Why is there no reduction here? See the docs // they explain it"
            ]
        );
    }

    #[test]
    fn a_shell_script_with_its_comments_is_pasted() {
        let text = "Write a start script for the shop like this example: (#!/bin/bash\n\
                    \n\
                    # Colors for output\n\
                    GREEN='\\033[0;32m'\n\
                    NC='\\033[0m'\n\
                    \n\
                    echo -e \"${GREEN}Starting the shop backend...${NC}\"\n\
                    cd \"$SHOP_ROOT/app/server\"\n\
                    uv run python server.py &\n\
                    sleep 3\n\
                    \n\
                    # Check that the backend came up before the worker starts\n\
                    if ! kill -0 $BACKEND_PID 2>/dev/null; then\n    \
                    echo -e \"Backend failed to start, look at logs/backend.log first\"\n    \
                    exit 1\n\
                    fi\n\
                    wait\n\
                    )\n\
                    \n\
                    # Then the part that matters\n\
                    It must start the worker on port 8443, never on 8080.";
        assert_eq!(
            unpasted(text),
            [
                "Write a start script for the shop like this example: (#!/bin/bash",
                "",
                "",
                "# Then the part that matters",
                "It must start the worker on port 8443, never on 8080."
            ]
        );
    }

    #[test]
    fn what_postgres_adds_under_an_error_is_pasted() {
        let text = "Reserving failed again:\n\
                    [2026-11-30 09:12:01 +0000] [41] [INFO] Booting worker with pid: 41\n\
                    django.db.utils.OperationalError: deadlock detected\n\
                    DETAIL:  Process 18812 waits for ShareLock on transaction 99120; blocked by process 18790.\n\
                    HINT:  See server log for query details.\n\
                    [2026-11-30 09:12:04 +0000] [41] [INFO] Autorestarting worker after current request.";
        assert_eq!(pasted_at(text), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_prompt_that_is_one_paste_loses_its_marks() {
        let one = "[Pasted text]\nImplement the following plan:\n# Plan\n[End of pasted text]";
        assert_eq!(
            without_paste_marks(one),
            "Implement the following plan:\n# Plan"
        );
        let two = "[Pasted text]\nlog\n[End of pasted text] and [Pasted text]\nmore\n[End of pasted text]";
        assert_eq!(without_paste_marks(two), two);
        let around = "Look: [Pasted text]\nlog\n[End of pasted text]";
        assert_eq!(without_paste_marks(around), around);
    }

    #[test]
    fn the_first_error_is_found_in_what_was_pasted() {
        let log = "~/shop ❯ npm run build\n> shop@1.0.0 build\nTypeError: Cannot read properties of undefined (reading 'total')\n    at CartSummary";
        assert_eq!(
            first_error(log),
            Some("TypeError: Cannot read properties of undefined (reading 'total')")
        );
        assert_eq!(
            first_error("Compiling shop\nerror[E0308]: mismatched types"),
            Some("error[E0308]: mismatched types")
        );
        assert_eq!(
            first_error("fatal: not a git repository"),
            Some("fatal: not a git repository")
        );
        assert_eq!(
            first_error("warning: unused import\nErrors: none so far"),
            None
        );
    }

    #[test]
    fn code_fences_and_tables_are_blocks_prose_is_not() {
        let code: Vec<String> = (0..20).map(|i| format!("let x{i} = {i};")).collect();
        let text = format!("Use this:\n```rust\n{}\n```\nThen run it.", code.join("\n"));
        let out = compact(&text, "c", Keep::TURN);
        assert!(
            out.contains("```rust\nlet x0 = 0;\nlet x1 = 1;\n[… 17 lines cut"),
            "{out}"
        );
        assert!(out.ends_with("let x19 = 19;\n```\nThen run it."), "{out}");

        let prose: Vec<String> = (0..20)
            .map(|i| format!("- Point {i}: the reader keeps this sentence."))
            .chain((0..20).map(|i| format!("- Step {i} is done (see the notes)")))
            .collect();
        let text = prose.join("\n");
        assert_eq!(compact(&text, "c", Keep::TURN), text);
    }
}
