fn main() {
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let manifest = tauri_build::AppManifest::new().commands(switchboard_commands());
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("src-tauri/capabilities/*.json")
            .app_manifest(manifest),
    )
    .expect("tauri build step");
}

/// Every command the app exposes; each gets an `allow-<name>` permission that the
/// window's capability must grant explicitly.
fn switchboard_commands() -> &'static [&'static str] {
    &["app_info"]
}
