//! The client side of MCP authorization (every revision's `basic/authorization`): on a
//! 401 or 403 the HTTP transports call [`Authorization::challenged`], which discovers the
//! authorization server (only where `reach` allows), puts the sign-in to the person,
//! registers a client once they agreed, has them sign in, and keeps the tokens fresh;
//! [`Authorization::bearer`] gives the token every request carries.
//!
//! The person's part and the storage are the caller's: a [`UserAgent`] shows the sign-in
//! (a browser after a confirmation, or a script in tests) and hands back the redirect's
//! query (a [`Loopback`] receives it from a browser); a [`TokenStore`] keeps what was
//! granted (the OS keyring in the app).
//!
//! The grants themselves go through the `oauth2` crate (see [`grant`]); discovery,
//! registration and the rules MCP adds are written here.

mod challenge;
mod discovery;
mod error;
mod fetch;
mod grant;
mod jwt;
mod loopback;
mod reach;
mod registration;
mod unattended;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use challenge::Challenge;
pub use discovery::{ResourceMetadata, ServerMetadata};
pub use error::AuthError;
pub use grant::Tokens;
pub use loopback::Loopback;
pub use registration::{CLIENT_ID_ON_SIGN_IN, RegisteredClient, RegistrationKind, TokenAuthMethod};
pub use unattended::{ClientProof, Enterprise, Flow, Secret, TokenSource};

use fetch::{Exchange, Nonces, Proving};

/// Whether `pem` is a private key that signs with the JWS `algorithm`; the error says why not.
pub fn check_signing_key(pem: &str, algorithm: &str) -> Result<(), AuthError> {
    let key = jwt::SigningKey::from_pem(pem, algorithm)?;
    // A key is known good once it has signed.
    jwt::client_assertion(&key, "check", "check").map(drop)
}
use jwt::ProofKey;

use futures_util::future::BoxFuture;

/// A token that ends sooner than this is refreshed before it is sent.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// What `Debug` shows in place of a secret.
const REDACTED: &str = "<redacted>";

/// A client registered beforehand (entered by the person), for the authorization server
/// `issuer`. A secret is sent to that server alone; a public client without `issuer` is
/// used with whichever the server names. Its `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct PreRegistered {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub issuer: Option<String>,
}

impl std::fmt::Debug for PreRegistered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreRegistered")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| REDACTED),
            )
            .field("issuer", &self.issuer)
            .finish()
    }
}

/// Who this app is to authorization servers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// Shown by the authorization server on its consent page.
    pub client_name: String,
    pub pre_registered: Option<PreRegistered>,
    /// The app's Client ID Metadata Document (an https URL), used where supported.
    pub client_metadata_url: Option<String>,
    /// Refusals one request may answer by refreshing or signing in (the first sign-in,
    /// then step-ups) before it fails.
    pub max_sign_ins_per_request: u32,
    /// How tokens are obtained: the person signs in (the default), or a grant of the
    /// client's own.
    pub flow: Flow,
    /// For a grant of the client's own: the authorization server its credentials were made
    /// for, the only one they are sent to; `None` sends them to the one the MCP server names.
    pub flow_issuer: Option<String>,
    /// Binds tokens to a key of this client's (DPoP, RFC 9449) where the authorization
    /// server offers it with ES256.
    pub dpop: bool,
}

impl AuthConfig {
    pub fn new(client_name: impl Into<String>) -> Self {
        Self {
            client_name: client_name.into(),
            pre_registered: None,
            client_metadata_url: None,
            max_sign_ins_per_request: 3,
            flow: Flow::SignIn,
            flow_issuer: None,
            dpop: true,
        }
    }
}

/// What the person is asked to approve before the browser opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignIn {
    /// The authorization URL to open.
    pub url: String,
    /// The authorization server, as its metadata names it.
    pub issuer: String,
    /// The MCP server the tokens are for.
    pub resource: String,
    pub scopes: Vec<String>,
    /// The `state` the redirect that ends this sign-in carries (it is in `url` too).
    pub state: String,
}

/// The person's side of a sign-in.
pub trait UserAgent: Send + Sync {
    /// Where the authorization server sends the person back (a loopback URL in the app).
    fn redirect_uri(&self) -> String;
    /// Whether a sign-in may be shown now. When it may not (no one asked to sign in), the
    /// sign-in stops here, before anything is registered with the authorization server.
    fn ready(&self) -> Result<(), AuthError> {
        Ok(())
    }
    /// Puts the sign-in to the person, before anything is sent to its authorization
    /// server; an error if they do not agree. Where a client is still to be registered,
    /// `sign_in.url` names it [`CLIENT_ID_ON_SIGN_IN`]: [`Self::authorize`] then gets the
    /// same page with the id the authorization server gave.
    fn confirm<'a>(&'a self, sign_in: &'a SignIn) -> BoxFuture<'a, Result<(), AuthError>> {
        let _ = sign_in;
        Box::pin(async { Ok(()) })
    }
    /// Shows the sign-in and returns the query of the redirect that ends it.
    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>>;
}

/// What a sign-in leaves, kept per resource: the client and the tokens, bound to the
/// authorization server that issued them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    pub issuer: String,
    pub resource: String,
    pub client: RegisteredClient,
    pub tokens: Tokens,
    /// The DPoP key bound tokens are proven with, kept as long as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_key: Option<Secret>,
}

impl Grant {
    /// Gives up its tokens at the authorization server that issued them, if that server
    /// offers revocation (RFC 7009; its metadata read again, its issuer checked): `Ok(true)`
    /// once they are revoked, `Ok(false)` when it offers no revocation.
    pub async fn revoke(&self) -> Result<bool, AuthError> {
        let http = fetch::client()?;
        let reach = reach::Reach::of_resource(&self.resource)?;
        let server = discovery::authorization_server(&http, &reach, &self.issuer).await?;
        let parties = grant::Parties {
            server: &server,
            client: &self.client,
            // Not used by revocation, but every client the `oauth2` crate makes has one.
            redirect_uri: "http://127.0.0.1/callback",
            resource: &self.resource,
        };
        grant::revoke(&http, &parties, &self.tokens).await
    }
}

/// Where grants are kept between runs, for the MCP server at a URL (the resource). A
/// store may keep a grant per authorization server: `load` gives the one last saved,
/// `load_for` the one `issuer` granted.
pub trait TokenStore: Send + Sync {
    fn load(&self, server: &str) -> Result<Option<Grant>, AuthError>;
    /// The grant `issuer` gave for `server`; by default the last saved, if it is that one's.
    fn load_for(&self, server: &str, issuer: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self.load(server)?.filter(|g| g.issuer == issuer))
    }
    fn save(&self, server: &str, grant: &Grant) -> Result<(), AuthError>;
    fn delete(&self, server: &str) -> Result<(), AuthError>;
}

/// A store that forgets everything when dropped (the CLI, tests).
#[derive(Default)]
pub struct MemoryStore(Mutex<std::collections::HashMap<String, Grant>>);

impl TokenStore for MemoryStore {
    fn load(&self, server: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self.lock().get(server).cloned())
    }

    fn save(&self, server: &str, grant: &Grant) -> Result<(), AuthError> {
        self.lock().insert(server.to_owned(), grant.clone());
        Ok(())
    }

    fn delete(&self, server: &str) -> Result<(), AuthError> {
        self.lock().remove(server);
        Ok(())
    }
}

impl MemoryStore {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Grant>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The authorization client of one connection. Cheap to clone; clones share the tokens.
#[derive(Clone)]
pub struct Authorization(Arc<Inner>);

impl std::fmt::Debug for Authorization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorization")
            .field("server", &self.0.server.as_str())
            .finish_non_exhaustive()
    }
}

struct Inner {
    server: url::Url,
    config: AuthConfig,
    store: Arc<dyn TokenStore>,
    agent: Arc<dyn UserAgent>,
    http: reqwest::Client,
    /// The grant in use; locked only for a moment.
    state: Mutex<State>,
    /// Held through a refresh or a sign-in: one at a time per connection.
    busy: tokio::sync::Mutex<()>,
    /// The refresh under way, which every caller that needs it waits for.
    refreshing: Mutex<Option<Refreshing>>,
    /// The DPoP nonces the servers gave.
    nonces: Nonces,
    /// The grant's DPoP key as last read from its kept form: read once, not per request.
    proof_key: Mutex<Option<(Secret, ProofKey)>>,
}

/// A refresh running in a task of its own: a caller that stops waiting (a call cancelled)
/// leaves it to finish, so that the tokens it brings are kept even though the refresh
/// token it spent is gone.
struct Refreshing {
    /// The refresh token it spends.
    spends: Option<String>,
    outcome: tokio::sync::watch::Receiver<Option<Result<(), AuthError>>>,
}

#[derive(Default)]
struct State {
    loaded: bool,
    grant: Option<Grant>,
    /// The authorization server's metadata, once discovered in this run.
    server: Option<ServerMetadata>,
}

impl Authorization {
    pub fn new(
        server: &str,
        config: AuthConfig,
        store: Arc<dyn TokenStore>,
        agent: Arc<dyn UserAgent>,
    ) -> Result<Self, AuthError> {
        let server = url::Url::parse(server).map_err(|e| AuthError::Discovery {
            url: server.to_owned(),
            detail: format!("not a URL: {e}"),
        })?;
        Ok(Self(Arc::new(Inner {
            server,
            config,
            store,
            agent,
            http: fetch::client()?,
            state: Mutex::new(State::default()),
            busy: tokio::sync::Mutex::new(()),
            refreshing: Mutex::new(None),
            nonces: Nonces::default(),
            proof_key: Mutex::new(None),
        })))
    }

    /// The grant in use, if any (for showing who is signed in, and until when).
    pub fn grant(&self) -> Result<Option<Grant>, AuthError> {
        self.0.load()?;
        Ok(self.0.state(|s| s.grant.clone()))
    }

    /// Forgets the grant here and in the store.
    pub fn sign_out(&self) -> Result<(), AuthError> {
        self.0.state(|s| s.grant = None);
        self.0.store.delete(self.0.key())
    }

    /// The access token to send, refreshed first if it is about to end.
    pub async fn bearer(&self) -> Result<Option<String>, AuthError> {
        self.0.load()?;
        let Some(grant) = self.0.state(|s| s.grant.clone()) else {
            return Ok(None);
        };
        if grant.tokens.expires_within(REFRESH_MARGIN) && grant.tokens.refresh_token.is_some() {
            let _one = self.0.busy.lock().await;
            // Another request may have refreshed it meanwhile.
            let current = self.0.state(|s| s.grant.clone());
            if current.as_ref() == Some(&grant) && self.0.refresh(&grant).await.is_err() {
                // The server's 401 will start a sign-in.
                return Ok(Some(grant.tokens.access_token));
            }
        }
        Ok(self
            .0
            .state(|s| s.grant.as_ref().map(|g| g.tokens.access_token.clone())))
    }

    pub fn max_sign_ins_per_request(&self) -> u32 {
        self.0.config.max_sign_ins_per_request
    }

    /// The token now in use, without refreshing (for streams opened in passing).
    pub fn current_token(&self) -> Option<String> {
        self.0
            .state(|s| s.grant.as_ref().map(|g| g.tokens.access_token.clone()))
    }

    /// `request` (a `method` to `url`) with the token now in use: as a bearer token, or,
    /// bound to a key, as a DPoP token with a fresh proof of the key (RFC 9449 §7.1).
    pub fn present(
        &self,
        request: reqwest::RequestBuilder,
        method: &str,
        url: &str,
    ) -> reqwest::RequestBuilder {
        let Some(grant) = self.0.state(|s| s.grant.clone()) else {
            return request;
        };
        let token = &grant.tokens.access_token;
        let key = match grant.proof_key.as_ref().filter(|_| grant.tokens.bound) {
            None => return request.bearer_auth(token),
            Some(kept) => self.0.proof_key(kept),
        };
        let nonce = self.0.nonces.get(url);
        match key.and_then(|key| key.proof(method, url, Some(token), nonce.as_deref())) {
            Ok(proof) => request
                .header("Authorization", format!("DPoP {token}"))
                .header("DPoP", proof),
            Err(e) => {
                // Sent without: the server's refusal then says so where the person looks.
                tracing::warn!(server = %self.0.server, "no DPoP proof: {e}");
                request.header("Authorization", format!("DPoP {token}"))
            }
        }
    }

    /// Handles a 401 or 403 the server answered to a request sent with `sent`: takes the
    /// DPoP nonce it asks for (`nonce`, its `DPoP-Nonce`), refreshes, signs in, or steps up,
    /// so that the request may be sent again.
    pub async fn challenged(
        &self,
        status: u16,
        header: Option<&str>,
        sent: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<(), AuthError> {
        let challenge = header.map(Challenge::parse).unwrap_or_default();
        if status == 401
            && challenge.wants_nonce()
            && let Some(nonce) = nonce
            && self.0.nonces.get(self.0.server.as_str()).as_deref() != Some(nonce)
        {
            self.0.nonces.keep(self.0.server.as_str(), nonce);
            return Ok(());
        }
        let _one = self.0.busy.lock().await;
        self.0.load()?;
        let grant = self.0.state(|s| s.grant.clone());
        let current = grant.as_ref().map(|g| g.tokens.access_token.as_str());
        if status == 403 {
            if !challenge.insufficient_scope() {
                return Err(AuthError::Forbidden {
                    detail: challenge
                        .error_description
                        .or(challenge.error)
                        .unwrap_or_else(|| "HTTP 403".into()),
                });
            }
            // Step-up: the union of what was asked before and what the operation needs.
            let mut scopes: BTreeSet<String> = grant
                .map(|g| g.tokens.scopes.into_iter().collect())
                .unwrap_or_default();
            scopes.extend(challenge.scope.clone().unwrap_or_default());
            return self
                .0
                .sign_in(&challenge, Some(scopes.into_iter().collect()))
                .await;
        }
        if current != sent && current.is_some() {
            // Another request already renewed the token: just send again.
            return Ok(());
        }
        self.0.sign_in_or_refresh(&challenge, grant).await
    }
}

impl Inner {
    fn state<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut state)
    }

    /// The DPoP key `kept` holds.
    fn proof_key(&self, kept: &Secret) -> Result<ProofKey, AuthError> {
        let mut cached = self.proof_key.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((from, key)) = cached.as_ref()
            && from == kept
        {
            return Ok(key.clone());
        }
        let key = ProofKey::from_kept(&kept.0)?;
        *cached = Some((kept.clone(), key.clone()));
        Ok(key)
    }

    fn key(&self) -> &str {
        self.server.as_str()
    }

    fn load(&self) -> Result<(), AuthError> {
        if self.state(|s| s.loaded) {
            return Ok(());
        }
        let grant = self.store.load(self.key())?;
        self.state(|s| {
            if !s.loaded {
                s.loaded = true;
                s.grant = grant;
            }
        });
        Ok(())
    }

    fn keep(&self, grant: Grant) -> Result<(), AuthError> {
        self.store.save(self.key(), &grant)?;
        self.state(|s| s.grant = Some(grant));
        Ok(())
    }

    /// A refresh with the authorization server the grant came from, if still the server's.
    async fn sign_in_or_refresh(
        self: &Arc<Self>,
        challenge: &Challenge,
        grant: Option<Grant>,
    ) -> Result<(), AuthError> {
        let discovered = self.discover(challenge).await?;
        let grant = self.grant_of(grant, &discovered.server.issuer)?;
        if let Some(grant) = grant
            && grant.issuer == discovered.server.issuer
            && grant.tokens.refresh_token.is_some()
            && self.refresh(&grant).await.is_ok()
        {
            return Ok(());
        }
        self.authorize(&discovered, challenge, None).await
    }

    async fn sign_in(
        &self,
        challenge: &Challenge,
        scopes: Option<Vec<String>>,
    ) -> Result<(), AuthError> {
        let discovered = self.discover(challenge).await?;
        self.authorize(&discovered, challenge, scopes).await
    }

    async fn discover(&self, challenge: &Challenge) -> Result<discovery::Discovered, AuthError> {
        let discovered = discovery::discover(
            &self.http,
            &self.server,
            challenge.resource_metadata.as_deref(),
        )
        .await?;
        self.state(|s| s.server = Some(discovered.server.clone()));
        Ok(discovered)
    }

    /// The grant of `issuer`: the one in use if it is that issuer's, else the one the store
    /// keeps from it (made the one in use); a grant of another issuer is never used with it.
    fn grant_of(&self, current: Option<Grant>, issuer: &str) -> Result<Option<Grant>, AuthError> {
        if current.as_ref().is_some_and(|g| g.issuer == issuer) {
            return Ok(current);
        }
        let kept = self.store.load_for(self.key(), issuer)?;
        if kept.is_some() {
            self.state(|s| s.grant.clone_from(&kept));
        }
        Ok(kept)
    }

    /// Refreshes `grant`, joining the refresh of the same refresh token if one is under way
    /// or succeeded (the token is spent); one that failed is tried again.
    async fn refresh(self: &Arc<Self>, grant: &Grant) -> Result<(), AuthError> {
        let (mut outcome, started) = {
            let mut refreshing = self.refreshing.lock().unwrap_or_else(|p| p.into_inner());
            match &*refreshing {
                Some(running)
                    if running.spends == grant.tokens.refresh_token
                        && !matches!(&*running.outcome.borrow(), Some(Err(_))) =>
                {
                    (running.outcome.clone(), None)
                }
                _ => {
                    let (done, outcome) = tokio::sync::watch::channel(None);
                    *refreshing = Some(Refreshing {
                        spends: grant.tokens.refresh_token.clone(),
                        outcome: outcome.clone(),
                    });
                    (outcome, Some(done))
                }
            }
        };
        if let Some(done) = started {
            let (inner, refreshed) = (self.clone(), grant.clone());
            // A task of its own, which a caller that stops waiting does not end: the
            // authorization server spends the refresh token as it issues the new tokens.
            tokio::spawn(async move {
                done.send_replace(Some(inner.refresh_now(&refreshed).await));
            });
        }
        let ended = outcome
            .wait_for(Option::is_some)
            .await
            .map(|ended| ended.clone());
        match ended {
            Ok(Some(ended)) => ended,
            _ => Err(AuthError::Token {
                url: grant.issuer.clone(),
                detail: "the refresh ended without an outcome".into(),
            }),
        }
    }

    async fn refresh_now(&self, grant: &Grant) -> Result<(), AuthError> {
        let server = match self.state(|s| s.server.clone()) {
            Some(server) if server.issuer == grant.issuer => server,
            _ => {
                let reach = reach::Reach::of(&self.server);
                discovery::authorization_server(&self.http, &reach, &grant.issuer).await?
            }
        };
        let parties = grant::Parties {
            server: &server,
            client: &grant.client,
            redirect_uri: &self.agent.redirect_uri(),
            resource: &grant.resource,
        };
        let key = grant
            .proof_key
            .as_ref()
            .map(|kept| self.proof_key(kept))
            .transpose()?;
        let exchange = self.exchange(key.as_ref());
        let tokens = grant::refresh(&exchange, &parties, &grant.tokens).await?;
        self.keep(Grant {
            proof_key: grant.proof_key.clone().filter(|_| tokens.bound),
            tokens,
            ..grant.clone()
        })
    }

    /// The authorization code flow, from registration to the stored grant.
    async fn authorize(
        &self,
        discovered: &discovery::Discovered,
        challenge: &Challenge,
        scopes: Option<Vec<String>>,
    ) -> Result<(), AuthError> {
        let server = &discovered.server;
        let key = self.proof_key_for(server)?;
        if !self.config.flow.is_sign_in() {
            return self.obtain(discovered, challenge, scopes, key).await;
        }
        if !server.supports_s256() {
            return Err(AuthError::PkceUnsupported {
                issuer: server.issuer.clone(),
            });
        }
        self.agent.ready()?;
        let redirect_uri = self.agent.redirect_uri();
        let previous = self.state(|s| s.grant.clone());
        // A client is bound to the authorization server that registered it; one from a
        // metadata document is valid anywhere.
        let known = match previous {
            Some(grant)
                if grant.issuer == server.issuer
                    || grant.client.kind == RegistrationKind::MetadataDocument =>
            {
                Some(grant.client)
            }
            _ => registration::known_client(&self.config, server)?,
        };
        let scopes = scopes.unwrap_or_else(|| choose_scopes(challenge, discovered));
        let mut asked = scopes.clone();
        if server
            .scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|s| s == OFFLINE_ACCESS))
            && !asked.iter().any(|s| s == OFFLINE_ACCESS)
        {
            asked.push(OFFLINE_ACCESS.into());
        }
        let secrets = grant::RequestSecrets::random();
        let page = |client: &RegisteredClient| {
            let parties = grant::Parties {
                server,
                client,
                redirect_uri: &redirect_uri,
                resource: &discovered.resource,
            };
            grant::start(&parties, &asked, &secrets)
        };
        // Nothing is sent to the authorization server before the person agreed to it.
        let shown = page(known.as_ref().unwrap_or(&registration::to_register()))?;
        let mut sign_in = SignIn {
            url: shown.url.clone(),
            issuer: server.issuer.clone(),
            resource: discovered.resource.clone(),
            scopes: asked.clone(),
            state: shown.state().to_owned(),
        };
        self.agent.confirm(&sign_in).await?;
        let client = match known {
            Some(client) => client,
            None => registration::register(&self.http, &self.config, server, &redirect_uri).await?,
        };
        let pending = page(&client)?;
        sign_in.url.clone_from(&pending.url);
        let parties = grant::Parties {
            server,
            client: &client,
            redirect_uri: &redirect_uri,
            resource: &discovered.resource,
        };
        let query = self.agent.authorize(&sign_in).await?;
        let code = grant::answer_code(&pending, &query)?;
        let exchange = self.exchange(key.as_ref());
        let tokens = grant::redeem(&exchange, &parties, pending, code, scopes).await?;
        self.keep(Grant {
            issuer: server.issuer.clone(),
            resource: discovered.resource.clone(),
            client,
            proof_key: kept_key(key.as_ref(), &tokens),
            tokens,
        })
    }

    /// A grant of the client's own (client credentials, a workload's token, the
    /// enterprise-managed grant): no person, no registration.
    async fn obtain(
        &self,
        discovered: &discovery::Discovered,
        challenge: &Challenge,
        scopes: Option<Vec<String>>,
        key: Option<ProofKey>,
    ) -> Result<(), AuthError> {
        let server = &discovered.server;
        if let Some(issuer) = &self.config.flow_issuer
            && *issuer != server.issuer
        {
            return Err(AuthError::CredentialsForAnotherIssuer {
                entered: issuer.clone(),
                named: server.issuer.clone(),
            });
        }
        let scopes = scopes.unwrap_or_else(|| choose_scopes(challenge, discovered));
        let exchange = self.exchange(key.as_ref());
        let tokens = unattended::obtain(
            &exchange,
            &self.config.flow,
            server,
            &discovered.resource,
            &scopes,
        )
        .await?;
        let client_id = match &self.config.flow {
            Flow::ClientCredentials { client_id, .. } => client_id.clone(),
            Flow::Workload { client_id, .. } => client_id.clone().unwrap_or_default(),
            Flow::Enterprise(enterprise) => enterprise.client_id.clone(),
            Flow::SignIn => String::new(),
        };
        self.keep(Grant {
            issuer: server.issuer.clone(),
            resource: discovered.resource.clone(),
            // Its credentials stay in the configuration; none is kept with the tokens.
            client: RegisteredClient {
                client_id,
                client_secret: None,
                auth_method: TokenAuthMethod::None,
                kind: RegistrationKind::PreRegistered,
            },
            proof_key: kept_key(key.as_ref(), &tokens),
            tokens,
        })
    }

    /// A new DPoP key, when this client binds tokens and `server` takes ES256 proofs.
    fn proof_key_for(&self, server: &ServerMetadata) -> Result<Option<ProofKey>, AuthError> {
        let offered = server
            .dpop_signing_alg_values_supported
            .as_ref()
            .is_some_and(|algs| algs.iter().any(|alg| alg == "ES256"));
        if self.config.dpop && offered {
            ProofKey::generate().map(Some)
        } else {
            Ok(None)
        }
    }

    fn exchange<'a>(&'a self, key: Option<&'a ProofKey>) -> Exchange<'a> {
        let proving = key.map(|key| Proving {
            key,
            nonces: &self.nonces,
        });
        Exchange::proving(&self.http, proving)
    }
}

/// The key to keep with `tokens`: only if the server bound them to it.
fn kept_key(key: Option<&ProofKey>, tokens: &Tokens) -> Option<Secret> {
    key.filter(|_| tokens.bound)
        .map(|key| Secret(key.to_kept()))
}

const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes of a first sign-in: the challenge's, else what the resource supports, else
/// none (the authorization server's default).
fn choose_scopes(challenge: &Challenge, discovered: &discovery::Discovered) -> Vec<String> {
    challenge
        .scope
        .clone()
        .or_else(|| discovered.resource_scopes.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_holds_no_token_or_secret() {
        let grant = Grant {
            issuer: "https://auth.example.com".into(),
            resource: "https://mcp.example.com".into(),
            client: RegisteredClient {
                client_id: "the-client".into(),
                client_secret: Some("client-secret-value".into()),
                auth_method: TokenAuthMethod::ClientSecretBasic,
                kind: RegistrationKind::Dynamic,
            },
            tokens: Tokens {
                access_token: "access-token-value".into(),
                refresh_token: Some("refresh-token-value".into()),
                expires_at: None,
                scopes: vec!["tools".into()],
                bound: true,
            },
            proof_key: Some(Secret("kept-key-value".into())),
        };
        let pre = PreRegistered {
            client_id: "pre".into(),
            client_secret: Some("pre-secret-value".into()),
            issuer: None,
        };
        let shown = format!("{grant:?} {pre:?}");
        for secret in [
            "client-secret-value",
            "access-token-value",
            "refresh-token-value",
            "pre-secret-value",
            "kept-key-value",
        ] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains("the-client") && shown.contains("tools"));
    }
}
