//! The server's log messages follow the level the client sets.

use serde_json::{Value, json};
use switchboard_mcp::client::ServerNotification;
use switchboard_mcp::types::LoggingLevel;

use crate::common::http_peers::PyHttp;
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, WAIT};

struct Peer {
    reach: Reach,
    /// The tool that logs "at <level>" at debug, info, warning and error.
    tool: &'static str,
}

const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    tool: "log_levels",
};

async fn follow_the_level(peer: &Peer) {
    let person = Person::new(Script::default());
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    // The tool called with the level set to `level`: the messages it sent, once they came.
    let logged_at = async |level, count, what| -> Vec<(LoggingLevel, Value)> {
        let before = person.seen.lock().expect("seen lock").notifications.len();
        client
            .set_logging_level(level)
            .await
            .expect("logging/setLevel");
        client
            .call_tool(peer.tool, None, client.request_options())
            .await
            .expect("tools/call");
        person
            .wait_for(what, WAIT, |s| s.notifications.len() >= before + count)
            .await;
        person.seen.lock().expect("seen lock").notifications[before..]
            .iter()
            .filter_map(|n| match n {
                ServerNotification::Log(log) => Some((log.level?, log.data.clone())),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        logged_at(LoggingLevel::Debug, 4, "four log messages").await,
        [
            (LoggingLevel::Debug, json!("at debug")),
            (LoggingLevel::Info, json!("at info")),
            (LoggingLevel::Warning, json!("at warning")),
            (LoggingLevel::Error, json!("at error")),
        ]
    );
    assert_eq!(
        logged_at(LoggingLevel::Warning, 2, "two more").await,
        [
            (LoggingLevel::Warning, json!("at warning")),
            (LoggingLevel::Error, json!("at error")),
        ]
    );
    client.close().await;
}

each_peer!(follow_the_level {
    python_stdio: PYTHON,
    python_streamable_http: PYTHON => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON => Reach::PythonHttp(PyHttp::Sse),
});
