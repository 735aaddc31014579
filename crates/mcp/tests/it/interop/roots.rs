//! The roots a server sees are exactly the folders the person exposed, and none when they
//! exposed none.

use switchboard_mcp::client::ServerNotification;
use switchboard_mcp::types::Root;

use super::Text;
use crate::common::http_peers::{EverythingHttp, PyHttp};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, Seen, WAIT, first_text};

struct Peer {
    reach: Reach,
    /// The tool that asks the client for its roots and answers with them.
    tool: &'static str,
    /// Its answer when the person exposed [`exposed`]'s two folders.
    exposed: Text,
    /// Its answer when they exposed none.
    none: Text,
}

fn two_folders() -> Vec<Root> {
    vec![
        Root::new("file:///home/ada/project", Some("project".into())),
        Root::new("file:///home/ada/notes", None),
    ]
}

const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    tool: "list_roots",
    exposed: Text::Is("file:///home/ada/project\nfile:///home/ada/notes"),
    none: Text::Is("no roots"),
};
const RMCP: Peer = Peer {
    reach: Reach::RmcpStdio,
    tool: "roots",
    ..PYTHON
};
const EVERYTHING: Peer = Peer {
    reach: Reach::EverythingStdio,
    tool: "get-roots-list",
    exposed: Text::StartsWith("Current MCP Roots (2 total):"),
    none: Text::StartsWith("The client supports roots but no roots are currently configured."),
};

/// The tool asks the client for its roots and gets the folders exposed, asked once.
async fn exposed(peer: &Peer) {
    let person = Person::new(Script {
        roots: two_folders(),
        ..Script::default()
    });
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    let roots = client
        .call_tool(peer.tool, None, client.request_options())
        .await
        .expect("tools/call");
    peer.exposed.check(first_text(&roots), "the roots exposed");
    assert_eq!(person.seen.lock().expect("seen lock").roots_requests, 1);
    client.notify_roots_changed().await.expect("roots changed");
    client.close().await;
}

// Not server-everything: it asks by itself too, 350 ms after the handshake, so how many
// times it asked depends on the timing (`asked_unprompted` tests it).
each_peer!(exposed {
    python_stdio: PYTHON,
    python_streamable_http: PYTHON => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON => Reach::PythonHttp(PyHttp::Sse),
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP => Reach::RmcpHttp,
});

/// Without folders exposed, the tool says there are none.
async fn none(peer: &Peer) {
    let person = Person::new(Script::default());
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    let roots = client
        .call_tool(peer.tool, None, client.request_options())
        .await
        .expect("tools/call");
    peer.none.check(first_text(&roots), "no roots");
    assert!(person.seen.lock().expect("seen lock").roots_requests >= 1);
    client.close().await;
}

each_peer!(none {
    everything_stdio: EVERYTHING,
    python_stdio: PYTHON,
    rmcp_stdio: RMCP,
});

/// How many times server-everything logged that it stored the roots it received.
fn roots_stored(seen: &Seen) -> usize {
    seen.notifications
        .iter()
        .filter(|n| {
            matches!(n, ServerNotification::Log(l)
                if l.data.as_str() == Some("Roots updated: 1 root(s) received from client"))
        })
        .count()
}

/// server-everything asks for the client's roots by itself shortly after initialization,
/// outside any request of the client, logs how many it got, answers its tool from what it
/// knows, and asks again when told they changed.
async fn asked_unprompted(peer: &Peer) {
    let person = Person::new(Script {
        roots: vec![Root::new(
            "file:///home/ada/project",
            Some("project".into()),
        )],
        ..Script::default()
    });
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    person
        .wait_for("the server's roots/list", WAIT, |s| s.roots_requests >= 1)
        .await;
    person
        .wait_for("the roots to be stored", WAIT, |s| roots_stored(s) == 1)
        .await;
    let roots = client
        .call_tool(peer.tool, None, client.request_options())
        .await
        .expect("tools/call");
    Text::StartsWith(
        "Current MCP Roots (1 total):\n\n1. project\n   URI: file:///home/ada/project\n\n",
    )
    .check(first_text(&roots), "the roots it knows");
    // The tool answered from what the server already knew.
    assert_eq!(person.seen.lock().expect("seen lock").roots_requests, 1);

    client.notify_roots_changed().await.expect("roots changed");
    person
        .wait_for("roots/list again", WAIT, |s| s.roots_requests >= 2)
        .await;
    person
        .wait_for("the roots to be stored again", WAIT, |s| {
            roots_stored(s) == 2
        })
        .await;
    client.close().await;
}

each_peer!(asked_unprompted {
    everything_stdio: EVERYTHING,
    everything_streamable_http: EVERYTHING => Reach::EverythingHttp(EverythingHttp::Streamable),
    everything_sse: EVERYTHING => Reach::EverythingHttp(EverythingHttp::Sse),
});
