//! A small server on the engine's server role, for the Streamable HTTP server's tests and
//! benchmark: tools that echo, log, count (with progress), wait until cancelled, answer
//! after a while (as a person deciding would), ask the client (elicitation), say who the
//! session's token named, route (its arguments marked `x-mcp-header`, which the server lists
//! to the transport), and end the session from the server's side. An `initialize` without
//! `clientInfo` is refused. It reports what a test cannot
//! see from the client: that a cancelled call's work was dropped.

use std::sync::Arc;

use serde_json::{Value, json};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::connection::{IncomingHandler, RequestOptions};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::http::{SessionFactory, SessionStart};
use switchboard_mcp::transport::BoxFuture;
use tokio::sync::mpsc;

/// What the server saw that only it can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// A `wait` call was dropped because the client cancelled it.
    WaitCancelled,
    /// A session's handler was dropped: the session ended.
    SessionEnded,
    /// An `ask` call with noise sent its question, then its noise.
    Asked,
}

/// The factory: one [`Served`] per session, all reporting to one channel.
pub fn factory(seen: mpsc::UnboundedSender<Seen>) -> Arc<dyn SessionFactory> {
    Arc::new(move |session: SessionStart| -> Arc<dyn IncomingHandler> {
        Arc::new(Served {
            session: Arc::new(session),
            seen: seen.clone(),
        })
    })
}

pub struct Served {
    session: Arc<SessionStart>,
    seen: mpsc::UnboundedSender<Seen>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.seen.send(Seen::SessionEnded);
    }
}

impl IncomingHandler for Served {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let session = self.session.clone();
        let seen = self.seen.clone();
        let params = params.unwrap_or(Value::Null);
        Box::pin(async move {
            match method.as_str() {
                "initialize" => initialize(&params),
                "tools/list" => Ok(tools()),
                "tools/call" => call(&session, seen, &params).await,
                _ => Err(ErrorObject::method_not_found(&method)),
            }
        })
    }

    fn notification(&self, _method: String, _params: Option<Value>) {}

    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let listed = tools();
        let tool = listed["tools"]
            .as_array()?
            .iter()
            .find(|t| t["name"] == name)?;
        Some(tool["inputSchema"].clone())
    }
}

fn initialize(params: &Value) -> Result<Value, ErrorObject> {
    if params.get("clientInfo").is_none() {
        return Err(ErrorObject::invalid_params(
            "initialize names no clientInfo",
        ));
    }
    let asked = params["protocolVersion"]
        .as_str()
        .and_then(|v| v.parse::<ProtocolVersion>().ok());
    let version = asked
        .filter(|v| v.is_stateful())
        .unwrap_or(ProtocolVersion::LATEST_STATEFUL);
    Ok(json!({
        "protocolVersion": version.as_str(),
        "capabilities": {"tools": {}, "logging": {}},
        "serverInfo": {"name": "switchboard-served", "version": "0"}
    }))
}

fn tools() -> Value {
    let tool = |name: &str, description: &str, properties: Value| json!({"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties}});
    json!({"tools": [
        tool("echo", "Returns the text", json!({"text": {"type": "string"}})),
        tool("log", "Logs the text (notifications/message)", json!({"text": {"type": "string"}})),
        tool("count", "Reports progress once per step, each with a message of `pad` bytes", json!({"steps": {"type": "integer"}, "pad": {"type": "integer"}})),
        tool("wait", "Reports progress once, then waits until cancelled", json!({})),
        tool("slow", "Reports progress once, then answers after the given seconds", json!({"seconds": {"type": "integer"}})),
        tool("ask", "Asks the client a question (elicitation), and logs `noise` lines while it waits", json!({"noise": {"type": "integer"}})),
        tool("whoami", "The identity the session's token named", json!({})),
        tool("route", "Says where a request would go", json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "query": {"type": "string"}
        })),
        tool("leave", "Ends the session from the server's side", json!({})),
    ]})
}

fn text(text: impl Into<String>) -> Value {
    json!({"content": [{"type": "text", "text": text.into()}]})
}

/// Tells the seen channel when a `wait` call is dropped before it ends.
struct DropReport(mpsc::UnboundedSender<Seen>);

impl Drop for DropReport {
    fn drop(&mut self) {
        let _ = self.0.send(Seen::WaitCancelled);
    }
}

async fn call(
    session: &SessionStart,
    seen: mpsc::UnboundedSender<Seen>,
    params: &Value,
) -> Result<Value, ErrorObject> {
    let peer = session
        .peer
        .connection()
        .ok_or_else(|| ErrorObject::new(-32603, "the session is over"))?;
    let token = params["_meta"]["progressToken"].clone();
    let progress = |progress: u64, total: Option<u64>| {
        let mut params = json!({"progressToken": token, "progress": progress});
        if let Some(total) = total {
            params["total"] = total.into();
        }
        params
    };
    let arguments = &params["arguments"];
    match params["name"].as_str().unwrap_or_default() {
        "echo" => Ok(text(arguments["text"].as_str().unwrap_or_default())),
        "log" => {
            let said = arguments["text"].as_str().unwrap_or_default();
            let log = json!({"level": "info", "logger": "log", "data": said});
            let _ = peer.notify("notifications/message", Some(log)).await;
            Ok(text("logged"))
        }
        "count" => {
            let steps = arguments["steps"].as_u64().unwrap_or(1);
            let pad = arguments["pad"].as_u64().unwrap_or(0);
            let message = "x".repeat(usize::try_from(pad).unwrap_or(0));
            if !token.is_null() {
                for step in 1..=steps {
                    let mut params = progress(step, Some(steps));
                    if pad > 0 {
                        params["message"] = message.as_str().into();
                    }
                    let _ = peer.notify("notifications/progress", Some(params)).await;
                }
            }
            Ok(text(format!("counted {steps}")))
        }
        "wait" => {
            let _report = DropReport(seen);
            let _ = peer
                .notify("notifications/progress", Some(progress(1, None)))
                .await;
            std::future::pending::<()>().await;
            unreachable!("only cancellation ends a wait")
        }
        "slow" => {
            let seconds = arguments["seconds"].as_u64().unwrap_or(1);
            if !token.is_null() {
                let _ = peer
                    .notify("notifications/progress", Some(progress(0, None)))
                    .await;
            }
            tokio::time::sleep(std::time::Duration::from_secs(seconds)).await;
            Ok(text(format!("slept {seconds} s")))
        }
        "leave" => {
            // Closing waits for the calls in flight, this one among them: not from within it.
            tokio::spawn(async move { peer.close().await });
            Ok(text("leaving"))
        }
        "ask" => {
            let question = json!({
                "message": "Go ahead?",
                "requestedSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}
            });
            let asked = peer.request(
                "elicitation/create",
                Some(question),
                RequestOptions::default(),
            );
            tokio::pin!(asked);
            // Polled once, the question is on its way: the noise follows it.
            let answered = tokio::select! {
                biased;
                answer = &mut asked => Some(answer),
                () = std::future::ready(()) => None,
            };
            let answer = match answered {
                Some(answer) => answer,
                None => {
                    let noise = arguments["noise"].as_u64().unwrap_or(0);
                    for line in 0..noise {
                        let log = json!({"level": "info", "logger": "noise", "data": line});
                        let _ = peer.notify("notifications/message", Some(log)).await;
                    }
                    if noise > 0 {
                        let _ = seen.send(Seen::Asked);
                    }
                    asked.await
                }
            }
            .map_err(|err| ErrorObject::new(-32603, err.to_string()))?;
            Ok(text(format!(
                "{}: {}",
                answer["action"].as_str().unwrap_or("?"),
                answer["content"]["answer"].as_str().unwrap_or("")
            )))
        }
        "route" => Ok(text(format!(
            "{} at {}",
            arguments["region"].as_str().unwrap_or("nowhere"),
            arguments["priority"]
        ))),
        "whoami" => Ok(text(
            session
                .identity
                .as_ref()
                .map_or("anonymous", |i| i.as_str()),
        )),
        other => Err(ErrorObject::invalid_params(format!("no tool {other:?}"))),
    }
}
