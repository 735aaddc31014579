//! The desk's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // One part each of what the window shows and changes.
    &[
        "activity",
        "keeps",
        "switches",
        "shown",
        "server_settings",
        "logbook",
        "models",
        "sampling",
        "watch",
    ],
    // What the servers offer as each asker sees it, and what is done with a server's form.
    &["explorer", "imports", "trust", "signing_in"],
    // The chat, the agents and the registry, over those.
    &["agents", "chat", "registry"],
    // The desk's parts as its services' ports.
    &["ports"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
