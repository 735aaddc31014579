//! The local socket that `switchboard-cli bridge` connects to: an agent starts the bridge
//! as an ordinary stdio MCP server, and the bridge hands its messages to the running app.
//!
//! The socket lives in the user's runtime folder (`$XDG_RUNTIME_DIR/switchboard/`, the
//! folder 0700, the socket 0600) and takes only connections of the same user. A bridge
//! first sends one line, `{"agent": "<name>"}`, then MCP messages as lines both ways.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use switchboard_mcp::transport::LogLine;
use switchboard_mcp::transport::stdio::lines_over;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::task::JoinHandle;

use crate::session::{Caller, Via, serve};
use switchboard_core::endpoint::{Hello, NoRuntimeDir};
use switchboard_desk::Agents;

/// The longest first line a bridge may send.
const MAX_HELLO: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    #[error(transparent)]
    NoRuntimeDir(#[from] NoRuntimeDir),
    #[error("another Switchboard already listens for agents at {0}")]
    InUse(PathBuf),
    #[error("the gateway's socket at {path} could not be made: {error}")]
    Io { path: PathBuf, error: io::Error },
    #[error("{0} is not a socket Switchboard left behind: it is left as it is")]
    NotOurs(PathBuf),
}

/// The desk listening for bridges; stops listening (and removes the socket) when dropped.
pub struct Listening {
    path: PathBuf,
    task: JoinHandle<()>,
}

impl Listening {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Listens at `path` for bridges, and serves each as the agent it names. A socket of the
/// user's left behind by an app that is gone is replaced; one that answers is another app's;
/// anything else there is left alone. A folder made for it is the user's alone (0700); one
/// that was there already (`SWITCHBOARD_GATEWAY_SOCKET` may name any) keeps its mode.
pub async fn listen(agents: &Agents, path: &Path) -> Result<Listening, BridgeError> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let io = |error| BridgeError::Io {
        path: path.to_owned(),
        error,
    };
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
        && !folder.exists()
    {
        std::fs::create_dir_all(folder).map_err(io)?;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    if let Ok(there) = std::fs::symlink_metadata(path) {
        if UnixStream::connect(path).await.is_ok() {
            return Err(BridgeError::InUse(path.to_owned()));
        }
        let ours = there.file_type().is_socket() && there.uid() == nix::unistd::getuid().as_raw();
        if !ours {
            return Err(BridgeError::NotOurs(path.to_owned()));
        }
        std::fs::remove_file(path).map_err(io)?;
    }
    let listener = UnixListener::bind(path).map_err(io)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
    let agents = agents.clone();
    let task = tokio::spawn(async move {
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("the gateway's socket could not accept a bridge: {e}");
                    continue;
                }
            };
            let agents = agents.clone();
            tokio::spawn(async move {
                if let Err(e) = admit(&agents, stream).await {
                    tracing::warn!("a bridge was turned away: {e}");
                }
            });
        }
    });
    Ok(Listening {
        path: path.to_owned(),
        task,
    })
}

/// Reads a bridge's hello and serves it, if it is the same user's.
async fn admit(agents: &Agents, stream: UnixStream) -> io::Result<()> {
    let same_user = stream.peer_cred()?.uid() == nix::unistd::getuid().as_raw();
    if !same_user {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "another user's bridge",
        ));
    }
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    (&mut reader)
        .take(MAX_HELLO as u64)
        .read_line(&mut line)
        .await?;
    let hello: Hello = match serde_json::from_str(line.trim_end()) {
        Ok(hello) => hello,
        Err(e) => {
            let _ = writer.shutdown().await;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not a bridge's hello: {e}"),
            ));
        }
    };
    let log = std::sync::Arc::new({
        let agent = hello.agent.clone();
        move |line: LogLine| match line {
            LogLine::Stderr(line) | LogLine::Protocol(line) => {
                tracing::warn!("agent {agent}: {line}");
            }
        }
    });
    let caller = Caller {
        agent: hello.agent,
        via: Via::Bridge,
    };
    let connection = serve(agents, caller, lines_over(reader, writer, log));
    connection.wait_closed().await;
    Ok(())
}
