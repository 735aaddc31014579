//! A local server in the sandbox: a server that pries (the hostile peer's `prying` mode)
//! reaches the person's files, the host's network and the host's environment without it,
//! and with it reaches only the folder shared with it, which it can read and write.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::approvals::Remember;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::LogSource;
use switchboard_desk::Update;
use switchboard_test_support::prying::Targets;

use crate::common::{DemoDesk, desk_on, text_of};

/// Calls `tool` of the world's server as the person, who confirms it (a tool that does not
/// say it only reads), as ever: the sandbox approves nothing by itself.
async fn confirmed(world: &mut DemoDesk, tool: &str, arguments: Value) -> Value {
    let call = world.call(tool, arguments.clone(), tool);
    let asked = world.asked().await;
    let arguments = arguments.as_object().cloned().unwrap();
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, &world.server, true, arguments, Remember::Once)
        .unwrap();
    call.await
        .unwrap()
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

#[tokio::test]
async fn a_prying_server_reaches_only_its_shared_folder_in_the_sandbox_and_everything_without() {
    for sandbox in [false, true] {
        let targets = Targets::new();
        let servers = json!({"prying": targets.server_entry(sandbox)});
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
        let result = confirmed(&mut world, "poke", json!({})).await;
        targets.check(sandbox, &text_of(&result));
        if sandbox {
            // Its refused connection is noted in its log as maybe the sandbox's doing.
            let note = world
                .next(|u| match u {
                    Update::Log { entry } if entry.source == LogSource::Sandbox => Some(entry.text),
                    _ => None,
                })
                .await;
            assert!(note.contains("no network"), "{note}");
        }
        world.desk.shutdown().await;
    }
}

/// A third party's server that is a Node package (server-everything, run by `node` from its
/// folder in a `node_modules`) runs in the sandbox: its package and the dependencies beside
/// it are in its view.
#[tokio::test]
async fn a_node_package_runs_sandboxed_with_its_dependencies() {
    let everything = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    let everything = everything
        .canonicalize()
        .expect("server-everything: run scripts/setup");
    let servers = json!({"everything": {
        "command": "node",
        "args": [everything.display().to_string(), "stdio"],
        "sandbox": {"network": false},
    }});
    let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
    world.server = "everything".to_owned();
    // A tool that says it only reads: the person's own call runs unasked.
    let result = world.call("echo", json!({"message": "from the sandbox"}), "echo");
    let result = result.await.unwrap().expect("the echo");
    assert!(text_of(&result).contains("from the sandbox"), "{result}");
    world.desk.shutdown().await;
}
