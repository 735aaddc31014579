//! An in-memory transport: the other end is played by a test or an in-process server,
//! which sees exactly the JSON the client writes.

use tokio::sync::mpsc;

use super::{BoxFuture, CloseReason, Inbound, LogLine, LogSink, TransportControl, TransportParts};
use crate::jsonrpc::Frame;

/// The server's end of an in-memory transport.
pub struct MemoryPeer {
    /// Each message the client sent, as the JSON text it wrote.
    pub from_client: mpsc::Receiver<String>,
    /// Frames for the client, parsed as a stream transport would parse them.
    pub to_client: mpsc::Sender<String>,
}

const CAPACITY: usize = 64;

pub fn pair(log: LogSink) -> (TransportParts, MemoryPeer) {
    let (outgoing, from_client) = mpsc::channel(CAPACITY);
    let (to_client, mut frames) = mpsc::channel::<String>(CAPACITY);
    let (deliver, incoming) = mpsc::channel(CAPACITY);
    let reader_log = log.clone();
    tokio::spawn(async move {
        let log = reader_log;
        while let Some(frame) = frames.recv().await {
            let frame = Frame::decode(&frame);
            for unreadable in frame.items.iter().filter_map(|item| item.as_ref().err()) {
                log(LogLine::Protocol(format!(
                    "skipped a frame ({})",
                    unreadable.error
                )));
            }
            if deliver.send(Inbound::from(frame)).await.is_err() {
                return;
            }
        }
    });
    let parts = TransportParts {
        outgoing,
        incoming,
        control: Box::new(MemoryControl),
        carrier: super::Carrier::Stream,
        log,
    };
    (
        parts,
        MemoryPeer {
            from_client,
            to_client,
        },
    )
}

struct MemoryControl;

impl TransportControl for MemoryControl {
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason> {
        Box::pin(async {
            CloseReason {
                detail: "the peer closed the connection".into(),
                ..CloseReason::default()
            }
        })
    }

    fn shutdown(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async {})
    }
}
