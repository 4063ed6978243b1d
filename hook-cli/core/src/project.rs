//! A session's project: the git root above its working directory, or the directory itself.

use std::path::Path;

pub fn root_of(cwd: &str) -> String {
    let mut dir = Path::new(cwd);
    loop {
        // `.git` is a folder in a clone and a file in a worktree or submodule.
        if dir.join(".git").exists() {
            return dir.to_string_lossy().into_owned();
        }
        match dir.parent() {
            Some(parent) => dir = parent,
            None => return cwd.to_string(),
        }
    }
}

/// The project of the current directory, as sessions record it.
pub fn current() -> Option<String> {
    let cwd = std::env::current_dir().ok()?;
    Some(root_of(&cwd.to_string_lossy()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_git_root_above_a_subfolder() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        let sub = repo.join("src/deep");
        assert_eq!(root_of(sub.to_str().unwrap()), repo.to_str().unwrap());
    }

    #[test]
    fn falls_back_to_the_working_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("plain");
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(root_of(dir.to_str().unwrap()), dir.to_str().unwrap());
    }
}
