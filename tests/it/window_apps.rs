//! MCP Apps in the real window. With each of the extension's example servers
//! (`@modelcontextprotocol/server-basic-vanillajs` and `server-basic-react`): its tool
//! called from the Explorer, its view shows in a frame that says whose app it is, served on
//! its server's own origin, and is given the call's result, which it shows; the view's own
//! call of its tool asks the person first, naming the app, and its result reaches the view;
//! it goes over the whole window and back; and a model's call of the tool in the chat shows
//! it under the call. With the project's
//! own app (`tests/peers/node/apps-server.mjs`, built with the extension's SDK): every
//! message a view may send, each answered as the host should (asked, refused, shown), full
//! screen and back, and a sandbox its probes cannot leave.

use std::path::Path;

use serde_json::json;

use crate::support::peer::{StandIn, node_binary};
use crate::support::webdriver::Session as Window;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};

const FRAME: &str = ".view-frame iframe";
const CHAT_FRAMES: &str = ".chat-messages .tool-card .view-frame iframe";
const CHAT_FRAMES_NTH: &str = ".chat-messages .tool-card:nth-of-type";

/// The extension's example servers: each one's package, and where its view shows the time.
const EXAMPLES: &[(&str, &str)] = &[
    ("server-basic-vanillajs", "#server-time"),
    ("server-basic-react", "p code"),
];

#[test]
fn the_example_apps_show_in_the_explorer_and_the_chat_and_call_their_tool_through_the_gate() {
    for (example, time_shown) in EXAMPLES {
        example_app(example, time_shown);
    }
}

/// The time `frame`'s app shows once it shows one other than `not`.
fn shown_time(w: &Window, frame: &str, time_shown: &str, not: &str) -> String {
    w.enter_frame(&w.find(frame));
    let shown = w.wait_for_all(time_shown, "a time the app shows", SHOWN, |texts| {
        texts.iter().any(|t| t.contains('T') && !t.contains(not))
    });
    w.leave_frames();
    shown.join(" ")
}

fn example_app(example: &str, time_shown: &str) {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/peers/node/node_modules/@modelcontextprotocol/{example}/dist/index.js"
    ));
    assert!(
        server.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let stand_in = StandIn::start(&json!({"turns": [
        {"content": [{"tool_call": {"name": "basic__get-time", "arguments": {}}}]},
        {"content": [{"text": "The server says {tool_result}"}]}
    ]}));
    let (providers, settings) = stand_in.configured();
    let app = App::start_configured(
        json!({
            "mcpServers": {"basic": {"command": node_binary(), "args": [server, "--stdio"]}},
            "providers": providers,
            "settings": settings,
        }),
        Vec::new(),
    );
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
    let shown = shown_time(w, FRAME, time_shown, "Loading");
    assert!(shown.contains(&time), "{example}: {shown} shows {time}");
    until("the frame shown", || {
        w.rects(FRAME).first().is_some_and(|r| r.bottom > r.top)
    });
    w.scroll_to(FRAME);
    w.screenshot(&format!("app-view-explorer-{example}"));

    // The view calls its tool itself: the person is asked, the app named.
    w.enter_frame(&w.find(FRAME));
    w.click(&w.button("body", "Get Server Time"));
    w.leave_frames();
    app.dialog(
        "basic",
        "The app of basic wants to call get-time",
        &format!("dialog-app-tool-call-{example}"),
    );
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    let later = shown_time(w, FRAME, time_shown, &time);
    assert!(!later.contains("rror"), "{example}: {later}");

    // Over the whole window and back, as the person asks.
    app.press(".view-frame-head", "Full screen");
    until("the app over the whole window", || {
        w.count(".view-frame.fullscreen") == 1
            && w.rects(FRAME)
                .first()
                .is_some_and(|r| r.bottom - r.top > 600.0)
    });
    w.screenshot(&format!("app-fullscreen-{example}"));
    app.press(".view-frame-head", "Back to inline");
    until("the app inline again", || {
        w.count(".view-frame.fullscreen") == 0
    });

    // In the chat: the model's call, allowed, shows the app under it with the result.
    app.view("chat");
    until("the default model chosen", || {
        w.value(&w.find(".chat-compose .chat-model input")) == "model-test"
    });
    let field = w.find(".chat-compose textarea[aria-label='Message']");
    w.type_into(&field, "What time is it?", true);
    app.press(".chat-compose", "Send");
    app.dialog(
        "basic",
        "wants to call get-time",
        &format!("dialog-chat-app-{example}"),
    );
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    w.wait_for_text(
        ".chat-messages li[aria-label='Model']",
        "The server says",
        SHOWN,
    );
    until("the app under the call", || w.count(CHAT_FRAMES) == 1);
    let in_chat = shown_time(w, CHAT_FRAMES, time_shown, "Loading");
    assert!(!in_chat.contains("rror"), "{example}: {in_chat}");
    w.execute(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});",
        json!([".chat-messages .tool-card"]),
    );
    w.screenshot(&format!("app-view-chat-{example}"));
}

/// The project's own app, as the configuration names it.
fn board_server() -> serde_json::Value {
    board_saying("")
}

/// The project's own app, its view saying `variant`.
fn board_saying(variant: &str) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/node/apps-server.mjs");
    json!({"command": node_binary(), "args": [script, "--stdio"], "env": {"BOARD_VARIANT": variant}})
}

/// Inside the frame `frame`, presses the view's button `action` and waits for what the
/// host answered, as the view wrote it down.
fn act(w: &Window, frame: &str, action: &str) -> String {
    press_in_view(w, frame, action);
    logged(w, frame, action)
}

fn press_in_view(w: &Window, frame: &str, action: &str) {
    // In sight first, as a person would scroll to it: a click is where the button shows,
    // and the buttons are at the top of the app.
    w.execute(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});",
        json!([frame]),
    );
    w.enter_frame(&w.find(frame));
    w.click(&w.find(&format!("button#{action}")));
    w.leave_frames();
}

/// The line the view wrote of `action`'s answer.
fn logged(w: &Window, frame: &str, action: &str) -> String {
    w.enter_frame(&w.find(frame));
    let line = w.wait_for_text(&format!("#log li[data-action='{action}']"), action, SHOWN);
    w.leave_frames();
    line
}

/// What the view shows under `id` (the input, the result, its display mode).
fn shows(w: &Window, frame: &str, id: &str, wanted: &str) -> String {
    w.enter_frame(&w.find(frame));
    let text = w.wait_for_text(&format!("#{id}"), wanted, SHOWN);
    w.leave_frames();
    text
}

#[test]
fn the_projects_own_app_is_answered_as_the_host_should_for_every_message() {
    let app = App::start_configured(json!({"mcpServers": {"board": board_server()}}), Vec::new());
    let w = &app.window;
    app.wait_running("board");
    app.open_tool("board", "Board");

    // Opened on its own, the app has no call's input; closing it asks it to tidy up first.
    app.press(DETAIL, "Open app");
    w.wait_for_text(
        &format!("{DETAIL} .view-frame-head"),
        "App from board",
        SHOWN,
    );
    shows(w, FRAME, "mode", "inline");
    assert_eq!(shows(w, FRAME, "input", "none"), "none");
    app.press(".view-frame-head", "Close");
    until("the opened app closed", || w.count(FRAME) == 0);

    app.fill(DETAIL, "topic", "weather");
    app.invoke();
    shows(w, FRAME, "input", "{\"topic\":\"weather\"}");
    shows(w, FRAME, "result", "Board about weather");
    w.scroll_to(FRAME);
    w.screenshot("app-own-explorer");

    // Its own server's tool, through the gate as the app's.
    press_in_view(w, FRAME, "call-refresh");
    app.dialog(
        "board",
        "The app of board wants to call refresh",
        "dialog-app-refresh",
    );
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    assert!(logged(w, FRAME, "call-refresh").ends_with("refreshed 1"));

    // Refused with an answer that says why, nothing asked of the person.
    let refused = [
        ("call-models-only", "for models only"),
        ("read-other", "error"),
        (
            "open-file",
            "only web addresses (http, https) may be opened, and file:… is not one",
        ),
        (
            "message",
            "this view is not in a conversation: there is none to write to",
        ),
        (
            "context",
            "this view is not in a conversation: there is no model to tell",
        ),
    ];
    for (action, why) in refused {
        let line = act(w, FRAME, action);
        assert!(
            line.contains("error") && line.contains(why),
            "{action}: {line}"
        );
        assert_eq!(w.count(DIALOG), 0, "{action} asks nothing");
    }
    assert_eq!(
        act(w, FRAME, "read-own"),
        "read-own: Three cards on the board"
    );

    // A web page and a file are the person's to agree to; declined, the app is told.
    press_in_view(w, FRAME, "open-web");
    let asked = app.dialog("board", "wants to open a web page", "dialog-app-link");
    assert!(asked.contains("example.com"), "{asked}");
    app.press(DIALOG, "Don't open");
    assert_eq!(logged(w, FRAME, "open-web"), "open-web: isError=true");
    press_in_view(w, FRAME, "download");
    let asked = app.dialog("board", "wants to save a file", "dialog-app-download");
    assert!(
        asked.contains("board.csv") && asked.contains("text/csv"),
        "{asked}"
    );
    app.press(DIALOG, "Don't save");
    assert_eq!(logged(w, FRAME, "download"), "download: isError=true");

    // Full screen as the app asks, and back as the person asks; the app is told each time.
    assert_eq!(act(w, FRAME, "fullscreen"), "fullscreen: fullscreen");
    until("the app over the whole window", || {
        w.count(".view-frame.fullscreen") == 1
    });
    shows(w, FRAME, "mode", "fullscreen");
    w.screenshot("app-fullscreen");
    app.press(".view-frame-head", "Back to inline");
    shows(w, FRAME, "mode", "inline");
    assert_eq!(w.count(".view-frame.fullscreen"), 0);

    // The sandbox: neither the window, its IPC, the host's origin nor a domain outside the
    // app's policy is reached.
    let probed = act(w, FRAME, "probe");
    assert!(!probed.contains("reached"), "{probed}");
    for probe in [
        "host-window",
        "host-ipc",
        "own-ipc",
        "ipc-scheme",
        "ipc-http",
        "outside-csp",
        "host-origin",
    ] {
        assert!(
            probed.contains(&format!("{probe} blocked (")),
            "{probe}: {probed}"
        );
    }
}

/// Two servers' apps in one conversation: a call the model is still writing shows its app
/// with the arguments so far; each shows under the model's call of its tool, with the
/// call's input and result; what one tells the model goes with its message, which
/// the model answers and the window shows as the app's; and neither app reaches the other.
#[test]
fn apps_in_a_conversation_write_to_it_and_cannot_reach_each_other() {
    let stand_in = StandIn::start(&json!({"turns": [
        // A call the model is still writing when the provider stalls.
        {"content": [
            {"tool_call": {"name": "board__board", "arguments": {"topic": "the long weather report"}}, "pieces": 4}
        ], "stall": true},
        {"content": [
            {"tool_call": {"name": "board__board", "arguments": {"topic": "weather"}}},
            {"tool_call": {"name": "board-2__board", "arguments": {"topic": "tides"}}}
        ]},
        {"content": [{"text": "Here are both boards."}]},
        {"content": [{"text": "The board shows three cards."}]}
    ]}));
    let (providers, settings) = stand_in.configured();
    let app = App::start_configured(
        json!({
            "mcpServers": {"board": board_server(), "board-2": board_server()},
            "providers": providers,
            "settings": settings,
        }),
        Vec::new(),
    );
    let w = &app.window;
    app.wait_running("board");
    app.wait_running("board-2");
    app.view("chat");
    // Once the default model shows, the compose form is drawn for good.
    until("the default model chosen", || {
        w.value(&w.find(".chat-compose .chat-model input")) == "model-test"
    });
    let send = |text: &str| {
        let field = w.find(".chat-compose textarea[aria-label='Message']");
        w.type_into(&field, text, true);
        app.press(".chat-compose", "Send");
    };

    // The app shows the arguments as the model writes them, before the call is whole.
    send("Start a board");
    let writing = ".chat-streaming .tool-card .view-frame iframe";
    until("the app of the call being written", || {
        w.count(writing) == 1
    });
    let partial = shows(w, writing, "partial", "the long");
    assert!(partial.starts_with("{\"topic\":\"the long"), "{partial}");
    assert_eq!(shows(w, writing, "input", "none"), "none", "not whole yet");
    w.screenshot("app-partial-input");
    app.press(".chat-compose", "Stop");
    until("the written call gone with the stopped answer", || {
        w.count(writing) == 0
    });

    send("Show me the boards");
    // One call after the other: the second dialog is told apart by its server's name.
    w.wait_for_text(DIALOG, "wants to call board", SHOWN);
    app.press(DIALOG, "Allow once");
    w.wait_for_text(DIALOG, "board-2", SHOWN);
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    w.wait_for_text(
        ".chat-messages li[aria-label='Model']",
        "Here are both boards.",
        SHOWN,
    );
    until("both apps shown", || w.count(CHAT_FRAMES) == 2);
    let first = &format!("{CHAT_FRAMES_NTH}(1) iframe");
    let second = &format!("{CHAT_FRAMES_NTH}(2) iframe");
    shows(w, first, "result", "Board about weather");
    shows(w, second, "input", "{\"topic\":\"tides\"}");
    shows(w, second, "result", "Board about tides");
    w.execute(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});",
        json!([".chat-messages .tool-card"]),
    );
    w.screenshot("app-view-chat");

    // Neither app reaches the other's document, though both are in the window.
    let probed = act(w, first, "probe");
    assert!(
        probed.contains("other-apps blocked (") && probed.contains("(1 other frames)"),
        "{probed}"
    );

    // What the app tells the model goes with its message; the model answers the app.
    assert_eq!(act(w, first, "context"), "context: told");
    assert_eq!(act(w, first, "message"), "message: sent");
    let from_app = w.wait_for_text(
        ".chat-messages li[aria-label='The app of board']",
        "Summarise the board",
        SHOWN,
    );
    assert!(from_app.contains("From the app of board"), "{from_app}");
    w.wait_for_text(
        ".chat-messages li[aria-label='Model']",
        "The board shows three cards.",
        SHOWN,
    );
    w.scroll_to(".chat-messages li:last-child");
    w.screenshot("chat-app-message");
    let asked = stand_in.asked();
    let last = asked[3]["body"]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    assert!(
        last.contains("says=\\\"context\\\"")
            && last.contains("The board shows 3 cards")
            && last.contains("says=\\\"message\\\"")
            && last.contains("Summarise the board"),
        "{last}"
    );
}

/// An app that changed between two starts of the app is not shown until the person has
/// seen what changed and agreed; then it shows, as it is now, and is trusted as such.
#[test]
fn a_changed_app_waits_for_the_persons_word() {
    let app = App::start_configured(
        json!({"mcpServers": {"board": board_saying("first")}}),
        Vec::new(),
    );
    let show_board = |app: &App| {
        app.wait_running("board");
        app.open_tool("board", "Board");
        app.fill(DETAIL, "topic", "weather");
        app.invoke();
    };
    show_board(&app);
    shows(&app.window, FRAME, "variant", "first");
    until("the view pinned in the file", || {
        app.config()["settings"]["trustedViews"]
            .as_array()
            .is_some_and(|p| p.len() == 1)
    });
    let before = app.config()["settings"]["trustedViews"][0]["sha256"].clone();

    let mut config = app.config();
    config["mcpServers"]["board"] = board_saying("second");
    std::fs::write(app.dir.path().join("config.json"), config.to_string())
        .expect("write the config");
    let app = app.restart();
    let w = &app.window;
    show_board(&app);
    let said = w.wait_for_text(".view-changed", "changed since it was shown", SHOWN);
    assert!(said.contains("Its page is another"), "{said}");
    assert_eq!(w.count(FRAME), 0, "nothing of it runs");
    w.scroll_to(".view-changed");
    w.screenshot("app-changed");

    app.press(".view-changed", "Show the changed app");
    shows(w, FRAME, "variant", "second");
    until("the changed view pinned", || {
        let pins = app.config()["settings"]["trustedViews"].clone();
        pins.as_array().is_some_and(|p| p.len() == 1) && pins[0]["sha256"] != before
    });
}
