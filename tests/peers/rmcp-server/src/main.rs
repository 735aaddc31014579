//! `rmcp-peer`: an MCP server written with the official Rust SDK (`rmcp`), used as a peer in
//! interop tests and as the echo server of a benchmark. Every output is deterministic.
//!
//! ```text
//! rmcp-peer [stdio]            serve over stdin/stdout (the default)
//! rmcp-peer http --port N      serve Streamable HTTP on http://127.0.0.1:N/mcp (0 picks a port)
//! ```
//!
//! Tools: `echo`, `add`, `progress`, `sample`, `roots`, `elicit`, and `env` and `header`,
//! which tell what this server was given (an environment variable, a request header) so that
//! a test can see what reached it. Resource: `rmcp://hello`.
//! Resource template: `rmcp://filler/{bytes}`, a text of exactly that many bytes (the large
//! read of the benchmark). Prompt: `hello`. See [`PeerServer`] for what each does.

// Sampling and roots are deprecated by SEP-2577 in rmcp, but this peer exists to exercise them.
#![allow(deprecated)]

use std::{
    convert::Infallible,
    error::Error,
    fmt::Write as _,
    io::Write as _,
    net::{Ipv4Addr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::{Request, Response, StatusCode, body::Incoming, server::conn::http1};
use hyper_util::rt::TokioIo;
use rmcp::{
    ErrorData, Json, RoleServer, ServerHandler, ServiceExt as _,
    handler::server::{
        router::prompt::PromptRouter,
        tool::{InputResponses, ToolCallContext, ToolRouter},
        wrapper::Parameters,
    },
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientResult, ContentBlock,
        CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ElicitRequest,
        ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, Implementation,
        InputRequest, InputRequests, InputRequiredResult, ListResourceTemplatesResult,
        ListResourcesResult, ListRootsRequest, ListRootsResult, PaginatedRequestParams,
        ProgressNotificationParam, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
        Role, SamplingMessage, SamplingMessageContentBlock, ServerCapabilities, ServerConfig,
        ServerRequest,
    },
    prompt, prompt_handler, prompt_router,
    schemars::JsonSchema,
    service::RequestContext,
    tool, tool_handler, tool_router,
    transport::{
        StreamableHttpServerConfig, StreamableHttpService,
        streamable_http_server::session::local::LocalSessionManager,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

const HELLO_URI: &str = "rmcp://hello";
const HELLO_TEXT: &str = "hello from rmcp";
const FILLER_PREFIX: &str = "rmcp://filler/";
/// Bounds what one read may make the server build.
const MAX_FILLER_BYTES: usize = 256 * 1024 * 1024;

/// The server. Cloned for every Streamable HTTP session (and looked up on every POST), so it
/// only holds an `Arc` to routers built once.
#[derive(Clone)]
struct PeerServer {
    routers: Arc<Routers>,
}

struct Routers {
    tools: ToolRouter<PeerServer>,
    prompts: PromptRouter<PeerServer>,
}

impl PeerServer {
    fn new() -> Self {
        Self {
            routers: Arc::new(Routers {
                tools: Self::tool_router(),
                prompts: Self::prompt_router(),
            }),
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct EchoArgs {
    /// The text to send back.
    text: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Serialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct AddOutput {
    sum: i64,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct ProgressArgs {
    /// How many progress notifications to send.
    steps: u32,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct SampleArgs {
    /// The prompt to send to the client's model.
    prompt: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct NameArgs {
    /// The name of the environment variable or request header.
    name: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct HelloArgs {
    /// Who to greet.
    name: String,
}

/// Keys of the input requests this server makes when it must ask through a multi round-trip
/// request (protocol 2026-07-28 and later, which forbids server-to-client requests).
const SAMPLE_KEY: &str = "sample";
const ROOTS_KEY: &str = "roots";
const ELICIT_KEY: &str = "elicit";

#[tool_router]
impl PeerServer {
    /// Served by the fast path in `call_tool`; this body only runs when the arguments are not
    /// `{"text": <string>}`, where the router turns the argument error into a tool error.
    #[tool(description = "Returns its `text` argument unchanged")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    #[tool(description = "Adds two integers; the structured result is {\"sum\": a + b}")]
    fn add(
        &self,
        Parameters(AddArgs { a, b }): Parameters<AddArgs>,
    ) -> Result<Json<AddOutput>, String> {
        a.checked_add(b)
            .map(|sum| Json(AddOutput { sum }))
            .ok_or_else(|| format!("{a} + {b} overflows a 64-bit integer"))
    }

    #[tool(
        description = "Returns the value of the environment variable `name` this server was started with, or \"unset\""
    )]
    fn env(&self, Parameters(NameArgs { name }): Parameters<NameArgs>) -> String {
        std::env::var(&name).unwrap_or_else(|_| "unset".to_owned())
    }

    #[tool(
        description = "Returns the value of the HTTP header `name` this call came with, \"absent\" if it had none, or \"not over HTTP\""
    )]
    fn header(
        &self,
        Parameters(NameArgs { name }): Parameters<NameArgs>,
        context: RequestContext<RoleServer>,
    ) -> String {
        match context.extensions.get::<http::request::Parts>() {
            None => "not over HTTP".to_owned(),
            Some(parts) => parts.headers.get(&name).map_or_else(
                || "absent".to_owned(),
                |value| String::from_utf8_lossy(value.as_bytes()).into_owned(),
            ),
        }
    }

    #[tool(
        description = "Sends notifications/progress i/steps for i in 1..=steps (when the request carries a progress token), then returns \"done\""
    )]
    async fn progress(
        &self,
        Parameters(ProgressArgs { steps }): Parameters<ProgressArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        if let Some(token) = context.meta.get_progress_token() {
            for step in 1..=steps {
                let notification = ProgressNotificationParam::new(token.clone(), f64::from(step))
                    .with_total(f64::from(steps));
                context
                    .peer
                    .notify_progress(notification)
                    .await
                    .map_err(|e| {
                        ErrorData::internal_error(format!("sending progress failed: {e}"), None)
                    })?;
            }
        }
        Ok("done".to_owned())
    }

    #[tool(
        description = "Asks the client's model (sampling/createMessage) and returns \"model said: \" followed by the reply's text"
    )]
    async fn sample(
        &self,
        Parameters(SampleArgs { prompt }): Parameters<SampleArgs>,
        context: RequestContext<RoleServer>,
        InputResponses(responses): InputResponses,
    ) -> CallToolResponse {
        let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
        let reply = if forbids_server_requests(&context) {
            match response_for::<CreateMessageResult>(responses.as_ref(), SAMPLE_KEY) {
                None => {
                    let request = InputRequest::CreateMessage(CreateMessageRequest::new(params));
                    return input_required(SAMPLE_KEY, request);
                }
                Some(reply) => reply,
            }
        } else {
            context
                .peer
                .create_message(params)
                .await
                .map_err(|e| e.to_string())
        };
        match reply {
            Ok(reply) => text_result(format!("model said: {}", sampling_text(reply))),
            Err(e) => error_result(format!("sampling/createMessage failed: {e}")),
        }
    }

    #[tool(
        description = "Lists the client's roots (roots/list) and returns their URIs, one per line, or \"no roots\""
    )]
    async fn roots(
        &self,
        context: RequestContext<RoleServer>,
        InputResponses(responses): InputResponses,
    ) -> CallToolResponse {
        let reply = if forbids_server_requests(&context) {
            match response_for::<ListRootsResult>(responses.as_ref(), ROOTS_KEY) {
                None => {
                    return input_required(
                        ROOTS_KEY,
                        InputRequest::ListRoots(ListRootsRequest::default()),
                    );
                }
                Some(reply) => reply,
            }
        } else {
            context.peer.list_roots().await.map_err(|e| e.to_string())
        };
        match reply {
            Ok(ListRootsResult { roots, .. }) if roots.is_empty() => {
                text_result("no roots".to_owned())
            }
            Ok(ListRootsResult { roots, .. }) => {
                let uris: Vec<String> = roots.into_iter().map(|root| root.uri).collect();
                text_result(uris.join("\n"))
            }
            Err(e) => error_result(format!("roots/list failed: {e}")),
        }
    }

    #[tool(
        description = "Asks the user for their name (form elicitation) and returns \"hello <name>\", \"declined\" or \"cancelled\""
    )]
    async fn elicit(
        &self,
        context: RequestContext<RoleServer>,
        InputResponses(responses): InputResponses,
    ) -> CallToolResponse {
        let params = match name_form() {
            Ok(schema) => ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: "What is your name?".to_owned(),
                requested_schema: schema,
            },
            Err(e) => return error_result(format!("building the elicitation schema failed: {e}")),
        };
        let reply = if forbids_server_requests(&context) {
            match response_for::<ElicitResult>(responses.as_ref(), ELICIT_KEY) {
                None => {
                    let request = InputRequest::Elicitation(ElicitRequest::new(params));
                    return input_required(ELICIT_KEY, request);
                }
                Some(reply) => reply,
            }
        } else {
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            match context.peer.send_request(request).await {
                Ok(ClientResult::ElicitResult(reply)) => Ok(reply),
                Ok(_) => Err("the client answered with an unexpected result".to_owned()),
                Err(e) => Err(e.to_string()),
            }
        };
        match reply {
            Ok(ElicitResult {
                action: ElicitationAction::Accept,
                content,
                ..
            }) => match content
                .as_ref()
                .and_then(|c| c.get("name"))
                .and_then(Value::as_str)
            {
                Some(name) => text_result(format!("hello {name}")),
                None => error_result("the accepted elicitation carries no string `name`".into()),
            },
            Ok(ElicitResult {
                action: ElicitationAction::Decline,
                ..
            }) => text_result("declined".to_owned()),
            Ok(ElicitResult {
                action: ElicitationAction::Cancel,
                ..
            }) => text_result("cancelled".to_owned()),
            Ok(ElicitResult { action, .. }) => {
                error_result(format!("unexpected elicitation action {action:?}"))
            }
            Err(e) => error_result(format!("elicitation/create failed: {e}")),
        }
    }
}

#[prompt_router]
impl PeerServer {
    #[prompt(name = "hello", description = "Greets someone by name")]
    async fn hello_prompt(
        &self,
        Parameters(HelloArgs { name }): Parameters<HelloArgs>,
    ) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            format!("Hello, {name}!"),
        )]
    }
}

#[tool_handler(router = self.routers.tools)]
#[prompt_handler(router = self.routers.prompts)]
impl ServerHandler for PeerServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_tools()
                .build(),
        )
        .with_server_info(Implementation::new("rmcp-peer", env!("CARGO_PKG_VERSION")))
        .with_instructions("rmcp test peer")
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The benchmark's hot path: answer `echo` without the router's argument deserialization.
        if request.name == "echo"
            && let Some(arguments) = request.arguments.as_mut()
            && let Some(Value::String(text)) = arguments.get_mut("text")
        {
            let text = std::mem::take(text);
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
        }
        let context = ToolCallContext::new(self, request, context);
        self.routers.tools.call(context).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(HELLO_URI, "hello")
                .with_description("A static greeting")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(format!("{FILLER_PREFIX}{{bytes}}"), "filler")
                .with_description("Deterministic text of exactly `bytes` bytes")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if let Some(bytes) = request.uri.strip_prefix(FILLER_PREFIX) {
            return match bytes.parse::<usize>() {
                Ok(bytes) if bytes <= MAX_FILLER_BYTES => {
                    let contents = ResourceContents::text(filler(bytes), request.uri.as_str());
                    Ok(ReadResourceResult::new(vec![contents]).into())
                }
                _ => Err(ErrorData::invalid_params(
                    format!(
                        "{} names no size up to {MAX_FILLER_BYTES} bytes",
                        request.uri
                    ),
                    None,
                )),
            };
        }
        if request.uri == HELLO_URI {
            let contents = ResourceContents::text(HELLO_TEXT, HELLO_URI);
            Ok(ReadResourceResult::new(vec![contents]).into())
        } else {
            Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                Some(serde_json::json!({ "uri": request.uri })),
            ))
        }
    }
}

/// Exactly `bytes` bytes of numbered 64-byte lines: plain ASCII with a newline to escape
/// in every line, like a real text file.
fn filler(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    let mut line = 0u64;
    while text.len() < bytes {
        // 9 + 54 + 1 bytes.
        let _ = writeln!(
            text,
            "{line:08} the quick brown fox jumps over the lazy dog, once more"
        );
        line += 1;
    }
    text.truncate(bytes);
    text
}

/// Whether the request's protocol revision forbids server-to-client requests (2026-07-28 and
/// later), so sampling, roots and elicitation must go through a multi round-trip request.
fn forbids_server_requests(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Asks the client to fulfil `request` under `key` and retry the call.
fn input_required(key: &str, request: InputRequest) -> CallToolResponse {
    let mut requests = InputRequests::new();
    requests.insert(key.to_owned(), request);
    InputRequiredResult::from_input_requests(requests).into()
}

/// The client's answer under `key` in a retried call, if there is one.
fn response_for<T: serde::de::DeserializeOwned>(
    responses: Option<&rmcp::model::InputResponses>,
    key: &str,
) -> Option<Result<T, String>> {
    let value = responses?.get(key)?;
    Some(
        serde_json::from_value(value.clone())
            .map_err(|e| format!("the client's `{key}` input response is malformed: {e}")),
    )
}

/// The form elicitation asks for `{"name": string}`, required.
fn name_form() -> Result<ElicitationSchema, &'static str> {
    ElicitationSchema::builder().required_string("name").build()
}

/// The text blocks of a sampling reply, concatenated.
fn sampling_text(reply: CreateMessageResult) -> String {
    reply
        .message
        .content
        .into_vec()
        .into_iter()
        .filter_map(|block| match block {
            SamplingMessageContentBlock::Text(text) => Some(text.text),
            _ => None,
        })
        .collect()
}

fn text_result(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

fn error_result(text: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(text)]).into()
}

enum Mode {
    Stdio,
    Http { port: u16 },
}

const USAGE: &str = "usage: rmcp-peer [stdio] | rmcp-peer http --port N";

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Mode, String> {
    let mode = match args.next().as_deref() {
        None | Some("stdio") => Mode::Stdio,
        Some("http") => {
            let mut port = 0;
            while let Some(arg) = args.next() {
                let value = match arg.strip_prefix("--port=") {
                    Some(value) => value.to_owned(),
                    None if arg == "--port" => args.next().ok_or("--port needs a value")?,
                    None => return Err(format!("unexpected argument {arg:?}")),
                };
                port = value
                    .parse()
                    .map_err(|e| format!("bad port {value:?}: {e}"))?;
            }
            Mode::Http { port }
        }
        Some("-h" | "--help") => return Err(String::new()),
        Some(other) => return Err(format!("unknown mode {other:?}")),
    };
    if let Some(extra) = args.next() {
        return Err(format!("unexpected argument {extra:?}"));
    }
    Ok(mode)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mode = match parse_args(std::env::args().skip(1)) {
        Ok(mode) => mode,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("rmcp-peer: {message}");
            }
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    match mode {
        // One client, strictly ordered messages: a single-threaded runtime avoids cross-thread
        // wake-ups on the echo path.
        Mode::Stdio => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(serve_stdio()),
        Mode::Http { port } => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(serve_http(port)),
    }
}

async fn serve_stdio() -> Result<(), Box<dyn Error>> {
    // Non-blocking pipe I/O when stdin/stdout are FIFOs (as when spawned by a client), plain
    // blocking stdio otherwise.
    let running = PeerServer::new()
        .serve(rmcp::transport::stdio_pipes())
        .await?;
    running.waiting().await?;
    Ok(())
}

type McpService = StreamableHttpService<PeerServer, LocalSessionManager>;

async fn serve_http(port: u16) -> Result<(), Box<dyn Error>> {
    let server = PeerServer::new();
    let service: Arc<McpService> = Arc::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    ));
    let listener =
        tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
    let port = listener.local_addr()?.port();
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on http://127.0.0.1:{port}/mcp")?;
        stdout.flush()?;
    }
    tokio::select! {
        () = accept_loop(listener, service) => Ok(()),
        signal = tokio::signal::ctrl_c() => Ok(signal?),
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, service: Arc<McpService>) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors and the like: back off rather than spin.
                eprintln!("rmcp-peer: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Small request/response exchanges: do not let Nagle delay them.
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(route(&service, request).await) }
            });
            if let Err(e) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await
            {
                eprintln!("rmcp-peer: connection error: {e}");
            }
        });
    }
}

type HttpBody = http_body_util::combinators::BoxBody<Bytes, Infallible>;

async fn route(service: &McpService, request: Request<Incoming>) -> Response<HttpBody> {
    if request.uri().path() == "/mcp" {
        return service.handle(request).await;
    }
    let mut response = Response::new(Full::new(Bytes::from_static(b"not found\n")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}
