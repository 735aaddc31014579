//! A person at the real window with an agent that reaches Switchboard over Streamable HTTP
//! (the official TypeScript SDK client): they add it on the Agents page and give it the HTTP
//! entry the page shows; its call is asked about in its name; a new token refuses the old;
//! and a server unchecked for it leaves its list of tools at once.

use serde_json::{Value, json};

use crate::support::agent::Agent;
use crate::support::window::{App, DIALOG, SHOWN, until};

/// Adds the agent `name` on the Agents page; the URL and token of its HTTP entry, as shown
/// once the person asks to see the token (it is hidden until then).
fn add_agent(app: &App, name: &str) -> (String, String) {
    app.add_agent(name);
    let css = snippet(name);
    let hidden = app
        .window
        .wait_for_all(&css, "the HTTP entry", SHOWN, |texts| !texts.is_empty());
    assert!(
        hidden[0].contains("Bearer ••••••••••••\""),
        "the token is hidden until revealed: {}",
        hidden[0]
    );
    app.press(".agent-list li", &format!("Show the token of {name}"));
    http_entry(app, name, None)
}

fn snippet(name: &str) -> String {
    format!(".agent-snippet pre[aria-label='Configuration for {name} over HTTP']")
}

/// The URL and token of the agent's HTTP entry, once it shows a token other than `not`.
fn http_entry(app: &App, name: &str, not: Option<&str>) -> (String, String) {
    let css = snippet(name);
    let read = |text: &str| -> Option<(String, String)> {
        let entry: Value = serde_json::from_str(text).ok()?;
        let entry = &entry["mcpServers"]["switchboard"];
        let token = entry["headers"]["Authorization"]
            .as_str()?
            .strip_prefix("Bearer ")?;
        Some((entry["url"].as_str()?.to_owned(), token.to_owned()))
    };
    let shown = app
        .window
        .wait_for_all(&css, "the HTTP entry", SHOWN, |texts| {
            texts
                .first()
                .and_then(|t| read(t))
                .is_some_and(|(_, token)| Some(token.as_str()) != not)
        });
    read(&shown[0]).expect("an entry")
}

/// The agent's tools once it is told they changed and they show what `done` accepts.
fn tools_once_changed(agent: &mut Agent, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    loop {
        agent.tools_changed(SHOWN);
        let tools = agent.tool_names(SHOWN);
        if done(&tools) {
            return tools;
        }
    }
}

/// Waits until the switches in `scope` take a click again (they rest while a change is saved).
fn switches_ready(app: &App, scope: &str) {
    let busy = format!("{scope} legend input:disabled");
    until("the switches are ready", || app.window.count(&busy) == 0);
}

#[test]
fn an_agent_over_http_uses_the_pages_entry_and_a_new_token_refuses_the_old() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    let (url, token) = add_agent(&app, "Cursor");
    assert_eq!(url, app.gateway_url(), "the app's own port");
    w.screenshot("agents-http-entry");

    let mut agent = Agent::connect_http(&url, &token, SHOWN);
    w.wait_for_text(".agent-list li", "Connected", SHOWN);
    let call = agent.call("demo__echo", json!({"text": "over http"}));
    app.dialog(
        "demo",
        "Cursor wants demo to call echo",
        "dialog-agent-http-call",
    );
    app.press(DIALOG, "Allow once");
    let result = agent.result(&call, SHOWN);
    assert_eq!(result["content"][0]["text"], "over http", "{result}");
    w.wait_for_texts(".agent-calls tbody tr", &["demo", "echo", "allowed"], SHOWN);

    app.press(".agent-list li", "New token for Cursor");
    let (_, renewed) = http_entry(&app, "Cursor", Some(&token));
    let refused = Agent::refused_http(&url, &token, SHOWN);
    assert!(
        refused.contains("401"),
        "the old token is refused: {refused}"
    );
    let mut again = Agent::connect_http(&url, &renewed, SHOWN);
    assert!(again.tool_names(SHOWN).contains(&"demo__echo".to_owned()));
}

#[test]
fn a_server_unchecked_for_an_agent_leaves_its_tools_at_once() {
    let app = App::start_with(|dir| {
        let demo = json!({"command": "switchboard-demo-server"});
        let config = json!({"mcpServers": {"demo": demo, "notes": demo}});
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    });
    let w = &app.window;
    app.wait_running("demo");
    app.wait_running("notes");
    let (url, token) = add_agent(&app, "Cursor");
    let mut agent = Agent::connect_http(&url, &token, SHOWN);
    let tools = agent.tool_names(SHOWN);
    assert!(
        tools.contains(&"demo__echo".to_owned()) && tools.contains(&"notes__echo".to_owned()),
        "{tools:?}"
    );

    app.view("agents");
    w.click(&w.find(".agent-list li .agent-reach summary"));
    let notes = "fieldset[aria-label='notes for Cursor']";
    w.wait_for_text(notes, "all", SHOWN);
    w.click(&w.field(notes, "notes"));
    let tools = tools_once_changed(&mut agent, |tools| {
        !tools.iter().any(|t| t.starts_with("notes__"))
    });
    assert!(tools.contains(&"demo__echo".to_owned()), "{tools:?}");
    w.wait_for_text(".agent-list li", "servers: demo", SHOWN);

    // A tool turned off for it alone goes too.
    let demo = "fieldset[aria-label='demo for Cursor']";
    switches_ready(&app, demo);
    w.click(&w.field(demo, "Echo"));
    let tools = tools_once_changed(&mut agent, |tools| {
        !tools.contains(&"demo__echo".to_owned())
    });
    assert!(tools.contains(&"demo__add".to_owned()), "{tools:?}");
    w.wait_for_text(demo, "1 turned off for Cursor", SHOWN);
    w.screenshot("agent-reach");
    assert_eq!(
        app.config()["agents"]["Cursor"],
        json!({"servers": ["demo"], "disabledTools": {"demo": ["echo"]}})
    );
}
