//! The connection actor over an in-memory transport, checked message by message against
//! the exact JSON on the wire. Time is paused: timeouts elapse instantly and exactly.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::connection::{
    Connection, IncomingHandler, Progress, RequestError, RequestOptions,
};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::transport::{BoxFuture, LogLine, LogSink, discard_log};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

/// Answers `echo` with its params, holds `hold` (and a listen stream) until cancelled, records notifications.
#[derive(Default)]
struct Recorder {
    notifications: Mutex<Vec<(String, Option<Value>)>>,
    held_dropped: Arc<Notify>,
}

struct DropSignal(Arc<Notify>);

impl Drop for DropSignal {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

impl IncomingHandler for Recorder {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let signal = DropSignal(self.held_dropped.clone());
        Box::pin(async move {
            match method.as_str() {
                "echo" => Ok(params.unwrap_or(Value::Null)),
                "hold" | "subscriptions/listen" => {
                    let _signal = signal;
                    std::future::pending().await
                }
                other => Err(ErrorObject::method_not_found(other)),
            }
        })
    }

    fn notification(&self, method: String, params: Option<Value>) {
        self.notifications
            .lock()
            .expect("lock")
            .push((method, params));
    }
}

fn start() -> (Connection, MemoryPeer, Arc<Recorder>) {
    let (transport, peer) = memory::pair(discard_log());
    let recorder = Arc::new(Recorder::default());
    (
        Connection::start(transport, recorder.clone()),
        peer,
        recorder,
    )
}

async fn next_json(peer: &mut MemoryPeer) -> Value {
    let text = peer
        .from_client
        .recv()
        .await
        .expect("the client sent something");
    serde_json::from_str(&text).expect("the client sends JSON")
}

async fn reply(peer: &MemoryPeer, message: Value) {
    peer.to_client
        .send(message.to_string())
        .await
        .expect("the client is listening");
}

fn quick(timeout_ms: u64) -> RequestOptions {
    RequestOptions {
        timeout: Duration::from_millis(timeout_ms),
        ..RequestOptions::default()
    }
}

#[tokio::test(start_paused = true)]
async fn requests_carry_unique_ids_and_answers_are_matched_out_of_order() {
    let (conn, mut peer, _) = start();
    let first = tokio::spawn({
        let conn = conn.clone();
        async move {
            conn.request("tools/list", Some(json!({})), quick(5_000))
                .await
        }
    });
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    );
    let second = tokio::spawn({
        let conn = conn.clone();
        async move { conn.request("prompts/list", None, quick(5_000)).await }
    });
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/list"})
    );
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"which": "second"}}),
    )
    .await;
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"which": "first"}}),
    )
    .await;
    assert_eq!(first.await.unwrap(), Ok(json!({"which": "first"})));
    assert_eq!(second.await.unwrap(), Ok(json!({"which": "second"})));
}

#[tokio::test(start_paused = true)]
async fn an_error_answer_is_typed_with_the_servers_code_and_message() {
    let (conn, mut peer, _) = start();
    let call = tokio::spawn(async move { conn.request("tools/call", None, quick(5_000)).await });
    next_json(&mut peer).await;
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad tool"}}),
    )
    .await;
    assert_eq!(
        call.await.unwrap(),
        Err(RequestError::Server {
            method: "tools/call".into(),
            error: ErrorObject::new(-32602, "bad tool"),
        })
    );
}

#[tokio::test(start_paused = true)]
async fn typed_params_go_on_the_wire_as_they_are_and_unencodable_ones_fail_at_once() {
    let (conn, mut peer, _) = start();
    #[derive(serde::Serialize)]
    struct Params {
        name: &'static str,
        count: u8,
    }
    let call = tokio::spawn({
        let conn = conn.clone();
        async move {
            let params = Params {
                name: "x",
                count: 2,
            };
            conn.request_with("tools/call", &params, quick(5_000)).await
        }
    });
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "count": 2}})
    );
    reply(&peer, json!({"jsonrpc": "2.0", "id": 1, "result": {}})).await;
    assert_eq!(call.await.unwrap(), Ok(json!({})));

    // JSON object keys must be strings: these params cannot be sent at all.
    let odd: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
    let failed = conn.request_with("tools/call", &odd, quick(5_000)).await;
    assert!(
        matches!(&failed, Err(RequestError::Encode { method, .. }) if method == "tools/call"),
        "{failed:?}"
    );
    assert!(
        peer.from_client.try_recv().is_err(),
        "nothing went on the wire"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timeout_tells_the_server_and_its_late_answer_is_ignored() {
    let (conn, mut peer, _) = start();
    let outcome = conn.request("slow", None, quick(250)).await;
    assert!(
        matches!(&outcome, Err(RequestError::Timeout { method, after }) if method == "slow" && *after == Duration::from_millis(250)),
        "{outcome:?}"
    );
    assert_eq!(next_json(&mut peer).await["id"], 1);
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "timed out"}})
    );
    // The late answer to 1 must not be taken for the answer to 2.
    reply(&peer, json!({"jsonrpc": "2.0", "id": 1, "result": "late"})).await;
    let next = tokio::spawn(async move { conn.request("fast", None, quick(5_000)).await });
    assert_eq!(next_json(&mut peer).await["id"], 2);
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 2, "result": "on time"}),
    )
    .await;
    assert_eq!(next.await.unwrap(), Ok(json!("on time")));
}

#[tokio::test(start_paused = true)]
async fn cancelling_a_request_tells_the_server_why() {
    let (conn, mut peer, _) = start();
    let cancel = CancellationToken::new();
    let options = RequestOptions {
        cancel: Some(cancel.clone()),
        ..quick(60_000)
    };
    let call = tokio::spawn(async move { conn.request("tools/call", None, options).await });
    next_json(&mut peer).await;
    cancel.cancel();
    assert_eq!(
        call.await.unwrap(),
        Err(RequestError::Cancelled {
            method: "tools/call".into()
        })
    );
    assert_eq!(
        next_json(&mut peer).await["params"],
        json!({"requestId": 1, "reason": "cancelled by the user"})
    );
}

#[tokio::test(start_paused = true)]
async fn a_caller_that_stops_waiting_cancels_its_request() {
    let (conn, mut peer, _) = start();
    let call = tokio::spawn({
        let conn = conn.clone();
        async move { conn.request("tools/call", None, quick(60_000)).await }
    });
    next_json(&mut peer).await;
    call.abort();
    assert_eq!(
        next_json(&mut peer).await["params"],
        json!({"requestId": 1, "reason": "the client stopped waiting"})
    );
}

#[tokio::test(start_paused = true)]
async fn initialize_is_never_cancelled() {
    let (conn, mut peer, _) = start();
    let outcome = conn.request("initialize", None, quick(100)).await;
    assert!(matches!(outcome, Err(RequestError::Timeout { .. })));
    assert_eq!(next_json(&mut peer).await["method"], "initialize");
    // The next message is the next request, not a cancellation.
    drop(tokio::spawn(async move {
        conn.request("ping", None, quick(100)).await
    }));
    assert_eq!(next_json(&mut peer).await["method"], "ping");
}

#[tokio::test(start_paused = true)]
async fn progress_reaches_the_caller_and_restarts_the_timeout() {
    let (conn, mut peer, _) = start();
    let (progress, mut seen) = mpsc::channel(8);
    let options = RequestOptions {
        progress: Some(progress),
        reset_timeout_on_progress: true,
        ..quick(1_000)
    };
    let call = tokio::spawn(async move {
        conn.request("tools/call", Some(json!({"name": "slow"})), options)
            .await
    });
    assert_eq!(
        next_json(&mut peer).await["params"],
        json!({"name": "slow", "_meta": {"progressToken": 1}})
    );
    // Three steps 800 ms apart: 2.4 s in all, past the 1 s timeout but never 1 s apart.
    for step in 1..=3 {
        tokio::time::sleep(Duration::from_millis(800)).await;
        reply(&peer, json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": step, "total": 3, "message": format!("step {step}")}})).await;
        assert_eq!(
            seen.recv().await,
            Some(Progress {
                progress: f64::from(step),
                total: Some(3.0),
                message: Some(format!("step {step}"))
            })
        );
    }
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}),
    )
    .await;
    assert_eq!(call.await.unwrap(), Ok(json!({"content": []})));
}

#[tokio::test(start_paused = true)]
async fn the_total_bound_holds_whatever_progress_arrives() {
    let (conn, mut peer, _) = start();
    let options = RequestOptions {
        reset_timeout_on_progress: true,
        max_total: Some(Duration::from_millis(1_500)),
        ..quick(1_000)
    };
    let call = tokio::spawn(async move { conn.request("tools/call", None, options).await });
    next_json(&mut peer).await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    reply(&peer, json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})).await;
    let outcome = call.await.unwrap();
    assert!(
        matches!(outcome, Err(RequestError::Timeout { after, .. }) if after == Duration::from_millis(1_500)),
        "{outcome:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn no_request_lasts_longer_than_ten_minutes_by_default_whatever_progress_arrives() {
    let (conn, mut peer, _) = start();
    let options = RequestOptions {
        reset_timeout_on_progress: true,
        ..quick(60_000)
    };
    let call = tokio::spawn(async move { conn.request("tools/call", None, options).await });
    next_json(&mut peer).await;
    // Progress every 30 s, for an hour if nothing stops it.
    let reporter = tokio::spawn(async move {
        for step in 1..=120 {
            tokio::time::sleep(Duration::from_secs(30)).await;
            reply(&peer, json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": step}})).await;
        }
    });
    let outcome = call.await.unwrap();
    assert!(
        matches!(outcome, Err(RequestError::Timeout { after, .. }) if after == Duration::from_secs(600)),
        "{outcome:?}"
    );
    reporter.abort();
}

#[tokio::test(start_paused = true)]
async fn the_servers_requests_are_answered_by_the_handler() {
    let (_conn, mut peer, _) = start();
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": "s-1", "method": "echo", "params": {"x": 1}}),
    )
    .await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": "s-1", "result": {"x": 1}})
    );
    reply(&peer, json!({"jsonrpc": "2.0", "id": 9, "method": "ping"})).await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 9, "result": {}})
    );
    reply(&peer, json!({"jsonrpc": "2.0", "id": 10, "method": "nope"})).await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 10, "error": {"code": -32601, "message": "method not found: nope"}})
    );
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_server_request_stops_its_handler_and_gets_no_answer() {
    let (_conn, mut peer, recorder) = start();
    reply(&peer, json!({"jsonrpc": "2.0", "id": 5, "method": "hold"})).await;
    reply(&peer, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5, "reason": "user left"}})).await;
    recorder.held_dropped.notified().await;
    // The next answer on the wire is for the next request: nothing was sent for 5.
    reply(&peer, json!({"jsonrpc": "2.0", "id": 6, "method": "ping"})).await;
    assert_eq!(next_json(&mut peer).await["id"], 6);
}

/// A peer that sends request after request without waiting has at most 64 answered at
/// once: the next is refused at once, saying why, until one of them is done.
#[tokio::test(start_paused = true)]
async fn at_most_64_requests_of_the_peer_are_answered_at_once() {
    let (_conn, mut peer, recorder) = start();
    for id in 0..64 {
        reply(&peer, json!({"jsonrpc": "2.0", "id": id, "method": "hold"})).await;
    }
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 64, "method": "echo", "params": {}}),
    )
    .await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 64, "error": {"code": -32603,
            "message": "too many requests in progress: 64 are being answered; send it again once one is done"}})
    );
    // One of them ends: the next is answered.
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 0}}),
    )
    .await;
    recorder.held_dropped.notified().await;
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 65, "method": "echo", "params": {"a": 1}}),
    )
    .await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 65, "result": {"a": 1}})
    );
}

/// A peer's listen streams (the stateless era's `subscriptions/listen`, open as long as it
/// is connected) take none of the 64 places of the requests being answered: an agent that
/// listens can still have 64 calls under way. They have a bound of their own.
#[tokio::test(start_paused = true)]
async fn listen_streams_leave_the_64_places_to_requests_and_are_bounded_apart() {
    let (_conn, mut peer, _recorder) = start();
    let listen = |id: i64| json!({"jsonrpc": "2.0", "id": format!("listen-{id}"), "method": "subscriptions/listen", "params": {}});
    for id in 0..4 {
        reply(&peer, listen(id)).await;
    }
    for id in 0..63 {
        reply(&peer, json!({"jsonrpc": "2.0", "id": id, "method": "hold"})).await;
    }
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": 63, "method": "echo", "params": {"a": 1}}),
    )
    .await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 63, "result": {"a": 1}})
    );
    reply(&peer, listen(4)).await;
    // Bounded: a fifth stream held open would never answer.
    let refused = tokio::time::timeout(Duration::from_secs(60), next_json(&mut peer)).await;
    assert_eq!(
        refused.expect("the fifth stream is answered at once"),
        json!({"jsonrpc": "2.0", "id": "listen-4", "error": {"code": -32603,
            "message": "too many listen streams: 4 are open; close one first"}})
    );
}

/// An id the peer uses again while its first request is being answered is refused: the
/// first request keeps its id, its answer and its cancellation.
#[tokio::test(start_paused = true)]
async fn a_request_id_still_being_answered_is_refused_when_used_again() {
    let (_conn, mut peer, recorder) = start();
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": "a", "method": "hold"}),
    )
    .await;
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": "a", "method": "echo", "params": {}}),
    )
    .await;
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": "a", "error": {"code": -32600,
            "message": "request id \"a\" is in use by a request still being answered"}})
    );
    reply(&peer, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "a"}})).await;
    recorder.held_dropped.notified().await;
    // Nothing more was sent for "a": the next answer is the next request's.
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "id": "b", "method": "ping"}),
    )
    .await;
    assert_eq!(next_json(&mut peer).await["id"], "b");
}

#[tokio::test(start_paused = true)]
async fn notifications_reach_the_handler_and_garbage_is_skipped() {
    let (conn, mut peer, recorder) = start();
    peer.to_client
        .send("this is not json".into())
        .await
        .unwrap();
    peer.to_client
        .send(r#"{"jsonrpc":"1.0","method":"x"}"#.into())
        .await
        .unwrap();
    reply(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
    )
    .await;
    // A round trip proves everything before it was processed.
    let call = tokio::spawn(async move { conn.request("ping", None, quick(1_000)).await });
    next_json(&mut peer).await;
    reply(&peer, json!({"jsonrpc": "2.0", "id": 1, "result": {}})).await;
    call.await.unwrap().unwrap();
    assert_eq!(
        *recorder.notifications.lock().unwrap(),
        [("notifications/tools/list_changed".to_owned(), None)]
    );
}

#[tokio::test(start_paused = true)]
async fn when_the_server_goes_away_every_request_in_flight_fails_at_once() {
    let (conn, mut peer, _) = start();
    let calls: Vec<_> = (0..3)
        .map(|_| {
            let conn = conn.clone();
            tokio::spawn(async move { conn.request("tools/call", None, quick(60_000)).await })
        })
        .collect();
    for _ in 0..3 {
        next_json(&mut peer).await;
    }
    drop(peer);
    for call in calls {
        let outcome = call.await.unwrap();
        assert!(
            matches!(&outcome, Err(RequestError::Closed(reason)) if reason.detail == "the peer closed the connection"),
            "{outcome:?}"
        );
    }
    assert!(conn.closed().is_some());
    assert!(matches!(
        conn.request("ping", None, quick(1_000)).await,
        Err(RequestError::Closed(_))
    ));
}

/// Starts a connection whose transport's log is kept.
fn start_logged() -> (Connection, MemoryPeer, Arc<Mutex<Vec<LogLine>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink: LogSink = Arc::new({
        let lines = lines.clone();
        move |line| lines.lock().expect("lock").push(line)
    });
    let (transport, peer) = memory::pair(sink);
    let conn = Connection::start(transport, Arc::new(Recorder::default()));
    (conn, peer, lines)
}

/// Opens a `subscriptions/listen`, which stays waiting as long as the connection lives.
fn listen(conn: &Connection) -> tokio::task::JoinHandle<Result<Value, RequestError>> {
    let conn = conn.clone();
    let options = RequestOptions {
        timeout: Duration::from_secs(365 * 24 * 3600),
        max_total: None,
        ..RequestOptions::default()
    };
    tokio::spawn(async move {
        conn.request("subscriptions/listen", Some(json!({})), options)
            .await
    })
}

fn call(conn: &Connection) -> tokio::task::JoinHandle<Result<Value, RequestError>> {
    let conn = conn.clone();
    tokio::spawn(async move { conn.request("tools/call", None, quick(60_000)).await })
}

fn parse_error_without_id() -> Value {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})
}

#[tokio::test(start_paused = true)]
async fn an_error_without_an_id_fails_the_one_call_waiting_not_an_open_listen() {
    let (conn, mut peer, _) = start_logged();
    let listening = listen(&conn);
    assert_eq!(next_json(&mut peer).await["method"], "subscriptions/listen");
    let waiting = call(&conn);
    assert_eq!(next_json(&mut peer).await["id"], 2);
    reply(&peer, parse_error_without_id()).await;
    assert_eq!(
        waiting.await.unwrap(),
        Err(RequestError::Server {
            method: "tools/call".into(),
            error: ErrorObject::new(-32700, "Parse error"),
        })
    );
    // The listen still waits for its own answer.
    reply(&peer, json!({"jsonrpc": "2.0", "id": 1, "result": {}})).await;
    assert_eq!(listening.await.unwrap(), Ok(json!({})));
}

#[tokio::test(start_paused = true)]
async fn an_error_without_an_id_among_several_calls_fails_none_and_is_logged() {
    let (conn, mut peer, log) = start_logged();
    let listening = listen(&conn);
    next_json(&mut peer).await;
    let (first, second) = (call(&conn), call(&conn));
    next_json(&mut peer).await;
    next_json(&mut peer).await;
    reply(&peer, parse_error_without_id()).await;
    // Answered after the error, each call gets its own answer: the error failed none.
    for id in [2, 3, 1] {
        reply(
            &peer,
            json!({"jsonrpc": "2.0", "id": id, "result": {"id": id}}),
        )
        .await;
    }
    assert_eq!(first.await.unwrap(), Ok(json!({"id": 2})));
    assert_eq!(second.await.unwrap(), Ok(json!({"id": 3})));
    assert_eq!(listening.await.unwrap(), Ok(json!({"id": 1})));
    assert_eq!(
        *log.lock().unwrap(),
        [LogLine::Protocol(
            "skipped an error that names no request, while 2 were waiting: Parse error (code -32700)"
                .into()
        )]
    );
}
