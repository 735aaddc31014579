//! The typed client: the era chosen per server (the `initialize` handshake or the stateless
//! 2026-07-28 revision, see [`era`]), every client-to-server request, and the dispatch of
//! the server's requests to a [`ClientHandler`], whether they come as requests (stateful
//! era) or inside `input_required` results (see [`input_required`]).

pub mod era;
pub mod input_required;
mod list_cache;
mod listen;
mod opening;
mod served_tasks;
pub mod skills;
mod stamp;
mod tasks;
pub mod tool_schemas;

pub use era::{Era, EraChoice, EraReason, EraSetting, Probed};
pub use stamp::{declaring, logging_at};

use std::collections::HashSet;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use listen::Unacknowledged;

use crate::connection::{
    Connection, IncomingHandler, RequestError, RequestOptions, WeakConnection,
};
use crate::jsonrpc::{ErrorObject, code};
use crate::schema::{SchemaError, SchemaViolation, describe};
use crate::transport::{BoxFuture, CloseReason, TransportError, TransportParts};
use crate::types::*;
use crate::version::ProtocolVersion;
use tool_schemas::{SchemaRole, ToolSchemaCache};

/// Answers what a server asks of the client. Every method has a safe default that
/// exposes nothing and agrees to nothing: a host overrides them to ask a person.
pub trait ClientHandler: Send + Sync + 'static {
    /// `roots/list`: the folders this server may see. By default, none.
    fn list_roots(&self) -> impl Future<Output = Result<ListRootsResult, ErrorObject>> + Send {
        async { Ok(ListRootsResult::default()) }
    }

    /// `sampling/createMessage`: by default declined.
    fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> impl Future<Output = Result<CreateMessageResult, ErrorObject>> + Send {
        let _ = params;
        async {
            Err(ErrorObject::new(
                code::USER_REJECTED,
                "sampling was declined",
            ))
        }
    }

    /// `elicitation/create`, form or URL mode: by default declined.
    fn elicit(
        &self,
        params: ElicitRequestParams,
    ) -> impl Future<Output = Result<ElicitResult, ErrorObject>> + Send {
        let _ = params;
        async { Ok(ElicitResult::declined()) }
    }

    /// Every notification from the server other than progress and cancellation.
    fn notification(&self, notification: ServerNotification) {
        let _ = notification;
    }
}

/// A handler that declines everything and ignores notifications.
pub struct DecliningHandler;

impl ClientHandler for DecliningHandler {}

/// A notification from the server, typed where the protocol defines it.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerNotification {
    ToolListChanged,
    ResourceListChanged,
    PromptListChanged,
    ResourceUpdated(ResourceUpdatedNotificationParams),
    Log(LoggingMessageNotificationParams),
    ElicitationComplete(ElicitationCompleteNotificationParams),
    /// The server ended the session and a new one was opened: what it offers may have
    /// changed ([`Client::server`] holds the new description).
    SessionRenewed,
    /// A method this client does not know, or known params that did not parse.
    Other {
        method: String,
        params: Option<Value>,
    },
}

impl ServerNotification {
    fn parse(method: String, params: Option<Value>) -> Self {
        fn typed<T: DeserializeOwned>(params: &Option<Value>) -> Option<T> {
            serde_json::from_value(params.clone().unwrap_or(Value::Null)).ok()
        }
        let parsed = match method.as_str() {
            method::TOOLS_LIST_CHANGED => Some(Self::ToolListChanged),
            method::RESOURCES_LIST_CHANGED => Some(Self::ResourceListChanged),
            method::PROMPTS_LIST_CHANGED => Some(Self::PromptListChanged),
            method::RESOURCES_UPDATED => typed(&params).map(Self::ResourceUpdated),
            method::LOGGING_MESSAGE => typed(&params).map(Self::Log),
            method::ELICITATION_COMPLETE => typed(&params).map(Self::ElicitationComplete),
            _ => None,
        };
        parsed.unwrap_or(Self::Other { method, params })
    }
}

/// Who the client is and what it offers.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub client_info: Implementation,
    /// Declared in `initialize`; a server request outside them is answered with -32601.
    /// Sampling with tools is off unless declared ([`ClientCapabilities::with_sampling_tools`]).
    pub capabilities: ClientCapabilities,
    /// The default timeout of every request.
    pub request_timeout: Duration,
    /// The longest any request may take, whatever progress the server reports.
    pub max_request_time: Duration,
    /// How often to ping the server to learn it is still there; the connection ends when
    /// a ping gets no answer. `None` for a server whose liveness shows otherwise (a child
    /// process that would exit).
    pub ping_interval: Option<Duration>,
    /// Sees a copy of every message of the session, when someone wants to show them.
    pub traffic: Option<crate::traffic::TrafficObserver>,
    /// Which era to speak: found out by a `server/discover` probe, or forced.
    pub era: EraSetting,
    /// How long the probe waits on a stream transport (stdio), where a server of the
    /// stateful era may leave an unknown method unanswered, once the server answered a
    /// `ping` sent after it (see `era`). Over HTTP every request gets an answer, and the
    /// probe waits as long as any request.
    pub probe_timeout: Duration,
}

impl ClientConfig {
    /// Refuses settings that cannot work, before anything reaches the server.
    fn check(&self) -> Result<(), ClientError> {
        if self.ping_interval.is_some_and(|every| every.is_zero()) {
            return Err(ClientError::InvalidConfig(
                "the ping interval must be more than zero (none for no pings)",
            ));
        }
        Ok(())
    }

    pub fn new(name: &str, version: &str) -> Self {
        Self {
            client_info: Implementation::new(name, version),
            capabilities: ClientCapabilities::default(),
            request_timeout: Duration::from_secs(60),
            max_request_time: crate::connection::DEFAULT_MAX_TOTAL,
            ping_interval: None,
            traffic: None,
            era: EraSetting::Auto,
            probe_timeout: Duration::from_secs(3),
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClientError {
    #[error(transparent)]
    Request(#[from] RequestError),
    #[error("the client configuration is not valid: {0}")]
    InvalidConfig(&'static str),
    #[error(
        "the server answered with protocol revision {answered:?}, which this client does not speak (offered {offered})"
    )]
    UnsupportedVersion {
        offered: ProtocolVersion,
        answered: String,
    },
    #[error("the server does not offer {0}")]
    NotOffered(&'static str),
    #[error("the server speaks no protocol revision this client speaks (it speaks {supported})")]
    NoSharedRevision { supported: String },
    #[error("the server does not speak the 2026-07-28 revision: {reason}")]
    NotStateless { reason: String },
    #[error("the request could not be encoded: {0}")]
    InvalidParams(String),
    #[error("the server asked for input this client cannot read (request {key:?}: {detail})")]
    InvalidInputRequest { key: String, detail: String },
    #[error("the server asked for {method}, which was refused: {}", error.message)]
    InputRefused { method: String, error: ErrorObject },
    #[error("{method} asked for input {rounds} times; stopped there")]
    TooManyInputRounds { method: &'static str, rounds: usize },
    #[error("the server refused {method}: its HTTP headers did not match the request ({})", error.message)]
    HeaderMismatch {
        method: &'static str,
        error: ErrorObject,
    },
    #[error("the server refused {method}: it needs a client capability this client did not declare ({})", required.as_ref().map(|r| r.to_string()).unwrap_or_else(|| error.message.clone()))]
    MissingClientCapability {
        method: &'static str,
        error: ErrorObject,
        required: Option<Box<Value>>,
    },
    #[error(
        "the server refused {method}: it does not speak protocol revision {requested} (it speaks {supported})"
    )]
    UnsupportedProtocolVersion {
        method: &'static str,
        requested: String,
        supported: String,
    },
    #[error("the server's answer to {method} is not valid: {detail}")]
    InvalidResult {
        method: &'static str,
        detail: String,
    },
    #[error("{method} returned the same page cursor twice; stopped after {pages} pages")]
    CursorLoop { method: &'static str, pages: usize },
    #[error("{method} went on for more than {pages} pages; stopped there")]
    TooManyPages { method: &'static str, pages: usize },
    #[error("the arguments for {tool} do not fit its input schema: {}", describe(.errors))]
    InvalidArguments {
        tool: String,
        errors: Vec<SchemaViolation>,
    },
    #[error("the structured content of {tool} does not fit its output schema: {}", describe(.errors))]
    InvalidStructuredContent {
        tool: String,
        errors: Vec<SchemaViolation>,
        /// The result as the server sent it.
        result: Box<CallToolResult>,
    },
    #[error("{tool} declares an output schema, but its result has no structured content")]
    MissingStructuredContent {
        tool: String,
        result: Box<CallToolResult>,
    },
    #[error("the {role} of {tool} cannot be used: {error}")]
    UnusableSchema {
        tool: String,
        role: SchemaRole,
        error: SchemaError,
    },
}

impl ClientError {
    /// When `initialize` was refused as invalid (-32602) with the revisions the server
    /// supports in `data.supported`: the newest of them this client speaks, if older
    /// than what was offered.
    fn newest_shared_revision(&self, offered: ProtocolVersion) -> Option<ProtocolVersion> {
        let Self::Request(RequestError::Server { error, .. }) = self else {
            return None;
        };
        if error.code != code::INVALID_PARAMS {
            return None;
        }
        error
            .data
            .as_ref()?
            .get("supported")?
            .as_array()?
            .iter()
            .filter_map(|v| v.as_str()?.parse::<ProtocolVersion>().ok())
            .filter(|v| v.is_stateful() && *v < offered)
            .max()
    }

    /// The URL elicitations a server requires before it can proceed (error -32042), if
    /// that is why it refused the request.
    pub fn url_elicitation_required(&self) -> Option<UrlElicitationRequiredData> {
        match self {
            Self::Request(RequestError::Server { error, .. })
                if error.code == code::URL_ELICITATION_REQUIRED =>
            {
                serde_json::from_value(*error.data.clone()?).ok()
            }
            _ => None,
        }
    }
}

/// What the server said in its latest handshake; replaced when a new session opens.
#[derive(Clone)]
struct Described(Arc<std::sync::RwLock<Arc<InitializeResult>>>);

impl Described {
    fn new(result: InitializeResult) -> Self {
        Self(Arc::new(std::sync::RwLock::new(Arc::new(result))))
    }

    fn get(&self) -> Arc<InitializeResult> {
        self.0.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set(&self, result: InitializeResult) {
        *self.0.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(result);
    }
}

/// The server's capabilities, as of its latest handshake.
pub struct Capabilities(Arc<InitializeResult>);

impl std::ops::Deref for Capabilities {
    type Target = ServerCapabilities;
    fn deref(&self) -> &ServerCapabilities {
        &self.0.capabilities
    }
}

/// A session with one server: opened by the `initialize` handshake (stateful era), or
/// by a `server/discover` answer (2026-07-28, where every request stands alone).
#[derive(Clone)]
pub struct Client {
    connection: Connection,
    server: Described,
    version: ProtocolVersion,
    era: Arc<EraChoice>,
    /// The per-request `_meta` of the stateless era; `None` in the stateful era.
    stamp: Option<Arc<stamp::Stamp>>,
    /// Answers the input requests of `input_required` results, as it answers the
    /// stateful era's server requests.
    dispatch: Arc<dyn IncomingHandler>,
    /// The `subscriptions/listen` stream of the stateless era.
    listener: Option<Arc<listen::Listener>>,
    /// List pages the server said stay fresh for a while.
    lists: Arc<list_cache::ListCache>,
    /// The tasks' states the server tells of (`notifications/tasks/status`), for the calls
    /// that follow them.
    task_status: tokio::sync::broadcast::Sender<Task>,
    request_timeout: Duration,
    max_request_time: Duration,
    pub(crate) tool_schemas: Arc<ToolSchemaCache>,
}

impl Client {
    /// Starts the connection on the transport and opens the session in the era the
    /// configuration asks for: with `Auto`, a `server/discover` probe decides.
    pub async fn connect<H: ClientHandler>(
        transport: TransportParts,
        handler: Arc<H>,
        config: ClientConfig,
    ) -> Result<Self, ClientError> {
        config.check()?;
        let described = Arc::new(std::sync::OnceLock::new());
        let (listen_status, _) = tokio::sync::watch::channel(listen::Status::default());
        let lists = Arc::new(list_cache::ListCache::default());
        let (task_status, _) = tokio::sync::broadcast::channel(64);
        let dispatch: Arc<dyn IncomingHandler> = Arc::new(Dispatch {
            lists: lists.clone(),
            task_status: task_status.clone(),
            served: Arc::default(),
            handler,
            capabilities: config.capabilities.clone(),
            described: described.clone(),
            listen_status: listen_status.clone(),
        });
        let probe_wait = match transport.carrier {
            crate::transport::Carrier::Stream => era::Wait::AfterPing {
                grace: config.probe_timeout,
                bound: config.request_timeout.min(era::SILENT_SERVER),
            },
            crate::transport::Carrier::Http => era::Wait::Answer(config.request_timeout),
        };
        let connection =
            Connection::start_observed(transport, dispatch.clone(), config.traffic.clone());
        let opened = opening::open(&connection, &config, probe_wait).await;
        let (server, version, choice, stamp) = match opened {
            Ok(opened) => opened,
            Err(err) => {
                connection.close().await;
                return Err(err);
            }
        };
        let listener = stamp.as_ref().map(|stamp| {
            Arc::new(listen::Listener::start(
                connection.downgrade(),
                stamp.clone(),
                listen::initial_filter(&server.capabilities),
                listen_status,
            ))
        });
        let server = Described::new(server);
        let _ = described.set(server.clone());
        if let Some(every) = config.ping_interval {
            let liveness = match &stamp {
                Some(stamp) => (method::SERVER_DISCOVER, Some(stamp.stamp(&Map::new())?)),
                None => (method::PING, None),
            };
            tokio::spawn(keep_alive(
                connection.downgrade(),
                every,
                config.request_timeout,
                liveness,
            ));
        }
        Ok(Self {
            connection,
            server,
            version,
            era: Arc::new(choice),
            stamp,
            dispatch,
            listener,
            lists,
            task_status,
            request_timeout: config.request_timeout,
            max_request_time: config.max_request_time,
            tool_schemas: Arc::default(),
        })
    }

    /// What the server said about itself in the handshake or its discovery (the latest
    /// handshake, if the server ended a session and a new one was opened).
    pub fn server(&self) -> Arc<InitializeResult> {
        self.server.get()
    }

    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// In the stateless era, what the server agreed to send on the `subscriptions/listen`
    /// stream (list changes, resource updates); `None` while no stream is acknowledged,
    /// and always in the stateful era.
    pub fn listening(&self) -> Option<SubscriptionFilter> {
        self.listener.as_ref()?.acknowledged()
    }

    /// Waits up to `patience` until the `subscriptions/listen` stream is acknowledged.
    pub async fn wait_listening(&self, patience: Duration) -> Option<SubscriptionFilter> {
        self.listener.as_ref()?.wait_acknowledged(patience).await
    }

    /// The era and revision chosen for this server, and why.
    pub fn era(&self) -> &EraChoice {
        &self.era
    }

    pub fn capabilities(&self) -> Capabilities {
        Capabilities(self.server.get())
    }

    /// Options with this client's default timeout and bound, to adjust per call.
    pub fn request_options(&self) -> RequestOptions {
        RequestOptions {
            timeout: self.request_timeout,
            max_total: Some(self.max_request_time),
            ..RequestOptions::default()
        }
    }

    /// The underlying connection, for requests this API does not wrap. In the stateless era,
    /// [`Client::request`] adds the `_meta` each request must carry.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    pub async fn close(&self) -> Arc<CloseReason> {
        self.connection.close().await
    }

    /// Sends a request in this session's era: in the stateless era with its `_meta`, and
    /// through as many rounds of input as the server asks for (up to
    /// [`input_required::MAX_INPUT_ROUNDS`]).
    pub async fn request(
        &self,
        method: &'static str,
        params: Map<String, Value>,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let mut params = params;
        let mut rounds = 0;
        loop {
            let result = match &self.stamp {
                Some(stamp) => {
                    let stamped = stamp.stamp(&params)?;
                    self.connection
                        .request(method, Some(stamped), options.clone())
                        .await
                }
                None => {
                    self.connection
                        .request_with(method, &params, options.clone())
                        .await
                }
            }
            .map_err(|e| ClientError::from_request(method, e))?;
            if !input_required::may_ask(method) {
                return Ok(result);
            }
            // A server of the tasks extension may answer a call with the task it became.
            if method == method::TOOLS_CALL
                && result.get("resultType").and_then(Value::as_str) == Some(RESULT_TYPE_TASK)
            {
                let task =
                    serde_json::from_value(result).map_err(|e| ClientError::InvalidResult {
                        method,
                        detail: e.to_string(),
                    })?;
                // Boxed: following it sends requests of its own through here.
                return Box::pin(self.follow_extension(task, options)).await;
            }
            let Some(interim) = input_required::input_required(&result) else {
                return Ok(result);
            };
            let interim =
                interim.map_err(|detail| ClientError::InvalidResult { method, detail })?;
            rounds += 1;
            if rounds > input_required::MAX_INPUT_ROUNDS {
                return Err(ClientError::TooManyInputRounds {
                    method,
                    rounds: input_required::MAX_INPUT_ROUNDS,
                });
            }
            let answers = input_required::answer(&*self.dispatch, &interim.input_requests).await?;
            params = input_required::retry_params(params, answers, interim.request_state);
        }
    }

    async fn typed<P: Serialize + ?Sized, R: DeserializeOwned>(
        &self,
        method: &'static str,
        params: &P,
        options: RequestOptions,
    ) -> Result<R, ClientError> {
        let params = match serde_json::to_value(params) {
            Ok(Value::Object(map)) => map,
            Ok(_) => Map::new(),
            Err(e) => return Err(ClientError::InvalidParams(e.to_string())),
        };
        let result = self.request(method, params, options).await?;
        serde_json::from_value(result).map_err(|e| ClientError::InvalidResult {
            method,
            detail: e.to_string(),
        })
    }

    async fn call<P: Serialize + Sync, R: DeserializeOwned>(
        &self,
        method: &'static str,
        params: &P,
    ) -> Result<R, ClientError> {
        self.typed(method, params, self.request_options()).await
    }

    fn is_stateless(&self) -> bool {
        self.stamp.is_some()
    }

    fn require(&self, offered: bool, what: &'static str) -> Result<(), ClientError> {
        offered.then_some(()).ok_or(ClientError::NotOffered(what))
    }

    /// `ping`; in the stateless era, which has none, a `server/discover`.
    pub async fn ping(&self) -> Result<(), ClientError> {
        let method = if self.is_stateless() {
            method::SERVER_DISCOVER
        } else {
            method::PING
        };
        let _: Value = self.call(method, &Map::new()).await?;
        Ok(())
    }

    pub async fn list_tools(&self) -> Result<Listing<Tool>, ClientError> {
        self.require(self.capabilities().tools.is_some(), "tools")?;
        self.list_all::<ListToolsResult>(method::TOOLS_LIST).await
    }

    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        self.require(self.capabilities().tools.is_some(), "tools")?;
        let params = CallToolRequestParams::new(name, arguments);
        match self
            .typed(method::TOOLS_CALL, &params, options.clone())
            .await
        {
            // The tool's `x-mcp-header` marks may have changed: read the tools again (the
            // HTTP transport takes the marks from the list) and try once more.
            Err(ClientError::HeaderMismatch { .. }) if self.is_stateless() => {
                self.lists.forget(&[method::TOOLS_LIST]);
                self.list_tools().await?;
                self.typed(method::TOOLS_CALL, &params, options).await
            }
            outcome => outcome,
        }
    }

    pub async fn list_resources(&self) -> Result<Listing<Resource>, ClientError> {
        self.require(self.capabilities().resources.is_some(), "resources")?;
        self.list_all::<ListResourcesResult>(method::RESOURCES_LIST)
            .await
    }

    pub async fn list_resource_templates(&self) -> Result<Listing<ResourceTemplate>, ClientError> {
        self.require(self.capabilities().resources.is_some(), "resources")?;
        self.list_all::<ListResourceTemplatesResult>(method::RESOURCES_TEMPLATES_LIST)
            .await
    }

    pub async fn read_resource(
        &self,
        uri: &str,
        options: RequestOptions,
    ) -> Result<ReadResourceResult, ClientError> {
        self.require(self.capabilities().resources.is_some(), "resources")?;
        let params = serde_json::json!({ "uri": uri });
        self.typed(method::RESOURCES_READ, &params, options).await
    }

    /// Asks for `notifications/resources/updated` of a resource: `resources/subscribe`
    /// in the stateful era; in the stateless era, the URI joins the `subscriptions/listen`
    /// filter, and this returns once the server acknowledged it.
    pub async fn subscribe(&self, uri: &str) -> Result<(), ClientError> {
        let offered = self
            .capabilities()
            .resources
            .as_ref()
            .is_some_and(|r| r.subscribe == Some(true));
        self.require(offered, "resource subscriptions")?;
        if let Some(listener) = &self.listener {
            let acknowledged = listener
                .resource(uri, true, self.request_timeout)
                .await
                .map_err(|why| match why {
                    Unacknowledged::Refused => {
                        ClientError::NotOffered("subscriptions/listen, for resource updates")
                    }
                    Unacknowledged::NotInTime => ClientError::Request(RequestError::Timeout {
                        method: method::SUBSCRIPTIONS_LISTEN.into(),
                        after: self.request_timeout,
                    }),
                })?;
            let honoured = acknowledged
                .resource_subscriptions
                .is_some_and(|uris| uris.iter().any(|u| u == uri));
            return self.require(honoured, "updates of this resource");
        }
        let _: Value = self
            .call(
                method::RESOURCES_SUBSCRIBE,
                &serde_json::json!({ "uri": uri }),
            )
            .await?;
        Ok(())
    }

    pub async fn unsubscribe(&self, uri: &str) -> Result<(), ClientError> {
        if let Some(listener) = &self.listener {
            // Once the URI left the filter, its updates stop whatever the server acknowledges.
            let _ = listener.resource(uri, false, self.request_timeout).await;
            return Ok(());
        }
        let _: Value = self
            .call(
                method::RESOURCES_UNSUBSCRIBE,
                &serde_json::json!({ "uri": uri }),
            )
            .await?;
        Ok(())
    }

    pub async fn list_prompts(&self) -> Result<Listing<Prompt>, ClientError> {
        self.require(self.capabilities().prompts.is_some(), "prompts")?;
        self.list_all::<ListPromptsResult>(method::PROMPTS_LIST)
            .await
    }

    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<GetPromptResult, ClientError> {
        self.require(self.capabilities().prompts.is_some(), "prompts")?;
        let params = serde_json::json!({ "name": name, "arguments": arguments });
        self.call(method::PROMPTS_GET, &params).await
    }

    /// `completion/complete` for a prompt argument or a resource template variable.
    pub async fn complete(
        &self,
        params: &CompleteRequestParams,
    ) -> Result<CompleteResult, ClientError> {
        // 2024-11-05 has `completion/complete` but no capability that declares it.
        let offered = self.capabilities().completions.is_some()
            || self.version == ProtocolVersion::V2024_11_05;
        self.require(offered, "completions")?;
        self.call(method::COMPLETION_COMPLETE, params).await
    }

    /// `logging/setLevel`; in the stateless era, which has none, the level goes with every
    /// request from then on.
    pub async fn set_logging_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        self.require(self.capabilities().logging.is_some(), "logging")?;
        if let Some(stamp) = &self.stamp {
            stamp.set_level(level);
            return Ok(());
        }
        let _: Value = self
            .call(
                method::LOGGING_SET_LEVEL,
                &serde_json::json!({ "level": level }),
            )
            .await?;
        Ok(())
    }

    /// Tells the server that the roots it may see have changed.
    /// In the stateless era, which has no such notification, nothing: the roots are asked
    /// for with each request that needs them.
    pub async fn notify_roots_changed(&self) -> Result<(), ClientError> {
        if self.is_stateless() {
            return Ok(());
        }
        Ok(self
            .connection
            .notify(method::ROOTS_LIST_CHANGED, None)
            .await?)
    }

    /// Walks every page of a list, treating cursors as opaque. Items that cannot be read
    /// are left out and listed in `skipped`. Starts again from the first page if the server
    /// opens a new session meanwhile (its cursors end with the old one).
    async fn list_all<P: Page>(
        &self,
        method: &'static str,
    ) -> Result<Listing<P::Item>, ClientError> {
        let mut restarts = 0;
        loop {
            match self.walk::<P>(method).await {
                Err(ClientError::Request(RequestError::Transport {
                    error: TransportError::SessionRenewed,
                    ..
                })) if restarts < MAX_WALK_RESTARTS => restarts += 1,
                // A cursor of a kept page the server no longer takes: the whole list is
                // read again, as the revision says.
                Err(ClientError::Request(RequestError::Server { .. }))
                    if restarts < MAX_WALK_RESTARTS && self.lists.get(method, None).is_some() =>
                {
                    self.lists.forget(&[method]);
                    restarts += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// One page of a list: from the cache while the server says it is fresh.
    async fn page<P: DeserializeOwned>(
        &self,
        method: &'static str,
        cursor: Option<&str>,
    ) -> Result<P, ClientError> {
        let result = match self.lists.get(method, cursor) {
            Some(result) => result,
            None => {
                let mut params = Map::new();
                if let Some(cursor) = cursor {
                    params.insert("cursor".into(), cursor.into());
                }
                let result = self.request(method, params, self.request_options()).await?;
                self.lists
                    .put(method, cursor, &result, tokio::time::Instant::now());
                result
            }
        };
        serde_json::from_value(result).map_err(|e| ClientError::InvalidResult {
            method,
            detail: e.to_string(),
        })
    }

    async fn walk<P: Page>(&self, method: &'static str) -> Result<Listing<P::Item>, ClientError> {
        let mut listing = Listing::default();
        let mut seen = HashSet::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page: P = self
                .page(method, cursor.as_ref().map(|c| c.0.as_str()))
                .await?;
            if seen.len() >= MAX_PAGES {
                return Err(ClientError::TooManyPages {
                    method,
                    pages: MAX_PAGES,
                });
            }
            match listing.add(page) {
                Some(next) if !seen.insert(next.clone()) => {
                    return Err(ClientError::CursorLoop {
                        method,
                        pages: seen.len() + 1,
                    });
                }
                Some(next) => cursor = Some(next),
                None => return Ok(listing),
            }
        }
    }
}

/// A list of more pages is refused: real servers have far fewer, and a server that hands
/// out fresh cursors forever must not hold the walk (and the memory of its items) forever.
const MAX_PAGES: usize = 1000;

/// How many times a list walk starts again because the session was renewed under it.
const MAX_WALK_RESTARTS: usize = 3;

/// Pings the server at an interval while the connection lives; a ping that gets no answer
/// ends the connection, so that whoever supervises it sees the server gone.
async fn keep_alive(
    connection: WeakConnection,
    every: Duration,
    patience: Duration,
    (method, params): (&'static str, Option<Value>),
) {
    let mut ticks = tokio::time::interval(every);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let Some(connection) = connection.upgrade() else {
            return;
        };
        let options = RequestOptions {
            timeout: patience,
            ..RequestOptions::default()
        };
        match connection.request(method, params.clone(), options).await {
            // Even an error is an answer: the server is there.
            Ok(_) | Err(RequestError::Server { .. }) => {}
            Err(RequestError::Closed(_)) => return,
            Err(error) => {
                connection
                    .fail(format!("the server stopped answering: {error}"))
                    .await;
                return;
            }
        }
    }
}

async fn request<P: Serialize + Sync, R: DeserializeOwned>(
    connection: &Connection,
    method: &'static str,
    params: &P,
    options: RequestOptions,
) -> Result<R, ClientError> {
    let result = connection.request_with(method, params, options).await?;
    serde_json::from_value(result).map_err(|e| ClientError::InvalidResult {
        method,
        detail: e.to_string(),
    })
}

impl ClientError {
    /// A request's failure, with the 2026-07-28 revision's errors told apart.
    fn from_request(method: &'static str, error: RequestError) -> Self {
        let RequestError::Server { error, .. } = &error else {
            return error.into();
        };
        let data = error.data.as_deref();
        match error.code {
            code::HEADER_MISMATCH => Self::HeaderMismatch {
                method,
                error: error.clone(),
            },
            code::MISSING_REQUIRED_CLIENT_CAPABILITY => Self::MissingClientCapability {
                method,
                error: error.clone(),
                required: data
                    .and_then(|d| d.get("requiredCapabilities"))
                    .cloned()
                    .map(Box::new),
            },
            code::UNSUPPORTED_PROTOCOL_VERSION => Self::UnsupportedProtocolVersion {
                method,
                requested: data
                    .and_then(|d| d.get("requested"))
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned(),
                supported: era::supported_versions(data).join(", "),
            },
            _ => Self::Request(RequestError::Server {
                method: method.to_owned(),
                error: error.clone(),
            }),
        }
    }
}

/// Routes the server's requests to the typed handler, refusing what the client did not
/// declare.
struct Dispatch<H> {
    handler: Arc<H>,
    capabilities: ClientCapabilities,
    /// Set once the handshake is done.
    described: Arc<std::sync::OnceLock<Described>>,
    /// Where a `subscriptions/listen` acknowledgement is noted.
    listen_status: tokio::sync::watch::Sender<listen::Status>,
    /// Dropped page by page when the server says a list changed.
    lists: Arc<list_cache::ListCache>,
    /// Where a task's state the server tells of is passed on.
    task_status: tokio::sync::broadcast::Sender<Task>,
    /// The server's requests this client runs as tasks.
    served: Arc<served_tasks::ServedTasks>,
}

fn parse<T: DeserializeOwned>(params: Option<Value>) -> Result<T, ErrorObject> {
    serde_json::from_value(params.unwrap_or(Value::Null)).map_err(ErrorObject::invalid_params)
}

fn encode<T: Serialize>(result: Result<T, ErrorObject>) -> Result<Value, ErrorObject> {
    result.and_then(|r| {
        serde_json::to_value(r).map_err(|e| {
            ErrorObject::new(code::INTERNAL_ERROR, format!("encoding the result: {e}"))
        })
    })
}

impl<H: ClientHandler> Dispatch<H> {
    /// Whether this client declared that it runs `method`, asked by its server, as a task.
    fn runs_as_task(&self, method: &str) -> bool {
        let requests = self
            .capabilities
            .tasks
            .as_ref()
            .and_then(|t| t.get("requests"));
        let declared = |kind: &str, name: &str| {
            requests
                .and_then(|r| r.get(kind))
                .and_then(|k| k.get(name))
                .is_some()
        };
        match method {
            method::SAMPLING_CREATE_MESSAGE => declared("sampling", "createMessage"),
            method::ELICITATION_CREATE => declared("elicitation", "create"),
            _ => false,
        }
    }

    /// The answer to the server's request `method`, as this client's handler gives it.
    fn answer(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let handler = self.handler.clone();
        let caps = &self.capabilities;
        match method.as_str() {
            method::ROOTS_LIST if caps.roots.is_some() => {
                Box::pin(async move { encode(handler.list_roots().await) })
            }
            method::SAMPLING_CREATE_MESSAGE if caps.sampling.is_some() => {
                let caps = caps.clone();
                Box::pin(async move {
                    let params = parse::<CreateMessageRequestParams>(params)?;
                    params
                        .check_rules(&caps)
                        .map_err(ErrorObject::invalid_params)?;
                    encode(handler.create_message(params).await)
                })
            }
            method::ELICITATION_CREATE if caps.elicitation.is_some() => {
                let caps = caps.clone();
                Box::pin(async move {
                    let params = parse::<ElicitRequestParams>(params)?;
                    if !caps.allows_elicitation(&params) {
                        return Err(ErrorObject::invalid_params(
                            "this client did not declare that elicitation mode",
                        ));
                    }
                    encode(handler.elicit(params).await)
                })
            }
            _ => Box::pin(std::future::ready(Err(ErrorObject::method_not_found(
                &method,
            )))),
        }
    }
}

impl<H: ClientHandler> IncomingHandler for Dispatch<H> {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        // The server asks after a request of its own this client runs as a task.
        if self.capabilities.tasks.is_some()
            && matches!(
                method.as_str(),
                method::TASKS_GET
                    | method::TASKS_RESULT
                    | method::TASKS_LIST
                    | method::TASKS_CANCEL
            )
        {
            return self.served.answer(&method, params);
        }
        let as_task = self
            .runs_as_task(&method)
            .then(|| served_tasks::asked_as_task(params.as_ref()))
            .flatten();
        let work = self.answer(method, params);
        match as_task {
            Some(ttl) => {
                let served = self.served.clone();
                Box::pin(async move { Ok(served.start(work, ttl)) })
            }
            None => work,
        }
    }

    fn notification(&self, method: String, params: Option<Value>) {
        if method == method::SUBSCRIPTIONS_ACKNOWLEDGED {
            let (filter, names) = listen::acknowledged(params.as_ref());
            self.listen_status
                .send_modify(|s| s.acknowledge(filter, names));
            return;
        }
        if method == method::TASKS_STATUS
            && let Some(task) = params
                .as_ref()
                .and_then(|p| serde_json::from_value::<Task>(p.clone()).ok())
        {
            // No one following a task is no one to tell.
            let _ = self.task_status.send(task);
        }
        self.lists.changed(&method);
        self.handler
            .notification(ServerNotification::parse(method, params));
    }

    fn session_renewed(&self, result: Value) {
        match serde_json::from_value::<InitializeResult>(result) {
            Ok(result) => {
                if let Some(described) = self.described.get() {
                    described.set(result);
                }
            }
            Err(e) => tracing::warn!("the new session's description is not valid: {e}"),
        }
        self.lists.forget(&[
            method::TOOLS_LIST,
            method::PROMPTS_LIST,
            method::RESOURCES_LIST,
            method::RESOURCES_TEMPLATES_LIST,
        ]);
        self.handler
            .notification(ServerNotification::SessionRenewed);
    }
}
