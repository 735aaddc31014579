//! Tools turned off in a server's entry (`disabledTools`): hidden from the catalog and from
//! a model, refused if called anyway, and turned on again by editing the file, without the
//! server being restarted.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::server_events::ServerState;
use switchboard_desk::{ExplorerError, Offers, ServersError, Update};

use crate::common;
use crate::common::{demo_server, desk_on, keyring, text_of};

fn tool_names(catalog: &Offers) -> Vec<String> {
    let offer = catalog.of("demo").unwrap();
    offer.tools.iter().map(|t| t.name.clone()).collect()
}

#[tokio::test]
async fn a_tool_turned_off_is_hidden_refused_and_turned_on_again_without_a_restart() {
    let demo = json!({"command": demo_server().display().to_string(), "disabledTools": ["echo"]});
    let mut world = desk_on(json!({"demo": demo}), json!({}), keyring("disabled")).await;
    let names = tool_names(&world.desk.explorer().catalog());
    assert!(!names.contains(&"echo".to_owned()), "{names:?}");
    assert!(names.contains(&"add_note".to_owned()));
    let refused = world
        .call("echo", json!({"text": "hi"}), "echo")
        .await
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(&refused, ExplorerError::ToolDisabled { tool, .. } if tool == "echo"),
        "{refused}"
    );
    assert!(refused.to_string().contains("turned off"), "{refused}");
    // Nor is a model offered it.
    let conversation = world.desk.chats().create_conversation(None).await.unwrap();
    let offered = world
        .desk
        .chats()
        .chat_tools(conversation.id)
        .await
        .unwrap();
    let offered: Vec<&str> = offered
        .servers
        .iter()
        .flat_map(|s| s.tools.iter().map(|t| t.name.as_str()))
        .collect();
    assert!(
        !offered.contains(&"echo") && offered.contains(&"add_note"),
        "{offered:?}"
    );

    // Turned on in the file: offered again, and the server was not restarted for it.
    let since = world.desk.servers().list()[0].since_ms;
    let mut file = world.file();
    file["mcpServers"]["demo"]
        .as_object_mut()
        .unwrap()
        .remove("disabledTools");
    std::fs::write(&world.config, file.to_string()).unwrap();
    // The window is told the catalog changed, as it would be by the server.
    world
        .next(|u| matches!(u, Update::CatalogChanged { server } if server == "demo").then_some(()))
        .await;
    assert!(tool_names(&world.desk.explorer().catalog()).contains(&"echo".to_owned()));
    let result = world
        .call("echo", json!({"text": "back"}), "back")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(text_of(&result), "back");
    let demo = &world.desk.servers().list()[0];
    assert!(matches!(demo.state, Some(ServerState::Running { .. })));
    assert_eq!(demo.since_ms, since, "not restarted");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn the_windows_switch_turns_a_tool_off_and_on_and_keeps_it_in_the_file() {
    let demo = json!({"command": demo_server().display().to_string()});
    let mut world = desk_on(json!({"demo": demo}), json!({}), keyring("switches")).await;
    let on = |world: &common::DemoDesk, name: &str| {
        let tools = world.desk.servers().server_tools("demo").unwrap();
        tools.iter().find(|t| t.name == name).map(|t| t.on)
    };
    assert_eq!(on(&world, "echo"), Some(true));

    world
        .desk
        .servers()
        .set_tool_enabled("demo", "echo", false)
        .await
        .unwrap();
    world
        .next(|u| matches!(u, Update::CatalogChanged { server } if server == "demo").then_some(()))
        .await;
    assert_eq!(on(&world, "echo"), Some(false), "still listed, shown off");
    assert!(!tool_names(&world.desk.explorer().catalog()).contains(&"echo".to_owned()));
    assert_eq!(
        world.file()["mcpServers"]["demo"]["disabledTools"],
        json!(["echo"])
    );
    let refused = world
        .call("echo", json!({"text": "hi"}), "echo")
        .await
        .unwrap();
    assert!(matches!(refused, Err(ExplorerError::ToolDisabled { .. })));

    world
        .desk
        .servers()
        .set_tool_enabled("demo", "echo", true)
        .await
        .unwrap();
    assert_eq!(on(&world, "echo"), Some(true));
    assert!(
        world.file()["mcpServers"]["demo"]
            .get("disabledTools")
            .is_none()
    );
    let result = world
        .call("echo", json!({"text": "on"}), "on")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(text_of(&result), "on");
    let unknown = world
        .desk
        .servers()
        .set_tool_enabled("nobody", "echo", false)
        .await;
    assert!(matches!(unknown, Err(ServersError::NoServer(_))));
    world.desk.shutdown().await;
}
