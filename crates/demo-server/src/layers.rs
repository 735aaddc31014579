//! The demo server's layers, bottom first: a module may import only from its own layer or
//! those below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // Its state and what it asks of the client; what a tool reads and returns.
    &["server", "media", "arguments"],
    // What it offers.
    &["resources", "prompts", "notes", "ask", "tools", "skills"],
    // The routing of the client's requests to what answers them.
    &["handler"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
