//! A request nobody answers (its deadline passes, or no face is left to ask) is recorded in
//! the audit trail as such, never as the person's decision: a tool call through the gate,
//! and a real server's sampling, form and roots requests (hostile-peer
//! `undeclared-requests`, which asks all three when its tool is called).

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::time::Duration;

use serde_json::Map;
use switchboard_core::audit::Kind;
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::{DecidedBy, Origin};
use switchboard_core::gate::{CallError, Callee};

use crate::common;

/// How long a question waits when the test lets it time out.
const SHORT: Duration = Duration::from_millis(300);
/// How long a question waits when the test refuses it first.
const LONG: Duration = Duration::from_secs(120);
/// How long anything the test waits for may take: a hang check, not a timing assertion.
const HANG: Duration = Duration::from_secs(30);

type World = common::GatedHost;

async fn world(deadline: Duration) -> World {
    let server = ServerConfig {
        command: Some(
            common::workspace_binary("hostile-peer")
                .display()
                .to_string(),
        ),
        args: vec!["undeclared-requests".into()],
        ..ServerConfig::default()
    };
    common::gated_host("unanswered", deadline, "asker", server).await
}

impl World {
    /// Calls the server's tool through the gate, as a model would: the person is asked.
    fn call_through_gate(&self) -> tokio::task::JoinHandle<Result<(), CallError>> {
        let client = self.host.client("asker").expect("running");
        let tool = self
            .host
            .catalog()
            .find_tool("asker", "poke")
            .expect("listed");
        let gate = self.gate.clone();
        tokio::spawn(async move {
            let options = client.request_options();
            let callee = Callee {
                name: "asker",
                identity: String::new(),
                trusted: false,
            };
            gate.call(
                &Origin::Model {
                    conversation: "c1".to_owned(),
                    title: "Tidy the notes".to_owned(),
                },
                &client,
                &callee,
                &tool,
                Map::new(),
                options,
            )
            .await
            .map(drop)
        })
    }

    /// Calls the server's tool directly: it asks its three questions before it answers.
    fn poke(&self) -> tokio::task::JoinHandle<String> {
        let client = self.host.client("asker").expect("running");
        tokio::spawn(async move {
            let result = client
                .call_tool("poke", None, client.request_options())
                .await
                .expect("the tool answers");
            format!("{:?}", result.content)
        })
    }

    /// Every record's kind, decision and who decided, oldest first.
    async fn decisions(&self) -> Vec<(Kind, String, DecidedBy)> {
        let mut rows = self.gate.audit().page(None, 50).await.unwrap();
        rows.reverse();
        rows.into_iter()
            .map(|r| (r.record.kind, r.record.decision, r.record.decided_by))
            .collect()
    }
}

fn rows(kinds: &[Kind], decision: &str, decided_by: DecidedBy) -> Vec<(Kind, String, DecidedBy)> {
    kinds
        .iter()
        .map(|&kind| (kind, decision.to_owned(), decided_by.clone()))
        .collect()
}

const SERVER_ASKS: [Kind; 3] = [Kind::Sampling, Kind::Elicitation, Kind::Roots];

#[tokio::test]
async fn what_nobody_answers_in_time_is_recorded_as_timed_out() {
    let world = world(SHORT).await;
    let denied = tokio::time::timeout(HANG, world.call_through_gate())
        .await
        .unwrap()
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(&denied, CallError::Denied { decided_by, .. } if *decided_by == DecidedBy::Timeout),
        "{denied}"
    );
    tokio::time::timeout(HANG, world.poke())
        .await
        .unwrap()
        .unwrap();
    let mut expected = rows(&[Kind::ToolCall], "timed out", DecidedBy::Timeout);
    expected.extend(rows(&SERVER_ASKS, "timed out", DecidedBy::Timeout));
    assert_eq!(world.decisions().await, expected);
}

#[tokio::test]
async fn what_is_refused_because_no_one_is_left_to_ask_is_recorded_so() {
    let mut world = world(LONG).await;
    let call = world.call_through_gate();
    world.asked().await;
    world.gate.broker().refuse_all();
    assert!(matches!(
        tokio::time::timeout(HANG, call).await.unwrap().unwrap(),
        Err(CallError::Denied { .. })
    ));
    let poked = world.poke();
    for _ in SERVER_ASKS {
        world.asked().await;
        world.gate.broker().refuse_all();
    }
    tokio::time::timeout(HANG, poked).await.unwrap().unwrap();
    let mut expected = rows(&[Kind::ToolCall], "unanswered", DecidedBy::NoOneToAsk);
    expected.extend(rows(&SERVER_ASKS, "unanswered", DecidedBy::NoOneToAsk));
    assert_eq!(world.decisions().await, expected);
}
