//! Each server's views (MCP Apps) on an origin of their own: a port on 127.0.0.1 per
//! server, so that one server's view shares nothing with another's (nor with the window,
//! whose origin is the app's own). Never a custom URI scheme: the webview treats those as
//! local and grants them the app's privileges.
//!
//! A view is served once opened, at a path of 128 random bits, with the Content Security
//! Policy the extension prescribes: nothing beyond the view itself unless its resource
//! declared the domains (each checked to be an origin, so that a server cannot write
//! directives of its own into the policy), no plugins, no forms sent anywhere, and no
//! powers (camera, microphone, place, clipboard) until the person grants them.
//!
//! Built on bare hyper, which the engine's HTTP server already brings.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use switchboard_core::views::View;
use switchboard_mcp::types::apps::ResourceUi;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The views being shown, each by the path it is served at.
type Shown = Arc<Mutex<HashMap<String, Arc<Served>>>>;

struct Served {
    uri: String,
    sha256: String,
    html: String,
    csp: String,
}

/// One server's origin: its listener, and the views it serves.
struct Origin {
    address: SocketAddr,
    shown: Shown,
    listening: JoinHandle<()>,
}

impl Drop for Origin {
    fn drop(&mut self) {
        self.listening.abort();
    }
}

/// Every server's origin, opened at its first view.
#[derive(Default)]
pub struct Origins {
    by_server: Mutex<HashMap<String, Arc<Origin>>>,
}

impl Origins {
    /// Serves `view` on its server's origin: the address to load it from. A view served
    /// again as it was keeps its address; a changed one takes the place of the old, so a
    /// server's origin holds one document per view it has.
    pub async fn serve(&self, view: &View) -> std::io::Result<String> {
        let origin = self.origin(&view.server).await?;
        let fresh = format!("/view/{}", token()?);
        let mut shown = origin.shown.lock();
        let before = shown
            .iter()
            .find(|(_, served)| served.uri == view.uri)
            .map(|(path, served)| (path.clone(), served.sha256 == view.sha256));
        let path = match before {
            Some((path, true)) => path,
            Some((path, false)) => {
                shown.remove(&path);
                fresh
            }
            None => fresh,
        };
        let served = Served {
            uri: view.uri.clone(),
            sha256: view.sha256.clone(),
            html: view.html.clone(),
            csp: policy(&view.ui),
        };
        shown.insert(path.clone(), Arc::new(served));
        Ok(format!("http://{}{path}", origin.address))
    }

    async fn origin(&self, server: &str) -> std::io::Result<Arc<Origin>> {
        if let Some(open) = self.by_server.lock().get(server) {
            return Ok(open.clone());
        }
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let address = listener.local_addr()?;
        let shown = Shown::default();
        let listening = tokio::spawn(listen(listener, shown.clone()));
        let opened = Arc::new(Origin {
            address,
            shown,
            listening,
        });
        // Another view of the same server may have opened it meanwhile: one origin each.
        let mut by_server = self.by_server.lock();
        Ok(by_server.entry(server.to_owned()).or_insert(opened).clone())
    }
}

async fn listen(listener: TcpListener, shown: Shown) {
    while let Ok((stream, _)) = listener.accept().await {
        let shown = shown.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: Request<Incoming>| {
                let answer = answer(&shown, &request);
                async move { Ok::<_, Infallible>(answer) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn answer(shown: &Shown, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let served = shown.lock().get(request.uri().path()).cloned();
    match (request.method(), served) {
        (&Method::GET, Some(served)) => Response::builder()
            .header("content-type", "text/html; charset=utf-8")
            .header("content-security-policy", &served.csp)
            .header("permissions-policy", NO_POWERS)
            .header("x-content-type-options", "nosniff")
            .header("referrer-policy", "no-referrer")
            .header("cache-control", "no-store")
            .body(Full::new(Bytes::from(served.html.clone()))),
        (&Method::GET, None) => plain(StatusCode::NOT_FOUND, "no such view"),
        _ => plain(StatusCode::METHOD_NOT_ALLOWED, "a view is only read"),
    }
    .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())))
}

fn plain(
    status: StatusCode,
    text: &'static str,
) -> Result<Response<Full<Bytes>>, hyper::http::Error> {
    Response::builder()
        .status(status)
        .header("content-type", "text/plain; charset=utf-8")
        .body(Full::new(Bytes::from_static(text.as_bytes())))
}

/// The powers no view has until the person grants them.
const NO_POWERS: &str = "camera=(), microphone=(), geolocation=(), clipboard-write=()";

/// 128 random bits from the OS, in hex.
fn token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The Content Security Policy of a view whose resource asked `ui`.
pub fn policy(ui: &ResourceUi) -> String {
    let sources = |declared: &[String], otherwise: &str| {
        let checked: Vec<String> = declared.iter().filter_map(|d| source(d)).collect();
        if checked.is_empty() {
            otherwise.to_owned()
        } else {
            checked.join(" ")
        }
    };
    let loads = |base: &str| {
        let declared: Vec<String> = ui
            .csp
            .resource_domains
            .iter()
            .filter_map(|d| source(d))
            .collect();
        std::iter::once(base.to_owned())
            .chain(declared)
            .collect::<Vec<_>>()
            .join(" ")
    };
    [
        "default-src 'none'".to_owned(),
        format!("script-src {}", loads("'self' 'unsafe-inline'")),
        format!("style-src {}", loads("'self' 'unsafe-inline'")),
        format!("img-src {}", loads("'self' data:")),
        format!("font-src {}", loads("'self' data:")),
        format!("media-src {}", loads("'self' data:")),
        format!("connect-src {}", sources(&ui.csp.connect_domains, "'none'")),
        format!("frame-src {}", sources(&ui.csp.frame_domains, "'none'")),
        format!("base-uri {}", sources(&ui.csp.base_uri_domains, "'self'")),
        "form-action 'none'".to_owned(),
        "object-src 'none'".to_owned(),
    ]
    .join("; ")
}

/// A declared domain as a source of the policy, if it is an origin (a scheme the web
/// loads from, a host, perhaps a `*.` before it and a port): nothing else may reach the
/// policy, neither a keyword nor a `;` that would begin a directive of the server's own.
fn source(declared: &str) -> Option<String> {
    let (scheme, rest) = declared.split_once("://")?;
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return None;
    }
    let host_port = rest.strip_suffix('/').unwrap_or(rest);
    let host = host_port.strip_prefix("*.").unwrap_or(host_port);
    let parsed = url::Url::parse(&format!("{scheme}://{host}")).ok()?;
    let plain = parsed.host_str().is_some()
        && parsed.path() == "/"
        && parsed.query().is_none()
        && parsed.username().is_empty()
        && host_port
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:*[]".contains(c));
    plain.then(|| format!("{scheme}://{host_port}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_mcp::types::apps::Csp;

    #[test]
    fn a_view_that_declared_nothing_reaches_nothing_beyond_itself() {
        let policy = policy(&ResourceUi::default());
        for directive in [
            "default-src 'none'",
            "script-src 'self' 'unsafe-inline'",
            "connect-src 'none'",
            "frame-src 'none'",
            "object-src 'none'",
            "form-action 'none'",
        ] {
            assert!(policy.contains(directive), "{directive} in {policy}");
        }
    }

    #[test]
    fn declared_domains_are_let_in_where_they_belong_and_nothing_else_is() {
        let ui = ResourceUi {
            csp: Csp {
                connect_domains: vec![
                    "https://api.example.com".into(),
                    "wss://live.example.com:8443".into(),
                    // Each an attempt to write into the policy.
                    "https://a.example.com; script-src *".into(),
                    "'unsafe-eval'".into(),
                    "*".into(),
                    "javascript://x".into(),
                    "https://user@example.com".into(),
                ],
                resource_domains: vec!["https://*.cdn.example.com".into()],
                ..Csp::default()
            },
            ..ResourceUi::default()
        };
        let policy = policy(&ui);
        assert!(
            policy.contains("connect-src https://api.example.com wss://live.example.com:8443;"),
            "{policy}"
        );
        assert!(
            policy.contains("img-src 'self' data: https://*.cdn.example.com;"),
            "{policy}"
        );
        assert!(
            !policy.contains("unsafe-eval") && !policy.contains("script-src *"),
            "{policy}"
        );
        assert!(
            !policy.contains("javascript") && !policy.contains("user@"),
            "{policy}"
        );
    }
}
