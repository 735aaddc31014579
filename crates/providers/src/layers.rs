//! The providers' crate's layers, bottom first: a module may import only from its own layer or
//! those below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // What a request and an answer are, whoever the provider.
    &["error", "model", "secret", "sse", "profile"],
    // What every request is made before it leaves; a local model's inline thinking.
    &["sendable", "think"],
    // Each provider's wire, and an answer gathered from its stream.
    &["anthropic", "openai", "responses", "collect"],
    // The client that picks the wire.
    &["client"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
