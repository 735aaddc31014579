//! Which client this app is to the authorization server, in the specification's order:
//! a pre-registered client, a Client ID Metadata Document URL, Dynamic Client Registration
//! (RFC 7591) as a native application.

use serde::{Deserialize, Serialize};

use super::discovery::ServerMetadata;
use super::fetch::post_json;
use super::{AuthConfig, AuthError, PreRegistered};

/// How the client proves itself at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuthMethod {
    None,
    ClientSecretBasic,
    ClientSecretPost,
}

impl TokenAuthMethod {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "none" => Some(Self::None),
            "client_secret_basic" => Some(Self::ClientSecretBasic),
            "client_secret_post" => Some(Self::ClientSecretPost),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::ClientSecretBasic => "client_secret_basic",
            Self::ClientSecretPost => "client_secret_post",
        }
    }
}

/// How the client was registered, which decides whether it survives a change of
/// authorization server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegistrationKind {
    PreRegistered,
    /// A Client ID Metadata Document URL: valid at any authorization server.
    MetadataDocument,
    Dynamic,
}

/// The client this app is at one authorization server. Its `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisteredClient {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub auth_method: TokenAuthMethod,
    pub kind: RegistrationKind,
}

impl std::fmt::Debug for RegisteredClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisteredClient")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| super::REDACTED),
            )
            .field("auth_method", &self.auth_method)
            .field("kind", &self.kind)
            .finish()
    }
}

/// The client id the page shown before registering carries in place of the one the
/// authorization server will give.
pub const CLIENT_ID_ON_SIGN_IN: &str = "registered-when-you-sign-in";

/// The client to use with `server` without registering one: the client entered
/// beforehand, or the app's Client ID Metadata Document; `None` when one is to be
/// registered once the person agreed (Dynamic Client Registration).
pub fn known_client(
    config: &AuthConfig,
    server: &ServerMetadata,
) -> Result<Option<RegisteredClient>, AuthError> {
    if let Some(pre) = &config.pre_registered
        && let Some(client) = pre_registered(pre, server)?
    {
        return Ok(Some(client));
    }
    if let Some(url) = &config.client_metadata_url
        && server.client_id_metadata_document_supported == Some(true)
    {
        return Ok(Some(RegisteredClient {
            client_id: url.clone(),
            client_secret: None,
            auth_method: TokenAuthMethod::None,
            kind: RegistrationKind::MetadataDocument,
        }));
    }
    match &server.registration_endpoint {
        Some(_) => Ok(None),
        None => Err(AuthError::NoRegistration {
            issuer: server.issuer.clone(),
        }),
    }
}

/// The client the page shown before registering names: not registered yet.
pub fn to_register() -> RegisteredClient {
    RegisteredClient {
        client_id: CLIENT_ID_ON_SIGN_IN.to_owned(),
        client_secret: None,
        auth_method: TokenAuthMethod::None,
        kind: RegistrationKind::Dynamic,
    }
}

/// The client entered beforehand, if it is one for `server`. A secret goes only to the
/// authorization server it was entered for: one entered for another, or for none, stops
/// the sign-in. A public client entered for another server is left aside.
fn pre_registered(
    pre: &PreRegistered,
    server: &ServerMetadata,
) -> Result<Option<RegisteredClient>, AuthError> {
    let for_this = pre.issuer.as_deref() == Some(server.issuer.as_str());
    let auth_method = match (&pre.client_secret, pre.issuer.as_deref()) {
        (Some(_), _) if for_this => secret_method(server),
        (Some(_), entered) => {
            return Err(AuthError::SecretForAnotherIssuer {
                entered: entered.map(str::to_owned),
                named: server.issuer.clone(),
            });
        }
        (None, Some(_)) if !for_this => return Ok(None),
        (None, _) => TokenAuthMethod::None,
    };
    Ok(Some(RegisteredClient {
        client_id: pre.client_id.clone(),
        client_secret: pre.client_secret.clone(),
        auth_method,
        kind: RegistrationKind::PreRegistered,
    }))
}

/// The secret-based method the server accepts, `client_secret_basic` by default (RFC 8414).
fn secret_method(server: &ServerMetadata) -> TokenAuthMethod {
    match &server.token_endpoint_auth_methods_supported {
        Some(methods)
            if !methods.iter().any(|m| m == "client_secret_basic")
                && methods.iter().any(|m| m == "client_secret_post") =>
        {
            TokenAuthMethod::ClientSecretPost
        }
        _ => TokenAuthMethod::ClientSecretBasic,
    }
}

/// The method to ask for at registration: a public client if the server allows it (a
/// desktop app cannot keep a secret from its user), else the first secret method offered.
fn preferred_method(server: &ServerMetadata) -> Option<TokenAuthMethod> {
    let methods = server.token_endpoint_auth_methods_supported.as_ref()?;
    [
        TokenAuthMethod::None,
        TokenAuthMethod::ClientSecretBasic,
        TokenAuthMethod::ClientSecretPost,
    ]
    .into_iter()
    .find(|m| methods.iter().any(|offered| offered == m.name()))
}

#[derive(Deserialize)]
struct RegistrationAnswer {
    client_id: String,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// Registers this app with `server` (Dynamic Client Registration, RFC 7591) as a native
/// application: a request to a server the MCP server chose, made once the person agreed.
pub async fn register(
    http: &reqwest::Client,
    config: &AuthConfig,
    server: &ServerMetadata,
    redirect_uri: &str,
) -> Result<RegisteredClient, AuthError> {
    let Some(endpoint) = &server.registration_endpoint else {
        return Err(AuthError::NoRegistration {
            issuer: server.issuer.clone(),
        });
    };
    let asked = preferred_method(server);
    let mut body = serde_json::json!({
        "client_name": config.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "application_type": "native",
    });
    if let Some(method) = asked {
        body["token_endpoint_auth_method"] = method.name().into();
    }
    let answer: RegistrationAnswer =
        post_json(http, endpoint, &body)
            .await
            .map_err(|detail| AuthError::Registration {
                issuer: server.issuer.clone(),
                detail,
            })?;
    let auth_method = answer
        .token_endpoint_auth_method
        .as_deref()
        .and_then(TokenAuthMethod::parse)
        .or(asked)
        .unwrap_or(match answer.client_secret {
            Some(_) => TokenAuthMethod::ClientSecretBasic,
            None => TokenAuthMethod::None,
        });
    Ok(RegisteredClient {
        client_id: answer.client_id,
        client_secret: answer.client_secret,
        auth_method,
        kind: RegistrationKind::Dynamic,
    })
}
