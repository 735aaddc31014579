//! How `chat` answers what the gate asks the person while a model works: a tool call the
//! command line allows (`--allow SERVER__TOOL`) runs; any other, and the model's reads of
//! a server's resources, are asked on the terminal when one is attached, and refused
//! unanswered when none is (the model is told). What a server asks on its own account (a
//! sampling reply, a form, its roots, a sign-in) has no one to answer it here, and is
//! refused the same way. Standing rules answer before any of this: the gate asks only
//! what they leave open.

use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::sync::{Mutex, PoisonError};

use switchboard_core::approvals::{Pending, Question, Remember};
use switchboard_core::reads::Read;
use switchboard_desk::{Trust, Update};
use tokio::sync::broadcast;

/// One writer at a time on the person's terminal: what `chat` says on standard error, its
/// answer on standard output and the questions asked on the terminal would otherwise mix
/// mid-line (an unbuffered stream writes a formatted line in pieces).
static TERMINAL: Mutex<()> = Mutex::new(());

/// Writes `text` whole to `to` while nothing else writes to the terminal.
pub fn write_whole(to: &mut dyn Write, text: &str) {
    let _held = TERMINAL.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = to.write_all(text.as_bytes());
    let _ = to.flush();
}

/// `eprintln!`, written whole (see [`write_whole`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::approve::write_whole(&mut std::io::stderr(), &format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use say;

/// The person's terminal, when one is attached: the process's own (`/dev/tty`), so that
/// a prompt piped in or an answer piped out leaves it free to ask on.
pub struct Terminal {
    tty: File,
}

impl Terminal {
    /// The controlling terminal, if standard input or standard error is one.
    pub fn attached() -> Option<Self> {
        if !std::io::stdin().is_terminal() && !std::io::stderr().is_terminal() {
            return None;
        }
        let tty = File::options()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok()?;
        Some(Self { tty })
    }

    /// Asks `wanted` ("to call ... "); how far the answer reaches (`always` for "always"),
    /// or `None` when refused or the terminal could not be read.
    fn ask(&mut self, wanted: &str, always: Remember) -> Option<Remember> {
        let mut reader = BufReader::new(self.tty.try_clone().ok()?);
        let question = format!("The model wants {wanted}\nAllow it? [y]es once, [a]lways, [n]o: ");
        loop {
            write_whole(&mut self.tty, &question);
            let mut line = String::new();
            if reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            match line.trim().to_lowercase().as_str() {
                "y" | "yes" => return Some(Remember::Once),
                "a" | "always" => return Some(always),
                "n" | "no" => return None,
                _ => {}
            }
        }
    }
}

/// What the person said on the command line: which tools may run without asking, and
/// where to ask about the others.
pub struct Approver {
    pub allowed: Vec<String>,
    pub terminal: Option<Terminal>,
}

/// How a call was answered, as `chat` reports it on standard error.
fn said(answer: &Answered, server: &str, tool: &str) -> String {
    match answer {
        Answered::Allowed => format!("{tool} of {server} is allowed by --allow"),
        Answered::Asked(Some(_)) => format!("you allowed {tool} of {server}"),
        Answered::Asked(None) => format!("you refused {tool} of {server}"),
        Answered::NoOneToAsk => format!(
            "no terminal is attached to ask about {tool} of {server}, and no \
             --allow {server}__{tool}"
        ),
    }
}

enum Answered {
    Allowed,
    /// Asked on the terminal: how far the allowance reaches, or refused.
    Asked(Option<Remember>),
    NoOneToAsk,
}

impl Approver {
    /// Answers every question `updates` announces, until they end.
    pub async fn serve(mut self, trust: Trust, mut updates: broadcast::Receiver<Update>) {
        loop {
            match updates.recv().await {
                Ok(Update::ApprovalAdded { pending }) => self.settle(&trust, *pending).await,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    async fn settle(&mut self, trust: &Trust, pending: Pending) {
        let Question::ToolCall {
            tool, arguments, ..
        } = &pending.question
        else {
            if let Question::Read { read, .. } = &pending.question {
                let subject = match read {
                    Read::Prompt { name, .. } => format!("the prompt {name}"),
                    read => read.subject().to_owned(),
                };
                return self.settle_read(trust, &pending, &subject).await;
            }
            say!(
                "[asked] {} asked for something only the app can answer: refused",
                pending.server
            );
            let _ = trust.refuse_unasked(pending.id);
            return;
        };
        let answered = if self
            .allowed
            .contains(&format!("{}__{tool}", pending.server))
        {
            Answered::Allowed
        } else if let Some(terminal) = self.terminal.take() {
            let arguments_text = serde_json::to_string(arguments).unwrap_or_default();
            let wanted = format!("to call {tool} of {} with {arguments_text}", pending.server);
            Answered::Asked(self.ask(terminal, wanted, Remember::ToolAlways).await)
        } else {
            Answered::NoOneToAsk
        };
        say!("[tool] {}", said(&answered, &pending.server, tool));
        let answer = |allow: bool, remember: Remember| {
            trust.answer_tool_call(
                pending.id,
                &pending.server,
                allow,
                arguments.clone(),
                remember,
            )
        };
        let done = match answered {
            Answered::Allowed => answer(true, Remember::Once),
            Answered::Asked(remember) => answer(remember.is_some(), remember.unwrap_or_default()),
            Answered::NoOneToAsk => trust.refuse_unasked(pending.id),
        };
        if let Err(e) = done {
            say!("[tool] the answer did not reach the call: {e}");
        }
    }

    /// The model's read of `subject` on the pending request's server: asked on the
    /// terminal, or refused with no one to ask.
    async fn settle_read(&mut self, trust: &Trust, pending: &Pending, subject: &str) {
        let server = &pending.server;
        let Some(terminal) = self.terminal.take() else {
            say!(
                "[read] no terminal is attached to ask about reading {subject} of {server}: refused"
            );
            let _ = trust.refuse_unasked(pending.id);
            return;
        };
        let wanted = format!("to read {subject} of {server}");
        let remember = self.ask(terminal, wanted, Remember::ServerAlways).await;
        let verb = if remember.is_some() {
            "allowed"
        } else {
            "refused"
        };
        say!("[read] you {verb} reading {subject} of {server}");
        let allow = remember.is_some();
        let answered = trust.answer_read(pending.id, server, allow, remember.unwrap_or_default());
        if let Err(e) = answered {
            say!("[read] the answer did not reach the read: {e}");
        }
    }

    /// Asks on `terminal` (off the runtime: reading it blocks), which is then kept again.
    async fn ask(
        &mut self,
        mut terminal: Terminal,
        wanted: String,
        always: Remember,
    ) -> Option<Remember> {
        let (terminal, remember) = tokio::task::spawn_blocking(move || {
            let remember = terminal.ask(&wanted, always);
            (terminal, remember)
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        self.terminal = Some(terminal);
        remember
    }
}
