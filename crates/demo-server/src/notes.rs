//! Notes: kept in memory, each one a resource. Every change tells the client that the
//! resource list changed, and subscribers that the notes changed.

use switchboard_mcp::types::*;

use crate::arguments::{Args, Failure, ToolResult, text_result};
use crate::resources::{NOTES, note_uri};
use crate::server::Server;

const MAX_TITLE: usize = 100;

pub async fn add(server: &Server, args: &Args) -> ToolResult {
    let title = args.string("title")?.trim().to_owned();
    let text = args.string("text")?;
    if title.is_empty() || title.chars().count() > MAX_TITLE {
        return Err(Failure(format!(
            "add_note: a title has 1 to {MAX_TITLE} characters"
        )));
    }
    {
        let mut state = server.state();
        if state.notes.contains_key(&title) {
            return Err(Failure(format!(
                "add_note: a note titled {title:?} exists already; delete it first"
            )));
        }
        state.notes.insert(title.clone(), text);
    }
    changed(server, &title).await;
    Ok(text_result(format!(
        "added the note {title:?}: it is the resource {}",
        note_uri(&title)
    )))
}

pub async fn delete(server: &Server, args: &Args) -> ToolResult {
    let title = args.string("title")?.trim().to_owned();
    let removed = server.state().notes.remove(&title).is_some();
    if !removed {
        return Err(Failure(format!(
            "delete_note: there is no note titled {title:?}"
        )));
    }
    changed(server, &title).await;
    Ok(text_result(format!("deleted the note {title:?}")))
}

/// A note was added or deleted: the list changed, and so did `demo://notes` and the note.
async fn changed(server: &Server, title: &str) {
    server.notify(method::RESOURCES_LIST_CHANGED, ()).await;
    let updated: Vec<String> = {
        let state = server.state();
        [NOTES.to_owned(), note_uri(title)]
            .into_iter()
            .filter(|uri| state.subscriptions.contains(uri))
            .collect()
    };
    for uri in updated {
        let params = ResourceUpdatedNotificationParams::new(uri);
        server.notify(method::RESOURCES_UPDATED, params).await;
    }
}
