//! A person at the real window with an agent that can answer for them (the official
//! TypeScript SDK client through `switchboard-cli bridge`): the switch on the Agents page
//! decides whether a server's sampling during the agent's call goes to the agent or to the
//! person; the folders the agent offers reach its servers only as the person keeps them.

use serde_json::json;

use crate::support;
use crate::support::agent::Agent;
use crate::support::window::{App, DIALOG, SHOWN};

const AGENT: &str = "Claude Code";
const AUDIT_ROWS: &str = ".audit-table tbody tr";
/// What the agent's own model answers (`tests/peers/gateway-answers.json`).
const AGENTS_REPLY: &str = "The agent's own model answers: 42";

/// The agent calls the demo server's `ask_model`; the person allows the call.
fn ask_model(app: &App, agent: &mut Agent) -> String {
    let call = agent.call("demo__ask_model", json!({"question": "Why?"}));
    app.dialog(
        "demo",
        &format!("{AGENT} wants demo to call ask_model"),
        "dialog-agent-ask-model",
    );
    app.press(DIALOG, "Allow once");
    call
}

#[test]
fn the_switch_decides_whether_the_agent_or_the_person_answers_a_servers_sampling() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    app.add_agent(AGENT);
    let mut agent = Agent::connect_declaring(AGENT, &app.gateway_socket(), &["--answers"], SHOWN);
    w.wait_for_text(".agent-list li", "Connected", SHOWN);

    // Off at first: the person is asked, though the agent could answer.
    let call = ask_model(&app, &mut agent);
    app.dialog(
        "demo",
        "System prompt",
        "dialog-sampling-for-an-agents-call",
    );
    app.press(DIALOG, "Decline");
    app.no_dialog();
    let refused = agent.result(&call, SHOWN);
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused.to_string().contains("the user declined"),
        "the server was told the person declined: {refused}"
    );

    // Switched on: the agent's own model answers, with no dialog for the person.
    let sampling = ".agent-answers input[type='checkbox']";
    w.click(&w.find(sampling));
    let checked = || {
        w.execute(
            "return document.querySelector(arguments[0]).checked && !document.querySelector(arguments[0]).disabled;",
            json!([sampling]),
        ) == json!(true)
    };
    support::window::until("the switch on and saved", checked);
    w.screenshot("agent-answers-on");
    let call = ask_model(&app, &mut agent);
    agent.asked("sampling/createMessage", SHOWN);
    let result = agent.result(&call, SHOWN);
    assert!(result.to_string().contains(AGENTS_REPLY), "{result}");
    // The call's own dialog goes; none comes for the sampling.
    app.no_dialog();

    // The audit trail says who answered.
    app.view("activity");
    w.wait_for_all(
        AUDIT_ROWS,
        "the sampling answered by the agent",
        SHOWN,
        |rows| {
            rows.iter()
                .any(|r| r.contains("sampling") && r.contains(&format!("agent {AGENT}")))
        },
    );
}

#[test]
fn an_agents_folders_reach_its_servers_only_as_the_person_keeps_them() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    app.add_agent(AGENT);
    let folder = |name: &str| {
        let path = app.dir.path().join(name);
        std::fs::create_dir(&path).expect("a folder");
        path.canonicalize().expect("a real path")
    };
    let (kept, dropped) = (folder("kept"), folder("dropped"));
    let uris = format!("file://{},file://{}", kept.display(), dropped.display());
    let mut agent =
        Agent::connect_declaring(AGENT, &app.gateway_socket(), &["--roots", &uris], SHOWN);

    // The offer waits for the person, who removes one folder and shares the other.
    let offer = app.review_queued(AGENT, "offers these folders", "dialog-agent-roots");
    assert!(
        offer.contains(&kept.display().to_string()) && offer.contains("demo"),
        "the dialog shows the folders and the servers that would see them: {offer}"
    );
    w.click(&w.find(&format!(
        "{DIALOG} button[aria-label='Remove {}']",
        dropped.display()
    )));
    app.press(DIALOG, "Share these folders");
    app.no_dialog();

    let call = agent.call("demo__list_roots", json!({}));
    app.dialog(
        "demo",
        &format!("{AGENT} wants demo to call list_roots"),
        "dialog-agent-list-roots",
    );
    app.press(DIALOG, "Allow once");
    let listed = agent.result(&call, SHOWN).to_string();
    assert!(listed.contains("kept"), "the folder kept: {listed}");
    assert!(!listed.contains("dropped"), "the folder removed: {listed}");
}
