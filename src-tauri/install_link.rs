//! `switchboard://install?...` links, the app's URL scheme (see
//! `switchboard_core::registry::link` for what a link may say). The system opens one by
//! starting the app with the link as an argument; the link waits here until the window
//! takes it and shows the review of the server it names. Nothing is added by a link.

use std::sync::Mutex;

use switchboard_core::registry::link::SCHEME;
use tauri::{App, AppHandle, Manager, Runtime};
use tauri_plugin_deep_link::DeepLinkExt;
use tauri_specta::Event;

use crate::window;

/// Links the window has not taken yet.
#[derive(Default)]
pub struct InstallLinks(Mutex<Vec<String>>);

impl InstallLinks {
    pub fn take(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }
}

/// Links arrived: the window takes them (`take_install_links`).
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
pub struct InstallLinksArrived;

/// Keeps the links the app was started with, and those the system passes on while it runs.
pub fn setup<R: Runtime>(app: &mut App<R>) {
    app.manage(InstallLinks::default());
    if arrived(app.handle(), std::env::args().skip(1)) {
        window::present(app.handle(), None);
    }
    let handle = app.handle().clone();
    app.deep_link().on_open_url(move |event| {
        if arrived(&handle, event.urls().into_iter().map(String::from)) {
            window::present(&handle, None);
        }
    });
    // An installed package declares the scheme in its desktop entry; a build run from
    // the source tree declares it for the person's session instead.
    #[cfg(all(debug_assertions, target_os = "linux"))]
    if let Err(err) = app.deep_link().register_all() {
        tracing::debug!("switchboard:// links are not registered: {err}");
    }
}

/// Links among `args` (a command line, or the URLs the system opened) for the window to
/// show; a second launch's arguments come here too. Whether any came (the window is then
/// to be shown).
pub fn arrived<R: Runtime>(app: &AppHandle<R>, args: impl IntoIterator<Item = String>) -> bool {
    let prefix = format!("{SCHEME}:");
    let links: Vec<String> = args
        .into_iter()
        .filter(|a| {
            a.get(..prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(&prefix))
        })
        .collect();
    if links.is_empty() {
        return false;
    }
    if let Some(kept) = app.try_state::<InstallLinks>() {
        if let Ok(mut kept) = kept.0.lock() {
            kept.extend(links);
        }
        let _ = InstallLinksArrived.emit(app);
    }
    true
}
