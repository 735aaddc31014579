//! What the servers' service needs of the rest of the host: the configuration and its edits
//! (the fleet, the gate and the sign-ins follow them), a restart, what other services
//! forget of a server that goes, when each server's state began, the person's questions and
//! the audit trail. The desk implements it.

use std::path::PathBuf;

use switchboard_core::approvals::{Answer, AnswerError, Question};
use switchboard_core::audit::Record;
use switchboard_core::config::Config;
use switchboard_mcp::transport::BoxFuture;

use super::ServersError;
use crate::Update;

/// A change to the configuration the servers' service makes: refused with its reason, or
/// written.
pub type ServersChange = Box<dyn FnOnce(&mut Config) -> Result<(), ServersError> + Send>;

pub trait ServersHost: Send + Sync + 'static {
    /// The configuration as last read.
    fn config(&self) -> Config;
    /// What is wrong with the configuration file, if it did not read.
    fn config_problem(&self) -> Option<switchboard_core::config::ConfigProblem>;
    /// Where the configuration file is.
    fn config_path(&self) -> PathBuf;
    /// Changes the configuration file (read afresh under its writers' lock), brings the
    /// servers in line with it, and announces `what` changed.
    fn edit(&self, change: ServersChange, what: Update) -> BoxFuture<'_, Result<(), ServersError>>;
    /// Restarts a running server; false if it was not running.
    fn restart(&self, server: &str) -> BoxFuture<'_, bool>;
    /// Forgets what the person allowed `server` and the folders chosen for it (removed, or
    /// renamed: a new name inherits nothing).
    fn forget(&self, server: &str) -> BoxFuture<'_, ()>;
    /// When each server's present state began, by name (milliseconds since the epoch).
    fn since(&self) -> std::collections::HashMap<String, i64>;
    /// Puts a question to the person, as `server`: whether they agreed (a sign-in).
    fn agrees(&self, server: &str, question: Question) -> BoxFuture<'_, bool>;
    /// A question waiting for the person, as its server asked it.
    fn question(&self, id: u64) -> Result<Question, AnswerError>;
    /// Answers a question waiting for the person.
    fn answer(&self, id: u64, server: &str, answer: Answer) -> Result<(), AnswerError>;
    /// Keeps `record` in the audit trail.
    fn record(&self, record: Record) -> BoxFuture<'_, ()>;
}
