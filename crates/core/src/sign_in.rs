//! Signing in to HTTP servers that ask for it (MCP authorization). The engine's
//! `Authorization` does the protocol; the host gives it two things: where grants are kept
//! (the OS keyring, see [`grants`], never the configuration file) and the person's
//! side of a sign-in, which exists only while the person has asked to sign in. A server that
//! needs sign-in at start-up therefore stops at "Sign-in needed" and nothing is opened by
//! itself; `Desk::sign_in` grants one sign-in, and the server is restarted to use it.

mod grants;
mod unattended;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use switchboard_mcp::auth::{
    AuthConfig, AuthError, Authorization, Loopback, PreRegistered, SignIn, UserAgent,
};
use switchboard_mcp::transport::BoxFuture;
use tokio::sync::{broadcast, watch};

use crate::config::{CLIENT_METADATA_URL, HostSettings, OAuthClient, client_secret_name};
use crate::secrets::Secrets;
use crate::server_events::ServerEvent;
pub use grants::{KeyringGrants, grant_secret_name, legacy_grant_secret_name};

/// The name authorization servers show on their consent pages.
pub const CLIENT_NAME: &str = "Switchboard";

/// How long the browser has to come back once the person agreed to sign in.
pub const BROWSER_WAIT: Duration = Duration::from_secs(300);

/// Puts a sign-in to the person; true if they agreed to open it.
pub type AskPerson = Arc<dyn Fn(SignIn) -> BoxFuture<'static, bool> + Send + Sync>;

/// A sign-in the person asked for: the port the browser comes back to, and how to show
/// them where they are about to sign in.
pub struct Permit {
    loopback: Loopback,
    ask: AskPerson,
    browser_wait: Duration,
    /// Whether the person agreed to the sign-in put to them.
    agreed: AtomicBool,
    /// The page to open, once the person agreed and a client is registered if need be.
    page: watch::Sender<Option<String>>,
}

impl Permit {
    pub fn new(loopback: Loopback, ask: AskPerson, browser_wait: Duration) -> Self {
        Self {
            loopback,
            ask,
            browser_wait,
            agreed: AtomicBool::new(false),
            page: watch::channel(None).0,
        }
    }
}

/// The sign-ins the person has asked for, by server name; each is used once.
#[derive(Clone)]
pub struct SignIns {
    permits: Arc<Mutex<HashMap<String, Arc<Permit>>>>,
    /// The sign-ins waiting for the browser, by server, with the switch that cancels them.
    waiting: Arc<Mutex<HashMap<String, Arc<tokio::sync::Notify>>>>,
    /// Where a sign-in's wait for the browser is announced (the host's events).
    events: Option<broadcast::Sender<ServerEvent>>,
    /// The app's Client ID Metadata Document (the host's setting); none to always register.
    client_metadata_url: Arc<Mutex<Option<String>>>,
    /// The servers the person signed out of, until they sign in again: what they wait for
    /// says so.
    signed_out: Arc<Mutex<HashSet<String>>>,
}

impl Default for SignIns {
    fn default() -> Self {
        Self {
            permits: Arc::default(),
            waiting: Arc::default(),
            events: None,
            client_metadata_url: Arc::new(Mutex::new(Some(CLIENT_METADATA_URL.to_owned()))),
            signed_out: Arc::default(),
        }
    }
}

impl SignIns {
    /// Sign-ins that announce their wait for the browser as host events.
    pub fn announcing(events: broadcast::Sender<ServerEvent>) -> Self {
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

    fn waiting_now(
        &self,
    ) -> parking_lot::MutexGuard<'_, HashMap<String, Arc<tokio::sync::Notify>>> {
        self.waiting.lock()
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
            let _ = events.send(ServerEvent::SignInWaiting {
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
        *self.client_metadata_url.lock() = url;
    }

    /// The Client ID Metadata Document URL in use.
    pub fn client_metadata_url(&self) -> Option<String> {
        self.client_metadata_url.lock().clone()
    }

    fn permits(&self) -> parking_lot::MutexGuard<'_, HashMap<String, Arc<Permit>>> {
        self.permits.lock()
    }

    /// Lets the next start of `server` ask the person to sign in.
    pub fn permit(&self, server: &str, permit: Permit) {
        self.signed_out_now().remove(server);
        self.permits().insert(server.to_owned(), Arc::new(permit));
    }

    /// Notes that the person signed out of `server`, until they sign in again.
    pub fn sign_out(&self, server: &str) {
        self.signed_out_now().insert(server.to_owned());
    }

    fn signed_out_now(&self) -> parking_lot::MutexGuard<'_, HashSet<String>> {
        self.signed_out.lock()
    }

    /// Why `server` waits for sign-in when the person did not ask to sign in: they signed
    /// out, or have not signed in yet.
    fn not_asked(&self, server: &str) -> AuthError {
        if self.signed_out_now().contains(server) {
            AuthError::SignedOut
        } else {
            AuthError::NotSignedInYet
        }
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

    /// Where the page of the sign-in to `server` the person is asked about will be told,
    /// once they agreed and a client is registered if need be; `None` is told there if
    /// the sign-in ends before.
    pub fn page(&self, server: &str) -> Option<watch::Receiver<Option<String>>> {
        self.peek(server).map(|permit| permit.page.subscribe())
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
            config.flow = unattended::flow_of(server, client, secrets).await?;
            config.dpop = client.dpop;
            if config.flow.is_sign_in() {
                config.pre_registered = Some(pre_registered(server, client, secrets).await?);
            } else {
                config.flow_issuer.clone_from(&client.issuer);
            }
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
        issuer: client.issuer.clone(),
    })
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
            None => Err(self.sign_ins.not_asked(&self.server)),
        }
    }

    fn confirm<'a>(&'a self, sign_in: &'a SignIn) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            let Some(permit) = self.sign_ins.peek(&self.server) else {
                return Err(self.sign_ins.not_asked(&self.server));
            };
            if !(permit.ask)(sign_in.clone()).await {
                return Err(AuthError::Declined);
            }
            permit.agreed.store(true, Ordering::SeqCst);
            Ok(())
        })
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(async move {
            let Some(permit) = self.sign_ins.take(&self.server) else {
                return Err(self.sign_ins.not_asked(&self.server));
            };
            if !permit.agreed.load(Ordering::SeqCst) {
                return Err(AuthError::not_completed("the sign-in was not put to you"));
            }
            permit.page.send_replace(Some(sign_in.url.clone()));
            let waiting = self.sign_ins.wait_for_browser(&self.server);
            let came_back = permit.loopback.receive(&sign_in.state, permit.browser_wait);
            // The permit, and with it the loopback listener, goes when this returns.
            tokio::select! {
                came_back = came_back => came_back,
                () = waiting.cancel.notified() => {
                    Err(AuthError::Cancelled)
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
