//! The chat: conversations, which tools each one's model sees, a message sent to a model
//! (its run told through `host-update`), and Stop.

use switchboard_chat::{ConversationSettings, ConversationSummary};
use switchboard_desk::{
    Asking, ChatTools, Composed, ConversationView, Desk, ExportFormat, ExportWords,
};
use tauri::State;
use tauri_plugin_dialog::DialogExt;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

/// Every conversation, the one changed last first; with a query, those holding its words.
#[tauri::command]
#[specta::specta]
pub async fn conversations(
    desk: State<'_, Desk>,
    query: Option<String>,
) -> Result<Vec<ConversationSummary>> {
    Ok(desk.chats().conversations(query).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn create_conversation(
    desk: State<'_, Desk>,
    title: Option<String>,
) -> Result<ConversationSummary> {
    Ok(desk.chats().create_conversation(title).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn rename_conversation(desk: State<'_, Desk>, id: i64, title: String) -> Result<()> {
    Ok(desk.chats().rename_conversation(id, &title).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn delete_conversation(desk: State<'_, Desk>, id: i64) -> Result<()> {
    Ok(desk.chats().delete_conversation(id).await?)
}

/// Takes back a conversation deleted since Switchboard started.
#[tauri::command]
#[specta::specta]
pub async fn restore_conversation(desk: State<'_, Desk>, id: i64) -> Result<()> {
    Ok(desk.chats().restore_conversation(id).await?)
}

/// How the conversation asks its model from now on (each unset: the defaults).
#[tauri::command]
#[specta::specta]
pub async fn set_conversation_settings(
    desk: State<'_, Desk>,
    id: i64,
    settings: ConversationSettings,
) -> Result<()> {
    Ok(desk.chats().set_conversation_settings(id, settings).await?)
}

/// Writes the conversation out in `format` where the person chooses with the system's save
/// dialog; the file written, or null when they closed the dialog.
#[tauri::command]
#[specta::specta]
pub async fn export_conversation(
    app: tauri::AppHandle,
    desk: State<'_, Desk>,
    id: i64,
    format: ExportFormat,
    words: Option<ExportWords>,
) -> Result<Option<String>> {
    let words = words.unwrap_or_default();
    let exported = desk.chats().export_conversation(id, format, &words).await?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_file_name(&exported.file_name)
        .save_file(move |file| {
            let _ = tx.send(file.and_then(|f| f.into_path().ok()));
        });
    let Some(path) = rx.await.ok().flatten() else {
        return Ok(None);
    };
    std::fs::write(&path, exported.text)
        .map_err(|e| CommandError::invalid(format!("could not write {}: {e}", path.display())))?;
    Ok(Some(path.display().to_string()))
}

#[tauri::command]
#[specta::specta]
pub async fn conversation(desk: State<'_, Desk>, id: i64) -> Result<ConversationView> {
    Ok(desk.chats().conversation(id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn chat_tools(desk: State<'_, Desk>, id: i64) -> Result<ChatTools> {
    Ok(desk.chats().chat_tools(id).await?)
}

/// Lets the conversation's model see a server's tools (`tool` null) or one tool, or not.
#[tauri::command]
#[specta::specta]
pub async fn set_chat_tool(
    desk: State<'_, Desk>,
    id: i64,
    server: String,
    tool: Option<String>,
    on: bool,
) -> Result<ChatTools> {
    Ok(desk
        .chats()
        .set_chat_tool(id, &server, tool.as_deref(), on)
        .await?)
}

/// Sends a message; returns once the model is asked (null provider or model: the default).
#[tauri::command]
#[specta::specta]
pub async fn send_message(
    desk: State<'_, Desk>,
    id: i64,
    text: String,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    Ok(desk.chats().send_message(id, text, provider, model).await?)
}

/// Sends a message with context: resources attached to it (read now), and a prompt used as
/// a slash command (got now, its messages first); returns once the model is asked.
#[tauri::command]
#[specta::specta]
pub async fn send_composed(
    desk: State<'_, Desk>,
    id: i64,
    message: Composed,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    Ok(desk
        .chats()
        .send_composed(id, message, provider, model)
        .await?)
}

/// Replaces the person's turn that begins at message `at` (and all after it) by `message`,
/// and asks the model; returns once it is asked.
#[tauri::command]
#[specta::specta]
pub async fn edit_turn(
    desk: State<'_, Desk>,
    id: i64,
    at: u32,
    message: Composed,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    let asking = Asking::model(provider, model);
    Ok(desk
        .chats()
        .edit_turn(id, at as usize, message, asking)
        .await?)
}

/// Has the model go on from its last answer, cut off at its most tokens.
#[tauri::command]
#[specta::specta]
pub async fn go_on(
    desk: State<'_, Desk>,
    id: i64,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    Ok(desk
        .chats()
        .go_on(id, Asking::model(provider, model))
        .await?)
}

/// Asks the model again for its answer to the last turn, which it replaces.
#[tauri::command]
#[specta::specta]
pub async fn regenerate(
    desk: State<'_, Desk>,
    id: i64,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    let asking = Asking::model(provider, model);
    Ok(desk.chats().regenerate(id, asking).await?)
}

/// Has the conversation's model (or the one given) summarise the turns before the last,
/// so that the conversation fits its context again.
#[tauri::command]
#[specta::specta]
pub async fn summarise_earlier(
    desk: State<'_, Desk>,
    id: i64,
    provider: Option<String>,
    model: Option<String>,
) -> Result<()> {
    let asking = Asking::model(provider, model);
    Ok(desk.chats().summarise_earlier(id, asking).await?)
}

/// Takes back the person's turn that begins at message `at`, with the model's answer.
#[tauri::command]
#[specta::specta]
pub async fn remove_turn(desk: State<'_, Desk>, id: i64, at: u32) -> Result<()> {
    Ok(desk.chats().remove_turn(id, at as usize).await?)
}

/// Stops the conversation's answer and cancels its tool calls under way.
#[tauri::command]
#[specta::specta]
pub fn stop_chat(desk: State<'_, Desk>, id: i64) -> Result<bool> {
    Ok(desk.chats().stop_chat(id))
}
