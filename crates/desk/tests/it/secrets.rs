//! Secrets against the real OS keyring: the Secret Service of the session (scripts/test
//! starts a private one with scripts/with-keyring). A secret typed into the server form
//! reaches the server (a stdio server's environment, an HTTP server's headers) and never
//! the configuration file.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::json;
use switchboard_core::config::ProtocolEra;
use switchboard_core::secrets::Secrets;
use switchboard_desk::server_settings::{FormError, HttpMode, KeyValue, Transport};
use switchboard_desk::{Desk, ServerForm, ServersError};

use crate::common;

fn keyring() -> Secrets {
    assert!(
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        "no D-Bus session: run under `dbus-run-session -- scripts/with-keyring`"
    );
    // A service name of its own per test run, so that runs never see each other's secrets.
    Secrets::new(&format!("switchboard-test-{}", std::process::id()))
}

#[tokio::test]
async fn a_secret_round_trips_through_the_keyring_and_can_be_deleted() {
    let secrets = keyring();
    assert_eq!(secrets.get("api-token").await.unwrap(), None);
    secrets.set("api-token", "s3cr3t ✓").await.unwrap();
    assert_eq!(
        secrets.get("api-token").await.unwrap().as_deref(),
        Some("s3cr3t ✓")
    );
    secrets.set("api-token", "rotated").await.unwrap();
    assert_eq!(
        secrets.get("api-token").await.unwrap().as_deref(),
        Some("rotated")
    );
    assert!(secrets.delete("api-token").await.unwrap());
    assert!(!secrets.delete("api-token").await.unwrap());
    assert_eq!(secrets.get("api-token").await.unwrap(), None);
}

#[tokio::test]
async fn the_secret_is_visible_to_other_programs_of_the_session() {
    // What the keyring holds is really in the Secret Service, not in this process.
    let secrets = keyring();
    secrets.set("shared", "from-switchboard").await.unwrap();
    let service = format!("switchboard-test-{}", std::process::id());
    let out = std::process::Command::new("secret-tool")
        .args(["lookup", "service", &service, "username", "shared"])
        .output()
        .expect("secret-tool (libsecret-tools) is installed by scripts/setup");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "from-switchboard");
    secrets.delete("shared").await.unwrap();
}

#[test]
fn keyring_calls_let_other_tasks_of_the_runtime_run() {
    let secrets = keyring();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // Ticks made while each call was in flight, on the runtime's only thread.
    let during: Vec<(&str, u64)> = runtime.block_on(async {
        let ticks = Arc::new(AtomicU64::new(0));
        let ticker = tokio::spawn({
            let ticks = ticks.clone();
            async move {
                loop {
                    ticks.fetch_add(1, Ordering::Relaxed);
                    tokio::task::yield_now().await;
                }
            }
        });
        let now = || ticks.load(Ordering::Relaxed);
        let mut during = Vec::new();
        let before = now();
        secrets.set("progress", "value").await.unwrap();
        during.push(("set", now() - before));
        let before = now();
        assert_eq!(
            secrets.get("progress").await.unwrap().as_deref(),
            Some("value")
        );
        during.push(("get", now() - before));
        let before = now();
        assert!(secrets.delete("progress").await.unwrap());
        during.push(("delete", now() - before));
        ticker.abort();
        during
    });
    assert!(
        during.iter().all(|&(_, ticks)| ticks > 0),
        "another task stood still while the keyring was called: {during:?}"
    );
}

fn form_with_secret(value: &str) -> ServerForm {
    ServerForm {
        name: "vault".into(),
        transport: Transport::Stdio,
        enabled: false,
        command: "vault-server".into(),
        args: Vec::new(),
        cwd: String::new(),
        env: vec![KeyValue {
            key: "TOKEN".into(),
            value: value.into(),
            secret: true,
            stored: false,
        }],
        url: String::new(),
        http_mode: HttpMode::Auto,
        headers: Vec::new(),
        client_id: String::new(),
        client_secret: String::new(),
        client_secret_stored: false,
        client_issuer: String::new(),
        request_timeout_secs: None,
        trusted: false,
        protocol_era: ProtocolEra::Auto,
        ..ServerForm::default()
    }
}

#[tokio::test]
async fn a_forms_secret_is_stored_before_the_file_names_it_and_leaves_with_its_server() {
    let secrets = keyring();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let desk = Desk::open(&config, &dir.path().join("audit.sqlite"), secrets.clone()).unwrap();
    desk.servers()
        .save_server(None, form_with_secret("s3cr3t"))
        .await
        .unwrap();
    assert_eq!(
        secrets.get("vault/env/TOKEN").await.unwrap().as_deref(),
        Some("s3cr3t")
    );
    let written = std::fs::read_to_string(&config).unwrap();
    assert!(written.contains("vault/env/TOKEN") && !written.contains("s3cr3t"));

    // A second server of the same name is refused before the keyring is touched.
    let refused = desk
        .servers()
        .save_server(None, form_with_secret("other"))
        .await;
    assert!(
        matches!(refused, Err(ServersError::Form(FormError::Taken(_)))),
        "{refused:?}"
    );
    assert_eq!(
        secrets.get("vault/env/TOKEN").await.unwrap().as_deref(),
        Some("s3cr3t")
    );

    desk.servers().remove_server("vault").await.unwrap();
    assert_eq!(secrets.get("vault/env/TOKEN").await.unwrap(), None);
}

fn secret(key: &str, value: &str) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: value.into(),
        secret: true,
        stored: false,
    }
}

/// The rmcp peer over stdio, given `env`.
fn stdio_peer(name: &str, env: Vec<KeyValue>) -> ServerForm {
    ServerForm {
        name: name.into(),
        enabled: true,
        command: common::rmcp_peer().display().to_string(),
        args: vec!["stdio".into()],
        env,
        ..form_with_secret("")
    }
}

/// A desk on a configuration file of its own, with a keyring of its own.
fn empty_desk() -> common::DemoDesk {
    common::desk_in(tempfile::tempdir().unwrap(), common::keyring("desk"))
}

/// What the rmcp peer `server` says of `what` (`env` or `header`) named `name`.
async fn told(desk: &Desk, server: &str, what: &str, name: &str) -> String {
    let result = common::call_allowed(desk, server, what, json!({"name": name})).await;
    common::text_of(&result)
}

#[tokio::test]
async fn a_secret_saved_through_the_form_reaches_the_servers_environment_and_not_the_file() {
    const VALUE: &str = "stdio-s3cr3t-only-in-the-keyring";
    let mut world = empty_desk();
    let env = vec![
        secret("PEER_TOKEN", VALUE),
        KeyValue {
            secret: false,
            ..secret("PEER_MODE", "plain")
        },
    ];
    world
        .desk
        .servers()
        .save_server(None, stdio_peer("peer", env))
        .await
        .unwrap();
    world.running(&["peer"]).await;

    let written = std::fs::read_to_string(&world.config).unwrap();
    assert!(!written.contains(VALUE), "{written}");
    assert_eq!(
        world.file()["mcpServers"]["peer"]["env"],
        json!({"PEER_MODE": "plain", "PEER_TOKEN": {"secret": "peer/env/PEER_TOKEN"}})
    );
    assert_eq!(
        world
            .secrets
            .get("peer/env/PEER_TOKEN")
            .await
            .unwrap()
            .as_deref(),
        Some(VALUE)
    );
    assert_eq!(told(&world.desk, "peer", "env", "PEER_TOKEN").await, VALUE);
    assert_eq!(told(&world.desk, "peer", "env", "PEER_MODE").await, "plain");
    // The form shows that a value is stored, never the value.
    let form = world.desk.servers().server_form("peer").unwrap();
    assert!(
        form.env
            .iter()
            .any(|kv| kv.key == "PEER_TOKEN" && kv.stored && kv.value.is_empty()),
        "{form:?}"
    );

    // Started again from the files alone, as the app starts, the server gets it again.
    let world = world.reopen(&["peer"]).await;
    assert_eq!(told(&world.desk, "peer", "env", "PEER_TOKEN").await, VALUE);
    world.desk.servers().remove_server("peer").await.unwrap();
    assert_eq!(
        world.secrets.get("peer/env/PEER_TOKEN").await.unwrap(),
        None
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_secret_header_saved_through_the_form_reaches_the_http_server_and_not_the_file() {
    const VALUE: &str = "Bearer http-s3cr3t-only-in-the-keyring";
    let peer = common::HttpPeer::start().await;
    let mut world = empty_desk();
    let form = ServerForm {
        name: "remote".into(),
        transport: Transport::Http,
        enabled: true,
        command: String::new(),
        url: peer.url.clone(),
        http_mode: HttpMode::StreamableHttp,
        env: Vec::new(),
        headers: vec![secret("Authorization", VALUE)],
        ..form_with_secret("")
    };
    world.desk.servers().save_server(None, form).await.unwrap();
    world.running(&["remote"]).await;

    let written = std::fs::read_to_string(&world.config).unwrap();
    assert!(!written.contains("http-s3cr3t"), "{written}");
    assert_eq!(
        world.file()["mcpServers"]["remote"]["headers"],
        json!({"Authorization": {"secret": "remote/header/Authorization"}})
    );
    assert_eq!(
        told(&world.desk, "remote", "header", "authorization").await,
        VALUE
    );
    world.desk.shutdown().await;
}

/// A server named "agents" whose variable `token` is a secret, and an agent named "env":
/// each has an entry of its own. The agent's token is never the server's secret, renewing
/// it leaves the secret as it was, and removing the agent deletes only its token. A token
/// an earlier version kept for an agent among the servers' secrets is moved, not lost.
#[tokio::test]
async fn an_agents_token_and_a_servers_secret_are_never_one_entry() {
    const VALUE: &str = "the servers-own-s3cr3t";
    let mut world = empty_desk();
    world
        .desk
        .servers()
        .save_server(None, stdio_peer("agents", vec![secret("token", VALUE)]))
        .await
        .unwrap();
    world.running(&["agents"]).await;
    world.desk.agents().save("env", None).await.unwrap();
    let token = world.desk.agents().token("env").await.unwrap();
    assert!(token.starts_with("sbg_") && token != VALUE, "{token}");
    let renewed = world.desk.agents().renew_token("env").await.unwrap();
    assert_ne!(renewed, token);
    world.desk.agents().remove("env").await.unwrap();
    assert_eq!(
        world
            .secrets
            .get("agents/env/token")
            .await
            .unwrap()
            .as_deref(),
        Some(VALUE)
    );
    let world = world.reopen(&["agents"]).await;
    assert_eq!(told(&world.desk, "agents", "env", "token").await, VALUE);

    // Kept where an earlier version kept agents' tokens: the agent's configuration holds it,
    // and it goes on working.
    let earlier = format!("sbg_{}", "5a".repeat(32));
    world
        .secrets
        .set("agents/Cursor/token", &earlier)
        .await
        .unwrap();
    world.desk.agents().save("Cursor", None).await.unwrap();
    world.desk.agents().load_tokens().await.unwrap();
    let check = world.desk.agents().token_check();
    assert!(
        check.identify(&earlier).is_some(),
        "the earlier token works"
    );
    assert_eq!(world.desk.agents().token("Cursor").await.unwrap(), earlier);
    assert_eq!(
        world.secrets.get("agents/Cursor/token").await.unwrap(),
        None
    );
    world.desk.agents().remove("Cursor").await.unwrap();
    assert!(check.identify(&earlier).is_none());
    assert_eq!(
        world.secrets.agent_tokens().get("Cursor").await.unwrap(),
        None
    );
    world.desk.shutdown().await;
}
