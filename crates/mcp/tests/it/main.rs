//! The integration tests of this crate, one binary: each module was a test file of its own
//! (`cargo test --test it <module>::` runs one).

mod authorization;
mod client;
mod common;
mod connection;
mod hostile;
mod http_failures;
mod http_server;
mod http_server_lifetime;
mod interop;
mod interop_everything;
mod interop_http;
mod interop_oauth;
mod interop_python;
mod interop_rmcp;
mod interop_tasks;
mod properties;
mod server_handler;
mod stateless;
mod stateless_protocol;
mod stdio;
mod stdio_faults;
mod traffic;
mod wire_types;
