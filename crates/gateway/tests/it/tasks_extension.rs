//! The engine's client of the tasks extension (2026-07-28) against the gateway as its
//! server, with the test's own server behind it ([`crate::task_fixtures`]): a call the
//! server answers with a task is followed to its end and answered as the call itself would
//! have been; the task's questions reach the client's handler and its answers the server
//! (`tasks/update`); a task that fails fails the call with its error; cancelling the call
//! cancels the task.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use switchboard_core::config::AgentAnswers;
use switchboard_core::secrets::Secrets;
use switchboard_gateway::http_sessions;
use switchboard_mcp::client::{Client, ClientConfig, ClientError, ClientHandler, EraSetting};
use switchboard_mcp::connection::{RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
use switchboard_mcp::transport::{discard_log, http};
use switchboard_mcp::types::*;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::common::*;
use crate::task_fixtures;

const AGENT: &str = "tasks";

/// Confirms whatever a form asks to confirm, keeping what it was asked.
struct Confirming(Arc<Mutex<Vec<String>>>);

impl ClientHandler for Confirming {
    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        self.0.lock().push(params.message().to_owned());
        let content = serde_json::from_value(json!({"confirm": true})).unwrap();
        Ok(ElicitResult::accepted(Some(content)))
    }
}

fn arguments(given: Value) -> Option<Map<String, Value>> {
    let Value::Object(given) = given else {
        unreachable!("arguments are an object")
    };
    Some(given)
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_becomes_a_task_is_followed_to_its_end_its_questions_answered() {
    let fixtures = task_fixtures::serve().await;
    let (peer, allowed) = url_peer("peer", &fixtures.url());
    let world = desk_on(
        json!({ "peer": peer }),
        json!({"toolRules": given_to_agent(allowed, AGENT)}),
        Secrets::new("switchboard-test-gateway-tasks"),
    )
    .await;
    let agents = world.desk.agents();
    agents.save(AGENT, None).await.unwrap();
    let answers = AgentAnswers {
        sampling: false,
        elicitation: true,
    };
    agents.set_answers(AGENT, answers).await.unwrap();
    let tokens = |token: &str| (token == "tasks-token").then(|| Identity::new(AGENT));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let gateway = HttpServer::bind(options, Arc::new(http_sessions(&agents)))
        .await
        .unwrap();
    let spec = http::HttpServer::new(gateway.url()).header("Authorization", "Bearer tasks-token");
    let (parts, _) = http::connect(&spec, discard_log()).unwrap();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let mut config = ClientConfig::new("tasks-client", "1");
    config.capabilities = ClientCapabilities::all().with_tasks();
    config.era = EraSetting::Stateless;
    let client = Client::connect(parts, Arc::new(Confirming(asked.clone())), config)
        .await
        .unwrap();

    // A long call is followed as the task it became, each of its states told.
    let (seen, mut states) = mpsc::unbounded_channel();
    let watched = RequestOptions {
        task: Some(seen),
        ..client.request_options()
    };
    let computed = arguments(json!({"seconds": 1.5, "label": "tides"}));
    let result = client
        .call_tool("peer__slow_compute", computed, watched)
        .await
        .unwrap();
    assert!(text(&result).contains("tides"), "{result:?}");
    let mut told = Vec::new();
    while let Ok(task) = states.try_recv() {
        told.push(task);
    }
    assert_eq!(
        told.first().unwrap().status,
        TaskStatus::Working,
        "{told:?}"
    );
    assert_eq!(
        told.last().unwrap().status,
        TaskStatus::Completed,
        "{told:?}"
    );
    assert!(
        told.iter().all(|t| t.task_id == told[0].task_id),
        "{told:?}"
    );

    // The task's question comes to the handler, and its answer reaches the server.
    let deleting = arguments(json!({"filename": "notes.txt"}));
    let result = client
        .call_tool("peer__confirm_delete", deleting, client.request_options())
        .await
        .unwrap();
    assert_eq!(text(&result), "Deleted \"notes.txt\"");
    assert_eq!(*asked.lock(), ["Delete \"notes.txt\"?"]);

    // A task that fails fails the call, with its error.
    let failed = client
        .call_tool("peer__protocol_error_job", None, client.request_options())
        .await
        .unwrap_err();
    assert!(
        failed.to_string().contains("The job broke down"),
        "{failed}"
    );

    // Cancelling the call cancels its task.
    let (seen, mut states) = mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let cancellable = RequestOptions {
        task: Some(seen),
        cancel: Some(cancel.clone()),
        ..client.request_options()
    };
    let call = tokio::spawn({
        let client = client.clone();
        let long = arguments(json!({"seconds": 60, "label": "never"}));
        async move {
            client
                .call_tool("peer__slow_compute", long, cancellable)
                .await
        }
    });
    let task = states.recv().await.unwrap();
    cancel.cancel();
    let ended = call.await.unwrap().unwrap_err();
    assert!(
        matches!(ended, ClientError::Request(RequestError::Cancelled { .. })),
        "{ended}"
    );
    let after = client.get_task(&task.task_id).await.unwrap();
    assert_eq!(after.status, TaskStatus::Cancelled);

    gateway.shutdown().await;
    world.desk.shutdown().await;
    fixtures.shutdown().await;
}
