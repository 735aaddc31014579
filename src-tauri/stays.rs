//! The window comes and goes; the app stays. Closing the window hides it while the tray
//! holds the app (unless the person chose to quit on close), and says so the first time.

use std::path::{Path, PathBuf};

use switchboard_desk::Desk;
use tauri::{AppHandle, Manager, Runtime, Window, WindowEvent};
use tauri_plugin_notification::NotificationExt;

use crate::tray;
use crate::window::MAIN;

/// Started at login: the window stays closed while a tray holds the app.
pub fn start_in_tray<R: Runtime>(app: &AppHandle<R>) {
    let has_tray = tray::holds(app);
    if let (true, Some(window)) = (has_tray, app.get_webview_window(MAIN)) {
        let _ = window.hide();
    }
}

/// What closing the window does.
#[derive(Debug, PartialEq, Eq)]
pub enum Closing {
    /// The window hides; the app runs on in the tray.
    Hide,
    /// The app quits, stopping its servers gracefully.
    Quit,
}

/// Without a tray to come back from, or when the person chose so, closing quits.
pub fn closing(has_tray: bool, quit_on_close: bool) -> Closing {
    if has_tray && !quit_on_close {
        Closing::Hide
    } else {
        Closing::Quit
    }
}

pub fn on_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    let WindowEvent::CloseRequested { api, .. } = event else {
        return;
    };
    let app = window.app_handle();
    let has_tray = tray::holds(app);
    let quit_on_close = app
        .try_state::<Desk>()
        .is_some_and(|d| d.servers().quits_on_close());
    if closing(has_tray, quit_on_close) == Closing::Quit {
        return;
    }
    api.prevent_close();
    let _ = window.hide();
    if app
        .try_state::<StaysNotice>()
        .is_some_and(|notice| notice.first_time())
    {
        let shown = app
            .notification()
            .builder()
            .title(crate::speech::say(app, "notice-stays-title", &[]))
            .body(crate::speech::say(app, "notice-stays-body", &[]))
            .show();
        if let Err(err) = shown {
            tracing::debug!("no desktop notification: {err}");
        }
    }
}

/// Whether the person was told that closing the window leaves the app in the tray: a mark
/// beside the configuration, so that they are told once per profile.
pub struct StaysNotice(PathBuf);

impl StaysNotice {
    pub fn beside(config: &Path) -> Self {
        Self(config.with_file_name("told-stays-in-tray"))
    }

    /// True the first time only. A mark that cannot be written tells again next time,
    /// rather than never.
    pub fn first_time(&self) -> bool {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.0)
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_hides_only_when_a_tray_holds_the_app_and_the_person_did_not_choose_to_quit() {
        assert_eq!(closing(true, false), Closing::Hide);
        assert_eq!(closing(true, true), Closing::Quit);
        assert_eq!(closing(false, false), Closing::Quit);
    }

    #[test]
    fn the_person_is_told_once_per_profile() {
        let dir = tempfile::tempdir().expect("temp dir");
        let notice = StaysNotice::beside(&dir.path().join("config.json"));
        assert!(notice.first_time());
        assert!(!notice.first_time());
        let other = tempfile::tempdir().expect("temp dir");
        assert!(StaysNotice::beside(&other.path().join("config.json")).first_time());
    }
}
