//! The handshake and a first call: over stdio, and over HTTP with the transport found by
//! the automatic choice (Streamable HTTP, or legacy HTTP+SSE by falling back from it).

use switchboard_mcp::client::Client;

use super::{Text, arguments};
use crate::common::http_peers::{EverythingHttp, PyHttp};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, first_text};

struct Peer {
    reach: Reach,
    name: &'static str,
    instructions: Text,
    /// How the URL the HTTP peer announced ends.
    endpoint: Option<&'static str>,
    echo: &'static str,
    echoed: &'static str,
}

const EVERYTHING: Peer = Peer {
    reach: Reach::EverythingStdio,
    name: "mcp-servers/everything",
    instructions: Text::StartsWith("# Everything Server"),
    endpoint: None,
    echo: r#"{"message": "héllo ✓"}"#,
    echoed: "Echo: héllo ✓",
};
const EVERYTHING_HTTP: Peer = Peer {
    reach: Reach::EverythingHttp(EverythingHttp::Streamable),
    endpoint: Some("/mcp"),
    echo: r#"{"message": "hi"}"#,
    echoed: "Echo: hi",
    ..EVERYTHING
};
const EVERYTHING_SSE: Peer = Peer {
    reach: Reach::EverythingHttp(EverythingHttp::Sse),
    endpoint: Some("/sse"),
    ..EVERYTHING_HTTP
};
const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    name: "switchboard-python-peer",
    instructions: Text::Is("Test server for Switchboard."),
    endpoint: None,
    echo: r#"{"text": "héllo"}"#,
    echoed: "héllo",
};
const PYTHON_HTTP: Peer = Peer {
    reach: Reach::PythonHttp(PyHttp::Streamable),
    endpoint: Some("/mcp"),
    echo: r#"{"text": "héllo over HTTP"}"#,
    echoed: "héllo over HTTP",
    ..PYTHON
};
const PYTHON_SSE: Peer = Peer {
    reach: Reach::PythonHttp(PyHttp::Sse),
    endpoint: Some("/sse"),
    echo: r#"{"text": "héllo over SSE"}"#,
    echoed: "héllo over SSE",
    ..PYTHON
};
const RMCP: Peer = Peer {
    reach: Reach::RmcpStdio,
    name: "rmcp-peer",
    instructions: Text::Is("rmcp test peer"),
    endpoint: None,
    echo: r#"{"text": "héllo, wörld ✓ \"quoted\"\nsecond line"}"#,
    echoed: "héllo, wörld ✓ \"quoted\"\nsecond line",
};
const RMCP_HTTP: Peer = Peer {
    reach: Reach::RmcpHttp,
    endpoint: Some("/mcp"),
    echo: r#"{"text": "héllo rmcp"}"#,
    echoed: "héllo rmcp",
    ..RMCP
};

/// Connects (over HTTP with the automatic choice of transport, checked to find the
/// peer's), then checks the revision, the server's name and instructions, one echo, and a
/// ping.
async fn handshake_and_echo(peer: &Peer) {
    let connected = peer.reach.connect(Person::new(Script::default())).await;
    if let (Some(http), Some(endpoint)) = (&connected.peer, peer.endpoint) {
        assert!(http.url.ends_with(endpoint), "{}", http.url);
    }
    let client: &Client = &connected.client;
    assert_eq!(client.protocol_version().as_str(), "2025-11-25");
    let server = client.server();
    assert_eq!(server.server_info.name, peer.name);
    peer.instructions.check(
        server.instructions.as_deref().unwrap_or_default(),
        "the instructions",
    );
    let echo = client
        .call_tool("echo", arguments(peer.echo), client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&echo), peer.echoed);
    assert!(!echo.failed(), "{echo:?}");
    client.ping().await.expect("ping");
    client.close().await;
}

each_peer!(handshake_and_echo {
    everything_stdio: EVERYTHING,
    everything_streamable_http: EVERYTHING_HTTP,
    everything_sse_by_falling_back_from_streamable_http: EVERYTHING_SSE,
    python_stdio: PYTHON,
    python_streamable_http: PYTHON_HTTP,
    python_sse_by_falling_back_from_streamable_http: PYTHON_SSE,
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP_HTTP,
});
