//! The chat in the real window, with `server-everything` and the stand-in model provider
//! (the OpenAI protocol on 127.0.0.1, answering from a script): the model calls a tool, the
//! approval dialog names the model's conversation, the person allows the call with an
//! edited argument and the model gets the edited call's result; a call the person denies
//! is told to the model, which answers; Stop ends an answer the provider stalls on and
//! Send comes back; and the conversation is all there after the app restarts.
//! Screenshots under `test-artifacts/`.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::peer::StandIn;
use crate::support::window::{App, DIALOG, SHOWN, until};

const COMPOSE: &str = ".chat-compose";
const MODEL_SAYS: &str = ".chat-messages li[aria-label='Model']";
const STREAMING: &str = ".chat-messages li.chat-streaming";
const CARDS: &str = ".chat-messages .tool-card";

const QUESTION: &str = "What is 2 plus 3?";
const SUM_ANSWER: &str = "The tool says: The sum of 20 and 3 is 23.";
// The OpenAI protocol has no error flag on a tool result: the text says it.
const DENIED_ANSWER: &str = "I was told: Error: This tool call was not made: the user denied it.";
const PARTIAL: &str = "Once upon a time, in a land";

/// A resource server-everything lists, which the model reads.
const INSTRUCTIONS: &str = "demo://resource/static/document/instructions.md";

/// The model's turns, one per request, in the order the test sends its messages.
fn script() -> Value {
    json!({"turns": [
        // "What is 2 plus 3?": a tool call, then an answer from its result.
        {"content": [
            {"text": "Let me add them. "},
            {"tool_call": {"name": "everything__get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3}
        ]},
        {"content": [{"text": "The tool says: {tool_result}", "pieces": 4}]},
        // "Echo my secret.": a call the person denies, then what the model was told.
        {"content": [
            {"tool_call": {"name": "everything__echo", "arguments": {"message": "the secret"}}}
        ]},
        {"content": [{"text": "I was told: {tool_result}", "pieces": 3}]},
        // "Tell me a long story.": a start, then nothing more.
        {"content": [{"text": PARTIAL, "pieces": 2}], "stall": true},
        // "Are you still there?"
        {"content": [{"text": "Still here."}]},
        // "Write a haiku.": cut off at the most tokens, then, asked to, it goes on.
        {"content": [{"text": "An old silent pond"}], "stop": "max_tokens"},
        {"content": [{"text": "A frog jumps into the pond."}]},
        // "Read the instructions.": the model reads a resource of a server itself.
        {"content": [{"tool_call": {"name": "switchboard_read_resource",
            "arguments": {"server": "everything", "uri": INSTRUCTIONS}}}]},
        {"content": [{"text": "They say: {tool_result}"}]}
    ]})
}

fn start(stand_in: &StandIn) -> App {
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let url = stand_in.url.clone();
    App::start_with(move |dir| {
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
    })
}

/// server-everything asks for folders when it first starts, on its own: the request waits
/// in the queue, announced without a dialog, until the person opens it; it gets none. Then
/// the chat.
fn ready(app: &App) {
    let w = &app.window;
    w.wait_for_texts(
        ".queued-notice",
        &["everything", "wants to know which folders it may see"],
        SHOWN,
    );
    w.wait_for_text("nav button[data-view='approvals'] .badge", "1", SHOWN);
    w.screenshot("queued-notice");
    app.review_queued(
        "everything",
        "wants to see your folders",
        "dialog-roots-chat",
    );
    app.press(DIALOG, "Share nothing");
    app.no_dialog();
    app.wait_running("everything");
    app.view("chat");
}

/// Waits until the configuration file keeps the choice of folders for `server`: started
/// again, it is not asked.
fn folders_kept(app: &App, server: &str) {
    until("the choice of folders kept in the file", || {
        app.config()["settings"]["sharedFolders"]
            .as_array()
            .is_some_and(|grants| grants.iter().any(|g| g["server"] == server))
    });
}

fn send(app: &App, message: &str) {
    let field = app
        .window
        .find(&format!("{COMPOSE} textarea[aria-label='Message']"));
    app.window.type_into(&field, message, true);
    app.press(COMPOSE, "Send");
}

/// Waits until the model's kept messages include one showing `wanted`.
fn model_said(app: &App, wanted: &str) -> String {
    app.window.wait_for_text(MODEL_SAYS, wanted, SHOWN)
}

/// Waits until the compose form offers Send again (no Stop): the run is over.
fn send_is_back(app: &App) {
    app.window
        .wait_for_all(&format!("{COMPOSE} button"), "Send, not Stop", SHOWN, |b| {
            b.iter().any(|t| t == "Send") && !b.iter().any(|t| t == "Stop")
        });
}

/// The tool results the `n`th model request (from 0) carried back to the model.
fn results_sent(stand_in: &StandIn, n: usize) -> Vec<String> {
    let asked = stand_in.asked();
    let request = asked
        .get(n)
        .unwrap_or_else(|| panic!("request {n}: {asked:?}"));
    request["body"]["messages"]
        .as_array()
        .expect("the request's messages")
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect()
}

#[test]
fn a_conversation_with_tool_calls_allowed_and_denied_stopped_and_kept() {
    let stand_in = StandIn::start(&script());
    let app = start(&stand_in);
    let w = &app.window;
    ready(&app);

    // The model calls get-sum: the dialog says it is the model of this conversation.
    send(&app, QUESTION);
    let named = format!("A model in conversation “{QUESTION}” wants to call get-sum");
    app.dialog("everything", &named, "dialog-chat-tool-call");
    let arguments = w.find(&format!("{DIALOG} textarea"));
    assert!(
        w.value(&arguments).contains("\"a\": 2"),
        "{}",
        w.value(&arguments)
    );
    w.replace_text(&arguments, r#"{"a": 20, "b": 3}"#);
    w.wait_for_text(DIALOG, "the tool receives your version", SHOWN);
    app.press(DIALOG, "Allow once");
    app.no_dialog();

    // The edited call ran, its result went to the model, and the model's answer shows.
    model_said(&app, SUM_ANSWER);
    w.wait_for_text(".chat-head h2", QUESTION, SHOWN);
    let card = w.wait_for_texts(CARDS, &["get-sum of everything", "Done"], SHOWN);
    assert!(card.contains("The sum of 20 and 3 is 23."), "{card}");
    send_is_back(&app);
    // The model was told its arguments were changed, and the window says so as the host's.
    w.wait_for_text(
        ".chat-messages li[aria-label='Note']",
        "You changed the arguments of get-sum before it ran",
        SHOWN,
    );
    w.screenshot("chat-tool-card");
    let results = results_sent(&stand_in, 1);
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(
        results[0].contains("The sum of 20 and 3 is 23."),
        "the model got the edited call's result: {results:?}"
    );

    // A call the person denies: the model is told so, and its answer shows.
    send(&app, "Echo my secret.");
    app.dialog("everything", "echo", "dialog-chat-tool-call-to-deny");
    app.press(DIALOG, "Deny");
    app.no_dialog();
    model_said(&app, DENIED_ANSWER);
    w.wait_for_texts(CARDS, &["echo of everything", "Denied"], SHOWN);
    send_is_back(&app);
    let results = results_sent(&stand_in, 3);
    assert!(
        results.len() == 2 && results[1].contains("the user denied it"),
        "{results:?}"
    );

    // The provider stalls mid-answer: Stop ends it, what came is kept, Send is back.
    send(&app, "Tell me a long story.");
    w.wait_for_text(STREAMING, PARTIAL, SHOWN);
    w.screenshot("chat-streaming");
    // The conversation is longer than the window: it scrolls, the compose form stays in view.
    assert_eq!(
        w.hit(&format!("{COMPOSE} button.danger")),
        "the element",
        "Stop is in view while the model writes"
    );
    app.press(COMPOSE, "Stop");
    send_is_back(&app);
    model_said(&app, PARTIAL);
    assert_eq!(w.count(STREAMING), 0, "nothing is still being written");
    send(&app, "Are you still there?");
    model_said(&app, "Still here.");
    send_is_back(&app);
    // What the run cost, as the provider counted it.
    w.wait_for_text(".chat-usage", "tokens read", SHOWN);
    // An answer cut off at its most tokens says so, and "Continue" asks the model to go on.
    send(&app, "Write a haiku.");
    model_said(&app, "An old silent pond");
    let notice = ".chat-notice";
    w.wait_for_text(notice, "The answer was cut off", SHOWN);
    w.screenshot("chat-cut-off");
    app.press(notice, "Continue");
    model_said(&app, "A frog jumps into the pond.");
    send_is_back(&app);
    assert_eq!(w.count(notice), 0, "said once, for the answer it was about");
    assert_eq!(stand_in.asked().len(), 8);
    // The model was asked to go on in a turn of its own; the conversation keeps no such turn.
    let last = stand_in.asked()[7]["body"]["messages"].to_string();
    assert!(last.contains("Continue."), "{last}");
    assert!(
        !w.texts(".chat-messages li[aria-label='You']")
            .iter()
            .any(|t| t.contains("Continue.")),
        "not a message of the person's"
    );

    // The model reads a server's resource itself: the person is asked, as for a call.
    send(&app, "Read the instructions.");
    let named = format!("A model in conversation “{QUESTION}” wants to read {INSTRUCTIONS}");
    app.dialog("everything", &named, "dialog-chat-read");
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    model_said(&app, &format!("They say: [resource {INSTRUCTIONS}]"));
    send_is_back(&app);
    w.screenshot("chat-model-read");

    // After a restart the conversation is listed under its first message, all of it kept.
    folders_kept(&app, "everything");
    let app = app.restart();
    let w = &app.window;
    app.wait_running("everything");
    app.view("chat");
    w.wait_for_text(".chat-entry-title", QUESTION, SHOWN);
    let entry = w.find(".chat-list li button");
    let dated = w.execute(
        "return document.querySelector('.chat-entry time').getAttribute('datetime');",
        json!([]),
    );
    assert!(
        dated.as_str().is_some_and(|d| d.starts_with("20")),
        "the conversation is listed with its date: {dated}"
    );
    w.click(&entry);
    w.wait_for_text(".chat-head h2", QUESTION, SHOWN);
    let said = w.wait_for_all(MODEL_SAYS, "every answer", SHOWN, |said| {
        said.len() >= 4 && said.iter().any(|s| s.contains("Still here."))
    });
    let all = said.join("\n");
    for wanted in [SUM_ANSWER, DENIED_ANSWER, PARTIAL, "Still here."] {
        assert!(all.contains(wanted), "{wanted:?} is kept: {said:?}");
    }
    let you = w.texts(".chat-messages li[aria-label='You']").join("\n");
    for asked in [
        QUESTION,
        "Echo my secret.",
        "Tell me a long story.",
        "Are you still there?",
    ] {
        assert!(you.contains(asked), "{asked:?} is kept: {you}");
    }
    let card = w.wait_for_texts(CARDS, &["get-sum of everything", "Done"], SHOWN);
    assert!(card.contains("The sum of 20 and 3 is 23."), "{card}");
    // The denied call was never made: kept, it says so rather than that the tool failed.
    let denied = w.wait_for_texts(CARDS, &["echo of everything", "Not run"], SHOWN);
    assert!(denied.contains("the user denied it"), "{denied}");
    w.screenshot("chat-after-restart");
    // Exporting offers its forms, which a click on one writes through the save dialog.
    app.press(".chat-head", "Export");
    w.wait_for_text(".chat-export", "Markdown", SHOWN);
    w.screenshot("chat-export");
    app.press(".chat-head", "Export");
    assert_eq!(w.count(".chat-export"), 0);
    assert_eq!(
        w.count(DIALOG),
        0,
        "the folders chosen before were not asked again"
    );
}
