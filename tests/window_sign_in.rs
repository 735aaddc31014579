//! Signing in from the window to a server guarded by `oidc-provider` (a certified OpenID
//! Provider) in front of the TypeScript SDK's MCP server. The system browser is a script
//! that plays the person on the provider's own login and consent pages
//! (`tests/peers/node/follow-consent.mjs`). Screenshots go to `test-artifacts/`.

mod support;

use support::peer::{HttpPeer, node_binary};
use support::window::{App, DETAIL, DIALOG, SHOWN, make_executable};

const SERVER: &str = "tracker";

#[test]
fn sign_in_from_the_server_list_call_a_tool_and_sign_out() {
    let peer = HttpPeer::oidc_provider();
    let consent = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers/node/follow-consent.mjs");
    let app = App::start_with(|dir| {
        let config = serde_json::json!({"mcpServers": {SERVER: {"url": peer.url}}});
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        // The browser notes the page it was given, then signs in and consents on it.
        let browser = dir.join("consenting-browser.sh");
        std::fs::write(
            &browser,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\nexec '{}' '{}' \"$1\" > /dev/null 2>&1\n",
                dir.join("opened.txt").display(),
                node_binary().display(),
                consent.display()
            ),
        )
        .expect("write the browser");
        make_executable(&browser);
        vec![("BROWSER", browser.display().to_string())]
    });
    let w = &app.window;

    // At start-up nothing opens by itself: the server waits, shown as needing sign-in.
    app.view("servers");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    assert_eq!(
        w.count(DIALOG),
        0,
        "no sign-in is put to the person unasked"
    );
    assert!(!app.opened.exists(), "no page was opened unasked");
    w.screenshot("sign-in-needed");

    // The person asks; the dialog says where they would sign in, before anything opens.
    app.press(".server-list", "Sign in");
    let text = app.dialog(SERVER, "You will sign in at", "dialog-sign-in");
    assert_eq!(w.text(&w.find("[data-testid='sign-in-host']")), "127.0.0.1");
    assert!(text.contains(&peer.url), "{text}");
    assert!(text.contains("tools"), "{text}");
    assert!(
        !app.opened.exists(),
        "nothing opened before the person agreed"
    );
    app.press(DIALOG, "Sign in");
    app.no_dialog();
    app.wait_running(SERVER);
    let opened = std::fs::read_to_string(&app.opened).expect("the browser was opened");
    assert!(
        opened.contains("redirect_uri=http%3A%2F%2F127.0.0.1"),
        "{opened}"
    );

    // Signed in: the details say where and until when, and a tool answers.
    app.select_server(SERVER);
    let line = w.wait_for_text(
        ".servers-detail [data-testid='signed-in']",
        "Signed in at 127.0.0.1",
        SHOWN,
    );
    assert!(line.contains("expires"), "{line}");
    w.screenshot("signed-in");
    app.open_tool(SERVER, "echo");
    app.fill(DETAIL, "text", "hello from the window");
    app.invoke_allowed(SERVER, "echo");
    app.result("hello from the window");

    // Signed out: the server needs sign-in again, and the details say no more of it.
    app.select_server(SERVER);
    app.press(".servers-detail", "Sign out");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    w.wait_for_text(".servers-detail .state-detail", "Sign-in needed", SHOWN);
    assert_eq!(w.count(".servers-detail [data-testid='signed-in']"), 0);
    w.screenshot("signed-out");
}
