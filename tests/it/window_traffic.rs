//! A person reads the demo server's traffic in the real window: the handshake's requests
//! with their responses, then, after calling a tool, only `tools/call` once filtered, and
//! one message opened to read its JSON beside its response; then the traffic cleared, and
//! only what came after it shown.

use crate::support::window::{App, DETAIL, SHOWN};

const TABS: &str = ".servers-detail [role='tablist']";
const ROWS: &str = ".traffic-pane .traffic-entry";
const FILTER: &str = ".traffic-pane input[aria-label='Filter traffic']";

/// Whether the rows show a request for `method` the server answered, and its response.
fn exchanged(rows: &[String], method: &str) -> bool {
    let asked = rows
        .iter()
        .any(|r| r.contains('→') && r.contains(method) && r.contains("answered in"));
    let answered = rows
        .iter()
        .any(|r| r.contains('←') && r.contains(method) && r.contains("response"));
    asked && answered
}

fn open_traffic(app: &App) {
    app.select_server("demo");
    app.window.click(&app.window.button(TABS, "Traffic"));
}

#[test]
fn a_person_reads_the_handshake_filters_to_a_tool_call_opens_it_and_clears_it() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    open_traffic(&app);
    w.wait_for_all(
        ROWS,
        "initialize and tools/list, each answered",
        SHOWN,
        |rows| exchanged(rows, "initialize") && exchanged(rows, "tools/list"),
    );
    w.scroll_to(".traffic-pane");
    w.screenshot("traffic-handshake");

    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "hello, traffic");
    app.invoke();
    app.result("hello, traffic");

    open_traffic(&app);
    let filter = w.find(FILTER);
    w.type_into(&filter, "tools/call", true);
    let rows = w.wait_for_all(ROWS, "only the tool call and its response", SHOWN, |rows| {
        rows.len() == 2
            && rows.iter().all(|r| r.contains("tools/call"))
            && exchanged(rows, "tools/call")
    });
    assert!(rows[0].contains('→') && rows[1].contains('←'), "{rows:?}");

    w.click(&w.find(&format!("{ROWS} button.traffic-summary")));
    let detail = w.wait_for_texts(
        ".traffic-pane .traffic-detail",
        &[
            "\"method\": \"tools/call\"",
            "\"name\": \"echo\"",
            "Its response",
            "hello, traffic",
        ],
        SHOWN,
    );
    assert!(detail.contains("Copy JSON"), "{detail}");
    w.scroll_to(".traffic-pane .traffic-detail");
    w.screenshot("traffic-tool-call-open");

    w.click(&w.button(".traffic-pane", "Clear traffic"));
    w.wait_for_text(".traffic-pane .traffic-list", "No messages yet.", SHOWN);
    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "after the clear");
    app.invoke();
    app.result("after the clear");
    open_traffic(&app);
    w.wait_for_all(ROWS, "the new call alone", SHOWN, |rows| {
        exchanged(rows, "tools/call") && !rows.iter().any(|r| r.contains("initialize"))
    });
}
