//! The real Codex CLI (pinned in `hook-cli/tests/codex`, or `THROUGHLINE_CODEX_BIN`) in an
//! isolated HOME, pointed at a [`ResponsesServer`](super::responses_server::ResponsesServer),
//! its hooks running the real `throughline hook codex` on a temp store.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::responses_server::ResponsesServer;

/// The `codex` launcher: `THROUGHLINE_CODEX_BIN`, else the one `npm ci --prefix
/// hook-cli/tests/codex` installs.
pub fn codex_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("THROUGHLINE_CODEX_BIN").filter(|b| !b.is_empty()) {
        return bin.into();
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codex/node_modules/.bin/codex");
    assert!(
        bin.exists(),
        "no Codex CLI at {}: run `npm ci --prefix hook-cli/tests/codex`",
        bin.display()
    );
    bin
}

pub struct CodexEnv {
    pub home: tempfile::TempDir,
    pub project: tempfile::TempDir,
    pub store: tempfile::TempDir,
}

impl CodexEnv {
    /// A HOME whose `~/.codex` uses the server as its model provider and runs `throughline`
    /// (`bin`) on every hook event.
    pub fn new(server: &ResponsesServer, bin: &str) -> CodexEnv {
        let env = CodexEnv {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
            store: tempfile::tempdir().unwrap(),
        };
        let codex = env.home.path().join(".codex");
        std::fs::create_dir_all(&codex).unwrap();
        std::fs::write(
            codex.join("config.toml"),
            format!(
                "model = \"gpt-5\"\nmodel_provider = \"scripted\"\n\n\
                 [model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{}\"\n\
                 wire_api = \"responses\"\nenv_key = \"SCRIPTED_KEY\"\n",
                server.base_url()
            ),
        )
        .unwrap();
        let out = env.throughline(bin, &["install", "--host", "codex"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(env.project.path())
            .status()
            .unwrap();
        env
    }

    fn vars(&self, cmd: &mut Command) {
        cmd.env("HOME", self.home.path())
            .env_remove("CODEX_HOME")
            .env("SCRIPTED_KEY", "test")
            .env("THROUGHLINE_HOME", self.store.path())
            .env_remove("THROUGHLINE_GUARD");
    }

    pub fn throughline(&self, bin: &str, args: &[&str]) -> Output {
        let mut cmd = Command::new(bin);
        cmd.args(args).current_dir(self.project.path());
        self.vars(&mut cmd);
        cmd.output().unwrap()
    }

    /// `codex exec` with `args`, hooks run without the trust review.
    pub fn exec(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(codex_bin());
        cmd.args([
            "exec",
            "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox",
        ])
        .args(args)
        .current_dir(self.project.path())
        .stdin(std::process::Stdio::null());
        self.vars(&mut cmd);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "codex exec failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}
