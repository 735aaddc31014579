//! How long the host waits for a server's answer: the server's own `requestTimeoutSecs`,
//! or else the one in the host's settings. With the demo server's slow counting tool.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::sync::Arc;

use serde_json::json;
use switchboard_core::config::{Config, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_mcp::client::{ClientError, DecliningHandler};
use switchboard_mcp::connection::RequestError;

use crate::common::{WAIT, demo_server};

fn demo(request_timeout_secs: Option<u64>) -> ServerConfig {
    ServerConfig {
        command: Some(demo_server().display().to_string()),
        request_timeout_secs,
        ..ServerConfig::default()
    }
}

#[tokio::test]
async fn a_server_without_its_own_timeout_waits_as_long_as_the_host_settings_say() {
    let mut config = Config {
        servers: [
            ("quick".to_owned(), demo(None)),
            ("patient".to_owned(), demo(Some(30))),
        ]
        .into(),
        ..Config::default()
    };
    config.settings.request_timeout_secs = 1;
    let mut host = Fleet::new(Secrets::new("switchboard-test-timeout"), |_| {
        Arc::new(DecliningHandler)
    });
    let mut events = host.events();
    host.reconcile(&config);
    let mut running = 0;
    tokio::time::timeout(WAIT, async {
        while running < 2 {
            if let Ok(ServerEvent::Status {
                state: ServerState::Running { .. },
                ..
            }) = events.recv().await
            {
                running += 1;
            }
        }
    })
    .await
    .expect("both servers run");

    // Three seconds of counting, with no progress reported.
    let slow = json!({"n": 2, "delay_ms": 1500}).as_object().cloned();
    let quick = host.client("quick").unwrap();
    let waited = quick
        .call_tool("count_to", slow.clone(), quick.request_options())
        .await
        .unwrap_err();
    assert!(
        matches!(waited, ClientError::Request(RequestError::Timeout { .. })),
        "{waited}"
    );
    let patient = host.client("patient").unwrap();
    patient
        .call_tool("count_to", slow, patient.request_options())
        .await
        .unwrap();
    host.shutdown().await;
}
