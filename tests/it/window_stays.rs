//! Switchboard stays with the person: closing its window leaves it in the tray (its servers
//! and agents' gateway running), the tray shows the requests that wait and brings the window
//! back or quits; a request that arrives while the window is closed raises a desktop
//! notification that opens its dialog; and a second launch shows the running window, while
//! another profile runs beside it. Each app runs on a desktop of its own (a private session
//! bus with a notification server and a tray host), where the test sees and clicks what the
//! person would.

use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};

use serde_json::json;

use crate::support::agent::Agent;
use crate::support::desktop::Desktop;
use crate::support::display::{close_windows, shown_windows};
use crate::support::window::{App, DIALOG, SHOWN, until};

const TITLE: &str = "Switchboard";

fn windows_shown(app: &App, count: usize, what: &str) {
    until(what, || shown_windows(app.display(), TITLE) == count);
}

/// Closes the window as a person does, and waits until it is gone from the screen.
fn close(app: &App) {
    close_windows(app.display(), TITLE);
    windows_shown(app, 0, "the window leaves the screen");
}

#[test]
fn closing_the_window_leaves_the_app_in_the_tray_which_brings_it_back_and_quits() {
    let desktop = Desktop::start();
    let app = App::start_with(|_| desktop.env());
    app.wait_running("demo");
    windows_shown(&app, 1, "the window is on the screen");
    assert_eq!(
        desktop.tray_labels(),
        ["Open Switchboard", "No request waits", "Quit Switchboard"]
    );

    close(&app);
    // The app runs on: agents still reach it, and the person is told where it went.
    UnixStream::connect(app.gateway_socket()).expect("agents still reach the gateway");
    let told = desktop.notification("still running");
    assert!(told.body.contains("tray"), "{told:?}");

    desktop.click_tray("Open Switchboard");
    windows_shown(&app, 1, "the tray's menu brings the window back");
    app.wait_running("demo");

    // Told once: closing again says nothing more.
    close(&app);
    desktop.click_tray("Open Switchboard");
    windows_shown(&app, 1, "the window comes back again");
    let told: Vec<_> = desktop
        .notifications()
        .into_iter()
        .filter(|n| n.summary.contains("still running"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");

    // Quitting from the tray ends the app, which takes its gateway with it.
    desktop.click_tray("Quit Switchboard");
    until("the app quits and its gateway goes", || {
        !app.gateway_socket().exists()
    });
}

#[test]
fn a_request_while_the_window_is_closed_raises_a_notification_that_opens_its_dialog() {
    let desktop = Desktop::start();
    let app = App::start_with(|_| desktop.env());
    app.wait_running("demo");
    app.add_agent("Claude Code");
    let mut agent = Agent::connect("Claude Code", &app.gateway_socket(), SHOWN);
    close(&app);

    let call = agent.call("demo__echo", json!({"text": "while the window was closed"}));
    // Said as the dialog says it: who asks, of which server, for what.
    let asked = desktop.notification("Claude Code wants demo to call echo");
    // The tray says a request waits, beside its icon and in its menu.
    until("the tray counts the waiting request", || {
        desktop.tray_label() == "1"
    });
    assert!(
        desktop
            .tray_labels()
            .contains(&"Review the waiting request".to_owned()),
        "{:?}",
        desktop.tray_labels()
    );

    desktop.click(&asked);
    windows_shown(&app, 1, "the notification brings the window back");
    app.dialog(
        "demo",
        "wants demo to call echo",
        "dialog-from-a-notification",
    );
    assert!(
        app.window
            .value(&app.window.find(&format!("{DIALOG} textarea")))
            .contains("while the window was closed")
    );
    app.press(DIALOG, "Allow once");
    let result = agent.result(&call, SHOWN);
    assert_eq!(
        result["content"][0]["text"], "while the window was closed",
        "{result}"
    );
    until("the tray shows no request waiting", || {
        desktop.tray_label().is_empty()
    });

    // The tray's line of waiting requests opens one too.
    close(&app);
    let call = agent.call("demo__echo", json!({"text": "reviewed from the tray"}));
    until("the tray counts the waiting request", || {
        desktop.tray_label() == "1"
    });
    desktop.click_tray("Review the waiting request");
    windows_shown(&app, 1, "the tray brings the window back");
    app.dialog("demo", "wants demo to call echo", "dialog-from-the-tray");
    app.press(DIALOG, "Allow once");
    let result = agent.result(&call, SHOWN);
    assert_eq!(
        result["content"][0]["text"], "reviewed from the tray",
        "{result}"
    );
}

#[test]
fn a_second_launch_shows_the_running_window_and_another_profile_runs_beside_it() {
    let desktop = Desktop::start();
    let app = App::start_with(|_| desktop.env());
    app.wait_running("demo");
    close(&app);

    // The same profile again: it shows the first one's window and ends.
    let mut again = app
        .launch_again()
        .stdout(Stdio::null())
        .spawn()
        .expect("launch again");
    let mut ended = None;
    until("the second launch ends", || {
        ended = again.try_wait().expect("the second launch");
        ended.is_some()
    });
    let ended = ended.expect("ended");
    assert!(ended.success(), "{ended}");
    windows_shown(&app, 1, "the second launch shows the first one's window");

    // Another profile is another app, running on beside it; started at login, it starts
    // in the tray with its window closed, and starting it again shows its window.
    let other = tempfile::tempdir().expect("temp dir");
    let config = other.path().join("config.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {}, "settings": {"gatewayPort": 0}}).to_string(),
    )
    .expect("write the other profile");
    let other_app = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_switchboard"));
        command
            .env("DISPLAY", app.display())
            .envs(desktop.env())
            .env("SWITCHBOARD_CONFIG", &config)
            .env(
                "SWITCHBOARD_GATEWAY_SOCKET",
                other.path().join("gateway.sock"),
            )
            .stdout(Stdio::null());
        command
    };
    let mut second = other_app()
        .arg("--in-tray")
        .spawn()
        .expect("start another profile");
    until("the other profile's tray icon", || {
        desktop.tray_items() == 2
    });
    assert_eq!(
        shown_windows(app.display(), TITLE),
        1,
        "started at login, the other profile shows no window"
    );
    let status = other_app().status().expect("start the other profile again");
    assert!(status.success(), "{status}");
    windows_shown(&app, 2, "the other profile's window shows beside the first");
    assert!(
        second.try_wait().expect("the other app").is_none(),
        "the other profile keeps running"
    );
    second.kill().expect("end the other app");
    second.wait().expect("the other app ends");
}

#[test]
fn the_person_may_start_it_at_login_and_choose_that_closing_quits() {
    let desktop = Desktop::start();
    let app = App::start_with(|dir| {
        let mut env = desktop.env();
        let xdg = dir.join("xdg");
        env.push(("XDG_CONFIG_HOME", xdg.to_str().expect("utf-8").to_owned()));
        env
    });
    let w = &app.window;
    let entry = app
        .dir
        .path()
        .join("xdg/autostart/dev.switchboard.app.desktop");
    app.view("settings");
    let stays = w.field(".desktop-settings", "Keep Switchboard running in the tray");
    let at_login = w.field(
        ".desktop-settings",
        "Start Switchboard in the tray when I log in",
    );
    assert!(w.checked(&stays), "the app stays in the tray unless told");
    assert!(
        !w.checked(&at_login),
        "nothing starts at login unless asked"
    );
    w.screenshot("settings");

    // At login: an autostart entry that starts this profile in the tray.
    w.click(&at_login);
    until("the autostart entry is written", || entry.exists());
    let text = std::fs::read_to_string(&entry).expect("read the entry");
    let exec = text
        .lines()
        .find(|l| l.starts_with("Exec="))
        .expect("an Exec line");
    assert!(exec.contains("SWITCHBOARD_CONFIG="), "{exec}");
    assert!(exec.ends_with(" --in-tray"), "{exec}");
    w.wait_for_text(".desktop-settings", "turning this off removes it", SHOWN);
    w.screenshot("settings-start-at-login");
    w.click(&at_login);
    until("the autostart entry is removed", || !entry.exists());

    // Quit on close: the choice is saved, and closing the window ends the app.
    // The box shows the choice once the app holds it (not only the file): closing before
    // that would still hide the window.
    w.click(&stays);
    until("the window shows the choice taken", || !w.checked(&stays));
    assert_eq!(
        app.config()["settings"]["quitOnClose"],
        true,
        "the choice is saved"
    );
    close_windows(app.display(), TITLE);
    until("closing the window quits the app", || {
        !app.gateway_socket().exists()
    });
    assert!(
        desktop.notifications().is_empty(),
        "nothing says the app stays: {:?}",
        desktop.notifications()
    );
}
