//! What the server offers, as the engine's typed handler: each request the client may
//! send goes to the module that answers it.

use std::sync::Arc;

use serde_json::Map;
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::{
    ClientNotification, Reply, Rounds, ServerHandler, answered,
};
use switchboard_mcp::types::*;

use crate::server::{NAME, Server, Session};
use crate::{media, prompts, resources, skills, tools};

const INSTRUCTIONS: &str = "This server demonstrates every feature of the Model Context Protocol: \
tools, resources, prompts, completion, logging, progress, cancellation, sampling, elicitation \
and roots. It touches nothing outside itself: notes live in memory only, and it reads no file \
and opens no connection.";

impl Server {
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
                extra: Map::from_iter([("extensions".to_owned(), skills::declared())]),
                ..ServerCapabilities::default()
            },
            server_info,
            instructions: Some(INSTRUCTIONS.to_owned()),
            meta: None,
            extra: Map::new(),
        }
    }

    fn notified(self: Arc<Self>, notification: ClientNotification) {
        match notification {
            ClientNotification::Initialized => {
                let client = self.state().session.as_ref().map_or_else(
                    || "the client".to_owned(),
                    |s| s.client.display_name().to_owned(),
                );
                eprintln!("{NAME}: {client} is ready");
            }
            ClientNotification::RootsListChanged => {
                // Notifications are answered synchronously: the log message goes from a task.
                tokio::spawn(async move {
                    let message = "The client's roots changed: call list_roots to see them.";
                    self.log(LoggingLevel::Info, message.into()).await;
                });
            }
            ClientNotification::Other { .. } => {}
        }
    }
}

/// The client's revision if it is a stateful one this engine speaks, else the newest.
fn negotiate(requested: &str) -> ProtocolVersion {
    match requested.parse::<ProtocolVersion>() {
        Ok(version) if version.is_stateful() => version,
        _ => ProtocolVersion::LATEST_STATEFUL,
    }
}

/// The server as the connection sees it. Every answer but a tool call's is made at once,
/// so that requests take effect in the order the client sent them.
pub struct Handler(pub Arc<Server>);

impl ServerHandler for Handler {
    fn initialize(&self, params: InitializeRequestParams) -> Reply<InitializeResult> {
        answered(Ok(self.0.initialize(params)))
    }

    fn set_level(&self, params: SetLevelRequestParams) -> Reply<EmptyResult> {
        self.0.state().log_level = params.level;
        answered(Ok(EmptyResult::default()))
    }

    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        answered(Ok(tools::list(&self.0)))
    }

    /// Tools may take long and call the client back: they run as their own future, which
    /// the connection drops if the client cancels the call.
    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        let server = self.0.clone();
        Box::pin(async move { tools::call(&server, params).await.map(Rounds::Complete) })
    }

    fn list_resources(&self, _: PaginatedRequestParams) -> Reply<ListResourcesResult> {
        answered(Ok(resources::list(&self.0)))
    }

    fn list_resource_templates(
        &self,
        _: PaginatedRequestParams,
    ) -> Reply<ListResourceTemplatesResult> {
        answered(Ok(resources::templates()))
    }

    fn read_resource(
        &self,
        params: ReadResourceRequestParams,
    ) -> Reply<Rounds<ReadResourceResult>> {
        let read = match skills::read(&params.uri) {
            Some(file) => Ok(ReadResourceResult {
                contents: vec![file],
                meta: None,
                extra: Map::new(),
            }),
            None => resources::read(&self.0, &params.uri),
        };
        answered(read.map(Rounds::Complete))
    }

    /// The skills extension's requests; any other is not offered.
    fn custom(
        &self,
        method: String,
        params: Option<serde_json::Value>,
    ) -> Reply<serde_json::Value> {
        match skills::answer(&method, params.as_ref()) {
            Some(answer) => answered(answer),
            None => answered(Err(ErrorObject::method_not_found(&method))),
        }
    }

    fn subscribe(&self, params: SubscribeRequestParams) -> Reply<EmptyResult> {
        answered(resources::subscribe(&self.0, params.uri))
    }

    fn unsubscribe(&self, params: UnsubscribeRequestParams) -> Reply<EmptyResult> {
        self.0.state().subscriptions.remove(&params.uri);
        answered(Ok(EmptyResult::default()))
    }

    fn list_prompts(&self, _: PaginatedRequestParams) -> Reply<ListPromptsResult> {
        answered(Ok(prompts::list()))
    }

    fn get_prompt(&self, params: GetPromptRequestParams) -> Reply<Rounds<GetPromptResult>> {
        answered(prompts::get(params).map(Rounds::Complete))
    }

    fn complete(&self, params: CompleteRequestParams) -> Reply<Rounds<CompleteResult>> {
        answered(prompts::complete(&params).map(Rounds::Complete))
    }

    fn notification(&self, notification: ClientNotification) {
        self.0.clone().notified(notification);
    }
}
