//! The HTTP exchanges of authorization: metadata GETs, registration and token POSTs. No
//! redirect is followed (a metadata or token endpoint that redirects could send the
//! client's secrets elsewhere), and bodies are bounded.

use std::time::Duration;

use serde::de::DeserializeOwned;

use super::AuthError;

const TIMEOUT: Duration = Duration::from_secs(30);
const MAX_BODY: usize = 1024 * 1024;

/// The client every authorization exchange goes through.
pub fn client() -> Result<reqwest::Client, AuthError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .build()
        .map_err(|e| AuthError::NotCompleted(format!("the HTTP client could not start: {e}")))
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

/// Carries the `oauth2` crate's requests over our reqwest (its own adapter is for an older
/// reqwest), with the same no-redirect, bounded client.
pub struct Exchange<'a>(pub &'a reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for Exchange<'_> {
    type Error = ExchangeError;
    type Future = futures_util::future::BoxFuture<'c, Result<oauth2::HttpResponse, ExchangeError>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(oauth_exchange(self.0, request))
    }
}

async fn oauth_exchange(
    http: &reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, ExchangeError> {
    let (parts, body) = request.into_parts();
    let mut outgoing = http
        .request(parts.method, parts.uri.to_string())
        .headers(parts.headers)
        .body(body);
    outgoing = outgoing.timeout(TIMEOUT);
    let response = outgoing
        .send()
        .await
        .map_err(|e| ExchangeError(e.to_string()))?;
    let mut builder = http::Response::builder().status(response.status());
    for (name, value) in response.headers() {
        builder = builder.header(name, value);
    }
    let body = bounded_body(response).await.map_err(ExchangeError)?;
    builder.body(body).map_err(|e| ExchangeError(e.to_string()))
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeError(String);
