//! The routing of the client's requests and notifications to the modules that answer them.

use std::sync::Arc;

use serde_json::{Map, Value};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::connection::IncomingHandler;
use switchboard_mcp::jsonrpc::{ErrorObject, encode_result as encode, read_params as parse};
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::*;

use crate::server::{NAME, Server, Session};
use crate::{media, prompts, resources, tools};

const INSTRUCTIONS: &str = "This server demonstrates every feature of the Model Context Protocol: \
tools, resources, prompts, completion, logging, progress, cancellation, sampling, elicitation \
and roots. It touches nothing outside itself: notes live in memory only, and it reads no file \
and opens no connection.";

impl Server {
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
