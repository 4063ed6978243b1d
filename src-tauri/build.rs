//! Tauri requires every `bundle.externalBin` file to exist for any build of the app. The real
//! `throughline` CLI is copied there by `scripts/build-app`; a plain `cargo build`, `test` or
//! `clippy` of the workspace gets a placeholder instead (see docs/decisions/0013), so no build
//! script ever runs cargo on its own workspace.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

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
    tauri_build::build()
}
