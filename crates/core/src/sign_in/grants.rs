//! Where grants are kept: the OS keyring, one entry per resource holding a grant per
//! authorization server, never the configuration file.

use parking_lot::Mutex;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use switchboard_mcp::auth::{AuthError, Grant, TokenStore};

use crate::secrets::{SecretError, Secrets};

/// The keyring entry of the grants for a server URL (the resource the tokens are for):
/// one entry per resource, holding a grant per authorization server. Servers reached at
/// the same resource share it.
pub fn grant_secret_name(url: &str) -> String {
    format!("grants/{}", canonical_resource(url))
}

/// Where an earlier version kept the one grant of a server URL; moved on first read.
pub fn legacy_grant_secret_name(url: &str) -> String {
    format!("sign-in/{url}")
}

/// The resource a URL names, written one way (RFC 8707 / RFC 3986: scheme and host in
/// lower case, default port and fragment left out); the URL as given if it does not parse.
fn canonical_resource(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => url.to_owned(),
    }
}

/// What the keyring entry of a resource holds: a grant per authorization server (by
/// issuer), and which was saved last (the one tried first, before the server says which
/// authorization server it trusts now).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Grants {
    latest: Option<String>,
    by_issuer: BTreeMap<String, Grant>,
}

impl Grants {
    fn latest(&self) -> Option<&Grant> {
        self.by_issuer.get(self.latest.as_deref()?)
    }

    fn with(mut self, grant: &Grant) -> Self {
        self.latest = Some(grant.issuer.clone());
        self.by_issuer.insert(grant.issuer.clone(), grant.clone());
        self
    }
}

/// The grant of one server in the keyring. The engine's store is synchronous, and a
/// keyring call waits on D-Bus: the grant is read before the connection starts (on a
/// blocking thread, like every other secret), so loading never blocks; saving (after a
/// sign-in or a refresh, rare) runs in `block_in_place`, which hands the worker's other
/// tasks to another worker meanwhile (the app's runtime has several; on a single-threaded
/// one, the CLI's or a test's, the save waits in place).
pub struct KeyringGrants {
    name: String,
    secrets: Secrets,
    read: Mutex<Grants>,
}

impl KeyringGrants {
    pub async fn read(url: &str, secrets: &Secrets) -> Result<Self, SecretError> {
        let name = grant_secret_name(url);
        let read = match secrets.get(&name).await? {
            // Grants that no longer read (an older format) are as good as none: sign in again.
            Some(json) => serde_json::from_str(&json).unwrap_or_default(),
            None => Self::moved(url, &name, secrets).await?,
        };
        Ok(Self {
            name,
            secrets: secrets.clone(),
            read: Mutex::new(read),
        })
    }

    /// The grant an earlier version kept under the server's URL, moved to the entry of
    /// its resource (read once, written anew, the old entry deleted).
    async fn moved(url: &str, name: &str, secrets: &Secrets) -> Result<Grants, SecretError> {
        let legacy = legacy_grant_secret_name(url);
        let Some(json) = secrets.get(&legacy).await? else {
            return Ok(Grants::default());
        };
        let grants = match serde_json::from_str::<Grant>(&json) {
            Ok(grant) => {
                let grants = Grants::default().with(&grant);
                let json = serde_json::to_string(&grants)
                    .map_err(|e| SecretError::Unavailable(e.to_string()))?;
                secrets.set(name, &json).await?;
                grants
            }
            Err(_) => Grants::default(),
        };
        secrets.delete(&legacy).await?;
        Ok(grants)
    }

    fn write(&self, grants: Option<&Grants>) -> Result<(), AuthError> {
        let json = grants
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| AuthError::Store {
                detail: e.to_string(),
            })?;
        let (secrets, name) = (&self.secrets, self.name.as_str());
        // On a thread of its own with a runtime of its own: the caller's runtime may be
        // single-threaded, and this thread may not wait on its own workers.
        let call = || {
            std::thread::scope(|s| {
                s.spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .build()
                        .map_err(|e| SecretError::Unavailable(e.to_string()))?;
                    runtime.block_on(async {
                        match json {
                            Some(json) => secrets.set(name, &json).await,
                            None => secrets.delete(name).await.map(|_| ()),
                        }
                    })
                })
                .join()
                .unwrap_or_else(|_| {
                    Err(SecretError::Unavailable("the keyring call panicked".into()))
                })
            })
        };
        let outcome = match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(call),
            _ => call(),
        };
        outcome.map_err(|e| AuthError::Store {
            detail: e.to_string(),
        })
    }

    /// Every grant kept, one per authorization server.
    pub fn all(&self) -> Vec<Grant> {
        self.read_lock().by_issuer.values().cloned().collect()
    }

    /// The grant in use: the one saved last (as read, or saved since).
    pub fn grant(&self) -> Option<Grant> {
        self.read_lock().latest().cloned()
    }

    fn read_lock(&self) -> parking_lot::MutexGuard<'_, Grants> {
        self.read.lock()
    }
}

impl TokenStore for KeyringGrants {
    fn load(&self, _server: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self.grant())
    }

    fn load_for(&self, _server: &str, issuer: &str) -> Result<Option<Grant>, AuthError> {
        Ok(self.read_lock().by_issuer.get(issuer).cloned())
    }

    fn save(&self, _server: &str, grant: &Grant) -> Result<(), AuthError> {
        let grants = self.read_lock().clone().with(grant);
        self.write(Some(&grants))?;
        *self.read_lock() = grants;
        Ok(())
    }

    /// Signing out forgets every authorization server's grant for the resource.
    fn delete(&self, _server: &str) -> Result<(), AuthError> {
        self.write(None)?;
        *self.read_lock() = Grants::default();
        Ok(())
    }
}
