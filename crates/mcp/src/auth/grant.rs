//! The authorization code grant with PKCE S256, and the refresh grant, through the
//! `oauth2` crate: it builds the authorization URL, the PKCE pair and the `state`, and
//! speaks the token endpoint (client authentication, error bodies) as RFC 6749 says; and
//! revocation (RFC 7009) when the person signs out.
//! Only what MCP adds is here: `resource` (RFC 8707) on every request, and the `iss`
//! check (RFC 9207) before a code is redeemed.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use oauth2::basic::BasicClient;
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, RefreshToken, Scope, TokenResponse, TokenUrl,
};
use serde::{Deserialize, Serialize};
use url::form_urlencoded;

use super::AuthError;
use super::discovery::ServerMetadata;
use super::fetch::Exchange;
use super::registration::{RegisteredClient, TokenAuthMethod};

/// Tokens for one resource. Their `Debug` shows no token, so that no log holds one.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub access_token: String,
    pub refresh_token: Option<String>,
    /// Seconds since the Unix epoch.
    pub expires_at: Option<u64>,
    /// The scopes asked for when these tokens were granted.
    pub scopes: Vec<String>,
    /// Bound to the grant's DPoP key (`token_type` DPoP): sent with a proof of it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &super::REDACTED)
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| super::REDACTED),
            )
            .field("expires_at", &self.expires_at)
            .field("scopes", &self.scopes)
            .field("bound", &self.bound)
            .finish()
    }
}

impl Tokens {
    /// Whether the token ends within `margin` (and so is better refreshed first).
    pub fn expires_within(&self, margin: Duration) -> bool {
        self.expires_at
            .is_some_and(|at| at <= now().saturating_add(margin.as_secs()))
    }
}

pub(super) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Who asks whom for tokens, for what: the same in every request of a grant.
pub struct Parties<'a> {
    pub server: &'a ServerMetadata,
    pub client: &'a RegisteredClient,
    pub redirect_uri: &'a str,
    /// The `resource` parameter (RFC 8707), exactly as published.
    pub resource: &'a str,
}

/// One authorization request under way: what the answer is checked against.
pub struct Pending {
    pub url: String,
    state: CsrfToken,
    verifier: PkceCodeVerifier,
    issuer: String,
    iss_promised: bool,
}

type Configured = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    oauth2::basic::BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

fn oauth_client(parties: &Parties<'_>) -> Result<Configured, AuthError> {
    let Parties {
        server,
        client,
        redirect_uri,
        ..
    } = parties;
    let bad = |url: &str, e: String| AuthError::Discovery {
        url: url.to_owned(),
        detail: e,
    };
    let auth_url = AuthUrl::new(server.authorization_endpoint.clone())
        .map_err(|e| bad(&server.authorization_endpoint, e.to_string()))?;
    let token_url = TokenUrl::new(server.token_endpoint.clone())
        .map_err(|e| bad(&server.token_endpoint, e.to_string()))?;
    let redirect = RedirectUrl::new((*redirect_uri).to_owned())
        .map_err(|e| bad(redirect_uri, e.to_string()))?;
    let mut oauth = BasicClient::new(ClientId::new(client.client_id.clone()))
        .set_auth_uri(auth_url)
        .set_token_uri(token_url)
        .set_redirect_uri(redirect)
        .set_auth_type(match client.auth_method {
            TokenAuthMethod::ClientSecretBasic => AuthType::BasicAuth,
            TokenAuthMethod::None | TokenAuthMethod::ClientSecretPost => AuthType::RequestBody,
        });
    if client.auth_method != TokenAuthMethod::None
        && let Some(secret) = &client.client_secret
    {
        oauth = oauth.set_client_secret(ClientSecret::new(secret.clone()));
    }
    Ok(oauth)
}

impl Pending {
    /// The `state` the answer must carry.
    pub fn state(&self) -> &str {
        self.state.secret()
    }
}

/// The secrets of one authorization request, the PKCE verifier and the `state`: the same
/// in the page the person is shown before a client is registered and in the page opened.
pub struct RequestSecrets {
    verifier: String,
    state: CsrfToken,
}

impl RequestSecrets {
    pub fn random() -> Self {
        let (_, verifier) = PkceCodeChallenge::new_random_sha256();
        Self {
            verifier: verifier.secret().clone(),
            state: CsrfToken::new_random(),
        }
    }
}

/// Builds the authorization URL; the issuer is recorded with the PKCE verifier and state.
pub fn start(
    parties: &Parties<'_>,
    scopes: &[String],
    secrets: &RequestSecrets,
) -> Result<Pending, AuthError> {
    let oauth = oauth_client(parties)?;
    let verifier = PkceCodeVerifier::new(secrets.verifier.clone());
    let challenge = PkceCodeChallenge::from_code_verifier_sha256(&verifier);
    let state = secrets.state.clone();
    let (url, state) = oauth
        .authorize_url(move || state)
        .add_scopes(scopes.iter().cloned().map(Scope::new))
        .set_pkce_challenge(challenge)
        .add_extra_param("resource", parties.resource)
        .url();
    let server = parties.server;
    Ok(Pending {
        url: url.to_string(),
        state,
        verifier,
        issuer: server.issuer.clone(),
        iss_promised: server.authorization_response_iss_parameter_supported == Some(true),
    })
}

/// Checks the redirect's query (state, then `iss`, then `error`) and returns its code.
pub fn answer_code(pending: &Pending, query: &[(String, String)]) -> Result<String, AuthError> {
    let param = |name: &str| {
        query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    if param("state").as_deref() != Some(pending.state.secret().as_str()) {
        return Err(AuthError::StateMismatch);
    }
    // RFC 9207 §2.4, compared as plain strings; an error from the wrong issuer is not
    // shown either.
    match param("iss") {
        Some(iss) if iss != pending.issuer => {
            return Err(AuthError::IssuerResponseMismatch {
                expected: pending.issuer.clone(),
                found: Some(iss),
            });
        }
        None if pending.iss_promised => {
            return Err(AuthError::IssuerResponseMismatch {
                expected: pending.issuer.clone(),
                found: None,
            });
        }
        _ => {}
    }
    if let Some(error) = param("error") {
        return Err(AuthError::Denied {
            error,
            description: param("error_description"),
        });
    }
    param("code").ok_or(AuthError::NoCode)
}

/// Redeems the code, with the PKCE verifier and the resource.
/// `scopes` are noted with the tokens: a step-up starts from them.
pub async fn redeem(
    exchange: &Exchange<'_>,
    parties: &Parties<'_>,
    pending: Pending,
    code: String,
    scopes: Vec<String>,
) -> Result<Tokens, AuthError> {
    let oauth = oauth_client(parties)?;
    let mut request = oauth
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(pending.verifier)
        .add_extra_param("resource", parties.resource);
    if let Some(client_id) = body_client_id(parties) {
        request = request.add_extra_param("client_id", client_id);
    }
    let response = request
        .request_async(exchange)
        .await
        .map_err(|e| token_error(&parties.server.token_endpoint, e))?;
    Ok(tokens(&response, None, scopes))
}

/// Trades the refresh token for new tokens; the old refresh token is kept if no new one
/// comes (RFC 6749 §6).
pub async fn refresh(
    exchange: &Exchange<'_>,
    parties: &Parties<'_>,
    current: &Tokens,
) -> Result<Tokens, AuthError> {
    let server = parties.server;
    let Some(refresh_token) = &current.refresh_token else {
        return Err(AuthError::Token {
            url: server.token_endpoint.clone(),
            detail: "no refresh token".into(),
        });
    };
    let oauth = oauth_client(parties)?;
    let token = RefreshToken::new(refresh_token.clone());
    let mut request = oauth
        .exchange_refresh_token(&token)
        .add_extra_param("resource", parties.resource);
    if let Some(client_id) = body_client_id(parties) {
        request = request.add_extra_param("client_id", client_id);
    }
    let response = request
        .request_async(exchange)
        .await
        .map_err(|e| token_error(&server.token_endpoint, e))?;
    Ok(tokens(
        &response,
        current.refresh_token.clone(),
        current.scopes.clone(),
    ))
}

/// Gives up `tokens` at the authorization server's `revocation_endpoint` (RFC 7009),
/// authenticated as at the token endpoint: the refresh token first (most servers end the
/// whole grant with it), then the access token. `Ok(false)` when the server offers no
/// revocation.
///
/// Written here rather than with the `oauth2` crate, which refuses any revocation endpoint
/// that is not https: a loopback authorization server's is not, and its token endpoint,
/// reached the same way, was used already.
pub async fn revoke(
    http: &reqwest::Client,
    parties: &Parties<'_>,
    tokens: &Tokens,
) -> Result<bool, AuthError> {
    let Some(endpoint) = &parties.server.revocation_endpoint else {
        return Ok(false);
    };
    let refresh = tokens
        .refresh_token
        .as_deref()
        .map(|token| (token, "refresh_token"));
    let client = parties.client;
    for (token, hint) in refresh
        .into_iter()
        .chain([(&*tokens.access_token, "access_token")])
    {
        match revoke_one(http, client, endpoint, token, hint, false).await {
            // The Python SDK's endpoint refuses a request without a `client_secret` field,
            // even from a client that authenticates with Basic as it registered to: asked
            // again with the field empty (no second authentication).
            Err(Refused::BadRequest)
                if client.auth_method == TokenAuthMethod::ClientSecretBasic =>
            {
                revoke_one(http, client, endpoint, token, hint, true).await
            }
            other => other,
        }
        .map_err(|refused| AuthError::Token {
            url: endpoint.clone(),
            detail: refused.to_string(),
        })?;
    }
    Ok(true)
}

/// Why the revocation endpoint did not take a token.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("HTTP 400 Bad Request")]
    BadRequest,
    #[error("{0}")]
    Other(String),
}

async fn revoke_one(
    http: &reqwest::Client,
    client: &RegisteredClient,
    endpoint: &str,
    token: &str,
    hint: &str,
    empty_secret_field: bool,
) -> Result<(), Refused> {
    let mut form = vec![("token", token), ("token_type_hint", hint)];
    let mut request = http.post(endpoint);
    match (client.auth_method, &client.client_secret) {
        (TokenAuthMethod::ClientSecretBasic, Some(secret)) => {
            // RFC 6749 §2.3.1: each part form-encoded before it goes into the header.
            let encoded =
                |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
            request = request.basic_auth(encoded(&client.client_id), Some(encoded(secret)));
            form.push(("client_id", &client.client_id));
            if empty_secret_field {
                form.push(("client_secret", ""));
            }
        }
        (TokenAuthMethod::ClientSecretPost, Some(secret)) => {
            form.push(("client_id", &client.client_id));
            form.push(("client_secret", secret));
        }
        _ => form.push(("client_id", &client.client_id)),
    }
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&form)
        .finish();
    let response = request
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .map_err(|e| Refused::Other(e.to_string()))?;
    // RFC 7009 §2.2: 200 whether or not the token was still valid.
    match response.status() {
        status if status.is_success() => Ok(()),
        reqwest::StatusCode::BAD_REQUEST => Err(Refused::BadRequest),
        status => Err(Refused::Other(format!("HTTP {status}"))),
    }
}

/// The client id to repeat in the body beside Basic authentication: RFC 6749 §3.2.1
/// allows it, and some servers (the Python SDK's) look the client up by it alone. With
/// the other methods the `oauth2` crate puts it in the body already.
fn body_client_id(parties: &Parties<'_>) -> Option<String> {
    (parties.client.auth_method == TokenAuthMethod::ClientSecretBasic
        && parties.client.client_secret.is_some())
    .then(|| parties.client.client_id.clone())
}

fn tokens(
    response: &oauth2::basic::BasicTokenResponse,
    previous_refresh: Option<String>,
    scopes: Vec<String>,
) -> Tokens {
    Tokens {
        access_token: response.access_token().secret().clone(),
        refresh_token: response
            .refresh_token()
            .map(|t| t.secret().clone())
            .or(previous_refresh),
        // A server may write "for ever" as the largest number it can.
        expires_at: response
            .expires_in()
            .map(|d| now().saturating_add(d.as_secs())),
        scopes,
        bound: matches!(
            response.token_type(),
            oauth2::basic::BasicTokenType::Extension(kind) if kind.eq_ignore_ascii_case("DPoP")
        ),
    }
}

fn token_error<E: std::error::Error>(url: &str, error: E) -> AuthError {
    let mut detail = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        detail.push_str(": ");
        detail.push_str(&e.to_string());
        source = e.source();
    }
    AuthError::Token {
        url: url.to_owned(),
        detail,
    }
}
