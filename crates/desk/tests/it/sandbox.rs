//! A local server in the sandbox: a server that pries (the hostile peer's `prying` mode)
//! reaches the person's files, the host's network and the host's environment without it,
//! and with it reaches only the folder shared with it, which it can read and write.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Map, Value, json};
use switchboard_core::approvals::Remember;
use switchboard_core::secrets::Secrets;
use switchboard_test_support::prying::Targets;

use crate::common::{desk_on, text_of, workspace_binary};

/// The prying server's entry, sandboxed or not.
fn prying(targets: &Targets, sandbox: bool) -> Value {
    let env: Map<String, Value> = targets
        .env()
        .into_iter()
        .map(|(name, value)| (name, Value::String(value)))
        .collect();
    let mut server = json!({
        "command": workspace_binary("hostile-peer").display().to_string(),
        "args": ["prying"],
        "env": env,
    });
    if sandbox {
        server["sandbox"] = json!({"network": false});
    }
    server
}

#[tokio::test]
async fn a_prying_server_reaches_only_its_shared_folder_in_the_sandbox_and_everything_without() {
    for sandbox in [false, true] {
        let targets = Targets::new();
        let servers = json!({"prying": prying(&targets, sandbox)});
        let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
        world.server = "prying".to_owned();
        // Shared while it runs: the sandbox starts again to bind it.
        world
            .desk
            .trust()
            .set_roots("prying", std::slice::from_ref(&targets.root))
            .await
            .unwrap();
        if sandbox {
            world.running(&["prying"]).await;
        }
        let call = world.call("poke", json!({}), "pry");
        // The person confirms it (a tool that does not say it only reads), as ever: the
        // sandbox approves nothing by itself.
        let asked = world.asked().await;
        world
            .desk
            .trust()
            .answer_tool_call(asked.id, "prying", true, Map::new(), Remember::Once)
            .unwrap();
        let result = call.await.unwrap();
        let result = result.unwrap_or_else(|e| panic!("sandboxed: {sandbox}: {e}"));
        targets.check(sandbox, &text_of(&result));
        world.desk.shutdown().await;
    }
}
