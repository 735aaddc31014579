//! What the trust service needs of the rest of the host: the configuration (each server's
//! identity, the folders chosen), a way to change the folders kept in it, and the live
//! session with a server to tell it its folders changed. The desk implements it.

use switchboard_core::config::Config;
use switchboard_core::roots::FolderGrant;
use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;

/// A change to the folders kept in the configuration.
pub type FoldersChange = Box<dyn FnOnce(&mut Vec<FolderGrant>) + Send>;

pub trait TrustHost: Send + Sync + 'static {
    /// The configuration as last read.
    fn config(&self) -> Config;
    /// Changes the folders chosen as the file holds them now; whether it was written (a
    /// file that does not read is never written: the choice holds until quit).
    fn edit_folders(&self, change: FoldersChange) -> BoxFuture<'_, bool>;
    /// The live session with a running server.
    fn client(&self, server: &str) -> Option<Client>;
}
