//! MCP Apps' views from a real server: `@modelcontextprotocol/server-basic-vanillajs`, the
//! extension's own example, run by the host as a person would configure it. Its tool says
//! where its view is; the view is read and checked (its type, that it is text), with the
//! hash its trust is pinned by; a URI that is not a view's is refused before anything is
//! asked of the server.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use sha2::{Digest, Sha256};
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
    let servers = json!({"basic": {"command": "node", "args": [server, "--stdio"]}});
    let world = desk_on(servers, json!({}), keyring("apps")).await;
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
}
