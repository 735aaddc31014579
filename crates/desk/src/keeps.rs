//! What a service's port reaches, kept alive by each copy of the service handed out. The
//! desk holds its services and their ports reach the desk weakly, so that nothing holds
//! itself; a copy used from outside (the gateway's sessions, the window's commands) holds
//! the desk for as long as it lives.

use std::any::Any;
use std::sync::Arc;

#[derive(Clone, Default)]
pub(crate) struct Keeps {
    _alive: Option<Arc<dyn Any + Send + Sync>>,
}

impl Keeps {
    pub(crate) fn alive(part: Arc<dyn Any + Send + Sync>) -> Self {
        Self { _alive: Some(part) }
    }
}

/// A service whose copies handed out keep what its port reaches alive.
pub(crate) trait Keeping: Clone {
    fn keeps(&mut self) -> &mut Keeps;

    /// This service, keeping `part` (what its port reaches) alive while this copy lives.
    fn keeping(&self, part: Arc<dyn Any + Send + Sync>) -> Self {
        let mut copy = self.clone();
        *copy.keeps() = Keeps::alive(part);
        copy
    }
}
