//! Secrets (API keys, tokens) live in the OS keyring, never in the configuration file or a
//! log: the configuration names them, the keyring holds them.

/// The keyring service every Switchboard secret is filed under.
const SERVICE: &str = "switchboard";

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("the keyring is not available: {0}")]
    Unavailable(String),
    #[error("the keyring refused to {action} the secret {name:?}: {detail}")]
    Refused {
        action: &'static str,
        name: String,
        detail: String,
    },
}

/// The OS keyring (the Secret Service on Linux).
#[derive(Debug, Clone)]
pub struct Secrets {
    service: String,
}

impl Default for Secrets {
    fn default() -> Self {
        Self::new(SERVICE)
    }
}

impl Secrets {
    /// Secrets filed under another service name (tests use their own).
    pub fn new(service: &str) -> Self {
        Self {
            service: service.to_owned(),
        }
    }

    fn entry(&self, name: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, name)
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }

    pub fn set(&self, name: &str, value: &str) -> Result<(), SecretError> {
        self.entry(name)?
            .set_password(value)
            .map_err(|e| refused("store", name, e))
    }

    /// The secret, or `None` if there is none by that name.
    pub fn get(&self, name: &str) -> Result<Option<String>, SecretError> {
        match self.entry(name)?.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(refused("read", name, e)),
        }
    }

    /// Deletes the secret; true if there was one.
    pub fn delete(&self, name: &str) -> Result<bool, SecretError> {
        match self.entry(name)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(refused("delete", name, e)),
        }
    }
}

fn refused(action: &'static str, name: &str, error: keyring::Error) -> SecretError {
    match error {
        keyring::Error::PlatformFailure(e) | keyring::Error::NoStorageAccess(e) => {
            SecretError::Unavailable(e.to_string())
        }
        other => SecretError::Refused {
            action,
            name: name.to_owned(),
            detail: other.to_string(),
        },
    }
}
