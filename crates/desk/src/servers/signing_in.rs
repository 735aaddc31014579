//! Signing in to a server and out of it, at the person's request. The sign-in is put to
//! them first (which authorization server, for which server, which scopes, the page), and
//! the browser opens only if they agree; then the server is restarted and runs with the
//! token. Who is signed in is read from the keyring, where the grant is; the audit trail
//! records each sign-in and sign-out, never a token.

use parking_lot::Mutex;
use std::sync::Arc;

use serde::Serialize;
use serde_json::json;
use switchboard_mcp::auth::{Grant, Loopback, SignIn};
use tokio::sync::broadcast::error::RecvError;

use super::{Servers, ServersError};
use crate::server_settings::{FormError, KeyValue};
use switchboard_core::approvals::{Answer, Question};
use switchboard_core::audit::{Kind, Record};
use switchboard_core::config::ServerSpec;
use switchboard_core::decisions::{DecidedBy, Outcome};
use switchboard_core::links;
use switchboard_core::server_events::{Reason, ServerEvent, ServerState};
use switchboard_core::sign_in::{
    AskPerson, BROWSER_WAIT, KeyringGrants, Permit, grant_secret_name, legacy_grant_secret_name,
};

const AUTHORIZATION: &str = "Authorization";

/// Who the person is signed in as at a server, for the details view.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    /// The authorization server that granted the tokens.
    pub issuer: String,
    pub scopes: Vec<String>,
    /// When the access token ends (it is refreshed before), in milliseconds since the
    /// Unix epoch.
    pub expires_ms: Option<u64>,
}

/// How long a sign-out waits for the authorization server to revoke a grant's tokens.
const REVOKE_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Servers {
    /// The URL of an HTTP server: only those sign in.
    fn sign_in_url(&self, server: &str) -> Result<String, ServersError> {
        let config = self.server_config(server)?;
        match config.spec(server) {
            Ok(ServerSpec::Http { url, .. }) => Ok(url.to_owned()),
            _ => Err(ServersError::NoSignIn(server.to_owned())),
        }
    }

    /// Signs in to `server`: it is restarted with leave to ask the person (the question
    /// comes forward at once), and this returns once it runs, or says why it does not.
    pub async fn sign_in(&self, server: &str) -> Result<(), ServersError> {
        self.sign_in_waiting(server, BROWSER_WAIT).await
    }

    /// [`Self::sign_in`] with a bound of its own on the wait for the browser.
    pub async fn sign_in_waiting(
        &self,
        server: &str,
        browser_wait: std::time::Duration,
    ) -> Result<(), ServersError> {
        self.sign_in_url(server)?;
        let failed = |detail: Reason| ServersError::SignIn {
            server: server.to_owned(),
            detail,
        };
        let loopback = Loopback::bind()
            .await
            .map_err(|e| failed(Reason::said(e.to_string())))?;
        let shown: Arc<Mutex<Option<SignIn>>> = Arc::default();
        let ask: AskPerson = {
            let (host, server, shown) = (self.host.clone(), server.to_owned(), shown.clone());
            Arc::new(move |sign_in: SignIn| {
                let (host, server, shown) = (host.clone(), server.clone(), shown.clone());
                Box::pin(async move {
                    *shown.lock() = Some(sign_in.clone());
                    let question = Question::SignIn {
                        issuer_host: url::Url::parse(&sign_in.issuer)
                            .ok()
                            .and_then(|u| u.host_str().map(str::to_owned))
                            .unwrap_or_else(|| sign_in.issuer.clone()),
                        issuer: sign_in.issuer,
                        resource: sign_in.resource,
                        scopes: sign_in.scopes,
                        url: sign_in.url,
                    };
                    host.agrees(&server, question).await
                })
            })
        };
        let mut events = self.shared.events();
        self.shared
            .sign_ins()
            .permit(server, Permit::new(loopback, ask, browser_wait));
        let outcome = match self.restart(server).await {
            Ok(()) => started(&mut events, server).await,
            Err(e) => Err(Reason::said(e.to_string())),
        };
        self.shared.sign_ins().withdraw(server);
        let asked = shown.lock().take();
        let decision = match &outcome {
            Ok(()) => "signed in".to_owned(),
            Err(detail) => format!("not signed in: {detail}"),
        };
        self.record_sign_in(server, asked.as_ref(), &decision).await;
        outcome.map_err(failed)
    }

    /// Whether a sign-in to `server` waits for the person to finish it in the browser.
    pub fn sign_in_waiting_for_browser(&self, server: &str) -> bool {
        self.shared.sign_ins().waiting(server)
    }

    /// Cancels the sign-in to `server` that waits for the browser: its loopback listener
    /// closes at once, and the server needs sign-in again.
    pub fn cancel_sign_in(&self, server: &str) -> Result<(), ServersError> {
        match self.shared.sign_ins().cancel(server) {
            true => Ok(()),
            false => Err(ServersError::SignIn {
                server: server.to_owned(),
                detail: Reason::NoSignInWaiting,
            }),
        }
    }

    /// Answers a sign-in question; on "Sign in", returns the page for the app to open: the
    /// page shown, with the id of the client registered once the person agreed (if one
    /// had to be). `None` if the sign-in ended first (its own outcome says why).
    pub async fn answer_sign_in(
        &self,
        id: u64,
        server: &str,
        sign_in: bool,
    ) -> Result<Option<String>, ServersError> {
        let Question::SignIn { url, .. } = self.host.question(id)? else {
            return Err(switchboard_core::approvals::AnswerError::WrongKind(id).into());
        };
        if !sign_in {
            self.host.answer(id, server, Answer::SignIn(false))?;
            return Ok(None);
        }
        links::openable(&url)?;
        // Listened to before answering, so that the page cannot come unheard.
        let page = self.shared.sign_ins().page(server);
        self.host.answer(id, server, Answer::SignIn(true))?;
        let Some(mut page) = page else {
            return Ok(None);
        };
        let opened = match page.wait_for(Option::is_some).await {
            Ok(page) => page.clone(),
            Err(_) => None,
        };
        match opened {
            Some(page) => Ok(Some(links::openable(&page)?.to_string())),
            None => Ok(None),
        }
    }

    /// The simple way in where signing in cannot work: a personal access token made on the
    /// service's website, sent as `Authorization: Bearer <token>`. It is stored like any
    /// header kept in the keyring (the server's form shows it so), and the server restarts
    /// with it.
    pub async fn use_access_token(&self, server: &str, token: &str) -> Result<(), ServersError> {
        self.sign_in_url(server)?;
        let token = token.trim();
        if token.is_empty() || token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(FormError::BadToken.into());
        }
        let mut form = self.server_form(server)?;
        form.headers
            .retain(|h| !h.key.trim().eq_ignore_ascii_case(AUTHORIZATION));
        form.headers.push(KeyValue {
            key: AUTHORIZATION.to_owned(),
            value: format!("Bearer {token}"),
            secret: true,
            stored: false,
        });
        self.save_server(Some(server.to_owned()), form).await
    }

    /// Deletes the grant, gives its tokens up at the authorization server that issued them
    /// (when it offers revocation), and restarts the server, which then waits for the person
    /// to sign in again, saying they signed out. The grant is gone from here whatever the
    /// authorization server answers; the audit trail says whether it revoked the tokens.
    pub async fn sign_out(&self, server: &str) -> Result<(), ServersError> {
        let url = self.sign_in_url(server)?;
        let kept = KeyringGrants::read(&url, &self.secrets).await?;
        let before = kept.grant().map(signed_in_with);
        let grants = kept.all();
        self.secrets.delete(&grant_secret_name(&url)).await?;
        self.secrets.delete(&legacy_grant_secret_name(&url)).await?;
        self.shared.sign_ins().sign_out(server);
        let mut revoked = Vec::new();
        for grant in &grants {
            let outcome = tokio::time::timeout(REVOKE_WAIT, grant.revoke()).await;
            revoked.push(match outcome {
                Ok(Ok(true)) => "revoked".to_owned(),
                Ok(Ok(false)) => "the authorization server offers no revocation".to_owned(),
                Ok(Err(e)) => format!("not revoked: {e}"),
                Err(_) => format!("not revoked: no answer within {} s", REVOKE_WAIT.as_secs()),
            });
        }
        let detail = json!({
            "issuer": before.as_ref().map(|s| &s.issuer),
            "revocation": revoked,
        });
        self.audit_sign_in(
            server,
            before.map(|s| s.issuer).unwrap_or_default(),
            detail,
            "signed out",
        )
        .await;
        match self.restart(server).await {
            // A server turned off stays off; it will need sign-in when turned on.
            Ok(()) | Err(ServersError::NotRunning(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Deletes the grant of a server that left the configuration, unless another server
    /// still reaches the same URL (grants are kept per URL).
    pub(super) async fn forget_grant(&self, removed: &switchboard_core::config::ServerConfig) {
        let Some(url) = &removed.url else { return };
        if self
            .host
            .config()
            .servers
            .values()
            .any(|s| s.url.as_ref() == Some(url))
        {
            return;
        }
        for name in [grant_secret_name(url), legacy_grant_secret_name(url)] {
            if let Err(e) = self.secrets.delete(&name).await {
                tracing::warn!("the sign-in of a removed server stays in the keyring: {e}");
            }
        }
    }

    /// Who the person is signed in as at `server`; `None` if not signed in (or not HTTP).
    pub async fn signed_in(&self, server: &str) -> Result<Option<SignedIn>, ServersError> {
        let Ok(url) = self.sign_in_url(server) else {
            return Ok(None);
        };
        let grants = KeyringGrants::read(&url, &self.secrets).await?;
        Ok(grants.grant().map(signed_in_with))
    }

    async fn record_sign_in(&self, server: &str, asked: Option<&SignIn>, decision: &str) {
        let detail = json!({
            "issuer": asked.map(|a| &a.issuer),
            "resource": asked.map(|a| &a.resource),
            "scopes": asked.map(|a| &a.scopes),
        });
        let issuer = asked.map(|a| a.issuer.clone()).unwrap_or_default();
        self.audit_sign_in(server, issuer, detail, decision).await;
    }

    async fn audit_sign_in(
        &self,
        server: &str,
        subject: String,
        detail: serde_json::Value,
        decision: &str,
    ) {
        let record = Record {
            kind: Kind::SignIn,
            server: server.to_owned(),
            subject,
            detail,
            decision: decision.to_owned(),
            decided_by: DecidedBy::Person,
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        self.host.record(record).await;
    }
}

/// Waits for the restarted server's run to settle: running, or why not.
async fn started(
    events: &mut tokio::sync::broadcast::Receiver<ServerEvent>,
    server: &str,
) -> Result<(), Reason> {
    // The run before the restart may still report its end.
    let mut restarted = false;
    loop {
        let state = match events.recv().await {
            Ok(ServerEvent::Status { server: s, state }) if s == server => state,
            Ok(_) | Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return Err(Reason::HostStopped),
        };
        match state {
            ServerState::Starting => restarted = true,
            _ if !restarted => {}
            ServerState::Running { .. } => return Ok(()),
            ServerState::AuthRequired { detail, .. } => return Err(detail),
            ServerState::Failed { reason, .. } | ServerState::Restarting { reason, .. } => {
                return Err(reason);
            }
            ServerState::Stopped => return Err(Reason::ServerStopped),
        }
    }
}

/// What the window shows of a grant.
fn signed_in_with(grant: Grant) -> SignedIn {
    SignedIn {
        issuer: grant.issuer,
        scopes: grant.tokens.scopes,
        expires_ms: grant.tokens.expires_at.map(|s| s.saturating_mul(1000)),
    }
}
