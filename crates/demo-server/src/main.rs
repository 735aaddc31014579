//! Switchboard's bundled demo MCP server: every feature of the protocol, over stdio, on
//! Switchboard's own engine, with no network and no files. Diagnostics go to stderr.

mod arguments;
mod ask;
mod handler;
#[cfg(test)]
mod layers;
mod media;
mod notes;
mod prompts;
mod resources;
mod server;
mod skills;
mod tools;

use std::sync::Arc;

use switchboard_mcp::connection::Connection;
use switchboard_mcp::server::handler::Dispatch;
use switchboard_mcp::transport::stdio::own_stdio;
use switchboard_mcp::transport::{LogLine, LogSink};

use crate::handler::Handler;
use crate::server::{NAME, Server};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let log: LogSink = Arc::new(|line| match line {
        LogLine::Stderr(line) | LogLine::Protocol(line) => eprintln!("{NAME}: {line}"),
    });
    let server = Server::new();
    let connection = Connection::start(
        own_stdio(log),
        Arc::new(Dispatch::new(Handler(server.clone()))),
    );
    server.attach(connection.clone());
    let reason = connection.wait_closed().await;
    eprintln!("{NAME}: {reason}; exiting");
}
