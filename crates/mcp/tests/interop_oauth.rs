//! Signing in to a real third-party authorization server: the Python SDK's own OAuth 2.1
//! server (metadata, Dynamic Client Registration, authorize, token, bearer checking with
//! the token's `resource`) guarding its MCP server, started as a child process. The
//! browser follows the redirects to the engine's loopback listener.

#[path = "common/browser.rs"]
mod browser;
mod common;
#[path = "common/http_peers.rs"]
mod http_peers;

use std::sync::Arc;
use std::time::Duration;

use browser::Browser;
use common::{args, first_text};
use http_peers::Peer;
use serde_json::json;
use switchboard_mcp::auth::{AuthConfig, Authorization, MemoryStore, TokenStore};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpServer};

async fn connect(peer: &Peer, store: Arc<dyn TokenStore>, browser: Arc<Browser>) -> Client {
    let auth = Authorization::new(
        &peer.url,
        AuthConfig::new("switchboard-tests"),
        store,
        browser,
    )
    .expect("a valid URL");
    let settings = HttpServer::new(&peer.url).authorization(auth);
    let (transport, _) = http::connect(&settings, discard_log()).expect("valid settings");
    Client::connect(
        transport,
        Arc::new(DecliningHandler),
        ClientConfig::new("switchboard-tests", "1"),
    )
    .await
    .expect("connected after signing in")
}

async fn echo(client: &Client, text: &str) -> String {
    let result = client
        .call_tool(
            "echo",
            args(json!({"text": text})),
            client.request_options(),
        )
        .await
        .expect("the call succeeds");
    first_text(&result).to_owned()
}

#[tokio::test]
async fn signs_in_registers_and_calls_a_tool() {
    let peer = Peer::python_oauth(3600).await;
    let browser = Arc::new(Browser::new().await);
    let store = Arc::new(MemoryStore::default());
    let client = connect(&peer, store.clone(), browser.clone()).await;
    assert_eq!(echo(&client, "hello").await, "hello");

    assert_eq!(browser.sign_ins(), 1);
    let shown = browser.shown.lock().expect("lock")[0].clone();
    assert_eq!(shown.resource, peer.url);
    assert_eq!(shown.scopes, ["tools"]);
    assert!(
        peer.stderr_shows("registered ", Duration::from_secs(5))
            .await
    );
    // The server offers only secret-based client authentication: the registered client
    // got a secret and used it.
    let grant = store.load(&peer.url).expect("store").expect("a grant");
    assert!(grant.client.client_secret.is_some());
    client.close().await;
}

#[tokio::test]
async fn a_short_lived_token_is_refreshed_without_asking_the_person() {
    let peer = Peer::python_oauth(1).await;
    let browser = Arc::new(Browser::new().await);
    let client = connect(&peer, Arc::new(MemoryStore::default()), browser.clone()).await;
    assert_eq!(echo(&client, "first").await, "first");
    assert_eq!(echo(&client, "second").await, "second");

    assert!(
        peer.stderr_shows("issued refresh_token", Duration::from_secs(5))
            .await
    );
    assert_eq!(browser.sign_ins(), 1, "signed in once, refreshed since");
    client.close().await;
}
