//! The chat's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // The parts of a turn: names, attachments, apps' words, results, events, retries,
    // servers, drafts, turns, compaction, the host's own tools.
    &[
        "naming",
        "context",
        "apps",
        "results",
        "events",
        "retry",
        "servers",
        "drafts",
        "turns",
        "compaction",
        "search",
        "reading",
    ],
    // The conversations kept.
    &["conversations"],
    // The turn loop.
    &["run"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
