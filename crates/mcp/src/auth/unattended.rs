//! The grants no one signs in to, for the authorization extensions: client credentials
//! (SEP-1046: the client's secret, or a JWT it signs, RFC 7523 §2.2), a workload's own
//! token traded for an access token (SEP-1933: the JWT bearer grant, RFC 7523 §2.1), and
//! enterprise-managed authorization (SEP-990: the person's ID token at their identity
//! provider exchanged for an ID-JAG, RFC 8693, which the MCP server's authorization server
//! trades for an access token).
//!
//! Written here rather than with the `oauth2` crate, which has no JWT bearer or token
//! exchange grant: each is one form POST, sent through the same exchange as the other
//! grants (no redirect, bounded body, a DPoP proof where the server takes one).

use std::path::PathBuf;

use serde::Deserialize;
use url::form_urlencoded;

use super::discovery::ServerMetadata;
use super::fetch::Exchange;
use super::grant::Tokens;
use super::jwt::{SigningKey, client_assertion};
use super::{AuthError, REDACTED};

const CLIENT_CREDENTIALS: &str = "client_credentials";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_ASSERTION: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// A secret value; its `Debug` shows none of it.
#[derive(Clone, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

/// How the client proves itself at the token endpoint in a grant of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientProof {
    /// `client_secret_basic`.
    Secret(Secret),
    /// `private_key_jwt`: a JWT signed with this key (PEM) and algorithm (`ES256`, ...).
    Key { pem: Secret, algorithm: String },
}

/// Where a token handed to this client comes from: given once, or read anew from a file at
/// each grant (a workload's token, which its platform renews in place).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    Given(Secret),
    File(PathBuf),
}

impl TokenSource {
    fn read(&self, what: &str) -> Result<String, AuthError> {
        match self {
            Self::Given(token) => Ok(token.0.clone()),
            Self::File(path) => std::fs::read_to_string(path)
                .map(|text| text.trim().to_owned())
                .map_err(|e| {
                    AuthError::not_completed(format!(
                        "could not read {what} from {}: {e}",
                        path.display()
                    ))
                }),
        }
    }
}

/// The enterprise-managed grant's parties: the identity provider the person is signed in
/// to, and this client at the MCP server's authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enterprise {
    pub idp_token_endpoint: String,
    pub idp_client_id: String,
    pub idp_client_secret: Option<Secret>,
    /// The person's ID token from the identity provider.
    pub id_token: TokenSource,
    pub client_id: String,
    pub client_secret: Option<Secret>,
}

/// How this client obtains its tokens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Flow {
    /// The person signs in in a browser (the authorization code grant).
    #[default]
    SignIn,
    ClientCredentials {
        client_id: String,
        proof: ClientProof,
    },
    /// A workload's JWT, traded as it is (workload identity federation).
    Workload {
        client_id: Option<String>,
        token: TokenSource,
    },
    Enterprise(Enterprise),
}

impl Flow {
    pub fn is_sign_in(&self) -> bool {
        matches!(self, Self::SignIn)
    }
}

/// Obtains tokens for `resource` from `server` with `flow`, asking for `scopes` (none sent
/// when empty). Errors are the authorization server's, as it gave them: the grant is not
/// tried again, nor another grant type.
pub async fn obtain(
    exchange: &Exchange<'_>,
    flow: &Flow,
    server: &ServerMetadata,
    resource: &str,
    scopes: &[String],
) -> Result<Tokens, AuthError> {
    let mut form = vec![("resource", resource.to_owned())];
    if !scopes.is_empty() {
        form.push(("scope", scopes.join(" ")));
    }
    let endpoint = &server.token_endpoint;
    let answer = match flow {
        Flow::SignIn => {
            return Err(AuthError::not_completed(
                "signing in takes a person, not a grant of the client's own",
            ));
        }
        Flow::ClientCredentials { client_id, proof } => {
            form.push(("grant_type", CLIENT_CREDENTIALS.into()));
            let basic = match proof {
                ClientProof::Secret(secret) => Some((client_id.as_str(), secret.0.as_str())),
                ClientProof::Key { pem, algorithm } => {
                    let key = SigningKey::from_pem(&pem.0, algorithm)?;
                    form.push(("client_id", client_id.clone()));
                    form.push(("client_assertion_type", JWT_ASSERTION.into()));
                    form.push((
                        "client_assertion",
                        client_assertion(&key, client_id, &server.issuer)?,
                    ));
                    None
                }
            };
            post(exchange, endpoint, form, basic).await?
        }
        Flow::Workload { client_id, token } => {
            form.push(("grant_type", JWT_BEARER.into()));
            form.push(("assertion", token.read("the workload's token")?));
            if let Some(client_id) = client_id {
                form.push(("client_id", client_id.clone()));
            }
            post(exchange, endpoint, form, None).await?
        }
        Flow::Enterprise(enterprise) => {
            let id_jag = exchange_id_token(exchange, enterprise, server, resource, scopes).await?;
            form.push(("grant_type", JWT_BEARER.into()));
            form.push(("assertion", id_jag));
            let secret = enterprise.client_secret.as_ref();
            let basic = client_auth(&mut form, &enterprise.client_id, secret);
            post(exchange, endpoint, form, basic).await?
        }
    };
    Ok(answer.into_tokens(scopes.to_vec()))
}

/// RFC 8693 at the identity provider: the person's ID token for an ID-JAG naming the MCP
/// server's authorization server and the server itself.
async fn exchange_id_token(
    exchange: &Exchange<'_>,
    enterprise: &Enterprise,
    server: &ServerMetadata,
    resource: &str,
    scopes: &[String],
) -> Result<String, AuthError> {
    let mut form = vec![
        ("grant_type", TOKEN_EXCHANGE.to_owned()),
        ("requested_token_type", ID_JAG.into()),
        ("audience", server.issuer.clone()),
        ("resource", resource.to_owned()),
        ("subject_token", enterprise.id_token.read("the ID token")?),
        ("subject_token_type", ID_TOKEN.into()),
    ];
    if !scopes.is_empty() {
        form.push(("scope", scopes.join(" ")));
    }
    let secret = enterprise.idp_client_secret.as_ref();
    let basic = client_auth(&mut form, &enterprise.idp_client_id, secret);
    // The identity provider is not the server this connection proves a key to.
    let plain = Exchange::plain(exchange.http());
    let answer = post(&plain, &enterprise.idp_token_endpoint, form, basic).await?;
    if answer.issued_token_type.as_deref() != Some(ID_JAG) {
        return Err(AuthError::Token {
            url: enterprise.idp_token_endpoint.clone(),
            detail: format!(
                "the identity provider issued {:?}, not an ID-JAG",
                answer.issued_token_type.unwrap_or_default()
            ),
        });
    }
    Ok(answer.access_token)
}

/// How the client `id` authenticates a request: with Basic when it has a secret, else by
/// naming itself in the form.
fn client_auth<'a>(
    form: &mut Vec<(&str, String)>,
    id: &'a str,
    secret: Option<&'a Secret>,
) -> Option<(&'a str, &'a str)> {
    match secret {
        Some(secret) => Some((id, secret.0.as_str())),
        None => {
            form.push(("client_id", id.to_owned()));
            None
        }
    }
}

/// A token endpoint's answer (RFC 6749 §5.1, RFC 8693 §2.2.1).
#[derive(Deserialize)]
struct Answer {
    access_token: String,
    #[serde(default)]
    token_type: Option<String>,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    issued_token_type: Option<String>,
}

impl Answer {
    fn into_tokens(self, scopes: Vec<String>) -> Tokens {
        Tokens {
            bound: self
                .token_type
                .is_some_and(|t| t.eq_ignore_ascii_case("DPoP")),
            access_token: self.access_token,
            refresh_token: self.refresh_token,
            expires_at: self
                .expires_in
                .map(|d| super::grant::now().saturating_add(d)),
            scopes,
        }
    }
}

/// An error body (RFC 6749 §5.2).
#[derive(Deserialize)]
struct Refusal {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// POSTs a token request, the client authenticated with Basic (each part form-encoded, RFC
/// 6749 §2.3.1) when `basic` is given.
async fn post(
    exchange: &Exchange<'_>,
    endpoint: &str,
    form: Vec<(&str, String)>,
    basic: Option<(&str, &str)>,
) -> Result<Answer, AuthError> {
    let failed = |detail: String| AuthError::Token {
        url: endpoint.to_owned(),
        detail,
    };
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&form)
        .finish();
    let mut request = http::Request::post(endpoint)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json");
    if let Some((id, secret)) = basic {
        use base64::Engine as _;
        let encoded =
            |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
        let pair = format!("{}:{}", encoded(id), encoded(secret));
        let value = base64::engine::general_purpose::STANDARD.encode(pair);
        request = request.header("Authorization", format!("Basic {value}"));
    }
    let request = request
        .body(body.into_bytes())
        .map_err(|e| failed(e.to_string()))?;
    let response = exchange
        .send(request)
        .await
        .map_err(|e| failed(e.to_string()))?;
    let status = response.status();
    let body = response.body();
    if !status.is_success() {
        return Err(failed(match serde_json::from_slice::<Refusal>(body) {
            Ok(refusal) => match refusal.error_description {
                Some(description) => format!("{} ({description})", refusal.error),
                None => refusal.error,
            },
            Err(_) => format!("HTTP {status}"),
        }));
    }
    serde_json::from_slice(body).map_err(|e| failed(format!("an answer that is not a token: {e}")))
}
