//! Import past sessions from the window. Its own test binary: it points Claude Code's config
//! folder (`CLAUDE_CONFIG_DIR`) at a temp dir, and the environment is process-wide.

// Shared with the command tests, which use all of it.
#[allow(dead_code)]
mod support;
#[path = "support/ui_types.rs"]
mod ui_types;

use throughline_app::memory;
use throughline_engine::home::Home;

#[test]
fn a_first_run_imports_past_sessions_with_progress() {
    let dir = tempfile::tempdir().unwrap();
    let projects = dir.path().join("claude/projects/-home-dev-toy");
    std::fs::create_dir_all(&projects).unwrap();
    for path in support::transcripts() {
        std::fs::copy(&path, projects.join(path.file_name().unwrap())).unwrap();
    }
    std::env::set_var("CLAUDE_CONFIG_DIR", dir.path().join("claude"));
    std::env::set_var("CODEX_HOME", dir.path().join("no-codex"));
    let home = Home::at(dir.path().join("memory"));
    assert!(memory::sessions(&home).unwrap().is_empty());

    let mut seen = Vec::new();
    let done = memory::import_past(&home, &mut |at| seen.push(at)).unwrap();
    let count = support::transcripts().len() as u64;
    assert_eq!(done.transcripts, count);
    assert_eq!(seen.first().unwrap().transcripts_done, 0);
    let last = seen.last().unwrap();
    assert_eq!((last.transcripts_done, last.transcripts), (count, count));
    assert_eq!(last.bytes_done, last.bytes);
    assert_eq!(memory::sessions(&home).unwrap().len() as u64, count);
    // Again: nothing new, nothing doubled.
    let again = memory::import_past(&home, &mut |_| {}).unwrap();
    assert_eq!(again.records, 0);
    assert_eq!(memory::sessions(&home).unwrap().len() as u64, count);

    // What the window reads is what the import sends.
    let types = ui_types::UiTypes::read();
    seen.iter().for_each(|at| types.check("ImportProgress", at));
    types.check("Imported", &done);
}
