//! The app's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // The process and the window, and what the desktop offers.
    &[
        "told",
        "error",
        "malloc",
        "webview",
        "window",
        "autostart",
        "browser",
        "install_link",
        "speech",
    ],
    // What holds the app beside its window.
    &["tray", "instance"],
    // What the window is told and what it may call.
    &["events", "stays", "commands"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src-tauri");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
