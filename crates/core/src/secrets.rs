//! Secrets (API keys, tokens) live in the OS keyring, never in the configuration file or a
//! log: the configuration names them, the keyring holds them. A keyring call can wait on
//! another process (the Secret Service over D-Bus, an unlock prompt): each runs on a
//! blocking thread, never on the async runtime's workers.

/// The keyring service every Switchboard secret is filed under.
const SERVICE: &str = "switchboard";

/// Names another keyring service, to keep a second profile's secrets (one with its own
/// `SWITCHBOARD_CONFIG`) apart from the person's own.
pub const SERVICE_ENV: &str = "SWITCHBOARD_KEYRING_SERVICE";

/// Why the keyring could not keep or give a secret: the keyring's own words as they came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SecretError {
    #[error("the keyring is not available: {0}")]
    Unavailable(String),
    #[error("the keyring refused to {action} the secret {name:?}: {detail}")]
    Refused {
        action: KeyringAction,
        name: String,
        detail: String,
    },
}

/// What was asked of the keyring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum KeyringAction {
    Store,
    Read,
    Delete,
}

impl std::fmt::Display for KeyringAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Store => "store",
            Self::Read => "read",
            Self::Delete => "delete",
        })
    }
}

/// The OS keyring (the Secret Service on Linux).
#[derive(Debug, Clone)]
pub struct Secrets {
    service: String,
}

impl Default for Secrets {
    /// The person's secrets: the service `SWITCHBOARD_KEYRING_SERVICE` names, else
    /// `switchboard`.
    fn default() -> Self {
        let named = std::env::var(SERVICE_ENV).ok().filter(|s| !s.is_empty());
        Self::new(named.as_deref().unwrap_or(SERVICE))
    }
}

impl Secrets {
    /// Secrets filed under another service name (tests use their own).
    pub fn new(service: &str) -> Self {
        Self {
            service: service.to_owned(),
        }
    }

    /// The agents' gateway tokens: a service of their own beside this one. Servers,
    /// providers and sign-ins name their secrets after themselves in this one; whatever
    /// names the person gives agents and servers, an agent's token and another's secret
    /// are never the same entry.
    pub fn agent_tokens(&self) -> Self {
        Self::new(&format!("{}-agent-tokens", self.service))
    }

    /// Runs a keyring call on a blocking thread with an entry for `name`.
    async fn call<T: Send + 'static>(
        &self,
        name: &str,
        call: impl FnOnce(keyring::Entry, &str) -> Result<T, SecretError> + Send + 'static,
    ) -> Result<T, SecretError> {
        let (service, name) = (self.service.clone(), name.to_owned());
        tokio::task::spawn_blocking(move || {
            let entry = keyring::Entry::new(&service, &name)
                .map_err(|e| SecretError::Unavailable(e.to_string()))?;
            call(entry, &name)
        })
        .await
        .map_err(|e| SecretError::Unavailable(format!("the keyring call did not finish: {e}")))?
    }

    pub async fn set(&self, name: &str, value: &str) -> Result<(), SecretError> {
        let value = value.to_owned();
        self.call(name, move |entry, name| {
            entry
                .set_password(&value)
                .map_err(|e| refused(KeyringAction::Store, name, e))
        })
        .await
    }

    /// The secret, or `None` if there is none by that name.
    pub async fn get(&self, name: &str) -> Result<Option<String>, SecretError> {
        self.call(name, |entry, name| match entry.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(refused(KeyringAction::Read, name, e)),
        })
        .await
    }

    /// Deletes the secret; true if there was one.
    pub async fn delete(&self, name: &str) -> Result<bool, SecretError> {
        self.call(name, |entry, name| match entry.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(refused(KeyringAction::Delete, name, e)),
        })
        .await
    }
}

fn refused(action: KeyringAction, name: &str, error: keyring::Error) -> SecretError {
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
