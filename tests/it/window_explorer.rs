//! The Explorer in the real window: a resource a result links to opens there and is read;
//! a call the server refuses until the person visited a page offers the page, then a retry;
//! and what the person turns on and off around it, kept in the configuration file: one tool
//! of a server (gone from the Explorer, then back), and whether their own calls of tools
//! that may destroy ask first.

use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};

#[test]
fn a_tool_turned_off_leaves_the_explorer_and_own_calls_can_run_unasked() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    // Echo turned off in the server's settings: the Explorer no longer offers it.
    app.select_server("demo");
    let echo = w.field(".server-tools", "Echo");
    w.click(&echo);
    w.wait_for_text(".server-tools h3", "1 of", SHOWN);
    w.screenshot("server-tools-echo-off");
    assert_eq!(
        app.config()["mcpServers"]["demo"]["disabledTools"],
        serde_json::json!(["echo"])
    );
    // The whole catalog in view: the server's other tools, and no Echo.
    app.view("explorer");
    let search = w.find("input[aria-label='Search tools, resources and prompts']");
    w.type_into(&search, "", true);
    w.button(".catalog", "Add a note on demo");
    let entries = w.texts(".catalog-entry");
    assert!(
        !entries.iter().any(|e| e.starts_with("Echo")),
        "a tool turned off is not offered: {entries:?}"
    );

    // Turned on again: offered again, without the server having restarted.
    app.select_server("demo");
    w.click(&w.field(".server-tools", "Echo"));
    w.wait_for_text(".server-tools h3", "all", SHOWN);
    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "back again");
    app.invoke();
    app.result("back again");

    // Confirmation of the person's own destructive calls, turned off on the Trust page.
    app.view("trust");
    w.click(&w.field(".own-calls", "Ask me before"));
    until("the choice kept in the file", || {
        app.config()["settings"]["confirmOwnDestructiveCalls"] == false
    });
    app.open_tool("demo", "Add a note");
    app.fill(DETAIL, "title", "doomed");
    app.fill(DETAIL, "text", "x");
    app.invoke();
    app.result("doomed");
    app.open_tool("demo", "Delete a note");
    app.fill(DETAIL, "title", "doomed");
    app.press(DETAIL, "Invoke");
    app.result("deleted the note");
    app.no_dialog();
}

#[test]
fn a_resource_a_result_links_to_opens_in_the_explorer_and_is_read() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    app.open_tool("demo", "Show every content type");
    app.invoke();
    w.click(&w.button(DETAIL, "Read"));
    // The resource's own detail, its contents read without another click.
    w.wait_for_text(&format!("{DETAIL} .detail-uri"), "demo://logo.png", SHOWN);
    let read = format!("{DETAIL} .resource-contents .resource-uri");
    w.wait_for_text(&read, "demo://logo.png", SHOWN);
    w.find(&format!("{DETAIL} .resource-contents img"));
    w.screenshot("explorer-linked-resource-read");
}

#[test]
fn a_call_refused_until_a_page_is_visited_offers_the_page_then_a_retry() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    app.open_tool("demo", "Connect an account");
    app.invoke();
    app.dialog("demo", "example.com", "dialog-url-before-call");
    app.press(DIALOG, "Open in browser");
    let said = w.wait_for_text(
        &format!("{DETAIL} [role='alert']"),
        "try the call again",
        SHOWN,
    );
    assert!(said.contains("in your browser"), "{said}");
    until("the browser asked", || app.opened.exists());
    let opened = std::fs::read_to_string(&app.opened).expect("the browser's note");
    assert_eq!(opened.trim(), "https://example.com/demo-connect");
    w.screenshot("explorer-retry-after-page");
    app.press(DETAIL, "Try again");
    app.result("connected");
}
