//! The stdio transport: the server is a child process that reads messages on stdin and
//! writes them on stdout, one per line; whatever it writes to stderr is its log.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::lines::{Line, Skipping, read_line};
use super::{BoxFuture, CloseReason, Inbound, LogLine, LogSink, TransportControl, TransportParts};
use crate::jsonrpc::{Frame, FrameError, Unreadable};

/// How to start a stdio server and how patient to be with it.
#[derive(Debug, Clone)]
pub struct StdioServer {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Added to (or overriding) the inherited environment.
    pub env: Vec<(OsString, OsString)>,
    /// Whether the server gets `env` alone, nothing inherited.
    pub clear_env: bool,
    pub cwd: Option<PathBuf>,
    /// A longer line from the server is reported and skipped.
    pub max_line_bytes: usize,
    /// How many stderr lines to keep for the report of a crash.
    pub stderr_tail_lines: usize,
    /// How long a server may take to exit after its stdin closes, then after SIGTERM.
    pub exit_grace: Duration,
}

impl StdioServer {
    pub fn new(program: impl Into<OsString>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            clear_env: false,
            cwd: None,
            max_line_bytes: 64 * 1024 * 1024,
            stderr_tail_lines: 20,
            exit_grace: Duration::from_secs(2),
        }
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
}

#[derive(Debug, thiserror::Error)]
#[error("could not start {program:?}: {source}")]
pub struct SpawnError {
    pub program: OsString,
    #[source]
    pub source: std::io::Error,
}

const CHANNEL_CAPACITY: usize = 64;

/// Starts the server in its own process group and wires its pipes to channels.
pub fn spawn(server: &StdioServer, log: LogSink) -> Result<TransportParts, SpawnError> {
    let spawn_error = |source| SpawnError {
        program: server.program.clone(),
        source,
    };
    let mut command = Command::new(&server.program);
    if server.clear_env {
        command.env_clear();
    }
    command
        .args(&server.args)
        .envs(server.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group: a signal reaches the helpers it spawned too (npx, shells, ...).
        .process_group(0)
        .kill_on_drop(true);
    if let Some(cwd) = &server.cwd {
        command.current_dir(cwd);
    }
    die_with_parent(&mut command);
    let mut child = command.spawn().map_err(spawn_error)?;
    let missing = || spawn_error(std::io::Error::other("a pipe was not set up"));
    let stdin = child.stdin.take().ok_or_else(missing)?;
    let stdout = child.stdout.take().ok_or_else(missing)?;
    let stderr = child.stderr.take().ok_or_else(missing)?;
    let group = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .map(Pid::from_raw)
        .ok_or_else(|| spawn_error(std::io::Error::other("the process exited at once")))?;

    let (outgoing, to_server) = mpsc::channel::<String>(CHANNEL_CAPACITY);
    let (from_server, incoming) = mpsc::channel::<Inbound>(CHANNEL_CAPACITY);
    let (exit_tx, exit) = watch::channel(None);
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(
        server.stderr_tail_lines,
    )));

    tokio::spawn(write_messages(stdin, to_server));
    tokio::spawn(read_messages(
        stdout,
        from_server,
        server.max_line_bytes,
        log.clone(),
    ));
    let stderr_task = tokio::spawn(read_stderr(
        stderr,
        log.clone(),
        tail.clone(),
        server.stderr_tail_lines,
    ));
    tokio::spawn(async move {
        let status = child.wait().await;
        let _ = exit_tx.send(Some(status.map_err(|e| e.to_string())));
    });

    Ok(TransportParts {
        outgoing,
        incoming,
        control: Box::new(StdioControl {
            group: GroupGuard(group),
            exit,
            tail,
            stderr_task: Some(stderr_task),
            grace: server.exit_grace,
        }),
        carrier: super::Carrier::Stream,
        log,
    })
}

/// Has the kernel kill the server when the thread that started it ends: a host killed
/// outright (SIGKILL) has no time to stop its servers. The thread is a runtime worker,
/// which lives as long as the runtime; a server started from a short-lived thread (a
/// blocking-pool thread) would die with that thread. The server's own children see their
/// input close, as they do on a graceful stop.
#[allow(unsafe_code)]
fn die_with_parent(command: &mut Command) {
    let set = || nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from);
    // SAFETY: the closure runs in the child between fork and exec, and makes one system
    // call (prctl), which is async-signal-safe; it allocates nothing and takes no lock.
    unsafe {
        command.pre_exec(set);
    }
}

/// Messages already queued when one is written go out with it, in one write: under load
/// that is one system call for many messages.
const BATCH_BYTES: usize = 64 * 1024;

async fn write_messages(mut stdin: impl AsyncWrite + Unpin, mut to_server: mpsc::Receiver<String>) {
    // Grown to the size of what is written; a hundred idle servers cost a few bytes each.
    let mut batch = Vec::new();
    while let Some(line) = to_server.recv().await {
        let written = if line.len() >= BATCH_BYTES {
            // A large message is written as it is, not copied into the batch.
            write_line(&mut stdin, &line).await
        } else {
            batch.clear();
            batch.extend_from_slice(line.as_bytes());
            batch.push(b'\n');
            while batch.len() < BATCH_BYTES
                && let Ok(next) = to_server.try_recv()
            {
                batch.extend_from_slice(next.as_bytes());
                batch.push(b'\n');
            }
            stdin.write_all(&batch).await
        };
        if written.is_err() || stdin.flush().await.is_err() {
            // The server is gone; the reader reports why.
            return;
        }
        if batch.capacity() > KEEP_BUFFER_BYTES {
            batch = Vec::new();
        }
    }
    // Dropping stdin closes it: the first step of a graceful shutdown.
}

async fn write_line(stdin: &mut (impl AsyncWrite + Unpin), line: &str) -> std::io::Result<()> {
    stdin.write_all(line.as_bytes()).await?;
    stdin.write_all(b"\n").await
}

async fn read_messages(
    stdout: impl AsyncRead + Unpin,
    from_server: mpsc::Sender<Inbound>,
    max_line: usize,
    log: LogSink,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    let mut skipping = Skipping::default();
    // Whether the over-long line being skipped was reported to whoever waits for it.
    let mut told = false;
    loop {
        let inbound = match read_line(&mut reader, &mut buf, max_line, &mut skipping).await {
            Ok(Line::Complete) if buf.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(Line::Complete) => parse_line(&buf, &log),
            Ok(Line::Last) => {
                // A server that died mid-message: its exit says more than the half line.
                match parse_whole(&buf) {
                    Some(inbound) => inbound,
                    None => {
                        log(LogLine::Protocol(format!(
                            "the output ended in the middle of a message: {}",
                            excerpt(&String::from_utf8_lossy(&buf))
                        )));
                        return;
                    }
                }
            }
            Ok(Line::Overflowing { head }) => {
                let error = FrameError::TooLarge {
                    bytes: max_line + 1,
                    limit: max_line,
                };
                let unreadable = Unreadable::of_ends(&head, &[], error);
                // Told now if its start says whose it is; otherwise at its end.
                told = unreadable.id.is_some();
                if !told {
                    continue;
                }
                Inbound::Unreadable(unreadable)
            }
            Ok(Line::TooLong { bytes, head, tail }) => {
                log(LogLine::Protocol(format!(
                    "skipped a message of {bytes} bytes on stdout: longer than the limit of {max_line} bytes"
                )));
                if std::mem::take(&mut told) {
                    continue;
                }
                let error = FrameError::TooLarge {
                    bytes,
                    limit: max_line,
                };
                Inbound::Unreadable(Unreadable::of_ends(&head, &tail, error))
            }
            Ok(Line::Eof) => return,
            Err(err) => {
                log(LogLine::Protocol(format!("reading stdout failed: {err}")));
                return;
            }
        };
        // One large message must not keep its buffer for the life of the connection.
        if buf.capacity() > KEEP_BUFFER_BYTES {
            buf = Vec::new();
        }
        if from_server.send(inbound).await.is_err() {
            return;
        }
    }
}

/// The messages of a line, if it holds nothing but messages.
fn parse_whole(line: &[u8]) -> Option<Inbound> {
    let frame = Frame::decode(std::str::from_utf8(line).ok()?);
    frame
        .items
        .iter()
        .all(Result::is_ok)
        .then(|| Inbound::from(frame))
}

/// A line buffer larger than this is let go once its message is read.
const KEEP_BUFFER_BYTES: usize = 1024 * 1024;

/// The messages of one line; what is not a message is logged (and answered by the
/// connection).
fn parse_line(line: &[u8], log: &LogSink) -> Inbound {
    // Checking UTF-8 as a whole is many times faster than the lossy conversion's scan.
    let frame = match std::str::from_utf8(line) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(line),
    };
    let decoded = Frame::decode(&frame);
    for item in &decoded.items {
        if let Err(unreadable) = item {
            log(LogLine::Protocol(format!(
                "skipped a line on stdout that is not a message ({}): {}",
                unreadable.error,
                excerpt(&frame)
            )));
        }
    }
    Inbound::from(decoded)
}

/// A longer stderr line is cut to its start: a log is read by a person, and a server that
/// writes megabytes without a newline must not fill the host's memory.
pub const STDERR_LINE_BYTES: usize = 16 * 1024;

async fn read_stderr(
    stderr: tokio::process::ChildStderr,
    log: LogSink,
    tail: Arc<Mutex<VecDeque<String>>>,
    keep: usize,
) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    let mut skipping = Skipping::keeping(STDERR_LINE_BYTES);
    loop {
        let line = match read_line(&mut reader, &mut buf, STDERR_LINE_BYTES, &mut skipping).await {
            Ok(Line::Complete | Line::Last) => String::from_utf8_lossy(&buf).into_owned(),
            Ok(Line::Overflowing { .. }) => continue,
            Ok(Line::TooLong { bytes, head, .. }) => format!(
                "{}… [cut: {bytes} bytes in all]",
                String::from_utf8_lossy(&head)
            ),
            Ok(Line::Eof) | Err(_) => return,
        };
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == keep {
                tail.pop_front();
            }
            tail.push_back(line.clone());
        }
        log(LogLine::Stderr(line));
    }
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn describe(status: &Result<ExitStatus, String>) -> String {
    match status {
        Ok(status) => status.to_string(),
        Err(err) => format!("exit status unknown: {err}"),
    }
}

/// Kills the server's whole process group when the transport is dropped, so that no
/// server outlives its connection however that connection ends.
struct GroupGuard(Pid);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        let _ = killpg(self.0, Signal::SIGKILL);
    }
}

struct StdioControl {
    group: GroupGuard,
    exit: watch::Receiver<Option<Result<ExitStatus, String>>>,
    tail: Arc<Mutex<VecDeque<String>>>,
    stderr_task: Option<JoinHandle<()>>,
    grace: Duration,
}

impl StdioControl {
    /// Waits, up to the grace period, for the last stderr lines to be read.
    async fn drain_stderr(&mut self) {
        if let Some(task) = self.stderr_task.take() {
            let _ = tokio::time::timeout(self.grace, task).await;
        }
    }

    /// Waits up to `limit` for the process to exit; true if it did.
    async fn exited_within(&mut self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.exit.wait_for(Option::is_some))
            .await
            .is_ok()
    }
}

impl TransportControl for StdioControl {
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason> {
        Box::pin(async move {
            // Stdout closing usually means the process is exiting: give it a moment, and
            // let the stderr reader drain, so that the report says why.
            let exited = self.exited_within(self.grace).await;
            self.drain_stderr().await;
            let exit = if exited {
                self.exit.borrow().as_ref().map(describe)
            } else {
                None
            };
            let detail = if exited {
                "the server exited"
            } else {
                "the server closed its output"
            };
            CloseReason {
                detail: detail.into(),
                exit,
                stderr_tail: self
                    .tail
                    .lock()
                    .map(|t| t.iter().cloned().collect())
                    .unwrap_or_default(),
                unauthorized: false,
            }
        })
    }

    fn shutdown(mut self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            // Stdin is closed already (the caller dropped `outgoing`): most servers exit now.
            if !self.exited_within(self.grace).await {
                let _ = killpg(self.group.0, Signal::SIGTERM);
                if !self.exited_within(self.grace).await {
                    let _ = killpg(self.group.0, Signal::SIGKILL);
                    self.exited_within(self.grace).await;
                }
            }
            self.drain_stderr().await;
        })
    }
}

/// The other side of stdio: a server's own stdin and stdout as a transport, for servers
/// built on this engine (the bundled demo server).
pub fn own_stdio(log: LogSink) -> TransportParts {
    lines_over(tokio::io::stdin(), tokio::io::stdout(), log)
}

/// Messages as lines over any byte stream (a local socket, say), answering as a server
/// does over its own stdio: the peer is the client.
pub fn lines_over(
    reader: impl AsyncRead + Unpin + Send + 'static,
    writer: impl AsyncWrite + Unpin + Send + 'static,
    log: LogSink,
) -> TransportParts {
    let (outgoing, to_client) = mpsc::channel::<String>(CHANNEL_CAPACITY);
    let (from_client, incoming) = mpsc::channel::<Inbound>(CHANNEL_CAPACITY);
    tokio::spawn(write_messages(writer, to_client));
    tokio::spawn(read_messages(
        reader,
        from_client,
        64 * 1024 * 1024,
        log.clone(),
    ));
    TransportParts {
        outgoing,
        incoming,
        control: Box::new(OwnStdio),
        carrier: super::Carrier::Stream,
        log,
    }
}

struct OwnStdio;

impl TransportControl for OwnStdio {
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason> {
        Box::pin(async {
            CloseReason {
                detail: "the client closed stdin".into(),
                ..CloseReason::default()
            }
        })
    }

    fn shutdown(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async {})
    }
}
