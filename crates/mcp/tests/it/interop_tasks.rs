//! Tasks (2025-11-25) at a TypeScript SDK server whose tool may run as one
//! (`tests/peers/node/tasks-server.mjs`): asked for as a task, the call is followed at the
//! server's pace, and the server's word that the task ended (`notifications/tasks/status`)
//! fetches its result at once, long before the next poll it asked for.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::time::Duration;

use serde_json::json;
use switchboard_mcp::client::{Client, DecliningHandler};
use switchboard_mcp::transport::stdio::{self, StdioServer};

use crate::common::http_peers::node_binary;
use crate::common::{args, first_text, workspace_root};

async fn tasks_peer() -> Client {
    let server = StdioServer::new(node_binary()).args([workspace_root()
        .join("tests/peers/node/tasks-server.mjs")
        .into_os_string()]);
    let transport = stdio::spawn(&server, crate::common::Log::default().sink()).unwrap();
    let mut config = crate::common::client_config(switchboard_mcp::client::EraSetting::Session);
    config.capabilities = switchboard_mcp::types::ClientCapabilities::all().with_tasks();
    Client::connect(transport, std::sync::Arc::new(DecliningHandler), config)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_task_that_ends_is_fetched_when_its_server_says_so_not_at_the_next_poll() {
    let client = tasks_peer().await;
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.items[0].task_support(), "optional");
    // The server asks to be polled every 30 s, and the task ends after 200 ms: only its
    // status notification brings the result within 20 s.
    let result = tokio::time::timeout(
        Duration::from_secs(20),
        client.call_tool_as_task(
            "slow-report",
            args(json!({"ms": 200})),
            client.request_options(),
        ),
    )
    .await
    .expect("the status notification woke the client")
    .unwrap();
    assert_eq!(first_text(&result), "Report ready after 200 ms");
}
