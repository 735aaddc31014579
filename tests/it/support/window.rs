//! The real app in its window, driven as a person would: its views, forms and dialogs by
//! the names a person reads. Shared by every window test.

use std::path::{Path, PathBuf};
use std::time::Duration;

use switchboard_core::endpoint::SOCKET_ENV;
use switchboard_core::secrets::SERVICE_ENV;

use super::display::Display;
use super::driver::{TauriDriver, free_port};
use super::webdriver::Session;

/// Long enough for a server to start on a busy machine; waits end as soon as the window shows it.
pub const SHOWN: Duration = Duration::from_secs(30);
pub const DIALOG: &str = "[role='dialog']";
pub const DETAIL: &str = ".explorer-detail";

pub struct App {
    pub window: Session,
    _driver: TauriDriver,
    _display: Display,
    /// Where the stand-in browser writes the URLs it was asked to open.
    pub opened: PathBuf,
    pub dir: tempfile::TempDir,
    /// The environment the test added, kept for a restart.
    extra: Vec<(&'static str, String)>,
    /// The app's executable: this build's, unless another build was asked for.
    binary: PathBuf,
    /// Where the app serves agents over HTTP: a port of its own (see `own_gateway`).
    pub gateway_port: u16,
}

impl App {
    /// The app on a first run (the demo server configured), with a browser that only notes
    /// what it is asked to open.
    pub fn start() -> Self {
        Self::start_with(|_| Vec::new())
    }

    /// Like `start`, with more of the app's environment, chosen knowing the test's own
    /// temporary folder.
    pub fn start_with(env: impl FnOnce(&Path) -> Vec<(&'static str, String)>) -> Self {
        Self::start_build(Path::new(env!("CARGO_BIN_EXE_switchboard")), env)
    }

    /// Starts the app on a configuration file holding `config`, with `env` besides.
    pub fn start_configured(config: serde_json::Value, env: Vec<(&'static str, String)>) -> Self {
        Self::start_with(move |dir| {
            std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
            env
        })
    }

    /// Like `start_with`, with the app's executable at `binary` (another build of it).
    pub fn start_build(
        binary: &Path,
        env: impl FnOnce(&Path) -> Vec<(&'static str, String)>,
    ) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let extra = env(dir.path());
        Self::start_in(binary.to_owned(), dir, extra, &[])
    }

    /// Like `start_with`, the app started as the system starts it to open `args` (a link
    /// of its URL scheme).
    pub fn start_opening(
        args: &[String],
        env: impl FnOnce(&Path) -> Vec<(&'static str, String)>,
    ) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let extra = env(dir.path());
        let binary = PathBuf::from(env!("CARGO_BIN_EXE_switchboard"));
        Self::start_in(binary, dir, extra, args)
    }

    /// Like `start`, with a home folder of its own: the import panel then lists no file of
    /// the person's own apps.
    pub fn start_with_own_home() -> Self {
        Self::start_with(|dir| {
            let home = dir.join("home");
            std::fs::create_dir(&home).expect("home");
            vec![
                ("HOME", home.to_str().expect("utf-8").to_owned()),
                (
                    "XDG_CONFIG_HOME",
                    home.join(".config").to_str().expect("utf-8").to_owned(),
                ),
            ]
        })
    }

    /// Quits the app and starts it again on the same folder (its configuration file, its
    /// kept conversations and audit trail), with the same environment.
    pub fn restart(self) -> Self {
        let Self {
            window,
            _driver,
            _display,
            dir,
            extra,
            binary,
            ..
        } = self;
        // The session's end closes the app; then its driver and display go.
        drop(window);
        drop(_driver);
        drop(_display);
        Self::start_in(binary, dir, extra, &[])
    }

    fn start_in(
        binary: PathBuf,
        dir: tempfile::TempDir,
        mut extra: Vec<(&'static str, String)>,
        args: &[String],
    ) -> Self {
        let (env, gateway_port) = environment(dir.path(), &mut extra);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let display = Display::start();
        let driver = TauriDriver::start(&display, &env);
        let window = Session::open_with_args(
            &display,
            &driver.url,
            &binary,
            args,
            Duration::from_secs(20),
        );
        Self {
            window,
            _driver: driver,
            _display: display,
            opened: dir.path().join(OPENED),
            dir,
            extra,
            binary,
            gateway_port,
        }
    }

    /// The X display the window is on.
    pub fn display(&self) -> &str {
        &self._display.name
    }

    /// The app's program, to start again as a person would: on the same display, with this
    /// app's environment (its profile).
    pub fn launch_again(&self) -> std::process::Command {
        let mut command = std::process::Command::new(&self.binary);
        command
            .env("DISPLAY", self.display())
            .env("SWITCHBOARD_CONFIG", self.dir.path().join("config.json"))
            .envs(self.extra.iter().map(|(k, v)| (*k, v.as_str())));
        command
    }

    /// Where agents reach the app over Streamable HTTP.
    pub fn gateway_url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.gateway_port)
    }

    /// Where agents reach the app through `switchboard-cli bridge`.
    pub fn gateway_socket(&self) -> std::path::PathBuf {
        self.dir.path().join("gateway.sock")
    }

    /// Adds the agent `name` on the Agents page and waits until its row shows.
    pub fn add_agent(&self, name: &str) {
        self.view("agents");
        self.fill(".agent-add", "Agent name", name);
        self.press(".agent-add", "Add agent");
        self.window.wait_for_texts(
            ".agent-list li",
            &[name, "every server", "not connected"],
            SHOWN,
        );
    }

    pub fn view(&self, id: &str) {
        self.window
            .click(&self.window.find(&format!("nav button[data-view='{id}']")));
    }

    /// Waits until `server` runs, in whatever language the window speaks.
    pub fn wait_running(&self, server: &str) {
        self.view("servers");
        let running = format!(".server-list li[data-server='{server}'] .status-ok");
        self.window.wait_for_text(&running, "", SHOWN);
    }

    /// Shows `server` in the Servers view: its details, actions and log.
    pub fn select_server(&self, server: &str) {
        self.view("servers");
        self.window
            .click(&self.window.button(".server-list", server));
        self.window
            .wait_for_text(".servers-detail .server-details h2", server, SHOWN);
    }

    /// The configuration file as it is on disk now.
    pub fn config(&self) -> serde_json::Value {
        let path = self.dir.path().join("config.json");
        let text = std::fs::read_to_string(&path).expect("read the configuration file");
        serde_json::from_str(&text).expect("the configuration file is JSON")
    }

    /// Opens a tool of `server` in the explorer by the name a person reads.
    pub fn open_tool(&self, server: &str, title: &str) {
        self.view("explorer");
        let search = self
            .window
            .find("input[aria-label='Search tools, resources and prompts']");
        // Emptied as a person does, so the page sees it: the search is kept across views,
        // and WebDriver's own clear would leave the page's value to come back on a redraw.
        self.window.type_into(&search, "", true);
        self.window.type_into(&search, title, false);
        // Its name as a screen reader says it: "Echo on demo".
        let entry = self
            .window
            .button(".catalog", &format!("{title} on {server}"));
        self.window.click(&entry);
    }

    pub fn fill(&self, scope: &str, label: &str, text: &str) {
        let field = self.window.field(scope, label);
        self.window.type_into(&field, text, true);
    }

    /// Clicks the button labelled `label` in `scope` once it is enabled: a dialog keeps its
    /// buttons disabled for a moment after it opens, and a click then would do nothing.
    pub fn press(&self, scope: &str, label: &str) {
        let button = self.window.button(scope, label);
        self.window.click(&button);
    }

    /// Waits for a dialog that names `server` and shows `wanted`; saves its screenshot.
    pub fn dialog(&self, server: &str, wanted: &str, shot: &str) -> String {
        let text = self.window.wait_for_text(DIALOG, wanted, SHOWN);
        assert!(
            text.contains(server),
            "the dialog names the asking server: {text}"
        );
        self.window.screenshot(shot);
        text
    }

    /// Opens a request `server` made on its own: it waits in the queue, announced by a
    /// notice and no dialog, until the person reviews it; then its dialog shows `wanted`.
    pub fn review_queued(&self, server: &str, wanted: &str, shot: &str) -> String {
        self.window.wait_for_text(".queued-notice", server, SHOWN);
        assert_eq!(
            self.window.count(DIALOG),
            0,
            "a server asking on its own opens no dialog"
        );
        self.press(".queued-notice", "Review");
        self.dialog(server, wanted, shot)
    }

    pub fn no_dialog(&self) {
        let started = std::time::Instant::now();
        while self.window.count(DIALOG) > 0 {
            assert!(started.elapsed() < SHOWN, "the dialog stayed open");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn result(&self, wanted: &str) -> String {
        self.window
            .wait_for_text("[aria-label='Tool result']", wanted, SHOWN)
    }

    /// Invokes the open tool as the person: it runs at once, unless it may destroy
    /// something (then see `invoke_allowed`).
    pub fn invoke(&self) {
        self.press(DETAIL, "Invoke");
    }

    /// Invokes the open tool, one that asks first even when the person calls it (it may
    /// destroy something), and allows the call once.
    pub fn invoke_allowed(&self, server: &str, tool: &str) {
        self.press(DETAIL, "Invoke");
        self.dialog(server, tool, &format!("dialog-tool-call-{tool}"));
        self.press(DIALOG, "Allow once");
    }
}

/// Where the stand-in browser notes the URLs it is asked to open, in the app's folder.
const OPENED: &str = "opened.txt";

/// The environment of an app kept in the folder `dir`: its configuration, its own data and
/// settings of the desktop (the `switchboard://` handler a build from the source tree
/// registers for the session, and its choice as the links' default application), a browser
/// that only notes what it is asked to open, a gateway and a keyring service of its own, and
/// `extra` (to which the last two are added, so that a restart keeps them). With the
/// gateway's port.
pub fn environment(
    dir: &Path,
    extra: &mut Vec<(&'static str, String)>,
) -> (Vec<(&'static str, String)>, u16) {
    let gateway_port = own_gateway(dir, extra);
    own_keyring_service(extra);
    let browser = dir.join("browser.sh");
    std::fs::write(
        &browser,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n",
            dir.join(OPENED).display()
        ),
    )
    .expect("write the browser");
    make_executable(&browser);
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_owned();
    let mut env = vec![
        ("SWITCHBOARD_CONFIG", path("config.json")),
        ("BROWSER", path("browser.sh")),
        ("XDG_DATA_HOME", path("data")),
        ("XDG_CONFIG_HOME", path("desktop-config")),
    ];
    env.extend(extra.iter().cloned());
    (env, gateway_port)
}

/// Gives the app a gateway of its own, so that apps of tests run at once do not take each
/// other's: a free port for agents over HTTP, in the configuration's settings (the test's
/// own file, or the one a first run writes, with the bundled demo server), and a socket in
/// its folder for bridges unless the test chose one. The port.
fn own_gateway(dir: &Path, extra: &mut Vec<(&'static str, String)>) -> u16 {
    if !extra.iter().any(|(name, _)| *name == SOCKET_ENV) {
        let socket = dir.join("gateway.sock");
        extra.push((SOCKET_ENV, socket.to_str().expect("utf-8 path").to_owned()));
    }
    let path = dir.join("config.json");
    let mut config: serde_json::Value = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).expect("the test's configuration is JSON"),
        Err(_) => {
            serde_json::json!({"mcpServers": {"demo": {"command": "switchboard-demo-server"}}})
        }
    };
    // Kept across a restart.
    if let Some(port) = config["settings"]["gatewayPort"].as_u64() {
        return u16::try_from(port).expect("a port");
    }
    let port = free_port();
    config["settings"]["gatewayPort"] = serde_json::json!(port);
    std::fs::write(&path, config.to_string()).expect("write the configuration");
    port
}

/// The environment of a system whose language is `locale` (`zh_CN.UTF-8`), as the app
/// reads it.
pub fn system_speaking(locale: &str) -> Vec<(&'static str, String)> {
    vec![("LC_ALL", locale.to_owned()), ("LANG", locale.to_owned())]
}

/// Waits until `done` holds, for what the page does not show (a file written, a secret gone
/// from the keyring); `what` says what was awaited when it never comes.
pub fn until(what: &str, mut done: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !done() {
        assert!(started.elapsed() < SHOWN, "{what}: not within {SHOWN:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A keyring service of this app's own (kept across a restart), so that no test reads or
/// deletes another's secrets, or the person's.
fn own_keyring_service(extra: &mut Vec<(&'static str, String)>) {
    static APPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if !extra.iter().any(|(name, _)| *name == SERVICE_ENV) {
        let n = APPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let service = format!("switchboard-window-{}-{n}", std::process::id());
        extra.push((SERVICE_ENV, service));
    }
}

impl App {
    /// What the keyring holds for this app under `name`, if anything.
    pub fn keyring_secret(&self, name: &str) -> Option<String> {
        let service = self
            .extra
            .iter()
            .find(|(key, _)| *key == SERVICE_ENV)
            .map(|(_, service)| service.as_str())
            .expect("every app has a keyring service of its own");
        let out = std::process::Command::new("secret-tool")
            .args(["lookup", "service", service, "username", name])
            .output()
            .expect("run secret-tool (the libsecret-tools package; run scripts/setup)");
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

pub fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path).expect("metadata").permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions).expect("chmod");
}
