//! The command line's layers, bottom first: a module may import only from its own layer or
//! those below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // Its commands' parts.
    &[
        "answers",
        "sign_in",
        "conformance_auth",
        "bridge",
        "approve",
    ],
    // A conversation with one of the app's models.
    &["chat"],
    // The conformance suite's client.
    &["conformance"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
