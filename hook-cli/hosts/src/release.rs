//! Which release of a client the person runs, against the releases Throughline is tested
//! with: the end-to-end suites drive the pinned ones (`hook-cli/tests/<client>`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A client's program and the releases the end-to-end suites run against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestedReleases {
    /// The program's name on `PATH`.
    pub program: &'static str,
    /// Where its installer also puts it, under the home folder.
    pub also_at: &'static [&'static str],
    pub oldest: &'static str,
    pub newest: &'static str,
    /// How the person updates the client.
    pub update: &'static str,
}

impl TestedReleases {
    /// `2.1.197–2.1.333`, or the one release tested.
    pub fn range(&self) -> String {
        match self.oldest == self.newest {
            true => self.oldest.to_string(),
            false => format!("{}–{}", self.oldest, self.newest),
        }
    }

    /// The program on `PATH` (else where its installer puts it) and the version it reports.
    pub fn installed(&self) -> Option<Installed> {
        let path = self.candidates().into_iter().find(|p| p.is_file())?;
        let version = reported_version(&path)?;
        Some(Installed { path, version })
    }

    fn candidates(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join(self.program))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(home) = dirs::home_dir() {
            out.extend(self.also_at.iter().map(|at| home.join(at)));
        }
        out
    }

    /// Where `version` stands against the tested releases; None when it is no version.
    pub fn tested(&self, version: &str) -> Option<Tested> {
        let v = parse(version)?;
        Some(if v < parse(self.oldest)? {
            Tested::Older
        } else if v > parse(self.newest)? {
            Tested::Newer
        } else {
            Tested::Yes
        })
    }
}

/// `--version` answers in milliseconds; a client that hangs must not hang `doctor`.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// A client's executable and the version it reports.
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

/// The first word of `<program> --version` that is a version: `2.1.332 (Claude Code)`,
/// `codex-cli 0.171.0`, `0.61.0`.
fn reported_version(path: &Path) -> Option<String> {
    let mut child = Command::new(path)
        .arg("--version")
        // Claude Code checks for an update when it starts; asked for its version it need not.
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
    text.split_whitespace()
        .map(|word| word.trim_start_matches('v'))
        .find(|word| parse(word).is_some())
        .map(str::to_string)
}

fn parse(version: &str) -> Option<Vec<u64>> {
    version.split('.').map(|p| p.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: TestedReleases = TestedReleases {
        program: "claude",
        also_at: &[],
        oldest: "2.1.197",
        newest: "2.1.333",
        update: "claude update",
    };

    #[test]
    fn versions_compare_by_number_not_text() {
        let tested = |v| CLAUDE.tested(v);
        assert_eq!(tested("2.1.197"), Some(Tested::Yes));
        assert_eq!(tested("2.1.333"), Some(Tested::Yes));
        assert_eq!(tested("2.1.334"), Some(Tested::Newer));
        assert_eq!(tested("2.1.250"), Some(Tested::Yes));
        assert_eq!(tested("2.1.99"), Some(Tested::Older));
        assert_eq!(tested("2.1.1000"), Some(Tested::Newer));
        assert_eq!(tested("3.0.0"), Some(Tested::Newer));
        assert_eq!(tested("2.1"), Some(Tested::Older));
        assert_eq!(tested("next"), None);
        assert_eq!(CLAUDE.range(), "2.1.197–2.1.333");
    }

    #[test]
    fn each_clients_way_of_printing_its_version_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("client");
        use std::os::unix::fs::PermissionsExt;
        for (prints, read) in [
            ("2.1.300 (Claude Code)", Some("2.1.300")),
            ("codex-cli 0.171.0", Some("0.171.0")),
            ("0.61.0", Some("0.61.0")),
            ("command not found", None),
        ] {
            std::fs::write(&fake, format!("#!/bin/sh\necho '{prints}'\n")).unwrap();
            std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(reported_version(&fake).as_deref(), read, "{prints}");
        }
    }
}
