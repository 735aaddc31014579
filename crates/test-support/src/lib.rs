//! What the tests of several crates share: the workspace's programs ([`binaries`]), whether
//! a process runs ([`processes`]), a free port for a program a test starts
//! ([`ports`]), such a program waited for until it listens ([`listening`]), the official
//! MCP conformance suite's runner and judge ([`conformance`]), used by the command line's
//! tests (as a client) and the gateway's (as a server), and the official provider SDKs'
//! check of what our provider client sends ([`provider_requests`]) to the stand-in provider
//! ([`stand_in`]), the MCP Registry's
//! stand-in ([`registry`]), the check of a crate's layers from its sources ([`layers`]), and
//! what a prying server is sent after to show what the sandbox stops ([`prying`]).

pub mod binaries;
pub mod conformance;
pub mod layers;
pub mod listening;
pub mod ports;
pub mod processes;
pub mod provider_requests;
pub mod prying;
pub mod registry;
pub mod stand_in;
