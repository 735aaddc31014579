//! Sampling drafted by a model, in the real window: `server-everything`'s
//! `trigger-sampling-request` asks for a model's reply; the person approves the request,
//! the configured model (the stand-in provider, the OpenAI protocol on 127.0.0.1) drafts
//! the reply, the person edits the draft and sends it, and the tool's result shows the
//! edited text; and a draft that calls a tool, shown and edited in the dialog.
//! Screenshots under `test-artifacts/`.

use std::path::Path;

use serde_json::json;

use crate::support::peer::StandIn;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN};

const DRAFT: &str = "Paris is the capital of France.";
const EDITED: &str = "Paris, as the person edited it.";

#[test]
fn a_sampling_request_drafted_by_the_model_is_edited_and_sent() {
    let stand_in = StandIn::start(&json!({"turns": [
        {"content": [{"text": DRAFT, "pieces": 3}]}
    ]}));
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let url = stand_in.url.clone();
    let app = App::start_with(move |dir| {
        let config = json!({
            "mcpServers": {"everything": {"command": "node", "args": [everything, "stdio"]}},
            "providers": {"standin": {
                "protocol": "openai", "baseUrl": format!("{url}/v1"),
                "models": ["model-test"], "defaultModel": "model-test",
            }},
            "settings": {"defaultProvider": "standin"},
        });
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    });
    let w = &app.window;
    app.review_queued(
        "everything",
        "wants to see your folders",
        "dialog-roots-sampling",
    );
    app.press(DIALOG, "Share nothing");
    app.no_dialog();
    app.wait_running("everything");

    // The person calls the tool; the server asks for a model's reply.
    app.open_tool("everything", "Trigger Sampling Request Tool");
    app.fill(DETAIL, "prompt", "What is the capital of France?");
    app.invoke();
    let text = app.dialog(
        "everything",
        "wants a reply from a model",
        "dialog-sampling-everything",
    );
    assert!(text.contains("Review the request"), "{text}");
    let system = w.field(DIALOG, "System prompt");
    assert_eq!(w.value(&system), "You are a helpful test server.");
    let message = w.field(DIALOG, "Message 1 (user)");
    assert_eq!(
        w.value(&message),
        "Resource trigger-sampling-request context: What is the capital of France?"
    );
    assert!(
        stand_in.asked().is_empty(),
        "the model is not asked before the person approves the request"
    );

    // Approved: the model drafts the reply; the person edits it.
    app.press(DIALOG, "Next: write the reply");
    w.wait_for_text(DIALOG, "Drafted by", SHOWN);
    let reply = w.field(DIALOG, "Your reply");
    assert_eq!(w.value(&reply), DRAFT);
    w.screenshot("dialog-sampling-draft");
    let asked = stand_in.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let body = &asked[0]["body"];
    assert_eq!(body["model"], "model-test");
    let sent = body["messages"].to_string();
    assert!(sent.contains("You are a helpful test server."), "{sent}");
    assert!(
        sent.contains("Resource trigger-sampling-request context: What is the capital of France?"),
        "{sent}"
    );
    app.fill(DIALOG, "Your reply", EDITED);
    app.press(DIALOG, "Next: review the reply");
    let reply = w.field(DIALOG, "Reply to send");
    assert_eq!(w.value(&reply), EDITED);
    app.press(DIALOG, "Send reply");
    app.no_dialog();

    // The server got the edited text as the model's reply.
    let result = app.result(EDITED);
    assert!(!result.contains(DRAFT), "{result}");
    w.screenshot("sampling-result");
}

/// The demo's `ask_model` with its clock: the model (the stand-in) drafts a call of
/// `demo.clock`, which the dialog shows with its arguments; the person edits them and
/// sends the reply; the demo runs its clock and asks again with the result, and the
/// model's answer from it is the tool's result. The edited call is what went back.
#[test]
fn a_sampling_draft_that_calls_a_tool_is_reviewed_and_edited_in_the_window() {
    // The name the model is given for `demo.clock`, which the providers would refuse.
    let clock = switchboard_chat::naming::provider_name("demo.clock");
    let stand_in = StandIn::start(&json!({"turns": [
        {"content": [
            {"text": "Let me read the clock. "},
            {"tool_call": {"name": clock, "arguments": {"zone": "local"}}}
        ]},
        {"content": [{"text": "It is noon: {tool_result}"}]}
    ]}));
    let url = stand_in.url.clone();
    let app = App::start_with(move |dir| {
        let config = json!({
            "mcpServers": {"demo": {"command": "switchboard-demo-server"}},
            "providers": {"standin": {
                "protocol": "openai", "baseUrl": format!("{url}/v1"),
                "models": ["model-test"], "defaultModel": "model-test",
            }},
        });
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    });
    let w = &app.window;
    app.wait_running("demo");
    app.open_tool("demo", "Ask the host's model");
    app.fill(DETAIL, "question", "What time is it?");
    w.click(&w.field(DETAIL, "use_clock"));
    app.invoke();
    app.dialog(
        "demo",
        "wants a reply from a model",
        "dialog-sampling-tools",
    );
    app.press(DIALOG, "Next: write the reply");
    w.wait_for_text(DIALOG, "Drafted by model-test of standin", SHOWN);
    // The call, by the name the server gave its tool, with the model's arguments.
    w.wait_for_text(DIALOG, "The model calls demo.clock", SHOWN);
    let arguments = w.field(DIALOG, "Arguments of demo.clock");
    assert!(
        w.value(&arguments).contains("\"local\""),
        "{}",
        w.value(&arguments)
    );
    w.replace_text(&arguments, r#"{"zone": "UTC"}"#);
    w.screenshot("dialog-sampling-tool-call");
    app.press(DIALOG, "Next: review the reply");
    w.wait_for_text(DIALOG, "toolUse", SHOWN);
    app.press(DIALOG, "Send reply");

    // The demo ran its clock and asks again with the result.
    app.dialog(
        "demo",
        "wants a reply from a model",
        "dialog-sampling-tool-result",
    );
    app.press(DIALOG, "Next: write the reply");
    w.wait_for_text(DIALOG, "Drafted by", SHOWN);
    app.press(DIALOG, "Next: review the reply");
    app.press(DIALOG, "Send reply");
    app.no_dialog();
    app.result("It is noon: The demo's clock says 12:00 UTC.");

    let asked = stand_in.asked();
    assert_eq!(asked.len(), 2, "{asked:?}");
    let history = asked[1]["body"]["messages"].to_string();
    assert!(
        history.contains(r#"{\"zone\":\"UTC\"}"#),
        "the call went back as the person edited it: {history}"
    );
}
