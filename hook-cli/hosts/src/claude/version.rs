//! Which Claude Code the person runs, against the releases Throughline is tested with: the
//! end-to-end suites drive both ends of this range (`hook-cli/tests/claude-code`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The oldest release the end-to-end suites run against.
pub const OLDEST_TESTED: &str = "2.1.197";
/// The newest release the end-to-end suites run against.
pub const NEWEST_TESTED: &str = "2.1.333";

/// `claude --version` answers in milliseconds; a client that hangs must not hang `doctor`.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// A Claude Code executable and the version it reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub path: PathBuf,
    pub version: String,
}

/// Where a release stands against the tested range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tested {
    Yes,
    Older,
    Newer,
}

/// The `claude` on `PATH` (else the installer's usual places) and its version.
pub fn installed() -> Option<Installed> {
    let path = candidates().into_iter().find(|p| p.is_file())?;
    let version = reported_version(&path)?;
    Some(Installed { path, version })
}

fn candidates() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("claude"))
                .collect()
        })
        .unwrap_or_default();
    if let Some(home) = dirs::home_dir() {
        out.push(home.join(".local/bin/claude"));
        out.push(home.join(".claude/local/claude"));
    }
    out
}

/// The first word `claude --version` prints (`2.1.332 (Claude Code)`).
fn reported_version(path: &Path) -> Option<String> {
    let mut child = Command::new(path)
        .arg("--version")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + VERSION_TIMEOUT;
    while child.try_wait().ok()?.is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let word = text.split_whitespace().next()?;
    parse(word).map(|_| word.to_string())
}

fn parse(version: &str) -> Option<Vec<u64>> {
    version.split('.').map(|p| p.parse().ok()).collect()
}

/// Whether `version` lies in the tested range; `None` when it is not a version number.
pub fn tested(version: &str) -> Option<Tested> {
    let v = parse(version)?;
    let oldest = parse(OLDEST_TESTED)?;
    let newest = parse(NEWEST_TESTED)?;
    Some(if v < oldest {
        Tested::Older
    } else if v > newest {
        Tested::Newer
    } else {
        Tested::Yes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_number_not_text() {
        assert_eq!(tested("2.1.197"), Some(Tested::Yes));
        assert_eq!(tested("2.1.333"), Some(Tested::Yes));
        assert_eq!(tested("2.1.334"), Some(Tested::Newer));
        assert_eq!(tested("2.1.250"), Some(Tested::Yes));
        assert_eq!(tested("2.1.99"), Some(Tested::Older));
        assert_eq!(tested("2.1.1000"), Some(Tested::Newer));
        assert_eq!(tested("3.0.0"), Some(Tested::Newer));
        assert_eq!(tested("2.1"), Some(Tested::Older));
        assert_eq!(tested("next"), None);
    }

    #[test]
    fn a_script_that_prints_a_version_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("claude");
        std::fs::write(&fake, "#!/bin/sh\necho '2.1.300 (Claude Code)'\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(reported_version(&fake).as_deref(), Some("2.1.300"));
        std::fs::write(&fake, "#!/bin/sh\necho 'command not found'\n").unwrap();
        assert_eq!(reported_version(&fake), None);
    }
}
