//! A server of the test's own behind the gateway, with the tools the conformance suite's
//! `tasks-*` scenarios call: served by the engine over Streamable HTTP on 127.0.0.1, in the
//! 2026-07-28 revision, where a question is asked as an `input_required` result. None of
//! its tools is a task at this server: the gateway makes the tasks its agents ask after,
//! and a tool's marks (`execution.taskSupport`) say which may or must be one.
//!
//! Each tool works a while before it asks or answers (longer than the gateway waits before
//! answering with a task), except `greet` and `test_tool_with_task`'s first question:
//! - `greet {name}`: "Hello, <name>!" at once;
//! - `slow_compute {seconds, label}` (optional): its label after `seconds`;
//! - `failing_job` (required): a result that is a tool error;
//! - `protocol_error_job` (optional): a JSON-RPC error;
//! - `confirm_delete {filename}` (optional): asks whether to delete it, then says;
//! - `multi_input` (optional): asks two questions at once, then thanks the name given;
//! - `test_tool_with_task` (required): asks for a name at once, then works, then greets it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_mcp::connection::IncomingHandler;
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::server::handler::{Dispatch, Reply, Rounds, ServerHandler, answered};
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, SessionStart};
use switchboard_mcp::types::*;

/// How long a tool works before it asks or answers.
const WORK: Duration = Duration::from_secs(1);

struct Fixtures;

/// Starts the server; its URL is `server.url()`.
pub async fn serve() -> HttpServer {
    let sessions =
        |_: SessionStart| -> Arc<dyn IncomingHandler> { Arc::new(Dispatch::new(Fixtures)) };
    HttpServer::bind(HttpServerOptions::default(), Arc::new(sessions))
        .await
        .expect("bind the fixtures' server")
}

fn tools() -> Vec<Tool> {
    let marked = |name: &str, support: Option<&str>, properties: Value| {
        let mut tool =
            json!({"name": name, "inputSchema": {"type": "object", "properties": properties}});
        if let Some(support) = support {
            tool["execution"] = json!({ "taskSupport": support });
        }
        tool
    };
    let text = json!({"type": "string"});
    serde_json::from_value(json!([
        marked("greet", None, json!({"name": text})),
        marked(
            "slow_compute",
            Some("optional"),
            json!({"seconds": {"type": "number"}, "label": text})
        ),
        marked("failing_job", Some("required"), json!({})),
        marked("protocol_error_job", Some("optional"), json!({})),
        marked(
            "confirm_delete",
            Some("optional"),
            json!({"filename": text})
        ),
        marked("multi_input", Some("optional"), json!({})),
        marked("test_tool_with_task", Some("required"), json!({})),
    ]))
    .expect("the fixtures' tools")
}

/// A form asking for `property` of `kind`.
fn form(message: &str, property: &str, kind: &str) -> Value {
    json!({"method": "elicitation/create", "params": {
        "message": message,
        "requestedSchema": {"type": "object", "properties": {property: {"type": kind}}, "required": [property]}
    }})
}

fn asks(questions: Value) -> Rounds<CallToolResult> {
    let Value::Object(input_requests) = questions else {
        unreachable!("questions are an object")
    };
    Rounds::InputRequired(InputRequiredResult {
        input_requests,
        request_state: Some("asked".into()),
    })
}

fn says(text: String) -> Rounds<CallToolResult> {
    Rounds::Complete(CallToolResult::new(vec![ContentBlock::text(text)]))
}

/// What the answer under `key` gave for `field`.
fn given<'a>(answers: Option<&'a Value>, key: &str, field: &str) -> Option<&'a Value> {
    answers?.get(key)?.get("content")?.get(field)
}

impl ServerHandler for Fixtures {
    fn discover(&self, _: RequestParams) -> Reply<DiscoverResult> {
        answered(Ok(DiscoverResult {
            supported_versions: vec![
                switchboard_mcp::ProtocolVersion::V2026_07_28
                    .as_str()
                    .into(),
            ],
            capabilities: serde_json::from_value(json!({"tools": {}})).expect("capabilities"),
            instructions: None,
            server_info: Some(Implementation::new("task-fixtures", "1.0.0")),
            meta: None,
            extra: Map::new(),
        }))
    }

    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        answered(Ok(ListToolsResult {
            tools: tools(),
            next_cursor: None,
            meta: None,
            skipped: Vec::new(),
            extra: Map::new(),
        }))
    }

    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        let arguments = params.arguments.unwrap_or_default();
        let argument = |name: &str| arguments.get(name).cloned().unwrap_or(Value::Null);
        let answers = params.extra.get("inputResponses").cloned();
        let answers = answers.as_ref();
        match params.name.as_str() {
            "greet" => answered(Ok(says(format!(
                "Hello, {}!",
                argument("name").as_str().unwrap_or("you")
            )))),
            "test_tool_with_task" if answers.is_none() => answered(Ok(asks(json!({
                "user_name": form("What is your name?", "name", "string")
            })))),
            _ => {
                let name = params.name.clone();
                let (answers, seconds) = (answers.cloned(), argument("seconds").as_f64());
                let (label, filename) = (argument("label"), argument("filename"));
                Box::pin(async move {
                    let answers = answers.as_ref();
                    let work = seconds.map_or(WORK, Duration::from_secs_f64);
                    tokio::time::sleep(work).await;
                    Ok(match name.as_str() {
                        "slow_compute" => says(format!("Computed {label} in {work:?}")),
                        "failing_job" => {
                            let mut failed =
                                CallToolResult::new(vec![ContentBlock::text("The job failed")]);
                            failed.is_error = Some(true);
                            Rounds::Complete(failed)
                        }
                        "protocol_error_job" => {
                            return Err(ErrorObject::new(
                                code::INTERNAL_ERROR,
                                "The job broke down",
                            ));
                        }
                        "confirm_delete" => match given(answers, "confirm", "confirm") {
                            None => asks(
                                json!({"confirm": form(&format!("Delete {filename}?"), "confirm", "boolean")}),
                            ),
                            Some(Value::Bool(true)) => says(format!("Deleted {filename}")),
                            Some(_) => says(format!("Kept {filename}")),
                        },
                        "multi_input" => match (
                            given(answers, "name", "name"),
                            given(answers, "confirm", "confirm"),
                        ) {
                            (Some(name), Some(_)) => says(format!("Thanks, {name}")),
                            _ => asks(json!({
                                "name": form("Your name?", "name", "string"),
                                "confirm": form("Go on?", "confirm", "boolean"),
                            })),
                        },
                        _ => says(format!(
                            "Hello, {}!",
                            given(answers, "user_name", "name")
                                .and_then(Value::as_str)
                                .unwrap_or("you")
                        )),
                    })
                })
            }
        }
    }
}
