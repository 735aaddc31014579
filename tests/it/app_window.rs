//! The real app in a real window, driven through WebDriver as a person would use it.

use std::path::Path;
use std::time::Duration;

use crate::support::display::Display;
use crate::support::driver::TauriDriver;
use crate::support::webdriver::Session;

#[test]
fn the_window_shows_the_shell_and_real_values_from_the_host() {
    let home = tempfile::tempdir().expect("temp dir");
    let config = home.path().join("switchboard-config.json");
    let config_str = config.to_str().expect("utf-8 temp path");

    let display = Display::start();
    // A socket of its own for agents' bridges, not the one of a Switchboard the person runs.
    let socket = home.path().join("gateway.sock");
    let socket = socket.to_str().expect("utf-8 temp path");
    let driver = TauriDriver::start(
        &display,
        &[
            ("SWITCHBOARD_CONFIG", config_str),
            (switchboard_core::endpoint::SOCKET_ENV, socket),
        ],
    );
    let app = Path::new(env!("CARGO_BIN_EXE_switchboard"));
    let window = Session::open(&display, &driver.url, app, Duration::from_secs(20));

    // Waits for the UI to render: a single look-up honours the implicit wait.
    window.find("nav[aria-label='Main'] button");
    let views: Vec<String> = window
        .find_all("nav[aria-label='Main'] button")
        .iter()
        .map(|b| window.text(b))
        .collect();
    assert_eq!(
        views,
        [
            "Servers",
            "Registry",
            "Explorer",
            "Approvals",
            "Activity",
            "Tasks",
            "Trust",
            "Models",
            "Chat",
            "Agents",
            "Settings"
        ]
    );
    assert_eq!(window.text(&window.find("h1")), "Servers");

    // These values only exist in Rust: they prove the IPC round trip.
    let shown_path = window.find("[data-testid='config-path']");
    assert_eq!(window.text(&shown_path), config_str);
    let version = window.find("[data-testid='app-version']");
    assert_eq!(
        window.text(&version),
        concat!("Switchboard ", env!("CARGO_PKG_VERSION"))
    );
    let revisions = window.text(&window.find("[data-testid='protocol-revisions']"));
    assert!(
        revisions.contains("2025-11-25"),
        "revisions shown: {revisions}"
    );

    // A first run wrote the configuration, with the bundled demo server by name: it is
    // found beside the app at each start, never by a path written once.
    let written: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&config).expect("the first run wrote the config"),
    )
    .expect("the config is JSON");
    assert_eq!(
        written["mcpServers"]["demo"]["command"],
        "switchboard-demo-server"
    );
    assert!(app.with_file_name("switchboard-demo-server").is_file());

    let explorer = window.find("nav button[data-view='explorer']");
    window.click(&explorer);
    assert_eq!(window.text(&window.find("h1")), "Explorer");
    assert_eq!(
        window.attribute(&explorer, "aria-current").as_deref(),
        Some("page")
    );

    let shot = window.screenshot("app-shell");
    eprintln!("screenshot: {}", shot.display());
    drop(window);
    drop(driver);
}
