//! The integration tests of this crate, one binary: each module was a test file of its own
//! (`cargo test --test it <module>::` runs one).

mod bridge;
mod cli;
mod cli_chat;
mod cli_sandbox;
mod cli_server;
mod cli_sign_in;
mod cli_tasks;
mod conformance;
