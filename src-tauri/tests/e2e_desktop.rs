//! End to end, the app as a person gets it on their desktop: installed by `scripts/install`
//! beside the CLI it registers, and started twice. Run it with `scripts/e2e`, which installs
//! into a HOME of its own first (`THROUGHLINE_INSTALLED_HOME`) and provides the X display and
//! the D-Bus session. The tests run one at a time (`--test-threads=1`): a second app of the
//! same identifier would hand over to the first.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod app_driver;
#[allow(dead_code)]
mod notification_server;

use app_driver::{click_when_there, screenshot, screenshots, text_when_there, wait_for};
use glib::ToVariant;
use notification_server::NotificationServer;

/// The HOME `scripts/e2e` ran `scripts/install --debug` in.
fn installed_home() -> PathBuf {
    let home = std::env::var_os("THROUGHLINE_INSTALLED_HOME")
        .expect("THROUGHLINE_INSTALLED_HOME is unset: run this test through scripts/e2e");
    PathBuf::from(home)
}

/// Where `scripts/install` puts programs: `~/.local/bin`.
fn bin_dir(home: &Path) -> PathBuf {
    home.join(".local/bin")
}

/// Throughline's home as the installed programs find it in `home` (the data folder).
fn data_home(home: &Path) -> PathBuf {
    home.join(".local/share/throughline")
}

/// (name, status) of each of the doctor's findings.
type Findings = Vec<(String, String)>;

fn cli_doctor(home: &Path) -> Findings {
    let out = Command::new(bin_dir(home).join("throughline"))
        .args(["doctor", "--json"])
        .env("HOME", home)
        .env("THROUGHLINE_HOME", data_home(home))
        .env_remove("CLAUDE_CONFIG_DIR")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "throughline doctor --json: {e}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn the_installed_app_registers_the_cli_beside_it_and_its_doctor_agrees_with_the_clis() {
    let home = installed_home();
    let bin = bin_dir(&home);
    for program in ["throughline", "throughline-summarize", "throughline-app"] {
        let mode = std::fs::metadata(bin.join(program))
            .unwrap_or_else(|e| panic!("scripts/install left no {program} in {bin:?}: {e}"))
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{program} is not executable");
    }
    let cli = cli_doctor(&home);
    let hooks = cli.iter().find(|(name, _)| name == "hooks");
    assert_eq!(
        hooks.map(|(_, status)| status.as_str()),
        Some("ok"),
        "scripts/install registered the hooks: {cli:?}"
    );

    let shots = screenshots();
    let (_driver, client) = app_driver::start(
        &bin.join("throughline-app"),
        &[],
        &[
            ("HOME", home.as_os_str()),
            ("THROUGHLINE_HOME", data_home(&home).as_os_str()),
        ],
    )
    .await;
    click_when_there(&client, "[data-view=installer]").await;
    let status = text_when_there(&client, ".installer .status").await;
    assert!(
        status.starts_with("Registered: ") && status.ends_with("run the bundled CLI."),
        "{status}"
    );
    let bundled = text_when_there(&client, ".installer .registration .hint").await;
    assert_eq!(
        bundled,
        format!("Bundled CLI: {}", bin.join("throughline").display())
    );
    assert!(
        client
            .find(fantoccini::Locator::Css(".registration .problem"))
            .await
            .is_err(),
        "the Installer refuses the CLI beside it"
    );
    wait_for(&client, "#uninstall:enabled").await;

    // The same findings, each with the same status, as `throughline doctor`.
    let mut app = Findings::new();
    for check in client
        .find_all(fantoccini::Locator::Css(".doctor [data-check]"))
        .await
        .unwrap()
    {
        let name = check.attr("data-check").await.unwrap().unwrap();
        let class = check.attr("class").await.unwrap().unwrap();
        let status = class.strip_prefix("check ").unwrap().to_string();
        app.push((name, status));
    }
    assert_eq!(
        app, cli,
        "the app's doctor and `throughline doctor` disagree"
    );
    screenshot(&shots, "installed-app");
    client.close().await.unwrap();
}

/// A panel on the test's session bus: the name a tray host owns, so the app takes its window
/// to the tray (and honours `--hidden`). The name goes with the connection.
fn tray_host() -> gio::DBusConnection {
    let panel = notification_server::session_connection();
    let request = || -> u32 {
        let (owner,): (u32,) = panel
            .call_sync(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "RequestName",
                Some(&("org.kde.StatusNotifierWatcher", 4u32).to_variant()),
                glib::VariantTy::new("(u)").ok(),
                gio::DBusCallFlags::NONE,
                2000,
                None::<&gio::Cancellable>,
            )
            .unwrap()
            .get()
            .unwrap();
        owner
    };
    // The previous test's panel leaves the bus within moments.
    let deadline = Instant::now() + Duration::from_secs(5);
    while request() != 1 {
        assert!(
            Instant::now() < deadline,
            "another tray host runs on this bus"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    panel
}

/// Ends a child process when the test ends, however it ends.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn visibility(client: &fantoccini::Client) -> String {
    client
        .execute("return document.visibilityState", vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn wait_until_visibility(client: &fantoccini::Client, wanted: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let now = visibility(client).await;
        if now == wanted {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the window stayed {now}, not {wanted}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_second_launch_brings_the_first_ones_window_forward_and_exits() {
    let _panel = tray_host();
    let dir = tempfile::tempdir().unwrap();
    let user_home = dir.path().join("home");
    let data = dir.path().join("throughline");
    std::fs::create_dir_all(&user_home).unwrap();
    let env: [(&str, &OsStr); 2] = [
        ("HOME", user_home.as_os_str()),
        ("THROUGHLINE_HOME", data.as_os_str()),
    ];
    let app = Path::new(env!("CARGO_BIN_EXE_throughline-app"))
        .canonicalize()
        .unwrap();
    // Started at login: in the tray, its window hidden.
    let (_driver, client) = app_driver::start(&app, &["--hidden"], &env).await;
    wait_until_visibility(&client, "hidden").await;
    assert_eq!(app_driver::processes_of(&app).len(), 1);

    let started = Instant::now();
    let mut second = Command::new(&app);
    second.env_remove("CLAUDE_CONFIG_DIR");
    for (key, value) in env {
        second.env(key, value);
    }
    let mut second = Running(second.spawn().unwrap());
    let exited = loop {
        if let Some(status) = second.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the second launch is still running: a second app beside the first"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exited.success(), "{exited}");
    wait_until_visibility(&client, "visible").await;
    wait_for(&client, "[data-view=sessions]").await;
    assert_eq!(
        app_driver::processes_of(&app).len(),
        1,
        "one app, one tray icon"
    );
    screenshot(&screenshots(), "second-launch");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn clicking_a_notification_opens_the_window_from_the_tray() {
    let _panel = tray_host();
    let notifications = NotificationServer::start();
    let dir = tempfile::tempdir().unwrap();
    let user_home = dir.path().join("home");
    std::fs::create_dir_all(&user_home).unwrap();
    // The statusline recorded a seven-day window past the 80% warned at by default.
    let data = throughline_engine::home::Home::at(dir.path().join("throughline"));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let week = throughline_engine::plan::Window {
        used_percentage: 86.0,
        resets_at: Some(now + 86_400),
    };
    throughline_engine::plan::record(
        &data,
        &throughline_engine::plan::PlanUsage {
            five_hour: None,
            seven_day: Some(week),
        },
    )
    .unwrap();
    let app = Path::new(env!("CARGO_BIN_EXE_throughline-app"));
    let (_driver, client) = app_driver::start(
        app,
        &["--hidden"],
        &[
            ("HOME", user_home.as_os_str()),
            ("THROUGHLINE_HOME", data.dir().as_os_str()),
        ],
    )
    .await;
    wait_until_visibility(&client, "hidden").await;
    let sent = notifications.wait_for(Duration::from_secs(30), |n| {
        n.summary == "7-day plan limit 86% used"
    });
    assert!(
        sent.actions
            .iter()
            .any(|(id, label)| id == "default" && label == "Open Throughline"),
        "{sent:?}"
    );
    // Another program's notification of the same number is not the app's to answer.
    notifications.press(sent.id + 100, "default");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(visibility(&client).await, "hidden");
    notifications.press(sent.id, "default");
    wait_until_visibility(&client, "visible").await;
    wait_for(&client, ".plan [data-window=seven_day] .bar.full").await;
    screenshot(&screenshots(), "notification-opens-window");
    client.close().await.unwrap();
}
