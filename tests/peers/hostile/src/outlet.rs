//! Where an answer goes and how it is framed there: lines on stdout, one JSON body, or an
//! event stream. The modes say what to write; the outlet knows what that looks like on
//! its transport, including how to get it wrong.

use std::io;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::channel::Sender;
use serde_json::Value;
use tokio::io::{AsyncWriteExt, Stdout};
use tokio::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One message per line (stdio).
    Lines,
    /// An HTTP body holding exactly one message.
    Body,
    /// Server-sent events, one message per event.
    Events,
}

pub type BodySender = Sender<Bytes, io::Error>;

pub struct Outlet {
    framing: Framing,
    sink: Sink,
}

enum Sink {
    /// Shared by every answer and the flood: each write holds it.
    Stdout(Arc<Mutex<Stdout>>),
    /// One response body; `None` once it has ended.
    Body(Option<BodySender>),
}

/// A chunk of the huge answer's text, shared by every write of it.
const CHUNK: usize = 1 << 20;

impl Outlet {
    pub fn stdout(stdout: Arc<Mutex<Stdout>>) -> Self {
        Self {
            framing: Framing::Lines,
            sink: Sink::Stdout(stdout),
        }
    }

    pub fn body(framing: Framing, sender: BodySender) -> Self {
        Self {
            framing,
            sink: Sink::Body(Some(sender)),
        }
    }

    /// Appends one framed message to `into`.
    pub fn frame(&self, json: &str, into: &mut Vec<u8>) {
        match self.framing {
            Framing::Lines => {
                into.extend_from_slice(json.as_bytes());
                into.push(b'\n');
            }
            Framing::Body => into.extend_from_slice(json.as_bytes()),
            Framing::Events => {
                into.extend_from_slice(b"data: ");
                into.extend_from_slice(json.as_bytes());
                into.extend_from_slice(b"\n\n");
            }
        }
    }

    /// Sends one message; a JSON body ends with it.
    pub async fn message(&mut self, message: &Value) -> io::Result<()> {
        let mut framed = Vec::new();
        self.frame(&message.to_string(), &mut framed);
        self.write(Bytes::from(framed)).await?;
        if self.framing == Framing::Body {
            self.end();
        }
        Ok(())
    }

    /// Writes bytes as they are.
    pub async fn write(&mut self, bytes: Bytes) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(stdout) => {
                let mut stdout = stdout.lock().await;
                stdout.write_all(&bytes).await?;
                stdout.flush().await
            }
            Sink::Body(Some(sender)) => sender.send_data(bytes).await.map_err(|_| gone()),
            Sink::Body(None) => Err(gone()),
        }
    }

    /// Things that are no message, as they look on this transport: stray lines and bytes
    /// that are not UTF-8 on stdio, stray lines and broken events in an event stream.
    pub async fn garbage(&mut self) -> io::Result<()> {
        let pieces: &[&[u8]] = match self.framing {
            Framing::Lines => &[
                b"Starting hostile server v0.0.0...\n",
                b"\xff\xfe\xfd not UTF-8 \xc3\x28\n",
                b"{\"jsonrpc\":\"2.0\",\"id\":\n",
                b"[1, 2, 3]\n",
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"\xff\xfe\"}}\n",
                b"\x00\x01\x1b[31mred\x1b[0m\n",
            ],
            Framing::Events => &[
                b"this line is no field\n",
                b"data: not JSON\n\n",
                b"data: \xff\xfe\xfd not UTF-8\n\n",
                b"event: mystery\ndata: {}\n\n",
                b": a comment\nretry: soon\n\n",
            ],
            Framing::Body => &[b"garbage in a JSON body"],
        };
        for piece in pieces {
            self.write(Bytes::from_static(piece)).await?;
        }
        Ok(())
    }

    /// An answer to `id` of `size` bytes in all, written as it goes. On stdio the line
    /// never ends (no closing quote, no newline); over HTTP it is a complete, valid answer.
    pub async fn huge_answer(&mut self, id: &Value, size: u64) -> io::Result<()> {
        let head = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":""#
        );
        let (open, close): (&str, &str) = match self.framing {
            Framing::Lines => ("", ""),
            Framing::Body => ("", r#""}]}}"#),
            Framing::Events => ("data: ", "\"}]}}\n\n"),
        };
        self.write(Bytes::from(format!("{open}{head}"))).await?;
        let around = (open.len() + head.len() + close.len()) as u64;
        let mut left = size.saturating_sub(around);
        let chunk = Bytes::from(vec![b'x'; CHUNK]);
        while left > 0 {
            let take = left.min(CHUNK as u64) as usize;
            self.write(chunk.slice(..take)).await?;
            left -= take as u64;
        }
        self.write(Bytes::from_static(close.as_bytes())).await?;
        self.end();
        Ok(())
    }

    /// Writes the first half of `message`, then breaks off: on stdio the process exits,
    /// over HTTP the connection is dropped mid-body.
    pub async fn crash_mid(&mut self, message: &Value) -> io::Result<()> {
        let mut framed = Vec::new();
        self.frame(&message.to_string(), &mut framed);
        framed.truncate(framed.len() / 2);
        self.write(Bytes::from(framed)).await?;
        match &mut self.sink {
            Sink::Stdout(_) => {
                eprintln!("hostile-peer: crashing in the middle of an answer");
                std::process::exit(3);
            }
            Sink::Body(sender) => {
                let Some(mut sender) = sender.take() else {
                    return Ok(());
                };
                // The body holds one frame: this empty one (which hyper skips) waits until
                // the half was taken, and on this peer's one thread hyper has flushed it by
                // then. Aborting sooner could drop the half before it reached the client.
                sender.send_data(Bytes::new()).await.map_err(|_| gone())?;
                sender.abort(io::Error::other("dropped in the middle of an answer"));
                Ok(())
            }
        }
    }

    /// Ends an HTTP body (stdout stays open for the other answers).
    pub fn end(&mut self) {
        if let Sink::Body(sender) = &mut self.sink {
            sender.take();
        }
    }
}

fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the client went away")
}
