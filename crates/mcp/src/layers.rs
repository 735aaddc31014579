//! The engine's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // JSON-RPC, the revisions, and what the wire carries beside MCP's types.
    &["version", "jsonrpc", "file_uri", "schema", "traffic"],
    // MCP's types.
    &["types"],
    // Moving messages: the transports, and the sign-ins HTTP ones need.
    &["auth", "transport"],
    // Requests and their answers over a transport.
    &["connection"],
    // The two roles.
    &["client", "server"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
