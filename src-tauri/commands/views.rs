//! What a tool's view (MCP Apps) asks of the desktop once the person agreed in the window:
//! a web page opened in their browser, a file saved where they choose; and what a view in a
//! conversation says into it.

use serde_json::Value;
use switchboard_desk::Desk;
use switchboard_mcp::types::ContentBlock;
use tauri::State;
use tauri_plugin_dialog::DialogExt;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

/// Opens `url` in the person's browser; only a web address (http, https) is opened, the
/// window having checked it and asked them first.
#[tauri::command]
#[specta::specta]
pub fn open_web_link(url: String) -> Result<()> {
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    if !matches!(scheme.as_deref(), Some("http" | "https")) {
        return Err(CommandError::invalid(format!(
            "only web addresses (http, https) are opened, and {url} is not one"
        )));
    }
    crate::browser::open(&url)
}

/// Saves a file a view of `server` offered (an embedded resource or a link to one of its
/// server's resources) where the person chooses with the system's save dialog; the file
/// written, or null when they closed the dialog.
#[tauri::command]
#[specta::specta]
pub async fn save_download(
    app: tauri::AppHandle,
    desk: State<'_, Desk>,
    server: String,
    item: Value,
) -> Result<Option<String>> {
    let download = desk.explorer().download(&server, item).await?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_file_name(&download.file_name)
        .save_file(move |file| {
            let _ = tx.send(file.and_then(|f| f.into_path().ok()));
        });
    let Some(path) = rx.await.ok().flatten() else {
        return Ok(None);
    };
    std::fs::write(&path, download.bytes)
        .map_err(|e| CommandError::invalid(format!("could not write {}: {e}", path.display())))?;
    Ok(Some(path.display().to_string()))
}

/// The content blocks a view sent, as MCP has them; a clear error when they are not.
fn blocks(content: Value) -> Result<Vec<ContentBlock>> {
    serde_json::from_value(content)
        .map_err(|e| CommandError::invalid(format!("the app's content is not MCP content: {e}")))
}

/// The view of `server` in conversation `id` sends a message (`ui/message`): the model
/// answers it as the app's; returns once the model is asked.
#[tauri::command]
#[specta::specta]
pub async fn app_message(
    desk: State<'_, Desk>,
    id: i64,
    server: String,
    content: Value,
) -> Result<()> {
    Ok(desk
        .chats()
        .app_message(id, &server, blocks(content)?)
        .await?)
}

/// What the view of `server` in conversation `id` tells the model of its state
/// (`ui/update-model-context`), sent with the conversation's next message.
#[tauri::command]
#[specta::specta]
pub fn app_context(
    desk: State<'_, Desk>,
    id: i64,
    server: String,
    content: Value,
    structured: Option<serde_json::Map<String, Value>>,
) -> Result<()> {
    desk.chats()
        .app_context(id, &server, blocks(content)?, structured);
    Ok(())
}
