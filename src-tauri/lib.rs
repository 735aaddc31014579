//! The desktop shell: thin adapters from Tauri's IPC to the host core.
//! Logic that a test without a window could not reach does not belong here.

mod commands;
mod error;

pub use commands::AppInfo;
pub use error::{CommandError, ErrorCode};

/// The typed IPC surface: every command the window may call. The same builder
/// exports `ui/src/bindings.ts`, so the UI's types are never written by hand.
pub fn ipc() -> tauri_specta::Builder<tauri::Wry> {
    tauri_specta::Builder::<tauri::Wry>::new()
        .commands(tauri_specta::collect_commands![commands::app_info])
        .error_handling(tauri_specta::ErrorHandlingMode::Throw)
}

pub fn run() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("SWITCHBOARD_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .init();

    prepare_config();
    let ipc = ipc();
    let result = tauri::Builder::default()
        .invoke_handler(ipc.invoke_handler())
        .setup(move |app| {
            ipc.mount_events(app);
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(err) = result {
        tracing::error!("the app stopped with an error: {err}");
        std::process::exit(1);
    }
}

/// On a first run, writes the configuration with the bundled demo server (installed beside
/// the app), so that a newcomer sees everything work with no network. A broken file is left
/// alone: the app starts and says what is wrong.
fn prepare_config() {
    let demo = std::env::current_exe()
        .map(|exe| exe.with_file_name("switchboard-demo-server"))
        .unwrap_or_else(|_| "switchboard-demo-server".into());
    let prepared = switchboard_host::config::config_path()
        .map_err(|e| e.to_string())
        .and_then(|path| {
            switchboard_host::config::load_or_create(&path, || {
                switchboard_host::config::Config::first_run(&demo)
            })
            .map_err(|e| e.to_string())
        });
    if let Err(err) = prepared {
        tracing::error!("{err}");
    }
}

#[cfg(test)]
mod bindings;
