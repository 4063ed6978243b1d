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
#[allow(dead_code)]
mod support;
mod x_display;

use app_driver::{click_when_there, screenshot, screenshots, text_when_there, wait_for};
use glib::ToVariant;
use notification_server::NotificationServer;
use x_display::XDisplay;

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
    // Under the person's home, from `~`.
    assert_eq!(bundled, "Bundled CLI: ~/.local/bin/throughline");
    assert!(
        client
            .find(fantoccini::Locator::Css(".registration .problem"))
            .await
            .is_err(),
        "the Installer refuses the CLI beside it"
    );
    wait_for(&client, "#uninstall:enabled").await;

    // The same findings, each with the same status, as `throughline doctor`.
    // Read in one go: the view may redraw between reads of one check and the next.
    let shown = client
        .execute(
            "return [...document.querySelectorAll('.doctor [data-check]')]
                .map((check) => [check.dataset.check, check.className])",
            vec![],
        )
        .await
        .unwrap();
    let shown: Vec<(String, String)> = serde_json::from_value(shown).unwrap();
    let app: Findings = shown
        .into_iter()
        .map(|(name, class)| (name, class.strip_prefix("check ").unwrap().to_string()))
        .collect();
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

/// The app's title, as the X server lists its window.
const TITLE: &str = "Throughline";
/// The class of the tray icon's window, made while the app sets up and never shown.
const TRAY_ICON_CLASS: &str = "tray-icon tray app main";

/// Every process `pid` started, and theirs.
fn descendants(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten();
    for task in tasks.flatten() {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            out.push(child);
            out.extend(descendants(child));
        }
    }
    out
}

/// The app's web processes: WebKit renders the window in a process of its own, which holds
/// most of the memory the window costs.
fn web_processes(app: u32) -> usize {
    descendants(app)
        .into_iter()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|name| name.starts_with("WebKitWebProces"))
        })
        .count()
}

/// Waits up to 20 s for `done`, failing with `what` when it does not come.
fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The app started as login starts it (`--hidden`) or as a person does, in `env`.
fn launch(app: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Running {
    let mut command = Command::new(app);
    command.args(args).env_remove("CLAUDE_CONFIG_DIR");
    for (key, value) in env {
        command.env(key, value);
    }
    Running(command.spawn().unwrap())
}

/// A second launch: it hands over to the running app and exits at once.
fn launch_again(app: &Path, env: &[(&str, &OsStr)]) {
    let mut second = launch(app, &[], env);
    let started = Instant::now();
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
}

/// Started at login the app waits in the tray with no window: no web process until it is
/// opened.
fn started_in_the_tray(x: &XDisplay, app: &Path, env: &[(&str, &OsStr)]) -> Running {
    let running = launch(app, &["--hidden"], env);
    wait_until("the app made no tray icon", || x.has_class(TRAY_ICON_CLASS));
    // Set-up goes on for a moment after the icon; a window would come within it.
    std::thread::sleep(Duration::from_secs(2));
    assert!(x.shown(TITLE).is_empty(), "a window at a start in the tray");
    assert_eq!(
        web_processes(running.0.id()),
        0,
        "a web view with no window"
    );
    running
}

#[test]
fn a_second_launch_opens_the_first_ones_window_and_closing_it_frees_the_web_view() {
    let _panel = tray_host();
    let x = XDisplay::open();
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
    let first = started_in_the_tray(&x, &app, &env);
    let pid = first.0.id();

    launch_again(&app, &env);
    wait_until("the second launch did not open the window", || {
        x.shown(TITLE).len() == 1 && web_processes(pid) == 1
    });
    assert_eq!(
        app_driver::processes_of(&app).len(),
        1,
        "one app, one tray icon"
    );
    screenshot(&screenshots(), "second-launch");

    // Closed with ×: the window and its web process go, the app stays in the tray.
    x.close(x.shown(TITLE)[0]);
    wait_until("closing the window left its web process running", || {
        x.shown(TITLE).is_empty() && web_processes(pid) == 0
    });
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(app_driver::processes_of(&app), vec![pid], "the app quit");

    // Opened again from outside, it comes back whole.
    launch_again(&app, &env);
    wait_until("the window did not open again", || {
        x.shown(TITLE).len() == 1 && web_processes(pid) == 1
    });
    screenshot(&screenshots(), "opened-again");
}

#[test]
fn clicking_a_notification_opens_the_window_from_the_tray() {
    let _panel = tray_host();
    let x = XDisplay::open();
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
    let env: [(&str, &OsStr); 2] = [
        ("HOME", user_home.as_os_str()),
        ("THROUGHLINE_HOME", data.dir().as_os_str()),
    ];
    let running = started_in_the_tray(&x, app, &env);
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
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        x.shown(TITLE).is_empty(),
        "another program's notification opened the window"
    );
    notifications.press(sent.id, "default");
    wait_until("the notification did not open the window", || {
        x.shown(TITLE).len() == 1 && web_processes(running.0.id()) == 1
    });
    screenshot(&screenshots(), "notification-opens-window");
}

/// How dark a CSS colour is: its relative luminance (WCAG), from `rgb(r, g, b)` or `rgba(…)`.
fn luminance(css: &str) -> f64 {
    let channels: Vec<f64> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .take(3)
        .map(|c| c.trim().parse::<f64>().unwrap() / 255.0)
        .map(|c| {
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
        .collect();
    0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
}

/// With the desktop in a dark theme, every view is dark and its text readable at every size
/// the window may take: the page follows the system (`prefers-color-scheme`), the text's
/// contrast with the page is at least WCAG's 4.5:1, no box keeps a light background, and each
/// view at each size is in the screenshots.
#[tokio::test(flavor = "current_thread")]
async fn every_view_reads_in_a_dark_theme() {
    let dir = tempfile::tempdir().unwrap();
    let home = throughline_engine::home::Home::at(dir.path().join("throughline"));
    for transcript in support::transcripts() {
        support::capture(&home, &support::session_id(&transcript), &transcript);
    }
    let user_home = dir.path().join("home");
    std::fs::create_dir_all(&user_home).unwrap();
    let shots = screenshots();
    let (_driver, client) = app_driver::start(
        Path::new(env!("CARGO_BIN_EXE_throughline-app")),
        &[],
        &[
            ("HOME", user_home.as_os_str()),
            ("THROUGHLINE_HOME", home.dir().as_os_str()),
            ("THROUGHLINE_NOW", OsStr::new(support::SOON_AFTER)),
            ("GTK_THEME", OsStr::new("Adwaita:dark")),
        ],
    )
    .await;
    wait_for(&client, "li.session").await;
    // Whether the page follows the dark theme, its background, its text's colour and the
    // colour of its quieter text (hints, dates, counts) where the view has some.
    let colours =
        "const quiet = document.querySelector('main .hint, main .model, main .facts, main .empty');
        return [matchMedia('(prefers-color-scheme: dark)').matches,
                getComputedStyle(document.documentElement).backgroundColor,
                getComputedStyle(document.body).color,
                quiet ? getComputedStyle(quiet).color : null];";
    // Boxes drawn in a light colour on the dark page (a background left to a fixed light
    // value), named by tag, class and the start of their text. Native controls (buttons,
    // fields) are drawn by the GTK theme whatever their computed colour says.
    let light_boxes = "
        const light = [];
        for (const e of document.querySelectorAll('body *')) {
            const style = getComputedStyle(e);
            if ((style.appearance || style.webkitAppearance || 'none') !== 'none') continue;
            const m = style.backgroundColor.match(/[\\d.]+/g);
            if (!m || (m.length > 3 && Number(m[3]) < 0.5)) continue;
            const [r, g, b] = m.slice(0, 3).map(Number);
            if (0.2126 * r + 0.7152 * g + 0.0722 * b > 160)
                light.push(`${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent || '').slice(0, 40)}`);
        }
        return light;";
    for (width, height) in [(420, 320), (720, 520), (1280, 900)] {
        client.set_window_size(width, height).await.unwrap();
        for view in ["sessions", "memory", "injections", "settings", "installer"] {
            click_when_there(&client, &format!("[data-view={view}]")).await;
            wait_for(&client, "main > *").await;
            tokio::time::sleep(Duration::from_millis(400)).await;
            let seen = client.execute(colours, vec![]).await.unwrap();
            screenshot(&shots, &format!("dark-{view}-{width}x{height}"));
            assert_eq!(
                seen[0], true,
                "{view}: the page does not follow the dark theme"
            );
            let page = luminance(seen[1].as_str().unwrap());
            assert!(page < 0.2, "{view}: the page is light ({seen})");
            for text in [&seen[2], &seen[3]].into_iter().filter_map(|c| c.as_str()) {
                let text = luminance(text);
                let contrast = (text.max(page) + 0.05) / (text.min(page) + 0.05);
                assert!(
                    contrast >= 4.5,
                    "{view}: text contrast {contrast:.1}:1 ({seen})"
                );
            }
            let light = client.execute(light_boxes, vec![]).await.unwrap();
            assert_eq!(
                light,
                serde_json::json!([]),
                "{view} at {width}×{height}: light boxes on the dark page"
            );
        }
    }
    client.close().await.unwrap();
}
