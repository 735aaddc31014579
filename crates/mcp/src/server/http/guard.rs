//! Who may talk to the server: requests must name a loopback host and come from no foreign
//! web page (DNS rebinding), and carry a bearer token that maps to an identity.
//!
//! Tokens are compared with [`same_token`], whose time does not depend on where two tokens
//! differ, so that a local program cannot find a token byte by byte from how long its
//! refusals take. It is `subtle`'s comparison (the one the RustCrypto digests use, kept by
//! the dalek maintainers and audited) rather than a loop of our own, which an optimizer is
//! free to turn back into an early exit.

use std::sync::Arc;

use http::HeaderMap;
use http::header::{AUTHORIZATION, HOST, ORIGIN};

/// Who a token belongs to (an agent's id, for instance). Sessions are bound to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity(pub Arc<str>);

impl Identity {
    pub fn new(name: impl Into<Arc<str>>) -> Self {
        Self(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Maps a bearer token to an identity; `None` refuses it. Implementations compare tokens
/// with [`same_token`].
pub trait TokenCheck: Send + Sync + 'static {
    fn identify(&self, token: &str) -> Option<Identity>;
}

impl<F: Fn(&str) -> Option<Identity> + Send + Sync + 'static> TokenCheck for F {
    fn identify(&self, token: &str) -> Option<Identity> {
        self(token)
    }
}

/// Whether `given` is `expected`, in a time that depends on their lengths only (tokens of
/// one kind all have the same length), never on the first byte where they differ.
pub fn same_token(given: &str, expected: &str) -> bool {
    use subtle::ConstantTimeEq;
    given.as_bytes().ct_eq(expected.as_bytes()).into()
}

/// Why a request was turned away before it reached a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A foreign `Origin` or `Host`: 403.
    Forbidden(String),
    /// No token, or one nobody holds: 401 with a `WWW-Authenticate: Bearer` challenge.
    Unauthorized { invalid_token: bool },
}

/// Checks `Host` against loopback with this server's port (every HTTP/1.1 client sends
/// it: a request without one, or naming no port, which means 80, is refused), `Origin`
/// against loopback pages of any port (they run on the machine already) and the extra
/// origins allowed, then the token. `None` as `tokens` lets every request in, with no
/// identity.
pub fn admit(
    headers: &HeaderMap,
    port: u16,
    allowed_origins: &[String],
    tokens: Option<&dyn TokenCheck>,
) -> Result<Option<Identity>, Refusal> {
    let host = headers.get(HOST).map(|h| h.to_str().unwrap_or_default());
    if !host.is_some_and(|host| is_loopback_authority(host, Some(port))) {
        return Err(Refusal::Forbidden(format!(
            "the Host {} is not this server",
            host.map_or("(none)".to_owned(), |h| format!("{h:?}"))
        )));
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let allowed = allowed_origins
            .iter()
            .any(|o| o.eq_ignore_ascii_case(origin))
            || origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && is_loopback_authority(rest, None)
            });
        if !allowed {
            return Err(Refusal::Forbidden(format!(
                "the Origin {origin:?} may not use this server"
            )));
        }
    }
    let Some(tokens) = tokens else {
        return Ok(None);
    };
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    match token {
        None => Err(Refusal::Unauthorized {
            invalid_token: false,
        }),
        Some(token) => tokens
            .identify(token)
            .map(Some)
            .ok_or(Refusal::Unauthorized {
                invalid_token: true,
            }),
    }
}

/// `127.0.0.1`, `localhost` or `[::1]`, with `port` when one is required.
fn is_loopback_authority(authority: &str, port: Option<u16>) -> bool {
    let (host, given_port) = match authority.rsplit_once(':') {
        Some((host, p)) if !p.contains(']') => (host, p.parse::<u16>().ok()),
        _ => (authority, None),
    };
    let loopback = matches!(
        host.to_ascii_lowercase().as_str(),
        "127.0.0.1" | "localhost" | "[::1]"
    );
    loopback && port.is_none_or(|port| given_port == Some(port))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(http::HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), HeaderValue::from_str(v).unwrap()))
            .collect()
    }

    fn agent(token: &str) -> Option<Identity> {
        same_token(token, "s3cret").then(|| Identity::new("agent"))
    }

    #[test]
    fn loopback_hosts_and_origins_pass_and_foreign_ones_are_forbidden() {
        let ok = headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "http://localhost:5173")]);
        assert_eq!(admit(&ok, 8080, &[], None), Ok(None));
        let rebound = headers(&[(HOST, "evil.example:8080")]);
        assert!(matches!(
            admit(&rebound, 8080, &[], None),
            Err(Refusal::Forbidden(_))
        ));
        for host in ["127.0.0.1:9", "127.0.0.1", "localhost", "[::1]"] {
            let other_port = headers(&[(HOST, host)]);
            assert!(
                matches!(
                    admit(&other_port, 8080, &[], None),
                    Err(Refusal::Forbidden(_))
                ),
                "{host}: no port, or another, is another server"
            );
        }
        assert!(matches!(
            admit(&HeaderMap::new(), 8080, &[], None),
            Err(Refusal::Forbidden(_))
        ));
        let six = headers(&[(HOST, "[::1]:8080"), (ORIGIN, "http://[::1]:3000")]);
        assert_eq!(admit(&six, 8080, &[], None), Ok(None));
        let page = headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "https://evil.example")]);
        assert!(matches!(
            admit(&page, 8080, &[], None),
            Err(Refusal::Forbidden(_))
        ));
        let allowed = ["https://app.example".to_string()];
        let listed = headers(&[(HOST, "localhost:8080"), (ORIGIN, "https://app.example")]);
        assert_eq!(admit(&listed, 8080, &allowed, None), Ok(None));
        let sneaky = headers(&[
            (HOST, "localhost:8080"),
            (ORIGIN, "http://localhost.evil.example"),
        ]);
        assert!(matches!(
            admit(&sneaky, 8080, &[], None),
            Err(Refusal::Forbidden(_))
        ));
    }

    #[test]
    fn only_the_same_token_is_the_same_token() {
        assert!(same_token("sbg_0123abcd", "sbg_0123abcd"));
        for other in [
            "sbg_0123abce",
            "sbg_0123abc",
            "sbg_0123abcde",
            "",
            "SBG_0123ABCD",
        ] {
            assert!(!same_token(other, "sbg_0123abcd"), "{other:?}");
        }
    }

    #[test]
    fn a_token_maps_to_its_identity_and_a_missing_or_wrong_one_is_unauthorized() {
        let check: &dyn TokenCheck = &agent;
        let good = headers(&[(HOST, "127.0.0.1:1"), (AUTHORIZATION, "Bearer s3cret")]);
        assert_eq!(
            admit(&good, 1, &[], Some(check)),
            Ok(Some(Identity::new("agent")))
        );
        for wrong in ["nope", "s3cre", "s3crets", "S3cret", ""] {
            let wrong = headers(&[
                (HOST, "127.0.0.1:1"),
                (AUTHORIZATION, &format!("Bearer {wrong}")),
            ]);
            assert_eq!(
                admit(&wrong, 1, &[], Some(check)),
                Err(Refusal::Unauthorized {
                    invalid_token: true
                })
            );
        }
        assert_eq!(
            admit(&headers(&[(HOST, "127.0.0.1:1")]), 1, &[], Some(check)),
            Err(Refusal::Unauthorized {
                invalid_token: false
            })
        );
    }
}
