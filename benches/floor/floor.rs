//! The floor of the app's footprint: a bare Tauri window showing an empty page, with the
//! settings the app gives its own process and web view (the same functions, called at the
//! same points). What the footprint benchmark measures beside the app: whatever the app
//! holds above this is its own.
//!
//!   cargo build --release -p switchboard --example footprint-floor

fn main() {
    switchboard_app::prepare_process();
    let built = tauri::Builder::default()
        .setup(|app| {
            switchboard_app::economize(app);
            Ok(())
        })
        .run(tauri::generate_context!("benches/floor/tauri.conf.json"));
    if let Err(err) = built {
        eprintln!("the floor's window could not open: {err}");
        std::process::exit(1);
    }
}
