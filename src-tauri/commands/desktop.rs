//! How the app lives on the desktop: whether closing the window quits, whether it starts
//! at login, and the language and colours of its window.

use switchboard_core::config::{Language, Theme};
use switchboard_desk::Desk;
use tauri::State;

use crate::autostart;
use crate::{CommandError, ErrorCode};

type Result<T> = std::result::Result<T, CommandError>;

/// The app's place on the desktop, as the settings show it.
#[derive(Debug, Clone, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct DesktopSettings {
    /// Closing the window quits, rather than leaving the app in the tray.
    pub quit_on_close: bool,
    /// Whether a tray holds the app here; without one, closing the window quits.
    pub has_tray: bool,
    /// The app starts (in the tray) when the person logs in.
    pub start_at_login: bool,
    /// The autostart entry that does so, written only while it is on.
    pub autostart_entry: Option<String>,
    /// The language the person chose for the window; none: the system's.
    pub language: Option<Language>,
    /// The system's language, of those the app speaks (as the tray does).
    pub system_language: Language,
    /// The window's colours the person chose; none: the system's.
    pub theme: Option<Theme>,
}

#[tauri::command]
#[specta::specta]
pub fn desktop_settings(app: tauri::AppHandle, desk: State<'_, Desk>) -> DesktopSettings {
    let entry = autostart::entry_path();
    DesktopSettings {
        quit_on_close: desk.servers().quits_on_close(),
        has_tray: crate::tray::holds(&app),
        start_at_login: entry.as_deref().is_some_and(autostart::is_on),
        autostart_entry: entry.map(|e| e.display().to_string()),
        language: desk.servers().language(),
        system_language: crate::speech::system_language(),
        theme: desk.servers().theme(),
    }
}

/// Sets the window's colours; none: the system's.
#[tauri::command]
#[specta::specta]
pub async fn set_theme(desk: State<'_, Desk>, theme: Option<Theme>) -> Result<()> {
    Ok(desk.servers().set_theme(theme).await?)
}

/// Sets the window's language; none: the system's.
#[tauri::command]
#[specta::specta]
pub async fn set_language(desk: State<'_, Desk>, language: Option<Language>) -> Result<()> {
    Ok(desk.servers().set_language(language).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_quit_on_close(desk: State<'_, Desk>, on: bool) -> Result<()> {
    Ok(desk.servers().set_quit_on_close(on).await?)
}

#[tauri::command]
#[specta::specta]
pub fn set_start_at_login(on: bool) -> Result<()> {
    let system = |message: String| CommandError::plain(ErrorCode::System, message);
    let entry = autostart::entry_path()
        .ok_or_else(|| system("no configuration folder to put the autostart entry in".into()))?;
    let exe = std::env::current_exe()
        .map_err(|e| system(format!("where the app is installed cannot be told: {e}")))?;
    autostart::set(&entry, on, &exe, &autostart::profile_env())
        .map_err(|e| system(format!("{}: {e}", entry.display())))
}
