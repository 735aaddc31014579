//! The gateway over Streamable HTTP on 127.0.0.1: the engine's server, where each
//! request's bearer token names its agent (`Agents::agent_token`) and each session is a
//! gateway session of that agent. Its Origin and Host checks keep web pages out.

use std::sync::Arc;

use switchboard_mcp::server::http::{HttpServer, HttpServerOptions};

use crate::http_sessions;
use switchboard_desk::Agents;

/// Listens on `port` of 127.0.0.1 and ::1 (0: any free one) until the returned server is
/// dropped; when it cannot, the desk says why (see [`Agents::gateway_refused`]).
/// The tokens given before are admitted again as the keyring gives them, on a task of
/// their own so that a keyring waiting to be unlocked holds up no start; one that cannot
/// be read admits none of them (each is read again when the person next shows it).
pub async fn listen(agents: &Agents, port: u16) -> std::io::Result<HttpServer> {
    let loading = agents.clone();
    tokio::spawn(async move {
        if let Err(e) = loading.load_tokens().await {
            tracing::warn!("the agents' tokens could not be read: {e}");
        }
    });
    let options = HttpServerOptions {
        port,
        tokens: Some(agents.token_check()),
        ..HttpServerOptions::default()
    };
    match HttpServer::bind(options, Arc::new(http_sessions(agents))).await {
        Ok(server) => {
            agents.set_gateway_url(Some(server.url()));
            Ok(server)
        }
        Err(e) => {
            agents.gateway_refused(port, &e).await;
            Err(e)
        }
    }
}
