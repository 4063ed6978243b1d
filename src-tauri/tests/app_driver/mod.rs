//! The built app under X, driven over WebDriver by WebKitWebDriver itself: starting it, finding
//! what it shows (afresh when the window redraws it), and screenshots of the display. Shared by
//! the end-to-end tests, which `scripts/e2e` runs on a virtual display in a D-Bus session.

use std::ffi::OsStr;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use fantoccini::error::CmdError;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

/// WebKitWebDriver and the app it started, in a process group of their own. Killing the driver
/// alone would orphan the app, and a leftover app keeps the single-instance name on the bus: the
/// next test's app would hand over to it and exit, leaving its driver waiting for ever.
pub struct Driver {
    driver: Child,
    app: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.driver.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.driver.wait();
        let _ = wait_until_gone(&self.app);
    }
}

/// The running processes whose program is `exe`.
pub fn processes_of(exe: &Path) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let program = std::fs::read_link(entry.path().join("exe")).ok()?;
            (program == exe).then_some(pid)
        })
        .collect()
}

/// Waits up to ten seconds for every process of `exe` to end; those still running.
fn wait_until_gone(exe: &Path) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = processes_of(exe);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The app at `binary`, started with `args` by a WebDriver of its own, in the environment of
/// this test plus `env`; the driver and a session with the app.
pub async fn start(binary: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> (Driver, Client) {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "no X display: run this test through scripts/e2e"
    );
    let binary = binary.canonicalize().unwrap();
    let left = wait_until_gone(&binary);
    assert!(
        left.is_empty(),
        "the app still runs as {left:?} from before: a new one would hand over to it and exit"
    );
    let port = free_port();
    // The driver starts the app, which inherits this environment.
    let mut driver = Command::new("WebKitWebDriver");
    driver
        .process_group(0)
        .arg(format!("--port={port}"))
        .env("TAURI_WEBVIEW_AUTOMATION", "true")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("NO_AT_BRIDGE", "1");
    for (key, value) in env {
        driver.env(key, value);
    }
    let driver = Driver {
        driver: driver
            .spawn()
            .expect("WebKitWebDriver (Debian webkit2gtk-driver) is needed"),
        app: binary.clone(),
    };
    wait_for_port(port);
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "webkitgtk:browserOptions".into(),
        serde_json::json!({ "binary": binary, "args": args }),
    );
    let mut builder = ClientBuilder::new(HttpConnector::new());
    builder.capabilities(capabilities);
    let url = format!("http://127.0.0.1:{port}");
    // The driver waits for ever for an app that exited at once; a test must fail instead.
    let client = tokio::time::timeout(Duration::from_secs(90), builder.connect(&url))
        .await
        .expect("the app did not take a WebDriver session within 90 s")
        .expect("a WebDriver session with the app");
    (driver, client)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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

/// The folder screenshots go to, printed so a person finds them.
pub fn screenshots() -> PathBuf {
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    println!("screenshots: {}", shots.display());
    shots
}

/// The whole X display as a PNG (WebDriver's own screenshot command hangs with WebKitGTK).
pub fn screenshot(dir: &Path, name: &str) {
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

/// What `act` makes of the element `locator` finds once it is there, found afresh whenever the
/// window redrew it in between: a session's card is redrawn each time its hooks write.
pub async fn fresh<T>(
    client: &Client,
    locator: Locator<'_>,
    act: impl AsyncFn(fantoccini::elements::Element) -> Result<T, CmdError>,
) -> T {
    loop {
        // The wait itself looks at the element it found, which a redraw may replace meanwhile.
        let element = match client.wait().for_element(locator).await {
            Err(error) if error.is_stale_element_reference() => continue,
            Err(error) => panic!(
                "{locator:?} never showed ({error}); the window shows:\n{}",
                shown_text(client).await
            ),
            Ok(found) => found,
        };
        match act(element).await {
            Err(error) if error.is_stale_element_reference() => continue,
            done => return done.unwrap(),
        }
    }
}

/// The text the window shows, for a failure's message.
async fn shown_text(client: &Client) -> String {
    match client.find(Locator::Css("body")).await {
        Ok(body) => body
            .text()
            .await
            .unwrap_or_else(|e| format!("(unreadable: {e})")),
        Err(e) => format!("(no page: {e})"),
    }
}

/// Types `text` into the field `css` finds, until the field shown holds it: keys sent just as
/// the window redraws the field go to the one no longer shown.
#[allow(dead_code)] // e2e_desktop types into no field
pub async fn type_when_there(client: &Client, css: &str, text: &str) {
    let value = async || {
        fresh(client, Locator::Css(css), async |field| {
            field.prop("value").await
        })
        .await
    };
    for _ in 0..10 {
        fresh(client, Locator::Css(css), async |field| {
            field.clear().await?;
            field.send_keys(text).await
        })
        .await;
        if value().await.as_deref() == Some(text) {
            return;
        }
    }
    panic!("{css} never held {text:?}: it holds {:?}", value().await);
}

pub async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    fresh(client, Locator::Css(css), async |element| Ok(element)).await
}

/// The text of the element `css` finds, read afresh should the window redraw it meanwhile.
pub async fn text_when_there(client: &Client, css: &str) -> String {
    fresh(client, Locator::Css(css), async |element| {
        element.text().await
    })
    .await
}

pub async fn click_when_there(client: &Client, css: &str) {
    fresh(client, Locator::Css(css), async |element| {
        element.click().await
    })
    .await;
}
