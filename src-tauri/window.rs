//! The app's one window, brought to the front (with a request's dialog open, when one is
//! named) from the tray, a notification or a second launch.

use tauri::{AppHandle, Manager, Runtime};
use tauri_specta::Event;

/// The window is to show the dialog of this request (the person clicked its notification,
/// or the tray's line of waiting requests).
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
pub struct ShowRequest {
    pub id: u64,
}

/// The label of the app's one window.
pub const MAIN: &str = "main";

/// Shows the window in front, with the dialog of `request` open when one is named.
pub fn present<R: Runtime>(app: &AppHandle<R>, request: Option<u64>) {
    let Some(window) = app.get_webview_window(MAIN) else {
        return;
    };
    let _ = window.unminimize();
    let _ = window.show();
    let _ = window.set_focus();
    if let Some(id) = request {
        let _ = ShowRequest { id }.emit(app);
    }
}
