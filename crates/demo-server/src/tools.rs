//! The tools: their catalogue, the checking of arguments, and the tools that need nothing
//! from the client. Tools that ask the client are in `ask`, the notes in `notes`.

use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::*;

use crate::arguments::{Args, Failure, ToolResult, error_result, text_result};
use crate::server::{NAME, Server};
use crate::{ask, media, notes, resources};

pub const EXTRA_TOOL: &str = "extra_tool";

/// The four behaviour hints, each set on purpose.
struct Hints {
    read_only: bool,
    destructive: bool,
    idempotent: bool,
    open_world: bool,
}

/// Reads nothing outside the server and changes nothing: safe to call any time.
const PURE: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

/// Changes nothing, but each call asks a person or a model afresh.
const ASKS: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: false,
    open_world: false,
};

fn tool(name: &str, title: &str, description: &str, input: Value, hints: Hints) -> Tool {
    Tool {
        name: name.to_owned(),
        title: Some(title.to_owned()),
        description: Some(description.to_owned()),
        input_schema: object(input),
        output_schema: None,
        annotations: Some(ToolAnnotations {
            title: None,
            read_only_hint: Some(hints.read_only),
            destructive_hint: Some(hints.destructive),
            idempotent_hint: Some(hints.idempotent),
            open_world_hint: Some(hints.open_world),
            extra: Map::new(),
        }),
        icons: None,
        execution: None,
        meta: None,
        extra: Map::new(),
    }
}

/// The JSON Schema of an object with these properties.
fn schema(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn no_arguments() -> Value {
    schema(json!({}), &[])
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Every tool offered now, in a stable order.
fn catalogue(extra_tool: bool) -> Vec<Tool> {
    let text = |description: &str| json!({"type": "string", "description": description});
    let mut add = tool(
        "add",
        "Add two numbers",
        "Adds a and b. The sum comes back both as structured output ({\"sum\": ...}, \
         described by an output schema) and as text.",
        schema(
            json!({
                "a": {"type": "number", "description": "The first number"},
                "b": {"type": "number", "description": "The second number"}
            }),
            &["a", "b"],
        ),
        PURE,
    );
    add.output_schema = Some(object(schema(
        json!({"sum": {"type": "number", "description": "a + b"}}),
        &["sum"],
    )));
    let mut tools = vec![
        tool(
            "echo",
            "Echo",
            "Sends back the text you give it, unchanged.",
            schema(json!({"text": text("The text to send back")}), &["text"]),
            PURE,
        ),
        add,
        tool(
            "show_content_types",
            "Show every content type",
            "Returns one result holding each kind of content a tool can return: text, an \
             image, a sound, an embedded resource and a link to a resource.",
            no_arguments(),
            PURE,
        ),
        tool(
            "count_to",
            "Count slowly",
            "Counts from 1 to n, waiting delay_ms between numbers and reporting progress \
             after each. Cancel it to see it stop at once.",
            schema(
                json!({
                    "n": {
                        "type": "integer", "minimum": 1, "maximum": 100,
                        "description": "Where to stop counting"
                    },
                    "delay_ms": {
                        "type": "integer", "minimum": 0, "maximum": 10000, "default": 500,
                        "description": "Milliseconds to wait before each number"
                    }
                }),
                &["n"],
            ),
            PURE,
        ),
        tool(
            "ask_model",
            "Ask the host's model",
            "Asks the host's language model a question (MCP sampling) and returns its \
             answer. The host may show you the request first and let you decline.",
            schema(
                json!({
                    "question": text("The question for the model"),
                    "model_hint": text("A model name (or part of one) the host should prefer"),
                    "temperature": {"type": "number", "minimum": 0, "maximum": 2,
                                    "description": "How freely the model answers"},
                    "stop": text("Text at which the model stops"),
                    "max_tokens": {"type": "integer", "minimum": 1,
                                   "description": "The most tokens the reply may take (200 unless set)"},
                    "use_clock": {"type": "boolean",
                                  "description": "Let the model read the demo's clock (sampling with tools)"},
                }),
                &["question"],
            ),
            ASKS,
        ),
        tool(
            "ask_user",
            "Ask you to fill in a form",
            "Asks you, through the host, for your name, age, favourite colour and whether \
             you like demos (a form elicitation), and returns what you answered.",
            no_arguments(),
            ASKS,
        ),
        tool(
            "connect_account",
            "Connect an account",
            "Refuses the first call until you have visited a page on example.com (error \
             -32042, URL elicitation required), as a server does that needs you to sign in \
             somewhere first; call it again once you have.",
            no_arguments(),
            Hints {
                open_world: true,
                ..ASKS
            },
        ),
        tool(
            "open_link",
            "Ask you to open a web page",
            "Asks you, through the host, to open https://example.com/demo-consent in your \
             browser (a URL elicitation), and returns whether you accepted.",
            no_arguments(),
            // The page is on the web, outside this server and the host.
            Hints {
                open_world: true,
                ..ASKS
            },
        ),
        tool(
            "list_roots",
            "List shared folders",
            "Asks the host which folders (roots) it shares with this server, and lists them. \
             The server never reads them.",
            no_arguments(),
            PURE,
        ),
        tool(
            "write_log",
            "Write a log message",
            "Sends a log message to the host at the level you choose. The host only \
             receives levels at or above the one it asked for (info by default).",
            schema(
                json!({
                    "level": {
                        "type": "string",
                        "enum": LoggingLevel::ALL.map(LoggingLevel::as_str),
                        "description": "How severe the message is"
                    },
                    "message": text("The message")
                }),
                &["level", "message"],
            ),
            // It adds a line to the host's log, and each call adds another.
            Hints {
                read_only: false,
                destructive: false,
                idempotent: false,
                open_world: false,
            },
        ),
        tool(
            "add_note",
            "Add a note",
            "Adds a note, kept in memory until the server stops. Each note is also a \
             resource, demo://notes/<title>. A title already in use is refused.",
            schema(
                json!({"title": text("The note's title"), "text": text("What the note says")}),
                &["title", "text"],
            ),
            // Only adds: nothing existing is changed or lost.
            Hints {
                read_only: false,
                destructive: false,
                idempotent: false,
                open_world: false,
            },
        ),
        tool(
            "delete_note",
            "Delete a note",
            "Deletes the note with this title. It cannot be undone.",
            schema(
                json!({"title": text("The title of the note to delete")}),
                &["title"],
            ),
            // Loses data; deleting twice is no worse than once.
            Hints {
                read_only: false,
                destructive: true,
                idempotent: true,
                open_world: false,
            },
        ),
        tool(
            "toggle_extra_tool",
            "Add or remove a tool",
            "Adds a tool named extra_tool, or removes it if it is there, and tells the host \
             that the tool list changed.",
            no_arguments(),
            // Changes the tool list; a second call undoes the first.
            Hints {
                read_only: false,
                destructive: false,
                idempotent: false,
                open_world: false,
            },
        ),
    ];
    if extra_tool {
        tools.push(tool(
            EXTRA_TOOL,
            "Extra tool",
            "A tool that toggle_extra_tool added; call toggle_extra_tool again to remove it.",
            no_arguments(),
            PURE,
        ));
    }
    tools
}

pub fn list(server: &Server) -> ListToolsResult {
    let extra_tool = server.state().extra_tool;
    ListToolsResult {
        tools: catalogue(extra_tool),
        next_cursor: None,
        meta: None,
        skipped: Vec::new(),
        extra: Map::new(),
    }
}

/// `tools/call`: an unknown tool is a protocol error; bad arguments and failures of the
/// tool are `isError` results.
pub async fn call(
    server: &Server,
    params: CallToolRequestParams,
) -> Result<CallToolResult, ErrorObject> {
    let tools = catalogue(server.state().extra_tool);
    let Some(tool) = tools.iter().find(|t| t.name == params.name) else {
        let offered: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        return Err(ErrorObject::new(
            code::INVALID_PARAMS,
            format!(
                "unknown tool {:?} (this server offers: {})",
                params.name,
                offered.join(", ")
            ),
        ));
    };
    let args = Args::new(&params.name, params.arguments.unwrap_or_default());
    let progress = params
        .meta
        .as_ref()
        .and_then(|meta| meta.get("progressToken"))
        .and_then(|token| serde_json::from_value::<ProgressToken>(token.clone()).ok());
    if tool.name == "connect_account" {
        return ask::connect_account(server);
    }
    let outcome = match args.unknown(tool) {
        Some(failure) => Err(failure),
        None => run(server, &args, progress).await,
    };
    Ok(outcome.unwrap_or_else(|Failure(message)| error_result(message)))
}

async fn run(server: &Server, args: &Args, progress: Option<ProgressToken>) -> ToolResult {
    match args.tool() {
        "echo" => Ok(text_result(args.string("text")?)),
        "add" => add(args),
        "show_content_types" => Ok(show_content_types()),
        "count_to" => count_to(server, args, progress).await,
        "ask_model" => ask::ask_model(server, args).await,
        "ask_user" => ask::ask_user(server).await,
        "open_link" => ask::open_link(server).await,
        "list_roots" => ask::list_roots(server).await,
        "write_log" => write_log(server, args).await,
        "add_note" => notes::add(server, args).await,
        "delete_note" => notes::delete(server, args).await,
        "toggle_extra_tool" => toggle_extra_tool(server).await,
        EXTRA_TOOL => Ok(text_result(
            "extra_tool is here. Call toggle_extra_tool to remove it.",
        )),
        other => Err(Failure(format!("{other} is listed but not implemented"))),
    }
}

fn add(args: &Args) -> ToolResult {
    let (a, b) = (args.number("a")?, args.number("b")?);
    let float = |n: &serde_json::Number| n.as_f64().unwrap_or(f64::NAN);
    // Integers stay integers (2 + 3 is 5, not 5.0) unless they overflow.
    let sum = match (a.as_i64(), b.as_i64()) {
        (Some(a), Some(b)) => a.checked_add(b).map(Value::from),
        _ => None,
    }
    .unwrap_or_else(|| json!(float(&a) + float(&b)));
    let structured = json!({ "sum": sum });
    let mut result = text_result(structured.to_string());
    result.structured_content = Some(structured);
    Ok(result)
}

fn show_content_types() -> CallToolResult {
    let media = |bytes: &[u8], mime: &str| MediaContent {
        data: media::base64(bytes),
        mime_type: mime.to_owned(),
        annotations: None,
        meta: None,
        extra: Map::new(),
    };
    CallToolResult::new(vec![
        ContentBlock::text(
            "One block of each content type follows: an image (the demo's logo, a PNG), \
             a sound (a two-note chime, a WAV), an embedded resource (demo://readme) and a \
             link to a resource (demo://logo.png).",
        ),
        ContentBlock::Image(media(media::logo_png(), media::PNG_MIME)),
        ContentBlock::Audio(media(media::chime_wav(), media::WAV_MIME)),
        ContentBlock::Resource(EmbeddedResource {
            resource: resources::readme(),
            annotations: None,
            meta: None,
            extra: Map::new(),
        }),
        ContentBlock::ResourceLink(resources::logo()),
    ])
}

/// Logs to stderr when a count stops before its end: its future was dropped because
/// the client cancelled the call.
struct Count {
    n: u64,
    done: u64,
}

impl Drop for Count {
    fn drop(&mut self) {
        if self.done < self.n {
            eprintln!(
                "{NAME}: count_to was cancelled after {} of {} steps",
                self.done, self.n
            );
        }
    }
}

async fn count_to(server: &Server, args: &Args, progress: Option<ProgressToken>) -> ToolResult {
    let n = args.integer("n", 1..=100, None)?;
    let delay = Duration::from_millis(args.integer("delay_ms", 0..=10_000, Some(500))?);
    let mut count = Count { n, done: 0 };
    for i in 1..=n {
        tokio::time::sleep(delay).await;
        count.done = i;
        // Progress only for a caller that asked for it with a token.
        if let Some(token) = &progress {
            let params = ProgressNotificationParams {
                progress_token: token.clone(),
                progress: i as f64,
                total: Some(n as f64),
                message: Some(format!("counted {i} of {n}")),
                meta: None,
                extra: Map::new(),
            };
            server.notify(method::PROGRESS, params).await;
        }
    }
    Ok(text_result(format!("counted to {n}")))
}

async fn write_log(server: &Server, args: &Args) -> ToolResult {
    let level: LoggingLevel = args
        .string("level")?
        .parse()
        .map_err(|e: UnknownLoggingLevel| args.fail(e.to_string()))?;
    let message = args.string("message")?;
    let threshold = server.state().log_level;
    if server.log(level, Value::String(message)).await {
        Ok(text_result("logged"))
    } else {
        Ok(text_result(format!(
            "not sent: the host asked only for {threshold} and above"
        )))
    }
}

async fn toggle_extra_tool(server: &Server) -> ToolResult {
    let added = {
        let mut state = server.state();
        state.extra_tool = !state.extra_tool;
        state.extra_tool
    };
    server.notify(method::TOOLS_LIST_CHANGED, ()).await;
    Ok(text_result(if added {
        "extra_tool added: the host was told that the tool list changed"
    } else {
        "extra_tool removed: the host was told that the tool list changed"
    }))
}
