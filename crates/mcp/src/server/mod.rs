//! The server role. A server is a [`crate::connection::Connection`] like a client: its
//! [`crate::connection::IncomingHandler`] answers the client's requests (a typed
//! [`handler::ServerHandler`] through [`handler::Dispatch`]), and the handle calls the
//! client back (sampling, elicitation, roots) and notifies it (progress, logging).
//! [`http`] serves it over Streamable HTTP; [`stateless`] reads and marks the requests and
//! results of the 2026-07-28 revision.

pub mod handler;
pub mod http;
pub mod stateless;
