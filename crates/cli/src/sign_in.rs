//! Signing in from the command line, for a server that answers 401: the sign-in URL and
//! the authorization server's host are printed on stderr, the browser is opened on it
//! (unless `--no-browser`), and the redirect is received on a loopback port. The grant is
//! kept in the OS keyring where the app keeps it, so that the next command (or the app)
//! goes on signed in; without a keyring it lives as long as the command.

use std::sync::Arc;
use std::time::Duration;

use switchboard_core::secrets::Secrets;
use switchboard_core::sign_in::{CLIENT_NAME, KeyringGrants};
use switchboard_mcp::auth::{
    AuthConfig, AuthError, Authorization, Loopback, MemoryStore, SignIn, TokenStore, UserAgent,
};
use switchboard_mcp::transport::BoxFuture;

use crate::Failure;

/// How long the person has to finish signing in.
const WAIT: Duration = Duration::from_secs(300);

/// The authorization client of an HTTP server reached from the command line.
pub async fn authorization(url: &str, browser: bool) -> Result<Authorization, Failure> {
    let terminal = Terminal {
        loopback: Loopback::bind().await.map_err(|e| e.to_string())?,
        browser,
    };
    let store: Arc<dyn TokenStore> = match KeyringGrants::read(url, &Secrets::default()).await {
        Ok(grants) => Arc::new(grants),
        Err(e) => {
            eprintln!("(signing in holds only for this command: {e})");
            Arc::new(MemoryStore::default())
        }
    };
    Authorization::new(url, AuthConfig::new(CLIENT_NAME), store, Arc::new(terminal))
        .map_err(|e| e.to_string())
}

struct Terminal {
    loopback: Loopback,
    browser: bool,
}

impl Terminal {
    async fn sign_in(&self, sign_in: &SignIn) -> Result<Vec<(String, String)>, AuthError> {
        let host = url::Url::parse(&sign_in.issuer)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_else(|| sign_in.issuer.clone());
        let scopes = match sign_in.scopes.as_slice() {
            [] => "the server's default".to_owned(),
            scopes => scopes.join(" "),
        };
        eprintln!(
            "{} needs you to sign in with {host} (scopes: {scopes}). Open this address to go on:",
            sign_in.resource
        );
        eprintln!("{}", sign_in.url);
        if self.browser
            && let Err(e) = open_browser(&sign_in.url)
        {
            eprintln!("(the browser could not be opened: {e})");
        }
        self.loopback.receive(&sign_in.state, WAIT).await
    }
}

impl UserAgent for Terminal {
    fn redirect_uri(&self) -> String {
        self.loopback.redirect_uri().to_owned()
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(self.sign_in(sign_in))
    }
}

/// Hands the address to the system's browser, without waiting for it.
fn open_browser(url: &str) -> std::io::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}
