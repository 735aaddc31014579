//! The explorer's service: the catalog of every running server, tool calls through the
//! gate with their progress and a way to cancel them (the calls under way, whoever makes
//! them), resources and who follows them, prompts and completion. It holds the parts of
//! the core it works with (the gate, the catalog, the roots) and reaches the rest of the
//! host through one port ([`ExplorerHost`]): the servers' configuration and sessions, and
//! the window's updates. The desk implements the port; a test can, in memory.

mod calls;
mod follows;
mod host;
mod origins;
mod skills;
mod tasks;
mod url_steps;

use std::sync::Arc;

use crate::keeps::{Keeping, Keeps};
use serde::Serialize;
use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::{Progress, RequestError};
use switchboard_mcp::types::CompleteRequestParams;
use switchboard_mcp::types::apps;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use switchboard_core::approvals::Serving;
use switchboard_core::catalog::{Catalog, Offer};
use switchboard_core::clock::now_ms;
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::Origin;
use switchboard_core::gate::{CallError, Callee, Gate};
use switchboard_core::reads::Read;
use switchboard_core::roots::Roots;
use switchboard_core::views::{self, Download, ViewChange, ViewPin};

use crate::tasks::Began;

pub use calls::Calls;
pub use follows::Follower;
pub use host::ExplorerHost;
pub use skills::{SkillFileShown, SkillLoaded, SkillSummary};

#[derive(Debug, thiserror::Error)]
pub enum ExplorerError {
    #[error("there is no server named {0:?}")]
    NoServer(String),
    #[error("{0} is not running")]
    NotRunning(String),
    #[error("{server} offers no tool named {tool:?}")]
    NoTool { server: String, tool: String },
    #[error("{tool} of {server} is turned off; turn it on in the server's settings to use it")]
    ToolDisabled { server: String, tool: String },
    /// The server needs the person to finish `steps` pages in a browser before the call; they
    /// were offered, and `opened` of them taken. The call was not made: try it again.
    #[error("{}", url_steps::browser_steps(server, *steps, *opened))]
    StepsInBrowser {
        server: String,
        steps: usize,
        opened: usize,
    },
    #[error(transparent)]
    Call(#[from] CallError),
    #[error(transparent)]
    Client(#[from] ClientError),
    /// What was asked does not read (a completion request that is not one).
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    View(#[from] views::ViewError),
    #[error("the view could not be served: {0}")]
    Serving(std::io::Error),
    #[error("{tool} of {server} is for models only: its server's views may not call it")]
    NotForViews { server: String, tool: String },
    #[error(transparent)]
    Tasks(#[from] crate::tasks::TaskBookError),
    #[error(transparent)]
    Skill(#[from] switchboard_mcp::client::skills::SkillError),
}

/// Who calls which tool of which server, and how.
struct Call<'a> {
    origin: &'a Origin,
    server: &'a str,
    tool: &'a str,
    /// Where the server's progress reports go too.
    report: Option<mpsc::Sender<Progress>>,
    /// Run as a task, if the tool may run as one.
    as_task: bool,
}

/// A view opened for the window: where to load it from, and what it may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct OpenedView {
    pub server: String,
    pub uri: String,
    /// Its address on its server's own origin (a port on 127.0.0.1); none while it waits
    /// for the person's word on what changed.
    pub url: Option<String>,
    /// The Content Security Policy it is served with, to show the person.
    pub policy: String,
    /// The SHA-256 of its HTML.
    pub sha256: String,
    /// Whether it wants a border and background (`None`: the host decides).
    pub prefers_border: Option<bool>,
    /// What changed since it was last shown, when it did: it is not shown until the person
    /// agrees.
    pub changed: Option<ViewChange>,
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Explorer {
    calls: Arc<Calls>,
    followed: Arc<follows::Followed>,
    gate: Gate,
    catalog: Catalog,
    roots: Roots,
    host: Arc<dyn ExplorerHost>,
    origins: Arc<origins::Origins>,
    /// The tasks a call of this run follows now, by server and task id: not resumed.
    following: Arc<parking_lot::Mutex<std::collections::HashSet<(String, String)>>>,
    _keeps: Keeps,
}

impl Keeping for Explorer {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl Explorer {
    /// The service over the gate, the catalog and the roots it works with; `calls` are the
    /// calls under way, which the approvals broker reads too (a server's question comes
    /// forward while one of its calls is served).
    pub fn new(
        calls: Arc<Calls>,
        gate: Gate,
        catalog: Catalog,
        roots: Roots,
        host: Arc<dyn ExplorerHost>,
    ) -> Self {
        Self {
            calls,
            followed: Arc::default(),
            gate,
            catalog,
            roots,
            host,
            origins: Arc::default(),
            following: Arc::default(),
            _keeps: Keeps::default(),
        }
    }

    fn client(&self, server: &str) -> Result<Client, ExplorerError> {
        self.host
            .client(server)
            .ok_or_else(|| ExplorerError::NotRunning(server.to_owned()))
    }

    fn server(&self, name: &str) -> Result<ServerConfig, ExplorerError> {
        self.host
            .server(name)
            .ok_or_else(|| ExplorerError::NoServer(name.to_owned()))
    }
}

/// A call under way, as the activity view shows it: the person's own from the explorer, or
/// a model's in a conversation (from the moment it waits for a decision).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProgressItem {
    /// Chosen by the face that started the call; it cancels by this token.
    pub token: String,
    pub server: String,
    /// The tool's title or name, or the read as the host names it in English.
    pub label: String,
    /// The read, for a face to name in its language; none for a tool call.
    pub read: Option<Read>,
    // A server's JSON number: never NaN, so never null.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub progress: f64,
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub total: Option<f64>,
    pub message: Option<String>,
    pub started_ms: i64,
}

/// Every running server's offer, by server: a JSON object of the servers in this order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Offers(pub Vec<(String, Offer)>);

impl Offers {
    /// What `server` offers, if it runs.
    pub fn of(&self, server: &str) -> Option<&Offer> {
        self.0
            .iter()
            .find(|(name, _)| name == server)
            .map(|(_, offer)| offer)
    }
}

impl Serialize for Offers {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(server, offer)| (server, offer)))
    }
}

#[cfg(feature = "specta")]
impl specta::Type for Offers {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <std::collections::HashMap<String, Offer> as specta::Type>::definition(types)
    }
}

/// Takes a call off the running list however it ends.
struct Running<'a> {
    explorer: &'a Explorer,
    token: String,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.explorer.call_ended(&self.token);
    }
}

impl Explorer {
    /// Every running server's tools, resources, templates and prompts, by server.
    pub fn catalog(&self) -> Offers {
        let catalog = &self.catalog;
        let states = self.host.running();
        let off = self.host.tools_off();
        let offers = states
            .keys()
            .filter_map(|server| {
                let mut offer = catalog.offer(server)?;
                offer.tools.retain(|tool| !off.holds(server, &tool.name));
                Some((server.clone(), offer))
            })
            .collect();
        Offers(offers)
    }

    /// Calls a tool as the person does from the explorer: their decision already, it runs
    /// at once unless they denied it for good or it is one they asked to confirm (see
    /// `gate`). `token` names the call for its progress updates and for `cancel`. A tool
    /// that may run as a task at its server runs as one when `as_task`.
    pub async fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
        token: String,
        as_task: bool,
    ) -> Result<Value, ExplorerError> {
        let call = Call {
            origin: &Origin::Person,
            server,
            tool,
            report: None,
            as_task,
        };
        self.call(call, arguments, token).await
    }

    /// The tool `tool` of `server`, as the catalog lists it.
    fn listed_tool(
        &self,
        server: &str,
        tool: &str,
    ) -> Result<switchboard_mcp::types::Tool, ExplorerError> {
        self.catalog
            .find_tool(server, tool)
            .ok_or_else(|| ExplorerError::NoTool {
                server: server.to_owned(),
                tool: tool.to_owned(),
            })
    }

    /// Calls a tool of `server` for its view (MCP Apps) through the gate, as the app's: its
    /// rules or the person decide first. A tool only a model may call is refused.
    pub async fn call_for_view(
        &self,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
        token: String,
    ) -> Result<Value, ExplorerError> {
        let listed = self.listed_tool(server, tool)?;
        if apps::ToolUi::of(&listed).is_some_and(|ui| !ui.for_app()) {
            return Err(ExplorerError::NotForViews {
                server: server.to_owned(),
                tool: tool.to_owned(),
            });
        }
        let app = Origin::App {
            server: server.to_owned(),
        };
        self.call_tool_as(&app, server, tool, arguments, token)
            .await
    }

    /// Calls a tool for `origin` through the gate: for anyone but the person, a policy or
    /// the person decides first. `token` names the call for its progress updates and for
    /// `cancel`.
    pub async fn call_tool_as(
        &self,
        origin: &Origin,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
        token: String,
    ) -> Result<Value, ExplorerError> {
        self.call_tool_reporting(origin, server, tool, arguments, token, None)
            .await
    }

    /// [`Self::call_tool_as`], passing the server's progress reports on to `report` too
    /// (the caller's own caller follows them: an agent through the gateway).
    pub async fn call_tool_reporting(
        &self,
        origin: &Origin,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
        token: String,
        report: Option<mpsc::Sender<Progress>>,
    ) -> Result<Value, ExplorerError> {
        let call = Call {
            origin,
            server,
            tool,
            report,
            as_task: false,
        };
        self.call(call, arguments, token).await
    }

    async fn call(
        &self,
        call: Call<'_>,
        arguments: Map<String, Value>,
        token: String,
    ) -> Result<Value, ExplorerError> {
        let Call {
            origin,
            server,
            tool,
            report,
            as_task,
        } = call;
        let client = self.client(server)?;
        let tool = self.listed_tool(server, tool)?;
        let config = self.server(server)?;
        if config.tool_disabled(&tool.name) {
            return Err(ExplorerError::ToolDisabled {
                server: server.to_owned(),
                tool: tool.name,
            });
        }
        let callee = Callee::of(server, &config);
        let label = tool.title.clone().unwrap_or_else(|| tool.name.clone());
        let by = Serving {
            origin: origin.clone(),
            call: tool.name.clone(),
            read: None,
        };
        let (cancel, _running) = self.begin(&token, server, label, by);
        let gate = &self.gate;
        let allowed = gate
            .decide(origin, &callee, &tool, arguments, Some(&cancel))
            .await?;
        self.call_served(&token);
        let (progress, mut updates) = mpsc::channel(64);
        let (task, mut task_states) = mpsc::unbounded_channel();
        let mut options = client.request_options();
        options.progress = Some(progress);
        options.cancel = Some(cancel);
        options.reset_timeout_on_progress = true;
        options.task = Some(task);
        options.as_task = as_task;
        let call = gate.run(&client, &tool, allowed, options);
        tokio::pin!(call);
        let began = Began {
            server,
            tool: &tool.name,
            asked_by: &origin.to_string(),
        };
        let mut became = None;
        let result = loop {
            tokio::select! {
                Some(step) = updates.recv() => self.reported(&token, step, report.as_ref()),
                Some(state) = task_states.recv() => self.task_state(&began, &mut became, state).await,
                result = &mut call => break result,
            }
        };
        // Its last states may come in with its result.
        while let Ok(state) = task_states.try_recv() {
            self.task_state(&began, &mut became, state).await;
        }
        if let Some(task_id) = became {
            let outcome = match &result {
                Ok(result) => Ok(serde_json::to_value(result).unwrap_or(Value::Null)),
                Err(e) => Err(e.to_string()),
            };
            self.task_ended(server, &task_id, outcome).await;
            self.following(server, &task_id, false);
        }
        // The reports the server sent last come in with its result (the request passes on
        // what it heard before its answer as it returns): they come before it.
        while let Ok(step) = updates.try_recv() {
            self.reported(&token, step, report.as_ref());
        }
        match result {
            Ok(result) => Ok(serde_json::to_value(result).unwrap_or(Value::Null)),
            Err(CallError::Client(refused)) => match refused.url_elicitation_required() {
                Some(required) => Err(self.offer_url_steps(server, required).await),
                None => Err(CallError::Client(refused).into()),
            },
            Err(other) => Err(other.into()),
        }
    }

    /// Reads `read` of `server` for `origin` through the gate (see [`Gate::read`]), with
    /// the server's live session, once a rule or the person allowed it. The read is a call
    /// under way named `token` meanwhile, as a tool call is: the activity view lists it and
    /// can cancel it, and what the server asks while serving it is the asker's to answer as
    /// far as the person lets it.
    ///
    /// [`Gate::read`]: switchboard_core::gate::Gate::read
    pub async fn read_as<T, F>(
        &self,
        origin: &Origin,
        server: &str,
        read: Read,
        token: String,
        reading: impl FnOnce(Client) -> F,
    ) -> Result<T, ExplorerError>
    where
        F: Future<Output = Result<T, ClientError>>,
    {
        let client = self.client(server)?;
        let config = self.server(server)?;
        let callee = Callee::of(server, &config);
        let named = read.named();
        let label = capitalized(&named);
        let by = Serving {
            origin: origin.clone(),
            call: named,
            read: Some(read.clone()),
        };
        let (cancel, _running) = self.begin(&token, server, label, by);
        let method = read.method();
        // The gate polls the reading only once it is allowed: the server serves it from then.
        let served = async {
            self.call_served(&token);
            reading(client).await
        };
        tokio::select! {
            read = self.gate.read(origin, &callee, read, served) => Ok(read?),
            // Dropping the read takes its question off the person's list, or tells the
            // server it is cancelled.
            () = cancel.cancelled() => Err(ClientError::Request(RequestError::Cancelled {
                method: method.to_owned(),
            })
            .into()),
        }
    }

    /// Lists a call (or read) under way as `token`, waiting for a decision, until the
    /// guard returned is dropped; cancelled by the switch returned.
    fn begin(
        &self,
        token: &str,
        server: &str,
        label: String,
        by: Serving,
    ) -> (CancellationToken, Running<'_>) {
        let cancel = CancellationToken::new();
        let item = ProgressItem {
            token: token.to_owned(),
            server: server.to_owned(),
            label,
            read: by.read.clone(),
            progress: 0.0,
            total: None,
            message: None,
            started_ms: now_ms(),
        };
        self.call_began(item, by, cancel.clone());
        let running = Running {
            explorer: self,
            token: token.to_owned(),
        };
        (cancel, running)
    }

    /// Passes a server's report on a call on: to the activity view, and to `report`.
    fn reported(&self, token: &str, step: Progress, report: Option<&mpsc::Sender<Progress>>) {
        if let Some(report) = report {
            // A caller too slow to read its reports misses some, as the window would.
            let _ = report.try_send(step.clone());
        }
        self.call_progressed(token, step.progress, step.total, step.message);
    }

    /// Cancels a call under way; the server is told. False if it had already ended.
    pub fn cancel(&self, token: &str) -> bool {
        match self.calls.cancel_of(token) {
            Some(cancel) => {
                cancel.cancel();
                true
            }
            None => false,
        }
    }

    pub async fn read_resource(&self, server: &str, uri: &str) -> Result<Value, ExplorerError> {
        let client = self.client(server)?;
        let read = client.read_resource(uri, client.request_options()).await?;
        Ok(serde_json::to_value(read).unwrap_or(Value::Null))
    }

    /// The view (MCP Apps) `uri` of `server`, checked, with what its resource asks.
    pub async fn view(&self, server: &str, uri: &str) -> Result<views::View, ExplorerError> {
        let client = self.client(server)?;
        let listed = self
            .catalog
            .offer(server)
            .and_then(|offer| offer.resources.into_iter().find(|r| r.uri == uri))
            .and_then(|resource| resource.meta);
        Ok(views::read(&client, server, uri, listed.as_ref()).await?)
    }

    /// Opens the view `uri` of `server` for the window: read and checked, then served on
    /// the server's own origin. A view shown before is pinned (its HTML's hash, what it may
    /// load, its server's launch): one that changed since is not served, and the window is
    /// told what changed, until the person agrees to the view whose hash is `agreed`. A new
    /// view, or one agreed to, is pinned as it is served.
    pub async fn open_view(
        &self,
        server: &str,
        uri: &str,
        agreed: Option<&str>,
    ) -> Result<OpenedView, ExplorerError> {
        let view = self.view(server, uri).await?;
        let policy = origins::policy(&view.ui);
        let now = ViewPin {
            server: view.server.clone(),
            identity: self.server(server)?.identity(),
            uri: view.uri.clone(),
            sha256: view.sha256.clone(),
            bytes: view.html.len(),
            policy: policy.clone(),
            at_ms: now_ms(),
        };
        let pins = self.host.trusted_views();
        let changed = views::changed(&pins, &now);
        let opened = |url: Option<String>, changed: Option<ViewChange>| OpenedView {
            server: view.server.clone(),
            uri: view.uri.clone(),
            url,
            policy: policy.clone(),
            sha256: view.sha256.clone(),
            prefers_border: view.ui.prefers_border,
            changed,
        };
        if changed.is_some() && agreed != Some(view.sha256.as_str()) {
            return Ok(opened(None, changed));
        }
        let url = self
            .origins
            .serve(&view)
            .await
            .map_err(ExplorerError::Serving)?;
        let known = pins
            .iter()
            .any(|p| p.server == now.server && p.uri == now.uri);
        if changed.is_some() || !known {
            self.host.pin_view(now).await;
        }
        Ok(opened(Some(url), None))
    }

    /// The file a view of `server` asks to save (`ui/download-file`): an embedded
    /// resource as it is, a resource link read from `server` (a view reads only its own).
    pub async fn download(&self, server: &str, item: Value) -> Result<Download, ExplorerError> {
        let bad = |why: &str| ExplorerError::BadRequest(format!("a file to save {why}"));
        let name = item.get("name").and_then(Value::as_str);
        match item.get("type").and_then(Value::as_str) {
            Some("resource") => {
                let contents = item.get("resource").cloned().unwrap_or(Value::Null);
                let contents = serde_json::from_value(contents)
                    .map_err(|e| bad(&format!("has no contents: {e}")))?;
                Ok(views::download_of(contents, name)?)
            }
            Some("resource_link") => {
                let uri = item
                    .get("uri")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("links nowhere"))?;
                let client = self.client(server)?;
                let read = client.read_resource(uri, client.request_options()).await?;
                let contents =
                    read.contents.into_iter().next().ok_or_else(|| {
                        ExplorerError::View(views::ViewError::Empty(uri.to_owned()))
                    })?;
                Ok(views::download_of(contents, name)?)
            }
            _ => Err(bad("is an embedded resource or a resource link")),
        }
    }

    /// Starts or stops the window's updates of a resource (they arrive as
    /// `Update::ResourceUpdated`); agents may follow it too.
    pub async fn subscribe(&self, server: &str, uri: &str, on: bool) -> Result<(), ExplorerError> {
        let window = Follower::Window;
        if on {
            self.follow_resource(window, server, uri).await
        } else {
            self.unfollow_resource(window, server, uri).await
        }
    }

    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Value, ExplorerError> {
        let prompt = self.client(server)?.get_prompt(name, arguments).await?;
        Ok(serde_json::to_value(prompt).unwrap_or(Value::Null))
    }

    /// Suggestions for an argument of a prompt or resource template (`completion/complete`
    /// params as the spec writes them). A server without completions suggests nothing.
    pub async fn complete(
        &self,
        server: &str,
        params: Value,
    ) -> Result<Vec<String>, ExplorerError> {
        let client = self.client(server)?;
        if client.capabilities().completions.is_none() {
            return Ok(Vec::new());
        }
        let params: CompleteRequestParams = serde_json::from_value(params)
            .map_err(|e| ExplorerError::BadRequest(format!("not a completion request: {e}")))?;
        Ok(client.complete(&params).await?.completion.values)
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
