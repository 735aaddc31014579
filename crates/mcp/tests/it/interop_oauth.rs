//! Signing in to real third-party authorization servers, each guarding a real MCP server
//! started as a child process:
//! - the Python SDK's own OAuth 2.1 server (metadata, Dynamic Client Registration,
//!   authorize, token, bearer checking with the token's `resource`), whose consent is
//!   given at once: the browser follows its redirects to the engine's loopback listener;
//! - `oidc-provider`, a certified OpenID Provider (found through OpenID Connect discovery,
//!   PKCE required, tokens bound to the resource), in front of the TypeScript SDK's MCP
//!   server: a script plays the person on its own login and consent pages.

use std::sync::Arc;
use std::time::Duration;

use browser::Browser;
use http_peers::{Peer, node_binary};
use serde_json::json;
use switchboard_mcp::auth::{AuthConfig, Authorization, MemoryStore, TokenStore};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};

use crate::common::browser;
use crate::common::http_peers;
use crate::common::{args, first_text, workspace_root};

#[derive(Debug, Clone, Copy)]
enum AuthServer {
    PythonSdk,
    OidcProvider,
}

const AUTH_SERVERS: [AuthServer; 2] = [AuthServer::PythonSdk, AuthServer::OidcProvider];

impl AuthServer {
    async fn start(self, token_lifetime: u64) -> (Peer, Arc<Browser>) {
        match self {
            Self::PythonSdk => (
                Peer::python_oauth(token_lifetime).await,
                Arc::new(Browser::new().await),
            ),
            Self::OidcProvider => {
                let script = vec![
                    node_binary(),
                    workspace_root().join("tests/peers/node/follow-consent.mjs"),
                ];
                (
                    Peer::oidc_provider(token_lifetime).await,
                    Arc::new(Browser::with_consent_script(Some(script)).await),
                )
            }
        }
    }

    /// Whether the server gives the client a secret: the Python SDK's offers only
    /// secret-based client authentication; oidc-provider lets a native app be public.
    fn gives_a_secret(self) -> bool {
        matches!(self, Self::PythonSdk)
    }
}

async fn connect(peer: &Peer, store: Arc<dyn TokenStore>, browser: Arc<Browser>) -> Client {
    connect_over(peer, HttpMode::Auto, store, browser).await
}

async fn connect_over(
    peer: &Peer,
    mode: HttpMode,
    store: Arc<dyn TokenStore>,
    browser: Arc<Browser>,
) -> Client {
    let auth = Authorization::new(
        &peer.url,
        AuthConfig::new("switchboard-tests"),
        store,
        browser,
    )
    .expect("a valid URL");
    let mut settings = HttpServer::new(&peer.url).authorization(auth);
    settings.mode = mode;
    let (transport, _) = http::connect(&settings, discard_log()).expect("valid settings");
    Client::connect(
        transport,
        Arc::new(DecliningHandler),
        ClientConfig::new("switchboard-tests", "1"),
    )
    .await
    .unwrap_or_else(|e| {
        panic!(
            "{peer:?}: not connected after signing in: {e}",
            peer = peer.url
        )
    })
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
    for server in AUTH_SERVERS {
        let (peer, browser) = server.start(3600).await;
        let store = Arc::new(MemoryStore::default());
        let client = connect(&peer, store.clone(), browser.clone()).await;
        assert_eq!(echo(&client, "hello").await, "hello", "{server:?}");

        assert_eq!(browser.sign_ins(), 1, "{server:?}");
        let page = browser.last_page.lock().expect("lock").clone();
        assert!(page.starts_with("Signed in."), "{server:?}: {page}");
        assert!(
            peer.stderr_shows("issued authorization_code", Duration::from_secs(5))
                .await,
            "{server:?}"
        );
        let shown = browser.shown.lock().expect("lock")[0].clone();
        assert_eq!(shown.resource, peer.url, "{server:?}");
        assert!(
            shown.scopes.iter().any(|s| s == "tools"),
            "{server:?}: {shown:?}"
        );
        let grant = store.load(&peer.url).expect("store").expect("a grant");
        assert_eq!(
            grant.client.client_secret.is_some(),
            server.gives_a_secret(),
            "{server:?}: {grant:?}"
        );
        client.close().await;
    }
}

#[tokio::test]
async fn a_short_lived_token_is_refreshed_without_asking_the_person() {
    for server in AUTH_SERVERS {
        let (peer, browser) = server.start(1).await;
        let client = connect(&peer, Arc::new(MemoryStore::default()), browser.clone()).await;
        assert_eq!(echo(&client, "first").await, "first", "{server:?}");
        assert_eq!(echo(&client, "second").await, "second", "{server:?}");

        assert!(
            peer.stderr_shows("issued refresh_token", Duration::from_secs(5))
                .await,
            "{server:?}: no refresh grant"
        );
        assert_eq!(
            browser.sign_ins(),
            1,
            "{server:?}: signed in once, refreshed since"
        );
        client.close().await;
    }
}

/// A server of the 2024-11-05 HTTP+SSE transport refuses its event stream (401 on the
/// GET) until the client signs in; then the stream opens and calls go through.
#[tokio::test]
async fn signs_in_where_the_event_stream_of_http_sse_is_refused() {
    let peer = Peer::python_oauth_sse().await;
    let browser = Arc::new(Browser::new().await);
    let store = Arc::new(MemoryStore::default());
    let client = connect_over(&peer, HttpMode::LegacySse, store.clone(), browser.clone()).await;
    assert_eq!(echo(&client, "over SSE").await, "over SSE");
    assert_eq!(browser.sign_ins(), 1);
    let grant = store.load(&peer.url).expect("store").expect("a grant");
    assert_eq!(grant.resource, peer.url);
    client.close().await;
}
