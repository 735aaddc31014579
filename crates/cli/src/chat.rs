//! `switchboard-cli chat`: one prompt to one of the app's models, with the app's servers,
//! providers, keys and standing rules (the same desk the window opens, on the same files),
//! the answer streamed to standard output. The conversation is kept with the app's, titled
//! after the prompt, and the audit trail names it as it names any conversation's calls.
//!
//! Standard error says what happens meanwhile: the servers that do not run, each tool call
//! and how it was decided ([`crate::approve`]), retries, and at the end why the answer
//! stopped and the tokens it took. The exit code says how it ended ([`Ending`]).

use std::io::{IsTerminal, Read};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use switchboard_chat::{ChatEvent, Ended, Outcome};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_desk::{Asking, Composed, Desk};
use switchboard_providers::{AssistantContent, Message, StopReason, Usage};
use tokio::sync::mpsc;

use crate::approve::{Approver, Terminal, say, write_whole};

#[derive(Args)]
pub struct ChatArgs {
    /// The provider to ask, as named on the Models page (default: the default provider).
    #[arg(long)]
    provider: Option<String>,
    /// The model to ask (default: the provider's default model).
    #[arg(long)]
    model: Option<String>,
    /// Let the model call this tool without asking, as `SERVER__TOOL` (repeatable).
    #[arg(long = "allow", value_name = "SERVER__TOOL")]
    allow: Vec<String>,
    /// The most tokens the answer may take.
    #[arg(long, value_name = "N")]
    max_tokens: Option<u32>,
    /// Seconds to wait for the configured servers to start.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    start_timeout: u64,
    /// The prompt; without it, standard input is read to its end.
    prompt: Option<String>,
}

/// How a chat ended, as its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// 0: the model finished its answer.
    Answered = 0,
    /// 1: the chat could not run, or the provider failed.
    Failed = 1,
    /// 3: the answer is incomplete: cut at the token limit, refused by the model, out of
    /// context, out of rounds, or stopped (Ctrl-C).
    CutShort = 3,
}

impl From<Ending> for ExitCode {
    fn from(ending: Ending) -> Self {
        Self::from(ending as u8)
    }
}

pub async fn run(args: ChatArgs) -> Ending {
    match chat(args).await {
        Ok(ending) => ending,
        Err(message) => {
            say!("switchboard-cli: {message}");
            Ending::Failed
        }
    }
}

async fn chat(args: ChatArgs) -> Result<Ending, String> {
    let prompt = prompt(args.prompt)?;
    let config = switchboard_core::config::config_path().map_err(|e| e.to_string())?;
    let audit = config.with_file_name("audit.sqlite");
    let desk = Desk::open(&config, &audit, Secrets::default()).map_err(|e| e.to_string())?;
    if let Some(problem) = desk.config_problem() {
        return Err(format!(
            "the configuration file must be fixed first: {problem}"
        ));
    }
    let approver = Approver {
        allowed: args.allow,
        terminal: Terminal::attached(),
    };
    let answering = tokio::spawn(approver.serve(desk.trust(), desk.updates()));
    start_servers(&desk, Duration::from_secs(args.start_timeout)).await;
    let ending = converse(
        &desk,
        prompt,
        Asking {
            provider: args.provider,
            model: args.model,
            max_tokens: args.max_tokens,
        },
    )
    .await;
    desk.shutdown().await;
    answering.abort();
    ending
}

/// The prompt given, else standard input read to its end.
fn prompt(given: Option<String>) -> Result<String, String> {
    let text = match given {
        Some(text) => text,
        None if std::io::stdin().is_terminal() => {
            return Err("give a prompt, or pipe one into standard input".into());
        }
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("reading the prompt from standard input: {e}"))?;
            text
        }
    };
    if text.trim().is_empty() {
        return Err("the prompt is empty".into());
    }
    Ok(text)
}

/// Starts the configured servers and waits until each has started or given up, or the
/// time is out; those not running are said.
async fn start_servers(desk: &Desk, timeout: Duration) {
    let mut events = desk.server_events();
    desk.start().await;
    let waiting = |desk: &Desk| {
        desk.servers().list().into_iter().any(|server| {
            server.enabled
                && matches!(
                    server.state,
                    None | Some(ServerState::Starting | ServerState::Restarting { .. })
                )
        })
    };
    let _ = tokio::time::timeout(timeout, async {
        while waiting(desk) {
            match events.recv().await {
                Ok(ServerEvent::Status { .. }) | Err(_) => {}
                Ok(_) => continue,
            }
        }
    })
    .await;
    for server in desk.servers().list() {
        match server.state {
            Some(ServerState::Running { .. }) => {}
            _ if !server.enabled => {}
            state => say!(
                "[server] {} is not running: {}",
                server.name,
                not_running(state)
            ),
        }
    }
}

/// Why a server does not run, in a few words.
fn not_running(state: Option<ServerState>) -> String {
    match state {
        None | Some(ServerState::Starting) => "it is still starting".into(),
        Some(state @ ServerState::Restarting { .. }) => {
            format!("it restarts after {}", state.why().unwrap_or_default())
        }
        Some(state @ ServerState::Failed { .. }) => state.why().unwrap_or_default(),
        Some(ServerState::AuthRequired { detail, .. }) => {
            format!("{detail}; sign in on the Servers page")
        }
        Some(ServerState::Stopped) => "it stopped".into(),
        Some(ServerState::Running { .. }) => "it runs".into(),
    }
}

/// One prompt in a new conversation, run to its end, its answer printed as it comes.
async fn converse(desk: &Desk, prompt: String, asking: Asking) -> Result<Ending, String> {
    let chats = desk.chats();
    let conversation = chats
        .create_conversation(None)
        .await
        .map_err(|e| e.to_string())?;
    let (events, mut received) = mpsc::channel(256);
    let composed = Composed {
        text: prompt,
        attachments: Vec::new(),
        prompt: None,
    };
    let run = chats.converse(conversation.id, composed, asking, events);
    tokio::pin!(run);
    let mut out = Answer::default();
    let outcome = loop {
        tokio::select! {
            outcome = &mut run => break outcome,
            Some(event) = received.recv() => out.follow(&event),
            _ = tokio::signal::ctrl_c() => {
                chats.stop_chat(conversation.id);
            }
        }
    };
    while let Ok(event) = received.try_recv() {
        out.follow(&event);
    }
    out.end();
    let outcome = outcome.map_err(|e| e.to_string())?;
    if let Ok(kept) = chats.conversation(conversation.id).await {
        say!("[conversation] kept as “{}”", kept.summary.title);
    }
    Ok(ending(&outcome))
}

/// What the person is told of how the run ended, and the exit code it makes.
fn ending(outcome: &Outcome) -> Ending {
    let (said, ending) = match outcome {
        Outcome::Failed { message, .. } => (format!("it failed: {message}"), Ending::Failed),
        Outcome::Finished { ended, .. } => match ended {
            Ended::Model {
                said_nothing: true,
                reason: StopReason::EndTurn,
            } => (
                "the model finished without saying anything".into(),
                Ending::Answered,
            ),
            Ended::Model { reason, .. } => stopped(reason),
            Ended::RoundLimit { rounds } => (
                format!("the model still called tools after {rounds} rounds: it was stopped there"),
                Ending::CutShort,
            ),
            Ended::Stopped => ("stopped".into(), Ending::CutShort),
        },
    };
    say!("[stop] {said}");
    say!("[usage] {}", usage(&outcome.usage()));
    ending
}

fn stopped(reason: &StopReason) -> (String, Ending) {
    match reason {
        StopReason::EndTurn | StopReason::ToolUse => {
            ("the model finished its answer".into(), Ending::Answered)
        }
        StopReason::StopSequence(_) => ("the model wrote a stop sequence".into(), Ending::Answered),
        StopReason::MaxTokens => (
            "the answer was cut off at the most tokens it may take (--max-tokens)".into(),
            Ending::CutShort,
        ),
        StopReason::Refused => (
            "the provider stopped the answer as a refusal".into(),
            Ending::CutShort,
        ),
        StopReason::ContextWindowExceeded => (
            "the conversation no longer fits in the model's context".into(),
            Ending::CutShort,
        ),
        StopReason::Other(reason) => (format!("the model stopped ({reason})"), Ending::CutShort),
    }
}

fn usage(usage: &Usage) -> String {
    format!(
        "{} tokens in, {} out",
        usage.input_tokens, usage.output_tokens
    )
}

/// The answer on standard output as it is written; the calls on standard error.
#[derive(Default)]
struct Answer {
    /// Whether the last thing written to standard output ended a line.
    mid_line: bool,
    /// Whether the model's reasoning is being written to standard error.
    thinking: bool,
    /// Each call's tool and server, by call id.
    calls: std::collections::HashMap<String, String>,
}

impl Answer {
    fn follow(&mut self, event: &ChatEvent) {
        match event {
            ChatEvent::ReasoningDelta { text } => {
                let opening = if std::mem::replace(&mut self.thinking, true) {
                    ""
                } else {
                    "[reasoning] "
                };
                write_whole(&mut std::io::stderr(), &format!("{opening}{text}"));
            }
            ChatEvent::TextDelta { text } => {
                self.end_reasoning();
                write_whole(&mut std::io::stdout(), text);
                self.mid_line = !text.ends_with('\n');
            }
            ChatEvent::Retrying {
                attempt,
                wait_ms,
                error,
                ..
            } => {
                self.end();
                say!(
                    "[retry] the provider failed ({error}); the answer starts again in {:.1} s (attempt {attempt})",
                    *wait_ms as f64 / 1000.0
                );
            }
            ChatEvent::Trimmed { images, results } => {
                self.end();
                say!(
                    "[context] the conversation is too long for the model: asked again with {images} \
                     earlier image(s) and {results} long tool result(s) left out"
                );
            }
            ChatEvent::ToolCallAwaiting {
                call_id,
                server,
                tool,
                arguments,
                ..
            } => {
                self.end();
                say!("[tool] the model calls {tool} of {server} with {arguments}");
                self.calls
                    .insert(call_id.clone(), format!("{tool} of {server}"));
            }
            ChatEvent::ToolCallResult {
                call_id, is_error, ..
            } => {
                let how = if *is_error {
                    "answered with an error"
                } else {
                    "answered"
                };
                say!("[tool] {} {how}", self.call(call_id));
            }
            ChatEvent::ToolCallDenied {
                call_id,
                decided_by,
            } => say!("[tool] {} was refused ({decided_by})", self.call(call_id)),
            ChatEvent::ToolCallFailed { call_id, error } => {
                say!("[tool] {} failed: {error}", self.call(call_id));
            }
            ChatEvent::Message {
                message: Message::Assistant(content),
                ..
            } => {
                // A call that never reached the gate (no such tool) is named as the model
                // named it.
                for part in content {
                    if let AssistantContent::ToolCall(call) = part {
                        self.calls
                            .entry(call.id.clone())
                            .or_insert_with(|| call.name.clone());
                    }
                }
            }
            // A call is said once it is whole; the terminal shows no views.
            ChatEvent::ToolCallWriting { .. }
            | ChatEvent::ToolCallWritten { .. }
            | ChatEvent::ToolCallRunning { .. }
            | ChatEvent::ToolCallProgress { .. }
            | ChatEvent::Message { .. }
            | ChatEvent::Finished { .. }
            | ChatEvent::Error { .. } => {}
        }
    }

    fn call(&self, call_id: &str) -> String {
        self.calls
            .get(call_id)
            .cloned()
            .unwrap_or_else(|| call_id.to_owned())
    }

    /// Ends the line of the reasoning, if one is open.
    fn end_reasoning(&mut self) {
        if std::mem::take(&mut self.thinking) {
            say!("");
        }
    }

    /// Ends the line of the answer (and of the reasoning), if one is open.
    fn end(&mut self) {
        self.end_reasoning();
        if std::mem::take(&mut self.mid_line) {
            write_whole(&mut std::io::stdout(), "\n");
        }
    }
}
