//! Switchboard's core: the configuration, the fleet of servers, the catalog, the gate and
//! its audit. It knows nothing of Tauri and talks to no model: the chat, the desk (what the
//! window and the gateway use) and the gateway are built on it; the command line uses it
//! alone.

pub mod agent_setup;
pub mod approvals;
mod atomic_file;
pub mod audit;
pub mod catalog;
pub mod clock;
pub mod config;
pub mod cut;
pub mod decisions;
pub mod delegated;
pub mod endpoint;
pub mod fleet;
pub mod gate;
pub mod json;
pub mod launch;
#[cfg(test)]
mod layers;
pub mod links;
pub mod log_line;
pub mod masking;
pub mod pins;
pub mod policy;
pub mod reads;
pub mod recent;
pub mod registry;
pub mod roots;
pub mod sampling;
pub mod sandbox;
pub mod secrets;
pub mod server_events;
pub mod server_requests;
pub mod sign_in;
pub mod skills;
pub mod sqlite_file;
pub mod supervisor;
pub mod traffic;
pub mod views;
