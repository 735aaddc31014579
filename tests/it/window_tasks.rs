//! Tool calls that run as tasks, in the real window, with server-everything's
//! `simulate-research-query` (its server runs it as a task, and must): invoked from the
//! Explorer, its stages show as the call's progress, its question comes as the form dialog,
//! and its report as the result; the Tasks view lists it with who asked and how it ended,
//! and opens its result; a second call is cancelled from the Tasks view while it works. A
//! task that ends while the window is closed is told in a desktop notification. A task still
//! under way when the app quits, at a server that keeps it, ends in the Tasks view after the
//! next start.

use std::path::Path;

use serde_json::json;

use crate::support::desktop::Desktop;
use crate::support::display::close_windows;
use crate::support::peer::{HttpPeer, node_binary};
use crate::support::window::{App, DETAIL, DIALOG, SHOWN};

const ROWS: &str = ".tasks-table tbody tr";

/// server-everything, the person's own calls run unasked.
fn everything_config() -> serde_json::Value {
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    json!({
        "mcpServers": {"everything": {"command": node_binary(), "args": [everything, "stdio"]}},
        "settings": {"confirmOwnDestructiveCalls": false},
    })
}

#[test]
fn a_task_is_followed_answered_listed_and_cancelled_from_the_tasks_view() {
    let app = App::start_configured(everything_config(), Vec::new());
    let w = &app.window;
    app.wait_running("everything");
    app.open_tool("everything", "Simulate Research Query");
    w.wait_for_text(DETAIL, "Runs as a task at its server", SHOWN);
    app.fill(DETAIL, "topic", "python");
    w.click(&w.field(DETAIL, "ambiguous"));
    app.invoke();

    // Its question, as any form: answered in the dialog.
    app.dialog(
        "everything",
        "could have multiple interpretations",
        "dialog-task-question",
    );
    w.click(&w.find(&format!("{DIALOG} select option[value='1']")));
    app.press(DIALOG, "Submit");
    app.no_dialog();
    app.result("# Research Report: python (snake)");

    app.view("tasks");
    w.wait_for_texts(
        ROWS,
        &[
            "simulate-research-query",
            "everything",
            "the person",
            "Completed",
        ],
        SHOWN,
    );
    app.press(ROWS, "Open result");
    w.wait_for_text(".task-result", "Research Report: python (snake)", SHOWN);
    w.screenshot("tasks-view");

    // A second call, cancelled from the list while it works.
    app.open_tool("everything", "Simulate Research Query");
    app.fill(DETAIL, "topic", "storms");
    let ambiguous = w.field(DETAIL, "ambiguous");
    if w.checked(&ambiguous) {
        w.click(&ambiguous);
    }
    app.invoke();
    app.view("tasks");
    w.wait_for_text(ROWS, "Working", SHOWN);
    app.press(ROWS, "Cancel");
    // The newest first: the second task, cancelled; the first still completed below it.
    w.wait_for_all(ROWS, "the second task cancelled", SHOWN, |rows| {
        rows.len() == 2 && rows[0].contains("Cancelled") && rows[1].contains("Completed")
    });
    w.screenshot("tasks-view-cancelled");
}

/// A task under way when the app quits, at a server over HTTP that keeps its tasks across
/// sessions (`tests/peers/node/tasks-http-server.mjs`), is asked after at the next start: the
/// Tasks view shows it completed, and opens its result.
#[test]
fn a_task_under_way_when_the_app_quits_ends_in_the_tasks_view_after_the_next_start() {
    let peer = HttpPeer::tasks_kept();
    let config = json!({
        "mcpServers": {"reports": {"url": peer.url}},
        "settings": {"confirmOwnDestructiveCalls": false},
    });
    let app = App::start_configured(config, Vec::new());
    app.wait_running("reports");
    app.open_tool("reports", "slow-report");
    app.fill(DETAIL, "ms", "4000");
    app.invoke();
    app.view("tasks");
    app.window
        .wait_for_texts(ROWS, &["slow-report", "reports", "Working"], SHOWN);

    let app = app.restart();
    let w = &app.window;
    app.view("tasks");
    w.wait_for_texts(ROWS, &["slow-report", "Completed"], SHOWN);
    app.press(ROWS, "Open result");
    w.wait_for_text(".task-result", "Report ready after 4000 ms", SHOWN);
    w.screenshot("tasks-view-after-restart");
}

/// A task that ends while the window is closed (the app in the tray) raises a desktop
/// notification that says so.
#[test]
fn a_task_that_ends_while_the_window_is_closed_is_told_in_a_notification() {
    let desktop = Desktop::start();
    let app = App::start_configured(everything_config(), desktop.env());
    app.wait_running("everything");
    app.open_tool("everything", "Simulate Research Query");
    app.fill(DETAIL, "topic", "tides");
    app.invoke();
    close_windows(app.display(), "Switchboard");
    let told = desktop.notification("a task ended");
    assert_eq!(
        told.body,
        "simulate-research-query of everything is done: its result is in the Tasks view"
    );
}
