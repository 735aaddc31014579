//! The traffic observer: it sees every message both ways, exactly as written, and one
//! that does not keep up loses copies (counted) while the connection goes on unhindered.

use std::sync::Arc;

use serde_json::{Value, json};
use switchboard_mcp::connection::{Connection, RequestOptions};
use switchboard_mcp::traffic::{self, Direction, Observed};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};

use crate::common::NoRequests;

/// Answers every request of the client with `{"n": <its id>}`, until the client is gone.
fn answer_everything(mut peer: MemoryPeer) -> tokio::task::JoinHandle<MemoryPeer> {
    tokio::spawn(async move {
        while let Some(text) = peer.from_client.recv().await {
            let message: Value = serde_json::from_str(&text).expect("JSON");
            if message.get("method").is_some() && message.get("id").is_some() {
                let reply =
                    json!({"jsonrpc": "2.0", "id": message["id"], "result": {"n": message["id"]}});
                if peer.to_client.send(reply.to_string()).await.is_err() {
                    break;
                }
            }
        }
        peer
    })
}

fn parsed(observed: &Observed) -> Value {
    serde_json::from_str(&observed.clone().json()).expect("an observed message is JSON")
}

#[tokio::test]
async fn the_observer_sees_each_request_and_its_response_both_ways_with_their_ids() {
    let (transport, mut peer) = memory::pair(discard_log());
    let (observer, mut seen) = traffic::observer(16);
    let connection = Connection::start_observed(transport, Arc::new(NoRequests), Some(observer));

    // Ours: a request, answered by the peer.
    let call = tokio::spawn({
        let connection = connection.clone();
        async move {
            connection
                .request("tools/list", None, RequestOptions::default())
                .await
        }
    });
    let wire = peer.from_client.recv().await.expect("the request");
    let request: Value = serde_json::from_str(&wire).unwrap();
    peer.to_client
        .send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": []}}).to_string())
        .await
        .unwrap();
    assert_eq!(call.await.unwrap().unwrap(), json!({"tools": []}));
    // The peer's: a request the client answers (unknown here: an error).
    peer.to_client
        .send(json!({"jsonrpc": "2.0", "id": "p-1", "method": "roots/list"}).to_string())
        .await
        .unwrap();
    let reply = peer.from_client.recv().await.expect("the client's answer");

    let mut got = Vec::new();
    for _ in 0..4 {
        got.push(seen.recv().await.expect("observed"));
    }
    let directions: Vec<Direction> = got.iter().map(|o| o.direction).collect();
    assert_eq!(
        directions,
        [
            Direction::Sent,
            Direction::Received,
            Direction::Received,
            Direction::Sent
        ]
    );
    // What was sent is seen exactly as written.
    assert_eq!(got[0].clone().json(), wire);
    assert_eq!(got[3].clone().json(), reply);
    let [sent, answered, asked, replied] = got
        .iter()
        .map(parsed)
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert_eq!(sent["method"], "tools/list");
    assert_eq!(answered["id"], sent["id"]);
    assert_eq!(answered["result"], json!({"tools": []}));
    assert_eq!(asked["method"], "roots/list");
    assert_eq!(replied["id"], "p-1");
    assert_eq!(replied["error"]["code"], -32601);
    assert!(got.windows(2).all(|w| w[0].at <= w[1].at));
    assert_eq!(seen.dropped(), 0);
}

#[tokio::test]
async fn an_observer_that_never_reads_loses_copies_and_holds_up_no_call() {
    let (transport, peer) = memory::pair(discard_log());
    // Room for one message, never read: every other copy is dropped.
    let (observer, seen) = traffic::observer(1);
    let connection = Connection::start_observed(transport, Arc::new(NoRequests), Some(observer));
    let peer = answer_everything(peer);

    const CALLS: u64 = 200;
    let calls: Vec<_> = (0..CALLS)
        .map(|_| {
            let connection = connection.clone();
            tokio::spawn(async move {
                connection
                    .request("ping", None, RequestOptions::default())
                    .await
            })
        })
        .collect();
    for call in calls {
        let result = call.await.unwrap().expect("answered");
        assert!(result["n"].is_i64(), "{result}");
    }
    // A request and a response per call; one copy fits, the rest were dropped.
    assert_eq!(seen.dropped(), 2 * CALLS - 1);
    connection.close().await;
    drop(peer);
}
