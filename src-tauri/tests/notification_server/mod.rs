//! A stand-in for the desktop's notification server (`org.freedesktop.Notifications`) on the
//! test's session bus: it records every notification the app sends and presses a button on
//! one, as a person would, by sending the `ActionInvoked` signal a real server sends. Xvfb has
//! no desktop, so without it the app's notifications would go nowhere.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use glib::ToVariant;

const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = r#"
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg direction="in" type="s" name="app_name"/>
      <arg direction="in" type="u" name="replaces_id"/>
      <arg direction="in" type="s" name="app_icon"/>
      <arg direction="in" type="s" name="summary"/>
      <arg direction="in" type="s" name="body"/>
      <arg direction="in" type="as" name="actions"/>
      <arg direction="in" type="a{sv}" name="hints"/>
      <arg direction="in" type="i" name="expire_timeout"/>
      <arg direction="out" type="u" name="id"/>
    </method>
    <method name="CloseNotification">
      <arg direction="in" type="u" name="id"/>
    </method>
    <method name="GetCapabilities">
      <arg direction="out" type="as" name="capabilities"/>
    </method>
    <method name="GetServerInformation">
      <arg direction="out" type="s" name="name"/>
      <arg direction="out" type="s" name="vendor"/>
      <arg direction="out" type="s" name="version"/>
      <arg direction="out" type="s" name="spec_version"/>
    </method>
    <signal name="ActionInvoked">
      <arg type="u" name="id"/>
      <arg type="s" name="action_key"/>
    </signal>
    <signal name="NotificationClosed">
      <arg type="u" name="id"/>
      <arg type="u" name="reason"/>
    </signal>
  </interface>
</node>"#;

/// One notification as the app sent it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub id: u32,
    pub app_name: String,
    pub summary: String,
    pub body: String,
    /// (action id, button label)
    pub actions: Vec<(String, String)>,
    /// Whether the app took it back (`CloseNotification`).
    pub closed: bool,
}

pub struct NotificationServer {
    connection: gio::DBusConnection,
    sent: Arc<Mutex<Vec<Sent>>>,
    main_loop: glib::MainLoop,
}

impl NotificationServer {
    /// Owns the notification server's name on the session bus; panics when another server
    /// already does, since the app's notifications would then go there.
    pub fn start() -> NotificationServer {
        let sent: Arc<Mutex<Vec<Sent>>> = Arc::default();
        let (ready, started) = std::sync::mpsc::channel();
        let recorded = sent.clone();
        thread::spawn(move || {
            let context = glib::MainContext::new();
            let main_loop = glib::MainLoop::new(Some(&context), false);
            // Method calls are served on the main context that is the thread's default when
            // the object is registered: this thread's own.
            let connection = context
                .with_thread_default(|| serve(recorded))
                .expect("a main context of its own");
            ready.send((connection, main_loop.clone())).unwrap();
            main_loop.run();
        });
        let (connection, main_loop) = started.recv().unwrap();
        NotificationServer {
            connection,
            sent,
            main_loop,
        }
    }

    /// The notifications sent so far.
    pub fn sent(&self) -> Vec<Sent> {
        self.sent.lock().unwrap().clone()
    }

    /// The first notification `matches` accepts, waiting up to `timeout` for it.
    pub fn wait_for(&self, timeout: Duration, matches: impl Fn(&Sent) -> bool) -> Sent {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(found) = self.sent().into_iter().find(&matches) {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "no such notification within {timeout:?}; sent: {:#?}",
                self.sent()
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// The person presses the button `action` of notification `id`.
    pub fn press(&self, id: u32, action: &str) {
        self.connection
            .emit_signal(
                None,
                PATH,
                NAME,
                "ActionInvoked",
                Some(&(id, action).to_variant()),
            )
            .expect("the signal is sent");
    }
}

impl Drop for NotificationServer {
    fn drop(&mut self) {
        self.main_loop.quit();
    }
}

/// A connection of its own to the test's session bus: a name it takes goes with it.
pub fn session_connection() -> gio::DBusConnection {
    let address =
        gio::dbus_address_get_for_bus_sync(gio::BusType::Session, None::<&gio::Cancellable>)
            .expect("a session bus: run this test through scripts/e2e");
    gio::DBusConnection::for_address_sync(
        &address,
        gio::DBusConnectionFlags::AUTHENTICATION_CLIENT
            | gio::DBusConnectionFlags::MESSAGE_BUS_CONNECTION,
        None,
        None::<&gio::Cancellable>,
    )
    .expect("a connection to the session bus")
}

/// Connects, serves the interface and takes the name; the connection that owns it.
fn serve(sent: Arc<Mutex<Vec<Sent>>>) -> gio::DBusConnection {
    let connection = session_connection();
    let node = gio::DBusNodeInfo::for_xml(INTERFACE).unwrap();
    let interface = node.lookup_interface(NAME).unwrap();
    connection
        .register_object(
            PATH,
            &interface,
            move |_, _, _, _, method, args, invocation| match method {
                "Notify" => {
                    let mut sent = sent.lock().unwrap();
                    let id = sent.len() as u32 + 1;
                    sent.push(decode(id, &args));
                    invocation.return_value(Some(&(id,).to_variant()));
                }
                "CloseNotification" => {
                    let (id,): (u32,) = args.get().expect("an id");
                    if let Some(n) = sent.lock().unwrap().iter_mut().find(|n| n.id == id) {
                        n.closed = true;
                    }
                    invocation.return_value(None);
                }
                "GetCapabilities" => {
                    invocation.return_value(Some(&(vec!["actions", "body"],).to_variant()))
                }
                "GetServerInformation" => invocation.return_value(Some(
                    &("throughline-test", "throughline", "1", "1.2").to_variant(),
                )),
                _ => invocation.return_value(None),
            },
            |_, _, _, _, _| ().to_variant(),
            |_, _, _, _, _, _| false,
        )
        .expect("the interface is served");
    let (owner,): (u32,) = connection
        .call_sync(
            Some("org.freedesktop.DBus"),
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "RequestName",
            // DBUS_NAME_FLAG_DO_NOT_QUEUE
            Some(&(NAME, 4u32).to_variant()),
            glib::VariantTy::new("(u)").ok(),
            gio::DBusCallFlags::NONE,
            2000,
            None::<&gio::Cancellable>,
        )
        .unwrap()
        .get()
        .unwrap();
    assert_eq!(owner, 1, "another notification server owns {NAME}");
    connection
}

fn decode(id: u32, args: &glib::Variant) -> Sent {
    let text = |n: usize| args.child_value(n).get::<String>().unwrap_or_default();
    let flat: Vec<String> = args.child_value(5).get().unwrap_or_default();
    Sent {
        id,
        app_name: text(0),
        summary: text(3),
        body: text(4),
        actions: flat
            .chunks(2)
            .map(|pair| (pair[0].clone(), pair.get(1).cloned().unwrap_or_default()))
            .collect(),
        closed: false,
    }
}
