//! MCP Apps in the real window, with the extension's own example server
//! (`@modelcontextprotocol/server-basic-vanillajs`): its tool called from the Explorer, its
//! view shows in a frame that says whose app it is, served on its server's own origin,
//! and is given the call's result, which it shows; the view's own call of its tool asks
//! the person first, naming the app, and its result reaches the view.

use std::path::Path;

use serde_json::json;

use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};

const FRAME: &str = ".view-frame iframe";

#[test]
fn a_tools_view_is_shown_in_a_frame_of_its_own_and_given_the_result() {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js",
    );
    assert!(
        server.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let app = App::start_with(move |dir| {
        let config =
            json!({"mcpServers": {"basic": {"command": "node", "args": [server, "--stdio"]}}});
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    });
    let w = &app.window;
    app.wait_running("basic");
    app.open_tool("basic", "Get Time");
    // It says nothing of itself, so it may destroy something: the person is asked first.
    app.invoke_allowed("basic", "get-time");
    // The result as the server gave it: an ISO 8601 time.
    let result = app.result("T");
    let time = result
        .split_whitespace()
        .find(|word| word.contains('T') && word.ends_with('Z'))
        .unwrap_or_else(|| panic!("a time in {result:?}"))
        .to_owned();

    w.wait_for_text(
        &format!("{DETAIL} .view-frame-head"),
        "App from basic",
        SHOWN,
    );
    let src = w.attribute(&w.find(FRAME), "src").unwrap_or_default();
    assert!(
        src.starts_with("http://127.0.0.1:"),
        "on a loopback origin: {src}"
    );
    let sandbox = w.attribute(&w.find(FRAME), "sandbox").unwrap_or_default();
    assert_eq!(sandbox, "allow-scripts allow-same-origin");

    // Inside the frame, the app shows the time it was given.
    w.enter_frame(&w.find(FRAME));
    let shown = w.wait_for_all("#server-time", "the time the app shows", SHOWN, |texts| {
        texts.iter().any(|t| t != "Loading..." && !t.is_empty())
    });
    w.leave_frames();
    assert!(
        shown.iter().any(|t| t.contains(&time)),
        "{shown:?} shows {time}"
    );
    until("the frame shown", || {
        w.rects(FRAME).first().is_some_and(|r| r.bottom > r.top)
    });
    w.scroll_to(FRAME);
    w.screenshot("app-view-explorer");

    // The view calls its tool itself: the person is asked, the app named.
    w.enter_frame(&w.find(FRAME));
    w.click(&w.find("#get-time-btn"));
    w.leave_frames();
    app.dialog(
        "basic",
        "The app of basic wants to call get-time",
        "dialog-app-tool-call",
    );
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    w.enter_frame(&w.find(FRAME));
    let later = w.wait_for_all("#server-time", "a later time", SHOWN, |texts| {
        texts.iter().any(|t| t.contains('T') && !t.contains(&time))
    });
    w.leave_frames();
    assert!(later.iter().all(|t| !t.contains("rror")), "{later:?}");
}
