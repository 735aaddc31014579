//! `switchboard-cli bridge --agent NAME`: an ordinary stdio MCP server for an agent to
//! start, which hands the agent's messages to the running Switchboard through its local
//! socket (see `switchboard_gateway::bridge`, `switchboard_core::endpoint`) and the answers back, byte for byte.
//! With no Switchboard to reach, it answers the agent's first request with an error that
//! says so (and says it on stderr), then exits with a failure.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use switchboard_core::endpoint::{Hello, socket_path};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

/// The JSON-RPC error code of the answer that says Switchboard is not there.
const NOT_RUNNING: i64 = -32000;

pub async fn run(agent: &str, socket: Option<PathBuf>) -> ExitCode {
    let path = match socket.map_or_else(socket_path, Ok) {
        Ok(path) => path,
        Err(e) => return refuse(&format!("Switchboard cannot be reached: {e}")).await,
    };
    let stream = match UnixStream::connect(&path).await {
        Ok(stream) => stream,
        Err(e) => {
            let reason = format!(
                "Switchboard is not running (nothing answers at {}: {e}); start Switchboard, then restart this MCP server",
                path.display()
            );
            return refuse(&reason).await;
        }
    };
    let (from_app, mut to_app) = stream.into_split();
    let mut hello = serde_json::to_string(&Hello {
        agent: agent.to_owned(),
    })
    .unwrap_or_default();
    hello.push('\n');
    if let Err(e) = to_app.write_all(hello.as_bytes()).await {
        return refuse(&format!("Switchboard closed the connection at once: {e}")).await;
    }
    let agent_done = Arc::new(AtomicBool::new(false));
    tokio::spawn({
        let agent_done = agent_done.clone();
        async move {
            let _ = pipe(tokio::io::stdin(), &mut to_app).await;
            // The agent is done: the app ends the session and closes its side.
            agent_done.store(true, Ordering::SeqCst);
            let _ = to_app.shutdown().await;
        }
    });
    let downstream = pipe(from_app, tokio::io::stdout()).await;
    if agent_done.load(Ordering::SeqCst) {
        return ExitCode::SUCCESS;
    }
    match downstream {
        Ok(()) => eprintln!(
            "switchboard-cli bridge: Switchboard closed the connection (did the app quit?)"
        ),
        Err(e) => eprintln!("switchboard-cli bridge: the connection to Switchboard failed: {e}"),
    }
    ExitCode::FAILURE
}

/// Copies everything from `from` to `to`, each chunk sent on at once.
async fn pipe(
    mut from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
) -> std::io::Result<()> {
    let mut buf = vec![0; 64 * 1024];
    loop {
        let n = from.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        to.write_all(&buf[..n]).await?;
        to.flush().await?;
    }
}

/// Tells the agent why there is no Switchboard: on stderr, and as the error answering each
/// of its requests (an agent of the stateless revision asks `server/discover` first, then,
/// refused, may try `initialize`); fails once the agent lets go.
async fn refuse(reason: &str) -> ExitCode {
    eprintln!("switchboard-cli bridge: {reason}");
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message
            .get("id")
            .filter(|_| message.get("method").is_some())
        else {
            continue;
        };
        let answer =
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": NOT_RUNNING, "message": reason}});
        let _ = stdout.write_all(format!("{answer}\n").as_bytes()).await;
        let _ = stdout.flush().await;
    }
    ExitCode::FAILURE
}
