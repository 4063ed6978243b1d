//! The installed package, used as a person uses it: its app, started from where the package put
//! it, registers the hooks from its Installer with the CLI packaged beside it, wrapping the
//! statusline the person had, and that CLI's `doctor` agrees. `scripts/check-package --install` installs the `.deb`, runs this test on a
//! virtual display against the installed app, then removes the package and checks the person's
//! settings are as the Installer left them.

use std::path::{Path, PathBuf};
use std::process::Command;

mod app_driver;

use app_driver::{click_when_there, screenshot, screenshots, text_when_there, wait_for};

/// Set by `scripts/check-package`: the installed app, and the HOME it runs in.
const APP_ENV: &str = "THROUGHLINE_PACKAGED_APP";
const HOME_ENV: &str = "THROUGHLINE_PACKAGE_HOME";

fn given(name: &str) -> PathBuf {
    std::env::var_os(name)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            panic!("{name} is not set: run this test through scripts/check-package --install")
        })
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "drives the installed package: scripts/check-package --install runs it"]
async fn the_installed_app_registers_the_packaged_cli_from_its_installer() {
    let app = given(APP_ENV);
    let home = given(HOME_ENV);
    let cli = app.with_file_name("throughline");
    // A person with a statusline of their own, which Install offers to wrap.
    let settings = home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"statusLine": {"type": "command", "command": "echo my-own-line"}}"#,
    )
    .unwrap();
    let shots = screenshots();
    let (_driver, client) = app_driver::start(&app, &[], &[("HOME", home.as_os_str())]).await;

    click_when_there(&client, "[data-view=installer]").await;
    wait_for(&client, ".installer .status.absent").await;
    let bundled = text_when_there(&client, ".installer .registration .hint").await;
    assert_eq!(bundled, format!("Bundled CLI: {}", cli.display()));
    let offer = text_when_there(&client, ".installer .statusline.own").await;
    assert!(offer.contains("echo my-own-line"), "{offer}");
    click_when_there(&client, "#wrap-statusline").await;
    click_when_there(&client, "#install:enabled").await;
    let said = text_when_there(&client, ".installer .status.registered").await;
    assert!(said.contains("run the bundled CLI"), "{said}");
    wait_for(&client, ".installer .statusline.wrapped").await;
    wait_for(&client, ".doctor [data-check=hooks].ok").await;
    screenshot(&shots, "package-installer");

    let settings = std::fs::read_to_string(&settings).expect("Claude Code's settings");
    let hook = format!("{} hook claude", cli.display());
    assert!(settings.contains(&hook), "no `{hook}` in:\n{settings}");
    let wrapping = format!("{} statusline --then", cli.display());
    assert!(
        settings.contains(&wrapping) && settings.contains("echo my-own-line"),
        "the person's statusline is not wrapped:\n{settings}"
    );
    doctor_agrees(&cli, &home);
}

/// The packaged CLI, run as the person's hooks run it, finds nothing wrong.
fn doctor_agrees(cli: &Path, home: &Path) {
    let out = Command::new(cli)
        .args(["doctor", "--host", "claude"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .output()
        .expect("the packaged CLI runs");
    assert!(
        out.status.success(),
        "doctor disagrees with the Installer:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
