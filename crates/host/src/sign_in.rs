//! Signing in to HTTP servers that ask for it (MCP authorization). The engine's
//! `Authorization` does the protocol; the host gives it two things: where grants are kept
//! (the OS keyring, one entry per server URL, never the configuration file) and the person's
//! side of a sign-in, which exists only while the person has asked to sign in. A server that
//! needs sign-in at start-up therefore stops at "Sign-in needed" and nothing is opened by
//! itself; `Desk::sign_in` grants one sign-in, and the server is restarted to use it.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use switchboard_mcp::auth::{
    AuthConfig, AuthError, Authorization, Grant, Loopback, PreRegistered, SignIn, TokenStore,
    UserAgent,
};
use switchboard_mcp::transport::BoxFuture;

use crate::config::{CLIENT_METADATA_URL, HostSettings, OAuthClient, client_secret_name};
use crate::secrets::{SecretError, Secrets};
use crate::supervisor::HostEvent;
use tokio::sync::broadcast;

/// The name authorization servers show on their consent pages.
pub const CLIENT_NAME: &str = "Switchboard";

/// How long the browser has to come back once the person agreed to sign in.
pub const BROWSER_WAIT: Duration = Duration::from_secs(300);

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

/// Puts a sign-in to the person; true if they agreed to open it.
pub type AskPerson = Arc<dyn Fn(SignIn) -> BoxFuture<'static, bool> + Send + Sync>;

/// A sign-in the person asked for: the port the browser comes back to, and how to show
/// them where they are about to sign in.
pub struct Permit {
    pub loopback: Loopback,
    pub ask: AskPerson,
    pub browser_wait: Duration,
}

/// The sign-ins the person has asked for, by server name; each is used once.
#[derive(Clone)]
pub struct SignIns {
    permits: Arc<Mutex<HashMap<String, Arc<Permit>>>>,
    /// The sign-ins waiting for the browser, by server, with the switch that cancels them.
    waiting: Arc<Mutex<HashMap<String, Arc<tokio::sync::Notify>>>>,
    /// Where a sign-in's wait for the browser is announced (the host's events).
    events: Option<broadcast::Sender<HostEvent>>,
    /// The app's Client ID Metadata Document (the host's setting); none to always register.
    client_metadata_url: Arc<Mutex<Option<String>>>,
}

impl Default for SignIns {
    fn default() -> Self {
        Self {
            permits: Arc::default(),
            waiting: Arc::default(),
            events: None,
            client_metadata_url: Arc::new(Mutex::new(Some(CLIENT_METADATA_URL.to_owned()))),
        }
    }
}

impl SignIns {
    /// Sign-ins that announce their wait for the browser as host events.
    pub fn announcing(events: broadcast::Sender<HostEvent>) -> Self {
        Self {
            events: Some(events),
            ..Self::default()
        }
    }

    /// Whether a sign-in to `server` waits for the person to finish it in the browser.
    pub fn waiting(&self, server: &str) -> bool {
        self.waiting_now().contains_key(server)
    }

    /// Cancels the sign-in to `server` that waits for the browser: its loopback listener
    /// closes at once. False if none waits.
    pub fn cancel(&self, server: &str) -> bool {
        match self.waiting_now().get(server) {
            Some(cancel) => {
                cancel.notify_one();
                true
            }
            None => false,
        }
    }

    fn waiting_now(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<tokio::sync::Notify>>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Marks `server`'s sign-in as waiting for the browser until the guard is dropped.
    fn wait_for_browser(&self, server: &str) -> Waiting {
        let cancel = Arc::new(tokio::sync::Notify::new());
        self.waiting_now().insert(server.to_owned(), cancel.clone());
        self.announce(server, true);
        Waiting {
            sign_ins: self.clone(),
            server: server.to_owned(),
            cancel,
        }
    }

    fn announce(&self, server: &str, waiting: bool) {
        if let Some(events) = &self.events {
            let _ = events.send(HostEvent::SignInWaiting {
                server: server.to_owned(),
                waiting,
            });
        }
    }

    /// Takes up the host's settings as they are now (read or written again).
    pub fn follow_settings(&self, settings: &HostSettings) {
        let url = Some(settings.client_metadata_url.trim())
            .filter(|u| !u.is_empty())
            .map(str::to_owned);
        *self
            .client_metadata_url
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = url;
    }

    /// The Client ID Metadata Document URL in use.
    pub fn client_metadata_url(&self) -> Option<String> {
        self.client_metadata_url
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn permits(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Permit>>> {
        self.permits.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lets the next start of `server` ask the person to sign in.
    pub fn permit(&self, server: &str, permit: Permit) {
        self.permits().insert(server.to_owned(), Arc::new(permit));
    }

    /// Withdraws a permit not used (the server did not ask).
    pub fn withdraw(&self, server: &str) {
        self.permits().remove(server);
    }

    fn peek(&self, server: &str) -> Option<Arc<Permit>> {
        self.permits().get(server).cloned()
    }

    fn take(&self, server: &str) -> Option<Arc<Permit>> {
        self.permits().remove(server)
    }

    /// The authorization client of one start of `server` at `url`, with its grant (if
    /// any) already read from the keyring.
    pub async fn authorization(
        &self,
        server: &str,
        url: &str,
        oauth: Option<&OAuthClient>,
        secrets: &Secrets,
    ) -> Result<Authorization, String> {
        let store = KeyringGrants::read(url, secrets)
            .await
            .map_err(|e| e.to_string())?;
        let mut config = AuthConfig::new(CLIENT_NAME);
        config.client_metadata_url = self.client_metadata_url();
        if let Some(client) = oauth {
            config.pre_registered = Some(pre_registered(server, client, secrets).await?);
        }
        let agent = Door {
            server: server.to_owned(),
            sign_ins: self.clone(),
        };
        Authorization::new(url, config, Arc::new(store), Arc::new(agent)).map_err(|e| e.to_string())
    }
}

/// The client entered in the server's form, its secret read from the keyring (only the
/// server's own entry: the file cannot make it send another's secret elsewhere).
async fn pre_registered(
    server: &str,
    client: &OAuthClient,
    secrets: &Secrets,
) -> Result<PreRegistered, String> {
    let client_secret = match (&client.client_secret, client.own_secret(server)) {
        (None, _) => None,
        (Some(_), Some(name)) => Some(
            secrets
                .get(name)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| {
                    format!("the client secret of {server} is missing from the keyring")
                })?,
        ),
        (Some(other), None) => {
            return Err(format!(
                "the client secret must be the keyring entry {:?}, not {:?}",
                client_secret_name(server),
                other.secret
            ));
        }
    };
    Ok(PreRegistered {
        client_id: client.client_id.clone(),
        client_secret,
        issuer: None,
    })
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
            .map_err(|e| AuthError::Store(e.to_string()))?;
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
        outcome.map_err(|e| AuthError::Store(e.to_string()))
    }

    /// The grant in use: the one saved last (as read, or saved since).
    pub fn grant(&self) -> Option<Grant> {
        self.read_lock().latest().cloned()
    }

    fn read_lock(&self) -> std::sync::MutexGuard<'_, Grants> {
        self.read.lock().unwrap_or_else(|p| p.into_inner())
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

/// A sign-in waiting for the browser; dropped when the wait ends, however it ends.
struct Waiting {
    sign_ins: SignIns,
    server: String,
    cancel: Arc<tokio::sync::Notify>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.sign_ins.waiting_now().remove(&self.server);
        self.sign_ins.announce(&self.server, false);
    }
}

/// The person's side of a sign-in for one server: closed unless they asked to sign in.
struct Door {
    server: String,
    sign_ins: SignIns,
}

/// Why a server that asks for sign-in waits: the person did not ask to sign in (yet).
fn not_asked() -> AuthError {
    AuthError::NotCompleted("you have not signed in yet".into())
}

/// Where the browser would come back to when no sign-in is under way (a refresh sends it
/// but nothing is redirected).
const NO_REDIRECT: &str = "http://127.0.0.1/callback";

impl UserAgent for Door {
    fn redirect_uri(&self) -> String {
        self.sign_ins
            .peek(&self.server)
            .map(|p| p.loopback.redirect_uri().to_owned())
            .unwrap_or_else(|| NO_REDIRECT.to_owned())
    }

    fn ready(&self) -> Result<(), AuthError> {
        match self.sign_ins.peek(&self.server) {
            Some(_) => Ok(()),
            None => Err(not_asked()),
        }
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(async move {
            let Some(permit) = self.sign_ins.take(&self.server) else {
                return Err(not_asked());
            };
            if !(permit.ask)(sign_in.clone()).await {
                return Err(AuthError::NotCompleted("the sign-in was declined".into()));
            }
            let waiting = self.sign_ins.wait_for_browser(&self.server);
            let came_back = tokio::time::timeout(permit.browser_wait, permit.loopback.receive());
            // The permit, and with it the loopback listener, goes when this returns.
            tokio::select! {
                came_back = came_back => match came_back {
                    Ok(query) => query,
                    Err(_) => Err(AuthError::NotCompleted(format!(
                        "the browser did not come back within {} s",
                        permit.browser_wait.as_secs()
                    ))),
                },
                () = waiting.cancel.notified() => {
                    Err(AuthError::NotCompleted("the sign-in was cancelled".into()))
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document published with the project describes this app as the client its URL
    /// names: a native app, public, coming back to the loopback listener.
    #[test]
    fn the_published_client_metadata_document_is_the_one_the_setting_names() {
        let text = include_str!("../../../assets/client-metadata.json");
        let document: serde_json::Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(document["client_id"], CLIENT_METADATA_URL);
        assert_eq!(document["client_name"], CLIENT_NAME);
        assert_eq!(document["application_type"], "native");
        assert_eq!(document["token_endpoint_auth_method"], "none");
        assert_eq!(
            document["grant_types"],
            serde_json::json!(["authorization_code", "refresh_token"])
        );
        // The port is left out: a native app's loopback redirect may come on any (RFC 8252).
        let redirect = document["redirect_uris"][0]
            .as_str()
            .expect("a redirect URI");
        assert_eq!(redirect, "http://127.0.0.1/callback");
        assert_eq!(
            SignIns::default().client_metadata_url().as_deref(),
            Some(CLIENT_METADATA_URL)
        );
        let sign_ins = SignIns::default();
        let mut settings = HostSettings {
            client_metadata_url: " ".into(),
            ..HostSettings::default()
        };
        sign_ins.follow_settings(&settings);
        assert_eq!(sign_ins.client_metadata_url(), None);
        settings.client_metadata_url = "https://example.com/switchboard.json".into();
        sign_ins.follow_settings(&settings);
        assert_eq!(
            sign_ins.client_metadata_url().as_deref(),
            Some("https://example.com/switchboard.json")
        );
    }
}
