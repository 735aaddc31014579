//! Serving over stdin and stdout: one message per line.

use std::io::{self, BufRead};
use std::sync::Arc;

use tokio::sync::{Mutex, mpsc};

use crate::behaviour::{self, Mode, Peer, misbehaving};
use crate::outlet::Outlet;
use crate::wire::{self, Incoming};

pub async fn serve(peer: Arc<Peer>) -> io::Result<()> {
    let stdout = Arc::new(Mutex::new(tokio::io::stdout()));
    let mut lines = read_lines(peer.mode == Mode::NeverReads);
    // The client closing stdin ends the session.
    while let Some(line) = lines.recv().await {
        let message = match Incoming::parse(&line) {
            Ok(message) => message,
            Err(e) => {
                eprintln!("hostile-peer: skipped a line that is not a message: {e}");
                continue;
            }
        };
        let out = Outlet::stdout(stdout.clone());
        match message {
            Incoming::Request { id, method } if method == "initialize" => {
                let mut out = out;
                out.message(&wire::initialize_result(&id)).await?;
                if peer.mode == Mode::NeverReads {
                    misbehaving("no longer reading stdin");
                }
            }
            // Answered side by side: an answer may wait for the client's answers to us.
            Incoming::Request { id, method } => {
                let peer = peer.clone();
                tokio::spawn(async move { behaviour::answer(&peer, id, &method, out).await });
            }
            Incoming::Notification { method }
                if method == "notifications/initialized" && peer.mode.floods() =>
            {
                tokio::spawn(behaviour::flood(peer.mode, out));
            }
            Incoming::Notification { .. } => {}
            Incoming::Response { id, message } => peer.asker.settle(&id, message),
        }
    }
    Ok(())
}

/// Lines of stdin, read on a thread of their own. With `until_initialize`, the thread
/// reads up to `initialize` (a newer revision's probe may come first: it is read and
/// refused) and then never reads again, keeping stdin open: the client's writes fill the
/// pipe.
fn read_lines(until_initialize: bool) -> mpsc::Receiver<Vec<u8>> {
    let (lines, received) = mpsc::channel(16);
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            let mut line = Vec::new();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let last = until_initialize && is_initialize(&line);
                    if lines.blocking_send(line).is_err() {
                        return;
                    }
                    if last {
                        loop {
                            std::thread::park();
                        }
                    }
                }
            }
        }
    });
    received
}

fn is_initialize(line: &[u8]) -> bool {
    matches!(Incoming::parse(line), Ok(Incoming::Request { method, .. }) if method == "initialize")
}
