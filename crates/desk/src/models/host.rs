//! What the models' service needs of the rest of the host: the configuration, and a way to
//! change it that tells the window the providers changed. The desk implements it.

use switchboard_core::config::Config;
use switchboard_mcp::transport::BoxFuture;

use super::ModelsError;

/// A change to the configuration the models' service makes: refused with its reason, or
/// written.
pub type ModelsChange = Box<dyn FnOnce(&mut Config) -> Result<(), ModelsError> + Send>;

pub trait ModelsHost: Send + Sync + 'static {
    /// The configuration as last read.
    fn config(&self) -> Config;
    /// What is wrong with the configuration file, if it did not read.
    fn config_problem(&self) -> Option<switchboard_core::config::ConfigProblem>;
    /// Changes the configuration file (read afresh) and announces the providers changed.
    fn edit(&self, change: ModelsChange) -> BoxFuture<'_, Result<(), ModelsError>>;
}
