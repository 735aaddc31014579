//! The API key, held so that it cannot be printed by accident.

use std::fmt;

/// A provider's API key. Its `Debug` says only that a key is there, and it has no
/// `Display`: a key never reaches a log, an error message or a panic through this crate.
/// The key itself is read only where a request header is made.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key as sent in a header; only the clients of this crate read it.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl From<String> for ApiKey {
    fn from(key: String) -> Self {
        Self(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let key = ApiKey::new("sk-very-secret");
        let shown = format!("{key:?} {:?} {key:#?}", Some(key.clone()));
        assert!(!shown.contains("very-secret"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }
}
