//! The reference line: what serde_json alone spends on one echo exchange (the request and
//! the response, each encoded to a line and decoded back to a `Value`). No client that
//! speaks JSON-RPC through serde_json can spend less per call.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ROUNDS: usize = 7;
const PAIRS_PER_ROUND: u32 = 20_000;

/// The best of several rounds: the cost without the noise of other processes.
pub fn echo_pair(text: &str) -> Duration {
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": text}},
    });
    let response = json!({
        "jsonrpc": "2.0", "id": 1,
        "result": {"content": [{"type": "text", "text": text}]},
    });
    let round_trip = |message: &Value| {
        let line = serde_json::to_string(black_box(message)).expect("a Value encodes");
        let back: Value = serde_json::from_str(black_box(&line)).expect("its own output decodes");
        black_box(back);
    };
    (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..PAIRS_PER_ROUND {
                round_trip(&request);
                round_trip(&response);
            }
            started.elapsed() / PAIRS_PER_ROUND
        })
        .min()
        .expect("at least one round")
}
