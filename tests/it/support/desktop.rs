//! A desktop session of the app's own, as a person's desktop gives it: a private session bus
//! with a keyring, a notification server (the Desktop Notifications Specification) and a
//! tray host (a StatusNotifierWatcher, which desktop panels run). The test reads there what
//! the person would see (the notifications, the tray's label and menu) and clicks them.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use zbus::blocking::Connection;
use zbus::message::Header;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Structure, Value};

use super::window::until;

const NOTIFICATIONS: &str = "/org/freedesktop/Notifications";
const DBUSMENU: &str = "com.canonical.dbusmenu";
const ITEM: &str = "org.kde.StatusNotifierItem";

pub struct Desktop {
    bus: Child,
    /// The keyring's folder.
    _home: tempfile::TempDir,
    /// The bus's address, for the app's `DBUS_SESSION_BUS_ADDRESS`.
    pub address: String,
    connection: Connection,
    shown: Arc<Mutex<Vec<Shown>>>,
    items: Arc<Mutex<Vec<(String, String)>>>,
}

/// A notification as the server received it.
#[derive(Debug, Clone)]
pub struct Shown {
    pub id: u32,
    pub summary: String,
    pub body: String,
    pub actions: Vec<String>,
}

impl Desktop {
    /// Starts the bus, unlocks a keyring of its own, and serves the notification server and
    /// the tray host on it.
    pub fn start() -> Self {
        let home = tempfile::tempdir().expect("temp dir");
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start dbus-daemon (the dbus package; run scripts/setup)");
        // The daemon prints its address once it listens.
        let mut address = String::new();
        BufReader::new(bus.stdout.take().expect("stdout"))
            .read_line(&mut address)
            .expect("the bus's address");
        let address = address.trim().to_owned();
        assert!(!address.is_empty(), "dbus-daemon exited before it listened");
        unlock_keyring(&address, home.path());
        let connection = zbus::blocking::connection::Builder::address(address.as_str())
            .expect("the bus's address")
            .build()
            .expect("connect to the private bus");
        let shown = Arc::new(Mutex::new(Vec::new()));
        let items = Arc::new(Mutex::new(Vec::new()));
        connection
            .object_server()
            .at(
                NOTIFICATIONS,
                NotificationServer {
                    shown: shown.clone(),
                },
            )
            .expect("serve the notification server");
        connection
            .object_server()
            .at(
                "/StatusNotifierWatcher",
                TrayHost {
                    items: items.clone(),
                },
            )
            .expect("serve the tray host");
        for name in [
            "org.freedesktop.Notifications",
            "org.kde.StatusNotifierWatcher",
        ] {
            connection.request_name(name).expect("own the name");
        }
        Self {
            bus,
            _home: home,
            address,
            connection,
            shown,
            items,
        }
    }

    /// The app's environment on this desktop.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![("DBUS_SESSION_BUS_ADDRESS", self.address.clone())]
    }

    /// Every notification shown so far.
    pub fn notifications(&self) -> Vec<Shown> {
        self.shown.lock().expect("notifications").clone()
    }

    /// Waits for a notification whose summary or body holds `wanted`.
    pub fn notification(&self, wanted: &str) -> Shown {
        let mut found = None;
        until(&format!("a notification saying {wanted:?}"), || {
            found = self
                .notifications()
                .into_iter()
                .find(|n| n.summary.contains(wanted) || n.body.contains(wanted));
            found.is_some()
        });
        found.expect("found")
    }

    /// Clicks notification `id`, as the notification server reports a click on it.
    pub fn click(&self, shown: &Shown) {
        assert!(
            shown.actions.iter().any(|a| a == "default"),
            "the notification offers no click: {shown:?}"
        );
        self.connection
            .emit_signal(
                None::<&str>,
                NOTIFICATIONS,
                "org.freedesktop.Notifications",
                "ActionInvoked",
                &(shown.id, "default"),
            )
            .expect("report the click");
    }

    /// How many tray items have registered (one an app).
    pub fn tray_items(&self) -> usize {
        self.items.lock().expect("items").len()
    }

    /// The tray item the app registered, once it has: its bus name and object path.
    fn tray_item(&self) -> (String, String) {
        until("the app's tray icon", || {
            !self.items.lock().expect("items").is_empty()
        });
        self.items.lock().expect("items")[0].clone()
    }

    fn item_property(&self, name: &str) -> OwnedValue {
        let (service, path) = self.tray_item();
        self.connection
            .call_method(
                Some(service.as_str()),
                path.as_str(),
                Some("org.freedesktop.DBus.Properties"),
                "Get",
                &(ITEM, name),
            )
            .expect("read the tray item")
            .body()
            .deserialize::<OwnedValue>()
            .expect("a property")
    }

    /// The text the tray shows beside the app's icon.
    pub fn tray_label(&self) -> String {
        String::try_from(self.item_property("XAyatanaLabel")).expect("a label")
    }

    /// The tray menu's entries: their ids and labels, in order.
    pub fn tray_menu(&self) -> Vec<(i32, String)> {
        let (service, _) = self.tray_item();
        let menu = OwnedObjectPath::try_from(self.item_property("Menu")).expect("a menu path");
        let reply = self
            .connection
            .call_method(
                Some(service.as_str()),
                menu.as_str(),
                Some(DBUSMENU),
                "GetLayout",
                &(0i32, -1i32, Vec::<String>::new()),
            )
            .expect("read the tray menu");
        let body = reply.body();
        let layout: Structure = body.deserialize().expect("a layout");
        let mut entries = Vec::new();
        if let [_, root] = layout.fields() {
            menu_entries(root, &mut entries);
        }
        entries
    }

    /// The labels of the tray menu's entries.
    pub fn tray_labels(&self) -> Vec<String> {
        self.tray_menu().into_iter().map(|(_, l)| l).collect()
    }

    /// Clicks the tray menu's entry labelled `label`.
    pub fn click_tray(&self, label: &str) {
        let menu = self.tray_menu();
        let Some((id, _)) = menu.iter().find(|(_, l)| l == label) else {
            panic!("the tray menu has no {label:?}: {menu:?}");
        };
        let (service, _) = self.tray_item();
        let path = OwnedObjectPath::try_from(self.item_property("Menu")).expect("a menu path");
        self.connection
            .call_method(
                Some(service.as_str()),
                path.as_str(),
                Some(DBUSMENU),
                "Event",
                &(*id, "clicked", Value::from(""), 0u32),
            )
            .expect("click the tray menu");
    }
}

/// The entries of a dbusmenu layout `(id, properties, children)`, depth first.
fn menu_entries(node: &Value, out: &mut Vec<(i32, String)>) {
    let node = match node {
        Value::Value(inner) => inner.as_ref(),
        node => node,
    };
    let Value::Structure(node) = node else {
        return;
    };
    let [
        Value::I32(id),
        Value::Dict(properties),
        Value::Array(children),
    ] = node.fields()
    else {
        return;
    };
    if let Ok(Some(label)) = properties.get::<_, String>(&"label") {
        out.push((*id, label));
    }
    for child in children.iter() {
        menu_entries(child, out);
    }
}

/// A keyring on the bus, unlocked, in a folder of its own, as `scripts/with-keyring` makes.
fn unlock_keyring(address: &str, home: &Path) {
    let mut keyring = Command::new("gnome-keyring-daemon")
        .args(["--unlock", "--components=secrets"])
        .env("DBUS_SESSION_BUS_ADDRESS", address)
        .env("HOME", home)
        .env("XDG_RUNTIME_DIR", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start gnome-keyring-daemon (run scripts/setup)");
    keyring
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"switchboard")
        .expect("unlock the keyring");
    keyring.wait().expect("gnome-keyring-daemon started");
    // It returns before its name is on the bus: a program asking meanwhile would have the
    // bus start another keyring daemon, on a keyring that is locked.
    let named = Command::new("gdbus")
        .args(["wait", "--address", address, "--timeout", "10"])
        .arg("org.freedesktop.secrets")
        .status()
        .expect("gdbus (run scripts/setup)");
    assert!(named.success(), "the keyring never came on the bus");
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // The keyring daemon leaves with its bus.
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}

struct NotificationServer {
    shown: Arc<Mutex<Vec<Shown>>>,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl NotificationServer {
    fn get_capabilities(&self) -> Vec<String> {
        vec!["actions".into(), "body".into()]
    }

    #[allow(clippy::too_many_arguments)]
    fn notify(
        &self,
        _app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        _hints: HashMap<String, OwnedValue>,
        _expire_timeout: i32,
    ) -> u32 {
        let mut shown = self.shown.lock().expect("notifications");
        let id = shown.len() as u32 + 1;
        // Actions come as pairs of key and title.
        let actions = actions.chunks(2).map(|pair| pair[0].clone()).collect();
        shown.push(Shown {
            id,
            summary,
            body,
            actions,
        });
        id
    }

    fn close_notification(&self, _id: u32) {}

    fn get_server_information(&self) -> (String, String, String, String) {
        (
            "stand-in".into(),
            "switchboard tests".into(),
            "1".into(),
            "1.2".into(),
        )
    }
}

struct TrayHost {
    items: Arc<Mutex<Vec<(String, String)>>>,
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl TrayHost {
    /// An item registers by its object path (libayatana-appindicator) or its bus name.
    fn register_status_notifier_item(&self, service: String, #[zbus(header)] header: Header<'_>) {
        let sender = header.sender().map(|s| s.to_string()).unwrap_or_default();
        let (name, path) = if service.starts_with('/') {
            (sender, service)
        } else {
            (service, "/StatusNotifierItem".to_owned())
        };
        self.items.lock().expect("items").push((name, path));
    }

    fn register_status_notifier_host(&self, _service: String) {}

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        self.items
            .lock()
            .expect("items")
            .iter()
            .map(|(name, path)| format!("{name}{path}"))
            .collect()
    }

    #[zbus(property)]
    fn is_status_notifier_host_registered(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn protocol_version(&self) -> i32 {
        0
    }
}
