//! What the desktop offers, asked over the session D-Bus: whether a tray host shows status
//! icons, and notifications with buttons. GIO is already linked for the webview, so this
//! costs no other D-Bus library.

use glib::{ToVariant, VariantTy};

/// The name a tray host (KDE, most panels, GNOME's AppIndicator extension) owns on the session
/// bus; appindicator icons show only where it is owned. Stock GNOME has none.
const STATUS_NOTIFIER_WATCHER: &str = "org.kde.StatusNotifierWatcher";
const NOTIFICATIONS: &str = "org.freedesktop.Notifications";
const NOTIFICATIONS_PATH: &str = "/org/freedesktop/Notifications";
/// How long a question to the bus may take: the desktop answers in microseconds.
const ASK_MS: i32 = 500;

pub fn session_bus() -> Option<gio::DBusConnection> {
    gio::bus_get_sync(gio::BusType::Session, None::<&gio::Cancellable>).ok()
}

/// Whether a tray host on `bus` would show the app's icon.
pub fn tray_host_on(bus: &gio::DBusConnection) -> bool {
    bus.call_sync(
        Some("org.freedesktop.DBus"),
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus",
        "NameHasOwner",
        Some(&(STATUS_NOTIFIER_WATCHER,).to_variant()),
        VariantTy::new("(b)").ok(),
        gio::DBusCallFlags::NONE,
        ASK_MS,
        None::<&gio::Cancellable>,
    )
    .ok()
    .and_then(|reply| reply.get::<(bool,)>())
    .is_some_and(|(owned,)| owned)
}

/// Whether the desktop the app runs on shows tray icons now.
pub fn tray_host() -> bool {
    session_bus().is_some_and(|bus| tray_host_on(&bus))
}

/// Shows a desktop notification with `actions` (id, label) as buttons, replacing the one with
/// id `replaces` (0: none); its id, when a notification server took it.
pub fn notify(
    bus: &gio::DBusConnection,
    replaces: u32,
    summary: &str,
    body: &str,
    actions: &[(&str, &str)],
) -> Option<u32> {
    let actions: Vec<&str> = actions
        .iter()
        .flat_map(|(id, label)| [*id, *label])
        .collect();
    let hints = glib::VariantDict::new(None).end();
    let args = glib::Variant::tuple_from_iter([
        "Throughline".to_variant(),
        replaces.to_variant(),
        "".to_variant(),
        summary.to_variant(),
        body.to_variant(),
        actions.to_variant(),
        hints,
        (-1i32).to_variant(),
    ]);
    bus.call_sync(
        Some(NOTIFICATIONS),
        NOTIFICATIONS_PATH,
        NOTIFICATIONS,
        "Notify",
        Some(&args),
        VariantTy::new("(u)").ok(),
        gio::DBusCallFlags::NONE,
        ASK_MS,
        None::<&gio::Cancellable>,
    )
    .ok()
    .and_then(|reply| reply.get::<(u32,)>())
    .map(|(id,)| id)
}

/// Takes the notification `id` off the screen and out of the desktop's list.
pub fn close(bus: &gio::DBusConnection, id: u32) {
    // Nothing to do when it fails: the person closed it already, or the server is gone.
    let _ = bus.call_sync(
        Some(NOTIFICATIONS),
        NOTIFICATIONS_PATH,
        NOTIFICATIONS,
        "CloseNotification",
        Some(&(id,).to_variant()),
        None,
        gio::DBusCallFlags::NONE,
        ASK_MS,
        None::<&gio::Cancellable>,
    );
}

/// Calls `act` with the notification id and the action id whenever the person presses a
/// notification's button. Runs on the main loop of the thread that calls this.
pub fn on_action(bus: &gio::DBusConnection, act: impl Fn(u32, &str) + 'static) {
    bus.signal_subscribe(
        None,
        Some(NOTIFICATIONS),
        Some("ActionInvoked"),
        Some(NOTIFICATIONS_PATH),
        None,
        gio::DBusSignalFlags::NONE,
        move |_, _, _, _, _, args| {
            if let Some((id, action)) = args.get::<(u32, String)>() {
                act(id, &action);
            }
        },
    );
}
