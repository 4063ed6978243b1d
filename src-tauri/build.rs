//! Tauri requires every `bundle.externalBin` file to exist for any build of the app. The real
//! `throughline` CLI is copied there by `scripts/build-app`; a plain `cargo build`, `test` or
//! `clippy` of the workspace gets a placeholder instead (see docs/decisions/0013), so no build
//! script ever runs cargo on its own workspace. The placeholder never replaces the workspace's
//! own CLI, which tauri-build's copy of the sidecar would otherwise overwrite (0018).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const PLACEHOLDER: &str = "#!/bin/sh
echo 'throughline: this app was built without its bundled CLI; build it with scripts/build-app' >&2
exit 1
";

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let sidecar = Path::new("binaries").join(format!("throughline-{target}"));
    if !sidecar.exists() {
        fs::create_dir_all("binaries").expect("create src-tauri/binaries");
        fs::write(&sidecar, PLACEHOLDER).expect("write the sidecar placeholder");
        fs::set_permissions(&sidecar, fs::Permissions::from_mode(0o755))
            .expect("make the sidecar placeholder executable");
    }
    let placeholder = fs::read(&sidecar).is_ok_and(|bytes| bytes == PLACEHOLDER.as_bytes());
    // tauri-build copies the sidecar to target/<profile>/throughline, where cargo keeps the
    // workspace's own CLI (the one hook-cli's tests and the app's installer tests run): a
    // placeholder must not replace it (docs/decisions/0018).
    let workspace_cli = target_dir().join("throughline");
    let kept = workspace_cli.with_extension("kept-by-app-build");
    let keep = placeholder
        && fs::read(&workspace_cli).is_ok_and(|bytes| bytes != PLACEHOLDER.as_bytes())
        && fs::rename(&workspace_cli, &kept).is_ok();
    tauri_build::build();
    if keep {
        fs::rename(&kept, &workspace_cli).expect("put the workspace's CLI back");
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
