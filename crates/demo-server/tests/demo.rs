//! The demo server as a user of Switchboard meets it: the real binary over stdio, driven by
//! the engine's client, with a scripted person answering sampling, elicitation and roots.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, ServerNotification,
};
use switchboard_mcp::connection::{Connection, IncomingHandler, RequestError};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{BoxFuture, LogLine, LogSink, discard_log};
use switchboard_mcp::types::*;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// The bound on every wait for something the server sends on its own.
const WAIT: Duration = Duration::from_secs(10);

fn server() -> StdioServer {
    StdioServer::new(env!("CARGO_BIN_EXE_switchboard-demo-server"))
}

/// How the scripted person answers a form.
#[derive(Clone, Default)]
enum FormReply {
    #[default]
    Decline,
    Cancel,
    Accept(ElicitContent),
}

#[derive(Clone, Default)]
struct Script {
    roots: Vec<Root>,
    /// The model's reply to sampling; `None` declines it.
    sampling_reply: Option<String>,
    form: FormReply,
    accept_urls: bool,
}

/// What the server asked and told, in order.
#[derive(Default)]
struct Seen {
    sampling: Vec<CreateMessageRequestParams>,
    elicitations: Vec<ElicitRequestParams>,
    notifications: Vec<ServerNotification>,
}

#[derive(Default)]
struct Person {
    script: Script,
    seen: Mutex<Seen>,
    changed: Notify,
}

impl Person {
    fn new(script: Script) -> Arc<Self> {
        Arc::new(Self {
            script,
            ..Self::default()
        })
    }

    fn record(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.seen.lock().expect("seen lock"));
        self.changed.notify_waiters();
    }

    fn notifications(&self) -> Vec<ServerNotification> {
        self.seen.lock().expect("seen lock").notifications.clone()
    }

    fn count(&self, wanted: impl Fn(&ServerNotification) -> bool) -> usize {
        self.notifications().iter().filter(|n| wanted(n)).count()
    }

    /// The log messages received, as (level, text).
    fn logs(&self) -> Vec<(LoggingLevel, String)> {
        self.notifications()
            .into_iter()
            .filter_map(|n| match n {
                ServerNotification::Log(log) => {
                    Some((log.level?, log.data.as_str().unwrap_or_default().to_owned()))
                }
                _ => None,
            })
            .collect()
    }

    /// Waits until what was seen satisfies `done`, or fails after [`WAIT`].
    async fn wait_for(&self, what: &str, done: impl Fn(&Seen) -> bool) {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let changed = self.changed.notified();
            if done(&self.seen.lock().expect("seen lock")) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("timed out waiting for {what}");
            }
        }
    }
}

impl ClientHandler for Person {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        Ok(ListRootsResult::new(self.script.roots.clone()))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        self.record(|s| s.sampling.push(params));
        match &self.script.sampling_reply {
            Some(reply) => Ok(CreateMessageResult::new(
                Role::Assistant,
                SamplingContent::text(reply.clone()),
                "scripted-model",
            )),
            None => Err(ErrorObject::new(code::USER_REJECTED, "the user declined")),
        }
    }

    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        let answer = match (&params, &self.script.form) {
            (ElicitRequestParams::Form(_), FormReply::Accept(content)) => {
                ElicitResult::accepted(Some(content.clone()))
            }
            (ElicitRequestParams::Form(_), FormReply::Cancel) => ElicitResult::cancelled(),
            (ElicitRequestParams::Form(_), FormReply::Decline) => ElicitResult::declined(),
            (ElicitRequestParams::Url(_), _) if self.script.accept_urls => {
                ElicitResult::accepted(None)
            }
            (ElicitRequestParams::Url(_), _) => ElicitResult::declined(),
        };
        self.record(|s| s.elicitations.push(params));
        Ok(answer)
    }

    fn notification(&self, notification: ServerNotification) {
        self.record(|s| s.notifications.push(notification));
    }
}

/// The server's stderr, to wait for what it reports there.
#[derive(Default, Clone)]
struct Stderr(Arc<(Mutex<Vec<String>>, Notify)>);

impl Stderr {
    fn sink(&self) -> LogSink {
        let inner = self.0.clone();
        Arc::new(move |line| {
            if let LogLine::Stderr(line) = line {
                inner.0.lock().expect("stderr lock").push(line);
                inner.1.notify_waiters();
            }
        })
    }

    fn find(&self, text: &str) -> Option<String> {
        let lines = self.0.0.lock().expect("stderr lock");
        lines.iter().find(|l| l.contains(text)).cloned()
    }

    /// Waits for a stderr line containing `text`, and returns it.
    async fn wait_for(&self, text: &str) -> String {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let changed = self.0.1.notified();
            let found = self.find(text);
            if let Some(line) = found {
                return line;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("timed out waiting for {text:?} on stderr");
            }
        }
    }
}

async fn connect_as(person: Arc<Person>, capabilities: ClientCapabilities, log: LogSink) -> Client {
    let transport = stdio::spawn(&server(), log).expect("start the demo server");
    let mut config = ClientConfig::new("switchboard-demo-tests", "0.0.0");
    config.capabilities = capabilities;
    config.request_timeout = WAIT;
    Client::connect(transport, person, config)
        .await
        .expect("initialize")
}

/// Connects as a client that offers everything and answers as the script says.
async fn connect(script: Script) -> (Client, Arc<Person>) {
    let person = Person::new(script);
    let client = connect_as(person.clone(), ClientCapabilities::all(), discard_log()).await;
    (client, person)
}

fn args(value: Value) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        other => panic!("tool arguments must be an object, not {other}"),
    }
}

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    client
        .call_tool(tool, args(arguments), client.request_options())
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn text(result: &CallToolResult) -> &str {
    result
        .content
        .first()
        .and_then(ContentBlock::as_text)
        .unwrap_or_else(|| panic!("no text in {result:?}"))
}

/// A tool's error text: the call must have failed as a tool, not as a request.
fn tool_error(result: &CallToolResult) -> &str {
    assert!(result.failed(), "expected isError: {result:?}");
    text(result)
}

fn server_error<T: std::fmt::Debug>(outcome: Result<T, ClientError>) -> ErrorObject {
    match outcome {
        Err(ClientError::Request(RequestError::Server { error, .. })) => error,
        other => panic!("expected an error from the server, got {other:?}"),
    }
}

fn resource_text(result: &ReadResourceResult) -> (&str, Option<&str>) {
    match &result.contents[..] {
        [ResourceContents::Text(t)] => (&t.text, t.mime_type.as_deref()),
        other => panic!("expected one text contents, got {other:?}"),
    }
}

fn answer(fields: &[(&str, ElicitValue)]) -> ElicitContent {
    fields
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect()
}

#[tokio::test]
async fn the_handshake_introduces_the_demo_and_declares_every_capability() {
    let (client, _) = connect(Script::default()).await;
    let server = client.server();
    assert_eq!(client.protocol_version().as_str(), "2025-11-25");
    assert_eq!(server.server_info.name, "switchboard-demo");
    assert_eq!(server.server_info.display_name(), "Switchboard demo server");
    let icon = &server.server_info.icons.as_ref().expect("an icon")[0];
    assert!(icon.src.starts_with("data:image/png;base64,"));
    let instructions = server.instructions.as_deref().expect("instructions");
    assert!(instructions.contains("every feature"), "{instructions}");
    assert!(
        instructions.contains("nothing outside itself"),
        "{instructions}"
    );

    let caps = client.capabilities();
    assert!(caps.notifies_tools_changed());
    assert!(caps.supports_resource_subscriptions() && caps.notifies_resources_changed());
    assert!(caps.supports_prompts() && !caps.notifies_prompts_changed());
    assert!(caps.supports_logging() && caps.supports_completions());
    client.ping().await.unwrap();
    client.close().await;
}

/// Answers nothing: for talking to the server below the typed client.
struct Silent;

impl IncomingHandler for Silent {
    fn request(
        &self,
        method: String,
        _: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        Box::pin(std::future::ready(Err(ErrorObject::method_not_found(
            &method,
        ))))
    }

    fn notification(&self, _: String, _: Option<Value>) {}
}

#[tokio::test]
async fn the_protocol_revision_follows_the_client_or_falls_back_to_the_newest() {
    let cases = [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        // The stateless revision has no `initialize`; an unknown one is not spoken.
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ];
    for (requested, answered) in cases {
        let transport = stdio::spawn(&server(), discard_log()).unwrap();
        let connection = Connection::start(transport, Arc::new(Silent));
        let params = json!({
            "protocolVersion": requested,
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}
        });
        let result = connection
            .request(method::INITIALIZE, Some(params), Default::default())
            .await
            .unwrap();
        assert_eq!(result["protocolVersion"], answered, "asked for {requested}");
        connection.close().await;
    }
}

#[tokio::test]
async fn tools_are_described_for_a_person_with_deliberate_hints() {
    let (client, _) = connect(Script::default()).await;
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "echo",
            "add",
            "show_content_types",
            "count_to",
            "ask_model",
            "ask_user",
            "connect_account",
            "open_link",
            "list_roots",
            "write_log",
            "add_note",
            "delete_note",
            "toggle_extra_tool"
        ]
    );
    for tool in &tools {
        assert!(tool.title.is_some(), "{} has no title", tool.name);
        assert!(
            tool.description.as_ref().is_some_and(|d| d.len() > 20),
            "{} has no real description",
            tool.name
        );
        let hints = tool.annotations.as_ref().expect("annotations");
        assert!(
            hints.read_only_hint.is_some()
                && hints.destructive_hint.is_some()
                && hints.idempotent_hint.is_some()
                && hints.open_world_hint.is_some(),
            "{} leaves a hint unset",
            tool.name
        );
    }
    let hints = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        let a = tool.annotations.clone().unwrap();
        (
            a.read_only_hint.unwrap(),
            a.destructive_hint.unwrap(),
            a.idempotent_hint.unwrap(),
            a.open_world_hint.unwrap(),
        )
    };
    assert_eq!(hints("echo"), (true, false, true, false));
    assert_eq!(hints("delete_note"), (false, true, true, false));
    assert_eq!(hints("add_note"), (false, false, false, false));
    assert_eq!(hints("open_link"), (true, false, false, true));
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    let output = add.output_schema.as_ref().expect("add declares its output");
    assert_eq!(output["properties"]["sum"]["type"], "number");
    client.close().await;
}

#[tokio::test]
async fn echo_and_add_answer_with_text_and_structured_output() {
    let (client, _) = connect(Script::default()).await;
    let echo = call(&client, "echo", json!({"text": "héllo, world"})).await;
    assert_eq!(text(&echo), "héllo, world");
    assert!(!echo.failed());

    let add = call(&client, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(add.structured_content, Some(json!({"sum": 5})));
    assert_eq!(text(&add), r#"{"sum":5}"#);
    let add = call(&client, "add", json!({"a": 1.5, "b": -0.25})).await;
    assert_eq!(add.structured_content, Some(json!({"sum": 1.25})));
    client.close().await;
}

#[tokio::test]
async fn show_content_types_returns_every_kind_of_content() {
    let (client, _) = connect(Script::default()).await;
    let result = call(&client, "show_content_types", json!({})).await;
    let kinds: Vec<&str> = result.content.iter().map(ContentBlock::type_name).collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource", "resource_link"]
    );

    let ContentBlock::Image(image) = &result.content[1] else {
        unreachable!()
    };
    assert_eq!(image.mime_type, "image/png");
    let png = STANDARD.decode(&image.data).expect("base64");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    let ContentBlock::Audio(audio) = &result.content[2] else {
        unreachable!()
    };
    assert_eq!(audio.mime_type, "audio/wav");
    let wav = STANDARD.decode(&audio.data).expect("base64");
    assert_eq!((&wav[..4], &wav[8..12]), (&b"RIFF"[..], &b"WAVE"[..]));

    let ContentBlock::Resource(embedded) = &result.content[3] else {
        unreachable!()
    };
    assert_eq!(embedded.resource.uri(), "demo://readme");
    assert_eq!(embedded.resource.mime_type(), Some("text/markdown"));

    // The link leads to a resource that reads as the same image.
    let ContentBlock::ResourceLink(link) = &result.content[4] else {
        unreachable!()
    };
    assert_eq!(link.uri, "demo://logo.png");
    assert_eq!(link.mime_type.as_deref(), Some("image/png"));
    let logo = client
        .read_resource(&link.uri, client.request_options())
        .await
        .unwrap();
    let [ResourceContents::Blob(blob)] = &logo.contents[..] else {
        panic!("{logo:?}")
    };
    assert_eq!(STANDARD.decode(&blob.blob).unwrap(), png);
    assert_eq!(link.size, Some(png.len() as u64));
    client.close().await;
}

#[tokio::test]
async fn count_to_reports_each_step_as_progress() {
    let (client, _) = connect(Script::default()).await;
    let (sink, mut progress) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(sink);
    let result = client
        .call_tool("count_to", args(json!({"n": 3, "delay_ms": 1})), options)
        .await
        .unwrap();
    assert_eq!(text(&result), "counted to 3");
    let mut steps = Vec::new();
    while let Ok(p) = progress.try_recv() {
        steps.push((p.progress, p.total, p.message.unwrap_or_default()));
    }
    assert_eq!(
        steps,
        (1..=3)
            .map(|i| (f64::from(i), Some(3.0), format!("counted {i} of 3")))
            .collect::<Vec<_>>()
    );
    client.close().await;
}

#[tokio::test]
async fn cancelling_count_to_stops_it_and_the_session_goes_on() {
    let stderr = Stderr::default();
    let client = connect_as(
        Person::new(Script::default()),
        ClientCapabilities::all(),
        stderr.sink(),
    )
    .await;
    let cancel = CancellationToken::new();
    let (sink, mut progress) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(sink);
    options.cancel = Some(cancel.clone());
    let counting = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("count_to", args(json!({"n": 100, "delay_ms": 50})), options)
                .await
        }
    });
    let first = tokio::time::timeout(WAIT, progress.recv())
        .await
        .expect("a first step");
    assert_eq!(first.map(|p| p.progress), Some(1.0));
    cancel.cancel();
    assert!(matches!(
        counting.await.unwrap(),
        Err(ClientError::Request(RequestError::Cancelled { .. }))
    ));
    let line = stderr.wait_for("count_to was cancelled after").await;
    let done: u64 = line
        .split("after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(done < 100, "{line}");

    let again = call(&client, "count_to", json!({"n": 1, "delay_ms": 0})).await;
    assert_eq!(text(&again), "counted to 1");
    client.close().await;
}

#[tokio::test]
async fn ask_model_round_trips_through_sampling() {
    let (client, person) = connect(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    })
    .await;
    let result = call(
        &client,
        "ask_model",
        json!({"question": "Capital of France?"}),
    )
    .await;
    assert_eq!(text(&result), "Paris.");
    let request = person.seen.lock().unwrap().sampling[0].clone();
    assert!(request.system_prompt.is_some_and(|p| p.contains("demo")));
    assert!(request.max_tokens > 0);
    let question = request.messages[0]
        .content
        .iter()
        .next()
        .and_then(SamplingContent::as_text);
    assert_eq!(question, Some("Capital of France?"));
    client.close().await;

    // The person declines: the tool says so, as a tool error.
    let (declining, _) = connect(Script::default()).await;
    let result = call(&declining, "ask_model", json!({"question": "hi"})).await;
    let message = tool_error(&result);
    assert!(
        message.contains("declined") && message.contains("the user declined"),
        "{message}"
    );
    declining.close().await;

    // A client without sampling: the tool explains instead of asking.
    let person = Person::new(Script::default());
    let bare = connect_as(person.clone(), ClientCapabilities::default(), discard_log()).await;
    let result = call(&bare, "ask_model", json!({"question": "hi"})).await;
    assert!(tool_error(&result).contains("does not offer sampling"));
    assert!(person.seen.lock().unwrap().sampling.is_empty());
    bare.close().await;
}

#[tokio::test]
async fn ask_user_shows_a_form_and_returns_the_answer() {
    let given = answer(&[
        ("name", "Ada".into()),
        ("age", 36.0.into()),
        ("colour", "blue".into()),
        ("likes_demos", false.into()),
    ]);
    let (client, person) = connect(Script {
        form: FormReply::Accept(given.clone()),
        ..Script::default()
    })
    .await;
    let result = call(&client, "ask_user", json!({})).await;
    assert_eq!(
        text(&result),
        r#"accepted: name = "Ada", age = 36, colour = "blue", likes_demos = false"#
    );

    let request = person.seen.lock().unwrap().elicitations[0].clone();
    let ElicitRequestParams::Form(form) = &request else {
        panic!("a form")
    };
    assert_eq!(form.mode, Some(FormMode::Form));
    let schema = &form.requested_schema;
    assert_eq!(schema.validate(&given), Ok(()));
    assert!(schema.is_required("name") && !schema.is_required("age"));
    let Some(PrimitiveSchema::String(name)) = schema.properties.get("name") else {
        panic!()
    };
    assert_eq!(name.min_length, Some(2));
    let Some(PrimitiveSchema::Number(age)) = schema.properties.get("age") else {
        panic!()
    };
    assert_eq!(age.number_type, NumberType::Integer);
    assert_eq!((age.minimum, age.maximum), (Some(1.0), Some(120.0)));
    let colour = schema.properties.get("colour").unwrap();
    assert!(matches!(colour, PrimitiveSchema::TitledSingleSelect(_)));
    assert_eq!(colour.default_value(), Some("green".into()));
    let likes = schema.properties.get("likes_demos").unwrap();
    assert_eq!(likes.default_value(), Some(true.into()));
    client.close().await;
}

#[tokio::test]
async fn ask_user_reports_decline_cancel_and_an_answer_that_does_not_fit() {
    let (declining, _) = connect(Script::default()).await;
    assert_eq!(
        text(&call(&declining, "ask_user", json!({})).await),
        "declined"
    );
    declining.close().await;

    let (cancelling, _) = connect(Script {
        form: FormReply::Cancel,
        ..Script::default()
    })
    .await;
    assert_eq!(
        text(&call(&cancelling, "ask_user", json!({})).await),
        "cancelled"
    );
    cancelling.close().await;

    // A client that let a too-short name through: the server checks again.
    let (careless, _) = connect(Script {
        form: FormReply::Accept(answer(&[("name", "A".into())])),
        ..Script::default()
    })
    .await;
    let result = call(&careless, "ask_user", json!({})).await;
    let message = tool_error(&result);
    assert!(
        message.contains("name: must be at least 2 characters"),
        "{message}"
    );
    careless.close().await;
}

#[tokio::test]
async fn open_link_sends_a_url_elicitation_and_completes_it() {
    let (client, person) = connect(Script {
        accept_urls: true,
        ..Script::default()
    })
    .await;
    let result = call(&client, "open_link", json!({})).await;
    assert_eq!(text(&result), "accepted");
    let id = {
        let seen = person.seen.lock().unwrap();
        let ElicitRequestParams::Url(link) = &seen.elicitations[0] else {
            panic!("a URL")
        };
        assert_eq!(link.url, "https://example.com/demo-consent");
        link.elicitation_id.clone().expect("an elicitation id")
    };
    person
        .wait_for("elicitation/complete", |s| {
            s.notifications.iter().any(|n| match n {
                ServerNotification::ElicitationComplete(c) => c.elicitation_id == id,
                _ => false,
            })
        })
        .await;
    client.close().await;

    let (declining, person) = connect(Script::default()).await;
    assert_eq!(
        text(&call(&declining, "open_link", json!({})).await),
        "declined"
    );
    // The completion would have come before the result: none came.
    let completions = person.count(|n| matches!(n, ServerNotification::ElicitationComplete(_)));
    assert_eq!(completions, 0);
    declining.close().await;
}

#[tokio::test]
async fn list_roots_shows_what_the_host_shares() {
    let (client, person) = connect(Script {
        roots: vec![
            Root::new("file:///home/ada/project", Some("project".into())),
            Root::new("file:///tmp/scratch", None),
        ],
        ..Script::default()
    })
    .await;
    let result = call(&client, "list_roots", json!({})).await;
    assert_eq!(
        text(&result),
        "file:///home/ada/project (project)\nfile:///tmp/scratch"
    );
    // The server hears that the roots changed, and says so in its log.
    client.notify_roots_changed().await.unwrap();
    person
        .wait_for("a log about the roots", |s| {
            s.notifications.iter().any(|n| match n {
                ServerNotification::Log(log) => log.data.to_string().contains("roots changed"),
                _ => false,
            })
        })
        .await;
    client.close().await;

    let (none, _) = connect(Script::default()).await;
    assert_eq!(
        text(&call(&none, "list_roots", json!({})).await),
        "no roots shared"
    );
    none.close().await;

    let bare = connect_as(
        Person::new(Script::default()),
        ClientCapabilities::default(),
        discard_log(),
    )
    .await;
    let result = call(&bare, "list_roots", json!({})).await;
    assert!(tool_error(&result).contains("does not share roots"));
    bare.close().await;
}

#[tokio::test]
async fn write_log_honours_the_level_the_host_sets() {
    let (client, person) = connect(Script::default()).await;
    let log = |level: &str, message: &str| {
        let client = client.clone();
        let arguments = json!({"level": level, "message": message});
        async move { text(&call(&client, "write_log", arguments).await).to_owned() }
    };
    // Info by default: debug is held back.
    assert!(log("debug", "hidden").await.starts_with("not sent"));
    assert_eq!(log("info", "shown").await, "logged");
    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .unwrap();
    assert!(
        log("info", "hidden too")
            .await
            .contains("only for warning and above")
    );
    assert_eq!(log("error", "bad").await, "logged");
    client.set_logging_level(LoggingLevel::Debug).await.unwrap();
    assert_eq!(log("debug", "fine").await, "logged");
    // Each message came before its tool's result.
    assert_eq!(
        person.logs(),
        [
            (LoggingLevel::Info, "shown".to_owned()),
            (LoggingLevel::Error, "bad".to_owned()),
            (LoggingLevel::Debug, "fine".to_owned()),
        ]
    );
    let loggers: Vec<_> = person
        .notifications()
        .into_iter()
        .filter_map(|n| match n {
            ServerNotification::Log(log) => log.logger,
            _ => None,
        })
        .collect();
    assert_eq!(loggers, ["switchboard-demo"; 3]);

    let result = call(
        &client,
        "write_log",
        json!({"level": "loud", "message": "x"}),
    )
    .await;
    assert!(tool_error(&result).contains("unknown logging level \"loud\""));
    client.close().await;
}

#[tokio::test]
async fn notes_change_the_resource_list_and_notify_subscribers() {
    let (client, person) = connect(Script::default()).await;
    let list_changes = || person.count(|n| *n == ServerNotification::ResourceListChanged);
    let updates = |uri: &str| {
        person.count(|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == uri))
    };
    let note = "demo://notes/Shopping%20list";
    client.subscribe("demo://notes").await.unwrap();

    let added = call(
        &client,
        "add_note",
        json!({"title": "Shopping list", "text": "milk"}),
    )
    .await;
    assert!(text(&added).contains(note), "{}", text(&added));
    assert_eq!((list_changes(), updates("demo://notes")), (1, 1));
    let resources = client.list_resources().await.unwrap();
    let listed = resources
        .iter()
        .find(|r| r.uri == note)
        .expect("the note is listed");
    assert_eq!(listed.mime_type.as_deref(), Some("text/plain"));
    let all = client
        .read_resource("demo://notes", client.request_options())
        .await
        .unwrap();
    let (json, mime) = resource_text(&all);
    assert_eq!(mime, Some("application/json"));
    assert_eq!(
        serde_json::from_str::<Value>(json).unwrap(),
        json!([{"title": "Shopping list", "text": "milk"}])
    );
    let one = client
        .read_resource(note, client.request_options())
        .await
        .unwrap();
    assert_eq!(resource_text(&one), ("milk", Some("text/plain")));

    let twice = call(
        &client,
        "add_note",
        json!({"title": "Shopping list", "text": "eggs"}),
    )
    .await;
    assert!(tool_error(&twice).contains("exists already"));
    assert_eq!(list_changes(), 1, "nothing changed");

    client.subscribe(note).await.unwrap();
    let deleted = call(&client, "delete_note", json!({"title": "Shopping list"})).await;
    assert_eq!(text(&deleted), r#"deleted the note "Shopping list""#);
    assert_eq!(
        (list_changes(), updates("demo://notes"), updates(note)),
        (2, 2, 1)
    );
    assert!(
        !client
            .list_resources()
            .await
            .unwrap()
            .iter()
            .any(|r| r.uri == note)
    );
    let gone = client.read_resource(note, client.request_options()).await;
    assert_eq!(server_error(gone).code, code::RESOURCE_NOT_FOUND);
    let again = call(&client, "delete_note", json!({"title": "Shopping list"})).await;
    assert!(tool_error(&again).contains("no note titled"));

    // Unsubscribed: the list still changes, but no more updates come.
    client.unsubscribe("demo://notes").await.unwrap();
    call(
        &client,
        "add_note",
        json!({"title": "Later", "text": "..."}),
    )
    .await;
    assert_eq!((list_changes(), updates("demo://notes")), (3, 2));
    client.close().await;
}

#[tokio::test]
async fn toggling_the_extra_tool_changes_the_tool_list() {
    let (client, person) = connect(Script::default()).await;
    let changes = || person.count(|n| *n == ServerNotification::ToolListChanged);
    let result = call(&client, "toggle_extra_tool", json!({})).await;
    assert!(text(&result).starts_with("extra_tool added"));
    assert_eq!(changes(), 1);
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.last().map(|t| t.name.as_str()), Some("extra_tool"));
    assert!(text(&call(&client, "extra_tool", json!({})).await).contains("extra_tool is here"));

    let result = call(&client, "toggle_extra_tool", json!({})).await;
    assert!(text(&result).starts_with("extra_tool removed"));
    assert_eq!(changes(), 2);
    assert!(
        !client
            .list_tools()
            .await
            .unwrap()
            .iter()
            .any(|t| t.name == "extra_tool")
    );
    let gone = client
        .call_tool("extra_tool", None, client.request_options())
        .await;
    assert_eq!(server_error(gone).code, code::INVALID_PARAMS);
    client.close().await;
}

#[tokio::test]
async fn resources_and_the_greeting_template_can_be_read() {
    let (client, _) = connect(Script::default()).await;
    let resources = client.list_resources().await.unwrap();
    let listed: Vec<(&str, Option<&str>)> = resources
        .iter()
        .map(|r| (r.uri.as_str(), r.mime_type.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            ("demo://readme", Some("text/markdown")),
            ("demo://notes", Some("application/json")),
            ("demo://logo.png", Some("image/png")),
        ]
    );
    assert!(
        resources
            .iter()
            .all(|r| r.title.is_some() && r.description.is_some())
    );
    let readme = client
        .read_resource("demo://readme", client.request_options())
        .await
        .unwrap();
    assert!(
        resource_text(&readme)
            .0
            .starts_with("# The Switchboard demo server")
    );
    let notes = client
        .read_resource("demo://notes", client.request_options())
        .await
        .unwrap();
    assert_eq!(resource_text(&notes).0, "[]");

    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "demo://greeting/{name}");
    let hello = client
        .read_resource("demo://greeting/Ada%20Lovelace", client.request_options())
        .await
        .unwrap();
    assert_eq!(
        resource_text(&hello),
        ("Hello, Ada Lovelace!", Some("text/plain"))
    );

    let missing = client
        .read_resource("demo://nothing", client.request_options())
        .await;
    let error = server_error(missing);
    assert_eq!(error.code, code::RESOURCE_NOT_FOUND);
    assert_eq!(
        error.data.as_deref(),
        Some(&json!({"uri": "demo://nothing"}))
    );
    let error = server_error(client.subscribe("demo://nothing").await);
    assert_eq!(error.code, code::RESOURCE_NOT_FOUND);
    client.close().await;
}

#[tokio::test]
async fn prompts_fill_in_their_arguments() {
    let (client, _) = connect(Script::default()).await;
    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["summarize", "greet"]);
    let arguments: Vec<(&str, Option<bool>)> = prompts[0]
        .arguments
        .iter()
        .flatten()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(arguments, [("text", Some(true)), ("style", Some(false))]);

    let get =
        |name: &'static str, arguments: Value| client.get_prompt(name, args(arguments).unwrap());
    let summary = get(
        "summarize",
        json!({"text": "MCP connects models to tools.", "style": "bullet points"}),
    )
    .await
    .unwrap();
    let message = summary.messages[0].content.as_text().unwrap();
    assert!(
        message.contains("bullet points") && message.ends_with("MCP connects models to tools.")
    );
    assert_eq!(summary.messages[0].role, Role::User);
    let brief = get("summarize", json!({"text": "x"})).await.unwrap();
    assert_eq!(brief.description.as_deref(), Some("A brief summary"));

    let greet = get("greet", json!({"name": "Ada"})).await.unwrap();
    assert!(greet.messages[0].content.as_text().unwrap().contains("Ada"));
    let ContentBlock::Resource(embedded) = &greet.messages[1].content else {
        panic!("{greet:?}")
    };
    assert_eq!(embedded.resource.uri(), "demo://greeting/Ada");
    assert!(matches!(&embedded.resource, ResourceContents::Text(t) if t.text == "Hello, Ada!"));

    for (name, arguments, expected) in [
        ("summarize", json!({}), "missing the argument `text`"),
        (
            "summarize",
            json!({"text": "x", "style": "haiku"}),
            "\"haiku\" is not one of",
        ),
        ("greet", json!({"name": " "}), "missing the argument `name`"),
        ("nothing", json!({}), "unknown prompt \"nothing\""),
    ] {
        let error = server_error(get(name, arguments).await);
        assert_eq!(error.code, code::INVALID_PARAMS);
        assert!(
            error.message.contains(expected),
            "{name}: {}",
            error.message
        );
    }
    client.close().await;
}

#[tokio::test]
async fn completion_suggests_styles_and_names() {
    let (client, _) = connect(Script::default()).await;
    let complete = |reference: Reference, argument: &str, typed: &str| {
        let params = CompleteRequestParams::new(reference, argument, typed);
        let client = client.clone();
        async move { client.complete(&params).await }
    };
    let values = |reference: Reference, argument: &'static str, typed: &'static str| {
        let done = complete(reference, argument, typed);
        async move { done.await.unwrap().completion.values }
    };
    let summarize = || Reference::prompt("summarize");
    let greeting = || Reference::resource("demo://greeting/{name}");
    assert_eq!(
        values(summarize(), "style", "").await,
        ["brief", "detailed", "bullet points"]
    );
    assert_eq!(
        values(summarize(), "style", "b").await,
        ["brief", "bullet points"]
    );
    assert_eq!(values(summarize(), "style", "DE").await, ["detailed"]);
    assert_eq!(values(greeting(), "name", "a").await, ["Ada", "Alan"]);
    assert_eq!(values(greeting(), "name", "Gr").await, ["Grace"]);
    assert!(values(greeting(), "name", "zz").await.is_empty());
    assert_eq!(
        values(Reference::prompt("greet"), "name", "m").await,
        ["Margaret"]
    );
    let total = complete(greeting(), "name", "").await.unwrap().completion;
    assert_eq!((total.total, total.has_more), (Some(8), Some(false)));
    let error = server_error(complete(Reference::prompt("nothing"), "x", "").await);
    assert_eq!(error.code, code::INVALID_PARAMS);
    client.close().await;
}

#[tokio::test]
async fn malformed_requests_get_clear_errors_and_the_session_survives() {
    let (client, _) = connect(Script::default()).await;
    let unknown = server_error(
        client
            .call_tool("nope", None, client.request_options())
            .await,
    );
    assert_eq!(unknown.code, code::INVALID_PARAMS);
    assert!(
        unknown.message.starts_with("unknown tool \"nope\""),
        "{}",
        unknown.message
    );
    assert!(unknown.message.contains("echo, add"), "{}", unknown.message);

    // Bad arguments are the tool's failure, with a message that names the argument.
    for (tool, arguments, expected) in [
        (
            "add",
            json!({"a": "two", "b": 3}),
            "add: `a` must be a number, not \"two\"",
        ),
        ("add", json!({"a": 2}), "add: missing the argument `b`"),
        (
            "echo",
            json!({"txt": "hi"}),
            "echo: unknown argument `txt` (it takes text)",
        ),
        (
            "echo",
            json!({"text": 7}),
            "echo: `text` must be a string, not 7",
        ),
        (
            "count_to",
            json!({"n": 0}),
            "count_to: `n` must be a whole number from 1 to 100, not 0",
        ),
        (
            "show_content_types",
            json!({"x": 1}),
            "unknown argument `x` (it takes none)",
        ),
    ] {
        let result = call(&client, tool, arguments).await;
        assert!(
            tool_error(&result).ends_with(expected),
            "{tool}: {}",
            text(&result)
        );
    }

    // Requests the server cannot read at all are protocol errors.
    let raw = |method: &'static str, params: Option<Value>| {
        let connection = client.connection().clone();
        async move {
            match connection.request(method, params, Default::default()).await {
                Err(RequestError::Server { error, .. }) => error,
                other => panic!("{method}: expected an error, got {other:?}"),
            }
        }
    };
    assert_eq!(
        raw("tools/frobnicate", None).await.code,
        code::METHOD_NOT_FOUND
    );
    assert_eq!(
        raw("tools/call", Some(json!({"arguments": 1}))).await.code,
        code::INVALID_PARAMS
    );
    let no_uri = raw("resources/read", Some(json!({}))).await;
    assert_eq!(no_uri.code, code::INVALID_PARAMS);
    assert!(no_uri.message.contains("uri"), "{}", no_uri.message);
    let bad_level = raw("logging/setLevel", Some(json!({"level": "loud"}))).await;
    assert_eq!(bad_level.code, code::INVALID_PARAMS);

    client.ping().await.unwrap();
    assert_eq!(
        text(&call(&client, "echo", json!({"text": "still here"})).await),
        "still here"
    );
    client.close().await;
}

#[tokio::test]
async fn the_server_exits_when_stdin_closes_and_writes_only_messages_to_stdout() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_switchboard-demo-server"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut next = async || {
        let line = tokio::time::timeout(WAIT, stdout.next_line())
            .await
            .unwrap()
            .unwrap();
        serde_json::from_str::<Value>(&line.expect("a line")).expect("JSON on stdout")
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "shell", "version": "0"}
    }});
    stdin
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next().await["result"]["protocolVersion"], "2025-06-18");
    // A line that is not a message is reported on stderr and answered with a parse error.
    stdin.write_all(b"hello?\n").await.unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    let refused = next().await;
    assert_eq!(
        (&refused["id"], &refused["error"]["code"]),
        (&Value::Null, &json!(-32700))
    );
    assert_eq!(
        next().await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );

    // Progress only for a request that carries a progress token.
    let count = |id: u64, meta: Value| {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "count_to", "arguments": {"n": 2, "delay_ms": 0}, "_meta": meta
        }});
        format!("{call}\n")
    };
    stdin
        .write_all(count(3, json!({})).as_bytes())
        .await
        .unwrap();
    assert_eq!(next().await["id"], 3);
    stdin
        .write_all(count(4, json!({"progressToken": "p"})).as_bytes())
        .await
        .unwrap();
    for step in [1, 2] {
        let progress = next().await;
        assert_eq!(progress["method"], "notifications/progress");
        assert_eq!(progress["params"]["progressToken"], "p");
        assert_eq!(progress["params"]["progress"], step);
    }
    assert_eq!(next().await["id"], 4);

    drop(stdin);
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("exits")
        .unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(
        stdout.next_line().await.unwrap(),
        None,
        "nothing more on stdout"
    );
    let mut log = Vec::new();
    while let Some(line) = stderr.next_line().await.unwrap() {
        log.push(line);
    }
    assert!(log.iter().any(|l| l.contains("not a message")), "{log:?}");
    assert!(log.last().is_some_and(|l| l.contains("exiting")), "{log:?}");
}
