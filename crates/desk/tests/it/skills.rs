//! Skills (SEP-2640) of the project's own demo server, run with a second skill whose
//! `SKILL.md` changed after its manifest was made: the explorer lists both by name and
//! loads only the one that matches its manifest; a model's use of a skill is the person's
//! to allow, pinned to the skill as it is, so that the second use goes unasked; and a
//! changed skill never reaches the model.

use serde_json::json;
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::reads::Read;
use switchboard_desk::explorer::ExplorerError;
use switchboard_test_support::stand_in::StandInProvider;

use crate::chat_turns::{Talk, talk_in};
use crate::common::{demo_server, desk_on, keyring};
use crate::desk_chat::{KEY, chat_until_end};

fn demo_with_a_changed_skill() -> serde_json::Value {
    json!({"demo": {
        "command": demo_server().display().to_string(),
        "env": {"SWITCHBOARD_DEMO_CHANGED_SKILL": "1"},
    }})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_lists_skills_and_loads_only_one_that_matches_its_manifest() {
    let world = desk_on(
        demo_with_a_changed_skill(),
        json!({}),
        keyring("skills-explorer"),
    )
    .await;
    let explorer = world.desk.explorer();
    let skills = explorer.skills("demo").unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["demo-tour", "changed-tour"]);
    assert_eq!(skills[0].files.len(), 2);
    assert!(!skills[0].allowed_for_models);

    let tour = explorer
        .load_skill("demo", "skill://demo-tour/SKILL.md")
        .await
        .unwrap();
    assert!(
        tour.instructions.contains("# A tour of the demo server"),
        "{}",
        tour.instructions
    );
    let changed = explorer
        .load_skill("demo", "skill://changed-tour/SKILL.md")
        .await
        .unwrap_err();
    assert!(
        matches!(&changed, ExplorerError::Skill(_))
            && changed.to_string().contains("does not match its digest"),
        "{changed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_uses_a_skill_once_the_person_allows_it_and_never_a_changed_one() {
    let load = |name: &str| {
        json!({"content": [{"tool_call": {"name": "switchboard_load_skill",
            "arguments": {"server": "demo", "name": name}}}]})
    };
    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        load("demo-tour"),
        {"content": [{"text": "Loaded."}]},
        load("demo-tour"),
        {"content": [{"text": "Loaded again."}]},
        load("changed-tour"),
        {"content": [{"text": "Not loaded."}]},
    ]}))
    .await;
    let world = desk_on(
        demo_with_a_changed_skill(),
        json!({}),
        keyring("skills-chat"),
    )
    .await;
    let Talk {
        mut world,
        chats,
        id,
        mut updates,
    } = talk_in(world, &provider, &["model-test"]).await;

    // The first use is asked, as a use of that skill, and allowed for good.
    chats
        .send_message(id, "Give me the tour".into(), None, None)
        .await
        .unwrap();
    let asked = world.asked().await;
    let Question::Read {
        read: Read::Skill { name, digest, .. },
        ..
    } = &asked.question
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(name, "demo-tour");
    assert!(digest.starts_with("sha256:"), "{digest}");
    world
        .desk
        .trust()
        .answer_read(asked.id, "demo", true, Remember::ToolAlways)
        .unwrap();
    chat_until_end(&mut updates, id).await;
    let requests = provider.requests().await;
    let tools = requests[0]["body"]["tools"].to_string();
    assert!(
        tools.contains("demo: demo-tour (Shows a newcomer"),
        "{tools}"
    );
    assert!(
        requests[1]["body"]
            .to_string()
            .contains("# A tour of the demo server")
            && requests[1]["body"]
                .to_string()
                .contains("--- skill://demo-tour/reference/tools.md ---"),
        "the skill's files went to the model"
    );
    assert!(world.desk.explorer().skills("demo").unwrap()[0].allowed_for_models);

    // The second use of the same skill, as it is, goes unasked.
    chats
        .send_message(id, "Again".into(), None, None)
        .await
        .unwrap();
    chat_until_end(&mut updates, id).await;
    assert!(world.desk.trust().pending().is_empty());
    assert!(
        provider.requests().await[3]["body"]
            .to_string()
            .contains("# A tour of the demo server")
    );

    // A skill that does not match its manifest is refused, even once allowed.
    chats
        .send_message(id, "The short one".into(), None, None)
        .await
        .unwrap();
    let asked = world.asked().await;
    world
        .desk
        .trust()
        .answer_read(asked.id, "demo", true, Remember::Once)
        .unwrap();
    chat_until_end(&mut updates, id).await;
    let last = provider.requests().await[5]["body"].to_string();
    assert!(last.contains("does not match its digest"), "{last}");
    assert!(
        !last.contains("without asking"),
        "the changed instructions never reach the model"
    );
    let audit = world.desk.activity().page(None, 10).await.unwrap();
    assert!(
        audit
            .iter()
            .any(|e| e.subject == "skill://demo-tour/SKILL.md")
    );
}
