//! `switchboard-cli`: the scripting face of Switchboard. It connects to one MCP server,
//! does one thing, prints the result as JSON on stdout, and reports the server's progress
//! and log notifications on stderr.

mod answers;
mod approve;
mod bridge;
mod chat;
mod conformance;
mod conformance_auth;
#[cfg(test)]
mod layers;
mod sign_in;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientConfig, EraSetting};
use switchboard_mcp::connection::Progress;
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogLine, LogSink, TransportParts};
use switchboard_mcp::types::{CompleteRequestParams, LoggingLevel};
use tokio_util::sync::CancellationToken;

use answers::Answers;
use switchboard_core::config::{SandboxEngine, SandboxSetting};
use switchboard_core::launch::Sandboxed;

#[derive(Parser)]
#[command(
    name = "switchboard-cli",
    version,
    about = "Switchboard from the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print where the configuration file lives.
    ConfigPath,
    /// Print the protocol revisions this build speaks, newest first, as JSON.
    Revisions,
    /// Print what the server said about itself: info, revision, capabilities, instructions.
    Info(Server),
    /// List the server's tools, resources, resource templates or prompts (every page).
    List {
        what: Listing,
        #[command(flatten)]
        server: Server,
    },
    /// Call a tool with JSON arguments. A tool that must run as a task is called as one
    /// (its status on stderr, its result on stdout).
    Call {
        tool: String,
        /// The arguments, a JSON object.
        #[arg(long, default_value = "{}")]
        args: String,
        /// Call it as a task, where the tool allows one.
        #[arg(long)]
        task: bool,
        #[command(flatten)]
        server: Server,
    },
    /// Read a resource.
    Read {
        uri: String,
        #[command(flatten)]
        server: Server,
    },
    /// Get a prompt with JSON arguments.
    Prompt {
        name: String,
        /// The arguments, a JSON object of strings.
        #[arg(long, default_value = "{}")]
        args: String,
        #[command(flatten)]
        server: Server,
    },
    /// Complete a prompt argument or a resource template variable.
    Complete {
        /// `prompt:NAME` or `template:URI-TEMPLATE`.
        reference: String,
        /// The argument (or template variable) to complete.
        argument: String,
        /// What was typed so far.
        #[arg(default_value = "")]
        value: String,
        /// Values of other arguments already chosen, a JSON object of strings.
        #[arg(long)]
        context: Option<String>,
        #[command(flatten)]
        server: Server,
    },
    /// Ping the server.
    Ping(Server),
    /// Be the stdio MCP server of an agent: its messages go to the running Switchboard,
    /// which answers with every server the agent may use, each call approved by you.
    Bridge {
        /// The agent's name, as added in Switchboard (it names the agent in every dialog).
        #[arg(long)]
        agent: String,
        /// The app's socket, if not the usual one.
        #[arg(long, value_name = "PATH")]
        socket: Option<PathBuf>,
    },
    /// Ask one of the app's models, with the app's servers: the answer on stdout, tool
    /// calls and how the answer stopped on stderr. Exit codes: 0 answered, 1 failed,
    /// 2 a bad command line, 3 the answer was cut short (token limit, refusal, full
    /// context, too many rounds, Ctrl-C).
    Chat(chat::ChatArgs),
    /// Act as the client of the official conformance suite (`MCP_CONFORMANCE_SCENARIO`).
    Conformance {
        /// The scenario server's URL (the suite passes it last).
        url: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Listing {
    Tools,
    Resources,
    Templates,
    Prompts,
}

/// Which server, and how to answer what it asks.
#[derive(Args)]
struct Server {
    /// A folder the server may see as a root (repeatable). Without any, it sees none.
    #[arg(long = "root", value_name = "DIR")]
    roots: Vec<PathBuf>,
    /// Accept form elicitations with the JSON object in this file.
    #[arg(long, value_name = "FILE", conflicts_with = "decline")]
    elicit_answer: Option<PathBuf>,
    /// Decline every elicitation (the default).
    #[arg(long)]
    decline: bool,
    /// Agree to open the link of URL elicitations (the link is printed on stderr).
    #[arg(long)]
    accept_url: bool,
    /// Answer sampling requests with this text. Without it, sampling is declined.
    #[arg(long, value_name = "TEXT")]
    sampling_reply: Option<String>,
    /// Ask the server for log messages at this level and above.
    #[arg(long, value_name = "LEVEL")]
    log_level: Option<String>,
    /// Seconds to wait for each answer; progress restarts the wait.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Seconds any request may take at most, whatever progress the server reports.
    #[arg(long, default_value_t = 600)]
    max_time: u64,
    /// Which era of the protocol to speak; `auto` probes with `server/discover` and falls
    /// back to the `initialize` handshake.
    #[arg(long, value_enum, default_value = "auto")]
    era: EraArg,
    /// The server's URL, for a server reached over HTTP.
    #[arg(long, conflicts_with = "command", required_unless_present = "command")]
    url: Option<String>,
    /// Which HTTP transport to speak; `auto` tries Streamable HTTP, then HTTP+SSE.
    #[arg(long, value_enum, default_value = "auto", requires = "url")]
    transport: Transport,
    /// When the server asks for sign-in, print its address without opening a browser.
    #[arg(long, requires = "url")]
    no_browser: bool,
    /// An HTTP header to send with every request, as `Name: value` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    headers: Vec<String>,
    /// A variable of the server's environment, as `NAME=value` (repeatable).
    #[arg(long = "env", value_name = "NAME=VALUE", requires = "command")]
    env: Vec<String>,
    /// Run the server in Switchboard's sandbox: it sees the system, its own program and the
    /// `--root` folders, an empty home, no network, and only the `--env` variables.
    #[arg(long, requires = "command")]
    sandbox: bool,
    /// Let the sandboxed server use the network.
    #[arg(long, requires = "sandbox")]
    allow_network: bool,
    /// What builds the sandbox: bubblewrap where it runs, else Landlock (`auto`), or the one
    /// named.
    #[arg(long, value_enum, default_value = "auto", requires = "sandbox")]
    sandbox_engine: EngineArg,
    /// The server's command line, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<OsString>,
}

#[derive(Clone, Copy, ValueEnum)]
enum EraArg {
    Auto,
    /// The stateless 2026-07-28 revision only.
    #[value(alias = "modern")]
    Stateless,
    /// The `initialize` handshake (2024-11-05 to 2025-11-25).
    #[value(alias = "legacy")]
    Session,
}

impl From<EraArg> for EraSetting {
    fn from(era: EraArg) -> Self {
        match era {
            EraArg::Auto => Self::Auto,
            EraArg::Stateless => Self::Stateless,
            EraArg::Session => Self::Session,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum EngineArg {
    Auto,
    Bubblewrap,
    Landlock,
}

impl From<EngineArg> for SandboxEngine {
    fn from(engine: EngineArg) -> Self {
        match engine {
            EngineArg::Auto => Self::Auto,
            EngineArg::Bubblewrap => Self::Bubblewrap,
            EngineArg::Landlock => Self::Landlock,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Transport {
    Auto,
    StreamableHttp,
    Sse,
}

type Failure = String;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::ConfigPath => switchboard_core::config::config_path()
            .map(|p| Value::String(p.display().to_string()))
            .map_err(|e| e.to_string()),
        Command::Revisions => Ok(serde_json::json!(
            switchboard_mcp::ProtocolVersion::NEWEST_FIRST.map(|v| v.as_str())
        )),
        Command::Conformance { url } => block_on(conformance::run(&url)),
        Command::Bridge { agent, socket } => {
            return run_to_end(bridge::run(&agent, socket));
        }
        Command::Chat(args) => return run_to_end(async { chat::run(args).await.into() }),
        command => {
            let result = block_on(with_server(command));
            Sandboxed::forget(&sandbox_name());
            result
        }
    };
    match result {
        Ok(Value::String(text)) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Ok(value) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("switchboard-cli: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a command that reads its standard input (or the terminal) to its end. It does not
/// wait for that read: it cannot be cancelled, and no one may ever write again (the agent
/// waiting for an answer of the bridge's; a question left on the terminal). The agent
/// learns that its server is gone when the bridge exits.
fn run_to_end(work: impl Future<Output = ExitCode>) -> ExitCode {
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => {
            let code = runtime.block_on(work);
            runtime.shutdown_background();
            code
        }
        Err(e) => {
            eprintln!("switchboard-cli: could not start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

fn block_on(work: impl Future<Output = Result<Value, Failure>>) -> Result<Value, Failure> {
    tokio::runtime::Runtime::new()
        .map_err(|e| format!("could not start the async runtime: {e}"))?
        .block_on(work)
}

async fn with_server(command: Command) -> Result<Value, Failure> {
    let server = match &command {
        Command::Info(s) | Command::Ping(s) => s,
        Command::List { server, .. }
        | Command::Call { server, .. }
        | Command::Read { server, .. }
        | Command::Prompt { server, .. }
        | Command::Complete { server, .. } => server,
        Command::ConfigPath
        | Command::Revisions
        | Command::Conformance { .. }
        | Command::Chat(_)
        | Command::Bridge { .. } => {
            unreachable!("handled without a server")
        }
    };
    let client = connect(server).await?;
    let outcome = run(&client, &command).await;
    client.close().await;
    outcome
}

/// Starts the transport the flags describe: a child process, or an HTTP server.
async fn transport(server: &Server) -> Result<TransportParts, Failure> {
    let log: LogSink = Arc::new(|line| match line {
        LogLine::Stderr(text) => eprintln!("[server stderr] {text}"),
        LogLine::Protocol(text) => eprintln!("[protocol] {text}"),
    });
    if let Some(url) = &server.url {
        let mut spec = HttpServer::new(url)
            .authorization(sign_in::authorization(url, !server.no_browser).await?);
        spec.mode = match server.transport {
            Transport::Auto => HttpMode::Auto,
            Transport::StreamableHttp => HttpMode::StreamableHttp,
            Transport::Sse => HttpMode::LegacySse,
        };
        for header in &server.headers {
            let (name, value) = header
                .split_once(':')
                .ok_or_else(|| format!("--header {header:?}: expected `Name: value`"))?;
            spec = spec.header(name.trim(), value.trim());
        }
        return http::connect(&spec, log)
            .map(|(parts, _)| parts)
            .map_err(|e| e.to_string());
    }
    let (program, args) = server
        .command
        .split_first()
        .ok_or("no server command given after `--`")?;
    let env = server
        .env
        .iter()
        .map(|pair| {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("--env {pair:?}: expected `NAME=value`"))?;
            Ok((OsString::from(name), OsString::from(value)))
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    if server.sandbox {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let roots = switchboard_core::roots::Shared {
            written: answers::folders(&server.roots)?,
            read: Vec::new(),
        };
        let name = sandbox_name();
        let sandboxed = Sandboxed {
            name: &name,
            program: std::path::Path::new(program),
            args: &args,
            roots: &roots,
            setting: SandboxSetting {
                network: server.allow_network,
                engine: server.sandbox_engine.into(),
            },
        };
        return sandboxed
            .spawn(env, None, None, log)
            .await
            .map_err(|e| e.to_string());
    }
    let mut spec = StdioServer::new(program).args(args.iter().cloned());
    spec.env = env;
    stdio::spawn(&spec, log).map_err(|e| e.to_string())
}

/// The name the sandbox keeps this run's private folders under (see `Sandboxed::forget`).
fn sandbox_name() -> String {
    format!("cli-{}", std::process::id())
}

async fn connect(server: &Server) -> Result<Client, Failure> {
    let transport = transport(server).await?;
    let answers = Answers::from_flags(server)?;
    let mut config = ClientConfig::new("switchboard-cli", env!("CARGO_PKG_VERSION"));
    config.capabilities = answers.capabilities();
    config.request_timeout = Duration::from_secs(server.timeout);
    config.max_request_time = Duration::from_secs(server.max_time);
    config.era = server.era.into();
    let client = Client::connect(transport, Arc::new(answers), config)
        .await
        .map_err(|e| e.to_string())?;
    if let Some(level) = &server.log_level {
        let level: LoggingLevel = serde_json::from_value(Value::String(level.clone()))
            .map_err(|_| format!("unknown log level {level:?}"))?;
        client
            .set_logging_level(level)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(client)
}

fn json_object(what: &str, text: &str) -> Result<Map<String, Value>, Failure> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("{what} must be a JSON object")),
        Err(e) => Err(format!("{what} is not valid JSON: {e}")),
    }
}

fn to_json<T: serde::Serialize>(value: T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// The items read, as JSON; the items left out are said on stderr.
fn listed<T: serde::Serialize>(
    listing: switchboard_mcp::types::Listing<T>,
) -> Result<Value, Failure> {
    for skipped in &listing.skipped {
        eprintln!("[protocol] {skipped}");
    }
    to_json(listing.items)
}

async fn run(client: &Client, command: &Command) -> Result<Value, Failure> {
    let fail = |e: switchboard_mcp::client::ClientError| e.to_string();
    match command {
        Command::Info(_) => Ok(serde_json::json!({
            "protocolVersion": client.protocol_version().as_str(),
            "era": client.era().era,
            "eraReason": client.era().reason.to_string(),
            "serverInfo": client.server().server_info,
            "capabilities": client.server().capabilities,
            "instructions": client.server().instructions,
        })),
        Command::Ping(_) => client
            .ping()
            .await
            .map(|()| Value::String("pong".into()))
            .map_err(fail),
        Command::List { what, .. } => match what {
            Listing::Tools => listed(client.list_tools().await.map_err(fail)?),
            Listing::Resources => listed(client.list_resources().await.map_err(fail)?),
            Listing::Templates => listed(client.list_resource_templates().await.map_err(fail)?),
            Listing::Prompts => listed(client.list_prompts().await.map_err(fail)?),
        },
        Command::Call {
            tool, args, task, ..
        } => {
            let args = json_object("--args", args)?;
            let as_task = runs_as_task(client, tool, *task).await?;
            let (progress, printer) = if as_task {
                printer(|p| format!("[task] {}", p.message.unwrap_or_default()))
            } else {
                printer(|p| {
                    let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
                    let message = p.message.map(|m| format!(" {m}")).unwrap_or_default();
                    format!("[progress] {}{total}{message}", p.progress)
                })
            };
            let mut options = client.request_options();
            options.progress = Some(progress);
            options.reset_timeout_on_progress = true;
            // Ctrl-C cancels the call at its server (the task it became, too) before the
            // command ends, rather than leaving it running there.
            let cancel = CancellationToken::new();
            options.cancel = Some(cancel.clone());
            let interrupted = tokio::spawn(async move {
                if tokio::signal::ctrl_c().await.is_ok() {
                    cancel.cancel();
                }
            });
            let result = if as_task {
                client.call_tool_as_task(tool, Some(args), options).await
            } else {
                client.call_tool(tool, Some(args), options).await
            };
            interrupted.abort();
            // The call's end drops the last sender: the printer prints what is still queued
            // (the last step often comes with the result), then ends; a second at most.
            let _ = tokio::time::timeout(Duration::from_secs(1), printer).await;
            to_json(result.map_err(fail)?)
        }
        Command::Read { uri, .. } => to_json(
            client
                .read_resource(uri, client.request_options())
                .await
                .map_err(fail)?,
        ),
        Command::Prompt { name, args, .. } => {
            let args = json_object("--args", args)?;
            to_json(client.get_prompt(name, args).await.map_err(fail)?)
        }
        Command::Complete {
            reference,
            argument,
            value,
            context,
            ..
        } => {
            let context = context
                .as_deref()
                .map(|c| json_object("--context", c))
                .transpose()?;
            let params =
                CompleteRequestParams::parse_reference(reference, argument, value, context)
                    .map_err(|e| e.to_string())?;
            to_json(client.complete(&params).await.map_err(fail)?)
        }
        Command::ConfigPath
        | Command::Revisions
        | Command::Conformance { .. }
        | Command::Chat(_)
        | Command::Bridge { .. } => {
            unreachable!("handled without a server")
        }
    }
}

/// Prints progress notifications on stderr as they arrive, each as `line` says.
fn printer(
    line: impl Fn(Progress) -> String + Send + 'static,
) -> (
    tokio::sync::mpsc::Sender<Progress>,
    tokio::task::JoinHandle<()>,
) {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Progress>(16);
    let task = tokio::spawn(async move {
        while let Some(p) = rx.recv().await {
            eprintln!("{}", line(p));
        }
    });
    (tx, task)
}

/// Whether `tool` is to be called as a task: always where it must be and its server runs
/// tasks, and where it may be when `asked`; a tool that may not be is refused when asked.
async fn runs_as_task(client: &Client, tool: &str, asked: bool) -> Result<bool, Failure> {
    if !client.runs_tool_tasks() {
        return if asked {
            Err("the server runs no tool calls as tasks".to_owned())
        } else {
            Ok(false)
        };
    }
    let listed = client.list_tools().await.map_err(|e| e.to_string())?;
    let support = listed
        .items
        .iter()
        .find(|t| t.name == tool)
        .map_or("forbidden", |t| t.task_support());
    match support {
        "required" => Ok(true),
        "optional" => Ok(asked),
        _ if asked => Err(format!("{tool} may not be called as a task")),
        _ => Ok(false),
    }
}
