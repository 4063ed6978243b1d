//! Tauri requires every `bundle.externalBin` file to exist for any build of the app. The real
//! `throughline` CLI and `throughline-summarize`, the program it runs the summary backends in,
//! are copied there by `scripts/bundle-cli` (run by `scripts/build-app`); a plain `cargo build`,
//! `test` or `clippy` of the workspace gets placeholders instead (see docs/decisions/0013), so
//! no build script ever runs cargo on its own workspace. A placeholder never replaces the
//! workspace's own program, which tauri-build's copy of the sidecars would otherwise overwrite
//! (0018).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The programs bundled beside the app (`bundle.externalBin` in tauri.conf.json).
const SIDECARS: [&str; 2] = ["throughline", "throughline-summarize"];

fn placeholder(program: &str) -> String {
    format!(
        "#!/bin/sh
echo '{program}: this app was built without its bundled CLI; build it with scripts/build-app' >&2
exit 1
"
    )
}

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let mut kept = Vec::new();
    for program in SIDECARS {
        let placeholder = placeholder(program);
        let sidecar = Path::new("binaries").join(format!("{program}-{target}"));
        if !sidecar.exists() {
            fs::create_dir_all("binaries").expect("create src-tauri/binaries");
            fs::write(&sidecar, &placeholder).expect("write the sidecar placeholder");
            fs::set_permissions(&sidecar, fs::Permissions::from_mode(0o755))
                .expect("make the sidecar placeholder executable");
        }
        let is_placeholder = fs::read(&sidecar).is_ok_and(|bytes| bytes == placeholder.as_bytes());
        // tauri-build copies the sidecar to target/<profile>/<program>, where cargo keeps the
        // workspace's own (the one hook-cli's tests and the app's installer tests run): a
        // placeholder must not replace it (docs/decisions/0018).
        let workspace_program = target_dir().join(program);
        let aside = workspace_program.with_extension("kept-by-app-build");
        if is_placeholder
            && fs::read(&workspace_program).is_ok_and(|bytes| bytes != placeholder.as_bytes())
            && fs::rename(&workspace_program, &aside).is_ok()
        {
            kept.push((aside, workspace_program));
        }
    }
    tauri_build::build();
    for (aside, workspace_program) in kept {
        fs::rename(&aside, &workspace_program).expect("put the workspace's program back");
    }
}

/// target/<profile>, found as tauri-build finds it: the folder holding OUT_DIR's `build`.
fn target_dir() -> PathBuf {
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    out_dir
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|name| name == "build"))
        .and_then(Path::parent)
        .expect("OUT_DIR is inside target/<profile>/build")
        .to_path_buf()
}
