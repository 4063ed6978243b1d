//! What the app asks the desktop over D-Bus, against a private session bus of its own.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use throughline_app::desktop;

struct Bus(Child, String);

impl Bus {
    fn start() -> Bus {
        let mut daemon = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("dbus-daemon (Debian dbus) is needed");
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        Bus(daemon, address.trim().to_string())
    }

    fn connect(&self) -> gio::DBusConnection {
        gio::DBusConnection::for_address_sync(
            &self.1,
            gio::DBusConnectionFlags::AUTHENTICATION_CLIENT
                | gio::DBusConnectionFlags::MESSAGE_BUS_CONNECTION,
            None,
            None::<&gio::Cancellable>,
        )
        .unwrap()
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_tray_host_is_seen_only_while_one_owns_the_watcher_name() {
    let bus = Bus::start();
    let app = bus.connect();
    assert!(!desktop::tray_host_on(&app), "stock GNOME: no tray host");

    let panel = bus.connect();
    let owned: (u32,) = panel
        .call_sync(
            Some("org.freedesktop.DBus"),
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "RequestName",
            Some(&glib::ToVariant::to_variant(&(
                "org.kde.StatusNotifierWatcher",
                0u32,
            ))),
            glib::VariantTy::new("(u)").ok(),
            gio::DBusCallFlags::NONE,
            1000,
            None::<&gio::Cancellable>,
        )
        .unwrap()
        .get()
        .unwrap();
    assert_eq!(owned.0, 1, "the panel became the owner");
    assert!(desktop::tray_host_on(&app));

    drop(panel);
    // The bus notices the panel's connection is gone within moments.
    let gone = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        !desktop::tray_host_on(&app)
    });
    assert!(gone, "the tray host is still seen after the panel left");
}
