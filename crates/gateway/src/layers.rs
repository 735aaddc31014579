//! The gateway's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // How agents see the servers' names, and what they subscribed to.
    &["names", "subscriptions"],
    // One agent's session.
    &["session"],
    // The ways in: the local socket and Streamable HTTP.
    &["bridge", "http"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
