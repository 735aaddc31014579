//! The few JSON-RPC messages this peer reads and writes.

use serde_json::{Value, json};

pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// A message from the client, as far as this peer cares.
pub enum Incoming {
    Request {
        id: Value,
        method: String,
    },
    Notification {
        method: String,
    },
    /// The client's answer to a request of ours: the whole message.
    Response {
        id: Value,
        message: Value,
    },
}

impl Incoming {
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let message: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => Ok(Self::Request {
                id: id.clone(),
                method: method.to_owned(),
            }),
            (Some(method), None) => Ok(Self::Notification {
                method: method.to_owned(),
            }),
            (None, Some(id)) => Ok(Self::Response {
                id: id.clone(),
                message,
            }),
            (None, None) => Err("neither a request, a notification nor a response".into()),
        }
    }
}

pub fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub fn request(id: &str, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The handshake's answer: a server of tools only, which is all every mode needs.
pub fn initialize_result(id: &Value) -> Value {
    result(
        id,
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile-peer", "version": env!("CARGO_PKG_VERSION")},
        }),
    )
}

pub fn tool(name: &str) -> Value {
    json!({"name": name, "description": "Answers \"poked\"", "inputSchema": {"type": "object"}})
}

pub fn tool_text(id: &Value, text: &str) -> Value {
    result(id, json!({"content": [{"type": "text", "text": text}]}))
}

/// A `notifications/message` of the flood, already serialized: a flood is mostly formatting.
pub fn log_line(n: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"notification {n}"}}}}"#
    )
}

/// A `notifications/message` whose text is `bytes` long.
pub fn huge_log_line(n: u64, bytes: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"huge","data":"{n} {}"}}}}"#,
        "~".repeat(bytes)
    )
}
