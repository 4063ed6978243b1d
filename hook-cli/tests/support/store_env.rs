//! A temp store and a host's projects folder, with the real `throughline` run against them
//! and no client: the payload and transcript tests feed recorded files through it.

use super::throughline::{bin, output_of};
use serde_json::Value;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

pub struct StoreEnv {
    dir: tempfile::TempDir,
    /// `THROUGHLINE_HOME` of every command.
    pub home: PathBuf,
    /// `~/.claude/projects/-home-dev-toy` of this environment, where transcripts go.
    pub project: PathBuf,
    /// The clock of every command, when frozen.
    pub now: Option<String>,
}

impl StoreEnv {
    pub fn new() -> StoreEnv {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        // Where Claude Code keeps transcripts, with the person's home here: a hook reads only
        // its host's folder.
        let project = dir.path().join(".claude/projects/-home-dev-toy");
        fs::create_dir_all(&project).unwrap();
        StoreEnv {
            dir,
            home,
            project,
            now: None,
        }
    }

    /// The folder `import --from` takes: the host's projects folder.
    pub fn projects(&self) -> String {
        self.project.parent().unwrap().to_str().unwrap().to_string()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.project.join(rel)
    }

    /// Appends to the file at `rel` in the project folder, as a host writes a transcript.
    pub fn append_to(&self, rel: &str, bytes: &[u8]) {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(bytes).unwrap();
    }

    /// `throughline` with this environment's store, home and clock.
    pub fn command(&self) -> Command {
        let mut command = Command::new(bin());
        if let Some(now) = &self.now {
            command.env("THROUGHLINE_NOW", now);
        }
        command
            .env("THROUGHLINE_HOME", &self.home)
            .env("HOME", self.dir.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("THROUGHLINE_GUARD");
        command
    }

    pub fn throughline(&self, args: &[&str], stdin: &[u8]) -> Output {
        output_of(self.command().args(args), stdin)
    }

    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.throughline(args, b"");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Every turn of a session with its full detail: the memory as a reader sees it.
    pub fn memory(&self, session: &str) -> Vec<Value> {
        let shown = self.json(&["show", session, "--json"]);
        shown["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| self.json(&["detail", t["code"].as_str().unwrap(), "--json"]))
            .collect()
    }

    pub fn log(&self) -> String {
        fs::read_to_string(self.home.join("throughline.log")).unwrap_or_default()
    }
}
