//! The desk's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // The parts the services are made of, and the services that need no other.
    &[
        "activity",
        "file_notice",
        "given",
        "keeps",
        "switches",
        "shown",
        "server_settings",
        "logbook",
        "models",
        "sampling",
        "tasks",
        "watch",
    ],
    // The services of the window's areas: the servers, what they offer, trust.
    &["servers", "explorer", "trust"],
    // The chat and the agents, over those.
    &["agents", "chat"],
    // The desk's parts as its services' ports.
    &["ports"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
