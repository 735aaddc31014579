//! Signing in from the window to a server guarded by `oidc-provider` (a certified OpenID
//! Provider) in front of the TypeScript SDK's MCP server. The system browser is a script
//! that plays the person on the provider's own login and consent pages
//! (`tests/peers/node/follow-consent.mjs`). Screenshots go to `test-artifacts/`.

use crate::support::peer::{HttpPeer, node_binary};
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, make_executable, until};

const SERVER: &str = "tracker";
const FORM: &str = ".server-form";

/// The app with `SERVER` at `url` configured (or no server), whose system browser notes
/// the page it was given in `opened.txt`, then signs in and consents on it.
fn app_with_browser(url: Option<&str>) -> App {
    app_with(url, true)
}

/// [`app_with_browser`], with a browser that only notes the page unless `follows`.
fn app_with(url: Option<&str>, follows: bool) -> App {
    let consent = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers/node/follow-consent.mjs");
    App::start_with(|dir| {
        let servers = match url {
            Some(url) => serde_json::json!({SERVER: {"url": url}}),
            None => serde_json::json!({}),
        };
        let config = serde_json::json!({ "mcpServers": servers });
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        let browser = dir.join("consenting-browser.sh");
        let consenting = format!(
            "exec '{}' '{}' \"$1\" > /dev/null 2>&1\n",
            node_binary().display(),
            consent.display()
        );
        std::fs::write(
            &browser,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n{}",
                dir.join("opened.txt").display(),
                if follows { consenting.as_str() } else { "" }
            ),
        )
        .expect("write the browser");
        make_executable(&browser);
        vec![("BROWSER", browser.display().to_string())]
    })
}

/// A client registered beforehand: its id, its secret, the authorization server it was made at.
type Client<'a> = (&'a str, &'a str, &'a str);

/// Adds `SERVER` at `url` through the server form, with a pre-registered client if given.
fn add_through_the_form(app: &App, url: &str, client: Option<Client<'_>>) {
    let w = &app.window;
    app.view("servers");
    app.press(".server-list", "Add server");
    app.fill(FORM, "Server name", SERVER);
    w.click(&w.find(&format!("{FORM} input[type='radio'][value='http']")));
    app.fill(FORM, "URL", url);
    if let Some((id, secret, issuer)) = client {
        app.fill(FORM, "Client ID", id);
        app.fill(FORM, "Client secret", secret);
        app.fill(FORM, "Authorization server", issuer);
        w.screenshot("server-form-pre-registered-client");
    }
    app.press(FORM, "Add server");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
}

/// Signs in from the server list, agreeing in the dialog; waits until the server runs.
fn sign_in(app: &App) {
    app.press(".server-list", "Sign in");
    app.dialog(SERVER, "You will sign in at", "dialog-sign-in");
    app.press(DIALOG, "Sign in");
    app.no_dialog();
    app.wait_running(SERVER);
}

/// Calls the peer's echo tool from the explorer and sees its answer.
fn echo_answers(app: &App, text: &str) {
    app.open_tool(SERVER, "echo");
    app.fill(DETAIL, "text", text);
    app.invoke_allowed(SERVER, "echo");
    app.result(text);
}

#[test]
fn sign_in_from_the_server_list_call_a_tool_and_sign_out() {
    let peer = HttpPeer::oidc_provider();
    let app = app_with_browser(Some(&peer.url));
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
    echo_answers(&app, "hello from the window");

    // Signed out: the server needs sign-in again, and the details say no more of it.
    app.select_server(SERVER);
    app.press(".servers-detail", "Sign out");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    w.wait_for_text(".servers-detail .state-detail", "Sign-in needed", SHOWN);
    assert_eq!(w.count(".servers-detail [data-testid='signed-in']"), 0);
    w.screenshot("signed-out");
}

#[test]
fn a_client_registered_beforehand_is_entered_in_the_form_and_signs_in() {
    // The provider registers no client by itself: only the one it was given beforehand.
    let (id, secret) = (
        "switchboard-desk",
        format!("client-secret-{}", std::process::id()),
    );
    let static_client = format!("{id}:{secret}");
    let peer = HttpPeer::oidc_provider_with(&[("OIDC_STATIC_CLIENT", &static_client)]);
    let app = app_with_browser(None);
    let issuer = peer.url.trim_end_matches("/mcp").to_owned();
    add_through_the_form(&app, &peer.url, Some((id, &secret, &issuer)));

    // The id is in the file, the secret only in the keyring.
    let written = std::fs::read_to_string(app.dir.path().join("config.json")).expect("config");
    assert!(!written.contains(&secret), "{written}");
    assert_eq!(
        app.config()["mcpServers"][SERVER]["oauth"],
        serde_json::json!({"clientId": id, "clientSecret": {"secret": "tracker/oauth/client-secret"},
                           "issuer": issuer})
    );
    assert_eq!(
        app.keyring_secret("tracker/oauth/client-secret").as_deref(),
        Some(secret.as_str())
    );

    sign_in(&app);
    let opened = std::fs::read_to_string(&app.opened).expect("the browser was opened");
    assert!(opened.contains(&format!("client_id={id}")), "{opened}");
    echo_answers(&app, "hello with a client of my own");
}

#[test]
fn where_no_client_can_register_a_personal_access_token_is_offered_and_used() {
    let token = format!("personal-{}", std::process::id());
    let peer = HttpPeer::oidc_provider_with(&[
        ("OIDC_STATIC_CLIENT", "someone-else:their-secret"),
        ("OIDC_PERSONAL_TOKEN", &token),
    ]);
    let app = app_with_browser(Some(&peer.url));
    let w = &app.window;
    app.view("servers");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);

    // Signing in stops before any page opens, and says why.
    app.select_server(SERVER);
    app.press(".servers-detail", "Sign in");
    let why = w.wait_for_text(".servers-detail [role='alert']", "offers no way", SHOWN);
    assert!(why.contains("127.0.0.1"), "{why}");
    assert!(!app.opened.exists(), "no page was opened");

    // The token offered instead goes to the keyring as a header; the server runs with it.
    app.press(".servers-detail", "Use a personal access token instead");
    app.fill(".servers-detail", "Personal access token", &token);
    w.screenshot("access-token-instead");
    app.press(".servers-detail", "Save and restart");
    app.wait_running(SERVER);
    assert_eq!(
        app.config()["mcpServers"][SERVER]["headers"],
        serde_json::json!({"Authorization": {"secret": "tracker/header/Authorization"}})
    );
    assert_eq!(
        app.keyring_secret("tracker/header/Authorization"),
        Some(format!("Bearer {token}"))
    );
    echo_answers(&app, "hello with a token of my own");
}

#[test]
fn an_expired_access_token_is_refreshed_and_the_details_show_the_new_expiry() {
    let peer = HttpPeer::oidc_provider_with(&[("OIDC_ACCESS_TOKEN_SECONDS", "2")]);
    let app = app_with_browser(Some(&peer.url));
    let w = &app.window;
    app.view("servers");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    sign_in(&app);
    app.select_server(SERVER);
    let signed_in = ".servers-detail [data-testid='signed-in']";
    let first = w.wait_for_text(signed_in, "expires", SHOWN);

    // Once the token has ended, a call still works: the token is refreshed on the way.
    let ends = access_token_end(&app, &peer.url);
    until("the access token has ended", || unix_now() > ends);
    echo_answers(&app, "hello after the token ended");
    app.select_server(SERVER);
    let later = w.wait_for_all(signed_in, "a new expiry", SHOWN, |seen| {
        seen.len() == 1 && seen[0] != first && seen[0].contains("expires")
    });
    assert!(later[0].starts_with("Signed in at 127.0.0.1"), "{later:?}");
    w.screenshot("signed-in-refreshed");
}

#[test]
fn a_sign_in_left_open_in_the_browser_is_cancelled_from_the_details() {
    let peer = HttpPeer::oidc_provider();
    let app = app_with(Some(&peer.url), false);
    let w = &app.window;
    app.view("servers");
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    app.select_server(SERVER);
    app.press(".servers-detail", "Sign in");
    app.dialog(SERVER, "You will sign in at", "dialog-sign-in");
    app.press(DIALOG, "Sign in");
    app.no_dialog();

    // The page is open in the browser, never finished: the details wait for it.
    let waiting = ".servers-detail [data-testid='sign-in-waiting']";
    w.wait_for_text(waiting, "Finish signing in in your browser", SHOWN);
    w.screenshot("sign-in-waiting");
    let opened = std::fs::read_to_string(&app.opened).expect("the browser was opened");
    // The loopback port, from the page's `redirect_uri=http://127.0.0.1:PORT/callback`.
    let port: u16 = opened
        .split("redirect_uri=http%3A%2F%2F127.0.0.1%3A")
        .nth(1)
        .and_then(|rest| rest.split('%').next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or_else(|| panic!("a loopback redirect in {opened}"));
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());

    // Cancelled: the server needs sign-in again at once, and nothing listens any more.
    app.press(".servers-detail", "Cancel sign-in");
    w.wait_for_text(".servers-detail [role='alert']", "cancelled", SHOWN);
    w.wait_for_texts(".server-list li", &[SERVER, "Sign-in needed"], SHOWN);
    assert_eq!(w.count(waiting), 0);
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the loopback listener is closed"
    );
}

/// When the access token kept for the server at `url` ends, in seconds since the epoch.
fn access_token_end(app: &App, url: &str) -> u64 {
    let name = switchboard_core::sign_in::grant_secret_name(url);
    let kept = app
        .keyring_secret(&name)
        .expect("the grant is in the keyring");
    let grants: serde_json::Value = serde_json::from_str(&kept).expect("the grant reads");
    grants["by_issuer"]
        .as_object()
        .and_then(|by_issuer| by_issuer.values().next())
        .and_then(|grant| grant["tokens"]["expires_at"].as_u64())
        .expect("the access token ends")
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A P-256 key made for this test alone.
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgobJU0a5Nhgcr/Pu9
EKxtIU9r5RB1EUZ2cNbgpgr+TQKhRANCAASBIFzrDJ0q0z1KSlQijGWz55x5pbFV
ZqVsZ1zfgUZ2A67ufWZCzb7OqfQBVBKyjVJUrEbubQuAhFRbNQgyKdj7
-----END PRIVATE KEY-----";

#[test]
fn client_credentials_entered_in_the_form_start_the_server_without_anyone_signing_in() {
    // The provider knows the client by the public half of its key, and binds tokens (DPoP).
    let key_file = std::env::temp_dir().join(format!("switchboard-key-{}.pem", std::process::id()));
    std::fs::write(&key_file, TEST_KEY).expect("write the key");
    let key_path = key_file.display().to_string();
    let peer = HttpPeer::oidc_provider_with(&[
        ("OIDC_KEY_CLIENT", "switchboard-ci"),
        ("OIDC_KEY_CLIENT_PEM", &key_path),
        ("OIDC_DPOP", "1"),
    ]);
    let app = app_with(None, false);
    let w = &app.window;
    let issuer = peer.url.trim_end_matches("/mcp").to_owned();
    app.view("servers");
    app.press(".server-list", "Add server");
    app.fill(FORM, "Server name", SERVER);
    w.click(&w.find(&format!("{FORM} input[type='radio'][value='http']")));
    app.fill(FORM, "URL", &peer.url);
    w.click(&w.find(&format!("{FORM} select option[value='clientCredentials']")));
    app.fill(FORM, "Client ID", "switchboard-ci");
    // Typed line by line, as pasted: WebDriver writes a line break as the Enter key.
    app.fill(
        FORM,
        "Private key (PEM)",
        &TEST_KEY.replace('\n', "\u{E007}"),
    );
    app.fill(FORM, "Authorization server", &issuer);
    w.screenshot("server-form-client-credentials");
    app.press(FORM, "Add server");

    // No sign-in is needed, nothing is opened: the server runs, and a tool answers.
    app.wait_running(SERVER);
    assert!(!app.opened.exists(), "no page was opened");
    assert_eq!(
        app.config()["mcpServers"][SERVER]["oauth"],
        serde_json::json!({"clientId": "switchboard-ci", "issuer": issuer,
                           "grant": "clientCredentials",
                           "privateKey": {"secret": "tracker/oauth/private-key"}})
    );
    assert_eq!(
        app.keyring_secret("tracker/oauth/private-key").as_deref(),
        Some(TEST_KEY)
    );
    echo_answers(&app, "hello from a client of its own");
    let _ = std::fs::remove_file(&key_file);
}
