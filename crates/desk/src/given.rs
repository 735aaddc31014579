//! What a change gave back, when the change goes through a port: a port takes one boxed
//! change type, which gives nothing back, so the change leaves its result here.

use std::sync::Arc;

use parking_lot::Mutex;

pub(crate) struct Given<T>(Arc<Mutex<Option<T>>>);

impl<T: Send + 'static> Given<T> {
    pub(crate) fn new() -> Self {
        Self(Arc::default())
    }

    /// `change`, leaving what it gives here (when it gives anything: a refusal leaves none).
    pub(crate) fn keeping<A: ?Sized, E>(
        &self,
        change: impl FnOnce(&mut A) -> Result<T, E> + Send + 'static,
    ) -> impl FnOnce(&mut A) -> Result<(), E> + Send + 'static {
        let slot = self.0.clone();
        move |arg: &mut A| {
            *slot.lock() = Some(change(arg)?);
            Ok(())
        }
    }

    /// What the change gave, if it ran and gave it.
    pub(crate) fn take(&self) -> Option<T> {
        self.0.lock().take()
    }
}
