//! The gateway's integration tests, one binary (`cargo test -p switchboard-gateway --test it
//! <module>::` runs one module).

// The host's test world (a desk on the demo server, its settings and helpers): the
// gateway is tested on the same desk the app runs.
mod agent_setup;
#[path = "../../../desk/tests/it/common/mod.rs"]
mod common;
mod gateway;
mod gateway_conformance;
mod gateway_protocol;
mod task_fixtures;
mod tasks_extension;
