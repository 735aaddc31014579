//! The calls under way, as the activity view fetches them when it opens: a call is listed
//! from the moment it starts, whether it waits for the person, waits on a request of its
//! server (sampling) and sends no progress, or counts along; and it leaves the list when
//! it ends or is cancelled. With the demo server, through the desk as the window uses it.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::approvals::Question;
use switchboard_desk::{Desk, ProgressItem, Update};

use crate::common::{demo_allowed, demo_desk, text_of};

fn listed(desk: &Desk, token: &str) -> Option<ProgressItem> {
    desk.explorer()
        .calls_in_flight()
        .into_iter()
        .find(|item| item.token == token)
}

#[tokio::test]
async fn a_call_waiting_for_the_person_is_listed_at_once_and_can_be_cancelled() {
    let mut world = demo_desk(json!({})).await;
    // A model's call: the person is asked about it.
    let call = world.call_by_model("echo", json!({"text": "hi"}), "waits");
    let asked = world.asked().await;
    assert!(matches!(asked.question, Question::ToolCall { .. }));

    let item = listed(&world.desk, "waits").expect("the call waiting for a decision is listed");
    assert_eq!(
        (item.server.as_str(), item.progress, item.total),
        ("demo", 0.0, None)
    );
    assert!(item.started_ms > 0);

    assert!(world.desk.explorer().cancel("waits"));
    assert!(call.await.unwrap().is_err());
    assert!(listed(&world.desk, "waits").is_none(), "the call is over");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_call_that_sends_no_progress_is_listed_while_its_server_waits_for_sampling() {
    let mut world = demo_desk(json!({"toolRules": [demo_allowed()]})).await;
    let call = world.call("ask_model", json!({"question": "why?"}), "samples");
    // The call runs (the person's own) and its server asks for a model reply.
    let asked = world.asked().await;
    assert!(
        matches!(asked.question, Question::Sampling { .. }),
        "{asked:?}"
    );

    let item = listed(&world.desk, "samples").expect("the call with no progress is listed");
    assert_eq!((item.progress, item.total, item.message), (0.0, None, None));

    world
        .desk
        .trust()
        .answer_sampling(asked.id, "demo", None)
        .unwrap();
    let _ = call.await.unwrap();
    assert!(listed(&world.desk, "samples").is_none(), "the call is over");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_counting_call_is_listed_before_its_first_step_and_then_with_it() {
    let mut world = demo_desk(json!({"toolRules": [demo_allowed()]})).await;
    let call = world.call("count_to", json!({"n": 3, "delay_ms": 300}), "counts");
    world
        .next(|u| matches!(u, Update::Progress { item } if item.token == "counts").then_some(()))
        .await;
    let first = listed(&world.desk, "counts").expect("listed before any step");
    assert_eq!(first.label, "Count slowly");

    world
        .next(|u| match u {
            Update::Progress { item } if item.token == "counts" && item.progress >= 1.0 => Some(()),
            _ => None,
        })
        .await;
    let stepped = listed(&world.desk, "counts").expect("still listed");
    assert_eq!(stepped.total, Some(3.0));
    assert!(stepped.progress >= 1.0);
    assert_eq!(stepped.started_ms, first.started_ms);

    assert_eq!(text_of(&call.await.unwrap().unwrap()), "counted to 3");
    assert!(world.desk.explorer().calls_in_flight().is_empty());
    world.desk.shutdown().await;
}
