//! End to end: the built app under X, driven over WebDriver by WebKitWebDriver itself, with a
//! store holding real captured sessions. Run it with `scripts/e2e` (it builds the UI and starts
//! Xvfb and a D-Bus session); screenshots of the display land in the folder it prints.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

mod support;

use fantoccini::{ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use support::{capture, first_prompt_of_a_new_chat, session_id, transcripts, SOON_AFTER};
use throughline::home::Home;

/// Ends a child process when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The whole X display as a PNG (WebDriver's own screenshot command hangs with WebKitGTK).
fn screenshot(dir: &Path, name: &str) {
    // Let the last change paint before the picture is taken.
    std::thread::sleep(Duration::from_millis(500));
    let file = dir.join(format!("{name}.png"));
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "xwd -root -silent | convert xwd:- '{}'",
            file.display()
        ))
        .status()
        .expect("xwd and convert (Debian x11-apps, imagemagick) are needed");
    assert!(status.success(), "screenshot {name} failed");
}

fn wait_for_port(port: u16) {
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("WebKitWebDriver did not listen on port {port}");
}

fn desktop_entries(home: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(home.join(".config/autostart"))
        .map(|dir| dir.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "current_thread")]
async fn the_window_shows_live_sessions_and_settings() {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "no X display: run this test through scripts/e2e"
    );
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    println!("screenshots: {}", shots.display());

    // The app and this test (which plays the hooks) share one frozen clock. This binary holds
    // this one test, so setting the process environment races with nothing.
    std::env::set_var(throughline::clock::NOW_ENV, SOON_AFTER);
    let dir = tempfile::tempdir().unwrap();
    let user_home = dir.path().join("user");
    std::fs::create_dir_all(&user_home).unwrap();
    let home = Home::at(dir.path().join("throughline"));
    let transcripts = transcripts();
    capture(&home, &session_id(&transcripts[0]), &transcripts[0]);

    let port = free_port();
    // The driver starts the app, which inherits this environment.
    let _driver = Running(
        Command::new("WebKitWebDriver")
            .arg(format!("--port={port}"))
            .env("TAURI_WEBVIEW_AUTOMATION", "true")
            .env("THROUGHLINE_HOME", home.dir())
            .env("THROUGHLINE_NOW", SOON_AFTER)
            .env("HOME", &user_home)
            .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
            .env("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("NO_AT_BRIDGE", "1")
            .spawn()
            .expect("WebKitWebDriver (Debian webkit2gtk-driver) is needed"),
    );
    wait_for_port(port);

    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "webkitgtk:browserOptions".into(),
        serde_json::json!({ "binary": env!("CARGO_BIN_EXE_throughline-app"), "args": [] }),
    );
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with the app");

    // Sessions: one gauge per captured session, with the numbers from the store.
    client
        .wait()
        .for_element(Locator::Css("li.session"))
        .await
        .unwrap();
    // A hook records another session while the window is open: it appears without a reload.
    let second = session_id(&transcripts[1]);
    capture(&home, &second, &transcripts[1]);
    client
        .wait()
        .for_element(Locator::Css(&format!(
            "li.session[data-session='{second}']"
        )))
        .await
        .unwrap();
    let sessions = client.find_all(Locator::Css("li.session")).await.unwrap();
    assert_eq!(sessions.len(), 2);
    for session in &sessions {
        let gauge = session.find(Locator::Css("svg.gauge")).await.unwrap();
        assert!(gauge.attr("class").await.unwrap().is_some());
        let text = session.text().await.unwrap();
        assert!(text.contains("claude-opus-4-8"), "{text}");
        assert!(text.contains("/200k tokens of context"), "{text}");
    }
    // One-click handoff: the button offers it and the view shows it waiting.
    let handoff = client
        .find(Locator::XPath(&format!(
            "//li[@data-session='{second}']//button[.='Hand off to a new chat']"
        )))
        .await
        .unwrap();
    handoff.click().await.unwrap();
    let waiting = client
        .wait()
        .for_element(Locator::Css(&format!(
            "li.session[data-session='{second}'] .handoff.waiting"
        )))
        .await
        .unwrap();
    let text = waiting.text().await.unwrap();
    assert!(text.contains("starts with this session's memory"), "{text}");
    screenshot(&shots, "sessions");

    // Injection log: the project's next chat takes the handoff; the log shows what it received.
    first_prompt_of_a_new_chat(&home, "next-chat", &dir.path().join("next-chat.jsonl"))
        .expect("the waiting handoff is injected");
    client
        .find(Locator::Css("[data-view=injections]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let row = client
        .wait()
        .for_element(Locator::Css("li.injection"))
        .await
        .unwrap();
    let summary = row.text().await.unwrap();
    assert!(summary.contains("handoff"), "{summary}");
    assert!(summary.contains(&second[..8]), "{summary}");
    row.find(Locator::Css("summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    screenshot(&shots, "injections");

    // Settings: launch at login writes the autostart entry into the (temporary) HOME.
    client
        .find(Locator::Css("[data-view=settings]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let toggle = client
        .wait()
        .for_element(Locator::Css("#launch-at-login:enabled"))
        .await
        .unwrap();
    assert!(desktop_entries(&user_home).is_empty());
    toggle.click().await.unwrap();
    client
        .wait()
        .for_element(Locator::Css("#launch-at-login:enabled:checked"))
        .await
        .unwrap();
    let entries = desktop_entries(&user_home);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = std::fs::read_to_string(&entries[0]).unwrap();
    assert!(entry.contains("--hidden"), "{entry}");
    let budget = client.find(Locator::Css("#budget")).await.unwrap();
    assert_eq!(budget.prop("value").await.unwrap().as_deref(), Some("9500"));
    screenshot(&shots, "settings");

    client.close().await.unwrap();
}
