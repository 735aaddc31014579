//! An entry Switchboard writes to another app's configuration file (Claude Code, Claude
//! Desktop, Cursor, VS Code) is started as that app would start it, an official SDK client
//! over it, and lists the tools of the servers through Switchboard's gateway.
//!
//! Needs `cargo build -p switchboard-demo-server -p switchboard-cli` and `scripts/setup` (the
//! TypeScript SDK peer).

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};
use switchboard_core::agent_setup::{APPS, Bridge, Home};
use switchboard_gateway::bridge;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_written_entry_reaches_the_servers_through_switchboard() {
    let world = demo_desk(json!({})).await;
    let desk = &world.desk;
    desk.agents().save("Cursor", None).await.unwrap();
    let socket = world.dir.path().join("gateway.sock");
    let _listening = bridge::listen(&desk.agents(), &socket).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let home = Home::at(home.path());
    let bridge = Bridge {
        program: workspace_binary("switchboard-cli").display().to_string(),
        socket: Some(socket),
    };
    desk.agents().set_setup_places(home.clone(), bridge);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let agent = root.join("tests/peers/node/gateway-agent.mjs");
    for app in APPS {
        let plan = desk.agents().setup_plan(app, "Cursor").await.unwrap();
        desk.agents().setup_apply(&plan).await.unwrap();
        let (command, args) = command_in(app, &app.path(&home));
        // The official TypeScript SDK client starts the entry's command, as the app would.
        let mut child = tokio::process::Command::new("node")
            .arg(&agent)
            .arg("--")
            .arg(&command)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut next = async || -> Value {
            let line = tokio::time::timeout(WAIT, lines.next_line()).await;
            serde_json::from_str(&line.unwrap().unwrap().unwrap()).unwrap()
        };
        let connected = next().await;
        assert_eq!(connected["event"], "connected", "{app:?}: {connected}");
        stdin
            .write_all(b"{\"op\": \"list_tools\", \"id\": \"tools\"}\n")
            .await
            .unwrap();
        let listed = loop {
            let line = next().await;
            if line["id"] == "tools" {
                break line;
            }
        };
        let tools: Vec<&str> = listed["ok"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{app:?}: {listed}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(tools.contains(&"demo__echo"), "{app:?}: {tools:?}");
    }
}
