//! The gateway's session at the JSON level, over an in-memory pipe, with the demo server
//! running behind it: what an agent reads in answer to each request, exactly.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use switchboard_core::reads::Read;
use switchboard_core::secrets::Secrets;
use switchboard_gateway::{Caller, Via, serve};
use switchboard_mcp::connection::Connection;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{MemoryPeer, pair};

use crate::common::*;

/// An agent played by the test: it writes requests and reads the gateway's JSON.
struct RawAgent {
    peer: MemoryPeer,
    _session: Connection,
    next: u64,
}

impl RawAgent {
    fn open(world: &DemoDesk, agent: &str) -> Self {
        let (parts, peer) = pair(discard_log());
        let caller = Caller {
            agent: agent.to_owned(),
            via: Via::Http,
        };
        Self {
            _session: serve(&world.desk.agents(), caller, parts),
            peer,
            next: 0,
        }
    }

    /// Sends a request; its id.
    async fn send(&mut self, method: &str, params: Value) -> u64 {
        self.next += 1;
        let id = self.next;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.peer.to_client.send(request.to_string()).await.unwrap();
        id
    }

    /// The next message the session sends, whatever it is.
    async fn next_message(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.peer.from_client.recv())
            .await
            .expect("a message in time")
            .expect("the session answers");
        serde_json::from_str(&line).unwrap()
    }

    /// The whole response to a request.
    async fn ask(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params).await;
        self.answer_to(id).await
    }

    /// The response to request `id`, what comes before it passed over.
    async fn answer_to(&mut self, id: u64) -> Value {
        self.told_then_answer(id).await.1
    }

    /// The notifications that come before the response to request `id`, and the response.
    async fn told_then_answer(&mut self, id: u64) -> (Vec<Value>, Value) {
        let mut told = Vec::new();
        tokio::time::timeout(WAIT, async {
            loop {
                let line = self
                    .peer
                    .from_client
                    .recv()
                    .await
                    .expect("the session answers");
                let message: Value = serde_json::from_str(&line).unwrap();
                if message["id"] == id {
                    return (told, message);
                }
                if message.get("id").is_none() {
                    told.push(message);
                }
            }
        })
        .await
        .expect("an answer in time")
    }

    async fn result(&mut self, method: &str, params: Value) -> Value {
        let answer = self.ask(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }
}

fn initialize(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}})
}

async fn demo_with_agent() -> DemoDesk {
    demo_with_agent_and(json!({})).await
}

/// The demo server with the agent "probe", and these host settings.
async fn demo_with_agent_and(settings: Value) -> DemoDesk {
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    let world = desk_on(
        servers,
        settings,
        Secrets::new("switchboard-test-gateway-protocol"),
    )
    .await;
    world.desk.agents().save("probe", None).await.unwrap();
    world
}

/// The demo server, the agent "probe" and the person's standing rules allowing its calls and
/// its reads of the demo server.
async fn demo_allowing_agent() -> DemoDesk {
    demo_with_agent_and(allowing_probe()).await
}

/// Host settings with the person's standing rules allowing the agent "probe" its calls and
/// its reads of the demo server.
fn allowing_probe() -> Value {
    json!({"toolRules": given_to_agent(demo_allowed(), "probe")})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_introduces_itself_in_the_revision_the_agent_speaks() {
    let world = demo_with_agent().await;
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2024-11-05"),
        // The stateless revision opens with `server/discover`, not `initialize`.
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let mut agent = RawAgent::open(&world, "probe");
        let result = agent.result("initialize", initialize(asked)).await;
        assert_eq!(result["protocolVersion"], answered, "{asked}");
        assert_eq!(
            result["capabilities"],
            json!({
                "logging": {},
                "completions": {},
                "prompts": {"listChanged": true},
                "resources": {"subscribe": true, "listChanged": true},
                "tools": {"listChanged": true},
                "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}},
            })
        );
        assert_eq!(result["serverInfo"]["name"], "switchboard");
    }
    let mut agent = RawAgent::open(&world, "probe");
    assert_eq!(agent.result("ping", json!({})).await, json!({}));
    // The stateless revision's agent asks `server/discover`, with no handshake before.
    let discover = agent
        .result("server/discover", json!({"_meta": stateless_meta()}))
        .await;
    assert_eq!(
        discover["supportedVersions"],
        json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
    assert_eq!(
        discover["capabilities"],
        json!({
            "logging": {},
            "completions": {},
            "prompts": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": true},
            "tools": {"listChanged": true},
            "extensions": {"io.modelcontextprotocol/tasks": {}},
        })
    );
    assert_eq!(discover["resultType"], "complete");
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "switchboard"
    );
    assert!(
        discover["instructions"]
            .as_str()
            .unwrap()
            .contains("server__name")
    );
    assert_eq!(
        (&discover["ttlMs"], &discover["cacheScope"]),
        (&json!(0), &json!("private"))
    );
}

/// The `_meta` every request of the stateless revision carries.
fn stateless_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// Params of a stateless request: `fields` and the `_meta` that says who asks.
fn stateless(fields: Value) -> Value {
    let mut params = fields;
    params["_meta"] = stateless_meta();
    params
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_request_says_who_asks_or_is_refused_as_the_revision_says() {
    let world = demo_allowing_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    let tools = agent.result("tools/list", stateless(json!({}))).await;
    assert!(
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "demo__echo"),
        "{tools}"
    );
    assert_eq!(
        (&tools["resultType"], &tools["ttlMs"], &tools["cacheScope"]),
        (&json!("complete"), &json!(0), &json!("private"))
    );
    assert_eq!(
        tools["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "switchboard"
    );
    let read = agent
        .result("resources/read", stateless(json!({"uri": "demo://readme"})))
        .await;
    assert_eq!(read["contents"][0]["uri"], "demo://readme");
    assert_eq!(read["_meta"]["switchboard/server"], "demo", "who answered");
    assert_eq!(read["cacheScope"], "private");

    let unsupported = json!({
        "io.modelcontextprotocol/protocolVersion": "2025-11-25",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    // (method, params, the error's code)
    let refusals = [
        ("server/discover", json!({}), -32602),
        (
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            -32602,
        ),
        ("tools/list", json!({"_meta": unsupported}), -32022),
        // What the revision removed.
        ("initialize", stateless(initialize("2026-07-28")), -32601),
        (
            "logging/setLevel",
            stateless(json!({"level": "info"})),
            -32601,
        ),
        (
            "resources/subscribe",
            stateless(json!({"uri": "demo://notes"})),
            -32601,
        ),
        // Its code for a resource that is not there.
        (
            "resources/read",
            stateless(json!({"uri": "nowhere://x"})),
            -32602,
        ),
    ];
    for (method, params, code) in refusals {
        let answer = agent.ask(method, params).await;
        assert_eq!(answer["error"]["code"], code, "{method}: {answer}");
    }
    let unsupported = agent.ask("tools/list", json!({"_meta": unsupported})).await;
    assert_eq!(
        unsupported["error"]["data"],
        json!({"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
               "requested": "2025-11-25"})
    );
    let missing = agent
        .ask("resources/read", stateless(json!({"uri": "nowhere://x"})))
        .await;
    assert_eq!(missing["error"]["data"]["uri"], "nowhere://x");
}

/// `subscriptions/listen`: acknowledged first with what the gateway honours, then a notice
/// of each change the agent asked for (a server stopping takes its tools away), each
/// tagged with the request's id; nothing it did not ask for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listening_agent_hears_only_the_changes_it_asked_for_tagged_with_its_request() {
    let world = demo_with_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    let filter = json!({"toolsListChanged": true, "promptsListChanged": false});
    let id = agent
        .send(
            "subscriptions/listen",
            stateless(json!({"notifications": filter})),
        )
        .await;
    let first = agent.next_message().await;
    assert_eq!(
        first,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": id},
            "notifications": {"toolsListChanged": true}
        }})
    );
    world
        .desk
        .servers()
        .set_enabled("demo", false)
        .await
        .unwrap();
    let told = agent.next_message().await;
    assert_eq!(
        told,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": id}
        }}),
        "only what it asked for"
    );
    let tools = agent.result("tools/list", stateless(json!({}))).await;
    assert_eq!(tools["tools"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_not_configured_is_refused_with_the_reason() {
    let world = demo_with_agent().await;
    let mut ghost = RawAgent::open(&world, "ghost");
    let answer = ghost.ask("initialize", initialize("2025-11-25")).await;
    assert_eq!(answer["error"]["code"], -32600);
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("no agent named \"ghost\""), "{message}");
    assert!(message.contains("Agents page"), "{message}");

    // Removed while connected: its session ends.
    let mut probe = RawAgent::open(&world, "probe");
    probe.result("initialize", initialize("2025-11-25")).await;
    world.desk.agents().remove("probe").await.unwrap();
    let ended = tokio::time::timeout(WAIT, async {
        while probe.peer.from_client.recv().await.is_some() {}
    })
    .await;
    assert!(ended.is_ok(), "the removed agent's session ends");
    // One that connects again is refused.
    let mut again = RawAgent::open(&world, "probe");
    let answer = again.ask("tools/list", json!({})).await;
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_prompts_and_completions_lead_back_to_their_server() {
    let world = demo_allowing_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    agent.result("initialize", initialize("2025-11-25")).await;

    let listed = agent.result("resources/list", json!({})).await;
    let readme = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == "demo://readme")
        .expect("the demo's readme, by its own URI");
    assert_eq!(readme["_meta"]["switchboard/server"], "demo");
    let read = agent
        .result("resources/read", json!({"uri": "demo://readme"}))
        .await;
    assert_eq!(read["contents"][0]["uri"], "demo://readme");
    assert_eq!(read["_meta"]["switchboard/server"], "demo", "who answered");
    // Not listed, made from a template: found by the template's server.
    let read = agent
        .result("resources/read", json!({"uri": "demo://greeting/Ada"}))
        .await;
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Ada"),
        "{read}"
    );
    let templates = agent.result("resources/templates/list", json!({})).await;
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "demo://greeting/{name}"
    );
    let missing = agent
        .ask("resources/read", json!({"uri": "nowhere://x"}))
        .await;
    assert!(missing.get("error").is_some(), "{missing}");

    let prompts = agent.result("prompts/list", json!({})).await;
    let names: Vec<&str> = prompts["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"demo__greet"), "{names:?}");
    let got = agent
        .result(
            "prompts/get",
            json!({"name": "demo__greet", "arguments": {"name": "Grace"}}),
        )
        .await;
    assert!(got.to_string().contains("Grace"), "{got}");
    assert_eq!(got["_meta"]["switchboard/server"], "demo", "who answered");

    for reference in [
        json!({"type": "ref/prompt", "name": "demo__greet"}),
        json!({"type": "ref/resource", "uri": "demo://greeting/{name}"}),
    ] {
        let completed = agent
            .result(
                "completion/complete",
                json!({"ref": reference, "argument": {"name": "name", "value": "A"}}),
            )
            .await;
        assert_eq!(
            completed["completion"]["values"],
            json!(["Ada", "Alan"]),
            "{reference}"
        );
    }
}

/// The gateway on the engine's Streamable HTTP server: the bearer token names the agent,
/// whose calls pass the gate in its name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_token_names_the_agent_whose_calls_are_asked_about() {
    use std::sync::Arc;
    use switchboard_core::approvals::{Question, Remember};
    use switchboard_core::decisions::Origin;
    use switchboard_desk::Update;
    use switchboard_gateway::http_sessions;
    use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
    use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
    use switchboard_mcp::transport::http;

    let mut world = demo_with_agent().await;
    let tokens = |token: &str| (token == "probe-token").then(|| Identity::new("probe"));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(options, Arc::new(http_sessions(&world.desk.agents())))
        .await
        .unwrap();
    let spec = http::HttpServer::new(server.url()).header("Authorization", "Bearer probe-token");
    let (parts, _) = http::connect(&spec, discard_log()).unwrap();
    let client = Client::connect(
        parts,
        Arc::new(DecliningHandler),
        ClientConfig::new("probe", "1"),
    )
    .await
    .unwrap();
    let tools = client.list_tools().await.unwrap();
    assert!(
        tools.items.iter().any(|t| t.name == "demo__echo"),
        "{:?}",
        tools.items
    );

    let call = tokio::spawn({
        let client = client.clone();
        async move {
            let arguments = serde_json::Map::from_iter([("text".to_owned(), json!("over http"))]);
            client
                .call_tool("demo__echo", Some(arguments), client.request_options())
                .await
        }
    });
    let asked = world
        .next(|u| match u {
            Update::ApprovalAdded { pending } => Some(*pending),
            _ => None,
        })
        .await;
    let Question::ToolCall {
        asked_by,
        arguments,
        ..
    } = asked.question
    else {
        panic!("not a tool call")
    };
    assert_eq!(
        asked_by,
        Origin::Agent {
            name: "probe".into()
        }
    );
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, &asked.server, true, arguments, Remember::Once)
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(text_of(&serde_json::to_value(result).unwrap()), "over http");
    server.shutdown().await;
}

/// The demo server with these settings, the agent "probe" letting its calls ask it for
/// sampling, and the stateless call of `demo__ask_model` that will.
/// The conformance peer (a TypeScript SDK server offering the suite's tools and prompts)
/// behind the gateway as "peer", its tools and reads allowed to the agent "probe".
async fn peer_with_agent() -> DemoDesk {
    let (peer, allowed) = conformance_peer("peer");
    let world = desk_on(
        json!({ "peer": peer }),
        json!({ "toolRules": given_to_agent(allowed, "probe") }),
        Secrets::new("switchboard-test-gateway-protocol"),
    )
    .await;
    world.desk.agents().save("probe", None).await.unwrap();
    world
}

async fn demo_asking_agent(settings: Value) -> (DemoDesk, Value) {
    use switchboard_core::config::AgentAnswers;

    let world = demo_with_agent_and(settings).await;
    let answers = AgentAnswers {
        sampling: true,
        elicitation: false,
    };
    world
        .desk
        .agents()
        .set_answers("probe", answers)
        .await
        .unwrap();
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({"sampling": {}});
    let call = json!({"name": "demo__ask_model", "arguments": {"question": "Why?"}, "_meta": meta});
    (world, call)
}

/// `call` retried with `state` and these answers.
fn retry(call: &Value, state: &str, responses: Value) -> Value {
    let mut retry = call.clone();
    retry["requestState"] = json!(state);
    retry["inputResponses"] = responses;
    retry
}

/// The agent's answer to the sampling question of `demo__ask_model`.
fn because() -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": "Because."}, "model": "agent"})
}

/// What a server asks while serving a stateless agent's call comes back to the agent as the
/// call's interim result; its retry brings the answer with the state, which only that call
/// of that agent can use; a retry without the answer is asked again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_agent_answers_a_servers_question_by_retrying_its_call() {
    use switchboard_core::approvals::{Question, Remember};

    let (mut world, call) = demo_asking_agent(json!({})).await;
    let mut agent = RawAgent::open(&world, "probe");
    let id = agent.send("tools/call", call.clone()).await;
    let asked = world.asked().await;
    let Question::ToolCall { arguments, .. } = asked.question else {
        panic!("{:?}", asked.question)
    };
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, &asked.server, true, arguments, Remember::Once)
        .unwrap();
    let interim = agent.answer_to(id).await["result"].clone();
    assert_eq!(interim["resultType"], "input_required", "{interim}");
    let requests = interim["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{interim}");
    let (key, question) = requests.iter().next().unwrap();
    assert_eq!(question["method"], "sampling/createMessage");
    assert!(
        question["params"].to_string().contains("Why?"),
        "{question}"
    );
    let state = interim["requestState"].as_str().unwrap().to_owned();

    let forged = agent
        .ask("tools/call", retry(&call, "forged", json!({})))
        .await;
    assert_eq!(forged["error"]["code"], -32602, "{forged}");
    let mut elsewhere = retry(&call, &state, json!({}));
    elsewhere["name"] = json!("demo__echo");
    let elsewhere = agent.ask("tools/call", elsewhere).await;
    assert_eq!(
        elsewhere["error"]["code"], -32602,
        "not that call's state: {elsewhere}"
    );

    // No answer: the same question again, under a new state.
    let again = agent
        .result("tools/call", retry(&call, &state, json!({})))
        .await;
    assert_eq!(again["inputRequests"][key], *question, "{again}");
    let renewed = again["requestState"].as_str().unwrap();
    assert_ne!(renewed, state);
    let done = agent
        .result(
            "tools/call",
            retry(&call, renewed, json!({ key: because() })),
        )
        .await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(text_of(&done), "Because.");
    let replayed = agent
        .ask(
            "tools/call",
            retry(&call, renewed, json!({ key: because() })),
        )
        .await;
    assert_eq!(replayed["error"]["code"], -32602, "used once: {replayed}");
}

/// An agent reached over Streamable HTTP with its token, each request a stateless POST.
struct HttpAgent {
    http: reqwest::Client,
    url: String,
    token: &'static str,
}

impl HttpAgent {
    /// The answer to a 2026-07-28 `tools/call` with these params.
    async fn call(&self, params: &Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
        let response = self
            .http
            .post(&self.url)
            .bearer_auth(self.token)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", params["name"].as_str().unwrap())
            .body(request.to_string())
            .send()
            .await
            .unwrap();
        let text = response.text().await.unwrap();
        // On an event stream, the answer is the data that has the request's id.
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .chain([text.as_str()])
            .filter_map(|json| serde_json::from_str::<Value>(json.trim()).ok())
            .find(|message| message["id"] == 1)
            .unwrap_or_else(|| panic!("no answer in {text:?}"))
    }
}

/// Over HTTP, where every agent's stateless calls are parked in one place, a call parked
/// for one agent cannot be taken up by another with its `requestState`, even for the same
/// tool; its own agent still can.
///
/// Mutation: deleting `p.agent == agent &&` in `gateway/session/asks.rs` `resume` lets
/// "other" answer the question and take the call's result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_agent_cannot_take_up_a_parked_call_with_its_state() {
    use std::sync::Arc;
    use switchboard_gateway::http_sessions;
    use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};

    let (world, call) = demo_asking_agent(allowing_probe()).await;
    world.desk.agents().save("other", None).await.unwrap();
    let tokens = |token: &str| match token {
        "probe-token" => Some(Identity::new("probe")),
        "other-token" => Some(Identity::new("other")),
        _ => None,
    };
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(options, Arc::new(http_sessions(&world.desk.agents())))
        .await
        .unwrap();
    let agent = |token| HttpAgent {
        http: reqwest::Client::new(),
        url: server.url(),
        token,
    };
    let (probe, other) = (agent("probe-token"), agent("other-token"));

    let interim = probe.call(&call).await["result"].clone();
    assert_eq!(interim["resultType"], "input_required", "{interim}");
    let key = interim["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    let state = interim["requestState"].as_str().unwrap();
    let answered = json!({ key: because() });

    let taken = other.call(&retry(&call, state, answered.clone())).await;
    assert_eq!(
        taken["error"]["code"], -32602,
        "another agent's call: {taken}"
    );
    let done = probe.call(&retry(&call, state, answered)).await["result"].clone();
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(text_of(&done), "Because.");
    server.shutdown().await;
}

/// A parked call is forgotten ten minutes after it was parked: its state is then refused
/// like a forged one. On the paused clock, once the call is parked.
///
/// Mutation: `let expired = lock(&calls.calls).remove(&forgotten);` made `let expired = ();`
/// in `gateway/session/asks.rs` `keep` lets the late retry take the call up.
#[tokio::test]
async fn a_parked_call_is_forgotten_after_ten_minutes() {
    use std::time::Duration;

    let (world, call) = demo_asking_agent(allowing_probe()).await;
    let mut agent = RawAgent::open(&world, "probe");
    let interim = agent.result("tools/call", call.clone()).await;
    let key = interim["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    let state = interim["requestState"].as_str().unwrap();

    tokio::time::pause();
    tokio::time::advance(Duration::from_secs(599)).await;
    let again = agent
        .result("tools/call", retry(&call, state, json!({})))
        .await;
    assert_eq!(
        again["resultType"], "input_required",
        "kept until then: {again}"
    );
    let renewed = again["requestState"].as_str().unwrap();
    // The timer counts in whole milliseconds, rounded up.
    tokio::time::advance(Duration::from_secs(600) + Duration::from_millis(1)).await;
    let late = agent
        .ask(
            "tools/call",
            retry(&call, renewed, json!({ key: because() })),
        )
        .await;
    assert_eq!(late["error"]["code"], -32602, "forgotten: {late}");
}

/// A stateless call hears the log messages its server sends meanwhile, at the level its
/// `_meta` asked for and above, before its result; a call that asked for none hears none;
/// a level that is not one is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_call_hears_its_servers_log_messages_at_the_level_it_asked_for() {
    let world = demo_allowing_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    let write_log = |level: &str, message: &str, wanted: Option<&str>| {
        let mut call = stateless(json!({
            "name": "demo__write_log",
            "arguments": {"level": level, "message": message}
        }));
        if let Some(wanted) = wanted {
            call["_meta"]["io.modelcontextprotocol/logLevel"] = json!(wanted);
        }
        call
    };
    // (what is logged, at which level, the level asked for, whether the agent hears it)
    let cases = [
        ("disk nearly full", "warning", Some("warning"), true),
        ("index rebuilt", "notice", Some("warning"), false),
        ("cannot reach the mirror", "error", None, false),
    ];
    for (message, level, wanted, heard) in cases {
        let id = agent
            .send("tools/call", write_log(level, message, wanted))
            .await;
        let (told, answer) = agent.told_then_answer(id).await;
        // The server did send it: what the agent hears is the gateway's choice.
        assert_eq!(text_of(&answer["result"]), "logged", "{answer}");
        let logged: Vec<&Value> = told
            .iter()
            .filter(|m| m["method"] == "notifications/message")
            .collect();
        if heard {
            assert_eq!(logged.len(), 1, "{message}: {told:?}");
            assert_eq!(logged[0]["params"]["level"], level);
            assert_eq!(logged[0]["params"]["logger"], "demo");
            assert!(
                logged[0]["params"]["data"]
                    .as_str()
                    .unwrap()
                    .contains(message),
                "{logged:?}"
            );
        } else {
            assert!(logged.is_empty(), "{message}: {told:?}");
        }
    }
    let refused = agent
        .ask("tools/call", write_log("error", "x", Some("loud")))
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

/// A stateless agent that can list its roots is asked for them when a server asks for roots
/// during its call, as the call's interim result: not before a call whose server asks
/// nothing. The folders it lists are offered to the person, naming the agent and the
/// servers that would see them, and the server meanwhile sees only what the person chose
/// (nothing yet); listed again unchanged, they are not offered again. An answer that is not
/// a list of roots is refused with the reason.
///
/// Mutation: `Asked::Roots => declared.supports_roots()` made `false` in
/// `desk/delegates.rs` `can_answer` sends the server's `roots/list` to the person's dialog:
/// no interim result comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_agent_is_asked_for_its_roots_when_a_server_asks_for_them() {
    use switchboard_core::approvals::Question;

    let mut world = demo_allowing_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    let with_roots = |name: &str, arguments: Value| {
        let mut call = stateless(json!({"name": name, "arguments": arguments}));
        call["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({"roots": {}});
        call
    };
    let echo = agent
        .result(
            "tools/call",
            with_roots("demo__echo", json!({"text": "hi"})),
        )
        .await;
    assert_eq!(
        (&echo["resultType"], text_of(&echo)),
        (&json!("complete"), "hi".to_owned()),
        "nothing asked: {echo}"
    );

    let call = with_roots("demo__list_roots", json!({}));
    let interim = agent.result("tools/call", call.clone()).await;
    assert_eq!(interim["resultType"], "input_required", "{interim}");
    let requests = interim["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{interim}");
    let (key, question) = requests.iter().next().unwrap();
    assert_eq!(question["method"], "roots/list", "{interim}");
    let project = world.dir.path().join("project");
    let listed =
        json!({"roots": [{"uri": format!("file://{}", project.display()), "name": "project"}]});
    let state = interim["requestState"].as_str().unwrap();
    let done = agent
        .result("tools/call", retry(&call, state, json!({ key: listed })))
        .await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(
        text_of(&done),
        "no roots shared",
        "not before the person chose"
    );
    let offered = world.asked().await;
    assert_eq!(
        offered.question,
        Question::AgentRoots {
            agent: "probe".into(),
            folders: vec![project.display().to_string()],
            servers: vec!["demo".into()],
        }
    );
    let interim = agent.result("tools/call", call.clone()).await;
    let state = interim["requestState"].as_str().unwrap();
    let key = interim["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    let again = agent
        .result("tools/call", retry(&call, state, json!({ key: listed })))
        .await;
    assert_eq!(again["resultType"], "complete", "{again}");
    let pending: Vec<_> = world
        .desk
        .trust()
        .pending()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(pending, [offered.id], "offered once");

    let interim = agent.result("tools/call", call.clone()).await;
    let state = interim["requestState"].as_str().unwrap();
    let key = interim["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    let bad = json!({ key: {"roots": "everything"} });
    let refused = agent.ask("tools/call", retry(&call, state, bad)).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("roots/list"),
        "{refused}"
    );
}

/// Answers that are not answers (`inputResponses` not an object of objects) are refused at
/// once with the reason, whether they come with a call or its retry: the call never starts.
///
/// Mutation: `Some(_) => Err(malformed())` made `Some(_) => Ok(Map::new())` in
/// `gateway/session/asks.rs` `answers` lets the call run and complete.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_answers_are_refused_at_once() {
    let world = demo_allowing_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    for malformed in [json!(null), json!({"user_name": 12345}), json!(["yes"])] {
        let mut call = stateless(json!({"name": "demo__echo", "arguments": {"text": "hi"}}));
        call["inputResponses"] = malformed.clone();
        let refused = agent.ask("tools/call", call).await;
        assert_eq!(refused["error"]["code"], -32602, "{malformed}: {refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("inputResponses"),
            "{refused}"
        );
    }
}

/// A server's question while it serves a stateless agent's read (here `prompts/get` of a
/// TypeScript SDK server that asks for a form first) comes back to the agent as the read's
/// interim result, as a tool call's would; meanwhile the read is listed among the calls
/// under way (the activity view) as what it is, and the agent's retry with its answer gets
/// the prompt, marked with the server that gave it.
///
/// Mutation: deleting `self.call_served(&token);` in `desk/agents.rs` `agent_read` leaves
/// the read waiting for a decision as far as the desk knows, so the server's form goes to
/// the person's dialog: no interim result comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_agent_answers_a_servers_question_during_its_read() {
    use switchboard_core::config::AgentAnswers;

    let world = peer_with_agent().await;
    let answers = AgentAnswers {
        sampling: false,
        elicitation: true,
    };
    world
        .desk
        .agents()
        .set_answers("probe", answers)
        .await
        .unwrap();
    let mut agent = RawAgent::open(&world, "probe");
    let mut get = stateless(json!({"name": "peer__test_input_required_result_prompt"}));
    get["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({"elicitation": {}});

    let interim = agent.result("prompts/get", get.clone()).await;
    assert_eq!(interim["resultType"], "input_required", "{interim}");
    let question = &interim["inputRequests"]["user_context"];
    assert_eq!(
        (&question["method"], &question["params"]["message"]),
        (
            &json!("elicitation/create"),
            &json!("What context should the prompt use?")
        ),
        "{interim}"
    );
    let listed: Vec<_> = world
        .desk
        .explorer()
        .calls_in_flight()
        .into_iter()
        .map(|item| (item.server, item.label, item.read))
        .collect();
    assert_eq!(
        listed,
        [(
            "peer".to_owned(),
            "Prompt test_input_required_result_prompt".to_owned(),
            Some(Read::Prompt {
                name: "test_input_required_result_prompt".into(),
                arguments: Default::default()
            })
        )]
    );

    let state = interim["requestState"].as_str().unwrap();
    let answer = json!({"action": "accept", "content": {"context": "tests"}});
    let done = agent
        .result(
            "prompts/get",
            retry(&get, state, json!({ "user_context": answer })),
        )
        .await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(
        done["messages"][0]["content"]["text"], "Prompt with context",
        "{done}"
    );
    assert_eq!(done["_meta"]["switchboard/server"], "peer", "{done}");
    assert!(
        world.desk.explorer().calls_in_flight().is_empty(),
        "the read ended"
    );
}

/// Every progress report a server sends before its result reaches the agent before the
/// result, the last step too (the suite's `test_tool_with_progress` reports 0, 50 and 100,
/// then answers at once): call after call, none is lost to the result overtaking it.
///
/// Mutation: deleting the `while let Ok(step) = updates.try_recv()` loop after the call in
/// `desk/explore.rs` `call_tool_reporting` loses the last step of the first call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_calls_progress_reaches_the_agent_before_its_result() {
    let world = peer_with_agent().await;
    let mut agent = RawAgent::open(&world, "probe");
    agent.result("initialize", initialize("2025-11-25")).await;
    for n in 0..20 {
        let call = json!({
            "name": "peer__test_tool_with_progress",
            "arguments": {},
            "_meta": {"progressToken": format!("step-{n}")}
        });
        let id = agent.send("tools/call", call).await;
        let (told, answer) = agent.told_then_answer(id).await;
        let steps: Vec<&Value> = told
            .iter()
            .filter(|m| m["params"]["progressToken"] == format!("step-{n}"))
            .map(|m| &m["params"]["progress"])
            .collect();
        assert_eq!(
            steps,
            [&json!(0.0), &json!(50.0), &json!(100.0)],
            "call {n}"
        );
        assert_eq!(text_of(&answer["result"]), "Progress tool done");
    }
}
