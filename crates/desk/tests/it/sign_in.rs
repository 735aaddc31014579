//! Signing in to a server guarded by a real authorization server (the Python SDK's own
//! OAuth server in front of its MCP server, started as a child process), with the grant in
//! the session's real keyring: the server waits at "Sign-in needed" until the person asks,
//! sees where they would sign in, agrees, and the browser (here a client that follows the
//! redirects, as the consent page approves at once) comes back to the loopback port.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::path::Path;

use serde_json::{Value, json};
use switchboard_core::approvals::{Pending, Question};
use switchboard_core::config::client_secret_name;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{Reason, ServerState};
use switchboard_core::sign_in::{grant_secret_name, legacy_grant_secret_name};
use switchboard_desk::{ServersError, Update};
use switchboard_mcp::auth::AuthError;
use switchboard_test_support::listening::{Listening, listening};

use crate::common;
use crate::common::{DemoDesk, Said, WAIT, call_allowed, desk_in, eventually, keyring, text_of};

const SERVER: &str = "guarded";

/// The Python SDK's OAuth-guarded server on a free port, killed when dropped.
struct OAuthPeer {
    url: String,
    /// What it wrote to stderr after it listened (`registered <id>`, `issued <grant>`).
    said: Said,
    _child: tokio::process::Child,
}

impl OAuthPeer {
    async fn start() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let Listening {
            child,
            url,
            stderr: lines,
        } = listening("the OAuth peer (scripts/setup)", |port| {
            let mut command = tokio::process::Command::new(root.join(".tools/venv/bin/python"));
            command
                .arg(root.join("tests/peers/python/oauth_server.py"))
                .args(["--port", &port.to_string()])
                .stdin(std::process::Stdio::null());
            command
        })
        .await;
        let said = Said::follow(lines);
        Self {
            url,
            said,
            _child: child,
        }
    }

    /// How many of its lines so far hold `text`.
    fn said(&self, text: &str) -> usize {
        self.said.count(text)
    }
}

/// Waits until the server needs sign-in after a sign-out; what it says it waits for.
async fn signed_out_detail(world: &mut DemoDesk) -> Reason {
    world
        .next(|u| match u {
            Update::Status {
                server,
                state: ServerState::AuthRequired { detail, .. },
                ..
            } if server == SERVER && detail.to_string().contains("signed out") => Some(detail),
            _ => None,
        })
        .await
}

async fn sign_in_needed(world: &mut DemoDesk) {
    world
        .next(|u| {
            matches!(u, Update::Status { server, state: ServerState::AuthRequired { .. }, .. } if server == SERVER)
                .then_some(())
        })
        .await;
}

/// Signs in as the person does: asks, agrees, and the browser follows the page (the
/// server's consent is given at once) back to the loopback port; returns what was asked.
async fn sign_in_accepted(world: &mut DemoDesk) -> Pending {
    let desk = world.desk.clone();
    let signing_in = tokio::spawn(async move { desk.servers().sign_in(SERVER).await });
    let asked = sign_in_asked(world).await;
    let Question::SignIn { url, .. } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    let to_open = world
        .desk
        .servers()
        .answer_sign_in(asked.id, SERVER, true)
        .await
        .unwrap()
        .expect("a page to open");
    assert_eq!(
        but_client_id(&to_open),
        but_client_id(url),
        "the page opened is the one shown, with the client registered once agreed"
    );
    let page = reqwest::get(&to_open).await.unwrap().text().await.unwrap();
    assert!(page.starts_with("Signed in."), "{page}");
    signing_in.await.unwrap().unwrap();
    asked
}

async fn sign_in_asked(world: &mut DemoDesk) -> Pending {
    let pending = world.asked().await;
    assert_eq!(pending.server, SERVER);
    assert!(
        pending.forward,
        "a sign-in the person asked for comes forward"
    );
    pending
}

/// The person calls the echo tool (allowing it when asked: it claims nothing of itself).
/// The desk started on a configuration of one server, `SERVER`, as `entry` describes it.
async fn started_with(entry: Value, secrets: Secrets) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    let file = json!({ "mcpServers": { SERVER: entry } });
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let world = desk_in(dir, secrets);
    world.desk.start().await;
    world
}

async fn echo(world: &DemoDesk, text: &str) -> String {
    text_of(&call_allowed(&world.desk, SERVER, "echo", json!({"text": text})).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_in_asks_first_keeps_the_grant_in_the_keyring_and_signing_out_forgets_it() {
    let peer = OAuthPeer::start().await;
    let secrets = keyring("sign-in");
    let mut world = started_with(json!({"url": peer.url}), secrets.clone()).await;

    // At start-up nothing is opened and nothing asked: the server waits for the person.
    sign_in_needed(&mut world).await;
    assert!(world.desk.trust().pending().is_empty());
    assert_eq!(world.desk.servers().signed_in(SERVER).await.unwrap(), None);

    // Declined: no page opens, and the server still waits.
    let desk = world.desk.clone();
    let declined = tokio::spawn(async move { desk.servers().sign_in(SERVER).await });
    let asked = sign_in_asked(&mut world).await;
    assert_eq!(
        world
            .desk
            .servers()
            .answer_sign_in(asked.id, SERVER, false)
            .await
            .unwrap(),
        None
    );
    let refused = declined.await.unwrap().unwrap_err();
    assert!(
        matches!(
            &refused,
            ServersError::SignIn {
                detail: Reason::SignIn {
                    failure: AuthError::Declined
                },
                ..
            }
        ),
        "{refused}"
    );

    // Accepted: the person saw the authorization server's host, the server and the scopes.
    let asked = sign_in_accepted(&mut world).await;
    let Question::SignIn {
        issuer_host,
        resource,
        scopes,
        ..
    } = asked.question.clone()
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(issuer_host, "127.0.0.1");
    assert_eq!(resource, peer.url);
    assert!(scopes.iter().any(|s| s == "tools"), "{scopes:?}");
    assert_eq!(echo(&world, "hello").await, "hello");
    // Its lines come in order: once the code's redemption shows, every registration does.
    assert!(eventually(|| peer.said("issued authorization_code") == 1).await);
    assert_eq!(
        peer.said("registered"),
        1,
        "a client is registered for the sign-in the person agreed to, none at start-up"
    );

    // The grant is in the keyring, and nowhere in the configuration file.
    let kept = secrets
        .get(&grant_secret_name(&peer.url))
        .await
        .unwrap()
        .expect("the grant is in the keyring");
    let grants: serde_json::Value = serde_json::from_str(&kept).unwrap();
    let issuer = grants["latest"].as_str().unwrap();
    let grant = &grants["by_issuer"][issuer];
    assert_eq!(grant["resource"], peer.url.as_str());
    let tokens = ["access_token", "refresh_token"]
        .map(|kind| grant["tokens"][kind].as_str().unwrap().to_owned());
    let config = std::fs::read_to_string(&world.config).unwrap();
    assert!(!config.contains("access_token") && !config.contains("refresh_token"));
    for token in &tokens {
        assert!(!config.contains(token));
    }
    let signed_in = world
        .desk
        .servers()
        .signed_in(SERVER)
        .await
        .unwrap()
        .unwrap();
    assert!(
        signed_in.issuer.starts_with("http://127.0.0.1:"),
        "{signed_in:?}"
    );
    assert!(signed_in.expires_ms.is_some());

    // Opened again, it is still signed in without asking.
    let mut world = world.reopen(&[SERVER]).await;
    assert!(world.desk.trust().pending().is_empty());
    assert_eq!(echo(&world, "again").await, "again");

    // Signed out: the grant is gone, its tokens revoked where they were issued, and the
    // server waits for sign-in again, saying the person signed out.
    world.desk.servers().sign_out(SERVER).await.unwrap();
    let detail = signed_out_detail(&mut world).await;
    assert_eq!(
        detail,
        Reason::SignIn {
            failure: AuthError::SignedOut
        }
    );
    assert_eq!(detail.to_string(), "signed out; sign in to use it again");
    let refused = reqwest::Client::new()
        .post(&peer.url)
        .bearer_auth(&tokens[0])
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "leaked", "version": "1"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401, "the old access token still works");
    let left = secrets.get(&grant_secret_name(&peer.url)).await.unwrap();
    assert!(
        left.is_none(),
        "the grant is still in the keyring after signing out"
    );
    assert_eq!(world.desk.servers().signed_in(SERVER).await.unwrap(), None);

    // The audit trail has each sign-in and the sign-out, and no token.
    let audit = world.desk.activity().search("", None, 50).await.unwrap();
    let decisions: Vec<&str> = audit
        .iter()
        .filter(|e| e.kind == "sign_in")
        .map(|e| e.decision.as_str())
        .collect();
    assert_eq!(decisions.len(), 3, "{decisions:?}");
    assert_eq!(decisions[0], "signed out");
    let sign_out = audit.iter().find(|e| e.decision == "signed out").unwrap();
    assert_eq!(sign_out.detail.0["revocation"], json!(["revoked"]));
    assert_eq!(decisions[1], "signed in");
    assert!(decisions[2].contains("declined"), "{decisions:?}");
    let shown = serde_json::to_string(&audit).unwrap();
    for token in &tokens {
        assert!(!shown.contains(token));
        // Nor anywhere in the file and its journal.
        for file in ["audit.sqlite", "audit.sqlite-wal"] {
            let bytes = std::fs::read(world.dir.path().join(file)).unwrap_or_default();
            assert!(
                !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
                "{file}"
            );
        }
    }

    // Signed in again, then removed: its grant leaves the keyring with it.
    sign_in_accepted(&mut world).await;
    assert!(
        secrets
            .get(&grant_secret_name(&peer.url))
            .await
            .unwrap()
            .is_some()
    );
    world.desk.servers().remove_server(SERVER).await.unwrap();
    // Asserted without printing the grant: a failure must not show its tokens.
    let left = secrets.get(&grant_secret_name(&peer.url)).await.unwrap();
    assert!(
        left.is_none(),
        "the removed server's grant is still in the keyring"
    );
}

/// A sign-in's page, but for the client id it names.
fn but_client_id(page: &str) -> url::Url {
    let mut page = url::Url::parse(page).unwrap();
    let rest: Vec<(String, String)> = page
        .query_pairs()
        .into_owned()
        .filter(|(k, _)| k != "client_id")
        .collect();
    page.query_pairs_mut().clear().extend_pairs(rest);
    page
}

/// The id of the client a sign-in's page names.
fn client_id_of(page: &str) -> String {
    url::Url::parse(page)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "client_id")
        .map(|(_, v)| v.into_owned())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_is_registered_only_once_the_person_agreed_to_sign_in() {
    let peer = OAuthPeer::start().await;
    let secrets = keyring("sign-in-registers-after");
    let mut world = started_with(json!({"url": peer.url}), secrets.clone()).await;
    sign_in_needed(&mut world).await;

    // Asked, then declined: the page shown says where the id given on signing in goes.
    let desk = world.desk.clone();
    let declined = tokio::spawn(async move { desk.servers().sign_in(SERVER).await });
    let asked = sign_in_asked(&mut world).await;
    let Question::SignIn { url, .. } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(client_id_of(url), "registered-when-you-sign-in");
    assert_eq!(
        world
            .desk
            .servers()
            .answer_sign_in(asked.id, SERVER, false)
            .await
            .unwrap(),
        None
    );
    declined.await.unwrap().unwrap_err();

    // Agreed: the one client registered is the one the grant holds. The peer's lines come
    // in order: once the code's redemption shows, every registration before it does.
    sign_in_accepted(&mut world).await;
    assert!(eventually(|| peer.said("issued authorization_code") == 1).await);
    let kept = secrets
        .get(&grant_secret_name(&peer.url))
        .await
        .unwrap()
        .unwrap();
    let grants: serde_json::Value = serde_json::from_str(&kept).unwrap();
    let client = &grants["by_issuer"][grants["latest"].as_str().unwrap()]["client"];
    let client_id = client["client_id"].as_str().unwrap();
    assert_eq!(
        (
            peer.said("registered"),
            peer.said(&format!("registered {client_id}"))
        ),
        (1, 1),
        "a client is registered only after the person agreed, and none for the sign-in declined"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_secret_is_sent_only_to_the_authorization_server_it_was_entered_for() {
    let peer = OAuthPeer::start().await;
    let secrets = keyring("sign-in-pinned-secret");
    secrets
        .set(&client_secret_name(SERVER), "pre-registered-s3cret")
        .await
        .unwrap();
    let oauth = json!({"clientId": "pre-registered",
                       "clientSecret": {"secret": client_secret_name(SERVER)},
                       "issuer": "https://auth.example.com"});
    let mut world = started_with(json!({"url": peer.url, "oauth": oauth}), secrets).await;
    sign_in_needed(&mut world).await;

    // The server names its own authorization server, not the one the client was made at:
    // the sign-in stops before the person is asked, and so before any token request.
    let desk = world.desk.clone();
    let signing_in = tokio::spawn(async move { desk.servers().sign_in(SERVER).await });
    let refused = tokio::select! {
        outcome = signing_in => outcome.unwrap().unwrap_err().to_string(),
        asked = world.asked() => panic!(
            "asked to sign in with a secret meant for another authorization server: {:?}",
            asked.question
        ),
    };
    assert!(
        refused.contains("https://auth.example.com") && refused.contains("http://127.0.0.1:"),
        "the refusal names both authorization servers: {refused}"
    );
    assert_eq!(peer.said("issued"), 0);
    assert_eq!(world.desk.servers().signed_in(SERVER).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_never_comes_back_ends_the_sign_in_with_its_reason() {
    let peer = OAuthPeer::start().await;
    let mut world = started_with(json!({"url": peer.url}), keyring("sign-in-wait")).await;
    sign_in_needed(&mut world).await;

    let desk = world.desk.clone();
    let signing_in = tokio::spawn(async move {
        desk.servers()
            .sign_in_waiting(SERVER, std::time::Duration::from_millis(300))
            .await
    });
    let asked = sign_in_asked(&mut world).await;
    // The person agrees, but the page is never finished.
    assert!(
        world
            .desk
            .servers()
            .answer_sign_in(asked.id, SERVER, true)
            .await
            .unwrap()
            .is_some()
    );
    let failed = signing_in.await.unwrap().unwrap_err().to_string();
    assert!(failed.contains("the browser did not come back"), "{failed}");
    sign_in_needed(&mut world).await;
    assert_eq!(world.desk.servers().signed_in(SERVER).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_sign_in_left_open_in_the_browser_closes_its_listener_at_once() {
    let peer = OAuthPeer::start().await;
    let mut world = started_with(json!({"url": peer.url}), keyring("sign-in-cancel")).await;
    sign_in_needed(&mut world).await;
    assert!(
        world.desk.servers().cancel_sign_in(SERVER).is_err(),
        "nothing to cancel yet"
    );

    let desk = world.desk.clone();
    let signing_in = tokio::spawn(async move { desk.servers().sign_in(SERVER).await });
    let asked = sign_in_asked(&mut world).await;
    let Question::SignIn { url, .. } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    let redirect = url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "redirect_uri")
        .map(|(_, v)| v.into_owned())
        .unwrap();
    let port = url::Url::parse(&redirect).unwrap().port().unwrap();
    world
        .desk
        .servers()
        .answer_sign_in(asked.id, SERVER, true)
        .await
        .unwrap();
    world
        .next(|u| {
            matches!(u, Update::SignInWaiting { server, waiting: true } if server == SERVER)
                .then_some(())
        })
        .await;
    assert!(world.desk.servers().sign_in_waiting_for_browser(SERVER));

    // The person gives up while the page is open: the sign-in ends now, not in 5 minutes.
    world.desk.servers().cancel_sign_in(SERVER).unwrap();
    let ended = tokio::time::timeout(WAIT, signing_in)
        .await
        .expect("the sign-in ends at once")
        .unwrap()
        .unwrap_err()
        .to_string();
    assert!(ended.contains("cancelled"), "{ended}");
    world
        .next(|u| {
            matches!(u, Update::SignInWaiting { server, waiting: false } if server == SERVER)
                .then_some(())
        })
        .await;
    assert!(!world.desk.servers().sign_in_waiting_for_browser(SERVER));
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err(),
        "the loopback listener is closed"
    );
    sign_in_needed(&mut world).await;
    assert_eq!(world.desk.servers().signed_in(SERVER).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_is_kept_per_resource_shared_by_its_servers_and_moved_from_where_it_was() {
    let peer = OAuthPeer::start().await;
    let secrets = keyring("sign-in-shared");
    let mut world = started_with(json!({"url": peer.url}), secrets.clone()).await;
    sign_in_needed(&mut world).await;
    sign_in_accepted(&mut world).await;

    // An earlier version kept the grant itself under the server's URL: it is moved to the
    // entry of the resource, once, and still signs in without asking.
    let kept = secrets
        .get(&grant_secret_name(&peer.url))
        .await
        .unwrap()
        .unwrap();
    let grants: serde_json::Value = serde_json::from_str(&kept).unwrap();
    let grant = grants["by_issuer"][grants["latest"].as_str().unwrap()].to_string();
    secrets
        .set(&legacy_grant_secret_name(&peer.url), &grant)
        .await
        .unwrap();
    secrets.delete(&grant_secret_name(&peer.url)).await.unwrap();
    let world = world.reopen(&[SERVER]).await;
    assert!(world.desk.trust().pending().is_empty());
    assert_eq!(echo(&world, "moved").await, "moved");
    assert!(
        secrets
            .get(&legacy_grant_secret_name(&peer.url))
            .await
            .unwrap()
            .is_none(),
        "the old entry is gone"
    );
    let moved = secrets
        .get(&grant_secret_name(&peer.url))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&moved).unwrap(),
        grants
    );

    // Another server at the same resource goes in with the same grant, unasked.
    let mut form = world.desk.servers().server_form(SERVER).unwrap();
    form.name = "same-resource".into();
    let mut events = world.desk.updates();
    world.desk.servers().save_server(None, form).await.unwrap();
    common::next_on(&mut events, |u| {
        matches!(u, Update::Status { server, state: ServerState::Running { .. }, .. } if server == "same-resource")
            .then_some(())
    })
    .await;
    assert!(world.desk.trust().pending().is_empty());
    assert_eq!(
        peer.said("issued authorization_code"),
        1,
        "one sign-in for both"
    );
}
