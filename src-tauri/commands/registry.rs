//! The MCP Registry: browsing it, and composing the server a person adds from it (saved
//! by `save_server`, as one added by hand).

use switchboard_core::registry::{ListQuery, Page, RegistryServer, Way};
use switchboard_desk::{Desk, InstallProposal, RegistryAdd, ServerForm};
use tauri::State;

use crate::CommandError;
use crate::install_link::InstallLinks;

type Result<T> = std::result::Result<T, CommandError>;

/// The registry of the settings.
#[tauri::command]
#[specta::specta]
pub fn registry_url(desk: State<'_, Desk>) -> String {
    desk.servers().registry_url()
}

#[tauri::command]
#[specta::specta]
pub async fn registry_servers(desk: State<'_, Desk>, query: ListQuery) -> Result<Page> {
    Ok(desk.servers().registry_servers(&query).await?)
}

#[tauri::command]
#[specta::specta]
pub fn install_proposal(
    desk: State<'_, Desk>,
    server: RegistryServer,
    way: Way,
) -> Result<InstallProposal> {
    Ok(desk.servers().install_proposal(server, way)?)
}

/// The entry that would be saved: shown to the person, saved only by `save_server`.
#[tauri::command]
#[specta::specta]
pub fn compose_install(desk: State<'_, Desk>, add: RegistryAdd) -> Result<ServerForm> {
    Ok(desk.servers().compose_install(&add)?)
}

/// The `switchboard://install` links that opened the app and that the window has not
/// shown yet, oldest first.
#[tauri::command]
#[specta::specta]
pub fn take_install_links(links: State<'_, InstallLinks>) -> Vec<String> {
    links.take()
}

/// The server a link names, from the registry of the settings.
#[tauri::command]
#[specta::specta]
pub async fn install_link_server(desk: State<'_, Desk>, link: String) -> Result<RegistryServer> {
    Ok(desk.servers().install_link(&link).await?)
}
