//! A long tool's progress reaches the caller step by step, and cancelling it ends the call
//! at once and leaves the session usable.

use switchboard_mcp::client::ClientError;
use switchboard_mcp::connection::RequestError;
use tokio_util::sync::CancellationToken;

use super::arguments;
use crate::common::http_peers::{EverythingHttp, PyHttp};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, WAIT, first_text, with_progress};

struct Peer {
    reach: Reach,
    tool: &'static str,
    /// The tool's arguments for a run of `steps` steps, and its text when done.
    run: &'static str,
    steps: u32,
    done: &'static str,
    /// What each step says, followed by its number, if anything.
    step_message: Option<&'static str>,
}

const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    tool: "slow",
    run: r#"{"steps": 3, "delay_ms": 10}"#,
    steps: 3,
    done: "done after 3 steps",
    step_message: Some("step "),
};
const RMCP: Peer = Peer {
    reach: Reach::RmcpStdio,
    tool: "progress",
    run: r#"{"steps": 3}"#,
    steps: 3,
    done: "done",
    step_message: None,
};
const EVERYTHING: Peer = Peer {
    reach: Reach::EverythingStdio,
    tool: "trigger-long-running-operation",
    run: r#"{"duration": 1, "steps": 5}"#,
    steps: 5,
    done: "Long running operation completed. Duration: 1 seconds, Steps: 5.",
    step_message: None,
};

/// The connection hands on every step, with its total, before the result.
async fn reported(peer: &Peer) {
    let connected = peer.reach.connect(Person::new(Script::default())).await;
    let client = &connected.client;
    let (options, mut progress) = with_progress(client);
    let done = client
        .call_tool(peer.tool, arguments(peer.run), options)
        .await
        .expect("tools/call");
    assert_eq!(first_text(&done), peer.done);
    let mut steps = Vec::new();
    while let Ok(p) = progress.try_recv() {
        steps.push((p.progress, p.total, p.message));
    }
    let total = f64::from(peer.steps);
    let expected: Vec<_> = (1..=peer.steps)
        .map(|i| {
            let message = peer.step_message.map(|m| format!("{m}{i}"));
            (f64::from(i), Some(total), message)
        })
        .collect();
    assert_eq!(steps, expected);
    client.close().await;
}

each_peer!(reported {
    everything_stdio: EVERYTHING,
    everything_streamable_http: Peer {
        reach: Reach::EverythingHttp(EverythingHttp::Streamable),
        run: r#"{"duration": 0.3, "steps": 3}"#,
        steps: 3,
        done: "Long running operation completed. Duration: 0.3 seconds, Steps: 3.",
        ..EVERYTHING
    },
    python_stdio: PYTHON,
    python_streamable_http: PYTHON => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON => Reach::PythonHttp(PyHttp::Sse),
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP => Reach::RmcpHttp,
});

struct Long {
    reach: Reach,
    tool: &'static str,
    /// The tool's arguments for a run far longer than the test.
    run: &'static str,
    /// The first step's progress and total.
    first: (f64, Option<f64>),
    /// What the server writes to stderr once it has stopped the run, when it does.
    stopped: Option<&'static str>,
    /// An echo after, and its answer.
    echo: &'static str,
    echoed: &'static str,
}

const PYTHON_LONG: Long = Long {
    reach: Reach::PythonStdio,
    tool: "slow",
    run: r#"{"steps": 100, "delay_ms": 100}"#,
    first: (1.0, Some(100.0)),
    stopped: Some("slow cancelled"),
    echo: r#"{"text": "after"}"#,
    echoed: "after",
};

/// A run cancelled once it has started ends the call at once; a server that watches for
/// cancellation stops it, one that does not keeps running it, and its later progress for
/// the abandoned request must not disturb the session.
async fn cancelled(peer: &Long) {
    let connected = peer.reach.connect(Person::new(Script::default())).await;
    let client = &connected.client;
    let cancel = CancellationToken::new();
    let (mut options, mut progress) = with_progress(client);
    options.cancel = Some(cancel.clone());
    let call = tokio::spawn({
        let client = client.clone();
        let (tool, run) = (peer.tool, arguments(peer.run));
        async move { client.call_tool(tool, run, options).await }
    });
    let first = tokio::time::timeout(WAIT, progress.recv())
        .await
        .expect("the first step in time")
        .expect("the first step");
    assert_eq!((first.progress, first.total), peer.first);
    cancel.cancel();
    let outcome = call.await.expect("the call task");
    assert!(
        matches!(
            outcome,
            Err(ClientError::Request(RequestError::Cancelled { .. }))
        ),
        "{outcome:?}"
    );
    if let Some(stopped) = peer.stopped {
        assert!(
            connected.stderr_shows(stopped, WAIT).await,
            "the server did not stop the tool; its stderr: {}",
            connected.stderr()
        );
    }
    // The session is still usable.
    client.ping().await.expect("ping");
    let echo = client
        .call_tool("echo", arguments(peer.echo), client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&echo), peer.echoed);
    client.close().await;
}

each_peer!(cancelled {
    everything_stdio: Long {
        reach: Reach::EverythingStdio,
        tool: "trigger-long-running-operation",
        run: r#"{"duration": 30, "steps": 60}"#,
        first: (1.0, Some(60.0)),
        // It does not watch for cancellation.
        stopped: None,
        echo: r#"{"message": "still here"}"#,
        echoed: "Echo: still here",
    },
    python_stdio: PYTHON_LONG,
    python_streamable_http: PYTHON_LONG => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON_LONG => Reach::PythonHttp(PyHttp::Sse),
});
