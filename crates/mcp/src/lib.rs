//! Switchboard's Model Context Protocol engine. It knows nothing of the host or the GUI.
//!
//! - [`jsonrpc`]: the message envelope; [`types`]: the params and results of every method;
//! - [`transport`]: how messages travel (stdio, in memory);
//! - [`connection`]: one actor per connection, with timeouts, progress and cancellation;
//! - [`client`]: the handshake, the typed requests, and the handler of server requests;
//! - [`schema`]: JSON Schema checks; [`client::tool_schemas`]: tool calls checked against them;
//! - [`traffic`]: an optional observer of every message, for a traffic view;
//! - [`auth`]: the authorization client (OAuth discovery, registration, sign-in, refresh);
//! - [`server`]: the server role: its typed handler, and its transports beyond stdio
//!   (Streamable HTTP).

pub mod auth;
pub mod client;
pub mod connection;
pub mod file_uri;
#[cfg(test)]
mod fuzz;
pub mod jsonrpc;
#[cfg(test)]
mod layers;
pub mod schema;
pub mod server;
pub mod traffic;
pub mod transport;
pub mod types;
mod version;

pub use version::{ProtocolVersion, UnsupportedVersion};
