//! The chat loop: a conversation with a model whose tool calls pass the gate.
//!
//! - [`naming`]: the catalog's tools under names every provider takes, collision-free
//!   and mapped back exactly, with per-server and per-tool toggles ([`Enablement`]) and
//!   a warning above [`MANY_TOOLS`].
//! - [`Chat`]: the turn loop. The model's answer streams out as [`ChatEvent`]s; each
//!   tool call goes through the same [`switchboard_core::gate::Gate`] as the explorer's (policy,
//!   the approval dialog with editable arguments, pinned trust, audit), its origin
//!   "model in conversation “<title>”"; results, denials and failures go back to the model;
//!   the model is asked again until it stops, up to a number of rounds. Stop ends the
//!   answer at once and cancels the calls under way (`notifications/cancelled`); a
//!   provider's passing errors are tried again a bounded number of times ([`Retry`]).
//! - [`Conversations`]: kept in SQLite, each message appended as it completes.
//! - [`context`]: resources attached to a message and prompts used as slash commands, in
//!   the providers' terms.
//! - [`turns`]: the person's turns, which are taken back, edited or answered again whole.
//! - [`compaction`]: a conversation too long for the model's context, made to fit.
//! - [`search`]: past a number of tools, the model searches them instead of being sent all.
//! - [`reading`]: the model reads the servers' resources itself, each read through the gate.
//!
//! It knows no face: the app or the command line feeds it the person's messages and
//! renders its events.

pub mod apps;
pub mod compaction;
pub mod context;
mod conversations;
pub mod drafts;
mod events;
#[cfg(test)]
mod layers;
pub mod naming;
pub mod reading;
pub mod results;
mod retry;
mod run;
pub mod search;
mod servers;
pub mod turns;

pub use conversations::{
    Conversation, ConversationError, ConversationSettings, ConversationSummary, Conversations,
    MovedAside, Spent,
};
pub use events::{CallFailure, ChatEvent, Ended, Outcome};
pub use naming::{Enablement, MANY_TOOLS, OfferedTool, Toolset};
pub use retry::Retry;
pub use run::{Chat, ChatSettings, Run};
pub use servers::{CatalogServers, Reach, Servers, readable};
