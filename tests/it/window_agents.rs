//! A person at the real window with an agent on the machine: they add it on the Agents page,
//! the agent (the official TypeScript SDK client, through `switchboard-cli bridge`) calls a
//! tool of the demo server, the dialog names the agent, the person allows the call, the
//! agent gets the result, and the agent's page and the audit trail name it. A resource the
//! agent reads is asked about too, saying what it reads; the person allows its reads of the
//! server until quit, which the Trust page then lists.

use serde_json::json;

use crate::support::agent::Agent;
use crate::support::window::{App, DIALOG, SHOWN};

const AUDIT_ROWS: &str = ".audit-table tbody tr";

#[test]
fn an_agents_call_is_asked_about_in_its_name_and_recorded_as_its_own() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    app.add_agent("Claude Code");
    w.wait_for_text(".agent-snippet pre", "\"--agent\"", SHOWN);

    let mut agent = Agent::connect("Claude Code", &app.gateway_socket(), SHOWN);
    w.wait_for_text(".agent-list li", "Connected", SHOWN);
    let call = agent.call("demo__echo", json!({"text": "from an agent"}));
    let asked = app.dialog(
        "demo",
        "Claude Code wants demo to call echo",
        "dialog-agent-tool-call",
    );
    assert!(asked.contains("Claims made by demo"), "{asked}");
    let arguments = w.value(&w.field(DIALOG, "Arguments (JSON, you may edit them)"));
    assert!(
        arguments.contains("from an agent"),
        "the arguments are shown: {arguments}"
    );
    app.press(DIALOG, "Allow once");
    let result = agent.result(&call, SHOWN);
    assert_eq!(result["content"][0]["text"], "from an agent", "{result}");

    // The agent's recent calls, and the audit trail, name it.
    w.wait_for_texts(".agent-calls tbody tr", &["demo", "echo", "allowed"], SHOWN);
    w.screenshot("agents-page");

    app.view("activity");
    let rows = w.wait_for_all(AUDIT_ROWS, "the agent's call", SHOWN, |rows| {
        rows.first()
            .is_some_and(|row| row.contains("agent Claude Code"))
    });
    assert!(
        rows[0].contains("echo") && rows[0].contains("allowed"),
        "{rows:?}"
    );

    let read = agent.read("demo://readme");
    app.dialog(
        "demo",
        "Claude Code wants to read demo://readme from demo",
        "dialog-agent-read",
    );
    app.press(DIALOG, "Allow reading this server until quit");
    let contents = agent.result(&read, SHOWN);
    assert!(
        contents.to_string().contains("The Switchboard demo server"),
        "{contents}"
    );
    app.view("trust");
    w.wait_for_text(".trust-table", "its resources and prompts", SHOWN);
    w.screenshot("trust-reads-rule");
}
