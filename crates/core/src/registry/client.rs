//! The registry's `/v0.1` API over HTTP: a page of servers (searched by name, latest
//! versions), and one server in one version. Answers are bounded in time and size, and
//! a redirect is followed only within the registry's own origin.

use std::time::Duration;

use reqwest::redirect;
use serde::{Deserialize, Serialize};
use url::Url;

use super::entry::{Listed, RegistryServer};

/// How long the registry has to answer one request, headers and body.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read: a page of the official registry is well under 1 MiB.
const MAX_ANSWER: usize = 8 << 20;
/// Servers asked for in one page.
pub const PAGE_SIZE: u32 = 30;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RegistryError {
    #[error("the registry address {0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    #[error("the registry at {url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the registry at {url} did not answer within {seconds} s")]
    TimedOut { url: String, seconds: u64 },
    #[error("the registry at {url} sent you on to another site ({to}), which is not followed")]
    Redirected { url: String, to: String },
    #[error("the registry at {url} answered {status}{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Status {
        url: String,
        status: String,
        detail: Option<String>,
    },
    #[error("the registry has no server {name:?} in version {version}")]
    NotFound { name: String, version: String },
    #[error("the answer of {url} is not the registry's API: {reason}")]
    NotTheApi { url: String, reason: String },
    #[error("the answer of {url} is larger than {mebibytes} MiB")]
    TooLarge { url: String, mebibytes: usize },
}

/// What to list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    /// A part of the servers' names; empty for all.
    #[serde(default)]
    pub search: String,
    /// Where the page starts: the `nextCursor` of the page before; none for the first.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A page of servers, each in its latest version.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Page {
    pub servers: Vec<RegistryServer>,
    /// Where the next page starts; none on the last.
    pub next_cursor: Option<String>,
    /// Entries of this page that could not be read, each with why: the others are shown.
    pub unreadable: Vec<Unreadable>,
}

/// An entry of a page that could not be read: which (its name, else its place in the
/// page), where in it, and the parser's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Unreadable {
    pub name: Option<String>,
    /// Its place in the page, from 1.
    pub position: usize,
    pub path: String,
    pub error: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name:?}")?,
            None => write!(f, "entry {}", self.position)?,
        }
        write!(f, ": {}: {}", self.path, self.error)
    }
}

/// A registry reached at its base URL.
#[derive(Debug, Clone)]
pub struct Registry {
    /// The URL as the settings give it.
    given: String,
    base: Url,
    http: reqwest::Client,
}

impl Registry {
    pub fn new(base: &str) -> Result<Self, RegistryError> {
        let bad = || RegistryError::BadUrl(base.to_owned());
        let mut url = Url::parse(base.trim()).map_err(|_| bad())?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return Err(bad());
        }
        url.set_query(None);
        url.set_fragment(None);
        if !url.path().ends_with('/') {
            url.set_path(&format!("{}/", url.path()));
        }
        let origin = url.origin();
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(ANSWER_TIMEOUT)
            .redirect(redirect::Policy::custom(move |attempt| {
                if attempt.url().origin() != origin {
                    let to = attempt.url().to_string();
                    attempt.error(OtherSite(to))
                } else if attempt.previous().len() > 5 {
                    attempt.error("too many redirects")
                } else {
                    attempt.follow()
                }
            }))
            .build()
            .map_err(|e| RegistryError::Unreachable {
                url: base.to_owned(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            given: base.to_owned(),
            base: url,
            http,
        })
    }

    /// Whether this is the registry at `base`, as the settings give it.
    pub fn made_for(&self, base: &str) -> bool {
        self.given == base
    }

    pub fn base(&self) -> &str {
        self.base.as_str()
    }

    /// A page of the servers whose names hold `query.search`, in their latest versions.
    pub async fn list(&self, query: &ListQuery) -> Result<Page, RegistryError> {
        let mut url = self.endpoint(&["v0.1", "servers"]);
        {
            let mut pairs = url.query_pairs_mut();
            pairs.append_pair("version", "latest");
            pairs.append_pair("limit", &PAGE_SIZE.to_string());
            if !query.search.trim().is_empty() {
                pairs.append_pair("search", query.search.trim());
            }
            if let Some(cursor) = query.cursor.as_deref().filter(|c| !c.is_empty()) {
                pairs.append_pair("cursor", cursor);
            }
        }
        let body = self.get(&url).await?.ok_or_else(|| not_found_page(&url))?;
        page_of(&url, &body)
    }

    /// One version of the server `name` (`latest` for its latest).
    pub async fn server(&self, name: &str, version: &str) -> Result<RegistryServer, RegistryError> {
        // Each is one path segment: the slash of the name travels as `%2F`.
        let url = self.endpoint(&["v0.1", "servers", name, "versions", version]);
        let body = self
            .get(&url)
            .await?
            .ok_or_else(|| RegistryError::NotFound {
                name: name.to_owned(),
                version: version.to_owned(),
            })?;
        let listed: Listed = serde_json::from_slice(&body).map_err(|e| not_the_api(&url, e))?;
        let server = listed.into_server();
        if server.name != name {
            return Err(RegistryError::NotTheApi {
                url: url.to_string(),
                reason: format!("asked for {name:?}, it sent {:?}", server.name),
            });
        }
        Ok(server)
    }

    fn endpoint(&self, segments: &[&str]) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        url
    }

    /// The body of a successful answer; `None` for 404.
    async fn get(&self, url: &Url) -> Result<Option<Vec<u8>>, RegistryError> {
        let shown = url.to_string();
        let mut response = self
            .http
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| failed(&shown, &e))?;
        let status = response.status();
        if status == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| failed(&shown, &e))? {
            if body.len() + chunk.len() > MAX_ANSWER {
                return Err(RegistryError::TooLarge {
                    url: shown,
                    mebibytes: MAX_ANSWER >> 20,
                });
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            return Err(RegistryError::Status {
                url: shown,
                status: status.to_string(),
                detail: error_detail(&body),
            });
        }
        Ok(Some(body))
    }
}

/// The reason a redirect is refused, found again in the error reqwest returns.
#[derive(Debug)]
struct OtherSite(String);

impl std::fmt::Display for OtherSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a redirect to {}", self.0)
    }
}

impl std::error::Error for OtherSite {}

/// What went wrong, on one line with its causes; a redirect refused says where to.
fn failed(url: &str, error: &reqwest::Error) -> RegistryError {
    if error.is_timeout() {
        return RegistryError::TimedOut {
            url: url.to_owned(),
            seconds: ANSWER_TIMEOUT.as_secs(),
        };
    }
    let mut reason = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if let Some(OtherSite(to)) = cause.downcast_ref::<OtherSite>() {
            return RegistryError::Redirected {
                url: url.to_owned(),
                to: to.clone(),
            };
        }
        let more = cause.to_string();
        if !reason.contains(&more) {
            reason = format!("{reason}: {more}");
        }
        source = cause.source();
    }
    RegistryError::Unreachable {
        url: url.to_owned(),
        reason,
    }
}

/// The registry's own words on a refusal (`{"error": "..."}`), kept short.
fn error_detail(body: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Refusal {
        error: String,
    }
    let refusal: Refusal = serde_json::from_slice(body).ok()?;
    Some(refusal.error.chars().take(200).collect())
}

fn not_found_page(url: &Url) -> RegistryError {
    RegistryError::NotTheApi {
        url: url.to_string(),
        reason: "it has no /v0.1/servers (404 Not Found)".into(),
    }
}

fn not_the_api(url: &Url, error: serde_json::Error) -> RegistryError {
    RegistryError::NotTheApi {
        url: url.to_string(),
        reason: error.to_string(),
    }
}

/// A list answer: the page fails only when the answer as a whole is not one; each entry
/// that cannot be read is left out and said why.
fn page_of(url: &Url, body: &[u8]) -> Result<Page, RegistryError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ServerList {
        servers: Vec<serde_json::Value>,
        #[serde(default)]
        metadata: Option<Metadata>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Metadata {
        #[serde(default)]
        next_cursor: Option<String>,
    }
    let list: ServerList = serde_json::from_slice(body).map_err(|e| not_the_api(url, e))?;
    let mut page = Page {
        servers: Vec::new(),
        next_cursor: list
            .metadata
            .and_then(|m| m.next_cursor)
            .filter(|c| !c.is_empty()),
        unreadable: Vec::new(),
    };
    for (index, entry) in list.servers.into_iter().enumerate() {
        let name = entry
            .pointer("/server/name")
            .and_then(|n| n.as_str())
            .map(str::to_owned);
        match serde_path_to_error::deserialize::<_, Listed>(entry) {
            Ok(listed) => page.servers.push(listed.into_server()),
            Err(e) => page.unreadable.push(Unreadable {
                name,
                position: index + 1,
                path: e.path().to_string(),
                error: e.inner().to_string(),
            }),
        }
    }
    Ok(page)
}
