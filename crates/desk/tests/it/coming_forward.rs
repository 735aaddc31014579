//! Which requests come forward as a dialog at once and which wait in the list for the
//! person to pick them: a server that asks on its own (server-everything asks which folders
//! it may see as soon as it starts) waits; a request made during a call its server serves
//! comes forward naming that call and whose it is (a call still waiting for a decision is
//! not served), and so does a model's tool call put to the person. A server that asks for
//! its folders at every start gets the answer the person gave before, unasked.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::path::{Path, PathBuf};

use serde_json::{Map, json};
use switchboard_core::approvals::{Pending, Question, Serving};
use switchboard_core::decisions::{DecidedBy, Origin};
use switchboard_desk::Update;

use crate::common::{
    DemoDesk, demo_allowed, demo_desk, demo_server, desk_on, eventually, given_to_agent, keyring,
};

/// The next request `server` puts to the person.
async fn asked_by(world: &mut DemoDesk, server: &str) -> Pending {
    world
        .next(|u| match u {
            Update::ApprovalAdded { pending } if pending.server == server => Some(*pending),
            _ => None,
        })
        .await
}

/// server-everything's entry point, which asks for the client's roots as it starts.
fn everything() -> PathBuf {
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "server-everything is missing: run scripts/setup"
    );
    everything
}

/// Waits for server-everything to log that it got the client's roots: what it logged,
/// and whether the person was asked for them on the way.
async fn roots_received(world: &mut DemoDesk) -> (String, bool) {
    let mut asked = false;
    let text = world
        .next(|u| match u {
            Update::ApprovalAdded { pending } if pending.server == "everything" => {
                asked = true;
                None
            }
            Update::Log { entry } if entry.text.contains("Roots updated") => Some(entry.text),
            _ => None,
        })
        .await;
    (text, asked)
}

#[tokio::test]
async fn a_server_asking_on_its_own_waits_and_one_asking_during_a_call_comes_forward() {
    let everything = everything();
    let servers = json!({
        "demo": {"command": demo_server().display().to_string()},
        "everything": {"command": "node", "args": [everything.display().to_string(), "stdio"]},
    });
    let mut world = desk_on(servers, json!({}), keyring("forward")).await;

    // At start-up, server-everything asks for folders on its own: the request waits.
    assert!(
        eventually(|| world
            .desk
            .trust()
            .pending()
            .iter()
            .any(|p| p.server == "everything"))
        .await,
        "server-everything asks for roots"
    );
    let asked = world.desk.trust().pending();
    let [roots] = asked.as_slice() else {
        panic!("one request: {asked:?}")
    };
    assert_eq!(roots.question, Question::Roots);
    assert!(
        !roots.forward,
        "a server asking on its own stacks no dialog"
    );

    // The person's own call asks them to fill in a form: it comes forward.
    let call = world.call("ask_user", json!({}), "ask");
    let form = asked_by(&mut world, "demo").await;
    assert_eq!(form.server, "demo");
    assert!(matches!(form.question, Question::Elicitation { .. }));
    assert!(form.forward, "asked during the person's call");
    world
        .desk
        .trust()
        .answer_elicitation(form.id, "demo", json!({"action": "decline"}))
        .unwrap();
    call.await.unwrap().unwrap();

    // A model's call of a tool that may destroy: the caller waits, it comes forward.
    let by_model = world.call_by_model("delete_note", json!({"title": "x"}), "model");
    let question = asked_by(&mut world, "demo").await;
    assert!(matches!(question.question, Question::ToolCall { .. }));
    assert!(question.forward);
    by_model.abort();
    world.desk.shutdown().await;
}

#[tokio::test]
async fn what_a_server_asks_while_serving_an_agents_call_names_the_agent_and_the_call() {
    let agent = Origin::Agent {
        name: "Claude Code".into(),
    };
    let mut world =
        demo_desk(json!({"toolRules": given_to_agent(demo_allowed(), "Claude Code")})).await;
    let call = tokio::spawn({
        let (desk, agent) = (world.desk.clone(), agent.clone());
        async move {
            desk.explorer()
                .call_tool_as(&agent, "demo", "ask_user", Map::new(), "agent-call".into())
                .await
        }
    });
    let form = asked_by(&mut world, "demo").await;
    assert!(matches!(form.question, Question::Elicitation { .. }));
    assert!(form.forward, "the agent waits on it");
    assert_eq!(
        form.during,
        [Serving {
            origin: agent,
            call: "ask_user".into(),
            read: None,
        }]
    );
    world
        .desk
        .trust()
        .answer_elicitation(form.id, "demo", json!({"action": "decline"}))
        .unwrap();
    call.await.unwrap().unwrap();
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_call_waiting_for_a_decision_is_not_one_its_server_serves() {
    let mut world = demo_desk(json!({})).await;
    // A model's call waits for the person: the server knows nothing of it yet.
    let waiting = world.call_by_model("delete_note", json!({"title": "x"}), "model");
    let question = asked_by(&mut world, "demo").await;
    assert!(matches!(question.question, Question::ToolCall { .. }));
    // What the server asks during the person's own call arises from that call alone.
    let own = world.call("ask_user", json!({}), "own");
    let form = asked_by(&mut world, "demo").await;
    assert!(matches!(form.question, Question::Elicitation { .. }));
    assert_eq!(
        form.during,
        [Serving {
            origin: Origin::Person,
            call: "ask_user".into(),
            read: None,
        }]
    );
    world
        .desk
        .trust()
        .answer_elicitation(form.id, "demo", json!({"action": "decline"}))
        .unwrap();
    own.await.unwrap().unwrap();
    waiting.abort();
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_server_asking_for_its_folders_at_every_start_gets_the_earlier_answer_unasked() {
    let everything = everything();
    let servers = json!({
        "everything": {"command": "node", "args": [everything.display().to_string(), "stdio"]},
    });
    let mut world = desk_on(servers, json!({}), keyring("remembered")).await;
    assert!(
        eventually(|| !world.desk.trust().pending().is_empty()).await,
        "server-everything asks for roots"
    );
    let asked = world.desk.trust().pending().remove(0);
    assert_eq!(asked.question, Question::Roots);
    let folder = tempfile::tempdir().unwrap();
    world
        .desk
        .trust()
        .answer_roots(asked.id, "everything", &[folder.path().to_owned()])
        .await
        .unwrap();
    let (received, _) = roots_received(&mut world).await;
    assert!(received.contains("1 root(s)"), "{received}");

    // Started again, it asks again: the same folder goes back at once, no request waits,
    // and the audit trail says the earlier answer gave it.
    let mut world = world.reopen(&["everything"]).await;
    let (received, asked) = roots_received(&mut world).await;
    assert!(received.contains("1 root(s)"), "{received}");
    assert!(!asked, "the person is not asked again");
    assert!(world.desk.trust().pending().is_empty());
    let audit = world.desk.activity().page(None, 1).await.unwrap();
    let shown = folder.path().canonicalize().unwrap().display().to_string();
    assert_eq!(
        (
            audit[0].kind.as_str(),
            audit[0].server.as_str(),
            audit[0].decision.as_str(),
            &audit[0].decided_by
        ),
        ("roots", "everything", "shared", &DecidedBy::Remembered)
    );
    assert!(
        audit[0].detail.0.to_string().contains(&shown),
        "{:?}",
        audit[0].detail
    );
    world.desk.shutdown().await;
}
