//! Long output on a terminal goes through a pager, as git does it: `THROUGHLINE_PAGER`, else
//! `PAGER`, else `less`, run with `LESS=FRX` unless the person set `LESS`, so output that fits
//! one screen is printed and the pager quits at once, colours pass through, and the text stays
//! on screen afterwards. A pipe, a file or `--no-pager` gets the output directly.

use std::process::{Child, Command, Stdio};

/// A pager reading what the verb writes to stdout; [`Pager::finish`] waits for the person to
/// quit it.
pub struct Pager {
    child: Child,
}

/// Starts the pager and points stdout at it; `None` (output goes straight to the terminal)
/// when the person chose none (`cat`, or an empty value) or it cannot be started.
#[cfg(unix)]
pub fn start() -> Option<Pager> {
    use std::os::fd::AsRawFd;
    // A terminal that cannot place the cursor (`TERM=dumb`, or none named) cannot page.
    if std::env::var("TERM").map_or(true, |t| t.is_empty() || t == "dumb") {
        return None;
    }
    let mut child = command()?.stdin(Stdio::piped()).spawn().ok()?;
    let input = child.stdin.take()?;
    // SAFETY: dup2 on two descriptors this process owns; fd 1 then names the pager's stdin.
    if unsafe { libc::dup2(input.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
        drop(input);
        let _ = child.wait();
        return None;
    }
    Some(Pager { child })
}

#[cfg(not(unix))]
pub fn start() -> Option<Pager> {
    None
}

impl Pager {
    /// Ends the output (the pager sees its end) and waits until the person quits the pager,
    /// so that the shell prompt and any error come after it, not under it.
    pub fn finish(mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        if let Ok(null) = std::fs::File::open("/dev/null") {
            use std::os::fd::AsRawFd;
            // SAFETY: as in `start`; the pipe's last write end in this process closes.
            unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) };
        }
        let _ = self.child.wait();
    }
}

/// The pager's command line: run directly when it is a program and its arguments, through
/// `sh -c` when it uses the shell (quotes, pipes, variables), as git runs `core.pager`.
fn command() -> Option<Command> {
    let chosen = ["THROUGHLINE_PAGER", "PAGER"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok());
    let line = chosen.unwrap_or_else(|| "less".to_string());
    let line = line.trim();
    if line.is_empty() || line == "cat" {
        return None;
    }
    let mut command = if line.contains(|c: char| "|&;<>()$`\\\"'*?[#~=%".contains(c)) {
        let mut sh = Command::new("sh");
        sh.arg("-c").arg(line);
        sh
    } else {
        let mut words = line.split_whitespace();
        let mut direct = Command::new(words.next()?);
        direct.args(words);
        direct
    };
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRX");
    }
    Some(command)
}
