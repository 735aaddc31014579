//! The HTTP exchanges of authorization: metadata GETs, registration and token POSTs. No
//! redirect is followed (a metadata or token endpoint that redirects could send the
//! client's secrets elsewhere), and bodies are bounded.

use std::time::Duration;

use serde::de::DeserializeOwned;

use super::AuthError;
use super::jwt::ProofKey;

const TIMEOUT: Duration = Duration::from_secs(30);
const MAX_BODY: usize = 1024 * 1024;

/// The client every authorization exchange goes through.
pub fn client() -> Result<reqwest::Client, AuthError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .build()
        .map_err(|e| AuthError::not_completed(format!("the HTTP client could not start: {e}")))
}

/// What a metadata GET found.
pub enum Found<T> {
    Document(T),
    /// Not there (any 4xx): the next candidate is tried.
    Absent,
}

/// GETs a JSON document; a 4xx means "not here", anything else unusable is an error.
pub async fn get_json<T: DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
) -> Result<Found<T>, AuthError> {
    let failed = |detail: String| AuthError::Discovery {
        url: url.to_owned(),
        detail,
    };
    let response = http
        .get(url)
        .header("Accept", "application/json")
        .header(
            "MCP-Protocol-Version",
            crate::ProtocolVersion::LATEST_STATEFUL.as_str(),
        )
        .send()
        .await
        .map_err(|e| failed(e.to_string()))?;
    let status = response.status();
    if status.is_client_error() {
        return Ok(Found::Absent);
    }
    if !status.is_success() {
        return Err(failed(format!("HTTP {status}")));
    }
    let body = bounded_body(response)
        .await
        .map_err(|e| failed(e.to_string()))?;
    serde_json::from_slice(&body)
        .map(Found::Document)
        .map_err(|e| failed(format!("not valid metadata: {e}")))
}

/// POSTs JSON and reads a JSON answer (Dynamic Client Registration).
pub async fn post_json<T: DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
    body: &serde_json::Value,
) -> Result<T, String> {
    let response = http
        .post(url)
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let body = bounded_body(response).await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!(
            "HTTP {status}: {}",
            String::from_utf8_lossy(&body[..body.len().min(300)])
        ));
    }
    serde_json::from_slice(&body).map_err(|e| format!("unreadable answer: {e}"))
}

async fn bounded_body(response: reqwest::Response) -> Result<Vec<u8>, String> {
    use futures_util::StreamExt;
    let mut stream = response.bytes_stream();
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        if body.len() + chunk.len() > MAX_BODY {
            return Err(format!("a body over {MAX_BODY} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Carries token requests (the `oauth2` crate's and our own) over our reqwest, with the
/// same no-redirect, bounded client; where the connection proves a DPoP key, each request
/// carries a fresh proof, and one refused for want of the server's nonce is sent once more
/// with it (RFC 9449 §8).
pub struct Exchange<'a> {
    http: &'a reqwest::Client,
    proving: Option<Proving<'a>>,
}

/// The key a connection proves and the nonces its servers gave.
#[derive(Clone, Copy)]
pub struct Proving<'a> {
    pub key: &'a ProofKey,
    pub nonces: &'a Nonces,
}

impl<'a> Exchange<'a> {
    pub fn plain(http: &'a reqwest::Client) -> Self {
        Self {
            http,
            proving: None,
        }
    }

    pub fn proving(http: &'a reqwest::Client, proving: Option<Proving<'a>>) -> Self {
        Self { http, proving }
    }

    pub fn http(&self) -> &'a reqwest::Client {
        self.http
    }

    pub async fn send(
        &self,
        request: oauth2::HttpRequest,
    ) -> Result<oauth2::HttpResponse, ExchangeError> {
        let (parts, body) = request.into_parts();
        let url = parts.uri.to_string();
        let mut retried = false;
        loop {
            let mut outgoing = self
                .http
                .request(parts.method.clone(), &url)
                .headers(parts.headers.clone())
                .body(body.clone())
                .timeout(TIMEOUT);
            if let Some(proving) = self.proving {
                let proof = proving
                    .key
                    .proof(
                        parts.method.as_str(),
                        &url,
                        None,
                        proving.nonces.get(&url).as_deref(),
                    )
                    .map_err(|e| ExchangeError(e.to_string()))?;
                outgoing = outgoing.header("DPoP", proof);
            }
            let response = outgoing
                .send()
                .await
                .map_err(|e| ExchangeError(e.to_string()))?;
            let fresh_nonce = self
                .proving
                .is_some_and(|proving| proving.nonces.note(&url, response.headers()));
            let mut builder = http::Response::builder().status(response.status());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            let status = response.status();
            let body = bounded_body(response).await.map_err(ExchangeError)?;
            if !retried
                && fresh_nonce
                && status == reqwest::StatusCode::BAD_REQUEST
                && asks_nonce(&body)
            {
                retried = true;
                continue;
            }
            return builder.body(body).map_err(|e| ExchangeError(e.to_string()));
        }
    }
}

/// Whether a token endpoint's error body is `use_dpop_nonce`.
fn asks_nonce(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body)
        .is_ok_and(|answer| answer["error"] == "use_dpop_nonce")
}

impl<'c> oauth2::AsyncHttpClient<'c> for Exchange<'_> {
    type Error = ExchangeError;
    type Future = futures_util::future::BoxFuture<'c, Result<oauth2::HttpResponse, ExchangeError>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.send(request))
    }
}

/// The latest DPoP nonce each server (by origin) gave (RFC 9449 §8, §9).
#[derive(Default)]
pub struct Nonces(std::sync::Mutex<std::collections::HashMap<String, String>>);

impl Nonces {
    pub fn get(&self, url: &str) -> Option<String> {
        self.lock().get(&origin(url)).cloned()
    }

    pub fn keep(&self, url: &str, nonce: &str) {
        self.lock().insert(origin(url), nonce.to_owned());
    }

    /// Keeps the nonce a response carries; whether it is one not held before.
    pub fn note(&self, url: &str, headers: &reqwest::header::HeaderMap) -> bool {
        let Some(nonce) = headers.get("DPoP-Nonce").and_then(|v| v.to_str().ok()) else {
            return false;
        };
        self.lock().insert(origin(url), nonce.to_owned()).as_deref() != Some(nonce)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, String>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn origin(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_else(|_| url.to_owned())
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeError(String);
