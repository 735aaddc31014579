//! The params and results of every MCP method of every revision (2024-11-05 to 2026-07-28),
//! as serde types. The JSON-RPC envelope is in [`crate::jsonrpc`].
//!
//! Every object keeps the members it does not know in `extra` (and `_meta` in `meta`), and
//! content of an unknown `type` is kept as it came: a message read and written back is the
//! same JSON. An odd optional member is dropped rather than failing its object, and a list
//! item that cannot be read is left out of its page and reported (see `lenient`, `listing`).

pub mod apps;
mod common;
mod completion;
mod content;
mod elicitation;
mod elicitation_check;
mod elicitation_schema;
mod lenient;
mod lifecycle;
mod listing;
mod logging;
mod methods;
mod notifications;
mod prompts;
mod resources;
mod roots;
mod sampling;
mod sampling_rules;
pub mod skills;
mod stateless;
mod tasks;
mod tools;

pub use common::*;
pub use completion::*;
pub use content::*;
pub use elicitation::*;
pub use elicitation_check::*;
pub use elicitation_schema::*;
pub use lifecycle::*;
pub use listing::*;
pub use logging::*;
pub use methods::method;
pub use notifications::*;
pub use prompts::*;
pub use resources::*;
pub use roots::*;
pub use sampling::*;
pub use sampling_rules::*;
pub use stateless::*;
pub use tasks::*;
pub use tools::*;
