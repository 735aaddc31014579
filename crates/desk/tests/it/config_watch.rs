//! The configuration file changed by hand while the app runs: a server added there starts,
//! one removed stops, a standing rule removed there no longer decides, and a file that no
//! longer reads is reported and left as it is while the last good configuration runs on.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::config::ConfigProblem;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_desk::Update;

use crate::common::{DemoDesk, demo_desk, demo_server, desk_in};

impl DemoDesk {
    /// Writes the file as a person's editor would, and waits until the desk has read it.
    async fn edit_by_hand(&mut self, text: &str) -> Option<ConfigProblem> {
        std::fs::write(&self.config, text).unwrap();
        self.read_again().await
    }

    /// Waits until the desk has read the file again; what it found wrong, if anything.
    async fn read_again(&mut self) -> Option<ConfigProblem> {
        self.next(|u| match u {
            Update::ConfigChanged { problem } => Some(problem),
            _ => None,
        })
        .await
    }

    async fn allow_next_always(&mut self) {
        let asked = self.asked().await;
        let Question::ToolCall { arguments, .. } = asked.question else {
            panic!("asked {:?}", asked.question)
        };
        self.desk
            .trust()
            .answer_tool_call(asked.id, "demo", true, arguments, Remember::ToolAlways)
            .unwrap();
    }
}

fn with_server(mut file: Value, name: &str) -> String {
    let demo = json!({"command": demo_server().display().to_string()});
    file["mcpServers"][name] = demo;
    file.to_string()
}

#[tokio::test]
async fn servers_and_rules_follow_the_file_edited_by_hand() {
    let mut world = demo_desk(json!({})).await;
    // A server added by hand starts.
    let added = with_server(world.file(), "second");
    assert_eq!(world.edit_by_hand(&added).await, None);
    world.running(&["second"]).await;
    assert_eq!(world.desk.servers().list().len(), 2);

    // A rule removed by hand no longer decides: the next call is asked. (Deleting is a
    // call the person is asked to confirm even when they make it themselves.)
    let gone = json!({"title": "none such"});
    let call = world.call("delete_note", gone.clone(), "1");
    world.allow_next_always().await;
    call.await.unwrap().unwrap();
    world
        .call("delete_note", gone.clone(), "2")
        .await
        .unwrap()
        .unwrap();
    let mut file = world.file();
    file["settings"]
        .as_object_mut()
        .unwrap()
        .remove("toolRules");
    file["mcpServers"].as_object_mut().unwrap().remove("second");
    assert_eq!(world.edit_by_hand(&file.to_string()).await, None);
    let call = world.call("delete_note", gone.clone(), "3");
    world.allow_next_always().await;
    call.await.unwrap().unwrap();
    // ... and the server removed by hand is gone.
    world
        .next(|u| {
            matches!(u, Update::Status { server, state: ServerState::Stopped, .. } if server == "second")
                .then_some(())
        })
        .await;
    assert_eq!(world.desk.servers().list().len(), 1);
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_file_broken_by_hand_is_reported_left_as_it_is_and_the_servers_run_on() {
    let mut world = demo_desk(json!({})).await;
    let good = world.file();
    let problem = world.edit_by_hand("{ \"mcpServers\": oops").await;
    assert!(
        matches!(&problem, Some(ConfigProblem::Invalid { path, line: 1, .. }) if *path == world.config.display().to_string()),
        "{problem:?}"
    );
    assert_eq!(world.desk.config_problem(), problem);
    assert_eq!(
        std::fs::read_to_string(&world.config).unwrap(),
        "{ \"mcpServers\": oops"
    );
    // The demo server runs on, and answers.
    let answer = world
        .call("echo", json!({"text": "still here"}), "echo")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer["content"][0]["text"], "still here");
    assert!(matches!(
        world.desk.servers().list()[0].state,
        Some(ServerState::Running { .. })
    ));

    // Mended, it is read again and the notice goes.
    let mended = with_server(good, "second");
    assert_eq!(world.edit_by_hand(&mended).await, None);
    assert_eq!(world.desk.config_problem(), None);
    world.running(&["second"]).await;
    world.desk.shutdown().await;
}

#[tokio::test]
async fn confirming_the_persons_own_destructive_calls_follows_the_file() {
    let mut world = demo_desk(json!({})).await;
    let gone = json!({"title": "none such"});
    // On unless the file says otherwise: deleting asks, even when the person calls it.
    let call = world.call("delete_note", gone.clone(), "1");
    let asked = world.asked().await;
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", false, Default::default(), Remember::Once)
        .unwrap();
    assert!(call.await.unwrap().is_err(), "denied");

    // Turned off by hand: the person's own call runs at once.
    let mut file = world.file();
    file["settings"]["confirmOwnDestructiveCalls"] = json!(false);
    assert_eq!(world.edit_by_hand(&file.to_string()).await, None);
    let answer = world.call("delete_note", gone, "2").await.unwrap().unwrap();
    assert_eq!(answer["isError"], true, "the server said why: {answer}");
    world.desk.shutdown().await;
}

/// A configuration file that is a link into another folder (a dotfiles repository, say) is
/// followed where it lives: an edit made there is applied.
#[tokio::test]
async fn a_file_linked_from_another_folder_is_followed_there() {
    let dotfiles = tempfile::tempdir().unwrap();
    let real = dotfiles.path().join("switchboard.json");
    let demo = json!({"command": demo_server().display().to_string()});
    let file = json!({"mcpServers": {"demo": demo}});
    std::fs::write(&real, file.to_string()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&real, dir.path().join("config.json")).unwrap();
    let mut world = desk_in(dir, Secrets::new("switchboard-test-demo-desk"));
    world.desk.start().await;
    world.running(&["demo"]).await;

    std::fs::write(&real, with_server(file, "second")).unwrap();
    assert_eq!(world.read_again().await, None);
    world.running(&["second"]).await;
}

/// An editor that saves by writing a new file and renaming it over the old one (as vim and
/// many others do) is followed as one that writes the file in place.
#[tokio::test]
async fn a_file_replaced_by_a_rename_is_followed() {
    let mut world = demo_desk(json!({})).await;
    let saved = world.config.with_file_name(".config.json.swp");
    std::fs::write(&saved, with_server(world.file(), "second")).unwrap();
    std::fs::rename(&saved, &world.config).unwrap();
    assert_eq!(world.read_again().await, None);
    world.running(&["second"]).await;
    world.desk.shutdown().await;
}
