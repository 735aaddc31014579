//! Answers that come after their request ended: a roots answer after its deadline shares
//! nothing, a request its server withdraws leaves saying so and is recorded, and a tool
//! call cancelled while it waits for the person takes its question away. With the demo
//! server, through the desk as the window uses it.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::approvals::{AnswerError, Question, Remember};
use switchboard_core::decisions::DecidedBy;
use switchboard_core::gate::CallError;
use switchboard_desk::{ExplorerError, TrustError, Update};

use crate::common::{demo_allowed, demo_desk, text_of};

#[tokio::test]
async fn a_roots_answer_after_its_deadline_shares_nothing() {
    let mut world = demo_desk(json!({
        "approvalTimeoutSecs": 1,
        "toolRules": [demo_allowed()],
    }))
    .await;
    let folder = tempfile::tempdir().unwrap();
    let call = world.call("list_roots", json!({}), "roots");
    let asked = world.asked().await;
    assert_eq!(asked.question, Question::Roots);
    // Nobody answered in time: the request is refused and leaves the list.
    world.withdrawn(asked.id).await;
    let late = world
        .desk
        .trust()
        .answer_roots(asked.id, "demo", &[folder.path().to_owned()])
        .await
        .unwrap_err();
    assert!(
        matches!(late, TrustError::Answer(AnswerError::NotPending(id)) if id == asked.id),
        "{late}"
    );
    assert!(
        world.desk.trust().roots_of("demo").is_empty(),
        "nothing is shared"
    );
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "no roots shared");

    // The next request is asked again: a deadline that passed is no answer to remember.
    // (Its answer would race the one-second deadline, so it is left to pass too; an answer
    // in time is shared in `human_in_the_loop.rs`.)
    let call = world.call("list_roots", json!({}), "roots");
    let asked = world.asked().await;
    assert_eq!(asked.question, Question::Roots);
    world.withdrawn(asked.id).await;
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "no roots shared");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_request_its_server_withdraws_leaves_saying_so_and_is_recorded() {
    let mut world = demo_desk(json!({"toolRules": [demo_allowed()]})).await;
    let call = world.call_by_model("list_roots", json!({}), "roots");
    let asked = world.asked().await;
    assert_eq!(asked.question, Question::Roots);
    // The call is stopped: the demo server gives up on it, and cancels its question.
    assert!(world.desk.explorer().cancel("roots"));
    let withdrawn = world
        .next(|u| match u {
            Update::ApprovalRemoved { id, withdrawn } if id == asked.id => Some(withdrawn),
            _ => None,
        })
        .await;
    assert!(withdrawn, "the window is told its server withdrew it");
    let audit = world.desk.activity().page(None, 5).await.unwrap();
    let roots = audit.iter().find(|e| e.kind == "roots").expect("recorded");
    assert_eq!(
        (
            roots.server.as_str(),
            roots.decision.as_str(),
            &roots.decided_by
        ),
        ("demo", "withdrawn", &DecidedBy::ServerWithdrew)
    );
    let folder = tempfile::tempdir().unwrap();
    assert!(
        world
            .desk
            .trust()
            .answer_roots(asked.id, "demo", &[folder.path().to_owned()])
            .await
            .is_err()
    );
    assert!(
        world.desk.trust().roots_of("demo").is_empty(),
        "nothing is shared"
    );
    call.await.unwrap().unwrap_err();
    world.desk.shutdown().await;
}

#[tokio::test]
async fn cancelling_a_call_that_waits_for_the_person_takes_its_question_away() {
    let mut world = demo_desk(json!({})).await;
    let call = world.call_by_model("echo", json!({"text": "never mind"}), "echo");
    let asked = world.asked().await;
    assert!(world.desk.explorer().cancel("echo"));
    // The dialog goes away, and the call ends.
    let (mut withdrawn, mut ended) = (false, false);
    world
        .next(|u| {
            match u {
                Update::ApprovalRemoved {
                    id,
                    withdrawn: by_caller,
                } if id == asked.id => {
                    withdrawn = by_caller;
                }
                Update::ProgressEnded { token } if token == "echo" => ended = true,
                _ => {}
            }
            (withdrawn && ended).then_some(())
        })
        .await;
    assert!(world.desk.trust().pending().is_empty());
    let cancelled = call.await.unwrap().unwrap_err();
    assert!(
        matches!(cancelled, ExplorerError::Call(CallError::Cancelled { .. })),
        "{cancelled}"
    );
    let audit = world.desk.activity().page(None, 1).await.unwrap();
    assert_eq!(
        (audit[0].subject.as_str(), audit[0].decision.as_str()),
        ("echo", "cancelled")
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn an_answer_given_as_the_caller_gives_up_is_kept() {
    let mut world = demo_desk(json!({})).await;
    // The answer and the cancel reach the gate together, each time: the person's answer
    // counts (what they said to remember is kept), and the call itself is cancelled.
    for round in 0..8 {
        let token = format!("echo-{round}");
        let call = world.call_by_model("echo", json!({"text": "both at once"}), &token);
        let asked = world.asked().await;
        let Question::ToolCall { arguments, .. } = asked.question else {
            panic!("asked {:?}", asked.question)
        };
        world
            .desk
            .trust()
            .answer_tool_call(asked.id, "demo", true, arguments, Remember::ToolAlways)
            .unwrap();
        assert!(world.desk.explorer().cancel(&token));
        call.await.unwrap().unwrap_err();
        let audit = world.desk.activity().page(None, 1).await.unwrap();
        assert_eq!(
            (audit[0].decision.as_str(), &audit[0].decided_by),
            ("allowed", &DecidedBy::Person),
            "round {round}"
        );
        assert_eq!(
            world.desk.trust().standing_rules().await.len(),
            1,
            "round {round}"
        );
        world
            .desk
            .trust()
            .revoke_rule("demo", Some("echo"), false, None)
            .await;
    }
    world.desk.shutdown().await;
}
