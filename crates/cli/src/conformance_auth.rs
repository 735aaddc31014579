//! Signing in during the conformance suite's authorization scenarios: the suite's mock
//! authorization server approves at once, so instead of a browser this user agent GETs the
//! authorization URL and reads the redirect's query from `Location`. Pre-registered
//! credentials, and those of the extensions' grants (client credentials, a workload's
//! token, the enterprise-managed grant), come from the scenario's context
//! (`MCP_CONFORMANCE_CONTEXT`); the scenario's name says which grant it tests.

use std::sync::Arc;

use serde::Deserialize;
use switchboard_mcp::auth::{
    AuthConfig, AuthError, Authorization, ClientProof, Enterprise, Flow, MemoryStore,
    PreRegistered, Secret, SignIn, TokenSource, UserAgent,
};
use switchboard_mcp::transport::BoxFuture;

/// The Client ID Metadata Document URL the suite expects of a client.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Never listened on: the redirect is read from `Location`, not received.
const REDIRECT_URI: &str = "http://127.0.0.1:8976/callback";

#[derive(Deserialize, Default)]
struct Context {
    client_id: Option<String>,
    client_secret: Option<String>,
    issuer: Option<String>,
    private_key_pem: Option<String>,
    signing_algorithm: Option<String>,
    /// The workload's token (`auth/wif-jwt-bearer`).
    valid_jwt: Option<String>,
    idp_client_id: Option<String>,
    idp_id_token: Option<String>,
    idp_token_endpoint: Option<String>,
}

/// The authorization client for `url` in `scenario`, configured from its context.
pub fn authorization(url: &str, scenario: &str) -> Result<Authorization, AuthError> {
    let context: Context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let mut config = AuthConfig::new("switchboard-cli");
    config.client_metadata_url = Some(CLIENT_METADATA_URL.into());
    match flow(scenario, &context) {
        Some(flow) => config.flow = flow,
        None => {
            config.pre_registered = context.client_id.map(|client_id| PreRegistered {
                client_id,
                client_secret: context.client_secret,
                issuer: context.issuer,
            })
        }
    }
    Authorization::new(
        url,
        config,
        Arc::new(MemoryStore::default()),
        Arc::new(FollowRedirect::new()?),
    )
}

/// The grant of the client's own an extension scenario tests, from its context.
fn flow(scenario: &str, context: &Context) -> Option<Flow> {
    let secret = |value: &Option<String>| value.clone().map(Secret);
    let client_id = context.client_id.clone().unwrap_or_default();
    match scenario {
        "auth/client-credentials-basic" => Some(Flow::ClientCredentials {
            client_id,
            proof: ClientProof::Secret(secret(&context.client_secret)?),
        }),
        "auth/client-credentials-jwt" => Some(Flow::ClientCredentials {
            client_id,
            proof: ClientProof::Key {
                pem: secret(&context.private_key_pem)?,
                algorithm: context.signing_algorithm.clone()?,
            },
        }),
        "auth/wif-jwt-bearer" => Some(Flow::Workload {
            client_id: context.client_id.clone(),
            token: TokenSource::Given(secret(&context.valid_jwt)?),
        }),
        "auth/enterprise-managed-authorization" => Some(Flow::Enterprise(Enterprise {
            idp_token_endpoint: context.idp_token_endpoint.clone()?,
            idp_client_id: context.idp_client_id.clone()?,
            idp_client_secret: None,
            id_token: TokenSource::Given(secret(&context.idp_id_token)?),
            client_id,
            client_secret: secret(&context.client_secret),
        })),
        _ => None,
    }
}

/// A user agent that approves whatever the authorization server shows at once.
struct FollowRedirect {
    http: reqwest::Client,
}

impl FollowRedirect {
    fn new() -> Result<Self, AuthError> {
        // Never following: the redirect's query is read, not loaded.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AuthError::not_completed(format!("no HTTP client: {e}")))?;
        Ok(Self { http })
    }

    async fn follow(&self, sign_in: &SignIn) -> Result<Vec<(String, String)>, AuthError> {
        let failed = |detail: String| AuthError::not_completed(detail);
        let response = self
            .http
            .get(&sign_in.url)
            .send()
            .await
            .map_err(|e| failed(e.to_string()))?;
        let location = response
            .headers()
            .get("Location")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| failed(format!("no redirect (HTTP {})", response.status())))?;
        let redirect = url::Url::parse(location).map_err(|e| failed(e.to_string()))?;
        Ok(redirect.query_pairs().into_owned().collect())
    }
}

impl UserAgent for FollowRedirect {
    fn redirect_uri(&self) -> String {
        REDIRECT_URI.into()
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(self.follow(sign_in))
    }
}
