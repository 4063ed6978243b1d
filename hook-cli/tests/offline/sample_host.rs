//! A host added without touching the rest of the workspace: the test-only sample agent
//! (`hosts/src/sample`, one line in the host table) is registered by `install`, its hooks run
//! as the commands `install` wrote, its session is stored, `/tl` hands the memory to its next
//! session, `import` reads its transcripts, and `uninstall` takes its hooks away.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::support::throughline::{in_home, isolate, json_of, output_of};

fn throughline(home: &Path, args: &[&str]) -> Value {
    json_of(&in_home(home, args, b""))
}

/// Runs the command `install` registered for `event`, as the agent would, and returns what
/// it printed (nothing, or one JSON reply).
fn hook(home: &Path, event: &str, payload: Value) -> Option<Value> {
    let hooks: Value =
        serde_json::from_slice(&fs::read(home.join(".sample-agent/hooks.json")).unwrap()).unwrap();
    let command = hooks["hooks"][event][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no {event} hook in {hooks}"));
    let out = output_of(
        isolate(Command::new("sh").args(["-c", command]), home),
        payload.to_string().as_bytes(),
    );
    assert!(
        out.status.success(),
        "{event}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (!out.stdout.is_empty()).then(|| serde_json::from_slice(&out.stdout).unwrap())
}

struct Session<'a> {
    home: &'a Path,
    id: &'a str,
    transcript: PathBuf,
}

impl<'a> Session<'a> {
    fn start(home: &'a Path, id: &'a str) -> (Session<'a>, Option<Value>) {
        let transcript = home.join(format!(".sample-agent/sessions/{id}.jsonl"));
        fs::create_dir_all(transcript.parent().unwrap()).unwrap();
        let session = Session {
            home,
            id,
            transcript,
        };
        let reply = session.hook("start", json!({ "source": "new" }));
        (session, reply)
    }

    fn hook(&self, event: &str, fields: Value) -> Option<Value> {
        let mut payload = json!({
            "event": event,
            "session": self.id,
            "transcript": self.transcript,
            "cwd": self.home.join("proj"),
        });
        payload
            .as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        hook(self.home, event, payload)
    }

    fn append(&self, lines: &[Value]) {
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.transcript)
            .unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
    }

    /// One turn: the prompt's hook (before the agent writes the prompt down), then what the
    /// agent did and said, then the stop hook.
    fn turn(&self, n: u32, prompt: &str, work: &[Value]) -> Option<Value> {
        let reply = self.hook("prompt", json!({ "prompt": prompt }));
        self.append(&[json!({"id": format!("{}-u{n}", self.id), "role": "user", "text": prompt})]);
        self.append(work);
        assert_eq!(self.hook("stop", json!({})), None);
        reply
    }
}

const PORT: &str = "The dev server must run on port 8443: the corporate firewall blocks 8080.";
const ERROR: &str = "Next, make the login page say when the password is wrong.";

fn first_session(home: &Path) -> Session<'_> {
    let (old, reply) = Session::start(home, "s-old");
    assert_eq!(reply, None, "nothing to hand on yet");
    old.turn(
        1,
        PORT,
        &[
            json!({"id": "s-old-t1", "role": "tool", "name": "shell",
                   "input": "grep PORT .env", "output": "PORT=8443"}),
            json!({"id": "s-old-a1", "role": "assistant",
                   "text": "PORT=8443 is already set in .env; 8080 is not used anywhere."}),
        ],
    );
    old.turn(
        2,
        ERROR,
        &[json!({"id": "s-old-a2", "role": "assistant",
                 "text": "The login page now shows \"Wrong password\" under the field."})],
    );
    old
}

#[test]
fn a_host_added_as_one_folder_registers_captures_and_hands_off() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let installed = throughline(home, &["install", "--host", "sample", "--json"]);
    assert_eq!(installed["host"], "sample", "{installed}");

    let old = first_session(home);
    let shown = throughline(home, &["show", "s-old", "--json"]);
    assert_eq!(shown["session"]["host"], "sample");
    assert_eq!(shown["session"]["cwd"], home.join("proj").to_str().unwrap());
    let said: Vec<&str> = shown["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["messages"].as_array().unwrap())
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(
        said,
        [
            PORT,
            "PORT=8443 is already set in .env; 8080 is not used anywhere.",
            ERROR,
            "The login page now shows \"Wrong password\" under the field."
        ]
    );

    // `/tl` never reaches the model: the person is told the memory is ready.
    let offered = old
        .hook("prompt", json!({ "prompt": "/tl" }))
        .expect("a reply to /tl");
    assert!(
        offered["block"].as_str().unwrap().contains("handoff ready"),
        "{offered}"
    );

    // Its prompt hook can add context: the memory goes in with the new session's first prompt.
    let (new, reply) = Session::start(home, "s-new");
    assert_eq!(reply, None);
    let memory = new
        .turn(1, "Carry on.", &[])
        .expect("the memory with the first prompt");
    let memory = memory["context"].as_str().unwrap();
    assert!(memory.contains(PORT), "{memory}");
    assert!(memory.contains("Wrong password"), "{memory}");
    assert!(memory.len() <= 9_500);

    let removed = throughline(home, &["uninstall", "--host", "sample", "--json"]);
    assert_eq!(removed["changes"][0]["action"], "removed", "{removed}");
    assert!(!home.join(".sample-agent/hooks.json").exists());
}

#[test]
fn its_transcripts_import_as_its_hooks_stored_them() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    throughline(home, &["install", "--host", "sample", "--json"]);
    first_session(home);
    let hooked = throughline(home, &["show", "s-old", "--json"]);

    fs::remove_dir_all(home.join("memory")).unwrap();
    let imported = throughline(home, &["import", "--host", "sample", "--json"]);
    assert_eq!(imported["transcripts"], 1, "{imported}");
    let read = throughline(home, &["show", "s-old", "--json"]);
    assert_eq!(read["turns"], hooked["turns"]);
}
