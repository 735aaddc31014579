//! The session: what the client declared, the server's state, and the routing of the
//! client's requests and notifications to the modules that answer them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::connection::{Connection, IncomingHandler, RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::{ErrorObject, encode_result as encode, read_params as parse};
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::*;

use crate::{media, prompts, resources, tools};

pub const NAME: &str = "switchboard-demo";

const INSTRUCTIONS: &str = "This server demonstrates every feature of the Model Context Protocol: \
tools, resources, prompts, completion, logging, progress, cancellation, sampling, elicitation \
and roots. It touches nothing outside itself: notes live in memory only, and it reads no file \
and opens no connection.";

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

    /// Answers a request that needs no waiting. These are answered as they arrive, so
    /// that they take effect in the order the client sent them.
    fn answer(&self, method: &str, params: Option<Value>) -> Result<Value, ErrorObject> {
        match method {
            method::INITIALIZE => encode(self.initialize(parse(params)?)),
            method::LOGGING_SET_LEVEL => {
                let params: SetLevelRequestParams = parse(params)?;
                self.state().log_level = params.level;
                encode(EmptyResult::default())
            }
            method::TOOLS_LIST => encode(tools::list(self)),
            method::RESOURCES_LIST => encode(resources::list(self)),
            method::RESOURCES_TEMPLATES_LIST => encode(resources::templates()),
            method::RESOURCES_READ => {
                let params: ReadResourceRequestParams = parse(params)?;
                encode(resources::read(self, &params.uri)?)
            }
            method::RESOURCES_SUBSCRIBE => {
                let params: SubscribeRequestParams = parse(params)?;
                encode(resources::subscribe(self, params.uri)?)
            }
            method::RESOURCES_UNSUBSCRIBE => {
                let params: UnsubscribeRequestParams = parse(params)?;
                self.state().subscriptions.remove(&params.uri);
                encode(EmptyResult::default())
            }
            method::PROMPTS_LIST => encode(prompts::list()),
            method::PROMPTS_GET => encode(prompts::get(parse(params)?)?),
            method::COMPLETION_COMPLETE => encode(prompts::complete(&parse(params)?)?),
            other => Err(ErrorObject::method_not_found(other)),
        }
    }

    fn initialize(&self, params: InitializeRequestParams) -> InitializeResult {
        let version = negotiate(&params.protocol_version);
        eprintln!(
            "{NAME}: {} asked for revision {}, answering {version}",
            params.client_info.display_name(),
            params.protocol_version
        );
        self.state().session = Some(Session {
            version,
            capabilities: params.capabilities,
            client: params.client_info,
        });
        let mut server_info = Implementation::new(NAME, env!("CARGO_PKG_VERSION"));
        server_info.title = Some("Switchboard demo server".to_owned());
        server_info.description =
            Some("Shows every feature of an MCP host at work, offline.".to_owned());
        server_info.icons = Some(vec![Icon {
            src: format!(
                "data:{};base64,{}",
                media::PNG_MIME,
                media::base64(media::logo_png())
            ),
            mime_type: Some(media::PNG_MIME.to_owned()),
            sizes: Some(vec![format!("{0}x{0}", media::LOGO_SIZE)]),
            theme: None,
            extra: Map::new(),
        }]);
        InitializeResult {
            protocol_version: version.as_str().to_owned(),
            capabilities: ServerCapabilities {
                logging: Some(CapabilityObject::new()),
                completions: Some(CapabilityObject::new()),
                prompts: Some(PromptsCapability {
                    list_changed: Some(false),
                    extra: Map::new(),
                }),
                resources: Some(ResourcesCapability {
                    subscribe: Some(true),
                    list_changed: Some(true),
                    extra: Map::new(),
                }),
                tools: Some(ToolsCapability {
                    list_changed: Some(true),
                    extra: Map::new(),
                }),
                ..ServerCapabilities::default()
            },
            server_info,
            instructions: Some(INSTRUCTIONS.to_owned()),
            meta: None,
            extra: Map::new(),
        }
    }

    fn notified(self: Arc<Self>, method: &str) {
        match method {
            method::INITIALIZED => {
                let client = self.state().session.as_ref().map_or_else(
                    || "the client".to_owned(),
                    |s| s.client.display_name().to_owned(),
                );
                eprintln!("{NAME}: {client} is ready");
            }
            method::ROOTS_LIST_CHANGED => {
                // Notifications are answered synchronously: the log message goes from a task.
                tokio::spawn(async move {
                    let message = "The client's roots changed: call list_roots to see them.";
                    self.log(LoggingLevel::Info, message.into()).await;
                });
            }
            _ => {}
        }
    }
}

/// Why a request to the client got no usable result.
pub enum CallbackError {
    /// The client answered with an error: the user declined, or the client cannot.
    Refused(ErrorObject),
    /// No answer, or one that does not parse.
    Failed(String),
}

/// The client's revision if it is a stateful one this engine speaks, else the newest.
fn negotiate(requested: &str) -> ProtocolVersion {
    match requested.parse::<ProtocolVersion>() {
        Ok(version) if version.is_stateful() => version,
        _ => ProtocolVersion::LATEST_STATEFUL,
    }
}

/// The connection's view of the server.
pub struct Handler(pub Arc<Server>);

impl IncomingHandler for Handler {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let server = self.0.clone();
        if method == method::TOOLS_CALL {
            // Tools may take long and call the client back: they run as their own future,
            // which the connection drops if the client cancels the call.
            Box::pin(async move { encode(tools::call(&server, parse(params)?).await?) })
        } else {
            Box::pin(std::future::ready(server.answer(&method, params)))
        }
    }

    fn notification(&self, method: String, _params: Option<Value>) {
        self.0.clone().notified(&method);
    }
}
