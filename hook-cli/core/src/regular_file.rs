//! Opening a file another program wrote (a transcript, a subagent's metadata) without trusting
//! what the path names: only a regular file is read, a FIFO or device can never make the
//! reader wait, and a symlink may not lead out of the folder it is in (a transcript linked to
//! `/etc/shadow` is not read as one).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Opens `path` for reading if it is a regular file: non-blocking, so opening a FIFO returns
/// at once, then checked with `fstat` on what was opened. A symlink is followed only to a file
/// inside the link's own folder. NotFound when there is nothing at `path`.
pub fn open(path: &Path) -> io::Result<File> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        let target = fs::canonicalize(path)?;
        let folder = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .map(fs::canonicalize)
            .transpose()?;
        if folder.is_none_or(|folder| !target.starts_with(folder)) {
            return Err(io::Error::other(format!(
                "is a symlink to {}, outside its folder; not read",
                target.display()
            )));
        }
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(
            "is not a regular file (a FIFO, a device or a folder); not read",
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::time::{Duration, Instant};

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("t.jsonl");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = Instant::now();
        let err = open(&fifo).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn devices_and_folders_are_refused_and_regular_files_read() {
        let err = open(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        assert!(open(dir.path()).is_err());
        let file = dir.path().join("t.jsonl");
        fs::write(&file, "{}\n").unwrap();
        assert!(open(&file).is_ok());
        assert_eq!(
            open(&dir.path().join("none")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn a_symlink_is_followed_only_inside_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("real.jsonl");
        fs::write(&inside, "{}\n").unwrap();
        let near = dir.path().join("near.jsonl");
        symlink(&inside, &near).unwrap();
        assert!(open(&near).is_ok());
        let out = dir.path().join("out.jsonl");
        symlink("/etc/passwd", &out).unwrap();
        let err = open(&out).unwrap_err();
        assert!(err.to_string().contains("outside its folder"), "{err}");
        let to_device = dir.path().join("zero.jsonl");
        symlink("/dev/zero", &to_device).unwrap();
        assert!(open(&to_device).is_err());
    }
}
