//! The third-party peers a scenario runs against, each started and connected to in one
//! place: a row of a scenario's table says which peer, over which transport, as a
//! [`Reach`], and [`Reach::connect`] starts it and connects a client that declares every
//! capability, in the stateful era.

use std::sync::Arc;
use std::time::Duration;

use switchboard_mcp::client::Client;
use switchboard_mcp::transport::http::HttpFlavor;

use crate::common::http_peers::{EverythingHttp, Peer, PyHttp, connect_auto};
use crate::common::{Log, Person, connect, everything_stdio, python_stdio, rmcp_stdio};

/// A third-party peer and how it is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// `@modelcontextprotocol/server-everything` (the TypeScript SDK) over stdio.
    EverythingStdio,
    /// server-everything over HTTP.
    EverythingHttp(EverythingHttp),
    /// The Python SDK's server of `tests/peers/python/server.py` over stdio.
    PythonStdio,
    /// The Python SDK's server over HTTP.
    PythonHttp(PyHttp),
    /// The `rmcp` server of `tests/peers/rmcp-server` over stdio.
    RmcpStdio,
    /// The `rmcp` server over Streamable HTTP.
    RmcpHttp,
}

/// A client connected to a peer, with what it needs to look at the peer's side.
pub struct Connected {
    pub client: Client,
    /// The stdio peer's stderr and the client's complaints.
    pub log: Log,
    /// The HTTP peer's process, alive as long as this value.
    pub peer: Option<Peer>,
}

impl Reach {
    /// The HTTP transport a client settles on with this peer (`None` over stdio).
    pub fn flavor(self) -> Option<HttpFlavor> {
        match self {
            Self::EverythingStdio | Self::PythonStdio | Self::RmcpStdio => None,
            Self::EverythingHttp(EverythingHttp::Sse) | Self::PythonHttp(PyHttp::Sse) => {
                Some(HttpFlavor::LegacySse)
            }
            Self::EverythingHttp(EverythingHttp::Streamable)
            | Self::PythonHttp(PyHttp::Streamable)
            | Self::RmcpHttp => Some(HttpFlavor::StreamableHttp),
        }
    }

    /// Starts the peer over HTTP (`None` over stdio, where each client starts its own).
    pub async fn start_http(self) -> Option<Peer> {
        match self {
            Self::EverythingStdio | Self::PythonStdio | Self::RmcpStdio => None,
            Self::EverythingHttp(transport) => Some(Peer::everything(transport).await),
            Self::PythonHttp(transport) => Some(Peer::python(transport).await),
            Self::RmcpHttp => Some(Peer::rmcp().await),
        }
    }

    /// Starts the peer and connects to it as a client answering as `person` does; over
    /// HTTP, with the automatic choice of transport, checked to have found the peer's.
    pub async fn connect(self, person: Arc<Person>) -> Connected {
        let log = Log::default();
        let server = match self {
            Self::EverythingStdio => {
                let mut server = everything_stdio();
                // The server does not exit when its stdin closes while a timer of its own is
                // pending (its roots request 350 ms after the handshake, a running operation,
                // an interval): do not wait the default two seconds before SIGTERM.
                server.exit_grace = Duration::from_millis(500);
                server
            }
            Self::PythonStdio => python_stdio(),
            Self::RmcpStdio => rmcp_stdio(),
            Self::EverythingHttp(_) | Self::PythonHttp(_) | Self::RmcpHttp => {
                let peer = self.start_http().await.expect("an HTTP peer");
                let client = self.connect_to(&peer, person, &log).await;
                return Connected {
                    client,
                    log,
                    peer: Some(peer),
                };
            }
        };
        let client = connect(&server, person, &log).await;
        Connected {
            client,
            log,
            peer: None,
        }
    }

    /// Connects one more client to an HTTP peer started with [`Reach::start_http`].
    pub async fn connect_to(self, peer: &Peer, person: Arc<Person>, log: &Log) -> Client {
        let (client, session) = connect_auto(&peer.url, person, log).await;
        assert_eq!(session.flavor(), self.flavor(), "over {}", peer.url);
        client
    }
}

impl Connected {
    /// Waits, up to `limit`, until the peer has written `text` to stderr.
    pub async fn stderr_shows(&self, text: &str, limit: Duration) -> bool {
        match &self.peer {
            Some(peer) => peer.stderr_shows(text, limit).await,
            None => self.log.stderr_shows(text, limit).await,
        }
    }

    /// What the peer wrote to stderr, to say why a test failed.
    pub fn stderr(&self) -> String {
        match &self.peer {
            Some(peer) => peer.stderr.lines().join("\n"),
            None => "(over stdio: in the log)".to_owned(),
        }
    }
}

/// Generates, in a module named for `scenario`, one test per peer that runs the scenario
/// with the peer's row: `each_peer!(scenario { peer_name: ROW, other_peer: ROW => REACH })`
/// makes the tests `scenario::peer_name` (so that a failure names the peer) and
/// `scenario::other_peer`, whose row is `ROW` but for the peer's reach, `REACH`.
macro_rules! each_peer {
    ($scenario:ident { $($peer:ident: $row:expr $(=> $reach:expr)?),+ $(,)? }) => {
        mod $scenario {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $peer() {
                    #[allow(unused_mut)]
                    let mut row = $row;
                    $(row.reach = $reach;)?
                    super::$scenario(&row).await;
                }
            )+
        }
    };
}
pub(crate) use each_peer;
