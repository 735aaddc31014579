//! The typed server handler (`server::handler`) on a real connection: the test plays the
//! client over an in-memory transport and checks the exact JSON the server answers.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use switchboard_mcp::connection::{Connection, IncomingHandler};
use switchboard_mcp::jsonrpc::{ErrorObject, RequestId, code};
use switchboard_mcp::server::handler::{
    ClientNotification, Dispatch, Finish, Reply, Rounds, ServerHandler, answered,
};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::types::*;

/// A server with one tool, `echo`, a listen stream that ends at once, and an extension
/// method `x/seen` that tells which notifications it received.
#[derive(Default)]
struct EchoServer {
    seen: Mutex<Vec<ClientNotification>>,
}

impl ServerHandler for EchoServer {
    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        let tools = json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]});
        answered(serde_json::from_value(tools).map_err(ErrorObject::invalid_params))
    }

    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        if params.name != "echo" {
            let unknown = format!("no tool is named {}", params.name);
            return answered(Err(ErrorObject::invalid_params(unknown)));
        }
        let text = params
            .arguments
            .as_ref()
            .and_then(|a| a.get("text"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        Box::pin(async move { Ok(CallToolResult::new(vec![ContentBlock::text(text)]).into()) })
    }

    fn listen(
        &self,
        id: RequestId,
        params: SubscriptionsListenRequestParams,
    ) -> Reply<SubscriptionsListenResult> {
        let mut result = SubscriptionsListenResult::default();
        let meta = json!({ meta_key::SUBSCRIPTION_ID: id });
        result.meta = meta.as_object().cloned();
        // What it was asked for, to show the filter was read.
        result.extra.insert(
            "asked".into(),
            json!(params.notifications.tools_list_changed),
        );
        answered(Ok(result))
    }

    fn custom(&self, method: String, params: Option<Value>) -> Reply<Value> {
        if method != "x/seen" {
            return answered(Err(ErrorObject::method_not_found(&method)));
        }
        let seen = self.seen.lock().expect("lock").clone();
        let seen: Vec<String> = seen.iter().map(|n| format!("{n:?}")).collect();
        answered(Ok(json!({"seen": seen, "params": params})))
    }

    fn notification(&self, notification: ClientNotification) {
        self.seen.lock().expect("lock").push(notification);
    }

    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        (name == "echo").then(|| json!({"type": "object"}))
    }
}

/// A server that offers nothing: every default at work.
struct Nothing;

impl ServerHandler for Nothing {}

fn serve(handler: impl ServerHandler) -> (Connection, MemoryPeer) {
    let (transport, peer) = memory::pair(discard_log());
    let connection = Connection::start(transport, Arc::new(Dispatch::new(handler)));
    (connection, peer)
}

/// Sends one message as the client and reads the server's next one.
async fn exchange(peer: &mut MemoryPeer, message: Value) -> Value {
    send(peer, message).await;
    let answer = peer.from_client.recv().await.expect("the server answers");
    serde_json::from_str(&answer).expect("the server sends JSON")
}

async fn send(peer: &MemoryPeer, message: Value) {
    peer.to_client
        .send(message.to_string())
        .await
        .expect("the server is listening");
}

#[tokio::test]
async fn a_request_the_handler_offers_is_answered_with_its_typed_result() {
    let (_connection, mut peer) = serve(EchoServer::default());
    let listed = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    assert_eq!(
        listed,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "tools": [{"name": "echo", "inputSchema": {"type": "object"}}]
        }})
    );
    let called = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": "call", "method": "tools/call",
               "params": {"name": "echo", "arguments": {"text": "hello"}}}),
    )
    .await;
    assert_eq!(
        called,
        json!({"jsonrpc": "2.0", "id": "call", "result": {
            "content": [{"type": "text", "text": "hello"}]
        }})
    );
    // The handler's own error reaches the client as it made it.
    let unknown = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "nope"}}),
    )
    .await;
    assert_eq!(
        unknown,
        json!({"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32602, "message": "invalid params: no tool is named nope"
        }})
    );
}

#[tokio::test]
async fn a_request_the_handler_does_not_offer_is_a_method_not_found() {
    let (_connection, mut peer) = serve(EchoServer::default());
    for (id, method) in [(1, "prompts/list"), (2, "resources/templates/list")] {
        let answer = exchange(
            &mut peer,
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}}),
        )
        .await;
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32601, "message": format!("method not found: {method}")
            }})
        );
    }
}

#[tokio::test]
async fn a_handler_that_offers_nothing_answers_every_method_but_ping_as_not_found() {
    let (_connection, mut peer) = serve(Nothing);
    let methods = [
        "initialize",
        "server/discover",
        "subscriptions/listen",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "tasks/list",
    ];
    // Params that every method reads, so that only the handler's default can refuse.
    let params = json!({
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
        "name": "x", "uri": "file:///x", "level": "info",
        "ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": ""}
    });
    for (id, method) in methods.into_iter().enumerate() {
        let answer = exchange(
            &mut peer,
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )
        .await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    let ping = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}),
    )
    .await;
    assert_eq!(ping, json!({"jsonrpc": "2.0", "id": "p", "result": {}}));
}

#[tokio::test]
async fn called_without_a_request_id_ping_is_answered_and_listen_is_refused() {
    let answer = Dispatch::new(Nothing).request("ping".into(), None).await;
    assert_eq!(answer, Ok(json!({})));
    let listen = Dispatch::new(EchoServer::default())
        .request("subscriptions/listen".into(), Some(json!({})))
        .await
        .unwrap_err();
    assert_eq!(listen.code, code::INTERNAL_ERROR, "{listen}");
}

#[tokio::test]
async fn params_that_do_not_fit_are_invalid_params_naming_the_field() {
    let (_connection, mut peer) = serve(EchoServer::default());
    let cases = [
        (json!({"arguments": {"text": "hi"}}), "`name`"),
        (json!({"name": 7}), "invalid type: integer `7`"),
    ];
    for (id, (params, named)) in cases.into_iter().enumerate() {
        let answer = exchange(
            &mut peer,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
        )
        .await;
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("invalid params: ") && message.contains(named),
            "{message}"
        );
    }
    // A call without params at all reads as `{}`: its name is missing.
    let bare = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call"}),
    )
    .await;
    assert_eq!(
        bare["error"],
        json!({"code": -32602, "message": "invalid params: missing field `name`"})
    );
}

#[tokio::test]
async fn notifications_reach_the_handler_typed_and_in_order() {
    let (_connection, mut peer) = serve(EchoServer::default());
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed", "params": {}}),
    )
    .await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/x/custom", "params": {"n": 1}}),
    )
    .await;
    // Cancellation is the connection's: the handler never sees it.
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}),
    )
    .await;
    let seen = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 1, "method": "x/seen", "params": {"all": true}}),
    )
    .await;
    let expected = [
        ClientNotification::Initialized,
        ClientNotification::RootsListChanged,
        ClientNotification::Other {
            method: "notifications/x/custom".into(),
            params: Some(json!({"n": 1})),
        },
    ]
    .map(|n| format!("{n:?}"));
    assert_eq!(
        seen,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"seen": expected, "params": {"all": true}}})
    );
}

#[tokio::test]
async fn a_listen_stream_is_named_by_the_id_of_its_request() {
    let (_connection, mut peer) = serve(EchoServer::default());
    let answer = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": "stream-7", "method": "subscriptions/listen",
               "params": {"notifications": {"toolsListChanged": true}}}),
    )
    .await;
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": "stream-7", "result": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "stream-7"},
            "asked": true
        }})
    );
}

#[test]
fn the_tools_input_schemas_reach_the_transport_through_the_dispatch() {
    let dispatch = Dispatch::new(EchoServer::default());
    assert_eq!(
        dispatch.tool_input_schema("echo"),
        Some(json!({"type": "object"}))
    );
    assert_eq!(dispatch.tool_input_schema("other"), None);
}

/// A server of one revision's marks: it refuses `tools/list` before its method runs, marks
/// every other result with the method that made it, and answers a call to `ask` with a
/// question first and its result once the retry brings the answer.
struct Marking;

impl ServerHandler for Marking {
    fn admit(&self, method: &str, _: Option<&Value>) -> Result<Finish, ErrorObject> {
        if method == "tools/list" {
            return Err(ErrorObject::method_not_found(method));
        }
        let method = method.to_owned();
        Ok(Finish::with(move |mut result| {
            result["answeredFor"] = json!(method);
            result
        }))
    }

    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        unreachable!("refused before its method")
    }

    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        let Some(answer) = params.extra.get("inputResponses") else {
            let mut questions = serde_json::Map::new();
            questions.insert("name".into(), json!({"method": "elicitation/create"}));
            return answered(Ok(Rounds::InputRequired(InputRequiredResult {
                input_requests: questions,
                request_state: Some("asked-once".into()),
            })));
        };
        let text = answer["name"]["content"]["name"]
            .as_str()
            .unwrap_or_default();
        answered(Ok(
            CallToolResult::new(vec![ContentBlock::text(text)]).into()
        ))
    }
}

#[tokio::test]
async fn the_handler_admits_each_request_before_its_method_and_finishes_its_result() {
    let (_connection, mut peer) = serve(Marking);
    let refused = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    let unknown = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 2, "method": "x/unknown"}),
    )
    .await;
    // An error goes as the method made it: only results are finished.
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let asked = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask"}}),
    )
    .await;
    assert_eq!(
        asked,
        json!({"jsonrpc": "2.0", "id": 3, "result": {
            "resultType": "input_required",
            "inputRequests": {"name": {"method": "elicitation/create"}},
            "requestState": "asked-once",
            "answeredFor": "tools/call"
        }})
    );
    let retried = exchange(
        &mut peer,
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "ask", "requestState": "asked-once",
            "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}
        }}),
    )
    .await;
    assert_eq!(
        retried,
        json!({"jsonrpc": "2.0", "id": 4, "result": {
            "content": [{"type": "text", "text": "Ada"}],
            "answeredFor": "tools/call"
        }})
    );
}
