//! Secrets in web addresses stay out of what the window shows: a server whose URL holds a
//! token is listed, fails and logs with the token masked.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::server_events::ServerState;
use switchboard_desk::Update;

use crate::common::demo_desk;

#[tokio::test]
async fn a_token_in_a_servers_url_is_masked_in_its_listing_state_and_log() {
    let mut world = demo_desk(json!({})).await;
    // A port nothing listens on: every attempt to connect is refused at once.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp?token=s3cret&page=2");
    let mut form = world.desk.servers().server_form("demo").unwrap();
    form.name = "remote".into();
    form.transport = switchboard_desk::server_settings::Transport::Http;
    form.command = String::new();
    form.url = url.clone();
    world.desk.servers().save_server(None, form).await.unwrap();

    let reason = world
        .next(|u| match u {
            Update::Status {
                server,
                state: ServerState::Restarting { reason, .. },
                ..
            } if server == "remote" => Some(reason.to_string()),
            _ => None,
        })
        .await;
    let masked = format!("http://127.0.0.1:{port}/mcp?token=…&page=2");
    assert!(reason.contains(&masked), "{reason}");
    let listed = world.desk.servers().list();
    let remote = listed.iter().find(|s| s.name == "remote").unwrap();
    assert_eq!(remote.target, masked);
    let state = serde_json::to_string(&remote.state).unwrap();
    assert!(!state.contains("s3cret"), "{state}");
    for entry in world.desk.servers().log_of("remote") {
        assert!(!entry.text.contains("s3cret"), "{}", entry.text);
    }
    // The form the person edits still holds the whole address.
    assert_eq!(world.desk.servers().server_form("remote").unwrap().url, url);
    world.desk.shutdown().await;
}
