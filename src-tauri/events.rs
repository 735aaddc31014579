//! Carries the desk's updates to the window, and asks for the person's attention when a
//! request waits for them while the window is in the background.

use switchboard_host::approvals::Question;
use switchboard_host::desk::{Desk, Update};
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::NotificationExt;
use tauri_specta::Event;
use tokio::sync::broadcast::error::RecvError;

/// One change in the host, for the window to show.
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct HostUpdate(pub Update);

pub fn relay<R: Runtime>(app: AppHandle<R>, desk: &Desk) {
    let mut updates = desk.updates();
    tauri::async_runtime::spawn(async move {
        loop {
            match updates.recv().await {
                Ok(update) => {
                    if let Update::ApprovalAdded { pending } = &update {
                        call_attention(&app, &pending.server, &pending.question);
                    }
                    let _ = HostUpdate(update).emit(&app);
                }
                // The window refetches on the next update; a lost step is not lost state.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            }
        }
    });
}

/// A desktop notification, and the window's urgency hint, when nobody is looking.
fn call_attention<R: Runtime>(app: &AppHandle<R>, server: &str, question: &Question) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    if window.is_focused().unwrap_or(true) {
        return;
    }
    let what = match question {
        Question::ToolCall { tool, .. } => format!("{server} wants to call {tool}"),
        Question::Sampling { .. } => format!("{server} asks for a model reply"),
        Question::Elicitation { .. } => format!("{server} asks you a question"),
        Question::Roots => format!("{server} asks which folders it may see"),
    };
    let _ = window.request_user_attention(Some(tauri::UserAttentionType::Informational));
    let shown = app
        .notification()
        .builder()
        .title("Switchboard: a request waits for you")
        .body(what)
        .show();
    if let Err(err) = shown {
        tracing::debug!("no desktop notification: {err}");
    }
}
