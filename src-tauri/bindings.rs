//! `ui/src/bindings.ts` is generated from the Rust types. These tests fail when the
//! committed file is stale, or when a command lacks the permission the window needs.
//! Regenerate with `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard bindings`.

use std::path::Path;

const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/bindings.ts");

/// The MCP schema's types (`ui/src/mcp/schema.ts`, generated from the official schema), by
/// which the host describes the MCP payloads it passes on (`switchboard_core::json::mcp`).
const MCP_TYPES: &str = "import type * as Mcp from \"./mcp/schema\";";

fn generated() -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bindings.ts");
    crate::ipc()
        .export(
            specta_typescript::Typescript::default().header(MCP_TYPES),
            &path,
        )
        .expect("export bindings");
    std::fs::read_to_string(path).expect("read generated bindings")
}

#[test]
fn bindings_are_current() {
    let fresh = generated();
    if std::env::var_os("SWITCHBOARD_WRITE_BINDINGS").is_some() {
        std::fs::write(BINDINGS, &fresh).expect("write bindings");
        return;
    }
    let committed = std::fs::read_to_string(Path::new(BINDINGS)).unwrap_or_default();
    assert!(
        committed == fresh,
        "ui/src/bindings.ts is stale: run `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard bindings`"
    );
}

#[test]
fn every_command_has_a_permission_in_the_capability() {
    let bindings = generated();
    let capability: serde_json::Value =
        serde_json::from_str(include_str!("capabilities/main.json")).expect("capability is JSON");
    let granted: Vec<&str> = capability["permissions"]
        .as_array()
        .expect("permissions list")
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    // Calls look like `__TAURI_INVOKE<AppInfo>("app_info")`.
    let invoked: Vec<&str> = bindings
        .split("__TAURI_INVOKE")
        .skip(1)
        .filter(|rest| rest.starts_with(['<', '(']))
        .filter_map(|rest| rest.split_once("(\"")?.1.split('"').next())
        .collect();
    assert!(!invoked.is_empty(), "no command found in the bindings");
    let own: Vec<String> = invoked
        .iter()
        .map(|command| format!("allow-{}", command.replace('_', "-")))
        .collect();
    for (command, permission) in invoked.iter().zip(&own) {
        assert!(
            granted.contains(&permission.as_str()),
            "command `{command}` is not granted by src-tauri/capabilities/main.json ({permission})"
        );
    }
    // And nothing more: no command of Tauri's own or of a plugin beyond event listening.
    let listening = ["core:event:allow-listen", "core:event:allow-unlisten"];
    let more: Vec<&str> = granted
        .into_iter()
        .filter(|p| !listening.contains(p) && !own.iter().any(|o| o == p))
        .collect();
    assert!(
        more.is_empty(),
        "src-tauri/capabilities/main.json grants the window more than the app's own commands: {more:?}"
    );
}
