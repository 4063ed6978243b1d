//! Running an agent's CLI (`claude -p`, `codex exec`) as a summary backend: in an empty folder
//! of its own, with Throughline's hooks told to ignore it, the prompt on stdin, and killed
//! with everything it started when it overruns its time.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What the program printed, once it exited with success.
pub struct Output {
    pub stdout: String,
}

/// Runs `program args` in `workdir` with `stdin`, for at most `timeout`.
pub fn run(
    program: &str,
    args: &[String],
    workdir: &Path,
    stdin: &str,
    timeout: Duration,
) -> Result<Output, String> {
    std::fs::create_dir_all(workdir).map_err(|e| format!("{}: {e}", workdir.display()))?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(workdir)
        // Our own hooks fire inside it; this tells them to store nothing (cmd/hook.rs).
        .env(throughline_core::GUARD_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own, so a timeout ends what it started too.
        .process_group(0)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("`{program}` is not on PATH: install it or choose another summary_backend")
            }
            _ => format!("starting `{program}`: {e}"),
        })?;
    let mut input = child.stdin.take().expect("piped");
    let text = stdin.to_string();
    let writer = thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let read = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut out = Vec::new();
            let _ = pipe.read_to_end(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                // SAFETY: signals the process group this function started and still waits for.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                return Err(format!(
                    "`{program}` did not answer within {} s (summary_timeout_secs)",
                    timeout.as_secs()
                ));
            }
            Err(e) => return Err(format!("waiting for `{program}`: {e}")),
        }
    };
    let _ = writer.join();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if !status.success() {
        let said = stderr.trim();
        let said = if said.is_empty() { stdout.trim() } else { said };
        let said: String = said.chars().take(300).collect();
        return Err(format!("`{program}` failed ({status}): {said}"));
    }
    Ok(Output { stdout })
}
