//! The session: what the client declared, the server's state, and its requests and
//! notifications to the client (the routing of the client's is `handler`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::connection::{Connection, RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::types::*;

pub const NAME: &str = "switchboard-demo";

/// What the client said about itself in `initialize`.
pub struct Session {
    pub version: ProtocolVersion,
    pub capabilities: ClientCapabilities,
    pub client: Implementation,
}

pub struct State {
    pub session: Option<Session>,
    /// The least severe level the client wants to receive (`logging/setLevel`).
    pub log_level: LoggingLevel,
    /// Notes by title.
    pub notes: BTreeMap<String, String>,
    /// The resource URIs the client subscribed to.
    pub subscriptions: BTreeSet<String>,
    /// Whether `toggle_extra_tool` has added `extra_tool`.
    pub extra_tool: bool,
    /// Whether `connect_account` has sent the person to its page once.
    pub account_connected: bool,
}

pub struct Server {
    /// Set right after the connection starts: tools use it to call the client back.
    connection: OnceLock<Connection>,
    state: Mutex<State>,
    next_elicitation: AtomicU64,
}

impl Server {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            connection: OnceLock::new(),
            state: Mutex::new(State {
                session: None,
                log_level: LoggingLevel::Info,
                notes: BTreeMap::new(),
                subscriptions: BTreeSet::new(),
                extra_tool: false,
                account_connected: false,
            }),
            next_elicitation: AtomicU64::new(1),
        })
    }

    pub fn attach(&self, connection: Connection) {
        let _ = self.connection.set(connection);
    }

    /// The state; no lock is ever held across an `.await`.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn client_capabilities(&self) -> ClientCapabilities {
        self.state()
            .session
            .as_ref()
            .map(|s| s.capabilities.clone())
            .unwrap_or_default()
    }

    pub fn protocol_version(&self) -> ProtocolVersion {
        self.state()
            .session
            .as_ref()
            .map_or(ProtocolVersion::LATEST_STATEFUL, |s| s.version)
    }

    pub fn next_elicitation_id(&self) -> String {
        let n = self.next_elicitation.fetch_add(1, Ordering::Relaxed);
        format!("demo-consent-{n}")
    }

    /// Sends a notification (`()` for none without params); one that cannot be sent
    /// (the client is gone) is dropped.
    pub async fn notify(&self, method: &str, params: impl Serialize) {
        let Some(connection) = self.connection.get() else {
            return;
        };
        let params = serde_json::to_value(params).ok().filter(|p| !p.is_null());
        if let Err(err) = connection.notify(method, params).await {
            eprintln!("{NAME}: could not send {method}: {err}");
        }
    }

    /// Sends a request to the client and reads its result.
    pub async fn request<R: DeserializeOwned>(
        &self,
        method: &str,
        params: impl Serialize,
        timeout: Duration,
    ) -> Result<R, CallbackError> {
        let connection = self
            .connection
            .get()
            .ok_or_else(|| CallbackError::Failed("the connection is not ready".to_owned()))?;
        let params =
            serde_json::to_value(params).map_err(|e| CallbackError::Failed(e.to_string()))?;
        let options = RequestOptions {
            timeout,
            ..RequestOptions::default()
        };
        let result = connection
            .request(method, Some(params), options)
            .await
            .map_err(|err| match err {
                RequestError::Server { error, .. } => CallbackError::Refused(error),
                other => CallbackError::Failed(other.to_string()),
            })?;
        serde_json::from_value(result).map_err(|e| {
            CallbackError::Failed(format!("the client's answer to {method} is not valid: {e}"))
        })
    }

    /// Sends a log message if the client asked for this level or a more severe one.
    /// Returns whether it was sent.
    pub async fn log(&self, level: LoggingLevel, data: Value) -> bool {
        let threshold = self.state().log_level;
        if level < threshold {
            return false;
        }
        let params = LoggingMessageNotificationParams {
            level: Some(level),
            logger: Some(NAME.to_owned()),
            data,
            meta: None,
            extra: Map::new(),
        };
        self.notify(method::LOGGING_MESSAGE, params).await;
        true
    }
}

/// Why a request to the client got no usable result.
pub enum CallbackError {
    /// The client answered with an error: the user declined, or the client cannot.
    Refused(ErrorObject),
    /// No answer, or one that does not parse.
    Failed(String),
}
