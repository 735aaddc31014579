//! Finding the authorization server: the protected resource metadata (RFC 9728) from the
//! challenge's URL or the well-known URLs, then the authorization server's metadata
//! (RFC 8414 and OpenID Connect Discovery) at the well-known URLs in the order the MCP
//! specification gives, with the 2025-03-26 fallbacks for servers that publish neither.

use serde::Deserialize;
use url::Url;

use super::AuthError;
use super::fetch::{Found, get_json};
use super::reach::Reach;

/// RFC 9728 protected resource metadata, the fields the client uses.
#[derive(Debug, Clone, Deserialize)]
pub struct ResourceMetadata {
    pub resource: String,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

/// RFC 8414 authorization server metadata, the fields the client uses.
#[derive(Debug, Clone, Deserialize)]
pub struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    /// RFC 7009: where a client gives up its tokens.
    #[serde(default)]
    pub revocation_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub client_id_metadata_document_supported: Option<bool>,
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// RFC 9449 §5.1: the proof algorithms it takes, when it binds tokens to a key.
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

impl ServerMetadata {
    /// The 2025-03-26 default endpoints, for a server without any metadata.
    fn defaults(origin: &str) -> Self {
        Self {
            issuer: origin.to_owned(),
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            revocation_endpoint: None,
            scopes_supported: None,
            // The 2025-03-26 revision made PKCE mandatory for every server it describes.
            code_challenge_methods_supported: Some(vec!["S256".into()]),
            token_endpoint_auth_methods_supported: None,
            client_id_metadata_document_supported: None,
            authorization_response_iss_parameter_supported: None,
            dpop_signing_alg_values_supported: None,
        }
    }

    /// Refuses metadata whose endpoints sign-in may not reach.
    fn reachable(self, reach: &Reach) -> Result<Self, AuthError> {
        let endpoints = [
            Some(&self.authorization_endpoint),
            Some(&self.token_endpoint),
            self.registration_endpoint.as_ref(),
            self.revocation_endpoint.as_ref(),
        ];
        for endpoint in endpoints.into_iter().flatten() {
            reach.check(endpoint)?;
        }
        Ok(self)
    }

    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|methods| methods.iter().any(|m| m == "S256"))
    }
}

/// What discovery found: whom to ask for tokens, for which resource.
#[derive(Debug, Clone)]
pub struct Discovered {
    /// The `resource` parameter, exactly as the metadata published it.
    pub resource: String,
    /// The scopes the resource says it supports, the fallback when a challenge names none.
    pub resource_scopes: Option<Vec<String>>,
    pub server: ServerMetadata,
}

/// The well-known URLs of a resource's metadata, path-based first, then at the root.
pub fn resource_metadata_urls(server: &Url) -> Vec<String> {
    let origin = origin(server);
    let path = server.path().trim_end_matches('/');
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    urls
}

/// The well-known URLs of an authorization server's metadata, in the specification's order.
pub fn server_metadata_urls(issuer: &Url) -> Vec<String> {
    let origin = origin(issuer);
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// Discovers the authorization server of `server`, given the challenge's metadata URL.
/// Every address followed is one sign-in may reach for `server` (see [`Reach`]).
pub async fn discover(
    http: &reqwest::Client,
    server: &Url,
    metadata_url: Option<&str>,
) -> Result<Discovered, AuthError> {
    let reach = Reach::of(server);
    let candidates = match metadata_url {
        Some(url) => vec![url.to_owned()],
        None => resource_metadata_urls(server),
    };
    for url in &candidates {
        reach.check(url)?;
        let Found::Document(metadata) = get_json::<ResourceMetadata>(http, url).await? else {
            continue;
        };
        check_resource(server, &metadata.resource)?;
        let issuer = metadata
            .authorization_servers
            .first()
            .ok_or(AuthError::NoAuthorizationServer)?;
        let server_metadata = authorization_server(http, &reach, issuer).await?;
        return Ok(Discovered {
            resource: metadata.resource,
            resource_scopes: metadata.scopes_supported,
            server: server_metadata,
        });
    }
    legacy(http, server).await
}

/// The metadata of the authorization server `issuer`, whose claimed issuer must be the
/// one asked for, character for character, and whose endpoints sign-in may reach.
pub async fn authorization_server(
    http: &reqwest::Client,
    reach: &Reach,
    issuer: &str,
) -> Result<ServerMetadata, AuthError> {
    let parsed = reach.check(issuer)?;
    for url in server_metadata_urls(&parsed) {
        if let Found::Document(metadata) = get_json::<ServerMetadata>(http, &url).await? {
            if metadata.issuer != issuer {
                return Err(AuthError::IssuerMismatch {
                    expected: issuer.to_owned(),
                    claimed: metadata.issuer,
                });
            }
            return metadata.reachable(reach);
        }
    }
    Err(AuthError::Discovery {
        url: issuer.to_owned(),
        detail: "no authorization server metadata at any well-known URL".into(),
    })
}

/// 2025-03-26: no resource metadata; the server's origin is its own authorization server,
/// with metadata at its root or else the default endpoints.
async fn legacy(http: &reqwest::Client, server: &Url) -> Result<Discovered, AuthError> {
    let origin = origin(server);
    let url = format!("{origin}/.well-known/oauth-authorization-server");
    let metadata = match get_json::<ServerMetadata>(http, &url).await? {
        Found::Document(metadata) => metadata.reachable(&Reach::of(server))?,
        Found::Absent => ServerMetadata::defaults(&origin),
    };
    Ok(Discovered {
        resource: canonical(server),
        resource_scopes: None,
        server: metadata,
    })
}

/// The server's canonical URI (RFC 8707): no fragment, no trailing slash on the path.
pub fn canonical(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    let text = url.to_string();
    match url.path() {
        "/" if url.query().is_none() => text.trim_end_matches('/').to_owned(),
        _ => text,
    }
}

/// The metadata's resource must be the server or a prefix of it (same origin, path
/// prefix at a segment boundary): tokens for anything else are not this server's.
fn check_resource(server: &Url, published: &str) -> Result<(), AuthError> {
    let mismatch = || AuthError::ResourceMismatch {
        server: canonical(server),
        published: published.to_owned(),
    };
    let resource = Url::parse(published).map_err(|_| mismatch())?;
    if resource.origin() != server.origin() {
        return Err(mismatch());
    }
    let prefix = resource.path().trim_end_matches('/');
    let path = server.path();
    let within = path == prefix
        || path.trim_end_matches('/') == prefix
        || path.starts_with(&format!("{prefix}/"));
    if within { Ok(()) } else { Err(mismatch()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).expect("a URL")
    }

    #[test]
    fn resource_metadata_is_looked_for_at_the_path_then_the_root() {
        assert_eq!(
            resource_metadata_urls(&url("https://mcp.example.com/public/mcp")),
            [
                "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://mcp.example.com/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            resource_metadata_urls(&url("https://mcp.example.com")),
            ["https://mcp.example.com/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn server_metadata_urls_follow_the_specification_order() {
        assert_eq!(
            server_metadata_urls(&url("https://auth.example.com/tenant1")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            server_metadata_urls(&url("https://auth.example.com")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn the_published_resource_must_be_the_server_or_contain_it() {
        let server = url("https://mcp.example.com/team/mcp");
        for ok in [
            "https://mcp.example.com/team/mcp",
            "https://mcp.example.com/team",
            "https://mcp.example.com",
            "https://mcp.example.com/",
        ] {
            assert!(check_resource(&server, ok).is_ok(), "{ok}");
        }
        for bad in [
            "https://evil.example.com/team/mcp",
            "https://mcp.example.com/te",
            "https://mcp.example.com/other",
            "http://mcp.example.com/team/mcp",
            "not a url",
        ] {
            assert!(
                matches!(
                    check_resource(&server, bad),
                    Err(AuthError::ResourceMismatch { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn metadata_naming_an_endpoint_sign_in_may_not_reach_is_refused() {
        let reach = Reach::of(&url("https://mcp.example.com/mcp"));
        let good = ServerMetadata {
            issuer: "https://auth.example.com".into(),
            ..ServerMetadata::defaults("https://auth.example.com")
        };
        assert!(good.clone().reachable(&reach).is_ok());
        type Set = fn(&mut ServerMetadata, String);
        let cases: [(&str, Set); 4] = [
            ("https://127.0.0.1/authorize", |m, u| {
                m.authorization_endpoint = u
            }),
            ("http://auth.example.com/token", |m, u| m.token_endpoint = u),
            ("https://10.0.0.1/register", |m, u| {
                m.registration_endpoint = Some(u);
            }),
            ("https://169.254.169.254/revoke", |m, u| {
                m.revocation_endpoint = Some(u);
            }),
        ];
        for (endpoint, set) in cases {
            let mut metadata = good.clone();
            set(&mut metadata, endpoint.to_owned());
            match metadata.reachable(&reach) {
                Err(AuthError::Unreachable { url, .. }) => assert_eq!(url, endpoint),
                other => panic!("{endpoint}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_canonical_uri_has_no_trailing_slash_or_fragment() {
        assert_eq!(
            canonical(&url("https://mcp.example.com/")),
            "https://mcp.example.com"
        );
        assert_eq!(
            canonical(&url("https://mcp.example.com/mcp#x")),
            "https://mcp.example.com/mcp"
        );
    }
}
