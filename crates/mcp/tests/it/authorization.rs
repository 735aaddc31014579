//! The authorization client against a real loopback server that is both an MCP server
//! guarding every request with bearer tokens and its own authorization server: the cases
//! the conformance suite leaves out (refresh, concurrent 401s, stored grants, refusals).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use browser::{Browser, Stray};
use serde_json::{Value, json};
use switchboard_mcp::auth::{
    AuthConfig, AuthError, Authorization, Grant, MemoryStore, PreRegistered, SignIn, TokenStore,
    Tokens, UserAgent,
};
use switchboard_mcp::client::{Client, ClientConfig, ClientError, DecliningHandler, EraSetting};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::transport::http::{self, HttpServer};
use switchboard_mcp::transport::{BoxFuture, TransportError, discard_log};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::common::browser;

/// How the guarded server's authorization server behaves.
#[derive(Clone, Copy)]
struct Options {
    pkce: bool,
    registration: bool,
    expires_in: u64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            pkce: true,
            registration: true,
            expires_in: 3600,
        }
    }
}

/// What the server saw and what it holds valid.
#[derive(Default)]
struct Books {
    /// The path of every request, in order.
    paths: Vec<String>,
    registrations: Vec<Value>,
    authorizations: Vec<HashMap<String, String>>,
    token_requests: Vec<HashMap<String, String>>,
    /// Each MCP request: its JSON-RPC method and the bearer token it carried.
    mcp: Vec<(String, Option<String>)>,
    valid_access: HashSet<String>,
    valid_refresh: HashSet<String>,
    issued: u32,
}

struct Guarded {
    url: String,
    books: Arc<Mutex<Books>>,
    held: Arc<Hold>,
}

/// Holds the answers of the token endpoint to refresh grants, once armed, until opened:
/// the new tokens are issued (the old refresh token spent), the answer not yet sent.
#[derive(Default)]
struct Hold {
    gate: Mutex<Option<tokio::sync::watch::Receiver<bool>>>,
    /// Told when a refresh is held.
    holding: tokio::sync::Notify,
}

impl Guarded {
    async fn start(options: Options) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let origin = format!("http://{}", listener.local_addr().expect("address"));
        let books = Arc::new(Mutex::new(Books::default()));
        let held = Arc::new(Hold::default());
        let (shared, hold) = (books.clone(), held.clone());
        let base = origin.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let served = serve(socket, base.clone(), options, shared.clone(), hold.clone());
                tokio::spawn(served);
            }
        });
        Self {
            url: format!("{origin}/mcp"),
            books,
            held,
        }
    }

    /// From now on, answers to refresh grants wait until `gate` opens.
    fn hold_refreshes(&self, gate: tokio::sync::watch::Receiver<bool>) {
        *self.held.gate.lock().expect("lock") = Some(gate);
    }

    fn books<T>(&self, f: impl FnOnce(&mut Books) -> T) -> T {
        f(&mut self.books.lock().expect("lock"))
    }

    /// The server forgets every access token it issued (refresh tokens stay good).
    fn revoke_access_tokens(&self) {
        self.books(|b| b.valid_access.clear());
    }

    /// The server forgets every token it issued, refresh tokens too.
    fn revoke_all_tokens(&self) {
        self.books(|b| {
            b.valid_access.clear();
            b.valid_refresh.clear();
        });
    }

    fn grant_types(&self) -> Vec<String> {
        self.books(|b| {
            b.token_requests
                .iter()
                .map(|r| r.get("grant_type").cloned().unwrap_or_default())
                .collect()
        })
    }
}

struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    fn query(&self) -> HashMap<String, String> {
        let query = self.target.split_once('?').map(|(_, q)| q).unwrap_or("");
        url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect()
    }

    fn form(&self) -> HashMap<String, String> {
        url::form_urlencoded::parse(&self.body)
            .into_owned()
            .collect()
    }
}

struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: String,
}

fn json_reply(status: u16, body: Value) -> Reply {
    Reply {
        status,
        headers: vec![("Content-Type", "application/json".into())],
        body: body.to_string(),
    }
}

fn empty(status: u16) -> Reply {
    Reply {
        status,
        headers: Vec::new(),
        body: String::new(),
    }
}

async fn serve(
    socket: tokio::net::TcpStream,
    origin: String,
    options: Options,
    books: Arc<Mutex<Books>>,
    held: Arc<Hold>,
) {
    let mut socket = BufReader::new(socket);
    loop {
        let mut line = String::new();
        if socket.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_owned();
        let target = parts.next().unwrap_or("").to_owned();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if socket.read_line(&mut header).await.unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        if socket.read_exact(&mut body).await.is_err() {
            return;
        }
        let request = Request {
            method,
            target,
            headers,
            body,
        };
        let reply = {
            let mut books = books.lock().expect("lock");
            books.paths.push(request.path().to_owned());
            route(&request, &origin, options, &mut books)
        };
        let refresh = request.path() == "/token"
            && request.form().get("grant_type").map(String::as_str) == Some("refresh_token");
        let gate = held.gate.lock().expect("lock").clone();
        if let Some(mut gate) = gate.filter(|_| refresh) {
            held.holding.notify_one();
            let _ = gate.wait_for(|open| *open).await;
        }
        let mut head = format!(
            "HTTP/1.1 {} X\r\nContent-Length: {}\r\n",
            reply.status,
            reply.body.len()
        );
        for (name, value) in reply.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let out = format!("{head}\r\n{}", reply.body);
        if socket.get_mut().write_all(out.as_bytes()).await.is_err() {
            return;
        }
    }
}

fn route(request: &Request, origin: &str, options: Options, books: &mut Books) -> Reply {
    match (request.method.as_str(), request.path()) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") => json_reply(
            200,
            json!({"resource": format!("{origin}/mcp"), "authorization_servers": [origin],
                   "scopes_supported": ["tools"]}),
        ),
        ("GET", "/.well-known/oauth-authorization-server") => {
            let mut metadata = json!({
                "issuer": origin,
                "authorization_endpoint": format!("{origin}/authorize"),
                "token_endpoint": format!("{origin}/token"),
                "response_types_supported": ["code"],
                "token_endpoint_auth_methods_supported": ["none"],
            });
            if options.pkce {
                metadata["code_challenge_methods_supported"] = json!(["S256"]);
            }
            if options.registration {
                metadata["registration_endpoint"] = json!(format!("{origin}/register"));
            }
            json_reply(200, metadata)
        }
        ("POST", "/register") => {
            let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
            books.registrations.push(body);
            json_reply(201, json!({"client_id": "registered-client"}))
        }
        ("GET", "/authorize") => {
            let query = request.query();
            let mut redirect = url::Url::parse(&query["redirect_uri"]).expect("redirect URI");
            redirect
                .query_pairs_mut()
                .append_pair("code", "the-code")
                .append_pair("state", query.get("state").map_or("", String::as_str))
                .append_pair("iss", origin);
            books.authorizations.push(query);
            Reply {
                status: 302,
                headers: vec![("Location", redirect.to_string())],
                body: String::new(),
            }
        }
        ("POST", "/token") => {
            let form = request.form();
            let good = match form.get("grant_type").map(String::as_str) {
                Some("authorization_code") => {
                    form.get("code").map(String::as_str) == Some("the-code")
                }
                Some("refresh_token") => form
                    .get("refresh_token")
                    .is_some_and(|t| books.valid_refresh.remove(t)),
                _ => false,
            };
            books.token_requests.push(form);
            if !good {
                return json_reply(400, json!({"error": "invalid_grant"}));
            }
            books.issued += 1;
            let access = format!("access-{}", books.issued);
            let refresh = format!("refresh-{}", books.issued);
            books.valid_access.insert(access.clone());
            books.valid_refresh.insert(refresh.clone());
            json_reply(
                200,
                json!({"access_token": access, "token_type": "Bearer",
                       "expires_in": options.expires_in, "refresh_token": refresh}),
            )
        }
        ("POST", "/mcp") => mcp(request, origin, books),
        ("GET", "/mcp") => empty(405),
        ("DELETE", "/mcp") => empty(200),
        _ => empty(404),
    }
}

/// The MCP server: every request needs a valid token.
fn mcp(request: &Request, origin: &str, books: &mut Books) -> Reply {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let method = body["method"].as_str().unwrap_or("").to_owned();
    let bearer = request
        .header("Authorization")
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    books.mcp.push((method.clone(), bearer.clone()));
    if !bearer.is_some_and(|t| books.valid_access.contains(&t)) {
        return Reply {
            status: 401,
            headers: vec![(
                "WWW-Authenticate",
                format!(
                    r#"Bearer resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp", scope="tools""#
                ),
            )],
            body: String::new(),
        };
    }
    let id = &body["id"];
    let result = match method.as_str() {
        "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                               "serverInfo": {"name": "guarded", "version": "1"}}),
        "tools/list" => json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}),
        "tools/call" if body["params"]["name"] == "forbidden" => {
            return Reply {
                status: 403,
                headers: vec![(
                    "WWW-Authenticate",
                    r#"Bearer error="access_denied", error_description="not for this account""#
                        .into(),
                )],
                body: String::new(),
            };
        }
        "tools/call" => json!({"content": [{"type": "text", "text": "done"}]}),
        _ => return empty(202),
    };
    json_reply(200, json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// The person: approves at once, the way the server's consent page redirects, and notes
/// every sign-in they were shown.
#[derive(Default)]
struct Person {
    shown: Mutex<Vec<SignIn>>,
    /// Answers with a `state` of another sign-in.
    forge_state: bool,
}

impl Person {
    fn sign_ins(&self) -> usize {
        self.shown.lock().expect("lock").len()
    }

    async fn approve(&self, sign_in: &SignIn) -> Result<Vec<(String, String)>, AuthError> {
        self.shown.lock().expect("lock").push(sign_in.clone());
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let response = http.get(&sign_in.url).send().await.expect("authorize");
        let location = response.headers()["Location"].to_str().expect("text");
        let redirect = url::Url::parse(location).expect("redirect URL");
        Ok(redirect
            .query_pairs()
            .into_owned()
            .map(|(k, v)| match (k.as_str(), self.forge_state) {
                ("state", true) => (k, "another-sign-in".into()),
                _ => (k, v),
            })
            .collect())
    }
}

impl UserAgent for Person {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1:9/callback".into()
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(self.approve(sign_in))
    }
}

async fn connect(
    server: &Guarded,
    store: Arc<dyn TokenStore>,
    person: Arc<dyn UserAgent>,
) -> Result<Client, ClientError> {
    connect_as(server, AuthConfig::new("switchboard-tests"), store, person).await
}

async fn connect_as(
    server: &Guarded,
    config: AuthConfig,
    store: Arc<dyn TokenStore>,
    person: Arc<dyn UserAgent>,
) -> Result<Client, ClientError> {
    let auth = Authorization::new(&server.url, config, store, person).expect("a valid URL");
    let settings = HttpServer::new(&server.url).authorization(auth);
    let (transport, _) = http::connect(&settings, discard_log()).expect("valid settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.request_timeout = Duration::from_secs(10);
    config.era = EraSetting::Session;
    Client::connect(transport, Arc::new(DecliningHandler), config).await
}

fn auth_error<T>(outcome: Result<T, ClientError>) -> AuthError {
    match outcome {
        Err(ClientError::Request(RequestError::Transport {
            error: TransportError::Authorization(error),
            ..
        })) => error,
        Err(other) => panic!("expected an authorization error, got {other}"),
        Ok(_) => panic!("expected an authorization error, got a success"),
    }
}

#[tokio::test]
async fn a_first_401_signs_in_and_every_request_then_carries_the_token() {
    let server = Guarded::start(Options::default()).await;
    let person = Arc::new(Person::default());
    let client = connect(&server, Arc::new(MemoryStore::default()), person.clone())
        .await
        .expect("connected after signing in");
    let tools = client.list_tools().await.expect("tools");
    assert_eq!(tools[0].name, "echo");

    let shown = person.shown.lock().expect("lock").clone();
    assert_eq!(shown.len(), 1, "one sign-in");
    assert_eq!(shown[0].resource, server.url);
    assert_eq!(shown[0].scopes, ["tools"]);
    server.books(|b| {
        assert_eq!(b.registrations.len(), 1);
        assert_eq!(b.registrations[0]["application_type"], "native");
        let authorization = &b.authorizations[0];
        assert_eq!(authorization["code_challenge_method"], "S256");
        assert_eq!(authorization["resource"], server.url);
        let token = &b.token_requests[0];
        assert!(token.contains_key("code_verifier"));
        assert_eq!(token["resource"], server.url);
        // After the refused first request, every request carried the token.
        let after: Vec<_> = b.mcp.iter().skip(1).collect();
        assert!(
            after.iter().all(|(_, t)| t.as_deref() == Some("access-1")),
            "{after:?}"
        );
    });
}

#[tokio::test]
async fn the_browser_comes_back_to_a_loopback_port_and_is_told_it_is_done() {
    let server = Guarded::start(Options::default()).await;
    let browser = Arc::new(Browser::new().await);
    let client = connect(&server, Arc::new(MemoryStore::default()), browser.clone())
        .await
        .expect("connected after signing in");
    client.list_tools().await.expect("tools");
    assert!(browser.redirect_uri().starts_with("http://127.0.0.1:"));
    assert!(
        browser
            .last_page
            .lock()
            .expect("lock")
            .starts_with("Signed in."),
        "the browser showed {:?}",
        browser.last_page.lock().expect("lock")
    );
    server.books(|b| {
        assert_eq!(
            b.registrations[0]["redirect_uris"][0],
            browser.redirect_uri()
        )
    });
}

/// Longer than any sign-in here takes: past it, the browser was left waiting.
const BROWSER_BOUND: Duration = Duration::from_secs(60);

#[tokio::test]
async fn a_stray_request_at_the_loopback_port_leaves_the_sign_in_waiting_for_its_redirect() {
    let server = Guarded::start(Options::default()).await;
    let browser = Arc::new(Browser::with_stray(Stray::WrongState).await);
    let client = connect(&server, Arc::new(MemoryStore::default()), browser.clone())
        .await
        .expect("signed in despite the stray requests");
    client.list_tools().await.expect("tools");
    assert_eq!(
        *browser.stray_answers.lock().expect("lock"),
        [404, 400],
        "an icon is not found; a redirect of another sign-in is refused"
    );
    assert!(
        browser
            .last_page
            .lock()
            .expect("lock")
            .starts_with("Signed in.")
    );
    server.books(|b| assert_eq!(b.token_requests[0]["code"], "the-code"));
}

#[tokio::test]
async fn a_connection_that_sends_nothing_does_not_keep_the_redirect_waiting() {
    let server = Guarded::start(Options::default()).await;
    let browser = Arc::new(Browser::with_stray(Stray::Silent).await);
    let store = Arc::new(MemoryStore::default());
    let client = tokio::time::timeout(BROWSER_BOUND, connect(&server, store, browser.clone()))
        .await
        .expect("the redirect was answered while a silent connection stayed open")
        .expect("signed in");
    client.list_tools().await.expect("tools");
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_before_it_is_sent() {
    let server = Guarded::start(Options {
        expires_in: 5,
        ..Options::default()
    })
    .await;
    let person = Arc::new(Person::default());
    let client = connect(&server, Arc::new(MemoryStore::default()), person.clone())
        .await
        .expect("connected");
    client.list_tools().await.expect("tools");

    assert_eq!(person.sign_ins(), 1);
    let grants = server.grant_types();
    assert_eq!(grants[0], "authorization_code");
    assert!(grants[1..].iter().all(|g| g == "refresh_token") && grants.len() > 1);
    server.books(|b| {
        let (method, token) = b.mcp.last().cloned().expect("a request");
        assert_eq!(method, "tools/list");
        // Sent with the newest token, never refused after signing in.
        assert_eq!(token, Some(format!("access-{}", b.issued)));
        assert_eq!(b.mcp.iter().filter(|(_, t)| t.is_none()).count(), 1);
    });
}

/// A server whose tokens last `expires_in` seconds, the client signed in to it, with its
/// store and the person who signed in.
async fn signed_in(expires_in: u64) -> (Guarded, Arc<MemoryStore>, Arc<Person>, Client) {
    let server = Guarded::start(Options {
        expires_in,
        ..Options::default()
    })
    .await;
    let store = Arc::new(MemoryStore::default());
    let person = Arc::new(Person::default());
    let client = connect(&server, store.clone(), person.clone())
        .await
        .expect("connected after signing in");
    (server, store, person, client)
}

/// An authorization server may say its token lasts "forever" with the largest number it
/// can write: the sign-in completes, and the token is kept as one that never ends.
#[tokio::test]
async fn a_token_granted_for_ever_is_kept_and_never_refreshed() {
    let (server, store, person, client) = signed_in(u64::MAX).await;
    client.list_tools().await.expect("tools");
    let grant = store
        .load(&server.url)
        .expect("store")
        .expect("a grant kept");
    assert_eq!(grant.tokens.expires_at, Some(u64::MAX));
    assert_eq!(person.sign_ins(), 1);
    assert_eq!(server.grant_types(), ["authorization_code"]);
}

/// A call cancelled while its token is being refreshed leaves the refresh to finish: the
/// authorization server spent the old refresh token when it issued the new one, so the new
/// one is kept, and the person is not asked to sign in again once the access token ends.
#[tokio::test]
async fn a_call_cancelled_during_a_refresh_loses_no_refresh_token() {
    let (server, store, person, client) = signed_in(5).await;
    client.list_tools().await.expect("tools");
    let (open, gate) = tokio::sync::watch::channel(false);
    server.hold_refreshes(gate);

    let cancel = tokio_util::sync::CancellationToken::new();
    let mut options = client.request_options();
    options.cancel = Some(cancel.clone());
    let call = tokio::spawn({
        let client = client.clone();
        async move { client.call_tool("echo", None, options).await }
    });
    tokio::time::timeout(Duration::from_secs(30), server.held.holding.notified())
        .await
        .expect("the call's refresh reached the authorization server");
    // From here on nothing waits on the network until the refresh is let go.
    tokio::time::pause();
    cancel.cancel();
    let cancelled = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the cancelled call ends at once");
    assert!(matches!(
        cancelled.expect("no panic"),
        Err(ClientError::Request(RequestError::Cancelled { .. }))
    ));
    // Past the 10 s the transport waits for a cancelled request to leave before it lets go
    // of its exchange, within the 30 s a token request may take.
    tokio::time::sleep(Duration::from_secs(15)).await;
    server.revoke_access_tokens();
    open.send_replace(true);

    client
        .call_tool("echo", None, client.request_options())
        .await
        .expect("the call succeeds with the refreshed tokens");
    assert_eq!(person.sign_ins(), 1, "the person was not asked again");
    let kept = store.load(&server.url).expect("store").expect("a grant");
    let issued = server.books(|b| b.issued);
    assert_eq!(kept.tokens.refresh_token, Some(format!("refresh-{issued}")));
}

#[tokio::test]
async fn concurrent_requests_refused_at_once_share_one_refresh() {
    let server = Guarded::start(Options::default()).await;
    let person = Arc::new(Person::default());
    let client = connect(&server, Arc::new(MemoryStore::default()), person.clone())
        .await
        .expect("connected");
    // The calls check their arguments against the listed schemas: list them first, so
    // that the calls alone meet the refusal.
    client.list_tools().await.expect("tools");
    server.revoke_access_tokens();

    let calls = (0..4).map(|_| client.call_tool("echo", None, client.request_options()));
    for outcome in futures_util::future::join_all(calls).await {
        outcome.expect("the call succeeds after the refresh");
    }
    assert_eq!(person.sign_ins(), 1, "the person was not asked again");
    assert_eq!(
        server.grant_types(),
        ["authorization_code", "refresh_token"],
        "one refresh for all the refused calls"
    );
}

#[tokio::test]
async fn when_the_refresh_token_is_refused_too_the_person_signs_in_again() {
    let server = Guarded::start(Options::default()).await;
    let person = Arc::new(Person::default());
    let client = connect(&server, Arc::new(MemoryStore::default()), person.clone())
        .await
        .expect("connected");
    server.revoke_all_tokens();

    client
        .list_tools()
        .await
        .expect("tools after signing in again");
    assert_eq!(person.sign_ins(), 2);
    assert_eq!(
        server.grant_types(),
        ["authorization_code", "refresh_token", "authorization_code"],
        "the refresh was tried first"
    );
    // The client registered once is used again with the same authorization server.
    assert_eq!(server.books(|b| b.registrations.len()), 1);
}

#[tokio::test]
async fn a_stored_grant_is_used_without_asking_again() {
    let server = Guarded::start(Options::default()).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let first = Arc::new(Person::default());
    connect(&server, store.clone(), first.clone())
        .await
        .expect("first connection")
        .close()
        .await;
    let grant = store
        .load(&server.url)
        .expect("store")
        .expect("a grant kept");
    assert_eq!(grant.resource, server.url);
    assert_eq!(grant.client.client_id, "registered-client");

    let second = Arc::new(Person::default());
    let client = connect(&server, store, second.clone())
        .await
        .expect("second connection");
    client.list_tools().await.expect("tools");
    assert_eq!(second.sign_ins(), 0);
    assert_eq!(server.books(|b| b.registrations.len()), 1);
}

#[tokio::test]
async fn refusals_before_the_browser_opens() {
    let cases = [
        (
            Options {
                pkce: false,
                ..Options::default()
            },
            "no PKCE S256",
        ),
        (
            Options {
                registration: false,
                ..Options::default()
            },
            "no way to register",
        ),
    ];
    for (options, case) in cases {
        let server = Guarded::start(options).await;
        let person = Arc::new(Person::default());
        let error =
            auth_error(connect(&server, Arc::new(MemoryStore::default()), person.clone()).await);
        match case {
            "no PKCE S256" => assert!(
                matches!(error, AuthError::PkceUnsupported { .. }),
                "{error}"
            ),
            _ => assert!(matches!(error, AuthError::NoRegistration { .. }), "{error}"),
        }
        assert_eq!(person.sign_ins(), 0, "{case}: the person was not asked");
        assert!(server.books(|b| b.authorizations.is_empty()), "{case}");
    }
}

#[tokio::test]
async fn an_answer_with_another_state_is_refused_and_its_code_not_redeemed() {
    let server = Guarded::start(Options::default()).await;
    let person = Arc::new(Person {
        forge_state: true,
        ..Person::default()
    });
    let error = auth_error(connect(&server, Arc::new(MemoryStore::default()), person).await);
    assert_eq!(error, AuthError::StateMismatch);
    assert!(server.books(|b| b.token_requests.is_empty()));
}

#[tokio::test]
async fn a_403_that_more_scopes_would_not_cure_fails_the_call_without_a_sign_in() {
    let server = Guarded::start(Options::default()).await;
    let person = Arc::new(Person::default());
    let client = connect(&server, Arc::new(MemoryStore::default()), person.clone())
        .await
        .expect("connected");
    let error = auth_error(
        client
            .call_tool("forbidden", None, client.request_options())
            .await,
    );
    assert_eq!(
        error,
        AuthError::Forbidden {
            detail: "not for this account".into()
        }
    );
    assert_eq!(person.sign_ins(), 1);
}

#[tokio::test]
async fn a_server_on_the_internet_cannot_lead_sign_in_to_this_machine() {
    let local = Guarded::start(Options::default()).await;
    let metadata = local
        .url
        .replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let auth = Authorization::new(
        "https://mcp.example.com/mcp",
        AuthConfig::new("switchboard-tests"),
        Arc::new(MemoryStore::default()),
        Arc::new(Person::default()),
    )
    .expect("a valid URL");
    let challenge = format!("Bearer resource_metadata=\"{metadata}\"");
    let error = auth
        .challenged(401, Some(&challenge), None, None)
        .await
        .expect_err("refused");
    assert_eq!(
        error,
        AuthError::Unreachable {
            url: metadata,
            reason: "it is on this machine, and the server is not".into()
        }
    );
    assert!(
        error
            .to_string()
            .contains("refusing to reach http://127.0.0.1:"),
        "{error}"
    );
    assert_eq!(local.books(|b| b.paths.len()), 0, "nothing was asked of it");
}

#[tokio::test]
async fn a_client_secret_entered_for_another_authorization_server_or_none_is_not_sent() {
    for entered in [Some("https://auth.example.com"), None] {
        let server = Guarded::start(Options::default()).await;
        let mut config = AuthConfig::new("switchboard-tests");
        config.pre_registered = Some(PreRegistered {
            client_id: "pre-registered".into(),
            client_secret: Some("pre-registered-s3cret".into()),
            issuer: entered.map(str::to_owned),
        });
        let person = Arc::new(Person::default());
        let store = Arc::new(MemoryStore::default());
        let error = auth_error(connect_as(&server, config, store, person.clone()).await);
        let origin = server.url.trim_end_matches("/mcp").to_owned();
        assert_eq!(
            error,
            AuthError::SecretForAnotherIssuer {
                entered: entered.map(str::to_owned),
                named: origin
            },
            "{entered:?}"
        );
        assert_eq!(
            person.sign_ins(),
            0,
            "{entered:?}: the person was not asked"
        );
        server.books(|b| assert!(b.token_requests.is_empty() && b.registrations.is_empty()));
    }
}

/// A store holding a grant per authorization server, the last saved being another's.
struct PerIssuer(Mutex<Vec<Grant>>);

impl TokenStore for PerIssuer {
    fn load(&self, _server: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self.0.lock().expect("lock").last().cloned())
    }

    fn load_for(&self, _server: &str, issuer: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self
            .0
            .lock()
            .expect("lock")
            .iter()
            .find(|g| g.issuer == issuer)
            .cloned())
    }

    fn save(&self, _server: &str, grant: &Grant) -> Result<(), AuthError> {
        let mut grants = self.0.lock().expect("lock");
        grants.retain(|g| g.issuer != grant.issuer);
        grants.push(grant.clone());
        Ok(())
    }

    fn delete(&self, _server: &str) -> Result<(), AuthError> {
        self.0.lock().expect("lock").clear();
        Ok(())
    }
}

#[tokio::test]
async fn the_grant_of_the_authorization_server_the_resource_names_is_the_one_used() {
    let server = Guarded::start(Options::default()).await;
    let memory: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    connect(&server, memory.clone(), Arc::new(Person::default()))
        .await
        .expect("first connection")
        .close()
        .await;
    let ours = memory.load(&server.url).expect("store").expect("a grant");
    server.revoke_access_tokens();
    // Saved last: a grant of another authorization server for the same resource.
    let elsewhere = Grant {
        issuer: "https://elsewhere.example".into(),
        tokens: Tokens {
            access_token: "elsewhere-access".into(),
            refresh_token: Some("elsewhere-refresh".into()),
            expires_at: None,
            scopes: vec!["tools".into()],
            bound: false,
        },
        ..ours.clone()
    };
    let store = Arc::new(PerIssuer(Mutex::new(vec![ours.clone(), elsewhere])));

    let person = Arc::new(Person::default());
    let client = connect(&server, store.clone(), person.clone())
        .await
        .expect("connected with the kept grant");
    client.list_tools().await.expect("tools");
    assert_eq!(
        person.sign_ins(),
        0,
        "the server's own issuer's grant was refreshed"
    );
    let refreshes: Vec<_> = server.books(|b| {
        b.token_requests
            .iter()
            .filter_map(|r| r.get("refresh_token").cloned())
            .collect()
    });
    assert_eq!(
        refreshes,
        [ours.tokens.refresh_token.clone().expect("a refresh token")]
    );
    assert_eq!(
        store
            .load(&server.url)
            .expect("store")
            .expect("a grant")
            .issuer,
        ours.issuer,
        "the refreshed grant is the one in use now"
    );
}
